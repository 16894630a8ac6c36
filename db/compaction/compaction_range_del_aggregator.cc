// CompactionRangeDelAggregator (see the header).
#include "db/compaction/compaction_range_del_aggregator.h"

#include <algorithm>
#include <memory>
#include <utility>

namespace strata {

struct CompactionRangeDelAggregator::Rep {
  const InternalKeyComparator* icmp;
  std::vector<SequenceNumber> snapshots;  // ascending, unique

  // Tombstones added since the last build. After a build they live only in
  // `list` (as fragments); a later addition first expands the fragments
  // back into `pending` (an equivalent set) and the list is rebuilt.
  std::vector<RangeTombstone> pending;
  bool dirty = false;
  std::unique_ptr<FragmentedRangeTombstoneList> list;
  size_t num_nonempty = 0;  // tombstones with start < end added so far
  size_t pos = 0;           // ShouldDelete's fragment hint

  // Index of the smallest snapshot >= seq (snapshots.size() if none).
  size_t Stripe(SequenceNumber seq) const {
    return static_cast<size_t>(std::lower_bound(snapshots.begin(), snapshots.end(), seq) -
                               snapshots.begin());
  }

  void PrepareAdd() {
    if (list != nullptr && !dirty) {
      list->ToTombstones(&pending);
    }
    dirty = true;
  }

  void Add(std::vector<RangeTombstone>&& ts) {
    const Comparator* ucmp = icmp->user_comparator();
    size_t added = 0;
    for (const RangeTombstone& t : ts) {
      if (ucmp->Compare(t.start, t.end) < 0) ++added;
    }
    if (added == 0) return;
    num_nonempty += added;
    PrepareAdd();
    if (pending.empty()) {
      pending = std::move(ts);
    } else {
      for (RangeTombstone& t : ts) pending.push_back(std::move(t));
    }
  }

  void EnsureBuilt() {
    if (!dirty) return;
    list = std::make_unique<FragmentedRangeTombstoneList>(pending, icmp->user_comparator());
    pending.clear();
    pending.shrink_to_fit();
    dirty = false;
    pos = 0;
  }
};

CompactionRangeDelAggregator::CompactionRangeDelAggregator(const InternalKeyComparator* icmp,
                                                           std::vector<SequenceNumber> snapshots)
    : rep_(new Rep) {
  rep_->icmp = icmp;
  std::sort(snapshots.begin(), snapshots.end());
  snapshots.erase(std::unique(snapshots.begin(), snapshots.end()), snapshots.end());
  rep_->snapshots = std::move(snapshots);
}

CompactionRangeDelAggregator::~CompactionRangeDelAggregator() { delete rep_; }

Status CompactionRangeDelAggregator::AddTombstones(InternalIterator* range_del_iter) {
  std::vector<RangeTombstone> ts;
  Status s = ReadRangeTombstones(range_del_iter, &ts);
  if (!s.ok()) return s;
  rep_->Add(std::move(ts));
  return Status::OK();
}

void CompactionRangeDelAggregator::AddTombstones(const std::vector<RangeTombstone>& tombstones) {
  rep_->Add(std::vector<RangeTombstone>(tombstones));
}

bool CompactionRangeDelAggregator::empty() const { return rep_->num_nonempty == 0; }

bool CompactionRangeDelAggregator::ShouldDelete(const ParsedInternalKey& key) {
  Rep* r = rep_;
  if (r->num_nonempty == 0) return false;
  r->EnsureBuilt();
  const FragmentedRangeTombstoneList& list = *r->list;
  if (!list.FindFragment(key.user_key, &r->pos)) return false;
  // The oldest covering tombstone newer than the key decides: any newer one
  // lies in the same stripe or a later one.
  const FragmentedRangeTombstoneList::Fragment& f = list.fragments()[r->pos];
  const std::vector<SequenceNumber>& seqs = list.seqs();
  if (seqs[f.seq_begin] <= key.sequence) return false;
  uint32_t j = f.seq_end;
  while (seqs[j - 1] <= key.sequence) --j;  // stops at seq_begin at the latest
  const SequenceNumber t = seqs[j - 1];
  // Same stripe iff no snapshot lies in [key.sequence, t).
  auto it = std::lower_bound(r->snapshots.begin(), r->snapshots.end(), key.sequence);
  return it == r->snapshots.end() || *it >= t;
}

void CompactionRangeDelAggregator::GetTombstonesForOutput(const Slice* lower, const Slice* upper,
                                                          bool bottommost,
                                                          std::vector<RangeTombstone>* out) {
  Rep* r = rep_;
  if (r->num_nonempty == 0) return;
  r->EnsureBuilt();
  const FragmentedRangeTombstoneList& list = *r->list;
  const Comparator* ucmp = list.user_comparator();
  if (lower != nullptr && upper != nullptr && ucmp->Compare(*lower, *upper) >= 0) return;
  const std::vector<FragmentedRangeTombstoneList::Fragment>& frags = list.fragments();
  const std::vector<SequenceNumber>& seqs = list.seqs();
  // Touching fragments whose kept seqs are the same are merged again (the
  // list merges only identical full seq lists; dropping seqs can make more
  // neighbours equal).
  std::vector<SequenceNumber> kept;
  size_t group_begin = out->size();  // the previous fragment's pieces in *out
  bool have_group = false;
  for (size_t i = lower != nullptr ? list.LowerBound(*lower) : 0; i < frags.size(); ++i) {
    const FragmentedRangeTombstoneList::Fragment& f = frags[i];
    if (upper != nullptr && ucmp->Compare(f.start, *upper) >= 0) break;
    const Slice start = lower != nullptr && ucmp->Compare(f.start, *lower) < 0 ? *lower : f.start;
    const Slice end = upper != nullptr && ucmp->Compare(f.end, *upper) > 0 ? *upper : f.end;
    kept.clear();
    size_t prev_stripe = r->snapshots.size() + 1;  // no stripe yet
    for (uint32_t j = f.seq_begin; j < f.seq_end; ++j) {
      const size_t stripe = r->Stripe(seqs[j]);
      if (stripe == prev_stripe) continue;  // an older one of a stripe already kept
      prev_stripe = stripe;
      if (bottommost && stripe == 0) break;  // stripe 0 and nothing older remains
      kept.push_back(seqs[j]);
    }
    if (kept.empty()) {
      have_group = false;
      continue;
    }
    if (have_group && out->size() - group_begin == kept.size() &&
        ucmp->Compare(out->back().end, start) == 0) {
      bool same = true;
      for (size_t j = 0; j < kept.size() && same; ++j) {
        same = (*out)[group_begin + j].seq == kept[j];
      }
      if (same) {
        for (size_t j = group_begin; j < out->size(); ++j) {
          (*out)[j].end.assign(end.data(), end.size());
        }
        continue;
      }
    }
    group_begin = out->size();
    have_group = true;
    for (SequenceNumber seq : kept) {
      RangeTombstone t;
      t.start.assign(start.data(), start.size());
      t.end.assign(end.data(), end.size());
      t.seq = seq;
      out->push_back(std::move(t));
    }
  }
}

}  // namespace strata
