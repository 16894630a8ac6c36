// LRUCacheShard and ShardedLRUCache: the implementation behind NewLRUCache.
//
// A ShardedLRUCache routes each key by the top bits of a 32-bit hash to one
// of 2^num_shard_bits LRUCacheShards, each with its own mutex, hash table,
// LRU list and an equal share of the capacity.
//
// A shard keeps every resident entry in an intrusive chained hash table
// (doubling when it holds more entries than buckets). Every resident entry is
// also on a circular list, oldest first after the dummy head lru_:
//
//   lru_ -> [ low-priority section ... lru_low_pri_ ] -> [ high-priority
//           section (the high-pri pool) ... newest ] -> lru_
//
// A kHigh entry is linked at the newest end (inside the pool); a kLow entry
// is linked just after lru_low_pri_, the newest low-priority entry. When the
// pool's charge exceeds high_pri_pool_ratio * capacity, its oldest entries
// move into the low-priority section by advancing lru_low_pri_.
//
// A hit does not move its entry (that would cost two dependent cache misses
// on the neighbours, under the shard lock, on every lookup): it only sets
// the entry's `referenced` bit. Eviction walks from lru_.next: a pinned entry
// (refs > 0) or one referenced since it was last passed is moved to the
// newest end of its section (the bit cleared: a second chance), the first
// other entry is evicted. This approximates LRU ("CLOCK"), keeps every
// low-priority entry ahead of the high-priority ones, and moves list links
// only when the cache is full.
//
// Thread-safety: thread-safe. A shard's state is guarded by its mu_; handle
// fields too (a handle belongs to one shard). Deleters run after mu_ is
// released. Stats counters are atomics written under mu_, read without it.
// Invariants (per shard, under mu_):
//  1. An entry is in the table iff in_cache iff it is on the list.
//  2. usage_ = sum of charges of entries not yet freed; pinned_usage_ = sum
//     of charges of entries with refs > 0 (resident or erased);
//     high_pri_pool_usage_ = sum of charges of list entries in the pool
//     (after lru_low_pri_).
//  3. usage_ <= capacity_ after every operation, except for pinned entries
//     and entries admitted without strict_capacity_limit.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "strata/cache.h"
#include "strata/slice.h"
#include "strata/status.h"
#include "util/mutex.h"

namespace strata {

// One cache entry, allocated with its key bytes inline. Its address is the
// Cache::Handle* clients hold.
struct LRUHandle {
  void* value;
  Cache::Deleter deleter;
  LRUHandle* next_hash;  // chain in the hash-table bucket
  LRUHandle* next;       // LRU list (or the to-free chain once removed)
  LRUHandle* prev;
  size_t charge;
  size_t key_length;
  uint32_t refs;  // outstanding client handles
  uint32_t hash;
  bool in_cache;          // reachable through the table
  bool is_high_pri;       // inserted with Priority::kHigh
  bool in_high_pri_pool;  // on the list, in the high-priority section
  bool referenced;        // looked up since eviction last passed it
  char key_data[1];       // key_length bytes

  Slice key() const { return Slice(key_data, key_length); }
};

// Intrusive chained hash table of LRUHandles keyed by (key, hash).
// Not thread-safe; the owning shard locks around it.
class LRUHandleTable {
 public:
  LRUHandleTable();
  ~LRUHandleTable() = default;
  LRUHandleTable(const LRUHandleTable&) = delete;
  LRUHandleTable& operator=(const LRUHandleTable&) = delete;

  LRUHandle* Lookup(const Slice& key, uint32_t hash);
  // Adds h; returns the entry with the same key it replaced, or nullptr.
  LRUHandle* Insert(LRUHandle* h);
  // Unlinks and returns key's entry, or nullptr.
  LRUHandle* Remove(const Slice& key, uint32_t hash);
  // Calls f(h) for every entry; f must not modify the table.
  template <typename F>
  void ForEach(F f) const {
    for (uint32_t i = 0; i < length_; i++) {
      for (LRUHandle* h = list_[i]; h != nullptr; h = h->next_hash) f(h);
    }
  }
  uint32_t size() const { return elems_; }
  uint32_t buckets() const { return length_; }

 private:
  LRUHandle** FindPointer(const Slice& key, uint32_t hash);
  void Resize();

