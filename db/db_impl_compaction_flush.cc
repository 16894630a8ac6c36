// DBImpl's background work: memtable switches, flushes to level 0,
// leveled compactions (picked or manual), write stalls, obsolete files,
// and the strata.stats table.
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <thread>

#include "db/compaction/compaction_job.h"
#include "db/compaction/compaction_range_del_aggregator.h"
#include "db/db_impl.h"
#include "db/filename.h"
#include "db/level_iterator.h"
#include "table/merging_iterator.h"
#include "util/sync_point.h"

namespace strata {

namespace {

// Options of one table-output job shared by flushes and compactions.
TableOutputOptions MakeOutputOptions(const std::string& dbname, const Options& options,
                                     FileSystem* fs, const BlockBasedTableOptions& table_options,
                                     VersionSet* versions, const std::string& db_id,
                                     const std::string& session_id, SystemClock* clock) {
  TableOutputOptions o;
  o.dbname = dbname;
  o.options = &options;
  o.fs = fs;
  o.table_options = table_options;
  o.compression = options.compression;
  o.merge_operator = options.merge_operator.get();
  o.logger = options.info_log.get();
  o.statistics = options.statistics.get();
  o.new_file_number = [versions]() { return versions->NewFileNumber(); };
  o.db_id = db_id;
  o.db_session_id = session_id;
  int64_t now = 0;
  clock->GetCurrentTime(&now).PermitUncheckedError();
  o.creation_time = static_cast<uint64_t>(now);
  return o;
}

// Whether a file of v at from_level or deeper has user_key in its range.
// Without the DB mutex: v is immutable and referenced by the caller.
bool KeyInLevelsFrom(const Version* v, int from_level, const Slice& user_key) {
  const InternalKeyComparator& icmp = v->cfd()->icmp();
  const Comparator* ucmp = icmp.user_comparator();
  std::string key;
  for (int level = from_level; level < v->num_levels(); ++level) {
    const std::vector<FileMetaData*>& files = v->files(level);
    if (files.empty()) continue;
    if (level == 0) {
      // Level-0 files overlap: each one is asked.
      for (const FileMetaData* f : files) {
        if (ucmp->Compare(ExtractUserKey(f->smallest), user_key) <= 0 &&
            ucmp->Compare(user_key, ExtractUserKey(f->largest)) <= 0) {
          return true;
        }
      }
      continue;
    }
    if (key.empty()) AppendInternalKey(&key, user_key, kMaxSequenceNumber, kValueTypeForSeek);
    const size_t i = FindFile(icmp, files, key);
    if (i < files.size() && ucmp->Compare(ExtractUserKey(files[i]->smallest), user_key) <= 0) {
      return true;
    }
  }
  return false;
}

}  // namespace

// ---------------------------------------------------------------------------
// SuperVersions and memtable switches

void DBImpl::InstallNewSuperVersion(ColumnFamilyData* cfd) {
  mu_.AssertHeld();
  cfd->InstallSuperVersion();
  bool stall = false;
  for (const ColumnFamilyData* c : versions_->column_families()->live()) {
    stall = stall || c->NeedsWriteSlowdown();
  }
  stall_check_needed_.store(stall, std::memory_order_release);
}

Status DBImpl::SwitchMemtables(const std::vector<ColumnFamilyData*>& families) {
  // A new WAL first: if it cannot be created, the memtables stay as they
  // are and writes would still go to the old WAL, which is intact. The error
  // is sticky all the same (RocksDB's rule): a file system that cannot
  // create a file or sync the directory is failing, and Resume (or, for
  // NoSpace, the recovery thread) retries the switch once it is healthy.
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
  old_logs_.push_back(std::move(old_log));
  std::vector<MemTable*> fresh;
  for (ColumnFamilyData* cfd : families) {
    fresh.push_back(new MemTable(cfd->icmp(), cfd->mem_options()));
  }
  MutexLock l(&mu_);
  for (size_t i = 0; i < families.size(); ++i) {
    ColumnFamilyData* cfd = families[i];
    // Our reference to the old memtable moves to imm; fresh's creation
    // reference is ours now.
    cfd->imm.insert(cfd->imm.begin(), ImmMemTable{cfd->mem, cfd->mem_log_number});
    cfd->mem = fresh[i];
    ++cfd->memtables_switched;
  }
  // Every family whose mutable memtable is empty has no data in the older
  // WALs any more (only the leader inserts): it needs the new WAL only.
  for (ColumnFamilyData* cfd : versions_->column_families()->live()) {
    if (cfd->mem->num_entries() == 0) cfd->mem_log_number = new_log;
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
  MaybeScheduleFlushOrCompaction();
  return s;
}

uint64_t DBImpl::MinLogNumberInUse() const {
  mu_.AssertHeld();
  uint64_t min_log = ~uint64_t{0};
  for (const ColumnFamilyData* cfd : versions_->column_families()->live()) {
    min_log = std::min(min_log, cfd->OldestLogWithData());
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

Status DBImpl::MaybeStallWrite(uint64_t group_bytes) {
  uint64_t delay_micros = 0;
  {
    MutexLock l(&mu_);
    const uint64_t start = clock_->NowMicros();
    bool stopped = false;
    while (true) {
      if (shutting_down_.load(std::memory_order_acquire)) {
        return Status::ShutdownInProgress("write during close");
      }
      if (!bg_error_.ok()) return bg_error_;
      bool too_many_memtables = false, too_many_l0 = false, too_much_debt = false;
      for (const ColumnFamilyData* cfd : versions_->column_families()->live()) {
        const Options& o = cfd->options();
        const Version* v = cfd->current();
        too_many_memtables =
            too_many_memtables ||
            (static_cast<int>(cfd->imm.size()) >= std::max(1, o.max_write_buffer_number - 1) &&
             cfd->mem->ApproximateMemoryUsage() >= o.write_buffer_size);
        // Without automatic compactions nothing would ever clear these.
        const bool auto_compact = !o.disable_auto_compactions;
        too_many_l0 =
            too_many_l0 || (auto_compact && v->NumLevelFiles(0) >= o.level0_stop_writes_trigger);
        too_much_debt =
            too_much_debt ||
            (auto_compact && o.hard_pending_compaction_bytes_limit > 0 &&
             v->EstimatedPendingCompactionBytes() >= o.hard_pending_compaction_bytes_limit);
      }
      if (!too_many_memtables && !too_many_l0 && !too_much_debt) break;
      // Compactions that fail without a sticky error (paranoid_checks off)
      // would keep this stop forever: the write fails with their error.
      if ((too_many_l0 || too_much_debt) && !last_compaction_error_.ok()) {
        return last_compaction_error_;
      }
      if (!stopped) {
        stopped = true;
        ++stall_stops_;
        write_stopped_ = true;
        MaybeScheduleFlushOrCompaction();
      }
      bg_cv_.TimedWaitMicros(10000);
    }
    write_stopped_ = false;
    if (stopped) {
      const uint64_t waited = clock_->NowMicros() - start;
      stall_micros_ += waited;
      if (stats_ != nullptr) {
        stats_->recordTick(STALL_MICROS, waited);
        stats_->measureTime(WRITE_STALL, waited);
      }
    }
    bool slowdown = false;
    for (const ColumnFamilyData* cfd : versions_->column_families()->live()) {
      slowdown = slowdown || cfd->NeedsWriteSlowdown();
    }
    if (slowdown) {
      const uint64_t rate =
          options_.delayed_write_rate != 0 ? options_.delayed_write_rate : 16ull << 20;
      delay_micros = std::max<uint64_t>(1, group_bytes * 1000000 / rate);
      delay_micros = std::min<uint64_t>(delay_micros, 100000);
      ++stall_slowdowns_;
      stall_micros_ += delay_micros;
    }
  }
  if (delay_micros > 0) {
    clock_->SleepForMicroseconds(static_cast<int>(delay_micros));
    if (stats_ != nullptr) stats_->recordTick(STALL_MICROS, delay_micros);
  }
  return Status::OK();
}

// ---------------------------------------------------------------------------
// Scheduling

void DBImpl::MaybeScheduleFlushOrCompaction() {
  mu_.AssertHeld();
  if (shutting_down_.load(std::memory_order_acquire) || !bg_error_.ok()) return;
  const ColumnFamilySet* families = versions_->column_families();
  if (!flush_scheduled_) {
    bool any_imm = false;
    for (const ColumnFamilyData* cfd : families->live()) any_imm = any_imm || !cfd->imm.empty();
    if (any_imm) {
      flush_scheduled_ = true;
      env_->Schedule([this]() { BackgroundCallFlush(); }, Env::Priority::kHigh);
    }
  }
  int running = 0;
  for (const ColumnFamilyData* cfd : families->live()) {
    running += cfd->picker()->running_compactions();
  }
  while (compactions_scheduled_ < max_compactions_ && compactions_scheduled_ < running + 1 &&
         AnyCompactionNeeded()) {
    ++compactions_scheduled_;
    env_->Schedule([this]() { BackgroundCallCompaction(); }, Env::Priority::kLow);
  }
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
  while (s.ok() && flushed && !shutting_down_.load(std::memory_order_acquire) && bg_error_.ok()) {
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
  if (!shutting_down_.load(std::memory_order_acquire) && bg_error_.ok()) {
    // The family with the most urgent need first; a family whose
    // candidates are all busy yields to the next.
    std::vector<std::pair<double, ColumnFamilyData*>> order;
    for (ColumnFamilyData* cfd : versions_->column_families()->live()) {
      if (cfd->options().disable_auto_compactions) continue;
      const auto& scores = cfd->current()->compaction_scores();
      const double top = scores.empty() ? 0.0 : scores.front().score;
      if (top >= 1) order.emplace_back(top, cfd);
    }
    std::stable_sort(order.begin(), order.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    for (const auto& [score, cfd] : order) {
      std::unique_ptr<Compaction> c = cfd->picker()->PickCompaction(cfd->current());
      if (c == nullptr) continue;
      picked = true;
      cfd->Ref();
      s = RunCompaction(cfd, c.get());
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
  } else if (picked) {
    last_compaction_error_ = Status::OK();
  }
  if (picked) DeleteObsoleteFiles();
  --compactions_scheduled_;
  // A job that found nothing to do (every candidate busy) does not schedule
  // another: it would spin while a long compaction runs. The running jobs
  // and flushes schedule more when they finish.
  if (picked) MaybeScheduleFlushOrCompaction();
  bg_cv_.SignalAll();
}

// ---------------------------------------------------------------------------
// Flush

Status DBImpl::WriteLevel0Table(ColumnFamilyData* cfd, MemTable* mem, VersionEdit* edit,
                                FileMetaData* meta_out) {
  mu_.AssertHeld();
  const uint64_t start = clock_->NowMicros();
  TableOutputOptions o = MakeOutputOptions(dbname_, cfd->options(), fs_, cfd->table_options(),
                                           versions_.get(), db_id_, db_session_id_, clock_);
  o.column_family_id = cfd->id();
  o.column_family_name = cfd->name();
  o.output_level = 0;
  o.snapshots = snapshots_.GetAll();
  o.bottommost = false;
  // Older versions of a key can only be in the tables (older memtables are
  // flushed first) -- those of the current Version and, during recovery,
  // the level-0 tables this recovery wrote already (still only in edit): a
  // SingleDelete meeting its Put in this memtable cancels with it only when
  // none of them has the key in its range.
  Version* base = cfd->current();
  base->Ref();
  std::vector<std::pair<std::string, std::string>> pending_ranges;
  for (const auto& [level, f] : edit->new_files()) {
    pending_ranges.emplace_back(ExtractUserKey(f.smallest).ToString(),
                                ExtractUserKey(f.largest).ToString());
  }
  o.single_delete_key_may_exist_below = [base, ranges = std::move(pending_ranges),
                                         ucmp = cfd->user_comparator()](const Slice& user_key) {
    for (const auto& [smallest, largest] : ranges) {
      if (ucmp->Compare(smallest, user_key) <= 0 && ucmp->Compare(user_key, largest) <= 0) {
        return true;
      }
    }
    return KeyInLevelsFrom(base, 0, user_key);
  };
  mem->Ref();
  std::vector<FileMetaData> outputs;
  TableOutputStats stats;
  Status s;
  {
    mu_.Unlock();
    // A compaction filter runs at flush time only when it asks to.
    std::unique_ptr<CompactionFilter> owned_filter;
    if (cfd->options().compaction_filter != nullptr) {
      if (cfd->options().compaction_filter->FilterDuringFlush()) {
        o.compaction_filter = cfd->options().compaction_filter;
      }
    } else if (cfd->options().compaction_filter_factory != nullptr &&
               cfd->options().compaction_filter_factory->FilterDuringFlush()) {
      o.compaction_filter =
          CompactionFilterFor(cfd, /*manual=*/false, /*full=*/false, &owned_filter);
    }
    CompactionRangeDelAggregator range_del_agg(&cfd->icmp(), o.snapshots);
    if (mem->num_range_deletes() != 0) {
      std::unique_ptr<InternalIterator> range_dels(mem->NewRangeTombstoneIterator());
      s = range_del_agg.AddTombstones(range_dels.get());
      o.range_del_agg = &range_del_agg;
    }
    std::unique_ptr<InternalIterator> iter(mem->NewIterator());
    if (s.ok()) s = RunTableOutput(o, iter.get(), &outputs, &stats);
    iter.reset();
    // The new file's directory entry must be durable before the MANIFEST
    // names it (and the WAL holding its data becomes obsolete).
    if (s.ok() && !outputs.empty()) s = db_dir_->Fsync();
    mu_.Lock();
  }
  base->Unref();
  mem->Unref();
  *meta_out = FileMetaData();
  if (!s.ok()) return s;
  for (const FileMetaData& meta : outputs) {
    edit->AddFile(0, meta);
    *meta_out = meta;
  }
  LevelStats& ls = cfd->level_stats[0];
  ls.bytes_written += stats.bytes_written;
  if (stats_ != nullptr) stats_->recordTick(FLUSH_WRITE_BYTES, stats.bytes_written);
  ls.micros += clock_->NowMicros() - start;
  ls.count++;
  ls.files_out += outputs.size();
  Log(info_log_.get(),
      "[%s] flush: memtable of %" PRIu64 " entries -> %zu level-0 table(s), %" PRIu64
      " bytes, %" PRIu64 " us",
      cfd->name().c_str(), mem->num_entries(), outputs.size(), stats.bytes_written,
      clock_->NowMicros() - start);
  return Status::OK();
}

Status DBImpl::BackgroundFlush(bool* flushed) {
  mu_.AssertHeld();
  *flushed = false;
  // The family whose oldest immutable memtable holds the oldest WAL: its
  // flush frees WALs soonest.
  ColumnFamilyData* cfd = nullptr;
  for (ColumnFamilyData* c : versions_->column_families()->live()) {
    if (c->imm.empty() || c->flush_running) continue;
    if (cfd == nullptr || c->imm.back().log_number < cfd->imm.back().log_number) cfd = c;
  }
  if (cfd == nullptr) return Status::OK();
  // Oldest first: the family's MANIFEST log number only moves forward.
  const ImmMemTable imm = cfd->imm.back();
  cfd->Ref();
  cfd->flush_running = true;
  VersionEdit edit;
  FileMetaData meta;
  // The new file is not listed by any Version until LogAndApply returns:
  // the pending marker keeps the obsolete-file scan away from it until then.
  auto pending = pending_outputs_.insert(versions_->next_file_number());
  Status s = WriteLevel0Table(cfd, imm.mem, &edit, &meta);
  if (s.ok() && cfd->dropped()) {
    // Dropped meanwhile: the table is garbage (the obsolete-file scan takes
    // it); the memtable goes with the family.
    pending_outputs_.erase(pending);
    cfd->flush_running = false;
    UnrefFamily(cfd);
    *flushed = true;
    return Status::OK();
  }
  if (s.ok()) {
    // WALs older than the family's next memtable (or the mutable one) hold
    // none of its data now.
    const uint64_t next_log =
        cfd->imm.size() >= 2 ? cfd->imm[cfd->imm.size() - 2].log_number : cfd->mem_log_number;
    edit.SetLogNumber(next_log);
    versions_->SetLastSequence(
        std::max(versions_->LastSequence(), last_sequence_.load(std::memory_order_acquire)));
    s = versions_->LogAndApply(cfd, &edit, &mu_);
  }
  pending_outputs_.erase(pending);
  cfd->flush_running = false;
  if (s.ok() && !cfd->dropped()) {
    // The memtable that was flushed is the family's oldest one still
    // (one flush per family at a time; switches only add at the front).
    cfd->imm.pop_back();
    ++cfd->memtables_flushed;
    InstallNewSuperVersion(cfd);
    imm.mem->Unref();
    *flushed = true;
  }
  UnrefFamily(cfd);
  return s.IsInvalidArgument() ? Status::OK() : s;  // dropped during the MANIFEST wait
}

Status DBImpl::Flush(const FlushOptions& options, ColumnFamilyHandle* cf) {
  ColumnFamilyData* cfd = FamilyOf(cf);
  uint64_t target;
  {
    MutexLock l(&mu_);
    if (closed_ || cfd->mem == nullptr) {
      return Status::ShutdownInProgress("Flush on a closed database");
    }
    if (cfd->dropped()) return Status::InvalidArgument("column family was dropped", cfd->name());
    target = cfd->memtables_switched;
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
  if (switched) target = cfd->memtables_switched;
  MaybeScheduleFlushOrCompaction();
  if (!options.wait) return Status::OK();
  while (cfd->memtables_flushed < target && !cfd->dropped() && bg_error_.ok() &&
         !shutting_down_.load(std::memory_order_acquire)) {
    bg_cv_.Wait();
  }
  return bg_error_;
}

// ---------------------------------------------------------------------------
// Compaction

Status DBImpl::RunCompaction(ColumnFamilyData* cfd, Compaction* c) {
  mu_.AssertHeld();
  const uint64_t start = clock_->NowMicros();
  const int out = c->output_level();
  LevelStats& ls = cfd->level_stats[out];
  if (c->trivial_move()) {
    VersionEdit edit;
    uint64_t bytes = 0;
    for (const FileMetaData* f : c->inputs(0)) {
      edit.DeleteFile(c->start_level(), f->number);
      edit.AddFile(out, *f);
      bytes += f->file_size;
    }
    Status s = versions_->LogAndApply(cfd, &edit, &mu_);
    if (!s.ok()) return s;
    ls.bytes_moved += bytes;
    InstallNewSuperVersion(cfd);
    Log(info_log_.get(), "[%s] compaction %s: %" PRIu64 " bytes moved, %s", cfd->name().c_str(),
        c->Summary().c_str(), bytes, cfd->current()->LevelSummary().c_str());
    return Status::OK();
  }

  TableOutputOptions o = MakeOutputOptions(dbname_, cfd->options(), fs_, cfd->table_options(),
                                           versions_.get(), db_id_, db_session_id_, clock_);
  o.column_family_id = cfd->id();
  o.column_family_name = cfd->name();
  const InternalKeyComparator& icmp = cfd->icmp();
  TableCache* table_cache = cfd->table_cache();
  o.output_level = out;
  o.max_output_file_size = c->max_output_file_size();
  o.grandparents = c->grandparents();
  o.snapshots = snapshots_.GetAll();
  o.bottommost = c->bottommost();
  o.filter_level = c->start_level();
  const bool full_compaction =
      cfd->current()->NumFiles() == c->inputs(0).size() + c->inputs(1).size();
  const uint64_t pending_number = versions_->next_file_number();
  auto pending = pending_outputs_.insert(pending_number);

  // Subcompactions by key range when the job is big enough.
  std::vector<FileMetaData*> all_inputs = c->inputs(0);
  all_inputs.insert(all_inputs.end(), c->inputs(1).begin(), c->inputs(1).end());
  const int max_sub = static_cast<int>(std::max<uint32_t>(1, cfd->options().max_subcompactions));
  std::vector<std::string> bounds;
  if (max_sub > 1 && c->TotalInputBytes() > 2 * c->max_output_file_size() / 4) {
    bounds = SubcompactionBoundaries(icmp.user_comparator(), all_inputs, max_sub);
  }
  const size_t parts = bounds.size() + 1;
  std::vector<std::vector<FileMetaData>> outputs(parts);
  std::vector<TableOutputStats> stats(parts);
  std::vector<Status> statuses(parts);
  uint64_t bytes_read = c->TotalInputBytes();

  mu_.Unlock();
  TEST_SYNC_POINT_CALLBACK("DBImpl::RunCompaction:Unlocked", c);
  // The inputs' range tombstones, shared by every subcompaction.
  std::vector<RangeTombstone> input_tombstones;
  Status tombstone_status;
  for (int which = 0; which < 2 && tombstone_status.ok(); ++which) {
    const int level = which == 0 ? c->start_level() : out;
    for (FileMetaData* f : c->inputs(which)) {
      const FragmentedRangeTombstoneList* list = nullptr;
      tombstone_status = table_cache->GetRangeTombstones(f, level, &list);
      if (!tombstone_status.ok()) break;
      if (list != nullptr) list->ToTombstones(&input_tombstones);
    }
  }
  auto run_part = [&](size_t i) {
    if (!tombstone_status.ok()) {
      statuses[i] = tombstone_status;
      return;
    }
    ReadOptions ro;
    ro.fill_cache = false;
    ro.verify_checksums = true;
    std::vector<std::unique_ptr<InternalIterator>> children;
    for (int which = 0; which < 2; ++which) {
      const std::vector<FileMetaData*>& files = c->inputs(which);
      if (files.empty()) continue;
      const int level = which == 0 ? c->start_level() : out;
      if (level == 0) {
        for (const FileMetaData* f : files) {
          children.emplace_back(
              table_cache->NewCompactionIterator(ro, TableFileMeta{f->number, f->file_size, 0}));
        }
      } else {
        children.emplace_back(NewLevelIterator(table_cache, ro, &icmp, files, level,
                                               /*for_compaction=*/true));
      }
    }
    std::unique_ptr<InternalIterator> input(NewMergingIterator(&icmp, std::move(children)));
    TableOutputOptions po = o;
    Slice begin, end;
    if (i > 0) {
      begin = bounds[i - 1];
      po.begin = &begin;
    }
    if (i < bounds.size()) {
      end = bounds[i];
      po.end = &end;
    }
    po.key_may_exist_below = [c, this](const Slice& user_key) {
      return KeyMayExistBelow(c, user_key);
    };
    std::unique_ptr<CompactionFilter> owned_filter;
    po.compaction_filter = CompactionFilterFor(cfd, c->manual(), full_compaction, &owned_filter);
    CompactionRangeDelAggregator range_del_agg(&icmp, po.snapshots);
    if (!input_tombstones.empty()) {
      range_del_agg.AddTombstones(input_tombstones);
      po.range_del_agg = &range_del_agg;
    }
    statuses[i] = RunTableOutput(po, input.get(), &outputs[i], &stats[i]);
  };
  if (parts == 1) {
    run_part(0);
  } else {
    std::vector<std::thread> threads;
    for (size_t i = 1; i < parts; ++i) threads.emplace_back(run_part, i);
    run_part(0);
    for (std::thread& t : threads) t.join();
  }
  bool any_output = false;
  bool all_ok = true;
  for (size_t i = 0; i < parts; ++i) {
    any_output = any_output || !outputs[i].empty();
    all_ok = all_ok && statuses[i].ok();
  }
  // Outputs' directory entries are durable before the MANIFEST lists them.
  if (all_ok && any_output) statuses[0] = db_dir_->Fsync();
  mu_.Lock();

  Status s;
  for (const Status& ps : statuses) {
    if (s.ok() && !ps.ok()) s = ps;
  }
  VersionEdit edit;
  TableOutputStats total;
  for (size_t i = 0; i < parts; ++i) {
    for (const FileMetaData& meta : outputs[i]) edit.AddFile(out, meta);
    total.bytes_written += stats[i].bytes_written;
    total.num_output_files += stats[i].num_output_files;
    total.num_output_records += stats[i].num_output_records;
    total.iter.num_input_records += stats[i].iter.num_input_records;
  }
  if (s.ok()) {
    c->AddInputDeletions(&edit);
    s = versions_->LogAndApply(cfd, &edit, &mu_);
  }
  pending_outputs_.erase(pending);
  if (!s.ok()) {
    // Outputs of a failed compaction are garbage: the obsolete-file scan
    // removes them (nothing lists them).
    return s;
  }
  InstallNewSuperVersion(cfd);
  const uint64_t micros = clock_->NowMicros() - start;
  if (stats_ != nullptr) {
    stats_->recordTick(COMPACT_READ_BYTES, bytes_read);
    stats_->recordTick(COMPACT_WRITE_BYTES, total.bytes_written);
  }
  ls.bytes_read += bytes_read;
  ls.bytes_written += total.bytes_written;
  ls.micros += micros;
  ls.count++;
  ls.files_in += c->num_input_files();
  ls.files_out += total.num_output_files;
  Log(info_log_.get(),
      "[%s] compaction %s%s: %" PRIu64 " bytes read, %" PRIu64 " bytes written, %" PRIu64
      " records in, %" PRIu64 " out, %zu part(s), %" PRIu64 " us, %s",
      cfd->name().c_str(), c->Summary().c_str(), c->manual() ? " (manual)" : "", bytes_read,
      total.bytes_written, total.iter.num_input_records, total.num_output_records, parts, micros,
      cfd->current()->LevelSummary().c_str());
  return Status::OK();
}

const CompactionFilter* DBImpl::CompactionFilterFor(ColumnFamilyData* cfd, bool manual, bool full,
                                                    std::unique_ptr<CompactionFilter>* owned) {
  const Options& o = cfd->options();
  if (o.compaction_filter != nullptr) return o.compaction_filter;
  if (o.compaction_filter_factory == nullptr) return nullptr;
  CompactionFilter::Context context;
  context.is_full_compaction = full;
  context.is_manual_compaction = manual;
  context.column_family_id = cfd->id();
  *owned = o.compaction_filter_factory->CreateCompactionFilter(context);
  return owned->get();
}

bool DBImpl::KeyMayExistBelow(Compaction* c, const Slice& user_key) {
  if (c->bottommost()) return false;
  return KeyInLevelsFrom(c->input_version(), c->output_level() + 1, user_key);
}

Status DBImpl::CompactRange(const CompactRangeOptions& options, ColumnFamilyHandle* cf,
                            const Slice* begin, const Slice* end) {
  ColumnFamilyData* cfd = FamilyOf(cf);
  // Memtable data in the range is compacted too: flush it first.
  Status s = Flush(FlushOptions(), cf);
  if (!s.ok()) return s;
  MutexLock l(&mu_);
  if (cfd->dropped()) return Status::InvalidArgument("column family was dropped", cfd->name());
  ++manual_compactions_;
  cfd->Ref();
  CompactionPicker* picker = cfd->picker();
  const int num_levels = cfd->num_levels();
  // The deepest level holding data in the range: compactions go down to it.
  int max_level = -1;
  for (int level = 0; level < num_levels; ++level) {
    std::vector<FileMetaData*> files;
    cfd->current()->GetOverlappingInputs(level, begin, end, &files);
    if (!files.empty()) max_level = level;
  }
  // Every level above the deepest one holding data in range is pushed down;
  // level 0 always (into the base level) when it holds data in range.
  for (int level = 0; s.ok() && (level < max_level || (level == 0 && max_level == 0)); ++level) {
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
      if (!bg_error_.ok()) {
        s = bg_error_;
        break;
      }
      bool conflict = false;
      std::unique_ptr<Compaction> c =
          picker->CompactRange(cfd->current(), level, output_level, begin, end, &conflict);
      if (c == nullptr && !conflict) break;  // nothing (left) in range at this level
      if (c == nullptr) {
        TEST_SYNC_POINT_CALLBACK("DBImpl::CompactRange:BeforeWaitForConflict", &mu_);
        bg_cv_.TimedWaitMicros(10000);  // wait for the background job holding the files
        continue;
      }
      s = RunCompaction(cfd, c.get());
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
  if (s.ok() && force_bottom && max_level > 0) {
    bool conflict = true;
    while (conflict && s.ok()) {
      std::unique_ptr<Compaction> c =
          picker->CompactRange(cfd->current(), max_level, max_level, begin, end, &conflict);
      if (c != nullptr) {
        s = RunCompaction(cfd, c.get());
        picker->ReleaseCompaction(c.get());
        break;
      }
      if (conflict) bg_cv_.TimedWaitMicros(10000);
    }
  }
  if (cfd->dropped() && !s.ok()) {
    s = Status::InvalidArgument("column family was dropped", cfd->name());
    UnrefFamily(cfd);
    DeleteObsoleteFiles();
    --manual_compactions_;
    bg_cv_.SignalAll();
    return s;
  }
  UnrefFamily(cfd);
  DeleteObsoleteFiles();
  --manual_compactions_;
  MaybeScheduleFlushOrCompaction();
  bg_cv_.SignalAll();
  if (!s.ok() && !s.IsShutdownInProgress()) RecordBackgroundError(s, BgErrorReason::kCompaction);
  return s;
}

Status DBImpl::WaitForCompact() {
  MutexLock l(&mu_);
  while (true) {
    if (!bg_error_.ok()) return bg_error_;
    if (shutting_down_.load(std::memory_order_acquire)) {
      return Status::ShutdownInProgress("WaitForCompact during close");
    }
    MaybeScheduleFlushOrCompaction();
    bool any_imm = false;
    for (const ColumnFamilyData* cfd : versions_->column_families()->live()) {
      any_imm = any_imm || !cfd->imm.empty();
    }
    const bool busy =
        flush_scheduled_ || compactions_scheduled_ > 0 || any_imm || AnyCompactionNeeded();
    if (!busy) return Status::OK();
    bg_cv_.TimedWaitMicros(10000);
  }
}

// ---------------------------------------------------------------------------
// Obsolete files

void DBImpl::DeleteObsoleteFiles() {
  mu_.AssertHeld();
  // After a failed MANIFEST write the disk may list files memory does not:
  // nothing goes until a MANIFEST has been written again (Resume).
  if (versions_->manifest_write_failed()) return;
  std::set<uint64_t> live;
  versions_->AddLiveFiles(&live);
  // A file numbered at or above next_file_number() now may be created by a
  // job that starts while the directory is scanned below without mu_: keep
  // those too, not only the outputs of jobs already running.
  const uint64_t min_pending = std::min<uint64_t>(
      pending_outputs_.empty() ? ~0ull : *pending_outputs_.begin(), versions_->next_file_number());
  // A WAL goes once no live family has unflushed data in it (families
  // with empty memtables moved past it at the last WAL switch).
  const uint64_t min_log = std::max<uint64_t>(MinLogNumberInUse(), 1);
  const uint64_t manifest = versions_->manifest_file_number();
  std::vector<TableCache*> caches;
  for (const auto& cfd : versions_->column_families()->all()) caches.push_back(cfd->table_cache());

  mu_.Unlock();
  std::vector<std::string> children;
  Status s = fs_->GetChildren(dbname_, &children);
  std::vector<uint64_t> evict;
  if (s.ok()) {
    for (const std::string& name : children) {
      uint64_t number;
      FileType type;
      if (!ParseFileName(name, &number, &type)) continue;
      bool keep = true;
      switch (type) {
        case FileType::kTableFile:
          keep = live.count(number) > 0 || number >= min_pending;
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
        default:
          break;
      }
      if (keep) continue;
      if (type == FileType::kTableFile) {
        for (TableCache* tc : caches) tc->Evict(number);
      }
      Status ds = fs_->DeleteFile(dbname_ + "/" + name);
      Log(info_log_.get(), "deleted obsolete file %s: %s", name.c_str(), ds.ToString().c_str());
    }
  }
  mu_.Lock();
}

// ---------------------------------------------------------------------------
// strata.stats

std::string DBImpl::LevelStatsString(ColumnFamilyData* cfd) {
  mu_.AssertHeld();
  const Version* v = cfd->current();
  std::string r;
  char buf[512];
  r += "\n** Compaction Stats [" + cfd->name() + "] **\n";
  r += "Level    Files   Size(MB) Score Target(MB) Read(GB) Write(GB) Moved(GB) W-Amp "
       "Comp(sec) Comp(cnt)\n";
  r += std::string(100, '-') + "\n";
  std::map<int, double> scores;
  for (const Version::LevelScore& s : v->compaction_scores()) scores[s.level] = s.score;
  uint64_t total_files = 0, total_bytes = 0, total_read = 0, total_written = 0, total_moved = 0,
           total_micros = 0, total_count = 0;
  for (int level = 0; level < v->num_levels(); ++level) {
    const LevelStats& ls = cfd->level_stats[level];
    const uint64_t bytes = v->NumLevelBytes(level);
    const uint64_t files = v->files(level).size();
    const double wamp =
        ls.bytes_read > 0 ? static_cast<double>(ls.bytes_written) / ls.bytes_read : 0.0;
    snprintf(buf, sizeof(buf),
             "  L%-2d %8" PRIu64 " %10.1f %5.2f %10.1f %8.3f %9.3f %9.3f %5.1f %9.2f %9" PRIu64
             "\n",
             level, files, bytes / 1048576.0, scores.count(level) ? scores[level] : 0.0,
             v->MaxBytesForLevel(level) / 1048576.0, ls.bytes_read / 1073741824.0,
             ls.bytes_written / 1073741824.0, ls.bytes_moved / 1073741824.0, wamp, ls.micros / 1e6,
             ls.count);
    r += buf;
    total_files += files;
    total_bytes += bytes;
    total_read += ls.bytes_read;
    total_written += ls.bytes_written;
    total_moved += ls.bytes_moved;
    total_micros += ls.micros;
    total_count += ls.count;
  }
  const uint64_t user = wal_bytes_.load(std::memory_order_relaxed);
  snprintf(buf, sizeof(buf),
           " Sum %8" PRIu64 " %10.1f %5s %10s %8.3f %9.3f %9.3f %5s %9.2f %9" PRIu64 "\n",
           total_files, total_bytes / 1048576.0, "", "", total_read / 1073741824.0,
           total_written / 1073741824.0, total_moved / 1073741824.0, "", total_micros / 1e6,
           total_count);
  r += buf;
  snprintf(buf, sizeof(buf),
           "Base level: %d, pending compaction bytes: %" PRIu64
           "\nWrite amplification (flush+compaction bytes / WAL bytes): %.2f\n"
           "Stalls: %" PRIu64 " stops, %" PRIu64 " slowdowns, %.3f s stalled%s\n",
           v->base_level(), v->EstimatedPendingCompactionBytes(),
           user > 0 ? static_cast<double>(total_written) / user : 0.0, stall_stops_,
           stall_slowdowns_, stall_micros_ / 1e6, write_stopped_ ? " (writes stopped now)" : "");
  r += buf;
  return r;
}

}  // namespace strata
