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
// Merge operands are kept as they are (merging is done by MergeHelper, a
// later slice). Range tombstones never appear here.
//
// Thread-safety: not thread-safe.
// Invariants:
//  1. Output keys are strictly increasing in internal-key order (a subset of
//     the input).
//  2. For every snapshot (and the latest state), the value a reader sees for
//     each user key is the same over the output as over the input (given
//     the bottommost / key_may_exist_below contract).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "db/dbformat.h"
#include "strata/comparator.h"
#include "strata/compaction_filter.h"
#include "strata/merge_operator.h"
#include "util/internal_iterator.h"

namespace strata {

struct CompactionIteratorStats {
  uint64_t num_input_records = 0;
  uint64_t num_output_records = 0;
  uint64_t num_dropped_hidden = 0;     // older versions in the same stripe
  uint64_t num_dropped_deletions = 0;  // tombstones dropped (with what they covered)
  uint64_t num_dropped_covered = 0;    // versions covered by a dropped tombstone
  uint64_t num_single_delete_pairs = 0;
  uint64_t num_corrupt_keys = 0;
};

class CompactionRangeDelAggregator;  // db/range_del_aggregator.h
class Logger;
class Statistics;

struct CompactionIteratorOptions {
  const Comparator* user_cmp = nullptr;
  std::vector<SequenceNumber> snapshots;  // ascending
  // No level below the output holds any of these keys.
  bool bottommost = false;
  // Used when !bottommost; empty = every key may exist below.
  std::function<bool(const Slice& user_key)> key_may_exist_below;
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
