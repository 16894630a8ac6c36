// rocksdb/utilities/backup_engine.h: incremental backups of a DB into a
// directory, and restores from them. A wrapper over strata::BackupEngine
// taking rocksdb::DB* and rocksdb::Env*; the option and info structs are
// Strata's, which carry RocksDB's field names (BackupEngineOptions and
// BackupInfo derive from Strata's, adding the fields that hold RocksDB
// types). Calls answer RocksDB's IOStatus (rocksdb/io_status.h).
//
// Not in Strata: rate limiter objects (backup_rate_limiter /
// restore_rate_limiter non-null are refused by Open, NotSupported naming
// the field, as are the byte-rate fields), file temperatures
// (current_temperatures_override_manifest is advisory: with no
// temperatures there is nothing to override), BackupInfo::env_for_open
// (always null: open a backup by restoring it).
// Thread-safety: as strata::BackupEngine (StopBackup may be called from
// another thread).
#pragma once

#include <climits>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/io_status.h"
#include "rocksdb/rate_limiter.h"
#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/status.h"
#include "strata/utilities/backup_engine.h"

namespace rocksdb {
// The checksum names: of a DB's files (RocksDB's crc32c file checksum
// generator) and of the files in a backup (BackupFileInfo).
constexpr char kDbFileChecksumFuncName[] = "FileChecksumCrc32c";
constexpr char kBackupFileChecksumFuncName[] = "crc32c";
static_assert(sizeof(kBackupFileChecksumFuncName) == sizeof(::strata::kBackupFileChecksumFuncName));

// Strata's options with the fields of RocksDB types: backup_env (the Env
// the backup directory is written through; null: the DB's Env), the rate
// limiters, and share_files_with_checksum_naming as RocksDB's enum (the
// base's backup_env and naming fields are not used: ToStrata() fills them
// in).
struct BackupEngineOptions : ::strata::BackupEngineOptions {
  // How shared table files are named (RocksDB's values, the same as
  // Strata's): see strata::BackupEngineOptions::ShareFilesNaming.
  enum ShareFilesNaming : uint32_t {
    kLegacyCrc32cAndFileSize = 1U,
    kUseDbSessionId = 2U,
    kMaskNoNamingFlags = 0xffffU,
    kFlagIncludeFileSize = 1U << 31,
    kMaskNamingFlags = ~kMaskNoNamingFlags,
  };

  explicit BackupEngineOptions(const std::string& _backup_dir, Env* _backup_env = nullptr,
                               bool _share_table_files = true, Logger* _info_log = nullptr,
                               bool _sync = true, bool _destroy_old_data = false,
                               bool _backup_log_files = true, uint64_t _backup_rate_limit = 0,
                               uint64_t _restore_rate_limit = 0, int _max_background_operations = 1,
                               uint64_t _callback_trigger_interval_size = 4 * 1024 * 1024,
                               int _max_valid_backups_to_open = INT_MAX,
                               ShareFilesNaming _share_files_with_checksum_naming =
                                   static_cast<ShareFilesNaming>(kUseDbSessionId |
                                                                 kFlagIncludeFileSize))
      : ::strata::BackupEngineOptions(_backup_dir, nullptr, _share_table_files, _info_log, _sync,
                                      _destroy_old_data, _backup_log_files),
        backup_env(_backup_env),
        share_files_with_checksum_naming(_share_files_with_checksum_naming) {
    backup_rate_limit = _backup_rate_limit;
    restore_rate_limit = _restore_rate_limit;
    max_background_operations = _max_background_operations;
    callback_trigger_interval_size = _callback_trigger_interval_size;
    max_valid_backups_to_open = _max_valid_backups_to_open;
  }

  Env* backup_env = nullptr;
  // Not in Strata: non-null is refused by Open (NotSupported naming it).
  std::shared_ptr<RateLimiter> backup_rate_limiter{nullptr};
  std::shared_ptr<RateLimiter> restore_rate_limiter{nullptr};
  ShareFilesNaming share_files_with_checksum_naming;
  // Advisory: Strata keeps no file temperatures to override.
  bool current_temperatures_override_manifest = false;

  // Writes the main options to logger (nothing when it is null).
  void Dump(Logger* logger) const;

