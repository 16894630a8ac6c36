// DB::SuggestCompactRange and DB::PromoteL0 (RocksDB's experimental calls):
// which files get marked and compacted, and PromoteL0's moves and errors.

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "strata/db.h"
#include "strata/iterator.h"
#include "strata/listener.h"
#include "strata/metadata.h"
#include "strata/options.h"
#include "test_util/db_test_base.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

// Records the reason of every compaction that completes once armed.
class ReasonRecorder : public EventListener {
 public:
  void OnCompactionCompleted(DB*, const CompactionJobInfo& info) override {
    std::lock_guard<std::mutex> l(mu_);
    if (armed_) reasons_.push_back(info.compaction_reason);
  }
  void Arm() {
    std::lock_guard<std::mutex> l(mu_);
    armed_ = true;
  }
  std::vector<CompactionReason> reasons() {
    std::lock_guard<std::mutex> l(mu_);
    return reasons_;
  }

 private:
  std::mutex mu_;
  bool armed_ = false;
  std::vector<CompactionReason> reasons_;
};

class DBExperimentalTest : public DBTestBase {
 protected:
  DBExperimentalTest() : DBTestBase("db_experimental_test") {}

  static std::string Key(int i) {
    char buf[16];
    snprintf(buf, sizeof(buf), "key%04d", i);
    return buf;
  }
  // Small options with static level targets, nothing due by size for the
  // few files these tests make.
  static Options TestOptions() {
    Options o = SmallOptions();
    o.level_compaction_dynamic_level_bytes = false;
    o.level0_file_num_compaction_trigger = 20;
    o.level0_slowdown_writes_trigger = 30;
    o.level0_stop_writes_trigger = 40;
    return o;
  }
  std::vector<LiveFileMetaData> Live() {
    std::vector<LiveFileMetaData> files;
    db_->GetLiveFilesMetaData(&files);
    return files;
  }
  // The numbers of the live files of `level`.
  std::vector<uint64_t> FilesAt(int level) {
    std::vector<uint64_t> r;
    for (const LiveFileMetaData& f : Live()) {
      if (f.level == level) r.push_back(f.file_number);
    }
    return r;
  }
  // Writes keys [from, to) with value `v` and flushes them into one file,
  // then moves it to `level` (CompactFiles) when level > 0.
  void WriteFile(int from, int to, const std::string& v, int level) {
    for (int i = from; i < to; ++i) ASSERT_OK(Put(Key(i), v));
    ASSERT_OK(Flush());
    if (level == 0) return;
    std::vector<std::string> l0;
    for (uint64_t n : FilesAt(0)) {
      char buf[32];
      snprintf(buf, sizeof(buf), "%06" PRIu64 ".sst", n);
      l0.push_back(buf);
    }
    ASSERT_OK(db_->CompactFiles(CompactionOptions(), l0, level));
  }
  std::map<std::string, std::string> Scan() {
    std::map<std::string, std::string> r;
    std::unique_ptr<Iterator> it(db_->NewIterator(ReadOptions()));
    for (it->SeekToFirst(); it->Valid(); it->Next())
      r[it->key().ToString()] = it->value().ToString();
    EXPECT_OK(it->status());
    return r;
  }
};

