// GetContext: the one state machine of a point lookup (Get, MultiGet). The
// lookup of user_key at sequence read_seq descends the sources of a read --
// the mutable memtable, the immutable memtables newest first, then the
// table files (L0 newest first, one file per deeper level) -- and each
// source hands the context, in internal-key order, every entry of user_key
// it holds that is visible at read_seq. The context alone decides what an
// entry means and whether the search goes on; the caller then asks it for
// the result with Finish.
//
// Range tombstones. Before a source hands its entries over, it reports its
// range tombstones (AddRangeTombstones): the context keeps the newest
// visible covering sequence seen so far (the watermark), and an entry older
// than it counts as deleted. Sources are visited newest first, so a
// tombstone of a newer source hides the entries of every older one.
//
// Merge operands met on the way are collected in the MergeContext -- by
// reference when the source pins its bytes for the whole lookup (memtable
// arenas), copied otherwise (table blocks may be released after each entry)
// -- and resolved by the merge operator at the first value or deletion below
// them, or over no base value by Finish when the sources run out.
//
// Pinning (Get into a PinnableSlice). A lookup with set_pinnable() fills a
// PinnableSlice instead of a string. A source that can keep a value's bytes
// alive past the lookup says so (SaveValue's can_pin); the context then
// points the slice at the bytes (pin_pending()) and the source -- or the
// layer above it that owns what keeps the bytes alive -- must, before it
// lets go of that memory, either register a cleanup on pinnable() and call
// PinDone(), or call PinByCopy(). A value from any other source, or one
// produced by a merge, is copied into the slice's own buffer.
//
// Operand collection (GetMergeOperands): with collect_operands(), entries
// are not merged: operands are collected (newest first), a Put below them
// is collected as the oldest operand, a deletion ends the collection.
//
// Thread-safety: one lookup, one thread.
// Invariants:
//  1. Once state() is kFound, kDeleted or kCorrupt (done()), SaveValue
//     returns false and changes nothing: the search stops.
//  2. kMerge means operands were collected and older sources must still be
//     searched.
//  3. *value is written only when the state becomes kFound (or by Finish
//     merging over no base).
//  4. The watermark only rises.
#pragma once

#include <string>

#include "base/dbformat.h"
#include "base/merge_context.h"
#include "base/range_tombstone.h"
#include "strata/comparator.h"
#include "strata/merge_operator.h"
#include "strata/pinnable_slice.h"
#include "strata/slice.h"
#include "strata/status.h"

namespace strata {

class Logger;
class Statistics;

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
  // read_seq: the lookup's snapshot, for range tombstones (the entries
  // sources hand over are already visible at it).
  GetContext(const Comparator* user_cmp, const Slice& user_key, std::string* value,
             const MergeOperator* merge_operator = nullptr, MergeContext* merge_context = nullptr,
             SequenceNumber read_seq = kMaxSequenceNumber)
      : user_cmp_(user_cmp),
        user_key_(user_key),
        value_(value),
        merge_operator_(merge_operator),
        merge_context_(merge_context),
        read_seq_(read_seq) {}

  // Makes the lookup fill *p (which must outlive the context) instead of
  // the string given to the constructor. Resets *p.
  void set_pinnable(PinnableSlice* p) {
    p->Reset();
    pinnable_ = p;
    value_ = p->GetSelf();
  }
  PinnableSlice* pinnable() const { return pinnable_; }
  // The found value points into a source's memory that someone must still
  // pin (see the top comment).
  bool pin_pending() const { return pin_pending_; }
  // A cleanup that keeps the bytes alive was registered on pinnable().
  void PinDone() { pin_pending_ = false; }
  // Nothing can keep the bytes alive: copy them into the slice's buffer.
  void PinByCopy() {
    if (!pin_pending_) return;
    pin_pending_ = false;
    pinnable_->PinSelf(Slice(*pinnable_));
  }

  // GetMergeOperands mode (see the top comment).
  void collect_operands() { collect_operands_ = true; }
  // Newest-entry mode (transactions' conflict checks): the first entry of
  // any type decides the lookup (state kFound), and newest_seq() is its
  // sequence; nothing is merged or copied.
  void find_newest_entry() { newest_entry_mode_ = true; }
  SequenceNumber newest_seq() const { return newest_seq_; }

  const Slice& user_key() const { return user_key_; }
  SequenceNumber read_seq() const { return read_seq_; }
  State state() const { return state_; }
  // Whether the lookup is decided (found, deleted or failed).
  bool done() const { return state_ != kNotFound && state_ != kMerge; }
  // Why the state is kCorrupt (a failed merge, or a bad entry type).
  const Status& error() const { return error_; }

  // The range-tombstone watermark: entries with a smaller sequence count as
  // deleted.
  SequenceNumber max_covering_tombstone_seq() const { return max_covering_tombstone_seq_; }
  // Raises the watermark to the newest tombstone of `tombstones` that
  // covers user_key and is visible at read_seq. O(log fragments).
  void AddRangeTombstones(const FragmentedRangeTombstoneList& tombstones) {
    RaiseTombstoneWatermark(tombstones.MaxCoveringSeq(user_key_, read_seq_));
  }
  // Raises the watermark to seq (a covering tombstone found elsewhere).
  void RaiseTombstoneWatermark(SequenceNumber seq) {
    if (seq > max_covering_tombstone_seq_) max_covering_tombstone_seq_ = seq;
  }

  // Feeds one entry. Returns true when the lookup must continue with older
  // entries, false when it is decided. Entries of other user keys are
  // ignored (returns false: the caller went past the key).
  // value_pinned: value's bytes stay valid until the lookup ends (a merge
  // operand is then kept by reference instead of copied).
  // can_pin: the caller resolves a pending pin (see the top comment) when
  // this returns with pin_pending().
  bool SaveValue(const ParsedInternalKey& key, const Slice& value, bool value_pinned = false,
                 bool can_pin = false) {
    if (!user_cmp_->Equal(key.user_key, user_key_)) return false;
    return SaveEntry(key.sequence, key.type, value, value_pinned, can_pin);
  }
  // SaveValue for a caller that has already matched the user key.
  bool SaveEntry(SequenceNumber seq, ValueType type, const Slice& value, bool value_pinned,
                 bool can_pin = false);

  // The lookup's result once the sources are exhausted or the lookup is
  // decided: OK (*value set), NotFound, the merge of operands over no base
  // (when only operands were found), or the error. logger and stats are
  // handed to the merge operator (may be null).
  Status Finish(Logger* logger, Statistics* stats);

 private:
  // Full merge of the collected operands over base (null: none) into
  // *value_; the state becomes kFound or kCorrupt.
  void Merge(const Slice* base);
  // SaveEntry of a Put or deletion in operand-collection mode.
  bool SaveForCollection(ValueType type, const Slice& value, bool value_pinned);

  const Comparator* user_cmp_;
  Slice user_key_;
  std::string* value_;
  const MergeOperator* merge_operator_;
  MergeContext* merge_context_;
  SequenceNumber read_seq_;
  SequenceNumber max_covering_tombstone_seq_ = 0;
  State state_ = kNotFound;
  bool pin_pending_ = false;
  bool collect_operands_ = false;
  bool newest_entry_mode_ = false;
  SequenceNumber newest_seq_ = 0;
  PinnableSlice* pinnable_ = nullptr;
  Status error_;
};

}  // namespace strata
