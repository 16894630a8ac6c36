// Opening a database with other compaction options than it was written
// with, as RocksDB 7.8.3 allows it (db/db_impl_open.cc,
// LevelsBeyondNumLevels): a num_levels below a level holding files is
// InvalidArgument "db has more levels than options.num_levels" and changes
// nothing; every style opens a DB written under another one and reads all
// of it.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "test_util/db_test_base.h"

namespace strata {
namespace {

class DBCompactionStyleOpenTest : public DBTestBase {
 protected:
  DBCompactionStyleOpenTest() : DBTestBase("db_compaction_style_open_test") {}

  // A leveled DB whose data sits below level 0 (a full compaction), plus a
  // flushed level-0 file and a key in the WAL.
  void WriteLeveled() {
    Options o = SmallOptions();
    o.num_levels = 7;
    Open(o);
    for (int i = 0; i < 2000; ++i) {
      const std::string k = "key" + std::to_string(10000 + i);
      model_[k] = std::string(100, static_cast<char>('a' + i % 26));
      ASSERT_OK(Put(k, model_[k]));
    }
    ASSERT_OK(Flush());
    ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
    ASSERT_OK(WaitForCompact());
    model_["key10005"] = "newer";
    ASSERT_OK(Put("key10005", "newer"));
    ASSERT_OK(Flush());
    model_["wal"] = "only in the wal";
    ASSERT_OK(Put("wal", "only in the wal"));
    deepest_ = 0;
    for (int level = 0; level < 7; ++level) {
      if (NumTableFilesAtLevel(level) > 0) deepest_ = level;
    }
    ASSERT_GT(deepest_, 0) << FilesPerLevel();
    Close();
  }

  void ExpectModel() {
    std::map<std::string, std::string> seen;
    auto it = db_->NewIterator(ReadOptions());
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      seen[it->key().ToString()] = it->value().ToString();
    }
    ASSERT_OK(it->status());
    EXPECT_TRUE(seen == model_) << seen.size() << " keys read, " << model_.size() << " written";
    EXPECT_EQ(Get("key10005"), "newer");
    EXPECT_EQ(Get("wal"), "only in the wal");
  }

  std::map<std::string, std::string> model_;
  int deepest_ = 0;
};

TEST_F(DBCompactionStyleOpenTest, FewerLevelsThanInUseIsRefused) {
  WriteLeveled();
  Options o = SmallOptions();
  o.num_levels = deepest_;  // the deepest level in use is beyond it
  Status s = TryReopen(o);
  ASSERT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.ToString().find("db has more levels than options.num_levels"), std::string::npos)
      << s.ToString();
  // Nothing changed: the DB opens with enough levels and holds everything.
  o.num_levels = deepest_ + 1;
  ASSERT_OK(TryReopen(o));
  ExpectModel();
  // More levels than written is fine too.
  o.num_levels = 9;
  ASSERT_OK(TryReopen(o));
  ExpectModel();
}

TEST_F(DBCompactionStyleOpenTest, EveryStyleOpensALeveledDB) {
  WriteLeveled();
  for (CompactionStyle style : {kCompactionStyleNone, kCompactionStyleUniversal,
                                kCompactionStyleFIFO, kCompactionStyleLevel}) {
    Options o = SmallOptions();
    o.compaction_style = style;
    o.disable_auto_compactions = true;  // FIFO would delete by size
    Status s = TryReopen(o);
    ASSERT_TRUE(s.ok()) << "style " << static_cast<int>(style) << ": " << s.ToString();
    ExpectModel();
    Close();
  }
}

}  // namespace
}  // namespace strata
