// DBImpl: construction, reads, snapshots, close, and the
// operations this slice does not support yet.
#include "db/db_impl.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include "base/get_context.h"
#include "base/merge_context.h"
#include "db/db_iter.h"
#include "db/filename.h"
#include "env/sst_file_manager_impl.h"
#include "table/merging_iterator.h"
#include "util/instrumented_mutex_lock.h"
#include "util/perf_context_imp.h"
#include "util/stop_watch.h"

namespace strata {

const std::string kDefaultColumnFamilyName = "default";

DB::~DB() = default;

std::vector<Status> DB::MultiGet(const ReadOptions& options, const std::vector<Slice>& keys,
                                 std::vector<std::string>* values) {
  return MultiGet(options, std::vector<ColumnFamilyHandle*>(keys.size(), DefaultColumnFamily()),
                  keys, values);
}

std::vector<Status> DB::MultiGet(const ReadOptions& options,
                                 const std::vector<ColumnFamilyHandle*>& column_families,
                                 const std::vector<Slice>& keys, std::vector<std::string>* values) {
  values->resize(keys.size());
  std::vector<Status> statuses(keys.size());
  ReadOptions pinned = options;
  const Snapshot* snapshot = nullptr;
  if (pinned.snapshot == nullptr) {
    snapshot = GetSnapshot();
    pinned.snapshot = snapshot;
  }
  for (size_t i = 0; i < keys.size(); i++) {
    statuses[i] = i < column_families.size()
                      ? Get(pinned, column_families[i], keys[i], &(*values)[i])
                      : Status::InvalidArgument("MultiGet: one column family per key is needed");
  }
  if (snapshot != nullptr) ReleaseSnapshot(snapshot);
  return statuses;
}

DBImpl::DBImpl(const Options& options, const std::string& dbname, OpenMode mode,
               bool error_if_wal_file_exists)
    : dbname_(dbname),
      wal_dir_(WalDirOf(dbname, options.wal_dir)),
      mode_(mode),
      error_if_wal_file_exists_(error_if_wal_file_exists),
      options_(options),
      env_(options.env),
      fs_(options.env->GetFileSystem()),
      clock_(options.env->GetSystemClock()),
      stats_(options.statistics.get()),
      sfm_(dynamic_cast<SstFileManagerImpl*>(options.sst_file_manager.get())),
      write_thread_(options.max_write_batch_group_size_bytes) {
  // manual_wal_flush buffers the WAL in user space: the write(2) path
  // (an mmap append reaches the page cache at once; see options.h).
  wal_file_options_.use_mmap_writes =
      options_.allow_mmap_writes || (options_.wal_mmap_writes && !options_.manual_wal_flush);
  wal_file_options_.writable_file_max_buffer_size = options_.writable_file_max_buffer_size;
  wal_file_options_.preallocation_block_size = options_.wal_preallocation_size;
  wal_file_options_.use_fsync = options_.use_fsync;
  wal_file_options_.strict_bytes_per_sync = options_.strict_bytes_per_sync;
}

// The destructor closes even with snapshots unreleased (RocksDB's too).
DBImpl::~DBImpl() { CloseImpl().PermitUncheckedError(); }

Status DBImpl::Close() {
  stats_dump_task_.Stop();  // without mu_: a dump in progress takes it
  {
    MutexLock l(&mu_);
    if (!closed_ && !snapshots_.empty()) {
      // As RocksDB: the DB stays open; release the snapshots and close again.
      return Status::Aborted("Cannot close DB with unreleased snapshot.",
                             std::to_string(snapshots_.count()) + " unreleased");
    }
  }
  return CloseImpl();
}

Status DBImpl::CloseImpl() {
  // A LockWAL still held would stop Close's own flushes: lifted.
  ReleaseWalLocks();
  // The destructor comes here without Close: no archive purge may start
  // on a closing DB.
  wal_purge_task_.Stop();
  time_compaction_task_.Stop();
  Status flush_status;
  {
    // Close lifts PauseBackgroundWork: its flush and the jobs' shutdown
    // need the background threads.
    MutexLock l(&mu_);
    bg_work_paused_ = 0;
  }
  if (!read_only() && !options_.avoid_flush_during_shutdown &&
      has_unpersisted_data_.load(std::memory_order_relaxed)) {
    // Writes made without the WAL would be lost with the memtables: flush
    // every family that holds data (RocksDB does the same at shutdown).
    std::vector<ColumnFamilyData*> families;
    {
      MutexLock l(&mu_);
      if (!closed_ && bg_error_.ok()) {
        for (ColumnFamilyData* cfd : versions_->column_families()->live()) {
          cfd->Ref();
          families.push_back(cfd);
        }
      }
    }
    for (ColumnFamilyData* cfd : families) {
      ColumnFamilyHandleImpl handle(cfd, nullptr);
      Status s = Flush(FlushOptions(), &handle);
      if (flush_status.ok() && !s.ok() && !s.IsInvalidArgument()) flush_status = s;
    }
    MutexLock l(&mu_);
    for (ColumnFamilyData* cfd : families) UnrefFamily(cfd);
  }
  {
    MutexLock l(&mu_);
    if (closed_) return Status::OK();
    closed_ = true;
    // Background jobs finish the step they are in and stop.
    shutting_down_.store(true, std::memory_order_release);
    bg_cv_.SignalAll();  // cuts the automatic recovery's wait short
    // Bottom compactions no thread took yet are dropped (RocksDB unschedules
    // them): the BOTTOM pool may have lost its threads meanwhile.
    CancelQueuedBottomCompactions();
    while (flush_scheduled_ || compactions_scheduled_ > 0 || BottomCompactionsScheduled() > 0 ||
           manual_compactions_ > 0 || key_filter_job_scheduled_ || auto_recovery_running_ ||
           recovery_in_progress_) {
      bg_cv_.TimedWaitMicros(10000);
    }
  }
  if (recovery_thread_.joinable()) recovery_thread_.join();
  // A writer waiting in a WriteBufferManager stall goes on (issue 19).
  if (wbm_ != nullptr) wbm_->RemoveDBFromQueue(&wbm_stall_);
  Status s;
  // No writer may be in flight when the user closes the DB (contract); the
  // WAL has been flushed to the OS after every group, so closing it loses
  // nothing that was acknowledged.
  if (log_ != nullptr) {
    s = log_->Close();
    log_.reset();
  }
  for (auto& old : old_logs_) {
    Status c = old->Close();
    if (s.ok()) s = c;
  }
  old_logs_.clear();
  {
    MutexLock l(&mu_);
    if (!snapshots_.empty()) {
      Log(InfoLogLevel::kWarn, info_log_.get(), "closing with %" PRIu64 " live snapshots",
          snapshots_.count());
    }
    // Unflushed immutable memtables are in their WALs: recovery replays
    // them. Handles the user still holds are dangling from here on.
    if (versions_ != nullptr) {
      for (const auto& cfd : versions_->column_families()->all()) cfd->ReleaseResources();
    }
  }
  // The family objects (and the version set) stay until the destructor:
  // calls after Close find no memtable or SuperVersion and fail cleanly.
  if (db_lock_ != nullptr) {
    Status ls = fs_->UnlockFile(std::move(db_lock_));
    if (s.ok()) s = ls;
  }
  if (info_log_ != nullptr) {
    Log(info_log_.get(), "DB closed");
    info_log_->Flush();
  }
  if (s.ok()) s = flush_status;
  return s;
}

// ---- SuperVersion handling ----

SuperVersion* DBImpl::AcquireSuperVersion(ColumnFamilyData* cfd) {
  SuperVersion* sv = cfd->sv_cache.Acquire();
  if (sv == nullptr) {
    RecordTick(stats_, NUMBER_SUPERVERSION_ACQUIRES);
    InstrumentedMutexLock l(&mu_, clock_, stats_);
    if (cfd->super_version() == nullptr) {
      // Closed: hand the slot back empty; the caller reports the shutdown.
      cfd->sv_cache.Release(nullptr);
      return nullptr;
    }
    sv = cfd->super_version()->Ref();
  }
  return sv;
}

void DBImpl::ReleaseSuperVersion(ColumnFamilyData* cfd, SuperVersion* sv) {
  if (cfd->sv_cache.Release(sv)) RecordTick(stats_, NUMBER_SUPERVERSION_RELEASES);
}

SequenceNumber DBImpl::ReadSequence(const ReadOptions& options) const {
  if (options.snapshot != nullptr) return options.snapshot->GetSequenceNumber();
  return last_sequence_.load(std::memory_order_acquire);
}

// ---- reads ----

Status DBImpl::GetImpl(const ReadOptions& options, ColumnFamilyData* cfd, SuperVersion* sv,
                       SequenceNumber seq, const Slice& key, std::string* value, bool* memtable_hit,
                       PinnableSlice* pinnable, MergeContext* operands) {
  const LookupKey lkey(key, seq);
  // One operand buffer per thread, reused by every lookup.
  thread_local MergeContext thread_merge_context;
  MergeContext& merge_context = operands != nullptr ? *operands : thread_merge_context;
  merge_context.Clear();
  GetContext ctx(cfd->user_comparator(), key, value, cfd->options().merge_operator.get(),
                 &merge_context, seq);
  if (pinnable != nullptr) ctx.set_pinnable(pinnable);
  if (operands != nullptr) ctx.collect_operands();
  // kPersistedTier: writes made without the WAL are not persisted, so the
  // memtables are skipped (RocksDB's rule: all of them, once any such write
  // was made).
  const bool skip_memtables =
      options.read_tier == kPersistedTier && has_unpersisted_data_.load(std::memory_order_relaxed);
  bool done = false;
  if (!skip_memtables) {
    PERF_TIMER_GUARD(get_from_memtable_time);
    done = sv->mem->Get(lkey, &ctx);
    PERF_COUNTER_ADD(get_from_memtable_count, 1);
    for (size_t i = 0; !done && i < sv->imm.size(); i++) {
      done = sv->imm[i]->Get(lkey, &ctx);
      PERF_COUNTER_ADD(get_from_memtable_count, 1);
    }
  }
  *memtable_hit = done;
  if (!done) {
    PERF_TIMER_GUARD(get_from_output_files_time);
    Status s = sv->current->Get(options, lkey.internal_key(), &ctx);
    if (!s.ok()) {
      if (pinnable != nullptr) pinnable->Reset();
      return s;
    }
  }
  PERF_TIMER_GUARD(get_post_process_time);
  if (!merge_context.empty()) {
    RecordInHistogram(stats_, READ_NUM_MERGE_OPERANDS, merge_context.size());
  }
  Status s = ctx.Finish(info_log_.get(), stats_);
  if (pinnable != nullptr) {
    if (!s.ok()) {
      pinnable->Reset();
    } else if (!pinnable->IsPinned()) {
      pinnable->PinSelf();  // copied (memtable value or merge result)
    }
  }
  return s;
}

void DBImpl::RecordGetStats(const Status& s, bool memtable_hit, size_t value_size) {
  if (stats_ != nullptr) {
    stats_->recordTick(NUMBER_KEYS_READ);
    stats_->recordTick(memtable_hit ? MEMTABLE_HIT : MEMTABLE_MISS);
    if (s.ok()) {
      stats_->recordTick(BYTES_READ, value_size);
      stats_->recordInHistogram(BYTES_PER_READ, value_size);
    }
  }
  if (s.ok()) PERF_COUNTER_ADD(get_read_bytes, value_size);
}

Status DBImpl::Get(const ReadOptions& options, ColumnFamilyHandle* cf, const Slice& key,
                   std::string* value) {
  ColumnFamilyData* cfd = FamilyOf(cf);
  StopWatch sw(clock_, stats_, DB_GET);
  PERF_TIMER_GUARD(get_snapshot_time);
  SuperVersion* sv = AcquireSuperVersion(cfd);
  if (sv == nullptr) return Status::ShutdownInProgress("Get on a closed database");
  const SequenceNumber seq = ReadSequence(options);
  PERF_TIMER_STOP(get_snapshot_time);
  bool memtable_hit = false;
  Status s = GetImpl(options, cfd, sv, seq, key, value, &memtable_hit);
  {
    PERF_TIMER_GUARD(get_post_process_time);
    ReleaseSuperVersion(cfd, sv);
  }
  RecordGetStats(s, memtable_hit, value->size());
  return s;
}

void DBImpl::MultiGetImpl(const ReadOptions& options, ColumnFamilyData* cfd, SuperVersion* sv,
                          SequenceNumber seq, size_t n, const Slice* keys, std::string* values,
                          Status* statuses, PinnableSlice* pinnables) {
  const Comparator* ucmp = cfd->user_comparator();
  const MergeOperator* merge_operator = cfd->options().merge_operator.get();
  // Per-key state, kept per thread and reused: a steady stream of batches
  // allocates nothing once warmed up.
  thread_local std::vector<uint32_t> order;
  thread_local std::vector<std::string> internal_keys;
  thread_local std::vector<MergeContext> merge_contexts;
  thread_local std::vector<GetContext> contexts;  // in `order`
  thread_local std::vector<Slice> pending_keys;
  thread_local std::vector<GetContext*> pending_contexts;
  thread_local std::vector<Status> pending_statuses;
  order.resize(n);
  for (size_t i = 0; i < n; i++) order[i] = static_cast<uint32_t>(i);
  // Ascending user keys, so each file sees its keys as one sorted batch
  // (ties by position: std::sort allocates nothing, stable_sort may).
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    const int c = ucmp->Compare(keys[a], keys[b]);
    return c < 0 || (c == 0 && a < b);
  });
  if (internal_keys.size() < n) internal_keys.resize(n);
  if (merge_contexts.size() < n) merge_contexts.resize(n);
  contexts.clear();
  contexts.reserve(n);  // no reallocation below: pointers into it stay valid
  pending_keys.clear();
  pending_contexts.clear();
  const bool skip_memtables =
      options.read_tier == kPersistedTier && has_unpersisted_data_.load(std::memory_order_relaxed);
  for (uint32_t i : order) {
    MergeContext& mc = merge_contexts[i];
    mc.Clear();
    GetContext& ctx = contexts.emplace_back(ucmp, keys[i], pinnables ? nullptr : &values[i],
                                            merge_operator, &mc, seq);
    if (pinnables != nullptr) ctx.set_pinnable(&pinnables[i]);
    const LookupKey lkey(keys[i], seq);
    bool done = false;
    if (!skip_memtables) {
      done = sv->mem->Get(lkey, &ctx);
      for (size_t m = 0; !done && m < sv->imm.size(); m++) done = sv->imm[m]->Get(lkey, &ctx);
    }
    if (done) continue;
    internal_keys[i].assign(lkey.internal_key().data(), lkey.internal_key().size());
    pending_keys.emplace_back(internal_keys[i]);
    pending_contexts.push_back(&ctx);
  }
  pending_statuses.assign(pending_keys.size(), Status::OK());
  if (!pending_keys.empty()) {
    sv->current->MultiGet(options, pending_keys.size(), pending_keys.data(),
                          pending_contexts.data(), pending_statuses.data());
  }
  // Each key finishes as Get's does; a table error of its own wins.
  size_t k = 0;  // index into the pending arrays, which follow `order` too
  for (size_t j = 0; j < n; j++) {
    const uint32_t i = order[j];
    GetContext& ctx = contexts[j];
    if (k < pending_contexts.size() && pending_contexts[k] == &ctx) {
      if (!pending_statuses[k++].ok()) {
        statuses[i] = pending_statuses[k - 1];
        continue;
      }
    }
    statuses[i] = ctx.Finish(info_log_.get(), stats_);
  }
  if (pinnables != nullptr) {
    // Memtable values and merge results were written into the slices'
    // buffers; a failed key's slice is emptied.
    for (size_t i = 0; i < n; i++) {
      if (!statuses[i].ok()) {
        pinnables[i].Reset();
      } else if (!pinnables[i].IsPinned()) {
        pinnables[i].PinSelf();
      }
    }
  }
}

