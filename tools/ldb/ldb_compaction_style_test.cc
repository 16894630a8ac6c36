// Tests of `strata change_compaction_style` (tools/ldb/ldb_admin_commands.cc)
// on real databases: RunLdbTool is called as the tool's main would be, its
// stdout captured, and the DB reopened to check the files per level and the
// data against a std::map model of what was written.

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "strata/db.h"
#include "strata/iterator.h"
#include "strata/options.h"
#include "test_util/testutil.h"
#include "tools/ldb/ldb_tool.h"

namespace strata::ldb {
namespace {

class ChangeCompactionStyleTest : public ::testing::Test {
 protected:
  // Small buffers and targets so a few thousand writes spread over several
  // levels and several files per level.
  Options SmallOptions() const {
    Options o;
    o.create_if_missing = true;
    o.write_buffer_size = 16 << 10;
    o.target_file_size_base = 16 << 10;
    o.max_bytes_for_level_base = 64 << 10;
    o.level0_file_num_compaction_trigger = 2;
    return o;
  }

  // Random puts, overwrites and deletes into the DB and the model: the
  // first half compacted down (several files on the last level), the rest
  // in level-0 files, one of which spans every key. (ldb's algorithm needs
  // that: its CompactRange merges a level only with the files of the next
  // one it overlaps, so a bottom file no level-0 file overlaps would stay
  // a second file, and RocksDB fails then as Strata does. Automatic
  // compactions are off so the shape does not depend on timing.)
  void Fill(uint64_t seed, int n) {
    std::mt19937_64 rng(seed);
    std::unique_ptr<DB> db;
    Options o = SmallOptions();
    o.disable_auto_compactions = true;
    ASSERT_OK(DB::Open(o, dir_.path(), &db));
    for (int i = 0; i < n; ++i) {
      const std::string key = "key" + std::to_string(rng() % 2000);
      if (rng() % 5 == 0) {
        ASSERT_OK(db->Delete(WriteOptions(), key));
        model_.erase(key);
      } else {
        const std::string value = test::RandomPrintable(&rng, 20 + rng() % 200);
        ASSERT_OK(db->Put(WriteOptions(), key, value));
        model_[key] = value;
      }
      if (i == n / 2) ASSERT_OK(db->CompactRange(CompactRangeOptions(), nullptr, nullptr));
    }
    for (const char* key : {"key", "key~"}) {  // below and above every other key
      ASSERT_OK(db->Put(WriteOptions(), key, "edge"));
      model_[key] = "edge";
    }
    ASSERT_OK(db->Flush(FlushOptions()));
    ASSERT_OK(db->Put(WriteOptions(), "key0000", "last"));  // left in the WAL
    model_["key0000"] = "last";
    ASSERT_OK(db->Close());
  }

  // Runs the tool; returns its exit status, *out gets its stdout.
  int Run(const std::vector<std::string>& args, std::string* out) {
    std::vector<std::string> words = {"strata", "--db=" + dir_.path()};
    words.insert(words.end(), args.begin(), args.end());
    std::vector<const char*> argv;
    for (const std::string& w : words) argv.push_back(w.c_str());
    ::testing::internal::CaptureStdout();
    const int rc = RunLdbTool(static_cast<int>(argv.size()), argv.data());
    *out = ::testing::internal::GetCapturedStdout();
    return rc;
  }

  // Files per level ("n0,n1,...") and the whole contents of the DB.
  void Inspect(const Options& options, std::string* levels,
               std::map<std::string, std::string>* contents) {
    std::unique_ptr<DB> db;
    Options o = options;
    o.create_if_missing = false;
    o.disable_auto_compactions = true;  // nothing moves while we look
    ASSERT_OK(DB::Open(o, dir_.path(), &db));
    levels->clear();
    for (int level = 0; level < db->NumberLevels(); ++level) {
      std::string v;
      ASSERT_TRUE(db->GetProperty("rocksdb.num-files-at-level" + std::to_string(level), &v));
      *levels += (level == 0 ? "" : ",") + v;
    }
    contents->clear();
    std::unique_ptr<Iterator> it = db->NewIterator(ReadOptions());
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      (*contents)[it->key().ToString()] = it->value().ToString();
    }
    ASSERT_OK(it->status());
    it.reset();
    ASSERT_OK(db->Close());
  }

