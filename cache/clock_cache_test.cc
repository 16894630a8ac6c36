// Tests of the HyperClockCache (cache/clock_cache.h): the behaviour the LRU
// cache tests check where it applies to a clock cache, the table-full cases
// (detached entries, strict limit), a randomized single-thread test against
// a std::map model, and a four-thread stress test (also run under TSan).
#include "cache/clock_cache.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "cache/cache_reservation_manager.h"
#include "strata/cache.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

struct DeleteLog {
  std::vector<std::pair<std::string, int>> deleted;
};
DeleteLog* g_log = nullptr;

void LoggingDeleter(const Slice& key, void* value) {
  int* v = static_cast<int*>(value);
  if (g_log != nullptr) g_log->deleted.emplace_back(key.ToString(), *v);
  delete v;
}

std::string Key(int k) { return "key" + std::to_string(k); }

class ClockCacheTest : public testing::Test {
 protected:
  ClockCacheTest() { g_log = &log_; }
  ~ClockCacheTest() override {
    cache_.reset();
    g_log = nullptr;
  }

  // estimated_entry_charge 1: every test entry has a charge of about 1.
  void NewCache(size_t capacity, int shard_bits = 0, bool strict = false,
                size_t estimated_entry_charge = 1) {
    cache_ = HyperClockCacheOptions(capacity, estimated_entry_charge, shard_bits, strict)
                 .MakeSharedCache();
    ASSERT_NE(cache_, nullptr);
  }
  void Put(int key, int value, size_t charge = 1, Cache::Priority pri = Cache::Priority::kLow) {
    ASSERT_OK(cache_->Insert(Key(key), new int(value), charge, &LoggingDeleter, nullptr, pri));
  }
  int Get(int key) {
    Cache::Handle* h = cache_->Lookup(Key(key));
    if (h == nullptr) return -1;
    int v = *static_cast<int*>(cache_->Value(h));
    cache_->Release(h);
    return v;
  }
  bool Deleted(int key) const {
    for (const auto& [k, v] : log_.deleted) {
      if (k == Key(key)) return true;
    }
    return false;
  }
  ClockCacheShard* Shard0() { return static_cast<ShardedClockCache*>(cache_.get())->TEST_Shard(0); }

  DeleteLog log_;
  std::shared_ptr<Cache> cache_;
};

TEST_F(ClockCacheTest, HitAndMiss) {
  NewCache(100);
  EXPECT_EQ(-1, Get(100));
  Put(100, 101);
  EXPECT_EQ(101, Get(100));
  EXPECT_EQ(-1, Get(200));
  Put(200, 201);
  EXPECT_EQ(101, Get(100));
  EXPECT_EQ(201, Get(200));
  Put(100, 102);  // replaces; the old value is freed at once (unpinned)
  EXPECT_EQ(102, Get(100));
  ASSERT_EQ(1u, log_.deleted.size());
  EXPECT_EQ(Key(100), log_.deleted[0].first);
  EXPECT_EQ(101, log_.deleted[0].second);
  EXPECT_EQ(2u, cache_->GetUsage());
  EXPECT_STREQ("HyperClockCache", cache_->Name());
  // Keys are arbitrary byte strings: empty, binary, long.
  ASSERT_OK(cache_->Insert(Slice(), new int(7), 1, &LoggingDeleter));
  std::string bin("a\0b", 3), longer(1000, 'x');
  ASSERT_OK(cache_->Insert(bin, new int(8), 1, &LoggingDeleter));
  ASSERT_OK(cache_->Insert(longer, new int(9), 1, &LoggingDeleter));
  for (auto [k, v] : {std::pair<Slice, int>{Slice(), 7}, {bin, 8}, {longer, 9}}) {
    Cache::Handle* h = cache_->Lookup(k);
    ASSERT_NE(h, nullptr);
    EXPECT_EQ(v, *static_cast<int*>(cache_->Value(h)));
    cache_->Release(h);
  }
  EXPECT_EQ(nullptr, cache_->Lookup(Slice("a\0c", 3)));
}

