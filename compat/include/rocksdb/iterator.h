// rocksdb/iterator.h: ordered cursors over a DB. strata::Iterator has
// RocksDB's methods (Valid, Seek*, Next, Prev, key, value, columns, status,
// Refresh, GetProperty, timestamp) and is the same type here;
// DB::NewIterator returns a pointer the caller deletes. columns() of a DB
// iterator is the value as the default column; timestamp() is empty (no
// user-defined timestamps); GetProperty knows RocksDB's three names
// (strata/iterator.h). Unlike RocksDB's, the class does not derive from
// Cleanable. Thread-safety: not thread-safe (one thread per iterator).
#pragma once

#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/slice.h"
#include "rocksdb/status.h"
#include "strata/iterator.h"

namespace rocksdb {
using Iterator = ::strata::Iterator;

// An iterator over nothing (status OK), and one over nothing whose status()
// is `status`; the caller deletes either.
Iterator* NewEmptyIterator();
Iterator* NewErrorIterator(const Status& status);
}  // namespace rocksdb
