// Interop with RocksDB 7.8.3 for file placement: a DB RocksDB wrote with
// wal_dir (its unflushed writes only in the WAL there) opens in Strata with
// every key; a DB Strata wrote with wal_dir opens in RocksDB (its own
// library, test_util/rocksdb_paths_tool.cc, and /usr/bin/ldb, which takes
// wal_dir from the OPTIONS file) with every key. db_paths is not supported
// yet: a RocksDB DB whose MANIFEST places tables in db_paths[1] is refused
// by name. Skipped without librocksdb (the tool) or /usr/bin/ldb.
#include <unistd.h>

#include <filesystem>
#include <string>

#include "gtest/gtest.h"
#include "strata/db.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

using test::RunCommand;

constexpr const char* kLdb = "/usr/bin/ldb";

std::string Key(int i) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "key%06d", i);
  return buf;
}

// As rocksdb_paths_tool's.
std::string Value(int i) { return "value-" + std::to_string(i) + std::string(i % 50, 'x'); }

constexpr int kKeys = 5000;

class DBPathsInteropTest : public testing::Test {
 protected:
  void SetUp() override {
#ifndef STRATA_ROCKSDB_PATHS_TOOL
    GTEST_SKIP() << "built without librocksdb: no rocksdb_paths_tool";
#endif
  }
  std::string Tool() const {
#ifdef STRATA_ROCKSDB_PATHS_TOOL
    return STRATA_ROCKSDB_PATHS_TOOL;
#else
    return "";
#endif
  }

  static void VerifyStrata(DB* db) {
    auto it = db->NewIterator(ReadOptions());
    int i = 0;
    for (it->SeekToFirst(); it->Valid(); it->Next(), ++i) {
      ASSERT_LT(i, kKeys);
      ASSERT_EQ(Key(i), it->key().ToString());
      ASSERT_EQ(Value(i), it->value().ToString());
    }
    ASSERT_OK(it->status());
    ASSERT_EQ(kKeys, i);
  }

  test::TempDir tmp_{"db_paths_interop_test"};
  const std::string db_ = tmp_.path() + "/db";
  const std::string wal_dir_ = tmp_.path() + "/wals";
};

TEST_F(DBPathsInteropTest, RocksDbWalDirOpensInStrata) {
  int rc = 0;
  const std::string out =
      RunCommand(Tool() + " write --db=" + db_ + " --wal_dir=" + wal_dir_ + " --n=5000", &rc);
  ASSERT_EQ(0, rc) << out;
  Options o;
  o.wal_dir = wal_dir_;
  std::unique_ptr<DB> db;
  ASSERT_OK(DB::Open(o, db_, &db));
  VerifyStrata(db.get());
  // Strata's WAL is in wal_dir too, and RocksDB reads the DB back.
  ASSERT_OK(db->Put(WriteOptions(), Key(kKeys - 1), Value(kKeys - 1)));
  db.reset();
  const std::string back =
      RunCommand(Tool() + " read --db=" + db_ + " --wal_dir=" + wal_dir_ + " --n=5000", &rc);
  EXPECT_EQ(0, rc) << back;
}

TEST_F(DBPathsInteropTest, StrataWalDirOpensInRocksDb) {
  Options o;
  o.create_if_missing = true;
  o.wal_dir = wal_dir_;
  o.write_buffer_size = 64 << 10;
  o.avoid_flush_during_shutdown = true;
  o.wal_mmap_writes = false;  // the WAL ends where its data ends, for ldb
  {
    std::unique_ptr<DB> db;
    ASSERT_OK(DB::Open(o, db_, &db));
    for (int i = 0; i < kKeys; ++i) {
      if (i == kKeys / 2) {
        ASSERT_OK(db->Flush(FlushOptions()));
        ASSERT_OK(db->SetOptions({{"write_buffer_size", "67108864"}}));
      }
      ASSERT_OK(db->Put(WriteOptions(), Key(i), Value(i)));
    }
  }
  // The unflushed half is only in wal_dir.
  bool wal_found = false;
  for (const auto& e : std::filesystem::directory_iterator(wal_dir_)) {
    wal_found = wal_found || e.path().extension() == ".log";
  }
  ASSERT_TRUE(wal_found);
  // RocksDB's ldb takes wal_dir from Strata's OPTIONS file.
  if (access(kLdb, X_OK) == 0) {
    int rc = 0;
    const std::string out = RunCommand(std::string(kLdb) + " --db=" + db_ + " scan", &rc);
    ASSERT_EQ(0, rc) << out;
    std::string want;
    for (int i = 0; i < kKeys; ++i) want += Key(i) + " : " + Value(i) + "\n";
    EXPECT_TRUE(want == out) << out.substr(0, 500);
  }
  int rc = 0;
  const std::string out =
      RunCommand(Tool() + " read --db=" + db_ + " --wal_dir=" + wal_dir_ + " --n=5000", &rc);
  EXPECT_EQ(0, rc) << out;
}

TEST_F(DBPathsInteropTest, RocksDbDbPathsAreRefusedByName) {
  // Small first path: RocksDB places the deeper levels' files in the second.
  const std::string p0 = tmp_.path() + "/p0";
  const std::string p1 = tmp_.path() + "/p1";
  int rc = 0;
  const std::string out = RunCommand(Tool() + " write --db=" + db_ + " --db_path=" + p0 +
                                         ":1 --db_path=" + p1 + ":1000000000 --n=5000",
                                     &rc);
  ASSERT_EQ(0, rc) << out;
  bool in_p1 = false;
  for (const auto& e : std::filesystem::directory_iterator(p1)) {
    in_p1 = in_p1 || e.path().extension() == ".sst";
  }
  ASSERT_TRUE(in_p1);
  Options o;
  std::unique_ptr<DB> db;
  Status s = DB::Open(o, db_, &db);
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("db_paths")) << s.ToString();
  o.db_paths = {DbPath(p0, 1), DbPath(p1, 1000000000)};
  s = DB::Open(o, db_, &db);
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("options.db_paths")) << s.ToString();
}

}  // namespace
}  // namespace strata
