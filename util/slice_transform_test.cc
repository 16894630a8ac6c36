#include "strata/slice_transform.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "test_util/testutil.h"

namespace strata {
namespace {

TEST(SliceTransformTest, FixedPrefix) {
  std::unique_ptr<const SliceTransform> t(NewFixedPrefixTransform(3));
  EXPECT_STREQ("rocksdb.FixedPrefix.3", t->Name());
  EXPECT_FALSE(t->InDomain(""));
  EXPECT_FALSE(t->InDomain("ab"));
  EXPECT_TRUE(t->InDomain("abc"));
  EXPECT_TRUE(t->InDomain("abcdef"));
  EXPECT_EQ("abc", t->Transform("abc").ToString());
  EXPECT_EQ("abc", t->Transform("abcdef").ToString());
  EXPECT_TRUE(t->InRange("xyz"));
  EXPECT_FALSE(t->InRange("xy"));
  size_t len = 0;
  EXPECT_TRUE(t->FullLengthEnabled(&len));
  EXPECT_EQ(3u, len);

  std::unique_ptr<const SliceTransform> t8(NewFixedPrefixTransform(8));
  EXPECT_STREQ("rocksdb.FixedPrefix.8", t8->Name());
  // The prefix points into the key (no copy).
  const std::string key = "0123456789";
  const Slice p = t8->Transform(key);
  EXPECT_EQ(key.data(), p.data());
  EXPECT_EQ(8u, p.size());
}

TEST(SliceTransformTest, CappedPrefix) {
  std::unique_ptr<const SliceTransform> t(NewCappedPrefixTransform(4));
  EXPECT_STREQ("rocksdb.CappedPrefix.4", t->Name());
  EXPECT_TRUE(t->InDomain(""));
  EXPECT_TRUE(t->InDomain("ab"));
  EXPECT_TRUE(t->InDomain("abcdefg"));
  EXPECT_EQ("", t->Transform("").ToString());
  EXPECT_EQ("ab", t->Transform("ab").ToString());
  EXPECT_EQ("abcd", t->Transform("abcd").ToString());
  EXPECT_EQ("abcd", t->Transform("abcdefg").ToString());
  EXPECT_TRUE(t->InRange("abc"));
  EXPECT_FALSE(t->InRange("abcde"));
  size_t len = 0;
  EXPECT_TRUE(t->FullLengthEnabled(&len));
  EXPECT_EQ(4u, len);
}

TEST(SliceTransformTest, Noop) {
  std::unique_ptr<const SliceTransform> t(NewNoopTransform());
  EXPECT_STREQ("rocksdb.Noop", t->Name());
  EXPECT_TRUE(t->InDomain(""));
  EXPECT_TRUE(t->InDomain("anything"));
  EXPECT_EQ("anything", t->Transform("anything").ToString());
  EXPECT_EQ("", t->Transform("").ToString());
  size_t len = 123;
  EXPECT_FALSE(t->FullLengthEnabled(&len));
}

TEST(SliceTransformTest, PrefixesAreContiguousUnderBytewiseOrder) {
  // Keys with equal prefixes sort together: between two keys with prefix P,
  // every key has prefix P.
  std::unique_ptr<const SliceTransform> fixed(NewFixedPrefixTransform(2));
  std::unique_ptr<const SliceTransform> capped(NewCappedPrefixTransform(2));
  const char* sorted[] = {"aa", "aa\x01", "aab", "aaz", "ab", "abc", "b", "ba", "baa"};
  for (const SliceTransform* t : {fixed.get(), capped.get()}) {
    const size_t n = std::size(sorted);
    for (size_t i = 0; i < n; ++i) {
      for (size_t j = i + 1; j < n; ++j) {
        if (!t->InDomain(sorted[i]) || !t->InDomain(sorted[j])) continue;
        if (t->Transform(sorted[i]) != t->Transform(sorted[j])) continue;
        for (size_t k = i; k <= j; ++k) {
          ASSERT_TRUE(t->InDomain(sorted[k])) << t->Name() << " " << sorted[k];
          EXPECT_EQ(t->Transform(sorted[i]), t->Transform(sorted[k])) << t->Name();
        }
      }
    }
  }
}

TEST(SliceTransformTest, RocksDBMembers) {
  EXPECT_STREQ("SliceTransform", SliceTransform::Type());
  std::unique_ptr<const SliceTransform> fixed(NewFixedPrefixTransform(3));
  std::unique_ptr<const SliceTransform> capped(NewCappedPrefixTransform(3));
  std::unique_ptr<const SliceTransform> noop(NewNoopTransform());
  EXPECT_EQ("rocksdb.FixedPrefix.3", fixed->AsString());
  EXPECT_EQ("rocksdb.CappedPrefix.3", capped->AsString());
  EXPECT_EQ("rocksdb.Noop", noop->AsString());
  EXPECT_TRUE(fixed->SameResultWhenAppended("abc"));
  EXPECT_FALSE(fixed->SameResultWhenAppended("ab"));
  EXPECT_TRUE(capped->SameResultWhenAppended("abcd"));
  EXPECT_FALSE(capped->SameResultWhenAppended("ab"));
  EXPECT_FALSE(noop->SameResultWhenAppended("abc"));
}

}  // namespace
}  // namespace strata
