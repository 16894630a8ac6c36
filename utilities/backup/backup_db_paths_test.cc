// BackupEngine on a DB whose tables are spread over several table paths
// (DBOptions::db_paths): the backup takes the tables of every path, and a
// restore puts them all into the DB's directory with a MANIFEST that places
// them there, so the restored DB opens without db_paths
// (docs/design/file-placement.md).
#include <algorithm>
#include <filesystem>
#include <map>
#include <random>
#include <set>
#include <vector>

#include "db/db_impl.h"
#include "gtest/gtest.h"
#include "strata/db.h"
#include "strata/utilities/backup_engine.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

std::string Key(int i) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "key%07d", i);
  return buf;
}

// Table file names directly in dir.
std::set<std::string> Tables(const std::string& dir) {
  std::set<std::string> out;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    if (e.path().extension() == ".sst") out.insert(e.path().filename().string());
  }
  return out;
}

// A leveled DB over three table paths: flushes in p0, L1 and L2 in p1,
// deeper levels in p2 (db/db_paths_test.cc has the arithmetic).
class MultiPathDbTest : public testing::Test {
 protected:
  ~MultiPathDbTest() override { db_.reset(); }

  Options SmallOptions() const {
    Options o;
    o.create_if_missing = true;
    o.compression = kNoCompression;
    o.write_buffer_size = 64 << 10;
    o.target_file_size_base = 64 << 10;
    o.max_bytes_for_level_base = 256 << 10;
    o.max_bytes_for_level_multiplier = 2;
    o.level0_file_num_compaction_trigger = 2;
    return o;
  }

  // Writes n keys (random order) and waits for the compactions; the tables
  // end up in p1 and p2 too.
  void OpenAndFill(int n) {
    Options o = SmallOptions();
    o.db_paths = {DbPath(p0_, 300 << 10), DbPath(p1_, 800 << 10), DbPath(p2_, 1ull << 40)};
    ASSERT_OK(DB::Open(o, dbname_, &db_));
    std::vector<int> order(n);
    for (int i = 0; i < n; ++i) order[i] = i;
    std::mt19937_64 rng(5);
    std::shuffle(order.begin(), order.end(), rng);
    for (int i : order) {
      const std::string v = std::to_string(i) + std::string(100, static_cast<char>('a' + i % 26));
      ASSERT_OK(db_->Put(WriteOptions(), Key(i), v));
      model_[Key(i)] = v;
    }
    ASSERT_OK(db_->Flush(FlushOptions()));
    ASSERT_OK(static_cast<DBImpl*>(db_.get())->WaitForCompact());
    ASSERT_FALSE(Tables(p1_).empty());
    ASSERT_FALSE(Tables(p2_).empty());
  }

  void Verify(DB* db, const std::map<std::string, std::string>& model) {
    std::unique_ptr<Iterator> it = db->NewIterator(ReadOptions());
    auto m = model.begin();
    for (it->SeekToFirst(); it->Valid(); it->Next(), ++m) {
      ASSERT_NE(model.end(), m) << "extra key " << it->key().ToString();
      ASSERT_EQ(m->first, it->key().ToString());
      ASSERT_EQ(m->second, it->value().ToString());
    }
    ASSERT_OK(it->status());
    ASSERT_EQ(model.end(), m);
  }

  test::TempDir tmp_{"db_paths_copy_test"};
  const std::string dbname_ = tmp_.path() + "/db";
  const std::string p0_ = tmp_.path() + "/p0";
  const std::string p1_ = tmp_.path() + "/p1";
  const std::string p2_ = tmp_.path() + "/p2";
  std::unique_ptr<DB> db_;
  std::map<std::string, std::string> model_;
};

TEST_F(MultiPathDbTest, BackupAndRestoreOfAMultiPathDb) {
  OpenAndFill(15000);
  const std::string backup_dir = tmp_.path() + "/backup";
  std::unique_ptr<BackupEngine> engine;
  ASSERT_OK(BackupEngine::Open(BackupEngineOptions(backup_dir), Env::Default(), &engine));
  ASSERT_OK(engine->CreateNewBackup(db_.get()));
  const std::map<std::string, std::string> backed_up = model_;
  ASSERT_OK(db_->Put(WriteOptions(), Key(20000), "after the backup"));
  db_.reset();
  ASSERT_OK(engine->VerifyBackup(1));
  // Restore into a fresh directory: every table lands in it.
  const std::string restored = tmp_.path() + "/restored";
  ASSERT_OK(engine->RestoreDBFromLatestBackup(restored, restored));
  EXPECT_GT(Tables(restored).size(), 1u);
  Options plain = SmallOptions();
  plain.create_if_missing = false;
  std::unique_ptr<DB> copy;
  ASSERT_OK(DB::Open(plain, restored, &copy));
  Verify(copy.get(), backed_up);
  ASSERT_OK(copy->VerifyChecksum());
  std::vector<LiveFileMetaData> live;
  copy->GetLiveFilesMetaData(&live);
  for (const LiveFileMetaData& f : live) EXPECT_EQ(restored, f.db_path);
  // A second backup of the same DB shares its tables with the first.
  copy.reset();
  Options o = SmallOptions();
  o.db_paths = {DbPath(p0_, 300 << 10), DbPath(p1_, 800 << 10), DbPath(p2_, 1ull << 40)};
  ASSERT_OK(DB::Open(o, dbname_, &db_));
  ASSERT_OK(engine->CreateNewBackup(db_.get()));
  std::vector<BackupInfo> infos;
  engine->GetBackupInfo(&infos);
  EXPECT_EQ(2u, infos.size());
}

}  // namespace
}  // namespace strata
