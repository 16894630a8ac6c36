// PeriodicTask (see the header).
#include "db/periodic_task.h"

#include <string>
#include <utility>

namespace strata {

void PeriodicTask::Start(SystemClock* clock, uint64_t period_micros, std::function<void()> fn) {
  clock_ = clock;
  period_micros_ = period_micros;
  fn_ = std::move(fn);
  {
    MutexLock l(&mu_);
    stop_ = false;
  }
  thread_ = std::thread([this] { Loop(); });
}

void PeriodicTask::Stop() {
  {
    MutexLock l(&mu_);
    stop_ = true;
    cv_.SignalAll();
  }
  if (thread_.joinable()) thread_.join();
}

uint64_t PeriodicTask::runs() const {
  MutexLock l(&mu_);
  return runs_;
}

void PeriodicTask::Loop() {
  MutexLock l(&mu_);
  uint64_t next = clock_->NowMicros() + period_micros_;
  while (!stop_) {
    const uint64_t now = clock_->NowMicros();
    if (now < next) {
      // Woken early by Stop, spuriously, or by a clock that moved: recheck.
      cv_.TimedWaitMicros(next - now);
      continue;
    }
    // The function runs without the lock, so Stop can be asked meanwhile;
    // it then waits in join for this run to end.
    mu_.Unlock();
    fn_();
    mu_.Lock();
    runs_++;
    next = clock_->NowMicros() + period_micros_;
  }
}

void DumpStatsToLog(DB* db, Logger* logger, const Statistics* stats) {
  if (logger == nullptr) return;
  std::string text;
  if (!db->GetProperty(db->DefaultColumnFamily(), "rocksdb.stats", &text)) text.clear();
  Log(logger, "------- DUMPING STATS -------");
  Log(logger, "%s", text.c_str());
  if (stats != nullptr) Log(logger, "STATISTICS:\n %s", stats->ToString().c_str());
}

}  // namespace strata
