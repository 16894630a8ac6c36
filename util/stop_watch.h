// Recording helpers for Statistics (internal): null-tolerant, and honouring
// the Statistics' StatsLevel so that nothing reads a clock when timers are
// off.
//
//   RecordTick(stats, ticker, n)            a counter
//   RecordInHistogram(stats, histogram, v)  a size or count distribution
//   StopWatch sw(clock, stats, histogram)   the scope's duration in micros
//   TimersEnabled(stats) / DetailedTimersEnabled(stats)  whether a site
//                                           that times by hand may read a clock
// Thread-safety: thread-safe (Statistics is).
#pragma once

#include <cstdint>

#include "strata/env.h"
#include "strata/statistics.h"

namespace strata {

inline void RecordTick(Statistics* stats, uint32_t ticker, uint64_t n = 1) {
  if (stats != nullptr) stats->recordTick(ticker, n);
}

inline void RecordInHistogram(Statistics* stats, uint32_t histogram, uint64_t value) {
  if (stats != nullptr) stats->recordInHistogram(histogram, value);
}

// Timers (histograms of durations, time tickers) are kept from
// kExceptDetailedTimers up.
inline bool TimersEnabled(const Statistics* stats) {
  return stats != nullptr && stats->get_stats_level() > kExceptTimers;
}

// Compression and decompression time: kExceptTimeForMutex and up.
inline bool DetailedTimersEnabled(const Statistics* stats) {
  return stats != nullptr && stats->get_stats_level() > kExceptDetailedTimers;
}

// DB mutex wait time: kAll only.
inline bool MutexTimersEnabled(const Statistics* stats) {
  return stats != nullptr && stats->get_stats_level() > kExceptTimeForMutex;
}

// Records the scope's duration (micros) into a histogram, and optionally
// adds it to *elapsed and to a ticker. Reads the clock only when
// TimersEnabled(stats), or when elapsed is wanted regardless.
class StopWatch {
 public:
  static constexpr uint32_t kNoTicker = TICKER_ENUM_MAX;

  StopWatch(SystemClock* clock, Statistics* stats, uint32_t histogram, uint64_t* elapsed = nullptr,
            uint32_t ticker = kNoTicker)
      : clock_(clock),
        stats_(stats),
        histogram_(histogram),
        ticker_(ticker),
        elapsed_(elapsed),
        enabled_(TimersEnabled(stats) && stats->HistEnabledForType(histogram)),
        start_(enabled_ || elapsed != nullptr ? clock->NowNanos() : 0) {}

  ~StopWatch() {
    if (!enabled_ && elapsed_ == nullptr) return;
    const uint64_t micros = (clock_->NowNanos() - start_) / 1000;  // monotonic
    if (elapsed_ != nullptr) *elapsed_ += micros;
    if (enabled_) {
      stats_->reportTimeToHistogram(histogram_, micros);
      if (ticker_ != kNoTicker) stats_->recordTick(ticker_, micros);
    }
  }

  StopWatch(const StopWatch&) = delete;
  StopWatch& operator=(const StopWatch&) = delete;

 private:
  SystemClock* const clock_;
  Statistics* const stats_;
  const uint32_t histogram_;
  const uint32_t ticker_;
  uint64_t* const elapsed_;
  const bool enabled_;
  const uint64_t start_;
};

}  // namespace strata
