// WriteThrottle (see the header).
#include "db/write_throttle.h"

#include <algorithm>
#include <cmath>
#include <thread>

#include "db/column_family.h"
#include "db/version_set.h"
#include "strata/env.h"

namespace strata {

namespace {

constexpr uint64_t kDefaultDelayedWriteRate = 16ull << 20;

double Clamp01(double x) { return std::min(1.0, std::max(0.0, x)); }

}  // namespace

StallPressure WriteStallPressure(const ColumnFamilyData* cfd) {
  const Options& o = cfd->options();
  const Version* v = cfd->current();
  StallPressure sp;
  if (o.disable_auto_compactions || v == nullptr) return sp;
  const int l0 = v->l0_delay_trigger_count();
  const int trigger = std::max(1, o.level0_file_num_compaction_trigger);
  const int slow = o.level0_slowdown_writes_trigger;
  const int stop = std::max(slow, o.level0_stop_writes_trigger);
  if (l0 >= slow) sp.hard = Clamp01(static_cast<double>(l0 - slow + 1) / (stop - slow + 1));
  if (stop > trigger) {
    sp.debt = Clamp01(static_cast<double>(l0 - trigger) / (stop - trigger));
  }
  const uint64_t soft = o.soft_pending_compaction_bytes_limit;
  const uint64_t hard = o.hard_pending_compaction_bytes_limit;
  if (soft > 0) {
    const uint64_t pending = v->EstimatedPendingCompactionBytes();
    // Half the soft limit is the set point.
    sp.debt = std::max(sp.debt, Clamp01(WriteThrottle::kSetPoint * 2 *
                                        static_cast<double>(pending) / static_cast<double>(soft)));
    if (pending >= soft) {
      const double span = hard > soft ? static_cast<double>(hard - soft) : 0;
      sp.hard =
          std::max(sp.hard, span > 0 ? Clamp01(static_cast<double>(pending - soft) / span) : 1.0);
    }
  }
  return sp;
}

WriteThrottle::WriteThrottle(SystemClock* clock, uint64_t delayed_write_rate)
    : clock_(clock),
      real_clock_(clock == SystemClock::Default().get()),
      delayed_write_rate_(delayed_write_rate) {}

uint64_t WriteThrottle::base_rate() const {
  return static_cast<uint64_t>(base_.load(std::memory_order_relaxed));
}

uint64_t WriteThrottle::debt_pace() const {
  return static_cast<uint64_t>(debt_pace_.load(std::memory_order_relaxed));
}

void WriteThrottle::Update(StallPressure pressure, bool watch_memtables) {
  const uint64_t now = clock_->NowNanos() / 1000;
  const uint64_t bytes = ingested_.load(std::memory_order_relaxed);
  std::lock_guard<std::mutex> l(update_mu_);
  const bool was_active = Active();
  if (sample_start_micros_ == 0 || was_active) {
    // Paced intervals measure the throttle, not the writers.
    sample_start_micros_ = now;
    sample_start_bytes_ = bytes;
  } else if (now - sample_start_micros_ >= kSampleMicros) {
    const double rate = static_cast<double>(bytes - sample_start_bytes_) * 1e6 /
                        static_cast<double>(now - sample_start_micros_);
    // A decaying maximum: a faster sample replaces the base at once; the
    // base otherwise falls by e every kBaseDecayMicros, so an interval in
    // which the writers paused does not make it a crawl, while writers
    // that really slowed down bring it down within seconds.
    const double old = base_.load(std::memory_order_relaxed);
    const double decayed =
        old * std::exp(-static_cast<double>(now - sample_start_micros_) / kBaseDecayMicros);
    base_.store(std::max(rate, decayed), std::memory_order_relaxed);
    sample_start_micros_ = now;
    sample_start_bytes_ = bytes;
  }

  // The debt pace: starts at the base rate when the debt passes the set
  // point, then moves by exp(gain * seconds), down while the debt is above
  // the set point and up (more slowly) while it is below, until it is back
  // at the base rate with the debt below the set point.
  const double base = BaseRate();
  double pace = debt_pace_.load(std::memory_order_relaxed);
  const double seconds =
      std::min(1.0, static_cast<double>(now - std::min(now, last_update_micros_)) / 1e6);
  last_update_micros_ = now;
  if (pace == 0) {
    if (pressure.debt > kSetPoint) pace = base;
  } else {
    const double error = kSetPoint - pressure.debt;
    pace *= std::exp((error > 0 ? kGainUp : kGainDown) * error * seconds);
    pace = std::max(kMinRate, pace);
    if (pace >= base && error >= 0) pace = 0;
    pace = std::min(pace, base);
  }
  debt_pace_.store(pace, std::memory_order_relaxed);
  pressure_.store(pressure.hard, std::memory_order_relaxed);
  watch_memtables_.store(watch_memtables, std::memory_order_release);
  const bool active = pressure.hard > 0 || watch_memtables || pace > 0;
  if (!active) rate_.store(0, std::memory_order_relaxed);
  // Time before the pacing starts is not idle time to bank: the first
  // paced group waits for its whole slot.
  if (active && !was_active) restart_timeline_.store(true, std::memory_order_relaxed);
  active_.store(active, std::memory_order_release);
}

double WriteThrottle::BaseRate() const {
  const uint64_t configured_rate = delayed_write_rate_.load(std::memory_order_relaxed);
  const double configured =
      static_cast<double>(configured_rate != 0 ? configured_rate : kDefaultDelayedWriteRate);
  // Before any measurement, delayed_write_rate; when it is set, it caps the
  // measured rate (the user asked for no more than that under pressure).
  const double base = base_.load(std::memory_order_relaxed);
  if (base <= 0) return configured;
  return configured_rate != 0 ? std::min(base, configured) : base;
}

double WriteThrottle::RateFor(double p) const {
  const double q = 1.0 - std::min(std::max(p, 0.0), 1.0);
  return std::max(kMinRate, BaseRate() * q * q);
}

uint64_t WriteThrottle::Pace(uint64_t bytes, double memtable_pressure) {
  const double p = std::max(pressure_.load(std::memory_order_relaxed), memtable_pressure);
  const double pace = debt_pace_.load(std::memory_order_relaxed);
  if (p <= 0 && pace <= 0) return 0;
  double rate = p > 0 ? RateFor(p) : pace;
  if (pace > 0) rate = std::min(rate, pace);
  rate_.store(static_cast<uint64_t>(rate), std::memory_order_relaxed);

  // Nanoseconds: a small group's slot is a few microseconds, and rounding
  // it to whole ones would be off by a quarter.
  const uint64_t cost = static_cast<uint64_t>(static_cast<double>(bytes) * 1e9 / rate);
  const uint64_t bank = kBankMicros * 1000;
  uint64_t now = clock_->NowNanos();
  uint64_t slot;
  {
    std::lock_guard<std::mutex> l(pace_mu_);
    if (restart_timeline_.exchange(false, std::memory_order_relaxed)) next_nanos_ = now;
    // Idle time counts for at most kBankMicros.
    next_nanos_ = std::max(next_nanos_, now > bank ? now - bank : 0);
    next_nanos_ += cost;
    slot = next_nanos_;
  }
  if (slot <= now) return 0;
  const uint64_t start = now;
  while (now < slot) {
    const uint64_t left = (slot - now + 999) / 1000;  // micros
    if (!real_clock_ || left > kSpinMicros) {
      const uint64_t nap = real_clock_ ? left - kSpinMicros / 2 : left;
      clock_->SleepForMicroseconds(static_cast<int>(std::min<uint64_t>(nap, 1000000)));
    } else {
      std::this_thread::yield();
    }
    now = clock_->NowNanos();
  }
  return (now - start) / 1000;
}

}  // namespace strata
