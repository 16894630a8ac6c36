#include "util/thread_pool.h"

#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "test_util/testutil.h"

namespace strata {
namespace {

// A latch the tests use to hold jobs in place. Waits give up after a minute
// so a broken pool fails the test instead of hanging it (a liveness bound,
// not a speed check).
class Latch {
 public:
  explicit Latch(int count) : count_(count) {}
  void CountDown() {
    std::lock_guard<std::mutex> l(mu_);
    if (--count_ <= 0) cv_.notify_all();
  }
  bool Wait() {
    std::unique_lock<std::mutex> l(mu_);
    return cv_.wait_for(l, std::chrono::seconds(60), [this] { return count_ <= 0; });
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  int count_;
};

std::string CurrentThreadName() {
  char name[16] = {};
  pthread_getname_np(pthread_self(), name, sizeof(name));
  return name;
}

TEST(ThreadPoolTest, RunsEveryJobBeforeJoin) {
  ThreadPool pool(2, "strata:test");
  std::atomic<int> sum{0};
  for (int i = 1; i <= 1000; i++) pool.Schedule([&sum, i] { sum += i; });
  pool.WaitForJobsAndJoinAllThreads();
  EXPECT_EQ(500500, sum.load());
  EXPECT_EQ(0u, pool.QueueLen());
}

TEST(ThreadPoolTest, OneThreadRunsJobsInFifoOrder) {
  ThreadPool pool(1, "strata:test");
  std::vector<int> order;  // only the single worker touches it
  for (int i = 0; i < 100; i++) pool.Schedule([&order, i] { order.push_back(i); });
  pool.WaitForJobsAndJoinAllThreads();
  ASSERT_EQ(100u, order.size());
  for (int i = 0; i < 100; i++) EXPECT_EQ(i, order[i]);
}

TEST(ThreadPoolTest, ThreadsCarryThePoolName) {
  ThreadPool pool(1, "strata:namecheck-that-is-long");
  std::string seen;
  pool.Schedule([&seen] { seen = CurrentThreadName(); });
  pool.WaitForJobsAndJoinAllThreads();
  EXPECT_EQ("strata:namechec", seen);  // truncated to 15 characters
}

TEST(ThreadPoolTest, QueueLenCountsWaitingJobs) {
  ThreadPool pool(1, "strata:test");
  Latch started(1), release(1);
  pool.Schedule([&] {
    started.CountDown();
    ASSERT_TRUE(release.Wait());
  });
  ASSERT_TRUE(started.Wait());
  for (int i = 0; i < 3; i++) pool.Schedule([] {});
  EXPECT_EQ(3u, pool.QueueLen());
  release.CountDown();
  pool.WaitForJobsAndJoinAllThreads();
  EXPECT_EQ(0u, pool.QueueLen());
}

TEST(ThreadPoolTest, GrowingRunsJobsConcurrently) {
  ThreadPool pool(1, "strata:test");
  EXPECT_EQ(1, pool.GetBackgroundThreads());
  pool.SetBackgroundThreads(4);
  EXPECT_EQ(4, pool.GetBackgroundThreads());
  // Each job waits until all four are running: only possible on 4 threads.
  Latch all_running(4);
  std::atomic<int> ok{0};
  for (int i = 0; i < 4; i++) {
    pool.Schedule([&] {
      all_running.CountDown();
      if (all_running.Wait()) ok++;
    });
  }
  pool.WaitForJobsAndJoinAllThreads();
  EXPECT_EQ(4, ok.load());
}

TEST(ThreadPoolTest, GrowingARunningPoolStartsThreadsAtOnce) {
  ThreadPool pool(1, "strata:test");
  Latch first_running(1), release(1);
  pool.Schedule([&] {
    first_running.CountDown();
    ASSERT_TRUE(release.Wait());
  });
  ASSERT_TRUE(first_running.Wait());
  // The only thread is busy; a second job runs only if growing started one.
  Latch second_ran(1);
  pool.Schedule([&] { second_ran.CountDown(); });
  pool.SetBackgroundThreads(2);
  EXPECT_TRUE(second_ran.Wait());
  release.CountDown();
  pool.WaitForJobsAndJoinAllThreads();
}

TEST(ThreadPoolTest, ShrinkingLimitsConcurrencyOfLaterJobs) {
  ThreadPool pool(4, "strata:test");
  // Get all four threads running.
  Latch all_running(4);
  for (int i = 0; i < 4; i++) {
    pool.Schedule([&] {
      all_running.CountDown();
      ASSERT_TRUE(all_running.Wait());
    });
  }
  ASSERT_TRUE(all_running.Wait());
  pool.SetBackgroundThreads(1);
  EXPECT_EQ(1, pool.GetBackgroundThreads());
  std::atomic<int> running{0}, max_running{0};
  std::set<std::thread::id> ids;
  std::mutex ids_mu;
  for (int i = 0; i < 200; i++) {
    pool.Schedule([&] {
      int now = ++running;
      int prev = max_running.load();
      while (now > prev && !max_running.compare_exchange_weak(prev, now)) {
      }
      {
        std::lock_guard<std::mutex> l(ids_mu);
        ids.insert(std::this_thread::get_id());
      }
      running--;
    });
  }
  pool.WaitForJobsAndJoinAllThreads();
  EXPECT_EQ(1, max_running.load());
  EXPECT_EQ(1u, ids.size());
}

TEST(ThreadPoolTest, ShrinkThenGrowAgain) {
  ThreadPool pool(3, "strata:test");
  std::atomic<int> count{0};
  for (int round = 0; round < 20; round++) {
    pool.SetBackgroundThreads(round % 4);
    for (int i = 0; i < 10; i++) pool.Schedule([&count] { count++; });
  }
  pool.SetBackgroundThreads(2);
  pool.WaitForJobsAndJoinAllThreads();
  EXPECT_EQ(200, count.load());
}

TEST(ThreadPoolTest, ZeroThreadsLeavesJobsForTheJoiningCaller) {
  ThreadPool pool(0, "strata:test");
  int ran = 0;
  pool.Schedule([&ran] { ran++; });
  pool.Schedule([&ran] { ran++; });
  EXPECT_EQ(2u, pool.QueueLen());
  EXPECT_EQ(0, ran);
  pool.WaitForJobsAndJoinAllThreads();
  EXPECT_EQ(2, ran);
}

TEST(ThreadPoolTest, JobsScheduledByJobsDuringJoinStillRun) {
  ThreadPool pool(2, "strata:test");
  std::atomic<int> count{0};
  std::function<void(int)> chain = [&](int depth) {
    count++;
    if (depth > 0) pool.Schedule([&chain, depth] { chain(depth - 1); });
  };
  pool.Schedule([&chain] { chain(50); });
  pool.WaitForJobsAndJoinAllThreads();
  EXPECT_EQ(51, count.load());
}

TEST(ThreadPoolTest, UsableAfterJoin) {
  ThreadPool pool(1, "strata:test");
  std::atomic<int> count{0};
  for (int round = 0; round < 5; round++) {
    pool.Schedule([&count] { count++; });
    pool.WaitForJobsAndJoinAllThreads();
    EXPECT_EQ(round + 1, count.load());
  }
}

TEST(ThreadPoolTest, DestructorRunsQueuedJobs) {
  std::atomic<int> count{0};
  {
    ThreadPool pool(1, "strata:test");
    for (int i = 0; i < 50; i++) pool.Schedule([&count] { count++; });
  }
  EXPECT_EQ(50, count.load());
}

TEST(ThreadPoolTest, ConcurrentSchedulers) {
  ThreadPool pool(3, "strata:test");
  std::atomic<int> count{0};
  std::vector<std::thread> producers;
  for (int t = 0; t < 4; t++) {
    producers.emplace_back([&] {
      for (int i = 0; i < 500; i++) pool.Schedule([&count] { count++; });
    });
  }
  for (auto& p : producers) p.join();
  pool.WaitForJobsAndJoinAllThreads();
  EXPECT_EQ(2000, count.load());
}

}  // namespace

TEST(ThreadPoolTest, ChildOfForkRunsJobsOnThreadsOfItsOwn) {
  // The parent's worker is running (idle) when the process forks; the
  // child's pool must not wait for that thread, which the child lacks.
  if (test::kThreadSanitizer)
    GTEST_SKIP() << "TSan forbids threads in a multi-threaded fork's child";
  ThreadPool pool(1, "fork");
  std::atomic<int> ran{0};
  pool.Schedule([&] { ran++; });
  while (ran.load() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  // Let the worker go back to waiting (releasing the pool's mutex).
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  fflush(nullptr);
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    std::atomic<bool> child_ran{false};
    pool.Schedule([&] { child_ran = true; });
    for (int i = 0; i < 5000 && !child_ran.load(); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    _exit(child_ran.load() ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(pid, waitpid(pid, &status, 0));
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(0, WEXITSTATUS(status)) << "the child's job never ran";
  pool.Schedule([&] { ran++; });
  pool.WaitForJobsAndJoinAllThreads();
  EXPECT_EQ(2, ran.load());
}

}  // namespace strata
