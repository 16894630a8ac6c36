// rocksdb/comparator.h: user-key orderings. strata::Comparator has the
// methods a RocksDB subclass overrides (Compare, Equal, Name,
// FindShortestSeparator, FindShortSuccessor) and is the same type here.
// Timestamp-aware comparators (timestamp_size() != 0) are not offered.
// Thread-safety: implementations must be thread-safe (const methods).
#pragma once

#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/slice.h"
#include "strata/comparator.h"

namespace rocksdb {
using Comparator = ::strata::Comparator;
using ::strata::BytewiseComparator;
using ::strata::ReverseBytewiseComparator;
}  // namespace rocksdb
