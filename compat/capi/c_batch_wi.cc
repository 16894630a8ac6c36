// c_batch_wi.cc: indexed write batches (rocksdb_writebatch_wi_*) over
// rocksdb::WriteBatchWithIndex (rocksdb/c.h): the operations shared with
// plain batches (c_batch_ops.h), reads from the batch alone or merged with
// a database, and iterators over the batch on top of a database iterator.
#include "compat/capi/c_batch_ops.h"
#include "compat/capi/c_wbwi.h"

using strata_capi::CopyBytes;
using strata_capi::SaveError;

namespace {

rocksdb::WriteBatchWithIndex* Base(rocksdb_writebatch_wi_t* b) { return b->rep; }
rocksdb::WriteBatch* Plain(rocksdb_writebatch_wi_t* b) { return b->rep->GetWriteBatch(); }

// Replays a serialized batch into an indexed one (default family only).
class ReplayHandler : public rocksdb::WriteBatch::Handler {
 public:
  explicit ReplayHandler(rocksdb::WriteBatchWithIndex* out) : out_(out) {}
  rocksdb::Status PutCF(uint32_t cf, const rocksdb::Slice& key,
                        const rocksdb::Slice& value) override {
    return cf == 0 ? out_->Put(key, value) : OtherFamily();
  }
  rocksdb::Status DeleteCF(uint32_t cf, const rocksdb::Slice& key) override {
    return cf == 0 ? out_->Delete(key) : OtherFamily();
  }
  rocksdb::Status SingleDeleteCF(uint32_t cf, const rocksdb::Slice& key) override {
    return cf == 0 ? out_->SingleDelete(key) : OtherFamily();
  }
  rocksdb::Status MergeCF(uint32_t cf, const rocksdb::Slice& key,
                          const rocksdb::Slice& value) override {
    return cf == 0 ? out_->Merge(key, value) : OtherFamily();
  }
  void LogData(const rocksdb::Slice& blob) override {
    out_->PutLogData(blob).PermitUncheckedError();
  }

 private:
  static rocksdb::Status OtherFamily() {
    return rocksdb::Status::InvalidArgument(
        "rocksdb_writebatch_wi_create_from: records for column families "
        "other than the default cannot be indexed without their handles");
  }
  rocksdb::WriteBatchWithIndex* out_;
};

}  // namespace

extern "C" {

// ---- indexed write batches ----

rocksdb_writebatch_wi_t* rocksdb_writebatch_wi_create(size_t reserved_bytes,
                                                      unsigned char overwrite_keys) {
  auto* b = new rocksdb_writebatch_wi_t;
  b->owned = std::make_unique<rocksdb::WriteBatchWithIndex>(rocksdb::BytewiseComparator(),
                                                            reserved_bytes, overwrite_keys != 0);
  b->rep = b->owned.get();
  return b;
}

// Returns NULL if `rep` is not a valid batch or holds records for a column
// family other than the default (an indexed batch needs their handles).
rocksdb_writebatch_wi_t* rocksdb_writebatch_wi_create_from(const char* rep, size_t size) {
  rocksdb::WriteBatch source{std::string(rep, size)};
  auto* b = rocksdb_writebatch_wi_create(0, 0);
  ReplayHandler replay(b->rep);
  if (!source.Iterate(&replay).ok()) {
    delete b;
    return nullptr;
  }
  return b;
}

void rocksdb_writebatch_wi_destroy(rocksdb_writebatch_wi_t* b) { delete b; }

STRATA_BATCH_OPS(rocksdb_writebatch_wi_t, rocksdb_writebatch_wi)

static char* FromBatch(const rocksdb::Status& s, const std::string& value, size_t* vallen,
                       char** errptr) {
  if (s.ok()) {
    *vallen = value.size();
    return CopyBytes(value.data(), value.size());
  }
  *vallen = 0;
  if (!s.IsNotFound()) SaveError(errptr, s);
  return nullptr;
}

char* rocksdb_writebatch_wi_get_from_batch(rocksdb_writebatch_wi_t* wbwi,
                                           const rocksdb_options_t* options, const char* key,
                                           size_t keylen, size_t* vallen, char** errptr) {
  std::string value;
  rocksdb::Status s = wbwi->rep->GetFromBatch(rocksdb::DBOptions(options->rep),
                                              rocksdb::Slice(key, keylen), &value);
  return FromBatch(s, value, vallen, errptr);
}

char* rocksdb_writebatch_wi_get_from_batch_cf(rocksdb_writebatch_wi_t* wbwi,
                                              const rocksdb_options_t* options,
                                              rocksdb_column_family_handle_t* column_family,
                                              const char* key, size_t keylen, size_t* vallen,
                                              char** errptr) {
  std::string value;
  rocksdb::Status s = wbwi->rep->GetFromBatch(column_family->rep, rocksdb::DBOptions(options->rep),
                                              rocksdb::Slice(key, keylen), &value);
  return FromBatch(s, value, vallen, errptr);
}

char* rocksdb_writebatch_wi_get_from_batch_and_db(rocksdb_writebatch_wi_t* wbwi, rocksdb_t* db,
                                                  const rocksdb_readoptions_t* options,
                                                  const char* key, size_t keylen, size_t* vallen,
                                                  char** errptr) {
  std::string value;
  rocksdb::Status s =
      wbwi->rep->GetFromBatchAndDB(db->rep, options->rep, rocksdb::Slice(key, keylen), &value);
  return FromBatch(s, value, vallen, errptr);
}

char* rocksdb_writebatch_wi_get_from_batch_and_db_cf(rocksdb_writebatch_wi_t* wbwi, rocksdb_t* db,
                                                     const rocksdb_readoptions_t* options,
                                                     rocksdb_column_family_handle_t* column_family,
                                                     const char* key, size_t keylen, size_t* vallen,
                                                     char** errptr) {
  std::string value;
  rocksdb::Status s = wbwi->rep->GetFromBatchAndDB(db->rep, options->rep, column_family->rep,
                                                   rocksdb::Slice(key, keylen), &value);
  return FromBatch(s, value, vallen, errptr);
}

void rocksdb_write_writebatch_wi(rocksdb_t* db, const rocksdb_writeoptions_t* options,
                                 rocksdb_writebatch_wi_t* wbwi, char** errptr) {
  SaveError(errptr, db->rep->Write(options->rep, wbwi->rep->GetWriteBatch()));
}

// The new iterator takes over base_iterator's C++ iterator; the
// base_iterator handle itself is freed here and must not be used again.
rocksdb_iterator_t* rocksdb_writebatch_wi_create_iterator_with_base(
    rocksdb_writebatch_wi_t* wbwi, rocksdb_iterator_t* base_iterator) {
  rocksdb::Iterator* it = wbwi->rep->NewIteratorWithBase(base_iterator->rep);
  delete base_iterator;
  return strata_capi::WrapIterator(it);
}

rocksdb_iterator_t* rocksdb_writebatch_wi_create_iterator_with_base_cf(
    rocksdb_writebatch_wi_t* wbwi, rocksdb_iterator_t* base_iterator,
    rocksdb_column_family_handle_t* column_family) {
  rocksdb::Iterator* it = wbwi->rep->NewIteratorWithBase(column_family->rep, base_iterator->rep);
  delete base_iterator;
  return strata_capi::WrapIterator(it);
}

}  // extern "C"
