// GenericRateLimiter: the token bucket behind NewGenericRateLimiter (see
// strata/rate_limiter.h for the contract: refills, priorities, fairness,
// auto-tuning).
//
// How waiting works: a request that does not fit joins its priority's queue.
// One waiter at a time (the "refill waiter") sleeps on the clock until the
// next refill time, with the mutex released; the others wait on their own
// condition variable. Whoever finds the refill time passed refills the
// bucket and grants queued requests in priority order; a thread whose own
// request was granted wakes the front request of the highest non-empty
// queue, so some waiter is always responsible for the next refill. Sleeping
// through SystemClock (not a timed condition wait) is what lets tests drive
// the limiter with a mock clock.
//
// Thread-safety: thread-safe.
// Invariants (under mu_):
//  1. a request not yet granted is in exactly one queue; a granted one in
//     none;
//  2. available_bytes_ never exceeds one refill's bytes plus what was left
//     over from the refill before (carry-over, as RocksDB);
//  3. at most one thread is the refill waiter (wait_until_refill_pending_).
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>

#include "strata/rate_limiter.h"
#include "util/mutex.h"
#include "util/random.h"
#include "util/thread_annotations.h"

namespace strata {

class GenericRateLimiter final : public RateLimiter {
 public:
  GenericRateLimiter(int64_t rate_bytes_per_sec, int64_t refill_period_us, int32_t fairness,
                     Mode mode, std::shared_ptr<SystemClock> clock, bool auto_tuned);
  ~GenericRateLimiter() override = default;

  void SetBytesPerSecond(int64_t bytes_per_second) override EXCLUDES(mu_);
  using RateLimiter::Request;
  void Request(const int64_t bytes, const Env::IOPriority pri, Statistics* stats) override
      EXCLUDES(mu_);
  int64_t GetSingleBurstBytes() const override {
    // relaxed: a plain value; callers need no ordering with other state.
    return refill_bytes_per_period_.load(std::memory_order_relaxed);
  }
  int64_t GetTotalBytesThrough(const Env::IOPriority pri = Env::IO_TOTAL) const override
      EXCLUDES(mu_);
  int64_t GetTotalRequests(const Env::IOPriority pri = Env::IO_TOTAL) const override EXCLUDES(mu_);
  Status GetTotalPendingRequests(int64_t* total_pending_requests,
                                 const Env::IOPriority pri = Env::IO_TOTAL) const override
      EXCLUDES(mu_);
  int64_t GetBytesPerSecond() const override {
    // relaxed: as GetSingleBurstBytes.
    return rate_bytes_per_sec_.load(std::memory_order_relaxed);
  }

 private:
  struct Req;
  static constexpr int kPriorities = Env::IO_TOTAL;

  uint64_t NowMicrosMonotonic() { return clock_->NowNanos() / 1000; }
  void SetBytesPerSecondLocked(int64_t bytes_per_second) REQUIRES(mu_);
  int64_t RefillBytesPerPeriod(int64_t rate_bytes_per_sec) const;
  void RefillBytesAndGrantRequestsLocked() REQUIRES(mu_);
  // The order queues are served in at this refill (IO_USER always first).
  void PriorityIterationOrderLocked(Env::IOPriority order[kPriorities]) REQUIRES(mu_);
  void TuneLocked() REQUIRES(mu_);

  // Immutable after construction.
  const int64_t refill_period_us_;
  const std::shared_ptr<SystemClock> clock_;
  const int32_t fairness_;
  const bool auto_tuned_;
  const int64_t max_bytes_per_sec_;  // auto-tuning's ceiling

  // Atomics: written under mu_, read without it by the getters.
  std::atomic<int64_t> rate_bytes_per_sec_;
  std::atomic<int64_t> refill_bytes_per_period_;

  mutable Mutex mu_;
  int64_t available_bytes_ GUARDED_BY(mu_) = 0;
  uint64_t next_refill_us_ GUARDED_BY(mu_);
  bool wait_until_refill_pending_ GUARDED_BY(mu_) = false;
  Random rnd_ GUARDED_BY(mu_);
  int64_t total_requests_[kPriorities] GUARDED_BY(mu_) = {};
  int64_t total_bytes_through_[kPriorities] GUARDED_BY(mu_) = {};
  std::deque<Req*> queue_[kPriorities] GUARDED_BY(mu_);
  int64_t num_drains_ GUARDED_BY(mu_) = 0;  // since the last tuning
  uint64_t tuned_time_us_ GUARDED_BY(mu_);
};

}  // namespace strata
