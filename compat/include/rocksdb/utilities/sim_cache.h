// rocksdb/utilities/sim_cache.h: SimCache, a block cache wrapper that
// estimates the hit rate the cache would have at another capacity.
//
// A SimCache forwards every call to the cache it wraps (the "real" cache;
// it may be null, then lookups always miss and inserts keep nothing) and
// keeps, beside it, a key-only LRU cache of the simulated capacity: Insert
// adds the key there with the entry's charge (no value), Lookup counts a
// hit when the key is there and a miss otherwise, Erase and
// EraseUnRefEntries apply to both. GetCapacity/SetCapacity and the usage
// calls are the real cache's; GetSimCapacity/SetSimCapacity/GetSimUsage the
// key-only cache's. Give it to BlockBasedTableOptions::block_cache like any
// cache: rocksdb::Cache is strata::Cache, so Strata's table readers call it.
//
// As RocksDB's, NewSimCache(cache, sim_capacity, num_shard_bits) builds the
// key-only cache with NewLRUCache (kDontChargeCacheMetadata); num_shard_bits
// >= 20 gives nullptr. Activity logging writes RocksDB's lines ("LOOKUP -
// <hex key>", "ADD - <hex key> - <charge>") to a file of the given Env,
// stopping at max_logging_size bytes (0: no limit) or at the first error
// (then GetActivityLoggingStatus returns it). The SIM_BLOCK_CACHE_HIT/MISS
// tickers are not recorded (the cache sees no Statistics).
// Thread-safety: thread-safe.
#pragma once

#include <stdint.h>

#include <memory>
#include <string>

#include "rocksdb/cache.h"
#include "rocksdb/env.h"
#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/slice.h"
#include "rocksdb/statistics.h"
#include "rocksdb/status.h"

namespace rocksdb {

class SimCache;

// A SimCache over `cache` whose key-only cache holds sim_capacity.
extern std::shared_ptr<SimCache> NewSimCache(std::shared_ptr<Cache> cache, size_t sim_capacity,
                                             int num_shard_bits);
// A SimCache over `cache` with `sim_cache` as its key-only cache.
extern std::shared_ptr<SimCache> NewSimCache(std::shared_ptr<Cache> sim_cache,
                                             std::shared_ptr<Cache> cache, int num_shard_bits);

class SimCache : public Cache {
 public:
  SimCache() {}
  ~SimCache() override {}

  const char* Name() const override { return "SimCache"; }

  // The key-only cache's capacity and usage.
  virtual size_t GetSimCapacity() const = 0;
  virtual size_t GetSimUsage() const = 0;
  virtual void SetSimCapacity(size_t capacity) = 0;

  // Lookups the simulated cache missed / hit since creation or the last
  // reset_counter.
  virtual uint64_t get_miss_counter() const = 0;
  virtual uint64_t get_hit_counter() const = 0;
  virtual void reset_counter() = 0;
  // The counters and the hit rate, as RocksDB prints them.
  virtual std::string ToString() const = 0;

  virtual Status StartActivityLogging(const std::string& activity_log_file, Env* env,
                                      uint64_t max_logging_size = 0) = 0;
  virtual void StopActivityLogging() = 0;
  virtual Status GetActivityLoggingStatus() = 0;
};

}  // namespace rocksdb
