// Tests of BackupEngine (include/strata/utilities/backup_engine.h) on a
// live DB: restores compared with a std::map model of each backup's
// moment, incremental sharing, reference-counted deletion, interrupted
// backups (fault injection), damaged files, backups under concurrent
// writes and compactions, and the options.
#include "strata/utilities/backup_engine.h"

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <thread>

#include "env/fault_injection_fs.h"
#include "strata/iterator.h"
#include "test_util/db_test_base.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

using Model = std::map<std::string, std::string>;

class BackupEngineTest : public DBTestBase {
 protected:
  BackupEngineTest() : DBTestBase("backup_engine_test"), backup_dir_(tmp_.path() + "/backup") {}

  std::unique_ptr<BackupEngine> OpenEngine(BackupEngineOptions o) {
    std::unique_ptr<BackupEngine> engine;
    Status s = BackupEngine::Open(o, Env::Default(), &engine);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return engine;
  }
  std::unique_ptr<BackupEngine> OpenEngine() {
    return OpenEngine(BackupEngineOptions(backup_dir_));
  }

  // Every key/value of the DB at path (opened read-write, then closed).
  Model ReadDb(const std::string& path) {
    Options o;
    std::unique_ptr<DB> db;
    Status s = DB::Open(o, path, &db);
    EXPECT_TRUE(s.ok()) << path << ": " << s.ToString();
    Model m;
    if (!s.ok()) return m;
    std::unique_ptr<Iterator> it = db->NewIterator(ReadOptions());
    for (it->SeekToFirst(); it->Valid(); it->Next())
      m[it->key().ToString()] = it->value().ToString();
    EXPECT_TRUE(it->status().ok());
    it.reset();
    EXPECT_TRUE(db->Close().ok());
    return m;
  }

  Model ReadOpenDb() {
    Model m;
    std::unique_ptr<Iterator> it = db_->NewIterator(ReadOptions());
    for (it->SeekToFirst(); it->Valid(); it->Next())
      m[it->key().ToString()] = it->value().ToString();
    return m;
  }

  // Files under backup_dir_ relative to it (meta, private, shared).
  std::set<std::string> BackupFiles() {
    std::set<std::string> out;
    for (const auto& [name, data] : test::DirectoryContents(backup_dir_)) {
      if (name.back() != '/') out.insert(name);  // files only
    }
    return out;
  }

  // The files every listed backup names, plus their meta files.
  std::set<std::string> ReferencedFiles(BackupEngineReadOnlyBase* engine) {
    std::vector<BackupInfo> infos;
    engine->GetBackupInfo(&infos, true);
    std::set<std::string> out;
    for (const BackupInfo& info : infos) {
      out.insert("meta/" + std::to_string(info.backup_id));
      for (const auto& f : info.file_details) out.insert(f.relative_filename);
    }
    return out;
  }

  void WriteRandom(std::mt19937_64* rng, Model* model, int n, int key_space) {
    for (int i = 0; i < n; ++i) {
      const std::string key = "k" + std::to_string((*rng)() % key_space);
      if ((*rng)() % 8 == 0) {
        ASSERT_TRUE(Delete(key).ok());
        model->erase(key);
      } else {
        const std::string value = test::RandomPrintable(rng, 10 + (*rng)() % 200);
        ASSERT_TRUE(Put(key, value).ok());
        (*model)[key] = value;
      }
    }
  }

  // Files under dir on fs, relative to dir.
  static std::set<std::string> MemFiles(FileSystem* fs, const std::string& dir,
                                        const std::string& prefix = "") {
    std::set<std::string> out;
    std::vector<std::string> children;
    if (!fs->GetChildren(dir, &children).ok()) return out;
    for (const std::string& c : children) {
      bool is_dir = false;
      EXPECT_TRUE(fs->IsDirectory(dir + "/" + c, &is_dir).ok());
      if (is_dir) {
        for (const std::string& f : MemFiles(fs, dir + "/" + c, prefix + c + "/")) out.insert(f);
      } else {
        out.insert(prefix + c);
      }
    }
    return out;
  }

  std::string backup_dir_;
};

