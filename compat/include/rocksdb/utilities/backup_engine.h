// rocksdb/utilities/backup_engine.h: incremental backups of a DB into a
// directory, and restores from them. A wrapper over strata::BackupEngine
// taking rocksdb::DB* and rocksdb::Env*; the option and info structs are
// Strata's, which carry RocksDB's field names (BackupEngineOptions is
// Strata's with backup_env a rocksdb::Env*). Calls answer RocksDB's IOStatus
// (rocksdb/io_status.h).
// Thread-safety: as strata::BackupEngine (StopBackup may be called from
// another thread).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/io_status.h"
#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/status.h"
#include "strata/utilities/backup_engine.h"

namespace rocksdb {
// Strata's options with RocksDB's backup_env: the Env the backup directory
// is written through (null: the DB's Env). The base's backup_env is not
// used (ToStrata() fills it in).
struct BackupEngineOptions : ::strata::BackupEngineOptions {
  explicit BackupEngineOptions(const std::string& _backup_dir, Env* _backup_env = nullptr,
                               bool _share_table_files = true, Logger* _info_log = nullptr,
                               bool _sync = true, bool _destroy_old_data = false,
                               bool _backup_log_files = true)
      : ::strata::BackupEngineOptions(_backup_dir, nullptr, _share_table_files, _info_log, _sync,
                                      _destroy_old_data, _backup_log_files),
        backup_env(_backup_env) {}

  Env* backup_env = nullptr;

  // The options Strata's engine takes (backup_env as its strata::Env).
  ::strata::BackupEngineOptions ToStrata() const;
};
using CreateBackupOptions = ::strata::CreateBackupOptions;
using RestoreOptions = ::strata::RestoreOptions;
using BackupID = ::strata::BackupID;
using BackupFileInfo = ::strata::BackupFileInfo;
using BackupInfo = ::strata::BackupInfo;

// Reading and restoring backups.
class BackupEngineReadOnlyBase {
 public:
  virtual ~BackupEngineReadOnlyBase();
  Status GetLatestBackupInfo(BackupInfo* backup_info, bool include_file_details = false) const;
  Status GetBackupInfo(BackupID backup_id, BackupInfo* backup_info,
                       bool include_file_details = false) const;
  void GetBackupInfo(std::vector<BackupInfo>* backup_infos,
                     bool include_file_details = false) const;
  void GetCorruptedBackups(std::vector<BackupID>* corrupt_backup_ids) const;
  IOStatus RestoreDBFromBackup(const RestoreOptions& options, BackupID backup_id,
                               const std::string& db_dir, const std::string& wal_dir) const;
  IOStatus RestoreDBFromBackup(BackupID backup_id, const std::string& db_dir,
                               const std::string& wal_dir,
                               const RestoreOptions& options = RestoreOptions()) const {
    return RestoreDBFromBackup(options, backup_id, db_dir, wal_dir);
  }
  IOStatus RestoreDBFromLatestBackup(const RestoreOptions& options, const std::string& db_dir,
                                     const std::string& wal_dir) const;
  IOStatus RestoreDBFromLatestBackup(const std::string& db_dir, const std::string& wal_dir,
                                     const RestoreOptions& options = RestoreOptions()) const {
    return RestoreDBFromLatestBackup(options, db_dir, wal_dir);
  }
  IOStatus VerifyBackup(BackupID backup_id, bool verify_with_checksum = false) const;

 protected:
  explicit BackupEngineReadOnlyBase(const ::strata::BackupEngineReadOnlyBase* reader)
      : reader_(reader) {}

 private:
  const ::strata::BackupEngineReadOnlyBase* reader_;
};

class BackupEngine : public BackupEngineReadOnlyBase {
 public:
  // On success *backup_engine_ptr is the caller's (delete it).
  static IOStatus Open(const BackupEngineOptions& options, Env* db_env,
                       BackupEngine** backup_engine_ptr);
  static IOStatus Open(Env* db_env, const BackupEngineOptions& options,
                       BackupEngine** backup_engine_ptr) {
    return Open(options, db_env, backup_engine_ptr);
  }
  ~BackupEngine() override;

  IOStatus CreateNewBackupWithMetadata(const CreateBackupOptions& options, DB* db,
                                       const std::string& app_metadata,
                                       BackupID* new_backup_id = nullptr);
  IOStatus CreateNewBackupWithMetadata(DB* db, const std::string& app_metadata,
                                       bool flush_before_backup = false);
  IOStatus CreateNewBackup(const CreateBackupOptions& options, DB* db,
                           BackupID* new_backup_id = nullptr);
  IOStatus CreateNewBackup(DB* db, bool flush_before_backup = false);
  IOStatus PurgeOldBackups(uint32_t num_backups_to_keep);
  IOStatus DeleteBackup(BackupID backup_id);
  void StopBackup();
  IOStatus GarbageCollect();

 private:
  explicit BackupEngine(std::unique_ptr<::strata::BackupEngine> impl);
  std::unique_ptr<::strata::BackupEngine> impl_;
};

class BackupEngineReadOnly : public BackupEngineReadOnlyBase {
 public:
  static IOStatus Open(const BackupEngineOptions& options, Env* db_env,
                       BackupEngineReadOnly** backup_engine_ptr);
  static IOStatus Open(Env* db_env, const BackupEngineOptions& options,
                       BackupEngineReadOnly** backup_engine_ptr) {
    return Open(options, db_env, backup_engine_ptr);
  }
  ~BackupEngineReadOnly() override;

 private:
  explicit BackupEngineReadOnly(std::unique_ptr<::strata::BackupEngineReadOnly> impl);
  std::unique_ptr<::strata::BackupEngineReadOnly> impl_;
};
}  // namespace rocksdb
