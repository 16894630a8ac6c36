#include "util/crc32c.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>

#include "test_util/testutil.h"

namespace strata::crc32c {
namespace {

TEST(Crc32cTest, StandardVectors) {
  EXPECT_EQ(0xE3069283u, Value("123456789", 9));
  EXPECT_EQ(0xE3069283u, ExtendPortable(0, "123456789", 9));

  char buf[32];
  memset(buf, 0, sizeof(buf));
  EXPECT_EQ(0x8A9136AAu, Value(buf, sizeof(buf)));
  EXPECT_EQ(0x8A9136AAu, ExtendPortable(0, buf, sizeof(buf)));

  memset(buf, 0xff, sizeof(buf));
  EXPECT_EQ(0x62A8AB43u, Value(buf, sizeof(buf)));
  EXPECT_EQ(0x62A8AB43u, ExtendPortable(0, buf, sizeof(buf)));

  for (int i = 0; i < 32; i++) buf[i] = static_cast<char>(i);
  EXPECT_EQ(0x46DD794Eu, Value(buf, sizeof(buf)));
  EXPECT_EQ(0x46DD794Eu, ExtendPortable(0, buf, sizeof(buf)));

  for (int i = 0; i < 32; i++) buf[i] = static_cast<char>(31 - i);
  EXPECT_EQ(0x113FDB5Cu, Value(buf, sizeof(buf)));
  EXPECT_EQ(0x113FDB5Cu, ExtendPortable(0, buf, sizeof(buf)));

  // An iSCSI SCSI Read (10) command PDU (RFC 3720, appendix B.4).
  const unsigned char iscsi[48] = {
      0x01, 0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
      0x00, 0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00,
      0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x18, 0x28, 0x00, 0x00, 0x00,
      0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  };
  const char* iscsi_chars = reinterpret_cast<const char*>(iscsi);
  EXPECT_EQ(0xD9963A56u, Value(iscsi_chars, sizeof(iscsi)));
  EXPECT_EQ(0xD9963A56u, ExtendPortable(0, iscsi_chars, sizeof(iscsi)));
}

TEST(Crc32cTest, EmptyInput) {
  EXPECT_EQ(0u, Value("", 0));
  EXPECT_EQ(0x12345678u, Extend(0x12345678u, "", 0));
  EXPECT_EQ(0x12345678u, ExtendPortable(0x12345678u, "", 0));
}

TEST(Crc32cTest, DifferentInputsDiffer) { EXPECT_NE(Value("a", 1), Value("foo", 3)); }

TEST(Crc32cTest, ExtendEqualsValueOfConcatenationAtEverySplit) {
  std::mt19937_64 rng(test::RandomSeed());
  // Long enough to reach every three-way block tier of the hardware path.
  const std::string data = test::RandomBytes(&rng, 40000);
  const uint32_t whole = Value(data.data(), data.size());
  ASSERT_EQ(whole, ExtendPortable(0, data.data(), data.size()));
  for (size_t split = 0; split <= data.size(); split++) {
    const uint32_t head = Value(data.data(), split);
    ASSERT_EQ(whole, Extend(head, data.data() + split, data.size() - split)) << "split " << split;
  }
  // Portable, at every split of a shorter prefix.
  const size_t short_len = 3000;
  const uint32_t short_whole = ExtendPortable(0, data.data(), short_len);
  for (size_t split = 0; split <= short_len; split++) {
    const uint32_t head = ExtendPortable(0, data.data(), split);
    ASSERT_EQ(short_whole, ExtendPortable(head, data.data() + split, short_len - split))
        << "split " << split;
  }
  EXPECT_EQ(Value("hello world", 11), Extend(Value("hello ", 6), "world", 5));
}

TEST(Crc32cTest, HardwareMatchesPortableAtEveryLengthAndAlignment) {
  printf("hardware crc32c: %s\n", IsFastCrc32Supported() ? "yes" : "no");
  std::mt19937_64 rng(test::RandomSeed());
  const size_t kMaxLen = 4096;
  const std::string data = test::RandomBytes(&rng, kMaxLen + 16);
  for (size_t offset = 0; offset < 16; offset++) {
    const char* p = data.data() + offset;
    for (size_t len = 0; len <= kMaxLen; len++) {
      const uint32_t init = (len % 3 == 0) ? 0 : static_cast<uint32_t>(rng());
      ASSERT_EQ(ExtendPortable(init, p, len), Extend(init, p, len))
          << "offset " << offset << " len " << len << " init " << init;
    }
  }
}

TEST(Crc32cTest, HardwareMatchesPortableForLargeBuffers) {
  std::mt19937_64 rng(test::RandomSeed());
  const std::string data = test::RandomBytes(&rng, (1 << 20) + 77);
  for (size_t len : {size_t{12287}, size_t{12288}, size_t{12289}, size_t{24576}, size_t{65536},
                     size_t{100003}, size_t{1} << 20, data.size()}) {
    const uint32_t init = static_cast<uint32_t>(rng());
    EXPECT_EQ(ExtendPortable(init, data.data(), len), Extend(init, data.data(), len))
        << "len " << len;
  }
}

TEST(Crc32cTest, MaskUnmask) {
  const uint32_t crc = Value("foo", 3);
  EXPECT_NE(crc, Mask(crc));
  EXPECT_NE(crc, Mask(Mask(crc)));
  EXPECT_EQ(crc, Unmask(Mask(crc)));
  EXPECT_EQ(crc, Unmask(Unmask(Mask(Mask(crc)))));

  std::mt19937_64 rng(test::RandomSeed());
  for (int i = 0; i < 10000; i++) {
    const uint32_t v = static_cast<uint32_t>(rng());
    ASSERT_EQ(v, Unmask(Mask(v)));
  }
  for (uint32_t v : {0u, 1u, 0x7fffffffu, 0x80000000u, 0xffffffffu}) {
    EXPECT_EQ(v, Unmask(Mask(v)));
  }
}

TEST(Crc32cTest, FormatsExample) {
  // docs/format/encoding.md (CRC32C and masking).
  EXPECT_EQ(0xc78ab0e5u, Mask(Value("123456789", 9)));
  EXPECT_EQ(0xE3069283u, Unmask(0xc78ab0e5u));
}

}  // namespace
}  // namespace strata::crc32c
