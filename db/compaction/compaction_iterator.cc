// CompactionIterator (see the header for the visibility rules).
//
// One pass over the input, deciding each entry as it arrives. Per user key
// the iterator remembers the stripe of the last version seen and whether a
// Put/Delete/SingleDelete already occupies that stripe (then anything older
// in the stripe is hidden). Versions of one key arrive newest first, so their
// stripes never increase; the stripe test is O(1) except when a version
// crosses into a lower stripe.
//
// SingleDelete pairs. When a SingleDelete meets a Put of its key in its own
// stripe, both are dropped -- that relies on the SingleDelete contract (one
// Put since the previous deletion of the key). As a guard against a broken
// contract inside this input, the SingleDelete is held back until the next
// input entry shows what lies under the Put: the pair is dropped only if that
// is another key (or the end) or a tombstone of the key in a lower stripe.
// Another version in the same stripe, or a Put/Merge below, means the key was
// written more than once: the SingleDelete is then written after all (hiding
// the rest of its stripe), so no older value is resurrected. Versions below
// the output level are trusted to the contract, as in RocksDB.
#include "db/compaction/compaction_iterator.h"

#include <algorithm>
#include <cassert>
#include <utility>

namespace strata {

namespace {

// A type that stands for a value a reader sees (and that hides older
// versions in its stripe).
inline bool IsValueLike(ValueType t) {
  return t == kTypeValue || t == kTypeBlobIndex || t == kTypeWideColumnEntity;
}

inline bool IsDeletion(ValueType t) {
  return t == kTypeDeletion || t == kTypeDeletionWithTimestamp;
}

}  // namespace

struct CompactionIterator::Rep {
  // Immutable after construction.
  InternalIterator* input;
  const Comparator* ucmp;
  std::vector<SequenceNumber> snapshots;  // ascending, unique
  bool bottommost;
  std::function<bool(const Slice&)> key_may_exist_below;

  // Iteration state.
  bool valid = false;
  Status status;
  CompactionIteratorStats stats;

  // The user key being processed and what was seen of it so far.
  std::string cur_user_key;
  bool has_cur_key = false;
  bool key_started = false;       // a version of cur_user_key set `stripe`
  size_t stripe = 0;              // index into snapshots (size() = latest)
  bool stripe_has_value = false;  // a Put/Delete/SingleDelete is in `stripe`
  bool drop_rest = false;         // a dropped tombstone covers the rest

  // A SingleDelete dropped with its Put, held back until the next input
  // entry shows whether it is needed after all (see top).
  bool sd_pending = false;
  // The current output is saved_key/saved_value (the input is already past
  // it) rather than the input's current entry.
  bool out_saved = false;
  std::string saved_key;
  std::string saved_value;

  Rep(InternalIterator* in, const Comparator* c, std::vector<SequenceNumber> snaps, bool bottom,
      std::function<bool(const Slice&)> below)
      : input(in),
        ucmp(c),
        snapshots(std::move(snaps)),
        bottommost(bottom),
        key_may_exist_below(std::move(below)) {
    // The caller passes them sorted; make the invariant hold regardless.
    if (!std::is_sorted(snapshots.begin(), snapshots.end())) {
      std::sort(snapshots.begin(), snapshots.end());
    }
    snapshots.erase(std::unique(snapshots.begin(), snapshots.end()), snapshots.end());
  }

  // The stripe of `seq`, a version of cur_user_key no newer than the last one
  // seen (so its stripe is <= `stripe`).
  size_t StripeOf(SequenceNumber seq) const {
    if (key_started) {
      if (stripe == 0 || snapshots[stripe - 1] < seq) return stripe;
      return static_cast<size_t>(
          std::lower_bound(snapshots.begin(), snapshots.begin() + (stripe - 1), seq) -
          snapshots.begin());
    }
    return static_cast<size_t>(std::lower_bound(snapshots.begin(), snapshots.end(), seq) -
                               snapshots.begin());
  }

  bool KeyCannotExistBelow(const Slice& user_key) const {
    return bottommost || (key_may_exist_below && !key_may_exist_below(user_key));
  }

  void StartKey(const Slice& user_key) {
    cur_user_key.assign(user_key.data(), user_key.size());
    has_cur_key = true;
    key_started = false;
    stripe = 0;
    stripe_has_value = false;
    drop_rest = false;
  }

  // Drops the input's current entry.
  void Skip(uint64_t* counter) {
    ++stats.num_input_records;
    ++*counter;
    input->Next();
  }

  // Makes the input's current entry the output.
  void EmitInput() {
    ++stats.num_input_records;
    ++stats.num_output_records;
    out_saved = false;
    valid = true;
  }

  // Makes saved_key/saved_value the output.
  void EmitSaved() {
    ++stats.num_output_records;
    out_saved = true;
    valid = true;
  }

