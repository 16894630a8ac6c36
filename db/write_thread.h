// WriteThread: group commit. Concurrent writers queue up; the writer at the
// head of the queue becomes the leader, takes the compatible writers behind
// it into a write group, appends ONE WAL record for the whole group (with at
// most one sync), and then either inserts every batch into the memtable
// itself or lets each member insert its own batch concurrently. The leader
// publishes the group's last sequence number only after every member has
// inserted, so readers see a group all at once, and then hands leadership to
// the next queued writer.
//
// Life of a writer (the caller of DB::Write):
//   JoinBatchGroup -> kLeader:   EnterAsBatchGroupLeader, write the WAL,
//                                [LaunchParallelMemTableWriters, insert own,
//                                 WaitForParallelMemTableWriters] or insert
//                                all, ExitAsBatchGroupLeader.
//                  -> kParallelMemTableWriter: insert own batch at
//                                w->sequence, CompleteParallelMemTableWriter.
//                  -> kCompleted: the leader did everything; read w->status.
// Invariants:
//  1. At most one leader exists at a time; the leader is the queue head and
//     the group is a contiguous run of the queue starting at it.
//  2. A group never mixes writers with and without the WAL, nor writers with
//     and without no_slowdown.
//  4. While a write stall is on (BeginWriteStall .. EndWriteStall), no
//     no_slowdown writer waits in the queue: those queued are completed with
//     Incomplete and new ones get it from JoinBatchGroup at once.
//  3. A member returns only after its group's sequence is published.
// Thread-safety: thread-safe; the queue is guarded by an internal mutex that
// is never held during I/O or memtable inserts. Waiting writers sleep on
// their own mutex/condition variable (lock order: queue mutex, then a
// writer's wait mutex).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>

#include "base/dbformat.h"
#include "strata/status.h"
#include "strata/write_batch.h"
#include "util/mutex.h"

namespace strata {

class WriteThread {
 public:
  enum class State : uint8_t {
    kInit,
    kLeader,
    kParallelMemTableWriter,
    kCompleted,
  };

  struct WriteGroup;

  // A check the group leader runs for a writer before sequence numbers are
  // assigned (optimistic transactions' serial validation): a failed check
  // fails that writer alone, which then writes nothing. A writer whose
  // callback does not allow batching always forms a group of its own.
  class WriteCallback {
   public:
    virtual ~WriteCallback() = default;
    virtual Status Callback() = 0;
    virtual bool AllowWriteBatching() = 0;
  };

  struct Writer {
    Writer(WriteBatch* b, bool s, bool no_wal, bool no_slow = false)
        : batch(b), sync(s), disable_wal(no_wal), no_slowdown(no_slow) {}
    Writer(const Writer&) = delete;
    Writer& operator=(const Writer&) = delete;

    WriteBatch* batch;
    const bool sync;
    const bool disable_wal;
    // WriteOptions::no_slowdown: fail with Incomplete rather than wait in a
    // write stall.
    const bool no_slowdown;
    // Transactions (set before JoinBatchGroup; see DBImpl::TxnWrite).
    WriteCallback* callback = nullptr;
    bool disable_memtable = false;  // WAL only: takes no sequence numbers
    bool prepare_section = false;   // the batch logs a prepared section
    uint64_t log_ref = 0;           // commits the prepared section of this WAL
    // Set by the leader before the member is launched or completed.
    Status status;
    SequenceNumber sequence = 0;  // sequence of the batch's first record
    uint64_t log_used = 0;        // the WAL the batch went to (0: none)
    bool callback_failed = false;
    WriteGroup* group = nullptr;

    bool ShouldWriteToMemtable() const { return !disable_memtable && !callback_failed; }
    bool AllowsBatching() const { return callback == nullptr || callback->AllowWriteBatching(); }

   private:
    friend class WriteThread;
    // Changed only by SetState (under wait_mu); read with acquire loads, so
    // a waiter can spin on it before blocking on wait_cv.
    std::atomic<State> state{State::kInit};
    Writer* next = nullptr;  // guarded by WriteThread::mu_
    // Each writer blocks on its own mutex/condition variable, so waking the
    // members of a group does not make them contend for the queue lock.
    std::mutex wait_mu;
    std::condition_variable wait_cv;
  };

  struct WriteGroup {
    Writer* leader = nullptr;
    Writer* last = nullptr;  // inclusive end of the group in queue order
    size_t size = 0;
    size_t total_bytes = 0;
    bool need_sync = false;
    bool disable_wal = false;
    SequenceNumber last_sequence = 0;
    // Members (leader included) still inserting into the memtable.
    std::atomic<size_t> running{0};

    // Calls fn(Writer*) for each member in queue order.
    template <class Fn>
    void ForEach(Fn&& fn) const {
      for (Writer* w = leader;; w = w->next) {
        fn(w);
        if (w == last) break;
      }
    }
  };

  // max_group_bytes: upper bound on a group's total batch bytes (a group of
  // one may be larger).
  explicit WriteThread(size_t max_group_bytes);
  WriteThread(const WriteThread&) = delete;
  WriteThread& operator=(const WriteThread&) = delete;

  // Queues w and blocks until it leads a group, must insert its batch as a
  // parallel memtable writer, or was completed by a leader.
  State JoinBatchGroup(Writer* w) EXCLUDES(mu_);

  // REQUIRES: leader got kLeader from JoinBatchGroup.
  void EnterAsBatchGroupLeader(Writer* leader, WriteGroup* group) EXCLUDES(mu_);

  // Wakes every member except the leader as a parallel memtable writer and
  // counts all members (leader included) as running.
  void LaunchParallelMemTableWriters(WriteGroup* group) EXCLUDES(mu_);

  // A member (not the leader) finished its insert: counts it done, then
  // waits until the leader completes the group.
  void CompleteParallelMemTableWriter(Writer* w) EXCLUDES(mu_);

  // The leader finished its own insert: waits until every member has too.
  void WaitForParallelMemTableWriters(WriteGroup* group) EXCLUDES(mu_);

  // Removes the group from the queue, completes every member except the
  // leader (a non-ok status is given to members that have none), and makes
  // the next queued writer the leader.
  void ExitAsBatchGroupLeader(WriteGroup* group, const Status& status) EXCLUDES(mu_);

  // A leader is about to wait in a write stall: completes the no_slowdown
  // writers queued behind its group with Incomplete("Write stall") and
  // turns later ones away until EndWriteStall.
  void BeginWriteStall(const WriteGroup& group) EXCLUDES(mu_);
  void EndWriteStall() EXCLUDES(mu_);

  // Writers queued, the leader included (tests only).
  size_t TEST_QueueLength() EXCLUDES(mu_);

  // Writers queued right now, the leader included; a hint for a leader
  // deciding whether to wait for more members (relaxed, may lag).
  size_t ApproximateQueueLength() const { return queue_len_.load(std::memory_order_relaxed); }

 private:
  // Blocks until w's state differs from entry: spins briefly, then sleeps.
  static void AwaitStateChange(Writer* w, State entry);
  // Publishes w's new state and wakes it. After this returns, w may be gone.
  static void SetState(Writer* w, State s);

  const size_t max_group_bytes_;
  Mutex mu_;
  Writer* head_ GUARDED_BY(mu_) = nullptr;
  Writer* tail_ GUARDED_BY(mu_) = nullptr;
  bool stalled_ GUARDED_BY(mu_) = false;
  std::atomic<size_t> queue_len_{0};
};

}  // namespace strata