  uint32_t length_;  // buckets, a power of two
  uint32_t elems_;
  std::unique_ptr<LRUHandle*[]> list_;
};

class alignas(64) LRUCacheShard {
 public:
  LRUCacheShard();
  // REQUIRES: no handle of this shard is outstanding.
  ~LRUCacheShard();
  LRUCacheShard(const LRUCacheShard&) = delete;
  LRUCacheShard& operator=(const LRUCacheShard&) = delete;

  void SetCapacity(size_t capacity) EXCLUDES(mu_);
  void SetStrictCapacityLimit(bool strict) EXCLUDES(mu_);
  void SetHighPriorityPoolRatio(double ratio) EXCLUDES(mu_);
  // kFullChargeCacheMetadata: each entry's charge also counts its handle
  // (the LRUHandle and the key bytes). Set before the shard is shared.
  void SetMetadataCharged(bool charged) { charge_metadata_ = charged; }

  // As Cache::Insert, with hash = the key's hash.
  Status Insert(const Slice& key, uint32_t hash, void* value, size_t charge, Cache::Deleter deleter,
                LRUHandle** handle, Cache::Priority priority) EXCLUDES(mu_);
  LRUHandle* Lookup(const Slice& key, uint32_t hash) EXCLUDES(mu_);
  // One more reference to h. REQUIRES: h has references.
  void Ref(LRUHandle* h) EXCLUDES(mu_);
  bool Release(LRUHandle* h, bool erase_if_last_ref) EXCLUDES(mu_);
  void Erase(const Slice& key, uint32_t hash) EXCLUDES(mu_);
  void EraseUnRefEntries() EXCLUDES(mu_);

  size_t GetUsage() const EXCLUDES(mu_);
  size_t GetPinnedUsage() const EXCLUDES(mu_);
  // The charge h was inserted with (its metadata charge taken off).
  size_t UserCharge(const LRUHandle* h) const {
    return charge_metadata_ ? h->charge - (sizeof(LRUHandle) - 1 + h->key_length) : h->charge;
  }
  size_t GetOccupancyCount() const EXCLUDES(mu_);
  size_t GetTableAddressCount() const EXCLUDES(mu_);
  double GetHighPriPoolRatio() const EXCLUDES(mu_);
  // Calls f(key, value, inserted charge, deleter) for every resident entry,
  // under mu_.
  void ApplyToAllEntries(
      const std::function<void(const Slice&, void*, size_t, Cache::DeleterFn)>& f) const
      EXCLUDES(mu_);
  // Adds this shard's counters to *stats.
  void AddStats(Cache::CacheStats* stats) const;

  // Test hooks: the LRU list oldest first, and the high-pri pool charge.
  size_t TEST_LRUListLength() EXCLUDES(mu_);
  size_t TEST_HighPriPoolUsage() EXCLUDES(mu_);

 private:
  void LRURemove(LRUHandle* e) REQUIRES(mu_);
  void LRUInsert(LRUHandle* e) REQUIRES(mu_);
  // Moves the oldest pool entries into the low-priority section until the
  // pool fits its capacity.
  void MaintainPoolSize() REQUIRES(mu_);
  // Takes an unreferenced entry off the list and out of the table and
  // queues it on *to_free (its deleter runs later, outside mu_).
  void DropUnreferenced(LRUHandle* e, LRUHandle** to_free) REQUIRES(mu_);
  // Evicts unpinned entries, oldest (not recently referenced) first, until
  // charge more fits or only pinned entries are left; chains them on
  // *to_free.
  void EvictFromLRU(size_t charge, LRUHandle** to_free) REQUIRES(mu_);
  // Runs the deleters of a chain built by EvictFromLRU and friends.
  static void FreeChain(LRUHandle* to_free) EXCLUDES(mu_);
  static void Bump(std::atomic<uint64_t>* counter);

  // Immutable once the shard is shared.
  bool charge_metadata_ = false;

