// rocksdb/slice_transform.h: prefix extractors (Options::prefix_extractor).
// The same types and factories as Strata's; the factories return an object
// the caller owns (wrap it in a shared_ptr, as with RocksDB). Type() is
// "SliceTransform"; CreateFromString knows "fixed:N", "capped:N",
// "rocksdb.FixedPrefix.N", "rocksdb.CappedPrefix.N", "rocksdb.Noop";
// AsString() is the id written to table properties; SameResultWhenAppended
// answers as RocksDB's built-ins do.
// Difference: the built-ins' Name() carries the length
// ("rocksdb.FixedPrefix.3"), which is RocksDB's AsString(); RocksDB's Name()
// is "rocksdb.FixedPrefix".
#pragma once

#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/slice.h"
#include "strata/slice_transform.h"

namespace rocksdb {
using SliceTransform = ::strata::SliceTransform;
using ::strata::NewCappedPrefixTransform;
using ::strata::NewFixedPrefixTransform;
using ::strata::NewNoopTransform;
}  // namespace rocksdb
