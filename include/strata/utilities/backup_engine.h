// BackupEngine: backups of a live DB into a directory laid out as RocksDB
// 7.8.3's BackupEngine lays it out, so either library restores the other's
// backups (docs/design/backup.md).
//
//   <backup_dir>/meta/<id>           one text file per backup (the list of
//                                    its files with their crc32c); written
//                                    as meta/.<id>.tmp, synced, renamed
//   <backup_dir>/private/<id>/       MANIFEST, CURRENT, OPTIONS, WAL files
//   <backup_dir>/shared_checksum/    table files shared between backups,
//                                    named <number>_s<db_session_id>_<size>.sst
//                                    (or <number>_<crc32c>_<size>.sst)
//   <backup_dir>/shared/             table files when share_table_files but
//                                    not share_files_with_checksum
//
// A backup exists once its meta file does: a backup interrupted before the
// rename leaves only files no meta file names, removed by the next
// CreateNewBackup, DeleteBackup, PurgeOldBackups or GarbageCollect. A table
// file already in the shared directory under the same name is not copied
// again (incremental backups); shared files are reference-counted across
// backups and deleted when no backup names them.
//
// The names, defaults and semantics are RocksDB 7.8.3's
// (rocksdb/utilities/backup_engine.h), with Strata's conventions: Status
// for IOStatus, std::unique_ptr from Open. Left out (not in Strata): the
// rate limiter objects, file temperatures and BackupInfo::env_for_open.
//
// Thread-safety: every method of one engine is thread-safe (operations on
// one engine run one at a time). Two engines open on one backup_dir must
// not write concurrently (as in RocksDB).
#pragma once

#include <climits>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "strata/db.h"
#include "strata/env.h"
#include "strata/export.h"
#include "strata/metadata.h"
#include "strata/status.h"

namespace strata {

// The checksum function BackupEngine names in BackupFileInfo.
constexpr char kBackupFileChecksumFuncName[] = "crc32c";

struct STRATA_EXPORT BackupEngineOptions {
  // Where the backups live. Must differ from the DB's directory. Required.
  std::string backup_dir;

  // Env for the backup directory's I/O; nullptr: the DB's Env (the one
  // passed to Open).
  Env* backup_env = nullptr;

  // Share table files between backups (incremental backups): only new table
  // files are copied. false: each backup copies every file privately.
  bool share_table_files = true;

  // Progress and errors are logged here when not null.
  Logger* info_log = nullptr;

  // Sync every file and directory written, so a backup or restore survives
  // a machine crash once it returned OK.
  bool sync = true;

  // Open deletes every existing backup first.
  bool destroy_old_data = false;

  // Back up the WAL files (trimmed to their synced, valid length); false is
  // for DBs whose WALs outlive their tables (see RestoreOptions).
  bool backup_log_files = true;

  // Bytes per second; 0 = unlimited. Strata has no rate limiter yet: a
  // non-zero value is refused by Open (NotSupported naming the option).
  uint64_t backup_rate_limit = 0;
  uint64_t restore_rate_limit = 0;

  // With share_table_files: name shared table files after their content
  // (shared_checksum/) rather than their number alone (shared/, deprecated
  // in RocksDB: two DBs' or two histories' 000012.sst collide there).
  bool share_files_with_checksum = true;

  // Up to this many threads copy files in CreateNewBackup and restore.
  int max_background_operations = 1;

  // CreateBackupOptions::progress_callback runs after each this many
  // bytes copied.
  uint64_t callback_trigger_interval_size = 4 * 1024 * 1024;

  // BackupEngineReadOnly opens at most this many of the newest valid
  // backups; a writable engine opens all of them (the value is ignored).
  int max_valid_backups_to_open = INT_MAX;

  // How table files are named in shared_checksum/ (RocksDB's values).
  enum ShareFilesNaming : uint32_t {
    // <number>_<crc32c>_<size>.sst: needs the whole file read to name it.
    kLegacyCrc32cAndFileSize = 1U,
    // <number>_s<db_session_id>.sst from the table's properties; tables
    // without a session id fall back to the legacy name.
    kUseDbSessionId = 2U,
    kMaskNoNamingFlags = 0xffffU,
    // Adds _<size> before .sst when the scheme lacks it.
    kFlagIncludeFileSize = 1U << 31,
    kMaskNamingFlags = ~kMaskNoNamingFlags,
  };
  ShareFilesNaming share_files_with_checksum_naming =
      static_cast<ShareFilesNaming>(kUseDbSessionId | kFlagIncludeFileSize);

