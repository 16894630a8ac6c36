// BaseDeltaIterator: a WriteBatchWithIndex's records of one column family
// (the delta) laid over an iterator of the database (the base), as
// WriteBatchWithIndex::NewIteratorWithBase returns it.
//
// The delta is walked one key at a time (all index entries of a key form a
// group); each group is resolved (WriteBatchIndex::Resolve) to a value, a
// deletion or operands waiting for a base value. At each step the smaller
// (forward) or larger (backward) of the two current keys is the candidate:
//  - a base key wins alone unless a batch range deletion covers it (skipped);
//  - a delta key wins (also over an equal base key, which is stepped past
//    with it) unless it resolves to a plain deletion (both skipped);
//    operands are combined with the batch's value, with nothing after a
//    deletion, or with the equal base key's value.
// Bounds from ReadOptions apply to both sides: in the forward direction a
// key >= upper bound ends that side, in the backward direction a key <
// lower bound does; seeks start inside the bounds.
// Direction changes re-seek both sides around the current key.
//
// Thread-safety: not thread-safe.
// Invariants (while valid):
//  1. forward_: each side is at its first key >= key(); the side(s) not at
//     key() are past it. Backward: mirrored.
//  2. current_at_delta_ => delta's key == key(); equal_keys_ => base is at
//     key() too.
#pragma once

#include <memory>
#include <string>

#include "strata/comparator.h"
#include "strata/iterator.h"
#include "strata/options.h"
#include "utilities/write_batch_with_index/write_batch_index.h"

namespace strata {

class BaseDeltaIterator final : public Iterator {
 public:
  // index must outlive the iterator; read_options and merge_operator are
  // borrowed (the bounds must outlive it too); either may be null.
  BaseDeltaIterator(const WriteBatchIndex* index, uint32_t cf_id, std::unique_ptr<Iterator> base,
                    const ReadOptions* read_options, const MergeOperator* merge_operator);

  bool Valid() const override { return valid_; }
  void SeekToFirst() override;
  void SeekToLast() override;
  void Seek(const Slice& target) override;
  void SeekForPrev(const Slice& target) override;
  void Next() override;
  void Prev() override;
  Slice key() const override;
  Slice value() const override;
  Status status() const override;

 private:
  using Node = WriteBatchIndex::Node;

  // The delta side: a key group, first_ its oldest entry (null = exhausted).
  Slice DeltaKey() const { return index_->KeyOf(delta_); }
  void DeltaSeek(const Slice& target) { delta_ = index_->SeekGE(cf_id_, target); }
  void DeltaSeekForPrev(const Slice& target) { SetDeltaFromNewest(index_->SeekLE(cf_id_, target)); }
  void DeltaNext();
  void DeltaPrev() { SetDeltaFromNewest(index_->Prev(delta_)); }
  void SetDeltaFromNewest(Node* newest);

  // Positions both sides at the last key < target (before the bound).
  void SeekBeforeBoth(const Slice& target);
  bool DeltaInBounds() const;
  bool BaseInBounds() const;
  void AdvanceDelta() {
    if (forward_) {
      DeltaNext();
    } else {
      DeltaPrev();
    }
  }
  void AdvanceBase() {
    if (forward_) {
      base_->Next();
    } else {
      base_->Prev();
    }
  }
  // Finds the next visible key in the current direction (see the top).
  void UpdateCurrent();

  const WriteBatchIndex* const index_;
  const Comparator* const ucmp_;
  const uint32_t cf_id_;
  const std::unique_ptr<Iterator> base_;
  const MergeOperator* const merge_operator_;
  const Slice* const lower_;
  const Slice* const upper_;

  Node* delta_ = nullptr;
  bool forward_ = true;
  bool valid_ = false;
  bool current_at_delta_ = false;
  bool equal_keys_ = false;
  Slice value_;            // the current delta value (into the batch or merged_)
  std::string merged_;     // reused merge result
  std::string saved_key_;  // reused: the key at a direction change
  WbwiResolved resolved_;  // reused
  Status status_;          // a merge failure (sticky)
};

}  // namespace strata
