#include "cache/lru_cache.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "strata/cache.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

// Values are heap ints; the deleter records which keys were freed.
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

class LRUCacheTest : public testing::Test {
 protected:
  LRUCacheTest() { g_log = &log_; }
  ~LRUCacheTest() override { g_log = nullptr; }

  void NewCache(size_t capacity, int shard_bits = 0, bool strict = false, double ratio = 0.0) {
    cache_ = NewLRUCache(capacity, shard_bits, strict, ratio);
    ASSERT_NE(cache_, nullptr);
  }
  // Inserts without keeping a handle.
  void Put(int key, int value, size_t charge = 1, Cache::Priority pri = Cache::Priority::kLow) {
    ASSERT_OK(cache_->Insert(Key(key), new int(value), charge, &LoggingDeleter, nullptr, pri));
  }
  // The value under key, or -1.
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

  DeleteLog log_;
  std::shared_ptr<Cache> cache_;
};

TEST_F(LRUCacheTest, HitAndMiss) {
  NewCache(100);
  EXPECT_EQ(-1, Get(1));
  Put(1, 101);
  EXPECT_EQ(101, Get(1));
  EXPECT_EQ(-1, Get(2));
  Put(2, 102);
  EXPECT_EQ(101, Get(1));
  EXPECT_EQ(102, Get(2));
  // Replacing frees the old value.
  Put(1, 201);
  EXPECT_EQ(201, Get(1));
  ASSERT_EQ(1u, log_.deleted.size());
  EXPECT_EQ(Key(1), log_.deleted[0].first);
  EXPECT_EQ(101, log_.deleted[0].second);
  EXPECT_EQ(2u, cache_->GetUsage());
  // Replacing in a full cache evicts nothing else.
  cache_->SetCapacity(2);
  Put(2, 202);
  EXPECT_EQ(201, Get(1));
  EXPECT_EQ(202, Get(2));
  EXPECT_EQ(0u, cache_->GetStats().evictions);
  // Replacing a pinned entry: the old value lives until its Release.
  cache_->SetCapacity(3);
  Cache::Handle* h = cache_->Lookup(Key(1));
  ASSERT_NE(h, nullptr);
  Put(1, 301);
  EXPECT_EQ(301, Get(1));
  EXPECT_EQ(201, *static_cast<int*>(cache_->Value(h)));
  EXPECT_EQ(3u, cache_->GetUsage());
  EXPECT_EQ(1u, cache_->GetPinnedUsage());
  EXPECT_TRUE(cache_->Release(h));
  EXPECT_EQ(2u, cache_->GetUsage());
  EXPECT_EQ(201, log_.deleted.back().second);
  EXPECT_STREQ("LRUCache", cache_->Name());
}

TEST_F(LRUCacheTest, EvictsLeastRecentlyUsed) {
  NewCache(3);
  Put(1, 1);
  Put(2, 2);
  Put(3, 3);
  EXPECT_EQ(1, Get(1));  // 2 is now the oldest
  Put(4, 4);
  EXPECT_TRUE(Deleted(2));
  EXPECT_EQ(-1, Get(2));
  Put(5, 5);  // evicts 3
  EXPECT_EQ(-1, Get(3));
  EXPECT_EQ(1, Get(1));
  EXPECT_EQ(4, Get(4));
  EXPECT_EQ(5, Get(5));
  EXPECT_EQ(3u, cache_->GetUsage());
  ASSERT_EQ(2u, log_.deleted.size());
  EXPECT_EQ(Key(2), log_.deleted[0].first);
  EXPECT_EQ(Key(3), log_.deleted[1].first);
}

