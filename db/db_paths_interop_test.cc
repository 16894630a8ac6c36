// Interop with RocksDB 7.8.3 for file placement: a DB RocksDB wrote with
// wal_dir (its unflushed writes only in the WAL there) opens in Strata with
// every key; a DB Strata wrote with wal_dir opens in RocksDB (its own
// library, test_util/rocksdb_paths_tool.cc, and /usr/bin/ldb, which takes
// wal_dir from the OPTIONS file) with every key. The same both ways for
// db_paths: a DB RocksDB spread over three paths opens in Strata with the
// same paths (and is refused by name without them), and a DB Strata spread
// over three paths opens in RocksDB. Skipped without librocksdb (the tool);
// the ldb checks without /usr/bin/ldb.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "db/db_impl.h"
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

// WAL compression (wal_compression = kZSTD) both ways: RocksDB's
// compressed WAL is replayed by Strata, and Strata's by RocksDB (its
// library, and ldb's dump_wal and scan).
TEST_F(DBPathsInteropTest, RocksDbCompressedWalOpensInStrata) {
  int rc = 0;
  const std::string out = RunCommand(
      Tool() + " write --db=" + db_ + " --wal_compression --n=" + std::to_string(kKeys), &rc);
  ASSERT_EQ(0, rc) << out;
  std::unique_ptr<DB> db;
  ASSERT_OK(DB::Open(Options(), db_, &db));
  VerifyStrata(db.get());
}

TEST_F(DBPathsInteropTest, StrataCompressedWalOpensInRocksDb) {
  Options o;
  o.create_if_missing = true;
  o.write_buffer_size = 64 << 10;
  o.avoid_flush_during_shutdown = true;
  o.wal_mmap_writes = false;  // the WAL ends where its data ends, for ldb
  o.wal_compression = kZSTD;
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
  std::string wal;
  for (const auto& e : std::filesystem::directory_iterator(db_)) {
    if (e.path().extension() == ".log") wal = e.path().string();
  }
  ASSERT_FALSE(wal.empty());
  if (access(kLdb, X_OK) == 0) {
    int rc = 0;
    std::string out = RunCommand(std::string(kLdb) + " dump_wal --walfile=" + wal, &rc);
    ASSERT_EQ(0, rc) << out.substr(0, 500);
    // One line per batch: the unflushed half, one Put each.
    EXPECT_EQ(static_cast<int>(std::count(out.begin(), out.end(), '\n')), kKeys / 2)
        << out.substr(0, 500);
    EXPECT_NE(out.find("PUT(0) : 0x"), std::string::npos) << out.substr(0, 500);
    out = RunCommand(std::string(kLdb) + " --db=" + db_ + " scan", &rc);
    ASSERT_EQ(0, rc) << out.substr(0, 500);
    std::string want;
    for (int i = 0; i < kKeys; ++i) want += Key(i) + " : " + Value(i) + "\n";
    EXPECT_TRUE(want == out) << out.substr(0, 500);
  }
  int rc = 0;
  const std::string out =
      RunCommand(Tool() + " read --db=" + db_ + " --n=" + std::to_string(kKeys), &rc);
  EXPECT_EQ(0, rc) << out;
}

