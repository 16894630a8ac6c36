#include "strata/write_buffer_manager.h"

#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "cache/cache_reservation_manager.h"
#include "strata/cache.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

constexpr size_t kMiB = 1 << 20;
constexpr size_t kDummy = CacheReservationManager::kSizeDummyEntry;

TEST(WriteBufferManagerTest, FlushRules) {
  WriteBufferManager wbm(8 * kMiB);
  EXPECT_TRUE(wbm.enabled());
  EXPECT_FALSE(wbm.cost_to_cache());
  wbm.ReserveMem(7 * kMiB);  // exactly 7/8: not above it
  EXPECT_FALSE(wbm.ShouldFlush());
  wbm.ReserveMem(1);
  EXPECT_TRUE(wbm.ShouldFlush());  // mutable > 7/8
  // The memtable becomes immutable: its bytes are being freed.
  wbm.ScheduleFreeMem(7 * kMiB + 1);
  EXPECT_EQ(wbm.mutable_memtable_memory_usage(), 0u);
  EXPECT_EQ(wbm.memory_usage(), 7 * kMiB + 1);
  EXPECT_FALSE(wbm.ShouldFlush());
  // Total at the limit, mutable below half: hold (a flush is under way).
  wbm.ReserveMem(kMiB);
  EXPECT_GE(wbm.memory_usage(), 8 * kMiB);
  EXPECT_FALSE(wbm.ShouldFlush());
  // Mutable reaches half while the total is past the limit: flush more.
  wbm.ReserveMem(3 * kMiB);
  EXPECT_EQ(wbm.mutable_memtable_memory_usage(), 4 * kMiB);
  EXPECT_TRUE(wbm.ShouldFlush());
  wbm.FreeMem(7 * kMiB + 1);
  EXPECT_EQ(wbm.memory_usage(), 4 * kMiB);
  EXPECT_FALSE(wbm.ShouldFlush());
  // SetBufferSize moves both thresholds.
  wbm.SetBufferSize(4 * kMiB);
  EXPECT_TRUE(wbm.ShouldFlush());
  wbm.SetBufferSize(0);
  EXPECT_FALSE(wbm.enabled());
  EXPECT_FALSE(wbm.ShouldFlush());
  EXPECT_FALSE(wbm.ShouldStall());
}

TEST(WriteBufferManagerTest, StallOnlyWhenAllowed) {
  WriteBufferManager no_stall(kMiB);
  no_stall.ReserveMem(2 * kMiB);
  EXPECT_FALSE(no_stall.ShouldStall());
  no_stall.SetAllowStall(true);
  EXPECT_TRUE(no_stall.ShouldStall());
  no_stall.SetAllowStall(false);
  EXPECT_FALSE(no_stall.ShouldStall());

  WriteBufferManager wbm(kMiB, nullptr, /*allow_stall=*/true);
  wbm.ReserveMem(kMiB - 1);
  EXPECT_FALSE(wbm.ShouldStall());
  wbm.ReserveMem(1);
  EXPECT_TRUE(wbm.ShouldStall());
  wbm.FreeMem(1);
  EXPECT_FALSE(wbm.ShouldStall());
}