TEST_F(LRUCacheTest, ChargeLargerThanCapacity) {
  NewCache(10);
  Put(1, 1, 5);
  // Without a handle, an oversize entry is dropped at once; OK is returned.
  ASSERT_OK(cache_->Insert(Key(2), new int(2), 11, &LoggingDeleter));
  EXPECT_TRUE(Deleted(2));
  EXPECT_EQ(-1, Get(2));
  // The attempt evicted what it could.
  EXPECT_EQ(-1, Get(1));
  EXPECT_EQ(0u, cache_->GetUsage());
  // With a handle (and no strict limit) it is admitted and pinned.
  Cache::Handle* h = nullptr;
  ASSERT_OK(cache_->Insert(Key(3), new int(3), 11, &LoggingDeleter, &h));
  ASSERT_NE(h, nullptr);
  EXPECT_EQ(11u, cache_->GetUsage());
  EXPECT_EQ(11u, cache_->GetPinnedUsage());
  // Releasing it while over capacity frees it.
  EXPECT_TRUE(cache_->Release(h));
  EXPECT_TRUE(Deleted(3));
  EXPECT_EQ(0u, cache_->GetUsage());
}

TEST_F(LRUCacheTest, PinnedEntriesAreNotEvicted) {
  NewCache(4);
  Put(1, 1);
  Cache::Handle* h1 = cache_->Lookup(Key(1));
  ASSERT_NE(h1, nullptr);
  Cache::Handle* h2 = nullptr;
  ASSERT_OK(cache_->Insert(Key(2), new int(2), 1, &LoggingDeleter, &h2));
  EXPECT_EQ(2u, cache_->GetUsage());
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
  // Two handles to one entry: it stays pinned until both are released.
  Cache::Handle* a = cache_->Lookup(Key(1));
  Cache::Handle* b = cache_->Lookup(Key(1));
  ASSERT_TRUE(a != nullptr && b != nullptr);
  EXPECT_EQ(1u, cache_->GetPinnedUsage());
  EXPECT_FALSE(cache_->Release(a));
  EXPECT_EQ(1u, cache_->GetPinnedUsage());
  // erase_if_last_ref on the last handle frees the entry.
  EXPECT_TRUE(cache_->Release(b, /*erase_if_last_ref=*/true));
  EXPECT_TRUE(Deleted(1));
  EXPECT_EQ(-1, Get(1));
  EXPECT_EQ(3u, cache_->GetUsage());
}

TEST_F(LRUCacheTest, EraseWhileReferenced) {
  NewCache(100);
  Put(1, 11, 7);
  Cache::Handle* h = cache_->Lookup(Key(1));
  ASSERT_NE(h, nullptr);
  cache_->Erase(Key(1));
  EXPECT_EQ(-1, Get(1));
  EXPECT_FALSE(Deleted(1));
  EXPECT_EQ(11, *static_cast<int*>(cache_->Value(h)));
  EXPECT_EQ(7u, cache_->GetUsage());  // still charged until released
  EXPECT_EQ(7u, cache_->GetPinnedUsage());
  EXPECT_TRUE(cache_->Release(h));
  EXPECT_TRUE(Deleted(1));
  EXPECT_EQ(0u, cache_->GetUsage());
  // Erasing an absent key and an unreferenced key.
  cache_->Erase(Key(5));
  Put(2, 2);
  cache_->Erase(Key(2));
  EXPECT_TRUE(Deleted(2));
  EXPECT_EQ(0u, cache_->GetUsage());
}

