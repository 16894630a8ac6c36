#include "util/thread_pool.h"

#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <new>
#include <utility>

namespace strata {

namespace {

// CondVar::Wait is annotated REQUIRES(<the CondVar's own mutex member>),
// which clang cannot match to the pool's mu_ the CondVar was built with; this
// wrapper carries the call past the analysis. REQUIRES: cv's mutex held.
void WaitHeld(CondVar* cv) NO_THREAD_SAFETY_ANALYSIS { cv->Wait(); }

}  // namespace

ThreadPool::ThreadPool(int num_threads, const char* name, PriorityHook hook)
    : name_(name),
      priority_hook_(hook),
      work_cv_(&mu_),
      idle_cv_(&mu_),
      target_(std::max(num_threads, 0)),
      owner_pid_(static_cast<int>(getpid())) {}

void ThreadPool::AdoptAfterForkLocked() {
  const int pid = static_cast<int>(getpid());
  if (pid == owner_pid_) return;
  owner_pid_ = pid;
  if (!workers_.empty()) new std::vector<Worker>(std::move(workers_));  // leaked on purpose
  workers_.clear();
  live_ = 0;
  // The parent's workers were waiting on the condition variables at the
  // fork; in the copy their waiter counts never drain, and glibc's signal can
  // spin on such a variable. Fresh ones are built over the old storage
  // (not destroyed: destroying a condition variable with waiters blocks).
  new (&work_cv_) CondVar(&mu_);
  new (&idle_cv_) CondVar(&mu_);
}

ThreadPool::~ThreadPool() { WaitForJobsAndJoinAllThreads(); }

void ThreadPool::Schedule(std::function<void()> fn) {
  MutexLock l(&mu_);
  AdoptAfterForkLocked();
  queue_.push_back(std::move(fn));
  if (live_ < target_) StartThreadsLocked();
  work_cv_.Signal();
}

void ThreadPool::SetBackgroundThreads(int n) {
  n = std::max(n, 0);
  MutexLock l(&mu_);
  AdoptAfterForkLocked();
  const int old = target_;
  target_ = n;
  if (n > old) {
    // Start at once only if the pool is running; an idle pool stays lazy.
    if (live_ > 0 || !queue_.empty()) StartThreadsLocked();
  } else if (n < old) {
    work_cv_.SignalAll();  // idle excess threads wake up and exit
  }
}

void ThreadPool::LowerIOPriority() {
  MutexLock l(&mu_);
  low_io_priority_ = true;
}

void ThreadPool::LowerCPUPriority(int cpu_priority) {
  MutexLock l(&mu_);
  cpu_priority_ = cpu_priority;
}

int ThreadPool::GetBackgroundThreads() const {
  MutexLock l(&mu_);
  return target_;
}

unsigned ThreadPool::QueueLen() const {
  MutexLock l(&mu_);
  return static_cast<unsigned>(queue_.size());
}

bool ThreadPool::IsIdle() const {
  MutexLock l(&mu_);
  return queue_.empty() && live_ == 0;
}

void ThreadPool::StartThreadsLocked() {
  if (stoppers_ > 0) return;  // WaitForJobsAndJoinAllThreads drains the rest
  const size_t target = static_cast<size_t>(target_);
  for (size_t slot = 0; slot < target; slot++) {
    if (slot == workers_.size()) {
      workers_.emplace_back();
    } else if (!workers_[slot].exited) {
      continue;  // still running (possibly finishing a job after a shrink)
    } else {
      // The old thread set `exited` as its last action under mu_, so it has
      // released mu_ and is returning: this join does not wait on us.
      workers_[slot].thread.join();
      workers_[slot].exited = false;
    }
    live_++;
    workers_[slot].thread = std::thread([this, slot] { WorkerLoop(slot); });
  }
}

void ThreadPool::WorkerLoop(size_t slot) {
  char thread_name[16];  // Linux limit: 15 characters and the terminator
  snprintf(thread_name, sizeof(thread_name), "%s", name_.c_str());
  pthread_setname_np(pthread_self(), thread_name);

  // What this thread runs at now (invariant 4): it starts normal.
  bool io_lowered = false;
  int cpu_now = 2;
  std::function<void()> job;
  mu_.Lock();
  while (true) {
    if (slot >= static_cast<size_t>(target_)) break;  // pool shrank (invariant 2)
    if (queue_.empty()) {
      if (stoppers_ > 0) break;
      WaitHeld(&work_cv_);
      continue;
    }
    job = std::move(queue_.front());
    queue_.pop_front();
    const bool lower_io = low_io_priority_ && !io_lowered;
    const bool lower_cpu = cpu_priority_ < cpu_now;
    const int cpu_wanted = cpu_priority_;
    mu_.Unlock();
    if (priority_hook_ != nullptr && (lower_io || lower_cpu)) {
      priority_hook_(lower_io, lower_cpu ? cpu_wanted : -1);
      io_lowered = io_lowered || lower_io;
      if (lower_cpu) cpu_now = cpu_wanted;
    }
    job();
    job = nullptr;  // destroy captured state outside the lock
    mu_.Lock();
  }
  workers_[slot].exited = true;
  live_--;
  idle_cv_.SignalAll();
  mu_.Unlock();
}

void ThreadPool::WaitForJobsAndJoinAllThreads() {
  std::vector<Worker> workers;
  {
    MutexLock l(&mu_);
    AdoptAfterForkLocked();
    stoppers_++;
    work_cv_.SignalAll();
    // Workers exit when the queue is empty (or when they are excess slots).
    while (live_ > 0) WaitHeld(&idle_cv_);
    if (stoppers_ == 1) workers.swap(workers_);
  }
  // Every thread in `workers` has exited its loop; join outside the lock.
  for (Worker& w : workers) {
    if (w.thread.joinable()) w.thread.join();
  }
  // Jobs left over -- the pool had no threads, or a job scheduled more work
  // as the last worker left -- run here, in order.
  mu_.Lock();
  while (!queue_.empty()) {
    std::function<void()> job = std::move(queue_.front());
    queue_.pop_front();
    mu_.Unlock();
    job();
    job = nullptr;
    mu_.Lock();
  }
  stoppers_--;
  mu_.Unlock();
}

}  // namespace strata
