// Time-based compaction under leveled compaction, on a clock the test
// moves: ttl pushes files whose data is older than ttl down a level at a
// time until the last non-empty level (kTtl), periodic_compaction_seconds
// rewrites files not rewritten for that long in their own level, the
// bottommost included (kPeriodicCompaction), RocksDB's 30-day default ttl
// applies, and with both off nothing happens however old the files get.
#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "db/db_impl.h"
#include "strata/db.h"
#include "strata/listener.h"
#include "strata/metadata.h"
#include "strata/options.h"
#include "test_util/db_test_base.h"
#include "test_util/mock_clock.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

// Completed compactions by reason.
class ReasonCounter : public EventListener {
 public:
  void OnCompactionCompleted(DB*, const CompactionJobInfo& info) override {
    std::lock_guard<std::mutex> l(mu_);
    counts_[info.compaction_reason]++;
  }
  int Count(CompactionReason r) {
    std::lock_guard<std::mutex> l(mu_);
    return counts_[r];
  }
  int Total() {
    std::lock_guard<std::mutex> l(mu_);
    int n = 0;
    // CompactFiles in the set-up is not counted.
    for (const auto& [r, c] : counts_) n += r == CompactionReason::kManualCompaction ? 0 : c;
    return n;
  }

 private:
  std::mutex mu_;
  std::map<CompactionReason, int> counts_;
};

class DBTtlCompactionTest : public DBTestBase {
 protected:
  DBTtlCompactionTest()
      : DBTestBase("db_ttl_compaction_test"),
        clock_(std::make_shared<test::WallClockOffset>()),
        env_(test::NewWallClockOffsetEnv(clock_)),
        listener_(std::make_shared<ReasonCounter>()) {
    options_ = SmallOptions();
    options_.env = env_.get();
    options_.num_levels = 4;
    // No size-based compaction gets in the way.
    options_.level0_file_num_compaction_trigger = 100;
    options_.level0_slowdown_writes_trigger = 200;
    options_.level0_stop_writes_trigger = 300;
    options_.max_bytes_for_level_base = 1ull << 30;
    options_.ttl = 0;
    options_.periodic_compaction_seconds = 0;
    options_.listeners.push_back(listener_);
  }
  ~DBTtlCompactionTest() override { Close(); }

  static std::string Key(int i) {
    char buf[16];
    snprintf(buf, sizeof(buf), "key%06d", i);
    return buf;
  }
  // Writes keys [begin, end) = tag, flushes, and moves the new file to
  // `level` (CompactFiles) when level > 0.
  void WriteFileAt(int begin, int end, const std::string& tag, int level) {
    for (int i = begin; i < end; ++i) {
      ASSERT_OK(Put(Key(i), tag));
      model_[Key(i)] = tag;
    }
    ASSERT_OK(Flush());
    if (level == 0) return;
    std::vector<LiveFileMetaData> files;
    db_->GetLiveFilesMetaData(&files);
    std::vector<std::string> l0;
    for (const LiveFileMetaData& f : files) {
      if (f.level == 0) l0.push_back(f.relative_filename);
    }
    ASSERT_OK(db_->CompactFiles(CompactionOptions(), l0, level));
  }
  void CheckModel() {
    for (const auto& [k, v] : model_) ASSERT_EQ(Get(k), v) << k;
  }
  std::vector<uint64_t> FileNumbersAt(int level) {
    std::vector<LiveFileMetaData> files;
    db_->GetLiveFilesMetaData(&files);
    std::vector<uint64_t> numbers;
    for (const LiveFileMetaData& f : files) {
      if (f.level == level) numbers.push_back(f.file_number);
    }
    std::sort(numbers.begin(), numbers.end());
    return numbers;
  }

  std::shared_ptr<test::WallClockOffset> clock_;
  std::unique_ptr<Env> env_;
  std::shared_ptr<ReasonCounter> listener_;
  std::map<std::string, std::string> model_;
};

TEST_F(DBTtlCompactionTest, TtlPushesOldDataDown) {
  options_.ttl = 3600;
  DestroyAndReopen();
  WriteFileAt(0, 100, "a", 2);
  WriteFileAt(50, 150, "b", 1);
  WriteFileAt(100, 200, "c", 0);
  ASSERT_OK(WaitForCompact());
  ASSERT_EQ(FilesPerLevel(), "1,1,1");
  clock_->Advance(1000);
  ASSERT_OK(WaitForCompact());
  EXPECT_EQ(FilesPerLevel(), "1,1,1");
  EXPECT_EQ(listener_->Total(), 0);
  clock_->Advance(3000);
  ASSERT_OK(WaitForCompact());
  // Level 0 went to level 1, and level 1 (its data as old) to level 2, the
  // last non-empty level, where it stays.
  EXPECT_EQ(NumTableFilesAtLevel(0), 0);
  EXPECT_EQ(NumTableFilesAtLevel(1), 0);
  EXPECT_GE(NumTableFilesAtLevel(2), 1);
  EXPECT_EQ(NumTableFilesAtLevel(3), 0);
  EXPECT_GE(listener_->Count(CompactionReason::kTtl), 2);
  EXPECT_EQ(listener_->Count(CompactionReason::kPeriodicCompaction), 0);
  CheckModel();
  EXPECT_EQ(CheckNewerAboveOlder(), "");
  // Nothing further: the last level is never pushed by ttl.
  const int before = listener_->Total();
  clock_->Advance(10000);
  ASSERT_OK(WaitForCompact());
  EXPECT_EQ(listener_->Total(), before);
}

