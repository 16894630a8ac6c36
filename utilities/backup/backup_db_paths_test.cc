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
#include "test_util/multi_path_db_test_base.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

using test::Key;
using test::MultiPathDbTest;
using test::Tables;

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
