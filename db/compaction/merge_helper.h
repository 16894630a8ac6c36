// MergeHelper: merge operands in flushes and compactions. It collects a run
// of operands of one user key from a sorted internal-key input and combines
// what no snapshot separates (the full merge itself is base/merge.h).
//
// A run (MergeUntil). Starting at a merge operand, the run takes the
// consecutive kTypeMerge entries of the same user key whose sequence lies in
// the caller's snapshot stripe (seq > stop_before). The entry that ends it
// decides the output:
//   - a Put (kTypeValue) in the stripe: full merge over its value; the Put is
//     consumed -> one kTypeValue entry;
//   - a Delete / SingleDelete in the stripe, or an entry a range tombstone of
//     the stripe covers: full merge with no base -> one kTypeValue entry (a
//     consumed deletion is hidden by the merged value; a covered entry is
//     left in the input for the caller to drop);
//   - another key, the end of the input or the stripe boundary: if at_bottom
//     (the caller knows no older version of the key exists anywhere), full
//     merge with no base -> kTypeValue; otherwise the operands (two or more)
//     are pre-combined with PartialMergeMulti -> one kTypeMerge entry, or,
//     when the operator declines, emitted unchanged.
// A combined entry carries the newest operand's sequence number. A full
// merge that fails returns Corruption (never a half-made value).
//
// Compaction filter. When the caller says no snapshot can see the run
// (may_filter), each operand is offered to FilterV2 as kMergeOperand before
// it is collected: kRemove (and kRemoveAndSkipUntil, which here does not
// skip) drops it, kChangeValue replaces it. If every operand is dropped the
// run outputs nothing and the entry that ended it is not consumed.
//
// Thread-safety: a MergeHelper object is single-threaded.
// Invariants (after MergeUntil returned OK):
//  1. keys()/values() hold the output, newest first, in strictly decreasing
//     sequence order, all of the run's user key; keys are internal keys.
//  2. consumed() input entries were read and the input is positioned on the
//     first entry not consumed; consumed() = filtered() + keys().size() +
//     the entries combined away.
//  3. The buffers are reused across calls: a steady stream of runs
//     allocates nothing once warmed up (beyond what the operator does).
#pragma once

#include <cstdint>
#include <deque>
#include <span>
#include <string>
#include <vector>

#include "base/dbformat.h"
#include "base/internal_iterator.h"
#include "base/merge.h"
#include "strata/compaction_filter.h"
#include "strata/comparator.h"
#include "strata/merge_operator.h"
#include "strata/slice.h"
#include "strata/status.h"

namespace strata {

class CompactionRangeDelAggregator;  // db/compaction/compaction_range_del_aggregator.h
class Logger;
class Statistics;

class MergeHelper {
 public:
  // stop_before for a run in the earliest stripe: no sequence ends the run.
  static constexpr SequenceNumber kNoStripeBelow = ~SequenceNumber{0};

  // All pointers are borrowed and must outlive the helper. op must not be
  // null; filter may be null (then nothing is filtered). filter_level is the
  // level passed to the filter.
  MergeHelper(const Comparator* user_cmp, const MergeOperator* op, const CompactionFilter* filter,
              int filter_level, Logger* logger, Statistics* stats);
  MergeHelper(const MergeHelper&) = delete;
  MergeHelper& operator=(const MergeHelper&) = delete;

  // Collects and combines one run (see the top of the file).
  // REQUIRES: iter is valid and positioned on a kTypeMerge entry that
  // range_del_agg (if any) does not cover.
  // stop_before: the stripe's lower boundary -- entries with seq <=
  // stop_before belong to an older stripe and end the run; kNoStripeBelow
  // for the earliest stripe.
  // at_bottom: no version of the key older than the run can exist (in this
  // input after the run's stripe, or in any level below the output).
  // may_filter: no snapshot can see the run (offer operands to the filter).
  // range_del_agg: may be null.
  // Returns Corruption for an undecodable key or a failed full merge, the
  // input's error if it fails; the output is empty then.
  Status MergeUntil(InternalIterator* iter, SequenceNumber stop_before, bool at_bottom,
                    bool may_filter, CompactionRangeDelAggregator* range_del_agg);

  // The output of the last MergeUntil, newest first. Valid until the next
  // MergeUntil.
  std::span<const std::string> keys() const { return {keys_.data(), num_out_}; }
  std::span<const std::string> values() const { return {values_.data(), num_out_}; }
  // Whether the output is one full-merge result (kTypeValue).
  bool full_merged() const { return full_merged_; }
  // Whether the output is one PartialMergeMulti result.
  bool partial_merged() const { return partial_merged_; }
  // Input entries read (and moved past) by the last MergeUntil.
  uint64_t consumed() const { return consumed_; }
  // Operands the filter removed / rewrote in the last MergeUntil.
  uint64_t filtered() const { return filtered_; }
  uint64_t filter_changed() const { return filter_changed_; }

 private:
  // Replaces the first collected operand with merge_result_ as the single
  // output entry of type t.
  void OutputCombined(ValueType t);

  // Immutable after construction.
  const Comparator* ucmp_;
  const MergeOperator* op_;
  const CompactionFilter* filter_;
  int filter_level_;
  Logger* logger_;
  Statistics* stats_;

  // Output of the last run, plus reusable slots beyond num_out_.
  std::vector<std::string> keys_;
  std::vector<std::string> values_;
  size_t num_out_ = 0;
  bool full_merged_ = false;
  bool partial_merged_ = false;
  uint64_t consumed_ = 0;
  uint64_t filtered_ = 0;
  uint64_t filter_changed_ = 0;

  // Scratch, reused.
  std::string user_key_;
  std::vector<Slice> operands_;  // oldest first
  std::deque<Slice> partial_operands_;
  std::string merge_result_;
  std::string filter_value_;
  std::string skip_until_;
};

}  // namespace strata
