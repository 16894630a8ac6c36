// Cache: a map from keys to client-owned values with a total "charge"
// budget, used as the block cache (uncompressed data, index and filter
// blocks shared by all table readers). NewLRUCache() builds the standard
// implementation: a sharded LRU cache with a high-priority pool.
//
// Entries are reached through handles. Lookup and Insert (with a handle out
// parameter) return a referenced handle; the client reads the value with
// Value() and must give every handle back with Release() exactly once. While
// any handle to an entry is outstanding, the entry is "pinned": it is never
// evicted and its value stays valid, even if it is erased or replaced (then
// it is freed at its last Release).
//
// Thread-safety: thread-safe; every method may be called concurrently.
// Invariants:
//  1. The deleter of an inserted value runs exactly once, when the entry is
//     no longer in the cache and no handle to it is outstanding (or at once
//     when an Insert does not keep the entry). It runs without any cache
//     lock held, so it may call back into the cache.
//  2. GetUsage() is the sum of the charges of the entries not yet freed
//     (resident ones plus erased ones still pinned); GetPinnedUsage() is the
//     part of it held by outstanding handles.
//  3. Eviction removes unpinned entries only, least recently used first,
//     low-priority entries before high-priority ones.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "strata/export.h"
#include "strata/memory_allocator.h"
#include "strata/slice.h"
#include "strata/status.h"

namespace strata {

struct ConfigOptions;  // strata/convenience.h
class Statistics;      // strata/statistics.h

class STRATA_EXPORT Cache {
 public:
  // An opaque reference to one entry, returned by Lookup and Insert.
  struct Handle;

  // Where a new entry goes in the LRU order. kHigh entries (index and filter
  // blocks) live in a protected pool of the capacity and are evicted only
  // after every unpinned kLow entry.
  // RocksDB's names too: HIGH is kHigh, LOW is kLow; BOTTOM (RocksDB's
  // pool below LOW) is kLow, as Strata's caches have two pools.
  enum class Priority { kHigh, kLow, HIGH = kHigh, LOW = kLow, BOTTOM = kLow };

  // Frees a value once the cache is done with it (invariant 1). `key` is a
  // view valid only during the call.
  using Deleter = void (*)(const Slice& key, void* value);
  using DeleterFn = Deleter;  // RocksDB's name

  // Counters since the cache was created. A hit/miss is a Lookup that did /
  // did not find its key; an insert is an Insert that added its entry; an
  // eviction is an unpinned entry removed to make room, by Insert or by a
  // shrinking SetCapacity (not by Erase, replacement or EraseUnRefEntries).
  struct CacheStats {
    uint64_t hits = 0;
    uint64_t misses = 0;
    uint64_t inserts = 0;
    uint64_t evictions = 0;
  };

  // `allocator` (may be null: the default heap) is where the clients
  // filling the cache allocate the values' memory (see memory_allocator()).
  Cache(std::shared_ptr<MemoryAllocator> allocator = nullptr)  // NOLINT: RocksDB's implicit form
      : memory_allocator_(std::move(allocator)) {}
  Cache(const Cache&) = delete;
  Cache& operator=(const Cache&) = delete;
  // REQUIRES: no handle is outstanding. Runs the deleters of all entries.
  virtual ~Cache() = default;

  // The allocator of the memory of the values put in this cache, or nullptr
  // for the default heap. Table readers allocate the contents of the blocks
  // they read for this cache from it and free them through it when an entry
  // is dropped (strata/memory_allocator.h). The cache itself never calls it.
  // It lives as long as the cache (whose entries are freed in a subclass
  // destructor, before the allocator is released).
  MemoryAllocator* memory_allocator() const { return memory_allocator_.get(); }

  // ---- entry helpers for a secondary cache (RocksDB's names) ----
  // A secondary cache (rocksdb/secondary_cache.h in the compat layer) keeps
  // entries the primary cache evicts, as bytes: size_cb says how many bytes
  // an entry saves to, saveto_cb copies [from_offset, from_offset + length)
  // of them to `out`, del_cb frees the entry. A CreateCallback rebuilds an
  // entry from saved bytes (it copies them) and says its charge. Strata's
  // caches and table readers do not use a secondary cache yet; the types
  // exist so that its interface can be declared.
  using SizeCallback = size_t (*)(void* obj);
  using SaveToCallback = Status (*)(void* from_obj, size_t from_offset, size_t length, void* out);
  struct CacheItemHelper {
    SizeCallback size_cb;
    SaveToCallback saveto_cb;
    DeleterFn del_cb;
    CacheItemHelper() : size_cb(nullptr), saveto_cb(nullptr), del_cb(nullptr) {}
    CacheItemHelper(SizeCallback _size_cb, SaveToCallback _saveto_cb, DeleterFn _del_cb)
        : size_cb(_size_cb), saveto_cb(_saveto_cb), del_cb(_del_cb) {}
  };
  using CreateCallback =
      std::function<Status(const void* buf, size_t size, void** out_obj, size_t* charge)>;

