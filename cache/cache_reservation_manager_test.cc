#include "cache/cache_reservation_manager.h"

#include <gtest/gtest.h>

#include <memory>
#include <thread>
#include <vector>

#include "strata/cache.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

constexpr size_t kDummy = CacheReservationManager::kSizeDummyEntry;

TEST(CacheReservationManagerTest, ReservesWholeDummyEntriesAndReleases) {
  std::shared_ptr<Cache> cache = NewLRUCache(64 * kDummy, 0);
  {
    CacheReservationManager mgr(cache, CacheEntryRole::kBlockBasedTableReader);
    ASSERT_OK(mgr.UpdateCacheReservation(1));
    EXPECT_EQ(mgr.GetTotalReservedCacheSize(), kDummy);
    EXPECT_EQ(cache->GetUsage(), kDummy);
    EXPECT_EQ(cache->GetPinnedUsage(), kDummy);
    ASSERT_OK(mgr.UpdateCacheReservation(3 * kDummy + 5));
    EXPECT_EQ(mgr.GetTotalReservedCacheSize(), 4 * kDummy);
    EXPECT_EQ(cache->GetUsage(), 4 * kDummy);
    EXPECT_EQ(
        CacheReservationManager::ChargedBytes(cache.get(), CacheEntryRole::kBlockBasedTableReader),
        4 * kDummy);
    // Without delayed decrease, down to the smallest cover at once.
    ASSERT_OK(mgr.UpdateCacheReservation(kDummy));
    EXPECT_EQ(mgr.GetTotalReservedCacheSize(), kDummy);
    EXPECT_EQ(cache->GetUsage(), kDummy);
  }
  EXPECT_EQ(cache->GetUsage(), 0u);
  EXPECT_EQ(
      CacheReservationManager::ChargedBytes(cache.get(), CacheEntryRole::kBlockBasedTableReader),
      0u);
}

TEST(CacheReservationManagerTest, DelayedDecreaseKeepsEntriesAboveThreeQuarters) {
  std::shared_ptr<Cache> cache = NewLRUCache(64 * kDummy, 0);
  CacheReservationManager mgr(cache, CacheEntryRole::kWriteBuffer, /*delayed_decrease=*/true);
  ASSERT_OK(mgr.UpdateCacheReservation(8 * kDummy));
  ASSERT_OK(mgr.UpdateCacheReservation(6 * kDummy));  // 3/4 of 8: kept
  EXPECT_EQ(mgr.GetTotalReservedCacheSize(), 8 * kDummy);
  ASSERT_OK(mgr.UpdateCacheReservation(6 * kDummy - 1));  // below 3/4: released
  EXPECT_EQ(mgr.GetTotalReservedCacheSize(), 6 * kDummy);
  EXPECT_EQ(mgr.GetTotalMemoryUsed(), 6 * kDummy - 1);
}

TEST(CacheReservationManagerTest, ReservationEvictsBlocks) {
  std::shared_ptr<Cache> cache = NewLRUCache(8 * kDummy, 0, false, 0.0);
  // Fill the cache with unpinned "blocks".
  for (int i = 0; i < 64; ++i) {
    const std::string key = "block" + std::to_string(i);
    ASSERT_OK(cache->Insert(key, nullptr, kDummy / 8, [](const Slice&, void*) {}));
  }
  EXPECT_EQ(cache->GetUsage(), 8 * kDummy);
  CacheReservationManager mgr(cache, CacheEntryRole::kWriteBuffer);
  ASSERT_OK(mgr.UpdateCacheReservation(6 * kDummy));
  EXPECT_LE(cache->GetUsage(), 8 * kDummy);
  EXPECT_EQ(cache->GetPinnedUsage(), 6 * kDummy);
  EXPECT_EQ(cache->Lookup("block0"), nullptr);  // the oldest blocks made room
}

TEST(CacheReservationManagerTest, StrictCacheRefusesWithMemoryLimit) {
  std::shared_ptr<Cache> cache = NewLRUCache(4 * kDummy, 0, /*strict_capacity_limit=*/true);
  CacheReservationManager mgr(cache, CacheEntryRole::kFilterConstruction);
  Status s = mgr.UpdateCacheReservation(10 * kDummy);
  EXPECT_TRUE(s.IsMemoryLimit()) << s.ToString();
  EXPECT_EQ(mgr.GetTotalReservedCacheSize(), 4 * kDummy);
  EXPECT_EQ(mgr.GetTotalMemoryUsed(), 10 * kDummy);
}

TEST(CacheReservationManagerTest, ConcurrentHandlesSumUp) {
  std::shared_ptr<Cache> cache = NewLRUCache(256 * kDummy, 0);
  auto mgr = std::make_shared<ConcurrentCacheReservationManager>(
      cache, CacheEntryRole::kBlockBasedTableReader);
  std::vector<std::thread> threads;
  std::vector<std::vector<std::unique_ptr<ConcurrentCacheReservationManager::Handle>>> held(4);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 100; ++i) {
        std::unique_ptr<ConcurrentCacheReservationManager::Handle> h;
        ASSERT_OK(mgr->MakeCacheReservation(10000, &h));
        held[t].push_back(std::move(h));
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(mgr->GetTotalMemoryUsed(), 4u * 100 * 10000);
  // 4,000,000 bytes: 16 dummy entries (15.26 rounded up), not 400.
  EXPECT_EQ(mgr->GetTotalReservedCacheSize(), 16 * kDummy);
  EXPECT_EQ(cache->GetUsage(), 16 * kDummy);
  held.clear();
  EXPECT_EQ(mgr->GetTotalMemoryUsed(), 0u);
  EXPECT_EQ(cache->GetUsage(), 0u);
}

TEST(CacheReservationManagerTest, RoleNames) {
  EXPECT_EQ(GetCacheEntryRoleName(CacheEntryRole::kWriteBuffer), "write-buffer");
  EXPECT_EQ(GetCacheEntryRoleName(CacheEntryRole::kBlockBasedTableReader),
            "block-based-table-reader");
  EXPECT_EQ(GetCacheEntryRoleName(CacheEntryRole::kMisc), "misc");
}

}  // namespace
}  // namespace strata