TEST_F(LRUCacheTest, StrictCapacityLimit) {
  NewCache(2, 0, /*strict=*/true);
  Cache::Handle* h1 = nullptr;
  Cache::Handle* h2 = nullptr;
  ASSERT_OK(cache_->Insert(Key(1), new int(1), 1, &LoggingDeleter, &h1));
  ASSERT_OK(cache_->Insert(Key(2), new int(2), 1, &LoggingDeleter, &h2));
  Cache::Handle* h3 = reinterpret_cast<Cache::Handle*>(&h1);  // poisoned
  Status s = cache_->Insert(Key(3), new int(3), 1, &LoggingDeleter, &h3);
  EXPECT_TRUE(s.IsIncomplete()) << s.ToString();
  EXPECT_EQ(h3, nullptr);
  EXPECT_TRUE(Deleted(3));  // the value was freed by the failed Insert
  // Without a handle: OK, value dropped.
  ASSERT_OK(cache_->Insert(Key(4), new int(4), 1, &LoggingDeleter));
  EXPECT_TRUE(Deleted(4));
  EXPECT_EQ(2u, cache_->GetUsage());
  cache_->Release(h1);
  cache_->Release(h2);
  // Now there is unpinned room to evict into.
  ASSERT_OK(cache_->Insert(Key(5), new int(5), 1, &LoggingDeleter, &h3));
  ASSERT_NE(h3, nullptr);
  cache_->Release(h3);
  // Lifting the limit admits over-capacity pinned entries.
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

TEST_F(LRUCacheTest, HighPriorityPoolSurvivesLowPriorityChurn) {
  NewCache(100, 0, false, /*ratio=*/0.5);
  for (int i = 0; i < 10; i++) Put(i, i, 1, Cache::Priority::kHigh);
  for (int i = 1000; i < 3000; i++) Put(i, i, 1, Cache::Priority::kLow);
  for (int i = 0; i < 10; i++) EXPECT_EQ(i, Get(i)) << i;
  EXPECT_EQ(100u, cache_->GetUsage());
  auto* lru = static_cast<ShardedLRUCache*>(cache_.get());
  EXPECT_EQ(10u, lru->TEST_Shard(0)->TEST_HighPriPoolUsage());
  EXPECT_EQ(100u, lru->TEST_Shard(0)->TEST_LRUListLength());

  // Without a pool (ratio 0) the same churn evicts them.
  NewCache(100, 0, false, /*ratio=*/0.0);
  for (int i = 0; i < 10; i++) Put(i, i, 1, Cache::Priority::kHigh);
  for (int i = 1000; i < 1200; i++) Put(i, i, 1, Cache::Priority::kLow);
  for (int i = 0; i < 10; i++) EXPECT_EQ(-1, Get(i)) << i;

  // An overfull pool spills its oldest entries into the low section, where
  // they are evicted like low-priority ones; the newest stay.
  NewCache(10, 0, false, /*ratio=*/0.5);
  for (int i = 0; i < 10; i++) Put(i, i, 1, Cache::Priority::kHigh);
  lru = static_cast<ShardedLRUCache*>(cache_.get());
  EXPECT_EQ(5u, lru->TEST_Shard(0)->TEST_HighPriPoolUsage());
  for (int i = 100; i < 105; i++) Put(i, i, 1, Cache::Priority::kLow);
  for (int i = 0; i < 5; i++) EXPECT_EQ(-1, Get(i)) << i;
  for (int i = 5; i < 10; i++) EXPECT_EQ(i, Get(i)) << i;
}

TEST_F(LRUCacheTest, SetCapacityShrinkEvicts) {
  NewCache(10);
  for (int i = 0; i < 10; i++) Put(i, i);
  Cache::Handle* h = cache_->Lookup(Key(0));  // pinned: survives
  EXPECT_EQ(1, Get(1));                       // most recent
  cache_->SetCapacity(3);
  EXPECT_EQ(3u, cache_->GetCapacity());
  EXPECT_EQ(3u, cache_->GetUsage());
  EXPECT_EQ(1, Get(1));
  EXPECT_EQ(9, Get(9));
  EXPECT_EQ(-1, Get(8));
  EXPECT_EQ(7u, log_.deleted.size());
  cache_->Release(h);
  EXPECT_EQ(0, Get(0));
  cache_->SetCapacity(20);
  Put(50, 50);
  EXPECT_EQ(4u, cache_->GetUsage());
  cache_->EraseUnRefEntries();
  EXPECT_EQ(0u, cache_->GetUsage());
  EXPECT_EQ(11u, log_.deleted.size());
}

TEST_F(LRUCacheTest, NewIdIsUnique) {
  NewCache(10);
  std::vector<uint64_t> ids;
  for (int i = 0; i < 100; i++) ids.push_back(cache_->NewId());
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(ids.end(), std::adjacent_find(ids.begin(), ids.end()));
  auto other = NewLRUCache(10);
  EXPECT_NE(other, nullptr);
}

TEST_F(LRUCacheTest, StatsCountersExact) {
  NewCache(3, 2);
  for (int i = 0; i < 5; i++) Put(i, i);  // 4 shards of capacity 1
  Cache::CacheStats st = cache_->GetStats();
  EXPECT_EQ(5u, st.inserts);
  EXPECT_EQ(0u, st.hits);
  size_t resident = 0;
  for (int i = 0; i < 5; i++) resident += Get(i) >= 0 ? 1 : 0;
  st = cache_->GetStats();
  EXPECT_EQ(resident, st.hits);
  EXPECT_EQ(5 - resident, st.misses);
  EXPECT_EQ(5 - resident, st.evictions);
  EXPECT_EQ(resident, cache_->GetUsage());

  NewCache(2, 0);
  Put(1, 1);
  Put(2, 2);
  Put(3, 3);              // evicts 1
  Put(3, 4);              // replace: not an eviction
  cache_->Erase(Key(2));  // not an eviction
  EXPECT_EQ(-1, Get(1));
  EXPECT_EQ(4, Get(3));
  EXPECT_EQ(4, Get(3));
  st = cache_->GetStats();
  EXPECT_EQ(4u, st.inserts);
  EXPECT_EQ(1u, st.evictions);
  EXPECT_EQ(2u, st.hits);
  EXPECT_EQ(1u, st.misses);
}

// kFullChargeCacheMetadata: an entry counts its handle and key copy too,
// in usage, pinned usage and eviction; the default counts the charge alone.
TEST(LRUCacheMetadataTest, FullChargeCountsTheHandle) {
  LRUCacheOptions o;
  o.capacity = 1000;
  o.num_shard_bits = 0;
  std::shared_ptr<Cache> plain = NewLRUCache(o);
  o.metadata_charge_policy = CacheMetadataChargePolicy::kFullChargeCacheMetadata;
  std::shared_ptr<Cache> full = NewLRUCache(o);
  ASSERT_NE(plain, nullptr);
  ASSERT_NE(full, nullptr);
  auto del = [](const Slice&, void* v) { delete static_cast<int*>(v); };
  ASSERT_OK(plain->Insert("k1", new int(1), 10, del));
  ASSERT_OK(full->Insert("k1", new int(1), 10, del));
  EXPECT_EQ(plain->GetUsage(), 10u);
  const size_t meta = sizeof(LRUHandle) - 1 + 2;
  EXPECT_EQ(full->GetUsage(), 10u + meta);
  Cache::Handle* h = full->Lookup("k1");
  ASSERT_NE(h, nullptr);
  EXPECT_EQ(full->GetPinnedUsage(), 10u + meta);
  full->Release(h);
  EXPECT_EQ(full->GetPinnedUsage(), 0u);
  // Entries of charge 10 and two-byte keys: the plain cache holds 100 of
  // them, the charged one only 1000 / (10 + meta).
  for (int i = 0; i < 200; ++i) {
    const std::string k = "x" + std::to_string(i % 10);
    const std::string key = k + std::to_string(i / 10);  // distinct keys
    ASSERT_OK(plain->Insert(key, new int(i), 10, del));
    ASSERT_OK(full->Insert(key, new int(i), 10, del));
  }
  EXPECT_LE(plain->GetUsage(), 1000u);
  EXPECT_LE(full->GetUsage(), 1000u);
  EXPECT_GE(full->GetUsage(), 1000u - (10 + sizeof(LRUHandle) + 3));
  full->EraseUnRefEntries();
  EXPECT_EQ(full->GetUsage(), 0u);
}

TEST(LRUCacheFactoryTest, Arguments) {
  EXPECT_EQ(nullptr, NewLRUCache(100, 20));
  EXPECT_EQ(nullptr, NewLRUCache(100, 0, false, 1.5));
  EXPECT_EQ(nullptr, NewLRUCache(100, 0, false, -0.1));
  EXPECT_EQ(0, GetDefaultCacheShardBits(100));
  EXPECT_EQ(0, GetDefaultCacheShardBits(1000 * 1000));
  EXPECT_EQ(1, GetDefaultCacheShardBits(1024 * 1024));
  EXPECT_EQ(3, GetDefaultCacheShardBits(4 * 1024 * 1024));
  EXPECT_EQ(6, GetDefaultCacheShardBits(size_t{1} << 30));
  LRUCacheOptions opts;
  opts.capacity = 8 << 20;
  auto c = NewLRUCache(opts);
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(4, static_cast<ShardedLRUCache*>(c.get())->num_shard_bits());
  EXPECT_EQ(size_t{8} << 20, c->GetCapacity());
}

// Counts deleter calls from all threads.
std::atomic<uint64_t> g_concurrent_deletes{0};
void CountingDeleter(const Slice& /*key*/, void* value) {
  g_concurrent_deletes.fetch_add(1, std::memory_order_relaxed);
  delete static_cast<int*>(value);
}

TEST(LRUCacheConcurrentTest, FourThreads) {
  const uint64_t seed = test::RandomSeed();
  g_concurrent_deletes = 0;
  constexpr int kThreads = 4;
  constexpr int kOps = 50000;
  constexpr int kKeys = 500;
  std::atomic<uint64_t> insert_calls{0};
  {
    auto cache = NewLRUCache(2000, 2, false, 0.3);
    ASSERT_NE(cache, nullptr);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; t++) {
      threads.emplace_back([&, t] {
        std::mt19937_64 rng(seed + static_cast<uint64_t>(t));
        std::vector<Cache::Handle*> held;
        for (int i = 0; i < kOps; i++) {
          int k = static_cast<int>(rng() % kKeys);
          std::string key = Key(k);
          switch (rng() % 4) {
            case 0: {
              Cache::Handle* h = nullptr;
              auto pri = rng() % 3 == 0 ? Cache::Priority::kHigh : Cache::Priority::kLow;
              // The value records its charge so usage can be recomputed.
              int charge = 1 + static_cast<int>(rng() % 16);
              Status s = cache->Insert(key, new int(k * 100 + charge), static_cast<size_t>(charge),
                                       &CountingDeleter, rng() % 2 ? &h : nullptr, pri);
              insert_calls.fetch_add(1, std::memory_order_relaxed);
              EXPECT_TRUE(s.ok()) << s.ToString();
              if (h != nullptr) held.push_back(h);
              break;
            }
            case 1:
            case 2: {
              Cache::Handle* h = cache->Lookup(key);
              if (h != nullptr) {
                EXPECT_EQ(k, *static_cast<int*>(cache->Value(h)) / 100);
                held.push_back(h);
              }
              break;
            }
            default:
              if (rng() % 8 == 0) cache->Erase(key);
              break;
          }
          // Keep a few handles pinned for a while.
          while (held.size() > 4) {
            size_t j = rng() % held.size();
            cache->Release(held[j], rng() % 16 == 0);
            held[j] = held.back();
            held.pop_back();
          }
        }
        for (Cache::Handle* h : held) cache->Release(h);
      });
    }
    for (auto& th : threads) th.join();

    EXPECT_EQ(0u, cache->GetPinnedUsage());
    EXPECT_LE(cache->GetUsage(), cache->GetCapacity());
    // Usage equals the sum of the charges of the resident entries.
    size_t resident_charge = 0;
    for (int k = 0; k < kKeys; k++) {
      Cache::Handle* h = cache->Lookup(Key(k));
      if (h == nullptr) continue;
      resident_charge += static_cast<size_t>(*static_cast<int*>(cache->Value(h)) % 100);
      cache->Release(h);
    }
    EXPECT_EQ(resident_charge, cache->GetUsage());
    EXPECT_GT(resident_charge, 0u);
    // Erasing them all brings usage to zero; every value was freed once.
    cache->EraseUnRefEntries();
    EXPECT_EQ(0u, cache->GetUsage());
    EXPECT_EQ(insert_calls.load(), g_concurrent_deletes.load());
    Cache::CacheStats st = cache->GetStats();
    EXPECT_LE(st.inserts, insert_calls.load());
    EXPECT_GT(st.hits + st.misses, 0u);
  }
  EXPECT_EQ(insert_calls.load(), g_concurrent_deletes.load());
}

}  // namespace
// RocksDB 7.8.3's handle-level members, on both of Strata's caches.
TEST(CacheRocksDBMembersTest, RefChargeDeleterApplyOccupancy) {
  for (bool clock : {false, true}) {
    SCOPED_TRACE(clock ? "HyperClockCache" : "LRUCache");
    std::shared_ptr<Cache> cache = clock
                                       ? NewHyperClockCache(HyperClockCacheOptions(1 << 20, 100, 0))
                                       : NewLRUCache(1 << 20, 0);
    ASSERT_NE(cache, nullptr);
    DeleteLog log;
    g_log = &log;
    Cache::Handle* h = nullptr;
    ASSERT_OK(cache->Insert("a", new int(1), 100, &LoggingDeleter, &h, Cache::Priority::HIGH));
    EXPECT_EQ(100u, cache->GetCharge(h));
    EXPECT_EQ(100u, cache->GetUsage(h));
    EXPECT_EQ(&LoggingDeleter, cache->GetDeleter(h));
    EXPECT_TRUE(cache->IsReady(h));
    // Two references now: the entry survives one Release with erase.
    EXPECT_TRUE(cache->Ref(h));
    cache->Erase("a");
    EXPECT_FALSE(cache->Release(h));
    EXPECT_TRUE(log.deleted.empty());
    EXPECT_TRUE(cache->Release(h, /*useful=*/false, /*erase_if_last_ref=*/false));
    ASSERT_EQ(1u, log.deleted.size());

    Cache::CacheItemHelper helper(nullptr, nullptr, &LoggingDeleter);
    ASSERT_OK(cache->Insert("b", new int(2), &helper, 20));
    ASSERT_OK(
        cache->Insert("c", new int(3), 30, &LoggingDeleter, nullptr, Cache::Priority::BOTTOM));
    EXPECT_TRUE(cache->Insert("d", nullptr, static_cast<const Cache::CacheItemHelper*>(nullptr), 1)
                    .IsInvalidArgument());
    EXPECT_EQ(2u, cache->GetOccupancyCount());
    EXPECT_GE(cache->GetTableAddressCount(), 2u);
    std::map<std::string, size_t> seen;
    cache->ApplyToAllEntries(
        [&](const Slice& key, void* value, size_t charge, Cache::DeleterFn deleter) {
          EXPECT_EQ(&LoggingDeleter, deleter);
          EXPECT_NE(nullptr, value);
          seen[key.ToString()] = charge;
        },
        Cache::ApplyToAllEntriesOptions());
    EXPECT_EQ((std::map<std::string, size_t>{{"b", 20}, {"c", 30}}), seen);
    size_t total = 0;
    static size_t* total_ptr = nullptr;
    total_ptr = &total;
    cache->ApplyToAllCacheEntries([](void*, size_t charge) { *total_ptr += charge; }, true);
    EXPECT_EQ(50u, total);
    Cache::Handle* hb = cache->Lookup("b", nullptr, Cache::CreateCallback(), Cache::Priority::LOW,
                                      /*wait=*/true);
    ASSERT_NE(nullptr, hb);
    std::vector<Cache::Handle*> handles{hb};
    cache->WaitAll(handles);
    EXPECT_TRUE(cache->Release(hb, /*useful=*/true, /*erase_if_last_ref=*/true));
    EXPECT_EQ(1u, cache->GetOccupancyCount());
    EXPECT_EQ(30u, cache->GetUsage());
    const std::string printable = cache->GetPrintableOptions();
    EXPECT_NE(std::string::npos, printable.find("    capacity : 1048576\n")) << printable;
    EXPECT_NE(std::string::npos, printable.find("    num_shard_bits : 0\n")) << printable;
    EXPECT_NE(std::string::npos, printable.find("    memory_allocator : None\n")) << printable;
    EXPECT_EQ(!clock, printable.find("high_pri_pool_ratio: 0.500") != std::string::npos);
    cache->DisownData();  // a hint: entries are still freed
    cache.reset();
    EXPECT_EQ(3u, log.deleted.size());
    g_log = nullptr;
  }
}

}  // namespace strata
