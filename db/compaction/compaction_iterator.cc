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
// is a tombstone of the key in a lower stripe, or another key (or the end)
// when the key cannot exist below the output level. Another version in the
// same stripe, or a Put/Merge below, means the key was written more than
// once: the SingleDelete is then written after all (hiding the rest of its
// stripe), so no older value is resurrected.
//
// Why "cannot exist below" matters even when the contract holds: with
// Put(v1)@2 below the output level, SD@4, Put(v3)@5, an earlier compaction of
// just @5 and @4 dropped SD@4 as hidden by the newer Put. When SD@6 later
// meets Put@5 with nothing older in its input, dropping the pair would show
// v1 again. (RocksDB's compaction iterator has the same two rules and, as far
// as its code reads, the same hole; db_stress found it here.) So when older
// versions may lie below, the SingleDelete is kept as a tombstone -- the Put
// goes -- and cancels against the next Put it meets further down. A flush
// asks the same question of every level.
//
// Merges. At the first operand of a key in a stripe the whole run is handed
// to MergeHelper, which reads it (and the Put or deletion under it in the
// same stripe) and leaves its output in its own buffers; those entries are
// then written one by one straight from there (no copy). A full merge makes
// the stripe "occupied" as a Put would.
//
// Output. The current entry is the input's (kInput), a rewritten one in
// saved_key/saved_value (kSaved: a SingleDelete held back, a filtered value)
// or one of the MergeHelper's outputs (kMerge). Only kInput leaves the input
// on the entry; the others have moved past it.
#include "db/compaction/compaction_iterator.h"

#include <algorithm>
#include <cassert>
#include <optional>
#include <utility>

#include "db/compaction/compaction_range_del_aggregator.h"
#include "db/compaction/merge_helper.h"

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
  std::function<bool(const Slice&)> sd_key_may_exist_below;
  const CompactionFilter* filter;
  int filter_level;
  CompactionRangeDelAggregator* range_del_agg;
  std::optional<MergeHelper> merge_helper;  // set iff there is an operator

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
  bool stripe_emitted = false;    // something of the key in `stripe` was written
  bool drop_rest = false;         // a dropped tombstone covers the rest

  // A SingleDelete dropped with its Put, held back until the next input
  // entry shows whether it is needed after all (see top).
  bool sd_pending = false;

  // Where the current output comes from (see the top of the file).
  enum class Out { kInput, kSaved, kMerge };
  Out out = Out::kInput;
  size_t merge_pos = 0;  // for kMerge: index into the helper's output
  std::string saved_key;
  std::string saved_value;

  // Filter scratch, reused.
  std::string filter_value;
  std::string skip_until;
  std::string seek_key;

  Rep(InternalIterator* in, CompactionIteratorOptions&& o)
      : input(in),
        ucmp(o.user_cmp),
        snapshots(std::move(o.snapshots)),
        bottommost(o.bottommost),
        key_may_exist_below(std::move(o.key_may_exist_below)),
        sd_key_may_exist_below(std::move(o.single_delete_key_may_exist_below)),
        filter(o.compaction_filter),
        filter_level(o.filter_level),
        range_del_agg(o.range_del_agg) {
    assert(ucmp != nullptr);
    // The caller passes them sorted; make the invariant hold regardless.
    if (!std::is_sorted(snapshots.begin(), snapshots.end())) {
      std::sort(snapshots.begin(), snapshots.end());
    }
    snapshots.erase(std::unique(snapshots.begin(), snapshots.end()), snapshots.end());
    if (o.merge_operator != nullptr) {
      merge_helper.emplace(ucmp, o.merge_operator, filter, filter_level, o.logger, o.statistics);
    }
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
  // Whether a SingleDelete and the Put under it may cancel (nothing older
  // of the key in the input): only if nothing older can exist below.
  bool SingleDeletePairMayCancel(const Slice& user_key) const {
    if (bottommost) return true;
    if (sd_key_may_exist_below) return !sd_key_may_exist_below(user_key);
    return KeyCannotExistBelow(user_key);
  }

  // Whether the filter may see versions of stripe st: only the latest
  // stripe (above every snapshot) is invisible to all snapshots.
  bool FilterApplies(size_t st) const { return filter != nullptr && st == snapshots.size(); }

  void StartKey(const Slice& user_key) {
    cur_user_key.assign(user_key.data(), user_key.size());
    has_cur_key = true;
    key_started = false;
    stripe = 0;
    stripe_has_value = false;
    stripe_emitted = false;
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
    out = Out::kInput;
    stripe_emitted = true;
    valid = true;
  }

  // Makes saved_key/saved_value the output.
  void EmitSaved() {
    ++stats.num_output_records;
    out = Out::kSaved;
    stripe_emitted = true;
    valid = true;
  }

  // What the filter made of a value about to be written.
  enum class Verdict {
    kWrite,    // write it as it is
    kWritten,  // write saved_key/saved_value instead
    kDropped,  // drop it (and, drop_rest set, the rest of its stripe)
    kSkip,     // drop it and jump the input to skip_until
    kFailed,   // the filter's answer fails the compaction (status set)
  };
  // ikey/value: a kTypeValue entry of the latest stripe. droppable: a
  // Deletion in its place would be dropped (see the header).
  Verdict FilterValue(const Slice& ikey, const Slice& value, bool droppable);

  // Jumps the input to the first entry of a user key >= skip_until.
  void SkipUntil() {
    ++stats.num_filter_skips;
    seek_key.clear();
    AppendInternalKey(&seek_key, skip_until, kMaxSequenceNumber, kValueTypeForSeek);
    input->Seek(seek_key);
    has_cur_key = false;
  }

  // Runs the MergeHelper from the input's current operand p (in stripe st).
  // True if an output was set up; false to go on with the next input entry
  // (or stop: status set).
  bool MergeRun(const ParsedInternalKey& p, size_t st);

  void FindNext();
};