std::vector<Status> DBImpl::MultiGet(const ReadOptions& options, const std::vector<Slice>& keys,
                                     std::vector<std::string>* values) {
  return MultiGet(options, std::vector<ColumnFamilyHandle*>(keys.size(), nullptr), keys, values);
}

std::vector<Status> DBImpl::MultiGet(const ReadOptions& options,
                                     const std::vector<ColumnFamilyHandle*>& column_families,
                                     const std::vector<Slice>& keys,
                                     std::vector<std::string>* values) {
  StopWatch sw(clock_, stats_, DB_MULTIGET);
  values->resize(keys.size());
  std::vector<Status> statuses(keys.size());
  if (column_families.size() != keys.size()) {
    for (Status& s : statuses) {
      s = Status::InvalidArgument("MultiGet: one column family per key is needed");
    }
    return statuses;
  }
  // Keys are looked up family by family (most batches have one). Every
  // family's SuperVersion is taken before the sequence is read, so no
  // version visible at that sequence can have been compacted away.
  struct Family {
    ColumnFamilyData* cfd;
    SuperVersion* sv;
    std::vector<size_t> index;
  };
  std::vector<Family> families;
  for (size_t i = 0; i < keys.size(); i++) {
    ColumnFamilyData* cfd = FamilyOf(column_families[i]);
    Family* f = nullptr;
    for (Family& g : families) {
      if (g.cfd == cfd) f = &g;
    }
    if (f == nullptr) {
      families.push_back(Family{cfd, AcquireSuperVersion(cfd), {}});
      f = &families.back();
    }
    f->index.push_back(i);
  }
  const SequenceNumber seq = ReadSequence(options);
  std::vector<Slice> family_keys;
  std::vector<std::string> family_values;
  std::vector<Status> family_statuses;
  for (Family& f : families) {
    if (f.sv == nullptr) {
      for (size_t i : f.index)
        statuses[i] = Status::ShutdownInProgress("MultiGet on a closed database");
      continue;
    }
    if (f.index.size() == keys.size()) {
      MultiGetImpl(options, f.cfd, f.sv, seq, keys.size(), keys.data(), values->data(),
                   statuses.data());
    } else {
      family_keys.clear();
      for (size_t i : f.index) family_keys.push_back(keys[i]);
      family_values.assign(family_keys.size(), std::string());
      family_statuses.assign(family_keys.size(), Status::OK());
      MultiGetImpl(options, f.cfd, f.sv, seq, family_keys.size(), family_keys.data(),
                   family_values.data(), family_statuses.data());
      for (size_t k = 0; k < f.index.size(); k++) {
        (*values)[f.index[k]].swap(family_values[k]);
        statuses[f.index[k]] = family_statuses[k];
      }
    }
    ReleaseSuperVersion(f.cfd, f.sv);
  }
  if (stats_ != nullptr) {
    uint64_t found = 0;
    uint64_t bytes = 0;
    for (size_t i = 0; i < keys.size(); i++) {
      if (statuses[i].ok()) {
        found++;
        bytes += (*values)[i].size();
      }
    }
    stats_->recordTick(NUMBER_MULTIGET_CALLS);
    stats_->recordTick(NUMBER_MULTIGET_KEYS_READ, keys.size());
    stats_->recordTick(NUMBER_MULTIGET_KEYS_FOUND, found);
    stats_->recordTick(NUMBER_MULTIGET_BYTES_READ, bytes);
    stats_->recordInHistogram(BYTES_PER_MULTIGET, bytes);
    PERF_COUNTER_ADD(multiget_read_bytes, bytes);
  }
  return statuses;
}

