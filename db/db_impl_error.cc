// DBImpl: background errors, DB::Resume and the automatic recovery thread,
// and DB::VerifyChecksum.
//
// A failed WAL append or sync, memtable insert, flush, MANIFEST write or
// (with paranoid_checks) compaction becomes the sticky background error
// (a compaction's NoSpace excepted: RecordCompactionNoSpace):
// writes fail with it, reads keep working. Resume makes the state on disk
// whole again before it lets writes in: a new WAL (the old one may end in a
// torn record), every memtable flushed into tables (so no older WAL is
// needed), and a MANIFEST written (a new one, with a full snapshot, when a
// MANIFEST write failed). Corruption is not resumable: the data it came from
// is damaged, and only a reopen (after repair) can go on.
#include <algorithm>
#include <cinttypes>

#include "db/db_impl.h"
#include "db/filename.h"
#include "env/sst_file_manager_impl.h"
#include "util/stop_watch.h"
#include "util/sync_point.h"

namespace strata {

void DBImpl::RecordBackgroundError(const Status& s, BgErrorReason reason) {
  mu_.AssertHeld();
  if (s.ok() || s.IsShutdownInProgress()) return;
  static const char* const kReason[] = {"WAL write",  "memtable insert", "flush",
                                        "compaction", "MANIFEST write",  "new WAL"};
  const char* what = kReason[static_cast<int>(reason)];
  if (reason == BgErrorReason::kCompaction && !options_.paranoid_checks) {
    // RocksDB's rule: without paranoid checks a failed compaction does not
    // stop writes; it is retried later.
    last_compaction_error_ = s;
    Log(InfoLogLevel::kError, info_log_.get(), "%s failed (not sticky: paranoid_checks off): %s",
        what, s.ToString().c_str());
    return;
  }
  if (reason == BgErrorReason::kCompaction && s.IsNoSpace()) {
    RecordCompactionNoSpace(s);
    return;
  }
  Status bg = s;
  // Automatic resume: a full disk (NoSpace), and -- as RocksDB's
  // SstFileManager recovers it -- the manager's space limit.
  const bool space_limit = bg.IsIOError() && bg.subcode() == Status::kSpaceLimit;
  bool auto_recovery =
      (bg.IsNoSpace() || (space_limit && sfm_ != nullptr)) && options_.max_bgerror_resume_count > 0;
  if (!options_.listeners.empty()) {
    static const BackgroundErrorReason kApiReason[] = {
        BackgroundErrorReason::kWriteCallback, BackgroundErrorReason::kMemTable,
        BackgroundErrorReason::kFlush,         BackgroundErrorReason::kCompaction,
        BackgroundErrorReason::kManifestWrite, BackgroundErrorReason::kMemTable};
    const BackgroundErrorReason api_reason = kApiReason[static_cast<int>(reason)];
    // Released around the callbacks (RocksDB does the same); every caller
    // is at a point where the mutex may be dropped.
    mu_.Unlock();
    for (const auto& l : options_.listeners) {
      l->OnBackgroundError(api_reason, &bg);
      if (auto_recovery && !bg.ok()) l->OnErrorRecoveryBegin(api_reason, bg, &auto_recovery);
    }
    mu_.Lock();
    if (bg.ok()) {
      Log(InfoLogLevel::kWarn, info_log_.get(), "%s failed, error suppressed by a listener: %s",
          what, s.ToString().c_str());
      return;
    }
    if (shutting_down_.load(std::memory_order_acquire)) auto_recovery = false;
  }
  ++bg_errors_;
  RecordTick(stats_, ERROR_HANDLER_BG_ERROR_COUNT);
  if (bg.IsIOError() || bg.IsNoSpace()) RecordTick(stats_, ERROR_HANDLER_BG_IO_ERROR_COUNT);
  if (bg.IsNoSpace()) RecordTick(stats_, ERROR_HANDLER_BG_RETRYABLE_IO_ERROR_COUNT);
  const bool unrecoverable = bg.IsCorruption();
  if (!bg_error_.ok() && (bg_error_unrecoverable_ || !unrecoverable)) {
    Log(InfoLogLevel::kError, info_log_.get(), "%s failed while in background error: %s", what,
        bg.ToString().c_str());
    return;
  }
  bg_error_ = bg;
  bg_error_unrecoverable_ = unrecoverable;
  has_bg_error_.store(true, std::memory_order_release);
  Log(InfoLogLevel::kError, info_log_.get(), "background error (%s, %s): %s; writes stop", what,
      unrecoverable ? "unrecoverable" : "resumable", bg.ToString().c_str());
  bg_cv_.SignalAll();
  if (auto_recovery) StartAutoRecoveryLocked();
}

void DBImpl::StartAutoRecoveryLocked() {
  mu_.AssertHeld();
  if (auto_recovery_running_ || shutting_down_.load(std::memory_order_acquire)) return;
  // A finished earlier thread is joined first (it has left the loop and
  // only returns; it needs no lock to do so).
  if (recovery_thread_.joinable()) recovery_thread_.join();
  TEST_SYNC_POINT("DBImpl::RecordBackgroundError:StartAutoRecovery");
  auto_recovery_running_ = true;
  RecordTick(stats_, ERROR_HANDLER_AUTORESUME_COUNT);
  recovery_thread_ = std::thread([this]() { AutoRecoveryLoop(); });
}

void DBImpl::RecordCompactionNoSpace(const Status& s) {
  mu_.AssertHeld();
  Status bg = s;
  bool auto_recovery = options_.max_bgerror_resume_count > 0;
  if (!options_.listeners.empty()) {
    mu_.Unlock();
    for (const auto& l : options_.listeners) {
      l->OnBackgroundError(BackgroundErrorReason::kCompaction, &bg);
      if (auto_recovery && !bg.ok()) {
        l->OnErrorRecoveryBegin(BackgroundErrorReason::kCompaction, bg, &auto_recovery);
      }
    }
    mu_.Lock();
    if (bg.ok()) {
      Log(InfoLogLevel::kWarn, info_log_.get(),
          "compaction failed, error suppressed by a listener: %s", s.ToString().c_str());
      if (soft_bg_error_.ok()) soft_error_space_trigger_ = 0;
      return;
    }
    if (shutting_down_.load(std::memory_order_acquire)) auto_recovery = false;
  }
  ++bg_errors_;
  RecordTick(stats_, ERROR_HANDLER_BG_ERROR_COUNT);
  RecordTick(stats_, ERROR_HANDLER_BG_IO_ERROR_COUNT);
  RecordTick(stats_, ERROR_HANDLER_BG_RETRYABLE_IO_ERROR_COUNT);
  if (!bg_error_.ok()) {
    Log(InfoLogLevel::kError, info_log_.get(), "compaction failed while in background error: %s",
        bg.ToString().c_str());
    return;
  }
  const bool first = soft_bg_error_.ok();
  soft_bg_error_ = bg;
  if (first) {
    Log(InfoLogLevel::kError, info_log_.get(),
        "compaction out of space (soft error): writes and flushes go on; compactions start only "
        "with free space for them: %s",
        bg.ToString().c_str());
  }
  bg_cv_.SignalAll();
  if (auto_recovery) StartAutoRecoveryLocked();
}

void DBImpl::ClearSoftErrorLocked(const char* why) {
  mu_.AssertHeld();
  if (soft_bg_error_.ok()) return;
  const Status old_error = soft_bg_error_;
  soft_bg_error_ = Status::OK();
  soft_error_space_trigger_ = 0;
  Log(info_log_.get(), "compaction space error cleared (%s; was: %s)", why,
      old_error.ToString().c_str());
  MaybeScheduleFlushOrCompaction();
  bg_cv_.SignalAll();
  if (!options_.listeners.empty()) {
    BackgroundErrorRecoveryInfo info;
    info.old_bg_error = old_error;
    info.new_bg_error = Status::OK();
    mu_.Unlock();
    for (const auto& l : options_.listeners) l->OnErrorRecoveryEnd(info);
    mu_.Lock();
  }
}

Status DBImpl::Resume() {
  if (read_only()) return ReadOnlyError();
  MutexLock l(&mu_);
  if (closed_) return Status::ShutdownInProgress("Resume on a closed database");
  return ResumeImpl();
}

Status DBImpl::ResumeImpl() {
  mu_.AssertHeld();
  // One recovery at a time; a caller arriving meanwhile gets its outcome.
  while (recovery_in_progress_) bg_cv_.Wait();
  if (bg_error_.ok()) {
    // A compaction's NoSpace alone (RocksDB's soft error): nothing to
    // rebuild; compactions go on (and check their room again on failure).
    ClearSoftErrorLocked("Resume");
    return Status::OK();
  }
  if (bg_error_unrecoverable_) return bg_error_;
  if (shutting_down_.load(std::memory_order_acquire)) {
    return Status::ShutdownInProgress("Resume during close");
  }
  // The SstFileManager's space limit: resumable once the tables fit under
  // it again (files deleted, or the limit raised).
  if (bg_error_.IsIOError() && bg_error_.subcode() == Status::kSpaceLimit && sfm_ != nullptr &&
      sfm_->IsMaxAllowedSpaceReached()) {
    return bg_error_;
  }
  recovery_in_progress_ = true;
  // Jobs still running finish first (none start while the error is set).
  while (flush_scheduled_ || compactions_scheduled_ > 0 || BottomCompactionsScheduled() > 0) {
    bg_cv_.TimedWaitMicros(10000);
  }
  Log(info_log_.get(), "resuming after background error: %s", bg_error_.ToString().c_str());

  Status s;
  {
    mu_.Unlock();
    // 1. A new WAL, with every family that holds data switched to a new
    //    memtable: nothing is appended after a possibly torn record.
    s = RunExclusive([this]() {
      std::vector<ColumnFamilyData*> families;
      for (ColumnFamilyData* cfd : versions_->column_families()->live()) {
        if (cfd->leader_mem() != nullptr && cfd->leader_mem()->num_entries() > 0)
          families.push_back(cfd);
      }
      return SwitchMemtables(families);
    });
    mu_.Lock();
  }
  // 2. Every immutable memtable into tables (this thread is the only
  //    flusher: nothing is scheduled while the error is set).
  bool flushed = true;
  while (s.ok() && flushed) {
    if (shutting_down_.load(std::memory_order_acquire)) {
      s = Status::ShutdownInProgress("Resume during close");
      break;
    }
    s = BackgroundFlush(&flushed);
  }
  if (s.ok()) {
    for (const ColumnFamilyData* cfd : versions_->column_families()->live()) {
      if (!cfd->imm().empty()) s = Status::Incomplete("Resume: a memtable is still unflushed");
    }
  }
  // 3. A MANIFEST that surely matches memory (when the last write of one
  //    failed and no flush wrote a new one above).
  if (s.ok() && versions_->manifest_write_failed()) {
    VersionEdit edit;
    s = versions_->LogAndApply(default_cfd_, &edit, &mu_);
  }
  if (s.ok()) {
    // 4. WALs whose data is all in tables now need no sync (the torn one
    //    among them); only the write leader may touch them.
    mu_.Unlock();
    s = RunExclusive([this]() {
      uint64_t min_log;
      {
        MutexLock l(&mu_);
        min_log = MinLogNumberInUse();
      }
      for (auto it = old_logs_.begin(); it != old_logs_.end();) {
        if ((*it)->log_number() < min_log) {
          (*it)->Close().PermitUncheckedError();
          it = old_logs_.erase(it);
        } else {
          ++it;
        }
      }
      return Status::OK();
    });
    mu_.Lock();
  }
  recovery_in_progress_ = false;
  const Status old_error = bg_error_;
  if (s.ok()) {
    Log(info_log_.get(), "resumed: writes accepted again (was: %s)", bg_error_.ToString().c_str());
    bg_error_ = Status::OK();
    bg_error_unrecoverable_ = false;
    has_bg_error_.store(false, std::memory_order_release);
    ++bg_error_resumes_;
    soft_bg_error_ = Status::OK();
    soft_error_space_trigger_ = 0;
    DeleteObsoleteFiles();
    MaybeScheduleFlushOrCompaction();
  } else {
    Log(InfoLogLevel::kError, info_log_.get(), "resume failed: %s", s.ToString().c_str());
    // A failure of the recovery's own writes is the error now if it is
    // worse (Corruption); otherwise the original error stays.
    if (s.IsCorruption() && !bg_error_unrecoverable_) {
      bg_error_ = s;
      bg_error_unrecoverable_ = true;
    }
  }
  bg_cv_.SignalAll();
  if (!options_.listeners.empty()) {
    BackgroundErrorRecoveryInfo info;
    info.old_bg_error = old_error;
    info.new_bg_error = bg_error_;
    // Released around the callbacks; Resume's callers re-check state after.
    mu_.Unlock();
    for (const auto& l : options_.listeners) l->OnErrorRecoveryEnd(info);
    mu_.Lock();
  }
  return s;
}

uint64_t DBImpl::ReservedDiskBuffer() {
  mu_.AssertHeld();
  uint64_t reserved = 0;
  for (const auto& cfd : versions_->column_families()->live()) {
    const Options& o = cfd->options();
    reserved += static_cast<uint64_t>(o.write_buffer_size) *
                static_cast<uint64_t>(std::max(1, o.max_write_buffer_number));
  }
  return reserved;
}

bool DBImpl::FreeSpaceForRecovery() {
  mu_.AssertHeld();
  // RocksDB's reserved disk buffer: what every family's memtables may hold.
  const uint64_t reserved = ReservedDiskBuffer();
  uint64_t free_bytes = 0;
  // Released: statvfs is a system call on the file system.
  mu_.Unlock();
  Status s = fs_->GetFreeSpace(dbname_, &free_bytes);
  mu_.Lock();
  // A file system that cannot tell gets its attempt.
  if (!s.ok() || free_bytes >= reserved) return true;
  Log(InfoLogLevel::kWarn, info_log_.get(),
      "automatic resume waits: %" PRIu64 " bytes free, %" PRIu64 " needed for the memtables",
      free_bytes, reserved);
  return false;
}

bool DBImpl::SoftErrorSpaceFree() {
  mu_.AssertHeld();
  bool cannot_tell = false;
  const uint64_t free_bytes = FreeBytesFor(default_cfd_, 0, &cannot_tell);
  if (cannot_tell || free_bytes >= soft_error_space_trigger_) return true;
  Log(InfoLogLevel::kWarn, info_log_.get(),
      "compaction space error stays: %" PRIu64 " bytes free, %" PRIu64 " needed", free_bytes,
      soft_error_space_trigger_);
  return false;
}

void DBImpl::AutoRecoveryLoop() {
  MutexLock l(&mu_);
  const uint64_t interval = options_.bgerror_resume_retry_interval;
  int attempts = 0;
  while (!shutting_down_.load(std::memory_order_acquire) &&
         (!bg_error_.ok() || !soft_bg_error_.ok()) && !bg_error_unrecoverable_ &&
         attempts < options_.max_bgerror_resume_count) {
    // Waits the interval (Close cuts it short: it signals bg_cv_).
    TEST_SYNC_POINT("DBImpl::AutoRecoveryLoop:BeforeWait");
    const uint64_t deadline = clock_->NowMicros() + interval;
    while (!shutting_down_.load(std::memory_order_acquire)) {
      const uint64_t now = clock_->NowMicros();
      if (now >= deadline) break;
      bg_cv_.TimedWaitMicros(std::min<uint64_t>(deadline - now, 100000));
    }
    if (shutting_down_.load(std::memory_order_acquire)) break;
    if (bg_error_.ok()) {
      if (soft_bg_error_.ok()) break;
      // Only a compaction's NoSpace (soft): cleared, with no attempt
      // counted, once the space those compactions needed is free again.
      if (SoftErrorSpaceFree()) {
        ClearSoftErrorLocked("space is free again");
        break;
      }
      continue;
    }
    // A space-limit error cannot clear while the tables still pass the
    // limit: no attempt (none counted) until files go or the limit rises.
    if (bg_error_.IsIOError() && bg_error_.subcode() == Status::kSpaceLimit && sfm_ != nullptr &&
        sfm_->IsMaxAllowedSpaceReached()) {
      continue;
    }
    // A full disk, with an SstFileManager (RocksDB's rule): no attempt until
    // the file system has room for the memtables' worth of data again.
    if (bg_error_.IsNoSpace() && sfm_ != nullptr && !FreeSpaceForRecovery()) continue;
    if (shutting_down_.load(std::memory_order_acquire) || bg_error_.ok()) break;
    ++attempts;
    RecordTick(stats_, ERROR_HANDLER_AUTORESUME_RETRY_TOTAL_COUNT);
    Status s = ResumeImpl();
    TEST_SYNC_POINT_CALLBACK("DBImpl::AutoRecoveryLoop:AfterAttempt", &s);
    if (s.ok()) {
      RecordTick(stats_, ERROR_HANDLER_AUTORESUME_SUCCESS_COUNT);
      RecordInHistogram(stats_, ERROR_HANDLER_AUTORESUME_RETRY_COUNT, attempts);
      Log(info_log_.get(), "automatic resume succeeded after %d attempt(s)", attempts);
      break;
    }
  }
  TEST_SYNC_POINT_CALLBACK("DBImpl::AutoRecoveryLoop:End", &attempts);
  auto_recovery_running_ = false;
  bg_cv_.SignalAll();
}

Status DBImpl::VerifyChecksum(const ReadOptions& /*options*/) {
  // The files of each family's current Version, pinned by a reference.
  struct Pinned {
    ColumnFamilyData* cfd;
    Version* version;
  };
  std::vector<Pinned> pinned;
  {
    MutexLock l(&mu_);
    if (closed_) return Status::ShutdownInProgress("VerifyChecksum on a closed database");
    for (ColumnFamilyData* cfd : versions_->column_families()->live()) {
      cfd->Ref();
      Version* v = cfd->current();
      v->Ref();
      pinned.push_back({cfd, v});
    }
  }
  Status s;
  for (const Pinned& p : pinned) {
    for (int level = 0; s.ok() && level < p.version->num_levels(); ++level) {
      for (const FileMetaData* f : p.version->files(level)) {
        s = p.cfd->table_cache()->VerifyChecksum(
            TableFileMeta{f->number, f->file_size, level, f->largest_seqno, f->path_id});
        if (!s.ok()) break;
        RecordTick(stats_, VERIFY_CHECKSUM_READ_BYTES, f->file_size);
      }
    }
  }
  {
    MutexLock l(&mu_);
    for (const Pinned& p : pinned) {
      p.version->Unref();
      UnrefFamily(p.cfd);
    }
  }
  if (!s.ok()) return s;
  // The WALs still needed, record by record. As the exclusive write leader:
  // no append is half done while they are read (a torn tail would be a
  // false alarm), at the cost of holding writes for the read.
  auto verify_wals = [this]() -> Status {
    uint64_t min_log;
    {
      MutexLock l(&mu_);
      min_log = MinLogNumberInUse();
    }
    std::vector<std::string> children;
    Status ls = fs_->GetChildren(wal_dir_, &children);
    if (!ls.ok()) return ls;
    std::vector<uint64_t> wals;
    for (const std::string& name : children) {
      uint64_t number;
      FileType type;
      if (ParseFileName(name, &number, &type) && type == FileType::kWalFile && number >= min_log) {
        wals.push_back(number);
      }
    }
    std::sort(wals.begin(), wals.end());
    for (uint64_t number : wals) {
      Status ws = VerifyWAL(number);
      if (!ws.ok()) return ws;
    }
    return Status::OK();
  };
  // A read-only instance appends nothing (another process may, but that is
  // the same race as reading a live primary's WAL: a torn tail is no damage).
  return read_only() ? verify_wals() : RunExclusive(verify_wals);
}

}  // namespace strata
