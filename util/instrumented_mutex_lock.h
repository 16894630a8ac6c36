// InstrumentedMutexLock: MutexLock for the DB mutex on user-call paths, which
// also measures how long the acquisition waited -- into
// PerfContext::db_mutex_lock_nanos (perf level kEnableTime) and the
// DB_MUTEX_WAIT_MICROS ticker (stats level kAll). At lower levels it reads
// no clock.
// Thread-safety: as MutexLock.
#pragma once

#include <cstdint>

#include "strata/env.h"
#include "strata/statistics.h"
#include "util/mutex.h"
#include "util/perf_context_imp.h"
#include "util/stop_watch.h"

namespace strata {

class SCOPED_CAPABILITY InstrumentedMutexLock {
 public:
  // clock must be non-null when stats is; stats may be null.
  InstrumentedMutexLock(Mutex* mu, SystemClock* clock, Statistics* stats) ACQUIRE(mu) : mu_(mu) {
    PERF_TIMER_MUTEX_GUARD(db_mutex_lock_nanos);
    const bool timed = MutexTimersEnabled(stats);
    const uint64_t start = timed ? clock->NowNanos() : 0;
    mu_->Lock();
    if (timed) stats->recordTick(DB_MUTEX_WAIT_MICROS, (clock->NowNanos() - start) / 1000);
  }
  ~InstrumentedMutexLock() RELEASE() { mu_->Unlock(); }
  InstrumentedMutexLock(const InstrumentedMutexLock&) = delete;
  InstrumentedMutexLock& operator=(const InstrumentedMutexLock&) = delete;

 private:
  Mutex* const mu_;
};

}  // namespace strata
