// Tests of PointLockManager: the shared/exclusive rules, re-locks and
// upgrades, timeouts and wake-ups, max_num_locks, expiration and stealing,
// deadlock detection and its buffer, the status queries, and a randomized
// multi-thread run checking mutual exclusion with per-key counters.
#include "utilities/transactions/lock/point_lock_manager.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <thread>
#include <vector>

#include "test_util/mock_clock.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

// A clock whose NowMicros is the real time plus an offset the test moves,
// so expirations can be made to pass at once; waits stay real. Its unix
// seconds (deadlock times) come from test::WallClockOffset.
class OffsetClock final : public SystemClock {
 public:
  const char* Name() const override { return "OffsetClock"; }
  uint64_t NowMicros() override {
    // relaxed: a plain value; the test orders its moves by its own calls.
    return base_->NowMicros() + offset_.load(std::memory_order_relaxed);
  }
  uint64_t NowNanos() override { return base_->NowNanos(); }
  void SleepForMicroseconds(int micros) override { base_->SleepForMicroseconds(micros); }
  // Unix seconds from a test::WallClockOffset, which the test can move.
  Status GetCurrentTime(int64_t* unix_time) override { return wall_.GetCurrentTime(unix_time); }
  void AdvanceMicros(uint64_t us) { offset_.fetch_add(us, std::memory_order_relaxed); }
  test::WallClockOffset* wall() { return &wall_; }

 private:
  test::WallClockOffset wall_;
  std::shared_ptr<SystemClock> base_ = SystemClock::Default();
  std::atomic<uint64_t> offset_{0};
};

constexpr uint32_t kCf = 0;

class PointLockManagerTest : public testing::Test {
 protected:
  void Make(TransactionDBOptions opts = TransactionDBOptions(),
            PointLockManager::StealLocks steal = nullptr) {
    if (!steal) {
      steal = [this](TransactionID id) {
        std::lock_guard<std::mutex> l(steal_mu_);
        steal_calls_.push_back(id);
        return steal_answer_;
      };
    }
    lm_ = std::make_unique<PointLockManager>(opts, &clock_, std::move(steal));
    lm_->AddColumnFamily(kCf);
  }

  static LockRequest Req(TransactionID id, bool exclusive, int64_t timeout_us = 0) {
    LockRequest r;
    r.txn_id = id;
    r.cf_id = kCf;
    r.exclusive = exclusive;
    r.timeout_us = timeout_us;
    return r;
  }

  Status Lock(TransactionID id, const std::string& key, bool exclusive, int64_t timeout_us = 0) {
    return lm_->TryLock(Req(id, exclusive, timeout_us), key);
  }

  // The lock on key in GetLockStatusData (cf kCf); ids sorted.
  bool Find(const std::string& key, KeyLockInfo* out) {
    auto data = lm_->GetLockStatusData();
    for (auto& [cf, info] : data) {
      if (cf == kCf && info.key == key) {
        *out = info;
        std::sort(out->ids.begin(), out->ids.end());
        return true;
      }
    }
    return false;
  }

