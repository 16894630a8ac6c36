// The built-in comparators' answers beyond Compare (RocksDB 7.8.3's
// semantics) and Comparator::CreateFromString.
#include "strata/comparator.h"

#include <gtest/gtest.h>

#include <string>

#include "test_util/testutil.h"

namespace strata {
namespace {

TEST(ComparatorTest, SameLengthImmediateSuccessor) {
  const Comparator* b = BytewiseComparator();
  EXPECT_TRUE(b->IsSameLengthImmediateSuccessor("ab", "ac"));
  EXPECT_TRUE(
      b->IsSameLengthImmediateSuccessor(std::string("a\xff\xff", 3), std::string("b\x00\x00", 3)));
  EXPECT_FALSE(
      b->IsSameLengthImmediateSuccessor(std::string("a\xff\xfe", 3), std::string("b\x00\x00", 3)));
  EXPECT_FALSE(b->IsSameLengthImmediateSuccessor("ab", "ad"));
  EXPECT_FALSE(b->IsSameLengthImmediateSuccessor("ab", "ab"));
  EXPECT_FALSE(b->IsSameLengthImmediateSuccessor("ab", "abc"));
  EXPECT_FALSE(b->IsSameLengthImmediateSuccessor("", ""));
  EXPECT_FALSE(b->IsSameLengthImmediateSuccessor("\xff", std::string("\x00", 1)));
  // The reverse order answers false, as RocksDB's.
  EXPECT_FALSE(ReverseBytewiseComparator()->IsSameLengthImmediateSuccessor("ab", "ac"));
}

TEST(ComparatorTest, BuiltinAnswersAndTimestampDefaults) {
  for (const Comparator* c : {BytewiseComparator(), ReverseBytewiseComparator()}) {
    EXPECT_FALSE(c->CanKeysWithDifferentByteContentsBeEqual());
    EXPECT_EQ(c, c->GetRootComparator());
    EXPECT_EQ(0u, c->timestamp_size());
    EXPECT_EQ(0, c->CompareTimestamp("1", "2"));
    EXPECT_TRUE(c->EqualWithoutTimestamp("k", "k"));
    EXPECT_FALSE(c->EqualWithoutTimestamp("k", "l"));
  }
  EXPECT_LT(BytewiseComparator()->CompareWithoutTimestamp("a", "b"), 0);
  EXPECT_GT(ReverseBytewiseComparator()->CompareWithoutTimestamp("a", "b"), 0);
  EXPECT_LT(BytewiseComparator()->CompareWithoutTimestamp("a", false, "b", false), 0);
}

// A comparator with only the required methods gets RocksDB's defaults.
class PlainComparator : public Comparator {
 public:
  PlainComparator() = default;
  explicit PlainComparator(size_t ts) : Comparator(ts) {}
  int Compare(const Slice& a, const Slice& b) const override { return a.compare(b); }
  const char* Name() const override { return "test.Plain"; }
  void FindShortestSeparator(std::string*, const Slice&) const override {}
  void FindShortSuccessor(std::string*) const override {}
};

TEST(ComparatorTest, DefaultsOfASubclass) {
  PlainComparator p;
  EXPECT_TRUE(p.CanKeysWithDifferentByteContentsBeEqual());
  EXPECT_FALSE(p.IsSameLengthImmediateSuccessor("ab", "ac"));
  EXPECT_EQ(&p, p.GetRootComparator());
  EXPECT_LT(p.CompareWithoutTimestamp("a", "b"), 0);
  const CompareInterface& ci = p;
  EXPECT_GT(ci.Compare("b", "a"), 0);
  PlainComparator with_ts(8);
  EXPECT_EQ(8u, with_ts.timestamp_size());
  PlainComparator copy(with_ts);
  EXPECT_EQ(8u, copy.timestamp_size());
  copy = p;
  EXPECT_EQ(0u, copy.timestamp_size());
}

}  // namespace
}  // namespace strata
