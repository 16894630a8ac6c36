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

// LockWAL takes hold of the write path from inside a write group: the
// leader that runs the function below raises the count, the rest of its
// group is logged, and every later leader waits in WaitWhileWalLocked
// before it collects a group. So once RunExclusive returns, no group is
// using the WAL and none can start: the buffer is written out from here.
Status DBImpl::LockWAL() {
  if (read_only()) return ReadOnlyError();
  {
    MutexLock l(&wal_lock_mu_);
    if (wal_lock_count_ > 0) {
      // Already held (and flushed): one more UnlockWAL is needed.
      ++wal_lock_count_;
      return Status::OK();
    }
  }
  Status s = RunExclusive([this]() -> Status {
    MutexLock l(&wal_lock_mu_);
    ++wal_lock_count_;
    wal_locked_.store(true, std::memory_order_release);
    return Status::OK();
  });
  if (!s.ok()) return s;
  if (options_.manual_wal_flush && log_ != nullptr) {
    Status fs = log_->WriteBuffer();
    if (!fs.ok()) {
      {
        // The file may now end inside a record: nothing more may follow.
        MutexLock l(&mu_);
        RecordBackgroundError(fs, BgErrorReason::kWal);
      }
      // A failed LockWAL leaves nothing locked.
      UnlockWAL().PermitUncheckedError();
      return fs;
    }
  }
  return Status::OK();
}

Status DBImpl::UnlockWAL() {
  if (read_only()) return ReadOnlyError();
  MutexLock l(&wal_lock_mu_);
  if (wal_lock_count_ == 0) return Status::Aborted("No LockWAL() in effect");
  if (--wal_lock_count_ == 0) {
    wal_locked_.store(false, std::memory_order_release);
    wal_lock_cv_.SignalAll();
  }
  return Status::OK();
}

void DBImpl::WaitWhileWalLocked() {
  MutexLock l(&wal_lock_mu_);
  while (wal_lock_count_ > 0) wal_lock_cv_.Wait();
}

void DBImpl::ReleaseWalLocks() {
  MutexLock l(&wal_lock_mu_);
  wal_lock_count_ = 0;
  wal_locked_.store(false, std::memory_order_release);
  wal_lock_cv_.SignalAll();
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
