// rocksdb/cache.h: the block cache. strata::Cache is the same type here
// (GetCapacity, SetCapacity, GetUsage, GetPinnedUsage, Insert/Lookup/Release
// with a deleter). NewLRUCache takes RocksDB's first four parameters; the
// memory allocator, adaptive mutex and metadata charge policy are not
// offered. Thread-safety: thread-safe.
#pragma once

#include <cstddef>
#include <memory>

#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/slice.h"
#include "rocksdb/status.h"
#include "strata/cache.h"

namespace rocksdb {
using Cache = ::strata::Cache;
using LRUCacheOptions = ::strata::LRUCacheOptions;
using CacheEntryRole = ::strata::CacheEntryRole;

inline std::shared_ptr<Cache> NewLRUCache(size_t capacity, int num_shard_bits = -1,
                                          bool strict_capacity_limit = false,
                                          double high_pri_pool_ratio = 0.5) {
  return ::strata::NewLRUCache(capacity, num_shard_bits, strict_capacity_limit,
                               high_pri_pool_ratio);
}
inline std::shared_ptr<Cache> NewLRUCache(const LRUCacheOptions& options) {
  return ::strata::NewLRUCache(options);
}
}  // namespace rocksdb