// The sizes rocksdb_paths_tool uses, for a Strata DB laid out as RocksDB
// would lay it out.
Options ToolLikeOptions() {
  Options o;
  o.create_if_missing = true;
  o.write_buffer_size = 64 << 10;
  o.target_file_size_base = 64 << 10;
  o.max_bytes_for_level_base = 256 << 10;
  o.level0_file_num_compaction_trigger = 2;
  o.compression = kNoCompression;
  return o;
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

TEST_F(DBPathsInteropTest, RocksDbDbPathsOpenInStrata) {
  // Three paths: flushes in p0; L0 and L1 (estimated at 256K each) fit in
  // p1, so L1 goes there; deeper levels in p2.
  const std::string p0 = tmp_.path() + "/p0";
  const std::string p1 = tmp_.path() + "/p1";
  const std::string p2 = tmp_.path() + "/p2";
  const std::string paths_args =
      " --db_path=" + p0 + ":1 --db_path=" + p1 + ":600000 --db_path=" + p2 + ":1000000000";
  int rc = 0;
  const std::string out =
      RunCommand(Tool() + " write --db=" + db_ + paths_args + " --n=" + std::to_string(kKeys), &rc);
  ASSERT_EQ(0, rc) << out;
  const size_t rocksdb_tables = Tables(p0).size() + Tables(p1).size() + Tables(p2).size();
  ASSERT_FALSE(Tables(p1).empty() && Tables(p2).empty()) << "RocksDB used only path 0";
  // Without the paths the MANIFEST's path ids are refused by name.
  Options o = ToolLikeOptions();
  o.create_if_missing = false;
  std::unique_ptr<DB> db;
  Status s = DB::Open(o, db_, &db);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("path id")) << s.ToString();
  // With them, every key (the second half replayed from the WAL).
  o.db_paths = {DbPath(p0, 1), DbPath(p1, 600000), DbPath(p2, 1000000000)};
  ASSERT_OK(DB::Open(o, db_, &db));
  VerifyStrata(db.get());
  std::vector<LiveFileMetaData> live;
  db->GetLiveFilesMetaData(&live);
  size_t in_other_paths = 0;
  for (const LiveFileMetaData& f : live) {
    EXPECT_TRUE(Tables(f.db_path).count(f.relative_filename) > 0) << f.db_path << f.name;
    if (f.db_path != p0) ++in_other_paths;
  }
  EXPECT_GT(in_other_paths, 0u) << rocksdb_tables;
  // Strata flushes the replayed half and compacts; RocksDB reads it back.
  ASSERT_OK(db->Flush(FlushOptions()));
  ASSERT_OK(db->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  VerifyStrata(db.get());
  db.reset();
  const std::string back =
      RunCommand(Tool() + " read --db=" + db_ + paths_args + " --n=" + std::to_string(kKeys), &rc);
  EXPECT_EQ(0, rc) << back;
}

TEST_F(DBPathsInteropTest, StrataDbPathsOpenInRocksDb) {
  const std::string p0 = tmp_.path() + "/p0";
  const std::string p1 = tmp_.path() + "/p1";
  const std::string p2 = tmp_.path() + "/p2";
  constexpr int kMany = 20000;
  Options o = ToolLikeOptions();
  o.db_paths = {DbPath(p0, 1), DbPath(p1, 600000), DbPath(p2, 1000000000)};
  {
    std::unique_ptr<DB> db;
    ASSERT_OK(DB::Open(o, db_, &db));
    // Random order: automatic compactions rewrite into L1 (p1) and L2 (p2).
    std::vector<int> order(kMany);
    for (int i = 0; i < kMany; ++i) order[i] = i;
    std::mt19937_64 rng(11);
    std::shuffle(order.begin(), order.end(), rng);
    for (int i : order) ASSERT_OK(db->Put(WriteOptions(), Key(i), Value(i)));
    ASSERT_OK(db->Flush(FlushOptions()));
    ASSERT_OK(static_cast<DBImpl*>(db.get())->WaitForCompact());
  }
  EXPECT_FALSE(Tables(p1).empty());
  EXPECT_FALSE(Tables(p2).empty());
  EXPECT_TRUE(Tables(db_).empty());
  int rc = 0;
  const std::string out =
      RunCommand(Tool() + " read --db=" + db_ + " --db_path=" + p0 + ":1 --db_path=" + p1 +
                     ":600000 --db_path=" + p2 + ":1000000000 --n=" + std::to_string(kMany),
                 &rc);
  EXPECT_EQ(0, rc) << out;
  EXPECT_NE(std::string::npos, out.find("OK " + std::to_string(kMany))) << out;
}

}  // namespace
}  // namespace strata
