// DBImpl's write path: single-key operations, Write, the group-commit
// leader's work (WAL append, sync, memtable inserts, sequence publication).
#include <thread>

#include "db/db_impl.h"
#include "db/memtable_inserter.h"
#include "db/write_batch_internal.h"

namespace strata {

namespace {

// A per-thread batch for the single-key operations, so Put/Delete reuse one
// buffer instead of allocating a batch per call.
WriteBatch* ThreadLocalBatch() {
  thread_local WriteBatch batch;
  batch.Clear();
  return &batch;
}

bool IsDefaultFamily(ColumnFamilyHandle* cf) { return cf == nullptr || cf->GetID() == 0; }

Status NoMergeOperator() {
  return Status::InvalidArgument("Merge: no merge_operator is configured for the column family");
}

Status ColumnFamilyNotSupported() {
  return Status::NotSupported("column families other than \"default\" are not supported yet");
}

}  // namespace

Status DBImpl::Put(const WriteOptions& options, ColumnFamilyHandle* cf, const Slice& key,
                   const Slice& value) {
  if (!IsDefaultFamily(cf)) return ColumnFamilyNotSupported();
  WriteBatch* batch = ThreadLocalBatch();
  Status s = batch->Put(key, value);
  if (!s.ok()) return s;
  return WriteImpl(options, batch);
}

Status DBImpl::Delete(const WriteOptions& options, ColumnFamilyHandle* cf, const Slice& key) {
  if (!IsDefaultFamily(cf)) return ColumnFamilyNotSupported();
  WriteBatch* batch = ThreadLocalBatch();
  Status s = batch->Delete(key);
  if (!s.ok()) return s;
  return WriteImpl(options, batch);
}

Status DBImpl::SingleDelete(const WriteOptions& options, ColumnFamilyHandle* cf, const Slice& key) {
  if (!IsDefaultFamily(cf)) return ColumnFamilyNotSupported();
  WriteBatch* batch = ThreadLocalBatch();
  Status s = batch->SingleDelete(key);
  if (!s.ok()) return s;
  return WriteImpl(options, batch);
}

Status DBImpl::DeleteRange(const WriteOptions& options, ColumnFamilyHandle* cf,
                           const Slice& begin, const Slice& end) {
  if (!IsDefaultFamily(cf)) return ColumnFamilyNotSupported();
  const int order = icmp_.user_comparator()->Compare(begin, end);
  if (order > 0) {
    return Status::InvalidArgument("DeleteRange: end key comes before start key");
  }
  if (order == 0) return Status::OK();  // an empty range deletes nothing
  WriteBatch* batch = ThreadLocalBatch();
  Status s = batch->DeleteRange(begin, end);
  if (!s.ok()) return s;
  return WriteImpl(options, batch);
}

Status DBImpl::Merge(const WriteOptions& options, ColumnFamilyHandle* cf, const Slice& key,
                     const Slice& operand) {
  if (!IsDefaultFamily(cf)) return ColumnFamilyNotSupported();
  if (options_.merge_operator == nullptr) return NoMergeOperator();
  WriteBatch* batch = ThreadLocalBatch();
  Status s = batch->Merge(key, operand);
  if (!s.ok()) return s;
  return WriteImpl(options, batch);
}

Status DBImpl::CheckBatchSupported(const WriteBatch& batch) const {
  BatchContents contents;
  Status s = InspectBatch(batch, &contents);
  if (!s.ok()) return s;
  if (contents.non_default_cf > 0) return ColumnFamilyNotSupported();
  if (contents.merges > 0 && options_.merge_operator == nullptr) return NoMergeOperator();
  return Status::OK();
}

Status DBImpl::Write(const WriteOptions& options, WriteBatch* updates) {
  if (updates == nullptr) return Status::InvalidArgument("Write: batch is null");
  Status s = CheckBatchSupported(*updates);
  if (!s.ok()) return s;
  return WriteImpl(options, updates);
}

Status DBImpl::PreprocessWrite(uint64_t group_bytes) {
  if (mem_ == nullptr) return Status::ShutdownInProgress("write to a closed database");
  if (has_bg_error_.load(std::memory_order_acquire)) {
    MutexLock l(&mu_);
    if (!bg_error_.ok()) return bg_error_;
  }
  const bool requested = switch_requested_.load(std::memory_order_acquire);
  const bool full = mem_->ApproximateMemoryUsage() >= options_.write_buffer_size;
  if (requested || full) {
    // Waits first if the immutable memtables are all still unflushed.
    Status s = MaybeStallWrite(group_bytes);
    if (!s.ok()) return s;
    switch_requested_.store(false, std::memory_order_release);
    if (mem_->num_entries() > 0) {
      s = SwitchMemtable();
      if (!s.ok()) return s;
    }
    return Status::OK();
  }
  // Cheap check without the mutex: stalls only matter when level 0 or the
  // compaction debt grew (the Version pointer is read under mu_ inside).
  if (stall_check_needed_.load(std::memory_order_acquire)) return MaybeStallWrite(group_bytes);
  return Status::OK();
}

Status DBImpl::WriteGroupToWAL(const WriteThread::WriteGroup& group, size_t total_count) {
  Status s;
  if (total_count > 0) s = AppendGroupToWAL(group);
  if (s.ok() && group.need_sync) {
    const uint64_t start = stats_ != nullptr ? clock_->NowMicros() : 0;
    // Earlier WALs first: a synced write makes everything before it durable.
    for (auto& old : old_logs_) {
      if (s.ok()) s = old->Sync();
      if (s.ok()) s = old->Close();
    }
    if (s.ok()) old_logs_.clear();
    if (s.ok()) s = log_->Sync();
    wal_syncs_.fetch_add(1, std::memory_order_relaxed);
    if (stats_ != nullptr) {
      stats_->recordTick(WAL_FILE_SYNCED);
      stats_->measureTime(WAL_FILE_SYNC_MICROS, clock_->NowMicros() - start);
    }
  }
  return s;
}

Status DBImpl::AppendGroupToWAL(const WriteThread::WriteGroup& group) {
  Status s;
  if (group.size == 1) {
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
    group_batch_.Clear();
    group.ForEach(
        [this](WriteThread::Writer* w) { WriteBatchInternal::Append(&group_batch_, w->batch); });
    WriteBatchInternal::SetSequence(&group_batch_, group.leader->sequence);
    s = AppendRecordToWAL(WriteBatchInternal::Contents(&group_batch_));
  }
  return s;
}

Status DBImpl::AppendRecordToWAL(const Slice& record) {
  wal_bytes_.fetch_add(record.size(), std::memory_order_relaxed);
  if (stats_ != nullptr) stats_->recordTick(WAL_FILE_BYTES, record.size());
  return log_->AddRecord(record);
}

Status DBImpl::WriteImpl(const WriteOptions& options, WriteBatch* batch, bool force) {
  if (options.sync && options.disableWAL) {
    return Status::InvalidArgument("sync writes need the WAL (disableWAL is set)");
  }
  // An empty batch is a no-op, unless it asks for a sync (SyncWAL).
  if (WriteBatchInternal::Count(batch) == 0 && !options.sync && !force) return Status::OK();

  WriteThread::Writer w(batch, options.sync, options.disableWAL);
  const WriteThread::State state = write_thread_.JoinBatchGroup(&w);
  if (state == WriteThread::State::kCompleted) {
    if (stats_ != nullptr) stats_->recordTick(WRITE_DONE_BY_OTHER);
    return w.status;
  }
  if (state == WriteThread::State::kParallelMemTableWriter) {
    // The leader logged our batch and assigned w.sequence; insert it here,
    // concurrently with the rest of the group.
    w.status = InsertBatchIntoMemTable(*batch, w.sequence, mem_, true, false);
    write_thread_.CompleteParallelMemTableWriter(&w);
    if (stats_ != nullptr) stats_->recordTick(WRITE_DONE_BY_OTHER);
    return w.status;
  }

  // This thread leads a write group.
  if (w.sync) WaitForSyncGroupMembers();
  WriteThread::WriteGroup group;
  write_thread_.EnterAsBatchGroupLeader(&w, &group);
  if (group.need_sync) last_sync_group_size_.store(group.size, std::memory_order_relaxed);
  Status s = PreprocessWrite(group.total_bytes);

  if (s.ok()) {
    SequenceNumber next = last_allocated_sequence_ + 1;
    size_t total_count = 0;
    group.ForEach([&](WriteThread::Writer* m) {
      m->sequence = next;
      const uint32_t n = WriteBatchInternal::Count(m->batch);
      next += n;
      total_count += n;
    });
    group.last_sequence = next - 1;

    if (!group.disable_wal) {
      s = WriteGroupToWAL(group, total_count);
      if (!s.ok()) {
        // The WAL may now end with a partial record: nothing more may be
        // appended after it, so every later write fails with this error.
        MutexLock l(&mu_);
        if (bg_error_.ok()) {
          bg_error_ = s;
          has_bg_error_.store(true, std::memory_order_release);
          Log(InfoLogLevel::kError, info_log_.get(), "WAL write failed: %s", s.ToString().c_str());
        }
      }
    }

    if (s.ok()) {
      last_allocated_sequence_ = group.last_sequence;
      MemTable* mem = mem_;
      // Members insert their own batches in parallel only when the batches
      // are big enough to repay the extra wake-up of every member; for
      // one-key writes the leader inserting them all is cheaper.
      if (group.size > 1 && options_.allow_concurrent_memtable_write &&
          total_count >= 4 * group.size) {
        write_thread_.LaunchParallelMemTableWriters(&group);
        w.status = InsertBatchIntoMemTable(*batch, w.sequence, mem, true, false);
        write_thread_.WaitForParallelMemTableWriters(&group);
      } else {
        const bool concurrent = false;
        group.ForEach([&](WriteThread::Writer* m) {
          m->status = InsertBatchIntoMemTable(*m->batch, m->sequence, mem, concurrent, false);
        });
      }
      // release: readers that see the new sequence see every insert above.
      last_sequence_.store(group.last_sequence, std::memory_order_release);
      write_groups_.fetch_add(1, std::memory_order_relaxed);
      if (stats_ != nullptr) {
        stats_->recordTick(NUMBER_KEYS_WRITTEN, total_count);
        stats_->recordTick(BYTES_WRITTEN, group.total_bytes);
        stats_->recordTick(WRITE_DONE_BY_SELF);
        if (!group.disable_wal) stats_->recordTick(WRITE_WITH_WAL, group.size);
      }
    }
  }

  write_thread_.ExitAsBatchGroupLeader(&group, s);
  if (!s.ok()) return s;
  return w.status;
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

Status DBImpl::SyncWAL() {
  // An empty batch with sync joins the write queue like any writer: the group
  // it lands in syncs the WAL, and no append can race the sync.
  WriteBatch empty;
  WriteOptions options;
  options.sync = true;
  return WriteImpl(options, &empty);
}

}  // namespace strata