TEST_F(ClockCacheTest, ClockKeepsHitAndHighPriorityEntries) {
  // Entries hit since the last sweep survive the entries that were not.
  NewCache(10);
  for (int i = 1; i <= 10; i++) Put(i, i);
  for (int i = 1; i <= 5; i++) EXPECT_EQ(i, Get(i));
  for (int i = 11; i <= 15; i++) Put(i, i);
  for (int i = 1; i <= 5; i++) EXPECT_EQ(i, Get(i)) << i;
  for (int i = 6; i <= 10; i++) EXPECT_EQ(-1, Get(i)) << i;
  EXPECT_EQ(10u, cache_->GetUsage());
  EXPECT_EQ(5u, cache_->GetStats().evictions);

  // kHigh entries start with a longer countdown than kLow ones.
  NewCache(10);
  for (int i = 1; i <= 10; i++) {
    Put(i, i, 1, i % 2 == 0 ? Cache::Priority::kHigh : Cache::Priority::kLow);
  }
  for (int i = 11; i <= 15; i++) Put(i, i);
  for (int i = 1; i <= 10; i++) EXPECT_EQ(i % 2 == 0 ? i : -1, Get(i)) << i;
}

TEST_F(ClockCacheTest, EvictionRespectsCapacityPerShard) {
  // 4 shards of capacity 25: after each Insert, every shard holds at most
  // its share (no handle is kept), so the total never exceeds the capacity.
  NewCache(100, 2);
  std::mt19937 rng(7);
  for (int i = 0; i < 2000; i++) {
    Put(i, i, 1 + rng() % 5);
    ASSERT_LE(cache_->GetUsage(), 100u) << i;
    auto* c = static_cast<ShardedClockCache*>(cache_.get());
    for (int s = 0; s < 4; s++) ASSERT_LE(c->TEST_Shard(s)->GetUsage(), 25u);
  }
  EXPECT_GE(cache_->GetUsage(), 100u - 4 * 5);  // within one entry per shard
  EXPECT_EQ(0u, cache_->GetPinnedUsage());
}

TEST_F(ClockCacheTest, ChargeLargerThanCapacity) {
  NewCache(10);
  Put(1, 1, 5);
  ASSERT_OK(cache_->Insert(Key(2), new int(2), 11, &LoggingDeleter));
  EXPECT_TRUE(Deleted(2));
  EXPECT_EQ(-1, Get(2));
  EXPECT_EQ(-1, Get(1));  // the attempt evicted what it could
  EXPECT_EQ(0u, cache_->GetUsage());
  Cache::Handle* h = nullptr;
  ASSERT_OK(cache_->Insert(Key(3), new int(3), 11, &LoggingDeleter, &h));
  ASSERT_NE(h, nullptr);
  EXPECT_EQ(11u, cache_->GetUsage());
  EXPECT_EQ(11u, cache_->GetPinnedUsage());
  EXPECT_TRUE(cache_->Release(h));  // over capacity: freed
  EXPECT_TRUE(Deleted(3));
  EXPECT_EQ(0u, cache_->GetUsage());
}

TEST_F(ClockCacheTest, PinnedEntriesAreNotEvicted) {
  NewCache(4);
  Put(1, 1);
  Cache::Handle* h1 = cache_->Lookup(Key(1));
  ASSERT_NE(h1, nullptr);
  Cache::Handle* h2 = nullptr;
  ASSERT_OK(cache_->Insert(Key(2), new int(2), 1, &LoggingDeleter, &h2));
  EXPECT_EQ(2u, cache_->GetPinnedUsage());
  for (int i = 10; i < 30; i++) Put(i, i);
  EXPECT_FALSE(Deleted(1));
  EXPECT_FALSE(Deleted(2));
  EXPECT_EQ(4u, cache_->GetUsage());
  EXPECT_EQ(2u, cache_->GetPinnedUsage());
  EXPECT_EQ(1, *static_cast<int*>(cache_->Value(h1)));
  EXPECT_FALSE(cache_->Release(h1));
  EXPECT_FALSE(cache_->Release(h2));
  EXPECT_EQ(0u, cache_->GetPinnedUsage());
  EXPECT_EQ(4u, cache_->GetUsage());
  Cache::Handle* a = cache_->Lookup(Key(1));
  Cache::Handle* b = cache_->Lookup(Key(1));
  ASSERT_TRUE(a != nullptr && b != nullptr);
  EXPECT_EQ(a, b);
  EXPECT_EQ(1u, cache_->GetPinnedUsage());
  EXPECT_FALSE(cache_->Release(a));
  EXPECT_EQ(1u, cache_->GetPinnedUsage());
  EXPECT_TRUE(cache_->Release(b, /*erase_if_last_ref=*/true));
  EXPECT_TRUE(Deleted(1));
  EXPECT_EQ(-1, Get(1));
  EXPECT_EQ(3u, cache_->GetUsage());
}