  // Spins until txn is waiting (GetWaitingTxns non-empty) or 10 s pass.
  bool WaitUntilWaiting(TransactionID txn) {
    for (int i = 0; i < 10000; i++) {
      uint32_t cf = 0;
      std::string key;
      if (!lm_->GetWaitingTxns(txn, &cf, &key).empty()) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return false;
  }

  OffsetClock clock_;
  std::unique_ptr<PointLockManager> lm_;
  std::mutex steal_mu_;
  std::vector<TransactionID> steal_calls_;
  bool steal_answer_ = true;
};

TEST_F(PointLockManagerTest, SharedSharedCompatible) {
  Make();
  ASSERT_OK(Lock(1, "k", false));
  ASSERT_OK(Lock(2, "k", false));
  ASSERT_OK(Lock(3, "k", false));
  KeyLockInfo info;
  ASSERT_TRUE(Find("k", &info));
  EXPECT_FALSE(info.exclusive);
  EXPECT_EQ(info.ids, (std::vector<TransactionID>{1, 2, 3}));
  EXPECT_EQ(lm_->TEST_LockCount(kCf), 1u);
  // Each holder releases its own share.
  lm_->UnLock(2, kCf, "k");
  ASSERT_TRUE(Find("k", &info));
  EXPECT_EQ(info.ids, (std::vector<TransactionID>{1, 3}));
  lm_->UnLock(1, kCf, "k");
  lm_->UnLock(3, kCf, "k");
  EXPECT_FALSE(Find("k", &info));
  EXPECT_EQ(lm_->TEST_LockCount(kCf), 0u);
}

TEST_F(PointLockManagerTest, SharedExclusiveConflict) {
  Make();
  ASSERT_OK(Lock(1, "k", false));
  Status s = Lock(2, "k", true);
  EXPECT_TRUE(s.IsTimedOut()) << s.ToString();
  EXPECT_EQ(s.subcode(), Status::kLockTimeout);
  lm_->UnLock(1, kCf, "k");
  ASSERT_OK(Lock(2, "k", true));
  s = Lock(1, "k", false);
  EXPECT_TRUE(s.IsTimedOut()) << s.ToString();
  EXPECT_EQ(s.subcode(), Status::kLockTimeout);
}

TEST_F(PointLockManagerTest, ExclusiveExclusiveConflict) {
  Make();
  ASSERT_OK(Lock(1, "k", true));
  Status s = Lock(2, "k", true);
  EXPECT_TRUE(s.IsTimedOut());
  EXPECT_EQ(s.subcode(), Status::kLockTimeout);
  // Other keys are independent.
  ASSERT_OK(Lock(2, "k2", true));
  // Unlocking a key one does not hold changes nothing.
  lm_->UnLock(2, kCf, "k");
  KeyLockInfo info;
  ASSERT_TRUE(Find("k", &info));
  EXPECT_TRUE(info.exclusive);
  EXPECT_EQ(info.ids, (std::vector<TransactionID>{1}));
  EXPECT_EQ(lm_->TEST_LockCount(kCf), 2u);
}

TEST_F(PointLockManagerTest, ReLock) {
  Make();
  ASSERT_OK(Lock(1, "k", true));
  ASSERT_OK(Lock(1, "k", true));
  // Re-locking shared keeps the exclusive lock.
  ASSERT_OK(Lock(1, "k", false));
  KeyLockInfo info;
  ASSERT_TRUE(Find("k", &info));
  EXPECT_TRUE(info.exclusive);
  EXPECT_TRUE(Lock(2, "k", false).IsTimedOut());
  ASSERT_OK(Lock(1, "s", false));
  ASSERT_OK(Lock(1, "s", false));
  ASSERT_TRUE(Find("s", &info));
  EXPECT_EQ(info.ids, (std::vector<TransactionID>{1}));  // not listed twice
  lm_->UnLock(1, kCf, "s");
  EXPECT_FALSE(Find("s", &info));
}

TEST_F(PointLockManagerTest, UpgradeSoleHolder) {
  Make();
  ASSERT_OK(Lock(1, "k", false));
  ASSERT_OK(Lock(1, "k", true));
  KeyLockInfo info;
  ASSERT_TRUE(Find("k", &info));
  EXPECT_TRUE(info.exclusive);
  EXPECT_TRUE(Lock(2, "k", false).IsTimedOut());
}

TEST_F(PointLockManagerTest, UpgradeBlockedBySecondHolder) {
  Make();
  ASSERT_OK(Lock(1, "k", false));
  ASSERT_OK(Lock(2, "k", false));
  Status s = Lock(1, "k", true);
  EXPECT_TRUE(s.IsTimedOut());
  EXPECT_EQ(s.subcode(), Status::kLockTimeout);
  // Still shared by both.
  KeyLockInfo info;
  ASSERT_TRUE(Find("k", &info));
  EXPECT_FALSE(info.exclusive);
  EXPECT_EQ(info.ids, (std::vector<TransactionID>{1, 2}));
  // Waiting for the other holder only, then granted when it leaves.
  std::thread t([&] { EXPECT_OK(Lock(1, "k", true, 10 * 1000 * 1000)); });
  ASSERT_TRUE(WaitUntilWaiting(1));
  uint32_t cf = 99;
  std::string key;
  EXPECT_EQ(lm_->GetWaitingTxns(1, &cf, &key), (std::vector<TransactionID>{2}));
  EXPECT_EQ(cf, kCf);
  EXPECT_EQ(key, "k");
  lm_->UnLock(2, kCf, "k");
  t.join();
  ASSERT_TRUE(Find("k", &info));
  EXPECT_TRUE(info.exclusive);
  EXPECT_EQ(info.ids, (std::vector<TransactionID>{1}));
}

TEST_F(PointLockManagerTest, TimeoutFires) {
  Make();
  ASSERT_OK(Lock(1, "k", true));
  auto start = std::chrono::steady_clock::now();
  Status s = Lock(2, "k", true, 50 * 1000);
  auto us = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() -
                                                                  start)
                .count();
  EXPECT_TRUE(s.IsTimedOut()) << s.ToString();
  EXPECT_EQ(s.subcode(), Status::kLockTimeout);
  EXPECT_NE(s.ToString().find("Timeout waiting to lock key"), std::string::npos) << s.ToString();
  EXPECT_GE(us, 50 * 1000);
  EXPECT_LT(us, 5 * 1000 * 1000);
  // No waiter is left behind.
  EXPECT_TRUE(lm_->GetWaitingTxns(2, nullptr, nullptr).empty());
}

TEST_F(PointLockManagerTest, WaiterGrantedOnUnlock) {
  Make();
  ASSERT_OK(Lock(1, "k", true));
  std::atomic<bool> granted{false};
  std::thread t([&] {
    EXPECT_OK(Lock(2, "k", true, -1));  // forever
    granted.store(true);
  });
  ASSERT_TRUE(WaitUntilWaiting(2));
  EXPECT_FALSE(granted.load());
  uint32_t cf = 99;
  std::string key;
  EXPECT_EQ(lm_->GetWaitingTxns(2, &cf, &key), (std::vector<TransactionID>{1}));
  EXPECT_EQ(key, "k");
  lm_->UnLock(1, kCf, "k");
  t.join();
  EXPECT_TRUE(granted.load());
  KeyLockInfo info;
  ASSERT_TRUE(Find("k", &info));
  EXPECT_EQ(info.ids, (std::vector<TransactionID>{2}));
  EXPECT_TRUE(lm_->GetWaitingTxns(2, nullptr, nullptr).empty());
}

