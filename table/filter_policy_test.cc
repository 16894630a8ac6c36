#include "table/filter_policy.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "test_util/testutil.h"
#include "util/coding.h"
#include "util/crc32c.h"
#include "util/hash.h"

namespace strata {
namespace {

std::string Key(const char* prefix, int i) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%s%05d", prefix, i);
  return buf;
}

std::string Build(double bits_per_key, int n, const char* prefix = "key") {
  BloomFilterPolicy policy(bits_per_key);
  std::unique_ptr<FilterBitsBuilder> builder = policy.NewBuilder();
  EXPECT_NE(builder, nullptr);
  if (builder == nullptr) return "";
  for (int i = 0; i < n; ++i) builder->AddKey(Key(prefix, i));
  std::unique_ptr<const char[]> buf;
  return builder->Finish(&buf).ToString();
}

std::string Unhex(const std::string& hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  }
  return out;
}

// Generated once with the independent Python implementation in
// /work/shared/tools/rocksfmt:
//   python3 -c 'import writer as W; print(W.fastbloom([b"key%05d" % i
//       for i in range(100)], 10).hex())'
const char kFast100Keys10Bits[] =
    "5543365c854d030c3c1b3656964b0212b9f1d04edb3b19b0315c2d471c3047a248a007363c9ed1d96111a3"
    "6fbe053624a0f4dc01dd9334722a6362836f1c8902a6cdfc6b2568ec03b1c5710087807cf40e00d7e05b8b"
    "a7014a14a4013675e589b0ab02188210c987152dd4ed8604045416a04294c64fc3536bb441f31c0c8ce8ff"
    "00060000";

// A legacy Bloom filter (docs/format/filter.md, Legacy Bloom) for key00000..key00199 at 10 bits/key
// (6 probes, 5 lines), written in Python per 7.5 and checked with
// rocksfmt.legacybloom_may_match, which also counted 46 matches among
// nokey00000..nokey09999.
const char kLegacy200Keys10Bits[] =
    "81100a714024088813492000351490240133005355730958204109203400802009304a1004420d9810812062"
    "2114d0201010702211a10c1c200100643814900419214a544662049a13c121e5b540d8258413406345f704"
    "06214901e03ef4902d91214a7646e60cca1bc929e7afb3d82c8433707275530c5c29490900bec4902d9911"
    "02370262099a180920a1bff4c8299130404354e2091c210900a4b854802c89000a350262010a100821a7be"
    "d3d8211430701231b10016200000c49800802d1910081402c005c8028008c51044d8051412400310d60016"
    "084108441ee0902918100807004204ca0b010087a3a7c82c9513700320e60110284901241ee49021812042"
    "3204e601501bc829051aa0d028853300331197055628080180b89090000121405542e6085002c028853843"
    "d809051250737535055e21010880aa3090200605000000";

TEST(FilterPolicyTest, Names) {
  std::shared_ptr<const FilterPolicy> policy = NewBloomFilterPolicy(10);
  EXPECT_STREQ(policy->Name(), "bloomfilter");
  EXPECT_STREQ(policy->CompatibilityName(), "rocksdb.BuiltinBloomFilter");
  EXPECT_NE(NewFilterBitsBuilder(policy.get()), nullptr);
  EXPECT_EQ(NewFilterBitsBuilder(nullptr), nullptr);
  EXPECT_EQ(NewFilterBitsBuilder(NewBloomFilterPolicy(0.3).get()), nullptr);
}

TEST(FilterPolicyTest, MillibitsRounding) {
  EXPECT_EQ(BloomFilterPolicy(0.49).millibits_per_key(), 0);
  EXPECT_EQ(BloomFilterPolicy(0.5).millibits_per_key(), 1000);
  EXPECT_EQ(BloomFilterPolicy(0.99).millibits_per_key(), 1000);
  EXPECT_EQ(BloomFilterPolicy(7.5).millibits_per_key(), 7500);
  EXPECT_EQ(BloomFilterPolicy(9.9996).millibits_per_key(), 10000);
  EXPECT_EQ(BloomFilterPolicy(10).millibits_per_key(), 10000);
  EXPECT_EQ(BloomFilterPolicy(250).millibits_per_key(), 100000);
  EXPECT_EQ(BloomFilterPolicy(NAN).millibits_per_key(), 100000);
}

