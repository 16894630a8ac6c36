#include "table/data_block_hash_index.h"

#include <random>
#include <string>
#include <vector>

#include "test_util/testutil.h"
#include "util/coding.h"
#include "util/hash.h"

namespace strata {
namespace {

TEST(DataBlockHashIndexTest, HashIsLegacyHash32Seed397) {
  // docs/format/encoding.md (Hashes) test vectors.
  ASSERT_EQ(DataBlockHashIndexHash("a"), 0x5c8473b1u);
  ASSERT_EQ(DataBlockHashIndexHash("key00001"), 0xa9a30e7bu);
}

TEST(DataBlockHashIndexTest, BucketCountAndLayout) {
  DataBlockHashIndexBuilder b;
  ASSERT_FALSE(b.Valid());  // no keys yet
  // 3 keys / 0.75 = 4 (summed in double precision) -> forced odd: 5.
  const std::vector<std::string> keys = {"a", "b", "c"};
  for (size_t i = 0; i < keys.size(); i++) b.Add(keys[i], i);
  ASSERT_TRUE(b.Valid());
  ASSERT_EQ(b.EstimateSize(), 2u + 5u);
  std::string out = "prefix";
  b.Finish(&out);
  ASSERT_EQ(out.size(), 6u + 5u + 2u);
  ASSERT_EQ(DecodeFixed16(out.data() + out.size() - 2), 5);
  const char* map = out.data() + 6;
  std::vector<int> expect(5, kHashIndexNoEntry);
  for (size_t i = 0; i < keys.size(); i++) {
    int& slot = expect[Hash32(keys[i].data(), keys[i].size(), 397) % 5];
    slot = slot == kHashIndexNoEntry ? static_cast<int>(i) : kHashIndexCollision;
  }
  for (int i = 0; i < 5; i++) ASSERT_EQ(static_cast<uint8_t>(map[i]), expect[i]) << i;
  for (size_t i = 0; i < keys.size(); i++) {
    const uint8_t e = DataBlockHashIndexLookup(map, 5, keys[i]);
    ASSERT_TRUE(e == i || e == kHashIndexCollision);
  }
}

TEST(DataBlockHashIndexTest, OneKeyGivesOneBucket) {
  DataBlockHashIndexBuilder b;
  b.Add("x", 0);  // 1/0.75 = 1.33 -> 1 bucket
  std::string out;
  b.Finish(&out);
  ASSERT_EQ(out, std::string("\x00\x01\x00", 3));
}

TEST(DataBlockHashIndexTest, SameRestartIsNotACollision) {
  DataBlockHashIndexBuilder b;
  for (int i = 0; i < 10; i++) b.Add("k" + std::to_string(i), 7);
  std::string out;
  b.Finish(&out);
  const uint16_t n = DecodeFixed16(out.data() + out.size() - 2);
  ASSERT_EQ(n, 13);  // trunc(13.33) = 13, already odd
  for (int i = 0; i < 10; i++) {
    ASSERT_EQ(DataBlockHashIndexLookup(out.data(), n, "k" + std::to_string(i)), 7);
  }
}

TEST(DataBlockHashIndexTest, TooManyRestartsInvalidates) {
  DataBlockHashIndexBuilder b;
  b.Add("a", kMaxRestartSupportedByHashIndex);
  ASSERT_TRUE(b.Valid());
  b.Add("b", kMaxRestartSupportedByHashIndex + 1);
  ASSERT_FALSE(b.Valid());
  b.Reset();
  ASSERT_FALSE(b.Valid());
  b.Add("c", 0);
  ASSERT_TRUE(b.Valid());
}

TEST(DataBlockHashIndexTest, RandomKeysAllFound) {
  const uint64_t seed = test::RandomSeed();
  std::mt19937_64 rng(seed);
  for (double ratio : {0.5, 0.75, 1.0}) {
    DataBlockHashIndexBuilder b(ratio);
    std::vector<std::string> keys;
    for (int i = 0; i < 500; i++) {
      keys.push_back(test::RandomBytes(&rng, 1 + rng() % 24));
      b.Add(keys.back(), static_cast<size_t>(i / 16));
    }
    std::string out;
    b.Finish(&out);
    const uint16_t n = DecodeFixed16(out.data() + out.size() - 2);
    ASSERT_EQ(n % 2, 1);
    ASSERT_EQ(out.size(), n + 2u);
    ASSERT_EQ(b.EstimateSize(), out.size());
    for (int i = 0; i < 500; i++) {
      const uint8_t e = DataBlockHashIndexLookup(out.data(), n, keys[i]);
      ASSERT_TRUE(e == i / 16 || e == kHashIndexCollision) << "seed " << seed;
    }
  }
}

}  // namespace
}  // namespace strata
