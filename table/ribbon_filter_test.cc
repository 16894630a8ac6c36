// Tests of the Standard128Ribbon math (table/ribbon_filter.h) and of the
// Ribbon policy's builder, reader and bloom_before_level choice
// (table/filter_policy.h). Byte equality with RocksDB is in
// ribbon_interop_test.cc.
#include "table/ribbon_filter.h"

#include <gtest/gtest.h>

#include <climits>
#include <cstdio>
#include <random>
#include <string>
#include <unordered_set>

#include "strata/filter_policy.h"
#include "table/filter_policy.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

double TenBitsOneIn() { return RibbonOneInFpRate(10.0, FilterBitsBuilder::ChooseNumProbes(10000)); }

std::deque<uint64_t> RandomHashes(std::mt19937_64* rng, size_t n) {
  std::deque<uint64_t> h;
  for (size_t i = 0; i < n; i++) h.push_back((*rng)());
  return h;
}

TEST(RibbonMathTest, EquivalentFpRateOfTenBitsIsAboutOnePercent) {
  const double one_in = TenBitsOneIn();
  EXPECT_GT(one_in, 95.0);
  EXPECT_LT(one_in, 110.0);
  // More bits, rarer false positives.
  EXPECT_GT(RibbonOneInFpRate(16.0, FilterBitsBuilder::ChooseNumProbes(16000)), 1000.0);
}

TEST(RibbonMathTest, SlotsAreWholeBlocksAboveEntries) {
  uint32_t prev = 0;
  for (uint32_t n : {1u, 2u, 100u, 200u, 249u, 250u, 1000u, 4096u, 100000u, 1000000u, 20000000u}) {
    const uint32_t slots = RibbonNumSlots(n);
    SCOPED_TRACE(n);
    EXPECT_EQ(slots % 128, 0u);
    EXPECT_GE(slots, 256u);
    EXPECT_GE(slots, n);
    // About 1.02-1.1 slots per entry for large sets.
    if (n >= 100000) {
      EXPECT_LT(slots, n * 1.12);
    }
    EXPECT_GE(slots, prev);
    prev = slots;
  }
}

TEST(RibbonMathTest, SolutionBytesMixColumnsForTheFpRate) {
  const double one_in = TenBitsOneIn();  // ~6.7 columns
  const uint32_t slots = 128 * 100;
  const size_t bytes = RibbonSolutionBytes(slots, one_in, 0);
  EXPECT_EQ(bytes % 16, 0u);
  EXPECT_GE(bytes, size_t{100} * 6 * 16);
  EXPECT_LE(bytes, size_t{100} * 7 * 16);
  // Degenerate rates: one segment; more than 32 bits: 32 columns.
  EXPECT_EQ(RibbonSolutionBytes(slots, 1.0, 0), 16u);
  EXPECT_EQ(RibbonSolutionBytes(slots, 1e12, 0), size_t{slots} * 4);
}

// Solve and query over random hash sets: no false negatives, and an FP rate
// near the configured one.
TEST(RibbonMathTest, SolveQueryRoundTrip) {
  const uint64_t seed = test::RandomSeed();
  std::mt19937_64 rng(seed);
  const double one_in = TenBitsOneIn();
  for (size_t n : {1u, 3u, 120u, 500u, 3000u, 40000u, 200000u}) {
    SCOPED_TRACE("n=" + std::to_string(n) + " seed=" + std::to_string(seed));
    const std::deque<uint64_t> hashes = RandomHashes(&rng, n);
    const uint32_t slots = RibbonNumSlots(static_cast<uint32_t>(n));
    const size_t bytes =
        RibbonSolutionBytes(slots, one_in, static_cast<uint32_t>(hashes.front() >> 32));
    std::string out(bytes, '\0');
    uint32_t ordinal = 999;
    ASSERT_TRUE(RibbonBuild(hashes, slots, bytes, out.data(), &ordinal));
    ASSERT_LT(ordinal, 256u);
    RibbonQuery q;
    q.Init(out.data(), out.size(), slots / 128, ordinal);
    for (uint64_t h : hashes) ASSERT_TRUE(q.MayMatch(h)) << h;
    if (n >= 3000) {
      size_t fp = 0;
      const size_t probes = 200000;
      for (size_t i = 0; i < probes; i++) fp += q.MayMatch(rng()) ? 1 : 0;
      const double rate = static_cast<double>(fp) / probes;
      std::printf("n=%zu bytes/key=%.3f fp=%.5f expected=%.5f\n", n, static_cast<double>(bytes) / n,
                  rate, 1.0 / one_in);
      EXPECT_GT(rate, 0.6 / one_in);
      EXPECT_LT(rate, 1.5 / one_in);
    }
  }
}