TEST_F(BackupEngineTest, RestoresEachBackupToItsModel) {
  const uint64_t seed = test::RandomSeed();
  std::mt19937_64 rng(seed);
  Open();
  BackupEngineOptions o(backup_dir_);
  o.max_background_operations = 2;  // copies on two threads
  auto engine = OpenEngine(o);
  Model model;
  std::vector<Model> models;
  const int kBackups = 5;
  for (int b = 0; b < kBackups; ++b) {
    WriteRandom(&rng, &model, 800, 3000);
    if (b % 2 == 0) {
      ASSERT_TRUE(Flush().ok());  // else some writes stay in the WAL only
    }
    BackupID id = 0;
    CreateBackupOptions cbo;
    cbo.flush_before_backup = (b == 3);
    Status s = engine->CreateNewBackup(cbo, db_.get(), &id);
    ASSERT_TRUE(s.ok()) << s.ToString();
    ASSERT_EQ(id, static_cast<BackupID>(b + 1));
    models.push_back(model);
  }
  ASSERT_EQ(ReadOpenDb(), model);
  // Restore each from a freshly opened (read-only) engine.
  std::unique_ptr<BackupEngineReadOnly> ro;
  ASSERT_TRUE(
      BackupEngineReadOnly::Open(BackupEngineOptions(backup_dir_), Env::Default(), &ro).ok());
  for (int b = 0; b < kBackups; ++b) {
    const std::string dir = tmp_.path() + "/restore" + std::to_string(b);
    ASSERT_TRUE(ro->VerifyBackup(b + 1, true).ok());
    Status s = ro->RestoreDBFromBackup(b + 1, dir, dir);
    ASSERT_TRUE(s.ok()) << s.ToString();
    EXPECT_EQ(ReadDb(dir), models[b]) << "backup " << b + 1;
  }
  // Restoring over an existing DB replaces it (its old files go).
  const std::string dir = tmp_.path() + "/restore0";
  test::WriteFileOrDie(dir + "/000999.sst", "junk");
  ASSERT_TRUE(ro->RestoreDBFromLatestBackup(dir, dir).ok());
  EXPECT_EQ(ReadDb(dir), models.back());
  // PurgeOldBackups keeps the newest two; they still restore.
  ASSERT_TRUE(engine->PurgeOldBackups(2).ok());
  std::vector<BackupInfo> infos;
  engine->GetBackupInfo(&infos);
  ASSERT_EQ(infos.size(), 2u);
  EXPECT_EQ(infos[0].backup_id, 4u);
  EXPECT_EQ(infos[1].backup_id, 5u);
  BackupInfo info;
  EXPECT_TRUE(engine->GetBackupInfo(1, &info).IsNotFound());
  ASSERT_TRUE(engine->RestoreDBFromBackup(4, dir, dir).ok());
  EXPECT_EQ(ReadDb(dir), models[3]);
  EXPECT_EQ(BackupFiles(), ReferencedFiles(engine.get()));
}

TEST_F(BackupEngineTest, SecondBackupCopiesOnlyNewTables) {
  options_.disable_auto_compactions = true;
  Open();
  for (int i = 0; i < 3000; ++i)
    ASSERT_TRUE(Put("a" + std::to_string(i), std::string(100, 'x')).ok());
  ASSERT_TRUE(Flush().ok());
  // Count what the backup writes through a fault-injection wrapper that
  // injects nothing.
  auto fault_fs = std::make_shared<FaultInjectionFileSystem>(FileSystem::Default());
  Env backup_env(fault_fs, SystemClock::Default());
  BackupEngineOptions o(backup_dir_);
  o.backup_env = &backup_env;
  auto engine = OpenEngine(o);
  ASSERT_TRUE(engine->CreateNewBackup(db_.get()).ok());
  std::set<std::string> shared1;
  for (const std::string& f : BackupFiles()) {
    if (f.rfind("shared_checksum/", 0) == 0) shared1.insert(f);
  }
  ASSERT_GE(shared1.size(), 1u);
  const auto contents1 = test::DirectoryContents(backup_dir_ + "/shared_checksum");

  // A few writes, one new table.
  for (int i = 0; i < 50; ++i) ASSERT_TRUE(Put("b" + std::to_string(i), "y").ok());
  ASSERT_TRUE(Flush().ok());
  fault_fs->ResetOpCounts();
  BackupID id = 0;
  ASSERT_TRUE(engine->CreateNewBackup(CreateBackupOptions(), db_.get(), &id).ok());
  BackupInfo info;
  ASSERT_TRUE(engine->GetBackupInfo(id, &info, true).ok());
  size_t shared_in_2 = 0;
  size_t private_in_2 = 0;
  uint64_t new_bytes = 0;
  for (const auto& f : info.file_details) {
    if (f.relative_filename.rfind("shared_checksum/", 0) == 0) {
      ++shared_in_2;
      if (!shared1.count(f.relative_filename)) new_bytes += f.size;
    } else {
      ++private_in_2;
    }
  }
  EXPECT_EQ(shared_in_2, shared1.size() + 1);
  // Created: the new table (under its temporary name), every private
  // file, and the meta file's temporary.
  EXPECT_EQ(fault_fs->op_counts(FaultOp::kCreate).attempted, 1 + private_in_2 + 1);
  EXPECT_LT(new_bytes, 20000u);
  // Backup 1's shared files were not rewritten.
  const auto contents2 = test::DirectoryContents(backup_dir_ + "/shared_checksum");
  for (const auto& [name, data] : contents1) {
    ASSERT_TRUE(contents2.count(name));
    EXPECT_EQ(contents2.at(name), data);
  }
  // Names: <number>_s<db_session_id>_<size>.sst.
  for (const auto& [name, data] : contents2) {
    const std::string suffix = "_" + std::to_string(data.size()) + ".sst";
    EXPECT_EQ(name.size() > suffix.size() &&
                  name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0,
              true)
        << name;
    EXPECT_NE(name.find("_s"), std::string::npos) << name;
  }
}

