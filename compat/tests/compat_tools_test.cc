// The tool and small utility headers of the compat layer that the compared
// programs cannot check against Debian's librocksdb (which does not export
// GetInfoLogList) or that end the process: GetInfoLogList with and without
// db_log_dir, SSTDumpTool refusing an option Strata does not take,
// MemoryUtil's sums.

#include <unistd.h>

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "gtest/gtest.h"
#include "rocksdb/cache.h"
#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/options.h"
#include "rocksdb/sst_dump_tool.h"
#include "rocksdb/utilities/info_log_finder.h"
#include "rocksdb/utilities/memory_util.h"

namespace rocksdb {
namespace {

std::unique_ptr<DB> OpenFresh(const std::string& path, Options o) {
  o.create_if_missing = true;
  EXPECT_TRUE(DestroyDB(path, o).ok());
  DB* db = nullptr;
  Status s = DB::Open(o, path, &db);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return std::unique_ptr<DB>(db);
}

TEST(CompatToolsTest, InfoLogList) {
  const std::string path = ::testing::TempDir() + "/compat_tools_logs";
  std::unique_ptr<DB> db = OpenFresh(path, Options());
  ASSERT_NE(db, nullptr);
  std::vector<std::string> logs;
  ASSERT_TRUE(GetInfoLogList(db.get(), &logs).ok());
  EXPECT_EQ(logs, std::vector<std::string>{"LOG"});
  ASSERT_TRUE(db->Close().ok());
  db.reset();
  // A reopen rolls the LOG aside: LOG and LOG.old.<micros>.
  Options o;
  DB* raw = nullptr;
  ASSERT_TRUE(DB::Open(o, path, &raw).ok());
  db.reset(raw);
  logs.clear();
  ASSERT_TRUE(GetInfoLogList(db.get(), &logs).ok());
  std::sort(logs.begin(), logs.end());
  ASSERT_EQ(logs.size(), 2u);
  EXPECT_EQ(logs[0], "LOG");
  EXPECT_EQ(logs[1].rfind("LOG.old.", 0), 0u) << logs[1];
  ASSERT_TRUE(db->Close().ok());
  db.reset();

  // With db_log_dir: the path-derived name in that directory.
  // (A directory of its own per run: DestroyDB leaves LOGs in db_log_dir.)
  const std::string log_dir =
      ::testing::TempDir() + "/compat_tools_log_dir_" + std::to_string(getpid());
  Options with_dir;
  with_dir.db_log_dir = log_dir;
  db = OpenFresh(path + "2", with_dir);
  ASSERT_NE(db, nullptr);
  logs.clear();
  ASSERT_TRUE(GetInfoLogList(db.get(), &logs).ok());
  ASSERT_EQ(logs.size(), 1u);
  const std::string want = "_LOG";
  EXPECT_TRUE(logs[0].size() > want.size() &&
              logs[0].compare(logs[0].size() - want.size(), want.size(), want) == 0)
      << logs[0];
  EXPECT_NE(logs[0].find("compat_tools_logs2"), std::string::npos) << logs[0];
  ASSERT_TRUE(db->Close().ok());
  Env* env = Env::Default();
  std::vector<std::string> left;
  if (env->GetChildren(log_dir, &left).ok()) {
    for (const std::string& f : left) env->DeleteFile(log_dir + "/" + f).PermitUncheckedError();
  }
  env->DeleteDir(log_dir).PermitUncheckedError();

  EXPECT_EQ(GetInfoLogList(nullptr, &logs).ToString(), "Invalid argument: DB pointer is not valid");
}

TEST(CompatToolsTest, SstDumpToolRefusesOptions) {
  Options o;
  o.inplace_update_support = true;  // refused by Strata
  const char* argv[] = {"sst_dump", "--file=/nonexistent.sst"};
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(SSTDumpTool().Run(2, argv, o), 1);
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("inplace_update_support"), std::string::npos) << err;
}

TEST(CompatToolsTest, MemoryUtil) {
  const std::string path = ::testing::TempDir() + "/compat_tools_memory";
  std::unique_ptr<DB> db = OpenFresh(path, Options());
  ASSERT_NE(db, nullptr);
  for (int i = 0; i < 100; ++i) {
    ASSERT_TRUE(db->Put(WriteOptions(), "key" + std::to_string(i), std::string(100, 'v')).ok());
  }
  std::shared_ptr<Cache> cache = NewLRUCache(1 << 20);
  ASSERT_TRUE(cache->Insert("k", nullptr, 1000, [](const Slice&, void*) {}).ok());
  std::map<MemoryUtil::UsageType, uint64_t> usage;
  ASSERT_TRUE(MemoryUtil::GetApproximateMemoryUsageByType({db.get()}, {cache.get()}, &usage).ok());
  uint64_t mem = 0;
  ASSERT_TRUE(db->GetAggregatedIntProperty(DB::Properties::kSizeAllMemTables, &mem));
  EXPECT_EQ(usage[MemoryUtil::kMemTableTotal], mem);
  EXPECT_GT(usage[MemoryUtil::kMemTableUnFlushed], 10000u);
  EXPECT_EQ(usage.count(MemoryUtil::kTableReadersTotal), 1u);
  EXPECT_EQ(usage[MemoryUtil::kCacheTotal], cache->GetUsage());
  // Two DBs: the sums add.
  std::map<MemoryUtil::UsageType, uint64_t> twice;
  ASSERT_TRUE(MemoryUtil::GetApproximateMemoryUsageByType({db.get(), db.get()}, {}, &twice).ok());
  EXPECT_EQ(twice[MemoryUtil::kMemTableTotal], 2 * mem);
  EXPECT_EQ(twice.count(MemoryUtil::kCacheTotal), 0u);
  ASSERT_TRUE(db->Close().ok());
}

}  // namespace
}  // namespace rocksdb