// Equal hashes (a duplicate not adjacent) are redundant rows: still solved.
TEST(RibbonMathTest, DuplicateHashesAreConsistent) {
  std::mt19937_64 rng(7);
  std::deque<uint64_t> hashes = RandomHashes(&rng, 1000);
  for (size_t i = 0; i < 100; i++) hashes.push_back(hashes[i * 3]);
  const uint32_t slots = RibbonNumSlots(1100);
  const size_t bytes = RibbonSolutionBytes(slots, TenBitsOneIn(), 0);
  std::string out(bytes, '\0');
  uint32_t ordinal = 0;
  ASSERT_TRUE(RibbonBuild(hashes, slots, bytes, out.data(), &ordinal));
  RibbonQuery q;
  q.Init(out.data(), out.size(), slots / 128, ordinal);
  for (uint64_t h : hashes) ASSERT_TRUE(q.MayMatch(h));
}

// Too many keys for the slots: every seed fails, and RibbonBuild says so.
TEST(RibbonMathTest, OverfullBandingFails) {
  std::mt19937_64 rng(11);
  const std::deque<uint64_t> hashes = RandomHashes(&rng, 400);
  std::string out(256 * 4, '\0');
  uint32_t ordinal = 0;
  EXPECT_FALSE(RibbonBuild(hashes, 256, out.size(), out.data(), &ordinal));
}

std::string FinishKeys(FilterBitsBuilder* b, const std::vector<std::string>& keys,
                       std::unique_ptr<const char[]>* buf) {
  for (const auto& k : keys) b->AddKey(k);
  return b->Finish(buf).ToString();
}

std::vector<std::string> Keys(size_t n, const std::string& tag) {
  std::vector<std::string> keys;
  for (size_t i = 0; i < n; i++) keys.push_back(tag + std::to_string(i));
  return keys;
}

// Through the policy: Ribbon for large sets (marker -2) in ~70% of Bloom's
// space at a similar FP rate; Bloom (marker -1) for tiny sets; no false
// negatives in either.
TEST(RibbonPolicyTest, BuilderAndReader) {
  auto policy = NewRibbonFilterPolicy(10);
  auto bloom_policy = NewBloomFilterPolicy(10);
  for (size_t n : {1u, 10u, 100u, 300u, 1000u, 20000u, 100000u}) {
    SCOPED_TRACE(n);
    const auto keys = Keys(n, "key");
    auto builder = NewFilterBitsBuilder(policy.get());
    ASSERT_NE(builder, nullptr);
    EXPECT_TRUE(builder->is_ribbon());
    std::unique_ptr<const char[]> buf;
    const std::string filter = FinishKeys(builder.get(), keys, &buf);
    ASSERT_GT(filter.size(), kFilterMetadataLen);
    FilterBitsReader reader{Slice(filter)};
    const auto marker = static_cast<uint8_t>(filter[filter.size() - 5]);
    if (n <= 100) {
      EXPECT_EQ(marker, 0xFF);  // Bloom is smaller
      EXPECT_EQ(reader.kind(), FilterBitsReader::Kind::kFastLocalBloom);
    } else if (n >= 1000) {
      EXPECT_EQ(marker, 0xFE);
      EXPECT_EQ(reader.kind(), FilterBitsReader::Kind::kStandard128Ribbon);
    }
    for (const auto& k : keys) ASSERT_TRUE(reader.MayMatch(k)) << k;
    if (n >= 20000) {
      auto bb = NewFilterBitsBuilder(bloom_policy.get());
      std::unique_ptr<const char[]> bbuf;
      const std::string bloom = FinishKeys(bb.get(), keys, &bbuf);
      FilterBitsReader bloom_reader{Slice(bloom)};
      const double ratio = static_cast<double>(filter.size()) / bloom.size();
      size_t fp = 0, bloom_fp = 0;
      const auto absent = Keys(100000, "absent");
      for (const auto& k : absent) {
        fp += reader.MayMatch(k) ? 1 : 0;
        bloom_fp += bloom_reader.MayMatch(k) ? 1 : 0;
      }
      std::printf("n=%zu ribbon %zu bytes fp %zu, bloom %zu bytes fp %zu (size ratio %.3f)\n", n,
                  filter.size(), fp, bloom.size(), bloom_fp, ratio);
      EXPECT_LT(ratio, 0.75);
      EXPECT_GT(ratio, 0.6);
      EXPECT_LT(fp, 1500u);  // ~1%
      EXPECT_GT(fp, 500u);
    }
  }
}

