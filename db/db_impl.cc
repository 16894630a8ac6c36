// DBImpl: construction, reads, snapshots, close, and the
// operations this slice does not support yet.
#include "db/db_impl.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include "base/get_context.h"
#include "base/merge_context.h"
#include "db/db_iter.h"
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
      mode_(mode),
      error_if_wal_file_exists_(error_if_wal_file_exists),
      options_(options),
      env_(options.env),
      fs_(options.env->GetFileSystem()),
      clock_(options.env->GetSystemClock()),
      stats_(options.statistics.get()),
      write_thread_(options.max_write_batch_group_size_bytes) {
  // manual_wal_flush buffers the WAL in user space: the write(2) path
  // (an mmap append reaches the page cache at once; see options.h).
  wal_file_options_.use_mmap_writes =
      options_.allow_mmap_writes || (options_.wal_mmap_writes && !options_.manual_wal_flush);
  wal_file_options_.writable_file_max_buffer_size = options_.writable_file_max_buffer_size;
  wal_file_options_.preallocation_block_size = options_.wal_preallocation_size;
  wal_file_options_.use_fsync = options_.use_fsync;
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
  // The destructor comes here without Close: no archive purge may start
  // on a closing DB.
  wal_purge_task_.Stop();
  Status flush_status;
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
      ColumnFamilyHandleImpl handle(cfd);
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
    while (flush_scheduled_ || compactions_scheduled_ > 0 || manual_compactions_ > 0 ||
           key_filter_job_scheduled_ || auto_recovery_running_ || recovery_in_progress_) {
      bg_cv_.TimedWaitMicros(10000);
    }
  }
  if (recovery_thread_.joinable()) recovery_thread_.join();
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
    info_log_->Flush().PermitUncheckedError();
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
                       SequenceNumber seq, const Slice& key, std::string* value,
                       bool* memtable_hit) {
  const LookupKey lkey(key, seq);
  // One operand buffer per thread, reused by every lookup.
  thread_local MergeContext merge_context;
  merge_context.Clear();
  GetContext ctx(cfd->user_comparator(), key, value, cfd->options().merge_operator.get(),
                 &merge_context, seq);
  bool done;
  {
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
    if (!s.ok()) return s;
  }
  PERF_TIMER_GUARD(get_post_process_time);
  if (!merge_context.empty()) {
    RecordInHistogram(stats_, READ_NUM_MERGE_OPERANDS, merge_context.size());
  }
  return ctx.Finish(info_log_.get(), stats_);
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
  if (stats_ != nullptr) {
    stats_->recordTick(NUMBER_KEYS_READ);
    stats_->recordTick(memtable_hit ? MEMTABLE_HIT : MEMTABLE_MISS);
    if (s.ok()) {
      stats_->recordTick(BYTES_READ, value->size());
      stats_->recordInHistogram(BYTES_PER_READ, value->size());
    }
  }
  if (s.ok()) PERF_COUNTER_ADD(get_read_bytes, value->size());
  return s;
}

void DBImpl::MultiGetImpl(const ReadOptions& options, ColumnFamilyData* cfd, SuperVersion* sv,
                          SequenceNumber seq, size_t n, const Slice* keys, std::string* values,
                          Status* statuses) {
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
  for (uint32_t i : order) {
    MergeContext& mc = merge_contexts[i];
    mc.Clear();
    GetContext& ctx = contexts.emplace_back(ucmp, keys[i], &values[i], merge_operator, &mc, seq);
    const LookupKey lkey(keys[i], seq);
    bool done = sv->mem->Get(lkey, &ctx);
    for (size_t m = 0; !done && m < sv->imm.size(); m++) done = sv->imm[m]->Get(lkey, &ctx);
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
  const InternalKeyComparator& icmp = cfd->icmp();
  const SequenceNumber seq = ReadSequence(options);
  std::vector<std::unique_ptr<InternalIterator>> children;
  // Range tombstones of every source; the memtables' lists are shared, the
  // Version's live as long as the Version (held by sv).
  std::vector<std::shared_ptr<const FragmentedRangeTombstoneList>> owned;
  std::vector<const FragmentedRangeTombstoneList*> tombstones;
  auto add_memtable = [&](MemTable* m) {
    children.emplace_back(m->NewIterator());
    if (m->num_range_deletes() != 0) {
      owned.push_back(m->GetRangeTombstones());
      tombstones.push_back(owned.back().get());
    }
  };
  add_memtable(sv->mem);
  for (MemTable* m : sv->imm) add_memtable(m);
  const FragmentedRangeTombstoneList* version_tombstones = nullptr;
  Status s = sv->current->GetRangeTombstones(&version_tombstones);
  if (!s.ok()) {
    sv->Unref();
    return NewErrorIterator(s);
  }
  if (version_tombstones != nullptr) tombstones.push_back(version_tombstones);
  sv->current->AddIterators(options, &children, &tombstones, seq);
  return NewDBIterator(
      options, icmp.user_comparator(), NewMergingIterator(&icmp, std::move(children)), seq, stats_,
      [sv, owned = std::move(owned)]() mutable {
        owned.clear();
        sv->Unref();
      },
      cfd->options().merge_operator.get(), std::move(tombstones),
      cfd->options().prefix_extractor.get());
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
  SanitizeColumnFamilyOptions(&options, &notes);
  for (const std::string& n : notes) {
    Log(InfoLogLevel::kWarn, info_log_.get(), "sanitized: [%s] %s", name.c_str(), n.c_str());
  }
  Status s = ValidateColumnFamilyOptions(options);
  if (!s.ok()) return s;
  if (name.empty()) return Status::InvalidArgument("column family name must not be empty");
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
  *handle = new ColumnFamilyHandleImpl(created);
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
  auto* impl = static_cast<ColumnFamilyHandleImpl*>(handle);
  {
    MutexLock l(&mu_);
    if (!closed_) {
      UnrefFamily(impl->cfd());
      DeleteObsoleteFiles();
    }
  }
  delete impl;
  return Status::OK();
}

ColumnFamilyHandle* DBImpl::DefaultColumnFamily() const { return default_cf_.get(); }

}  // namespace strata