  // Meta file schema written: 1 (RocksDB's default, readable by every
  // version) or 2 (first line "schema_version 2.0"; RocksDB >= 6.19).
  int schema_version = 1;

  explicit BackupEngineOptions(const std::string& _backup_dir, Env* _backup_env = nullptr,
                               bool _share_table_files = true, Logger* _info_log = nullptr,
                               bool _sync = true, bool _destroy_old_data = false,
                               bool _backup_log_files = true)
      : backup_dir(_backup_dir),
        backup_env(_backup_env),
        share_table_files(_share_table_files),
        info_log(_info_log),
        sync(_sync),
        destroy_old_data(_destroy_old_data),
        backup_log_files(_backup_log_files) {}
};

struct STRATA_EXPORT CreateBackupOptions {
  // Flush the memtables first (otherwise the WALs carry the unflushed
  // writes). Needed when writes skip the WAL.
  bool flush_before_backup = false;
  // Called every callback_trigger_interval_size bytes copied; must not
  // throw.
  std::function<void()> progress_callback = []() {};
  // Copy this backup's files on threads whose CPU priority is lowered to
  // background_thread_cpu_priority (RocksDB's; only a priority below
  // kNormal changes anything: the calling thread is never touched, the
  // copies then run on threads of their own even when
  // max_background_operations is 1).
  bool decrease_background_thread_cpu_priority = false;
  CpuPriority background_thread_cpu_priority = CpuPriority::kNormal;
};

struct STRATA_EXPORT RestoreOptions {
  // Keep the WAL files already in wal_dir (and move archived ones back)
  // instead of deleting them; for backups made with backup_log_files false.
  bool keep_log_files;
  explicit RestoreOptions(bool _keep_log_files = false) : keep_log_files(_keep_log_files) {}
};

using BackupID = uint32_t;
using BackupFileInfo = FileStorageInfo;

struct STRATA_EXPORT BackupInfo {
  BackupID backup_id = 0;
  // Creation time, Unix seconds.
  int64_t timestamp = 0;
  // Bytes of the backed-up files (shared ones included), meta file excluded.
  uint64_t size = 0;
  uint32_t number_files = 0;
  std::string app_metadata;
  // With include_file_details: one entry per file (relative_filename is the
  // path inside backup_dir, directory is <backup_dir>/private/<id>).
  std::vector<BackupFileInfo> file_details;
  // With include_file_details: <backup_dir>/private/<id>.
  std::string name_for_open;

  BackupInfo() = default;
  BackupInfo(BackupID _backup_id, int64_t _timestamp, uint64_t _size, uint32_t _number_files,
             const std::string& _app_metadata)
      : backup_id(_backup_id),
        timestamp(_timestamp),
        size(_size),
        number_files(_number_files),
        app_metadata(_app_metadata) {}
};

// What a read-only and a writable engine both do.
class STRATA_EXPORT BackupEngineReadOnlyBase {
 public:
  virtual ~BackupEngineReadOnlyBase() = default;

  // The newest valid backup; NotFound when there is none.
  virtual Status GetLatestBackupInfo(BackupInfo* backup_info,
                                     bool include_file_details = false) const = 0;
  // NotFound if backup_id does not exist, Corruption (with the reason) if
  // its meta file could not be loaded.
  virtual Status GetBackupInfo(BackupID backup_id, BackupInfo* backup_info,
                               bool include_file_details = false) const = 0;
  // Every valid backup, oldest first.
  virtual void GetBackupInfo(std::vector<BackupInfo>* backup_infos,
                             bool include_file_details = false) const = 0;
  // Backups whose meta file is damaged or names missing files.
  virtual void GetCorruptedBackups(std::vector<BackupID>* corrupt_backup_ids) const = 0;

