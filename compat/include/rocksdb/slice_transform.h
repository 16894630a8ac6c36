// rocksdb/slice_transform.h: prefix extractors (Options::prefix_extractor).
// The same types and factories as Strata's; the factories return an object
// the caller owns (wrap it in a shared_ptr, as with RocksDB).
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
