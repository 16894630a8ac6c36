// compat/backup_engine.cc: rocksdb::BackupEngine over strata::BackupEngine.
#include "rocksdb/utilities/backup_engine.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace rocksdb {

BackupEngineReadOnlyBase::~BackupEngineReadOnlyBase() = default;

Status BackupEngineReadOnlyBase::GetLatestBackupInfo(BackupInfo* info, bool details) const {
  return reader_->GetLatestBackupInfo(info, details);
}
Status BackupEngineReadOnlyBase::GetBackupInfo(BackupID id, BackupInfo* info, bool details) const {
  return reader_->GetBackupInfo(id, info, details);
}
void BackupEngineReadOnlyBase::GetBackupInfo(std::vector<BackupInfo>* infos, bool details) const {
  reader_->GetBackupInfo(infos, details);
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
    : BackupEngineReadOnlyBase(impl.get()), impl_(std::move(impl)) {}
BackupEngine::~BackupEngine() = default;

::strata::BackupEngineOptions BackupEngineOptions::ToStrata() const {
  ::strata::BackupEngineOptions o = *this;
  o.backup_env = backup_env != nullptr ? backup_env->GetStrataEnv() : nullptr;
  return o;
}

namespace {
::strata::Env* EngineEnv(Env* env) {
  return env != nullptr ? env->GetStrataEnv() : ::strata::Env::Default();
}
}  // namespace

IOStatus BackupEngine::Open(const BackupEngineOptions& options, Env* db_env,
                            BackupEngine** backup_engine_ptr) {
  *backup_engine_ptr = nullptr;
  std::unique_ptr<::strata::BackupEngine> impl;
  Status s = ::strata::BackupEngine::Open(options.ToStrata(), EngineEnv(db_env), &impl);
  if (s.ok()) *backup_engine_ptr = new BackupEngine(std::move(impl));
  return s;
}

IOStatus BackupEngine::CreateNewBackupWithMetadata(const CreateBackupOptions& options, DB* db,
                                                   const std::string& app_metadata,
                                                   BackupID* new_backup_id) {
  return impl_->CreateNewBackupWithMetadata(options, db->GetStrataDB(), app_metadata,
                                            new_backup_id);
}
IOStatus BackupEngine::CreateNewBackupWithMetadata(DB* db, const std::string& app_metadata,
                                                   bool flush_before_backup) {
  CreateBackupOptions options;
  options.flush_before_backup = flush_before_backup;
  return CreateNewBackupWithMetadata(options, db, app_metadata);
}
IOStatus BackupEngine::CreateNewBackup(const CreateBackupOptions& options, DB* db,
                                       BackupID* new_backup_id) {
  return CreateNewBackupWithMetadata(options, db, "", new_backup_id);
}
IOStatus BackupEngine::CreateNewBackup(DB* db, bool flush_before_backup) {
  CreateBackupOptions options;
  options.flush_before_backup = flush_before_backup;
  return CreateNewBackup(options, db);
}
IOStatus BackupEngine::PurgeOldBackups(uint32_t n) { return impl_->PurgeOldBackups(n); }
IOStatus BackupEngine::DeleteBackup(BackupID id) { return impl_->DeleteBackup(id); }
void BackupEngine::StopBackup() { impl_->StopBackup(); }
IOStatus BackupEngine::GarbageCollect() { return impl_->GarbageCollect(); }

BackupEngineReadOnly::BackupEngineReadOnly(std::unique_ptr<::strata::BackupEngineReadOnly> impl)
    : BackupEngineReadOnlyBase(impl.get()), impl_(std::move(impl)) {}
BackupEngineReadOnly::~BackupEngineReadOnly() = default;

IOStatus BackupEngineReadOnly::Open(const BackupEngineOptions& options, Env* db_env,
                                    BackupEngineReadOnly** backup_engine_ptr) {
  *backup_engine_ptr = nullptr;
  std::unique_ptr<::strata::BackupEngineReadOnly> impl;
  Status s = ::strata::BackupEngineReadOnly::Open(options.ToStrata(), EngineEnv(db_env), &impl);
  if (s.ok()) *backup_engine_ptr = new BackupEngineReadOnly(std::move(impl));
  return s;
}

}  // namespace rocksdb
