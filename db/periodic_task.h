// PeriodicTask: runs a function every `period` on a thread of its own until
// stopped -- the DB's stats dump (DBOptions::stats_dump_period_sec) runs on
// one.
//
// Stop() wakes the thread at once (it never sleeps through a stop), waits
// for a run in progress to finish and joins; after it returns the function
// is not running and never runs again. The first run is one period after
// Start().
//
// Thread-safety: Start and Stop are called by the owner (not concurrently
// with each other); the function runs on the task's thread.
#pragma once

#include <cstdint>
#include <functional>
#include <thread>

#include "strata/db.h"
#include "strata/env.h"
#include "strata/statistics.h"
#include "util/mutex.h"

namespace strata {

class PeriodicTask {
 public:
  PeriodicTask() = default;
  ~PeriodicTask() { Stop(); }
  PeriodicTask(const PeriodicTask&) = delete;
  PeriodicTask& operator=(const PeriodicTask&) = delete;

  // Starts the thread. period_micros > 0. clock measures the period (the
  // wait itself is a timed condition wait, so Stop cuts it short).
  // REQUIRES: not started, or stopped.
  void Start(SystemClock* clock, uint64_t period_micros, std::function<void()> fn);
  // Idempotent.
  void Stop();
  // Runs completed so far.
  uint64_t runs() const;

 private:
  void Loop();

  SystemClock* clock_ = nullptr;
  uint64_t period_micros_ = 0;
  std::function<void()> fn_;
  std::thread thread_;

  mutable Mutex mu_;
  CondVar cv_{&mu_};
  bool stop_ GUARDED_BY(mu_) = false;
  uint64_t runs_ GUARDED_BY(mu_) = 0;
};

// One stats dump, as RocksDB writes it to the info LOG: the line
// "------- DUMPING STATS -------", the DB's "rocksdb.stats" property text,
// then, if stats is non-null, "STATISTICS:" and stats->ToString(). Does
// nothing without a logger.
void DumpStatsToLog(DB* db, Logger* logger, const Statistics* stats);

}  // namespace strata