// Only the files overlapping the range, above the last non-empty level, are
// compacted; the others stay as they are.
TEST_F(DBExperimentalTest, SuggestCompactRangeCompactsOverlappingFiles) {
  Options o = TestOptions();
  auto recorder = std::make_shared<ReasonRecorder>();
  o.listeners.push_back(recorder);
  DestroyAndReopen(o);
  WriteFile(0, 300, "old", 2);
  WriteFile(0, 100, "mid", 1);
  WriteFile(200, 300, "mid", 1);
  WriteFile(0, 50, "new", 0);
  WriteFile(250, 300, "new", 0);
  ASSERT_OK(WaitForCompact());
  ASSERT_EQ(FilesPerLevel(), "2,2,1");
  const std::vector<uint64_t> l0 = FilesAt(0), l1 = FilesAt(1);
  const std::map<std::string, std::string> before = Scan();
  recorder->Arm();

  // [key0060, key0070]: the first level-1 file; level 0's files do not
  // overlap it. The level-2 file is in the last level: never marked.
  const std::string bk = Key(60), ek = Key(70);  // the Slices' bytes
  const Slice b(bk), e(ek);
  ASSERT_OK(db_->SuggestCompactRange(db_->DefaultColumnFamily(), &b, &e));
  ASSERT_OK(WaitForCompact());
  EXPECT_EQ(FilesPerLevel(), "2,1,1");
  EXPECT_EQ(FilesAt(0), l0);
  const std::vector<uint64_t> l1_after = FilesAt(1);
  ASSERT_EQ(l1_after.size(), 1u);
  EXPECT_EQ(recorder->reasons(),
            std::vector<CompactionReason>{CompactionReason::kFilesMarkedForCompaction});
  EXPECT_EQ(Scan(), before);

  // A range reaching into a level-0 file: that file goes down (with the
  // rest of level 0: Strata's level-0 compactions take the whole level).
  const std::string b2k = Key(280);
  const Slice b2(b2k);
  ASSERT_OK(db_->SuggestCompactRange(nullptr, &b2, nullptr));
  ASSERT_OK(WaitForCompact());
  for (uint64_t n : FilesAt(0)) EXPECT_NE(n, l0[0]);  // newest first: [key0250, key0299]
  EXPECT_EQ(NumTableFilesAtLevel(0), 0);
  EXPECT_EQ(Scan(), before);
  for (CompactionReason r : recorder->reasons()) {
    EXPECT_EQ(r, CompactionReason::kFilesMarkedForCompaction);
  }

  // The whole range: everything above level 2 goes down, the result stays.
  ASSERT_OK(db_->SuggestCompactRange(nullptr, nullptr, nullptr));
  ASSERT_OK(WaitForCompact());
  EXPECT_EQ(NumTableFilesAtLevel(0), 0);
  EXPECT_EQ(NumTableFilesAtLevel(1), 0);
  EXPECT_EQ(Scan(), before);
  EXPECT_EQ(Get(Key(10)), "new");
  EXPECT_EQ(Get(Key(60)), "mid");
  EXPECT_EQ(Get(Key(150)), "old");
}

// Files of the last non-empty level are not marked: a DB whose files all
// sit in one level is left alone, and so is a range over no file.
TEST_F(DBExperimentalTest, SuggestCompactRangeLeavesLastLevel) {
  Options o = TestOptions();
  auto recorder = std::make_shared<ReasonRecorder>();
  o.listeners.push_back(recorder);
  DestroyAndReopen(o);
  recorder->Arm();
  ASSERT_OK(db_->SuggestCompactRange(nullptr, nullptr, nullptr));  // empty DB
  WriteFile(0, 100, "a", 3);
  WriteFile(100, 200, "b", 3);
  const std::vector<uint64_t> l3 = FilesAt(3);
  ASSERT_OK(db_->SuggestCompactRange(nullptr, nullptr, nullptr));
  ASSERT_OK(WaitForCompact());
  EXPECT_EQ(FilesAt(3), l3);
  WriteFile(0, 200, "c", 0);
  const std::vector<uint64_t> l0 = FilesAt(0);
  const std::string bk = Key(500), ek = Key(600);  // the Slices' bytes
  const Slice b(bk), e(ek);
  ASSERT_OK(db_->SuggestCompactRange(nullptr, &b, &e));
  ASSERT_OK(WaitForCompact());
  EXPECT_EQ(FilesAt(0), l0);
  EXPECT_EQ(FilesAt(3), l3);
  for (CompactionReason r : recorder->reasons()) {  // CompactFiles' only
    EXPECT_NE(r, CompactionReason::kFilesMarkedForCompaction);
  }
}