std::unique_ptr<Iterator> DBImpl::NewIterator(const ReadOptions& options, ColumnFamilyHandle* cf) {
  if (options.read_tier == kPersistedTier) {
    return NewErrorIterator(
        Status::NotSupported("ReadTier::kPersistedData is not yet supported in iterators."));
  }
  ColumnFamilyData* cfd = FamilyOf(cf);
  // The iterator keeps its own reference to the SuperVersion (not the
  // thread's cached one: it may outlive this call and move between threads).
  SuperVersion* sv;
  {
    InstrumentedMutexLock l(&mu_, clock_, stats_);
    if (cfd->super_version() == nullptr) {
      return NewErrorIterator(Status::ShutdownInProgress("NewIterator on a closed database"));
    }
    sv = cfd->super_version()->Ref();
  }
  DBIterSource src = NewIteratorSource(options, cfd, sv, ReadSequence(options));
  if (!src.status.ok()) return NewErrorIterator(src.status);
  return NewIteratorFrom(options, cfd, std::move(src));
}

DBIterSource DBImpl::NewIteratorSource(const ReadOptions& options, ColumnFamilyData* cfd,
                                       SuperVersion* sv, SequenceNumber seq) {
  DBIterSource src;
  const InternalKeyComparator& icmp = cfd->icmp();
  std::vector<std::unique_ptr<InternalIterator>> children;
  // One allocation: the memtables, every L0 file and one per deeper level.
  children.reserve(1 + sv->imm.size() + static_cast<size_t>(sv->current->NumLevelFiles(0)) +
                   static_cast<size_t>(sv->current->num_levels()));
  // Range tombstones of every source; the memtables' lists are shared, the
  // Version's live as long as the Version (held by sv).
  std::vector<std::shared_ptr<const FragmentedRangeTombstoneList>> owned;
  auto add_memtable = [&](MemTable* m) {
    children.emplace_back(m->NewIterator());
    if (m->num_range_deletes() != 0) {
      owned.push_back(m->GetRangeTombstones());
      src.range_tombstones.push_back(owned.back().get());
    }
  };
  add_memtable(sv->mem);
  for (MemTable* m : sv->imm) add_memtable(m);
  // kMemtableTier: the memtables alone (RocksDB's memtable-only iterator).
  if (options.read_tier != kMemtableTier) {
    const FragmentedRangeTombstoneList* version_tombstones = nullptr;
    Status s = sv->current->GetRangeTombstones(&version_tombstones);
    if (!s.ok()) {
      sv->Unref();
      src.status = s;
      src.range_tombstones.clear();
      return src;
    }
    if (version_tombstones != nullptr) src.range_tombstones.push_back(version_tombstones);
    sv->current->AddIterators(options, &children, &src.range_tombstones, seq);
  }
  src.input = NewMergingIterator(&icmp, std::move(children));
  src.sequence = seq;
  src.super_version_number = sv->version_number;
  if (owned.empty()) {
    src.cleanup = [sv]() { sv->Unref(); };  // fits std::function's inline buffer
  } else {
    src.cleanup = [sv, owned = std::move(owned)]() mutable {
      owned.clear();
      sv->Unref();
    };
  }
  return src;
}

