// backup: BackupEngine -- two backups of a DB, their infos, verification,
// purging the older one, and a restore opened and read -- through
// RocksDB's C++ interface. Built twice and compared byte for byte.
// Usage: backup DB_DIR
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/options.h"
#include "rocksdb/utilities/backup_engine.h"

namespace rdb = ROCKSDB_NAMESPACE;

static void Check(const rdb::Status& s, const char* what) {
  if (!s.ok()) {
    std::printf("FAILED %s: %s\n", what, s.ToString().c_str());
    std::exit(1);
  }
}

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  const std::string path = argv[1];
  const std::string backup_dir = path + "_backups";
  const std::string restore_dir = path + "_restored";
  rdb::Options options;
  options.create_if_missing = true;
  rdb::DB* db = nullptr;
  Check(rdb::DB::Open(options, path, &db), "open");
  Check(db->Put(rdb::WriteOptions(), "k1", "first"), "put");

  rdb::BackupEngine* backups = nullptr;
  Check(
      rdb::BackupEngine::Open(rdb::Env::Default(), rdb::BackupEngineOptions(backup_dir), &backups),
      "open backup engine");
  Check(backups->CreateNewBackup(db, true), "backup 1");
  Check(db->Put(rdb::WriteOptions(), "k2", "second"), "put");
  Check(backups->CreateNewBackupWithMetadata(db, "meta-2", true), "backup 2");
  Check(db->Put(rdb::WriteOptions(), "k3", "not backed up"), "put");

  std::vector<rdb::BackupInfo> infos;
  backups->GetBackupInfo(&infos);
  std::printf("backups: %zu\n", infos.size());
  for (const auto& info : infos) {
    std::printf("  id %u metadata '%s' files>0 %d size>0 %d\n", info.backup_id,
                info.app_metadata.c_str(), info.number_files > 0 ? 1 : 0, info.size > 0 ? 1 : 0);
    Check(backups->VerifyBackup(info.backup_id), "verify");
  }
  Check(backups->PurgeOldBackups(1), "purge");
  backups->GetBackupInfo(&infos);
  std::printf("after purge: %zu backup(s), latest id %u\n", infos.size(),
              infos.empty() ? 0u : infos.back().backup_id);
  delete backups;
  delete db;

  rdb::BackupEngineReadOnly* reader = nullptr;
  Check(rdb::BackupEngineReadOnly::Open(rdb::Env::Default(), rdb::BackupEngineOptions(backup_dir),
                                        &reader),
        "open read-only");
  Check(reader->RestoreDBFromLatestBackup(restore_dir, restore_dir), "restore");
  delete reader;

  Check(rdb::DB::Open(rdb::Options(), restore_dir, &db), "open restored");
  for (const char* k : {"k1", "k2", "k3"}) {
    std::string v;
    rdb::Status s = db->Get(rdb::ReadOptions(), k, &v);
    std::printf("restored %s: %s\n", k, s.ok() ? v.c_str() : "<none>");
  }
  delete db;
  return 0;
}
