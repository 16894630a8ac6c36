// CompactOnDeletionCollectorFactory: the window and ratio checks on
// collectors fed by hand (a randomized test against the two bounds the
// bucketed window guarantees), the factory's setters and ToString, and a
// DB whose flushed file of deletions is marked and compacted away.

#include <algorithm>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "strata/db.h"
#include "strata/iterator.h"
#include "strata/metadata.h"
#include "strata/options.h"
#include "strata/utilities/table_properties_collectors.h"
#include "test_util/db_test_base.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

// Feeds `types` to a new collector of `factory` and says if it marks the file.
bool Marks(CompactOnDeletionCollectorFactory* factory, const std::vector<EntryType>& types) {
  std::unique_ptr<TablePropertiesCollector> c(
      factory->CreateTablePropertiesCollector(TablePropertiesCollectorFactory::Context()));
  uint64_t seq = 1;
  for (EntryType t : types) EXPECT_OK(c->AddUserKey("k", "v", t, seq++, 0));
  UserCollectedProperties props;
  EXPECT_OK(c->Finish(&props));
  EXPECT_TRUE(props.empty());
  EXPECT_STREQ(c->Name(), "CompactOnDeletionCollector");
  return c->NeedCompact();
}

// The most kEntryDelete entries in any `len` consecutive entries.
size_t MaxDeletionsInWindow(const std::vector<EntryType>& types, size_t len) {
  size_t best = 0, cur = 0;
  for (size_t i = 0; i < types.size(); ++i) {
    if (types[i] == kEntryDelete) ++cur;
    if (i >= len && types[i - len] == kEntryDelete) --cur;
    best = std::max(best, cur);
  }
  return best;
}

std::vector<EntryType> Repeat(EntryType t, size_t n) { return std::vector<EntryType>(n, t); }

TEST(CompactOnDeletionCollectorTest, WindowExactAt128) {
  // 128 entries make 128 buckets of one entry: an exact sliding window.
  auto f = NewCompactOnDeletionCollectorFactory(128, 10);
  std::vector<EntryType> t = Repeat(kEntryPut, 1000);
  for (int i = 0; i < 9; ++i) t[100 + i * 10] = kEntryDelete;
  EXPECT_FALSE(Marks(f.get(), t));
  t[100 + 9 * 10] = kEntryDelete;  // ten within 91 entries
  EXPECT_TRUE(Marks(f.get(), t));
  // Ten spread over 129 entries: never ten in any 128.
  t = Repeat(kEntryPut, 1000);
  for (int i = 0; i < 10; ++i) t[200 + i * 14 + (i == 9 ? 2 : 0)] = kEntryDelete;
  ASSERT_EQ(MaxDeletionsInWindow(t, 128), 9u);
  EXPECT_FALSE(Marks(f.get(), t));
}

TEST(CompactOnDeletionCollectorTest, WhatCountsAsDeletion) {
  auto f = NewCompactOnDeletionCollectorFactory(128, 5);
  // SingleDelete, range tombstones, merges are not deletions.
  for (EntryType t : {kEntrySingleDelete, kEntryRangeDeletion, kEntryMerge, kEntryPut,
                      kEntryDeleteWithTimestamp, kEntryOther}) {
    EXPECT_FALSE(Marks(f.get(), Repeat(t, 200))) << t;
  }
  EXPECT_TRUE(Marks(f.get(), Repeat(kEntryDelete, 5)));
  EXPECT_FALSE(Marks(f.get(), Repeat(kEntryDelete, 4)));
}

TEST(CompactOnDeletionCollectorTest, SmallWindowRoundsUpTo128) {
  // Window 10 is a window of 128 entries: 3 deletions 100 entries apart mark.
  auto f = NewCompactOnDeletionCollectorFactory(10, 3);
  std::vector<EntryType> t = Repeat(kEntryPut, 400);
  t[0] = t[60] = t[120] = kEntryDelete;
  EXPECT_TRUE(Marks(f.get(), t));
  t[120] = kEntryPut;
  t[140] = kEntryDelete;  // 0, 60, 140: not three in 128
  EXPECT_FALSE(Marks(f.get(), t));
}