std::unique_ptr<Iterator> DBImpl::NewIteratorFrom(const ReadOptions& options, ColumnFamilyData* cfd,
                                                  DBIterSource src) {
  DBIterRefresher refresher;
  if (options.snapshot == nullptr) {
    // Refresh: the family's newest SuperVersion at the newest sequence.
    refresher = [this, cfd](const ReadOptions& options) {
      SuperVersion* sv = nullptr;
      {
        MutexLock l(&mu_);
        if (cfd->super_version() != nullptr) sv = cfd->super_version()->Ref();
      }
      if (sv == nullptr) {
        DBIterSource none;
        none.status = Status::ShutdownInProgress("Refresh on a closed database");
        return none;
      }
      return NewIteratorSource(options, cfd, sv, ReadSequence(options));
    };
  }
  return NewDBIterator(options, cfd->icmp().user_comparator(), std::move(src.input), src.sequence,
                       stats_, std::move(src.cleanup), cfd->options().merge_operator.get(),
                       std::move(src.range_tombstones), cfd->options().prefix_extractor.get(),
                       std::move(refresher), src.super_version_number);
}

const Snapshot* DBImpl::GetSnapshot() {
  int64_t now = 0;
  clock_->GetCurrentTime(&now).PermitUncheckedError();
  MutexLock l(&mu_);
  return snapshots_.New(last_sequence_.load(std::memory_order_acquire), now);
}