TEST_F(PointLockManagerTest, SharedWaitersGrantedTogether) {
  Make();
  ASSERT_OK(Lock(1, "k", true));
  std::thread a([&] { EXPECT_OK(Lock(2, "k", false, 10 * 1000 * 1000)); });
  std::thread b([&] { EXPECT_OK(Lock(3, "k", false, 10 * 1000 * 1000)); });
  ASSERT_TRUE(WaitUntilWaiting(2));
  ASSERT_TRUE(WaitUntilWaiting(3));
  lm_->UnLock(1, kCf, "k");
  a.join();
  b.join();
  KeyLockInfo info;
  ASSERT_TRUE(Find("k", &info));
  EXPECT_FALSE(info.exclusive);
  EXPECT_EQ(info.ids, (std::vector<TransactionID>{2, 3}));
}

TEST_F(PointLockManagerTest, MaxNumLocks) {
  TransactionDBOptions opts;
  opts.max_num_locks = 3;
  Make(opts);
  lm_->AddColumnFamily(7);
  ASSERT_OK(Lock(1, "a", true));
  ASSERT_OK(Lock(1, "b", false));
  ASSERT_OK(Lock(2, "c", true));
  Status s = Lock(3, "d", true, 1000 * 1000);
  EXPECT_TRUE(s.IsBusy()) << s.ToString();
  EXPECT_TRUE(s.IsLockLimit());
  // Keys already locked are not new locks: a re-lock and a share pass.
  ASSERT_OK(Lock(1, "a", true));
  ASSERT_OK(Lock(2, "b", false));
  // The limit is per column family.
  LockRequest r = Req(3, true);
  r.cf_id = 7;
  ASSERT_OK(lm_->TryLock(r, "d"));
  // Freeing a key makes room; a shared key counts until its last holder leaves.
  lm_->UnLock(1, kCf, "b");
  EXPECT_TRUE(Lock(3, "d", true).IsLockLimit());
  lm_->UnLock(2, kCf, "b");
  ASSERT_OK(Lock(3, "d", true));
  EXPECT_EQ(lm_->TEST_LockCount(kCf), 3u);
  EXPECT_EQ(lm_->TEST_LockCount(7), 1u);
}

TEST_F(PointLockManagerTest, UnknownColumnFamily) {
  Make();
  LockRequest r = Req(1, true);
  r.cf_id = 42;
  Status s = lm_->TryLock(r, "k");
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.ToString().find("42"), std::string::npos);
  lm_->UnLock(1, 42, "k");  // a no-op
  lm_->AddColumnFamily(42);
  ASSERT_OK(lm_->TryLock(r, "k"));
  EXPECT_EQ(lm_->TEST_LockCount(42), 1u);
  lm_->RemoveColumnFamily(42);
  EXPECT_EQ(lm_->TEST_LockCount(42), 0u);
  EXPECT_TRUE(lm_->TryLock(r, "k").IsInvalidArgument());
}

TEST_F(PointLockManagerTest, RemoveColumnFamilyWakesWaiters) {
  Make();
  lm_->AddColumnFamily(5);
  LockRequest r = Req(1, true);
  r.cf_id = 5;
  ASSERT_OK(lm_->TryLock(r, "k"));
  std::thread t([&] {
    LockRequest w = Req(2, true, -1);
    w.cf_id = 5;
    Status s = lm_->TryLock(w, "k");
    EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  });
  ASSERT_TRUE(WaitUntilWaiting(2));
  lm_->RemoveColumnFamily(5);
  t.join();
  // Added again: empty.
  lm_->AddColumnFamily(5);
  EXPECT_EQ(lm_->TEST_LockCount(5), 0u);
  ASSERT_OK(lm_->TryLock(r, "k"));
}

TEST_F(PointLockManagerTest, UnLockMany) {
  TransactionDBOptions opts;
  opts.num_stripes = 4;
  opts.max_num_locks = 1000;
  Make(opts);
  std::vector<std::string> keys;
  for (int i = 0; i < 100; i++) {
    keys.push_back("key" + std::to_string(i));
    ASSERT_OK(Lock(1, keys.back(), i % 2 == 0));
    ASSERT_OK(Lock(2, "other" + std::to_string(i), true));
  }
  ASSERT_OK(Lock(3, "key1", false));  // shared with txn 1
  EXPECT_EQ(lm_->TEST_LockCount(kCf), 200u);
  lm_->UnLock(1, kCf, keys);
  EXPECT_EQ(lm_->TEST_LockCount(kCf), 101u);
  KeyLockInfo info;
  ASSERT_TRUE(Find("key1", &info));
  EXPECT_EQ(info.ids, (std::vector<TransactionID>{3}));
  EXPECT_FALSE(Find("key0", &info));
  // The count kept for max_num_locks followed: 899 more fit, not 900.
  for (int i = 0; i < 899; i++) ASSERT_OK(Lock(4, "more" + std::to_string(i), true));
  EXPECT_TRUE(Lock(4, "one-too-many", true).IsLockLimit());
}

// --- Expiration -----------------------------------------------------------