// A DB's side of a stall: Block waits for Signal.
class TestStall : public StallInterface {
 public:
  void Block() override {
    std::unique_lock<std::mutex> l(mu_);
    cv_.wait(l, [this] { return signaled_; });
    signaled_ = false;
  }
  void Signal() override {
    std::lock_guard<std::mutex> l(mu_);
    signaled_ = true;
    cv_.notify_all();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool signaled_ = false;
};

TEST(WriteBufferManagerTest, StallBlocksWritersOfEveryDBUntilFreed) {
  WriteBufferManager wbm(kMiB, nullptr, /*allow_stall=*/true);
  wbm.ReserveMem(2 * kMiB);
  ASSERT_TRUE(wbm.ShouldStall());
  TestStall a, b;
  std::atomic<int> released{0};
  std::thread ta([&] {
    wbm.BeginWriteStall(&a);
    a.Block();
    released.fetch_add(1);
  });
  std::thread tb([&] {
    wbm.BeginWriteStall(&b);
    b.Block();
    released.fetch_add(1);
  });
  // Both wait; freeing part of the memory (still over) releases nobody.
  while (!wbm.IsStallActive()) std::this_thread::yield();
  wbm.FreeMem(kMiB / 2);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(released.load(), 0);
  EXPECT_TRUE(wbm.ShouldStall());
  wbm.FreeMem(kMiB);  // under the limit: both go on
  ta.join();
  tb.join();
  EXPECT_EQ(released.load(), 2);
  EXPECT_FALSE(wbm.IsStallActive());
  EXPECT_FALSE(wbm.ShouldStall());
}

TEST(WriteBufferManagerTest, BeginStallAfterFreeSignalsAtOnce) {
  WriteBufferManager wbm(kMiB, nullptr, /*allow_stall=*/true);
  TestStall a;
  wbm.BeginWriteStall(&a);  // no stall: signaled at once
  a.Block();
  EXPECT_FALSE(wbm.IsStallActive());
  // RemoveDBFromQueue releases a queued DB (close).
  wbm.ReserveMem(kMiB);
  wbm.BeginWriteStall(&a);
  EXPECT_TRUE(wbm.IsStallActive());
  wbm.RemoveDBFromQueue(&a);
  a.Block();
}

TEST(WriteBufferManagerTest, CostToCacheReachesCacheUsage) {
  std::shared_ptr<Cache> cache = NewLRUCache(64 * kMiB);
  {
    WriteBufferManager wbm(0, cache);  // charging without a limit
    EXPECT_FALSE(wbm.enabled());
    EXPECT_TRUE(wbm.cost_to_cache());
    wbm.ReserveMem(10 * kMiB + 1);
    EXPECT_EQ(wbm.memory_usage(), 10 * kMiB + 1);
    EXPECT_EQ(wbm.dummy_entries_in_cache_usage(), 10 * kMiB + kDummy);
    EXPECT_EQ(cache->GetUsage(), 10 * kMiB + kDummy);
    EXPECT_EQ(CacheReservationManager::ChargedBytes(cache.get(), CacheEntryRole::kWriteBuffer),
              10 * kMiB + kDummy);
    EXPECT_FALSE(wbm.ShouldFlush());
    wbm.ScheduleFreeMem(10 * kMiB + 1);
    wbm.FreeMem(10 * kMiB + 1);
    EXPECT_EQ(wbm.memory_usage(), 0u);
    EXPECT_EQ(cache->GetUsage(), 0u);
  }
  {
    WriteBufferManager wbm(8 * kMiB, cache);
    wbm.ReserveMem(8 * kMiB);
    EXPECT_EQ(cache->GetUsage(), 8 * kMiB);
    wbm.FreeMem(kMiB);  // 7/8 of the reservation: delayed decrease keeps it
    EXPECT_EQ(cache->GetUsage(), 8 * kMiB);
    wbm.FreeMem(3 * kMiB);
    EXPECT_EQ(cache->GetUsage(), 4 * kMiB);
    wbm.FreeMem(4 * kMiB);
  }
  EXPECT_EQ(cache->GetUsage(), 0u);
}

TEST(WriteBufferManagerTest, SharedByTwoUsers) {
  // Two DBs' memtables add up in one manager: either one's growth counts
  // toward the other's flush decision.
  WriteBufferManager wbm(8 * kMiB);
  wbm.ReserveMem(4 * kMiB);  // DB A
  EXPECT_FALSE(wbm.ShouldFlush());
  wbm.ReserveMem(3 * kMiB + 1);  // DB B
  EXPECT_TRUE(wbm.ShouldFlush());
}

}  // namespace
}  // namespace strata
