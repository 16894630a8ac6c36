// c_batch.cc: write batches, plain (rocksdb_writebatch_*) and indexed
// (rocksdb_writebatch_wi_*) (rocksdb/c.h).
//
// Both kinds share one set of operations through rocksdb::WriteBatchBase;
// the C functions for each are stamped out by STRATA_BATCH_OPS below.
// Operations have no error channel in RocksDB's C API: a failure inside a
// batch operation (for example DeleteRange on an indexed batch, which
// RocksDB does not support) is not reported, exactly as there.
#include "compat/capi/c_internal.h"

using strata_capi::CopyBytes;
using strata_capi::SaveError;

namespace {

rocksdb::WriteBatchBase* Base(rocksdb_writebatch_t* b) { return &b->rep; }
rocksdb::WriteBatchBase* Base(rocksdb_writebatch_wi_t* b) { return b->rep; }

// Builds SliceParts from parallel pointer/length arrays.
std::vector<rocksdb::Slice> Slices(int n, const char* const* list, const size_t* sizes) {
  std::vector<rocksdb::Slice> out;
  for (int i = 0; i < n; i++) out.emplace_back(list[i], sizes[i]);
  return out;
}

void PutV(rocksdb::WriteBatchBase* b, rocksdb::ColumnFamilyHandle* cf, int num_keys,
          const char* const* keys_list, const size_t* keys_list_sizes, int num_values,
          const char* const* values_list, const size_t* values_list_sizes, bool merge) {
  std::vector<rocksdb::Slice> keys = Slices(num_keys, keys_list, keys_list_sizes);
  std::vector<rocksdb::Slice> values = Slices(num_values, values_list, values_list_sizes);
  rocksdb::SliceParts k(keys.data(), num_keys);
  rocksdb::SliceParts v(values.data(), num_values);
  rocksdb::Status s;
  if (merge) {
    // WriteBatchBase has no SliceParts merge: join the parts first.
    std::string key, value;
    for (const rocksdb::Slice& p : keys) key.append(p.data(), p.size());
    for (const rocksdb::Slice& p : values) value.append(p.data(), p.size());
    s = cf != nullptr ? b->Merge(cf, key, value) : b->Merge(key, value);
  } else {
    s = cf != nullptr ? b->Put(cf, k, v) : b->Put(k, v);
  }
  s.PermitUncheckedError();
}

void DeleteV(rocksdb::WriteBatchBase* b, rocksdb::ColumnFamilyHandle* cf, int num_keys,
             const char* const* keys_list, const size_t* keys_list_sizes) {
  std::vector<rocksdb::Slice> keys = Slices(num_keys, keys_list, keys_list_sizes);
  rocksdb::SliceParts k(keys.data(), num_keys);
  (cf != nullptr ? b->Delete(cf, k) : b->Delete(k)).PermitUncheckedError();
}

void DeleteRangeV(rocksdb::WriteBatchBase* b, rocksdb::ColumnFamilyHandle* cf, int num_keys,
                  const char* const* start_keys_list, const size_t* start_keys_list_sizes,
                  const char* const* end_keys_list, const size_t* end_keys_list_sizes) {
  std::vector<rocksdb::Slice> starts = Slices(num_keys, start_keys_list, start_keys_list_sizes);
  std::vector<rocksdb::Slice> ends = Slices(num_keys, end_keys_list, end_keys_list_sizes);
  rocksdb::SliceParts a(starts.data(), num_keys);
  rocksdb::SliceParts z(ends.data(), num_keys);
  (cf != nullptr ? b->DeleteRange(cf, a, z) : b->DeleteRange(a, z)).PermitUncheckedError();
}

// Reports the puts and deletes of the default column family to C
// callbacks, as RocksDB's C API does; other records end the iteration.
class CallbackHandler : public rocksdb::WriteBatch::Handler {
 public:
  CallbackHandler(void* state,
                  void (*put)(void*, const char* k, size_t klen, const char* v, size_t vlen),
                  void (*deleted)(void*, const char* k, size_t klen))
      : state_(state), put_(put), deleted_(deleted) {}
  void Put(const rocksdb::Slice& key, const rocksdb::Slice& value) override {
    put_(state_, key.data(), key.size(), value.data(), value.size());
  }
  void Delete(const rocksdb::Slice& key) override { deleted_(state_, key.data(), key.size()); }

 private:
  void* state_;
  void (*put_)(void*, const char*, size_t, const char*, size_t);
  void (*deleted_)(void*, const char*, size_t);
};

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

rocksdb::WriteBatch* Plain(rocksdb_writebatch_t* b) { return &b->rep; }
rocksdb::WriteBatch* Plain(rocksdb_writebatch_wi_t* b) { return b->rep->GetWriteBatch(); }

}  // namespace

