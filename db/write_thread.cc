#include "db/write_thread.h"

#include <vector>

#include "db/write_batch_internal.h"

namespace strata {

WriteThread::WriteThread(size_t max_group_bytes) : max_group_bytes_(max_group_bytes) {}

void WriteThread::AwaitStateChange(Writer* w, State entry) {
  // A short spin catches the common case of a group that completes within a
  // microsecond or two without a sleep and a wake-up.
  for (int i = 0; i < 128; i++) {
    if (w->state.load(std::memory_order_acquire) != entry) {
      // SetState may still be inside its critical section on w->wait_mu;
      // pass through it so w (and its mutex) outlive the notifier's use.
      std::lock_guard<std::mutex> sync(w->wait_mu);
      return;
    }
#if defined(__x86_64__)
    __builtin_ia32_pause();
#endif
  }
  std::unique_lock<std::mutex> l(w->wait_mu);
  w->wait_cv.wait(l, [&] { return w->state.load(std::memory_order_acquire) != entry; });
}

void WriteThread::SetState(Writer* w, State s) {
  std::lock_guard<std::mutex> l(w->wait_mu);
  // release: the waiter sees everything written for it (status, sequence).
  w->state.store(s, std::memory_order_release);
  w->wait_cv.notify_one();
}

WriteThread::State WriteThread::JoinBatchGroup(Writer* w) {
  {
    MutexLock l(&mu_);
    if (stalled_ && w->no_slowdown) {
      w->status = Status::Incomplete("Write stall");
      w->state.store(State::kCompleted, std::memory_order_relaxed);
      return State::kCompleted;
    }
    w->next = nullptr;
    queue_len_.fetch_add(1, std::memory_order_relaxed);
    if (tail_ == nullptr) {
      head_ = tail_ = w;
      w->state.store(State::kLeader, std::memory_order_relaxed);
      return State::kLeader;
    }
    tail_->next = w;
    tail_ = w;
  }
  AwaitStateChange(w, State::kInit);
  return w->state.load(std::memory_order_acquire);
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

  // A writer whose check must see every earlier write applied goes alone.
  if (!leader->AllowsBatching()) return;
  MutexLock l(&mu_);
  for (Writer* w = leader->next; w != nullptr; w = w->next) {
    if (w->disable_wal != leader->disable_wal || w->no_slowdown != leader->no_slowdown) break;
    if (!w->AllowsBatching()) break;
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
  // The members between leader and last are out of the queue's reach (only
  // last->next changes, under mu_), so they are walked without the lock.
  for (Writer* w = group->leader->next;;) {
    // last->next may be written by a joining writer (under mu_): never read
    // it here.
    const bool is_last = w == group->last;
    Writer* next = is_last ? nullptr : w->next;
    SetState(w, State::kParallelMemTableWriter);
    if (is_last) break;
    w = next;
  }
}

void WriteThread::CompleteParallelMemTableWriter(Writer* w) {
  WriteGroup* group = w->group;
  Writer* leader = group->leader;
  {
    // The count drops under the leader's lock: otherwise the leader could
    // see it reach 1, finish and destroy its Writer (mutex and condition
    // variable) between our decrement and our notify.
    // acq_rel: the leader that sees the count reach 1 (only itself) sees
    // this member's memtable inserts before it publishes the sequence.
    std::lock_guard<std::mutex> l(leader->wait_mu);
    if (group->running.fetch_sub(1, std::memory_order_acq_rel) == 2) leader->wait_cv.notify_one();
  }
  AwaitStateChange(w, State::kParallelMemTableWriter);
}

void WriteThread::WaitForParallelMemTableWriters(WriteGroup* group) {
  Writer* leader = group->leader;
  std::unique_lock<std::mutex> l(leader->wait_mu);
  leader->wait_cv.wait(l, [&] { return group->running.load(std::memory_order_acquire) <= 1; });
  group->running.store(0, std::memory_order_relaxed);
}

void WriteThread::ExitAsBatchGroupLeader(WriteGroup* group, const Status& status) {
  Writer* next_leader;
  {
    MutexLock l(&mu_);
    next_leader = group->last->next;
    head_ = next_leader;
    queue_len_.fetch_sub(group->size, std::memory_order_relaxed);
    if (next_leader == nullptr) tail_ = nullptr;
  }
  // Wake the next leader first: its group can start its WAL append while
  // this group's members wake up.
  if (next_leader != nullptr) SetState(next_leader, State::kLeader);
  if (group->size > 1) {
    for (Writer* w = group->leader->next;;) {
      const bool is_last = w == group->last;
      Writer* next = is_last ? nullptr : w->next;  // read before w may vanish
      if (!status.ok() && w->status.ok()) w->status = status;
      SetState(w, State::kCompleted);
      if (is_last) break;
      w = next;
    }
  }
}

void WriteThread::BeginWriteStall(const WriteGroup& group) {
  std::vector<Writer*> turned_away;
  {
    MutexLock l(&mu_);
    stalled_ = true;
    // The group itself stays; only writers behind it are looked at.
    Writer* prev = group.last;
    for (Writer* w = prev->next; w != nullptr; w = prev->next) {
      if (!w->no_slowdown) {
        prev = w;
        continue;
      }
      prev->next = w->next;
      if (tail_ == w) tail_ = prev;
      queue_len_.fetch_sub(1, std::memory_order_relaxed);
      turned_away.push_back(w);
    }
  }
  for (Writer* w : turned_away) {
    w->status = Status::Incomplete("Write stall");
    SetState(w, State::kCompleted);
  }
}

void WriteThread::EndWriteStall() {
  MutexLock l(&mu_);
  stalled_ = false;
}

size_t WriteThread::TEST_QueueLength() {
  MutexLock l(&mu_);
  size_t n = 0;
  for (Writer* w = head_; w != nullptr; w = w->next) n++;
  return n;
}

}  // namespace strata
