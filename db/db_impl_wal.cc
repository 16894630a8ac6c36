// DBImpl's WAL API for replication and durability control:
// GetSortedWalFiles, GetCurrentWalFile, GetUpdatesSince (through
// db/wal_manager.h and db/transaction_log_impl.h), FlushWAL, and the
// obsolete-WAL path (archive or delete) with the archive's purge.
// docs/design/wal-tailing.md has the design.
#include <cinttypes>

#include "db/db_impl.h"
#include "db/filename.h"

namespace strata {

Status DBImpl::GetSortedWalFiles(VectorLogPtr& files) {
  if (mode_ == OpenMode::kSecondary) return ReadOnlyError();
  return wal_manager_->GetSortedWalFiles(&files);
}

Status DBImpl::GetCurrentWalFile(std::unique_ptr<LogFile>* current_log_file) {
  if (mode_ != OpenMode::kReadWrite) return ReadOnlyError();
  const uint64_t number = current_wal_number_.load(std::memory_order_relaxed);
  uint64_t size = 0;
  // Where it is now: a WAL switch and an archive may have come in between.
  WalFileType type = kAliveLogFile;
  Status s = fs_->GetFileSize(LogFileName(wal_dir_, number), &size);
  if (!s.ok() && wal_manager_->archiving()) {
    type = kArchivedLogFile;
    s = fs_->GetFileSize(ArchivedLogFileName(wal_dir_, number), &size);
  }
  if (!s.ok()) return s;
  // RocksDB reports no start sequence for the current WAL (0).
  *current_log_file = std::make_unique<LogFileImpl>(number, type, 0, size);
  return Status::OK();
}

Status DBImpl::GetUpdatesSince(uint64_t seq, std::unique_ptr<TransactionLogIterator>* iter,
                               const TransactionLogIterator::ReadOptions& read_options) {
  if (mode_ == OpenMode::kSecondary) return ReadOnlyError();
  return wal_manager_->GetUpdatesSince(seq, read_options, &last_sequence_, iter);
}

Status DBImpl::FlushWAL(bool sync) {
  if (read_only()) return ReadOnlyError();
  if (options_.manual_wal_flush) {
    // The WAL belongs to the write leader: the flush runs as one, with no
    // append in flight (a group queued behind it appends after the flush).
    Status s = RunExclusive([this]() -> Status {
      if (log_ == nullptr) return Status::OK();
      Status fs = log_->WriteBuffer();
      if (!fs.ok()) {
        // The file may now end inside a record: nothing more may follow.
        MutexLock l(&mu_);
        RecordBackgroundError(fs, BgErrorReason::kWal);
      }
      return fs;
    });
    if (!s.ok()) return s;
  }
  // SyncWAL writes out the buffer before it syncs.
  return sync ? SyncWAL() : Status::OK();
}

Status DBImpl::RemoveObsoleteWal(uint64_t number) {
  if (wal_manager_ != nullptr && wal_manager_->archiving())
    return wal_manager_->ArchiveWALFile(number);
  return fs_->DeleteFile(LogFileName(wal_dir_, number));
}

void DBImpl::PurgeWalArchive(bool force) {
  if (wal_manager_ == nullptr || !wal_manager_->archiving()) return;
  {
    // Nothing is deleted while file deletions are disabled (a backup may
    // be copying archived WALs); the next purge catches up.
    MutexLock l(&mu_);
    if (disable_delete_obsolete_files_ > 0) return;
  }
  wal_manager_->PurgeObsoleteWALFiles(force);
}

void DBImpl::TEST_PurgeWalArchive() { PurgeWalArchive(/*force=*/true); }

}  // namespace strata
