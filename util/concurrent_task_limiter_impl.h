// ConcurrentTaskLimiterImpl: the limiter NewConcurrentTaskLimiter makes
// (include/strata/concurrent_task_limiter.h), and the token a compaction
// holds while it runs.
// Thread-safety: thread-safe (two atomics).
// Invariants: outstanding_ counts live tokens; TryAcquire(false) never takes
// it past a cap >= 0 it read.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "strata/concurrent_task_limiter.h"

namespace strata {

class ConcurrentTaskLimiterImpl;

// One slot of a limiter; returns it when destroyed.
class TaskLimiterToken {
 public:
  explicit TaskLimiterToken(ConcurrentTaskLimiterImpl* limiter) : limiter_(limiter) {}
  ~TaskLimiterToken();
  TaskLimiterToken(const TaskLimiterToken&) = delete;
  TaskLimiterToken& operator=(const TaskLimiterToken&) = delete;

 private:
  ConcurrentTaskLimiterImpl* const limiter_;
};

class ConcurrentTaskLimiterImpl final : public ConcurrentTaskLimiter {
 public:
  ConcurrentTaskLimiterImpl(std::string name, int32_t limit)
      : name_(std::move(name)), max_(limit) {}
  ~ConcurrentTaskLimiterImpl() override;

  const std::string& GetName() const override { return name_; }
  void SetMaxOutstandingTask(int32_t limit) override;
  void ResetMaxOutstandingTask() override;
  int32_t GetOutstandingTask() const override;

  // A slot, or null when the cap is reached. force: take one regardless
  // (manual compactions are counted, never held back).
  std::unique_ptr<TaskLimiterToken> TryAcquire(bool force);

 private:
  friend class TaskLimiterToken;
  const std::string name_;
  // Relaxed: the cap and the count are independent hints; the count's
  // compare-exchange is the only synchronization a slot needs.
  std::atomic<int32_t> max_;
  std::atomic<int32_t> outstanding_{0};
};

}  // namespace strata
