// DBImpl: construction, reads, snapshots, properties, close, and the
// operations this slice does not support yet.
#include "db/db_impl.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include "db/db_iter.h"
#include "db/merge_context.h"
#include "db/merge_helper.h"
#include "table/merging_iterator.h"

namespace strata {

const std::string kDefaultColumnFamilyName = "default";

DB::~DB() = default;

std::vector<Status> DB::MultiGet(const ReadOptions& options, const std::vector<Slice>& keys,
                                 std::vector<std::string>* values) {
  values->resize(keys.size());
  std::vector<Status> statuses;
  statuses.reserve(keys.size());
  // Pin one view for all keys so the results are mutually consistent.
  ReadOptions pinned = options;
  const Snapshot* snapshot = nullptr;
  if (pinned.snapshot == nullptr) {
    snapshot = GetSnapshot();
    pinned.snapshot = snapshot;
  }
  for (size_t i = 0; i < keys.size(); i++) {
    statuses.push_back(Get(pinned, keys[i], &(*values)[i]));
  }
  if (snapshot != nullptr) ReleaseSnapshot(snapshot);
  return statuses;
}

class DBImpl::DefaultColumnFamilyHandle final : public ColumnFamilyHandle {
 public:
  const std::string& GetName() const override { return kDefaultColumnFamilyName; }
  uint32_t GetID() const override { return 0; }
};

namespace {

size_t ArenaBlockSize(const Options& options) {
  if (options.arena_block_size != 0) return options.arena_block_size;
  size_t size = options.write_buffer_size / 8;
  if (size < 4096) size = 4096;
  // 2 MiB blocks go on transparent huge pages (see util/arena.cc): far fewer
  // TLB misses for the random walks of a large skip list.
  if (size > (2 << 20)) size = 2 << 20;
  return size;
}

}  // namespace

DBImpl::DBImpl(const Options& options, const std::string& dbname)
    : dbname_(dbname),
      options_(options),
      env_(options.env),
      fs_(options.env->GetFileSystem()),
      clock_(options.env->GetSystemClock()),
      icmp_(options.comparator),
      stats_(options.statistics.get()),
      default_cf_(std::make_unique<DefaultColumnFamilyHandle>()),
      write_thread_(options.max_write_batch_group_size_bytes) {
  wal_file_options_.use_mmap_writes = options_.allow_mmap_writes || options_.wal_mmap_writes;
  wal_file_options_.writable_file_max_buffer_size = options_.writable_file_max_buffer_size;
  wal_file_options_.preallocation_block_size = options_.wal_preallocation_size;
  mem_options_.arena_block_size = ArenaBlockSize(options_);
  mem_options_.max_height = options_.memtable_max_height;
  mem_options_.branching_factor = options_.memtable_branching_factor;
  mem_options_.point_index = options_.memtable_point_index;
  mem_options_.prefix_extractor = options_.prefix_extractor.get();
  mem_options_.whole_key_filtering = options_.memtable_whole_key_filtering;
  mem_options_.bloom_bits =
      DynamicBloom::TotalBitsFor(options_.write_buffer_size,
                                 std::min(options_.memtable_prefix_bloom_size_ratio, 0.25));
}

DBImpl::~DBImpl() { Close().PermitUncheckedError(); }

Status DBImpl::Close() {
  {
    MutexLock l(&mu_);
    if (closed_) return Status::OK();
    closed_ = true;
    // Background jobs finish the step they are in and stop.
    shutting_down_.store(true, std::memory_order_release);
    while (flush_scheduled_ || compactions_scheduled_ > 0 || manual_compactions_ > 0) {
      bg_cv_.TimedWaitMicros(10000);
    }
  }
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
  sv_cache_.ResetAll();
  {
    MutexLock l(&mu_);
    if (!snapshots_.empty()) {
      Log(InfoLogLevel::kWarn, info_log_.get(), "closing with %" PRIu64 " live snapshots",
          snapshots_.count());
    }
    if (super_version_ != nullptr) {
      super_version_->Unref();
      super_version_ = nullptr;
    }
    // Unflushed immutable memtables are in their WALs: recovery replays them.
    for (const ImmMemTable& imm : imm_) imm.mem->Unref();
    imm_.clear();
  }
  if (mem_ != nullptr) mem_->Unref();
  mem_ = nullptr;
  versions_.reset();
  table_cache_.reset();
  if (db_lock_ != nullptr) {
    Status ls = fs_->UnlockFile(std::move(db_lock_));
    if (s.ok()) s = ls;
  }
  if (info_log_ != nullptr) {
    Log(info_log_.get(), "DB closed");
    info_log_->Flush().PermitUncheckedError();
  }
  return s;
}

// ---- SuperVersion handling ----

SuperVersion* DBImpl::AcquireSuperVersion() {
  SuperVersion* sv = sv_cache_.Acquire();
  if (sv == nullptr) {
    MutexLock l(&mu_);
    if (super_version_ == nullptr) {
      // Closed: hand the slot back empty; the caller reports the shutdown.
      sv_cache_.Release(nullptr);
      return nullptr;
    }
    sv = super_version_->Ref();
  }
  return sv;
}

void DBImpl::ReleaseSuperVersion(SuperVersion* sv) { sv_cache_.Release(sv); }

void DBImpl::InstallSuperVersion(SuperVersion* sv) {
  mu_.AssertHeld();
  sv->version_number = ++super_version_number_;
  SuperVersion* old = super_version_;
  super_version_ = sv->Ref();
  sv_cache_.ResetAll();
  if (old != nullptr) old->Unref();
}

SequenceNumber DBImpl::ReadSequence(const ReadOptions& options) const {
  if (options.snapshot != nullptr) return options.snapshot->GetSequenceNumber();
  return last_sequence_.load(std::memory_order_acquire);
}

// ---- reads ----

Status DBImpl::GetImpl(const ReadOptions& options, SuperVersion* sv, SequenceNumber seq,
                       const Slice& key, std::string* value, bool* memtable_hit) {
  const LookupKey lkey(key, seq);
  // One operand buffer per thread, reused by every lookup.
  thread_local MergeContext merge_context;
  merge_context.Clear();
  SequenceNumber max_covering_tombstone_seq = 0;
  const MergeOperator* merge_operator = options_.merge_operator.get();
  Status s;
  bool done = sv->mem->Get(lkey, value, &s, &merge_context, &max_covering_tombstone_seq,
                           merge_operator);
  for (size_t i = 0; !done && i < sv->imm.size(); i++) {
    done = sv->imm[i]->Get(lkey, value, &s, &merge_context, &max_covering_tombstone_seq,
                           merge_operator);
  }
  *memtable_hit = done;
  if (done) return s;
  GetContext ctx(icmp_.user_comparator(), key, value, merge_operator, &merge_context,
                 &max_covering_tombstone_seq);
  if (!merge_context.empty()) ctx.SetMergeInProgress();
  s = sv->current->Get(options, lkey.internal_key(), &ctx, &max_covering_tombstone_seq);
  if (!s.ok()) return s;
  switch (ctx.state()) {
    case GetContext::kFound:
      return Status::OK();
    case GetContext::kNotFound:
    case GetContext::kDeleted:
      return Status::NotFound();
    case GetContext::kMerge:
      // Operands all the way down: merge them over no base value.
      return MergeHelper::TimedFullMerge(merge_operator, key, nullptr,
                                         merge_context.GetOperands(), value, info_log_.get(),
                                         stats_);
    case GetContext::kCorrupt:
      return ctx.error();
  }
  return Status::Corruption("unreachable lookup state");
}

Status DBImpl::Get(const ReadOptions& options, ColumnFamilyHandle* cf, const Slice& key,
                   std::string* value) {
  if (cf != nullptr && cf->GetID() != 0) {
    return Status::NotSupported("column families other than \"default\" are not supported yet");
  }
  const uint64_t start = stats_ != nullptr ? clock_->NowNanos() : 0;
  SuperVersion* sv = AcquireSuperVersion();
  if (sv == nullptr) return Status::ShutdownInProgress("Get on a closed database");
  bool memtable_hit = false;
  Status s = GetImpl(options, sv, ReadSequence(options), key, value, &memtable_hit);
  ReleaseSuperVersion(sv);
  if (stats_ != nullptr) {
    stats_->recordTick(NUMBER_KEYS_READ);
    stats_->recordTick(memtable_hit ? MEMTABLE_HIT : MEMTABLE_MISS);
    if (s.ok()) {
      stats_->recordTick(NUMBER_KEYS_FOUND);
      stats_->recordTick(BYTES_READ, value->size());
    }
    stats_->measureTime(DB_GET, (clock_->NowNanos() - start) / 1000);
  }
  return s;
}

std::vector<Status> DBImpl::MultiGet(const ReadOptions& options, const std::vector<Slice>& keys,
                                     std::vector<std::string>* values) {
  values->resize(keys.size());
  std::vector<Status> statuses(keys.size());
  SuperVersion* sv = AcquireSuperVersion();
  if (sv == nullptr) {
    for (Status& s : statuses) s = Status::ShutdownInProgress("MultiGet on a closed database");
    return statuses;
  }
  // One SuperVersion and one sequence for every key: mutually consistent
  // answers.
  const SequenceNumber seq = ReadSequence(options);
  uint64_t found = 0;
  uint64_t bytes = 0;
  for (size_t i = 0; i < keys.size(); i++) {
    bool memtable_hit;
    statuses[i] = GetImpl(options, sv, seq, keys[i], &(*values)[i], &memtable_hit);
    if (statuses[i].ok()) {
      found++;
      bytes += (*values)[i].size();
    }
  }
  ReleaseSuperVersion(sv);
  if (stats_ != nullptr) {
    stats_->recordTick(NUMBER_KEYS_READ, keys.size());
    stats_->recordTick(NUMBER_KEYS_FOUND, found);
    stats_->recordTick(BYTES_READ, bytes);
  }
  return statuses;
}

std::unique_ptr<Iterator> DBImpl::NewIterator(const ReadOptions& options, ColumnFamilyHandle* cf) {
  if (cf != nullptr && cf->GetID() != 0) {
    return NewErrorIterator(
        Status::NotSupported("column families other than \"default\" are not supported yet"));
  }
  // The iterator keeps its own reference to the SuperVersion (not the
  // thread's cached one: it may outlive this call and move between threads).
  SuperVersion* sv;
  {
    MutexLock l(&mu_);
    if (super_version_ == nullptr) {
      return NewErrorIterator(Status::ShutdownInProgress("NewIterator on a closed database"));
    }
    sv = super_version_->Ref();
  }
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
  std::vector<InternalIterator*> input;
  input.push_back(NewMergingIterator(&icmp_, std::move(children)));
  return NewDBIterator(
      options, icmp_.user_comparator(), std::move(input), seq, stats_,
      [sv, owned = std::move(owned)]() mutable {
        owned.clear();
        sv->Unref();
      },
      options_.merge_operator.get(), std::move(tombstones), options_.prefix_extractor.get());
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

// ---- properties ----

namespace {

// Strips "strata." or the "rocksdb." alias; false for other prefixes.
bool StripPropertyPrefix(Slice* name) {
  for (const char* prefix : {"strata.", "rocksdb."}) {
    if (name->starts_with(prefix)) {
      name->remove_prefix(strlen(prefix));
      return true;
    }
  }
  return false;
}

}  // namespace

bool DBImpl::GetIntProperty(ColumnFamilyHandle* cf, const Slice& property, uint64_t* value) {
  if (cf != nullptr && cf->GetID() != 0) return false;
  Slice name = property;
  if (!StripPropertyPrefix(&name)) return false;
  MutexLock l(&mu_);
  const SuperVersion* sv = super_version_;
  if (sv == nullptr) return false;
  uint64_t imm_size = 0, imm_entries = 0, imm_deletes = 0;
  for (const MemTable* m : sv->imm) {
    imm_size += m->ApproximateMemoryUsage();
    imm_entries += m->num_entries();
    imm_deletes += m->num_deletes();
  }
  if (name == "cur-size-all-mem-tables" || name == "size-all-mem-tables") {
    *value = sv->mem->ApproximateMemoryUsage() + imm_size;
  } else if (name == "cur-size-active-mem-table") {
    *value = sv->mem->ApproximateMemoryUsage();
  } else if (name == "num-entries-active-mem-table") {
    *value = sv->mem->num_entries();
  } else if (name == "num-deletes-active-mem-table") {
    *value = sv->mem->num_deletes();
  } else if (name == "num-entries-imm-mem-tables") {
    *value = imm_entries;
  } else if (name == "num-deletes-imm-mem-tables") {
    *value = imm_deletes;
  } else if (name == "num-immutable-mem-table") {
    *value = sv->imm.size();
  } else if (name == "estimate-num-keys") {
    // As RocksDB estimates it: entries minus twice the deletions (each
    // deletion hides a key and is itself an entry).
    uint64_t entries = sv->mem->num_entries() + imm_entries;
    uint64_t deletes = sv->mem->num_deletes() + imm_deletes;
    // Tables: their entry and deletion counts as written (properties read
    // through the table cache would cost I/O under the mutex; the file
    // sizes give the estimate instead when properties are not at hand).
    for (int level = 0; level < sv->current->num_levels(); ++level) {
      for (const FileMetaData* f : sv->current->files(level)) {
        std::shared_ptr<const TableProperties> props;
        if (table_cache_->GetTableProperties(TableFileMeta{f->number, f->file_size, level}, &props)
                .ok()) {
          entries += props->num_entries;
          deletes += props->num_deletions;
        }
      }
    }
    *value = entries > 2 * deletes ? entries - 2 * deletes : 0;
  } else if (name == "num-snapshots") {
    *value = snapshots_.count();
  } else if (name == "oldest-snapshot-time") {
    *value = snapshots_.empty() ? 0 : static_cast<uint64_t>(snapshots_.oldest()->unix_time());
  } else if (name == "background-errors") {
    *value = bg_error_.ok() ? 0 : 1;
  } else if (name == "total-sst-files-size" || name == "live-sst-files-size") {
    *value = sv->current->TotalFileBytes();
  } else if (name == "estimate-pending-compaction-bytes") {
    *value = sv->current->EstimatedPendingCompactionBytes();
  } else if (name == "is-write-stopped") {
    *value = write_stopped_ ? 1 : 0;
  } else if (name == "actual-delayed-write-rate") {
    *value = stall_check_needed_.load()
                 ? (options_.delayed_write_rate != 0 ? options_.delayed_write_rate : 16ull << 20)
                 : 0;
  } else if (name == "num-running-compactions") {
    *value = static_cast<uint64_t>(picker_->running_compactions());
  } else if (name == "num-running-flushes") {
    *value = flush_scheduled_ ? 1 : 0;
  } else if (name == "compaction-pending") {
    *value = picker_->NeedsCompaction(sv->current) ? 1 : 0;
  } else if (name == "mem-table-flush-pending") {
    *value = imm_.empty() ? 0 : 1;
  } else if (name == "base-level") {
    *value = static_cast<uint64_t>(sv->current->base_level());
  } else if (name == "num-live-versions") {
    *value = 1;
  } else if (name == "stall-micros") {
    *value = stall_micros_;
  } else if (name == "flush-write-bytes") {
    *value = level_stats_[0].bytes_written;
  } else if (name == "compact-write-bytes" || name == "compact-read-bytes") {
    const bool write = name == "compact-write-bytes";
    uint64_t sum = 0;
    for (int level = 1; level < kMaxLevels; ++level) {
      sum += write ? level_stats_[level].bytes_written : level_stats_[level].bytes_read;
    }
    *value = sum;
  } else if (name.starts_with("num-files-at-level")) {
    Slice level = name;
    level.remove_prefix(strlen("num-files-at-level"));
    const int n = atoi(level.ToString().c_str());
    if (level.empty() || n < 0 || n >= sv->current->num_levels()) return false;
    *value = sv->current->files(n).size();
  } else if (name == "current-super-version-number") {
    *value = sv->version_number;
  } else {
    return false;
  }
  return true;
}

bool DBImpl::GetProperty(ColumnFamilyHandle* cf, const Slice& property, std::string* value) {
  uint64_t n;
  if (GetIntProperty(cf, property, &n)) {
    *value = std::to_string(n);
    return true;
  }
  if (cf != nullptr && cf->GetID() != 0) return false;
  Slice name = property;
  if (!StripPropertyPrefix(&name)) return false;
  if (name != "stats" && name != "dbstats") return false;

  uint64_t mem_bytes = 0, entries = 0, deletes = 0, imm_count = 0, snapshots = 0;
  {
    MutexLock l(&mu_);
    if (super_version_ == nullptr) return false;
    mem_bytes = super_version_->mem->ApproximateMemoryUsage();
    entries = super_version_->mem->num_entries();
    deletes = super_version_->mem->num_deletes();
    imm_count = super_version_->imm.size();
    snapshots = snapshots_.count();
  }
  const uint64_t groups = write_groups_.load(std::memory_order_relaxed);
  const uint64_t syncs = wal_syncs_.load(std::memory_order_relaxed);
  const uint64_t wal_bytes = wal_bytes_.load(std::memory_order_relaxed);
  char buf[1024];
  snprintf(buf, sizeof(buf),
           "\n** DB Stats **\n"
           "Last sequence: %" PRIu64
           "\n"
           "Write groups: %" PRIu64 ", WAL syncs: %" PRIu64 ", WAL bytes: %" PRIu64
           "\n"
           "Current WAL: %06" PRIu64
           ".log\n"
           "\n** Memtables **\n"
           "Active: %" PRIu64 " bytes, %" PRIu64 " entries, %" PRIu64
           " deletes\n"
           "Immutable: %" PRIu64
           "\n"
           "Snapshots: %" PRIu64 "\n",
           last_sequence_.load(std::memory_order_acquire), groups, syncs, wal_bytes, log_number_,
           mem_bytes, entries, deletes, imm_count, snapshots);
  *value = buf;
  MutexLock l(&mu_);
  *value += LevelStatsString();
  return true;
}

// ---- not in this slice ----

Status DBImpl::CreateColumnFamily(const ColumnFamilyOptions&, const std::string&,
                                  ColumnFamilyHandle** handle) {
  if (handle != nullptr) *handle = nullptr;
  return Status::NotSupported("CreateColumnFamily: column families are not supported yet");
}

Status DBImpl::DropColumnFamily(ColumnFamilyHandle*) {
  return Status::NotSupported("DropColumnFamily: column families are not supported yet");
}

Status DBImpl::DestroyColumnFamilyHandle(ColumnFamilyHandle* handle) {
  if (handle == nullptr || handle == default_cf_.get()) return Status::OK();
  return Status::InvalidArgument("DestroyColumnFamilyHandle: unknown handle");
}

ColumnFamilyHandle* DBImpl::DefaultColumnFamily() const { return default_cf_.get(); }

}  // namespace strata
