// rocksdb/iterator.h: ordered cursors over a DB. strata::Iterator has
// RocksDB's methods (Valid, Seek*, Next, Prev, key, value, status, Refresh)
// and is the same type here; DB::NewIterator returns a pointer the caller
// deletes. Not offered: GetProperty, timestamp(), columns() (Strata's
// iterator has no such members). Thread-safety: not thread-safe (one
// thread per iterator).
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