  // The options Strata's engine takes (backup_env as its strata::Env).
  ::strata::BackupEngineOptions ToStrata() const;
};

inline BackupEngineOptions::ShareFilesNaming operator&(BackupEngineOptions::ShareFilesNaming lhs,
                                                       BackupEngineOptions::ShareFilesNaming rhs) {
  return static_cast<BackupEngineOptions::ShareFilesNaming>(static_cast<uint32_t>(lhs) &
                                                            static_cast<uint32_t>(rhs));
}
inline BackupEngineOptions::ShareFilesNaming operator|(BackupEngineOptions::ShareFilesNaming lhs,
                                                       BackupEngineOptions::ShareFilesNaming rhs) {
  return static_cast<BackupEngineOptions::ShareFilesNaming>(static_cast<uint32_t>(lhs) |
                                                            static_cast<uint32_t>(rhs));
}

using CreateBackupOptions = ::strata::CreateBackupOptions;
using RestoreOptions = ::strata::RestoreOptions;
using BackupID = ::strata::BackupID;
using BackupFileInfo = ::strata::BackupFileInfo;

// Strata's BackupInfo plus RocksDB's env_for_open, which stays null:
// Strata offers no Env that opens a backup in place (restore it instead).
struct BackupInfo : ::strata::BackupInfo {
  std::shared_ptr<Env> env_for_open;

  BackupInfo() {}
  BackupInfo(BackupID _backup_id, int64_t _timestamp, uint64_t _size, uint32_t _number_files,
             const std::string& _app_metadata)
      : ::strata::BackupInfo(_backup_id, _timestamp, _size, _number_files, _app_metadata) {}
};

// Counts of successful and failed backups (RocksDB's plain counter; the
// engine does not fill one).
class BackupStatistics {
 public:
  BackupStatistics() {
    number_success_backup = 0;
    number_fail_backup = 0;
  }
  BackupStatistics(uint32_t _number_success_backup, uint32_t _number_fail_backup)
      : number_success_backup(_number_success_backup), number_fail_backup(_number_fail_backup) {}
  ~BackupStatistics() {}

  void IncrementNumberSuccessBackup();
  void IncrementNumberFailBackup();
  uint32_t GetNumberSuccessBackup() const;
  uint32_t GetNumberFailBackup() const;
  // "# success backup: <n>, # fail backup: <n>"
  std::string ToString() const;

 private:
  uint32_t number_success_backup;
  uint32_t number_fail_backup;
};

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

// Adding backups.
class BackupEngineAppendOnlyBase {
 public:
  virtual ~BackupEngineAppendOnlyBase();
  IOStatus CreateNewBackupWithMetadata(const CreateBackupOptions& options, DB* db,
                                       const std::string& app_metadata,
                                       BackupID* new_backup_id = nullptr);
  IOStatus CreateNewBackupWithMetadata(
      DB* db, const std::string& app_metadata, bool flush_before_backup = false,
      std::function<void()> progress_callback = []() {});
  IOStatus CreateNewBackup(const CreateBackupOptions& options, DB* db,
                           BackupID* new_backup_id = nullptr);
  IOStatus CreateNewBackup(
      DB* db, bool flush_before_backup = false, std::function<void()> progress_callback = []() {});
  // From another thread: the running CreateNewBackup returns Incomplete.
  void StopBackup();
  IOStatus GarbageCollect();

 protected:
  explicit BackupEngineAppendOnlyBase(::strata::BackupEngineAppendOnlyBase* appender)
      : appender_(appender) {}

 private:
  ::strata::BackupEngineAppendOnlyBase* appender_;
};

class BackupEngine : public BackupEngineReadOnlyBase, public BackupEngineAppendOnlyBase {
 public:
  // On success *backup_engine_ptr is the caller's (delete it).
  static IOStatus Open(const BackupEngineOptions& options, Env* db_env,
                       BackupEngine** backup_engine_ptr);
  static IOStatus Open(Env* db_env, const BackupEngineOptions& options,
                       BackupEngine** backup_engine_ptr) {
    return Open(options, db_env, backup_engine_ptr);
  }
  ~BackupEngine() override;

  IOStatus PurgeOldBackups(uint32_t num_backups_to_keep);
  IOStatus DeleteBackup(BackupID backup_id);

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
