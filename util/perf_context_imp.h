// The counting sites of PerfContext and IOStatsContext (internal).
//
// Every macro first reads the thread's perf level (one thread-local load)
// and branches; at kDisable, the default, that is all it costs: no clock
// read, no allocation, no store.
//
//   PERF_COUNTER_ADD(field, n)    perf_context.field += n   (kEnableCount+)
//   PERF_TIMER_GUARD(field)       times the rest of the scope into field
//                                 (kEnableTimeExceptForMutex+)
//   PERF_TIMER_MUTEX_GUARD(field) the same, only at kEnableTime (DB mutex)
//   PERF_TIMER_STOP(field) / PERF_TIMER_START(field) pause and resume a
//                                 guard of the same scope
//   IOSTATS_ADD(field, n), IOSTATS_TIMER_GUARD(field) the same for the
//                                 IOStatsContext
//
// Timers read std::chrono::steady_clock (CLOCK_MONOTONIC, the clock behind
// SystemClock::NowNanos) directly: util/ sits below env/, and a per-thread
// profiler has no use for a mock clock.
// Thread-safety: each thread touches only its own contexts.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "strata/iostats_context.h"
#include "strata/perf_context.h"
#include "strata/perf_level.h"

// The TLS model of the per-thread level: the compiler's default. An
// initial-exec variable would make the shared library's whole TLS block
// static (DF_STATIC_TLS), and then libstrata.so could not be dlopen()ed
// (Python's ctypes, other language bindings): "cannot allocate memory in
// static TLS block".
#define STRATA_PERF_TLS

namespace strata {
namespace perf_internal {

extern STRATA_PERF_TLS thread_local PerfLevel tls_perf_level;
extern thread_local PerfContext tls_perf_context;
extern thread_local IOStatsContext tls_iostats_context;

inline uint64_t PerfNowNanos() {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                   std::chrono::steady_clock::now().time_since_epoch())
                                   .count());
}

// Adds the time between Start() and Stop() (or destruction) to *metric when
// the thread's level is at least `min_level` at Start().
class PerfStepTimer {
 public:
  PerfStepTimer(uint64_t* metric, PerfLevel min_level) : metric_(metric), min_level_(min_level) {}
  ~PerfStepTimer() { Stop(); }
  PerfStepTimer(const PerfStepTimer&) = delete;
  PerfStepTimer& operator=(const PerfStepTimer&) = delete;

  void Start() {
    if (tls_perf_level >= min_level_) start_ = PerfNowNanos();
  }
  void Stop() {
    if (start_ != 0) {
      *metric_ += PerfNowNanos() - start_;
      start_ = 0;
    }
  }

 private:
  uint64_t* const metric_;
  const PerfLevel min_level_;
  uint64_t start_ = 0;
};

// Drops the trailing ", " of a "name = value, " list.
inline void TrimTrailingSeparator(std::string* s) {
  const size_t end = s->find_last_not_of(", ");
  s->erase(end == std::string::npos ? 0 : end + 1);
}

}  // namespace perf_internal

using perf_internal::TrimTrailingSeparator;

}  // namespace strata

#define PERF_COUNTER_ADD(metric, value)                                      \
  do {                                                                       \
    if (::strata::perf_internal::tls_perf_level >= ::strata::kEnableCount) { \
      ::strata::perf_internal::tls_perf_context.metric += (value);           \
    }                                                                        \
  } while (0)

#define PERF_TIMER_GUARD(metric)                                                               \
  ::strata::perf_internal::PerfStepTimer perf_step_timer_##metric(                             \
      &::strata::perf_internal::tls_perf_context.metric, ::strata::kEnableTimeExceptForMutex); \
  perf_step_timer_##metric.Start()

#define PERF_TIMER_MUTEX_GUARD(metric)                                           \
  ::strata::perf_internal::PerfStepTimer perf_step_timer_##metric(               \
      &::strata::perf_internal::tls_perf_context.metric, ::strata::kEnableTime); \
  perf_step_timer_##metric.Start()

#define PERF_TIMER_STOP(metric) perf_step_timer_##metric.Stop()
#define PERF_TIMER_START(metric) perf_step_timer_##metric.Start()

#define IOSTATS_ADD(metric, value)                                           \
  do {                                                                       \
    if (::strata::perf_internal::tls_perf_level >= ::strata::kEnableCount && \
        !::strata::perf_internal::tls_iostats_context.disable_iostats) {     \
      ::strata::perf_internal::tls_iostats_context.metric += (value);        \
    }                                                                        \
  } while (0)

#define IOSTATS_TIMER_GUARD(metric)                                                               \
  ::strata::perf_internal::PerfStepTimer iostats_step_timer_##metric(                             \
      &::strata::perf_internal::tls_iostats_context.metric, ::strata::kEnableTimeExceptForMutex); \
  iostats_step_timer_##metric.Start()
