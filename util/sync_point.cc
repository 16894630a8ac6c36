#include "util/sync_point.h"

// The registry is compiled only into builds with sync points: without
// them no code calls it (the macros are empty).
#ifdef STRATA_SYNC_POINTS

namespace strata {

SyncPoint* SyncPoint::GetInstance() {
  static SyncPoint* const instance = new SyncPoint();
  return instance;
}

void SyncPoint::LoadDependency(const std::vector<SyncPointPair>& pairs) {
  MutexLock l(&mu_);
  predecessors_.clear();
  for (const SyncPointPair& p : pairs) predecessors_[p.successor].push_back(p.predecessor);
  trace_.clear();
  cv_.SignalAll();
}

void SyncPoint::SetCallBack(const std::string& point, std::function<void(void*)> callback) {
  MutexLock l(&mu_);
  callbacks_[point] = std::move(callback);
}

void SyncPoint::ClearCallBack(const std::string& point) {
  MutexLock l(&mu_);
  while (running_callbacks_ > 0) cv_.Wait();
  callbacks_.erase(point);
}

void SyncPoint::ClearAllCallBacks() {
  MutexLock l(&mu_);
  while (running_callbacks_ > 0) cv_.Wait();
  callbacks_.clear();
}

void SyncPoint::EnableProcessing() {
  MutexLock l(&mu_);
  enabled_.store(true, std::memory_order_release);
}

void SyncPoint::DisableProcessing() {
  MutexLock l(&mu_);
  enabled_.store(false, std::memory_order_release);
  cv_.SignalAll();
}

void SyncPoint::ClearTrace() {
  MutexLock l(&mu_);
  trace_.clear();
}

bool SyncPoint::PredecessorsPassed(const std::string& point) const {
  auto it = predecessors_.find(point);
  if (it == predecessors_.end()) return true;
  for (const std::string& p : it->second) {
    if (trace_.count(p) == 0) return false;
  }
  return true;
}

void SyncPoint::Process(const char* point, void* arg) {
  if (!enabled_.load(std::memory_order_acquire)) return;
  const std::string name(point);
  std::function<void(void*)> callback;
  {
    MutexLock l(&mu_);
    // Relaxed loads under mu_: every store to enabled_ is made under it.
    while (enabled_.load(std::memory_order_relaxed) && !PredecessorsPassed(name)) cv_.Wait();
    if (!enabled_.load(std::memory_order_relaxed)) return;
    auto it = callbacks_.find(name);
    if (it != callbacks_.end()) {
      callback = it->second;
      ++running_callbacks_;
    }
  }
  // The registry's lock is not held while the callback runs (rule 3).
  if (callback) callback(arg);
  MutexLock l(&mu_);
  if (callback) --running_callbacks_;
  trace_.insert(name);
  cv_.SignalAll();
}

}  // namespace strata

#endif  // STRATA_SYNC_POINTS
