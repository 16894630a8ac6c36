// BackupEngineImpl: the engine behind BackupEngine and BackupEngineReadOnly
// (include/strata/utilities/backup_engine.h); docs/design/backup.md.
//
// State: the loaded backups (id -> files), the backups whose meta file could
// not be loaded (id -> why), and one record per file of the backup
// directory that some loaded backup names, with the number of backups
// naming it (refs). A file record is shared by the backups naming it, so
// deleting a backup drops one ref of each of its files and deletes the
// files left with none.
//
// Invariants (under mu_):
//  1. Every file a loaded backup names has a record in files_ with refs
//     equal to the number of loaded backups naming it (a backup naming a
//     file twice counts twice, as in RocksDB).
//  2. A backup is in backups_ only once its meta file is in place (or
//     while CreateNewBackup builds it; it is removed if that fails).
//  3. latest_backup_id_ >= every id in backups_ and corrupt_backups_.
//
// Thread-safety: thread-safe; every public operation holds mu_ for its
// whole run, file I/O included (mu_ is the engine's own lock, never a DB's;
// RocksDB lets reads run concurrently, here they run one at a time). The
// copy threads of one operation touch only their work items.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "strata/utilities/backup_engine.h"
#include "util/mutex.h"

namespace strata::backup {

class BackupEngineImpl final : public BackupEngine {
 public:
  BackupEngineImpl(const BackupEngineOptions& options, Env* db_env, bool read_only);
  ~BackupEngineImpl() override;

  // Validates the options, creates the directories (writable engines),
  // loads the meta files and, for a writable engine, collects garbage.
  Status Initialize();

  // BackupEngineReadOnlyBase
  Status GetLatestBackupInfo(BackupInfo* backup_info,
                             bool include_file_details = false) const override;
  Status GetBackupInfo(BackupID backup_id, BackupInfo* backup_info,
                       bool include_file_details = false) const override;
  void GetBackupInfo(std::vector<BackupInfo>* backup_infos,
                     bool include_file_details = false) const override;
  void GetCorruptedBackups(std::vector<BackupID>* corrupt_backup_ids) const override;
  Status RestoreDBFromBackup(const RestoreOptions& options, BackupID backup_id,
                             const std::string& db_dir, const std::string& wal_dir) const override;
  Status RestoreDBFromLatestBackup(const RestoreOptions& options, const std::string& db_dir,
                                   const std::string& wal_dir) const override;
  Status VerifyBackup(BackupID backup_id, bool verify_with_checksum = false) const override;

  // BackupEngineAppendOnlyBase / BackupEngine
  Status CreateNewBackupWithMetadata(const CreateBackupOptions& options, DB* db,
                                     const std::string& app_metadata,
                                     BackupID* new_backup_id = nullptr) override;
  void StopBackup() override;
  Status GarbageCollect() override;
  Status PurgeOldBackups(uint32_t num_backups_to_keep) override;
  Status DeleteBackup(BackupID backup_id) override;

  // A file of the backup directory named by loaded backups.
  struct FileRecord {
    std::string path;  // relative to backup_dir
    uint64_t size = 0;
    bool has_checksum = false;
    uint32_t crc32c = 0;
    int refs = 0;
  };
  struct Backup {
    int64_t timestamp = 0;
    uint64_t sequence_number = 0;
    std::string app_metadata;
    std::vector<std::shared_ptr<FileRecord>> files;
    uint64_t size = 0;
  };
  // One file to copy (or create from contents) and what came of it.
  struct CopyItem {
    std::string src;                   // absolute; empty when contents is used
    std::string contents;              // for CURRENT
    std::string dst;                   // absolute path written
    uint64_t size_limit = UINT64_MAX;  // bytes to copy at most
    bool src_on_db_env = true;
    // Results.
    Status status;
    uint64_t size = 0;
    uint32_t crc32c = 0;
  };

 private:
  std::string Abs(const std::string& rel) const { return options_.backup_dir + "/" + rel; }
  static std::string PrivateDir(BackupID id) { return "private/" + std::to_string(id); }
  std::string MetaFile(BackupID id) const { return Abs("meta/" + std::to_string(id)); }
  std::string MetaTmpFile(BackupID id) const { return Abs("meta/." + std::to_string(id) + ".tmp"); }

  Status GetInfoLocked(BackupID backup_id, BackupInfo* info, bool details) const REQUIRES(mu_);
  void FillInfo(BackupID id, const Backup& b, BackupInfo* info, bool details) const;
  // Loads one meta file into backups_[id] (Corruption/NotSupported: the
  // backup is damaged; other errors: I/O trouble, Open fails).
  Status LoadBackup(BackupID id, const std::unordered_map<std::string, uint64_t>& sizes,
                    std::unique_ptr<Backup>* backup) REQUIRES(mu_);
  // Adds a file to b, sharing and counting its record (invariant 1).
  Status AddFile(Backup* b, const std::string& path, uint64_t size, bool has_checksum,
                 uint32_t crc32c) REQUIRES(mu_);
  Status DeleteBackupNoGC(BackupID id) REQUIRES(mu_);
  Status GarbageCollectLocked() REQUIRES(mu_);
  Status RestoreLocked(const RestoreOptions& options, BackupID backup_id, const std::string& db_dir,
                       const std::string& wal_dir) const REQUIRES(mu_);
  Status CreateBackupLocked(const CreateBackupOptions& options, DB* db,
                            const std::string& app_metadata, BackupID* new_backup_id) REQUIRES(mu_);
  // Sizes of the files directly in dir (absolute path -> size); a missing
  // dir adds nothing.
  Status ChildSizes(const std::string& dir, std::unordered_map<std::string, uint64_t>* sizes) const;
  // Runs the items on up to max_background_operations threads. With cpu
  // below kNormal, always on threads of their own, each lowered to cpu
  // first (the calling thread keeps its priority).
  void RunCopies(std::vector<CopyItem>* items, const std::function<void()>& progress,
                 CpuPriority cpu = CpuPriority::kNormal) const;
  Status CopyOne(CopyItem* item, const std::function<void(uint64_t)>& on_bytes) const;
  // crc32c and length of the first size_limit bytes of path; stoppable:
  // StopBackup interrupts it (a backup's reads, not VerifyBackup's).
  Status ComputeChecksum(FileSystem* fs, const std::string& path, uint64_t size_limit,
                         bool stoppable, uint32_t* crc, uint64_t* size) const;
  Status FsyncDir(const std::string& dir) const;

  // Immutable after Initialize.
  BackupEngineOptions options_;
  Env* const db_env_;
  Env* const backup_env_;
  FileSystem* const db_fs_;
  FileSystem* const backup_fs_;
  const bool read_only_;

  mutable Mutex mu_;
  std::map<BackupID, std::unique_ptr<Backup>> backups_ GUARDED_BY(mu_);
  std::map<BackupID, Status> corrupt_backups_ GUARDED_BY(mu_);
  std::unordered_map<std::string, std::shared_ptr<FileRecord>> files_ GUARDED_BY(mu_);
  BackupID latest_backup_id_ GUARDED_BY(mu_) = 0;
  BackupID latest_valid_backup_id_ GUARDED_BY(mu_) = 0;
  bool might_need_gc_ GUARDED_BY(mu_) = false;

  // Set by StopBackup from any thread, read by the copy loops; sticky as in
  // RocksDB. Relaxed would do (it only makes copies stop early); acquire/
  // release keeps the intent plain.
  std::atomic<bool> stop_backup_{false};
};

}  // namespace strata::backup
