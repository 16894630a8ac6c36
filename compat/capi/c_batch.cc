// c_batch.cc: plain write batches (rocksdb_writebatch_*) (rocksdb/c.h).
// The operations shared with indexed batches come from c_batch_ops.h.
#include "compat/capi/c_batch_ops.h"

namespace {

rocksdb::WriteBatch* Base(rocksdb_writebatch_t* b) { return &b->rep; }
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

void rocksdb_writebatch_pop_save_point(rocksdb_writebatch_t* b, char** errptr) {
  strata_capi::SaveError(errptr, b->rep.PopSavePoint());
}

}  // extern "C"
