#include "base/dbformat.h"

#include <gtest/gtest.h>

#include "test_util/testutil.h"

namespace strata {

namespace {

std::string IKey(const std::string& user_key, uint64_t seq, ValueType vt) {
  std::string encoded;
  AppendInternalKey(&encoded, ParsedInternalKey(user_key, seq, vt));
  return encoded;
}

}  // namespace

TEST(FormatTest, InternalKeyEncodeDecode) {
  const char* keys[] = {"", "k", "hello", "longggggggggggggggggggggg"};
  const uint64_t seq[] = {1,
                          2,
                          3,
                          (1ull << 8) - 1,
                          1ull << 8,
                          (1ull << 8) + 1,
                          (1ull << 16) - 1,
                          1ull << 16,
                          (1ull << 32) + 1,
                          kMaxSequenceNumber};
  for (const char* k : keys) {
    for (uint64_t s : seq) {
      for (ValueType t : {kTypeValue, kTypeDeletion, kTypeSingleDeletion, kTypeMerge}) {
        const std::string ikey = IKey(k, s, t);
        ParsedInternalKey p;
        ASSERT_OK(ParseInternalKey(ikey, &p));
        EXPECT_EQ(k, p.user_key.ToString());
        EXPECT_EQ(s, p.sequence);
        EXPECT_EQ(t, p.type);
      }
    }
  }
  ParsedInternalKey p;
  EXPECT_TRUE(ParseInternalKey(Slice("bar"), &p).IsCorruption());
  EXPECT_TRUE(ParseInternalKey(IKey("k", 1, static_cast<ValueType>(0x55)), &p).IsCorruption());
}

TEST(FormatTest, TrailerBytesMatchRocksDB) {
  // docs/format/block.md (Block contents): "apple" at seq 0 type 1 is apple + 01 00 00 00 00 00 00
  // 00.
  EXPECT_EQ(std::string("apple\x01\0\0\0\0\0\0\0", 13), IKey("apple", 0, kTypeValue));
  // seq 606 range deletion: 0f 5e 02 00 00 00 00 00
  EXPECT_EQ(std::string("key00300\x0f\x5e\x02\0\0\0\0\0", 16),
            IKey("key00300", 606, kTypeRangeDeletion));
}

TEST(FormatTest, InternalKeyOrder) {
  InternalKeyComparator cmp(BytewiseComparator());
  // Same user key: higher sequence first; same sequence: higher type first.
  EXPECT_LT(cmp.Compare(IKey("a", 5, kTypeValue), IKey("a", 4, kTypeValue)), 0);
  EXPECT_LT(cmp.Compare(IKey("a", 5, kTypeValue), IKey("a", 5, kTypeDeletion)), 0);
  EXPECT_LT(cmp.Compare(IKey("a", 1, kTypeValue), IKey("b", 100, kTypeValue)), 0);
  EXPECT_LT(cmp.Compare(IKey("a", 100, kTypeValue), IKey("ab", 1, kTypeValue)), 0);
  EXPECT_EQ(0, cmp.Compare(IKey("x", 7, kTypeMerge), IKey("x", 7, kTypeMerge)));
  // A seek key sorts before every entry of its user key at or below its sequence.
  EXPECT_LT(cmp.Compare(IKey("a", 5, kValueTypeForSeek), IKey("a", 5, kTypeValue)), 0);
  EXPECT_GT(cmp.Compare(IKey("a", 5, kValueTypeForSeek), IKey("a", 6, kTypeValue)), 0);
}

TEST(FormatTest, LookupKey) {
  for (size_t len : {0, 1, 50, 187, 188, 200, 1000}) {
    const std::string user(len, 'q');
    LookupKey lk(user, 77);
    EXPECT_EQ(user, lk.user_key().ToString());
    EXPECT_EQ(IKey(user, 77, kValueTypeForSeek), lk.internal_key().ToString());
    Slice mk = lk.memtable_key();
    uint32_t n;
    ASSERT_TRUE(GetVarint32(&mk, &n));
    EXPECT_EQ(len + 8, n);
    EXPECT_EQ(lk.internal_key().ToString(), mk.ToString());
  }
}

}  // namespace strata
