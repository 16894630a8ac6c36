// ClockCacheShard and ShardedClockCache: the lock-free HyperClockCache
// behind NewHyperClockCache (strata/cache.h). Design notes and measurements:
// docs/design/hyper-clock-cache.md.
//
// A ShardedClockCache routes each key by the top bits of its 64-bit XXH3
// hash to one of 2^num_shard_bits ClockCacheShards, each with an equal share
// of the capacity. A shard is an open-addressed table of 2^k ClockHandle
// slots, sized at construction so that capacity / estimated_entry_charge
// entries fill it to about 0.7; it is never resized, and holds at most 0.84
// of its slots (the occupancy limit). Keys are arbitrary byte strings: a
// slot stores the full key and its 64-bit hash, and a lookup compares both.
//
// Probing is double hashing: probe i of hash h visits slot
// (h + i * (2 * (h >> 32) + 1)) mod 2^k, a permutation of all slots. Every
// slot counts in `displacements` the entries whose probe sequence passed
// over it to a later slot, so a lookup stops at the first slot with none.
//
// Each slot has one atomic 64-bit meta word:
//   bits  0..29  acquire counter     bits 30..59  release counter
//   bits 61..63  state: 000 empty, 100 under construction (owned by one
//                thread), 110 invisible (erased, still referenced),
//                111 visible (found by Lookup)
// The number of outstanding handles is acquire - release. Lookup adds one
// to acquire (a single fetch_add) on a visible slot, then checks the key and
// takes the add back (fetch_sub) on a mismatch; Release adds one to release.
// A slot in the states 110/111 is "shareable": its key, value and charge are
// immutable and may be read by any thread that holds a reference.
//
// Clock: while an entry is unreferenced its two counters are equal, and
// their common value is its countdown: set to 3 (kHigh) or 2 (kLow) at
// Insert, and raised by one per Lookup/Release pair. The clock hand sweeps
// slots; an unreferenced entry with countdown c > 0 is set to min(c, 3) - 1,
// one with countdown 0 is evicted. The sweep changes a meta word only with a
// compare-and-swap from the value it read, so it never races a reference.
// Release keeps the counters below 2^29 by subtracting the same amount from
// both.
//
// Exclusive ownership: a thread owns a slot after moving it to "under
// construction", by fetch_or on an empty slot (Insert) or by
// compare-and-swap from a shareable state with equal counters (eviction,
// the last Release of an erased entry). The owner writes the slot's fields,
// then publishes with a plain store (visible, or 0 = empty). A Lookup that
// read "visible" but whose fetch_add lands on a slot not shareable any more
// does not take it back: the owner's store overwrites it.
//
// Thread-safety: thread-safe, no locks. Deleters run on the thread that
// freed the entry, holding nothing.
// Invariants (per shard, when no operation is in flight):
//  1. occupancy_ = number of non-empty slots <= occupancy_limit_.
//  2. usage_ = sum of charges of entries not yet freed (resident, erased but
//     referenced, and detached ones); detached_usage_ = the detached part.
//  3. An entry at probe position p of its hash has incremented the
//     displacements of the slots at positions 0..p-1.
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

namespace strata {

// One slot of a shard's table, or a detached entry. Its address is the
// Cache::Handle* clients hold.
struct ClockHandle {
  std::atomic<uint64_t> meta{0};
  std::atomic<uint32_t> displacements{0};
  // Written by the owner under construction; read relaxed by usage scans.
  std::atomic<size_t> charge{0};
  // Written only while the slot is owned (under construction); read by
  // holders of a reference.
  uint64_t hash = 0;
  void* value = nullptr;
  Cache::Deleter deleter = nullptr;
  bool detached = false;  // not in a table; freed at its last Release
  std::string key;
};

class alignas(64) ClockCacheShard {
 public:
  // REQUIRES: estimated_entry_charge > 0.
  ClockCacheShard(size_t capacity, size_t estimated_entry_charge, bool strict_capacity_limit);
  // REQUIRES: no handle of this shard is outstanding.
  ~ClockCacheShard();
  ClockCacheShard(const ClockCacheShard&) = delete;
  ClockCacheShard& operator=(const ClockCacheShard&) = delete;

  void SetCapacity(size_t capacity);
  void SetStrictCapacityLimit(bool strict);

  // As Cache::Insert, with hash = the key's 64-bit hash.
  Status Insert(const Slice& key, uint64_t hash, void* value, size_t charge, Cache::Deleter deleter,
                ClockHandle** handle, Cache::Priority priority);
  ClockHandle* Lookup(const Slice& key, uint64_t hash);
  // One more reference to h. REQUIRES: the caller holds one.
  static void Ref(ClockHandle* h);
  bool Release(ClockHandle* h, bool erase_if_last_ref);
  // Calls f(key, value, charge, deleter) for every visible entry, holding a
  // reference to it during the call. O(slots).
  void ApplyToAllEntries(
      const std::function<void(const Slice&, void*, size_t, Cache::DeleterFn)>& f);
  void Erase(const Slice& key, uint64_t hash);
  void EraseUnRefEntries();

