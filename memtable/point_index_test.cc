#include "memtable/point_index.h"

#include <gtest/gtest.h>

#include <atomic>
#include <deque>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "memtable/memtable.h"
#include "test_util/testutil.h"
#include "util/coding.h"

namespace strata {

namespace {

// Encodes a memtable-style entry (varint32 ikey size | user key | trailer).
std::string Entry(const std::string& user_key, SequenceNumber seq) {
  std::string e;
  PutVarint32(&e, static_cast<uint32_t>(user_key.size() + 8));
  AppendInternalKey(&e, user_key, seq, kTypeValue);
  return e;
}

SequenceNumber SeqOf(const char* entry) {
  return ExtractInternalKeyFooter(PointIndex::EntryInternalKey(entry)) >> 8;
}

}  // namespace

// Find's answer for key under hash, and the entry when found.
PointIndex::Result FindIn(const PointIndex& index, uint64_t h, const Slice& key, const char** e) {
  *e = nullptr;
  return index.Find(h, key, e);
}

TEST(PointIndexTest, SlotsTagsAndVersions) {
  PointIndex index(64);
  const uint64_t h = 12345;
  const char* e;
  EXPECT_EQ(PointIndex::Result::kAbsent, FindIn(index, h, "a", &e));
  const std::string a5 = Entry("a", 5), a3 = Entry("a", 3), a9 = Entry("a", 9), b7 = Entry("b", 7);
  index.Add(h, "a", 5, a5.data(), false);
  EXPECT_EQ(PointIndex::Result::kFound, FindIn(index, h, "a", &e));
  EXPECT_EQ(a5.data(), e);
  index.Add(h, "a", 3, a3.data(), false);  // older version: ignored
  EXPECT_EQ(PointIndex::Result::kFound, FindIn(index, h, "a", &e));
  EXPECT_EQ(a5.data(), e);
  // Another key with the same hash (so the same tag): the next slot; the
  // key bytes tell the two apart.
  EXPECT_EQ(PointIndex::Result::kAbsent, FindIn(index, h, "b", &e));
  index.Add(h, "b", 7, b7.data(), false);
  EXPECT_EQ(PointIndex::Result::kFound, FindIn(index, h, "b", &e));
  EXPECT_EQ(b7.data(), e);
  index.Add(h, "a", 9, a9.data(), false);  // newer version replaces
  EXPECT_EQ(PointIndex::Result::kFound, FindIn(index, h, "a", &e));
  EXPECT_EQ(a9.data(), e);
  EXPECT_EQ(PointIndex::Result::kAbsent, FindIn(index, h, "c", &e));
  // The same bucket under another tag, and another bucket.
  EXPECT_EQ(PointIndex::Result::kAbsent, FindIn(index, h + 1, "a", &e));
  EXPECT_EQ(PointIndex::Result::kAbsent, FindIn(index, h ^ (uint64_t{1} << 63), "a", &e));
}

TEST(PointIndexTest, FullBucketAnswersUnknown) {
  PointIndex index(64);
  const uint64_t h = 777;
  std::deque<std::string> entries;
  for (int i = 0; i < PointIndex::kSlots; ++i) {
    const std::string key = "k" + std::to_string(i);
    entries.push_back(Entry(key, 10 + i));
    // Same bucket (high bits), different tags (low 16 bits).
    index.Add(h ^ static_cast<uint64_t>(i + 1), key, 10 + i, entries.back().data(), false);
  }
  const char* e;
  for (int i = 0; i < PointIndex::kSlots; ++i) {
    const std::string key = "k" + std::to_string(i);
    ASSERT_EQ(PointIndex::Result::kFound, FindIn(index, h ^ static_cast<uint64_t>(i + 1), key, &e));
    EXPECT_EQ(entries[static_cast<size_t>(i)].data(), e);
  }
  // The ninth key is not indexed: lookups of it, and of any absent key of
  // this bucket, cannot conclude.
  entries.push_back(Entry("late", 99));
  index.Add(h, "late", 99, entries.back().data(), false);
  EXPECT_EQ(PointIndex::Result::kUnknown, FindIn(index, h, "late", &e));
  EXPECT_EQ(PointIndex::Result::kUnknown, FindIn(index, h ^ 0x100, "zz", &e));
}

TEST(PointIndexTest, ConcurrentAddsKeepTheNewestVersion) {
  // Four threads add versions of 200 keys in scrambled orders; the bucket of
  // each owning key must end at that key's highest sequence.
  PointIndex index(1 << 12);
  const int kKeys = 200, kVersions = 40;
  std::deque<std::string> entries;  // stable addresses
  std::vector<std::vector<std::pair<std::string, SequenceNumber>>> work(4);
  std::mt19937_64 rng(test::RandomSeed());
  std::vector<std::pair<std::string, SequenceNumber>> all;
  for (int k = 0; k < kKeys; k++) {
    for (int v = 1; v <= kVersions; v++) all.emplace_back("key" + std::to_string(k), k * 1000 + v);
  }
  std::shuffle(all.begin(), all.end(), rng);
  std::vector<std::vector<const char*>> ptrs(4);
  for (size_t i = 0; i < all.size(); i++) {
    entries.push_back(Entry(all[i].first, all[i].second));
    work[i % 4].push_back(all[i]);
    ptrs[i % 4].push_back(entries.back().data());
  }
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; t++) {
    threads.emplace_back([&, t] {
      for (size_t i = 0; i < work[t].size(); i++) {
        const auto& [key, seq] = work[t][i];
        index.Add(PointIndex::Hash(key), key, seq, ptrs[t][i], true);
      }
    });
  }
  for (auto& t : threads) t.join();
  for (int k = 0; k < kKeys; k++) {
    const std::string key = "key" + std::to_string(k);
    const char* e = nullptr;
    // 200 keys in 4096 expected entries' buckets: none overflows.
    ASSERT_EQ(PointIndex::Result::kFound, index.Find(PointIndex::Hash(key), key, &e)) << key;
    EXPECT_EQ(key, ExtractUserKey(PointIndex::EntryInternalKey(e)).ToString());
    EXPECT_EQ(static_cast<SequenceNumber>(k * 1000 + kVersions), SeqOf(e)) << key;
  }
}