void DBImpl::ReleaseSnapshot(const Snapshot* snapshot) {
  if (snapshot == nullptr) return;
  MutexLock l(&mu_);
  snapshots_.Delete(static_cast<const SnapshotImpl*>(snapshot));
}

// ---- column families ----

Status DBImpl::CreateColumnFamily(const ColumnFamilyOptions& options, const std::string& name,
                                  ColumnFamilyHandle** handle) {
  if (read_only()) return ReadOnlyError();
  if (handle == nullptr) return Status::InvalidArgument("CreateColumnFamily: handle is null");
  *handle = nullptr;
  return CreateColumnFamilyImpl(options, name, handle);
}

Status DBImpl::CreateColumnFamilyImpl(const ColumnFamilyOptions& given, const std::string& name,
                                      ColumnFamilyHandle** handle) {
  {
    MutexLock l(&mu_);
    if (closed_) return Status::ShutdownInProgress("CreateColumnFamily on a closed database");
  }
  ColumnFamilyOptions options = given;
  std::vector<std::string> notes;
  ApplyMemoryBudget(options_, budget_, &options, &notes);
  SanitizeColumnFamilyOptions(&options, &notes);
  for (const std::string& n : notes) {
    Log(InfoLogLevel::kWarn, info_log_.get(), "sanitized: [%s] %s", name.c_str(), n.c_str());
  }
  Status s = ValidateColumnFamilyOptions(options);
  if (s.ok()) s = ValidateOptions(Options(options_, options));
  if (!s.ok()) return s;
  if (name.empty()) return Status::InvalidArgument("column family name must not be empty");
  // The family's own table paths are created as RocksDB creates them.
  for (const DbPath& p : options.cf_paths) {
    s = fs_->CreateDirIfMissing(p.path);
    if (!s.ok()) return s;
  }
  ColumnFamilyData* created = nullptr;
  // Exclusive: the write path reads the family set without the mutex.
  s = RunExclusive([&]() -> Status {
    {
      MutexLock l(&mu_);
      if (versions_->column_families()->GetByName(name) != nullptr) {
        return Status::InvalidArgument("column family already exists", name);
      }
      // The family's data starts in the current WAL.
      Status st = versions_->CreateColumnFamily(name, options, log_number_, &mu_, &created);
      if (!st.ok()) return st;
      created->mem() = new MemTable(created->icmp(), created->mem_options());
      // Run by the write leader: every later write lands in this memtable.
      created->mem()->SetEarliestSequenceNumber(last_allocated_sequence_ + 1);
      created->mem_log_number() = log_number_;
      created->Ref();  // the handle's
      InstallNewSuperVersion(created);
      multi_cf_ = versions_->column_families()->NumberOfColumnFamilies() > 1;
      Log(info_log_.get(), "created column family \"%s\" (id %u)", name.c_str(), created->id());
    }
    RewriteOptionsFile();
    return Status::OK();
  });
  if (!s.ok()) return s;
  *handle = new ColumnFamilyHandleImpl(created, this);
  return Status::OK();
}

