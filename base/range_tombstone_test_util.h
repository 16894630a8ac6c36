// Test helpers for range tombstones: owned tombstones, internal keys and an
// InternalIterator over entries in the order given (the fragment list does
// not need them sorted).
#pragma once

#include <algorithm>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "base/dbformat.h"
#include "base/internal_iterator.h"
#include "base/range_tombstone.h"

namespace strata {
namespace range_tombstone_test {

inline RangeTombstone T(const std::string& s, const std::string& e, SequenceNumber seq) {
  RangeTombstone t;
  t.start = s;
  t.end = e;
  t.seq = seq;
  return t;
}

inline std::string IKey(const std::string& user, SequenceNumber seq, ValueType t) {
  std::string k;
  AppendInternalKey(&k, user, seq, t);
  return k;
}

class VectorIter final : public InternalIterator {
 public:
  explicit VectorIter(std::vector<std::pair<std::string, std::string>> entries,
                      Status status = Status::OK())
      : entries_(std::move(entries)), status_(std::move(status)) {}
  bool Valid() const override { return pos_ < entries_.size(); }
  void SeekToFirst() override { pos_ = 0; }
  void SeekToLast() override { pos_ = entries_.empty() ? 0 : entries_.size() - 1; }
  void Seek(const Slice&) override { pos_ = 0; }
  void SeekForPrev(const Slice&) override { pos_ = 0; }
  void Next() override { ++pos_; }
  void Prev() override { pos_ = pos_ == 0 ? entries_.size() : pos_ - 1; }
  Slice key() const override { return entries_[pos_].first; }
  Slice value() const override { return entries_[pos_].second; }
  Status status() const override { return status_; }

 private:
  std::vector<std::pair<std::string, std::string>> entries_;
  Status status_;
  size_t pos_ = 0;
};

inline VectorIter TombstoneIter(const std::vector<RangeTombstone>& ts) {
  std::vector<std::pair<std::string, std::string>> e;
  for (const RangeTombstone& t : ts)
    e.emplace_back(IKey(t.start, t.seq, kTypeRangeDeletion), t.end);
  return VectorIter(std::move(e));
}

// The model: every tombstone, and "keys" drawn from a small domain so
// ranges collide often. Query keys include keys between domain keys.
struct Model {
  const Comparator* ucmp;
  std::vector<RangeTombstone> ts;

  bool Covers(const RangeTombstone& t, const std::string& k) const {
    return ucmp->Compare(t.start, k) <= 0 && ucmp->Compare(k, t.end) < 0;
  }
  SequenceNumber MaxCovering(const std::string& k, SequenceNumber read) const {
    SequenceNumber best = 0;
    for (const RangeTombstone& t : ts) {
      if (t.seq <= read && Covers(t, k)) best = std::max(best, t.seq);
    }
    return best;
  }
  std::vector<SequenceNumber> AllCovering(const std::string& k) const {
    std::vector<SequenceNumber> v;
    for (const RangeTombstone& t : ts) {
      if (Covers(t, k)) v.push_back(t.seq);
    }
    std::sort(v.rbegin(), v.rend());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    return v;
  }
};

inline std::string DomainKey(int i) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "k%03d", i);
  return buf;
}

inline std::vector<RangeTombstone> RandomTombstones(std::mt19937_64* rng, int n, int domain,
                                                    SequenceNumber max_seq) {
  std::vector<RangeTombstone> ts;
  for (int i = 0; i < n; ++i) {
    const int a = static_cast<int>((*rng)() % domain);
    const int len = static_cast<int>((*rng)() % 6 == 0 ? (*rng)() % domain : (*rng)() % 6);
    const int b = static_cast<int>(std::min<int>(domain, a + len));
    ts.push_back(T(DomainKey(a), DomainKey(b), 1 + (*rng)() % max_seq));
  }
  return ts;
}

// Query keys: the domain keys and keys between them ("k005" < "k005x").
inline std::vector<std::string> QueryKeys(int domain) {
  std::vector<std::string> keys;
  for (int i = -1; i <= domain; ++i) {
    if (i >= 0) keys.push_back(DomainKey(i));
    keys.push_back((i >= 0 ? DomainKey(i) : std::string("a")) + "x");
  }
  return keys;
}

}  // namespace range_tombstone_test
}  // namespace strata
