// FlushJob (see the header).
#include "db/flush_job.h"

#include <algorithm>
#include <cinttypes>
#include <memory>
#include <string>
#include <utility>

#include "db/column_family.h"
#include "db/compaction/compaction_range_del_aggregator.h"
#include "db/compaction/compression_for_level.h"
#include "db/version_set.h"
#include "env/info_log.h"
#include "memtable/memtable.h"
#include "util/sync_point.h"

namespace strata {

FlushJob::FlushJob(const JobEnv& env, ColumnFamilyData* cfd, MemTable* mem,
                   std::vector<SequenceNumber> snapshots)
    : env_(env), cfd_(cfd), mem_(mem), snapshots_(std::move(snapshots)) {}

Status FlushJob::Run(VersionEdit* edit, FileMetaData* meta_out) {
  env_.mu->AssertHeld();
  ColumnFamilyData* cfd = cfd_;
  MemTable* mem = mem_;
  const uint64_t start = env_.clock->NowMicros();
  BuildTablesOptions o = NewBuildTablesOptions(env_, cfd);
  o.output_level = 0;
  o.io_priority = Env::IO_HIGH;  // flush writes before compaction's (RateLimiter)
  // Flush outputs: compression_per_level[0] or `compression`, with
  // compression_opts (db/compaction/compression_for_level.h).
  o.compression = CompressionForFlush(cfd->options());
  o.compression_opts = cfd->options().compression_opts;
  // File times as RocksDB's flush sets them: the data is as old as the
  // memtable's first write (never later than now).
  o.oldest_key_time = mem->ApproximateOldestKeyTime();
  o.oldest_ancester_time = std::min(o.creation_time, o.oldest_key_time);
  if (o.oldest_key_time == ~uint64_t{0}) o.oldest_key_time = 0;
  o.creation_property_is_file_time = cfd->options().compaction_style == kCompactionStyleFIFO;
  // A table without a whole-key filter of its own gets an in-memory one
  // while in level 0 (Options::l0_key_filter_bits_per_key).
  o.key_filter_bits_per_key = LevelZeroKeyFilterBits(cfd);
  o.snapshots = snapshots_;
  o.bottommost = false;
  o.reason = background_ ? TableFileCreationReason::kFlush : TableFileCreationReason::kRecovery;
  if (file_number_ != 0) {
    // The caller's number first (it announced it in OnFlushBegin), fresh
    // ones after it (a flush writes one table, so rarely used).
    auto first = std::make_shared<uint64_t>(file_number_);
    VersionSet* versions = env_.versions;
    o.new_file_number = [first, versions]() {
      const uint64_t n = *first;
      *first = 0;
      return n != 0 ? n : versions->NewFileNumber();
    };
  }
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
  BuildTablesStats stats;
  Status s;
  {
    env_.mu->Unlock();
    TEST_SYNC_POINT_CALLBACK("FlushJob::Run:Unlocked", cfd);
    if (background_) {
      // RocksDB writes no total_data_size of its own kind here: Strata's
      // memtables do not count payload bytes, so it is 0.
      EventLogLine line(env_.clock->NowMicros());
      line.Add("job", env_.job_id)
          .Add("event", "flush_started")
          .Add("num_memtables", uint64_t{1})
          .Add("num_entries", mem->num_entries())
          .Add("num_deletes", mem->num_deletes())
          .Add("total_data_size", uint64_t{0})
          .Add("memory_usage", uint64_t{mem->ApproximateMemoryUsage()})
          .Add("flush_reason", FlushReasonString(reason_));
      LogEvent(env_.info_log, line);
    }
    // A compaction filter runs at flush time only when it asks to.
    std::unique_ptr<CompactionFilter> owned_filter;
    if (cfd->options().compaction_filter != nullptr) {
      if (cfd->options().compaction_filter->FilterDuringFlush()) {
        o.compaction_filter = cfd->options().compaction_filter;
      }
    } else if (cfd->options().compaction_filter_factory != nullptr) {
      // The factory is asked per file (RocksDB's ShouldFilterTableFileCreation
      // with kFlush, or kRecovery for a flush during Open's WAL replay).
      o.compaction_filter =
          CompactionFilterFor(cfd, /*manual=*/false, /*full=*/false, o.reason, &owned_filter);
    }
    CompactionRangeDelAggregator range_del_agg(&cfd->icmp(), o.snapshots);
    if (mem->num_range_deletes() != 0) {
      std::unique_ptr<InternalIterator> range_dels(mem->NewRangeTombstoneIterator());
      s = range_del_agg.AddTombstones(range_dels.get());
      o.range_del_agg = &range_del_agg;
    }
    if (s.ok()) s = CheckCompactionFilter(o.compaction_filter);
    std::unique_ptr<InternalIterator> iter(mem->NewIterator());
    if (s.ok()) s = BuildTables(o, iter.get(), &outputs, &stats);
    iter.reset();
    // The new file's directory entry must be durable before the MANIFEST
    // names it (and the WAL holding its data becomes obsolete).
    if (s.ok() && !outputs.empty()) s = SyncTableDir(env_, o.table_dir);
    env_.mu->Lock();
  }
  base->Unref();
  mem->Unref();
  *meta_out = FileMetaData();
  if (!s.ok()) return s;
  for (const FileMetaData& meta : outputs) {
    edit->AddFile(0, meta);
    *meta_out = meta;
  }
  stats_.bytes_written = stats.bytes_written;
  if (!stats.table_properties.empty()) table_properties_ = stats.table_properties.back();
  if (env_.stats != nullptr) {
    env_.stats->recordTick(FLUSH_WRITE_BYTES, stats.bytes_written);
    env_.stats->reportTimeToHistogram(FLUSH_TIME, env_.clock->NowMicros() - start);
  }
  stats_.micros = env_.clock->NowMicros() - start;
  stats_.count = 1;
  stats_.num_output_files = outputs.size();
  Log(env_.info_log,
      "[%s] flush: memtable of %" PRIu64 " entries -> %zu level-0 table(s), %" PRIu64
      " bytes, %" PRIu64 " us",
      cfd->name().c_str(), mem->num_entries(), outputs.size(), stats.bytes_written,
      env_.clock->NowMicros() - start);
  return Status::OK();
}

}  // namespace strata
