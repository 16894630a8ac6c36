// Range tombstones: fragmentation shapes, lookups, cursors and the compaction
// aggregator (ShouldDelete, GetTombstonesForOutput), each checked against a
// brute-force model over the unfragmented tombstones.
#include "db/range_del_aggregator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "test_util/testutil.h"

namespace strata {
namespace {

RangeTombstone T(const std::string& s, const std::string& e, SequenceNumber seq) {
  RangeTombstone t;
  t.start = s;
  t.end = e;
  t.seq = seq;
  return t;
}

std::string IKey(const std::string& user, SequenceNumber seq, ValueType t) {
  std::string k;
  AppendInternalKey(&k, user, seq, t);
  return k;
}

// Entries in the order given (the list does not need them sorted).
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

VectorIter TombstoneIter(const std::vector<RangeTombstone>& ts) {
  std::vector<std::pair<std::string, std::string>> e;
  for (const RangeTombstone& t : ts)
    e.emplace_back(IKey(t.start, t.seq, kTypeRangeDeletion), t.end);
  return VectorIter(std::move(e));
}

struct Frag {
  std::string start, end;
  std::vector<SequenceNumber> seqs;
  bool operator==(const Frag& o) const {
    return start == o.start && end == o.end && seqs == o.seqs;
  }
};

std::vector<Frag> Frags(const FragmentedRangeTombstoneList& list) {
  std::vector<Frag> out;
  for (const auto& f : list.fragments()) {
    Frag g;
    g.start = f.start.ToString();
    g.end = f.end.ToString();
    g.seqs.assign(list.seqs().begin() + f.seq_begin, list.seqs().begin() + f.seq_end);
    out.push_back(g);
  }
  return out;
}

std::string Show(const std::vector<Frag>& fs) {
  std::string s;
  for (const Frag& f : fs) {
    s += "[" + f.start + "," + f.end + "){";
    for (SequenceNumber q : f.seqs) s += std::to_string(q) + " ";
    s += "} ";
  }
  return s;
}

void ExpectFrags(const std::vector<RangeTombstone>& ts, const std::vector<Frag>& want) {
  FragmentedRangeTombstoneList list(ts, BytewiseComparator());
  ASSERT_OK(list.status());
  EXPECT_EQ(Frags(list), want) << Show(Frags(list));
  // The iterator constructor gives the same list.
  VectorIter it = TombstoneIter(ts);
  FragmentedRangeTombstoneList list2(&it, BytewiseComparator());
  ASSERT_OK(list2.status());
  EXPECT_EQ(Frags(list2), want);
}

TEST(FragmentedRangeTombstoneListTest, Shapes) {
  // Nested.
  ExpectFrags({T("a", "z", 5), T("c", "f", 10)},
              {{"a", "c", {5}}, {"c", "f", {10, 5}}, {"f", "z", {5}}});
  // Overlapping, in either input order.
  ExpectFrags({T("c", "h", 7), T("a", "e", 3)},
              {{"a", "c", {3}}, {"c", "e", {7, 3}}, {"e", "h", {7}}});
  // Identical ranges: duplicates collapse.
  ExpectFrags({T("a", "e", 3), T("a", "e", 3), T("a", "e", 8)}, {{"a", "e", {8, 3}}});
  // Adjacent with the same seqs merge; with different seqs they do not.
  ExpectFrags({T("a", "c", 3), T("c", "e", 3)}, {{"a", "e", {3}}});
  ExpectFrags({T("a", "c", 3), T("c", "e", 4)}, {{"a", "c", {3}}, {"c", "e", {4}}});
  // A gap stays a gap.
  ExpectFrags({T("a", "b", 1), T("c", "d", 1)}, {{"a", "b", {1}}, {"c", "d", {1}}});
  // Same start, different ends; same end, different starts.
  ExpectFrags({T("a", "c", 1), T("a", "e", 2)}, {{"a", "c", {2, 1}}, {"c", "e", {2}}});
  ExpectFrags({T("a", "e", 1), T("c", "e", 2)}, {{"a", "c", {1}}, {"c", "e", {2, 1}}});
  // Empty ranges are ignored.
  ExpectFrags({T("c", "c", 3), T("d", "b", 4)}, {});
  ExpectFrags({T("c", "c", 3), T("a", "b", 4)}, {{"a", "b", {4}}});
  ExpectFrags({}, {});

  FragmentedRangeTombstoneList list({T("c", "c", 9), T("a", "z", 5), T("c", "f", 10)},
                                    BytewiseComparator());
  EXPECT_EQ(list.num_tombstones(), 2u);
  EXPECT_EQ(list.max_seq(), 10u);
  EXPECT_EQ(list.min_seq(), 5u);
  EXPECT_GT(list.ApproximateMemoryUsage(), 0u);
  std::vector<RangeTombstone> back;
  list.ToTombstones(&back);
  ASSERT_EQ(back.size(), 4u);
  EXPECT_EQ(back[1].start, "c");
  EXPECT_EQ(back[1].end, "f");
  EXPECT_EQ(back[1].seq, 10u);
  EXPECT_EQ(back[2].seq, 5u);

  FragmentedRangeTombstoneList none(std::vector<RangeTombstone>{}, BytewiseComparator());
  EXPECT_TRUE(none.empty());
  EXPECT_EQ(none.max_seq(), 0u);
  EXPECT_EQ(none.MaxCoveringSeq("a", kMaxSequenceNumber), 0u);
}

// Short keys (stored inline in std::string) must stay valid after the list
// is built from many tombstones.
TEST(FragmentedRangeTombstoneListTest, ShortKeysStayValid) {
  std::vector<RangeTombstone> ts;
  for (int i = 0; i < 500; ++i) {
    char a[8], b[8];
    std::snprintf(a, sizeof(a), "%04d", i);
    std::snprintf(b, sizeof(b), "%04d", i + 3);
    ts.push_back(T(a, b, static_cast<SequenceNumber>(i + 1)));
  }
  FragmentedRangeTombstoneList list(ts, BytewiseComparator());
  ASSERT_OK(list.status());
  ASSERT_EQ(list.fragments().size(), 502u);
  EXPECT_EQ(list.fragments()[0].start.ToString(), "0000");
  EXPECT_EQ(list.fragments()[501].end.ToString(), "0502");
  EXPECT_EQ(list.MaxCoveringSeq("0250", kMaxSequenceNumber), 251u);
  EXPECT_EQ(list.MaxCoveringSeq("0250", 250), 250u);
  EXPECT_EQ(list.MaxCoveringSeq("0250", 247), 0u);
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

std::string DomainKey(int i) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "k%03d", i);
  return buf;
}

std::vector<RangeTombstone> RandomTombstones(std::mt19937_64* rng, int n, int domain,
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
std::vector<std::string> QueryKeys(int domain) {
  std::vector<std::string> keys;
  for (int i = -1; i <= domain; ++i) {
    if (i >= 0) keys.push_back(DomainKey(i));
    keys.push_back((i >= 0 ? DomainKey(i) : std::string("a")) + "x");
  }
  return keys;
}

TEST(FragmentedRangeTombstoneListTest, RandomAgainstModel) {
  const uint64_t seed = test::RandomSeed();
  std::mt19937_64 rng(seed);
  for (const Comparator* ucmp : {BytewiseComparator(), ReverseBytewiseComparator()}) {
    for (int round = 0; round < 60; ++round) {
      const int domain = 5 + static_cast<int>(rng() % 40);
      Model m{ucmp, RandomTombstones(&rng, static_cast<int>(rng() % 30), domain, 20)};
      // Reversed-comparator ranges: swap ends so start < end in that order.
      if (ucmp != BytewiseComparator()) {
        for (RangeTombstone& t : m.ts) std::swap(t.start, t.end);
      }
      FragmentedRangeTombstoneList list(m.ts, ucmp);
      ASSERT_OK(list.status());
      // Structure: disjoint, ascending, non-empty, seqs descending unique;
      // touching neighbours never share a seq list (they would be merged).
      const auto& fr = list.fragments();
      for (size_t i = 0; i < fr.size(); ++i) {
        ASSERT_LT(ucmp->Compare(fr[i].start, fr[i].end), 0);
        ASSERT_LT(fr[i].seq_begin, fr[i].seq_end);
        for (uint32_t j = fr[i].seq_begin + 1; j < fr[i].seq_end; ++j) {
          ASSERT_GT(list.seqs()[j - 1], list.seqs()[j]);
        }
        if (i > 0) {
          const int c = ucmp->Compare(fr[i - 1].end, fr[i].start);
          ASSERT_LE(c, 0);
          if (c == 0) {
            const std::vector<SequenceNumber> a(list.seqs().begin() + fr[i - 1].seq_begin,
                                                list.seqs().begin() + fr[i - 1].seq_end);
            const std::vector<SequenceNumber> b(list.seqs().begin() + fr[i].seq_begin,
                                                list.seqs().begin() + fr[i].seq_end);
            ASSERT_NE(a, b);
          }
        }
      }
      // Coverage: each key's fragment has exactly the seqs covering the key.
      for (const std::string& k : QueryKeys(domain)) {
        const size_t i = list.LowerBound(k);
        std::vector<SequenceNumber> got;
        if (i < fr.size() && ucmp->Compare(fr[i].start, k) <= 0) {
          got.assign(list.seqs().begin() + fr[i].seq_begin, list.seqs().begin() + fr[i].seq_end);
        }
        ASSERT_EQ(got, m.AllCovering(k)) << "seed " << seed << " key " << k;
        for (SequenceNumber read = 0; read <= 21; ++read) {
          ASSERT_EQ(list.MaxCoveringSeq(k, read), m.MaxCovering(k, read))
              << "seed " << seed << " key " << k << " read " << read;
        }
        ASSERT_EQ(list.MaxCoveringSeq(k, kMaxSequenceNumber), m.MaxCovering(k, kMaxSequenceNumber));
      }
    }
  }
}

TEST(FragmentedRangeTombstoneListTest, ManyRandomTombstones) {
  const uint64_t seed = test::RandomSeed();
  std::mt19937_64 rng(seed);
  Model m{BytewiseComparator(), RandomTombstones(&rng, 3000, 400, 1000)};
  FragmentedRangeTombstoneList list(m.ts, m.ucmp);
  ASSERT_OK(list.status());
  EXPECT_EQ(list.num_tombstones(),
            static_cast<size_t>(std::count_if(m.ts.begin(), m.ts.end(),
                                              [](const auto& t) { return t.start < t.end; })));
  for (int i = 0; i < 2000; ++i) {
    const std::string k = DomainKey(static_cast<int>(rng() % 401)) + (rng() % 2 ? "x" : "");
    const SequenceNumber read = rng() % 1100;
    ASSERT_EQ(list.MaxCoveringSeq(k, read), m.MaxCovering(k, read)) << "seed " << seed;
  }
}

TEST(RangeTombstoneCursorTest, ForwardBackwardJumps) {
  const uint64_t seed = test::RandomSeed();
  std::mt19937_64 rng(seed);
  for (int round = 0; round < 200; ++round) {
    const int domain = 5 + static_cast<int>(rng() % 60);
    Model m{BytewiseComparator(), RandomTombstones(&rng, static_cast<int>(rng() % 25), domain, 30)};
    FragmentedRangeTombstoneList list(m.ts, m.ucmp);
    ASSERT_OK(list.status());
    const std::vector<std::string> keys = QueryKeys(domain);
    const SequenceNumber read = rng() % 32;
    auto check = [&](RangeTombstoneCursor* c, const std::string& k) {
      const SequenceNumber got = c->CoveringSeq(k);
      ASSERT_EQ(got, m.MaxCovering(k, read)) << "seed " << seed << " key " << k;
      if (got != 0) {
        EXPECT_LE(m.ucmp->Compare(c->fragment_start(), k), 0);
        EXPECT_GT(m.ucmp->Compare(c->fragment_end(), k), 0);
      }
    };
    {
      RangeTombstoneCursor c(&list, read);
      for (const std::string& k : keys) check(&c, k);                              // forward
      for (auto it = keys.rbegin(); it != keys.rend(); ++it) check(&c, *it);       // backward
      for (int i = 0; i < 200; ++i) check(&c, keys[rng() % keys.size()]);          // jumps
      for (size_t i = 0; i < keys.size(); i += 1 + rng() % 4) check(&c, keys[i]);  // skips
    }
  }
  RangeTombstoneCursor null_cursor(nullptr, kMaxSequenceNumber);
  EXPECT_EQ(null_cursor.CoveringSeq("a"), 0u);
}

// ---------------------------------------------------------------------------
// CompactionRangeDelAggregator

size_t StripeOf(const std::vector<SequenceNumber>& snaps, SequenceNumber s) {
  return static_cast<size_t>(std::lower_bound(snaps.begin(), snaps.end(), s) - snaps.begin());
}

bool ModelShouldDelete(const Model& m, const std::vector<SequenceNumber>& snaps,
                       const std::string& k, SequenceNumber x) {
  for (const RangeTombstone& t : m.ts) {
    if (m.Covers(t, k) && t.seq > x && StripeOf(snaps, t.seq) == StripeOf(snaps, x)) return true;
  }
  return false;
}

// Whether some tombstone of `ts` hides version x of k from a reader at r.
bool Hidden(const Model& m, const std::vector<RangeTombstone>& ts, const std::string& k,
            SequenceNumber x, SequenceNumber r) {
  for (const RangeTombstone& t : ts) {
    if (m.Covers(t, k) && x < t.seq && t.seq <= r) return true;
  }
  return false;
}

std::vector<SequenceNumber> RandomSnapshots(std::mt19937_64* rng, SequenceNumber max_seq) {
  std::vector<SequenceNumber> snaps;
  const int n = static_cast<int>((*rng)() % 4);
  for (int i = 0; i < n; ++i) snaps.push_back(1 + (*rng)() % max_seq);
  std::sort(snaps.begin(), snaps.end());
  snaps.erase(std::unique(snaps.begin(), snaps.end()), snaps.end());
  return snaps;
}

TEST(CompactionRangeDelAggregatorTest, ShouldDeleteAgainstModel) {
  const uint64_t seed = test::RandomSeed();
  std::mt19937_64 rng(seed);
  const InternalKeyComparator icmp(BytewiseComparator());
  for (int round = 0; round < 300; ++round) {
    const int domain = 5 + static_cast<int>(rng() % 30);
    const SequenceNumber max_seq = 30;
    Model m{BytewiseComparator(),
            RandomTombstones(&rng, static_cast<int>(rng() % 20), domain, max_seq)};
    const std::vector<SequenceNumber> snaps = RandomSnapshots(&rng, max_seq);
    CompactionRangeDelAggregator agg(&icmp, snaps);
    // Added in two parts (one through an iterator) to exercise rebuilding.
    const size_t half = m.ts.size() / 2;
    agg.AddTombstones(std::vector<RangeTombstone>(m.ts.begin(), m.ts.begin() + half));
    if (round % 2 == 0) {
      EXPECT_FALSE(agg.ShouldDelete(ParsedInternalKey("zzz", 0, kTypeValue)));
    }
    VectorIter it = TombstoneIter(std::vector<RangeTombstone>(m.ts.begin() + half, m.ts.end()));
    ASSERT_OK(agg.AddTombstones(&it));
    EXPECT_EQ(agg.empty(), std::none_of(m.ts.begin(), m.ts.end(),
                                        [](const RangeTombstone& t) { return t.start < t.end; }));
    // Ascending internal-key order (user key asc, seq desc), then random.
    for (const std::string& k : QueryKeys(domain)) {
      for (SequenceNumber x = max_seq + 1; x-- > 0;) {
        ASSERT_EQ(agg.ShouldDelete(ParsedInternalKey(k, x, kTypeValue)),
                  ModelShouldDelete(m, snaps, k, x))
            << "seed " << seed << " key " << k << " seq " << x;
      }
    }
    const std::vector<std::string> keys = QueryKeys(domain);
    for (int i = 0; i < 300; ++i) {
      const std::string& k = keys[rng() % keys.size()];
      const SequenceNumber x = rng() % (max_seq + 1);
      ASSERT_EQ(agg.ShouldDelete(ParsedInternalKey(k, x, kTypeValue)),
                ModelShouldDelete(m, snaps, k, x))
          << "seed " << seed << " key " << k << " seq " << x;
    }
  }
}

TEST(CompactionRangeDelAggregatorTest, ShouldDeleteStripes) {
  const InternalKeyComparator icmp(BytewiseComparator());
  CompactionRangeDelAggregator agg(&icmp, {10, 20});
  EXPECT_TRUE(agg.empty());
  EXPECT_FALSE(agg.ShouldDelete(ParsedInternalKey("c", 1, kTypeValue)));
  agg.AddTombstones({T("b", "e", 15)});
  EXPECT_FALSE(agg.empty());
  EXPECT_FALSE(agg.ShouldDelete(ParsedInternalKey("a", 11, kTypeValue)));  // outside
  EXPECT_TRUE(agg.ShouldDelete(ParsedInternalKey("b", 11, kTypeValue)));   // same stripe
  EXPECT_TRUE(agg.ShouldDelete(ParsedInternalKey("d", 14, kTypeValue)));
  EXPECT_FALSE(agg.ShouldDelete(ParsedInternalKey("d", 15, kTypeValue)));  // not older
  EXPECT_FALSE(agg.ShouldDelete(ParsedInternalKey("d", 10, kTypeValue)));  // snapshot 10 sees it
  EXPECT_FALSE(agg.ShouldDelete(ParsedInternalKey("e", 11, kTypeValue)));  // end exclusive
  // A newer tombstone in the stripe of the older version decides.
  agg.AddTombstones({T("a", "c", 25), T("a", "c", 8)});
  EXPECT_TRUE(agg.ShouldDelete(ParsedInternalKey("b", 5, kTypeValue)));    // by 8
  EXPECT_FALSE(agg.ShouldDelete(ParsedInternalKey("b", 9, kTypeValue)));   // 15 > snap 10
  EXPECT_TRUE(agg.ShouldDelete(ParsedInternalKey("b", 21, kTypeValue)));   // by 25
  EXPECT_FALSE(agg.ShouldDelete(ParsedInternalKey("a", 20, kTypeValue)));  // 25 beyond snap 20
  EXPECT_FALSE(agg.ShouldDelete(ParsedInternalKey("a", 9, kTypeValue)));   // 25 beyond snap 10
  // Without snapshots everything is one stripe.
  CompactionRangeDelAggregator agg2(&icmp, {});
  agg2.AddTombstones({T("b", "e", 15)});
  EXPECT_TRUE(agg2.ShouldDelete(ParsedInternalKey("c", 1, kTypeValue)));
  EXPECT_FALSE(agg2.ShouldDelete(ParsedInternalKey("c", 16, kTypeValue)));
}

std::string ShowTs(const std::vector<RangeTombstone>& ts) {
  std::string s;
  for (const RangeTombstone& t : ts) {
    s += "[" + t.start + "," + t.end + ")@" + std::to_string(t.seq) + " ";
  }
  return s;
}

TEST(CompactionRangeDelAggregatorTest, OutputClipStripesBottommost) {
  const InternalKeyComparator icmp(BytewiseComparator());
  CompactionRangeDelAggregator agg(&icmp, {10, 20});
  agg.AddTombstones({T("b", "h", 5), T("b", "h", 7), T("d", "f", 12), T("d", "f", 18),
                     T("e", "m", 25), T("p", "r", 3)});
  std::vector<RangeTombstone> out;
  agg.GetTombstonesForOutput(nullptr, nullptr, false, &out);
  // [b,d){7,5} [d,e){18,12,7,5} [e,f){25,18,12,7,5} [f,h){25,7,5} [h,m){25} [p,r){3}
  // keeping the newest per stripe (stripes: <=10, <=20, latest).
  EXPECT_EQ(ShowTs(out),
            "[b,d)@7 [d,e)@18 [d,e)@7 [e,f)@25 [e,f)@18 [e,f)@7 [f,h)@25 [f,h)@7 [h,m)@25 "
            "[p,r)@3 ");
  out.clear();
  agg.GetTombstonesForOutput(nullptr, nullptr, true, &out);
  EXPECT_EQ(ShowTs(out), "[d,e)@18 [e,f)@25 [e,f)@18 [f,m)@25 ");  // [f,h) and [h,m) merged
  out.clear();
  const Slice lo("c"), hi("ee");
  agg.GetTombstonesForOutput(&lo, &hi, false, &out);
  EXPECT_EQ(ShowTs(out), "[c,d)@7 [d,e)@18 [d,e)@7 [e,ee)@25 [e,ee)@18 [e,ee)@7 ");
  out.clear();
  const Slice lo2("m"), hi2("q");
  agg.GetTombstonesForOutput(&lo2, &hi2, false, &out);
  EXPECT_EQ(ShowTs(out), "[p,q)@3 ");
  out.clear();
  agg.GetTombstonesForOutput(&lo2, nullptr, false, &out);
  EXPECT_EQ(ShowTs(out), "[p,r)@3 ");
  out.clear();
  agg.GetTombstonesForOutput(nullptr, &lo, false, &out);  // upper "c"
  EXPECT_EQ(ShowTs(out), "[b,c)@7 ");
  out.clear();
  agg.GetTombstonesForOutput(&hi2, &lo2, false, &out);  // empty range
  EXPECT_TRUE(out.empty());

  // No snapshots: one stripe; bottommost drops everything.
  CompactionRangeDelAggregator agg2(&icmp, {});
  agg2.AddTombstones({T("a", "c", 4), T("b", "d", 9)});
  out.clear();
  agg2.GetTombstonesForOutput(nullptr, nullptr, false, &out);
  EXPECT_EQ(ShowTs(out), "[a,b)@4 [b,d)@9 ");  // [b,c) and [c,d) merged
  out.clear();
  agg2.GetTombstonesForOutput(nullptr, nullptr, true, &out);
  EXPECT_TRUE(out.empty());
}

// For every version that survives (ShouldDelete false) and every reader
// (each snapshot and the latest), the output tombstones of each output range
// hide the version exactly when the input tombstones do.
TEST(CompactionRangeDelAggregatorTest, OutputKeepsVisibility) {
  const uint64_t seed = test::RandomSeed();
  std::mt19937_64 rng(seed);
  const InternalKeyComparator icmp(BytewiseComparator());
  for (int round = 0; round < 300; ++round) {
    const int domain = 5 + static_cast<int>(rng() % 30);
    const SequenceNumber max_seq = 30;
    Model m{BytewiseComparator(),
            RandomTombstones(&rng, static_cast<int>(rng() % 20), domain, max_seq)};
    const std::vector<SequenceNumber> snaps = RandomSnapshots(&rng, max_seq);
    const bool bottommost = rng() % 2 == 0;
    CompactionRangeDelAggregator agg(&icmp, snaps);
    agg.AddTombstones(m.ts);
    // Cut the key space into output ranges at random domain keys.
    std::vector<std::string> cuts;
    for (int i = 0; i < domain; ++i) {
      if (rng() % 5 == 0) cuts.push_back(DomainKey(i) + (rng() % 2 ? "x" : ""));
    }
    std::vector<std::vector<RangeTombstone>> outs(cuts.size() + 1);
    for (size_t r = 0; r <= cuts.size(); ++r) {
      const Slice lo = r > 0 ? Slice(cuts[r - 1]) : Slice();
      const Slice hi = r < cuts.size() ? Slice(cuts[r]) : Slice();
      agg.GetTombstonesForOutput(r > 0 ? &lo : nullptr, r < cuts.size() ? &hi : nullptr, bottommost,
                                 &outs[r]);
      for (const RangeTombstone& t : outs[r]) {
        if (r > 0) {
          ASSERT_GE(t.start, cuts[r - 1]);
        }
        if (r < cuts.size()) {
          ASSERT_LE(t.end, cuts[r]);
        }
        ASSERT_LT(t.start, t.end);
      }
      for (size_t i = 1; i < outs[r].size(); ++i) {
        ASSERT_TRUE(
            outs[r][i - 1].start < outs[r][i].start ||
            (outs[r][i - 1].start == outs[r][i].start && outs[r][i - 1].seq > outs[r][i].seq));
      }
    }
    std::vector<SequenceNumber> readers = snaps;
    readers.push_back(kMaxSequenceNumber);
    for (const std::string& k : QueryKeys(domain)) {
      const size_t r =
          static_cast<size_t>(std::upper_bound(cuts.begin(), cuts.end(), k) - cuts.begin());
      for (SequenceNumber x = 0; x <= max_seq; ++x) {
        if (agg.ShouldDelete(ParsedInternalKey(k, x, kTypeValue))) continue;
        for (SequenceNumber reader : readers) {
          if (reader < x) continue;
          ASSERT_EQ(Hidden(m, outs[r], k, x, reader), Hidden(m, m.ts, k, x, reader))
              << "seed " << seed << " key " << k << " seq " << x << " reader " << reader << " out "
              << ShowTs(outs[r]);
        }
      }
    }
  }
}

TEST(RangeDelCorruptionTest, BadEntries) {
  const InternalKeyComparator icmp(BytewiseComparator());
  // A key shorter than the trailer.
  {
    VectorIter it({{IKey("a", 5, kTypeRangeDeletion), "c"}, {"abc", "d"}});
    FragmentedRangeTombstoneList list(&it, BytewiseComparator());
    EXPECT_TRUE(list.status().IsCorruption()) << list.status().ToString();
    EXPECT_TRUE(list.empty());
    VectorIter it2({{IKey("a", 5, kTypeRangeDeletion), "c"}, {"abc", "d"}});
    CompactionRangeDelAggregator agg(&icmp, {});
    EXPECT_TRUE(agg.AddTombstones(&it2).IsCorruption());
    EXPECT_TRUE(agg.empty());
  }
  // An entry that is not a range deletion.
  {
    VectorIter it({{IKey("a", 5, kTypeValue), "c"}});
    FragmentedRangeTombstoneList list(&it, BytewiseComparator());
    EXPECT_TRUE(list.status().IsCorruption());
    EXPECT_TRUE(list.empty());
  }
  // An invalid type byte.
  {
    VectorIter it({{IKey("a", 5, static_cast<ValueType>(0x55)), "c"}});
    FragmentedRangeTombstoneList list(&it, BytewiseComparator());
    EXPECT_TRUE(list.status().IsCorruption());
  }
  // The iterator's own error.
  {
    VectorIter it({{IKey("a", 5, kTypeRangeDeletion), "c"}}, Status::IOError("disk"));
    FragmentedRangeTombstoneList list(&it, BytewiseComparator());
    EXPECT_TRUE(list.status().IsIOError());
    EXPECT_TRUE(list.empty());
  }
}

}  // namespace
}  // namespace strata