TEST_F(ClockCacheTest, EraseWhileReferenced) {
  NewCache(100);
  Put(1, 11, 7);
  Cache::Handle* h = cache_->Lookup(Key(1));
  ASSERT_NE(h, nullptr);
  cache_->Erase(Key(1));
  EXPECT_EQ(-1, Get(1));
  EXPECT_FALSE(Deleted(1));
  EXPECT_EQ(11, *static_cast<int*>(cache_->Value(h)));
  EXPECT_EQ(7u, cache_->GetUsage());
  EXPECT_EQ(7u, cache_->GetPinnedUsage());
  // A new entry under the same key while the old one is pinned.
  Put(1, 12, 2);
  EXPECT_EQ(12, Get(1));
  EXPECT_EQ(9u, cache_->GetUsage());
  EXPECT_TRUE(cache_->Release(h));
  EXPECT_TRUE(Deleted(1));
  EXPECT_EQ(2u, cache_->GetUsage());
  EXPECT_EQ(12, Get(1));
  cache_->Erase(Key(5));
  cache_->Erase(Key(1));
  EXPECT_EQ(0u, cache_->GetUsage());
  EXPECT_EQ(2u, log_.deleted.size());
}

TEST_F(ClockCacheTest, StrictCapacityLimit) {
  NewCache(2, 0, /*strict=*/true);
  Cache::Handle* h1 = nullptr;
  Cache::Handle* h2 = nullptr;
  ASSERT_OK(cache_->Insert(Key(1), new int(1), 1, &LoggingDeleter, &h1));
  ASSERT_OK(cache_->Insert(Key(2), new int(2), 1, &LoggingDeleter, &h2));
  Cache::Handle* h3 = reinterpret_cast<Cache::Handle*>(&h1);  // poisoned
  Status s = cache_->Insert(Key(3), new int(3), 1, &LoggingDeleter, &h3);
  EXPECT_TRUE(s.IsIncomplete()) << s.ToString();
  EXPECT_EQ(h3, nullptr);
  EXPECT_TRUE(Deleted(3));
  ASSERT_OK(cache_->Insert(Key(4), new int(4), 1, &LoggingDeleter));
  EXPECT_TRUE(Deleted(4));
  EXPECT_EQ(2u, cache_->GetUsage());
  cache_->Release(h1);
  cache_->Release(h2);
  ASSERT_OK(cache_->Insert(Key(5), new int(5), 1, &LoggingDeleter, &h3));
  ASSERT_NE(h3, nullptr);
  cache_->Release(h3);
  EXPECT_LE(cache_->GetUsage(), 2u);

  NewCache(1, 0, /*strict=*/true);
  EXPECT_TRUE(cache_->HasStrictCapacityLimit());
  Cache::Handle* p = nullptr;
  ASSERT_OK(cache_->Insert(Key(6), new int(6), 1, &LoggingDeleter, &p));
  Cache::Handle* q = nullptr;
  EXPECT_TRUE(cache_->Insert(Key(7), new int(7), 1, &LoggingDeleter, &q).IsIncomplete());
  cache_->SetStrictCapacityLimit(false);
  EXPECT_FALSE(cache_->HasStrictCapacityLimit());
  ASSERT_OK(cache_->Insert(Key(8), new int(8), 1, &LoggingDeleter, &q));
  EXPECT_EQ(2u, cache_->GetUsage());
  cache_->Release(p);
  cache_->Release(q);
  EXPECT_LE(cache_->GetUsage(), 1u);
}

