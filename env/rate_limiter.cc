// GenericRateLimiter and NewGenericRateLimiter (see env/rate_limiter.h).
#include "env/rate_limiter.h"

#include <algorithm>
#include <ctime>
#include <limits>

#include "util/stop_watch.h"

namespace strata {

size_t RateLimiter::RequestToken(size_t bytes, size_t alignment, Env::IOPriority io_priority,
                                 Statistics* stats, OpType op_type) {
  if (io_priority >= Env::IO_TOTAL || !IsRateLimited(op_type)) return bytes;
  bytes = std::min(bytes, static_cast<size_t>(GetSingleBurstBytes()));
  if (alignment > 0) {
    // Direct I/O moves whole pages: at least one, even past a burst.
    bytes = std::max(alignment, bytes - bytes % alignment);
  }
  Request(static_cast<int64_t>(bytes), io_priority, stats);
  return bytes;
}

struct GenericRateLimiter::Req {
  Req(int64_t n, Mutex* mu) : request_bytes(n), bytes(n), cv(mu) {}
  int64_t request_bytes;  // still to grant
  const int64_t bytes;    // asked for
  CondVar cv;
  bool granted = false;
};

GenericRateLimiter::GenericRateLimiter(int64_t rate_bytes_per_sec, int64_t refill_period_us,
                                       int32_t fairness, Mode mode,
                                       std::shared_ptr<SystemClock> clock, bool auto_tuned)
    : RateLimiter(mode),
      refill_period_us_(refill_period_us),
      clock_(std::move(clock)),
      fairness_(std::min<int32_t>(fairness, 100)),
      auto_tuned_(auto_tuned),
      max_bytes_per_sec_(rate_bytes_per_sec),
      rate_bytes_per_sec_(auto_tuned ? rate_bytes_per_sec / 2 : rate_bytes_per_sec),
      refill_bytes_per_period_(0),
      rnd_(static_cast<uint32_t>(time(nullptr))) {
  // relaxed: construction; nothing else sees the object yet.
  refill_bytes_per_period_.store(
      RefillBytesPerPeriod(rate_bytes_per_sec_.load(std::memory_order_relaxed)),
      std::memory_order_relaxed);
  MutexLock l(&mu_);
  next_refill_us_ = NowMicrosMonotonic();
  tuned_time_us_ = next_refill_us_;
}

int64_t GenericRateLimiter::RefillBytesPerPeriod(int64_t rate_bytes_per_sec) const {
  if (std::numeric_limits<int64_t>::max() / rate_bytes_per_sec < refill_period_us_) {
    return std::numeric_limits<int64_t>::max() / 1000000;  // large enough, no overflow
  }
  return rate_bytes_per_sec * refill_period_us_ / 1000000;
}

void GenericRateLimiter::SetBytesPerSecond(int64_t bytes_per_second) {
  MutexLock l(&mu_);
  SetBytesPerSecondLocked(bytes_per_second);
}

void GenericRateLimiter::SetBytesPerSecondLocked(int64_t bytes_per_second) {
  if (bytes_per_second <= 0) return;  // REQUIRES > 0; ignored in release builds
  // relaxed: the getters read single values; Request reads them under mu_.
  rate_bytes_per_sec_.store(bytes_per_second, std::memory_order_relaxed);
  refill_bytes_per_period_.store(RefillBytesPerPeriod(bytes_per_second), std::memory_order_relaxed);
}

void GenericRateLimiter::Request(const int64_t bytes_in, const Env::IOPriority pri,
                                 Statistics* stats) {
  if (pri < Env::IO_LOW || pri >= Env::IO_TOTAL) return;  // not limited
  const int64_t bytes = std::max<int64_t>(0, bytes_in);
  MutexLock l(&mu_);
  if (auto_tuned_) {
    constexpr int64_t kRefillsPerTune = 100;
    if (NowMicrosMonotonic() - tuned_time_us_ >=
        static_cast<uint64_t>(kRefillsPerTune * refill_period_us_)) {
      TuneLocked();
    }
  }
  ++total_requests_[pri];
  if (available_bytes_ >= bytes) {
    // Nobody is queued when there are bytes left: a refill grants queued
    // requests before anything is left over.
    available_bytes_ -= bytes;
    total_bytes_through_[pri] += bytes;
    return;
  }
  Req r(bytes, &mu_);
  queue_[pri].push_back(&r);
  do {
    const uint64_t now = NowMicrosMonotonic();
    if (now < next_refill_us_) {
      if (wait_until_refill_pending_) {
        // Another thread sleeps until the refill; it (or the thread that
        // refills) wakes us when we are granted or needed.
        r.cv.Wait();
      } else {
        RecordTick(stats, NUMBER_RATE_LIMITER_DRAINS);
        ++num_drains_;
        wait_until_refill_pending_ = true;
        const uint64_t wait = next_refill_us_ - now;
        // Released while sleeping: granting and other requests go on.
        mu_.Unlock();
        clock_->SleepForMicroseconds(static_cast<int>(
            std::min<uint64_t>(wait, static_cast<uint64_t>(std::numeric_limits<int>::max()))));
        mu_.Lock();
        wait_until_refill_pending_ = false;
      }
    } else {
      RefillBytesAndGrantRequestsLocked();
    }
    if (r.granted) {
      // Hand the refill duty to a waiter still queued, if any. Also when
      // this thread was the refill waiter and another thread's refill
      // granted it while it slept: a thread that queued meanwhile saw the
      // waiter's flag and waits on its own variable, and nothing else would
      // wake it.
      for (int i = Env::IO_TOTAL - 1; i >= Env::IO_LOW; --i) {
        if (!queue_[i].empty()) {
          queue_[i].front()->cv.Signal();
          break;
        }
      }
    }
  } while (!r.granted);
}

void GenericRateLimiter::PriorityIterationOrderLocked(Env::IOPriority order[kPriorities]) {
  order[0] = Env::IO_USER;
  const bool high_after_mid_and_low = rnd_.OneIn(static_cast<uint32_t>(fairness_));
  const bool mid_after_low = rnd_.OneIn(static_cast<uint32_t>(fairness_));
  const Env::IOPriority first_of_two = mid_after_low ? Env::IO_LOW : Env::IO_MID;
  const Env::IOPriority second_of_two = mid_after_low ? Env::IO_MID : Env::IO_LOW;
  if (high_after_mid_and_low) {
    order[1] = first_of_two;
    order[2] = second_of_two;
    order[3] = Env::IO_HIGH;
  } else {
    order[1] = Env::IO_HIGH;
    order[2] = first_of_two;
    order[3] = second_of_two;
  }
}

void GenericRateLimiter::RefillBytesAndGrantRequestsLocked() {
  next_refill_us_ = NowMicrosMonotonic() + static_cast<uint64_t>(refill_period_us_);
  // relaxed: see SetBytesPerSecondLocked.
  const int64_t refill = refill_bytes_per_period_.load(std::memory_order_relaxed);
  // What was left over carries into this period (at most one refill more).
  if (available_bytes_ < refill) available_bytes_ += refill;

  Env::IOPriority order[kPriorities];
  PriorityIterationOrderLocked(order);
  for (Env::IOPriority pri : order) {
    std::deque<Req*>* queue = &queue_[pri];
    while (!queue->empty()) {
      Req* next = queue->front();
      if (available_bytes_ < next->request_bytes) {
        // Granted in part: a request larger than what a refill now brings
        // (the rate was lowered) still goes through over several refills.
        next->request_bytes -= available_bytes_;
        available_bytes_ = 0;
        break;
      }
      available_bytes_ -= next->request_bytes;
      next->request_bytes = 0;
      total_bytes_through_[pri] += next->bytes;
      queue->pop_front();
      next->granted = true;
      next->cv.Signal();
    }
  }
}

void GenericRateLimiter::TuneLocked() {
  constexpr int64_t kLowWatermarkPct = 50;
  constexpr int64_t kHighWatermarkPct = 90;
  constexpr int64_t kAdjustFactorPct = 5;
  constexpr int64_t kAllowedRangeFactor = 20;  // floor = max / 20

  const uint64_t prev = tuned_time_us_;
  tuned_time_us_ = NowMicrosMonotonic();
  const int64_t elapsed_intervals =
      static_cast<int64_t>((tuned_time_us_ - prev + static_cast<uint64_t>(refill_period_us_) - 1) /
                           static_cast<uint64_t>(refill_period_us_));
  const int64_t drained_pct = num_drains_ * 100 / std::max<int64_t>(1, elapsed_intervals);
  // relaxed: see SetBytesPerSecondLocked.
  const int64_t prev_rate = rate_bytes_per_sec_.load(std::memory_order_relaxed);
  int64_t new_rate = prev_rate;
  if (drained_pct == 0) {
    new_rate = max_bytes_per_sec_ / kAllowedRangeFactor;
  } else if (drained_pct < kLowWatermarkPct) {
    const int64_t p = std::min(prev_rate, std::numeric_limits<int64_t>::max() / 100);
    new_rate =
        std::max(max_bytes_per_sec_ / kAllowedRangeFactor, p * 100 / (100 + kAdjustFactorPct));
  } else if (drained_pct > kHighWatermarkPct) {
    const int64_t p =
        std::min(prev_rate, std::numeric_limits<int64_t>::max() / (100 + kAdjustFactorPct));
    new_rate = std::min(max_bytes_per_sec_, p * (100 + kAdjustFactorPct) / 100);
  }
  if (new_rate != prev_rate) SetBytesPerSecondLocked(new_rate);
  num_drains_ = 0;
}

int64_t GenericRateLimiter::GetTotalBytesThrough(const Env::IOPriority pri) const {
  MutexLock l(&mu_);
  if (pri >= Env::IO_LOW && pri < Env::IO_TOTAL) return total_bytes_through_[pri];
  int64_t sum = 0;
  for (int64_t v : total_bytes_through_) sum += v;
  return sum;
}

int64_t GenericRateLimiter::GetTotalRequests(const Env::IOPriority pri) const {
  MutexLock l(&mu_);
  if (pri >= Env::IO_LOW && pri < Env::IO_TOTAL) return total_requests_[pri];
  int64_t sum = 0;
  for (int64_t v : total_requests_) sum += v;
  return sum;
}

Status GenericRateLimiter::GetTotalPendingRequests(int64_t* total_pending_requests,
                                                   const Env::IOPriority pri) const {
  MutexLock l(&mu_);
  if (pri >= Env::IO_LOW && pri < Env::IO_TOTAL) {
    *total_pending_requests = static_cast<int64_t>(queue_[pri].size());
  } else {
    int64_t sum = 0;
    for (const auto& q : queue_) sum += static_cast<int64_t>(q.size());
    *total_pending_requests = sum;
  }
  return Status::OK();
}

std::shared_ptr<RateLimiter> NewGenericRateLimiter(int64_t rate_bytes_per_sec,
                                                   int64_t refill_period_us, int32_t fairness,
                                                   RateLimiter::Mode mode, bool auto_tuned,
                                                   std::shared_ptr<SystemClock> clock) {
  if (rate_bytes_per_sec <= 0 || refill_period_us <= 0 || fairness <= 0) return nullptr;
  if (clock == nullptr) clock = SystemClock::Default();
  return std::make_shared<GenericRateLimiter>(rate_bytes_per_sec, refill_period_us, fairness, mode,
                                              std::move(clock), auto_tuned);
}

std::shared_ptr<RateLimiter> NewGenericRateLimiter(int64_t rate_bytes_per_sec,
                                                   int64_t refill_period_us, int32_t fairness,
                                                   RateLimiter::Mode mode, bool auto_tuned) {
  return NewGenericRateLimiter(rate_bytes_per_sec, refill_period_us, fairness, mode, auto_tuned,
                               SystemClock::Default());
}

}  // namespace strata
