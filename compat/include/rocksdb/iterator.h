// rocksdb/iterator.h: ordered cursors over a DB. strata::Iterator has
// RocksDB's methods (Valid, Seek*, Next, Prev, key, value, status, Refresh)
// and is the same type here; DB::NewIterator returns a pointer the caller
// deletes. Thread-safety: not thread-safe (one thread per iterator).
#pragma once

#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/slice.h"
#include "rocksdb/status.h"
#include "strata/iterator.h"

namespace rocksdb {
using Iterator = ::strata::Iterator;
}  // namespace rocksdb
