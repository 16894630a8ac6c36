// SnapshotImpl and SnapshotList: the live snapshots of a DB, a circular
// doubly-linked list ordered by sequence number (oldest first), so the oldest
// live snapshot -- the bound below which old versions may be dropped -- is
// found in O(1).
// Thread-safety: not thread-safe; the DB guards the list with its mutex.
#pragma once

#include <cstdint>
#include <vector>

#include "base/dbformat.h"
#include "strata/snapshot.h"

namespace strata {

class SnapshotImpl : public Snapshot {
 public:
  SequenceNumber GetSequenceNumber() const override { return number_; }
  int64_t unix_time() const { return unix_time_; }
  int64_t GetUnixTime() const override { return unix_time_; }

 private:
  friend class SnapshotList;
  SnapshotImpl() = default;
  ~SnapshotImpl() override = default;

  SequenceNumber number_ = 0;
  int64_t unix_time_ = 0;
  SnapshotImpl* prev_ = nullptr;
  SnapshotImpl* next_ = nullptr;
};

class SnapshotList {
 public:
  SnapshotList() {
    head_.prev_ = &head_;
    head_.next_ = &head_;
  }
  ~SnapshotList() {
    while (!empty()) Delete(head_.next_);
  }
  SnapshotList(const SnapshotList&) = delete;
  SnapshotList& operator=(const SnapshotList&) = delete;

  bool empty() const { return head_.next_ == &head_; }
  uint64_t count() const { return count_; }
  // REQUIRES: !empty()
  const SnapshotImpl* oldest() const { return head_.next_; }
  const SnapshotImpl* newest() const { return head_.prev_; }

  // REQUIRES: seq >= newest()->GetSequenceNumber() if not empty.
  const SnapshotImpl* New(SequenceNumber seq, int64_t unix_time) {
    auto* s = new SnapshotImpl;
    s->number_ = seq;
    s->unix_time_ = unix_time;
    s->next_ = &head_;
    s->prev_ = head_.prev_;
    s->prev_->next_ = s;
    s->next_->prev_ = s;
    count_++;
    return s;
  }

  void Delete(const SnapshotImpl* snapshot) {
    auto* s = const_cast<SnapshotImpl*>(snapshot);
    s->prev_->next_ = s->next_;
    s->next_->prev_ = s->prev_;
    count_--;
    delete s;
  }

  // Sequence numbers of all live snapshots, ascending.
  std::vector<SequenceNumber> GetAll() const {
    std::vector<SequenceNumber> r;
    for (const SnapshotImpl* s = head_.next_; s != &head_; s = s->next_) r.push_back(s->number_);
    return r;
  }

 private:
  SnapshotImpl head_;
  uint64_t count_ = 0;
};

}  // namespace strata