// The operations both batch kinds share, for C type T and name prefix P.
#define STRATA_BATCH_OPS(T, P)                                                                     \
  void P##_clear(T* b) { Base(b)->Clear(); }                                                       \
  int P##_count(T* b) { return Plain(b)->Count(); }                                                \
  void P##_put(T* b, const char* key, size_t klen, const char* val, size_t vlen) {                 \
    Base(b)->Put(rocksdb::Slice(key, klen), rocksdb::Slice(val, vlen)).PermitUncheckedError();     \
  }                                                                                                \
  void P##_put_cf(T* b, rocksdb_column_family_handle_t* column_family, const char* key,            \
                  size_t klen, const char* val, size_t vlen) {                                     \
    Base(b)                                                                                        \
        ->Put(column_family->rep, rocksdb::Slice(key, klen), rocksdb::Slice(val, vlen))            \
        .PermitUncheckedError();                                                                   \
  }                                                                                                \
  void P##_putv(T* b, int num_keys, const char* const* keys_list, const size_t* keys_list_sizes,   \
                int num_values, const char* const* values_list, const size_t* values_list_sizes) { \
    PutV(Base(b), nullptr, num_keys, keys_list, keys_list_sizes, num_values, values_list,          \
         values_list_sizes, false);                                                                \
  }                                                                                                \
  void P##_putv_cf(T* b, rocksdb_column_family_handle_t* column_family, int num_keys,              \
                   const char* const* keys_list, const size_t* keys_list_sizes, int num_values,    \
                   const char* const* values_list, const size_t* values_list_sizes) {              \
    PutV(Base(b), column_family->rep, num_keys, keys_list, keys_list_sizes, num_values,            \
         values_list, values_list_sizes, false);                                                   \
  }                                                                                                \
  void P##_merge(T* b, const char* key, size_t klen, const char* val, size_t vlen) {               \
    Base(b)->Merge(rocksdb::Slice(key, klen), rocksdb::Slice(val, vlen)).PermitUncheckedError();   \
  }                                                                                                \
  void P##_merge_cf(T* b, rocksdb_column_family_handle_t* column_family, const char* key,          \
                    size_t klen, const char* val, size_t vlen) {                                   \
    Base(b)                                                                                        \
        ->Merge(column_family->rep, rocksdb::Slice(key, klen), rocksdb::Slice(val, vlen))          \
        .PermitUncheckedError();                                                                   \
  }                                                                                                \
  void P##_mergev(T* b, int num_keys, const char* const* keys_list, const size_t* keys_list_sizes, \
                  int num_values, const char* const* values_list,                                  \
                  const size_t* values_list_sizes) {                                               \
    PutV(Base(b), nullptr, num_keys, keys_list, keys_list_sizes, num_values, values_list,          \
         values_list_sizes, true);                                                                 \
  }                                                                                                \
  void P##_mergev_cf(T* b, rocksdb_column_family_handle_t* column_family, int num_keys,            \
                     const char* const* keys_list, const size_t* keys_list_sizes, int num_values,  \
                     const char* const* values_list, const size_t* values_list_sizes) {            \
    PutV(Base(b), column_family->rep, num_keys, keys_list, keys_list_sizes, num_values,            \
         values_list, values_list_sizes, true);                                                    \
  }                                                                                                \
  void P##_delete(T* b, const char* key, size_t klen) {                                            \
    Base(b)->Delete(rocksdb::Slice(key, klen)).PermitUncheckedError();                             \
  }                                                                                                \
  void P##_singledelete(T* b, const char* key, size_t klen) {                                      \
    Base(b)->SingleDelete(rocksdb::Slice(key, klen)).PermitUncheckedError();                       \
  }                                                                                                \
  void P##_delete_cf(T* b, rocksdb_column_family_handle_t* column_family, const char* key,         \
                     size_t klen) {                                                                \
    Base(b)->Delete(column_family->rep, rocksdb::Slice(key, klen)).PermitUncheckedError();         \
  }                                                                                                \
  void P##_singledelete_cf(T* b, rocksdb_column_family_handle_t* column_family, const char* key,   \
                           size_t klen) {                                                          \
    Base(b)->SingleDelete(column_family->rep, rocksdb::Slice(key, klen)).PermitUncheckedError();   \
  }                                                                                                \
  void P##_deletev(T* b, int num_keys, const char* const* keys_list,                               \
                   const size_t* keys_list_sizes) {                                                \
    DeleteV(Base(b), nullptr, num_keys, keys_list, keys_list_sizes);                               \
  }                                                                                                \
  void P##_deletev_cf(T* b, rocksdb_column_family_handle_t* column_family, int num_keys,           \
                      const char* const* keys_list, const size_t* keys_list_sizes) {               \
    DeleteV(Base(b), column_family->rep, num_keys, keys_list, keys_list_sizes);                    \
  }                                                                                                \
  void P##_delete_range(T* b, const char* start_key, size_t start_key_len, const char* end_key,    \
                        size_t end_key_len) {                                                      \
    Base(b)                                                                                        \
        ->DeleteRange(rocksdb::Slice(start_key, start_key_len),                                    \
                      rocksdb::Slice(end_key, end_key_len))                                        \
        .PermitUncheckedError();                                                                   \
  }                                                                                                \
  void P##_delete_range_cf(T* b, rocksdb_column_family_handle_t* column_family,                    \
                           const char* start_key, size_t start_key_len, const char* end_key,       \
                           size_t end_key_len) {                                                   \
    Base(b)                                                                                        \
        ->DeleteRange(column_family->rep, rocksdb::Slice(start_key, start_key_len),                \
                      rocksdb::Slice(end_key, end_key_len))                                        \
        .PermitUncheckedError();                                                                   \
  }                                                                                                \
  void P##_delete_rangev(T* b, int num_keys, const char* const* start_keys_list,                   \
                         const size_t* start_keys_list_sizes, const char* const* end_keys_list,    \
                         const size_t* end_keys_list_sizes) {                                      \
    DeleteRangeV(Base(b), nullptr, num_keys, start_keys_list, start_keys_list_sizes,               \
                 end_keys_list, end_keys_list_sizes);                                              \
  }                                                                                                \
  void P##_delete_rangev_cf(T* b, rocksdb_column_family_handle_t* column_family, int num_keys,     \
                            const char* const* start_keys_list,                                    \
                            const size_t* start_keys_list_sizes, const char* const* end_keys_list, \
                            const size_t* end_keys_list_sizes) {                                   \
    DeleteRangeV(Base(b), column_family->rep, num_keys, start_keys_list, start_keys_list_sizes,    \
                 end_keys_list, end_keys_list_sizes);                                              \
  }                                                                                                \
  void P##_put_log_data(T* b, const char* blob, size_t len) {                                      \
    Base(b)->PutLogData(rocksdb::Slice(blob, len)).PermitUncheckedError();                         \
  }                                                                                                \
  void P##_iterate(T* b, void* state,                                                              \
                   void (*put)(void*, const char* k, size_t klen, const char* v, size_t vlen),     \
                   void (*deleted)(void*, const char* k, size_t klen)) {                           \
    CallbackHandler handler(state, put, deleted);                                                  \
    Plain(b)->Iterate(&handler).PermitUncheckedError();                                            \
  }                                                                                                \
  const char* P##_data(T* b, size_t* size) {                                                       \
    const std::string& data = Plain(b)->Data();                                                    \
    *size = data.size();                                                                           \
    return data.data();                                                                            \
  }                                                                                                \
  void P##_set_save_point(T* b) { Base(b)->SetSavePoint(); }                                       \
  void P##_rollback_to_save_point(T* b, char** errptr) {                                           \
    SaveError(errptr, Base(b)->RollbackToSavePoint());                                             \
  }