TEST(FilterPolicyTest, ProbeTable) {
  EXPECT_EQ(FilterBitsBuilder::ChooseNumProbes(1000), 1);
  EXPECT_EQ(FilterBitsBuilder::ChooseNumProbes(2080), 1);
  EXPECT_EQ(FilterBitsBuilder::ChooseNumProbes(2081), 2);
  EXPECT_EQ(FilterBitsBuilder::ChooseNumProbes(10000), 6);
  EXPECT_EQ(FilterBitsBuilder::ChooseNumProbes(10070), 6);
  EXPECT_EQ(FilterBitsBuilder::ChooseNumProbes(10071), 7);
  EXPECT_EQ(FilterBitsBuilder::ChooseNumProbes(25501), 12);
  EXPECT_EQ(FilterBitsBuilder::ChooseNumProbes(28000), 12);  // 27999/2000 - 1
  EXPECT_EQ(FilterBitsBuilder::ChooseNumProbes(40000), 18);
  EXPECT_EQ(FilterBitsBuilder::ChooseNumProbes(50000), 23);
  EXPECT_EQ(FilterBitsBuilder::ChooseNumProbes(50001), 24);
  EXPECT_EQ(FilterBitsBuilder::ChooseNumProbes(100000), 24);
}

TEST(FilterPolicyTest, ByteExactAgainstPython) {
  EXPECT_EQ(Build(10, 100), Unhex(kFast100Keys10Bits));

  // key00000..key00589: length, trailer and crc32c of the Python filter.
  const std::string f = Build(10, 590);
  ASSERT_EQ(f.size(), 773u);
  EXPECT_EQ(f.substr(768), Unhex("ff00060000"));
  EXPECT_EQ(crc32c::Value(f.data(), f.size()), 0xcdb633fau);

  const std::string g = Build(7.5, 1000);
  ASSERT_EQ(g.size(), 965u);
  EXPECT_EQ(g.substr(960), Unhex("ff00050000"));
  EXPECT_EQ(crc32c::Value(g.data(), g.size()), 0x5356e1a0u);

  // The Python reader found 82 of nokey00000..nokey09999 in f.
  FilterBitsReader reader(f);
  ASSERT_EQ(reader.kind(), FilterBitsReader::Kind::kFastLocalBloom);
  int matches = 0;
  for (int i = 0; i < 10000; ++i) matches += reader.MayMatch(Key("nokey", i));
  EXPECT_EQ(matches, 82);
  for (int i = 0; i < 590; ++i) EXPECT_TRUE(reader.MayMatch(Key("key", i)));
}

TEST(FilterPolicyTest, LengthsAndProbesPerBitsPerKey) {
  // docs/format/filter.md (FastLocalBloom), 590 keys; lengths/probes also produced by rocksfmt.
  struct Case {
    double bits;
    size_t len;
    int probes;
  };
  const Case cases[] = {{1, 133, 1},   {2, 197, 1},    {3, 261, 2},   {5, 389, 3},
                        {7, 581, 5},   {9, 709, 6},    {10, 773, 6},  {12, 901, 8},
                        {16, 1221, 9}, {20, 1541, 11}, {24, 1797, 12}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.bits);
    const std::string f = Build(c.bits, 590);
    ASSERT_EQ(f.size(), c.len);
    EXPECT_EQ(static_cast<uint8_t>(f[c.len - 5]), 0xff);
    EXPECT_EQ(f[c.len - 4], 0);
    EXPECT_EQ(static_cast<int>(f[c.len - 3]), c.probes);
    EXPECT_EQ(f[c.len - 2], 0);
    EXPECT_EQ(f[c.len - 1], 0);
    EXPECT_EQ((c.len - 5) % 64, 0u);
    FilterBitsReader reader(f);
    EXPECT_EQ(reader.num_probes(), c.probes);
    for (int i = 0; i < 590; ++i) ASSERT_TRUE(reader.MayMatch(Key("key", i)));
  }
}

TEST(FilterPolicyTest, AdjacentDuplicatesCountOnce) {
  BloomFilterPolicy policy(10);
  auto builder = policy.NewBuilder();
  builder->AddKey("a");
  builder->AddKey("a");
  builder->AddKey("b");
  builder->AddKey("a");
  EXPECT_EQ(builder->EstimateEntriesAdded(), 3u);
  std::unique_ptr<const char[]> buf;
  const Slice f = builder->Finish(&buf);
  EXPECT_EQ(f.size(), 64u + 5);
  EXPECT_EQ(builder->EstimateEntriesAdded(), 0u);
  FilterBitsReader reader(f);
  EXPECT_TRUE(reader.MayMatch("a"));
  EXPECT_TRUE(reader.MayMatch("b"));
}