TEST_F(PointLockManagerTest, ExpiredHolderStolen) {
  Make();
  LockRequest r = Req(1, true);
  r.expiration_time_us = clock_.NowMicros() + 1000 * 1000;
  ASSERT_OK(lm_->TryLock(r, "k"));
  // Not expired yet: a conflict, no steal asked.
  EXPECT_TRUE(Lock(2, "k", true).IsTimedOut());
  EXPECT_TRUE(steal_calls_.empty());
  clock_.AdvanceMicros(2 * 1000 * 1000);
  ASSERT_OK(Lock(2, "k", true));
  EXPECT_EQ(steal_calls_, (std::vector<TransactionID>{1}));
  KeyLockInfo info;
  ASSERT_TRUE(Find("k", &info));
  EXPECT_EQ(info.ids, (std::vector<TransactionID>{2}));
  EXPECT_EQ(lm_->TEST_LockCount(kCf), 1u);
  // The robbed transaction's unlock does not release the thief's lock.
  lm_->UnLock(1, kCf, "k");
  ASSERT_TRUE(Find("k", &info));
  EXPECT_EQ(info.ids, (std::vector<TransactionID>{2}));
}

TEST_F(PointLockManagerTest, ExpiredSharedHoldersStolen) {
  Make();
  LockRequest r = Req(1, false);
  r.expiration_time_us = clock_.NowMicros() + 1000;
  ASSERT_OK(lm_->TryLock(r, "k"));
  r.txn_id = 2;
  ASSERT_OK(lm_->TryLock(r, "k"));
  clock_.AdvanceMicros(1000 * 1000);
  ASSERT_OK(Lock(3, "k", true));
  std::sort(steal_calls_.begin(), steal_calls_.end());
  EXPECT_EQ(steal_calls_, (std::vector<TransactionID>{1, 2}));
  KeyLockInfo info;
  ASSERT_TRUE(Find("k", &info));
  EXPECT_TRUE(info.exclusive);
  EXPECT_EQ(info.ids, (std::vector<TransactionID>{3}));
}

TEST_F(PointLockManagerTest, SharedWithANeverExpiringHolderNeverExpires) {
  Make();
  LockRequest r = Req(1, false);
  r.expiration_time_us = clock_.NowMicros() + 1000;
  ASSERT_OK(lm_->TryLock(r, "k"));
  ASSERT_OK(Lock(2, "k", false));  // no expiration
  LockRequest late = Req(4, false);
  late.expiration_time_us = clock_.NowMicros() + 5000;
  ASSERT_OK(lm_->TryLock(late, "k"));  // still never
  clock_.AdvanceMicros(1000 * 1000);
  EXPECT_TRUE(Lock(3, "k", true).IsTimedOut());
  EXPECT_TRUE(steal_calls_.empty());
  // A key whose holders all expire does expire, at the latest of them.
  r.txn_id = 5;
  r.expiration_time_us = clock_.NowMicros() + 1000;
  ASSERT_OK(lm_->TryLock(r, "j"));
  r.txn_id = 6;
  r.expiration_time_us = clock_.NowMicros() + 10 * 1000 * 1000;
  ASSERT_OK(lm_->TryLock(r, "j"));
  clock_.AdvanceMicros(2000);
  EXPECT_TRUE(Lock(3, "j", true).IsTimedOut());
  EXPECT_TRUE(steal_calls_.empty());
  clock_.AdvanceMicros(20 * 1000 * 1000);
  ASSERT_OK(Lock(3, "j", true));
  std::sort(steal_calls_.begin(), steal_calls_.end());
  EXPECT_EQ(steal_calls_, (std::vector<TransactionID>{5, 6}));
}

TEST_F(PointLockManagerTest, ExpiredButNotStealableTimesOut) {
  Make();
  steal_answer_ = false;
  LockRequest r = Req(1, true);
  r.expiration_time_us = clock_.NowMicros() + 1000;
  ASSERT_OK(lm_->TryLock(r, "k"));
  clock_.AdvanceMicros(1000 * 1000);
  EXPECT_TRUE(Lock(2, "k", true).IsTimedOut());
  Status s = Lock(2, "k", true, 30 * 1000);
  EXPECT_TRUE(s.IsTimedOut()) << s.ToString();
  EXPECT_EQ(s.subcode(), Status::kLockTimeout);
  EXPECT_GE(steal_calls_.size(), 2u);
  KeyLockInfo info;
  ASSERT_TRUE(Find("k", &info));
  EXPECT_EQ(info.ids, (std::vector<TransactionID>{1}));
  // A waiter with no timeout is still granted when the holder unlocks.
  std::thread t([&] { EXPECT_OK(Lock(2, "k", true, -1)); });
  ASSERT_TRUE(WaitUntilWaiting(2));
  lm_->UnLock(1, kCf, "k");
  t.join();
  ASSERT_TRUE(Find("k", &info));
  EXPECT_EQ(info.ids, (std::vector<TransactionID>{2}));
}

TEST_F(PointLockManagerTest, WaiterWakesAtExpiration) {
  Make();
  LockRequest r = Req(1, true);
  r.expiration_time_us = clock_.NowMicros() + 100 * 1000;  // 100 ms
  ASSERT_OK(lm_->TryLock(r, "k"));
  auto start = std::chrono::steady_clock::now();
  // Waits forever unless signalled: only the expiration can wake it.
  ASSERT_OK(Lock(2, "k", true, -1));
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                                  start)
                .count();
  EXPECT_GE(ms, 90);
  EXPECT_LT(ms, 5000);
  EXPECT_EQ(steal_calls_, (std::vector<TransactionID>{1}));
}