  test::TempDir dir_{"ldb_ccs"};
  std::map<std::string, std::string> model_;
};

TEST_F(ChangeCompactionStyleTest, LevelToUniversalLeavesOneLevel0File) {
  const uint64_t seed = test::RandomSeed();
  ASSERT_NO_FATAL_FAILURE(Fill(seed, 6000));
  std::string before_levels;
  std::map<std::string, std::string> contents;
  ASSERT_NO_FATAL_FAILURE(Inspect(SmallOptions(), &before_levels, &contents));
  // The set-up spread the data: some level below 0 holds files.
  ASSERT_NE(std::string::npos, before_levels.find_first_of("123456789", 1)) << before_levels;

  std::string out;
  ASSERT_EQ(0,
            Run({"change_compaction_style", "--old_compaction_style=0", "--new_compaction_style=1"},
                &out))
      << out;
  EXPECT_EQ("files per level before compaction: " + before_levels +
                "\nfiles per level after compaction: 1,0,0,0,0,0,0\n",
            out);
  std::string levels;
  ASSERT_NO_FATAL_FAILURE(Inspect(SmallOptions(), &levels, &contents));
  EXPECT_EQ("1,0,0,0,0,0,0", levels);
  EXPECT_EQ(model_, contents) << "seed " << seed;
}

TEST_F(ChangeCompactionStyleTest, OtherPairsFailAndLeaveTheDbAlone) {
  ASSERT_NO_FATAL_FAILURE(Fill(test::RandomSeed(), 2000));
  const auto files_before = test::DirectoryContents(dir_.path());
  const std::vector<std::vector<std::string>> cases = {
      {"--old_compaction_style=1", "--new_compaction_style=0"},  // universal to level
      {"--old_compaction_style=0", "--new_compaction_style=0"},  // same style
      {"--old_compaction_style=1", "--new_compaction_style=1"},
      {"--old_compaction_style=2", "--new_compaction_style=1"},  // FIFO: not a choice
      {"--old_compaction_style=0", "--new_compaction_style=3"},
      {"--new_compaction_style=1"},  // missing
      {"--old_compaction_style=0"},
      {"--old_compaction_style=x", "--new_compaction_style=1"},  // not a number
  };
  for (const auto& c : cases) {
    std::vector<std::string> args = {"change_compaction_style"};
    args.insert(args.end(), c.begin(), c.end());
    std::string out;
    EXPECT_EQ(1, Run(args, &out)) << c[0];
    EXPECT_EQ("", out) << c[0];
    EXPECT_EQ(files_before, test::DirectoryContents(dir_.path())) << c[0];
  }
  // An option the command does not take.
  std::string out;
  EXPECT_EQ(1, Run({"change_compaction_style", "--old_compaction_style=0",
                    "--new_compaction_style=1", "--bogus=1"},
                   &out));
  EXPECT_EQ(files_before, test::DirectoryContents(dir_.path()));
}

TEST_F(ChangeCompactionStyleTest, EmptyDbFailsAsLdbDoes) {
  {
    std::unique_ptr<DB> db;
    ASSERT_OK(DB::Open(SmallOptions(), dir_.path(), &db));
    ASSERT_OK(db->Close());
  }
  std::string out;
  // Nothing to compact: level 0 ends with no file, which ldb reports as a
  // failure after printing the levels before.
  EXPECT_EQ(1,
            Run({"change_compaction_style", "--old_compaction_style=0", "--new_compaction_style=1"},
                &out));
  EXPECT_EQ("files per level before compaction: 0,0,0,0,0,0,0\n", out);
}

// The point of the command: the DB then opens with universal compaction and
// holds the same data. Skipped while the engine refuses universal at Open.
TEST_F(ChangeCompactionStyleTest, OpensAsUniversalAfterwards) {
  ASSERT_NO_FATAL_FAILURE(Fill(test::RandomSeed(), 3000));
  std::string out;
  ASSERT_EQ(0,
            Run({"change_compaction_style", "--old_compaction_style=0", "--new_compaction_style=1"},
                &out))
      << out;
  Options o = SmallOptions();
  o.compaction_style = kCompactionStyleUniversal;
  o.create_if_missing = false;
  std::unique_ptr<DB> db;
  Status s = DB::Open(o, dir_.path(), &db);
  ASSERT_OK(s);
  std::map<std::string, std::string> contents;
  std::unique_ptr<Iterator> it = db->NewIterator(ReadOptions());
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    contents[it->key().ToString()] = it->value().ToString();
  }
  ASSERT_OK(it->status());
  it.reset();
  EXPECT_EQ(model_, contents);
  // Writes go on under the new style and read back.
  ASSERT_OK(db->Put(WriteOptions(), "after", "universal"));
  ASSERT_OK(db->Flush(FlushOptions()));
  std::string v;
  ASSERT_OK(db->Get(ReadOptions(), "after", &v));
  EXPECT_EQ("universal", v);
  ASSERT_OK(db->Close());
}

}  // namespace
}  // namespace strata::ldb
