// See cache/clock_cache.h for the design.
#include "cache/clock_cache.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <utility>

#include "cache/lru_cache.h"
#include "util/hash.h"

namespace strata {

namespace {

// Meta word layout (see the header).
constexpr int kCounterBits = 30;
constexpr uint64_t kCounterMask = (uint64_t{1} << kCounterBits) - 1;
constexpr int kAcquireShift = 0;
constexpr int kReleaseShift = kCounterBits;
constexpr uint64_t kAcquireOne = uint64_t{1} << kAcquireShift;
constexpr uint64_t kReleaseOne = uint64_t{1} << kReleaseShift;
constexpr int kStateShift = 61;
constexpr uint64_t kStateEmpty = 0;
constexpr uint64_t kStateOccupiedBit = 0b100;
constexpr uint64_t kStateShareableBit = 0b010;
constexpr uint64_t kStateVisibleBit = 0b001;
constexpr uint64_t kStateConstruction = kStateOccupiedBit;
constexpr uint64_t kStateInvisible = kStateOccupiedBit | kStateShareableBit;
constexpr uint64_t kStateVisible = kStateInvisible | kStateVisibleBit;

// Countdowns: sweeps an unreferenced entry survives without a hit.
constexpr uint64_t kHighCountdown = 3;
constexpr uint64_t kLowCountdown = 2;
constexpr uint64_t kMaxCountdown = kHighCountdown;
// Release rebases the counters once the release counter passes this.
constexpr uint64_t kRebaseThreshold = uint64_t{1} << (kCounterBits - 1);

constexpr double kLoadFactor = 0.7;
constexpr double kStrictLoadFactor = 0.84;

inline uint64_t StateOf(uint64_t meta) { return meta >> kStateShift; }
inline uint64_t AcquireOf(uint64_t meta) { return (meta >> kAcquireShift) & kCounterMask; }
inline uint64_t ReleaseOf(uint64_t meta) { return (meta >> kReleaseShift) & kCounterMask; }
inline bool IsShareable(uint64_t meta) { return (StateOf(meta) & kStateShareableBit) != 0; }
inline bool IsVisible(uint64_t meta) { return StateOf(meta) == kStateVisible; }
inline uint64_t MakeMeta(uint64_t state, uint64_t acquire, uint64_t release) {
  return (state << kStateShift) | (acquire << kAcquireShift) | (release << kReleaseShift);
}

// log2 of the slots of a shard holding `capacity` with entries of about
// `estimated_entry_charge`, at load factor kLoadFactor; at least 16 slots.
int CalcLengthBits(size_t capacity, size_t estimated_entry_charge) {
  double slots = std::ceil(static_cast<double>(capacity) /
                           (static_cast<double>(estimated_entry_charge) * kLoadFactor));
  int bits = 4;
  while (bits < 30 && static_cast<double>(size_t{1} << bits) < slots) bits++;
  return bits;
}

}  // namespace

// ---- ClockCacheShard ----

ClockCacheShard::ClockCacheShard(size_t capacity, size_t estimated_entry_charge,
                                 bool strict_capacity_limit)
    : length_bits_(CalcLengthBits(capacity, estimated_entry_charge)),
      occupancy_limit_(std::max<size_t>(
          1,
          static_cast<size_t>(static_cast<double>(size_t{1} << length_bits_) * kStrictLoadFactor))),
      slots_(new ClockHandle[size_t{1} << length_bits_]),
      capacity_(capacity),
      strict_capacity_limit_(strict_capacity_limit) {}

ClockCacheShard::~ClockCacheShard() {
  size_t n = size_t{1} << length_bits_;
  for (size_t i = 0; i < n; i++) {
    ClockHandle* h = &slots_[i];
    uint64_t meta = h->meta.load(std::memory_order_acquire);
    if (StateOf(meta) == kStateEmpty) continue;
    assert(IsShareable(meta) && AcquireOf(meta) == ReleaseOf(meta));  // no handle outstanding
    if (h->deleter != nullptr) (*h->deleter)(h->key, h->value);
  }
}

ClockHandle* ClockCacheShard::SlotAt(uint64_t hash, size_t probe) const {
  uint64_t increment = ((hash >> 32) << 1) | 1;
  uint64_t mask = (uint64_t{1} << length_bits_) - 1;
  return &slots_[(hash + probe * increment) & mask];
}

void ClockCacheShard::SetCapacity(size_t capacity) {
  capacity_.store(capacity, std::memory_order_relaxed);
  size_t usage = usage_.load(std::memory_order_relaxed);
  if (usage > capacity) Evict(usage - capacity, 0);
}

void ClockCacheShard::SetStrictCapacityLimit(bool strict) {
  strict_capacity_limit_.store(strict, std::memory_order_relaxed);
}

void ClockCacheShard::FreeOwned(ClockHandle* h) {
  // h is under construction and ours: no other thread reads its fields.
  void* value = h->value;
  Cache::Deleter deleter = h->deleter;
  std::string key = std::move(h->key);
  size_t charge = h->charge.load(std::memory_order_relaxed);
  uint64_t hash = h->hash;
  h->value = nullptr;
  h->deleter = nullptr;
  for (size_t p = 0;; p++) {
    ClockHandle* passed = SlotAt(hash, p);
    if (passed == h) break;
    passed->displacements.fetch_sub(1, std::memory_order_relaxed);
  }
  // Release: the next owner (after its fetch_or) sees our field writes done.
  h->meta.store(0, std::memory_order_release);
  occupancy_.fetch_sub(1, std::memory_order_relaxed);
  if (deleter != nullptr) (*deleter)(key, value);
  usage_.fetch_sub(charge, std::memory_order_relaxed);
}

bool ClockCacheShard::TryFree(ClockHandle* h, uint64_t expected) {
  assert(IsShareable(expected) && AcquireOf(expected) == ReleaseOf(expected));
  // acq_rel: acquire orders our reads of the fields after every reference
  // holder's release; the write makes the slot ours.
  if (!h->meta.compare_exchange_strong(expected, MakeMeta(kStateConstruction, 0, 0),
                                       std::memory_order_acq_rel, std::memory_order_relaxed)) {
    return false;
  }
  FreeOwned(h);
  return true;
}

void ClockCacheShard::Unref(ClockHandle* h) {
  // acq_rel: release so that an evictor's CAS orders after our key reads.
  uint64_t meta = h->meta.fetch_sub(kAcquireOne, std::memory_order_acq_rel) - kAcquireOne;
  FreeIfErasedAndUnreferenced(h, meta);
}

bool ClockCacheShard::FreeIfErasedAndUnreferenced(ClockHandle* h, uint64_t meta) {
  // Retries while the entry stays erased and unreferenced: a failed CAS may
  // be a clock step that only changed the (equal) counters.
  while (StateOf(meta) == kStateInvisible && AcquireOf(meta) == ReleaseOf(meta)) {
    if (h->meta.compare_exchange_weak(meta, MakeMeta(kStateConstruction, 0, 0),
                                      std::memory_order_acq_rel, std::memory_order_relaxed)) {
      FreeOwned(h);
      return true;
    }
  }
  return false;
}

bool ClockCacheShard::ClockUpdate(ClockHandle* h) {
  uint64_t meta = h->meta.load(std::memory_order_relaxed);
  if (!IsShareable(meta)) return false;
  uint64_t acquire = AcquireOf(meta);
  if (acquire != ReleaseOf(meta)) return false;  // referenced
  if (IsVisible(meta) && acquire > 0) {
    uint64_t countdown = std::min(acquire, kMaxCountdown) - 1;
    // A failed CAS means a reference came or went: leave it for next round.
    h->meta.compare_exchange_strong(meta, MakeMeta(kStateVisible, countdown, countdown),
                                    std::memory_order_relaxed, std::memory_order_relaxed);
    return false;
  }
  if (!TryFree(h, meta)) return false;
  evictions_.fetch_add(1, std::memory_order_relaxed);
  return true;
}

void ClockCacheShard::Evict(size_t charge, size_t slots) {
  constexpr uint64_t kStep = 4;
  size_t n = size_t{1} << length_bits_;
  size_t mask = n - 1;
  // Each round lowers every unreferenced countdown by one, so kMaxCountdown
  // + 1 rounds evict everything evictable.
  size_t budget = (kMaxCountdown + 1) * n + kStep;
  size_t freed_charge = 0;
  size_t freed_slots = 0;
  for (size_t swept = 0; swept < budget && (freed_charge < charge || freed_slots < slots);
       swept += kStep) {
    uint64_t start = clock_pointer_.fetch_add(kStep, std::memory_order_relaxed);
    for (uint64_t i = 0; i < kStep; i++) {
      ClockHandle* h = &slots_[(start + i) & mask];
      size_t h_charge = h->charge.load(std::memory_order_relaxed);
      if (ClockUpdate(h)) {
        freed_charge += h_charge;
        freed_slots++;
      }
    }
  }
}

bool ClockCacheShard::ReserveCharge(size_t charge, bool must_fit) {
  size_t usage = usage_.load(std::memory_order_relaxed);
  bool evicted = false;
  for (;;) {
    size_t capacity = capacity_.load(std::memory_order_relaxed);
    if (usage + charge <= capacity) {
      if (usage_.compare_exchange_weak(usage, usage + charge, std::memory_order_relaxed)) {
        return true;
      }
      continue;
    }
    if (!evicted) {
      evicted = true;
      size_t excess = usage + charge - capacity;
      Evict(std::min(excess, usage), 0);
      usage = usage_.load(std::memory_order_relaxed);
      continue;
    }
    if (must_fit) return false;
    usage_.fetch_add(charge, std::memory_order_relaxed);
    return true;
  }
}

bool ClockCacheShard::ReserveSlot() {
  size_t occupancy = occupancy_.load(std::memory_order_relaxed);
  bool evicted = false;
  for (;;) {
    if (occupancy < occupancy_limit_) {
      if (occupancy_.compare_exchange_weak(occupancy, occupancy + 1, std::memory_order_relaxed)) {
        return true;
      }
      continue;
    }
    if (evicted) return false;
    evicted = true;
    Evict(0, 1);
    occupancy = occupancy_.load(std::memory_order_relaxed);
  }
}

Status ClockCacheShard::Insert(const Slice& key, uint64_t hash, void* value, size_t charge,
                               Cache::Deleter deleter, ClockHandle** handle,
                               Cache::Priority priority) {
  // An entry with this key goes first (it is replaced), as in the LRU cache.
  Erase(key, hash);

  bool strict = strict_capacity_limit_.load(std::memory_order_relaxed);
  auto fail = [&](const char* why) {
    if (deleter != nullptr) (*deleter)(key, value);
    if (handle == nullptr) return Status::OK();  // as if inserted and evicted
    *handle = nullptr;
    return Status::Incomplete(why);
  };
  if (!ReserveCharge(charge, strict || handle == nullptr)) {
    return fail("Insert failed due to HyperClockCache being full");
  }
  if (!ReserveSlot()) {
    if (strict || handle == nullptr) {
      usage_.fetch_sub(charge, std::memory_order_relaxed);
      return fail("Insert failed because all slots of the HyperClockCache table are in use");
    }
    // A detached entry: charged and pinned, invisible to Lookup.
    ClockHandle* d = new ClockHandle;
    d->hash = hash;
    d->value = value;
    d->deleter = deleter;
    d->detached = true;
    d->key = key.ToString();
    d->charge.store(charge, std::memory_order_relaxed);
    d->meta.store(MakeMeta(kStateVisible, 1, 0), std::memory_order_release);
    detached_usage_.fetch_add(charge, std::memory_order_relaxed);
    inserts_.fetch_add(1, std::memory_order_relaxed);
    *handle = d;
    return Status::OK();
  }

  // Claim the first empty slot of the probe sequence, counting a
  // displacement on every slot passed over. The reserved slot guarantees one
  // is empty, but a racing sweep may move it past us: then give up.
  size_t n = size_t{1} << length_bits_;
  ClockHandle* slot = nullptr;
  size_t probe = 0;
  for (; probe < n; probe++) {
    ClockHandle* h = SlotAt(hash, probe);
    if (StateOf(h->meta.load(std::memory_order_relaxed)) == kStateEmpty) {
      // acquire: the previous owner's field writes happened before.
      uint64_t old = h->meta.fetch_or(kStateConstruction << kStateShift, std::memory_order_acq_rel);
      if (StateOf(old) == kStateEmpty) {
        slot = h;
        break;
      }
    }
    h->displacements.fetch_add(1, std::memory_order_relaxed);
  }
  if (slot == nullptr) {
    for (size_t p = 0; p < probe; p++) {
      SlotAt(hash, p)->displacements.fetch_sub(1, std::memory_order_relaxed);
    }
    occupancy_.fetch_sub(1, std::memory_order_relaxed);
    usage_.fetch_sub(charge, std::memory_order_relaxed);
    return fail("Insert failed: no empty slot found in the HyperClockCache table");
  }
  slot->hash = hash;
  slot->value = value;
  slot->deleter = deleter;
  slot->detached = false;
  slot->key.assign(key.data(), key.size());
  slot->charge.store(charge, std::memory_order_relaxed);
  uint64_t countdown = priority == Cache::Priority::kHigh ? kHighCountdown : kLowCountdown;
  uint64_t acquire = countdown + (handle != nullptr ? 1 : 0);
  // release: readers that see "visible" see the fields above.
  slot->meta.store(MakeMeta(kStateVisible, acquire, countdown), std::memory_order_release);
  inserts_.fetch_add(1, std::memory_order_relaxed);
  if (handle != nullptr) *handle = slot;
  return Status::OK();
}

ClockHandle* ClockCacheShard::Lookup(const Slice& key, uint64_t hash) {
  size_t n = size_t{1} << length_bits_;
  for (size_t probe = 0; probe < n; probe++) {
    ClockHandle* h = SlotAt(hash, probe);
    uint64_t meta = h->meta.load(std::memory_order_acquire);
    if (IsVisible(meta)) {
      // acq_rel: acquire pairs with the owner's publishing store.
      uint64_t old = h->meta.fetch_add(kAcquireOne, std::memory_order_acq_rel);
      if (IsShareable(old)) {
        if (IsVisible(old) && h->hash == hash && Slice(h->key) == key) {
          hits_.fetch_add(1, std::memory_order_relaxed);
          return h;
        }
        Unref(h);
      }
      // Not shareable any more: the owner's store overwrites our add.
    }
    if (h->displacements.load(std::memory_order_relaxed) == 0) break;
  }
  misses_.fetch_add(1, std::memory_order_relaxed);
  return nullptr;
}

void ClockCacheShard::Ref(ClockHandle* h) {
  // Relaxed: the caller's own reference keeps the entry alive and published.
  uint64_t old = h->meta.fetch_add(kAcquireOne, std::memory_order_relaxed);
  assert(h->detached || IsShareable(old));
  (void)old;
}

void ClockCacheShard::ApplyToAllEntries(
    const std::function<void(const Slice&, void*, size_t, Cache::DeleterFn)>& f) {
  size_t n = size_t{1} << length_bits_;
  for (size_t i = 0; i < n; i++) {
    ClockHandle* h = &slots_[i];
    uint64_t meta = h->meta.load(std::memory_order_acquire);
    if (!IsVisible(meta)) continue;
    // As Lookup: a reference keeps the entry from being freed during f.
    uint64_t old = h->meta.fetch_add(kAcquireOne, std::memory_order_acq_rel);
    if (!IsShareable(old)) continue;  // the owner's store overwrites our add
    if (IsVisible(old)) {
      f(h->key, h->value, h->charge.load(std::memory_order_relaxed), h->deleter);
    }
    Unref(h);
  }
}

bool ClockCacheShard::Release(ClockHandle* h, bool erase_if_last_ref) {
  if (h->detached) {
    uint64_t meta = h->meta.fetch_add(kReleaseOne, std::memory_order_acq_rel) + kReleaseOne;
    if (AcquireOf(meta) != ReleaseOf(meta)) return false;
    size_t charge = h->charge.load(std::memory_order_relaxed);
    if (h->deleter != nullptr) (*h->deleter)(h->key, h->value);
    delete h;
    detached_usage_.fetch_sub(charge, std::memory_order_relaxed);
    usage_.fetch_sub(charge, std::memory_order_relaxed);
    return true;
  }
  // acq_rel: release orders our reads of the value before a later free.
  uint64_t meta = h->meta.fetch_add(kReleaseOne, std::memory_order_acq_rel) + kReleaseOne;
  assert(IsShareable(meta));
  uint64_t acquire = AcquireOf(meta);
  uint64_t release = ReleaseOf(meta);
  if (acquire == release) {
    // The last reference.
    if (StateOf(meta) == kStateInvisible) return FreeIfErasedAndUnreferenced(h, meta);
    if (erase_if_last_ref ||
        usage_.load(std::memory_order_relaxed) > capacity_.load(std::memory_order_relaxed)) {
      return TryFree(h, meta);
    }
    if (release >= kRebaseThreshold) {
      // Rebase both counters to the top countdown (the entry is hot).
      h->meta.compare_exchange_strong(meta, MakeMeta(StateOf(meta), kMaxCountdown, kMaxCountdown),
                                      std::memory_order_relaxed, std::memory_order_relaxed);
    }
    return false;
  }
  if (release >= kRebaseThreshold) {
    // Still referenced: subtract the same amount from both counters.
    uint64_t d = release - kMaxCountdown;
    h->meta.compare_exchange_strong(meta, MakeMeta(StateOf(meta), acquire - d, release - d),
                                    std::memory_order_relaxed, std::memory_order_relaxed);
  }
  return false;
}

void ClockCacheShard::Erase(const Slice& key, uint64_t hash) {
  size_t n = size_t{1} << length_bits_;
  for (size_t probe = 0; probe < n; probe++) {
    ClockHandle* h = SlotAt(hash, probe);
    uint64_t meta = h->meta.load(std::memory_order_acquire);
    if (IsVisible(meta)) {
      uint64_t old = h->meta.fetch_add(kAcquireOne, std::memory_order_acq_rel);
      if (IsShareable(old)) {
        if (IsVisible(old) && h->hash == hash && Slice(h->key) == key) {
          // Invisible from now on; freed when its last reference (maybe
          // ours, in Unref) goes.
          h->meta.fetch_and(~(kStateVisibleBit << kStateShift), std::memory_order_acq_rel);
        }
        Unref(h);
      }
    }
    if (h->displacements.load(std::memory_order_relaxed) == 0) break;
  }
}

void ClockCacheShard::EraseUnRefEntries() {
  size_t n = size_t{1} << length_bits_;
  for (size_t i = 0; i < n; i++) {
    ClockHandle* h = &slots_[i];
    uint64_t meta = h->meta.load(std::memory_order_relaxed);
    if (IsShareable(meta) && AcquireOf(meta) == ReleaseOf(meta)) TryFree(h, meta);
  }
}

size_t ClockCacheShard::GetPinnedUsage() const {
  size_t pinned = detached_usage_.load(std::memory_order_relaxed);
  size_t n = size_t{1} << length_bits_;
  for (size_t i = 0; i < n; i++) {
    const ClockHandle* h = &slots_[i];
    uint64_t meta = h->meta.load(std::memory_order_relaxed);
    if (IsShareable(meta) && AcquireOf(meta) != ReleaseOf(meta)) {
      pinned += h->charge.load(std::memory_order_relaxed);
    }
  }
  return pinned;
}

void ClockCacheShard::AddStats(Cache::CacheStats* stats) const {
  stats->hits += hits_.load(std::memory_order_relaxed);
  stats->misses += misses_.load(std::memory_order_relaxed);
  stats->inserts += inserts_.load(std::memory_order_relaxed);
  stats->evictions += evictions_.load(std::memory_order_relaxed);
}

// ---- ShardedClockCache ----

ShardedClockCache::ShardedClockCache(size_t capacity, size_t estimated_entry_charge,
                                     int num_shard_bits, bool strict_capacity_limit,
                                     std::shared_ptr<MemoryAllocator> allocator)
    : Cache(std::move(allocator)),
      num_shard_bits_(num_shard_bits),
      num_shards_(1 << num_shard_bits),
      shards_(new std::unique_ptr<ClockCacheShard>[size_t{1} << num_shard_bits]),
      capacity_(capacity),
      strict_capacity_limit_(strict_capacity_limit) {
  size_t per_shard =
      (capacity + static_cast<size_t>(num_shards_) - 1) / static_cast<size_t>(num_shards_);
  for (int i = 0; i < num_shards_; i++) {
    shards_[static_cast<size_t>(i)] =
        std::make_unique<ClockCacheShard>(per_shard, estimated_entry_charge, strict_capacity_limit);
  }
}

ShardedClockCache::~ShardedClockCache() = default;

uint64_t ShardedClockCache::HashKey(const Slice& key) { return XXH3_64(key.data(), key.size()); }

Status ShardedClockCache::Insert(const Slice& key, void* value, size_t charge, Deleter deleter,
                                 Handle** handle, Priority priority) {
  uint64_t hash = HashKey(key);
  return ShardFor(hash).Insert(key, hash, value, charge, deleter,
                               reinterpret_cast<ClockHandle**>(handle), priority);
}

Cache::Handle* ShardedClockCache::Lookup(const Slice& key, Statistics* /*stats*/) {
  uint64_t hash = HashKey(key);
  return reinterpret_cast<Handle*>(ShardFor(hash).Lookup(key, hash));
}

bool ShardedClockCache::Ref(Handle* handle) {
  ClockCacheShard::Ref(reinterpret_cast<ClockHandle*>(handle));
  return true;
}

size_t ShardedClockCache::GetCharge(Handle* handle) const {
  return reinterpret_cast<const ClockHandle*>(handle)->charge.load(std::memory_order_relaxed);
}

Cache::DeleterFn ShardedClockCache::GetDeleter(Handle* handle) const {
  return reinterpret_cast<const ClockHandle*>(handle)->deleter;
}

size_t ShardedClockCache::GetOccupancyCount() const {
  size_t n = 0;
  for (int i = 0; i < num_shards_; i++) n += shards_[static_cast<size_t>(i)]->GetOccupancyCount();
  return n;
}

size_t ShardedClockCache::GetTableAddressCount() const {
  size_t n = 0;
  for (int i = 0; i < num_shards_; i++)
    n += shards_[static_cast<size_t>(i)]->GetTableAddressCount();
  return n;
}

void ShardedClockCache::ApplyToAllEntries(
    const std::function<void(const Slice& key, void* value, size_t charge, DeleterFn deleter)>&
        callback,
    const ApplyToAllEntriesOptions& /*opts*/) {
  for (int i = 0; i < num_shards_; i++)
    shards_[static_cast<size_t>(i)]->ApplyToAllEntries(callback);
}

std::string ShardedClockCache::GetPrintableOptions() const {
  // RocksDB's ShardedCache lines (its clock shards add none).
  return ShardedCachePrintableOptions(*this, num_shard_bits_);
}

bool ShardedClockCache::Release(Handle* handle, bool erase_if_last_ref) {
  ClockHandle* h = reinterpret_cast<ClockHandle*>(handle);
  return ShardFor(h->hash).Release(h, erase_if_last_ref);
}

void* ShardedClockCache::Value(Handle* handle) {
  return reinterpret_cast<ClockHandle*>(handle)->value;
}

void ShardedClockCache::Erase(const Slice& key) {
  uint64_t hash = HashKey(key);
  ShardFor(hash).Erase(key, hash);
}

uint64_t ShardedClockCache::NewId() { return last_id_.fetch_add(1, std::memory_order_relaxed) + 1; }

void ShardedClockCache::SetCapacity(size_t capacity) {
  size_t per_shard =
      (capacity + static_cast<size_t>(num_shards_) - 1) / static_cast<size_t>(num_shards_);
  for (int i = 0; i < num_shards_; i++) shards_[static_cast<size_t>(i)]->SetCapacity(per_shard);
  capacity_.store(capacity, std::memory_order_relaxed);
}

size_t ShardedClockCache::GetCapacity() const { return capacity_.load(std::memory_order_relaxed); }

size_t ShardedClockCache::GetUsage() const {
  size_t usage = 0;
  for (int i = 0; i < num_shards_; i++) usage += shards_[static_cast<size_t>(i)]->GetUsage();
  return usage;
}

size_t ShardedClockCache::GetPinnedUsage() const {
  size_t usage = 0;
  for (int i = 0; i < num_shards_; i++) usage += shards_[static_cast<size_t>(i)]->GetPinnedUsage();
  return usage;
}

void ShardedClockCache::SetStrictCapacityLimit(bool strict_capacity_limit) {
  strict_capacity_limit_.store(strict_capacity_limit, std::memory_order_relaxed);
  for (int i = 0; i < num_shards_; i++) {
    shards_[static_cast<size_t>(i)]->SetStrictCapacityLimit(strict_capacity_limit);
  }
}

void ShardedClockCache::EraseUnRefEntries() {
  for (int i = 0; i < num_shards_; i++) shards_[static_cast<size_t>(i)]->EraseUnRefEntries();
}

Cache::CacheStats ShardedClockCache::GetStats() const {
  CacheStats stats;
  for (int i = 0; i < num_shards_; i++) shards_[static_cast<size_t>(i)]->AddStats(&stats);
  return stats;
}

// ---- factories ----

std::shared_ptr<Cache> NewHyperClockCache(const HyperClockCacheOptions& options) {
  if (options.estimated_entry_charge == 0) return nullptr;
  if (options.num_shard_bits >= 20) return nullptr;
  int bits = options.num_shard_bits;
  if (bits < 0) bits = GetDefaultCacheShardBits(options.capacity);
  return std::make_shared<ShardedClockCache>(options.capacity, options.estimated_entry_charge, bits,
                                             options.strict_capacity_limit,
                                             options.memory_allocator);
}

std::shared_ptr<Cache> HyperClockCacheOptions::MakeSharedCache() const {
  return NewHyperClockCache(*this);
}

std::shared_ptr<Cache> NewClockCache(size_t capacity, int num_shard_bits,
                                     bool strict_capacity_limit) {
  return NewLRUCache(capacity, num_shard_bits, strict_capacity_limit);
}

}  // namespace strata
