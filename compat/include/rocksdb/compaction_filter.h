// rocksdb/compaction_filter.h: callbacks that drop or rewrite entries during
// compaction. strata::CompactionFilter (Filter, FilterMergeOperand, FilterV2
// with RocksDB's Decisions) and CompactionFilterFactory are the same types
// here:
// - kPurge turns the value into a SingleDelete, as RocksDB.
// - kIOError, kChangeBlobIndex and kUndetermined (BlobDB answers) fail the
//   compaction with RocksDB's NotSupported messages ("CompactionFilter for
//   integrated BlobDB should not return kIOError", ...); for a merge
//   operand every answer but kKeep/kChangeValue removes it (RocksDB's).
// - IgnoreSnapshots() returning false fails the compaction or flush with
//   NotSupported("CompactionFilter::IgnoreSnapshots() = false is not
//   supported anymore."), as RocksDB 7.8.3.
// - BlobDB hooks (FilterBlobByKey, PrepareBlobOutput,
//   IsStackedBlobDbInternalCompactionFilter) have RocksDB's defaults and
//   are never called (Strata has no blob files).
// - Context::reason says kFlush/kRecovery/kCompaction; the factory's
//   ShouldFilterTableFileCreation is asked for each table file a flush or
//   compaction writes (default: compactions only).
// - Type / CreateFromString: Strata has no built-in filter or factory to
//   name ("" gives nullptr; another id is NotSupported, or ignored with
//   ignore_unsupported_options, as RocksDB answers an unregistered id).
// Thread-safety: a filter given in Options::compaction_filter is called from
// several compaction threads at once and must be thread-safe.
#pragma once

#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/slice.h"
#include "strata/compaction_filter.h"
#include "strata/slice_transform.h"

namespace rocksdb {
using SliceTransform = ::strata::SliceTransform;  // as rocksdb/slice_transform.h
using CompactionFilter = ::strata::CompactionFilter;
using CompactionFilterFactory = ::strata::CompactionFilterFactory;
}  // namespace rocksdb