TEST_F(BackupEngineTest, DeleteAndPurgeRemoveExactlyTheUnreferencedFiles) {
  Open();
  auto engine = OpenEngine();
  std::mt19937_64 rng(test::RandomSeed());
  Model model;
  std::vector<std::set<std::string>> files_of(4);
  for (int b = 1; b <= 3; ++b) {
    WriteRandom(&rng, &model, 1500, 100000);
    ASSERT_TRUE(Flush().ok());
    Status s = engine->CreateNewBackup(db_.get());
    ASSERT_TRUE(s.ok()) << s.ToString();
    BackupInfo info;
    ASSERT_TRUE(engine->GetBackupInfo(b, &info, true).ok());
    uint64_t total = 0;
    for (const auto& f : info.file_details) {
      files_of[b].insert(f.relative_filename);
      total += f.size;
    }
    EXPECT_EQ(info.size, total);
    EXPECT_EQ(info.number_files, info.file_details.size());
  }
  EXPECT_EQ(BackupFiles(), ReferencedFiles(engine.get()));
  ASSERT_TRUE(engine->DeleteBackup(2).ok());
  EXPECT_TRUE(engine->DeleteBackup(2).IsNotFound());
  {
    // Deleting the newest makes the one before it the latest.
    ASSERT_TRUE(engine->CreateNewBackup(db_.get()).ok());
    ASSERT_TRUE(engine->DeleteBackup(4).ok());
    BackupInfo latest;
    ASSERT_TRUE(engine->GetLatestBackupInfo(&latest).ok());
    EXPECT_EQ(latest.backup_id, 3u);
  }
  std::set<std::string> want = {"meta/1", "meta/3"};
  want.insert(files_of[1].begin(), files_of[1].end());
  want.insert(files_of[3].begin(), files_of[3].end());
  EXPECT_EQ(BackupFiles(), want);
  // A fresh engine counts the same references.
  engine.reset();
  engine = OpenEngine();
  EXPECT_EQ(BackupFiles(), want);
  ASSERT_TRUE(engine->PurgeOldBackups(1).ok());
  want = files_of[3];
  want.insert("meta/3");
  EXPECT_EQ(BackupFiles(), want);
  const std::string dir = tmp_.path() + "/r";
  ASSERT_TRUE(engine->RestoreDBFromLatestBackup(dir, dir).ok());
  EXPECT_EQ(ReadDb(dir), model);
  ASSERT_TRUE(engine->PurgeOldBackups(0).ok());
  EXPECT_TRUE(BackupFiles().empty());
  BackupInfo info;
  EXPECT_TRUE(engine->GetLatestBackupInfo(&info).IsNotFound());
}

// A backup failing at its k-th write to the backup directory (a crash
// there, then the power lost): never listed unless complete, and its
// leftovers are gone once an engine opens the directory again.
TEST_F(BackupEngineTest, InterruptedBackupIsNeverListedAndIsCleanedUp) {
  options_.disable_auto_compactions = true;
  Open();
  std::mt19937_64 rng(test::RandomSeed());
  Model model;
  WriteRandom(&rng, &model, 500, 5000);
  ASSERT_TRUE(Flush().ok());
  WriteRandom(&rng, &model, 500, 5000);
  ASSERT_TRUE(Flush().ok());
  WriteRandom(&rng, &model, 20, 5000);  // WAL only

  // The backups live in memory behind the fault-injection wrapper (real
  // fsyncs would make the walk slow; durability is the wrapper's model).
  auto mem = NewMemFileSystem();
  // Count the mutating operations of the second backup.
  uint64_t ops = 0;
  {
    auto fs = std::make_shared<FaultInjectionFileSystem>(mem);
    Env env(fs, SystemClock::Default());
    BackupEngineOptions o("/count");
    o.backup_env = &env;
    auto engine = OpenEngine(o);
    ASSERT_TRUE(engine->CreateNewBackup(db_.get()).ok());
    const uint64_t before = fs->mutating_ops();
    ASSERT_TRUE(engine->CreateNewBackup(db_.get()).ok());
    ops = fs->mutating_ops() - before;
  }
  ASSERT_GT(ops, 5u);
  std::printf("%llu mutating operations in a backup\n", static_cast<unsigned long long>(ops));
  int listed = 0;
  // Every failure point when there are few, else an even sample of them
  // (the last one, the meta directory's sync, always).
  const uint64_t step = std::max<uint64_t>(1, ops / 24);
  int iteration = 0;
  for (uint64_t k = 0; k < ops; k = (k + step < ops || k == ops - 1) ? k + step : ops - 1) {
    SCOPED_TRACE("failing mutating op " + std::to_string(k));
    const std::string dir = "/bk" + std::to_string(k);
    auto fs = std::make_shared<FaultInjectionFileSystem>(mem);
    Env env(fs, SystemClock::Default());
    BackupEngineOptions o(dir);
    o.backup_env = &env;
    {
      auto engine = OpenEngine(o);
      ASSERT_TRUE(engine->CreateNewBackup(db_.get()).ok());
      fs->FailAfter(k, FaultMode::kCrash);
      Status s = engine->CreateNewBackup(db_.get());
      EXPECT_FALSE(s.ok());
    }
    ASSERT_TRUE(fs->DropUnsyncedData().ok());
    // After the crash: a fresh engine on the file system the crash left.
    Env after(mem, SystemClock::Default());
    BackupEngineOptions o2(dir);
    o2.backup_env = &after;
    auto engine = OpenEngine(o2);
    std::vector<BackupInfo> infos;
    engine->GetBackupInfo(&infos);
    std::vector<BackupID> corrupt;
    engine->GetCorruptedBackups(&corrupt);
    EXPECT_TRUE(corrupt.empty());
    ASSERT_GE(infos.size(), 1u);
    ASSERT_LE(infos.size(), 2u);
    EXPECT_EQ(infos[0].backup_id, 1u);
    if (infos.size() == 2) {
      // Complete (its meta file was in place): it must restore fully.
      ++listed;
      ASSERT_TRUE(engine->VerifyBackup(2, true).ok());
      const std::string r = tmp_.path() + "/r";
      ASSERT_TRUE(engine->RestoreDBFromBackup(2, r, r).ok());
      EXPECT_EQ(ReadDb(r), model);
    }
    // Nothing but the listed backups' files is left.
    EXPECT_EQ(MemFiles(mem.get(), dir), ReferencedFiles(engine.get()));
    // Backup 1 is intact (restored now and then: restores are the slow
    // part), and the next backup works.
    ASSERT_TRUE(engine->VerifyBackup(1, true).ok());
    if (iteration++ % 6 == 0) {
      const std::string r1 = tmp_.path() + "/r1";
      ASSERT_TRUE(engine->RestoreDBFromBackup(1, r1, r1).ok());
      EXPECT_EQ(ReadDb(r1), model);
    }
    ASSERT_TRUE(engine->CreateNewBackup(db_.get()).ok());
  }
  // Only a failure after the meta directory's sync (none: it is the last
  // operation) could leave a complete backup.
  EXPECT_EQ(listed, 0);
}

