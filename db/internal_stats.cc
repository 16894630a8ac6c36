// InternalStats and DBWriteStats (see the header). The text layouts are
// RocksDB 7.8.3's (column headings, widths and units), so that a reader
// of RocksDB's `rocksdb.stats` finds each figure where they expect it.
#include "db/internal_stats.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include "db/version_set.h"
#include "strata/env.h"

namespace strata {

namespace {

constexpr double kMB = 1048576.0;
constexpr double kGB = kMB * 1024;
constexpr double kMicrosPerSec = 1000000.0;

const char* const kPriorityNames[kNumJobPriorities] = {"Bottom", "Low", "High", "User"};

// The map keys of the stall causes ("io_stalls.<name>"), in StallCause
// order, and the words of the "Stalls(count):" line.
const char* const kStallKeys[kNumStallCauses] = {
    "level0_slowdown",
    "level0_slowdown_with_compaction",
    "level0_numfiles",
    "level0_numfiles_with_compaction",
    "stop_for_pending_compaction_bytes",
    "slowdown_for_pending_compaction_bytes",
    "memtable_compaction",
    "memtable_slowdown",
};
const char* const kStallWords[kNumStallCauses] = {
    "level0_slowdown",
    "level0_slowdown_with_compaction",
    "level0_numfiles",
    "level0_numfiles_with_compaction",
    "stop for pending_compaction_bytes",
    "slowdown for pending_compaction_bytes",
    "memtable_compaction",
    "memtable_slowdown",
};

// One column of the compaction table: its heading and its map key.
struct Column {
  const char* heading;
  const char* key;
};
enum ColumnId {
  kFiles,
  kCompactedFiles,
  kSize,
  kScore,
  kReadGB,
  kRnGB,
  kRnp1GB,
  kWriteGB,
  kWnewGB,
  kMovedGB,
  kWriteAmp,
  kReadMBps,
  kWriteMBps,
  kCompSec,
  kCompCpuSec,
  kCompCount,
  kAvgSec,
  kKeyIn,
  kKeyDrop,
  kRblobGB,
  kWblobGB,
  kNumColumns
};
const Column kColumns[kNumColumns] = {
    {"Files", "NumFiles"},
    {"CompactedFiles", "CompactedFiles"},
    {"Size", "SizeBytes"},
    {"Score", "Score"},
    {"Read(GB)", "ReadGB"},
    {"Rn(GB)", "RnGB"},
    {"Rnp1(GB)", "Rnp1GB"},
    {"Write(GB)", "WriteGB"},
    {"Wnew(GB)", "WnewGB"},
    {"Moved(GB)", "MovedGB"},
    {"W-Amp", "WriteAmp"},
    {"Rd(MB/s)", "ReadMBps"},
    {"Wr(MB/s)", "WriteMBps"},
    {"Comp(sec)", "CompSec"},
    {"CompMergeCPU(sec)", "CompMergeCPU"},
    {"Comp(cnt)", "CompCount"},
    {"Avg(sec)", "AvgSec"},
    {"KeyIn", "KeyIn"},
    {"KeyDrop", "KeyDrop"},
    {"Rblob(GB)", "RblobGB"},
    {"Wblob(GB)", "WblobGB"},
};

using Values = std::array<double, kNumColumns>;

// The figures of one row: the level's (or sum's) files, the job
// statistics and the write amplification the caller computed.
Values RowValues(int files, int being_compacted, double size_bytes, double score, double w_amp,
                 const CompactionStats& s) {
  const double read = static_cast<double>(s.bytes_read_non_output_levels) +
                      static_cast<double>(s.bytes_read_output_level);
  const double elapsed = (static_cast<double>(s.micros) + 1) / kMicrosPerSec;
  Values v{};
  v[kFiles] = files;
  v[kCompactedFiles] = being_compacted;
  v[kSize] = size_bytes;
  v[kScore] = score;
  v[kReadGB] = read / kGB;
  v[kRnGB] = static_cast<double>(s.bytes_read_non_output_levels) / kGB;
  v[kRnp1GB] = static_cast<double>(s.bytes_read_output_level) / kGB;
  v[kWriteGB] = static_cast<double>(s.bytes_written) / kGB;
  // Signed: a compaction may write less than it read from level n+1.
  v[kWnewGB] =
      (static_cast<double>(s.bytes_written) - static_cast<double>(s.bytes_read_output_level)) / kGB;
  v[kMovedGB] = static_cast<double>(s.bytes_moved) / kGB;
  v[kWriteAmp] = w_amp;
  v[kReadMBps] = read / kMB / elapsed;
  v[kWriteMBps] = static_cast<double>(s.bytes_written) / kMB / elapsed;
  v[kCompSec] = static_cast<double>(s.micros) / kMicrosPerSec;
  v[kCompCpuSec] = static_cast<double>(s.cpu_micros) / kMicrosPerSec;
  v[kCompCount] = static_cast<double>(s.count);
  v[kAvgSec] = s.count == 0 ? 0 : static_cast<double>(s.micros) / kMicrosPerSec / s.count;
  v[kKeyIn] = static_cast<double>(s.num_input_records);
  v[kKeyDrop] = static_cast<double>(s.num_dropped_records);
  v[kRblobGB] = 0;  // no blob files in Strata
  v[kWblobGB] = 0;
  return v;
}

void AppendHeader(std::string* out, const std::string& cf_name, const char* group_by) {
  out->append("\n** Compaction Stats [" + cf_name + "] **\n");
  // "Files" stands for both Files and CompactedFiles ("n/m").
  std::string line = std::string(group_by) + "    " + kColumns[kFiles].heading + "   " +
                     kColumns[kSize].heading + "     " + kColumns[kScore].heading + " " +
                     kColumns[kReadGB].heading + "  ";
  for (int c = kRnGB; c < kNumColumns; ++c) {
    line += kColumns[c].heading;
    line += c + 1 < kNumColumns ? " " : "\n";
  }
  out->append(line);
  out->append(std::string(line.size(), '-'));
  out->append("\n");
}

void AppendRow(std::string* out, const std::string& label, const Values& v) {
  char buf[512];
  snprintf(buf, sizeof(buf),
           "%4s %6d/%-3d %8s %5.1f %8.1f %7.1f %8.1f %9.1f %8.1f %9.1f %5.1f %8.1f %8.1f %9.2f "
           "%17.2f %9d %8.3f %7s %6s %9.1f %9.1f\n",
           label.c_str(), static_cast<int>(v[kFiles]), static_cast<int>(v[kCompactedFiles]),
           BytesToHumanString(static_cast<uint64_t>(v[kSize])).c_str(), v[kScore], v[kReadGB],
           v[kRnGB], v[kRnp1GB], v[kWriteGB], v[kWnewGB], v[kMovedGB], v[kWriteAmp], v[kReadMBps],
           v[kWriteMBps], v[kCompSec], v[kCompCpuSec], static_cast<int>(v[kCompCount]), v[kAvgSec],
           NumberToHumanString(static_cast<int64_t>(v[kKeyIn])).c_str(),
           NumberToHumanString(static_cast<int64_t>(v[kKeyDrop])).c_str(), v[kRblobGB],
           v[kWblobGB]);
  out->append(buf);
}

}  // namespace

// ---------------------------------------------------------------------------
// Human-readable forms

std::string NumberToHumanString(int64_t n) {
  char buf[32];
  const int64_t abs = n < 0 ? -n : n;
  if (abs < 10000) {
    snprintf(buf, sizeof(buf), "%" PRIi64, n);
  } else if (abs < 10000000) {
    snprintf(buf, sizeof(buf), "%" PRIi64 "K", n / 1000);
  } else if (abs < 10000000000LL) {
    snprintf(buf, sizeof(buf), "%" PRIi64 "M", n / 1000000);
  } else {
    snprintf(buf, sizeof(buf), "%" PRIi64 "G", n / 1000000000);
  }
  return buf;
}

std::string BytesToHumanString(uint64_t bytes) {
  static const char* const kUnits[] = {"KB", "MB", "GB", "TB"};
  double size = static_cast<double>(bytes) / 1024;  // KB at least
  int unit = 0;
  while (unit < 3 && size >= 1024) {
    size /= 1024;
    ++unit;
  }
  char buf[32];
  snprintf(buf, sizeof(buf), "%.2f %s", size, kUnits[unit]);
  return buf;
}

std::string MicrosToHumanString(uint64_t micros) {
  char buf[64];
  snprintf(buf, sizeof(buf), "%02" PRIu64 ":%02" PRIu64 ":%05.3f H:M:S", micros / 3600000000,
           (micros / 60000000) % 60, static_cast<double>(micros % 60000000) / kMicrosPerSec);
  return buf;
}

// ---------------------------------------------------------------------------
// CompactionStats

void CompactionStats::Add(const CompactionStats& o) {
  micros += o.micros;
  cpu_micros += o.cpu_micros;
  bytes_read_non_output_levels += o.bytes_read_non_output_levels;
  bytes_read_output_level += o.bytes_read_output_level;
  bytes_written += o.bytes_written;
  bytes_moved += o.bytes_moved;
  num_input_files_in_non_output_levels += o.num_input_files_in_non_output_levels;
  num_input_files_in_output_level += o.num_input_files_in_output_level;
  num_output_files += o.num_output_files;
  num_input_records += o.num_input_records;
  num_dropped_records += o.num_dropped_records;
  count += o.count;
}

void CompactionStats::Subtract(const CompactionStats& o) {
  micros -= o.micros;
  cpu_micros -= o.cpu_micros;
  bytes_read_non_output_levels -= o.bytes_read_non_output_levels;
  bytes_read_output_level -= o.bytes_read_output_level;
  bytes_written -= o.bytes_written;
  bytes_moved -= o.bytes_moved;
  num_input_files_in_non_output_levels -= o.num_input_files_in_non_output_levels;
  num_input_files_in_output_level -= o.num_input_files_in_output_level;
  num_output_files -= o.num_output_files;
  num_input_records -= o.num_input_records;
  num_dropped_records -= o.num_dropped_records;
  count -= o.count;
}

// ---------------------------------------------------------------------------
// InternalStats

struct InternalStats::LevelRow {
  int files = 0;
  int being_compacted = 0;
  double size_bytes = 0;
  double score = 0;
  double w_amp = 0;
  CompactionStats stats;