TEST_F(DBTtlCompactionTest, TtlKeepsYoungData) {
  options_.ttl = 3600;
  DestroyAndReopen();
  WriteFileAt(0, 100, "a", 2);
  clock_->Advance(3000);
  WriteFileAt(100, 200, "b", 1);
  clock_->Advance(1000);
  ASSERT_OK(WaitForCompact());
  // Level 1's data is 1000 s old: it stays.
  EXPECT_EQ(FilesPerLevel(), "0,1,1");
  EXPECT_EQ(listener_->Total(), 0);
  clock_->Advance(2700);
  ASSERT_OK(WaitForCompact());
  // Moved to level 2 (it overlaps nothing there).
  EXPECT_EQ(NumTableFilesAtLevel(1), 0);
  EXPECT_EQ(NumTableFilesAtLevel(2), 2);
  EXPECT_EQ(listener_->Count(CompactionReason::kTtl), 1);
  CheckModel();
}

TEST_F(DBTtlCompactionTest, PeriodicCompactionRewritesFilesInTheirLevel) {
  options_.periodic_compaction_seconds = 3600;
  DestroyAndReopen();
  WriteFileAt(0, 100, "a", 3);  // bottommost
  WriteFileAt(200, 300, "b", 1);
  const std::vector<uint64_t> l3 = FileNumbersAt(3), l1 = FileNumbersAt(1);
  ASSERT_EQ(l3.size(), 1u);
  ASSERT_EQ(l1.size(), 1u);
  clock_->Advance(1000);
  ASSERT_OK(WaitForCompact());
  EXPECT_EQ(listener_->Total(), 0);
  clock_->Advance(3000);
  ASSERT_OK(WaitForCompact());
  EXPECT_EQ(listener_->Count(CompactionReason::kPeriodicCompaction), 2);
  EXPECT_EQ(FilesPerLevel(), "0,1,0,1");
  // New files in the same levels.
  EXPECT_NE(FileNumbersAt(3), l3);
  EXPECT_NE(FileNumbersAt(1), l1);
  CheckModel();
  // Rewritten files are young again.
  ASSERT_OK(WaitForCompact());
  EXPECT_EQ(listener_->Count(CompactionReason::kPeriodicCompaction), 2);
  // And old again later.
  clock_->Advance(3700);
  ASSERT_OK(WaitForCompact());
  EXPECT_EQ(listener_->Count(CompactionReason::kPeriodicCompaction), 4);
  CheckModel();
}

TEST_F(DBTtlCompactionTest, PeriodicBottommostDropsDeletedData) {
  options_.periodic_compaction_seconds = 3600;
  DestroyAndReopen();
  WriteFileAt(0, 100, "a", 3);
  for (int i = 0; i < 50; ++i) {
    ASSERT_OK(Delete(Key(i)));
    model_.erase(Key(i));
  }
  ASSERT_OK(Flush());
  std::vector<LiveFileMetaData> files;
  db_->GetLiveFilesMetaData(&files);
  std::vector<std::string> all;
  for (const LiveFileMetaData& f : files) all.push_back(f.relative_filename);
  // Merged into the last level with the tombstones kept? CompactFiles into
  // the last level drops them (bottommost), so this leaves 50 keys.
  ASSERT_OK(db_->CompactFiles(CompactionOptions(), all, 3));
  clock_->Advance(4000);
  ASSERT_OK(WaitForCompact());
  EXPECT_EQ(listener_->Count(CompactionReason::kPeriodicCompaction), 1);
  EXPECT_EQ(FilesPerLevel(), "0,0,0,1");
  CheckModel();
  for (int i = 0; i < 50; ++i) EXPECT_EQ(Get(Key(i)), "NOT_FOUND");
}

TEST_F(DBTtlCompactionTest, DefaultTtlIsThirtyDays) {
  options_.ttl = ColumnFamilyOptions::kDefaultTtl;
  options_.periodic_compaction_seconds = ColumnFamilyOptions::kDefaultTtl;
  DestroyAndReopen();
  WriteFileAt(0, 100, "a", 2);
  WriteFileAt(0, 100, "b", 0);
  clock_->Advance(29 * 24 * 3600);
  ASSERT_OK(WaitForCompact());
  EXPECT_EQ(FilesPerLevel(), "1,0,1");
  clock_->Advance(2 * 24 * 3600);
  ASSERT_OK(WaitForCompact());
  EXPECT_EQ(NumTableFilesAtLevel(0), 0);
  EXPECT_GE(listener_->Count(CompactionReason::kTtl), 1);
  EXPECT_EQ(listener_->Count(CompactionReason::kPeriodicCompaction), 0);
  CheckModel();
}

TEST_F(DBTtlCompactionTest, NothingWhenBothOff) {
  DestroyAndReopen();
  WriteFileAt(0, 100, "a", 2);
  WriteFileAt(50, 150, "b", 1);
  WriteFileAt(100, 200, "c", 0);
  clock_->Advance(400 * 24 * 3600);
  ASSERT_OK(WaitForCompact());
  EXPECT_EQ(FilesPerLevel(), "1,1,1");
  EXPECT_EQ(listener_->Total(), 0);
  CheckModel();
}

}  // namespace
}  // namespace strata