TEST_F(BackupEngineTest, DamagedFilesAreNamed) {
  Open();
  for (int i = 0; i < 2000; ++i) ASSERT_TRUE(Put("key" + std::to_string(i), "value").ok());
  ASSERT_TRUE(Flush().ok());
  auto engine = OpenEngine();
  ASSERT_TRUE(engine->CreateNewBackup(db_.get()).ok());
  ASSERT_TRUE(engine->VerifyBackup(1, true).ok());
  std::string shared;
  for (const std::string& f : BackupFiles()) {
    if (f.rfind("shared_checksum/", 0) == 0) shared = f;
  }
  ASSERT_FALSE(shared.empty());
  const std::string path = backup_dir_ + "/" + shared;
  std::string data = test::ReadFileOrDie(path);
  data[data.size() / 2] ^= 0x20;  // same size, one bit off
  test::WriteFileOrDie(path, data);
  EXPECT_TRUE(engine->VerifyBackup(1, false).ok());
  Status s = engine->VerifyBackup(1, true);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(s.ToString().find(shared), std::string::npos) << s.ToString();
  const std::string r = tmp_.path() + "/r";
  s = engine->RestoreDBFromBackup(1, r, r);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(s.ToString().find(shared), std::string::npos) << s.ToString();
  // The failed restore wrote no CURRENT: nothing opens there.
  EXPECT_TRUE(Env::Default()->GetFileSystem()->FileExists(r + "/CURRENT").IsNotFound());
  // A shorter file: size mismatch, even without checksums.
  test::WriteFileOrDie(path, data.substr(0, data.size() - 1));
  s = engine->VerifyBackup(1, false);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(s.ToString().find(shared), std::string::npos);
  // A missing file: the backup is corrupt for a fresh engine.
  ASSERT_TRUE(Env::Default()->GetFileSystem()->DeleteFile(path).ok());
  engine.reset();
  std::unique_ptr<BackupEngineReadOnly> ro;
  ASSERT_TRUE(
      BackupEngineReadOnly::Open(BackupEngineOptions(backup_dir_), Env::Default(), &ro).ok());
  std::vector<BackupID> corrupt;
  ro->GetCorruptedBackups(&corrupt);
  EXPECT_EQ(corrupt, std::vector<BackupID>{1});
  BackupInfo info;
  s = ro->GetBackupInfo(1, &info);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(s.ToString().find(shared), std::string::npos) << s.ToString();
  EXPECT_TRUE(ro->RestoreDBFromLatestBackup(r, r).IsNotFound());
  // A damaged meta file.
  test::WriteFileOrDie(backup_dir_ + "/meta/1", "12\n");
  ASSERT_TRUE(
      BackupEngineReadOnly::Open(BackupEngineOptions(backup_dir_), Env::Default(), &ro).ok());
  s = ro->GetBackupInfo(1, &info);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(s.ToString().find("meta/1"), std::string::npos) << s.ToString();
  EXPECT_TRUE(ro->VerifyBackup(1).IsCorruption());
  // A writable engine deletes a corrupt backup and all its files.
  ro.reset();
  engine = OpenEngine();
  engine->GetCorruptedBackups(&corrupt);
  EXPECT_EQ(corrupt, std::vector<BackupID>{1});
  ASSERT_TRUE(engine->DeleteBackup(1).ok());
  engine->GetCorruptedBackups(&corrupt);
  EXPECT_TRUE(corrupt.empty());
  ASSERT_TRUE(engine->GarbageCollect().ok());
  for (const std::string& f : BackupFiles()) ADD_FAILURE() << "left: " << f;
}

