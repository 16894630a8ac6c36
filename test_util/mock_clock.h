// A wall clock tests can move forward: GetCurrentTime (unix seconds, what
// file ages and time-based compaction read) is the real time plus an
// offset the test sets; NowMicros, NowNanos and sleeping stay real, so
// timers, waits and statistics behave as usual.
//
// Thread-safety: thread-safe (the offset is atomic).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "strata/env.h"

namespace strata {
namespace test {

class WallClockOffset final : public SystemClock {
 public:
  WallClockOffset() : base_(SystemClock::Default()) {}
  const char* Name() const override { return "WallClockOffset"; }
  uint64_t NowMicros() override { return base_->NowMicros(); }
  uint64_t NowNanos() override { return base_->NowNanos(); }
  void SleepForMicroseconds(int micros) override { base_->SleepForMicroseconds(micros); }
  Status GetCurrentTime(int64_t* unix_time) override {
    Status s = base_->GetCurrentTime(unix_time);
    // relaxed: a plain value; the test orders its moves by its own calls.
    if (s.ok()) *unix_time += offset_.load(std::memory_order_relaxed);
    return s;
  }
  // Moves the wall time forward by `seconds`.
  void Advance(int64_t seconds) { offset_.fetch_add(seconds, std::memory_order_relaxed); }
  int64_t Now() {
    int64_t t = 0;
    GetCurrentTime(&t).PermitUncheckedError();
    return t;
  }

 private:
  std::shared_ptr<SystemClock> base_;
  std::atomic<int64_t> offset_{0};
};

// An Env on the default file system with a WallClockOffset clock.
inline std::unique_ptr<Env> NewWallClockOffsetEnv(std::shared_ptr<WallClockOffset> clock) {
  return std::make_unique<Env>(Env::Default()->GetFileSystemPtr(), std::move(clock));
}

}  // namespace test
}  // namespace strata