Status DBImpl::DropColumnFamily(ColumnFamilyHandle* handle) {
  if (read_only()) return ReadOnlyError();
  if (handle == nullptr) return Status::InvalidArgument("DropColumnFamily: handle is null");
  ColumnFamilyData* cfd = FamilyOf(handle);
  if (cfd->id() == 0) {
    return Status::InvalidArgument("Can't drop default column family");
  }
  return RunExclusive([&]() -> Status {
    {
      MutexLock l(&mu_);
      if (cfd->dropped()) {
        return Status::InvalidArgument("column family already dropped", cfd->name());
      }
      Status st = versions_->DropColumnFamily(cfd, &mu_);
      if (!st.ok()) return st;
      // Out of the live set: no write, flush or compaction picks it again;
      // the set's reference goes (handles keep theirs).
      multi_cf_ = versions_->column_families()->NumberOfColumnFamilies() > 1;
      Log(info_log_.get(), "dropped column family \"%s\" (id %u)", cfd->name().c_str(), cfd->id());
      UnrefFamily(cfd);
      // Its WAL data is no longer needed: older WALs may go.
      DeleteObsoleteFiles();
    }
    RewriteOptionsFile();
    return Status::OK();
  });
}

void DBImpl::UnrefFamily(ColumnFamilyData* cfd) {
  mu_.AssertHeld();
  if (cfd->Unref() && cfd->dropped()) {
    // Nothing refers to the dropped family any more: its Versions go, and
    // with them (once iterators let go of their SuperVersions) its files.
    cfd->ReleaseResources();
  }
}

Status DBImpl::DestroyColumnFamilyHandle(ColumnFamilyHandle* handle) {
  if (handle == nullptr || handle == default_cf_.get()) return Status::OK();
  delete handle;  // ~ColumnFamilyHandleImpl releases the family
  return Status::OK();
}

void DBImpl::ReleaseFamilyHandle(ColumnFamilyData* cfd) {
  MutexLock l(&mu_);
  if (closed_) return;
  UnrefFamily(cfd);
  // A read-only or secondary instance never deletes files: the directory
  // is another instance's (or nobody's to change), and the families it did
  // not open hold live files it does not know of.
  if (!read_only()) DeleteObsoleteFiles();
}

ColumnFamilyHandleImpl::~ColumnFamilyHandleImpl() {
  if (db_ != nullptr) db_->ReleaseFamilyHandle(cfd_);
}

Status ColumnFamilyHandleImpl::GetDescriptor(ColumnFamilyDescriptor* desc) {
  if (owner_ == nullptr) {
    return Status::InvalidArgument("GetDescriptor: a handle of no DB", cfd_->name());
  }
  *desc = ColumnFamilyDescriptor(cfd_->name(), ColumnFamilyOptions(owner_->GetOptions(this)));
  return Status::OK();
}