  Values ToValues() const {
    return RowValues(files, being_compacted, size_bytes, score, w_amp, stats);
  }
};

InternalStats::InternalStats(int num_levels, SystemClock* clock)
    : clock_(clock), started_at_(clock->NowMicros()), levels_(num_levels) {}

void InternalStats::AddCompactionStats(int level, JobPriority priority,
                                       const CompactionStats& stats) {
  levels_[level].Add(stats);
  priorities_[static_cast<int>(priority)].Add(stats);
}

void InternalStats::AddFlushStats(JobPriority priority, const CompactionStats& stats) {
  AddCompactionStats(0, priority, stats);
  bytes_flushed_ += stats.bytes_written;
}

void InternalStats::LevelRows(const Version& v, std::map<int, LevelRow>* rows) const {
  std::vector<double> scores(levels_.size(), 0.0);
  for (const Version::LevelScore& s : v.compaction_scores()) {
    if (s.level >= 0 && s.level < static_cast<int>(scores.size())) scores[s.level] = s.score;
  }
  LevelRow sum;
  const int num_levels = std::min(v.num_levels(), static_cast<int>(levels_.size()));
  for (int level = 0; level < num_levels; ++level) {
    const CompactionStats& s = levels_[level];
    const int files = v.NumLevelFiles(level);
    if (s.micros == 0 && s.cpu_micros == 0 && files == 0) continue;
    LevelRow row;
    row.files = files;
    for (const FileMetaData* f : v.files(level)) row.being_compacted += f->being_compacted ? 1 : 0;
    row.size_bytes = static_cast<double>(v.NumLevelBytes(level));
    row.score = scores[level];
    // Level 0's input is what was flushed into it; a lower level's is what
    // compactions read from the levels above it.
    const uint64_t input = level == 0 ? bytes_flushed_ : s.bytes_read_non_output_levels;
    row.w_amp = input == 0 ? 0.0 : static_cast<double>(s.bytes_written) / input;
    row.stats = s;
    sum.files += row.files;
    sum.being_compacted += row.being_compacted;
    sum.size_bytes += row.size_bytes;
    sum.stats.Add(s);
    (*rows)[level] = row;
  }
  sum.w_amp =
      bytes_flushed_ == 0 ? 0.0 : static_cast<double>(sum.stats.bytes_written) / bytes_flushed_;
  (*rows)[-1] = sum;
}

std::string InternalStats::DumpNoFileHistogram(const std::string& name, const Version& v) {
  std::string out;
  AppendHeader(&out, name, "Level");
  std::map<int, LevelRow> rows;
  LevelRows(v, &rows);
  for (const auto& [level, row] : rows) {
    if (level >= 0) AppendRow(&out, "L" + std::to_string(level), row.ToValues());
  }
  const LevelRow& sum = rows[-1];
  AppendRow(&out, "Sum", sum.ToValues());

  // The interval since the previous dump ("+ 1": never divide by zero).
  CompactionStats interval = sum.stats;
  interval.Subtract(snapshot_.sum);
  const uint64_t interval_flushed = bytes_flushed_ - snapshot_.bytes_flushed;
  AppendRow(
      &out, "Int",
      RowValues(0, 0, 0, 0, static_cast<double>(interval.bytes_written) / (interval_flushed + 1),
                interval));

  AppendHeader(&out, name, "Priority");
  for (int p = 0; p < kNumJobPriorities; ++p) {
    if (priorities_[p].micros > 0) {
      AppendRow(&out, kPriorityNames[p], RowValues(0, 0, 0, 0, 0, priorities_[p]));
    }
  }

  char buf[1024];
  // Strata has no blob files: RocksDB's line with zeros, where its readers
  // look for it.
  out.append("\nBlob file count: 0, total size: 0.0 GB, garbage size: 0.0 GB, space amp: 0.0\n\n");
  const double seconds_up = static_cast<double>(clock_->NowMicros() - started_at_) / kMicrosPerSec;
  const double interval_secs = seconds_up - snapshot_.seconds_up;
  snprintf(buf, sizeof(buf), "Uptime(secs): %.1f total, %.1f interval\n", seconds_up,
           interval_secs);
  out.append(buf);
  snprintf(buf, sizeof(buf), "Flush(GB): cumulative %.3f, interval %.3f\n", bytes_flushed_ / kGB,
           interval_flushed / kGB);
  out.append(buf);
  // Files added by IngestExternalFile.
  snprintf(buf, sizeof(buf), "AddFile(GB): cumulative %.3f, interval %.3f\n", ingest_.bytes / kGB,
           (ingest_.bytes - snapshot_.ingest.bytes) / kGB);
  out.append(buf);
  snprintf(buf, sizeof(buf), "AddFile(Total Files): cumulative %" PRIu64 ", interval %" PRIu64 "\n",
           ingest_.files, ingest_.files - snapshot_.ingest.files);
  out.append(buf);
  snprintf(buf, sizeof(buf), "AddFile(L0 Files): cumulative %" PRIu64 ", interval %" PRIu64 "\n",
           ingest_.l0_files, ingest_.l0_files - snapshot_.ingest.l0_files);
  out.append(buf);
  snprintf(buf, sizeof(buf), "AddFile(Keys): cumulative %" PRIu64 ", interval %" PRIu64 "\n",
           ingest_.keys, ingest_.keys - snapshot_.ingest.keys);
  out.append(buf);

  uint64_t read = 0, written = 0, micros = 0;
  for (const CompactionStats& s : levels_) {
    read += s.bytes_read_non_output_levels + s.bytes_read_output_level;
    written += s.bytes_written;
    micros += s.micros;
  }
  const double up = std::max(seconds_up, 0.001);
  snprintf(buf, sizeof(buf),
           "Cumulative compaction: %.2f GB write, %.2f MB/s write, %.2f GB read, %.2f MB/s read, "
           "%.1f seconds\n",
           written / kGB, written / kMB / up, read / kGB, read / kMB / up, micros / kMicrosPerSec);
  out.append(buf);
  const uint64_t iw = written - snapshot_.compact_bytes_written;
  const uint64_t ir = read - snapshot_.compact_bytes_read;
  const double iup = std::max(interval_secs, 0.001);
  snprintf(buf, sizeof(buf),
           "Interval compaction: %.2f GB write, %.2f MB/s write, %.2f GB read, %.2f MB/s read, "
           "%.1f seconds\n",
           iw / kGB, iw / kMB / iup, ir / kGB, ir / kMB / iup,
           (micros - snapshot_.compact_micros) / kMicrosPerSec);
  out.append(buf);

  // RocksDB's total leaves out the "with_compaction" variants (they are
  // counted again under their plain cause).
  uint64_t stall_total = 0;
  for (StallCause c :
       {StallCause::kLevel0Slowdown, StallCause::kLevel0NumFiles,
        StallCause::kPendingCompactionBytesSlowdown, StallCause::kPendingCompactionBytesStop,
        StallCause::kMemtableStop, StallCause::kMemtableSlowdown}) {
    stall_total += stall_count(c);
  }
  std::string stalls = "Stalls(count): ";
  for (int c = 0; c < kNumStallCauses; ++c) {
    stalls += std::to_string(stalls_[c]) + " " + kStallWords[c] + ", ";
  }
  stalls += "interval " + std::to_string(stall_total - snapshot_.stall_count) + " total count\n";
  out.append(stalls);

  snapshot_.seconds_up = seconds_up;
  snapshot_.bytes_flushed = bytes_flushed_;
  snapshot_.compact_bytes_read = read;
  snapshot_.compact_bytes_written = written;
  snapshot_.compact_micros = micros;
  snapshot_.stall_count = stall_total;
  snapshot_.ingest = ingest_;
  snapshot_.sum = sum.stats;
  return out;
}

std::string InternalStats::DumpFileHistogram(const std::string& name) {
  return "\n** File Read Latency Histogram By Level [" + name + "] **\n";
}

void InternalStats::DumpMap(const Version& v, std::map<std::string, std::string>* out) const {
  std::map<int, LevelRow> rows;
  LevelRows(v, &rows);
  for (const auto& [level, row] : rows) {
    const std::string prefix =
        "compaction." + (level < 0 ? std::string("Sum") : "L" + std::to_string(level)) + ".";
    const Values values = row.ToValues();
    for (int c = 0; c < kNumColumns; ++c) {
      (*out)[prefix + kColumns[c].key] = std::to_string(values[c]);
    }
  }
  for (int c = 0; c < kNumStallCauses; ++c) {
    (*out)[std::string("io_stalls.") + kStallKeys[c]] = std::to_string(stalls_[c]);
  }
  (*out)["io_stalls.total_stop"] =
      std::to_string(stall_count(StallCause::kLevel0NumFiles) +
                     stall_count(StallCause::kPendingCompactionBytesStop) +
                     stall_count(StallCause::kMemtableStop));
  (*out)["io_stalls.total_slowdown"] =
      std::to_string(stall_count(StallCause::kLevel0Slowdown) +
                     stall_count(StallCause::kPendingCompactionBytesSlowdown) +
                     stall_count(StallCause::kMemtableSlowdown));
}

// ---------------------------------------------------------------------------
// DBWriteStats

const char* DBWriteStats::Name(Counter c) {
  switch (c) {
    case kWalFileBytes:
      return "db.wal_bytes_written";
    case kWalFileSynced:
      return "db.wal_syncs";
    case kBytesWritten:
      return "db.user_bytes_written";
    case kNumKeysWritten:
      return "db.user_keys_written";
    case kWriteDoneByOther:
      return "db.user_writes_by_other";
    case kWriteDoneBySelf:
      return "db.user_writes_by_self";
    case kWriteWithWal:
      return "db.user_writes_with_wal";
    case kWriteStallMicros:
      return "db.user_write_stall_micros";
    case kNumCounters:
      break;
  }
  return "db.unknown";
}

DBWriteStats::DBWriteStats(SystemClock* clock) : clock_(clock), started_at_(clock->NowMicros()) {}

double DBWriteStats::SecondsUp() const {
  return static_cast<double>(clock_->NowMicros() - started_at_) / kMicrosPerSec;
}

std::string DBWriteStats::Dump() {
  std::lock_guard<std::mutex> l(snapshot_mu_);
  std::array<uint64_t, kNumCounters> now;
  for (int c = 0; c < kNumCounters; ++c) now[c] = Get(static_cast<Counter>(c));
  const double up = SecondsUp();
  const double interval_up = up - snapshot_seconds_up_;
  const double up_div = std::max(up, 0.001);
  const double iup_div = std::max(interval_up, 0.001);
  std::string out;
  char buf[1024];
  snprintf(buf, sizeof(buf), "\n** DB Stats **\nUptime(secs): %.1f total, %.1f interval\n", up,
           interval_up);
  out.append(buf);

  // writes = writes done by a leader for itself plus those done for them
  // by a leader; commit groups = the leaders' writes.
  auto writes_line = [&](const char* label, const std::array<uint64_t, kNumCounters>& v,
                         bool cumulative) {
    const uint64_t writes = v[kWriteDoneByOther] + v[kWriteDoneBySelf];
    const double per_group =
        static_cast<double>(writes) / std::max(1.0, static_cast<double>(v[kWriteDoneBySelf]));
    // RocksDB prints the cumulative ingest in GB and the interval's in MB.
    snprintf(buf, sizeof(buf),
             "%s writes: %s writes, %s keys, %s commit groups, %.1f writes per commit group, "
             "ingest: %.2f %s, %.2f MB/s\n",
             label, NumberToHumanString(static_cast<int64_t>(writes)).c_str(),
             NumberToHumanString(static_cast<int64_t>(v[kNumKeysWritten])).c_str(),
             NumberToHumanString(static_cast<int64_t>(v[kWriteDoneBySelf])).c_str(), per_group,
             v[kBytesWritten] / (cumulative ? kGB : kMB), cumulative ? "GB" : "MB",
             v[kBytesWritten] / kMB / (cumulative ? up_div : iup_div));
    out.append(buf);
    snprintf(buf, sizeof(buf),
             "%s WAL: %s writes, %s syncs, %.2f writes per sync, written: %.2f GB, %.2f MB/s\n",
             label, NumberToHumanString(static_cast<int64_t>(v[kWriteWithWal])).c_str(),
             NumberToHumanString(static_cast<int64_t>(v[kWalFileSynced])).c_str(),
             static_cast<double>(v[kWriteWithWal]) /
                 std::max(1.0, static_cast<double>(v[kWalFileSynced])),
             v[kWalFileBytes] / kGB, v[kWalFileBytes] / kMB / (cumulative ? up_div : iup_div));
    out.append(buf);
    snprintf(buf, sizeof(buf), "%s stall: %s, %.1f percent\n", label,
             MicrosToHumanString(v[kWriteStallMicros]).c_str(),
             // micros -> seconds (1e6), then percent (100)
             v[kWriteStallMicros] / 10000.0 / (cumulative ? up_div : iup_div));
    out.append(buf);
  };
  writes_line("Cumulative", now, true);
  std::array<uint64_t, kNumCounters> interval;
  for (int c = 0; c < kNumCounters; ++c) interval[c] = now[c] - snapshot_[c];
  writes_line("Interval", interval, false);

  snapshot_ = now;
  snapshot_seconds_up_ = up;
  return out;
}

void DBWriteStats::DumpMap(std::map<std::string, std::string>* out) const {
  for (int c = 0; c < kNumCounters; ++c) {
    (*out)[Name(static_cast<Counter>(c))] = std::to_string(Get(static_cast<Counter>(c)));
  }
  (*out)["db.uptime"] = std::to_string(SecondsUp());
}

}  // namespace strata
