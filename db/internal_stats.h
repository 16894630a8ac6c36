// Internal statistics: what the engine counts about its own work so that
// the `rocksdb.stats` family of properties can report it in RocksDB
// 7.8.3's layout (docs/design/properties.md lists the properties).
//
// Two kinds of counters live here:
//  - InternalStats, one per column family: compaction statistics per
//    output level and per job priority (bytes read from level n and n+1,
//    written, moved, time, CPU time, jobs, keys in and dropped), bytes
//    flushed and write stalls by cause. Flush and compaction completion
//    (db_impl_compaction_flush.cc) and the write-stall path record them.
//  - DBWriteStats, one per DB: writes, keys, commit groups, WAL bytes and
//    syncs, stall time (the `** DB Stats **` block).
// Both keep a snapshot of what the last text dump printed, so that each
// dump's "Int"/"Interval" figures cover the time since the previous dump
// (as in RocksDB: reading `rocksdb.stats` starts a new interval).
//
// Thread-safety: InternalStats is guarded by the DB mutex (the caller holds
// it for every call). DBWriteStats is thread-safe: counters are relaxed
// atomics (statistics only, no ordering with other data), the interval
// snapshot has a mutex of its own.
// Invariants:
//  1. The "Sum" row of a dump is the field-wise sum of the level rows it
//     prints (levels with neither files nor recorded work print no row and
//     add nothing to it).
//  2. Counters only grow; an interval is cumulative minus the snapshot.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace strata {

class SystemClock;
class Version;

// What one flush or compaction job did, and the running sum of such jobs
// per output level. Names follow RocksDB's columns: "Rn" is input from the
// levels above the output level, "Rnp1" input from the output level.
struct CompactionStats {
  uint64_t micros = 0;      // wall time
  uint64_t cpu_micros = 0;  // CPU time of the job's thread
  uint64_t bytes_read_non_output_levels = 0;
  uint64_t bytes_read_output_level = 0;
  uint64_t bytes_written = 0;
  uint64_t bytes_moved = 0;  // trivial moves: files re-filed, not rewritten
  uint64_t num_input_files_in_non_output_levels = 0;
  uint64_t num_input_files_in_output_level = 0;
  uint64_t num_output_files = 0;
  uint64_t num_input_records = 0;
  uint64_t num_dropped_records = 0;  // input records not written
  uint64_t count = 0;                // jobs

  void Add(const CompactionStats& other);
  void Subtract(const CompactionStats& other);
};

// The thread pool a job ran in, as RocksDB's Env::Priority (the names are
// the row labels of the priority table).
enum class JobPriority { kBottom = 0, kLow = 1, kHigh = 2, kUser = 3 };
constexpr int kNumJobPriorities = 4;

// Why a write was delayed or stopped (RocksDB's "Stalls(count)" items).
enum class StallCause {
  kLevel0Slowdown,
  kLevel0SlowdownWithCompaction,
  kLevel0NumFiles,
  kLevel0NumFilesWithCompaction,
  kPendingCompactionBytesStop,
  kPendingCompactionBytesSlowdown,
  kMemtableStop,
  kMemtableSlowdown,
};
constexpr int kNumStallCauses = 8;

// RocksDB's human-readable number and size forms ("482K", "6.86 MB",
// "00:00:0.011 H:M:S").
std::string NumberToHumanString(int64_t n);
std::string BytesToHumanString(uint64_t bytes);
std::string MicrosToHumanString(uint64_t micros);

class InternalStats {
 public:
  // clock is borrowed and outlives this; the uptime starts now.
  InternalStats(int num_levels, SystemClock* clock);
  InternalStats(const InternalStats&) = delete;
  InternalStats& operator=(const InternalStats&) = delete;

