// compat/backup_engine.cc: rocksdb::BackupEngine over strata::BackupEngine.
#include "rocksdb/utilities/backup_engine.h"

#include <cinttypes>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace rocksdb {

BackupEngineReadOnlyBase::~BackupEngineReadOnlyBase() = default;

namespace {
// Strata's info as RocksDB's (env_for_open stays null).
void ToRocksDB(::strata::BackupInfo&& from, BackupInfo* to) {
  static_cast<::strata::BackupInfo&>(*to) = std::move(from);
  to->env_for_open.reset();
}
}  // namespace

Status BackupEngineReadOnlyBase::GetLatestBackupInfo(BackupInfo* info, bool details) const {
  ::strata::BackupInfo got;
  Status s = reader_->GetLatestBackupInfo(&got, details);
  if (s.ok()) ToRocksDB(std::move(got), info);
  return s;
}
Status BackupEngineReadOnlyBase::GetBackupInfo(BackupID id, BackupInfo* info, bool details) const {
  ::strata::BackupInfo got;
  Status s = reader_->GetBackupInfo(id, &got, details);
  if (s.ok()) ToRocksDB(std::move(got), info);
  return s;
}
void BackupEngineReadOnlyBase::GetBackupInfo(std::vector<BackupInfo>* infos, bool details) const {
  std::vector<::strata::BackupInfo> got;
  reader_->GetBackupInfo(&got, details);
  infos->clear();
  infos->resize(got.size());
  for (size_t i = 0; i < got.size(); ++i) ToRocksDB(std::move(got[i]), &(*infos)[i]);
}
void BackupEngineReadOnlyBase::GetCorruptedBackups(std::vector<BackupID>* ids) const {
  reader_->GetCorruptedBackups(ids);
}
IOStatus BackupEngineReadOnlyBase::RestoreDBFromBackup(const RestoreOptions& options, BackupID id,
                                                       const std::string& db_dir,
                                                       const std::string& wal_dir) const {
  return reader_->RestoreDBFromBackup(options, id, db_dir, wal_dir);
}
IOStatus BackupEngineReadOnlyBase::RestoreDBFromLatestBackup(const RestoreOptions& options,
                                                             const std::string& db_dir,
                                                             const std::string& wal_dir) const {
  return reader_->RestoreDBFromLatestBackup(options, db_dir, wal_dir);
}
IOStatus BackupEngineReadOnlyBase::VerifyBackup(BackupID id, bool verify_with_checksum) const {
  return reader_->VerifyBackup(id, verify_with_checksum);
}

BackupEngine::BackupEngine(std::unique_ptr<::strata::BackupEngine> impl)
    : BackupEngineReadOnlyBase(impl.get()),
      BackupEngineAppendOnlyBase(impl.get()),
      impl_(std::move(impl)) {}
BackupEngine::~BackupEngine() = default;

::strata::BackupEngineOptions BackupEngineOptions::ToStrata() const {
  ::strata::BackupEngineOptions o = *this;
  o.backup_env = backup_env != nullptr ? backup_env->GetStrataEnv() : nullptr;
  o.share_files_with_checksum_naming = static_cast<::strata::BackupEngineOptions::ShareFilesNaming>(
      static_cast<uint32_t>(share_files_with_checksum_naming));
  return o;
}

void BackupEngineOptions::Dump(Logger* logger) const {
  if (logger == nullptr) return;
  Info(logger, "BackupEngineOptions.backup_dir: %s", backup_dir.c_str());
  Info(logger, "BackupEngineOptions.backup_env: %p", static_cast<void*>(backup_env));
  Info(logger, "BackupEngineOptions.share_table_files: %d", static_cast<int>(share_table_files));
  Info(logger, "BackupEngineOptions.info_log: %p", static_cast<void*>(info_log));
  Info(logger, "BackupEngineOptions.sync: %d", static_cast<int>(sync));
  Info(logger, "BackupEngineOptions.destroy_old_data: %d", static_cast<int>(destroy_old_data));
  Info(logger, "BackupEngineOptions.backup_log_files: %d", static_cast<int>(backup_log_files));
  Info(logger, "BackupEngineOptions.backup_rate_limit: %" PRIu64, backup_rate_limit);
  Info(logger, "BackupEngineOptions.restore_rate_limit: %" PRIu64, restore_rate_limit);
  Info(logger, "BackupEngineOptions.max_background_operations: %d", max_background_operations);
}