TEST_F(PointLockManagerTest, StealCalledWithoutStripeMutex) {
  // The callback may lock and unlock keys of the same stripe: it would
  // deadlock if the stripe mutex were held. One stripe makes sure.
  TransactionDBOptions opts;
  opts.num_stripes = 1;
  Make(opts, [this](TransactionID id) {
    EXPECT_OK(lm_->TryLock(Req(99, true), "callback-key"));
    lm_->UnLock(99, kCf, "callback-key");
    std::lock_guard<std::mutex> l(steal_mu_);
    steal_calls_.push_back(id);
    return true;
  });
  LockRequest r = Req(1, true);
  r.expiration_time_us = clock_.NowMicros() + 1;
  ASSERT_OK(lm_->TryLock(r, "k"));
  clock_.AdvanceMicros(1000);
  ASSERT_OK(Lock(2, "k", true));
  EXPECT_EQ(steal_calls_, (std::vector<TransactionID>{1}));
}

// --- Deadlock detection ---------------------------------------------------

// A request with deadlock detection that waits forever.
LockRequest DetectReq(TransactionID id, const std::string& /*key*/, int64_t depth = 50) {
  LockRequest r;
  r.txn_id = id;
  r.cf_id = kCf;
  r.exclusive = true;
  r.timeout_us = -1;
  r.deadlock_detect = true;
  r.deadlock_detect_depth = depth;
  return r;
}

class DeadlockTest : public PointLockManagerTest {
 protected:
  // A cycle of n transactions ids[0..n-1]: ids[i] holds keys[i] and waits
  // for keys[i+1] (in a thread); then ids[n-1] asks for keys[0] from this
  // thread with the given depth and the result is returned. Afterwards
  // every lock is released and every thread joined.
  Status Cycle(const std::vector<TransactionID>& ids, const std::vector<std::string>& keys,
               int64_t depth = 50) {
    const size_t n = ids.size();
    for (size_t i = 0; i < n; i++) EXPECT_OK(Lock(ids[i], keys[i], true));
    std::vector<std::thread> threads;
    for (size_t i = 0; i + 1 < n; i++) {
      threads.emplace_back([this, i, &ids, &keys, depth] {
        // Granted only once the next transaction of the chain has gone.
        EXPECT_OK(lm_->TryLock(DetectReq(ids[i], keys[i + 1], depth), keys[i + 1]));
        lm_->UnLock(ids[i], kCf, std::vector<std::string>{keys[i], keys[i + 1]});
      });
      // Wait in chain order, so the graph is built from the far end.
      EXPECT_TRUE(WaitUntilWaiting(ids[i]));
    }
    Status s = lm_->TryLock(DetectReq(ids[n - 1], keys[0], depth), keys[0]);
    // The last transaction gives up: the chain unwinds from its end.
    EXPECT_TRUE(lm_->GetWaitingTxns(ids[n - 1], nullptr, nullptr).empty());
    lm_->UnLock(ids[n - 1], kCf, keys[n - 1]);
    for (auto& t : threads) t.join();
    EXPECT_EQ(lm_->TEST_LockCount(kCf), 0u);
    return s;
  }
};

TEST_F(DeadlockTest, TwoCycle) {
  Make();
  clock_.wall()->Advance(1000000);  // deadlock_time comes from the clock
  int64_t before = clock_.wall()->Now();
  Status s = Cycle({1, 2}, {"a", "b"});
  int64_t after = clock_.wall()->Now();
  EXPECT_TRUE(s.IsBusy()) << s.ToString();
  EXPECT_TRUE(s.IsDeadlock());
  auto buf = lm_->GetDeadlockInfoBuffer();
  ASSERT_EQ(buf.size(), 1u);
  const DeadlockPath& p = buf[0];
  EXPECT_FALSE(p.limit_exceeded);
  EXPECT_GE(p.deadlock_time, before);
  EXPECT_LE(p.deadlock_time, after);
  ASSERT_EQ(p.path.size(), 2u);
  // Txn 1 waits for "b" (held by 2), txn 2 (the detector, last) for "a".
  EXPECT_EQ(p.path[0].m_txn_id, 1u);
  EXPECT_EQ(p.path[0].m_waiting_key, "b");
  EXPECT_EQ(p.path[0].m_cf_id, kCf);
  EXPECT_TRUE(p.path[0].m_exclusive);
  EXPECT_EQ(p.path[1].m_txn_id, 2u);
  EXPECT_EQ(p.path[1].m_waiting_key, "a");
  EXPECT_TRUE(p.path[1].m_exclusive);
}

TEST_F(DeadlockTest, ThreeCycle) {
  Make();
  Status s = Cycle({10, 20, 30}, {"a", "b", "c"});
  EXPECT_TRUE(s.IsDeadlock()) << s.ToString();
  auto buf = lm_->GetDeadlockInfoBuffer();
  ASSERT_EQ(buf.size(), 1u);
  const auto& path = buf[0].path;
  ASSERT_EQ(path.size(), 3u);
  EXPECT_EQ(path[0].m_txn_id, 10u);
  EXPECT_EQ(path[0].m_waiting_key, "b");
  EXPECT_EQ(path[1].m_txn_id, 20u);
  EXPECT_EQ(path[1].m_waiting_key, "c");
  EXPECT_EQ(path[2].m_txn_id, 30u);
  EXPECT_EQ(path[2].m_waiting_key, "a");
}

