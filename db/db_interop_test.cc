// Interoperability with RocksDB 7.8.3 itself: its `ldb` (Debian's
// rocksdb-tools) must read the directories Strata writes, and Strata must
// read what ldb writes. Skipped when /usr/bin/ldb is not installed.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "db/db_impl.h"
#include "strata/db.h"
#include "strata/table.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

constexpr const char* kLdb = "/usr/bin/ldb";

using test::RunCommand;

// "k : v" lines as printed by `ldb scan`.
std::string LdbScan(const std::string& path) {
  int rc = 0;
  std::string out = RunCommand(std::string(kLdb) + " --db=" + path + " scan", &rc);
  EXPECT_EQ(0, rc) << "ldb scan failed: " << out;
  return out;
}

std::string Expected(const std::map<std::string, std::string>& m) {
  std::string r;
  for (const auto& [k, v] : m) r += k + " : " + v + "\n";
  return r;
}

std::string StrataScan(DB* db) {
  std::string r;
  auto it = db->NewIterator(ReadOptions());
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    r += it->key().ToString() + " : " + it->value().ToString() + "\n";
  }
  EXPECT_OK(it->status());
  return r;
}

class DBInteropTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (access(kLdb, X_OK) != 0) GTEST_SKIP() << kLdb << " not installed (rocksdb-tools)";
  }
  test::TempDir dir_{"interop"};
  std::string path_ = dir_.path() + "/db";
};

TEST_F(DBInteropTest, RocksDBReadsWhatStrataWrote) {
  std::map<std::string, std::string> model;
  {
    Options options;
    options.create_if_missing = true;
    std::unique_ptr<DB> db;
    ASSERT_OK(DB::Open(options, path_, &db));
    for (int i = 0; i < 300; i++) {
      const std::string k = "key" + std::to_string(1000 + i);
      ASSERT_OK(db->Put(WriteOptions(), k, "value" + std::to_string(i)));
      model[k] = "value" + std::to_string(i);
    }
    for (int i = 0; i < 300; i += 7) {
      const std::string k = "key" + std::to_string(1000 + i);
      ASSERT_OK(db->Delete(WriteOptions(), k));
      model.erase(k);
    }
    WriteBatch batch;
    ASSERT_OK(batch.Put("key1001", "overwritten"));
    ASSERT_OK(batch.SingleDelete("key1002"));
    ASSERT_OK(batch.Put("zz", "last"));
    ASSERT_OK(db->Write(WriteOptions(), &batch));
    model["key1001"] = "overwritten";
    model.erase("key1002");
    model["zz"] = "last";
    ASSERT_OK(db->Close());
  }
  EXPECT_EQ(Expected(model), LdbScan(path_));
  // A second session adds a second WAL; RocksDB replays both.
  {
    std::unique_ptr<DB> db;
    ASSERT_OK(DB::Open(Options(), path_, &db));
    ASSERT_OK(db->Put(WriteOptions(), "key1003", "second session"));
    model["key1003"] = "second session";
    ASSERT_OK(db->Close());
  }
  EXPECT_EQ(Expected(model), LdbScan(path_));
}

TEST_F(DBInteropTest, StrataReadsWhatRocksDBWrote) {
  int rc = 0;
  const std::string out =
      RunCommand(std::string(kLdb) + " --db=" + path_ +
                     " --create_if_missing batchput apple red banana yellow cherry dark",
                 &rc);
  ASSERT_EQ(0, rc) << out;
  std::map<std::string, std::string> model = {
      {"apple", "red"}, {"banana", "yellow"}, {"cherry", "dark"}};
  {
    std::unique_ptr<DB> db;
    ASSERT_OK(DB::Open(Options(), path_, &db));
    EXPECT_EQ(Expected(model), StrataScan(db.get()));
    std::string v;
    ASSERT_OK(db->Get(ReadOptions(), "banana", &v));
    EXPECT_EQ("yellow", v);
    // Continue the history RocksDB started; RocksDB reads it back.
    ASSERT_OK(db->Put(WriteOptions(), "date", "brown"));
    ASSERT_OK(db->Delete(WriteOptions(), "apple"));
    model["date"] = "brown";
    model.erase("apple");
    ASSERT_OK(db->Close());
  }
  EXPECT_EQ(Expected(model), LdbScan(path_));
}

// ---------------------------------------------------------------------------
// Column families: RocksDB reads each of Strata's families, and Strata opens
// a RocksDB DB with a family.