CompactionIterator::Rep::Verdict CompactionIterator::Rep::FilterValue(const Slice& ikey,
                                                                      const Slice& value,
                                                                      bool droppable) {
  const Slice user_key = ExtractUserKey(ikey);
  filter_value.clear();
  CompactionFilter::Decision d =
      filter->FilterV2(filter_level, user_key, CompactionFilter::ValueType::kValue, value,
                       &filter_value, &skip_until);
  if (d == CompactionFilter::Decision::kRemoveAndSkipUntil) {
    // Honoured only without snapshots (it drops without tombstones) and
    // when it moves forward.
    if (snapshots.empty() && ucmp->Compare(skip_until, user_key) > 0) return Verdict::kSkip;
    d = CompactionFilter::Decision::kKeep;
  }
  ValueType tombstone = kTypeDeletion;
  switch (d) {
    case CompactionFilter::Decision::kKeep:
    case CompactionFilter::Decision::kRemoveAndSkipUntil:
      return Verdict::kWrite;
    case CompactionFilter::Decision::kChangeValue:
      saved_key.assign(ikey.data(), ikey.size());
      std::swap(saved_value, filter_value);
      ++stats.num_filter_changed;
      return Verdict::kWritten;
    case CompactionFilter::Decision::kRemove:
      break;
    case CompactionFilter::Decision::kPurge:
      // RocksDB's kPurge: a SingleDelete in the version's place.
      tombstone = kTypeSingleDeletion;
      break;
    // RocksDB's BlobDB answers fail the compaction, with RocksDB's words.
    case CompactionFilter::Decision::kChangeBlobIndex:
      status = Status::NotSupported(
          "Only stacked BlobDB's internal compaction filter can return kChangeBlobIndex.");
      return Verdict::kFailed;
    case CompactionFilter::Decision::kIOError:
      status =
          Status::NotSupported("CompactionFilter for integrated BlobDB should not return kIOError");
      return Verdict::kFailed;
    case CompactionFilter::Decision::kUndetermined:
      status = Status::NotSupported("FilterV2() should never return kUndetermined");
      return Verdict::kFailed;
  }
  if (droppable) {
    drop_rest = true;
    return Verdict::kDropped;
  }
  const SequenceNumber seq = ExtractInternalKeyFooter(ikey) >> 8;
  saved_key.clear();
  AppendInternalKey(&saved_key, user_key, seq, tombstone);
  saved_value.clear();
  ++stats.num_filter_to_deletion;
  return Verdict::kWritten;
}

bool CompactionIterator::Rep::MergeRun(const ParsedInternalKey& p, size_t st) {
  MergeHelper& mh = *merge_helper;
  const SequenceNumber stop = st == 0 ? MergeHelper::kNoStripeBelow : snapshots[st - 1];
  const bool at_bottom = st == 0 && KeyCannotExistBelow(p.user_key);
  const bool may_filter = FilterApplies(st);
  // p's slices die as the helper moves the input.
  const Status ms = mh.MergeUntil(input, stop, at_bottom, may_filter, range_del_agg);
  stats.num_input_records += mh.consumed();
  stats.num_filter_removed += mh.filtered();
  stats.num_filter_changed += mh.filter_changed();
  if (!ms.ok()) {
    status = ms;
    // The entries read are lost with the failed compaction; keep the
    // accounting whole anyway.
    stats.num_merge_absorbed += mh.consumed() - mh.filtered();
    return false;
  }
  const size_t n = mh.keys().size();
  stats.num_merge_absorbed += mh.consumed() - mh.filtered() - n;
  if (mh.partial_merged()) ++stats.num_partial_merges;
  if (mh.full_merged()) {
    ++stats.num_full_merges;
    // The merged Put hides the rest of the stripe.
    stripe_has_value = true;
  }
  if (n == 0) return false;  // every operand filtered away
  if (mh.full_merged() && may_filter) {
    switch (FilterValue(mh.keys()[0], mh.values()[0], at_bottom && !stripe_emitted)) {
      case Verdict::kWrite:
        break;
      case Verdict::kWritten:
        EmitSaved();
        return true;
      case Verdict::kDropped:
        ++stats.num_filter_removed;
        return false;
      case Verdict::kSkip:
        ++stats.num_filter_removed;
        SkipUntil();
        return false;
      case Verdict::kFailed:
        return false;
    }
  }
  stats.num_output_records += n;
  out = Out::kMerge;
  merge_pos = 0;
  stripe_emitted = true;
  valid = true;
  return true;
}