TEST_F(DeadlockTest, SharedCycle) {
  // Both hold "s" shared and both upgrade: a deadlock of two upgrades.
  Make();
  ASSERT_OK(Lock(1, "s", false));
  ASSERT_OK(Lock(2, "s", false));
  std::thread t([&] {
    Status s = lm_->TryLock(DetectReq(1, "s"), "s");
    EXPECT_OK(s);
    lm_->UnLock(1, kCf, "s");
  });
  ASSERT_TRUE(WaitUntilWaiting(1));
  LockRequest r = DetectReq(2, "s");
  Status s = lm_->TryLock(r, "s");
  EXPECT_TRUE(s.IsDeadlock()) << s.ToString();
  auto buf = lm_->GetDeadlockInfoBuffer();
  ASSERT_EQ(buf.size(), 1u);
  ASSERT_EQ(buf[0].path.size(), 2u);
  EXPECT_EQ(buf[0].path[0].m_txn_id, 1u);
  EXPECT_EQ(buf[0].path[1].m_txn_id, 2u);
  EXPECT_EQ(buf[0].path[1].m_waiting_key, "s");
  lm_->UnLock(2, kCf, "s");  // lets 1 upgrade
  t.join();
}

TEST_F(DeadlockTest, NoDetectionWithoutTheOption) {
  Make();
  ASSERT_OK(Lock(1, "a", true));
  ASSERT_OK(Lock(2, "b", true));
  std::thread t([&] {
    EXPECT_OK(Lock(1, "b", true, -1));
    lm_->UnLock(1, kCf, std::vector<std::string>{"a", "b"});
  });
  ASSERT_TRUE(WaitUntilWaiting(1));
  // Txn 1 waits without detection, so it has no edge in the graph: even a
  // detecting request closing the cycle sees none and times out.
  LockRequest r = DetectReq(2, "a");
  r.timeout_us = 20 * 1000;
  Status s = lm_->TryLock(r, "a");
  EXPECT_TRUE(s.IsTimedOut()) << s.ToString();
  EXPECT_TRUE(lm_->GetDeadlockInfoBuffer().empty());
  lm_->UnLock(2, kCf, "b");
  t.join();
}

TEST_F(DeadlockTest, WaitWithoutCycleIsNotDeadlock) {
  Make();
  ASSERT_OK(Lock(1, "a", true));
  std::thread t([&] {
    EXPECT_OK(lm_->TryLock(DetectReq(2, "a"), "a"));
    lm_->UnLock(2, kCf, "a");
  });
  ASSERT_TRUE(WaitUntilWaiting(2));
  // 3 also waits for 1: a tree, no cycle.
  LockRequest r = DetectReq(3, "a");
  r.timeout_us = 10 * 1000;
  EXPECT_TRUE(lm_->TryLock(r, "a").IsTimedOut());
  lm_->UnLock(1, kCf, "a");
  t.join();
  EXPECT_TRUE(lm_->GetDeadlockInfoBuffer().empty());
}

TEST_F(DeadlockTest, DepthLimit) {
  Make();
  std::vector<TransactionID> ids;
  std::vector<std::string> keys;
  for (int i = 0; i < 6; i++) {
    ids.push_back(100 + i);
    keys.push_back("k" + std::to_string(i));
  }
  // A cycle of 6 searched 3 deep: assumed a deadlock, marked as such.
  Status s = Cycle(ids, keys, /*depth=*/3);
  EXPECT_TRUE(s.IsDeadlock()) << s.ToString();
  auto buf = lm_->GetDeadlockInfoBuffer();
  ASSERT_EQ(buf.size(), 1u);
  EXPECT_TRUE(buf[0].limit_exceeded);
  EXPECT_TRUE(buf[0].path.empty());
  EXPECT_FALSE(buf[0].empty());
  // Deep enough: the real cycle of 6.
  s = Cycle(ids, keys, /*depth=*/6);
  EXPECT_TRUE(s.IsDeadlock()) << s.ToString();
  buf = lm_->GetDeadlockInfoBuffer();
  ASSERT_EQ(buf.size(), 2u);
  EXPECT_FALSE(buf[1].limit_exceeded);
  ASSERT_EQ(buf[1].path.size(), 6u);
  for (size_t i = 0; i < 6; i++) {
    EXPECT_EQ(buf[1].path[i].m_txn_id, ids[i]);
    EXPECT_EQ(buf[1].path[i].m_waiting_key, keys[(i + 1) % 6]);
  }
}

