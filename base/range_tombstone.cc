// Range tombstones: fragmentation and lookups (see the header for the
// semantics).
//
// Fragmentation. The boundaries are every distinct start and end key, in
// user-comparator order. A sweep over them keeps the multiset of sequence
// numbers of the tombstones open at the current boundary (tombstones enter
// at their start, leave at their end); between two consecutive boundaries
// with a non-empty open set lies one fragment, whose seq list is the open
// set, descending and without duplicates. Two adjacent fragments (the first
// ends where the second starts) with identical seq lists are merged into
// one: fewer fragments make lookups and outputs smaller, and nothing depends
// on where the original tombstones began or ended.
//
// Key storage. keys_ holds each distinct boundary once; it is reserved to
// its final size before the first push, so the strings never move and the
// Slices of the fragments stay valid (a reallocation would move short
// strings held inline).
#include "base/range_tombstone.h"

#include <algorithm>
#include <cassert>
#include <set>
#include <utility>

namespace strata {

// ---------------------------------------------------------------------------
// FragmentedRangeTombstoneList

FragmentedRangeTombstoneList::FragmentedRangeTombstoneList(InternalIterator* unfragmented,
                                                           const Comparator* user_cmp)
    : ucmp_(user_cmp) {
  std::vector<RangeTombstone> tombstones;
  status_ = ReadRangeTombstones(unfragmented, &tombstones);
  if (status_.ok()) Build(std::move(tombstones));
}

FragmentedRangeTombstoneList::FragmentedRangeTombstoneList(
    const std::vector<RangeTombstone>& tombstones, const Comparator* user_cmp)
    : ucmp_(user_cmp) {
  Build(tombstones);
}

void FragmentedRangeTombstoneList::Build(std::vector<RangeTombstone> tombstones) {
  // Empty ranges cover nothing: drop them first.
  tombstones.erase(std::remove_if(tombstones.begin(), tombstones.end(),
                                  [this](const RangeTombstone& t) {
                                    return ucmp_->Compare(t.start, t.end) >= 0;
                                  }),
                   tombstones.end());
  num_tombstones_ = tombstones.size();
  if (tombstones.empty()) return;

  const Comparator* ucmp = ucmp_;
  max_seq_ = 0;
  min_seq_ = kMaxSequenceNumber;
  for (const RangeTombstone& t : tombstones) {
    max_seq_ = std::max(max_seq_, t.seq);
    min_seq_ = std::min(min_seq_, t.seq);
  }

  // Tombstone indexes ordered by start and by end.
  const size_t n = tombstones.size();
  std::vector<uint32_t> by_start(n), by_end(n);
  for (size_t i = 0; i < n; ++i) by_start[i] = by_end[i] = static_cast<uint32_t>(i);
  std::sort(by_start.begin(), by_start.end(), [&](uint32_t a, uint32_t b) {
    return ucmp->Compare(tombstones[a].start, tombstones[b].start) < 0;
  });
  std::sort(by_end.begin(), by_end.end(), [&](uint32_t a, uint32_t b) {
    return ucmp->Compare(tombstones[a].end, tombstones[b].end) < 0;
  });

  // The distinct boundaries, by merging the two sorted sequences. keys_ is
  // reserved first so its strings never move (see the file comment).
  keys_.reserve(2 * n);
  {
    size_t i = 0, j = 0;
    while (i < n || j < n) {
      const std::string* next;
      if (j == n ||
          (i < n && ucmp->Compare(tombstones[by_start[i]].start, tombstones[by_end[j]].end) <= 0)) {
        next = &tombstones[by_start[i++]].start;
      } else {
        next = &tombstones[by_end[j++]].end;
      }
      if (keys_.empty() || ucmp->Compare(keys_.back(), *next) != 0) keys_.push_back(*next);
    }
  }

  // The sweep.
  std::multiset<SequenceNumber> open;
  size_t si = 0, ei = 0;
  std::vector<SequenceNumber> cur;
  for (size_t b = 0; b < keys_.size(); ++b) {
    const Slice boundary(keys_[b]);
    while (ei < n && ucmp->Compare(tombstones[by_end[ei]].end, boundary) == 0) {
      open.erase(open.find(tombstones[by_end[ei]].seq));
      ++ei;
    }
    while (si < n && ucmp->Compare(tombstones[by_start[si]].start, boundary) == 0) {
      open.insert(tombstones[by_start[si]].seq);
      ++si;
    }
    if (open.empty() || b + 1 == keys_.size()) continue;
    cur.clear();
    for (auto it = open.rbegin(); it != open.rend(); ++it) {
      if (cur.empty() || cur.back() != *it) cur.push_back(*it);
    }
    const Slice next_boundary(keys_[b + 1]);
    if (!fragments_.empty()) {
      Fragment& last = fragments_.back();
      if (last.end.data() == boundary.data() && last.seq_end - last.seq_begin == cur.size() &&
          std::equal(cur.begin(), cur.end(), seqs_.begin() + last.seq_begin)) {
        last.end = next_boundary;
        continue;
      }
    }
    Fragment f;
    f.start = boundary;
    f.end = next_boundary;
    f.seq_begin = static_cast<uint32_t>(seqs_.size());
    seqs_.insert(seqs_.end(), cur.begin(), cur.end());
    f.seq_end = static_cast<uint32_t>(seqs_.size());
    fragments_.push_back(f);
  }
  assert(open.empty());
}

size_t FragmentedRangeTombstoneList::LowerBound(const Slice& user_key) const {
  const Comparator* ucmp = ucmp_;
  auto it = std::partition_point(fragments_.begin(), fragments_.end(), [&](const Fragment& f) {
    return ucmp->Compare(f.end, user_key) <= 0;
  });
  return static_cast<size_t>(it - fragments_.begin());
}

SequenceNumber FragmentedRangeTombstoneList::FragmentSeq(size_t i, SequenceNumber read_seq) const {
  const Fragment& f = fragments_[i];
  const SequenceNumber* b = seqs_.data() + f.seq_begin;
  const SequenceNumber* e = seqs_.data() + f.seq_end;
  if (e - b <= 16) {
    for (; b != e; ++b) {
      if (*b <= read_seq) return *b;
    }
    return 0;
  }
  // Descending: the first element <= read_seq.
  const SequenceNumber* p =
      std::partition_point(b, e, [read_seq](SequenceNumber s) { return s > read_seq; });
  return p != e ? *p : 0;
}

SequenceNumber FragmentedRangeTombstoneList::MaxCoveringSeq(const Slice& user_key,
                                                            SequenceNumber read_seq) const {
  const size_t i = LowerBound(user_key);
  if (i == fragments_.size() || ucmp_->Compare(fragments_[i].start, user_key) > 0) return 0;
  return FragmentSeq(i, read_seq);
}

void FragmentedRangeTombstoneList::ToTombstones(std::vector<RangeTombstone>* out) const {
  for (const Fragment& f : fragments_) {
    for (uint32_t j = f.seq_begin; j < f.seq_end; ++j) {
      RangeTombstone t;
      t.start.assign(f.start.data(), f.start.size());
      t.end.assign(f.end.data(), f.end.size());
      t.seq = seqs_[j];
      out->push_back(std::move(t));
    }
  }
}

size_t FragmentedRangeTombstoneList::ApproximateMemoryUsage() const {
  size_t usage = sizeof(*this) + keys_.capacity() * sizeof(std::string) +
                 fragments_.capacity() * sizeof(Fragment) +
                 seqs_.capacity() * sizeof(SequenceNumber);
  for (const std::string& k : keys_) {
    if (k.capacity() > sizeof(std::string)) usage += k.capacity() + 1;
  }
  return usage;
}

Status ReadRangeTombstones(InternalIterator* iter, std::vector<RangeTombstone>* out) {
  for (iter->SeekToFirst(); iter->Valid(); iter->Next()) {
    ParsedInternalKey parsed;
    Status s = ParseInternalKey(iter->key(), &parsed);
    if (!s.ok()) return s;
    if (parsed.type != kTypeRangeDeletion) {
      return Status::Corruption("range tombstone entry of type " +
                                std::to_string(static_cast<int>(parsed.type)));
    }
    RangeTombstone t;
    t.start.assign(parsed.user_key.data(), parsed.user_key.size());
    const Slice end = iter->value();
    t.end.assign(end.data(), end.size());
    t.seq = parsed.sequence;
    out->push_back(std::move(t));
  }
  return iter->status();
}

bool FragmentedRangeTombstoneList::FindFragment(const Slice& user_key, size_t* pos) const {
  const std::vector<Fragment>& frags = fragments_;
  const Comparator* ucmp = ucmp_;
  const size_t n = frags.size();
  size_t p = *pos < n ? *pos : n - 1;
  if (ucmp->Compare(user_key, frags[p].end) < 0) {
    if (ucmp->Compare(user_key, frags[p].start) >= 0) {
      *pos = p;
      return true;
    }
    // Before fragment p: in the gap before it, in fragment p-1, or further.
    if (p == 0 || ucmp->Compare(user_key, frags[p - 1].end) >= 0) {
      *pos = p;
      return false;
    }
    if (ucmp->Compare(user_key, frags[p - 1].start) >= 0) {
      *pos = p - 1;
      return true;
    }
  } else {
    // At or after the end of fragment p.
    if (p + 1 == n) {
      *pos = p;
      return false;
    }
    if (ucmp->Compare(user_key, frags[p + 1].end) < 0) {
      *pos = p + 1;
      return ucmp->Compare(user_key, frags[p + 1].start) >= 0;
    }
  }
  const size_t i = LowerBound(user_key);
  if (i == n) {
    *pos = n - 1;
    return false;
  }
  *pos = i;
  return ucmp->Compare(user_key, frags[i].start) >= 0;
}

// ---------------------------------------------------------------------------
// RangeTombstoneCursor

RangeTombstoneCursor::RangeTombstoneCursor(const FragmentedRangeTombstoneList* list,
                                           SequenceNumber read_seq)
    : list_(list), read_seq_(read_seq) {}

SequenceNumber RangeTombstoneCursor::CoveringSeq(const Slice& user_key) {
  if (list_ == nullptr || list_->empty()) return 0;
  if (!list_->FindFragment(user_key, &pos_)) return 0;
  return list_->FragmentSeq(pos_, read_seq_);
}

Slice RangeTombstoneCursor::fragment_start() const { return list_->fragments()[pos_].start; }
Slice RangeTombstoneCursor::fragment_end() const { return list_->fragments()[pos_].end; }

}  // namespace strata
