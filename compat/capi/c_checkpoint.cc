// c_checkpoint.cc: checkpoints (rocksdb_checkpoint_*) over
// rocksdb::Checkpoint (rocksdb/c.h): an openable copy of a live database,
// made of hard links where the file system allows.
#include "compat/capi/c_checkpoint.h"

using strata_capi::SaveError;

extern "C" {

rocksdb_checkpoint_t* rocksdb_checkpoint_object_create(rocksdb_t* db, char** errptr) {
  rocksdb::Checkpoint* checkpoint = nullptr;
  if (SaveError(errptr, rocksdb::Checkpoint::Create(db->rep, &checkpoint))) {
    return nullptr;
  }
  auto* c = new rocksdb_checkpoint_t;
  c->rep = checkpoint;
  return c;
}

void rocksdb_checkpoint_create(rocksdb_checkpoint_t* checkpoint, const char* checkpoint_dir,
                               uint64_t log_size_for_flush, char** errptr) {
  SaveError(errptr,
            checkpoint->rep->CreateCheckpoint(std::string(checkpoint_dir), log_size_for_flush));
}

void rocksdb_checkpoint_object_destroy(rocksdb_checkpoint_t* checkpoint) {
  delete checkpoint->rep;
  delete checkpoint;
}

}  // extern "C"