  // Adds key -> value with the given charge, replacing any entry for key
  // (the replaced entry is freed once unpinned). The cache copies the key
  // and takes ownership of value: the deleter frees it later, or at once if
  // the Insert fails.
  // If handle is not null, *handle is set to a pinned handle to the new entry
  // (release it). If room cannot be made -- with strict_capacity_limit, or
  // for an entry larger than the capacity -- then: with a handle out
  // parameter, *handle = nullptr and the result is Incomplete; without one,
  // the value is freed at once and the result is OK (as if the entry had been
  // inserted and evicted). Cost: O(1) plus the evictions it causes.
  virtual Status Insert(const Slice& key, void* value, size_t charge, DeleterFn deleter,
                        Handle** handle = nullptr, Priority priority = Priority::kLow) = 0;

  // A pinned handle to key's entry, or nullptr if absent (not an error).
  // stats: RocksDB counts secondary-cache hits there; Strata's caches have
  // no secondary tier and ignore it.
  virtual Handle* Lookup(const Slice& key, Statistics* stats = nullptr) = 0;

  // One more reference to an entry through a handle the caller holds
  // (REQUIRES: handle not yet released); the entry then needs one more
  // Release. Returns true (the reference was taken).
  virtual bool Ref(Handle* handle) = 0;

  // Gives back a handle from Lookup or Insert. With erase_if_last_ref, an
  // entry whose last handle this was is also removed from the cache. Returns
  // true if the entry was freed (its deleter ran) by this call.
  virtual bool Release(Handle* handle, bool erase_if_last_ref = false) = 0;

  // The value of a handle that has not been released.
  virtual void* Value(Handle* handle) = 0;

  // Removes key's entry, if any; it is freed now or at its last Release.
  virtual void Erase(const Slice& key) = 0;

  // A new id, unique within this cache, for clients sharing the cache to
  // build disjoint key spaces (table readers prefix their block keys).
  virtual uint64_t NewId() = 0;

  // Changes the capacity; shrinking evicts unpinned entries at once.
  virtual void SetCapacity(size_t capacity) = 0;
  virtual size_t GetCapacity() const = 0;
  virtual size_t GetUsage() const = 0;
  virtual size_t GetPinnedUsage() const = 0;

  // With a strict limit, Insert fails rather than exceed the capacity.
  virtual void SetStrictCapacityLimit(bool strict_capacity_limit) = 0;
  // Whether Insert fails instead of exceeding the capacity.
  virtual bool HasStrictCapacityLimit() const = 0;

  // Removes every unpinned entry.
  virtual void EraseUnRefEntries() = 0;

  virtual const char* Name() const = 0;
  virtual CacheStats GetStats() const = 0;

  // ---- RocksDB 7.8.3's other members ----

  // The registry type name (RocksDB's Customizable::Type).
  static const char* Type() { return "Cache"; }
  // RocksDB's forms: a capacity ("8M": an LRU cache with RocksDB's
  // defaults, metadata charged) or "capacity=..;num_shard_bits=..;
  // strict_capacity_limit=..;high_pri_pool_ratio=..;low_pri_pool_ratio=.."
  // (the last checked, then unused: Strata's LRU cache has no low pool).
  // Another field is InvalidArgument ("Unrecognized option: .<name>");
  // ratios out of range give *result = nullptr, as RocksDB's NewLRUCache.
  static Status CreateFromString(const ConfigOptions& config_options, const std::string& value,
                                 std::shared_ptr<Cache>* result);

  // The charge the entry was inserted with (without the metadata a
  // kFullChargeCacheMetadata cache adds). REQUIRES: handle not released.
  virtual size_t GetCharge(Handle* handle) const = 0;
  // RocksDB's: the same as GetCharge.
  virtual size_t GetUsage(Handle* handle) const { return GetCharge(handle); }
  // The deleter the entry was inserted with.
  virtual DeleterFn GetDeleter(Handle* handle) const = 0;
  // Entries in the cache's tables (resident ones, pinned or not), and the
  // tables' slot counts; RocksDB's defaults for a cache without tables.
  virtual size_t GetOccupancyCount() const { return SIZE_MAX; }
  virtual size_t GetTableAddressCount() const { return 0; }
  // RocksDB lets a cache leak its entries at destruction to exit faster;
  // Strata's caches always free them (allowed: the call is a hint).
  virtual void DisownData() {}

