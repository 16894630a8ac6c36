// CompactionJob (see the header).
#include "db/compaction/compaction_job.h"

#include <algorithm>
#include <cinttypes>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <utility>

#include "db/column_family.h"
#include "db/compaction/compaction.h"
#include "db/compaction/compaction_range_del_aggregator.h"
#include "db/compaction/compression_for_level.h"
#include "db/compaction/file_age.h"
#include "db/compaction/rate_limited_input.h"
#include "db/filename.h"
#include "db/level_iterator.h"
#include "db/table_cache.h"
#include "db/version_set.h"
#include "table/compression.h"
#include "table/merging_iterator.h"
#include "util/sync_point.h"

namespace strata {

CompactionJob::CompactionJob(const JobEnv& env, ColumnFamilyData* cfd, Compaction* c,
                             std::vector<SequenceNumber> snapshots)
    : env_(env), cfd_(cfd), c_(c), snapshots_(std::move(snapshots)) {}

Status CompactionJob::Run() {
  env_.mu->AssertHeld();
  ColumnFamilyData* cfd = cfd_;
  Compaction* c = c_;
  const uint64_t start = env_.clock->NowMicros();
  const int out = c->output_level();
  PrepareInfo();
  if (c->trivial_move()) {
    if (env_.listeners != nullptr && !env_.listeners->empty()) {
      env_.mu->Unlock();
      NotifyBegin();
      env_.mu->Lock();
    }
    VersionEdit edit;
    uint64_t bytes = 0;
    for (const CompactionInputFiles& in : c->input_levels()) {
      // Files already in the output level stay (a universal move of runs
      // into the level holding the oldest one).
      if (in.level == out) continue;
      for (const FileMetaData* f : in.files) {
        edit.DeleteFile(in.level, f->number);
        edit.AddFile(out, *f);
        bytes += f->file_size;
        info_.output_files.push_back(TableFileName(cfd->options().cf_paths, f->number, f->path_id));
        info_.output_file_infos.push_back(CompactionFileInfo{out, f->number, 0});
      }
    }
    Status s = env_.versions->LogAndApply(cfd, &edit, env_.mu);
    info_.status = s;
    info_.stats.elapsed_micros = env_.clock->NowMicros() - start;
    if (!s.ok()) {
      info_.output_files.clear();
      info_.output_file_infos.clear();
      return s;
    }
    info_.stats.num_output_files = c->num_input_files();
    info_.stats.total_output_bytes = bytes;
    EventLogLine line(env_.clock->NowMicros());
    line.Add("job", env_.job_id)
        .Add("event", "trivial_move")
        .Add("destination_level", out)
        .Add("files", static_cast<uint64_t>(c->num_input_files()))
        .Add("total_files_size", bytes);
    LogEvent(env_.info_log, line);
    stats_.bytes_moved = bytes;  // as RocksDB: a move is no job in the time and count columns
    Log(env_.info_log, "[%s] compaction %s: %" PRIu64 " bytes moved, %s", cfd->name().c_str(),
        c->Summary().c_str(), bytes, cfd->current()->LevelSummary().c_str());
    return Status::OK();
  }

  if (c->deletion_compaction()) {
    // FIFO: the inputs are dropped from the Version; nothing is read or
    // written (the obsolete-file scan deletes them once unreferenced).
    if (env_.listeners != nullptr && !env_.listeners->empty()) {
      env_.mu->Unlock();
      NotifyBegin();
      env_.mu->Lock();
    }
    VersionEdit edit;
    c->AddInputDeletions(&edit);
    Status s = env_.versions->LogAndApply(cfd, &edit, env_.mu);
    info_.status = s;
    info_.stats.elapsed_micros = env_.clock->NowMicros() - start;
    if (!s.ok()) return s;
    const uint64_t bytes = c->TotalInputBytes();
    std::vector<uint64_t> numbers;
    for (const CompactionInputFiles& in : c->input_levels()) {
      for (const FileMetaData* f : in.files) numbers.push_back(f->number);
    }
    EventLogLine line(env_.clock->NowMicros());
    line.Add("job", env_.job_id)
        .Add("event", "fifo_deletion")
        .Add("compaction_reason", CompactionReasonString(info_.compaction_reason))
        .AddArray("files", numbers)
        .Add("total_files_size", bytes);
    LogEvent(env_.info_log, line);
    Log(env_.info_log, "[%s] compaction %s: %" PRIu64 " bytes deleted, %s", cfd->name().c_str(),
        c->Summary().c_str(), bytes, cfd->current()->LevelSummary().c_str());
    return Status::OK();
  }

  BuildTablesOptions o = NewBuildTablesOptions(env_, cfd);
  o.sync_histogram = COMPACTION_OUTFILE_SYNC_MICROS;
  o.io_priority = Env::IO_LOW;  // RateLimiter: after flushes
  const InternalKeyComparator& icmp = cfd->icmp();
  TableCache* table_cache = cfd->table_cache();
  o.output_level = out;
  // The picker's placement (RocksDB's output_path_id).
  {
    const std::vector<DbPath>& paths = cfd->options().cf_paths;
    if (c->output_path_id() < paths.size()) {
      o.table_dir = paths[c->output_path_id()].path;
      o.path_id = c->output_path_id();
    }
  }
  o.reason = TableFileCreationReason::kCompaction;
  o.max_output_file_size = c->max_output_file_size();
  {
    // Compression by level (db/compaction/compression_for_level.h); a
    // CompactFiles compression overrides the codec, not its options.
    const Options& co = cfd->options();
    const bool bottom = IsBottommostForCompression(*c->input_version(), out);
    o.compression = CompressionForLevel(co, out, c->input_version()->base_level(), bottom);
    o.compression_opts = CompressionOptionsForLevel(co, bottom);
  }
  if (c->compression() != kDisableCompressionOption) o.compression = c->compression();
  o.grandparents = c->grandparents();
  o.snapshots = snapshots_;
  o.bottommost = c->bottommost();
  o.filter_level = c->start_level();
  // File times as RocksDB's compaction sets them: the outputs' data is as
  // old as the oldest input (the table property), refined per output to
  // the inputs overlapping its range (the MANIFEST field).
  std::vector<const FileMetaData*> time_inputs;
  for (const CompactionInputFiles& in : c->input_levels()) {
    time_inputs.insert(time_inputs.end(), in.files.begin(), in.files.end());
  }
  {
    const uint64_t t = MinOldestAncesterTime(time_inputs, icmp.user_comparator(), nullptr, nullptr);
    o.oldest_ancester_time = t != kUnknownFileTime ? t : o.creation_time;
  }
  o.refine_oldest_ancester_time = [inputs = std::move(time_inputs), ucmp = icmp.user_comparator()](
                                      const Slice& lo, const Slice& hi) {
    return MinOldestAncesterTime(inputs, ucmp, &lo, &hi);
  };
  const bool full_compaction = cfd->current()->NumFiles() == c->num_input_files();
  // Output into level 0 is never partitioned (RocksDB's rule).
  if (out != 0 && cfd->options().sst_partitioner_factory != nullptr) {
    o.partitioner_factory = cfd->options().sst_partitioner_factory.get();
    o.partitioner_context.is_full_compaction = full_compaction;
    o.partitioner_context.is_manual_compaction = c->manual();
    o.partitioner_context.output_level = out;
    o.partitioner_context.smallest_user_key = c->smallest_user_key();
    o.partitioner_context.largest_user_key = c->largest_user_key();
  }

  // Subcompactions by key range when the job is big enough.
  std::vector<FileMetaData*> all_inputs;
  for (const CompactionInputFiles& in : c->input_levels()) {
    all_inputs.insert(all_inputs.end(), in.files.begin(), in.files.end());
  }
  const uint32_t sub_limit =
      c->max_subcompactions() > 0 ? c->max_subcompactions() : cfd->options().max_subcompactions;
  const int max_sub = static_cast<int>(std::max<uint32_t>(1, sub_limit));
  std::vector<std::string> bounds;
  // Never into level 0: parts would be level-0 files sharing one range of
  // sequence numbers, which level 0's newest-first order cannot place.
  if (max_sub > 1 && out > 0 && c->TotalInputBytes() > 2 * c->max_output_file_size() / 4) {
    bounds = SubcompactionBoundaries(icmp.user_comparator(), all_inputs, max_sub);
  }
  const size_t parts = bounds.size() + 1;
  std::vector<std::vector<FileMetaData>> outputs(parts);
  std::vector<BuildTablesStats> stats(parts);
  std::vector<Status> statuses(parts);
  uint64_t bytes_read = c->TotalInputBytes();
  // File bytes per raw entry byte of the inputs (rate-limited reads).
  double read_charge_factor = 1.0;
  {
    uint64_t raw = 0;
    for (const FileMetaData* f : all_inputs) raw += f->raw_key_size + f->raw_value_size;
    if (raw > 0) read_charge_factor = static_cast<double>(bytes_read) / static_cast<double>(raw);
  }

  env_.mu->Unlock();
  {
    EventLogLine line(env_.clock->NowMicros());
    line.Add("job", env_.job_id)
        .Add("event", "compaction_started")
        .Add("compaction_reason", CompactionReasonString(info_.compaction_reason));
    for (const CompactionInputFiles& in : c->input_levels()) {
      // One array per input level, as RocksDB lists them.
      std::vector<uint64_t> numbers;
      for (const FileMetaData* f : in.files) numbers.push_back(f->number);
      const std::string key = "files_L" + std::to_string(in.level);
      line.AddArray(key.c_str(), numbers);
    }
    line.AddDouble("score", c->score())
        .Add("input_data_size", bytes_read)
        .Add("oldest_snapshot_seqno",
             snapshots_.empty() ? int64_t{-1} : static_cast<int64_t>(snapshots_.front()));
    LogEvent(env_.info_log, line);
  }
  NotifyBegin();
  TEST_SYNC_POINT_CALLBACK("CompactionJob::Run:Unlocked", c);
  // The inputs' range tombstones, shared by every subcompaction.
  std::vector<RangeTombstone> input_tombstones;
  Status tombstone_status;
  for (size_t which = 0; which < c->num_input_levels() && tombstone_status.ok(); ++which) {
    const int level = c->level(which);
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
    ro.readahead_size = env_.compaction_readahead_size;
    std::vector<std::unique_ptr<InternalIterator>> children;
    for (size_t which = 0; which < c->num_input_levels(); ++which) {
      const std::vector<FileMetaData*>& files = c->inputs(which);
      if (files.empty()) continue;
      const int level = c->level(which);
      if (level == 0) {
        for (const FileMetaData* f : files) {
          children.emplace_back(table_cache->NewCompactionIterator(
              ro, TableFileMeta{f->number, f->file_size, 0, f->largest_seqno, f->path_id}));
        }
      } else {
        children.emplace_back(NewLevelIterator(table_cache, ro, &icmp, files, level,
                                               /*for_compaction=*/true));
      }
    }
    std::unique_ptr<InternalIterator> input(NewMergingIterator(&icmp, std::move(children)));
    // Reads charged to the rate limiter when its mode limits reads.
    input = NewRateLimitedInput(std::move(input), cfd->options().rate_limiter.get(), env_.stats,
                                read_charge_factor);
    BuildTablesOptions po = o;
    Slice begin, end;
    if (i > 0) {
      begin = bounds[i - 1];
      po.begin = &begin;
    }
    if (i < bounds.size()) {
      end = bounds[i];
      po.end = &end;
    }
    po.key_may_exist_below = [c](const Slice& user_key) {
      if (c->bottommost()) return false;
      // Output into level 0 (universal, FIFO, CompactFiles): older level-0
      // files not in the job may hold the key too.
      if (c->output_level() == 0) return true;
      return KeyInLevelsFrom(c->input_version(), c->output_level() + 1, user_key);
    };
    std::unique_ptr<CompactionFilter> owned_filter;
    po.compaction_filter = CompactionFilterFor(cfd, c->manual(), full_compaction,
                                               TableFileCreationReason::kCompaction, &owned_filter);
    statuses[i] = CheckCompactionFilter(po.compaction_filter);
    if (!statuses[i].ok()) return;
    CompactionRangeDelAggregator range_del_agg(&icmp, po.snapshots);
    if (!input_tombstones.empty()) {
      range_del_agg.AddTombstones(input_tombstones);
      po.range_del_agg = &range_del_agg;
    }
    statuses[i] = BuildTables(po, input.get(), &outputs[i], &stats[i]);
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
  if (all_ok && any_output) statuses[0] = SyncTableDir(env_, o.table_dir);
  env_.mu->Lock();

  Status s;
  for (const Status& ps : statuses) {
    if (s.ok() && !ps.ok()) s = ps;
  }
  VersionEdit edit;
  BuildTablesStats total;
  for (size_t i = 0; i < parts; ++i) {
    for (const FileMetaData& meta : outputs[i]) edit.AddFile(out, meta);
    total.bytes_written += stats[i].bytes_written;
    total.num_output_files += stats[i].num_output_files;
    total.num_output_records += stats[i].num_output_records;
    total.iter.num_input_records += stats[i].iter.num_input_records;
  }
  if (s.ok() && env_.on_new_tables) {
    // The SstFileManager's accounting (the space limit may stop the job).
    for (size_t i = 0; i < parts && s.ok(); ++i)
      s = env_.on_new_tables(cfd->options().cf_paths, outputs[i]);
  }
  if (s.ok()) {
    c->AddInputDeletions(&edit);
    s = env_.versions->LogAndApply(cfd, &edit, env_.mu);
  }
  info_.status = s;
  info_.stats.elapsed_micros = env_.clock->NowMicros() - start;
  if (!s.ok()) {
    // Outputs of a failed compaction are garbage: the obsolete-file scan
    // removes them (nothing lists them).
    return s;
  }
  const uint64_t micros = env_.clock->NowMicros() - start;
  if (env_.stats != nullptr) {
    env_.stats->recordTick(COMPACT_READ_BYTES, bytes_read);
    env_.stats->recordTick(COMPACT_WRITE_BYTES, total.bytes_written);
    env_.stats->reportTimeToHistogram(COMPACTION_TIME, micros);
    env_.stats->recordInHistogram(NUM_FILES_IN_SINGLE_COMPACTION, c->num_input_files());
    env_.stats->recordInHistogram(NUM_SUBCOMPACTIONS_SCHEDULED, parts);
  }
  for (size_t which = 0; which < c->num_input_levels(); ++which) {
    const bool output_level = c->level(which) == out;
    for (const FileMetaData* f : c->inputs(which)) {
      (output_level ? stats_.bytes_read_output_level : stats_.bytes_read_non_output_levels) +=
          f->file_size;
      ++(output_level ? stats_.num_input_files_in_output_level
                      : stats_.num_input_files_in_non_output_levels);
    }
  }
  stats_.bytes_written = total.bytes_written;
  stats_.num_output_files = total.num_output_files;
  stats_.num_input_records = total.iter.num_input_records;
  stats_.num_dropped_records = total.iter.num_input_records -
                               std::min(total.iter.num_input_records, total.num_output_records);
  stats_.micros = micros;
  stats_.count = 1;
  CompactionJobStats& js = info_.stats;
  js.num_input_records = total.iter.num_input_records;
  js.num_output_records = total.num_output_records;
  js.num_output_files = total.num_output_files;
  js.is_full_compaction = full_compaction;
  js.total_output_bytes = total.bytes_written;
  js.num_records_replaced = 0;
  js.num_expired_deletion_records = 0;
  for (size_t i = 0; i < parts; ++i) {
    js.num_records_replaced += stats[i].iter.num_dropped_hidden;
    js.num_expired_deletion_records += stats[i].iter.num_dropped_deletions;
    for (size_t k = 0; k < outputs[i].size(); ++k) {
      const FileMetaData& meta = outputs[i][k];
      const std::string path = TableFileName(cfd_->options().cf_paths, meta.number, meta.path_id);
      info_.output_files.push_back(path);
      info_.output_file_infos.push_back(CompactionFileInfo{out, meta.number, 0});
      if (k < stats[i].table_properties.size()) {
        info_.table_properties[path] = stats[i].table_properties[k];
      }
      const Slice first = ExtractUserKey(meta.smallest);
      const Slice last = ExtractUserKey(meta.largest);
      if (js.smallest_output_key_prefix.empty()) {
        js.smallest_output_key_prefix.assign(first.data(), std::min<size_t>(first.size(), 8));
      }
      js.largest_output_key_prefix.assign(last.data(), std::min<size_t>(last.size(), 8));
    }
  }
  {
    std::vector<uint64_t> lsm;
    const Version* v = cfd->current();
    for (int level = 0; level < v->num_levels(); ++level) lsm.push_back(v->NumLevelFiles(level));
    // Strata measures no CPU time: compaction_time_cpu_micros is 0, and the
    // single-delete counters RocksDB keeps are 0 too.
    EventLogLine line(env_.clock->NowMicros());
    line.Add("job", env_.job_id)
        .Add("event", "compaction_finished")
        .Add("compaction_time_micros", micros)
        .Add("compaction_time_cpu_micros", uint64_t{0})
        .Add("output_level", out)
        .Add("num_output_files", total.num_output_files)
        .Add("total_output_size", total.bytes_written)
        .Add("num_input_records", total.iter.num_input_records)
        .Add("num_output_records", total.num_output_records)
        .Add("num_subcompactions", static_cast<uint64_t>(parts))
        .Add("output_compression", CompressionTypeName(o.compression))
        .Add("num_single_delete_mismatches", uint64_t{0})
        .Add("num_single_delete_fallthrough", uint64_t{0})
        .AddArray("lsm_state", lsm);
    LogEvent(env_.info_log, line);
  }
  Log(env_.info_log,
      "[%s] compaction %s%s: %" PRIu64 " bytes read, %" PRIu64 " bytes written, %" PRIu64
      " records in, %" PRIu64 " out, %zu part(s), %" PRIu64 " us, %s",
      cfd->name().c_str(), c->Summary().c_str(), c->manual() ? " (manual)" : "", bytes_read,
      total.bytes_written, total.iter.num_input_records, total.num_output_records, parts, micros,
      cfd->current()->LevelSummary().c_str());
  return Status::OK();
}

CompactionReason CompactionReasonOf(const Compaction& c) {
  if (c.manual()) return CompactionReason::kManualCompaction;
  if (c.reason() != CompactionReason::kUnknown) return c.reason();
  return c.start_level() == 0 ? CompactionReason::kLevelL0FilesNum
                              : CompactionReason::kLevelMaxLevelSize;
}

void CompactionJob::PrepareInfo() {
  env_.mu->AssertHeld();
  const Compaction* c = c_;
  info_.cf_id = cfd_->id();
  info_.cf_name = cfd_->name();
  info_.thread_id = std::hash<std::thread::id>()(std::this_thread::get_id());
  info_.job_id = env_.job_id;
  info_.base_input_level = c->start_level();
  info_.output_level = c->output_level();
  info_.compaction_reason = CompactionReasonOf(*c);
  info_.compression =
      c->compression() != kDisableCompressionOption
          ? c->compression()
          : CompressionForLevel(cfd_->options(), c->output_level(),
                                c->input_version()->base_level(),
                                IsBottommostForCompression(*c->input_version(), c->output_level()));
  for (size_t which = 0; which < c->num_input_levels(); ++which) {
    const int level = c->level(which);
    for (const FileMetaData* f : c->inputs(which)) {
      info_.input_files.push_back(TableFileName(cfd_->options().cf_paths, f->number, f->path_id));
      info_.input_file_infos.push_back(CompactionFileInfo{level, f->number, 0});
    }
  }
  CompactionJobStats& js = info_.stats;
  js.num_input_files = c->num_input_files();
  js.num_input_files_at_output_level = c->output_level_inputs().size();
  js.is_manual_compaction = c->manual();
  js.total_input_bytes = c->TotalInputBytes();
  for (size_t which = 0; which < c->num_input_levels(); ++which) {
    for (const FileMetaData* f : c->inputs(which)) {
      js.total_input_raw_key_bytes += f->raw_key_size;
      js.total_input_raw_value_bytes += f->raw_value_size;
    }
  }
}

void CompactionJob::NotifyBegin() {
  if (env_.listeners == nullptr) return;
  for (const auto& l : *env_.listeners) l->OnCompactionBegin(env_.db, info_);
}

std::vector<std::string> SubcompactionBoundaries(const Comparator* ucmp,
                                                 const std::vector<FileMetaData*>& inputs, int n) {
  std::vector<std::string> bounds;
  if (n <= 1 || inputs.size() < 2) return bounds;
  // Each file's bytes are attributed to its smallest key; cut where the
  // running total crosses k/n of the whole.
  std::vector<std::pair<std::string, uint64_t>> points;
  uint64_t total = 0;
  for (const FileMetaData* f : inputs) {
    const Slice s = ExtractUserKey(f->smallest);
    points.emplace_back(std::string(s.data(), s.size()), f->file_size);
    total += f->file_size;
  }
  std::sort(points.begin(), points.end(),
            [ucmp](const auto& a, const auto& b) { return ucmp->Compare(a.first, b.first) < 0; });
  uint64_t running = 0;
  int next = 1;
  for (size_t i = 0; i < points.size() && next < n; ++i) {
    if (i > 0 && running >= total * static_cast<uint64_t>(next) / static_cast<uint64_t>(n)) {
      if (bounds.empty() ? ucmp->Compare(points[i].first, points[0].first) > 0
                         : ucmp->Compare(points[i].first, bounds.back()) > 0) {
        bounds.push_back(points[i].first);
        ++next;
      }
    }
    running += points[i].second;
  }
  return bounds;
}

}  // namespace strata
