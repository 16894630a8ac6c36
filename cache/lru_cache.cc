// See cache/lru_cache.h for the design.
#include "cache/lru_cache.h"

#include <cassert>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>

#include "util/hash.h"

namespace strata {

// ---- LRUHandleTable ----

LRUHandleTable::LRUHandleTable() : length_(16), elems_(0), list_(new LRUHandle*[16]()) {}

LRUHandle** LRUHandleTable::FindPointer(const Slice& key, uint32_t hash) {
  LRUHandle** ptr = &list_[hash & (length_ - 1)];
  while (*ptr != nullptr && ((*ptr)->hash != hash || key != (*ptr)->key())) {
    ptr = &(*ptr)->next_hash;
  }
  return ptr;
}

LRUHandle* LRUHandleTable::Lookup(const Slice& key, uint32_t hash) {
  return *FindPointer(key, hash);
}

LRUHandle* LRUHandleTable::Insert(LRUHandle* h) {
  LRUHandle** ptr = FindPointer(h->key(), h->hash);
  LRUHandle* old = *ptr;
  h->next_hash = (old == nullptr) ? nullptr : old->next_hash;
  *ptr = h;
  if (old == nullptr) {
    ++elems_;
    // Keep the table at most half full: a lookup then rarely follows a
    // chain past a non-matching entry (each link is a cache miss).
    if (elems_ > length_ / 2) Resize();
  }
  return old;
}

LRUHandle* LRUHandleTable::Remove(const Slice& key, uint32_t hash) {
  LRUHandle** ptr = FindPointer(key, hash);
  LRUHandle* result = *ptr;
  if (result != nullptr) {
    *ptr = result->next_hash;
    --elems_;
  }
  return result;
}

void LRUHandleTable::Resize() {
  uint32_t new_length = length_ * 2;
  std::unique_ptr<LRUHandle*[]> new_list(new LRUHandle*[new_length]());
  for (uint32_t i = 0; i < length_; i++) {
    LRUHandle* h = list_[i];
    while (h != nullptr) {
      LRUHandle* next = h->next_hash;
      LRUHandle** bucket = &new_list[h->hash & (new_length - 1)];
      h->next_hash = *bucket;
      *bucket = h;
      h = next;
    }
  }
  list_ = std::move(new_list);
  length_ = new_length;
}

// ---- LRUCacheShard ----

namespace {

LRUHandle* NewHandle(const Slice& key, uint32_t hash, void* value, size_t charge,
                     Cache::Deleter deleter, Cache::Priority priority) {
  // key_data is the last member; the key bytes extend past the struct.
  void* mem = std::malloc(sizeof(LRUHandle) - 1 + key.size());
  LRUHandle* e = static_cast<LRUHandle*>(mem);
  e->value = value;
  e->deleter = deleter;
  e->next_hash = nullptr;
  e->next = nullptr;
  e->prev = nullptr;
  e->charge = charge;
  e->key_length = key.size();
  e->refs = 0;
  e->hash = hash;
  e->in_cache = false;
  e->is_high_pri = priority == Cache::Priority::kHigh;
  e->in_high_pri_pool = false;
  e->referenced = false;
  if (key.size() > 0) {
    std::memcpy(static_cast<char*>(mem) + offsetof(LRUHandle, key_data), key.data(), key.size());
  }
  return e;
}

void FreeHandle(LRUHandle* e) {
  assert(!e->in_cache && e->refs == 0);
  if (e->deleter != nullptr) (*e->deleter)(e->key(), e->value);
  std::free(e);
}

}  // namespace

LRUCacheShard::LRUCacheShard() {
  MutexLock l(&mu_);
  lru_.next = &lru_;
  lru_.prev = &lru_;
  lru_.charge = 0;
  lru_low_pri_ = &lru_;
}

LRUCacheShard::~LRUCacheShard() {
  LRUHandle* to_free = nullptr;
  {
    MutexLock l(&mu_);
    table_.ForEach([&to_free](LRUHandle* h) {
      assert(h->refs == 0);  // REQUIRES: no outstanding handle
      h->in_cache = false;
      h->next = to_free;
      to_free = h;
    });
  }
  FreeChain(to_free);
}

void LRUCacheShard::Bump(std::atomic<uint64_t>* counter) {
  counter->store(counter->load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
}

void LRUCacheShard::FreeChain(LRUHandle* to_free) {
  while (to_free != nullptr) {
    LRUHandle* next = to_free->next;
    FreeHandle(to_free);
    to_free = next;
  }
}

void LRUCacheShard::LRURemove(LRUHandle* e) {
  assert(e->next != nullptr && e->prev != nullptr);
  if (lru_low_pri_ == e) lru_low_pri_ = e->prev;
  e->next->prev = e->prev;
  e->prev->next = e->next;
  e->next = e->prev = nullptr;
  --list_length_;
  if (e->in_high_pri_pool) {
    assert(high_pri_pool_usage_ >= e->charge);
    high_pri_pool_usage_ -= e->charge;
    e->in_high_pri_pool = false;
  }
}

void LRUCacheShard::LRUInsert(LRUHandle* e) {
  assert(e->next == nullptr && e->prev == nullptr);
  if (high_pri_pool_ratio_ > 0 && e->is_high_pri) {
    // Newest end of the list, inside the pool.
    e->next = &lru_;
    e->prev = lru_.prev;
    e->prev->next = e;
    lru_.prev = e;
    e->in_high_pri_pool = true;
    high_pri_pool_usage_ += e->charge;
    ++list_length_;
    MaintainPoolSize();
  } else {
    // Newest end of the low-priority section.
    e->next = lru_low_pri_->next;
    e->prev = lru_low_pri_;
    e->prev->next = e;
    e->next->prev = e;
    e->in_high_pri_pool = false;
    lru_low_pri_ = e;
    ++list_length_;
  }
}

void LRUCacheShard::MaintainPoolSize() {
  while (high_pri_pool_usage_ > high_pri_pool_capacity_) {
    lru_low_pri_ = lru_low_pri_->next;
    assert(lru_low_pri_ != &lru_);
    lru_low_pri_->in_high_pri_pool = false;
    high_pri_pool_usage_ -= lru_low_pri_->charge;
  }
}

void LRUCacheShard::DropUnreferenced(LRUHandle* e, LRUHandle** to_free) {
  LRURemove(e);
  LRUHandle* removed = table_.Remove(e->key(), e->hash);
  assert(removed == e);
  (void)removed;
  e->in_cache = false;
  usage_ -= e->charge;
  e->next = *to_free;
  *to_free = e;
}

void LRUCacheShard::EvictFromLRU(size_t charge, LRUHandle** to_free) {
  // Each entry is passed over at most twice (once to clear its bit, once
  // more if pinned), so the walk ends even when everything is pinned.
  size_t budget = 2 * list_length_ + 1;
  while (usage_ + charge > capacity_ && lru_.next != &lru_ && budget-- > 0) {
    LRUHandle* old = lru_.next;
    assert(old->in_cache);
    if (old->refs > 0 || old->referenced) {
      old->referenced = false;
      LRURemove(old);
      LRUInsert(old);
      continue;
    }
    DropUnreferenced(old, to_free);
    Bump(&evictions_);
  }
}

void LRUCacheShard::SetCapacity(size_t capacity) {
  LRUHandle* to_free = nullptr;
  {
    MutexLock l(&mu_);
    capacity_ = capacity;
    high_pri_pool_capacity_ =
        static_cast<size_t>(static_cast<double>(capacity_) * high_pri_pool_ratio_);
    EvictFromLRU(0, &to_free);
    MaintainPoolSize();
  }
  FreeChain(to_free);
}

void LRUCacheShard::SetStrictCapacityLimit(bool strict) {
  MutexLock l(&mu_);
  strict_capacity_limit_ = strict;
}

void LRUCacheShard::SetHighPriorityPoolRatio(double ratio) {
  MutexLock l(&mu_);
  high_pri_pool_ratio_ = ratio;
  high_pri_pool_capacity_ = static_cast<size_t>(static_cast<double>(capacity_) * ratio);
  MaintainPoolSize();
}

Status LRUCacheShard::Insert(const Slice& key, uint32_t hash, void* value, size_t charge,
                             Cache::Deleter deleter, LRUHandle** handle, Cache::Priority priority) {
  // The handle's own bytes (RocksDB's kFullChargeCacheMetadata, counted
  // without the allocator's rounding).
  if (charge_metadata_) charge += sizeof(LRUHandle) - 1 + key.size();
  // Allocate before locking: the shard's critical section stays short.
  LRUHandle* e = NewHandle(key, hash, value, charge, deleter, priority);
  LRUHandle* to_free = nullptr;
  Status s;
  {
    MutexLock l(&mu_);
    // An unpinned entry this one replaces goes first, so that replacing does
    // not evict an unrelated entry. (Were the Insert to fail below, the old
    // entry would have been evicted anyway: failure means no unpinned entry
    // is left.)
    LRUHandle* old = table_.Lookup(key, hash);
    if (old != nullptr && old->refs == 0) {
      LRURemove(old);
      table_.Remove(key, hash);
      old->in_cache = false;
      usage_ -= old->charge;
      old->next = to_free;
      to_free = old;
    }
    EvictFromLRU(charge, &to_free);
    if (usage_ + charge > capacity_ && (strict_capacity_limit_ || handle == nullptr)) {
      // No room. Without a handle out parameter the caller cannot tell the
      // difference from an immediate eviction, so that is not an error.
      e->next = to_free;
      to_free = e;
      if (handle != nullptr) {
        *handle = nullptr;
        s = Status::Incomplete("Insert failed due to LRU cache being full");
      }
    } else {
      e->in_cache = true;
      old = table_.Insert(e);
      usage_ += charge;
      if (old != nullptr) {
        // Pinned (unpinned ones were removed above): freed at its last
        // Release.
        assert(old->refs > 0);
        old->in_cache = false;
        LRURemove(old);
      }
      LRUInsert(e);
      if (handle != nullptr) {
        e->refs = 1;
        pinned_usage_ += charge;
        *handle = e;
      }
      Bump(&inserts_);
    }
  }
  FreeChain(to_free);
  return s;
}

LRUHandle* LRUCacheShard::Lookup(const Slice& key, uint32_t hash) {
  MutexLock l(&mu_);
  LRUHandle* e = table_.Lookup(key, hash);
  if (e == nullptr) {
    Bump(&misses_);
    return nullptr;
  }
  assert(e->in_cache);
  if (e->refs++ == 0) pinned_usage_ += e->charge;
  e->referenced = true;
  Bump(&hits_);
  return e;
}

void LRUCacheShard::Ref(LRUHandle* e) {
  MutexLock l(&mu_);
  assert(e->refs > 0);
  e->refs++;
}

bool LRUCacheShard::Release(LRUHandle* e, bool erase_if_last_ref) {
  bool last_reference = false;
  {
    MutexLock l(&mu_);
    assert(e->refs > 0);
    last_reference = --e->refs == 0;
    if (last_reference) pinned_usage_ -= e->charge;
    if (last_reference && e->in_cache) {
      if (usage_ > capacity_ || erase_if_last_ref) {
        // Over budget (a pinned entry kept it so) or asked to: drop it now.
        LRURemove(e);
        LRUHandle* removed = table_.Remove(e->key(), e->hash);
        assert(removed == e);
        (void)removed;
        e->in_cache = false;
      } else {
        last_reference = false;  // stays resident, in its list position
      }
    }
    if (last_reference) usage_ -= e->charge;
  }
  if (last_reference) FreeHandle(e);
  return last_reference;
}

void LRUCacheShard::Erase(const Slice& key, uint32_t hash) {
  LRUHandle* e = nullptr;
  bool last_reference = false;
  {
    MutexLock l(&mu_);
    e = table_.Remove(key, hash);
    if (e != nullptr) {
      e->in_cache = false;
      LRURemove(e);
      if (e->refs == 0) {
        usage_ -= e->charge;
        last_reference = true;
      }
    }
  }
  if (last_reference) FreeHandle(e);
}

void LRUCacheShard::EraseUnRefEntries() {
  LRUHandle* to_free = nullptr;
  {
    MutexLock l(&mu_);
    for (LRUHandle* e = lru_.next; e != &lru_;) {
      LRUHandle* next = e->next;
      if (e->refs == 0) DropUnreferenced(e, &to_free);
      e = next;
    }
  }
  FreeChain(to_free);
}

size_t LRUCacheShard::GetUsage() const {
  MutexLock l(&mu_);
  return usage_;
}

size_t LRUCacheShard::GetPinnedUsage() const {
  MutexLock l(&mu_);
  return pinned_usage_;
}

size_t LRUCacheShard::GetOccupancyCount() const {
  MutexLock l(&mu_);
  return table_.size();
}

size_t LRUCacheShard::GetTableAddressCount() const {
  MutexLock l(&mu_);
  return table_.buckets();
}

double LRUCacheShard::GetHighPriPoolRatio() const {
  MutexLock l(&mu_);
  return high_pri_pool_ratio_;
}

void LRUCacheShard::ApplyToAllEntries(
    const std::function<void(const Slice&, void*, size_t, Cache::DeleterFn)>& f) const {
  MutexLock l(&mu_);
  table_.ForEach([&](LRUHandle* h) { f(h->key(), h->value, UserCharge(h), h->deleter); });
}

void LRUCacheShard::AddStats(Cache::CacheStats* stats) const {
  stats->hits += hits_.load(std::memory_order_relaxed);
  stats->misses += misses_.load(std::memory_order_relaxed);
  stats->inserts += inserts_.load(std::memory_order_relaxed);
  stats->evictions += evictions_.load(std::memory_order_relaxed);
}

size_t LRUCacheShard::TEST_LRUListLength() {
  MutexLock l(&mu_);
  size_t n = 0;
  for (LRUHandle* e = lru_.next; e != &lru_; e = e->next) n++;
  return n;
}

size_t LRUCacheShard::TEST_HighPriPoolUsage() {
  MutexLock l(&mu_);
  return high_pri_pool_usage_;
}

// ---- ShardedLRUCache ----

int GetDefaultCacheShardBits(size_t capacity) {
  constexpr size_t kMinShardSize = 512 * 1024;
  int bits = 0;
  size_t num_shards = capacity / kMinShardSize;
  while ((num_shards >>= 1) != 0) {
    if (++bits >= 6) return bits;
  }
  return bits;
}

ShardedLRUCache::ShardedLRUCache(size_t capacity, int num_shard_bits, bool strict_capacity_limit,
                                 double high_pri_pool_ratio, bool charge_metadata,
                                 std::shared_ptr<MemoryAllocator> allocator)
    : Cache(std::move(allocator)),
      num_shard_bits_(num_shard_bits),
      num_shards_(1 << num_shard_bits),
      shards_(new LRUCacheShard[static_cast<size_t>(1) << num_shard_bits]),
      capacity_(capacity) {
  for (int i = 0; i < num_shards_; i++) {
    shards_[i].SetMetadataCharged(charge_metadata);
    shards_[i].SetStrictCapacityLimit(strict_capacity_limit);
    shards_[i].SetHighPriorityPoolRatio(high_pri_pool_ratio);
  }
  strict_capacity_limit_.store(strict_capacity_limit, std::memory_order_relaxed);
  SetCapacity(capacity);
}

uint32_t ShardedLRUCache::HashKey(const Slice& key) {
  // The high half of XXH3 mixes every input bit; its top bits pick the shard
  // and its low bits the bucket.
  return static_cast<uint32_t>(XXH3_64(key.data(), key.size()) >> 32);
}

Status ShardedLRUCache::Insert(const Slice& key, void* value, size_t charge, Deleter deleter,
                               Handle** handle, Priority priority) {
  uint32_t hash = HashKey(key);
  return ShardFor(hash).Insert(key, hash, value, charge, deleter,
                               reinterpret_cast<LRUHandle**>(handle), priority);
}

Cache::Handle* ShardedLRUCache::Lookup(const Slice& key, Statistics* /*stats*/) {
  uint32_t hash = HashKey(key);
  return reinterpret_cast<Handle*>(ShardFor(hash).Lookup(key, hash));
}

bool ShardedLRUCache::Ref(Handle* handle) {
  LRUHandle* h = reinterpret_cast<LRUHandle*>(handle);
  ShardFor(h->hash).Ref(h);
  return true;
}

size_t ShardedLRUCache::GetCharge(Handle* handle) const {
  const LRUHandle* h = reinterpret_cast<const LRUHandle*>(handle);
  return shards_[0].UserCharge(h);  // every shard charges metadata alike
}

Cache::DeleterFn ShardedLRUCache::GetDeleter(Handle* handle) const {
  return reinterpret_cast<const LRUHandle*>(handle)->deleter;
}

size_t ShardedLRUCache::GetOccupancyCount() const {
  size_t n = 0;
  for (int i = 0; i < num_shards_; i++) n += shards_[i].GetOccupancyCount();
  return n;
}

size_t ShardedLRUCache::GetTableAddressCount() const {
  size_t n = 0;
  for (int i = 0; i < num_shards_; i++) n += shards_[i].GetTableAddressCount();
  return n;
}

void ShardedLRUCache::ApplyToAllEntries(
    const std::function<void(const Slice& key, void* value, size_t charge, DeleterFn deleter)>&
        callback,
    const ApplyToAllEntriesOptions& /*opts*/) {
  for (int i = 0; i < num_shards_; i++) shards_[i].ApplyToAllEntries(callback);
}

std::string ShardedCachePrintableOptions(const Cache& cache, int num_shard_bits) {
  char buf[200];
  std::string out;
  snprintf(buf, sizeof(buf), "    capacity : %zu\n", cache.GetCapacity());
  out += buf;
  snprintf(buf, sizeof(buf), "    num_shard_bits : %d\n", num_shard_bits);
  out += buf;
  snprintf(buf, sizeof(buf), "    strict_capacity_limit : %d\n",
           cache.HasStrictCapacityLimit() ? 1 : 0);
  out += buf;
  snprintf(buf, sizeof(buf), "    memory_allocator : %s\n",
           cache.memory_allocator() != nullptr ? cache.memory_allocator()->Name() : "None");
  out += buf;
  return out;
}

std::string ShardedLRUCache::GetPrintableOptions() const {
  // RocksDB's layout (ShardedCache's lines, then the LRU shard's).
  std::string out = ShardedCachePrintableOptions(*this, num_shard_bits_);
  char buf[200];
  snprintf(buf, sizeof(buf), "    high_pri_pool_ratio: %.3lf\n", shards_[0].GetHighPriPoolRatio());
  out += buf;
  // Strata's LRU cache has no low-priority pool.
  out += "    low_pri_pool_ratio: 0.000\n";
  return out;
}

bool ShardedLRUCache::Release(Handle* handle, bool erase_if_last_ref) {
  LRUHandle* h = reinterpret_cast<LRUHandle*>(handle);
  return ShardFor(h->hash).Release(h, erase_if_last_ref);
}

void* ShardedLRUCache::Value(Handle* handle) { return reinterpret_cast<LRUHandle*>(handle)->value; }

void ShardedLRUCache::Erase(const Slice& key) {
  uint32_t hash = HashKey(key);
  ShardFor(hash).Erase(key, hash);
}

uint64_t ShardedLRUCache::NewId() { return last_id_.fetch_add(1, std::memory_order_relaxed) + 1; }

void ShardedLRUCache::SetCapacity(size_t capacity) {
  // Round up so the shards together hold at least the capacity asked for.
  size_t per_shard =
      (capacity + static_cast<size_t>(num_shards_) - 1) / static_cast<size_t>(num_shards_);
  for (int i = 0; i < num_shards_; i++) shards_[i].SetCapacity(per_shard);
  capacity_.store(capacity, std::memory_order_relaxed);
}

size_t ShardedLRUCache::GetCapacity() const { return capacity_.load(std::memory_order_relaxed); }

size_t ShardedLRUCache::GetUsage() const {
  size_t usage = 0;
  for (int i = 0; i < num_shards_; i++) usage += shards_[i].GetUsage();
  return usage;
}

size_t ShardedLRUCache::GetPinnedUsage() const {
  size_t usage = 0;
  for (int i = 0; i < num_shards_; i++) usage += shards_[i].GetPinnedUsage();
  return usage;
}

void ShardedLRUCache::SetStrictCapacityLimit(bool strict_capacity_limit) {
  strict_capacity_limit_.store(strict_capacity_limit, std::memory_order_relaxed);
  for (int i = 0; i < num_shards_; i++) shards_[i].SetStrictCapacityLimit(strict_capacity_limit);
}

void ShardedLRUCache::EraseUnRefEntries() {
  for (int i = 0; i < num_shards_; i++) shards_[i].EraseUnRefEntries();
}

Cache::CacheStats ShardedLRUCache::GetStats() const {
  CacheStats stats;
  for (int i = 0; i < num_shards_; i++) shards_[i].AddStats(&stats);
  return stats;
}

// ---- factories ----

std::shared_ptr<Cache> NewLRUCache(size_t capacity, int num_shard_bits, bool strict_capacity_limit,
                                   double high_pri_pool_ratio) {
  if (num_shard_bits >= 20) return nullptr;
  if (!(high_pri_pool_ratio >= 0.0 && high_pri_pool_ratio <= 1.0)) return nullptr;
  if (num_shard_bits < 0) num_shard_bits = GetDefaultCacheShardBits(capacity);
  return std::make_shared<ShardedLRUCache>(capacity, num_shard_bits, strict_capacity_limit,
                                           high_pri_pool_ratio);
}

std::shared_ptr<Cache> NewLRUCache(const LRUCacheOptions& options) {
  if (options.num_shard_bits >= 20) return nullptr;
  if (!(options.high_pri_pool_ratio >= 0.0 && options.high_pri_pool_ratio <= 1.0)) return nullptr;
  const int bits = options.num_shard_bits < 0 ? GetDefaultCacheShardBits(options.capacity)
                                              : options.num_shard_bits;
  return std::make_shared<ShardedLRUCache>(
      options.capacity, bits, options.strict_capacity_limit, options.high_pri_pool_ratio,
      options.metadata_charge_policy == CacheMetadataChargePolicy::kFullChargeCacheMetadata,
      options.memory_allocator);
}

}  // namespace strata