TEST_F(ClockCacheTest, FullTableGivesDetachedEntriesOrFails) {
  // Capacity 1000 with entries estimated at 100: 16 slots, 13 usable.
  NewCache(1000, 0, false, /*estimated_entry_charge=*/100);
  EXPECT_EQ(16u, Shard0()->TEST_Slots());
  const size_t limit = Shard0()->TEST_OccupancyLimit();
  EXPECT_EQ(13u, limit);
  std::vector<Cache::Handle*> pinned;
  for (size_t i = 0; i < limit; i++) {
    Cache::Handle* h = nullptr;
    ASSERT_OK(cache_->Insert(Key(static_cast<int>(i)), new int(1), 1, &LoggingDeleter, &h));
    pinned.push_back(h);
  }
  // Full of pinned entries: a handle-less Insert is dropped (OK) ...
  ASSERT_OK(cache_->Insert(Key(100), new int(100), 1, &LoggingDeleter));
  EXPECT_TRUE(Deleted(100));
  // ... one with a handle gets a detached entry: charged, pinned, not found.
  Cache::Handle* d = nullptr;
  ASSERT_OK(cache_->Insert(Key(101), new int(101), 5, &LoggingDeleter, &d));
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(101, *static_cast<int*>(cache_->Value(d)));
  EXPECT_EQ(nullptr, cache_->Lookup(Key(101)));
  EXPECT_EQ(limit + 5, cache_->GetUsage());
  EXPECT_EQ(limit + 5, cache_->GetPinnedUsage());
  EXPECT_EQ(5u, Shard0()->TEST_DetachedUsage());
  EXPECT_TRUE(cache_->Release(d));
  EXPECT_TRUE(Deleted(101));
  EXPECT_EQ(limit, cache_->GetUsage());
  // With the strict limit it fails instead.
  cache_->SetStrictCapacityLimit(true);
  Status s = cache_->Insert(Key(102), new int(102), 1, &LoggingDeleter, &d);
  EXPECT_TRUE(s.IsIncomplete()) << s.ToString();
  EXPECT_EQ(nullptr, d);
  EXPECT_TRUE(Deleted(102));
  // Unpinned entries are evicted to free a slot.
  for (Cache::Handle* h : pinned) cache_->Release(h);
  Put(103, 103);
  EXPECT_EQ(103, Get(103));
  // The sweep visits slots in steps of 4, so it may evict up to 3 more.
  EXPECT_LE(Shard0()->TEST_Occupancy(), limit);
  EXPECT_GE(Shard0()->TEST_Occupancy(), limit - 3);
  EXPECT_EQ(Shard0()->TEST_Occupancy(), cache_->GetUsage());
}

TEST_F(ClockCacheTest, SetCapacityShrinkEvicts) {
  NewCache(10);
  for (int i = 0; i < 10; i++) Put(i, i);
  Cache::Handle* h = cache_->Lookup(Key(0));  // pinned: survives
  cache_->SetCapacity(3);
  EXPECT_EQ(3u, cache_->GetCapacity());
  EXPECT_EQ(3u, cache_->GetUsage());
  EXPECT_EQ(7u, log_.deleted.size());
  EXPECT_FALSE(Deleted(0));
  EXPECT_EQ(0, *static_cast<int*>(cache_->Value(h)));
  cache_->Release(h);
  EXPECT_EQ(0, Get(0));
  // Everything pinned: shrinking cannot evict; usage stays over capacity
  // until the handles go.
  std::vector<Cache::Handle*> hs;
  for (int i = 0; i < 10; i++) {
    Cache::Handle* x = cache_->Lookup(Key(i));
    if (x != nullptr) hs.push_back(x);
  }
  EXPECT_EQ(3u, hs.size());
  cache_->SetCapacity(1);
  EXPECT_EQ(3u, cache_->GetUsage());
  for (Cache::Handle* x : hs) cache_->Release(x);
  EXPECT_EQ(1u, cache_->GetUsage());  // released over capacity: freed
  cache_->SetCapacity(20);
  Put(50, 50);
  EXPECT_EQ(2u, cache_->GetUsage());
  cache_->EraseUnRefEntries();
  EXPECT_EQ(0u, cache_->GetUsage());
  EXPECT_EQ(11u, log_.deleted.size());
}

TEST_F(ClockCacheTest, StatsCountersExact) {
  NewCache(2, 0);
  Put(1, 1);
  Put(2, 2);
  Put(3, 3);              // evicts one
  Put(3, 4);              // replace: not an eviction
  cache_->Erase(Key(2));  // not an eviction (if 2 is still there)
  EXPECT_EQ(4, Get(3));
  EXPECT_EQ(4, Get(3));
  EXPECT_EQ(-1, Get(99));
  Cache::CacheStats st = cache_->GetStats();
  EXPECT_EQ(4u, st.inserts);
  EXPECT_EQ(1u, st.evictions);
  EXPECT_EQ(2u, st.hits);
  EXPECT_EQ(1u, st.misses);
}