ColumnFamilyHandle* DBImpl::DefaultColumnFamily() const { return default_cf_.get(); }

// ---- read and write API ----

Status DBImpl::Get(const ReadOptions& options, ColumnFamilyHandle* cf, const Slice& key,
                   PinnableSlice* value) {
  ColumnFamilyData* cfd = FamilyOf(cf);
  StopWatch sw(clock_, stats_, DB_GET);
  PERF_TIMER_GUARD(get_snapshot_time);
  SuperVersion* sv = AcquireSuperVersion(cfd);
  if (sv == nullptr) {
    value->Reset();
    return Status::ShutdownInProgress("Get on a closed database");
  }
  const SequenceNumber seq = ReadSequence(options);
  PERF_TIMER_STOP(get_snapshot_time);
  bool memtable_hit = false;
  // A pinned value holds what keeps its bytes (a cache handle, a Version or
  // a table reader), never the SuperVersion, which goes back now.
  Status s = GetImpl(options, cfd, sv, seq, key, nullptr, &memtable_hit, value);
  {
    PERF_TIMER_GUARD(get_post_process_time);
    ReleaseSuperVersion(cfd, sv);
  }
  RecordGetStats(s, memtable_hit, value->size());
  return s;
}

void DBImpl::MultiGet(const ReadOptions& options, ColumnFamilyHandle* cf, size_t num_keys,
                      const Slice* keys, PinnableSlice* values, Status* statuses,
                      bool /*sorted_input*/) {
  if (num_keys == 0) return;
  StopWatch sw(clock_, stats_, DB_MULTIGET);
  ColumnFamilyData* cfd = FamilyOf(cf);
  SuperVersion* sv = AcquireSuperVersion(cfd);
  if (sv == nullptr) {
    for (size_t i = 0; i < num_keys; i++) {
      values[i].Reset();
      statuses[i] = Status::ShutdownInProgress("MultiGet on a closed database");
    }
    return;
  }
  const SequenceNumber seq = ReadSequence(options);
  MultiGetImpl(options, cfd, sv, seq, num_keys, keys, nullptr, statuses, values);
  ReleaseSuperVersion(cfd, sv);
  if (stats_ != nullptr) {
    uint64_t found = 0;
    uint64_t bytes = 0;
    for (size_t i = 0; i < num_keys; i++) {
      if (statuses[i].ok()) {
        found++;
        bytes += values[i].size();
      }
    }
    stats_->recordTick(NUMBER_MULTIGET_CALLS);
    stats_->recordTick(NUMBER_MULTIGET_KEYS_READ, num_keys);
    stats_->recordTick(NUMBER_MULTIGET_KEYS_FOUND, found);
    stats_->recordTick(NUMBER_MULTIGET_BYTES_READ, bytes);
    stats_->recordInHistogram(BYTES_PER_MULTIGET, bytes);
  }
}

void DBImpl::MultiGet(const ReadOptions& options, size_t num_keys,
                      ColumnFamilyHandle** column_families, const Slice* keys,
                      PinnableSlice* values, Status* statuses, bool sorted_input) {
  if (num_keys == 0) return;
  // Most batches name one family: then it is the single-family call.
  bool one_family = true;
  for (size_t i = 1; i < num_keys && one_family; i++) {
    one_family = FamilyOf(column_families[i]) == FamilyOf(column_families[0]);
  }
  if (one_family) {
    MultiGet(options, column_families[0], num_keys, keys, values, statuses, sorted_input);
    return;
  }
  // Several families: every SuperVersion is taken before the sequence is
  // read (as in the vector MultiGet), then each family's keys go as a batch.
  struct Family {
    ColumnFamilyData* cfd;
    SuperVersion* sv;
    std::vector<size_t> index;
  };
  std::vector<Family> families;
  for (size_t i = 0; i < num_keys; i++) {
    ColumnFamilyData* cfd = FamilyOf(column_families[i]);
    Family* f = nullptr;
    for (Family& g : families) {
      if (g.cfd == cfd) f = &g;
    }
    if (f == nullptr) {
      families.push_back(Family{cfd, AcquireSuperVersion(cfd), {}});
      f = &families.back();
    }
    f->index.push_back(i);
  }
  const SequenceNumber seq = ReadSequence(options);
  std::vector<Slice> family_keys;
  std::vector<PinnableSlice> family_values;
  std::vector<Status> family_statuses;
  for (Family& f : families) {
    if (f.sv == nullptr) {
      for (size_t i : f.index) {
        values[i].Reset();
        statuses[i] = Status::ShutdownInProgress("MultiGet on a closed database");
      }
      continue;
    }
    family_keys.clear();
    for (size_t i : f.index) family_keys.push_back(keys[i]);
    family_values.clear();
    family_values.resize(family_keys.size());
    family_statuses.assign(family_keys.size(), Status::OK());
    MultiGetImpl(options, f.cfd, f.sv, seq, family_keys.size(), family_keys.data(), nullptr,
                 family_statuses.data(), family_values.data());
    for (size_t k = 0; k < f.index.size(); k++) {
      PinnableSlice& out = values[f.index[k]];
      if (!family_statuses[k].ok()) {
        out.Reset();
      } else if (family_values[k].IsPinned()) {
        out.PinSlice(family_values[k], &family_values[k]);  // takes over the pin
      } else {
        out.PinSelf(family_values[k]);
      }
      statuses[f.index[k]] = family_statuses[k];
    }
    ReleaseSuperVersion(f.cfd, f.sv);
  }
}

