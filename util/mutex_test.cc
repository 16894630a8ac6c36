// Mutex: lock/unlock/try-lock, condition waits, and the debug-build
// AssertHeld owner check (a thread that does not hold the mutex aborts).
#include "util/mutex.h"

#include <gtest/gtest.h>

#include <thread>

namespace strata {
namespace {

TEST(MutexTest, LockTryLockAndCondVar) {
  Mutex mu;
  CondVar cv(&mu);
  bool ready = false;
  mu.Lock();
  mu.AssertHeld();
  std::thread other([&] {
    MutexLock l(&mu);  // acquired once the main thread waits
    mu.AssertHeld();
    ready = true;
    cv.Signal();
  });
  while (!ready) cv.Wait();  // releases the mutex while waiting
  mu.AssertHeld();           // the owner is restored after the wait
  mu.Unlock();
  other.join();
  ASSERT_TRUE(mu.TryLock());
  mu.AssertHeld();
  std::thread contender([&] { EXPECT_FALSE(mu.TryLock()); });
  contender.join();
  mu.Unlock();
}

TEST(MutexTest, TimedWaitRestoresOwner) {
  Mutex mu;
  CondVar cv(&mu);
  MutexLock l(&mu);
  EXPECT_TRUE(cv.TimedWaitMicros(1000));
  mu.AssertHeld();
}

#ifndef NDEBUG
TEST(MutexDeathTest, AssertHeldAbortsWhenNotHeld) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  Mutex mu;
  EXPECT_DEATH(mu.AssertHeld(), "does not hold the mutex");
  mu.Lock();
  EXPECT_DEATH(
      {
        std::thread t([&] { mu.AssertHeld(); });
        t.join();
      },
      "does not hold the mutex");
  mu.Unlock();
}
#endif

}  // namespace
}  // namespace strata
