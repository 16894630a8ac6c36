// Range tombstones: fragmentation shapes, lookups and cursors, each checked
// against a brute-force model over the unfragmented tombstones.
#include "base/range_tombstone.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "base/range_tombstone_test_util.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

using namespace range_tombstone_test;  // NOLINT

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

}  // namespace
}  // namespace strata