bool DBImpl::KeyMayExist(const ReadOptions& options, ColumnFamilyHandle* cf, const Slice& key,
                         std::string* value, bool* value_found) {
  // A Get that may not read table blocks from files (RocksDB's way): the
  // memtables, and the tables only as far as their blocks are in memory.
  ReadOptions ro = options;
  ro.read_tier = kBlockCacheTier;
  std::string scratch;
  Status s = Get(ro, cf, key, value != nullptr ? value : &scratch);
  if (value_found != nullptr) *value_found = s.ok();
  // Only a decided NotFound proves absence. (RocksDB also answers false
  // on an error such as Corruption; "may exist" is the safe answer.)
  return !s.IsNotFound();
}

Status DBImpl::GetMergeOperands(const ReadOptions& options, ColumnFamilyHandle* cf,
                                const Slice& key, PinnableSlice* merge_operands,
                                GetMergeOperandsOptions* get_merge_operands_options,
                                int* number_of_operands) {
  if (merge_operands == nullptr || get_merge_operands_options == nullptr ||
      number_of_operands == nullptr) {
    return Status::InvalidArgument(
        "GetMergeOperands: merge_operands, options and number_of_operands must not be null");
  }
  const int capacity = get_merge_operands_options->expected_max_number_of_operands;
  for (int i = 0; i < capacity; i++) merge_operands[i].Reset();
  ColumnFamilyData* cfd = FamilyOf(cf);
  StopWatch sw(clock_, stats_, DB_GET);
  SuperVersion* sv = AcquireSuperVersion(cfd);
  if (sv == nullptr) return Status::ShutdownInProgress("GetMergeOperands on a closed database");
  const SequenceNumber seq = ReadSequence(options);
  MergeContext operands;
  bool memtable_hit = false;
  std::string unused;
  Status s = GetImpl(options, cfd, sv, seq, key, &unused, &memtable_hit, nullptr, &operands);
  if (s.ok()) {
    const std::vector<Slice>& list = operands.GetOperands();  // oldest first
    *number_of_operands = static_cast<int>(list.size());
    if (*number_of_operands > capacity) {
      // RocksDB: the count is reported, nothing is copied.
      s = Status::Incomplete(
          "GetMergeOperands: more merge operands than "
          "expected_max_number_of_operands",
          std::to_string(list.size()) + " > " + std::to_string(capacity));
    } else {
      // Copied while the SuperVersion still holds the memtables they may
      // point into.
      for (size_t i = 0; i < list.size(); i++) merge_operands[i].PinSelf(list[i]);
    }
  }
  ReleaseSuperVersion(cfd, sv);
  RecordTick(stats_, NUMBER_KEYS_READ);
  return s;
}

Status DBImpl::NewIterators(const ReadOptions& options,
                            const std::vector<ColumnFamilyHandle*>& column_families,
                            std::vector<std::unique_ptr<Iterator>>* iterators) {
  if (iterators == nullptr) return Status::InvalidArgument("NewIterators: iterators is null");
  iterators->clear();
  if (options.read_tier == kPersistedTier) {
    return Status::NotSupported("ReadTier::kPersistedData is not yet supported in iterators.");
  }
  // Every family's SuperVersion is taken, then one sequence is read for all:
  // no SuperVersion can miss data at or below it (a flush installs the new
  // SuperVersion before the sequence of later writes is published).
  std::vector<SuperVersion*> svs;
  svs.reserve(column_families.size());
  {
    InstrumentedMutexLock l(&mu_, clock_, stats_);
    for (ColumnFamilyHandle* cf : column_families) {
      ColumnFamilyData* cfd = FamilyOf(cf);
      if (cfd->super_version() == nullptr) {
        for (SuperVersion* sv : svs) sv->Unref();
        return Status::ShutdownInProgress("NewIterators on a closed database");
      }
      svs.push_back(cfd->super_version()->Ref());
    }
  }
  const SequenceNumber seq = ReadSequence(options);
  Status s;
  for (size_t i = 0; i < column_families.size(); i++) {
    ColumnFamilyData* cfd = FamilyOf(column_families[i]);
    if (!s.ok()) {
      svs[i]->Unref();
      continue;
    }
    DBIterSource src = NewIteratorSource(options, cfd, svs[i], seq);  // takes svs[i]
    if (!src.status.ok()) {
      s = src.status;
      continue;
    }
    iterators->push_back(NewIteratorFrom(options, cfd, std::move(src)));
  }
  if (!s.ok()) iterators->clear();
  return s;
}

}  // namespace strata
