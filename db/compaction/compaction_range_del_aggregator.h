// CompactionRangeDelAggregator: the range tombstones of a compaction's (or a
// flush's) inputs, seen through the snapshot stripes of CompactionIterator
// (compaction_iterator.h): which entries a tombstone of the same stripe
// hides, and which tombstones each output file must carry.
//
// Thread-safety: not thread-safe (one job, one thread).
#pragma once

#include <cstdint>
#include <vector>

#include "base/dbformat.h"
#include "base/internal_iterator.h"
#include "base/range_tombstone.h"
#include "strata/slice.h"
#include "strata/status.h"

namespace strata {

class CompactionRangeDelAggregator {
 public:
  // snapshots: ascending.
  CompactionRangeDelAggregator(const InternalKeyComparator* icmp,
                               std::vector<SequenceNumber> snapshots);
  ~CompactionRangeDelAggregator();
  CompactionRangeDelAggregator(const CompactionRangeDelAggregator&) = delete;
  CompactionRangeDelAggregator& operator=(const CompactionRangeDelAggregator&) = delete;

  // Adds one input's tombstones (entries as for FragmentedRangeTombstoneList;
  // iterator borrowed). Corruption for an undecodable entry.
  Status AddTombstones(InternalIterator* range_del_iter);
  // Adds owned tombstones.
  void AddTombstones(const std::vector<RangeTombstone>& tombstones);

  bool empty() const;

  // Whether key is covered by a tombstone with a larger sequence in the
  // same snapshot stripe (then no reader can see key). Amortized O(1) when
  // keys arrive in ascending order.
  bool ShouldDelete(const ParsedInternalKey& key);

  // Appends the tombstones an output file covering user keys [lower, upper)
  // must carry (lower/upper null = unbounded), ascending by start: every
  // fragment overlapping the range, clipped to it; of a fragment's sequence
  // numbers only the newest in each snapshot stripe is kept, and when
  // bottommost, those in the earliest stripe (below every snapshot) are
  // dropped.
  void GetTombstonesForOutput(const Slice* lower, const Slice* upper, bool bottommost,
                              std::vector<RangeTombstone>* out);

 private:
  struct Rep;
  Rep* rep_;
};

}  // namespace strata
