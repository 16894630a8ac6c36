// DBOptions::wal_dir: WALs are created, replayed, archived and deleted in
// wal_dir; DestroyDB, RepairDB, checkpoints, live-file listings, WAL
// tailing and secondary instances follow it (checkpoints: utilities/
// checkpoint/checkpoint_test.cc); an open with another wal_dir
// does not see the WALs (as RocksDB 7.8.3); the OPTIONS file and the LOG
// record it.
#include <algorithm>
#include <filesystem>
#include <map>
#include <random>

#include "db/filename.h"
#include "gtest/gtest.h"
#include "strata/db.h"
#include "strata/transaction_log.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

class DBWalDirTest : public testing::Test {
 protected:
  DBWalDirTest() : dbname_(tmp_.path() + "/db"), wal_dir_(tmp_.path() + "/wals") {}
  ~DBWalDirTest() override { db_.reset(); }

  Options WalDirOptions() const {
    Options o;
    o.create_if_missing = true;
    o.wal_dir = wal_dir_;
    o.avoid_flush_during_shutdown = true;  // the WALs keep the data
    o.write_buffer_size = 1 << 20;
    return o;
  }

  Status Open(const Options& o) {
    db_.reset();
    return DB::Open(o, dbname_, &db_);
  }

  // WAL file names (sorted) directly in dir.
  static std::vector<std::string> Wals(const std::string& dir) {
    std::vector<std::string> out;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
      uint64_t number;
      FileType type;
      const std::string name = e.path().filename().string();
      if (ParseFileName(name, &number, &type) && type == FileType::kWalFile) out.push_back(name);
    }
    std::sort(out.begin(), out.end());
    return out;
  }

  void Fill(int from, int to, std::map<std::string, std::string>* model) {
    for (int i = from; i < to; ++i) {
      const std::string key = "key" + std::to_string(i);
      const std::string value = "value" + std::to_string(i * 7);
      ASSERT_OK(db_->Put(WriteOptions(), key, value));
      (*model)[key] = value;
    }
  }

  static void Verify(DB* db, const std::map<std::string, std::string>& model) {
    auto it = db->NewIterator(ReadOptions());
    auto m = model.begin();
    for (it->SeekToFirst(); it->Valid(); it->Next(), ++m) {
      ASSERT_NE(m, model.end());
      ASSERT_EQ(m->first, it->key().ToString());
      ASSERT_EQ(m->second, it->value().ToString());
    }
    ASSERT_OK(it->status());
    ASSERT_EQ(m, model.end());
  }

  test::TempDir tmp_{"db_wal_dir_test"};
  const std::string dbname_;
  const std::string wal_dir_;
  std::unique_ptr<DB> db_;
};

TEST_F(DBWalDirTest, WalsLiveInWalDirAndAreReplayed) {
  ASSERT_OK(Open(WalDirOptions()));
  std::map<std::string, std::string> model;
  Fill(0, 1000, &model);
  EXPECT_EQ(1u, Wals(wal_dir_).size());
  EXPECT_TRUE(Wals(dbname_).empty());
  // Live files: WALs reported in wal_dir, the rest in the DB's directory.
  std::vector<LiveFileStorageInfo> live;
  LiveFilesStorageInfoOptions lo;
  lo.wal_size_for_flush = UINT64_MAX;
  ASSERT_OK(db_->GetLiveFilesStorageInfo(lo, &live));
  bool saw_wal = false;
  for (const LiveFileStorageInfo& f : live) {
    EXPECT_EQ(f.file_type == kWalFile ? wal_dir_ : dbname_, f.directory) << f.relative_filename;
    saw_wal = saw_wal || f.file_type == kWalFile;
  }
  EXPECT_TRUE(saw_wal);
  VectorLogPtr wal_files;
  ASSERT_OK(db_->GetSortedWalFiles(wal_files));
  ASSERT_EQ(1u, wal_files.size());
  db_.reset();  // no flush: the data is only in the WAL
  ASSERT_OK(Open(WalDirOptions()));
  Verify(db_.get(), model);
  // The replayed WAL was flushed at open and deleted from wal_dir; the
  // session's new WAL is there.
  EXPECT_EQ(1u, Wals(wal_dir_).size());
  EXPECT_TRUE(Wals(dbname_).empty());
  // The OPTIONS file records wal_dir.
  std::vector<std::string> children;
  ASSERT_OK(Env::Default()->GetFileSystem()->GetChildren(dbname_, &children));
  bool found = false;
  for (const std::string& name : children) {
    if (name.rfind("OPTIONS-", 0) != 0) continue;
    std::string text;
    ASSERT_OK(ReadFileToString(Env::Default()->GetFileSystem(), dbname_ + "/" + name, &text));
    found = found || text.find("  wal_dir=" + wal_dir_ + "\n") != std::string::npos;
  }
  EXPECT_TRUE(found);
  std::string log;
  ASSERT_OK(ReadFileToString(Env::Default()->GetFileSystem(), dbname_ + "/LOG", &log));
  EXPECT_NE(std::string::npos, log.find("wal_dir: " + wal_dir_)) << log.substr(0, 3000);
}

