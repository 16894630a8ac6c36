// rocksdb/threadpool.h: ThreadPool, a set of background threads running
// submitted jobs in submission order, and NewThreadPool making one.
// Thread-safety: thread-safe (every method may be called from any thread,
// a job included, except the Join calls, which must not run in a job).
#pragma once

#include <functional>

#include "rocksdb/rocksdb_namespace.h"

namespace rocksdb {

class ThreadPool {
 public:
  virtual ~ThreadPool() {}

  // Stops the threads once their running jobs end; queued jobs that did not
  // start are dropped.
  virtual void JoinAllThreads() = 0;

  // Grows or shrinks the pool to num threads (extra threads leave after
  // their current job).
  virtual void SetBackgroundThreads(int num) = 0;
  virtual int GetBackgroundThreads() = 0;

  // Jobs queued and not started.
  virtual unsigned int GetQueueLen() const = 0;

  // Runs every job already submitted (started or not) to its end, then
  // stops the threads.
  virtual void WaitForJobsAndJoinAllThreads() = 0;

  // Queues a job (the same job may be submitted many times).
  virtual void SubmitJob(const std::function<void()>&) = 0;
  virtual void SubmitJob(std::function<void()>&&) = 0;

  // Reserves up to the given number of idle threads; returns how many were
  // reserved (the base class reserves none).
  virtual int ReserveThreads(int /*threads_to_be_reserved*/) { return 0; }
  // Gives back reserved threads; returns how many were released.
  virtual int ReleaseThreads(int /*threads_to_be_released*/) { return 0; }
};

// A new pool of num_threads threads; the caller owns it (deleting it joins
// the threads, dropping jobs not started).
extern ThreadPool* NewThreadPool(int num_threads);

}  // namespace rocksdb
