// CompactionIterator: turns the merged input of a flush or compaction
// (internal keys in order, all versions) into the entries that must be
// written out, dropping what no reader can ever see.
//
// Visibility rule. Let S = the sorted live snapshot sequence numbers plus
// kMaxSequenceNumber (the latest state). A version with sequence s is in the
// "stripe" of the smallest snapshot in S that is >= s. For each user key,
// among versions in the same stripe only the newest can be seen by anyone:
// the others are dropped (hidden).
//
// Deletions. A Deletion (or SingleDelete) that is the newest of its key in
// the earliest stripe (no snapshot below it) and whose key cannot exist in
// any level below the output (bottommost, or key_may_exist_below says no)
// is dropped together with every older version of the key in that stripe.
// A SingleDelete meeting the Put it deletes in the same stripe drops both.
//
// Range deletions (options.range_del_agg set). A point entry of any type
// that a range tombstone of the inputs covers within its own stripe
// (CompactionRangeDelAggregator::ShouldDelete) is dropped; the tombstones
// themselves are written by the caller (GetTombstonesForOutput) and never
// pass through here. A SingleDelete pairs with its Put as usual even when a
// tombstone covers the Put (the tombstone then lies between them, so the
// pair hides nothing the tombstone does not).
//
// Merges (options.merge_operator set; with none, operands pass through
// unchanged). The operands of a key in one stripe form a run that
// MergeHelper combines (db/compaction/merge_helper.h): over a Put or a deletion in the
// same stripe (or a range tombstone covering what lies under the run) into
// one Put; with nothing older anywhere (earliest stripe and the key cannot
// exist below) into one Put over no base; otherwise into one operand by
// PartialMergeMulti when the operator can, else the operands unchanged. Runs
// never cross a snapshot. A combined entry takes the newest operand's
// sequence number. A failed full merge stops the iteration with Corruption.
//
// Compaction filter (options.compaction_filter set). The filter may change
// or remove a version only if no snapshot can see it: the version must lie
// in the latest stripe (sequence above every snapshot). There it is called
// for
//   - a Put (kTypeValue) that is not hidden by a newer Put/deletion of its
//     stripe, and for the Put a full merge produced (as ValueType::kValue);
//   - each merge operand of a run being merged (ValueType::kMergeOperand):
//     kRemove and kRemoveAndSkipUntil drop the operand, kChangeValue
//     replaces it.
// For a value: kKeep writes it; kChangeValue writes the new value under the
// same key; kRemove writes a Deletion with the same sequence (or, when that
// Deletion would itself be dropped by the rule above, drops the version and
// every older one of its stripe); kRemoveAndSkipUntil, honoured only when
// there are no snapshots and *skip_until is above the current user key,
// drops the version and jumps the input to *skip_until without writing
// tombstones -- as in RocksDB, older versions of the skipped keys in levels
// below the output may then reappear (otherwise it acts as kKeep). The
// caller passes no filter for flushes unless FilterDuringFlush().
//
// Thread-safety: not thread-safe.
// Invariants:
//  1. Output keys are strictly increasing in internal-key order. Without a
//     merge operator or filter they are a subset of the input; merges and
//     filters rewrite values and types but keep each output's sequence
//     number that of an input entry of the same key.
//  2. For every snapshot (and the latest state), the value a reader sees for
//     each user key is the same over the output as over the input (given
//     the bottommost / key_may_exist_below contract), except where the
//     compaction filter changed the latest state.
//  3. Every input entry read is either written or counted in exactly one
//     drop bucket of the stats: num_input_records = num_output_records +
//     num_dropped_hidden + num_dropped_deletions + num_dropped_covered +
//     2 * num_single_delete_pairs + num_dropped_range_del +
//     num_merge_absorbed + num_filter_removed.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "base/dbformat.h"
#include "base/internal_iterator.h"
#include "strata/compaction_filter.h"
#include "strata/comparator.h"
#include "strata/merge_operator.h"