void BackupStatistics::IncrementNumberSuccessBackup() { number_success_backup++; }
void BackupStatistics::IncrementNumberFailBackup() { number_fail_backup++; }
uint32_t BackupStatistics::GetNumberSuccessBackup() const { return number_success_backup; }
uint32_t BackupStatistics::GetNumberFailBackup() const { return number_fail_backup; }
std::string BackupStatistics::ToString() const {
  return "# success backup: " + std::to_string(number_success_backup) +
         ", # fail backup: " + std::to_string(number_fail_backup);
}

namespace {
::strata::Env* EngineEnv(Env* env) {
  return env != nullptr ? env->GetStrataEnv() : ::strata::Env::Default();
}

// The fields of RocksDB types Strata's engine cannot take.
Status CheckUnsupported(const BackupEngineOptions& options) {
  if (options.backup_rate_limiter != nullptr) {
    return Status::NotSupported(
        "BackupEngineOptions::backup_rate_limiter is not supported by Strata: only nullptr is "
        "accepted");
  }
  if (options.restore_rate_limiter != nullptr) {
    return Status::NotSupported(
        "BackupEngineOptions::restore_rate_limiter is not supported by Strata: only nullptr is "
        "accepted");
  }
  return Status::OK();
}
}  // namespace

BackupEngineAppendOnlyBase::~BackupEngineAppendOnlyBase() = default;

IOStatus BackupEngine::Open(const BackupEngineOptions& options, Env* db_env,
                            BackupEngine** backup_engine_ptr) {
  *backup_engine_ptr = nullptr;
  if (Status u = CheckUnsupported(options); !u.ok()) return u;
  std::unique_ptr<::strata::BackupEngine> impl;
  Status s = ::strata::BackupEngine::Open(options.ToStrata(), EngineEnv(db_env), &impl);
  if (s.ok()) *backup_engine_ptr = new BackupEngine(std::move(impl));
  return s;
}

IOStatus BackupEngineAppendOnlyBase::CreateNewBackupWithMetadata(const CreateBackupOptions& options,
                                                                 DB* db,
                                                                 const std::string& app_metadata,
                                                                 BackupID* new_backup_id) {
  return appender_->CreateNewBackupWithMetadata(options, db->GetStrataDB(), app_metadata,
                                                new_backup_id);
}
IOStatus BackupEngineAppendOnlyBase::CreateNewBackupWithMetadata(
    DB* db, const std::string& app_metadata, bool flush_before_backup,
    std::function<void()> progress_callback) {
  CreateBackupOptions options;
  options.flush_before_backup = flush_before_backup;
  options.progress_callback = std::move(progress_callback);
  return CreateNewBackupWithMetadata(options, db, app_metadata);
}
IOStatus BackupEngineAppendOnlyBase::CreateNewBackup(const CreateBackupOptions& options, DB* db,
                                                     BackupID* new_backup_id) {
  return CreateNewBackupWithMetadata(options, db, "", new_backup_id);
}
IOStatus BackupEngineAppendOnlyBase::CreateNewBackup(DB* db, bool flush_before_backup,
                                                     std::function<void()> progress_callback) {
  CreateBackupOptions options;
  options.flush_before_backup = flush_before_backup;
  options.progress_callback = std::move(progress_callback);
  return CreateNewBackup(options, db);
}
void BackupEngineAppendOnlyBase::StopBackup() { appender_->StopBackup(); }
IOStatus BackupEngineAppendOnlyBase::GarbageCollect() { return appender_->GarbageCollect(); }

IOStatus BackupEngine::PurgeOldBackups(uint32_t n) { return impl_->PurgeOldBackups(n); }
IOStatus BackupEngine::DeleteBackup(BackupID id) { return impl_->DeleteBackup(id); }

BackupEngineReadOnly::BackupEngineReadOnly(std::unique_ptr<::strata::BackupEngineReadOnly> impl)
    : BackupEngineReadOnlyBase(impl.get()), impl_(std::move(impl)) {}
BackupEngineReadOnly::~BackupEngineReadOnly() = default;

IOStatus BackupEngineReadOnly::Open(const BackupEngineOptions& options, Env* db_env,
                                    BackupEngineReadOnly** backup_engine_ptr) {
  *backup_engine_ptr = nullptr;
  if (Status u = CheckUnsupported(options); !u.ok()) return u;
  std::unique_ptr<::strata::BackupEngineReadOnly> impl;
  Status s = ::strata::BackupEngineReadOnly::Open(options.ToStrata(), EngineEnv(db_env), &impl);
  if (s.ok()) *backup_engine_ptr = new BackupEngineReadOnly(std::move(impl));
  return s;
}

}  // namespace rocksdb