TEST(ClockCacheFactoryTest, Arguments) {
  EXPECT_EQ(nullptr, HyperClockCacheOptions(100, 0).MakeSharedCache());
  EXPECT_EQ(nullptr, HyperClockCacheOptions(100, 10, 20).MakeSharedCache());
  HyperClockCacheOptions opts;
  opts.capacity = 8 << 20;
  opts.estimated_entry_charge = 4096;
  auto c = NewHyperClockCache(opts);
  ASSERT_NE(c, nullptr);
  auto* hcc = static_cast<ShardedClockCache*>(c.get());
  EXPECT_EQ(4, hcc->num_shard_bits());  // as NewLRUCache: 512 KiB per shard
  // 512 KiB / (4 KiB * 0.7) = 183 slots -> 256.
  EXPECT_EQ(256u, hcc->TEST_Shard(0)->TEST_Slots());
  EXPECT_EQ(size_t{8} << 20, c->GetCapacity());
  EXPECT_NE(c->NewId(), c->NewId());
  // The deprecated NewClockCache is an LRU cache, as in RocksDB 7.8.3.
  auto lru = NewClockCache(1 << 20, 1, true);
  ASSERT_NE(lru, nullptr);
  EXPECT_STREQ("LRUCache", lru->Name());
  EXPECT_EQ(size_t{1} << 20, lru->GetCapacity());
}

TEST_F(ClockCacheTest, RandomizedAgainstModel) {
  const uint64_t seed = test::RandomSeed();
  std::mt19937_64 rng(seed);
  // Big enough that nothing is evicted: the cache must equal the model.
  NewCache(1 << 20, 1, false, 64);
  std::map<int, int> model;
  for (int i = 0; i < 20000; i++) {
    int k = static_cast<int>(rng() % 300);
    switch (rng() % 4) {
      case 0:
        Put(k, i);
        model[k] = i;
        break;
      case 1:
        cache_->Erase(Key(k));
        model.erase(k);
        break;
      default: {
        auto it = model.find(k);
        ASSERT_EQ(it == model.end() ? -1 : it->second, Get(k)) << "seed " << seed << " op " << i;
      }
    }
  }
  EXPECT_EQ(model.size(), cache_->GetUsage());
  // Now small: whatever is found is the model's current value.
  NewCache(50, 1, false, 1);
  model.clear();
  for (int i = 0; i < 20000; i++) {
    int k = static_cast<int>(rng() % 300);
    if (rng() % 3 == 0) {
      Put(k, i);
      model[k] = i;
    } else if (rng() % 8 == 0) {
      cache_->Erase(Key(k));
      model.erase(k);
    } else {
      int got = Get(k);
      if (got != -1) {
        ASSERT_TRUE(model.count(k)) << "seed " << seed << " op " << i;
        ASSERT_EQ(model[k], got) << "seed " << seed << " op " << i;
      }
    }
    ASSERT_LE(cache_->GetUsage(), 50u);
  }
}

TEST(ClockCacheReservationTest, DummyEntriesChargeAndRelease) {
  // Memory charged by role (WriteBufferManager, table readers) is held as
  // pinned 256 KiB dummy entries: they must work on this cache too.
  constexpr size_t kDummy = CacheReservationManager::kSizeDummyEntry;
  auto cache = HyperClockCacheOptions(4 << 20, 4096, 0).MakeSharedCache();
  ASSERT_NE(cache, nullptr);
  {
    CacheReservationManager mgr(cache, CacheEntryRole::kWriteBuffer);
    ASSERT_OK(mgr.UpdateCacheReservation(kDummy * 3 + 1));
    EXPECT_EQ(4 * kDummy, mgr.GetTotalReservedCacheSize());
    EXPECT_EQ(4 * kDummy, cache->GetUsage());
    EXPECT_EQ(4 * kDummy, cache->GetPinnedUsage());
    EXPECT_EQ(4 * kDummy,
              CacheReservationManager::ChargedBytes(cache.get(), CacheEntryRole::kWriteBuffer));
    ASSERT_OK(mgr.UpdateCacheReservation(kDummy));
    EXPECT_EQ(kDummy, cache->GetUsage());
  }
  EXPECT_EQ(0u, cache->GetUsage());
  // A strict cache keeps the entries that fit and says MemoryLimit.
  auto strict = HyperClockCacheOptions(2 * kDummy, 4096, 0, true).MakeSharedCache();
  CacheReservationManager mgr(strict, CacheEntryRole::kMisc);
  Status s = mgr.UpdateCacheReservation(4 * kDummy);
  EXPECT_TRUE(s.IsMemoryLimit()) << s.ToString();
  EXPECT_EQ(2 * kDummy, mgr.GetTotalReservedCacheSize());
  EXPECT_EQ(2 * kDummy, strict->GetUsage());
  ASSERT_OK(mgr.UpdateCacheReservation(0));
  EXPECT_EQ(0u, strict->GetUsage());
}

