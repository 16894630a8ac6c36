// test::VectorIterator: an InternalIterator over (internal key, value)
// entries held in a vector, the input the tests of compaction, merging and
// merge operands feed to the code under test. It can end in an error, fail
// after a number of moves, sort its entries, refuse the calls a test says
// the code must not make, and counts seeks.
//
// A test that always wants the same set-up derives a class of its own that
// applies it in its constructor.
//
// Thread-safety: not thread-safe.
// Invariants: the entries are in the comparator's internal-key order (the
// caller's promise, or Sorted()); a call that moves the iterator while it
// is invalid (Next, Prev) is a test failure, as InternalIterator forbids it.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "base/dbformat.h"
#include "base/internal_iterator.h"
#include "strata/comparator.h"
#include "strata/status.h"

namespace strata::test {

// The internal key of (user_key, seq, t): the spelling tests use for
// hand-written entries.
inline std::string IKey(const std::string& user_key, SequenceNumber seq, ValueType t) {
  std::string k;
  AppendInternalKey(&k, user_key, seq, t);
  return k;
}

struct KeyValue {
  std::string key;  // internal key
  std::string value;
};

class VectorIterator : public InternalIterator {
 public:
  // icmp: orders the entries for Seek, SeekForPrev and Sorted(); null means
  // internal keys over the bytewise comparator. Borrowed; must outlive
  // the iterator.
  explicit VectorIterator(std::vector<KeyValue> entries,
                          const InternalKeyComparator* icmp = nullptr)
      : entries_(std::move(entries)), icmp_(icmp != nullptr ? icmp : &bytewise_) {}
  explicit VectorIterator(const std::vector<std::pair<std::string, std::string>>& entries,
                          const InternalKeyComparator* icmp = nullptr)
      : icmp_(icmp != nullptr ? icmp : &bytewise_) {
    for (const auto& [k, v] : entries) entries_.push_back({k, v});
  }
  VectorIterator(const VectorIterator&) = delete;
  VectorIterator& operator=(const VectorIterator&) = delete;

  // ---- set-up (before the first move) ----
  // Sorts the entries into internal-key order (stable).
  VectorIterator& Sorted() {
    std::stable_sort(
        entries_.begin(), entries_.end(),
        [this](const KeyValue& a, const KeyValue& b) { return icmp_->Compare(a.key, b.key) < 0; });
    return *this;
  }
  // status() once the iterator has run off either end (an input that ends
  // in an error), instead of OK.
  VectorIterator& WithEndStatus(Status s) {
    end_status_ = std::move(s);
    return *this;
  }
  // Moves number n+1 and later fail (a move: any Seek*, Next or Prev): the
  // iterator becomes invalid with Corruption "child failed", for good.
  VectorIterator& FailingAfter(int n) {
    fail_after_ = n;
    return *this;
  }
  // Seek / SeekForPrev become test failures (the code must not call them).
  VectorIterator& NoSeek() {
    no_seek_ = true;
    return *this;
  }
  VectorIterator& NoSeekForPrev() {
    no_seek_for_prev_ = true;
    return *this;
  }

  // ---- InternalIterator ----
  bool Valid() const override { return pos_ < entries_.size(); }
  void SeekToFirst() override {
    if (Fail()) return;
    pos_ = 0;
  }
  void SeekToLast() override {
    if (Fail()) return;
    pos_ = entries_.empty() ? 0 : entries_.size() - 1;
  }
  void Seek(const Slice& target) override {
    if (no_seek_) ADD_FAILURE() << "Seek called";
    ++seeks_;
    if (Fail()) return;
    pos_ = 0;
    while (pos_ < entries_.size() && icmp_->Compare(entries_[pos_].key, target) < 0) ++pos_;
  }
  void SeekForPrev(const Slice& target) override {
    if (no_seek_for_prev_) ADD_FAILURE() << "SeekForPrev called";
    ++seeks_;
    if (Fail()) return;
    pos_ = entries_.size();
    for (size_t i = entries_.size(); i-- > 0;) {
      if (icmp_->Compare(entries_[i].key, target) <= 0) {
        pos_ = i;
        break;
      }
    }
  }
  void Next() override {
    if (!Valid()) {
      ADD_FAILURE() << "Next on an invalid iterator";
      return;
    }
    if (Fail()) return;
    ++pos_;
  }
  void Prev() override {
    if (!Valid()) {
      ADD_FAILURE() << "Prev on an invalid iterator";
      return;
    }
    if (Fail()) return;
    pos_ = pos_ == 0 ? entries_.size() : pos_ - 1;
  }
  Slice key() const override { return entries_[pos_].key; }
  Slice value() const override { return entries_[pos_].value; }
  Status status() const override {
    if (!failure_.ok()) return failure_;
    return Valid() ? Status::OK() : end_status_;
  }

  // ---- what the test looks at ----
  // Seek and SeekForPrev calls so far.
  int seeks() const { return seeks_; }
  // Index of the current entry (entries().size() when invalid).
  size_t pos() const { return pos_; }
  const std::vector<KeyValue>& entries() const { return entries_; }

 private:
  // True (and invalid, for good) once the move budget is spent.
  bool Fail() {
    if (!failure_.ok()) {
      pos_ = entries_.size();
      return true;
    }
    if (fail_after_ >= 0 && moves_++ >= fail_after_) {
      failure_ = Status::Corruption("child failed");
      pos_ = entries_.size();
      return true;
    }
    return false;
  }

  InternalKeyComparator bytewise_{BytewiseComparator()};
  std::vector<KeyValue> entries_;
  const InternalKeyComparator* icmp_;
  size_t pos_ = 0;  // == entries_.size() when invalid
  Status end_status_;
  Status failure_;
  int fail_after_ = -1;
  int moves_ = 0;
  int seeks_ = 0;
  bool no_seek_ = false;
  bool no_seek_for_prev_ = false;
};

}  // namespace strata::test
