// The compaction range-deletion aggregator (ShouldDelete with snapshot
// stripes, GetTombstonesForOutput), checked against a brute-force model over
// the unfragmented tombstones; damaged tombstone entries.
#include "db/compaction/compaction_range_del_aggregator.h"

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
