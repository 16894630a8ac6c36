// DBImpl's write path: single-key operations, Write, the group-commit
// leader's work (WAL append, sync, memtable inserts, sequence publication),
// memtable switches and write stalls.
#include <cinttypes>
#include <thread>

#include "db/db_impl.h"
#include "db/memtable_inserter.h"
#include "db/write_batch_internal.h"
#include "util/instrumented_mutex_lock.h"
#include "util/perf_context_imp.h"
#include "util/stop_watch.h"

namespace strata {

namespace {

// A per-thread batch for the single-key operations, so Put/Delete reuse one
// buffer instead of allocating a batch per call.
WriteBatch* ThreadLocalBatch() {
  thread_local WriteBatch batch;
  batch.Clear();
  return &batch;
}

// The family of a write: null for the default one (the plain batch
// records), else the handle; a dropped family is an InvalidArgument.
Status WriteFamily(ColumnFamilyHandle* cf, ColumnFamilyHandle** out) {
  *out = nullptr;
  if (cf == nullptr || cf->GetID() == 0) return Status::OK();
  if (static_cast<ColumnFamilyHandleImpl*>(cf)->cfd()->dropped()) {
    return Status::InvalidArgument("column family was dropped", cf->GetName());
  }
  *out = cf;
  return Status::OK();
}

Status NoMergeOperator() {
  return Status::InvalidArgument("Merge: no merge_operator is configured for the column family");
}

}  // namespace

Status DBImpl::Put(const WriteOptions& options, ColumnFamilyHandle* cf, const Slice& key,
                   const Slice& value) {
  Status s = WriteFamily(cf, &cf);
  if (!s.ok()) return s;
  WriteBatch* batch = ThreadLocalBatch();
  s = cf == nullptr ? batch->Put(key, value) : batch->Put(cf, key, value);
  if (!s.ok()) return s;
  return WriteImpl(options, batch);
}

Status DBImpl::Delete(const WriteOptions& options, ColumnFamilyHandle* cf, const Slice& key) {
  Status s = WriteFamily(cf, &cf);
  if (!s.ok()) return s;
  WriteBatch* batch = ThreadLocalBatch();
  s = cf == nullptr ? batch->Delete(key) : batch->Delete(cf, key);
  if (!s.ok()) return s;
  return WriteImpl(options, batch);
}

Status DBImpl::SingleDelete(const WriteOptions& options, ColumnFamilyHandle* cf, const Slice& key) {
  Status s = WriteFamily(cf, &cf);
  if (!s.ok()) return s;
  WriteBatch* batch = ThreadLocalBatch();
  s = cf == nullptr ? batch->SingleDelete(key) : batch->SingleDelete(cf, key);
  if (!s.ok()) return s;
  return WriteImpl(options, batch);
}

Status DBImpl::DeleteRange(const WriteOptions& options, ColumnFamilyHandle* cf, const Slice& begin,
                           const Slice& end) {
  // Sizes first: the comparator must never see a slice the batch refuses.
  for (const auto& [what, key] : {std::pair{"begin key", &begin}, std::pair{"end key", &end}}) {
    if ((key->size() >> 32) != 0) {
      return Status::InvalidArgument(
          std::string("DeleteRange: ") + what + " is too large",
          std::to_string(key->size()) + " bytes; the limit is 4 GiB - 1");
    }
  }
  const int order = FamilyOf(cf)->user_comparator()->Compare(begin, end);
  Status s = WriteFamily(cf, &cf);
  if (!s.ok()) return s;
  if (order > 0) {
    return Status::InvalidArgument("DeleteRange: end key comes before start key");
  }
  if (order == 0) return Status::OK();  // an empty range deletes nothing
  WriteBatch* batch = ThreadLocalBatch();
  s = cf == nullptr ? batch->DeleteRange(begin, end) : batch->DeleteRange(cf, begin, end);
  if (!s.ok()) return s;
  return WriteImpl(options, batch);
}

Status DBImpl::Merge(const WriteOptions& options, ColumnFamilyHandle* cf, const Slice& key,
                     const Slice& operand) {
  if (FamilyOf(cf)->options().merge_operator == nullptr) return NoMergeOperator();
  Status s = WriteFamily(cf, &cf);
  if (!s.ok()) return s;
  WriteBatch* batch = ThreadLocalBatch();
  s = cf == nullptr ? batch->Merge(key, operand) : batch->Merge(cf, key, operand);
  if (!s.ok()) return s;
  return WriteImpl(options, batch);
}

Status DBImpl::CheckBatchSupported(const WriteBatch& batch) const {
  Status s = WriteBatchInternal::CheckWritable(&batch);
  if (!s.ok()) return s;
  BatchContents contents;
  s = InspectBatch(batch, &contents, versions_->column_families());
  if (!s.ok()) return s;
  if (contents.merges_without_operator > 0) return NoMergeOperator();
  if (contents.txn_markers > 0) {
    return Status::NotSupported(
        "Write: the batch holds two-phase-commit markers (BeginPrepare, EndPrepare, Commit, "
        "Rollback); only TransactionDB writes them");
  }
  return Status::OK();
}

Status DBImpl::Write(const WriteOptions& options, WriteBatch* updates) {
  if (updates == nullptr) return Status::InvalidArgument("Write: batch is null");
  Status s = CheckBatchSupported(*updates);
  if (!s.ok()) return s;
  return WriteImpl(options, updates);
}

Status DBImpl::PreprocessWrite(const WriteThread::WriteGroup& group) {
  if (default_cfd_ == nullptr || default_cfd_->leader_mem() == nullptr) {
    return Status::ShutdownInProgress("write to a closed database");
  }
  if (has_bg_error_.load(std::memory_order_acquire)) {
    MutexLock l(&mu_);
    if (!bg_error_.ok()) return bg_error_;
  }
  const bool requested = switch_requested_.load(std::memory_order_acquire);
  // Families pinning the oldest WAL when the WALs outgrow max_total_wal_size.
  std::vector<ColumnFamilyData*> wal_targets;
  if (multi_cf_) FamiliesPinningOldWals(&wal_targets);
  // WriteBufferManager (issue 19): past its limit, switch the family
  // RocksDB picks (the oldest mutable memtable).
  ColumnFamilyData* wbm_target = nullptr;
  if (wbm_ != nullptr && wbm_->ShouldFlush()) wbm_target = PickFamilyForWriteBufferManager();
  bool full;
  if (!multi_cf_) {
    full = default_cfd_->leader_mem()->ApproximateMemoryUsage() >=
           default_cfd_->options().write_buffer_size;
  } else {
    full = false;
    for (ColumnFamilyData* cfd : versions_->column_families()->live()) {
      full =
          full || cfd->leader_mem()->ApproximateMemoryUsage() >= cfd->options().write_buffer_size;
    }
  }
  if (requested || full || !wal_targets.empty() || wbm_target != nullptr) {
    // Waits first if the immutable memtables are all still unflushed.
    Status s = MaybeStallWrite(group);
    if (!s.ok()) return s;
    switch_requested_.store(false, std::memory_order_release);
    // Only the families that asked or are full switch; the others keep
    // their data in the older WAL (RocksDB's rule).
    std::vector<ColumnFamilyData*> targets;
    for (ColumnFamilyData* cfd : versions_->column_families()->live()) {
      const bool asked = cfd->switch_requested.exchange(false, std::memory_order_acq_rel);
      const bool pins_old_wal =
          std::find(wal_targets.begin(), wal_targets.end(), cfd) != wal_targets.end();
      if ((asked || pins_old_wal || cfd == wbm_target ||
           cfd->leader_mem()->ApproximateMemoryUsage() >= cfd->options().write_buffer_size) &&
          cfd->leader_mem()->num_entries() > 0) {
        targets.push_back(cfd);
      }
    }
    if (!targets.empty()) {
      s = SwitchMemtables(targets);
      if (!s.ok()) return s;
    }
    PaceWrite(group);
    return WaitForWriteBufferManager(group);
  }
  // Cheap check without the mutex: stalls only matter when level 0 or the
  // compaction debt grew (the Version pointer is read under mu_ inside),
  // or when memtables overshoot a memory_budget's share.
  if (stall_check_needed_.load(std::memory_order_acquire) ||
      (budget_.cache != nullptr && BudgetOvershoot() > 0)) {
    Status s = MaybeStallWrite(group);
    if (!s.ok()) return s;
  }
  PaceWrite(group);
  return WaitForWriteBufferManager(group);
}

void DBImpl::PaceWrite(const WriteThread::WriteGroup& group) {
  throttle_.AddIngest(group.total_bytes);
  // no_slowdown writers are never paced: where RocksDB delays writes
  // (level 0 or debt past the slowdown triggers) MaybeStallWrite failed
  // them with Incomplete; elsewhere RocksDB would not delay them.
  if (!throttle_.Active() || group.leader->no_slowdown) return;
  // Memtable pressure: the fullest watched memtable (one whose switch
  // would stop writes).
  double memtable_pressure = 0;
  if (throttle_.WatchMemtables()) {
    for (ColumnFamilyData* cfd : versions_->column_families()->live()) {
      if (!cfd->memtable_watched.load(std::memory_order_relaxed)) continue;
      const double fill =
          static_cast<double>(cfd->leader_mem()->ApproximateMemoryUsage()) /
          static_cast<double>(std::max<size_t>(1, cfd->options().write_buffer_size));
      memtable_pressure = std::max(memtable_pressure, std::min(1.0, fill));
    }
  }
  PERF_TIMER_GUARD(write_delay_time);
  const uint64_t waited = throttle_.Pace(group.total_bytes, memtable_pressure);
  if (waited > 0) {
    write_stats_.Add(DBWriteStats::kWriteStallMicros, waited);
    RecordTick(stats_, STALL_MICROS, waited);
    if (TimersEnabled(stats_)) stats_->reportTimeToHistogram(WRITE_STALL, waited);
  }
}

ColumnFamilyData* DBImpl::PickFamilyForWriteBufferManager() {
  ColumnFamilyData* picked = nullptr;
  for (ColumnFamilyData* cfd : versions_->column_families()->live()) {
    MemTable* mem = cfd->leader_mem();
    if (mem->num_entries() == 0) continue;
    if (picked == nullptr ||
        mem->GetEarliestSequenceNumber() < picked->leader_mem()->GetEarliestSequenceNumber()) {
      picked = cfd;
    }
  }
  return picked;
}

Status DBImpl::WaitForWriteBufferManager(const WriteThread::WriteGroup& group) {
  // Writers of every DB sharing the manager wait until memtables are freed
  // below its limit (RocksDB's WriteBufferManager stall).
  if (wbm_ == nullptr || !wbm_->ShouldStall()) return Status::OK();
  if (group.leader->no_slowdown) return Status::Incomplete("Write stall");
  if (shutting_down_.load(std::memory_order_acquire)) {
    return Status::ShutdownInProgress("write during close");
  }
  PERF_TIMER_GUARD(write_delay_time);
  const uint64_t start = clock_->NowMicros();
  write_thread_.BeginWriteStall(group);
  wbm_stall_.SetBlocked();
  wbm_->BeginWriteStall(&wbm_stall_);
  wbm_stall_.Block();
  write_thread_.EndWriteStall();
  const uint64_t waited = clock_->NowMicros() - start;
  write_stats_.Add(DBWriteStats::kWriteStallMicros, waited);
  RecordTick(stats_, STALL_MICROS, waited);
  if (TimersEnabled(stats_)) stats_->reportTimeToHistogram(WRITE_STALL, waited);
  if (shutting_down_.load(std::memory_order_acquire)) {
    return Status::ShutdownInProgress("write during close");
  }
  return Status::OK();
}

double DBImpl::BudgetOvershoot() const {
  if (budget_.cache == nullptr) return 0;  // no memory_budget
  const WriteBufferManager* wbm = budget_.write_buffer_manager.get();
  const size_t share = wbm->buffer_size();
  const size_t used = wbm->memory_usage();
  if (share == 0 || used <= share) return 0;
  return static_cast<double>(used - share) / static_cast<double>(share);
}

uint64_t DBImpl::MaxTotalWalSize() const {
  if (options_.max_total_wal_size != 0) return options_.max_total_wal_size;
  // RocksDB's default: four times what all memtables may hold.
  uint64_t sum = 0;
  for (const ColumnFamilyData* cfd : versions_->column_families()->live()) {
    sum += static_cast<uint64_t>(cfd->options().write_buffer_size) *
           static_cast<uint64_t>(std::max(1, cfd->options().max_write_buffer_number));
  }
  return 4 * sum;
}

void DBImpl::FamiliesPinningOldWals(std::vector<ColumnFamilyData*>* targets) {
  const uint64_t current = log_ != nullptr ? log_->file_size() : 0;
  if (alive_wals_.empty() || alive_wal_bytes_ + current <= MaxTotalWalSize()) return;
  MutexLock l(&mu_);
  // WALs whose data is all in tables are gone (or about to be).
  const uint64_t min_log = MinLogNumberInUse();
  while (!alive_wals_.empty() && alive_wals_.front().first < min_log) {
    alive_wal_bytes_ -= alive_wals_.front().second;
    alive_wals_.pop_front();
  }
  const uint64_t total = alive_wal_bytes_ + current;
  if (alive_wals_.empty() || total <= MaxTotalWalSize()) return;
  const uint64_t oldest = alive_wals_.front().first;
  if (oldest <= wal_flush_requested_upto_) return;  // its flushes are under way
  wal_flush_requested_upto_ = oldest;
  std::string names;
  for (ColumnFamilyData* cfd : versions_->column_families()->live()) {
    if (cfd->OldestLogWithData() <= oldest && cfd->leader_mem()->num_entries() > 0) {
      targets->push_back(cfd);
      names += (names.empty() ? "" : ", ") + cfd->name();
    }
  }
  Log(info_log_.get(),
      "Flushing column families [%s] with data in WAL %06" PRIu64 ".log: total WAL size %" PRIu64
      " is over max_total_wal_size %" PRIu64,
      names.c_str(), oldest, total, MaxTotalWalSize());
}

Status DBImpl::WriteGroupToWAL(const WriteThread::WriteGroup& group, bool any_records) {
  Status s;
  if (any_records) s = AppendGroupToWAL(group);
  if (s.ok() && group.need_sync) {
    StopWatch sw(clock_, stats_, WAL_FILE_SYNC_MICROS);
    // Earlier WALs first: a synced write makes everything before it durable.
    for (auto& old : old_logs_) {
      if (s.ok()) s = old->Sync();
      if (s.ok()) s = old->Close();
    }
    if (s.ok()) old_logs_.clear();
    if (s.ok()) s = log_->Sync();
    write_stats_.Add(DBWriteStats::kWalFileSynced, 1);
    RecordTick(stats_, WAL_FILE_SYNCED);
  }
  return s;
}

Status DBImpl::AppendGroupToWAL(const WriteThread::WriteGroup& group) {
  Status s;
  group.ForEach([this](WriteThread::Writer* w) {
    if (!w->callback_failed) w->log_used = log_number_;
  });
  if (group.size == 1 && !group.leader->callback_failed &&
      !WriteBatchInternal::HasWalTerminationPoint(group.leader->batch)) {
    // The caller's batch goes out as is, with the sequence stamped into its
    // header for the append and the caller's value put back afterwards
    // (DB::Write does not modify the batch).
    WriteBatch* batch = group.leader->batch;
    const SequenceNumber saved = WriteBatchInternal::Sequence(batch);
    WriteBatchInternal::SetSequence(batch, group.leader->sequence);
    s = AppendRecordToWAL(WriteBatchInternal::Contents(batch));
    WriteBatchInternal::SetSequence(batch, saved);
  } else {
    // One WAL record for the whole group: the group's first sequence in the
    // header, every member's records appended in queue order.
    // Members that failed their transaction check write nothing; a commit's
    // prepared records (behind its WAL termination point) are already
    // logged.
    group_batch_.Clear();
    group.ForEach([this](WriteThread::Writer* w) {
      if (!w->callback_failed)
        WriteBatchInternal::Append(&group_batch_, w->batch, /*wal_only=*/true);
    });
    WriteBatchInternal::SetSequence(&group_batch_, group.leader->sequence);
    s = AppendRecordToWAL(WriteBatchInternal::Contents(&group_batch_));
  }
  return s;
}

Status DBImpl::AppendRecordToWAL(const Slice& record) {
  write_stats_.Add(DBWriteStats::kWalFileBytes, record.size());
  RecordTick(stats_, WAL_FILE_BYTES, record.size());
  return log_->AddRecord(record);
}

Status DBImpl::WriteImpl(const WriteOptions& options, WriteBatch* batch, bool force,
                         const TxnWrite* txn) {
  if (read_only()) return ReadOnlyError();
  if (options.sync && options.disableWAL) {
    return Status::InvalidArgument("sync writes need the WAL (disableWAL is set)");
  }
  // An empty batch is a no-op, unless it asks for a sync (SyncWAL) or is a
  // transaction's marker (Rollback).
  if (WriteBatchInternal::Count(batch) == 0 && !options.sync && !force && txn == nullptr) {
    return Status::OK();
  }

  StopWatch write_sw(clock_, stats_, DB_WRITE);
  PERF_TIMER_GUARD(write_pre_and_post_process_time);
  WriteThread::Writer w(batch, options.sync, options.disableWAL, options.no_slowdown);
  if (txn != nullptr) {
    w.callback = txn->callback;
    w.disable_memtable = txn->disable_memtable;
    w.prepare_section = txn->prepare_section;
    w.log_ref = txn->log_ref;
  }
  // The transaction's outputs, whoever did the work.
  auto report = [&w, txn]() {
    if (txn == nullptr) return;
    if (txn->log_used != nullptr) *txn->log_used = w.log_used;
    if (txn->seq_used != nullptr) *txn->seq_used = w.sequence;
  };
  WriteThread::State state;
  {
    PERF_TIMER_STOP(write_pre_and_post_process_time);
    PERF_TIMER_GUARD(write_thread_wait_nanos);
    state = write_thread_.JoinBatchGroup(&w);
  }
  PERF_TIMER_START(write_pre_and_post_process_time);
  if (state == WriteThread::State::kCompleted) {
    RecordTick(stats_, WRITE_DONE_BY_OTHER);
    report();
    return w.status;
  }
  if (state == WriteThread::State::kParallelMemTableWriter) {
    // The leader logged our batch and assigned w.sequence; insert it here,
    // concurrently with the rest of the group.
    if (w.ShouldWriteToMemtable()) {
      PERF_TIMER_STOP(write_pre_and_post_process_time);
      PERF_TIMER_GUARD(write_memtable_time);
      w.status = InsertBatch(w, true);
    }
    write_thread_.CompleteParallelMemTableWriter(&w);
    RecordTick(stats_, WRITE_DONE_BY_OTHER);
    report();
    return w.status;
  }

  // This thread leads a write group.
  // LockWAL: no group starts while the WAL is locked (acquire: pairs with
  // the release that set it; the wait re-checks under the lock's mutex).
  if (wal_locked_.load(std::memory_order_acquire)) WaitWhileWalLocked();
  if (w.sync) WaitForSyncGroupMembers();
  WriteThread::WriteGroup group;
  write_thread_.EnterAsBatchGroupLeader(&w, &group);
  if (group.need_sync) last_sync_group_size_.store(group.size, std::memory_order_relaxed);
  if (exclusive_fn_.load(std::memory_order_acquire) != nullptr) {
    // Family creation or drop: runs while no write is in flight.
    const std::function<Status()>* fn = exclusive_fn_.exchange(nullptr, std::memory_order_acq_rel);
    if (fn != nullptr) exclusive_status_ = (*fn)();
  }
  Status s = PreprocessWrite(group);

  if (s.ok()) {
    // Transactions' checks run first, against every earlier write applied
    // (such a writer is alone in its group, or its check concerns keys no
    // other member touches: see WriteThread::WriteCallback).
    group.ForEach([](WriteThread::Writer* m) {
      if (m->callback == nullptr) return;
      Status cs = m->callback->Callback();
      if (!cs.ok()) {
        m->status = std::move(cs);
        m->callback_failed = true;
      }
    });
    SequenceNumber next = last_allocated_sequence_ + 1;
    size_t total_count = 0;
    size_t user_writes = 0;  // not the empty batches of memtable switches and SyncWAL
    bool any_wal_records = false;
    group.ForEach([&](WriteThread::Writer* m) {
      m->sequence = next;
      if (m->callback_failed) return;
      any_wal_records =
          any_wal_records || WriteBatchInternal::ByteSize(m->batch) > WriteBatchInternal::kHeader;
      // A prepared section logged without the memtable takes no sequence
      // numbers (its records get them at Commit), as in RocksDB.
      if (!m->ShouldWriteToMemtable()) return;
      const uint32_t n = WriteBatchInternal::Count(m->batch);
      next += n;
      total_count += n;
      user_writes += n > 0 ? 1 : 0;
    });
    group.last_sequence = next - 1;

    if (!group.disable_wal) {
      PERF_TIMER_STOP(write_pre_and_post_process_time);
      PERF_TIMER_GUARD(write_wal_time);
      s = WriteGroupToWAL(group, any_wal_records);
      PERF_TIMER_STOP(write_wal_time);
      PERF_TIMER_START(write_pre_and_post_process_time);
      if (!s.ok()) {
        // The WAL may now end with a partial record: nothing more may be
        // appended after it, so every later write fails with this error
        // until Resume moves to a new WAL. The group's sequence numbers
        // stay used: the record may be durable, and a later write must
        // not reuse its numbers.
        last_allocated_sequence_ = group.last_sequence;
        MutexLock l(&mu_);
        RecordBackgroundError(s, BgErrorReason::kWal);
      }
    }

    if (s.ok()) {
      last_allocated_sequence_ = group.last_sequence;
      // Prepared sections just logged keep their WAL until resolved.
      group.ForEach([this](WriteThread::Writer* m) {
        if (m->prepare_section && !m->callback_failed && m->log_used != 0) {
          logs_with_prep_tracker_.MarkLogAsContainingPrepSection(m->log_used);
        }
      });
      // Writes only a memtable holds: Close flushes them (unless
      // avoid_flush_during_shutdown).
      if (group.disable_wal && total_count > 0 &&
          !has_unpersisted_data_.load(std::memory_order_relaxed)) {
        has_unpersisted_data_.store(true, std::memory_order_relaxed);
      }
      write_targets_.default_mem = default_cfd_->leader_mem();
      PERF_TIMER_STOP(write_pre_and_post_process_time);
      PERF_TIMER_GUARD(write_memtable_time);
      // Members insert their own batches in parallel only when the batches
      // are big enough to repay the extra wake-up of every member; for
      // one-key writes the leader inserting them all is cheaper.
      if (group.size > 1 && options_.allow_concurrent_memtable_write &&
          total_count >= 4 * group.size) {
        write_thread_.LaunchParallelMemTableWriters(&group);
        if (w.ShouldWriteToMemtable()) w.status = InsertBatch(w, true);
        write_thread_.WaitForParallelMemTableWriters(&group);
      } else {
        group.ForEach([&](WriteThread::Writer* m) {
          if (m->ShouldWriteToMemtable()) m->status = InsertBatch(*m, /*concurrent=*/false);
        });
      }
      PERF_TIMER_STOP(write_memtable_time);
      PERF_TIMER_START(write_pre_and_post_process_time);
      // WriteBufferManager (issue 19): reserve what the group's inserts
      // grew the mutable memtables by (the leader, before the next group).
      if (wbm_ != nullptr) {
        if (!multi_cf_) {
          default_cfd_->leader_mem()->UpdateWriteBufferManager();
        } else {
          for (ColumnFamilyData* cfd : versions_->column_families()->live()) {
            cfd->leader_mem()->UpdateWriteBufferManager();
          }
        }
      }
      // A batch the WAL holds but the memtable refused (its checks run
      // before logging, so only a bug or a failed allocation gets here)
      // would come back at recovery: stop writes until Resume flushes.
      Status insert_error;
      group.ForEach([&](WriteThread::Writer* m) {
        if (insert_error.ok() && !m->status.ok() && !m->callback_failed) insert_error = m->status;
      });
      if (!insert_error.ok()) {
        MutexLock l(&mu_);
        RecordBackgroundError(insert_error, BgErrorReason::kMemTable);
      }
      // release: readers that see the new sequence see every insert above.
      last_sequence_.store(group.last_sequence, std::memory_order_release);
      if (user_writes > 0) RecordWriteGroup(group, user_writes, total_count);
      if (stats_ != nullptr) {
        stats_->recordTick(NUMBER_KEYS_WRITTEN, total_count);
        stats_->recordTick(BYTES_WRITTEN, group.total_bytes);
        stats_->recordTick(WRITE_DONE_BY_SELF);
        if (!group.disable_wal) stats_->recordTick(WRITE_WITH_WAL, group.size);
        stats_->recordInHistogram(BYTES_PER_WRITE, group.total_bytes);
      }
    }
  }

  write_thread_.ExitAsBatchGroupLeader(&group, s);
  report();
  if (!s.ok()) return s;
  return w.status;
}

Status DBImpl::InsertBatch(const WriteThread::Writer& w, bool concurrent) {
  if (w.log_ref == 0)
    return InsertBatchIntoMemTable(*w.batch, w.sequence, write_targets_, concurrent);
  // A commit of a prepared section: its memtables keep that WAL alive.
  MemTableTargets targets = write_targets_;
  targets.log_ref = w.log_ref;
  return InsertBatchIntoMemTable(*w.batch, w.sequence, targets, concurrent);
}

void DBImpl::WaitForSyncGroupMembers() {
  // Commit delay: a synced write costs one fdatasync whatever the group's
  // size, so when the previous synced group was larger than the queue is
  // now, the writers it released are probably about to come back; wait a
  // little (yielding the CPU to them) so they share this fdatasync instead
  // of paying for the next one. Bounded by 50 us (about one fdatasync on
  // the project machine); a lone synced writer never waits, and a group that
  // shrank resets the target on its next sync. Measured (fillrandom --sync=1,
  // 8 threads): ~4.5 -> ~7.9 writers per fdatasync, 33K -> 52-62K ops/s.
  const size_t target = last_sync_group_size_.load(std::memory_order_relaxed);
  if (target <= 1) return;
  const uint64_t start = clock_->NowNanos();
  const uint64_t budget_ns = 50000;
  while (write_thread_.ApproximateQueueLength() < target &&
         clock_->NowNanos() - start < budget_ns) {
    std::this_thread::yield();
  }
}

Status DBImpl::RunExclusive(const std::function<Status()>& fn) {
  std::lock_guard<std::mutex> guard(exclusive_mu_);
  exclusive_status_ = Status::OK();
  exclusive_fn_.store(&fn, std::memory_order_release);
  // The leader of the group this empty write joins (or an earlier one)
  // runs fn before it logs anything.
  WriteBatch empty;
  WriteOptions options;
  Status s = WriteImpl(options, &empty, /*force=*/true);
  if (exclusive_fn_.exchange(nullptr, std::memory_order_acq_rel) != nullptr) {
    // Not run (cannot happen: every leader checks first); report it.
    return s.ok() ? Status::Incomplete("column family operation was not run") : s;
  }
  // fn ran: its status is the answer (the empty write's own status, e.g. a
  // background error, concerns no data; Resume runs fn while one is set).
  s.PermitUncheckedError();
  return exclusive_status_;
}

Status DBImpl::SyncWAL() {
  // An empty batch with sync joins the write queue like any writer: the group
  // it lands in syncs the WAL, and no append can race the sync.
  WriteBatch empty;
  WriteOptions options;
  options.sync = true;
  return WriteImpl(options, &empty);
}

// ---------------------------------------------------------------------------
// Memtable switches

Status DBImpl::SwitchMemtables(const std::vector<ColumnFamilyData*>& families) {
  // A new WAL first: if it cannot be created, the memtables stay as they
  // are and writes would still go to the old WAL, which is intact. The error
  // is sticky all the same (RocksDB's rule): a file system that cannot
  // create a file or sync the directory is failing, and Resume (or, for
  // NoSpace, the recovery thread) retries the switch once it is healthy.
  if (options_.manual_wal_flush && log_ != nullptr) {
    // The old WAL's buffered tail goes out first: a later FlushWAL flushes
    // only the new WAL, and the writes that survive a crash must stay a
    // prefix.
    Status fs = log_->WriteBuffer();
    if (!fs.ok()) {
      MutexLock l(&mu_);
      RecordBackgroundError(fs, BgErrorReason::kWal);
      return fs;
    }
  }
  const uint64_t new_log = versions_->NewFileNumber();
  std::unique_ptr<log::Writer> old_log = std::move(log_);
  const uint64_t old_log_number = log_number_;
  Status s = CreateWAL(new_log);
  if (!s.ok()) {
    log_ = std::move(old_log);
    log_number_ = old_log_number;
    MutexLock l(&mu_);
    RecordBackgroundError(s, BgErrorReason::kWalSwitch);
    return s;
  }
  // The old WAL stays open, unsynced, until a synced write or its flush.
  if (old_log != nullptr) {
    alive_wals_.emplace_back(old_log_number, old_log->file_size());
    alive_wal_bytes_ += old_log->file_size();
  }
  old_logs_.push_back(std::move(old_log));
  std::vector<MemTable*> fresh;
  for (ColumnFamilyData* cfd : families) {
    fresh.push_back(new MemTable(cfd->icmp(), cfd->mem_options()));
    // Only the leader allocates sequences: every later write lands here.
    fresh.back()->SetEarliestSequenceNumber(last_allocated_sequence_ + 1);
  }
  std::vector<MemTableInfo> sealed;
  // The family a WriteBufferManager flush picked (before any memtable
  // moves), to tell its flush reason.
  ColumnFamilyData* wbm_pick =
      wbm_ != nullptr && wbm_->ShouldFlush() ? PickFamilyForWriteBufferManager() : nullptr;
  {
    MutexLock l(&mu_);
    for (size_t i = 0; i < families.size(); ++i) {
      ColumnFamilyData* cfd = families[i];
      MemTable* mem = cfd->mem();
      // A full memtable switches on its own; any other was asked for (Flush,
      // CompactRange, Resume).
      const FlushReason reason = mem->ApproximateMemoryUsage() >= cfd->options().write_buffer_size
                                     ? FlushReason::kWriteBufferFull
                                 : cfd == wbm_pick ? FlushReason::kWriteBufferManager
                                                   : FlushReason::kManualFlush;
      mem->MarkImmutableForWriteBufferManager();
      if (!options_.listeners.empty()) {
        MemTableInfo info;
        info.cf_name = cfd->name();
        info.first_seqno = mem->GetFirstSequenceNumber();
        info.earliest_seqno = mem->GetFirstSequenceNumber();
        info.num_entries = mem->num_entries();
        info.num_deletes = mem->num_deletes();
        sealed.push_back(std::move(info));
      }
      // Our reference to the old memtable moves to imm; fresh's creation
      // reference is ours now.
      cfd->imm().insert(cfd->imm().begin(), ImmMemTable{mem, cfd->mem_log_number(), reason});
      cfd->mem() = fresh[i];
      ++cfd->memtables_switched();
    }
    s = FinishSwitch(families, new_log);
    // With listeners to tell, the flush is scheduled after they are told:
    // a memtable is sealed before its flush begins (RocksDB's order).
    if (sealed.empty()) MaybeScheduleFlushOrCompaction();
  }
  // The leader tells the listeners without the mutex (RocksDB calls
  // OnMemTableSealed from the switching writer too).
  for (const MemTableInfo& info : sealed) {
    for (const auto& l : options_.listeners) l->OnMemTableSealed(info);
  }
  if (!sealed.empty()) {
    MutexLock l(&mu_);
    MaybeScheduleFlushOrCompaction();
  }
  if (!options_.listeners.empty()) DeliverStallNotifications();
  return s;
}

Status DBImpl::FinishSwitch(const std::vector<ColumnFamilyData*>& families, uint64_t new_log) {
  mu_.AssertHeld();
  Status s;
  // Every family whose mutable memtable is empty has no data in the older
  // WALs any more (only the leader inserts): it needs the new WAL only.
  for (ColumnFamilyData* cfd : versions_->column_families()->live()) {
    if (cfd->mem()->num_entries() == 0) cfd->mem_log_number() = new_log;
  }
  // WALs whose data is all in tables need no sync any more.
  const uint64_t min_log = MinLogNumberInUse();
  for (auto it = old_logs_.begin(); it != old_logs_.end();) {
    if ((*it)->log_number() < min_log) {
      (*it)->Close().PermitUncheckedError();
      it = old_logs_.erase(it);
    } else {
      ++it;
    }
  }
  for (ColumnFamilyData* cfd : families) InstallNewSuperVersion(cfd);
  return s;
}

uint64_t DBImpl::MinLogNumberInUse() const {
  mu_.AssertHeld();
  uint64_t min_log = ~uint64_t{0};
  for (const ColumnFamilyData* cfd : versions_->column_families()->live()) {
    min_log = std::min(min_log, cfd->OldestLogWithData());
  }
  if (options_.allow_2pc) min_log = std::min(min_log, MinPrepLogInUse(nullptr));
  return min_log;
}

uint64_t DBImpl::MinPrepLogInUse(const MemTable* excluded) const {
  mu_.AssertHeld();
  // Two-phase commit (RocksDB's rule): a WAL stays while it holds a
  // prepared section not yet resolved, or one whose committed data is in a
  // memtable not yet flushed.
  uint64_t min_log = ~uint64_t{0};
  const uint64_t outstanding = logs_with_prep_tracker_.FindMinLogContainingOutstandingPrep();
  if (outstanding != 0) min_log = outstanding;
  auto consider = [&](const MemTable* m) {
    if (m == excluded) return;
    const uint64_t log = m->GetMinLogContainingPrepSection();
    if (log != 0) min_log = std::min(min_log, log);
  };
  for (const ColumnFamilyData* cfd : versions_->column_families()->live()) {
    if (cfd->mem() != nullptr) consider(cfd->mem());
    for (const ImmMemTable& m : cfd->imm()) consider(m.mem);
  }
  return min_log;
}

Status DBImpl::SwitchMemtableThroughWriteThread(ColumnFamilyData* cfd) {
  // Any leader that takes this empty write into its group switches first.
  cfd->switch_requested.store(true, std::memory_order_release);
  switch_requested_.store(true, std::memory_order_release);
  WriteBatch empty;
  WriteOptions options;
  return WriteImpl(options, &empty, /*force=*/true);
}

// ---------------------------------------------------------------------------
// Write stalls

Status DBImpl::MaybeStallWrite(const WriteThread::WriteGroup& group) {
  // A group is all no_slowdown writers or none (WriteThread keeps them
  // apart): such a group fails with Incomplete instead of waiting.
  const bool no_slowdown = group.leader->no_slowdown;
  PERF_TIMER_GUARD(write_delay_time);
  uint64_t delay_micros = 0;
  bool stall_begun = false;  // queued no_slowdown writers were failed
  uint64_t start = 0;
  Status result;
  // A writer that leaves the stop (to go on, or with an error) ends the
  // memtable stops it set.
  auto clear_memtable_stops = [this]() REQUIRES(mu_) {
    for (ColumnFamilyData* cfd : versions_->column_families()->live()) {
      auto it = stall_states_.find(cfd->id());
      if (it != stall_states_.end() && it->second.memtable_stop) {
        it->second.memtable_stop = false;
        UpdateWriteStall(cfd);
      }
    }
  };
  while (true) {
    bool begin_stall = false;
    {
      InstrumentedMutexLock l(&mu_, clock_, stats_);
      if (shutting_down_.load(std::memory_order_acquire)) {
        clear_memtable_stops();
        result = Status::ShutdownInProgress("write during close");
        break;
      }
      if (!bg_error_.ok()) {
        clear_memtable_stops();
        result = bg_error_;
        break;
      }
      bool too_many_memtables = false, too_many_l0 = false, too_much_debt = false;
      for (const ColumnFamilyData* cfd : versions_->column_families()->live()) {
        const Options& o = cfd->options();
        const Version* v = cfd->current();
        too_many_memtables =
            too_many_memtables ||
            (static_cast<int>(cfd->imm().size()) >= std::max(1, o.max_write_buffer_number - 1) &&
             cfd->mem()->ApproximateMemoryUsage() >= o.write_buffer_size);
        // Without automatic compactions nothing would ever clear these.
        const bool auto_compact = !o.disable_auto_compactions;
        too_many_l0 = too_many_l0 ||
                      (auto_compact && v->l0_delay_trigger_count() >= o.level0_stop_writes_trigger);
        too_much_debt =
            too_much_debt ||
            (auto_compact && o.hard_pending_compaction_bytes_limit > 0 &&
             v->EstimatedPendingCompactionBytes() >= o.hard_pending_compaction_bytes_limit);
      }
      if (!too_many_memtables && !too_many_l0 && !too_much_debt) {
        write_stopped_ = false;
        clear_memtable_stops();
        if (start != 0) {
          const uint64_t waited = clock_->NowMicros() - start;
          write_stats_.Add(DBWriteStats::kWriteStallMicros, waited);
          RecordTick(stats_, STALL_MICROS, waited);
          if (TimersEnabled(stats_)) stats_->reportTimeToHistogram(WRITE_STALL, waited);
        }
        bool slowdown = false;
        for (const ColumnFamilyData* cfd : versions_->column_families()->live()) {
          slowdown = slowdown || cfd->NeedsWriteSlowdown();
        }
        // memory_budget (issue 19): memtables past their share slow writes
        // by a delay proportional to the overshoot -- none at the share,
        // delayed_write_rate at a quarter over, a quarter of it at double
        // -- so writes ease off smoothly while flushes catch up.
        const double overshoot = BudgetOvershoot();
        if ((slowdown || overshoot > 0) && no_slowdown) {
          result = Status::Incomplete("Write stall");
        } else if (slowdown) {
          // Paced by the throttle after this (PaceWrite).
          RecordStallCauses(/*stop=*/false);
        } else if (overshoot > 0) {
          const uint64_t rate =
              options_.delayed_write_rate != 0 ? options_.delayed_write_rate : 16ull << 20;
          const double micros =
              static_cast<double>(group.total_bytes) * 1e6 / static_cast<double>(rate);
          delay_micros = std::max<uint64_t>(1, static_cast<uint64_t>(micros * 4 * overshoot));
          delay_micros = std::min<uint64_t>(delay_micros, 100000);
          RecordStallCauses(/*stop=*/false);
          write_stats_.Add(DBWriteStats::kWriteStallMicros, delay_micros);
        }
        break;
      }
      // Compactions that fail without a sticky error (paranoid_checks off)
      // would keep this stop forever: the write fails with their error.
      if ((too_many_l0 || too_much_debt) && !last_compaction_error_.ok()) {
        clear_memtable_stops();
        result = last_compaction_error_;
        break;
      }
      // Compactions held back for lack of space (a soft NoSpace error) with
      // nothing to clear it but Resume: RocksDB's answer, Incomplete with
      // the error. While the recovery thread watches the space, the write
      // waits for it.
      if ((too_many_l0 || too_much_debt) && !soft_bg_error_.ok() && !auto_recovery_running_) {
        clear_memtable_stops();
        result = Status::Incomplete(soft_bg_error_.ToString());
        break;
      }
      if (no_slowdown) {
        result = Status::Incomplete("Write stall");
        break;
      }
      if (too_many_memtables) {
        // The families whose memtables hold the writer up are stopped
        // (logged and told to the listeners) until it goes on.
        for (ColumnFamilyData* cfd : versions_->column_families()->live()) {
          const Options& o = cfd->options();
          if (static_cast<int>(cfd->imm().size()) >= std::max(1, o.max_write_buffer_number - 1) &&
              cfd->mem()->ApproximateMemoryUsage() >= o.write_buffer_size) {
            StallEntry& e = stall_states_[cfd->id()];
            if (!e.memtable_stop) {
              e.memtable_stop = true;
              UpdateWriteStall(cfd);
            }
          }
        }
      }
      if (start == 0) {
        start = std::max<uint64_t>(1, clock_->NowMicros());
        RecordStallCauses(/*stop=*/true);
        write_stopped_ = true;
        MaybeScheduleFlushOrCompaction();
      }
      begin_stall = !stall_begun;
      // Stall changes are told before the wait, which may be long; the
      // conditions are checked again after.
      if (!begin_stall && pending_stall_changes_.empty()) bg_cv_.TimedWaitMicros(10000);
    }
    if (!options_.listeners.empty()) DeliverStallNotifications();
    if (begin_stall) {
      // Outside mu_ (the queue lock and mu_ are never held together).
      write_thread_.BeginWriteStall(group);
      stall_begun = true;
    }
  }
  if (!options_.listeners.empty()) DeliverStallNotifications();
  if (result.ok() && delay_micros > 0) {
    if (!stall_begun) write_thread_.BeginWriteStall(group);
    stall_begun = true;
    clock_->SleepForMicroseconds(static_cast<int>(delay_micros));
    RecordTick(stats_, STALL_MICROS, delay_micros);
    if (TimersEnabled(stats_)) stats_->reportTimeToHistogram(WRITE_STALL, delay_micros);
  }
  if (stall_begun) write_thread_.EndWriteStall();
  return result;
}

}  // namespace strata
