// Mutex, MutexLock and CondVar: std::mutex and std::condition_variable with
// clang thread-safety annotations, so lock discipline is checked at compile
// time (-Wthread-safety). In debug builds (no NDEBUG) a Mutex also records
// its owning thread, and AssertHeld aborts when the caller does not hold it:
// the run-time half of the check, for the paths the compiler cannot follow
// (a mutex reached through another object's pointer).
// Thread-safety: thread-safe (these are the synchronization primitives).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

#include "util/thread_annotations.h"

namespace strata {

class CondVar;

class CAPABILITY("mutex") Mutex {
 public:
  Mutex() = default;
  Mutex(const Mutex&) = delete;
  Mutex& operator=(const Mutex&) = delete;

  void Lock() ACQUIRE() {
    mu_.lock();
    SetOwner();
  }
  void Unlock() RELEASE() {
    ClearOwner();
    mu_.unlock();
  }
  bool TryLock() TRY_ACQUIRE(true) {
    if (!mu_.try_lock()) return false;
    SetOwner();
    return true;
  }
  // Asserts, for the analysis and (debug builds) at run time, that the
  // calling thread holds the mutex.
  void AssertHeld() ASSERT_CAPABILITY(this) {
#ifndef NDEBUG
    // relaxed: only the owner itself can have stored its own id; any other
    // value (another thread's, or none) fails the check either way.
    if (owner_.load(std::memory_order_relaxed) != std::this_thread::get_id()) {
      AssertHeldFailed();
    }
#endif
  }

 private:
  friend class CondVar;
#ifndef NDEBUG
  void SetOwner() { owner_.store(std::this_thread::get_id(), std::memory_order_relaxed); }
  void ClearOwner() { owner_.store(std::thread::id(), std::memory_order_relaxed); }
  [[noreturn]] static void AssertHeldFailed();
  std::atomic<std::thread::id> owner_{};
#else
  void SetOwner() {}
  void ClearOwner() {}
#endif
  std::mutex mu_;
};

class SCOPED_CAPABILITY MutexLock {
 public:
  explicit MutexLock(Mutex* mu) ACQUIRE(mu) : mu_(mu) { mu_->Lock(); }
  ~MutexLock() RELEASE() { mu_->Unlock(); }
  MutexLock(const MutexLock&) = delete;
  MutexLock& operator=(const MutexLock&) = delete;

 private:
  Mutex* const mu_;
};

class CondVar {
 public:
  explicit CondVar(Mutex* mu) : mu_(mu) {}
  CondVar(const CondVar&) = delete;
  CondVar& operator=(const CondVar&) = delete;

  // REQUIRES: the mutex given to the constructor is held; it is released
  // while waiting. (Not annotated: clang's analysis cannot name the caller's
  // mutex through this object.)
  void Wait() {
    mu_->AssertHeld();
    mu_->ClearOwner();
    std::unique_lock<std::mutex> lock(mu_->mu_, std::adopt_lock);
    cv_.wait(lock);
    lock.release();
    mu_->SetOwner();
  }
  // As Wait; returns true on timeout.
  bool TimedWaitMicros(uint64_t micros) {
    mu_->AssertHeld();
    mu_->ClearOwner();
    std::unique_lock<std::mutex> lock(mu_->mu_, std::adopt_lock);
    bool timed_out =
        cv_.wait_for(lock, std::chrono::microseconds(micros)) == std::cv_status::timeout;
    lock.release();
    mu_->SetOwner();
    return timed_out;
  }
  void Signal() { cv_.notify_one(); }
  void SignalAll() { cv_.notify_all(); }

 private:
  Mutex* const mu_;
  std::condition_variable cv_;
};

}  // namespace strata