  struct ApplyToAllEntriesOptions {
    // Advisory (how many entries one lock hold covers in RocksDB); Strata's
    // caches visit a shard per lock hold.
    size_t average_entries_per_lock = 256;
  };
  // Calls callback for every resident entry (pinned or not) with its key,
  // value, inserted charge and deleter, holding the entry's shard lock: the
  // callback must not call back into the cache. Entries inserted or erased
  // meanwhile may or may not be visited.
  virtual void ApplyToAllEntries(
      const std::function<void(const Slice& key, void* value, size_t charge, DeleterFn deleter)>&
          callback,
      const ApplyToAllEntriesOptions& opts) = 0;
  // The older form (thread_safe is ignored, as in RocksDB 7.8.3).
  virtual void ApplyToAllCacheEntries(void (*callback)(void* value, size_t charge),
                                      bool /*thread_safe*/) {
    ApplyToAllEntries([callback](const Slice&, void* value, size_t charge,
                                 DeleterFn) { callback(value, charge); },
                      {});
  }
  // The cache's settings, one "    name : value" line each, as RocksDB
  // prints them in the options log; "" by default.
  virtual std::string GetPrintableOptions() const { return ""; }

  // The secondary-cache forms (a helper carries the deleter; see
  // CacheItemHelper). Without a secondary tier they are the plain forms: a
  // null helper is InvalidArgument, as in RocksDB.
  virtual Status Insert(const Slice& key, void* value, const CacheItemHelper* helper, size_t charge,
                        Handle** handle = nullptr, Priority priority = Priority::kLow) {
    if (helper == nullptr) return Status::InvalidArgument("Cache::Insert: null CacheItemHelper");
    return Insert(key, value, charge, helper->del_cb, handle, priority);
  }
  virtual Handle* Lookup(const Slice& key, const CacheItemHelper* /*helper_cb*/,
                         const CreateCallback& /*create_cb*/, Priority /*priority*/, bool /*wait*/,
                         Statistics* stats = nullptr) {
    return Lookup(key, stats);
  }
  // useful: RocksDB's hint for a secondary cache; unused here.
  virtual bool Release(Handle* handle, bool /*useful*/, bool erase_if_last_ref) {
    return Release(handle, erase_if_last_ref);
  }
  // Lookups here complete at once: every handle is ready.
  virtual bool IsReady(Handle* /*handle*/) { return true; }
  virtual void Wait(Handle* /*handle*/) {}
  virtual void WaitAll(std::vector<Handle*>& /*handles*/) {}

