// Backups between Strata's BackupEngine and RocksDB 7.8.3's own (through
// rocksdb_backup_tool, which links librocksdb), with the engine options ldb
// cannot set: schema version 2, legacy and session-id naming with and
// without the size, shared/ and private tables, app metadata. Each side
// reads, verifies (checksums) and restores the other's backups, and the
// restored DB holds exactly the keys written. Skipped without the tool.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <memory>
#include <sstream>
#include <string>

#include "strata/db.h"
#include "strata/iterator.h"
#include "strata/utilities/backup_engine.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

#ifdef STRATA_ROCKSDB_BACKUP_TOOL
constexpr const char* kTool = STRATA_ROCKSDB_BACKUP_TOOL;
#else
constexpr const char* kTool = "";
#endif

// Runs the tool; its stdout, and whether it exited 0.
bool RunTool(const std::string& args, std::string* out) {
  const std::string cmd = std::string(kTool) + " " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return false;
  char buf[4096];
  out->clear();
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), p)) > 0) out->append(buf, n);
  return pclose(p) == 0;
}

std::map<std::string, std::string> ParseScan(const std::string& text) {
  std::map<std::string, std::string> m;
  std::istringstream in(text);
  std::string k, v;
  while (in >> k >> v) m[k] = v;
  return m;
}

std::map<std::string, std::string> StrataScan(const std::string& path) {
  std::map<std::string, std::string> m;
  std::unique_ptr<DB> db;
  Status s = DB::Open(Options(), path, &db);
  EXPECT_TRUE(s.ok()) << s.ToString();
  if (!s.ok()) return m;
  auto it = db->NewIterator(ReadOptions());
  for (it->SeekToFirst(); it->Valid(); it->Next()) m[it->key().ToString()] = it->value().ToString();
  return m;
}

struct Variant {
  const char* name;
  const char* tool_flags;
  int schema_version;
  bool share_table_files;
  bool with_checksum;
  BackupEngineOptions::ShareFilesNaming naming;
};

const Variant kVariants[] = {
    {"default", "", 1, true, true,
     static_cast<BackupEngineOptions::ShareFilesNaming>(BackupEngineOptions::kUseDbSessionId |
                                                        BackupEngineOptions::kFlagIncludeFileSize)},
    {"schema2", "--schema_version=2 --metadata=hello", 2, true, true,
     static_cast<BackupEngineOptions::ShareFilesNaming>(BackupEngineOptions::kUseDbSessionId |
                                                        BackupEngineOptions::kFlagIncludeFileSize)},
    {"legacy", "--naming=legacy --metadata=m2", 1, true, true,
     BackupEngineOptions::kLegacyCrc32cAndFileSize},
    {"nosize", "--naming=session_nosize", 1, true, true, BackupEngineOptions::kUseDbSessionId},
    {"private", "--share_table_files=0", 1, false, true,
     BackupEngineOptions::kLegacyCrc32cAndFileSize},
    {"shared", "--with_checksum=0", 1, true, false, BackupEngineOptions::kUseDbSessionId},
};

class BackupInteropTest : public testing::Test {
 protected:
  void SetUp() override {
    if (std::string(kTool).empty()) GTEST_SKIP() << "rocksdb_backup_tool not built";
  }
  test::TempDir tmp_{"backup_interop_test"};
};

TEST_F(BackupInteropTest, StrataReadsRocksDbBackups) {
  for (const Variant& v : kVariants) {
    SCOPED_TRACE(v.name);
    const std::string db = tmp_.path() + "/rdb_" + v.name;
    const std::string bk = tmp_.path() + "/rbk_" + v.name;
    std::string out;
    // Two backups with different keys: the second is incremental.
    ASSERT_TRUE(RunTool("backup " + db + " " + bk + " --num=800 --seed=1 " + v.tool_flags, &out))
        << out;
    ASSERT_TRUE(RunTool("backup " + db + " " + bk + " --num=500 --seed=2 " + v.tool_flags, &out))
        << out;
    ASSERT_TRUE(RunTool("scan " + db, &out)) << out;
    const auto want = ParseScan(out);
    ASSERT_EQ(want.size(), 1300u);
    ASSERT_TRUE(RunTool("info " + bk, &out)) << out;
    const std::string rocksdb_info = out;

    BackupEngineOptions o(bk);
    o.schema_version = v.schema_version;
    o.share_table_files = v.share_table_files;
    o.share_files_with_checksum = v.with_checksum;
    o.share_files_with_checksum_naming = v.naming;
    std::unique_ptr<BackupEngine> engine;
    Status s = BackupEngine::Open(o, Env::Default(), &engine);
    ASSERT_TRUE(s.ok()) << s.ToString();
    std::vector<BackupInfo> infos;
    engine->GetBackupInfo(&infos);
    ASSERT_EQ(infos.size(), 2u);
    std::string strata_info;
    for (const BackupInfo& i : infos) {
      strata_info += std::to_string(i.backup_id) + " " + std::to_string(i.size) + " " +
                     std::to_string(i.number_files) + " " + i.app_metadata + "\n";
      ASSERT_TRUE(engine->VerifyBackup(i.backup_id, true).ok());
    }
    EXPECT_EQ(strata_info, rocksdb_info);
    const std::string r = tmp_.path() + "/restored_" + v.name;
    ASSERT_TRUE(engine->RestoreDBFromBackup(2, r, r).ok());
    EXPECT_EQ(StrataScan(r), want);

    // Strata adds a third backup with the same options; RocksDB reads all.
    {
      std::unique_ptr<DB> sdb;
      ASSERT_TRUE(DB::Open(Options(), db, &sdb).ok());
      ASSERT_TRUE(sdb->Put(WriteOptions(), "strata_key", "strata_value").ok());
      ASSERT_TRUE(engine->CreateNewBackupWithMetadata(CreateBackupOptions(), sdb.get(), "s3").ok());
    }
    ASSERT_TRUE(RunTool("info " + bk, &out)) << out;
    EXPECT_NE(out.find("\n3 "), std::string::npos) << out;
    EXPECT_EQ(out.find("corrupt"), std::string::npos) << out;
    ASSERT_TRUE(RunTool("verify " + bk + " 3", &out)) << out;
    const std::string r3 = tmp_.path() + "/rocks_restored_" + v.name;
    ASSERT_TRUE(RunTool("restore " + bk + " 3 " + r3, &out)) << out;
    ASSERT_TRUE(RunTool("scan " + r3, &out)) << out;
    auto want3 = want;
    want3["strata_key"] = "strata_value";
    EXPECT_EQ(ParseScan(out), want3);
    // Deleting RocksDB's first backup keeps every file the others need.
    ASSERT_TRUE(engine->DeleteBackup(1).ok());
    ASSERT_TRUE(RunTool("verify " + bk + " 2", &out)) << out;
    ASSERT_TRUE(RunTool("verify " + bk + " 3", &out)) << out;
  }
}

}  // namespace
}  // namespace strata