TEST(CompactOnDeletionCollectorTest, Ratio) {
  // Window off (size 0), ratio 0.5.
  auto f = NewCompactOnDeletionCollectorFactory(0, 1, 0.5);
  std::vector<EntryType> t = Repeat(kEntryPut, 100);
  for (int i = 0; i < 49; ++i) t[i * 2] = kEntryDelete;
  EXPECT_FALSE(Marks(f.get(), t));  // 49%
  t[99] = kEntryDelete;
  EXPECT_TRUE(Marks(f.get(), t));  // exactly 50%
  // Other deletion kinds count as entries, not deletions.
  t[1] = kEntrySingleDelete;
  EXPECT_TRUE(Marks(f.get(), t));
  t.push_back(kEntrySingleDelete);
  EXPECT_FALSE(Marks(f.get(), t));  // 50/101
  // Ratios outside (0, 1] are off.
  for (double r : {0.0, -0.5, 1.5}) {
    f->SetDeletionRatio(r);
    EXPECT_FALSE(Marks(f.get(), Repeat(kEntryDelete, 10))) << r;
  }
  f->SetDeletionRatio(1.0);
  EXPECT_TRUE(Marks(f.get(), Repeat(kEntryDelete, 10)));
  EXPECT_FALSE(Marks(f.get(), {}));  // an empty file is never marked
  // Window and ratio both off: nothing marks.
  auto off = NewCompactOnDeletionCollectorFactory(0, 0);
  EXPECT_FALSE(Marks(off.get(), Repeat(kEntryDelete, 1000)));
}

TEST(CompactOnDeletionCollectorTest, SettersAndToString) {
  auto f = NewCompactOnDeletionCollectorFactory(1000, 30);
  EXPECT_STREQ(f->Name(), "CompactOnDeletionCollector");
  EXPECT_EQ(f->GetWindowSize(), 1000u);
  EXPECT_EQ(f->GetDeletionTrigger(), 30u);
  EXPECT_EQ(f->GetDeletionRatio(), 0.0);
  EXPECT_EQ(f->ToString(),
            "CompactOnDeletionCollector (Sliding window size = 1000 Deletion trigger = 30 "
            "Deletion ratio = 0)");
  // A collector keeps the settings it was made with.
  std::unique_ptr<TablePropertiesCollector> old(
      f->CreateTablePropertiesCollector(TablePropertiesCollectorFactory::Context()));
  f->SetWindowSize(128);
  f->SetDeletionTrigger(2);
  f->SetDeletionRatio(0.25);
  EXPECT_EQ(f->ToString(),
            "CompactOnDeletionCollector (Sliding window size = 128 Deletion trigger = 2 "
            "Deletion ratio = 0.25)");
  for (int i = 0; i < 10; ++i) ASSERT_OK(old->AddUserKey("k", "", kEntryDelete, 1, 0));
  EXPECT_FALSE(old->NeedCompact());  // 10 < 30
  EXPECT_TRUE(Marks(f.get(), Repeat(kEntryDelete, 2)));
  f->SetWindowSize(0);  // window off; the ratio still applies
  EXPECT_FALSE(Marks(f.get(), {kEntryDelete, kEntryPut, kEntryPut, kEntryPut, kEntryPut}));
  EXPECT_TRUE(Marks(f.get(), {kEntryDelete, kEntryPut, kEntryPut, kEntryPut}));
}

