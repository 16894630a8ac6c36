// compat/threadpool.cc: NewThreadPool (rocksdb/threadpool.h), a pool of
// std::threads over one FIFO job queue.
//
// Threads are numbered 0..n-1 in order of creation; when the target size
// shrinks, the threads numbered at or above it leave after their current
// job and are joined when the pool grows again or is joined. Reserved threads are idle threads kept
// from taking jobs: a worker takes a job only while more threads wait than are reserved.
#include "rocksdb/threadpool.h"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace rocksdb {
namespace {

class PoolImpl final : public ThreadPool {
 public:
  PoolImpl() = default;
  PoolImpl(const PoolImpl&) = delete;
  PoolImpl& operator=(const PoolImpl&) = delete;
  ~PoolImpl() override { JoinAllThreads(); }

  void JoinAllThreads() override { Join(/*drain=*/false); }
  void WaitForJobsAndJoinAllThreads() override { Join(/*drain=*/true); }

  void SetBackgroundThreads(int num) override {
    std::lock_guard<std::mutex> l(mu_);
    target_ = std::max(num, 0);
    Resize();
  }

  int GetBackgroundThreads() override {
    std::lock_guard<std::mutex> l(mu_);
    return target_;
  }

  unsigned int GetQueueLen() const override {
    std::lock_guard<std::mutex> l(mu_);
    return static_cast<unsigned int>(queue_.size());
  }

  void SubmitJob(const std::function<void()>& job) override {
    std::function<void()> copy = job;
    SubmitJob(std::move(copy));
  }

  void SubmitJob(std::function<void()>&& job) override {
    std::lock_guard<std::mutex> l(mu_);
    if (exiting_) return;  // a pool being joined takes no new work
    queue_.push_back(std::move(job));
    Resize();  // restarts threads after a join
    cv_.notify_one();
  }

  int ReserveThreads(int n) override {
    std::lock_guard<std::mutex> l(mu_);
    const int r = std::max(0, std::min(n, waiting_ - reserved_));
    reserved_ += r;
    return r;
  }

  int ReleaseThreads(int n) override {
    std::lock_guard<std::mutex> l(mu_);
    const int r = std::max(0, std::min(n, reserved_));
    reserved_ -= r;
    if (r > 0) cv_.notify_all();
    return r;
  }

 private:
  // Joins the exited threads at the end of the list, then starts threads
  // up to target_; threads numbered target_ or above leave after their
  // current job. REQUIRES: mu_ held (an exited thread no longer takes it,
  // so joining it here cannot block on us).
  void Resize() {
    while (!threads_.empty() && exited_.back()) {
      threads_.back().join();
      threads_.pop_back();
      exited_.pop_back();
    }
    while (static_cast<int>(threads_.size()) < target_) {
      const int id = static_cast<int>(threads_.size());
      exited_.push_back(false);
      threads_.emplace_back([this, id] { Work(id); });
    }
    if (static_cast<int>(threads_.size()) > target_) cv_.notify_all();
  }

  void Work(int id) {
    std::unique_lock<std::mutex> l(mu_);
    for (;;) {
      if (exiting_ && (!drain_ || queue_.empty())) break;
      if (id >= target_) {
        exited_[id] = true;
        break;
      }
      // Reserved threads are idle ones: a thread counts itself as waiting.
      const bool held_back = !exiting_ && waiting_ + 1 <= reserved_;
      if (queue_.empty() || held_back) {
        ++waiting_;
        cv_.wait(l);
        --waiting_;
        continue;
      }
      std::function<void()> job = std::move(queue_.front());
      queue_.pop_front();
      l.unlock();
      job();
      job = nullptr;  // the job's captures die outside the lock too
      l.lock();
    }
    cv_.notify_all();
  }

  void Join(bool drain) {
    std::vector<std::thread> threads;
    {
      std::lock_guard<std::mutex> l(mu_);
      exiting_ = true;
      drain_ = drain;
      cv_.notify_all();
      threads.swap(threads_);
    }
    for (std::thread& t : threads) t.join();
    std::lock_guard<std::mutex> l(mu_);
    if (!drain) queue_.clear();
    exited_.clear();
    exiting_ = false;
    drain_ = false;
    reserved_ = 0;
  }

  mutable std::mutex mu_;
  std::condition_variable cv_;
  // Guarded by mu_.
  std::vector<std::thread> threads_;
  std::deque<std::function<void()>> queue_;
  int target_ = 0;
  int waiting_ = 0;           // threads blocked in cv_.wait
  int reserved_ = 0;          // of the waiting threads, kept from jobs
  std::vector<char> exited_;  // per thread: left after a shrink, not joined
  bool exiting_ = false;
  bool drain_ = false;
};

}  // namespace

ThreadPool* NewThreadPool(int num_threads) {
  ThreadPool* pool = new PoolImpl();
  pool->SetBackgroundThreads(num_threads);
  return pool;
}

}  // namespace rocksdb