// A backup taken while a writer writes keys in order and compactions run
// restores to a prefix of the writes holding every write acknowledged
// before the backup began.
TEST_F(BackupEngineTest, BackupDuringWritesAndCompactions) {
  Open();
  auto engine = OpenEngine();
  std::atomic<uint64_t> acked{0};
  std::atomic<bool> stop{false};
  std::thread writer([&] {
    const std::string value(200, 'v');
    for (uint64_t i = 0; !stop.load(std::memory_order_relaxed); ++i) {
      char key[32];
      std::snprintf(key, sizeof(key), "w%010llu", static_cast<unsigned long long>(i));
      if (!Put(key, value).ok()) return;
      acked.store(i + 1, std::memory_order_release);
    }
  });
  std::vector<uint64_t> before;
  Status s;
  for (int b = 0; b < 3 && s.ok(); ++b) {
    while (acked.load(std::memory_order_acquire) < static_cast<uint64_t>(3000 * (b + 1))) {
      std::this_thread::yield();
    }
    before.push_back(acked.load(std::memory_order_acquire));
    s = engine->CreateNewBackup(db_.get());
  }
  stop.store(true);
  writer.join();
  ASSERT_TRUE(s.ok()) << s.ToString();
  for (int b = 0; b < 3; ++b) {
    const std::string r = tmp_.path() + "/r" + std::to_string(b);
    ASSERT_TRUE(engine->RestoreDBFromBackup(b + 1, r, r).ok());
    const Model m = ReadDb(r);
    ASSERT_GE(m.size(), before[b]) << "backup " << b + 1;
    // A prefix: the keys are w0 .. w(n-1) with none missing.
    uint64_t i = 0;
    for (const auto& [key, value] : m) {
      char want[32];
      std::snprintf(want, sizeof(want), "w%010llu", static_cast<unsigned long long>(i++));
      ASSERT_EQ(key, want) << "backup " << b + 1;
    }
  }
}

TEST_F(BackupEngineTest, InfoMetadataAndOptions) {
  Open();
  ASSERT_TRUE(Put("a", "1").ok());
  auto engine = OpenEngine();
  int64_t now = 0;
  ASSERT_TRUE(SystemClock::Default()->GetCurrentTime(&now).ok());
  BackupID id = 0;
  ASSERT_TRUE(engine
                  ->CreateNewBackupWithMetadata(CreateBackupOptions(), db_.get(),
                                                std::string("app\0data", 8), &id)
                  .ok());
  BackupInfo info;
  ASSERT_TRUE(engine->GetLatestBackupInfo(&info).ok());
  EXPECT_EQ(info.backup_id, id);
  EXPECT_EQ(info.app_metadata, std::string("app\0data", 8));
  EXPECT_LE(std::abs(info.timestamp - now), 5);
  EXPECT_GT(info.number_files, 0u);
  // The metadata survives a reopen; the meta file is RocksDB's text.
  engine = OpenEngine();
  ASSERT_TRUE(engine->GetBackupInfo(id, &info).ok());
  EXPECT_EQ(info.app_metadata, std::string("app\0data", 8));
  const std::string meta = test::ReadFileOrDie(backup_dir_ + "/meta/1");
  EXPECT_NE(meta.find("\nmetadata 6170700064617461\n"), std::string::npos) << meta;
  EXPECT_TRUE(engine
                  ->CreateNewBackupWithMetadata(CreateBackupOptions(), db_.get(),
                                                std::string(1024 * 1024 + 1, 'x'))
                  .IsInvalidArgument());

  // Options refused or checked.
  std::unique_ptr<BackupEngine> e;
  BackupEngineOptions o(backup_dir_);
  o.backup_rate_limit = 1000;
  Status s = BackupEngine::Open(o, Env::Default(), &e);
  EXPECT_TRUE(s.IsNotSupported());
  EXPECT_NE(s.ToString().find("backup_rate_limit"), std::string::npos);
  o = BackupEngineOptions(backup_dir_);
  o.schema_version = 3;
  EXPECT_TRUE(BackupEngine::Open(o, Env::Default(), &e).IsInvalidArgument());
  o = BackupEngineOptions(backup_dir_);
  o.destroy_old_data = true;
  std::unique_ptr<BackupEngineReadOnly> ro;
  EXPECT_TRUE(BackupEngineReadOnly::Open(o, Env::Default(), &ro).IsInvalidArgument());
  EXPECT_TRUE(
      BackupEngineReadOnly::Open(BackupEngineOptions(tmp_.path() + "/none"), Env::Default(), &ro)
          .IsNotFound());
  // destroy_old_data empties the directory.
  ASSERT_TRUE(BackupEngine::Open(o, Env::Default(), &e).ok());
  std::vector<BackupInfo> infos;
  e->GetBackupInfo(&infos);
  EXPECT_TRUE(infos.empty());
  for (const std::string& f : BackupFiles()) ADD_FAILURE() << "left: " << f;
}

