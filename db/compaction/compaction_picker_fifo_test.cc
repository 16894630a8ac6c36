// Unit tests of FIFO's pieces that need no database: RocksDB's intra-L0
// run choice (FindIntraL0Compaction), the ttl / periodic_compaction_seconds
// sanitizing rules (EffectiveTtl, EffectivePeriodicCompactionSeconds) and
// the file-age accessors' fallbacks.
#include "db/compaction/compaction_picker_fifo.h"

#include <memory>
#include <vector>

#include "db/compaction/file_age.h"
#include "gtest/gtest.h"
#include "strata/compaction_filter.h"

namespace strata {
namespace {

constexpr uint64_t kDay = 24 * 60 * 60;

class Files {
 public:
  // sizes: newest first, as level 0 is ordered.
  explicit Files(const std::vector<uint64_t>& sizes) {
    for (uint64_t s : sizes) {
      auto f = std::make_unique<FileMetaData>();
      f->file_size = s;
      ptrs_.push_back(f.get());
      owned_.push_back(std::move(f));
    }
  }
  std::vector<FileMetaData*>& get() { return ptrs_; }

 private:
  std::vector<std::unique_ptr<FileMetaData>> owned_;
  std::vector<FileMetaData*> ptrs_;
};

TEST(FindIntraL0CompactionTest, TakesRunWhileWorkPerFileDoesNotGrow) {
  Files files({100, 100, 100, 100, 1000});
  std::vector<FileMetaData*> out;
  ASSERT_TRUE(FindIntraL0Compaction(files.get(), 4, 1 << 20, 1 << 30, &out));
  // The fifth file would raise the bytes per removed file (1400/4 > 400/3).
  ASSERT_EQ(out.size(), 4u);
  for (size_t i = 0; i < out.size(); ++i) EXPECT_EQ(out[i], files.get()[i]);
}

TEST(FindIntraL0CompactionTest, TooFewFiles) {
  Files files({100, 100, 5000});
  std::vector<FileMetaData*> out;
  EXPECT_FALSE(FindIntraL0Compaction(files.get(), 3, 1 << 20, 1 << 30, &out));
  EXPECT_TRUE(out.empty());
}

TEST(FindIntraL0CompactionTest, BoundedByBytesPerDeletedFile) {
  Files files({1000, 1000, 1000, 1000});
  std::vector<FileMetaData*> out;
  // 4000 bytes for 3 removed files: 1333 per file, not under 1300.
  EXPECT_FALSE(FindIntraL0Compaction(files.get(), 2, 1300, 1 << 30, &out));
  ASSERT_TRUE(FindIntraL0Compaction(files.get(), 2, 1400, 1 << 30, &out));
  EXPECT_EQ(out.size(), 4u);
}

TEST(FindIntraL0CompactionTest, BoundedByMaxCompactionBytes) {
  Files files({100, 100, 100, 100, 100, 100});
  std::vector<FileMetaData*> out;
  ASSERT_TRUE(FindIntraL0Compaction(files.get(), 2, 1 << 20, 350, &out));
  EXPECT_EQ(out.size(), 3u);
}

TEST(FindIntraL0CompactionTest, StopsAtBusyFile) {
  Files files({100, 100, 100, 100});
  files.get()[2]->being_compacted = true;
  std::vector<FileMetaData*> out;
  ASSERT_TRUE(FindIntraL0Compaction(files.get(), 2, 1 << 20, 1 << 30, &out));
  EXPECT_EQ(out.size(), 2u);
  files.get()[0]->being_compacted = true;
  out.clear();
  EXPECT_FALSE(FindIntraL0Compaction(files.get(), 2, 1 << 20, 1 << 30, &out));
}

class NoopFilter : public CompactionFilter {
 public:
  const char* Name() const override { return "NoopFilter"; }
};

TEST(EffectiveTimeOptionsTest, RocksDBSanitizing) {
  ColumnFamilyOptions o;
  // Leveled: ttl 30 days by default, periodic off unless a filter is set.
  EXPECT_EQ(EffectiveTtl(o), 30 * kDay);
  EXPECT_EQ(EffectivePeriodicCompactionSeconds(o), 0u);
  NoopFilter filter;
  o.compaction_filter = &filter;
  EXPECT_EQ(EffectivePeriodicCompactionSeconds(o), 30 * kDay);
  o.periodic_compaction_seconds = 0;
  EXPECT_EQ(EffectivePeriodicCompactionSeconds(o), 0u);
  o.compaction_filter = nullptr;
  o.ttl = 0;
  EXPECT_EQ(EffectiveTtl(o), 0u);
  o.ttl = 100;
  o.periodic_compaction_seconds = 50;
  EXPECT_EQ(EffectiveTtl(o), 100u);
  EXPECT_EQ(EffectivePeriodicCompactionSeconds(o), 50u);

  // FIFO: ttl defaults to periodic_compaction_seconds' 30 days; an explicit
  // ttl of 0 with periodic 0 is off; otherwise the smaller one.
  ColumnFamilyOptions f;
  f.compaction_style = kCompactionStyleFIFO;
  EXPECT_EQ(EffectiveTtl(f), 30 * kDay);
  f.ttl = 0;
  EXPECT_EQ(EffectiveTtl(f), 30 * kDay);
  f.periodic_compaction_seconds = 0;
  EXPECT_EQ(EffectiveTtl(f), 0u);
  f.ttl = 500;
  EXPECT_EQ(EffectiveTtl(f), 500u);
  f.periodic_compaction_seconds = 200;
  EXPECT_EQ(EffectiveTtl(f), 200u);
  f.ttl = 0;
  EXPECT_EQ(EffectiveTtl(f), 200u);

  // Universal: periodic compaction covers ttl.
  ColumnFamilyOptions u;
  u.compaction_style = kCompactionStyleUniversal;
  EXPECT_EQ(EffectiveTtl(u), 30 * kDay);
  EXPECT_EQ(EffectivePeriodicCompactionSeconds(u), 30 * kDay);
  u.ttl = 100;
  u.periodic_compaction_seconds = 0;
  EXPECT_EQ(EffectivePeriodicCompactionSeconds(u), 100u);
  u.periodic_compaction_seconds = 50;
  EXPECT_EQ(EffectivePeriodicCompactionSeconds(u), 50u);
  u.ttl = 0;
  EXPECT_EQ(EffectivePeriodicCompactionSeconds(u), 50u);
}

TEST(FileAgeTest, Fallbacks) {
  FileMetaData f;
  EXPECT_EQ(FileOldestAncesterTime(f), 0u);
  EXPECT_EQ(FileCreationTime(f), 0u);
  EXPECT_EQ(FifoFileTime(f), 0u);
  f.oldest_ancester_time = 100;
  EXPECT_EQ(FileOldestAncesterTime(f), 100u);
  EXPECT_EQ(FifoFileTime(f), 100u);
  f.file_creation_time = 150;
  EXPECT_EQ(FileCreationTime(f), 150u);
  EXPECT_EQ(FifoFileTime(f), 150u);  // never earlier than RocksDB's choice

  FileMetaData a, b;
  a.smallest = "a";
  a.largest = "c";
  b.smallest = "m";
  b.largest = "p";
  // Internal keys: append an 8-byte trailer.
  for (FileMetaData* m : {&a, &b}) {
    m->smallest.append(8, '\0');
    m->largest.append(8, '\0');
  }
  a.oldest_ancester_time = 10;
  b.oldest_ancester_time = 20;
  const std::vector<const FileMetaData*> files = {&a, &b};
  const Comparator* ucmp = BytewiseComparator();
  EXPECT_EQ(MinOldestAncesterTime(files, ucmp, nullptr, nullptr), 10u);
  const Slice lo("n"), hi("z");
  EXPECT_EQ(MinOldestAncesterTime(files, ucmp, &lo, &hi), 20u);
  const Slice lo2("d"), hi2("e");
  EXPECT_EQ(MinOldestAncesterTime(files, ucmp, &lo2, &hi2), kUnknownFileTime);
}

}  // namespace
}  // namespace strata