TEST_F(DBInteropTest, RocksDBReadsStrataColumnFamilies) {
  std::map<std::string, std::map<std::string, std::string>> model;
  {
    DBOptions options;
    options.create_if_missing = true;
    options.create_missing_column_families = true;
    std::vector<ColumnFamilyDescriptor> descs = {{kDefaultColumnFamilyName, ColumnFamilyOptions()},
                                                 {"cf1", ColumnFamilyOptions()},
                                                 {"cf2", ColumnFamilyOptions()}};
    std::vector<ColumnFamilyHandle*> handles;
    std::unique_ptr<DB> db;
    ASSERT_OK(DB::Open(options, path_, descs, &handles, &db));
    ASSERT_EQ(handles.size(), 3u);
    for (int i = 0; i < 100; i++) {
      WriteBatch b;
      for (size_t f = 0; f < 3; f++) {
        if ((i + f) % 3 == 0) continue;  // each family a different subset
        const std::string k = descs[f].name + "-key" + std::to_string(100 + i);
        ASSERT_OK(b.Put(handles[f], k, "v" + std::to_string(i)));
        model[descs[f].name][k] = "v" + std::to_string(i);
      }
      ASSERT_OK(db->Write(WriteOptions(), &b));
    }
    // cf1 partly in a table, the rest in the WAL.
    ASSERT_OK(db->Flush(FlushOptions(), handles[1]));
    ASSERT_OK(db->Put(WriteOptions(), handles[1], "cf1-late", "wal"));
    model["cf1"]["cf1-late"] = "wal";
    for (ColumnFamilyHandle* h : handles) ASSERT_OK(db->DestroyColumnFamilyHandle(h));
    ASSERT_OK(db->Close());
  }
  int rc = 0;
  std::string out = RunCommand(std::string(kLdb) + " --db=" + path_ + " list_column_families", &rc);
  ASSERT_EQ(0, rc) << out;
  EXPECT_NE(out.find("default"), std::string::npos) << out;
  EXPECT_NE(out.find("cf1"), std::string::npos) << out;
  EXPECT_NE(out.find("cf2"), std::string::npos) << out;
  for (const char* cf : {"default", "cf1", "cf2"}) {
    SCOPED_TRACE(cf);
    out =
        RunCommand(std::string(kLdb) + " --db=" + path_ + " --column_family=" + cf + " scan", &rc);
    ASSERT_EQ(0, rc) << out;
    EXPECT_EQ(Expected(model[cf]), out);
  }
  // RocksDB opens it read-write too (every family listed in OPTIONS).
  out = RunCommand(std::string(kLdb) + " --db=" + path_ + " --column_family=cf2 put cf2-rocks r",
                   &rc);
  ASSERT_EQ(0, rc) << out;
  model["cf2"]["cf2-rocks"] = "r";
  out = RunCommand(std::string(kLdb) + " --db=" + path_ + " --column_family=cf2 scan", &rc);
  ASSERT_EQ(0, rc) << out;
  EXPECT_EQ(Expected(model["cf2"]), out);
}

TEST_F(DBInteropTest, StrataOpensRocksDBColumnFamily) {
  int rc = 0;
  // (create_column_family takes no --create_if_missing: the DB comes first.)
  std::string out =
      RunCommand(std::string(kLdb) + " --db=" + path_ + " --create_if_missing put dk dv", &rc);
  ASSERT_EQ(0, rc) << out;
  out = RunCommand(std::string(kLdb) + " --db=" + path_ + " create_column_family cf1", &rc);
  ASSERT_EQ(0, rc) << out;
  out = RunCommand(std::string(kLdb) + " --db=" + path_ + " --column_family=cf1 put k v", &rc);
  ASSERT_EQ(0, rc) << out;

  std::vector<std::string> names;
  ASSERT_OK(DB::ListColumnFamilies(DBOptions(), path_, &names));
  EXPECT_EQ(names, (std::vector<std::string>{"default", "cf1"}));
  {
    std::unique_ptr<DB> db;
    Status s = DB::Open(Options(), path_, &db);
    EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  }
  std::vector<ColumnFamilyDescriptor> descs = {{kDefaultColumnFamilyName, ColumnFamilyOptions()},
                                               {"cf1", ColumnFamilyOptions()}};
  std::vector<ColumnFamilyHandle*> handles;
  std::unique_ptr<DB> db;
  ASSERT_OK(DB::Open(DBOptions(), path_, descs, &handles, &db));
  std::string v;
  ASSERT_OK(db->Get(ReadOptions(), handles[1], "k", &v));
  EXPECT_EQ(v, "v");
  EXPECT_TRUE(db->Get(ReadOptions(), handles[1], "dk", &v).IsNotFound());
  ASSERT_OK(db->Get(ReadOptions(), handles[0], "dk", &v));
  EXPECT_EQ(v, "dv");
  EXPECT_TRUE(db->Get(ReadOptions(), handles[0], "k", &v).IsNotFound());
  ASSERT_OK(db->Put(WriteOptions(), handles[1], "k2", "v2"));
  for (ColumnFamilyHandle* h : handles) ASSERT_OK(db->DestroyColumnFamilyHandle(h));
  ASSERT_OK(db->Close());
  out = RunCommand(std::string(kLdb) + " --db=" + path_ + " --column_family=cf1 scan", &rc);
  ASSERT_EQ(0, rc) << out;
  EXPECT_EQ("k : v\nk2 : v2\n", out);
}

