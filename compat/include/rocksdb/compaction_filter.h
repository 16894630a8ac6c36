// rocksdb/compaction_filter.h: callbacks that drop or rewrite entries during
// compaction. strata::CompactionFilter (Filter, FilterMergeOperand, FilterV2
// with Decision kKeep/kRemove/kChangeValue/kRemoveAndSkipUntil) and
// CompactionFilterFactory are the same types here. Blob and wide-column
// decisions do not exist in Strata.
// Thread-safety: a filter given in Options::compaction_filter is called from
// several compaction threads at once and must be thread-safe.
#pragma once

#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/slice.h"
#include "strata/compaction_filter.h"

namespace rocksdb {
using CompactionFilter = ::strata::CompactionFilter;
using CompactionFilterFactory = ::strata::CompactionFilterFactory;
}  // namespace rocksdb
