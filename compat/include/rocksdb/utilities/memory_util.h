// rocksdb/utilities/memory_util.h: approximate memory use of several
// databases and caches, by kind, summed from the DB properties
// (rocksdb.size-all-mem-tables, rocksdb.cur-size-all-mem-tables,
// rocksdb.estimate-table-readers-mem, aggregated over families) and the
// caches' GetUsage(), as RocksDB sums them.
// Thread-safety: thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <unordered_set>
#include <vector>

#include "rocksdb/cache.h"
#include "rocksdb/db.h"
#include "rocksdb/rocksdb_namespace.h"

namespace rocksdb {
class MemoryUtil {
 public:
  enum UsageType : int {
    kMemTableTotal = 0,      // every memtable
    kMemTableUnFlushed = 1,  // the memtables not yet flushed
    kTableReadersTotal = 2,  // open table readers (outside the block cache)
    kCacheTotal = 3,         // the caches of cache_set
    kNumUsageTypes = 4
  };
  // Clears *usage_by_type and fills it. A cache used by one of the dbs is
  // counted only if it is in cache_set.
  static Status GetApproximateMemoryUsageByType(
      const std::vector<DB*>& dbs, const std::unordered_set<const Cache*> cache_set,
      std::map<MemoryUtil::UsageType, uint64_t>* usage_by_type);
};
}  // namespace rocksdb