  // A finished job's statistics: a flush (level 0, priority kHigh, or kUser
  // during recovery) also counts its output as bytes flushed.
  void AddCompactionStats(int level, JobPriority priority, const CompactionStats& stats);
  void AddFlushStats(JobPriority priority, const CompactionStats& stats);
  void AddStall(StallCause cause) { ++stalls_[static_cast<int>(cause)]; }
  // One file added by IngestExternalFile (the AddFile lines of the stats).
  void AddIngestedFile(uint64_t bytes, uint64_t keys, bool level0) {
    ingest_.bytes += bytes;
    ingest_.files += 1;
    ingest_.l0_files += level0 ? 1 : 0;
    ingest_.keys += keys;
  }

  const CompactionStats& level_stats(int level) const { return levels_[level]; }
  uint64_t bytes_flushed() const { return bytes_flushed_; }
  uint64_t stall_count(StallCause cause) const { return stalls_[static_cast<int>(cause)]; }

  // The `rocksdb.cfstats-no-file-histogram` text for family `name` whose
  // current Version is v; starts a new interval.
  std::string DumpNoFileHistogram(const std::string& name, const Version& v);
  // The `rocksdb.cf-file-histogram` text. Strata does not sample per-file
  // read latency, so it is RocksDB's heading with no level entries (what
  // RocksDB prints when it has no samples).
  static std::string DumpFileHistogram(const std::string& name);
  // The `rocksdb.cfstats` map: "compaction.<L0..|Sum>.<Stat>" and
  // "io_stalls.<cause>" keys, RocksDB's names. Does not start an interval.
  void DumpMap(const Version& v, std::map<std::string, std::string>* out) const;

 private:
  struct LevelRow;
  // The per-level rows of v (only levels with files or recorded work) and
  // their sum, keyed by level; the sum under key -1.
  void LevelRows(const Version& v, std::map<int, LevelRow>* rows) const;

  SystemClock* const clock_;
  const uint64_t started_at_;
  std::vector<CompactionStats> levels_;  // one per level
  std::array<CompactionStats, kNumJobPriorities> priorities_;
  uint64_t bytes_flushed_ = 0;
  std::array<uint64_t, kNumStallCauses> stalls_{};
  struct IngestTotals {
    uint64_t bytes = 0, files = 0, l0_files = 0, keys = 0;
  };
  IngestTotals ingest_;

  // What the previous text dump reported (the interval's start).
  struct Snapshot {
    double seconds_up = 0;
    uint64_t bytes_flushed = 0;
    uint64_t compact_bytes_read = 0;
    uint64_t compact_bytes_written = 0;
    uint64_t compact_micros = 0;
    uint64_t stall_count = 0;
    IngestTotals ingest;
    CompactionStats sum;
  };
  Snapshot snapshot_;
};

class DBWriteStats {
 public:
  // RocksDB's DB-wide counters; Name() gives the map key ("db.<name>").
  enum Counter {
    kWalFileBytes = 0,
    kWalFileSynced,
    kBytesWritten,
    kNumKeysWritten,
    kWriteDoneByOther,
    kWriteDoneBySelf,
    kWriteWithWal,
    kWriteStallMicros,
    kNumCounters
  };
  static const char* Name(Counter c);

  explicit DBWriteStats(SystemClock* clock);
  DBWriteStats(const DBWriteStats&) = delete;
  DBWriteStats& operator=(const DBWriteStats&) = delete;

  void Add(Counter c, uint64_t n) { counters_[c].fetch_add(n, std::memory_order_relaxed); }
  uint64_t Get(Counter c) const { return counters_[c].load(std::memory_order_relaxed); }

  // The `** DB Stats **` block; starts a new interval.
  std::string Dump();
  // The `rocksdb.dbstats` map: every counter under its name, and
  // "db.uptime" (seconds).
  void DumpMap(std::map<std::string, std::string>* out) const;

 private:
  double SecondsUp() const;

  SystemClock* const clock_;
  const uint64_t started_at_;
  std::array<std::atomic<uint64_t>, kNumCounters> counters_{};
  std::mutex snapshot_mu_;  // one dump at a time
  double snapshot_seconds_up_ = 0;
  std::array<uint64_t, kNumCounters> snapshot_{};
};

}  // namespace strata
