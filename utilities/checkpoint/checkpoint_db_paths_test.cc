// Checkpoint of a DB whose tables are spread over several table paths
// (DBOptions::db_paths): the checkpoint is one directory holding every
// table, with a MANIFEST that places them all there, so it opens as a plain
// DB with every key (docs/design/file-placement.md).
#include <algorithm>
#include <filesystem>
#include <map>
#include <random>
#include <set>
#include <vector>

#include "db/db_impl.h"
#include "gtest/gtest.h"
#include "strata/db.h"
#include "strata/utilities/checkpoint.h"
#include "test_util/multi_path_db_test_base.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

using test::Key;
using test::MultiPathDbTest;
using test::Tables;

TEST_F(MultiPathDbTest, CheckpointGathersEveryPath) {
  OpenAndFill(15000);
  for (int i = 15000; i < 15100; ++i) {  // some data only in the WAL
    ASSERT_OK(db_->Put(WriteOptions(), Key(i), "wal"));
    model_[Key(i)] = "wal";
  }
  std::unique_ptr<Checkpoint> cp;
  ASSERT_OK(Checkpoint::Create(db_.get(), &cp));
  const std::string dir = tmp_.path() + "/checkpoint";
  ASSERT_OK(cp->CreateCheckpoint(dir));
  db_.reset();
  const std::set<std::string> copied = Tables(dir);
  ASSERT_GT(copied.size(), 1u);
  // It opens without db_paths, every table in its one directory.
  Options plain = SmallOptions();
  plain.create_if_missing = false;
  plain.disable_auto_compactions = true;
  std::unique_ptr<DB> copy;
  ASSERT_OK(DB::Open(plain, dir, &copy));
  Verify(copy.get(), model_);
  std::vector<LiveFileMetaData> live;
  copy->GetLiveFilesMetaData(&live);
  std::set<std::string> names;
  for (const LiveFileMetaData& f : live) {
    EXPECT_EQ(dir, f.db_path);
    names.insert(f.relative_filename);
  }
  // Every table copied is live in the copy (recovery may add one more).
  EXPECT_TRUE(std::includes(names.begin(), names.end(), copied.begin(), copied.end()));
  ASSERT_OK(copy->VerifyChecksum());
  // The original is untouched: it opens with its paths.
  copy.reset();
  Options o = SmallOptions();
  o.db_paths = {DbPath(p0_, 300 << 10), DbPath(p1_, 800 << 10), DbPath(p2_, 1ull << 40)};
  ASSERT_OK(DB::Open(o, dbname_, &db_));
  Verify(db_.get(), model_);
}

}  // namespace
}  // namespace strata
