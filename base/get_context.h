// GetContext: the state of one point lookup as it descends the sources of a
// read (memtables, then tables newest first). A table hands it, in
// internal-key order, every entry whose user key equals the lookup's and
// whose sequence is visible at the lookup's snapshot; the context decides
// what the entry means and whether the search goes on.
//
// Thread-safety: one lookup, one thread.
// Merge operands met on the way are collected (copied: table blocks may be
// released after each entry) in the MergeContext and resolved by the merge
// operator at the first value or deletion below them; range tombstones seen
// so far raise max_covering_tombstone_seq, and an entry older than it counts
// as deleted.
// Invariants: once state() is kFound, kDeleted or kCorrupt, SaveValue
// returns false and the search stops; kMerge means operands were collected
// and older sources must still be searched (the caller merges them over no
// base when none remain); *value is written only when the state becomes
// kFound.
#pragma once

#include <string>

#include "base/dbformat.h"
#include "base/merge_context.h"
#include "strata/comparator.h"
#include "strata/merge_operator.h"
#include "strata/slice.h"
#include "strata/status.h"

namespace strata {

class GetContext {
 public:
  enum State {
    kNotFound,  // nothing seen yet: keep looking in older sources
    kFound,     // a value: *value holds it
    kDeleted,   // a deletion hides every older entry
    kCorrupt,   // an entry that cannot be interpreted, or a failed merge
    kMerge,     // merge operands collected: keep looking for their base
  };

  // user_key and value must outlive the context. value may be null (a
  // KeyMayExist-style probe). merge_context: where operands go (null, or no
  // operator: a merge operand fails the lookup with InvalidArgument).
  // max_covering_tombstone_seq: shared with the caller, who
  // raises it source by source (null = no range deletions).
  GetContext(const Comparator* user_cmp, const Slice& user_key, std::string* value,
             const MergeOperator* merge_operator = nullptr, MergeContext* merge_context = nullptr,
             SequenceNumber* max_covering_tombstone_seq = nullptr)
      : user_cmp_(user_cmp),
        user_key_(user_key),
        value_(value),
        merge_operator_(merge_operator),
        merge_context_(merge_context),
        max_covering_tombstone_seq_(max_covering_tombstone_seq) {}

  const Slice& user_key() const { return user_key_; }
  State state() const { return state_; }
  // Whether the lookup is decided (found, deleted or failed).
  bool done() const { return state_ != kNotFound && state_ != kMerge; }
  // Why the state is kCorrupt (a failed merge, or a bad entry type).
  const Status& error() const { return error_; }
  // The range-tombstone watermark shared with the caller (may be null).
  SequenceNumber* max_covering_tombstone_seq() const { return max_covering_tombstone_seq_; }
  // Starts the lookup with operands already collected from memtables.
  void SetMergeInProgress() { state_ = kMerge; }

  // Feeds one entry. Returns true when the lookup must continue with older
  // entries, false when it is decided. Entries of other user keys are
  // ignored (returns false: the caller went past the key).
  bool SaveValue(const ParsedInternalKey& key, const Slice& value);

 private:
  const Comparator* user_cmp_;
  Slice user_key_;
  std::string* value_;
  const MergeOperator* merge_operator_;
  MergeContext* merge_context_;
  SequenceNumber* max_covering_tombstone_seq_;
  State state_ = kNotFound;
  Status error_;
};

}  // namespace strata
