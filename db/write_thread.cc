#include "db/write_thread.h"

#include <optional>

#include "db/write_batch_internal.h"

namespace strata {

WriteThread::WriteThread(size_t max_group_bytes)
    : max_group_bytes_(max_group_bytes), leader_cv_(&mu_) {}

void WriteThread::Wait(Writer* w) {
  // The condition variable lives on the waiting thread's stack; it is
  // created only when a writer actually has to wait.
  std::optional<CondVar> cv;
  cv.emplace(&mu_);
  w->cv = &*cv;
  const State entry = w->state;
  while (w->state == entry) cv->Wait();
  w->cv = nullptr;
}

void WriteThread::SetState(Writer* w, State s) {
  w->state = s;
  if (w->cv != nullptr) w->cv->Signal();
}

WriteThread::State WriteThread::JoinBatchGroup(Writer* w) {
  MutexLock l(&mu_);
  w->next = nullptr;
  if (tail_ == nullptr) {
    head_ = tail_ = w;
    w->state = State::kLeader;
    return State::kLeader;
  }
  tail_->next = w;
  tail_ = w;
  w->state = State::kInit;
  Wait(w);
  return w->state;
}

void WriteThread::EnterAsBatchGroupLeader(Writer* leader, WriteGroup* group) {
  const size_t leader_bytes = WriteBatchInternal::ByteSize(leader->batch);
  // A small leader does not make its followers wait for a huge group: the
  // group may grow by at most 128 KiB beyond the leader's own batch.
  size_t max_bytes = max_group_bytes_;
  if (leader_bytes <= (128 << 10)) max_bytes = leader_bytes + (128 << 10);

  group->leader = leader;
  group->last = leader;
  group->size = 1;
  group->total_bytes = leader_bytes;
  group->need_sync = leader->sync;
  group->disable_wal = leader->disable_wal;
  leader->group = group;

  MutexLock l(&mu_);
  for (Writer* w = leader->next; w != nullptr; w = w->next) {
    if (w->disable_wal != leader->disable_wal) break;
    const size_t bytes = WriteBatchInternal::ByteSize(w->batch);
    if (group->total_bytes + bytes > max_bytes) break;
    group->total_bytes += bytes;
    group->need_sync |= w->sync;
    group->last = w;
    group->size++;
    w->group = group;
  }
}

void WriteThread::LaunchParallelMemTableWriters(WriteGroup* group) {
  group->running.store(group->size, std::memory_order_relaxed);
  MutexLock l(&mu_);
  for (Writer* w = group->leader->next;; w = w->next) {
    SetState(w, State::kParallelMemTableWriter);
    if (w == group->last) break;
  }
}

void WriteThread::CompleteParallelMemTableWriter(Writer* w) {
  WriteGroup* group = w->group;
  MutexLock l(&mu_);
  // acq_rel: the leader that sees the count reach 1 (only itself) must see
  // this member's memtable inserts before publishing the sequence.
  if (group->running.fetch_sub(1, std::memory_order_acq_rel) == 2) leader_cv_.SignalAll();
  while (w->state == State::kParallelMemTableWriter) Wait(w);
}

void WriteThread::WaitForParallelMemTableWriters(WriteGroup* group) {
  MutexLock l(&mu_);
  while (group->running.load(std::memory_order_acquire) > 1) leader_cv_.Wait();
  group->running.store(0, std::memory_order_relaxed);
}

void WriteThread::ExitAsBatchGroupLeader(WriteGroup* group, const Status& status) {
  MutexLock l(&mu_);
  Writer* const last = group->last;
  Writer* w = group->leader->next;
  if (group->size > 1) {
    for (;; w = w->next) {
      Writer* next = w->next;
      if (!status.ok() && w->status.ok()) w->status = status;
      SetState(w, State::kCompleted);
      if (w == last) {
        w = next;
        break;
      }
    }
  }
  // w is now the first writer after the group (or null).
  head_ = w;
  if (w == nullptr) {
    tail_ = nullptr;
  } else {
    SetState(w, State::kLeader);
  }
}

size_t WriteThread::TEST_QueueLength() {
  MutexLock l(&mu_);
  size_t n = 0;
  for (Writer* w = head_; w != nullptr; w = w->next) n++;
  return n;
}

}  // namespace strata