  // Restores backup_id into db_dir (WAL files into wal_dir): deletes the
  // files there first (WALs kept with keep_log_files), copies every file,
  // checks each one's crc32c against the meta file (Corruption naming the
  // file on a mismatch) and writes CURRENT last, so an interrupted restore
  // leaves a directory no DB opens from.
  virtual Status RestoreDBFromBackup(const RestoreOptions& options, BackupID backup_id,
                                     const std::string& db_dir,
                                     const std::string& wal_dir) const = 0;
  Status RestoreDBFromBackup(BackupID backup_id, const std::string& db_dir,
                             const std::string& wal_dir,
                             const RestoreOptions& options = RestoreOptions()) const {
    return RestoreDBFromBackup(options, backup_id, db_dir, wal_dir);
  }
  virtual Status RestoreDBFromLatestBackup(const RestoreOptions& options, const std::string& db_dir,
                                           const std::string& wal_dir) const = 0;
  Status RestoreDBFromLatestBackup(const std::string& db_dir, const std::string& wal_dir,
                                   const RestoreOptions& options = RestoreOptions()) const {
    return RestoreDBFromLatestBackup(options, db_dir, wal_dir);
  }

  // Checks that every file of the backup exists with its recorded size and,
  // with verify_with_checksum, its recorded crc32c. NotFound / Corruption
  // naming the file otherwise. Reads every byte with verify_with_checksum.
  virtual Status VerifyBackup(BackupID backup_id, bool verify_with_checksum = false) const = 0;
};

// Operations that add to the backup directory.
class STRATA_EXPORT BackupEngineAppendOnlyBase {
 public:
  virtual ~BackupEngineAppendOnlyBase() = default;

  // Backs up db (which must stay open during the call; writes may go on:
  // the backup holds every write acknowledged before the call began) with
  // app_metadata stored in the meta file. *new_backup_id gets the id.
  virtual Status CreateNewBackupWithMetadata(const CreateBackupOptions& options, DB* db,
                                             const std::string& app_metadata,
                                             BackupID* new_backup_id = nullptr) = 0;
  Status CreateNewBackupWithMetadata(DB* db, const std::string& app_metadata,
                                     bool flush_before_backup = false) {
    CreateBackupOptions options;
    options.flush_before_backup = flush_before_backup;
    return CreateNewBackupWithMetadata(options, db, app_metadata);
  }
  virtual Status CreateNewBackup(const CreateBackupOptions& options, DB* db,
                                 BackupID* new_backup_id = nullptr) {
    return CreateNewBackupWithMetadata(options, db, "", new_backup_id);
  }
  Status CreateNewBackup(DB* db, bool flush_before_backup = false) {
    CreateBackupOptions options;
    options.flush_before_backup = flush_before_backup;
    return CreateNewBackup(options, db);
  }

  // Asks a running CreateNewBackup (from another thread) to stop; it returns
  // Incomplete and its leftovers go at the next clean-up.
  virtual void StopBackup() = 0;

  // Deletes files of interrupted backups and deletions: shared files no
  // backup names, private directories of no backup, temporary files.
  virtual Status GarbageCollect() = 0;
};

class STRATA_EXPORT BackupEngine : public BackupEngineReadOnlyBase,
                                   public BackupEngineAppendOnlyBase {
 public:
  ~BackupEngine() override = default;

  // Opens (creating its directories) the backups in options.backup_dir;
  // db_env is the Env of the DBs backed up and restored. Damaged backups
  // do not fail Open: they are listed by GetCorruptedBackups.
  static Status Open(const BackupEngineOptions& options, Env* db_env,
                     std::unique_ptr<BackupEngine>* backup_engine);

  // Deletes the oldest backups until num_backups_to_keep remain.
  virtual Status PurgeOldBackups(uint32_t num_backups_to_keep) = 0;
  // Deletes one backup and the shared files only it named. NotFound if it
  // does not exist.
  virtual Status DeleteBackup(BackupID backup_id) = 0;
};

// An engine that only reads the backup directory (restore, verify, list).
class STRATA_EXPORT BackupEngineReadOnly : public BackupEngineReadOnlyBase {
 public:
  ~BackupEngineReadOnly() override = default;
  // InvalidArgument with destroy_old_data; NotFound when backup_dir/meta is
  // missing.
  static Status Open(const BackupEngineOptions& options, Env* db_env,
                     std::unique_ptr<BackupEngineReadOnly>* backup_engine);
};

}  // namespace strata