  void FindNext();
};

// Advances from the input's current (unprocessed) entry to the next entry to
// output, or to the end / a corrupt key.
void CompactionIterator::Rep::FindNext() {
  valid = false;
  out_saved = false;
  while (input->Valid()) {
    const Slice ikey = input->key();
    ParsedInternalKey p;
    const Status ps = ParseInternalKey(ikey, &p);
    if (!ps.ok()) {
      ++stats.num_corrupt_keys;
      status = Status::Corruption(
          "compaction input has an undecodable internal key " + ikey.ToString(/*hex=*/true),
          ps.ToString());
      return;
    }
    if (!has_cur_key || !ucmp->Equal(p.user_key, cur_user_key)) {
      if (sd_pending) {
        // Nothing older of the key in the input: the pair goes.
        sd_pending = false;
        ++stats.num_single_delete_pairs;
      }
      StartKey(p.user_key);
    }
    if (p.type == kTypeRangeDeletion) {
      // Not expected here (see the header); passed through untouched rather
      // than dropped.
      assert(false);
      EmitInput();
      return;
    }

    const size_t st = StripeOf(p.sequence);
    const bool new_stripe = !key_started || st != stripe;

    if (sd_pending) {
      // The version under the Put decides (see the top of the file).
      sd_pending = false;
      if (!new_stripe || IsValueLike(p.type) || p.type == kTypeMerge) {
        // The key was written again in the stripe, or an older value could
        // show through: the SingleDelete stays (the Put it met counts as
        // hidden). This entry is decided on the next call, against the
        // SingleDelete's stripe.
        ++stats.num_dropped_hidden;
        EmitSaved();
        return;
      }
      ++stats.num_single_delete_pairs;
    }

    if (drop_rest) {
      Skip(&stats.num_dropped_covered);
      continue;
    }
    if (!new_stripe && stripe_has_value) {
      Skip(&stats.num_dropped_hidden);
      continue;
    }
    if (new_stripe) {
      key_started = true;
      stripe = st;
      stripe_has_value = false;
    }

    if (p.type == kTypeMerge) {
      EmitInput();
      return;
    }
    stripe_has_value = true;
    if (IsValueLike(p.type)) {
      EmitInput();
      return;
    }
    assert(IsDeletion(p.type) || p.type == kTypeSingleDeletion);
    if (st == 0 && new_stripe && KeyCannotExistBelow(p.user_key)) {
      // Newest version in the earliest stripe, nothing below: no reader can
      // tell the tombstone and everything older from absence.
      drop_rest = true;
      Skip(&stats.num_dropped_deletions);
      continue;
    }
    if (IsDeletion(p.type)) {
      EmitInput();
      return;
    }

    // SingleDelete: look at the next entry to see whether it is the Put it
    // deletes. The SingleDelete is copied first (the input moves on).
    saved_key.assign(ikey.data(), ikey.size());
    const Slice v = input->value();
    saved_value.assign(v.data(), v.size());
    ++stats.num_input_records;
    input->Next();
    if (input->Valid()) {
      const Slice next_ikey = input->key();
      ParsedInternalKey next;
      // A corrupt next key is reported by the next call; here it only means
      // "not a matching Put".
      if (ParseInternalKey(next_ikey, &next).ok() && next.type == kTypeValue &&
          ucmp->Equal(next.user_key, cur_user_key) && StripeOf(next.sequence) == st) {
        sd_pending = true;
        ++stats.num_input_records;  // the Put, dropped with the SingleDelete
        input->Next();
        continue;
      }
    }
    EmitSaved();
    return;
  }
  if (sd_pending) {
    sd_pending = false;
    ++stats.num_single_delete_pairs;
  }
}

CompactionIterator::CompactionIterator(
    InternalIterator* input, const Comparator* user_cmp, std::vector<SequenceNumber> snapshots,
    bool bottommost, std::function<bool(const Slice& user_key)> key_may_exist_below)
    : rep_(new Rep(input, user_cmp, std::move(snapshots), bottommost,
                   std::move(key_may_exist_below))) {}

// Placeholder until merge, filter and range-deletion support land: only the
// visibility rules are applied.
CompactionIterator::CompactionIterator(InternalIterator* input, CompactionIteratorOptions options)
    : rep_(new Rep(input, options.user_cmp, std::move(options.snapshots), options.bottommost,
                   std::move(options.key_may_exist_below))) {}

CompactionIterator::~CompactionIterator() { delete rep_; }

void CompactionIterator::SeekToFirst() {
  Rep* r = rep_;
  r->valid = false;
  r->status = Status::OK();
  r->stats = CompactionIteratorStats();
  r->has_cur_key = false;
  r->key_started = false;
  r->stripe = 0;
  r->stripe_has_value = false;
  r->drop_rest = false;
  r->sd_pending = false;
  r->out_saved = false;
  r->input->SeekToFirst();
  r->FindNext();
}

bool CompactionIterator::Valid() const { return rep_->valid; }

void CompactionIterator::Next() {
  Rep* r = rep_;
  assert(r->valid);
  if (!r->out_saved) r->input->Next();
  r->FindNext();
}

Slice CompactionIterator::key() const {
  assert(rep_->valid);
  return rep_->out_saved ? Slice(rep_->saved_key) : rep_->input->key();
}

Slice CompactionIterator::value() const {
  assert(rep_->valid);
  return rep_->out_saved ? Slice(rep_->saved_value) : rep_->input->value();
}

Status CompactionIterator::status() const {
  if (!rep_->status.ok()) return rep_->status;
  return rep_->input->status();
}

const CompactionIteratorStats& CompactionIterator::stats() const { return rep_->stats; }

}  // namespace strata
