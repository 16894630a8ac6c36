// Range tombstones (DeleteRange) as every layer reads them: fragmented
// lists and a lookup cursor. Compaction's view with snapshot stripes is
// db/compaction/compaction_range_del_aggregator.h.
//
// A range tombstone [start, end)@seq deletes every entry of a user key k with
// start <= k < end and sequence < seq. Sources (memtables, table files)
// store tombstones unfragmented: (internal key start|seq|kTypeRangeDeletion,
// value = end user key), overlapping freely. FragmentedRangeTombstoneList
// cuts them into disjoint fragments, each with the descending list of the
// sequence numbers covering it, so "the newest tombstone covering k visible
// at sequence r" is one binary search plus a scan of a short list.
//
// Thread-safety: a FragmentedRangeTombstoneList is immutable after
// construction and may be shared by threads; a cursor is single-threaded.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/dbformat.h"
#include "base/internal_iterator.h"
#include "strata/comparator.h"
#include "strata/slice.h"
#include "strata/status.h"

namespace strata {

// One tombstone with owned keys (for building and for output).
struct RangeTombstone {
  std::string start;  // user key, inclusive
  std::string end;    // user key, exclusive
  SequenceNumber seq = 0;
};

// Reads the unfragmented tombstones of `iter` (from SeekToFirst) into *out.
// Corruption for an entry that does not parse or is not a range deletion;
// the iterator's error if it fails.
Status ReadRangeTombstones(InternalIterator* iter, std::vector<RangeTombstone>* out);

class FragmentedRangeTombstoneList {
 public:
  // Disjoint, ascending; seqs_[seq_begin, seq_end) are the sequence numbers
  // of the tombstones covering [start, end), descending, no duplicates.
  struct Fragment {
    Slice start;
    Slice end;
    uint32_t seq_begin;
    uint32_t seq_end;
  };

  // Reads every entry of unfragmented (any order; keys are internal keys of
  // type kTypeRangeDeletion, values end user keys; the iterator is
  // borrowed, positioned with SeekToFirst). Tombstones with start >= end are
  // ignored. A key that does not parse, or an iterator error, makes status()
  // non-OK (and the list empty).
  FragmentedRangeTombstoneList(InternalIterator* unfragmented, const Comparator* user_cmp);
  // From owned tombstones (any order).
  FragmentedRangeTombstoneList(const std::vector<RangeTombstone>& tombstones,
                               const Comparator* user_cmp);
  FragmentedRangeTombstoneList(const FragmentedRangeTombstoneList&) = delete;
  FragmentedRangeTombstoneList& operator=(const FragmentedRangeTombstoneList&) = delete;

  const Status& status() const { return status_; }
  bool empty() const { return fragments_.empty(); }
  const std::vector<Fragment>& fragments() const { return fragments_; }
  const std::vector<SequenceNumber>& seqs() const { return seqs_; }
  const Comparator* user_comparator() const { return ucmp_; }
  // The number of unfragmented tombstones read.
  size_t num_tombstones() const { return num_tombstones_; }
  // Largest / smallest sequence of any tombstone (0 if empty).
  SequenceNumber max_seq() const { return max_seq_; }
  SequenceNumber min_seq() const { return min_seq_; }

  // The largest sequence <= read_seq of a tombstone covering user_key, or 0.
  // O(log fragments + seqs per fragment).
  SequenceNumber MaxCoveringSeq(const Slice& user_key, SequenceNumber read_seq) const;

  // Index of the first fragment whose end > user_key (num fragments if
  // none): the fragment containing user_key, or the next one after it.
  size_t LowerBound(const Slice& user_key) const;

  // The largest sequence <= read_seq in fragment i, or 0.
  SequenceNumber FragmentSeq(size_t i, SequenceNumber read_seq) const;

  // Finds the fragment containing user_key, starting from the hint *pos (a
  // fragment index, clamped) and looking at its neighbours before a binary
  // search. Returns true and sets *pos to the fragment if one contains the
  // key; otherwise returns false and sets *pos near the key (the next
  // fragment after it, or the last one). REQUIRES: !empty().
  bool FindFragment(const Slice& user_key, size_t* pos) const;

  // Every tombstone piece again, unfragmented per fragment: (fragment start,
  // fragment end, seq) for each seq, in fragment order.
  void ToTombstones(std::vector<RangeTombstone>* out) const;

  size_t ApproximateMemoryUsage() const;

 private:
  void Build(std::vector<RangeTombstone> tombstones);

  const Comparator* ucmp_;
  Status status_;
  std::vector<std::string> keys_;  // storage the fragments point into
  std::vector<Fragment> fragments_;
  std::vector<SequenceNumber> seqs_;
  size_t num_tombstones_ = 0;
  SequenceNumber max_seq_ = 0;
  SequenceNumber min_seq_ = 0;
};

// A position in one source's fragment list for a read at read_seq. Keys are
// expected mostly in order (either direction): stepping from the last
// position is tried before a binary search.
class RangeTombstoneCursor {
 public:
  // list is borrowed (may be null = no tombstones).
  RangeTombstoneCursor(const FragmentedRangeTombstoneList* list, SequenceNumber read_seq);

  // The largest visible sequence of a tombstone covering user_key, or 0.
  SequenceNumber CoveringSeq(const Slice& user_key);
  // After CoveringSeq returned non-zero: the covering fragment's bounds.
  Slice fragment_start() const;
  Slice fragment_end() const;

 private:
  const FragmentedRangeTombstoneList* list_;
  SequenceNumber read_seq_;
  size_t pos_ = 0;  // last fragment index looked at
};

}  // namespace strata