TEST_F(DeadlockTest, BufferKeepsNewestAndResizes) {
  Make();  // max_num_deadlocks = 5
  auto ids_of = [](const std::vector<DeadlockPath>& buf) {
    std::vector<TransactionID> out;
    for (const auto& p : buf) out.push_back(p.path.empty() ? 0 : p.path[0].m_txn_id);
    return out;
  };
  TransactionID next = 1;
  auto deadlock = [&] {
    TransactionID a = next++ * 10;
    ASSERT_TRUE(Cycle({a, a + 1}, {"x", "y"}).IsDeadlock());
  };
  for (int i = 0; i < 3; i++) deadlock();
  EXPECT_EQ(ids_of(lm_->GetDeadlockInfoBuffer()), (std::vector<TransactionID>{10, 20, 30}));
  for (int i = 0; i < 4; i++) deadlock();  // 7 in all: the last 5 stay
  EXPECT_EQ(ids_of(lm_->GetDeadlockInfoBuffer()), (std::vector<TransactionID>{30, 40, 50, 60, 70}));
  lm_->SetDeadlockInfoBufferSize(3);  // keeps the newest 3
  EXPECT_EQ(ids_of(lm_->GetDeadlockInfoBuffer()), (std::vector<TransactionID>{50, 60, 70}));
  deadlock();
  EXPECT_EQ(ids_of(lm_->GetDeadlockInfoBuffer()), (std::vector<TransactionID>{60, 70, 80}));
  lm_->SetDeadlockInfoBufferSize(6);  // grows: all kept, room for 3 more
  EXPECT_EQ(ids_of(lm_->GetDeadlockInfoBuffer()), (std::vector<TransactionID>{60, 70, 80}));
  for (int i = 0; i < 4; i++) deadlock();
  EXPECT_EQ(ids_of(lm_->GetDeadlockInfoBuffer()),
            (std::vector<TransactionID>{70, 80, 90, 100, 110, 120}));
  lm_->SetDeadlockInfoBufferSize(0);  // records nothing
  EXPECT_TRUE(lm_->GetDeadlockInfoBuffer().empty());
  deadlock();
  EXPECT_TRUE(lm_->GetDeadlockInfoBuffer().empty());
  lm_->SetDeadlockInfoBufferSize(2);
  deadlock();
  EXPECT_EQ(ids_of(lm_->GetDeadlockInfoBuffer()), (std::vector<TransactionID>{140}));
}

// --- Status queries -----------------------------------------------------------

TEST_F(PointLockManagerTest, LockStatusDataAcrossFamilies) {
  Make();
  lm_->AddColumnFamily(3);
  ASSERT_OK(Lock(1, "a", true));
  ASSERT_OK(Lock(1, "b", false));
  ASSERT_OK(Lock(2, "b", false));
  LockRequest r = Req(2, true);
  r.cf_id = 3;
  ASSERT_OK(lm_->TryLock(r, "a"));
  auto data = lm_->GetLockStatusData();
  ASSERT_EQ(data.size(), 3u);
  std::map<std::pair<uint32_t, std::string>, std::pair<bool, std::set<TransactionID>>> got;
  for (const auto& [cf, info] : data) {
    got[{cf, info.key}] = {info.exclusive,
                           std::set<TransactionID>(info.ids.begin(), info.ids.end())};
  }
  using V = std::pair<bool, std::set<TransactionID>>;
  EXPECT_EQ((got[{kCf, "a"}]), (V{true, {1}}));
  EXPECT_EQ((got[{kCf, "b"}]), (V{false, {1, 2}}));
  EXPECT_EQ((got[{3u, "a"}]), (V{true, {2}}));
  lm_->RemoveColumnFamily(3);
  EXPECT_EQ(lm_->GetLockStatusData().size(), 2u);
}

TEST_F(PointLockManagerTest, GetWaitingTxnsOfSharedHolders) {
  Make();
  ASSERT_OK(Lock(1, "k", false));
  ASSERT_OK(Lock(2, "k", false));
  EXPECT_TRUE(lm_->GetWaitingTxns(3, nullptr, nullptr).empty());
  std::thread t([&] { EXPECT_OK(Lock(3, "k", true, 10 * 1000 * 1000)); });
  ASSERT_TRUE(WaitUntilWaiting(3));
  uint32_t cf = 99;
  std::string key;
  auto w = lm_->GetWaitingTxns(3, &cf, &key);
  std::sort(w.begin(), w.end());
  EXPECT_EQ(w, (std::vector<TransactionID>{1, 2}));
  EXPECT_EQ(cf, kCf);
  EXPECT_EQ(key, "k");
  lm_->UnLock(1, kCf, "k");
  lm_->UnLock(2, kCf, "k");
  t.join();
  EXPECT_TRUE(lm_->GetWaitingTxns(3, nullptr, nullptr).empty());
}

// --- Randomized -------------------------------------------------------------

