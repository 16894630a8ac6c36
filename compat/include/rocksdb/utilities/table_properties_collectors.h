// rocksdb/utilities/table_properties_collectors.h: the collector factory
// that marks deletion-heavy table files for compaction. Strata's class is
// the same class here (strata/utilities/table_properties_collectors.h,
// RocksDB's semantics: the window rounded up to a multiple of 128 entries,
// only Delete counted as a deletion, runtime setters).
// Thread-safety: as strata::CompactOnDeletionCollectorFactory.
#pragma once

#include <cstddef>
#include <memory>

#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/table_properties.h"
#include "strata/utilities/table_properties_collectors.h"

namespace rocksdb {
using CompactOnDeletionCollectorFactory = ::strata::CompactOnDeletionCollectorFactory;

inline std::shared_ptr<CompactOnDeletionCollectorFactory> NewCompactOnDeletionCollectorFactory(
    size_t sliding_window_size, size_t deletion_trigger, double deletion_ratio = 0) {
  return ::strata::NewCompactOnDeletionCollectorFactory(sliding_window_size, deletion_trigger,
                                                        deletion_ratio);
}
}  // namespace rocksdb
