// Interoperability with RocksDB 7.8.3 itself: its `ldb` (Debian's
// rocksdb-tools) must read the directories Strata writes, and Strata must
// read what ldb writes. Skipped when /usr/bin/ldb is not installed.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <map>
#include <memory>
#include <string>

#include "strata/db.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

constexpr const char* kLdb = "/usr/bin/ldb";

// Runs a shell command; returns its stdout and sets *rc.
std::string RunCommand(const std::string& cmd, int* rc) {
  std::string out;
  FILE* p = popen((cmd + " 2>/dev/null").c_str(), "r");
  if (p == nullptr) {
    *rc = -1;
    return out;
  }
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), p)) > 0) out.append(buf, n);
  *rc = pclose(p);
  return out;
}

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

}  // namespace
}  // namespace strata