TEST_F(DBWalDirTest, ArchiveAndTailingFollowWalDir) {
  Options o = WalDirOptions();
  o.WAL_ttl_seconds = 1000;
  ASSERT_OK(Open(o));
  std::map<std::string, std::string> model;
  Fill(0, 100, &model);
  ASSERT_OK(db_->Flush(FlushOptions()));
  Fill(100, 200, &model);
  ASSERT_OK(db_->Flush(FlushOptions()));
  const size_t archived = Wals(wal_dir_ + "/archive").size();
  EXPECT_GE(archived, 2u);
  EXPECT_FALSE(std::filesystem::exists(dbname_ + "/archive"));
  VectorLogPtr files;
  ASSERT_OK(db_->GetSortedWalFiles(files));
  ASSERT_GE(files.size(), 2u);
  for (const auto& f : files) {
    EXPECT_TRUE(std::filesystem::exists(wal_dir_ + f->PathName())) << f->PathName();
  }
  std::unique_ptr<TransactionLogIterator> iter;
  ASSERT_OK(db_->GetUpdatesSince(1, &iter));
  uint64_t count = 0;
  for (; iter->Valid(); iter->Next()) count += iter->GetBatch().writeBatchPtr->Count();
  ASSERT_OK(iter->status());
  EXPECT_EQ(200u, count);
}

TEST_F(DBWalDirTest, OtherWalDirDoesNotSeeTheWals) {
  ASSERT_OK(Open(WalDirOptions()));
  std::map<std::string, std::string> model;
  Fill(0, 50, &model);
  ASSERT_OK(db_->Flush(FlushOptions()));
  std::map<std::string, std::string> flushed = model;
  Fill(50, 100, &model);
  db_.reset();
  const std::vector<std::string> left = Wals(wal_dir_);
  ASSERT_FALSE(left.empty());
  // As RocksDB 7.8.3: only the given wal_dir is searched; the unflushed
  // writes in the other one are not replayed, and their WAL stays there.
  Options o = WalDirOptions();
  o.wal_dir = tmp_.path() + "/elsewhere";
  ASSERT_OK(Open(o));
  Verify(db_.get(), flushed);
  EXPECT_EQ(left, Wals(wal_dir_));
  db_.reset();
  // That open moved the DB's log number past the old WAL (as RocksDB's
  // does): back with the first wal_dir, the old WAL is obsolete, not
  // replayed, and deleted. The writes only it held are gone.
  ASSERT_OK(Open(WalDirOptions()));
  Verify(db_.get(), flushed);
  const std::vector<std::string> now = Wals(wal_dir_);
  for (const std::string& name : left) {
    EXPECT_EQ(now.end(), std::find(now.begin(), now.end(), name)) << name;
  }
}

TEST_F(DBWalDirTest, NewDbRefusesWalDirWithWals) {
  std::filesystem::create_directories(wal_dir_);
  ASSERT_OK(WriteStringToFile(Env::Default()->GetFileSystem(), "x", wal_dir_ + "/000003.log"));
  Status s = Open(WalDirOptions());
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("wal_dir contains existing log file"));
  EXPECT_NE(std::string::npos, s.ToString().find("000003.log"));
}

TEST_F(DBWalDirTest, WalDirEqualToDbIsTheDb) {
  Options o = WalDirOptions();
  o.wal_dir = dbname_ + "/";
  ASSERT_OK(Open(o));
  std::map<std::string, std::string> model;
  Fill(0, 10, &model);
  EXPECT_EQ(1u, Wals(dbname_).size());
  db_.reset();
  o.wal_dir = "";
  ASSERT_OK(Open(o));
  Verify(db_.get(), model);
}

TEST_F(DBWalDirTest, DestroyAndRepairSeeWalDir) {
  ASSERT_OK(Open(WalDirOptions()));
  std::map<std::string, std::string> model;
  Fill(0, 300, &model);
  db_.reset();
  // Repair: the WAL's writes come back from wal_dir.
  ASSERT_OK(RepairDB(dbname_, WalDirOptions()));
  ASSERT_OK(Open(WalDirOptions()));
  Verify(db_.get(), model);
  Fill(300, 400, &model);
  db_.reset();
  ASSERT_FALSE(Wals(wal_dir_).empty());
  ASSERT_OK(DestroyDB(dbname_, WalDirOptions()));
  EXPECT_FALSE(std::filesystem::exists(wal_dir_));
  EXPECT_FALSE(std::filesystem::exists(dbname_ + "/CURRENT"));
}

TEST_F(DBWalDirTest, SecondaryFollowsWalDir) {
  ASSERT_OK(Open(WalDirOptions()));
  std::map<std::string, std::string> model;
  Fill(0, 500, &model);
  // A secondary given the same wal_dir sees the unflushed writes.
  {
    Options so = WalDirOptions();
    so.max_open_files = -1;
    std::unique_ptr<DB> secondary;
    ASSERT_OK(DB::OpenAsSecondary(so, dbname_, tmp_.path() + "/secondary", &secondary));
    Verify(secondary.get(), model);
    Fill(500, 600, &model);
    ASSERT_OK(secondary->TryCatchUpWithPrimary());
    Verify(secondary.get(), model);
  }
}

}  // namespace
}  // namespace strata
