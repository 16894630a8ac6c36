// rocksdb/cleanable.h: Cleanable (cleanup functions run at destruction or
// Reset). Strata's Cleanable has RocksDB's shape and is the same type here.
#pragma once

#include "rocksdb/rocksdb_namespace.h"
#include "strata/pinnable_slice.h"

namespace rocksdb {
using Cleanable = ::strata::Cleanable;
}  // namespace rocksdb