// ---------------------------------------------------------------------------
// Multi-level directories, in both directions. Keys and values are compared
// through `ldb --hex scan` ("0xKEY : 0xVALUE", upper-case hex).

std::string Hex(const std::string& s) {
  static const char* kDigits = "0123456789ABCDEF";
  std::string r = "0x";
  for (unsigned char c : s) {
    r += kDigits[c >> 4];
    r += kDigits[c & 15];
  }
  return r;
}

std::string ExpectedHex(const std::map<std::string, std::string>& m) {
  std::string r;
  for (const auto& [k, v] : m) r += Hex(k) + " : " + Hex(v) + "\n";
  return r;
}

std::string LdbHexScan(const std::string& path) {
  int rc = 0;
  std::string out = RunCommand(std::string(kLdb) + " --db=" + path + " --hex scan", &rc);
  EXPECT_EQ(0, rc) << "ldb scan failed: " << out;
  return out;
}

std::map<std::string, std::string> ParseLdbHexScan(const std::string& out) {
  auto unhex = [](const std::string& h) {
    std::string r;
    for (size_t i = 2; i + 1 < h.size(); i += 2) {
      r += static_cast<char>(std::stoi(h.substr(i, 2), nullptr, 16));
    }
    return r;
  };
  std::map<std::string, std::string> m;
  size_t pos = 0;
  while (pos < out.size()) {
    size_t eol = out.find('\n', pos);
    if (eol == std::string::npos) eol = out.size();
    const std::string line = out.substr(pos, eol - pos);
    pos = eol + 1;
    const size_t sep = line.find(" : ");
    if (sep == std::string::npos) continue;
    m[unhex(line.substr(0, sep))] = unhex(line.substr(sep + 3));
  }
  return m;
}

void LdbCheckConsistencyAndManifest(const std::string& path) {
  int rc = 0;
  std::string out = RunCommand(std::string(kLdb) + " --db=" + path + " checkconsistency", &rc);
  EXPECT_EQ(0, rc) << out;
  EXPECT_NE(std::string::npos, out.find("OK")) << "checkconsistency: " << out;
  out = RunCommand(std::string(kLdb) + " --db=" + path + " manifest_dump", &rc);
  EXPECT_EQ(0, rc) << out;
  EXPECT_NE(std::string::npos, out.find("--- level 1 ---")) << out;
}

Options TinyLsmOptions(CompressionType compression) {
  Options o;
  o.create_if_missing = true;
  o.write_buffer_size = 32 << 10;
  o.target_file_size_base = 32 << 10;
  o.max_bytes_for_level_base = 96 << 10;
  o.max_bytes_for_level_multiplier = 4;
  o.level0_file_num_compaction_trigger = 2;
  o.compression = compression;
  BlockBasedTableOptions t;
  t.block_size = 1024;
  o.table_factory = NewBlockBasedTableFactory(t);
  return o;
}

int LevelsWithFiles(DB* db, int num_levels) {
  int n = 0;
  for (int l = 0; l < num_levels; l++) {
    uint64_t files = 0;
    EXPECT_TRUE(db->GetIntProperty("strata.num-files-at-level" + std::to_string(l), &files));
    n += files > 0 ? 1 : 0;
  }
  return n;
}

class DBInteropLsmTest : public DBInteropTest,
                         public ::testing::WithParamInterface<CompressionType> {};

