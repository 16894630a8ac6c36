// DBImpl's background work: scheduling, flushes to level 0 (FlushJob),
// leveled compactions picked or manual (CompactionJob) with their
// statistics (db/internal_stats.h), obsolete files. Memtable switches and
// write stalls, which only the write path triggers, are in db_impl_write.cc.
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <functional>
#include <thread>

#include "db/compaction/compaction_job.h"
#include "db/compaction/compression_for_level.h"
#include "db/db_impl.h"
#include "db/event_helpers.h"
#include "db/filename.h"
#include "db/flush_job.h"
#include "db/level_iterator.h"
#include "env/sst_file_manager_impl.h"
#include "table/compression.h"
#include "table/merging_iterator.h"
#include "util/stop_watch.h"
#include "util/sync_point.h"

namespace strata {

// ---------------------------------------------------------------------------
// SuperVersions

void DBImpl::InstallNewSuperVersion(ColumnFamilyData* cfd) {
  mu_.AssertHeld();
  cfd->InstallSuperVersion();
  bool stall = false;
  StallPressure pressure;
  bool watch_memtables = false;
  for (ColumnFamilyData* c : versions_->column_families()->live()) {
    stall = stall || c->NeedsWriteSlowdown();
    const StallPressure p = WriteStallPressure(c);
    pressure.debt = std::max(pressure.debt, p.debt);
    pressure.hard = std::max(pressure.hard, p.hard);
    // The next switch of this family's memtable would stop writes: its
    // fill is watched from now on (db/write_throttle.h).
    const Options& o = c->options();
    const bool watched =
        static_cast<int>(c->imm().size()) >= std::max(1, o.max_write_buffer_number - 1);
    c->memtable_watched.store(watched, std::memory_order_relaxed);
    watch_memtables = watch_memtables || watched;
  }
  stall_check_needed_.store(stall, std::memory_order_release);
  throttle_.Update(pressure, watch_memtables);
  UpdateWriteStall(cfd);
}

void DBImpl::UpdateWriteStall(ColumnFamilyData* cfd) {
  mu_.AssertHeld();
  StallEntry& e = stall_states_[cfd->id()];
  const WriteStallState cur = ComputeWriteStall(cfd, e.memtable_stop);
  if (cur == e.state) return;
  const uint64_t rate = static_cast<uint64_t>(throttle_.RateFor(throttle_.pressure()));
  const std::string msg = WriteStallChangeMessage(cfd, e.state, cur, rate);
  Log(InfoLogLevel::kWarn, info_log_.get(), "%s", msg.c_str());
  if (cur.condition != e.state.condition && !options_.listeners.empty()) {
    WriteStallInfo info;
    info.cf_name = cfd->name();
    info.condition.cur = cur.condition;
    info.condition.prev = e.state.condition;
    pending_stall_changes_.push_back(std::move(info));
  }
  e.state = cur;
}

void DBImpl::DeliverStallNotifications() {
  std::vector<WriteStallInfo> changes;
  {
    MutexLock l(&mu_);
    changes.swap(pending_stall_changes_);
  }
  for (const WriteStallInfo& info : changes) {
    for (const auto& l : options_.listeners) l->OnStallConditionsChanged(info);
  }
}

// ---------------------------------------------------------------------------
// Scheduling

void DBImpl::MaybeScheduleFlushOrCompaction() {
  mu_.AssertHeld();
  if (read_only()) return;
  if (shutting_down_.load(std::memory_order_acquire) || !bg_error_.ok()) return;
  if (bg_work_paused_ > 0) return;  // PauseBackgroundWork
  const ColumnFamilySet* families = versions_->column_families();
  if (!flush_scheduled_) {
    bool any_imm = false;
    for (const ColumnFamilyData* cfd : families->live()) any_imm = any_imm || !cfd->imm().empty();
    if (any_imm) {
      flush_scheduled_ = true;
      env_->Schedule([this]() { BackgroundCallFlush(); }, Env::Priority::kHigh);
    }
  }
  int running = 0;
  for (const ColumnFamilyData* cfd : families->live()) {
    running += cfd->picker()->running_compactions();
  }
  while (exclusive_manual_compactions_ == 0 && running_ingestions_ == 0 &&
         compactions_scheduled_ < max_compactions_ && compactions_scheduled_ < running + 1 &&
         AnyCompactionNeeded()) {
    ++compactions_scheduled_;
    env_->Schedule([this]() { BackgroundCallCompaction(); }, Env::Priority::kLow);
  }
}

void DBImpl::ScheduleLevelZeroKeyFilters() {
  mu_.AssertHeld();
  if (key_filter_job_scheduled_ || shutting_down_.load(std::memory_order_acquire)) return;
  bool any = false;
  for (ColumnFamilyData* cfd : versions_->column_families()->live()) {
    if (LevelZeroKeyFilterBits(cfd) == 0) continue;
    for (const FileMetaData* f : cfd->current()->files(0)) any = any || f->KeyFilter() == nullptr;
  }
  if (!any) return;
  key_filter_job_scheduled_ = true;
  env_->Schedule([this]() { BackgroundLevelZeroKeyFilters(); }, Env::Priority::kLow);
}

void DBImpl::BackgroundLevelZeroKeyFilters() {
  // The families and their current Versions, referenced so that the files
  // stay live while the job reads them without the mutex.
  std::vector<std::pair<ColumnFamilyData*, Version*>> work;
  {
    MutexLock l(&mu_);
    for (ColumnFamilyData* cfd : versions_->column_families()->live()) {
      if (LevelZeroKeyFilterBits(cfd) == 0) continue;
      cfd->Ref();
      Version* v = cfd->current();
      v->Ref();
      work.emplace_back(cfd, v);
    }
  }
  for (auto& [cfd, v] : work) {
    const uint32_t bits = LevelZeroKeyFilterBits(cfd);
    for (FileMetaData* f : v->files(0)) {
      if (shutting_down_.load(std::memory_order_acquire)) break;
      Status s = BuildLateKeyFilter(cfd, f, bits);
      if (!s.ok()) {
        // Only an optimization: the table is read without a filter, and a
        // damaged table reports itself to the reads that reach it.
        Log(InfoLogLevel::kWarn, info_log_.get(), "key filter for table #%" PRIu64 ": %s",
            f->number, s.ToString().c_str());
      }
    }
  }
  MutexLock l(&mu_);
  for (auto& [cfd, v] : work) {
    v->Unref();
    UnrefFamily(cfd);
  }
  key_filter_job_scheduled_ = false;
  bg_cv_.SignalAll();
}

bool DBImpl::AnyCompactionNeeded() const {
  mu_.AssertHeld();
  for (const ColumnFamilyData* cfd : versions_->column_families()->live()) {
    if (!cfd->options().disable_auto_compactions &&
        cfd->picker()->NeedsCompaction(cfd->current())) {
      return true;
    }
  }
  return false;
}

void DBImpl::BackgroundCallFlush() {
  MutexLock l(&mu_);
  Status s;
  bool flushed = true;
  while (s.ok() && flushed && !shutting_down_.load(std::memory_order_acquire) && bg_error_.ok() &&
         bg_work_paused_ == 0) {
    s = BackgroundFlush(&flushed);
  }
  if (!s.ok()) RecordBackgroundError(s, BgErrorReason::kFlush);
  // DeleteObsoleteFiles releases mu_: the job counts as running until
  // after it, so Close never tears down what it uses.
  DeleteObsoleteFiles();
  flush_scheduled_ = false;
  MaybeScheduleFlushOrCompaction();
  bg_cv_.SignalAll();
}

void DBImpl::BackgroundCallCompaction() {
  MutexLock l(&mu_);
  Status s;
  bool picked = false;
  bool forwarded = false;  // handed to the BOTTOM pool
  int job_id = 0;
  if (!shutting_down_.load(std::memory_order_acquire) && bg_error_.ok() && bg_work_paused_ == 0) {
    // The family with the most urgent need first; a family whose
    // candidates are all busy yields to the next.
    std::vector<std::pair<double, ColumnFamilyData*>> order;
    for (ColumnFamilyData* cfd : versions_->column_families()->live()) {
      if (cfd->options().disable_auto_compactions) continue;
      const auto& scores = cfd->current()->compaction_scores();
      const double top = scores.empty() ? 0.0 : scores.front().score;
      // A picker may also want work at scores below 1: files marked for
      // compaction, or a time-based compaction (ttl, periodic) due by the
      // clock rather than by the Version's scores.
      if (top >= 1 || cfd->picker()->NeedsCompaction(cfd->current())) {
        order.emplace_back(top, cfd);
      }
    }
    std::stable_sort(order.begin(), order.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    // No pick while an ingestion assigns levels (it rescheduled when done).
    if (running_ingestions_ > 0) order.clear();
    for (const auto& [score, cfd] : order) {
      // A family whose limiter is full waits; the slot taken here returns
      // when the compaction (or, if none is picked, the token) is dropped.
      std::unique_ptr<TaskLimiterToken> token;
      if (!RequestCompactionToken(cfd, /*force=*/false, &token)) continue;
      std::unique_ptr<Compaction> c = cfd->picker()->PickCompaction(cfd->current());
      if (c == nullptr) continue;
      c->set_task_token(std::move(token));
      if (!EnoughRoomForCompaction(cfd, c.get())) {
        // RocksDB's rule: not started; tried again when a flush or another
        // compaction schedules work.
        cfd->picker()->ReleaseCompaction(c.get());
        compaction_room_blocked_ = true;
        break;
      }
      compaction_room_blocked_ = false;
      picked = true;
      if (MaybeForwardToBottomPool(cfd, c.get())) {
        c.release();  // the BOTTOM job owns it now
        forwarded = true;
        break;
      }
      cfd->Ref();
      s = RunCompaction(cfd, c.get(), &job_id);
      cfd->picker()->ReleaseCompaction(c.get());
      c.reset();
      // A family dropped meanwhile refuses the result: not a DB error.
      if (cfd->dropped()) s = Status::OK();
      UnrefFamily(cfd);
      break;
    }
  }
  if (!s.ok()) {
    RecordBackgroundError(s, BgErrorReason::kCompaction);
    if (bg_error_.ok() && !shutting_down_.load(std::memory_order_acquire)) {
      // Not sticky (paranoid_checks off): wait a second before the retry
      // rather than spin on a fault that persists.
      mu_.Unlock();
      clock_->SleepForMicroseconds(1000000);
      mu_.Lock();
    }
  } else if (picked && !forwarded) {
    last_compaction_error_ = Status::OK();
  }
  if (picked && !forwarded) DeleteObsoleteFiles(job_id);
  --compactions_scheduled_;
  // A job that found nothing to do (every candidate busy) does not schedule
  // another: it would spin while a long compaction runs. The running jobs
  // and flushes schedule more when they finish.
  if (picked) MaybeScheduleFlushOrCompaction();
  bg_cv_.SignalAll();
}

bool DBImpl::RequestCompactionToken(ColumnFamilyData* cfd, bool force,
                                    std::unique_ptr<TaskLimiterToken>* token) {
  mu_.AssertHeld();
  // Open admits only limiters made by NewConcurrentTaskLimiter.
  auto* limiter =
      static_cast<ConcurrentTaskLimiterImpl*>(cfd->options().compaction_thread_limiter.get());
  if (limiter == nullptr) return true;
  *token = limiter->TryAcquire(force);
  return *token != nullptr;
}

void DBImpl::TakeManualCompactionToken(ColumnFamilyData* cfd, Compaction* c) {
  std::unique_ptr<TaskLimiterToken> token;
  // Forced: counted, never refused.
  if (RequestCompactionToken(cfd, /*force=*/true, &token)) c->set_task_token(std::move(token));
}

bool DBImpl::MaybeForwardToBottomPool(ColumnFamilyData* cfd, Compaction* c) {
  mu_.AssertHeld();
  if (c->trivial_move() || c->output_level() <= 0 || c->output_level() != cfd->num_levels() - 1 ||
      env_->GetBackgroundThreads(Env::Priority::kBottom) <= 0) {
    return false;
  }
  cfd->Ref();
  auto job = std::make_shared<BottomCompaction>();
  job->cfd = cfd;
  job->c = c;
  bottom_pending_.push_back(job);
  env_->Schedule(
      [this, job]() {
        // Close may have cancelled the job (and the DB may be gone): only
        // the winner of the claim touches the DB.
        if (job->claimed.exchange(true, std::memory_order_acq_rel)) return;
        BackgroundCallBottomCompaction(job);
      },
      Env::Priority::kBottom);
  return true;
}

void DBImpl::BackgroundCallBottomCompaction(const std::shared_ptr<BottomCompaction>& job) {
  MutexLock l(&mu_);
  bottom_pending_.erase(std::find(bottom_pending_.begin(), bottom_pending_.end(), job));
  ++bottom_running_;
  ColumnFamilyData* cfd = job->cfd;
  std::unique_ptr<Compaction> c(job->c);
  Status s;
  int job_id = 0;
  // Shutting down or stopped by an error: the compaction is dropped (its
  // inputs stay as they are), as a LOW job would not have started it.
  const bool run = !shutting_down_.load(std::memory_order_acquire) && bg_error_.ok();
  if (run) {
    s = RunCompaction(cfd, c.get(), &job_id);
  } else {
    ReleaseCompactionRoom(c.get());  // reserved when the LOW job picked it
  }
  cfd->picker()->ReleaseCompaction(c.get());
  c.reset();
  if (cfd->dropped()) s = Status::OK();
  UnrefFamily(cfd);
  if (!s.ok()) {
    RecordBackgroundError(s, BgErrorReason::kCompaction);
  } else if (run) {
    last_compaction_error_ = Status::OK();
  }
  if (run) DeleteObsoleteFiles(job_id);
  --bottom_running_;
  MaybeScheduleFlushOrCompaction();
  bg_cv_.SignalAll();
}

void DBImpl::CancelQueuedBottomCompactions() {
  mu_.AssertHeld();
  for (auto it = bottom_pending_.begin(); it != bottom_pending_.end();) {
    const std::shared_ptr<BottomCompaction>& job = *it;
    if (job->claimed.exchange(true, std::memory_order_acq_rel)) {
      ++it;  // a thread took it: it finishes (skipping the work) and leaves
      continue;
    }
    ReleaseCompactionRoom(job->c);
    job->cfd->picker()->ReleaseCompaction(job->c);
    delete job->c;
    UnrefFamily(job->cfd);
    it = bottom_pending_.erase(it);
  }
  bg_cv_.SignalAll();
}

// ---------------------------------------------------------------------------
// Flush

Status DBImpl::BackgroundFlush(bool* flushed) {
  mu_.AssertHeld();
  *flushed = false;
  // The family whose oldest immutable memtable holds the oldest WAL: its
  // flush frees WALs soonest.
  ColumnFamilyData* cfd = nullptr;
  for (ColumnFamilyData* c : versions_->column_families()->live()) {
    if (c->imm().empty() || c->flush_running()) continue;
    if (cfd == nullptr || c->imm().back().log_number < cfd->imm().back().log_number) cfd = c;
  }
  if (cfd == nullptr) return Status::OK();
  // Oldest first: the family's MANIFEST log number only moves forward.
  const ImmMemTable imm = cfd->imm().back();
  cfd->Ref();
  cfd->flush_running() = true;
  VersionEdit edit;
  FileMetaData meta;
  // The new file is not listed by any Version until LogAndApply returns:
  // the pending marker keeps the obsolete-file scan away from it until then.
  const uint64_t file_number = versions_->NewFileNumber();
  auto pending = pending_outputs_.insert(file_number);
  const JobEnv job_env = MakeJobEnv();
  FlushJobInfo info;
  info.cf_id = cfd->id();
  info.cf_name = cfd->name();
  info.file_number = file_number;
  info.file_path = TableFileName(cfd->options().cf_paths, file_number, 0);
  info.thread_id = std::hash<std::thread::id>()(std::this_thread::get_id());
  info.job_id = job_env.job_id;
  info.flush_reason = imm.flush_reason;
  if (!options_.listeners.empty()) {
    const int l0 = cfd->current()->NumLevelFiles(0);
    info.triggered_writes_slowdown = l0 >= cfd->options().level0_slowdown_writes_trigger;
    info.triggered_writes_stop = l0 >= cfd->options().level0_stop_writes_trigger;
    // Released around the callbacks: flush_running keeps other flushes of
    // the family away, and the pending marker keeps the number's file.
    mu_.Unlock();
    for (const auto& l : options_.listeners) l->OnFlushBegin(this, info);
    mu_.Lock();
  }
  Status space_status;  // the SstFileManager's verdict on the new table
  FlushJob job(job_env, cfd, imm.mem, snapshots_.GetAll());
  job.SetBackgroundFlush(imm.flush_reason, file_number);
  const uint64_t cpu_start = clock_->CPUMicros();
  Status s = job.Run(&edit, &meta);
  CompactionStats flush_stats = job.stats();
  flush_stats.cpu_micros = clock_->CPUMicros() - cpu_start;
  if (s.ok() && cfd->dropped()) {
    // Dropped meanwhile: the table is garbage (the obsolete-file scan takes
    // it); the memtable goes with the family.
    pending_outputs_.erase(pending);
    cfd->flush_running() = false;
    UnrefFamily(cfd);
    *flushed = true;
    return Status::OK();
  }
  if (s.ok()) {
    // WALs older than the family's next memtable (or the mutable one) hold
    // none of its data now.
    const uint64_t next_log = cfd->imm().size() >= 2 ? cfd->imm()[cfd->imm().size() - 2].log_number
                                                     : cfd->mem_log_number();
    edit.SetLogNumber(next_log);
    if (options_.allow_2pc) {
      // Recovery starts at the oldest WAL anything still needs, prepared
      // sections included (RocksDB's min_log_number_to_keep).
      uint64_t keep = next_log;
      for (ColumnFamilyData* other : versions_->column_families()->live()) {
        if (other != cfd) keep = std::min(keep, other->OldestLogWithData());
      }
      keep = std::min(keep, MinPrepLogInUse(imm.mem));
      edit.SetMinLogNumberToKeep(keep);
    }
    versions_->SetLastSequence(
        std::max(versions_->LastSequence(), last_sequence_.load(std::memory_order_acquire)));
    s = versions_->LogAndApply(cfd, &edit, &mu_);
  }
  pending_outputs_.erase(pending);
  cfd->flush_running() = false;
  if (s.ok() && !cfd->dropped()) {
    // The memtable that was flushed is the family's oldest one still
    // (one flush per family at a time; switches only add at the front).
    cfd->imm().pop_back();
    ++cfd->memtables_flushed();
    cfd->internal_stats()->AddFlushStats(JobPriority::kHigh, flush_stats);
    InstallNewSuperVersion(cfd);
    imm.mem->Unref();
    *flushed = true;
    // The new table to the SstFileManager: passing its space limit is the
    // background error (the flush itself stands, as in RocksDB).
    if (meta.number != 0) space_status = TrackNewTables(cfd->options().cf_paths, {meta});
    EventLogLine line(clock_->NowMicros());
    std::vector<uint64_t> lsm;
    for (int level = 0; level < cfd->num_levels(); ++level) {
      lsm.push_back(cfd->current()->NumLevelFiles(level));
    }
    line.Add("job", job_env.job_id)
        .Add("event", "flush_finished")
        .Add("output_compression", CompressionTypeName(CompressionForFlush(cfd->options())))
        .AddArray("lsm_state", lsm)
        .Add("immutable_memtables", static_cast<uint64_t>(cfd->imm().size()));
    info.file_number = meta.number;
    info.file_path =
        meta.number != 0 ? TableFileName(cfd->options().cf_paths, meta.number, meta.path_id) : "";
    info.smallest_seqno = meta.number != 0 ? meta.smallest_seqno : 0;
    info.largest_seqno = meta.number != 0 ? meta.largest_seqno : 0;
    if (job.table_properties() != nullptr) info.table_properties = *job.table_properties();
    // The LOG line and the callbacks without the mutex (the family stays
    // referenced until UnrefFamily below).
    mu_.Unlock();
    LogEvent(info_log_.get(), line);
    for (const auto& l : options_.listeners) l->OnFlushCompleted(this, info);
    DeliverStallNotifications();
    mu_.Lock();
  }
  UnrefFamily(cfd);
  if (s.ok()) return space_status;
  return s.IsInvalidArgument() ? Status::OK() : s;  // dropped during the MANIFEST wait
}

Status DBImpl::Flush(const FlushOptions& options, ColumnFamilyHandle* cf) {
  if (read_only()) return ReadOnlyError();
  ColumnFamilyData* cfd = FamilyOf(cf);
  uint64_t target;
  {
    MutexLock l(&mu_);
    if (closed_ || cfd->mem() == nullptr) {
      return Status::ShutdownInProgress("Flush on a closed database");
    }
    if (cfd->dropped()) return Status::InvalidArgument("column family was dropped", cfd->name());
    target = cfd->memtables_switched();
  }
  bool switched = false;
  {
    // Whether the mutable memtable holds anything is only stable in the
    // write path; an empty switch is harmless.
    SuperVersion* sv = AcquireSuperVersion(cfd);
    const bool has_data = sv != nullptr && sv->mem->num_entries() > 0;
    ReleaseSuperVersion(cfd, sv);
    if (has_data) {
      Status s = SwitchMemtableThroughWriteThread(cfd);
      if (!s.ok()) return s;
      switched = true;
    }
  }
  MutexLock l(&mu_);
  if (switched) target = cfd->memtables_switched();
  MaybeScheduleFlushOrCompaction();
  if (!options.wait) return Status::OK();
  while (cfd->memtables_flushed() < target && !cfd->dropped() && bg_error_.ok() &&
         !shutting_down_.load(std::memory_order_acquire)) {
    // Paused background work would never come back to this flush: the
    // memtable is switched and waits for ContinueBackgroundWork.
    if (bg_work_paused_ > 0) {
      return Status::Incomplete("Flush: background work is paused (PauseBackgroundWork)");
    }
    bg_cv_.Wait();
  }
  return bg_error_;
}

// ---------------------------------------------------------------------------
// Compaction

Status DBImpl::RunCompaction(ColumnFamilyData* cfd, Compaction* c, int* job_id,
                             std::vector<std::string>* output_files) {
  mu_.AssertHeld();
  // Automatic compactions were checked when picked; a manual one
  // (CompactRange, CompactFiles) is refused here.
  if (c->manual() && !EnoughRoomForCompaction(cfd, c)) {
    return Status::CompactionTooLarge(soft_bg_error_.ok() && !bg_error_.IsNoSpace()
                                          ? "not enough room under the SstFileManager's max "
                                            "allowed space"
                                          : "not enough free space after a NoSpace error");
  }
  const JobEnv job_env = MakeJobEnv();
  if (job_id != nullptr) *job_id = job_env.job_id;
  CompactionJob job(job_env, cfd, c, snapshots_.GetAll());
  // The outputs are not listed by any Version until the job's LogAndApply
  // returns: the pending marker keeps the obsolete-file scan away from them.
  auto pending = pending_outputs_.insert(versions_->next_file_number());
  const uint64_t cpu_start = clock_->CPUMicros();
  Status s = job.Run();
  if (s.IsNoSpace() && !c->trivial_move()) {
    // The free space at which the soft error clears (RecordCompactionNoSpace):
    // what the compactions running now need, this one's inputs among them.
    soft_error_space_trigger_ =
        std::max(soft_error_space_trigger_,
                 sfm_ != nullptr ? sfm_->GetCompactionsReservedSize() : running_compaction_bytes_);
  }
  ReleaseCompactionRoom(c);
  pending_outputs_.erase(pending);
  if (s.ok()) {
    CompactionStats stats = job.stats();
    if (!c->trivial_move()) stats.cpu_micros = clock_->CPUMicros() - cpu_start;
    cfd->internal_stats()->AddCompactionStats(c->output_level(), JobPriority::kLow, stats);
    InstallNewSuperVersion(cfd);
    if (output_files != nullptr) *output_files = job.info().output_files;
  }
  if (!options_.listeners.empty()) {
    // The callbacks without the mutex; the caller keeps cfd and c alive.
    mu_.Unlock();
    for (const auto& l : options_.listeners) l->OnCompactionCompleted(this, job.info());
    DeliverStallNotifications();
    mu_.Lock();
  }
  return s;
}

Status DBImpl::ReFitLevel(ColumnFamilyData* cfd, int level, int target_level) {
  mu_.AssertHeld();
  // The files must not be in a running job's inputs: wait for automatic
  // compactions (none start meanwhile: this counts as exclusive).
  ++exclusive_manual_compactions_;
  while ((compactions_scheduled_ > 0 || BottomCompactionsScheduled() > 0) &&
         !shutting_down_.load(std::memory_order_acquire)) {
    bg_cv_.Wait();
  }
  WaitForIngestions();
  Status s;
  const Version* v = cfd->current();
  int to = target_level;
  if (to < 0) {
    // The highest level that is empty all the way down to `level` and
    // whose target size holds the files (RocksDB's choice).
    const uint64_t bytes = v->NumLevelBytes(level);
    to = level;
    for (int l = level - 1; l >= 1 && v->NumLevelFiles(l) == 0; --l) {
      if (v->MaxBytesForLevel(l) < bytes) break;
      to = l;
    }
  }
  if (to != level) {
    const int lo = std::min(level, to), hi = std::max(level, to);
    for (int l = lo; l <= hi; ++l) {
      if (l != level && v->NumLevelFiles(l) > 0) {
        s = Status::NotSupported("CompactRange change_level: levels between the source level " +
                                 std::to_string(level) + " and the target level " +
                                 std::to_string(to) + " are not empty");
        break;
      }
    }
    if (s.ok() && to == 0 && v->NumLevelFiles(level) > 1) {
      // RocksDB would move them into level 0; Strata keeps level 0 for
      // flush output (its files ordered by sequence number) and refuses,
      // naming the target, rather than place several sorted files there.
      s = Status::NotSupported("CompactRange change_level: target level 0 is not supported");
    }
    if (s.ok()) {
      VersionEdit edit;
      for (const FileMetaData* f : v->files(level)) {
        edit.DeleteFile(level, f->number);
        edit.AddFile(to, *f);
      }
      Log(info_log_.get(), "[%s] CompactRange change_level: moving %d file(s) from level %d to %d",
          cfd->name().c_str(), v->NumLevelFiles(level), level, to);
      s = versions_->LogAndApply(cfd, &edit, &mu_);
      if (s.ok()) InstallNewSuperVersion(cfd);
    }
  }
  --exclusive_manual_compactions_;
  return s;
}

JobEnv DBImpl::MakeJobEnv() {
  JobEnv env;
  env.listeners = &options_.listeners;
  env.job_id = next_job_id_.fetch_add(1, std::memory_order_relaxed);
  env.db = this;
  env.dbname = &dbname_;
  env.fs = fs_;
  env.db_dir = db_dir_.get();
  env.clock = clock_;
  env.versions = versions_.get();
  env.mu = &mu_;
  env.stats = stats_;
  env.info_log = info_log_.get();
  env.db_id = &db_id_;
  env.db_session_id = &db_session_id_;
  env.compaction_readahead_size = options_.compaction_readahead_size;
  if (sfm_ != nullptr) {
    env.on_new_tables = [this](const std::vector<DbPath>& paths,
                               const std::vector<FileMetaData>& f) {
      return TrackNewTables(paths, f);
    };
  }
  return env;
}

Status DBImpl::CompactRange(const CompactRangeOptions& options, ColumnFamilyHandle* cf,
                            const Slice* begin, const Slice* end) {
  if (read_only()) return ReadOnlyError();
  ColumnFamilyData* cfd = FamilyOf(cf);
  // The outputs' table path (the family's paths are fixed at open): RocksDB's
  // check, in its words.
  if (options.target_path_id >= cfd->options().cf_paths.size()) {
    return Status::InvalidArgument("Invalid target path ID");
  }
  {
    MutexLock l(&mu_);  // paused: not even the flush (RocksDB checks first too)
    if (manual_compaction_paused_ > 0) return Status::Incomplete(Status::kManualCompactionPaused);
  }
  // Memtable data in the range is compacted too: flush it first.
  Status s = Flush(FlushOptions(), cf);
  if (!s.ok()) return s;
  if (options.change_level && options.target_level >= cfd->num_levels()) {
    return Status::InvalidArgument("CompactRangeOptions::target_level " +
                                       std::to_string(options.target_level) +
                                       " is past the last level",
                                   std::to_string(cfd->num_levels() - 1));
  }
  MutexLock l(&mu_);
  if (cfd->dropped()) return Status::InvalidArgument("column family was dropped", cfd->name());
  if (manual_compaction_paused_ > 0) return Status::Incomplete(Status::kManualCompactionPaused);
  ++manual_compactions_;
  cfd->Ref();
  if (options.exclusive_manual_compaction) {
    // No automatic compaction starts from here on, and the running ones
    // finish first (flushes go on).
    ++exclusive_manual_compactions_;
    while ((compactions_scheduled_ > 0 || BottomCompactionsScheduled() > 0) &&
           !shutting_down_.load(std::memory_order_acquire)) {
      bg_cv_.Wait();
    }
  }
  CompactionPicker* picker = cfd->picker();
  int job_id = 0;  // the last job's, for its deletions
  const int num_levels = cfd->num_levels();
  // The deepest level holding data in the range: compactions go down to it.
  int max_level = -1;
  for (int level = 0; level < num_levels; ++level) {
    std::vector<FileMetaData*> files;
    cfd->current()->GetOverlappingInputs(level, begin, end, &files);
    if (!files.empty()) max_level = level;
  }
  const CompactionStyle style = cfd->options().compaction_style;
  if (style == kCompactionStyleUniversal || style == kCompactionStyleFIFO) {
    // Universal and FIFO compact the range as one job over every level (as
    // RocksDB does): universal into the last level (one above it with
    // allow_ingest_behind), FIFO within level 0.
    int output_level = 0;
    if (style == kCompactionStyleUniversal && num_levels > 1) {
      output_level = num_levels - (options_.allow_ingest_behind ? 2 : 1);
    }
    while (s.ok()) {
      if (shutting_down_.load(std::memory_order_acquire)) {
        s = Status::ShutdownInProgress("CompactRange during close");
        break;
      }
      if (manual_compaction_paused_ > 0) {  // DisableManualCompaction
        s = Status::Incomplete(Status::kManualCompactionPaused);
        break;
      }
      if (!bg_error_.ok()) {
        s = bg_error_;
        break;
      }
      bool conflict = false;
      WaitForIngestions();
      std::unique_ptr<Compaction> c =
          picker->CompactRange(cfd->current(), kCompactAllLevels, output_level, begin, end,
                               options.target_path_id, &conflict);
      if (c == nullptr && !conflict) break;
      if (c == nullptr) {
        bg_cv_.TimedWaitMicros(10000);
        continue;
      }
      TakeManualCompactionToken(cfd, c.get());
      s = RunCompaction(cfd, c.get(), &job_id);
      picker->ReleaseCompaction(c.get());
      c.reset();
      bg_cv_.SignalAll();
      break;
    }
    max_level = output_level;
  }
  // Every level above the deepest one holding data in range is pushed down;
  // level 0 always (into the base level) when it holds data in range.
  const bool leveled = style != kCompactionStyleUniversal && style != kCompactionStyleFIFO;
  for (int level = 0; leveled && s.ok() && (level < max_level || (level == 0 && max_level == 0));
       ++level) {
    int output_level = level + 1;
    while (s.ok()) {
      // Level 0 goes to the base level of the Version the job is picked
      // from: while this waited for a conflicting job, an automatic
      // compaction may have moved the base level up and put older data
      // there, and newer data must never land below it.
      if (level == 0) output_level = std::max(1, cfd->current()->base_level());
      if (shutting_down_.load(std::memory_order_acquire)) {
        s = Status::ShutdownInProgress("CompactRange during close");
        break;
      }
      if (manual_compaction_paused_ > 0) {  // DisableManualCompaction
        s = Status::Incomplete(Status::kManualCompactionPaused);
        break;
      }
      if (!bg_error_.ok()) {
        s = bg_error_;
        break;
      }
      bool conflict = false;
      WaitForIngestions();
      std::unique_ptr<Compaction> c = picker->CompactRange(
          cfd->current(), level, output_level, begin, end, options.target_path_id, &conflict);
      if (c == nullptr && !conflict) break;  // nothing (left) in range at this level
      if (c == nullptr) {
        TEST_SYNC_POINT_CALLBACK("DBImpl::CompactRange:BeforeWaitForConflict", &mu_);
        bg_cv_.TimedWaitMicros(10000);  // wait for the background job holding the files
        continue;
      }
      TakeManualCompactionToken(cfd, c.get());
      s = RunCompaction(cfd, c.get(), &job_id);
      picker->ReleaseCompaction(c.get());
      c.reset();
      bg_cv_.SignalAll();
      if (level == 0) break;  // all level-0 files were in that one job
    }
    if (level == 0 && output_level > 1) level = output_level - 1;
  }
  // Optionally rewrite the bottommost level itself (where the data now
  // is: pushing level 0 down may have moved it).
  for (int level = max_level + 1; s.ok() && level < num_levels; ++level) {
    std::vector<FileMetaData*> files;
    cfd->current()->GetOverlappingInputs(level, begin, end, &files);
    if (!files.empty()) max_level = level;
  }
  const bool has_filter = cfd->options().compaction_filter != nullptr ||
                          cfd->options().compaction_filter_factory != nullptr;
  const bool force_bottom =
      options.bottommost_level_compaction == BottommostLevelCompaction::kForce ||
      options.bottommost_level_compaction == BottommostLevelCompaction::kForceOptimized ||
      (options.bottommost_level_compaction == BottommostLevelCompaction::kIfHaveCompactionFilter &&
       has_filter);
  if (s.ok() && leveled && force_bottom && max_level > 0) {
    bool conflict = true;
    while (conflict && s.ok()) {
      if (manual_compaction_paused_ > 0) {
        s = Status::Incomplete(Status::kManualCompactionPaused);
        break;
      }
      WaitForIngestions();
      std::unique_ptr<Compaction> c = picker->CompactRange(
          cfd->current(), max_level, max_level, begin, end, options.target_path_id, &conflict);
      if (c != nullptr) {
        TakeManualCompactionToken(cfd, c.get());
        s = RunCompaction(cfd, c.get(), &job_id);
        picker->ReleaseCompaction(c.get());
        break;
      }
      if (conflict) bg_cv_.TimedWaitMicros(10000);
    }
  }
  // A level move refused for its arguments (NotSupported) is the caller's
  // error, returned as is: the data is intact, so it is no background error.
  Status refit_refused;
  if (s.ok() && manual_compaction_paused_ > 0) {
    s = Status::Incomplete(Status::kManualCompactionPaused);
  }
  if (s.ok() && options.change_level && max_level > 0 && !cfd->dropped()) {
    s = ReFitLevel(cfd, max_level, options.target_level);
    if (s.IsNotSupported()) {
      refit_refused = s;
      s = Status::OK();
    }
  }
  if (options.exclusive_manual_compaction) --exclusive_manual_compactions_;
  if (cfd->dropped() && !s.ok()) {
    s = Status::InvalidArgument("column family was dropped", cfd->name());
    UnrefFamily(cfd);
    DeleteObsoleteFiles(job_id);
    --manual_compactions_;
    bg_cv_.SignalAll();
    return s;
  }
  UnrefFamily(cfd);
  DeleteObsoleteFiles(job_id);
  --manual_compactions_;
  MaybeScheduleFlushOrCompaction();
  bg_cv_.SignalAll();
  if (!s.ok() && !s.IsShutdownInProgress() && !s.IsCompactionTooLarge() &&
      !s.IsManualCompactionPaused()) {
    RecordBackgroundError(s, BgErrorReason::kCompaction);
  }
  return s.ok() ? refit_refused : s;
}

void DBImpl::DisableManualCompaction() {
  MutexLock l(&mu_);
  ++manual_compaction_paused_;
  bg_cv_.SignalAll();
  // A running CompactRange stops at its next job; CompactFiles runs one.
  while (manual_compactions_ > 0) bg_cv_.Wait();
}

void DBImpl::EnableManualCompaction() {
  MutexLock l(&mu_);
  if (manual_compaction_paused_ > 0) --manual_compaction_paused_;
}

Status DBImpl::WaitForCompact() {
  MutexLock l(&mu_);
  compaction_room_blocked_ = false;  // the limit may have changed: try again
  while (true) {
    if (!bg_error_.ok()) return bg_error_;
    if (shutting_down_.load(std::memory_order_acquire)) {
      return Status::ShutdownInProgress("WaitForCompact during close");
    }
    // A compaction that does not fit under the SstFileManager's space limit
    // would be picked and refused forever: stop waiting for it.
    if (compaction_room_blocked_ && !flush_scheduled_ && compactions_scheduled_ == 0 &&
        BottomCompactionsScheduled() == 0) {
      return Status::CompactionTooLarge(
          "WaitForCompact: a compaction waits for room under the SstFileManager's max allowed "
          "space");
    }
    MaybeScheduleFlushOrCompaction();
    if (bg_work_paused_ > 0 && !flush_scheduled_ && compactions_scheduled_ == 0 &&
        BottomCompactionsScheduled() == 0) {
      return Status::Incomplete("WaitForCompact: background work is paused");
    }
    bool any_imm = false;
    for (const ColumnFamilyData* cfd : versions_->column_families()->live()) {
      any_imm = any_imm || !cfd->imm().empty();
    }
    const bool busy = flush_scheduled_ || compactions_scheduled_ > 0 ||
                      BottomCompactionsScheduled() > 0 || any_imm || AnyCompactionNeeded();
    if (!busy) return Status::OK();
    bg_cv_.TimedWaitMicros(10000);
  }
}

// ---------------------------------------------------------------------------
// Obsolete files

void DBImpl::DeleteObsoleteFiles(int job_id) {
  mu_.AssertHeld();
  // After a failed MANIFEST write the disk may list files memory does not:
  // nothing goes until a MANIFEST has been written again (Resume).
  if (versions_->manifest_write_failed()) return;
  // Copies of the live files are being made (DisableFileDeletions): what is
  // obsolete now goes at EnableFileDeletions.
  if (disable_delete_obsolete_files_ > 0) return;
  std::set<uint64_t> live;
  versions_->AddLiveFiles(&live);
  // A file numbered at or above next_file_number() now may be created by a
  // job that starts while the directory is scanned below without mu_: keep
  // those too, not only the outputs of jobs already running.
  const uint64_t min_pending = std::min<uint64_t>(
      pending_outputs_.empty() ? ~0ull : *pending_outputs_.begin(), versions_->next_file_number());
  // A WAL goes once no live family has unflushed data in it (families
  // with empty memtables moved past it at the last WAL switch). With
  // two-phase commit, never one at or above the MANIFEST's
  // min_log_number_to_keep (RocksDB's MinLogNumberToKeep): recovery replays
  // every WAL from there, and a hole -- a WAL holding a commit marker gone
  // while the older one with its prepared section is still there, as a
  // kill in the middle of this loop leaves -- would bring a committed
  // transaction back as prepared.
  uint64_t min_log = std::max<uint64_t>(MinLogNumberInUse(), 1);
  if (options_.allow_2pc && versions_->min_log_number_to_keep() != 0) {
    min_log = std::min(min_log, versions_->min_log_number_to_keep());
  }
  const uint64_t manifest = versions_->manifest_file_number();
  const uint64_t options_file = options_file_number_;
  std::vector<TableCache*> caches;
  for (const auto& cfd : versions_->column_families()->all()) caches.push_back(cfd->table_cache());
  const std::vector<std::string> table_dirs = TableDirs();
  // Tables in the DB's directory are this DB's only when it is one of the
  // table paths (else they are left alone, as RocksDB leaves them).
  const bool tables_in_db_dir =
      std::any_of(table_dirs.begin(), table_dirs.end(),
                  [this](const std::string& d) { return SameDirectory(d, dbname_); });

  mu_.Unlock();
  std::vector<std::string> children;
  Status s = fs_->GetChildren(dbname_, &children);
  // WALs are looked for in wal_dir only (a WAL left in the DB's directory
  // by an open with another wal_dir stays).
  if (s.ok()) TakeWalsFromWalDir(fs_, dbname_, wal_dir_, &children);
  // Each name's directory: the DB's (and wal_dir's) for the names above;
  // then the tables of every other table path (db_paths, cf_paths).
  std::vector<const std::string*> dir_of(children.size(), &dbname_);
  for (const std::string& dir : table_dirs) {
    if (!s.ok() || SameDirectory(dir, dbname_)) continue;
    std::vector<std::string> names;
    if (!fs_->GetChildren(dir, &names).ok()) continue;  // not created yet
    for (std::string& name : names) {
      uint64_t number;
      FileType type;
      if (!ParseFileName(name, &number, &type) || type != FileType::kTableFile) continue;
      children.push_back(std::move(name));
      dir_of.push_back(&dir);
    }
  }
  std::vector<uint64_t> evict;
  if (s.ok()) {
    for (size_t i = 0; i < children.size(); ++i) {
      const std::string& name = children[i];
      uint64_t number;
      FileType type;
      if (!ParseFileName(name, &number, &type)) continue;
      bool keep = true;
      switch (type) {
        case FileType::kTableFile:
          keep = live.count(number) > 0 || number >= min_pending ||
                 (dir_of[i] == &dbname_ && !tables_in_db_dir);
          if (!keep) evict.push_back(number);
          break;
        case FileType::kWalFile:
          // The current WAL is never below min_log (it holds a memtable's data or
          // is newer); log_number_ belongs to the write leader, not to mu_.
          keep = number >= min_log;
          break;
        case FileType::kDescriptorFile:
          keep = number >= manifest;
          break;
        case FileType::kOptionsFile:
          // Older OPTIONS files left while deletions were disabled.
          keep = options_file == 0 || number >= options_file;
          break;
        default:
          break;
      }
      if (keep) continue;
      if (type == FileType::kTableFile) {
        for (TableCache* tc : caches) tc->Evict(number);
      }
      const std::string path = *dir_of[i] + "/" + name;
      if (type == FileType::kWalFile) {
        // Archived instead when WAL_ttl_seconds or WAL_size_limit_MB say so
        // (db_impl_wal.cc). Two purges may race for one file: NotFound is
        // the other one's success.
        const bool archiving = wal_manager_ != nullptr && wal_manager_->archiving();
        Status ws = RemoveObsoleteWal(number);
        if (ws.ok() && !archiving) RecordTick(stats_, FILES_DELETED_IMMEDIATELY);
        if (!archiving) {
          Log(info_log_.get(), "deleted obsolete file %s: %s", name.c_str(), ws.ToString().c_str());
        }
        continue;
      }
      // A table goes through the SstFileManager (paced) when there is one.
      Status ds;
      if (type == FileType::kTableFile) {
        ds = DeleteTableFile(path, *dir_of[i]);
      } else {
        ds = fs_->DeleteFile(path);
        if (ds.ok()) RecordTick(stats_, FILES_DELETED_IMMEDIATELY);
      }
      Log(info_log_.get(), "deleted obsolete file %s: %s", name.c_str(), ds.ToString().c_str());
      if (type == FileType::kTableFile) {
        // A purge outside a job (open, Resume) gets a number of its own.
        if (job_id == 0) job_id = next_job_id_.fetch_add(1, std::memory_order_relaxed);
        LogAndNotifyTableFileDeletion(info_log_.get(), clock_->NowMicros(), &options_.listeners,
                                      job_id, number, path, ds, dbname_);
      }
    }
  }
  PurgeWalArchive(/*force=*/false);  // a no-op until its interval passed
  mu_.Lock();
}

}  // namespace strata
