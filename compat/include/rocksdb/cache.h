// rocksdb/cache.h: the block cache. strata::Cache is the same type here
// (GetCapacity, SetCapacity, GetUsage, GetPinnedUsage, Insert/Lookup/Release
// with a deleter). NewLRUCache takes RocksDB's parameters and
// LRUCacheOptions has RocksDB's fields:
//   - capacity, num_shard_bits, strict_capacity_limit, high_pri_pool_ratio:
//     as RocksDB's;
//   - metadata_charge_policy: as RocksDB's (kFullChargeCacheMetadata, the
//     default, adds each entry's handle and key copy to its charge);
//   - low_pri_pool_ratio, use_adaptive_mutex: advisory (checked as RocksDB
//     checks them, then unused: Strata's LRU has a high-priority pool and a
//     plain one, and a plain mutex);
//   - memory_allocator, secondary_cache: Strata has neither; a non-null one
//     makes NewLRUCache return nullptr, as RocksDB does for an argument it
//     cannot take.
// Thread-safety: thread-safe.
#pragma once

#include <cstddef>
#include <memory>

#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/slice.h"
#include "rocksdb/status.h"
#include "strata/cache.h"

namespace rocksdb {
using Cache = ::strata::Cache;
using CacheEntryRole = ::strata::CacheEntryRole;

class MemoryAllocator;  // rocksdb/memory_allocator.h is not offered
class SecondaryCache;   // rocksdb/secondary_cache.h is not offered

inline constexpr bool kDefaultToAdaptiveMutex = false;

enum CacheMetadataChargePolicy {
  kDontChargeCacheMetadata,
  kFullChargeCacheMetadata,
};
inline constexpr CacheMetadataChargePolicy kDefaultCacheMetadataChargePolicy =
    kFullChargeCacheMetadata;

struct ShardedCacheOptions {
  size_t capacity = 0;
  int num_shard_bits = -1;
  bool strict_capacity_limit = false;
  std::shared_ptr<MemoryAllocator> memory_allocator;  // must stay null
  CacheMetadataChargePolicy metadata_charge_policy = kDefaultCacheMetadataChargePolicy;

  ShardedCacheOptions() {}
  ShardedCacheOptions(
      size_t _capacity, int _num_shard_bits, bool _strict_capacity_limit,
      std::shared_ptr<MemoryAllocator> _memory_allocator = nullptr,
      CacheMetadataChargePolicy _metadata_charge_policy = kDefaultCacheMetadataChargePolicy)
      : capacity(_capacity),
        num_shard_bits(_num_shard_bits),
        strict_capacity_limit(_strict_capacity_limit),
        memory_allocator(std::move(_memory_allocator)),
        metadata_charge_policy(_metadata_charge_policy) {}
};

struct LRUCacheOptions : public ShardedCacheOptions {
  double high_pri_pool_ratio = 0.5;
  double low_pri_pool_ratio = 0.0;                    // advisory
  bool use_adaptive_mutex = kDefaultToAdaptiveMutex;  // advisory
  std::shared_ptr<SecondaryCache> secondary_cache;    // must stay null