TEST_P(DBInteropLsmTest, RocksDBReadsStrataMultiLevelDB) {
  const Options options = TinyLsmOptions(GetParam());
  std::map<std::string, std::string> model;
  std::mt19937_64 rng(test::RandomSeed());
  auto random_key = [&]() {
    std::string k = "k";
    const uint64_t n = rng() % 3000;
    k.append(reinterpret_cast<const char*>(&n), 2);  // binary bytes, 0x00 included
    k += std::to_string(n);
    return k;
  };
  int max_levels_seen = 0;
  // Three sessions; each ends with data only in its WAL, which the next
  // session (and finally RocksDB) replays.
  for (int session = 0; session < 3; session++) {
    std::unique_ptr<DB> db;
    ASSERT_OK(DB::Open(options, path_, &db));
    const int n = session == 2 ? 300 : 4000;
    for (int i = 0; i < n; i++) {
      const std::string k = random_key();
      if (rng() % 7 == 0) {
        ASSERT_OK(db->Delete(WriteOptions(), k));
        model.erase(k);
      } else {
        std::string v = test::RandomBytes(&rng, 20 + rng() % 200);
        ASSERT_OK(db->Put(WriteOptions(), k, v));
        model[k] = v;
      }
      if (session < 2 && i == n - 200) {
        ASSERT_OK(static_cast<DBImpl*>(db.get())->WaitForCompact());
        max_levels_seen = std::max(max_levels_seen, LevelsWithFiles(db.get(), options.num_levels));
      }
    }
    ASSERT_OK(db->Close());
  }
  printf("levels with tables (at most): %d\n", max_levels_seen);
  EXPECT_GE(max_levels_seen, 2) << "the database never had tables in two levels";
  LdbCheckConsistencyAndManifest(path_);
  EXPECT_EQ(ExpectedHex(model), LdbHexScan(path_));
  // And Strata still reads what RocksDB left after its own recovery.
  std::unique_ptr<DB> db;
  ASSERT_OK(DB::Open(options, path_, &db));
  std::map<std::string, std::string> strata;
  auto it = db->NewIterator(ReadOptions());
  for (it->SeekToFirst(); it->Valid(); it->Next())
    strata[it->key().ToString()] = it->value().ToString();
  ASSERT_OK(it->status());
  EXPECT_TRUE(strata == model);
  it.reset();
  ASSERT_OK(db->Close());
}

TEST_P(DBInteropLsmTest, StrataContinuesADbBenchDB) {
  constexpr const char* kDbBench = "/usr/bin/db_bench";
  if (access(kDbBench, X_OK) != 0) GTEST_SKIP() << kDbBench << " not installed";
  int rc = 0;
  const std::string out =
      RunCommand(std::string(kDbBench) + " --benchmarks=fillrandom --num=20000 --db=" + path_ +
                     " --compression_type=" + (GetParam() == kNoCompression ? "none" : "snappy") +
                     " --write_buffer_size=65536 --target_file_size_base=65536"
                     " --max_bytes_for_level_base=262144 --level0_file_num_compaction_trigger=2",
                 &rc);
  ASSERT_EQ(0, rc) << out;
  std::map<std::string, std::string> model = ParseLdbHexScan(LdbHexScan(path_));
  ASSERT_GT(model.size(), 10000u);
  const Options options = TinyLsmOptions(GetParam());
  {
    std::unique_ptr<DB> db;
    ASSERT_OK(DB::Open(options, path_, &db));
    std::map<std::string, std::string> strata;
    auto it = db->NewIterator(ReadOptions());
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      strata[it->key().ToString()] = it->value().ToString();
    }
    ASSERT_OK(it->status());
    it.reset();
    ASSERT_EQ(model.size(), strata.size());
    EXPECT_TRUE(strata == model) << "Strata reads different keys or values than ldb";
    size_t n = 0;
    for (const auto& [k, expected] : model) {
      if (n++ % 500 != 0) continue;
      std::string v;
      ASSERT_OK(db->Get(ReadOptions(), k, &v));
      ASSERT_EQ(expected, v) << "Get(" << Hex(k) << ") differs from ldb and iteration";
    }
    // Keep writing over RocksDB's keys, flush and compact everything.
    std::mt19937_64 rng(test::RandomSeed());
    std::vector<std::string> keys;
    for (const auto& kv : model) keys.push_back(kv.first);
    for (int i = 0; i < 3000; i++) {
      const std::string& k = keys[rng() % keys.size()];
      if (i % 5 == 0) {
        ASSERT_OK(db->Delete(WriteOptions(), k));
        model.erase(k);
      } else {
        const std::string v = "strata" + std::to_string(i);
        ASSERT_OK(db->Put(WriteOptions(), k, v));
        model[k] = v;
      }
    }
    ASSERT_OK(db->Flush(FlushOptions()));
    for (int i = 0; i < 200; i++) {
      const std::string k = "new" + std::to_string(i);
      ASSERT_OK(db->Put(WriteOptions(), k, "fresh"));
      model[k] = "fresh";
    }
    ASSERT_OK(db->CompactRange(CompactRangeOptions(), nullptr, nullptr));
    ASSERT_OK(db->Put(WriteOptions(), "wal-only", "at close"));
    model["wal-only"] = "at close";
    ASSERT_OK(db->Close());
  }
  LdbCheckConsistencyAndManifest(path_);
  EXPECT_TRUE(ParseLdbHexScan(LdbHexScan(path_)) == model) << "ldb reads different data";
}

INSTANTIATE_TEST_SUITE_P(Compression, DBInteropLsmTest,
                         ::testing::Values(kNoCompression, kSnappyCompression),
                         [](const ::testing::TestParamInfo<CompressionType>& info) {
                           return std::string(info.param == kNoCompression ? "none" : "snappy");
                         });

}  // namespace
}  // namespace strata