TEST_F(BackupEngineTest, NamingSchemesAndPrivateTables) {
  Open();
  for (int i = 0; i < 1000; ++i) ASSERT_TRUE(Put("key" + std::to_string(i), "v").ok());
  ASSERT_TRUE(Flush().ok());
  const Model model = ReadOpenDb();
  struct Case {
    const char* name;
    bool share;
    bool with_checksum;
    BackupEngineOptions::ShareFilesNaming naming;
    const char* table_prefix;
  };
  const Case cases[] = {
      {"legacy", true, true, BackupEngineOptions::kLegacyCrc32cAndFileSize, "shared_checksum/"},
      {"noshare", false, true, BackupEngineOptions::kUseDbSessionId, "private/1/"},
      {"shared", true, false, BackupEngineOptions::kUseDbSessionId, "shared/"},
      {"nosize", true, true, BackupEngineOptions::kUseDbSessionId, "shared_checksum/"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    BackupEngineOptions o(tmp_.path() + "/" + c.name);
    o.share_table_files = c.share;
    o.share_files_with_checksum = c.with_checksum;
    o.share_files_with_checksum_naming = c.naming;
    auto engine = OpenEngine(o);
    ASSERT_TRUE(engine->CreateNewBackup(db_.get()).ok());
    ASSERT_TRUE(engine->CreateNewBackup(db_.get()).ok());
    BackupInfo info;
    ASSERT_TRUE(engine->GetBackupInfo(1, &info, true).ok());
    int tables = 0;
    for (const auto& f : info.file_details) {
      if (f.file_type != kTableFile) continue;
      ++tables;
      EXPECT_EQ(f.relative_filename.rfind(c.table_prefix, 0), 0u) << f.relative_filename;
      const std::string base = f.relative_filename.substr(f.relative_filename.rfind('/') + 1);
      const size_t underscores = std::count(base.begin(), base.end(), '_');
      if (std::string(c.name) == "legacy") {
        EXPECT_EQ(underscores, 2u) << base;
        EXPECT_EQ(base.find("_s"), std::string::npos) << base;
      } else if (std::string(c.name) == "nosize") {
        EXPECT_EQ(underscores, 1u) << base;
      } else {
        EXPECT_EQ(underscores, 0u) << base;
      }
    }
    EXPECT_GE(tables, 1);
    const std::string r = tmp_.path() + "/r_" + c.name;
    ASSERT_TRUE(engine->RestoreDBFromBackup(2, r, r).ok());
    EXPECT_EQ(ReadDb(r), model);
    ASSERT_TRUE(engine->DeleteBackup(1).ok());
    ASSERT_TRUE(engine->VerifyBackup(2, true).ok());
  }
}

TEST_F(BackupEngineTest, StopBackupLeavesNothingListed) {
  Open();
  for (int i = 0; i < 2000; ++i) ASSERT_TRUE(Put("key" + std::to_string(i), "v").ok());
  ASSERT_TRUE(Flush().ok());
  auto engine = OpenEngine();
  engine->StopBackup();
  Status s = engine->CreateNewBackup(db_.get());
  EXPECT_TRUE(s.IsIncomplete()) << s.ToString();
  // Legacy naming reads each table to name it: stopped there too.
  BackupEngineOptions legacy(tmp_.path() + "/legacy");
  legacy.share_files_with_checksum_naming = BackupEngineOptions::kLegacyCrc32cAndFileSize;
  auto legacy_engine = OpenEngine(legacy);
  ASSERT_TRUE(legacy_engine->CreateNewBackup(db_.get()).ok());
  legacy_engine->StopBackup();
  EXPECT_TRUE(legacy_engine->CreateNewBackup(db_.get()).IsIncomplete());
  // Stopping does not stop verification.
  EXPECT_TRUE(legacy_engine->VerifyBackup(1, true).ok());
  std::vector<BackupInfo> infos;
  engine->GetBackupInfo(&infos);
  EXPECT_TRUE(infos.empty());
  engine = OpenEngine();
  for (const std::string& f : BackupFiles()) ADD_FAILURE() << "left: " << f;
  ASSERT_TRUE(engine->CreateNewBackup(db_.get()).ok());
}

TEST_F(BackupEngineTest, ProgressThreadsAndReadOnlyLimit) {
  Open();
  for (int i = 0; i < 5000; ++i) {
    ASSERT_TRUE(Put("key" + std::to_string(i), std::string(100, 'v')).ok());
  }
  ASSERT_TRUE(Flush().ok());
  BackupEngineOptions o(backup_dir_);
  o.max_background_operations = 3;
  o.callback_trigger_interval_size = 4096;
  auto engine = OpenEngine(o);
  int calls = 0;
  CreateBackupOptions cbo;
  cbo.progress_callback = [&calls] { ++calls; };
  ASSERT_TRUE(engine->CreateNewBackup(cbo, db_.get()).ok());
  BackupInfo info;
  ASSERT_TRUE(engine->GetLatestBackupInfo(&info).ok());
  // One call per 4 KiB copied from files (CURRENT is written, not copied).
  EXPECT_GE(static_cast<uint64_t>(calls), (info.size - 4096 * 8) / 4096);
  EXPECT_LE(static_cast<uint64_t>(calls), info.size / 4096);
  ASSERT_TRUE(Put("later", "x").ok());
  ASSERT_TRUE(engine->CreateNewBackup(db_.get()).ok());
  ASSERT_TRUE(engine->CreateNewBackup(db_.get()).ok());
  // A read-only engine opens only the newest max_valid_backups_to_open.
  BackupEngineOptions ro_opts(backup_dir_);
  ro_opts.max_valid_backups_to_open = 1;
  std::unique_ptr<BackupEngineReadOnly> ro;
  ASSERT_TRUE(BackupEngineReadOnly::Open(ro_opts, Env::Default(), &ro).ok());
  std::vector<BackupInfo> infos;
  ro->GetBackupInfo(&infos);
  ASSERT_EQ(infos.size(), 1u);
  EXPECT_EQ(infos[0].backup_id, 3u);
  const std::string r = tmp_.path() + "/r";
  ASSERT_TRUE(ro->RestoreDBFromLatestBackup(r, r).ok());
  EXPECT_EQ(ReadDb(r), ReadOpenDb());
}

#ifdef __linux__
// decrease_background_thread_cpu_priority: the copies run on threads of
// their own at the lowered priority (nice 19 for kLow); the caller's
// thread keeps its own. Without it (one operation) they run on the
// caller's thread. The progress callback runs on the copying thread.
TEST_F(BackupEngineTest, CopyThreadsLowerTheirCpuPriority) {
  Open();
  for (int i = 0; i < 2000; ++i) {
    ASSERT_TRUE(Put("key" + std::to_string(i), std::string(100, 'v')).ok());
  }
  ASSERT_TRUE(Flush().ok());
  BackupEngineOptions o(backup_dir_);
  o.callback_trigger_interval_size = 1024;
  auto engine = OpenEngine(o);
  const int caller_nice = getpriority(PRIO_PROCESS, 0);
  const std::thread::id caller = std::this_thread::get_id();
  struct Seen {
    std::mutex mu;
    int calls = 0;
    int on_caller = 0;
    std::set<int> nice;
  };
  auto run = [&](bool decrease, Seen* seen) {
    CreateBackupOptions cbo;
    cbo.decrease_background_thread_cpu_priority = decrease;
    cbo.background_thread_cpu_priority = CpuPriority::kLow;
    cbo.progress_callback = [seen, caller] {
      std::lock_guard<std::mutex> g(seen->mu);
      ++seen->calls;
      if (std::this_thread::get_id() == caller) ++seen->on_caller;
      seen->nice.insert(getpriority(PRIO_PROCESS, 0));
    };
    ASSERT_TRUE(engine->CreateNewBackup(cbo, db_.get()).ok());
  };
  Seen lowered;
  run(true, &lowered);
  EXPECT_GT(lowered.calls, 0);
  EXPECT_EQ(lowered.on_caller, 0);
  EXPECT_EQ(lowered.nice, std::set<int>({19}));
  EXPECT_EQ(getpriority(PRIO_PROCESS, 0), caller_nice);
  // A second backup shares the tables: write new ones first.
  for (int i = 0; i < 2000; ++i) {
    ASSERT_TRUE(Put("more" + std::to_string(i), std::string(100, 'w')).ok());
  }
  ASSERT_TRUE(Flush().ok());
  Seen plain;
  run(false, &plain);
  EXPECT_GT(plain.calls, 0);
  EXPECT_EQ(plain.on_caller, plain.calls);
  EXPECT_EQ(plain.nice, std::set<int>({caller_nice}));
  const std::string r = tmp_.path() + "/r";
  ASSERT_TRUE(engine->RestoreDBFromLatestBackup(r, r).ok());
  EXPECT_EQ(ReadDb(r), ReadOpenDb());
}
#endif

TEST_F(BackupEngineTest, RestoreKeepsLogFilesWhenAsked) {
  Open();
  ASSERT_TRUE(Put("a", "1").ok());
  BackupEngineOptions o(backup_dir_);
  o.backup_log_files = false;
  auto engine = OpenEngine(o);
  ASSERT_TRUE(engine->CreateNewBackup(db_.get()).ok());
  BackupInfo info;
  ASSERT_TRUE(engine->GetLatestBackupInfo(&info, true).ok());
  for (const auto& f : info.file_details) EXPECT_NE(f.file_type, kWalFile) << f.relative_filename;
  FileSystem* fs = Env::Default()->GetFileSystem();
  const std::string r = tmp_.path() + "/r";
  ASSERT_TRUE(fs->CreateDirIfMissing(r).ok());
  ASSERT_TRUE(fs->CreateDirIfMissing(r + "/archive").ok());
  test::WriteFileOrDie(r + "/000123.log", "");
  test::WriteFileOrDie(r + "/archive/000124.log", "");
  test::WriteFileOrDie(r + "/000999.sst", "junk");
  ASSERT_TRUE(engine->RestoreDBFromLatestBackup(RestoreOptions(true), r, r).ok());
  EXPECT_TRUE(fs->FileExists(r + "/000123.log").ok());
  EXPECT_TRUE(fs->FileExists(r + "/000124.log").ok());
  EXPECT_TRUE(fs->FileExists(r + "/archive/000124.log").IsNotFound());
  EXPECT_TRUE(fs->FileExists(r + "/000999.sst").IsNotFound());
  EXPECT_TRUE(fs->FileExists(r + "/CURRENT").ok());
  // Without keep_log_files every old file goes.
  ASSERT_TRUE(engine->RestoreDBFromLatestBackup(RestoreOptions(false), r, r).ok());
  EXPECT_TRUE(fs->FileExists(r + "/000123.log").IsNotFound());
  EXPECT_TRUE(fs->FileExists(r + "/000124.log").IsNotFound());
}

// DBOptions::wal_dir (issue 19, "paths"): the WALs are backed up from
// wal_dir and restored into the wal_dir given to the restore.
TEST_F(BackupEngineTest, WalsFromAndToWalDir) {
  Options o = options_;
  o.wal_dir = tmp_.path() + "/wals";
  Open(o);
  Model model;
  for (int i = 0; i < 200; ++i) {
    const std::string k = "k" + std::to_string(i);
    ASSERT_TRUE(Put(k, "v" + std::to_string(i)).ok());
    model[k] = "v" + std::to_string(i);
  }
  auto engine = OpenEngine();
  ASSERT_TRUE(engine->CreateNewBackup(db_.get(), /*flush_before_backup=*/false).ok());
  Close();
  const std::string r = tmp_.path() + "/r";
  const std::string rw = tmp_.path() + "/rwals";
  ASSERT_TRUE(engine->RestoreDBFromLatestBackup(r, rw).ok());
  FileSystem* fs = Env::Default()->GetFileSystem();
  std::vector<std::string> wals;
  ASSERT_TRUE(fs->GetChildren(rw, &wals).ok());
  EXPECT_EQ(1, std::count_if(wals.begin(), wals.end(), [](const std::string& n) {
              return n.size() > 4 && n.compare(n.size() - 4, 4, ".log") == 0;
            }));
  Options ro;
  ro.wal_dir = rw;
  std::unique_ptr<DB> db;
  ASSERT_TRUE(DB::Open(ro, r, &db).ok());
  Model got;
  std::unique_ptr<Iterator> it = db->NewIterator(ReadOptions());
  for (it->SeekToFirst(); it->Valid(); it->Next())
    got[it->key().ToString()] = it->value().ToString();
  EXPECT_EQ(model, got);
}

TEST_F(BackupEngineTest, GarbageCollectRemovesOnlyGarbage) {
  Open();
  for (int i = 0; i < 1000; ++i) ASSERT_TRUE(Put("key" + std::to_string(i), "v").ok());
  ASSERT_TRUE(Flush().ok());
  auto engine = OpenEngine();
  ASSERT_TRUE(engine->CreateNewBackup(db_.get()).ok());
  const std::set<std::string> good = BackupFiles();
  FileSystem* fs = Env::Default()->GetFileSystem();
  ASSERT_TRUE(fs->CreateDirIfMissing(backup_dir_ + "/private/7").ok());
  ASSERT_TRUE(fs->CreateDirIfMissing(backup_dir_ + "/private/2.tmp").ok());
  test::WriteFileOrDie(backup_dir_ + "/private/7/CURRENT", "x");
  test::WriteFileOrDie(backup_dir_ + "/private/2.tmp/MANIFEST-000001", "x");
  test::WriteFileOrDie(backup_dir_ + "/shared_checksum/000099_sX_1.sst", "x");
  test::WriteFileOrDie(backup_dir_ + "/shared_checksum/.000098_sX_1.sst.tmp", "x");
  test::WriteFileOrDie(backup_dir_ + "/meta/.2.tmp", "x");
  ASSERT_TRUE(engine->GarbageCollect().ok());
  EXPECT_EQ(BackupFiles(), good);
  EXPECT_TRUE(fs->FileExists(backup_dir_ + "/private/7").IsNotFound());
  ASSERT_TRUE(engine->VerifyBackup(1, true).ok());
  // Opening a writable engine collects too.
  test::WriteFileOrDie(backup_dir_ + "/shared_checksum/000099_sX_1.sst", "x");
  engine = OpenEngine();
  EXPECT_EQ(BackupFiles(), good);
  // A read-only engine never deletes.
  test::WriteFileOrDie(backup_dir_ + "/shared_checksum/000099_sX_1.sst", "x");
  engine.reset();
  std::unique_ptr<BackupEngineReadOnly> ro;
  ASSERT_TRUE(
      BackupEngineReadOnly::Open(BackupEngineOptions(backup_dir_), Env::Default(), &ro).ok());
  EXPECT_TRUE(fs->FileExists(backup_dir_ + "/shared_checksum/000099_sX_1.sst").ok());
}

TEST_F(BackupEngineTest, OperationsFromSeveralThreads) {
  Open();
  for (int i = 0; i < 500; ++i) ASSERT_TRUE(Put("key" + std::to_string(i), "v").ok());
  auto engine = OpenEngine();
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < 3; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 3; ++i) {
        if (!Put("t" + std::to_string(t) + "_" + std::to_string(i), "v").ok()) ++failures;
        if (!engine->CreateNewBackup(db_.get()).ok()) ++failures;
        std::vector<BackupInfo> infos;
        engine->GetBackupInfo(&infos);
        if (infos.empty()) ++failures;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
  std::vector<BackupInfo> infos;
  engine->GetBackupInfo(&infos);
  ASSERT_EQ(infos.size(), 9u);
  for (size_t i = 0; i < infos.size(); ++i) EXPECT_EQ(infos[i].backup_id, i + 1);
  EXPECT_EQ(BackupFiles(), ReferencedFiles(engine.get()));
  const std::string r = tmp_.path() + "/r";
  ASSERT_TRUE(engine->RestoreDBFromLatestBackup(r, r).ok());
  EXPECT_EQ(ReadDb(r), ReadOpenDb());
}

}  // namespace
}  // namespace strata