  LRUCacheOptions() {}
  LRUCacheOptions(
      size_t _capacity, int _num_shard_bits, bool _strict_capacity_limit,
      double _high_pri_pool_ratio, std::shared_ptr<MemoryAllocator> _memory_allocator = nullptr,
      bool _use_adaptive_mutex = kDefaultToAdaptiveMutex,
      CacheMetadataChargePolicy _metadata_charge_policy = kDefaultCacheMetadataChargePolicy,
      double _low_pri_pool_ratio = 0.0)
      : ShardedCacheOptions(_capacity, _num_shard_bits, _strict_capacity_limit,
                            std::move(_memory_allocator), _metadata_charge_policy),
        high_pri_pool_ratio(_high_pri_pool_ratio),
        low_pri_pool_ratio(_low_pri_pool_ratio),
        use_adaptive_mutex(_use_adaptive_mutex) {}
};

// A sharded LRU cache, or nullptr for arguments RocksDB rejects
// (num_shard_bits >= 20, a pool ratio outside [0, 1] or high + low > 1) or
// Strata cannot take (a memory allocator or a secondary cache).
inline std::shared_ptr<Cache> NewLRUCache(const LRUCacheOptions& options) {
  if (options.memory_allocator != nullptr || options.secondary_cache != nullptr) return nullptr;
  if (options.low_pri_pool_ratio < 0.0 || options.low_pri_pool_ratio > 1.0 ||
      options.high_pri_pool_ratio + options.low_pri_pool_ratio > 1.0) {
    return nullptr;
  }
  ::strata::LRUCacheOptions o;
  o.capacity = options.capacity;
  o.num_shard_bits = options.num_shard_bits;
  o.strict_capacity_limit = options.strict_capacity_limit;
  o.high_pri_pool_ratio = options.high_pri_pool_ratio;
  o.metadata_charge_policy = options.metadata_charge_policy == kFullChargeCacheMetadata
                                 ? ::strata::CacheMetadataChargePolicy::kFullChargeCacheMetadata
                                 : ::strata::CacheMetadataChargePolicy::kDontChargeCacheMetadata;
  return ::strata::NewLRUCache(o);
}
inline std::shared_ptr<Cache> NewLRUCache(
    size_t capacity, int num_shard_bits = -1, bool strict_capacity_limit = false,
    double high_pri_pool_ratio = 0.5, std::shared_ptr<MemoryAllocator> memory_allocator = nullptr,
    bool use_adaptive_mutex = kDefaultToAdaptiveMutex,
    CacheMetadataChargePolicy metadata_charge_policy = kDefaultCacheMetadataChargePolicy,
    double low_pri_pool_ratio = 0.0) {
  return NewLRUCache(LRUCacheOptions(
      capacity, num_shard_bits, strict_capacity_limit, high_pri_pool_ratio,
      std::move(memory_allocator), use_adaptive_mutex, metadata_charge_policy, low_pri_pool_ratio));
}

// RocksDB 7.8.3's clock cache: Strata's HyperClockCache (a lock-free
// clock-eviction table sized from capacity / estimated_entry_charge).
// metadata_charge_policy is advisory (Strata charges each entry its charge
// alone); a memory_allocator makes MakeSharedCache return nullptr, as do
// the arguments Strata's NewHyperClockCache rejects.
struct HyperClockCacheOptions : public ShardedCacheOptions {
  size_t estimated_entry_charge;

  HyperClockCacheOptions(
      size_t _capacity, size_t _estimated_entry_charge, int _num_shard_bits = -1,
      bool _strict_capacity_limit = false,
      std::shared_ptr<MemoryAllocator> _memory_allocator = nullptr,
      CacheMetadataChargePolicy _metadata_charge_policy = kDefaultCacheMetadataChargePolicy)
      : ShardedCacheOptions(_capacity, _num_shard_bits, _strict_capacity_limit,
                            std::move(_memory_allocator), _metadata_charge_policy),
        estimated_entry_charge(_estimated_entry_charge) {}

  std::shared_ptr<Cache> MakeSharedCache() const {
    if (memory_allocator != nullptr) return nullptr;
    return ::strata::NewHyperClockCache(::strata::HyperClockCacheOptions(
        capacity, estimated_entry_charge, num_shard_bits, strict_capacity_limit));
  }
};

// Deprecated in RocksDB 7.8.3, where it returns an LRU cache (the clock
// cache needs estimated_entry_charge); so does this.
inline std::shared_ptr<Cache> NewClockCache(
    size_t capacity, int num_shard_bits = -1, bool strict_capacity_limit = false,
    CacheMetadataChargePolicy metadata_charge_policy = kDefaultCacheMetadataChargePolicy) {
  return NewLRUCache(capacity, num_shard_bits, strict_capacity_limit, 0.5, nullptr,
                     kDefaultToAdaptiveMutex, metadata_charge_policy);
}
}  // namespace rocksdb