TEST(FilterPolicyTest, EmptyFilterMatchesNothing) {
  BloomFilterPolicy policy(10);
  auto builder = policy.NewBuilder();
  std::unique_ptr<const char[]> buf;
  const Slice f = builder->Finish(&buf);
  EXPECT_EQ(f.size(), 5u);
  FilterBitsReader reader(f);
  EXPECT_EQ(reader.kind(), FilterBitsReader::Kind::kAlwaysFalse);
  EXPECT_FALSE(reader.MayMatch("a"));
  EXPECT_FALSE(FilterBitsReader(Slice()).MayMatch("a"));
}

TEST(FilterPolicyTest, NoFalseNegativesAndFalsePositiveRate) {
  const uint64_t seed = test::RandomSeed();
  std::mt19937_64 rng(seed);
  constexpr int kKeys = 100000;
  std::vector<std::string> keys;
  keys.reserve(kKeys);
  BloomFilterPolicy policy(10);
  auto builder = policy.NewBuilder();
  for (int i = 0; i < kKeys; ++i) {
    keys.push_back(test::RandomBytes(&rng, 1 + rng() % 40));
    builder->AddKey(keys.back());
  }
  std::unique_ptr<const char[]> buf;
  const Slice f = builder->Finish(&buf);
  FilterBitsReader reader(f);
  for (const std::string& k : keys) ASSERT_TRUE(reader.MayMatch(k)) << "seed " << seed;

  // Keys of length 41..60 cannot be among the added ones.
  constexpr int kProbes = 100000;
  int fp = 0;
  for (int i = 0; i < kProbes; ++i) {
    fp += reader.MayMatch(test::RandomBytes(&rng, 41 + rng() % 20));
  }
  const double rate = static_cast<double>(fp) / kProbes;
  std::printf("false-positive rate at 10 bits/key: %.4f\n", rate);
  EXPECT_LT(rate, 0.02) << "seed " << seed;
  EXPECT_GT(rate, 0.002) << "seed " << seed;
}

// Sets the legacy Bloom bits per docs/format/filter.md (Legacy Bloom) (64-byte lines).
std::string BuildLegacy(const std::vector<std::string>& keys, int bits_per_key) {
  const int probes = std::max(1, std::min(30, static_cast<int>(bits_per_key * 0.69)));
  uint32_t lines = static_cast<uint32_t>((keys.size() * bits_per_key + 511) / 512);
  if (lines % 2 == 0) ++lines;
  std::string f(lines * 64, '\0');
  for (const std::string& k : keys) {
    uint32_t h = Hash32(k.data(), k.size(), 0xbc9f1d34);
    const uint32_t delta = (h >> 17) | (h << 15);
    const size_t base = (h % lines) * 64;
    for (int i = 0; i < probes; ++i) {
      const uint32_t bit = h & 511;
      f[base + bit / 8] = static_cast<char>(f[base + bit / 8] | (1 << (bit % 8)));
      h += delta;
    }
  }
  f.push_back(static_cast<char>(probes));
  PutFixed32(&f, lines);
  return f;
}

TEST(FilterPolicyTest, LegacyBloom) {
  std::vector<std::string> keys;
  for (int i = 0; i < 200; ++i) keys.push_back(Key("key", i));
  const std::string f = BuildLegacy(keys, 10);
  ASSERT_EQ(f, Unhex(kLegacy200Keys10Bits));
  FilterBitsReader reader(f);
  ASSERT_EQ(reader.kind(), FilterBitsReader::Kind::kLegacyBloom);
  EXPECT_EQ(reader.num_probes(), 6);
  for (const std::string& k : keys) EXPECT_TRUE(reader.MayMatch(k));
  int matches = 0;
  for (int i = 0; i < 10000; ++i) matches += reader.MayMatch(Key("nokey", i));
  EXPECT_EQ(matches, 46);

  // Larger set: no false negatives, sane false-positive rate.
  keys.clear();
  for (int i = 0; i < 20000; ++i) keys.push_back(Key("k", i));
  const std::string g = BuildLegacy(keys, 10);
  FilterBitsReader big(g);
  for (const std::string& k : keys) ASSERT_TRUE(big.MayMatch(k));
  int fp = 0;
  for (int i = 0; i < 20000; ++i) fp += big.MayMatch(Key("miss", i));
  EXPECT_LT(fp, 20000 * 3 / 100);
}