// The same operations into a memtable with an index and one without; every
// lookup at every snapshot must agree. keys: the key space; rounds of 5000
// adds, each followed by 10000 checks.
void CheckGetsAgree(int keys, int rounds) {
  InternalKeyComparator icmp(BytewiseComparator());
  MemTableOptions with, without;
  with.arena_block_size = without.arena_block_size = 64 << 10;
  with.point_index = true;
  MemTable* a = new MemTable(icmp, with);
  MemTable* b = new MemTable(icmp, without);
  std::mt19937_64 rng(test::RandomSeed());
  SequenceNumber seq = 0;
  // Enough entries that the first Get builds the index, then more adds
  // after it exists (indexed by their writers).
  auto add_some = [&](int n) {
    for (int i = 0; i < n; i++) {
      const std::string key = "k" + std::to_string(rng() % static_cast<uint64_t>(keys));
      const ValueType t = (rng() % 5 == 0) ? kTypeDeletion : kTypeValue;
      const std::string value = t == kTypeValue ? "v" + std::to_string(i) : "";
      ++seq;
      a->Add(seq, t, key, value, false);
      b->Add(seq, t, key, value, false);
    }
  };
  auto check_some = [&](int n) {
    for (int i = 0; i < n; i++) {
      // Some keys never written.
      const std::string key = "k" + std::to_string(rng() % static_cast<uint64_t>(keys + keys / 7));
      const SequenceNumber snap = 1 + rng() % seq;
      LookupKey lk(key, snap);
      std::string va, vb;
      Status sa, sb;
      const bool fa = a->Get(lk, &va, &sa);
      const bool fb = b->Get(lk, &vb, &sb);
      ASSERT_EQ(fb, fa) << key << " @" << snap;
      if (fa) {
        ASSERT_EQ(sb.code(), sa.code()) << key << " @" << snap;
        ASSERT_EQ(vb, va) << key << " @" << snap;
      }
    }
  };
  for (int r = 0; r < rounds; ++r) {
    add_some(5000);
    check_some(10000);
  }
  a->Unref();
  b->Unref();
}

TEST(PointIndexTest, MemTableGetWithAndWithoutIndexAgree) {
  // Few keys, many versions of each.
  CheckGetsAgree(700, 2);
}

TEST(PointIndexTest, MemTableGetAgreesWhenBucketsOverflow) {
  // The index is sized at the first Get (about 5000 entries, no write
  // buffer size given); 35000 more distinct keys then overflow its buckets,
  // and those lookups must fall back to the skip list.
  CheckGetsAgree(1000000, 8);
}

}  // namespace strata

namespace strata {

TEST(PointIndexTest, IndexBuiltWhileWritersAdd) {
  // Writers keep adding while a reader's first Get builds the index; every
  // entry must end up findable through it (by its writer or by the scan).
  InternalKeyComparator icmp(BytewiseComparator());
  MemTableOptions opts;
  opts.arena_block_size = 256 << 10;
  opts.point_index = true;
  MemTable* mem = new MemTable(icmp, opts);
  std::atomic<SequenceNumber> next_seq{1};
  const int kPerThread = 20000;
  for (int i = 0; i < 5000; i++) {  // enough for the first Get to build
    mem->Add(next_seq++, kTypeValue, "pre" + std::to_string(i), "v", false);
  }
  std::vector<std::thread> writers;
  for (int t = 0; t < 2; t++) {
    writers.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; i++) {
        mem->Add(next_seq++, kTypeValue, "w" + std::to_string(t) + "_" + std::to_string(i),
                 std::to_string(i), true);
      }
    });
  }
  std::thread reader([&] {
    for (int i = 0; i < 2000; i++) {
      std::string v;
      Status s;
      LookupKey lk("pre" + std::to_string(i), kMaxSequenceNumber);
      ASSERT_TRUE(mem->Get(lk, &v, &s));
      ASSERT_TRUE(s.ok());
    }
  });
  for (auto& w : writers) w.join();
  reader.join();
  for (int t = 0; t < 2; t++) {
    for (int i = 0; i < kPerThread; i++) {
      std::string v;
      Status s;
      LookupKey lk("w" + std::to_string(t) + "_" + std::to_string(i), kMaxSequenceNumber);
      ASSERT_TRUE(mem->Get(lk, &v, &s)) << t << " " << i;
      ASSERT_TRUE(s.ok());
      ASSERT_EQ(std::to_string(i), v);
    }
  }
  mem->Unref();
}

}  // namespace strata
