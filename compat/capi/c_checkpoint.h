// c_checkpoint.h: the checkpoint handle, shared by c_checkpoint.cc and
// c_txn.cc (checkpoints of transaction databases).
// Thread safety: as rocksdb::Checkpoint.
#pragma once

#include "compat/capi/c_internal.h"
#include "rocksdb/utilities/checkpoint.h"

struct rocksdb_checkpoint_t {
  rocksdb::Checkpoint* rep = nullptr;
};