TEST(FilterPolicyTest, OtherTrailersAreAlwaysTrue) {
  std::string base(64, '\0');  // all bits clear: a real filter matches nothing
  auto with = [&](std::string trailer) { return base + trailer; };
  using Kind = FilterBitsReader::Kind;
  EXPECT_EQ(FilterBitsReader(with(Unhex("ff00060000"))).kind(), Kind::kFastLocalBloom);
  EXPECT_FALSE(FilterBitsReader(with(Unhex("ff00060000"))).MayMatch("x"));
  const char* always_true[] = {
      "0000000000",  // marker 0
      "fe00010000",  // Ribbon with one block (never written)
      "fe00000000",  // Ribbon with no blocks
      "fd00060000",  // reserved marker
      "ff01060000",  // reserved sub-implementation
      "ff00260000",  // 128-byte lines
      "ff00000000",  // zero probes
      "ff001f0000",  // 31 probes
      "ff00060100",  // non-zero seed
      "0600000000",  // legacy with zero lines
      "0603000000",  // legacy, 64 % 3 != 0
  };
  for (const char* t : always_true) {
    SCOPED_TRACE(t);
    FilterBitsReader reader(with(Unhex(t)));
    EXPECT_EQ(reader.kind(), Kind::kAlwaysTrue);
    EXPECT_TRUE(reader.MayMatch("x"));
  }
  // Legacy with one 64-byte line and with two 32-byte lines.
  EXPECT_EQ(FilterBitsReader(with(Unhex("0601000000"))).kind(), Kind::kLegacyBloom);
  EXPECT_EQ(FilterBitsReader(with(Unhex("0602000000"))).kind(), Kind::kLegacyBloom);
  // FastLocalBloom with fewer than 64 bit-array bytes.
  EXPECT_EQ(FilterBitsReader(std::string(10, '\0') + Unhex("ff00060000")).kind(),
            Kind::kAlwaysTrue);
}

TEST(FilterPolicyTest, MalformedNeverCrashes) {
  const uint64_t seed = test::RandomSeed();
  std::mt19937_64 rng(seed);
  std::vector<std::string> keys;
  for (int i = 0; i < 50; ++i) keys.push_back(Key("key", i));
  const std::string fast = Build(10, 300);
  const std::string legacy = BuildLegacy(keys, 10);
  for (const std::string* f : {&fast, &legacy}) {
    for (size_t n = 0; n <= f->size(); ++n) {
      // Copy so that reading past the end is caught by sanitizers.
      const std::unique_ptr<char[]> copy(new char[n + 1]);
      memcpy(copy.get(), f->data(), n);
      FilterBitsReader reader(Slice(copy.get(), n));
      for (const std::string& k : keys) (void)reader.MayMatch(k);
    }
  }
  int fast_readers = 0;
  int legacy_readers = 0;
  for (int iter = 0; iter < 3000; ++iter) {
    std::string f = test::RandomBytes(&rng, rng() % 300);
    const size_t n = f.size();
    if (n > 5 && rng() % 2 == 0) {
      // Make valid-looking trailers common, so both Bloom paths read
      // random bit arrays of random lengths.
      if (rng() % 2 == 0) {
        const std::string trailer = {'\xff', 0, static_cast<char>(rng() % 32), 0, 0};
        f.replace(n - 5, 5, trailer);
      } else {
        f[n - 5] = static_cast<char>(1 + rng() % 8);
        // Mostly lines of 2^k bytes (valid), sometimes any count.
        const size_t len = n - 5;
        const size_t lines =
            rng() % 4 == 0 ? 1 + rng() % len : len >> (rng() % (__builtin_ctzll(len) + 1));
        EncodeFixed32(&f[n - 4], static_cast<uint32_t>(lines));
      }
    }
    const std::unique_ptr<char[]> copy(new char[f.size() + 1]);
    memcpy(copy.get(), f.data(), f.size());
    FilterBitsReader reader(Slice(copy.get(), f.size()));
    fast_readers += reader.kind() == FilterBitsReader::Kind::kFastLocalBloom;
    legacy_readers += reader.kind() == FilterBitsReader::Kind::kLegacyBloom;
    for (int i = 0; i < 20; ++i) (void)reader.MayMatch(Key("key", i));
  }
  // Both Bloom readers saw random bits.
  EXPECT_GT(fast_readers, 100) << "seed " << seed;
  EXPECT_GT(legacy_readers, 100) << "seed " << seed;
}

}  // namespace
}  // namespace strata
