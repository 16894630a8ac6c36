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
//   - memory_allocator: as RocksDB's (rocksdb/memory_allocator.h): the
//     blocks read for the cache are allocated and freed through it;
//   - secondary_cache: Strata's cache has no secondary tier; a non-null one
//     makes NewLRUCache return nullptr (rocksdb/secondary_cache.h).
// CompressedSecondaryCacheOptions and NewCompressedSecondaryCache are
// declared; NewCompressedSecondaryCache returns nullptr.
// Cache's other RocksDB members are strata::Cache's: Priority HIGH/LOW/
// BOTTOM (BOTTOM is LOW: Strata's caches have two pools), Ref, GetCharge,
// GetUsage(handle), GetDeleter, GetOccupancyCount / GetTableAddressCount
// (entries and slots of the caches' tables), ApplyToAllEntries and
// ApplyToAllCacheEntries, GetPrintableOptions (RocksDB's lines; an LRU
// cache prints low_pri_pool_ratio 0.000, as it has no low pool), the
// CacheItemHelper Insert/Lookup forms and Release(handle, useful,
// erase_if_last_ref) (no secondary tier: the plain forms), IsReady/Wait/
// WaitAll (lookups complete at once), DisownData (a hint: entries are still
// freed), CreateFromString ("8M" or "capacity=...;num_shard_bits=...": an
// LRU cache with RocksDB's defaults).
// Thread-safety: thread-safe.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "rocksdb/compression_type.h"
#include "rocksdb/memory_allocator.h"
#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/slice.h"
#include "rocksdb/status.h"
#include "strata/cache.h"

namespace rocksdb {
using Cache = ::strata::Cache;
using CacheEntryRole = ::strata::CacheEntryRole;
using ::strata::GetCacheEntryRoleName;
using ::strata::kNumCacheEntryRoles;

// The keys of the DB property map "rocksdb.block-cache-entry-stats"
// (RocksDB's spellings: "id", "capacity", "count.<role>", "bytes.<role>",
// "percent.<role>", ...).
struct BlockCacheEntryStatsMapKeys {
  static const std::string& CacheId();
  static const std::string& CacheCapacityBytes();
  static const std::string& LastCollectionDurationSeconds();
  static const std::string& LastCollectionAgeSeconds();

  static std::string EntryCount(CacheEntryRole);
  static std::string UsedBytes(CacheEntryRole);
  static std::string UsedPercent(CacheEntryRole);
};

class SecondaryCache;  // rocksdb/secondary_cache.h

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
  std::shared_ptr<MemoryAllocator> memory_allocator;
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
// Strata cannot take (a secondary cache).
inline std::shared_ptr<Cache> NewLRUCache(const LRUCacheOptions& options) {
  if (options.secondary_cache != nullptr) return nullptr;
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
  o.memory_allocator = options.memory_allocator;
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

// The options of RocksDB's compressed secondary cache (an LRU cache of
// compressed copies of the blocks the primary cache evicts).
struct CompressedSecondaryCacheOptions : LRUCacheOptions {
  CompressionType compression_type = CompressionType::kLZ4Compression;
  uint32_t compress_format_version = 2;
  bool enable_custom_split_merge = false;

  CompressedSecondaryCacheOptions() {}
  CompressedSecondaryCacheOptions(
      size_t _capacity, int _num_shard_bits, bool _strict_capacity_limit,
      double _high_pri_pool_ratio, double _low_pri_pool_ratio = 0.0,
      std::shared_ptr<MemoryAllocator> _memory_allocator = nullptr,
      bool _use_adaptive_mutex = kDefaultToAdaptiveMutex,
      CacheMetadataChargePolicy _metadata_charge_policy = kDefaultCacheMetadataChargePolicy,
      CompressionType _compression_type = CompressionType::kLZ4Compression,
      uint32_t _compress_format_version = 2, bool _enable_custom_split_merge = false)
      : LRUCacheOptions(_capacity, _num_shard_bits, _strict_capacity_limit, _high_pri_pool_ratio,
                        std::move(_memory_allocator), _use_adaptive_mutex, _metadata_charge_policy,
                        _low_pri_pool_ratio),
        compression_type(_compression_type),
        compress_format_version(_compress_format_version),
        enable_custom_split_merge(_enable_custom_split_merge) {}
};

// Strata's block cache has no secondary tier: both return nullptr (a cache
// built with one would never be consulted; NewLRUCache refuses it).
extern std::shared_ptr<SecondaryCache> NewCompressedSecondaryCache(
    size_t capacity, int num_shard_bits = -1, bool strict_capacity_limit = false,
    double high_pri_pool_ratio = 0.5, double low_pri_pool_ratio = 0.0,
    std::shared_ptr<MemoryAllocator> memory_allocator = nullptr,
    bool use_adaptive_mutex = kDefaultToAdaptiveMutex,
    CacheMetadataChargePolicy metadata_charge_policy = kDefaultCacheMetadataChargePolicy,
    CompressionType compression_type = CompressionType::kLZ4Compression,
    uint32_t compress_format_version = 2, bool enable_custom_split_merge = false);
extern std::shared_ptr<SecondaryCache> NewCompressedSecondaryCache(
    const CompressedSecondaryCacheOptions& opts);

// RocksDB 7.8.3's clock cache: Strata's HyperClockCache (a lock-free
// clock-eviction table sized from capacity / estimated_entry_charge).
// metadata_charge_policy is advisory (Strata charges each entry its charge
// alone); a memory_allocator gets the cache's blocks, as in an LRU cache
// (memory_allocator.h). MakeSharedCache returns nullptr for the arguments
// Strata's NewHyperClockCache rejects.
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
    ::strata::HyperClockCacheOptions o(capacity, estimated_entry_charge, num_shard_bits,
                                       strict_capacity_limit);
    o.memory_allocator = memory_allocator;
    return ::strata::NewHyperClockCache(o);
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
