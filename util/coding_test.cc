#include "util/coding.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "test_util/testutil.h"

namespace strata {
namespace {

// Every power of two and its neighbours, plus the extremes.
template <typename T>
std::vector<T> InterestingValues() {
  std::vector<T> values = {0, 1, std::numeric_limits<T>::max()};
  for (int bit = 0; bit < static_cast<int>(8 * sizeof(T)); bit++) {
    const T power = static_cast<T>(T{1} << bit);
    values.push_back(power);
    values.push_back(static_cast<T>(power - 1));
    values.push_back(static_cast<T>(power + 1));
  }
  return values;
}

TEST(CodingTest, Fixed16) {
  std::string s;
  for (uint32_t v = 0; v <= 0xffff; v++) PutFixed16(&s, static_cast<uint16_t>(v));
  ASSERT_EQ(2u * 0x10000, s.size());
  for (uint32_t v = 0; v <= 0xffff; v++) {
    ASSERT_EQ(v, DecodeFixed16(s.data() + 2 * v));
  }
  char buf[2];
  EncodeFixed16(buf, 0x0102);
  EXPECT_EQ(0x02, buf[0]);  // little-endian
  EXPECT_EQ(0x01, buf[1]);
}

TEST(CodingTest, Fixed32) {
  std::string s;
  const auto values = InterestingValues<uint32_t>();
  for (uint32_t v : values) PutFixed32(&s, v);
  ASSERT_EQ(4 * values.size(), s.size());
  Slice in(s);
  for (uint32_t v : values) {
    uint32_t got;
    ASSERT_TRUE(GetFixed32(&in, &got));
    ASSERT_EQ(v, got);
  }
  EXPECT_TRUE(in.empty());
  uint32_t got;
  EXPECT_FALSE(GetFixed32(&in, &got));
  Slice three("abc");
  EXPECT_FALSE(GetFixed32(&three, &got));

  char buf[4];
  EncodeFixed32(buf, 0x04030201u);
  EXPECT_EQ(std::string("\x01\x02\x03\x04", 4), std::string(buf, 4));
}

TEST(CodingTest, Fixed64) {
  std::string s;
  const auto values = InterestingValues<uint64_t>();
  for (uint64_t v : values) PutFixed64(&s, v);
  ASSERT_EQ(8 * values.size(), s.size());
  Slice in(s);
  for (uint64_t v : values) {
    ASSERT_EQ(v, DecodeFixed64(in.data()));
    uint64_t got;
    ASSERT_TRUE(GetFixed64(&in, &got));
    ASSERT_EQ(v, got);
  }
  EXPECT_TRUE(in.empty());
  uint64_t got;
  Slice seven("1234567");
  EXPECT_FALSE(GetFixed64(&seven, &got));

  char buf[8];
  EncodeFixed64(buf, 0x0807060504030201ull);
  EXPECT_EQ(std::string("\x01\x02\x03\x04\x05\x06\x07\x08", 8), std::string(buf, 8));
}

TEST(CodingTest, Varint32RoundTrip) {
  std::mt19937_64 rng(test::RandomSeed());
  std::vector<uint32_t> values = InterestingValues<uint32_t>();
  for (int i = 0; i < 100000; i++) {
    // Random bit widths so every encoded length is common.
    values.push_back(static_cast<uint32_t>(rng()) >> (rng() % 32));
  }
  std::string s;
  for (uint32_t v : values) PutVarint32(&s, v);

  const char* p = s.data();
  const char* limit = p + s.size();
  for (uint32_t v : values) {
    ASSERT_LT(p, limit);
    uint32_t got;
    const char* start = p;
    p = GetVarint32Ptr(p, limit, &got);
    ASSERT_NE(nullptr, p) << v;
    ASSERT_EQ(v, got);
    ASSERT_EQ(VarintLength(v), p - start) << v;
  }
  EXPECT_EQ(p, limit);

  Slice in(s);
  for (uint32_t v : values) {
    uint32_t got;
    ASSERT_TRUE(GetVarint32(&in, &got));
    ASSERT_EQ(v, got);
  }
  EXPECT_TRUE(in.empty());
}

TEST(CodingTest, Varint64RoundTrip) {
  std::mt19937_64 rng(test::RandomSeed());
  std::vector<uint64_t> values = InterestingValues<uint64_t>();
  for (int i = 0; i < 100000; i++) values.push_back(rng() >> (rng() % 64));
  std::string s;
  for (uint64_t v : values) PutVarint64(&s, v);

  const char* p = s.data();
  const char* limit = p + s.size();
  for (uint64_t v : values) {
    ASSERT_LT(p, limit);
    uint64_t got;
    const char* start = p;
    p = GetVarint64Ptr(p, limit, &got);
    ASSERT_NE(nullptr, p) << v;
    ASSERT_EQ(v, got);
    ASSERT_EQ(VarintLength(v), p - start) << v;
  }
  EXPECT_EQ(p, limit);

  Slice in(s);
  for (uint64_t v : values) {
    uint64_t got;
    ASSERT_TRUE(GetVarint64(&in, &got));
    ASSERT_EQ(v, got);
  }
  EXPECT_TRUE(in.empty());
}

TEST(CodingTest, Varint32Varint32) {
  std::string s;
  PutVarint32Varint32(&s, 300, 0xffffffffu);
  EXPECT_EQ(2u + 5u, s.size());
  Slice in(s);
  uint32_t a, b;
  ASSERT_TRUE(GetVarint32(&in, &a));
  ASSERT_TRUE(GetVarint32(&in, &b));
  EXPECT_EQ(300u, a);
  EXPECT_EQ(0xffffffffu, b);
  EXPECT_TRUE(in.empty());
}

TEST(CodingTest, VarintLength) {
  EXPECT_EQ(1, VarintLength(0));
  EXPECT_EQ(1, VarintLength(127));
  EXPECT_EQ(2, VarintLength(128));
  EXPECT_EQ(2, VarintLength((1u << 14) - 1));
  EXPECT_EQ(3, VarintLength(1u << 14));
  EXPECT_EQ(5, VarintLength(0xffffffffu));
  EXPECT_EQ(9, VarintLength((uint64_t{1} << 63) - 1));
  EXPECT_EQ(10, VarintLength(uint64_t{1} << 63));
  EXPECT_EQ(10, VarintLength(std::numeric_limits<uint64_t>::max()));
  for (int bits = 0; bits <= 64; bits++) {
    const uint64_t v = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
    const int expected = bits == 0 ? 1 : (bits + 6) / 7;
    EXPECT_EQ(expected, VarintLength(v)) << bits;
    char buf[kMaxVarint64Length];
    EXPECT_EQ(expected, EncodeVarint64(buf, v) - buf) << bits;
  }
}

TEST(CodingTest, Varint32TruncatedAtEveryPoint) {
  for (uint32_t v : InterestingValues<uint32_t>()) {
    std::string s;
    PutVarint32(&s, v);
    for (size_t len = 0; len < s.size(); len++) {
      uint32_t got = 12345;
      ASSERT_EQ(nullptr, GetVarint32Ptr(s.data(), s.data() + len, &got)) << v << " cut at " << len;
      Slice in(s.data(), len);
      ASSERT_FALSE(GetVarint32(&in, &got)) << v << " cut at " << len;
    }
    uint32_t got;
    ASSERT_EQ(s.data() + s.size(), GetVarint32Ptr(s.data(), s.data() + s.size(), &got));
    ASSERT_EQ(v, got);
  }
}

TEST(CodingTest, Varint64TruncatedAtEveryPoint) {
  for (uint64_t v : InterestingValues<uint64_t>()) {
    std::string s;
    PutVarint64(&s, v);
    for (size_t len = 0; len < s.size(); len++) {
      uint64_t got = 12345;
      ASSERT_EQ(nullptr, GetVarint64Ptr(s.data(), s.data() + len, &got)) << v << " cut at " << len;
      Slice in(s.data(), len);
      ASSERT_FALSE(GetVarint64(&in, &got)) << v << " cut at " << len;
    }
    uint64_t got;
    ASSERT_EQ(s.data() + s.size(), GetVarint64Ptr(s.data(), s.data() + s.size(), &got));
    ASSERT_EQ(v, got);
  }
}

TEST(CodingTest, Varint32OverlongOrOverflowingRejected) {
  uint32_t got;
  // Five bytes whose last one carries bits above bit 31.
  for (int last = 0x10; last <= 0x7f; last++) {
    const std::string s = std::string("\xff\xff\xff\xff", 4) + static_cast<char>(last);
    ASSERT_EQ(nullptr, GetVarint32Ptr(s.data(), s.data() + s.size(), &got)) << last;
  }
  // The largest legal five-byte encoding still decodes.
  const std::string max32("\xff\xff\xff\xff\x0f", 5);
  ASSERT_EQ(max32.data() + 5, GetVarint32Ptr(max32.data(), max32.data() + 5, &got));
  EXPECT_EQ(0xffffffffu, got);
  // A continuation bit on the fifth byte: more than 5 bytes.
  const std::string six("\x80\x80\x80\x80\x80\x00", 6);
  EXPECT_EQ(nullptr, GetVarint32Ptr(six.data(), six.data() + six.size(), &got));
  const std::string cont5("\xff\xff\xff\xff\x8f\x00", 6);
  EXPECT_EQ(nullptr, GetVarint32Ptr(cont5.data(), cont5.data() + cont5.size(), &got));
}

TEST(CodingTest, Varint64OverlongOrOverflowingRejected) {
  uint64_t got;
  // Ten bytes whose last carries bits above bit 63.
  for (int last = 0x02; last <= 0x7f; last++) {
    const std::string s = std::string(9, '\xff') + static_cast<char>(last);
    ASSERT_EQ(nullptr, GetVarint64Ptr(s.data(), s.data() + s.size(), &got)) << last;
  }
  const std::string max64 = std::string(9, '\xff') + '\x01';
  ASSERT_EQ(max64.data() + 10, GetVarint64Ptr(max64.data(), max64.data() + 10, &got));
  EXPECT_EQ(std::numeric_limits<uint64_t>::max(), got);
  // Eleven bytes (continuation bits on the first ten).
  const std::string eleven = std::string(10, '\x80') + '\x00';
  EXPECT_EQ(nullptr, GetVarint64Ptr(eleven.data(), eleven.data() + eleven.size(), &got));
  const std::string eleven_ff = std::string(10, '\xff') + '\x01';
  EXPECT_EQ(nullptr, GetVarint64Ptr(eleven_ff.data(), eleven_ff.data() + eleven_ff.size(), &got));
  Slice in(eleven);
  EXPECT_FALSE(GetVarint64(&in, &got));
}

TEST(CodingTest, DecodersStayWithinLimit) {
  // A buffer whose bytes after the limit would complete the varint: the
  // decoder must not look at them.
  const std::string s("\x81\x82\x83\x04", 4);
  uint32_t v32;
  uint64_t v64;
  for (size_t len = 0; len < s.size(); len++) {
    EXPECT_EQ(nullptr, GetVarint32Ptr(s.data(), s.data() + len, &v32));
    EXPECT_EQ(nullptr, GetVarint64Ptr(s.data(), s.data() + len, &v64));
  }
  EXPECT_EQ(s.data() + 4, GetVarint32Ptr(s.data(), s.data() + 4, &v32));
  EXPECT_EQ(1u | (2u << 7) | (3u << 14) | (4u << 21), v32);
}

TEST(CodingTest, LengthPrefixedSlice) {
  std::string s;
  PutLengthPrefixedSlice(&s, Slice(""));
  PutLengthPrefixedSlice(&s, Slice("foo"));
  PutLengthPrefixedSlice(&s, Slice("bar"));
  const std::string big(300, 'x');
  PutLengthPrefixedSlice(&s, Slice(big));
  EXPECT_EQ(1u + 4u + 4u + 2u + 300u, s.size());

  Slice in(s);
  Slice v;
  ASSERT_TRUE(GetLengthPrefixedSlice(&in, &v));
  EXPECT_EQ("", v.ToString());
  ASSERT_TRUE(GetLengthPrefixedSlice(&in, &v));
  EXPECT_EQ("foo", v.ToString());
  ASSERT_TRUE(GetLengthPrefixedSlice(&in, &v));
  EXPECT_EQ("bar", v.ToString());
  ASSERT_TRUE(GetLengthPrefixedSlice(&in, &v));
  EXPECT_EQ(big, v.ToString());
  EXPECT_TRUE(in.empty());
  EXPECT_FALSE(GetLengthPrefixedSlice(&in, &v));

  const char* p = s.data();
  const char* limit = s.data() + s.size();
  for (const std::string& expected : {std::string(), std::string("foo"), std::string("bar"), big}) {
    p = GetLengthPrefixedSlicePtr(p, limit, &v);
    ASSERT_NE(nullptr, p);
    EXPECT_EQ(expected, v.ToString());
  }
  EXPECT_EQ(limit, p);
}

TEST(CodingTest, LengthPrefixedSliceTruncated) {
  std::string s;
  PutLengthPrefixedSlice(&s, Slice(std::string(200, 'y')));  // 2-byte length
  for (size_t len = 0; len < s.size(); len++) {
    Slice in(s.data(), len);
    Slice v;
    ASSERT_FALSE(GetLengthPrefixedSlice(&in, &v)) << len;
    ASSERT_EQ(nullptr, GetLengthPrefixedSlicePtr(s.data(), s.data() + len, &v)) << len;
  }
  // A length that overflows the remaining input, even near SIZE_MAX.
  std::string huge;
  PutVarint32(&huge, 0xffffffffu);
  huge.append("abc");
  Slice in(huge);
  Slice v;
  EXPECT_FALSE(GetLengthPrefixedSlice(&in, &v));
  EXPECT_EQ(nullptr, GetLengthPrefixedSlicePtr(huge.data(), huge.data() + huge.size(), &v));
}

}  // namespace
}  // namespace strata
