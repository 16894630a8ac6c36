// MergeContext: the merge operands a point lookup collects on its way down
// the sources (newest first), handed to the merge operator oldest first.
// Reused across lookups: Clear keeps the buffers, so a steady stream of
// lookups allocates nothing once warmed up.
// Thread-safety: one lookup, one thread.
// Invariants: operands_ holds Slices into either stable source memory
// (pinned memtables / mapped tables) or copies_; GetOperands() returns them
// oldest first.
#pragma once

#include <algorithm>
#include <deque>
#include <string>
#include <vector>

#include "strata/slice.h"

namespace strata {

class MergeContext {
 public:
  // Adds the next (older) operand. copy: the bytes may not outlive this
  // call (e.g. an uncached block), so they are copied.
  void PushOperand(const Slice& operand, bool copy) {
    if (reversed_) {
      std::reverse(operands_.begin(), operands_.end());
      reversed_ = false;
    }
    if (!copy) {
      operands_.push_back(operand);
      return;
    }
    if (used_copies_ == copies_.size()) copies_.emplace_back();
    std::string& buf = copies_[used_copies_++];
    buf.assign(operand.data(), operand.size());
    operands_.emplace_back(buf);
  }

  size_t size() const { return operands_.size(); }
  bool empty() const { return operands_.empty(); }

  // Oldest first. Valid until the next PushOperand/Clear.
  const std::vector<Slice>& GetOperands() {
    if (!reversed_) {
      std::reverse(operands_.begin(), operands_.end());
      reversed_ = true;
    }
    return operands_;
  }

  void Clear() {
    operands_.clear();
    used_copies_ = 0;
    reversed_ = false;
  }

 private:
  std::vector<Slice> operands_;     // newest first unless reversed_
  std::deque<std::string> copies_;  // stable addresses; reused
  size_t used_copies_ = 0;
  bool reversed_ = false;
};

}  // namespace strata