  mutable Mutex mu_;
  // Guarded by mu_.
  size_t capacity_ GUARDED_BY(mu_) = 0;
  size_t high_pri_pool_capacity_ GUARDED_BY(mu_) = 0;
  double high_pri_pool_ratio_ GUARDED_BY(mu_) = 0;
  bool strict_capacity_limit_ GUARDED_BY(mu_) = false;
  size_t usage_ GUARDED_BY(mu_) = 0;
  size_t pinned_usage_ GUARDED_BY(mu_) = 0;
  size_t list_length_ GUARDED_BY(mu_) = 0;
  size_t high_pri_pool_usage_ GUARDED_BY(mu_) = 0;
  LRUHandle lru_ GUARDED_BY(mu_);  // dummy head of the circular list
  LRUHandle* lru_low_pri_ GUARDED_BY(mu_);
  LRUHandleTable table_ GUARDED_BY(mu_);

  // Atomics: written only under mu_ (so a relaxed load + store suffices and
  // avoids a locked instruction), read by AddStats without the lock, where a
  // slightly stale value is fine.
  std::atomic<uint64_t> hits_{0};
  std::atomic<uint64_t> misses_{0};
  std::atomic<uint64_t> inserts_{0};
  std::atomic<uint64_t> evictions_{0};
};

class ShardedLRUCache final : public Cache {
 public:
  // REQUIRES: 0 <= num_shard_bits < 20, 0 <= high_pri_pool_ratio <= 1.
  ShardedLRUCache(size_t capacity, int num_shard_bits, bool strict_capacity_limit,
                  double high_pri_pool_ratio, bool charge_metadata = false,
                  std::shared_ptr<MemoryAllocator> allocator = nullptr);
  ~ShardedLRUCache() override = default;

  Status Insert(const Slice& key, void* value, size_t charge, Deleter deleter,
                Handle** handle = nullptr, Priority priority = Priority::kLow) override;
  using Cache::Insert;
  using Cache::Lookup;
  using Cache::Release;
  Handle* Lookup(const Slice& key, Statistics* stats = nullptr) override;
  bool Ref(Handle* handle) override;
  bool Release(Handle* handle, bool erase_if_last_ref = false) override;
  void* Value(Handle* handle) override;
  void Erase(const Slice& key) override;
  uint64_t NewId() override;
  void SetCapacity(size_t capacity) override;
  size_t GetCapacity() const override;
  size_t GetUsage() const override;
  size_t GetPinnedUsage() const override;
  void SetStrictCapacityLimit(bool strict_capacity_limit) override;
  bool HasStrictCapacityLimit() const override {
    return strict_capacity_limit_.load(std::memory_order_relaxed);
  }
  void EraseUnRefEntries() override;
  const char* Name() const override { return "LRUCache"; }
  CacheStats GetStats() const override;
  size_t GetCharge(Handle* handle) const override;
  DeleterFn GetDeleter(Handle* handle) const override;
  size_t GetOccupancyCount() const override;
  size_t GetTableAddressCount() const override;
  void ApplyToAllEntries(const std::function<void(const Slice& key, void* value, size_t charge,
                                                  DeleterFn deleter)>& callback,
                         const ApplyToAllEntriesOptions& opts) override;
  std::string GetPrintableOptions() const override;

  int num_shard_bits() const { return num_shard_bits_; }
  LRUCacheShard* TEST_Shard(int i) { return &shards_[i]; }

  // The hash that picks the shard (top bits) and the bucket (low bits).
  static uint32_t HashKey(const Slice& key);

 private:
  LRUCacheShard& ShardFor(uint32_t hash) {
    return shards_[num_shard_bits_ > 0 ? hash >> (32 - num_shard_bits_) : 0];
  }

  // Immutable after construction.
  const int num_shard_bits_;
  const int num_shards_;
  std::unique_ptr<LRUCacheShard[]> shards_;

  // Atomics (relaxed: capacity is advisory for readers; ids need only be
  // unique, not ordered with anything).
  std::atomic<size_t> capacity_;
  std::atomic<uint64_t> last_id_{0};
  std::atomic<bool> strict_capacity_limit_{false};  // what the shards were last told
};

// The default num_shard_bits for a capacity: one shard per 512 KiB, at most
// 2^6 shards.
int GetDefaultCacheShardBits(size_t capacity);

// The lines every sharded cache's GetPrintableOptions starts with (capacity,
// shard bits, strict limit, allocator), in RocksDB's ShardedCache layout.
std::string ShardedCachePrintableOptions(const Cache& cache, int num_shard_bits);

}  // namespace strata