extern "C" {

// ---- plain write batches ----

rocksdb_writebatch_t* rocksdb_writebatch_create(void) { return new rocksdb_writebatch_t; }

rocksdb_writebatch_t* rocksdb_writebatch_create_from(const char* rep, size_t size) {
  auto* b = new rocksdb_writebatch_t;
  b->rep = rocksdb::WriteBatch(std::string(rep, size));
  return b;
}

void rocksdb_writebatch_destroy(rocksdb_writebatch_t* b) { delete b; }

STRATA_BATCH_OPS(rocksdb_writebatch_t, rocksdb_writebatch)

void rocksdb_writebatch_put_cf_with_ts(rocksdb_writebatch_t* b,
                                       rocksdb_column_family_handle_t* column_family,
                                       const char* key, size_t klen, const char* ts, size_t tslen,
                                       const char* val, size_t vlen) {
  b->rep
      .Put(column_family->rep, rocksdb::Slice(key, klen), rocksdb::Slice(ts, tslen),
           rocksdb::Slice(val, vlen))
      .PermitUncheckedError();
}

void rocksdb_writebatch_delete_cf_with_ts(rocksdb_writebatch_t* b,
                                          rocksdb_column_family_handle_t* column_family,
                                          const char* key, size_t klen, const char* ts,
                                          size_t tslen) {
  b->rep.Delete(column_family->rep, rocksdb::Slice(key, klen), rocksdb::Slice(ts, tslen))
      .PermitUncheckedError();
}

void rocksdb_writebatch_singledelete_cf_with_ts(rocksdb_writebatch_t* b,
                                                rocksdb_column_family_handle_t* column_family,
                                                const char* key, size_t klen, const char* ts,
                                                size_t tslen) {
  b->rep.SingleDelete(column_family->rep, rocksdb::Slice(key, klen), rocksdb::Slice(ts, tslen))
      .PermitUncheckedError();
}

void rocksdb_writebatch_pop_save_point(rocksdb_writebatch_t* b, char** errptr) {
  SaveError(errptr, b->rep.PopSavePoint());
}

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