// Single thread, timeout 0, against a model: map key -> (exclusive,
// holders). Every TryLock's outcome and, after each step, the whole lock
// table are compared.
TEST_F(PointLockManagerTest, RandomizedAgainstModel) {
  const uint64_t seed = test::RandomSeed();
  std::mt19937_64 rng(seed);
  TransactionDBOptions opts;
  opts.num_stripes = 3;
  opts.max_num_locks = 6;
  Make(opts);
  struct ModelLock {
    bool exclusive;
    std::set<TransactionID> holders;
  };
  std::map<std::string, ModelLock> model;
  for (int step = 0; step < 4000; step++) {
    TransactionID txn = 1 + rng() % 4;
    std::string key = "k" + std::to_string(rng() % 10);
    auto it = model.find(key);
    if (rng() % 3 == 0) {
      lm_->UnLock(txn, kCf, key);
      if (it != model.end() && it->second.holders.erase(txn) && it->second.holders.empty()) {
        model.erase(it);
      }
    } else {
      bool ex = rng() % 2 == 0;
      Status s = Lock(txn, key, ex);
      // Expected outcome.
      Status want;
      if (it == model.end()) {
        if (model.size() >= 6) {
          want = Status::Busy(Status::kLockLimit);
        } else {
          model[key] = ModelLock{ex, {txn}};
        }
      } else if (!it->second.exclusive && !ex) {
        it->second.holders.insert(txn);
      } else if (it->second.holders == std::set<TransactionID>{txn}) {
        it->second.exclusive = it->second.exclusive || ex;
      } else {
        want = Status::TimedOut(Status::kLockTimeout);
      }
      ASSERT_EQ(s.code(), want.code())
          << "seed " << seed << " step " << step << ": " << s.ToString();
      ASSERT_EQ(s.subcode(), want.subcode()) << "seed " << seed << " step " << step;
    }
    std::map<std::string, ModelLock> got;
    for (const auto& [cf, info] : lm_->GetLockStatusData()) {
      ASSERT_EQ(cf, kCf);
      got[info.key] = ModelLock{info.exclusive, {info.ids.begin(), info.ids.end()}};
      ASSERT_EQ(info.ids.size(), got[info.key].holders.size()) << "a holder listed twice";
    }
    ASSERT_EQ(got.size(), model.size()) << "seed " << seed << " step " << step;
    for (const auto& [k, m] : model) {
      ASSERT_EQ(got[k].exclusive, m.exclusive) << "seed " << seed << " key " << k;
      ASSERT_EQ(got[k].holders, m.holders) << "seed " << seed << " key " << k;
    }
    ASSERT_EQ(lm_->TEST_LockCount(kCf), model.size());
  }
}

// N threads run transactions over a few hot keys: each locks a random set
// in sorted order (so without deadlocks) in random modes, waits without
// bound, checks per-key counters for mutual exclusion while it holds the
// locks, then releases them. A second phase locks in random order with
// deadlock detection and short timeouts, where Busy(kDeadlock) and
// TimedOut are allowed outcomes but exclusion must still hold.
TEST_F(PointLockManagerTest, RandomizedThreadsMutualExclusion) {
  const uint64_t seed = test::RandomSeed();
  TransactionDBOptions opts;
  opts.num_stripes = 4;
  Make(opts);
  constexpr int kKeys = 12;
  constexpr int kThreads = 4;
  constexpr int kTxnsPerThread = 1500;
  std::atomic<int> exclusive_holders[kKeys];
  std::atomic<int> shared_holders[kKeys];
  for (int i = 0; i < kKeys; i++) {
    exclusive_holders[i] = 0;
    shared_holders[i] = 0;
  }
  std::atomic<TransactionID> next_id{1};
  std::atomic<int> violations{0};
  std::atomic<int> granted{0}, deadlocks{0}, timeouts{0};

  auto run = [&](int thread, bool ordered) {
    std::mt19937_64 rng(seed + thread * 7919 + (ordered ? 0 : 1));
    for (int t = 0; t < kTxnsPerThread; t++) {
      TransactionID id = next_id.fetch_add(1);
      std::set<int> picked;
      int n = 1 + rng() % 4;
      while (static_cast<int>(picked.size()) < n) picked.insert(rng() % kKeys);
      std::vector<int> order(picked.begin(), picked.end());
      if (!ordered) std::shuffle(order.begin(), order.end(), rng);
      std::vector<std::pair<int, bool>> held;
      std::vector<std::string> held_keys;
      bool failed = false;
      for (int k : order) {
        LockRequest r;
        r.txn_id = id;
        r.cf_id = kCf;
        r.exclusive = rng() % 2 == 0;
        r.timeout_us = ordered ? -1 : 2000;
        r.deadlock_detect = !ordered;
        std::string key = "key" + std::to_string(k);
        Status s = lm_->TryLock(r, key);
        if (!s.ok()) {
          if (s.IsDeadlock()) {
            deadlocks++;
          } else if (s.IsTimedOut()) {
            timeouts++;
          } else {
            ADD_FAILURE() << s.ToString();
          }
          if (ordered) ADD_FAILURE() << "ordered locking failed: " << s.ToString();
          failed = true;
          break;
        }
        if (r.exclusive) {
          if (exclusive_holders[k].fetch_add(1) != 0 || shared_holders[k].load() != 0) violations++;
        } else {
          shared_holders[k].fetch_add(1);
          if (exclusive_holders[k].load() != 0) violations++;
        }
        held.push_back({k, r.exclusive});
        held_keys.push_back(key);
      }
      if (!failed) granted++;
      if (rng() % 4 == 0) std::this_thread::yield();
      for (auto [k, ex] : held) {
        if (ex) {
          exclusive_holders[k].fetch_sub(1);
        } else {
          shared_holders[k].fetch_sub(1);
        }
      }
      lm_->UnLock(id, kCf, held_keys);
    }
  };
  for (bool ordered : {true, false}) {
    std::vector<std::thread> threads;
    for (int i = 0; i < kThreads; i++) threads.emplace_back(run, i, ordered);
    for (auto& t : threads) t.join();
  }
  EXPECT_EQ(violations.load(), 0) << "seed " << seed;
  EXPECT_GE(granted.load(), kThreads * kTxnsPerThread) << "seed " << seed;
  EXPECT_EQ(lm_->TEST_LockCount(kCf), 0u);
  EXPECT_TRUE(lm_->GetLockStatusData().empty());
  std::printf("granted %d, deadlocks %d, timeouts %d\n", granted.load(), deadlocks.load(),
              timeouts.load());
}

}  // namespace
}  // namespace strata