namespace strata {

struct CompactionIteratorStats {
  uint64_t num_input_records = 0;
  uint64_t num_output_records = 0;
  uint64_t num_dropped_hidden = 0;     // older versions in the same stripe
  uint64_t num_dropped_deletions = 0;  // tombstones dropped (with what they covered)
  uint64_t num_dropped_covered = 0;    // versions covered by a dropped tombstone
  uint64_t num_single_delete_pairs = 0;
  uint64_t num_corrupt_keys = 0;
  uint64_t num_dropped_range_del = 0;   // point entries covered by a range tombstone
  uint64_t num_merge_absorbed = 0;      // entries folded into another by a merge
  uint64_t num_full_merges = 0;         // runs combined into one Put
  uint64_t num_partial_merges = 0;      // runs combined into one operand
  uint64_t num_filter_removed = 0;      // versions/operands the filter removed, not written
  uint64_t num_filter_to_deletion = 0;  // values the filter removed, written as Deletions
  uint64_t num_filter_changed = 0;      // values/operands the filter rewrote
  // kRemoveAndSkipUntil jumps honoured (the entries jumped over are not read
  // and not counted in num_input_records).
  uint64_t num_filter_skips = 0;
};

class CompactionRangeDelAggregator;  // db/compaction/compaction_range_del_aggregator.h
class Logger;
class Statistics;

struct CompactionIteratorOptions {
  const Comparator* user_cmp = nullptr;
  std::vector<SequenceNumber> snapshots;  // ascending
  // No level below the output holds any of these keys.
  bool bottommost = false;
  // Used when !bottommost; empty = every key may exist below.
  std::function<bool(const Slice& user_key)> key_may_exist_below;
  // Asked instead of key_may_exist_below only when a SingleDelete meets its
  // Put with nothing older of the key in the input (whether the pair may
  // cancel); empty = key_may_exist_below decides. A flush sets it alone:
  // tombstones and merges at flush keep the not-bottommost rules.
  std::function<bool(const Slice& user_key)> single_delete_key_may_exist_below;
  // Combines merge operands (MergeHelper); null = operands pass through
  // unchanged.
  const MergeOperator* merge_operator = nullptr;
  // Run on values and operands no snapshot can see; null = none.
  const CompactionFilter* compaction_filter = nullptr;
  int filter_level = 0;  // the level passed to the filter
  // Range tombstones of the inputs: a key covered by a newer tombstone in
  // its snapshot stripe is dropped. null = none.
  CompactionRangeDelAggregator* range_del_agg = nullptr;
  Logger* logger = nullptr;
  Statistics* statistics = nullptr;
};

class CompactionIterator {
 public:
  // input: borrowed; positioned by SeekToFirst.
  CompactionIterator(InternalIterator* input, CompactionIteratorOptions options);
  // input: borrowed; positioned by SeekToFirst. snapshots: ascending.
  // bottommost: no level below the output holds any of these keys.
  // key_may_exist_below: used when !bottommost; may be empty (then: true).
  CompactionIterator(InternalIterator* input, const Comparator* user_cmp,
                     std::vector<SequenceNumber> snapshots, bool bottommost,
                     std::function<bool(const Slice& user_key)> key_may_exist_below = {});
  ~CompactionIterator();
  CompactionIterator(const CompactionIterator&) = delete;
  CompactionIterator& operator=(const CompactionIterator&) = delete;

  void SeekToFirst();
  bool Valid() const;
  void Next();
  // The current output entry (valid until Next).
  Slice key() const;
  Slice value() const;
  // The input's status, or Corruption for an undecodable key (a corrupt key
  // stops the iteration: compactions must not silently drop data).
  Status status() const;
  const CompactionIteratorStats& stats() const;

 private:
  struct Rep;
  Rep* rep_;
};

}  // namespace strata