 private:
  // Immutable after construction.
  std::shared_ptr<MemoryAllocator> memory_allocator_;
};

// Whether a cache entry's charge also counts the cache's own memory for it
// (RocksDB's names). kFullChargeCacheMetadata adds the entry's handle -- its
// bookkeeping struct and a copy of the key, about 80 bytes plus the key --
// so that the capacity bounds the cache's whole footprint. RocksDB's
// default is kFullChargeCacheMetadata; NewLRUCache's is
// kDontChargeCacheMetadata (each entry counts its charge alone), and the
// cache DBOptions::memory_budget builds charges the metadata.
enum class CacheMetadataChargePolicy { kDontChargeCacheMetadata, kFullChargeCacheMetadata };

struct LRUCacheOptions {
  // Total charge budget of the cache, split evenly among the shards.
  size_t capacity = 0;
  // log2 of the number of shards (each has its own mutex). -1 derives it
  // from the capacity: one shard per 512 KiB, at most 64 shards.
  int num_shard_bits = -1;
  // If true, Insert fails (see Cache::Insert) instead of exceeding capacity.
  bool strict_capacity_limit = false;
  // Fraction of each shard's capacity reserved for Priority::kHigh entries,
  // in [0, 1]. 0 disables the high-priority pool.
  double high_pri_pool_ratio = 0.5;
  CacheMetadataChargePolicy metadata_charge_policy =
      CacheMetadataChargePolicy::kDontChargeCacheMetadata;
  // Where the blocks put in the cache get their memory (Cache::
  // memory_allocator()); nullptr: the default heap.
  std::shared_ptr<MemoryAllocator> memory_allocator;
};

// A sharded LRU cache, or nullptr if an argument is out of range
// (num_shard_bits >= 20, high_pri_pool_ratio outside [0, 1]).
STRATA_EXPORT std::shared_ptr<Cache> NewLRUCache(size_t capacity, int num_shard_bits = -1,
                                                 bool strict_capacity_limit = false,
                                                 double high_pri_pool_ratio = 0.5);
STRATA_EXPORT std::shared_ptr<Cache> NewLRUCache(const LRUCacheOptions& options);

// ---- HyperClockCache (issue 19, item 6) ----

// Options of the lock-free clock cache, as RocksDB 7.8.3 names them. Each
// shard is an open-addressed table whose size is fixed at construction from
// capacity / estimated_entry_charge; lookups and releases take no lock (one
// atomic add each). Eviction is CLOCK: an entry survives a sweep for every
// hit since the last one, up to 3 (kHigh) or 2 (kLow) sweeps when not hit.
// RocksDB's metadata_charge_policy is not offered (entries are charged
// their charge alone, as NewLRUCache does by default).
struct HyperClockCacheOptions {
  // Total charge budget of the cache, split evenly among the shards.
  size_t capacity = 0;
  // The expected average charge of an entry (for a block cache: about the
  // block size). It sizes the table: capacity / estimated_entry_charge
  // entries at a 0.7 load factor; a shard holds at most 0.84 of its slots,
  // so an estimate much too high limits the cache to fewer entries than the
  // capacity would allow. Must be > 0.
  size_t estimated_entry_charge = 0;
  // log2 of the number of shards; -1 derives it from the capacity as
  // NewLRUCache does (one shard per 512 KiB, at most 64 shards).
  int num_shard_bits = -1;
  // If true, Insert fails (see Cache::Insert) instead of exceeding capacity
  // or when its shard's table is full. If false and the table is full, an
  // Insert with a handle out parameter returns a "detached" entry: charged
  // and pinned, never found by Lookup, freed at its Release.
  bool strict_capacity_limit = false;
  // Where the blocks put in the cache get their memory (Cache::
  // memory_allocator()); nullptr: the default heap.
  std::shared_ptr<MemoryAllocator> memory_allocator;

  HyperClockCacheOptions() = default;
  HyperClockCacheOptions(size_t _capacity, size_t _estimated_entry_charge, int _num_shard_bits = -1,
                         bool _strict_capacity_limit = false)
      : capacity(_capacity),
        estimated_entry_charge(_estimated_entry_charge),
        num_shard_bits(_num_shard_bits),
        strict_capacity_limit(_strict_capacity_limit) {}

  // NewHyperClockCache(*this).
  STRATA_EXPORT std::shared_ptr<Cache> MakeSharedCache() const;
};

// A sharded HyperClockCache (Name() "HyperClockCache"), or nullptr if an
// argument is out of range: estimated_entry_charge == 0, num_shard_bits >= 20.
STRATA_EXPORT std::shared_ptr<Cache> NewHyperClockCache(const HyperClockCacheOptions& options);

// Deprecated in RocksDB 7.8.3, where it returns an LRU cache for
// compatibility (the clock cache needs estimated_entry_charge); so does this:
// NewLRUCache(capacity, num_shard_bits, strict_capacity_limit).
STRATA_EXPORT std::shared_ptr<Cache> NewClockCache(size_t capacity, int num_shard_bits = -1,
                                                   bool strict_capacity_limit = false);

// ---- memory charged to a cache by role (issue 19, part "memory") ----

// What a cache entry holds, as RocksDB 7.8.3 names it. Memory that is not a
// cached block -- memtables (WriteBufferManager), table readers, filter
// construction buffers -- can be charged to a block cache as pinned dummy
// entries of its role, so one capacity bounds all of it
// (BlockBasedTableOptions::cache_usage_options, strata/table.h).
enum class CacheEntryRole {
  kDataBlock,
  kFilterBlock,
  kFilterMetaBlock,
  kDeprecatedFilterBlock,
  kIndexBlock,
  kOtherBlock,
  // Memtable memory charged by a WriteBufferManager built with a cache.
  kWriteBuffer,
  kCompressionDictionaryBuildingBuffer,
  // Buffers of a filter being built (the keys' hashes of a table).
  kFilterConstruction,
  // A table reader's own memory (index and filter held outside the cache).
  kBlockBasedTableReader,
  kFileMetadata,
  kBlobValue,
  kBlobCache,
  kMisc,
};
constexpr uint32_t kNumCacheEntryRoles = static_cast<uint32_t>(CacheEntryRole::kMisc) + 1;

// The hyphenated lower-case name of a role ("write-buffer"), as RocksDB
// prints it in rocksdb.block-cache-entry-stats.
STRATA_EXPORT const std::string& GetCacheEntryRoleName(CacheEntryRole role);

}  // namespace strata
