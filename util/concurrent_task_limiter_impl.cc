// ConcurrentTaskLimiterImpl (util/concurrent_task_limiter_impl.h).
#include "util/concurrent_task_limiter_impl.h"

#include <cassert>

namespace strata {

ConcurrentTaskLimiter::~ConcurrentTaskLimiter() = default;

ConcurrentTaskLimiterImpl::~ConcurrentTaskLimiterImpl() {
  assert(outstanding_.load(std::memory_order_relaxed) == 0);
}

void ConcurrentTaskLimiterImpl::SetMaxOutstandingTask(int32_t limit) {
  max_.store(limit, std::memory_order_relaxed);
}

void ConcurrentTaskLimiterImpl::ResetMaxOutstandingTask() {
  max_.store(-1, std::memory_order_relaxed);
}

int32_t ConcurrentTaskLimiterImpl::GetOutstandingTask() const {
  return outstanding_.load(std::memory_order_relaxed);
}

std::unique_ptr<TaskLimiterToken> ConcurrentTaskLimiterImpl::TryAcquire(bool force) {
  const int32_t limit = max_.load(std::memory_order_relaxed);
  int32_t tasks = outstanding_.load(std::memory_order_relaxed);
  while (force || limit < 0 || tasks < limit) {
    // Relaxed: the count guards no other data.
    if (outstanding_.compare_exchange_weak(tasks, tasks + 1, std::memory_order_relaxed)) {
      return std::make_unique<TaskLimiterToken>(this);
    }
  }
  return nullptr;
}

TaskLimiterToken::~TaskLimiterToken() {
  limiter_->outstanding_.fetch_sub(1, std::memory_order_relaxed);
}

std::unique_ptr<ConcurrentTaskLimiter> NewConcurrentTaskLimiter(const std::string& name,
                                                                int32_t limit) {
  return std::make_unique<ConcurrentTaskLimiterImpl>(name, limit);
}

}  // namespace strata
