// SyncPoint (util/sync_point.h): processing on and off, callbacks and their
// arguments, dependencies ordering threads, DisableProcessing releasing
// waiters, the trace, and ClearAllCallBacks waiting for running callbacks.
// The points here are the test's own, reached through the macros (this
// file is compiled with STRATA_SYNC_POINTS like the library).
#include "util/sync_point.h"

#include <atomic>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "test_util/testutil.h"

namespace strata {
namespace {

// An append-only log several threads write to; the order is the result.
class OrderLog {
 public:
  void Add(const std::string& what) {
    std::lock_guard<std::mutex> l(mu_);
    entries_.push_back(what);
  }
  std::string Joined() {
    std::lock_guard<std::mutex> l(mu_);
    std::string r;
    for (const std::string& e : entries_) r += (r.empty() ? "" : " ") + e;
    return r;
  }

 private:
  std::mutex mu_;
  std::vector<std::string> entries_;
};

class SyncPointTest : public testing::Test {
 protected:
  SyncPointTest() : sp_(SyncPoint::GetInstance()) {}
  ~SyncPointTest() override {
    sp_->DisableProcessing();
    sp_->ClearAllCallBacks();
    sp_->LoadDependency({});
  }

  SyncPoint* const sp_;
};

TEST_F(SyncPointTest, MacrosReachTheRegistry) {
  int calls = 0;
  sp_->SetCallBack("SyncPointTest:Here", [&](void*) { ++calls; });
  sp_->EnableProcessing();
  TEST_SYNC_POINT("SyncPointTest:Here");
  EXPECT_EQ(1, calls);
}

TEST_F(SyncPointTest, NothingHappensWhileDisabled) {
  int calls = 0;
  sp_->SetCallBack("A", [&](void*) { ++calls; });
  // B waits for C, which is never passed: disabled, B does not wait.
  sp_->LoadDependency({{"C", "B"}});
  TEST_SYNC_POINT("A");
  TEST_SYNC_POINT("B");
  EXPECT_EQ(0, calls);
  sp_->EnableProcessing();
  TEST_SYNC_POINT("A");
  EXPECT_EQ(1, calls);
  sp_->DisableProcessing();
  TEST_SYNC_POINT("A");
  EXPECT_EQ(1, calls);
}

TEST_F(SyncPointTest, CallbackGetsTheArgumentUntilCleared) {
  sp_->SetCallBack("Add", [](void* arg) { *static_cast<int*>(arg) += 5; });
  sp_->SetCallBack("Other", [](void* arg) { *static_cast<int*>(arg) = -1; });
  sp_->EnableProcessing();
  int value = 1;
  TEST_SYNC_POINT_CALLBACK("Add", &value);
  EXPECT_EQ(6, value);
  TEST_SYNC_POINT_CALLBACK("Add", &value);
  EXPECT_EQ(11, value);
  // A callback replaced, then cleared; the other stays.
  sp_->SetCallBack("Add", [](void* arg) { *static_cast<int*>(arg) *= 2; });
  TEST_SYNC_POINT_CALLBACK("Add", &value);
  EXPECT_EQ(22, value);
  sp_->ClearCallBack("Add");
  TEST_SYNC_POINT_CALLBACK("Add", &value);
  EXPECT_EQ(22, value);
  TEST_SYNC_POINT_CALLBACK("Other", &value);
  EXPECT_EQ(-1, value);
  sp_->ClearAllCallBacks();
  value = 3;
  TEST_SYNC_POINT_CALLBACK("Other", &value);
  EXPECT_EQ(3, value);
  // A point without a callback hands nothing to anyone.
  bool untouched = true;
  TEST_SYNC_POINT_CALLBACK("Nobody", &untouched);
  EXPECT_TRUE(untouched);
}

// The waiting thread is started first and reaches its point first; the
// dependency makes it finish second.
TEST_F(SyncPointTest, DependencyMakesAThreadWait) {
  OrderLog log;
  sp_->LoadDependency({{"First:Done", "Second:Start"}});
  sp_->EnableProcessing();
  test::Event second_started;
  std::thread second([&] {
    second_started.Set();
    TEST_SYNC_POINT("Second:Start");
    log.Add("second");
  });
  ASSERT_TRUE(second_started.WaitFor());
  log.Add("first");
  TEST_SYNC_POINT("First:Done");
  second.join();
  EXPECT_EQ("first second", log.Joined());
}

// A chain over many threads started in reverse order runs in chain order.
TEST_F(SyncPointTest, ChainOrdersManyThreads) {
  constexpr int kThreads = 8;
  OrderLog log;
  std::vector<SyncPointPair> pairs;
  for (int i = 1; i < kThreads; ++i) {
    pairs.push_back({"Step" + std::to_string(i - 1) + ":Done", "Step" + std::to_string(i) + ":Go"});
  }
  sp_->LoadDependency(pairs);
  sp_->EnableProcessing();
  std::vector<std::thread> threads;
  for (int i = kThreads - 1; i >= 0; --i) {
    threads.emplace_back([&, i] {
      const std::string go = "Step" + std::to_string(i) + ":Go";
      const std::string done = "Step" + std::to_string(i) + ":Done";
      TEST_SYNC_POINT(go.c_str());
      log.Add(std::to_string(i));
      TEST_SYNC_POINT(done.c_str());
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ("0 1 2 3 4 5 6 7", log.Joined());
}

// A successor waits for every one of its predecessors.
TEST_F(SyncPointTest, SuccessorWaitsForAllPredecessors) {
  OrderLog log;
  sp_->LoadDependency({{"A", "C"}, {"B", "C"}});
  sp_->EnableProcessing();
  std::thread c([&] {
    TEST_SYNC_POINT("C");
    log.Add("c");
  });
  std::thread b([&] {
    log.Add("b");
    TEST_SYNC_POINT("B");
  });
  b.join();
  log.Add("a");
  TEST_SYNC_POINT("A");
  c.join();
  EXPECT_EQ("b a c", log.Joined());
}

// The successor runs only after the predecessor's callback returned.
TEST_F(SyncPointTest, SuccessorRunsAfterThePredecessorsCallback) {
  OrderLog log;
  sp_->LoadDependency({{"P", "S"}});
  sp_->SetCallBack("P", [&](void*) { log.Add("p-callback"); });
  sp_->SetCallBack("S", [&](void*) { log.Add("s-callback"); });
  sp_->EnableProcessing();
  std::thread s([&] { TEST_SYNC_POINT("S"); });
  std::thread p([&] { TEST_SYNC_POINT("P"); });
  p.join();
  s.join();
  EXPECT_EQ("p-callback s-callback", log.Joined());
}

TEST_F(SyncPointTest, DisableProcessingReleasesAWaiter) {
  std::atomic<int> callbacks{0};
  sp_->LoadDependency({{"Never", "Stuck"}});
  test::Event before;
  sp_->SetCallBack("BeforeStuck", [&](void*) { before.Set(); });
  sp_->SetCallBack("Stuck", [&](void*) { ++callbacks; });
  sp_->EnableProcessing();
  test::Event left;
  std::thread t([&] {
    TEST_SYNC_POINT("BeforeStuck");
    TEST_SYNC_POINT("Stuck");
    left.Set();
  });
  ASSERT_TRUE(before.WaitFor());
  sp_->DisableProcessing();
  ASSERT_TRUE(left.WaitFor());
  t.join();
  EXPECT_EQ(0, callbacks.load());  // released without its callback
}

// The trace is cleared by ClearTrace and by LoadDependency: a predecessor
// passed before does not count.
TEST_F(SyncPointTest, ClearedTraceMakesTheSuccessorWaitAgain) {
  OrderLog log;
  sp_->LoadDependency({{"A", "B"}});
  sp_->EnableProcessing();
  TEST_SYNC_POINT("A");
  TEST_SYNC_POINT("B");  // A is in the trace: no wait
  sp_->ClearTrace();
  test::Event waiting;
  sp_->SetCallBack("BeforeB", [&](void*) { waiting.Set(); });
  std::thread t([&] {
    TEST_SYNC_POINT("BeforeB");
    TEST_SYNC_POINT("B");
    log.Add("b");
  });
  ASSERT_TRUE(waiting.WaitFor());
  log.Add("a");
  TEST_SYNC_POINT("A");
  t.join();
  EXPECT_EQ("a b", log.Joined());
}

// Many threads through one point: each call runs the callback once.
TEST_F(SyncPointTest, CallbacksFromManyThreads) {
  constexpr int kThreads = 8, kPerThread = 1000;
  std::atomic<int> calls{0};
  std::atomic<long> sum{0};
  sp_->SetCallBack("Hot", [&](void* arg) {
    ++calls;
    sum += *static_cast<int*>(arg);
  });
  sp_->EnableProcessing();
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t] {
      for (int i = 0; i < kPerThread; ++i) {
        int v = t;
        TEST_SYNC_POINT_CALLBACK("Hot", &v);
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(kThreads * kPerThread, calls.load());
  EXPECT_EQ(static_cast<long>(kPerThread) * (kThreads * (kThreads - 1) / 2), sum.load());
}

// ClearAllCallBacks returns only after a running callback has finished.
TEST_F(SyncPointTest, ClearAllCallBacksWaitsForRunningCallbacks) {
  OrderLog log;
  test::Event entered, release;
  sp_->SetCallBack("Slow", [&](void*) {
    entered.Set();
    ASSERT_TRUE(release.WaitFor());
    log.Add("callback-end");
  });
  sp_->EnableProcessing();
  std::thread runner([&] { TEST_SYNC_POINT("Slow"); });
  ASSERT_TRUE(entered.WaitFor());
  test::Event clearing;
  std::thread clearer([&] {
    clearing.Set();
    sp_->ClearAllCallBacks();
    log.Add("cleared");
  });
  ASSERT_TRUE(clearing.WaitFor());
  release.Set();
  runner.join();
  clearer.join();
  EXPECT_EQ("callback-end cleared", log.Joined());
}

}  // namespace
}  // namespace strata
