// ThreadPool: a fixed-size set of worker threads draining one FIFO queue of
// jobs. Env keeps two of them (HIGH priority for flushes, LOW for
// compactions); nothing else in Strata creates threads for background work.
//
// Thread-safety: thread-safe; every method may be called from any thread,
// except WaitForJobsAndJoinAllThreads (and the destructor), which must not be
// called from a job of the same pool.
//
// Invariants:
//  1. Jobs start in the order they were scheduled (one queue, FIFO); with more
//     than one thread they may run concurrently and finish in any order.
//  2. Worker slot i keeps running jobs while i < GetBackgroundThreads(); a
//     slot at or past that count exits once its current job returns, so after
//     SetBackgroundThreads(n) no job scheduled later starts on more than n
//     threads at once.
//  3. Threads are started lazily, by the first Schedule (or by growing a pool
//     that already has work), and are named after the pool (pthread name,
//     truncated to 15 characters) so they can be told apart in top and gdb.
//  4. Priorities only go down (RocksDB's rule): LowerIOPriority and
//     LowerCPUPriority record what the pool's threads should run at, and each
//     worker applies it (through the hook given at construction) before it
//     takes its next job -- a thread never raises its own priority again.
//  5. A job is never lost: WaitForJobsAndJoinAllThreads runs every job
//     queued before it returns (inline in the caller if the pool has no
//     threads), including jobs scheduled by running jobs. The pool may be
//     used again afterwards; threads restart on the next Schedule.
#pragma once

#include <deque>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "util/mutex.h"
#include "util/thread_annotations.h"

namespace strata {

class ThreadPool {
 public:
  // Applies priorities to the calling (worker) thread: lower_io asks for the
  // idle I/O class, cpu_priority is a strata::CpuPriority value (0 idle .. 3
  // high) or -1 for "leave the CPU priority as it is". Called only to lower
  // what the thread runs at.
  using PriorityHook = void (*)(bool lower_io, int cpu_priority);

  // num_threads: the initial target size (negative counts as 0). name: the
  // threads' name, e.g. "strata:low"; copied. hook: applies priorities
  // (null: LowerIOPriority/LowerCPUPriority are recorded and not applied).
  ThreadPool(int num_threads, const char* name, PriorityHook hook = nullptr);
  // Same as WaitForJobsAndJoinAllThreads().
  ~ThreadPool();

  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  // Queues fn to run on a worker thread. Cost: one queue insertion under the
  // pool mutex (plus a thread start the first time).
  void Schedule(std::function<void()> fn) EXCLUDES(mu_);

  // Grows or shrinks the pool to n threads (negative counts as 0). Growing
  // starts threads at once if the pool is running; shrinking does not wait:
  // excess threads exit after their current job.
  void SetBackgroundThreads(int n) EXCLUDES(mu_);
  int GetBackgroundThreads() const EXCLUDES(mu_);

  // From the next job on, every thread of the pool runs in the idle I/O
  // class. Cannot be undone.
  void LowerIOPriority() EXCLUDES(mu_);
  // From the next job on, the pool's threads run at cpu_priority (a
  // strata::CpuPriority value) unless they already run lower.
  void LowerCPUPriority(int cpu_priority) EXCLUDES(mu_);

  // Jobs queued and not yet started.
  unsigned QueueLen() const EXCLUDES(mu_);
  // True when no job is queued and no thread is running.
  bool IsIdle() const EXCLUDES(mu_);

  // Runs every queued job (and any job those schedule), waits for running
  // jobs, then joins all threads. REQUIRES: not called from a job of this
  // pool (it would wait for itself).
  void WaitForJobsAndJoinAllThreads() EXCLUDES(mu_);

 private:
  struct Worker {
    std::thread thread;
    bool exited = false;  // set (under mu_) as the thread's last action
  };

  void WorkerLoop(size_t slot) EXCLUDES(mu_);
  // Starts threads for every slot below target_ that has none running.
  void StartThreadsLocked() REQUIRES(mu_);
  // In a child of fork(): drops the parent's workers (leaking their thread
  // objects: a thread of another process can be neither joined nor
  // detached) so that jobs start threads of this process, and builds fresh
  // condition variables. The child still inherits mu_ as it was: fork while
  // a worker holds it is not supported.
  void AdoptAfterForkLocked() REQUIRES(mu_);

  // Immutable after construction.
  const std::string name_;
  const PriorityHook priority_hook_;

  mutable Mutex mu_;
  CondVar work_cv_;  // signalled when a job is queued or threads must exit
  CondVar idle_cv_;  // signalled when a worker exits
  std::deque<std::function<void()>> queue_ GUARDED_BY(mu_);
  std::vector<Worker> workers_ GUARDED_BY(mu_);  // slot i runs WorkerLoop(i)
  int target_ GUARDED_BY(mu_);                   // GetBackgroundThreads()
  int live_ GUARDED_BY(mu_) = 0;                 // workers not yet exited
  // The process the workers run in. A fork copies the pool without its
  // threads; the child's first call forgets them (see AdoptAfterForkLocked).
  int owner_pid_ GUARDED_BY(mu_);
  // Callers inside WaitForJobsAndJoinAllThreads: while > 0, workers exit as
  // soon as the queue is empty and no new threads are started.
  int stoppers_ GUARDED_BY(mu_) = 0;
  // What the threads should run at (invariant 4); 2 is CpuPriority::kNormal.
  bool low_io_priority_ GUARDED_BY(mu_) = false;
  int cpu_priority_ GUARDED_BY(mu_) = 2;
};

}  // namespace strata
