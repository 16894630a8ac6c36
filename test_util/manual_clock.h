// A clock that only moves when told: NowMicros/NowNanos read a counter the
// test advances. SleepForMicroseconds either moves the counter itself
// (auto-advance, for one-threaded tests) or blocks until the test has
// advanced the counter past the wake-up time (for tests that line threads up
// before letting time pass) and, while the test keeps the gate shut, until
// it opens it. Used by the rate limiter and delete scheduler tests, so their
// rates are checked without wall time.
//
// Thread-safety: thread-safe.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>

#include "strata/env.h"

namespace strata {
namespace test {

class ManualClock final : public SystemClock {
 public:
  explicit ManualClock(bool auto_advance) : auto_advance_(auto_advance) {}
  const char* Name() const override { return "ManualClock"; }
  uint64_t NowMicros() override {
    std::lock_guard<std::mutex> l(mu_);
    return now_us_;
  }
  uint64_t NowNanos() override { return NowMicros() * 1000; }
  void SleepForMicroseconds(int micros) override {
    std::unique_lock<std::mutex> l(mu_);
    ++sleeps_;
    const uint64_t until = now_us_ + static_cast<uint64_t>(micros < 0 ? 0 : micros);
    if (auto_advance_) {
      now_us_ = until;
      return;
    }
    ++sleepers_;
    cv_.notify_all();
    // A liveness bound, not a speed check: a test that never advances fails
    // instead of hanging.
    cv_.wait_for(l, std::chrono::seconds(60),
                 [&] { return (gate_open_ && now_us_ >= until) || auto_advance_; });
    if (now_us_ < until) now_us_ = until;
    --sleepers_;
  }
  Status GetCurrentTime(int64_t* unix_time) override {
    *unix_time = static_cast<int64_t>(NowMicros() / 1000000);
    return Status::OK();
  }
  // Switches between the two modes; sleepers blocked now wake (advancing).
  void SetAutoAdvance(bool on) {
    std::lock_guard<std::mutex> l(mu_);
    auto_advance_ = on;
    cv_.notify_all();
  }
  // While the gate is shut, sleepers stay asleep even once their time has
  // come (a test acts between time passing and a sleeper waking); opening
  // it wakes those that are due. Open unless shut.
  void SetGateOpen(bool open) {
    std::lock_guard<std::mutex> l(mu_);
    gate_open_ = open;
    cv_.notify_all();
  }
  void Advance(uint64_t micros) {
    std::lock_guard<std::mutex> l(mu_);
    now_us_ += micros;
    cv_.notify_all();
  }
  // Blocks until some thread sleeps on the clock (at most 60 s of real time).
  bool WaitForSleeper() {
    std::unique_lock<std::mutex> l(mu_);
    return cv_.wait_for(l, std::chrono::seconds(60), [&] { return sleepers_ > 0; });
  }
  uint64_t sleeps() {
    std::lock_guard<std::mutex> l(mu_);
    return sleeps_;
  }

 private:
  bool auto_advance_;
  bool gate_open_ = true;
  std::mutex mu_;
  std::condition_variable cv_;
  uint64_t now_us_ = 1000000;
  uint64_t sleeps_ = 0;
  int sleepers_ = 0;
};

}  // namespace test
}  // namespace strata