// Advances from the input's current (unprocessed) entry to the next entry to
// output, or to the end / a corrupt key.
void CompactionIterator::Rep::FindNext() {
  valid = false;
  out = Out::kInput;
  while (status.ok() && input->Valid()) {
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
        sd_pending = false;
        if (!SingleDeletePairMayCancel(cur_user_key)) {
          // Nothing older in the input, but the key may have older versions
          // below the output level: the SingleDelete stays (see the top).
          ++stats.num_dropped_hidden;
          EmitSaved();
          return;
        }
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
      stripe_emitted = false;
    }

    if (range_del_agg != nullptr && range_del_agg->ShouldDelete(p)) {
      // Covered by a newer tombstone of the stripe (so is everything older
      // of the stripe, dropped the same way).
      Skip(&stats.num_dropped_range_del);
      continue;
    }

    if (p.type == kTypeMerge) {
      if (!merge_helper) {
        EmitInput();
        return;
      }
      if (MergeRun(p, st)) return;
      continue;
    }
    stripe_has_value = true;
    if (IsValueLike(p.type)) {
      if (p.type == kTypeValue && FilterApplies(st)) {
        const bool droppable = st == 0 && !stripe_emitted && KeyCannotExistBelow(p.user_key);
        switch (FilterValue(ikey, input->value(), droppable)) {
          case Verdict::kWrite:
            break;
          case Verdict::kWritten:
            ++stats.num_input_records;
            input->Next();
            EmitSaved();
            return;
          case Verdict::kDropped:
            Skip(&stats.num_filter_removed);
            continue;
          case Verdict::kSkip:
            ++stats.num_input_records;
            ++stats.num_filter_removed;
            SkipUntil();
            continue;
          case Verdict::kFailed:
            return;
        }
      }
      EmitInput();
      return;
    }
    assert(IsDeletion(p.type) || p.type == kTypeSingleDeletion);
    if (st == 0 && !stripe_emitted && KeyCannotExistBelow(p.user_key)) {
      // Newest written version in the earliest stripe, nothing below: no
      // reader can tell the tombstone and everything older from absence.
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
  if (sd_pending && status.ok()) {
    sd_pending = false;
    if (!SingleDeletePairMayCancel(cur_user_key)) {
      ++stats.num_dropped_hidden;
      EmitSaved();
      return;
    }
    ++stats.num_single_delete_pairs;
  }
}

CompactionIterator::CompactionIterator(InternalIterator* input, CompactionIteratorOptions options)
    : rep_(new Rep(input, std::move(options))) {}

CompactionIterator::CompactionIterator(
    InternalIterator* input, const Comparator* user_cmp, std::vector<SequenceNumber> snapshots,
    bool bottommost, std::function<bool(const Slice& user_key)> key_may_exist_below)
    : CompactionIterator(input, [&] {
        CompactionIteratorOptions o;
        o.user_cmp = user_cmp;
        o.snapshots = std::move(snapshots);
        o.bottommost = bottommost;
        o.key_may_exist_below = std::move(key_may_exist_below);
        return o;
      }()) {}

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
  r->stripe_emitted = false;
  r->drop_rest = false;
  r->sd_pending = false;
  r->out = Rep::Out::kInput;
  r->merge_pos = 0;
  r->input->SeekToFirst();
  r->FindNext();
}

bool CompactionIterator::Valid() const { return rep_->valid; }

void CompactionIterator::Next() {
  Rep* r = rep_;
  assert(r->valid);
  switch (r->out) {
    case Rep::Out::kInput:
      r->input->Next();
      break;
    case Rep::Out::kMerge:
      if (++r->merge_pos < r->merge_helper->keys().size()) return;
      break;
    case Rep::Out::kSaved:
      break;
  }
  r->FindNext();
}

Slice CompactionIterator::key() const {
  const Rep* r = rep_;
  assert(r->valid);
  switch (r->out) {
    case Rep::Out::kInput:
      break;
    case Rep::Out::kSaved:
      return r->saved_key;
    case Rep::Out::kMerge:
      return r->merge_helper->keys()[r->merge_pos];
  }
  return r->input->key();
}

Slice CompactionIterator::value() const {
  const Rep* r = rep_;
  assert(r->valid);
  switch (r->out) {
    case Rep::Out::kInput:
      break;
    case Rep::Out::kSaved:
      return r->saved_value;
    case Rep::Out::kMerge:
      return r->merge_helper->values()[r->merge_pos];
  }
  return r->input->value();
}

Status CompactionIterator::status() const {
  if (!rep_->status.ok()) return rep_->status;
  return rep_->input->status();
}

const CompactionIteratorStats& CompactionIterator::stats() const { return rep_->stats; }

}  // namespace strata