TEST_F(DBExperimentalTest, PromoteL0MovesFiles) {
  Options o = TestOptions();
  o.disable_auto_compactions = true;
  DestroyAndReopen(o);
  ASSERT_OK(db_->PromoteL0(nullptr, 1));  // empty level 0: nothing to do
  WriteFile(0, 100, "a", 0);
  WriteFile(100, 200, "b", 0);
  WriteFile(300, 310, "c", 0);
  std::vector<uint64_t> l0 = FilesAt(0);
  ASSERT_EQ(l0.size(), 3u);
  const std::map<std::string, std::string> before = Scan();
  ASSERT_OK(db_->PromoteL0(db_->DefaultColumnFamily(), 3));
  EXPECT_EQ(FilesPerLevel(), "0,0,0,3");
  std::vector<uint64_t> l3 = FilesAt(3);
  std::sort(l0.begin(), l0.end());
  std::sort(l3.begin(), l3.end());
  EXPECT_EQ(l3, l0);  // the same files, not rewritten
  EXPECT_EQ(Scan(), before);
  EXPECT_EQ(CheckNewerAboveOlder(), "");
  Reopen();
  EXPECT_EQ(FilesPerLevel(), "0,0,0,3");
  EXPECT_EQ(Scan(), before);
}

TEST_F(DBExperimentalTest, PromoteL0Errors) {
  Options o = TestOptions();
  o.disable_auto_compactions = true;
  DestroyAndReopen(o);
  Status s = db_->PromoteL0(nullptr, 0);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_EQ(s.ToString(), "Invalid argument: Invalid target level");
  s = db_->PromoteL0(nullptr, o.num_levels);
  EXPECT_EQ(s.ToString(), "Invalid argument: Target level does not exist");

  // Overlapping level-0 files.
  WriteFile(0, 100, "a", 0);
  WriteFile(50, 150, "b", 0);
  s = db_->PromoteL0(nullptr, 1);
  EXPECT_EQ(s.ToString(), "Invalid argument: L0 has overlapping files");
  // Files sharing only a boundary key overlap too.
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  WriteFile(0, 10, "c", 0);
  WriteFile(9, 20, "d", 0);
  s = db_->PromoteL0(nullptr, 1);
  EXPECT_EQ(s.ToString(), "Invalid argument: L0 has overlapping files");

  // A level between 1 and the target holds files.
  CompactRangeOptions cro;
  cro.change_level = true;
  cro.target_level = 2;
  ASSERT_OK(db_->CompactRange(cro, nullptr, nullptr));
  ASSERT_EQ(FilesPerLevel(), "0,0,1");
  WriteFile(500, 510, "e", 0);
  s = db_->PromoteL0(nullptr, 2);
  EXPECT_EQ(s.ToString(), "Invalid argument: All levels up to target_level must be empty");
  s = db_->PromoteL0(nullptr, 3);
  EXPECT_EQ(s.ToString(), "Invalid argument: All levels up to target_level must be empty");
  ASSERT_OK(db_->PromoteL0(nullptr, 1));  // above the files: fine
  EXPECT_EQ(FilesPerLevel(), "0,1,1");
  EXPECT_EQ(Get(Key(505)), "e");
  EXPECT_EQ(Get(Key(5)), "c");
  EXPECT_EQ(Get(Key(15)), "d");
  EXPECT_EQ(Get(Key(60)), "b");
}

TEST_F(DBExperimentalTest, ReadOnly) {
  DestroyAndReopen(TestOptions());
  WriteFile(0, 10, "a", 0);
  Close();
  std::unique_ptr<DB> ro;
  ASSERT_OK(DB::OpenForReadOnly(TestOptions(), dbname_, &ro));
  EXPECT_TRUE(ro->SuggestCompactRange(nullptr, nullptr, nullptr).IsNotSupported());
  EXPECT_TRUE(ro->PromoteL0(nullptr, 1).IsNotSupported());
}

}  // namespace
}  // namespace strata