// Random files against the two bounds of the bucketed window (bucket size
// b = ceil(N / 128)): when a deletion arrives the window covers at least
// 127 * b + 1 and at most 128 * b entries ending at it. So D deletions
// within 127 * b + 1 consecutive entries must mark the file, and a file
// with fewer than D in every 128 * b consecutive entries must not be
// marked. In between, the answer depends on bucket alignment.
TEST(CompactOnDeletionCollectorTest, RandomizedWindowBounds) {
  std::mt19937_64 rng(test::RandomSeed());
  int marked = 0, unmarked = 0;
  for (int round = 0; round < 400; ++round) {
    const size_t window = 1 + rng() % 1000;
    const size_t b = (window + 127) / 128;
    const size_t trigger = 1 + rng() % std::max<size_t>(1, window / 4);
    const size_t n = rng() % 6000;
    // A background rate of deletions, plus a burst somewhere.
    const double rate = static_cast<double>(rng() % 1000) / 1000.0 * trigger / (128.0 * b);
    std::vector<EntryType> t(n);
    std::uniform_real_distribution<double> u(0, 1);
    for (auto& e : t) {
      const double x = u(rng);
      e = x < rate ? kEntryDelete : (x < 2 * rate ? kEntrySingleDelete : kEntryPut);
    }
    if (n > 0 && rng() % 2 == 0) {
      const size_t at = rng() % n;
      const size_t len = 1 + rng() % (128 * b + 20);
      const size_t dels = rng() % (trigger + 2);
      for (size_t i = 0; i < dels && at + i * len / std::max<size_t>(dels, 1) < n; ++i) {
        t[at + i * len / std::max<size_t>(dels, 1)] = kEntryDelete;
      }
    }
    auto f = NewCompactOnDeletionCollectorFactory(window, trigger);
    const bool got = Marks(f.get(), t);
    got ? ++marked : ++unmarked;
    SCOPED_TRACE("round " + std::to_string(round) + " window " + std::to_string(window) +
                 " trigger " + std::to_string(trigger) + " entries " + std::to_string(n));
    if (MaxDeletionsInWindow(t, 127 * b + 1) >= trigger) {
      EXPECT_TRUE(got);
    }
    if (MaxDeletionsInWindow(t, 128 * b) < trigger) {
      EXPECT_FALSE(got);
    }
  }
  // Both outcomes were exercised.
  EXPECT_GT(marked, 20);
  EXPECT_GT(unmarked, 20);
}

class CompactOnDeletionDBTest : public DBTestBase {
 protected:
  CompactOnDeletionDBTest() : DBTestBase("compact_on_deletion_collector_test") {}
  static std::string Key(int i) {
    char buf[16];
    snprintf(buf, sizeof(buf), "key%06d", i);
    return buf;
  }
  std::vector<LiveFileMetaData> Live() {
    std::vector<LiveFileMetaData> files;
    db_->GetLiveFilesMetaData(&files);
    return files;
  }
};

// A bottom-level file of values, then a flushed file deleting all of them:
// the deletions' file is marked, compacted with the values below it, and
// both disappear although no level is over its size target.
TEST_F(CompactOnDeletionDBTest, FileOfDeletionsIsCompactedAway) {
  Options o = SmallOptions();
  o.level0_file_num_compaction_trigger = 10;  // size alone never compacts here
  auto factory = NewCompactOnDeletionCollectorFactory(1000, 100);
  o.table_properties_collector_factories = {factory};
  DestroyAndReopen(o);
  for (int i = 0; i < 300; ++i) ASSERT_OK(Put(Key(i), "value"));
  ASSERT_OK(Flush());
  CompactRangeOptions cro;
  cro.change_level = true;
  cro.target_level = 2;
  ASSERT_OK(db_->CompactRange(cro, nullptr, nullptr));
  ASSERT_EQ(FilesPerLevel(), "0,0,1");

  // Fewer than 100 deletions: the file stays at level 0.
  for (int i = 0; i < 99; ++i) ASSERT_OK(Delete(Key(i)));
  ASSERT_OK(Flush());
  ASSERT_OK(WaitForCompact());
  EXPECT_EQ(NumTableFilesAtLevel(0), 1);  // (the values' file may move down)
  EXPECT_EQ(Live().size(), 2u);

  // Deletions of the other keys: marked, compacted down with the values.
  for (int i = 99; i < 300; ++i) ASSERT_OK(Delete(Key(i)));
  ASSERT_OK(Flush());
  ASSERT_OK(WaitForCompact());
  EXPECT_EQ(FilesPerLevel(), "");
  EXPECT_TRUE(Live().empty());
  std::unique_ptr<Iterator> it(db_->NewIterator(ReadOptions()));
  it->SeekToFirst();
  EXPECT_FALSE(it->Valid());
  EXPECT_OK(it->status());
}

}  // namespace
}  // namespace strata
