// c_batch.cc: plain write batches (rocksdb_writebatch_*) (rocksdb/c.h).
// The operations shared with indexed batches come from c_batch_ops.h.
#include "compat/capi/c_batch_ops.h"

namespace {

rocksdb::WriteBatchBase* Base(rocksdb_writebatch_t* b) { return &b->rep; }
rocksdb::WriteBatch* Plain(rocksdb_writebatch_t* b) { return &b->rep; }

}  // namespace

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
  strata_capi::SaveError(errptr, b->rep.PopSavePoint());
}

}  // extern "C"