  size_t GetUsage() const { return usage_.load(std::memory_order_relaxed); }
  // Scans the table: O(slots).
  size_t GetPinnedUsage() const;
  void AddStats(Cache::CacheStats* stats) const;

  // Occupied slots (entries, including ones under construction) and slots.
  size_t GetOccupancyCount() const { return occupancy_.load(std::memory_order_relaxed); }
  size_t GetTableAddressCount() const { return size_t{1} << length_bits_; }

  size_t TEST_Slots() const { return size_t{1} << length_bits_; }
  size_t TEST_OccupancyLimit() const { return occupancy_limit_; }
  size_t TEST_Occupancy() const { return occupancy_.load(std::memory_order_relaxed); }
  size_t TEST_DetachedUsage() const { return detached_usage_.load(std::memory_order_relaxed); }

 private:
  ClockHandle* SlotAt(uint64_t hash, size_t probe) const;
  // Reserves charge against the capacity, evicting to make room. With
  // must_fit, fails (false) rather than exceed the capacity.
  bool ReserveCharge(size_t charge, bool must_fit);
  // Reserves one slot under the occupancy limit, evicting if needed.
  bool ReserveSlot();
  // Sweeps the clock until entries of total charge >= charge and at least
  // `slots` entries were evicted, or about four rounds passed.
  void Evict(size_t charge, size_t slots);
  // One clock step on h; true if it evicted h.
  bool ClockUpdate(ClockHandle* h);
  // Drops a reference taken by a Lookup probe that did not match (or by
  // Erase), freeing an erased entry whose last reference it was.
  void Unref(ClockHandle* h);
  // Frees h if `meta` (its last value seen) says erased and unreferenced,
  // retrying while that stays true. True if this call freed it.
  bool FreeIfErasedAndUnreferenced(ClockHandle* h, uint64_t meta);
  // If meta still equals `expected` (a shareable state with equal
  // counters), takes h and frees it. True if it did.
  bool TryFree(ClockHandle* h, uint64_t expected);
  // Frees an entry this thread owns: deleter, displacements, accounting,
  // then marks the slot empty.
  void FreeOwned(ClockHandle* h);

  // Immutable after construction.
  const int length_bits_;
  const size_t occupancy_limit_;
  const std::unique_ptr<ClockHandle[]> slots_;

  // Atomics. capacity_ and strict_ are advisory (relaxed): a concurrent
  // Insert may see the old value. usage_/occupancy_ are relaxed counters
  // (they order nothing; slot state is published through meta).
  std::atomic<size_t> capacity_;
  std::atomic<bool> strict_capacity_limit_;
  std::atomic<size_t> usage_{0};
  std::atomic<size_t> detached_usage_{0};
  std::atomic<size_t> occupancy_{0};
  alignas(64) std::atomic<uint64_t> clock_pointer_{0};
  // Stats, relaxed: counters only. Own cache line, away from the table
  // pointer that every Lookup reads.
  alignas(64) std::atomic<uint64_t> hits_{0};
  std::atomic<uint64_t> misses_{0};
  std::atomic<uint64_t> inserts_{0};
  std::atomic<uint64_t> evictions_{0};
};

class ShardedClockCache final : public Cache {
 public:
  // REQUIRES: 0 <= num_shard_bits < 20, estimated_entry_charge > 0.
  ShardedClockCache(size_t capacity, size_t estimated_entry_charge, int num_shard_bits,
                    bool strict_capacity_limit,
                    std::shared_ptr<MemoryAllocator> allocator = nullptr);
  ~ShardedClockCache() override;

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
  const char* Name() const override { return "HyperClockCache"; }
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
  ClockCacheShard* TEST_Shard(int i) { return shards_[static_cast<size_t>(i)].get(); }
  static uint64_t HashKey(const Slice& key);

 private:
  ClockCacheShard& ShardFor(uint64_t hash) {
    return *shards_[num_shard_bits_ > 0 ? hash >> (64 - num_shard_bits_) : 0];
  }

  // Immutable after construction.
  const int num_shard_bits_;
  const int num_shards_;
  std::unique_ptr<std::unique_ptr<ClockCacheShard>[]> shards_;

  // Atomics (relaxed, as in ShardedLRUCache).
  std::atomic<size_t> capacity_;
  std::atomic<uint64_t> last_id_{0};
  std::atomic<bool> strict_capacity_limit_;  // what the shards were last told
};

}  // namespace strata
