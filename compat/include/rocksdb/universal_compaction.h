// rocksdb/universal_compaction.h: options of universal compaction. Strata's
// struct has RocksDB's field names and defaults and is the same type here.
#pragma once

#include "rocksdb/rocksdb_namespace.h"
#include "strata/universal_compaction.h"

namespace rocksdb {
using CompactionOptionsUniversal = ::strata::CompactionOptionsUniversal;
using CompactionStopStyle = ::strata::CompactionStopStyle;
using ::strata::kCompactionStopStyleSimilarSize;
using ::strata::kCompactionStopStyleTotalSize;
}  // namespace rocksdb