TEST(RibbonPolicyTest, EmptyRibbonFilterIsEmpty) {
  auto builder = NewFilterBitsBuilder(NewRibbonFilterPolicy(10).get());
  std::unique_ptr<const char[]> buf;
  EXPECT_EQ(builder->Finish(&buf).size(), 0u);
  FilterBitsReader reader{Slice()};
  EXPECT_FALSE(reader.MayMatch("x"));
}

TEST(RibbonPolicyTest, NamesAndNoFilter) {
  auto policy = NewRibbonFilterPolicy(10);
  EXPECT_STREQ(policy->Name(), "ribbonfilter");
  EXPECT_STREQ(policy->CompatibilityName(), "rocksdb.BuiltinBloomFilter");
  EXPECT_EQ(NewFilterBitsBuilder(NewRibbonFilterPolicy(0.2).get()), nullptr);
  const auto held = NewRibbonFilterPolicy(7.5, 3);  // alive while r is used
  const auto* r = dynamic_cast<const RibbonFilterPolicy*>(held.get());
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->millibits_per_key(), 7500);
  EXPECT_EQ(r->bloom_before_level(), 3);
}

// RocksDB's choice of Bloom or Ribbon per table.
TEST(RibbonPolicyTest, BloomBeforeLevel) {
  auto ctx = [](CompactionStyle style, TableFileCreationReason reason, int level) {
    FilterBuildingContext c;
    c.compaction_style = style;
    c.reason = reason;
    c.level_at_creation = level;
    return c;
  };
  const auto kFlush = TableFileCreationReason::kFlush;
  const auto kCompaction = TableFileCreationReason::kCompaction;
  const auto kMisc = TableFileCreationReason::kMisc;
  const auto kRecovery = TableFileCreationReason::kRecovery;
  struct Case {
    int bloom_before_level;
    FilterBuildingContext context;
    bool bloom;
  };
  const Case cases[] = {
      // Default 0: flushes only.
      {0, ctx(kCompactionStyleLevel, kFlush, 0), true},
      {0, ctx(kCompactionStyleLevel, kRecovery, 0), false},  // WAL recovery: level 0
      {0, ctx(kCompactionStyleLevel, kCompaction, 0), false},
      {0, ctx(kCompactionStyleLevel, kCompaction, 1), false},
      {0, ctx(kCompactionStyleUniversal, kFlush, 0), true},
      {0, ctx(kCompactionStyleFIFO, kFlush, 0), false},
      {0, ctx(kCompactionStyleLevel, kMisc, -1), false},  // SstFileWriter
      // -1: never Bloom.
      {-1, ctx(kCompactionStyleLevel, kFlush, 0), false},
      // 1: L0 (flush and intra-L0) is Bloom.
      {1, ctx(kCompactionStyleLevel, kCompaction, 0), true},
      {1, ctx(kCompactionStyleLevel, kCompaction, 1), false},
      {1, ctx(kCompactionStyleUniversal, kCompaction, 0), true},
      {3, ctx(kCompactionStyleUniversal, kCompaction, 2), true},
      {3, ctx(kCompactionStyleUniversal, kCompaction, 3), false},
      // INT_MAX: Bloom wherever the level is known.
      {INT_MAX, ctx(kCompactionStyleLevel, kCompaction, 6), true},
      {INT_MAX, ctx(kCompactionStyleLevel, kMisc, -1), false},
      {INT_MAX, ctx(kCompactionStyleFIFO, kFlush, 0), false},
      {INT_MAX, ctx(kCompactionStyleNone, kCompaction, 2), false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE("bloom_before_level=" + std::to_string(c.bloom_before_level) +
                 " style=" + std::to_string(c.context.compaction_style) +
                 " level=" + std::to_string(c.context.level_at_creation));
    RibbonFilterPolicy policy(10, c.bloom_before_level);
    EXPECT_EQ(policy.UsesBloom(c.context), c.bloom);
    auto builder = NewFilterBitsBuilder(&policy, c.context);
    ASSERT_NE(builder, nullptr);
    EXPECT_EQ(builder->is_ribbon(), !c.bloom);
  }
}

// Malformed Ribbon metadata never reads outside the filter: fewer than two
// blocks is "always true"; any other block count over any bytes answers
// without touching bytes beyond the solution.
TEST(RibbonPolicyTest, MalformedMetadataIsSafe) {
  std::mt19937_64 rng(test::RandomSeed());
  for (int round = 0; round < 300; round++) {
    const size_t len = rng() % 200;
    std::string f = test::RandomBytes(&rng, len);
    std::string trailer = "\xfe";
    trailer += static_cast<char>(rng());
    uint32_t blocks = round < 20 ? static_cast<uint32_t>(round % 2) : static_cast<uint32_t>(rng());
    if (round % 3 == 0) blocks %= 8;
    trailer += static_cast<char>(blocks & 255);
    trailer += static_cast<char>((blocks >> 8) & 255);
    trailer += static_cast<char>((blocks >> 16) & 255);
    // Copy into an exact-size heap buffer so ASan catches overreads.
    const std::string all = f + trailer;
    std::unique_ptr<char[]> exact(new char[all.size()]);
    memcpy(exact.get(), all.data(), all.size());
    FilterBitsReader reader{Slice(exact.get(), all.size())};
    if (len == 0) {
      EXPECT_EQ(reader.kind(), FilterBitsReader::Kind::kAlwaysFalse);  // only a trailer
    } else if ((blocks & 0xFFFFFF) < 2) {
      EXPECT_EQ(reader.kind(), FilterBitsReader::Kind::kAlwaysTrue);
    }
    for (int i = 0; i < 50; i++) (void)reader.MayMatch(std::to_string(rng()));
  }
}

// ApproximateNumEntries reverses the sizing: a filter sized for n keys is
// said to hold about n (a little more or less from rounding), never more
// than the Bloom fallback or Ribbon would fit, and more bytes never hold
// fewer keys.
TEST(RibbonPolicyTest, ApproximateNumEntriesReversesSizing) {
  auto builder = NewFilterBitsBuilder(NewRibbonFilterPolicy(10).get());
  ASSERT_TRUE(builder->is_ribbon());
  for (uint32_t n : {2000u, 10000u, 100000u, 1000000u}) {
    uint32_t slots = 0;
    bool bloom = true;
    const size_t space = builder->RibbonSpace(n, 0, &slots, &bloom);
    ASSERT_FALSE(bloom);
    const size_t back = builder->RibbonApproximateNumEntries(space);
    SCOPED_TRACE(std::to_string(n) + " keys: " + std::to_string(space) + " bytes -> " +
                 std::to_string(back));
    EXPECT_GE(back, n * 0.97);
    EXPECT_LE(back, n * 1.03);
  }
  size_t prev = 0;
  for (size_t bytes = 0; bytes < 20000; bytes += 97) {
    const size_t n = builder->RibbonApproximateNumEntries(bytes);
    EXPECT_GE(n, prev) << bytes;
    prev = n;
  }
  // Tiny sizes: the Bloom fallback's count (8000 * 64 / 10000 = 51 for one line).
  EXPECT_EQ(builder->RibbonApproximateNumEntries(69), 51u);
  EXPECT_EQ(builder->RibbonApproximateNumEntries(0), 0u);
}

// One builder, several filters in a row (as partitioned filters use it):
// each Finish covers only the keys added since the previous one, and a
// Bloom fallback for a small set does not stick to the next, larger one.
TEST(RibbonPolicyTest, BuilderIsReusableAcrossFinishes) {
  auto builder = NewFilterBitsBuilder(NewRibbonFilterPolicy(10).get());
  const size_t sizes[] = {5000, 40, 3000, 1};
  for (size_t round = 0; round < std::size(sizes); round++) {
    const auto keys = Keys(sizes[round], "r" + std::to_string(round) + "_");
    std::unique_ptr<const char[]> buf;
    const std::string filter = FinishKeys(builder.get(), keys, &buf);
    EXPECT_EQ(builder->EstimateEntriesAdded(), 0u);
    FilterBitsReader reader{Slice(filter)};
    EXPECT_EQ(reader.kind(), sizes[round] >= 1000 ? FilterBitsReader::Kind::kStandard128Ribbon
                                                  : FilterBitsReader::Kind::kFastLocalBloom);
    for (const auto& k : keys) ASSERT_TRUE(reader.MayMatch(k)) << k;
    // Keys of the previous round are (mostly) not in this filter.
    if (round > 0 && sizes[round] >= 1000) {
      size_t hits = 0;
      for (const auto& k : Keys(sizes[round - 1], "r" + std::to_string(round - 1) + "_")) {
        hits += reader.MayMatch(k) ? 1 : 0;
      }
      EXPECT_LT(hits, sizes[round - 1] / 10 + 5);
    }
  }
}

}  // namespace
}  // namespace strata