std::atomic<uint64_t> g_concurrent_deletes{0};
void CountingDeleter(const Slice& /*key*/, void* value) {
  g_concurrent_deletes.fetch_add(1, std::memory_order_relaxed);
  delete static_cast<int*>(value);
}

// Four threads Insert/Lookup/Release/Erase random keys. Each thread writes
// only its own keys (k % 4 == t), so it knows their current values: a
// Lookup of an own key finds nothing or the latest value; a pinned handle's
// value never changes; any key found holds a value made for that key.
TEST(ClockCacheConcurrentTest, FourThreads) {
  const uint64_t seed = test::RandomSeed();
  g_concurrent_deletes = 0;
  constexpr int kThreads = 4;
  constexpr int kOps = 100000;
  constexpr int kKeys = 600;
  std::atomic<uint64_t> insert_calls{0};
  {
    // Values encode key * 1000 + serial % 100 * 10 + charge (charge < 10).
    auto cache = HyperClockCacheOptions(1500, 5, 2, false).MakeSharedCache();
    ASSERT_NE(cache, nullptr);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; t++) {
      threads.emplace_back([&, t] {
        std::mt19937_64 rng(seed + static_cast<uint64_t>(t));
        std::map<int, int> mine;  // own key -> latest value inserted
        std::vector<std::pair<Cache::Handle*, int>> held;
        for (int i = 0; i < kOps; i++) {
          int k = static_cast<int>(rng() % kKeys);
          std::string key = Key(k);
          bool own = k % kThreads == t;
          uint64_t op = rng() % 8;
          if (op < 2 && own) {
            Cache::Handle* h = nullptr;
            auto pri = rng() % 3 == 0 ? Cache::Priority::kHigh : Cache::Priority::kLow;
            int charge = 1 + static_cast<int>(rng() % 9);
            int v = k * 1000 + (i % 100) * 10 + charge;
            Status s = cache->Insert(key, new int(v), static_cast<size_t>(charge), &CountingDeleter,
                                     rng() % 2 ? &h : nullptr, pri);
            insert_calls.fetch_add(1, std::memory_order_relaxed);
            EXPECT_TRUE(s.ok()) << s.ToString();
            mine[k] = v;
            if (h != nullptr) {
              EXPECT_EQ(v, *static_cast<int*>(cache->Value(h)));
              held.emplace_back(h, v);
            }
          } else if (op == 2 && own && rng() % 4 == 0) {
            cache->Erase(key);
            mine.erase(k);
          } else {
            Cache::Handle* h = cache->Lookup(key);
            if (h != nullptr) {
              int v = *static_cast<int*>(cache->Value(h));
              EXPECT_EQ(k, v / 1000) << "seed " << seed;
              if (own) {
                auto it = mine.find(k);
                EXPECT_TRUE(it != mine.end() && it->second == v) << "seed " << seed;
              }
              held.emplace_back(h, v);
            }
          }
          while (held.size() > 4) {
            size_t j = rng() % held.size();
            // A pinned value stays valid and unchanged.
            EXPECT_EQ(held[j].second, *static_cast<int*>(cache->Value(held[j].first)));
            cache->Release(held[j].first, rng() % 64 == 0);
            held[j] = held.back();
            held.pop_back();
          }
        }
        for (auto& [h, v] : held) cache->Release(h);
      });
    }
    for (auto& th : threads) th.join();

    EXPECT_EQ(0u, cache->GetPinnedUsage());
    EXPECT_LE(cache->GetUsage(), cache->GetCapacity());
    size_t resident_charge = 0;
    for (int k = 0; k < kKeys; k++) {
      Cache::Handle* h = cache->Lookup(Key(k));
      if (h == nullptr) continue;
      resident_charge += static_cast<size_t>(*static_cast<int*>(cache->Value(h)) % 10);
      cache->Release(h);
    }
    EXPECT_EQ(resident_charge, cache->GetUsage());
    EXPECT_GT(resident_charge, 0u);
    cache->EraseUnRefEntries();
    EXPECT_EQ(0u, cache->GetUsage());
    EXPECT_EQ(insert_calls.load(), g_concurrent_deletes.load());
    Cache::CacheStats st = cache->GetStats();
    EXPECT_GT(st.evictions, 0u);
    EXPECT_GT(st.hits, 0u);
  }
  EXPECT_EQ(insert_calls.load(), g_concurrent_deletes.load());
}

}  // namespace
}  // namespace strata
