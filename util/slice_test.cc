// Slice's RocksDB helpers (ends_with, difference_offset, DecodeHex, the
// SliceParts constructor, the public fields) and Cleanable::HasCleanups.

#include "strata/slice.h"

#include <string>

#include "gtest/gtest.h"
#include "strata/pinnable_slice.h"

namespace strata {
namespace {

TEST(SliceTest, EndsWithAndDifferenceOffset) {
  const Slice s("prefix-body");
  EXPECT_TRUE(s.ends_with("body"));
  EXPECT_TRUE(s.ends_with(""));
  EXPECT_TRUE(s.ends_with(s));
  EXPECT_FALSE(s.ends_with("prefix"));
  EXPECT_FALSE(Slice("ab").ends_with("xab"));
  EXPECT_EQ(8u, s.difference_offset("prefix-bx"));  // "prefix-b"
  EXPECT_EQ(s.size(), s.difference_offset(s));
  EXPECT_EQ(0u, s.difference_offset(""));
  EXPECT_EQ(3u, Slice("abc").difference_offset("abcdef"));
  EXPECT_EQ(0u, Slice("x").difference_offset("y"));
}

TEST(SliceTest, DecodeHex) {
  std::string out;
  EXPECT_TRUE(Slice("48656c6C6f").DecodeHex(&out));
  EXPECT_EQ("Hello", out);
  EXPECT_TRUE(Slice("").DecodeHex(&out));
  EXPECT_EQ("", out);
  EXPECT_TRUE(Slice("00ff7F").DecodeHex(&out));
  EXPECT_EQ(std::string("\x00\xff\x7f", 3), out);
  out = "unchanged";
  EXPECT_FALSE(Slice("abc").DecodeHex(&out));  // odd length: untouched
  EXPECT_EQ("unchanged", out);
  EXPECT_FALSE(Slice("41zz").DecodeHex(&out));  // bytes before the bad digit kept
  EXPECT_EQ("A", out);
  EXPECT_FALSE(Slice("4g").DecodeHex(&out));
  EXPECT_EQ("", out);
  EXPECT_FALSE(Slice("00").DecodeHex(nullptr));
  // Round trip with ToString(hex).
  const std::string bytes("\x01\x80\xfe", 3);
  EXPECT_TRUE(Slice(Slice(bytes).ToString(true)).DecodeHex(&out));
  EXPECT_EQ(bytes, out);
}

TEST(SliceTest, FromSlicePartsAppendsToTheBuffer) {
  const Slice parts[] = {Slice("one"), Slice(""), Slice("-two")};
  std::string buf;
  const Slice joined(SliceParts(parts, 3), &buf);
  EXPECT_EQ("one-two", joined.ToString());
  EXPECT_EQ(buf.data(), joined.data());
  std::string pre = "pre:";
  const Slice appended(SliceParts(parts, 1), &pre);
  EXPECT_EQ("pre:one", appended.ToString());
  const Slice none(SliceParts(), &pre);
  EXPECT_EQ("pre:one", none.ToString());
}

TEST(SliceTest, PublicFields) {
  Slice s("abcdef");
  EXPECT_EQ(6u, s.size_);
  s.data_ += 2;
  s.size_ = 3;
  EXPECT_EQ("cde", s.ToString());
}

void Count(void* arg1, void*) { ++*static_cast<int*>(arg1); }

TEST(CleanableTest, HasCleanupsConstAndNot) {
  int runs = 0;
  Cleanable c;
  const Cleanable& cref = c;
  EXPECT_FALSE(c.HasCleanups());
  EXPECT_FALSE(cref.HasCleanups());
  c.RegisterCleanup(&Count, &runs, nullptr);
  EXPECT_TRUE(c.HasCleanups());
  EXPECT_TRUE(cref.HasCleanups());
  c.Reset();
  EXPECT_EQ(1, runs);
  EXPECT_FALSE(c.HasCleanups());
}

}  // namespace
}  // namespace strata
