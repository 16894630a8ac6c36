// db_bench_common: everything Strata's db_bench and db_bench_leveldb share,
// so that one command line does the same work on Strata, LevelDB and
// RocksDB's own db_bench (/usr/bin/db_bench) and prints the same lines.
//
// What "the same work" means, and how it is kept:
//  1. Flags: RocksDB's names and defaults, gflags syntax (--name=value,
//     -name=value, --name value, --bool / --nobool). An unknown flag is an
//     error naming it.
//  2. Keys: the integer k becomes key_size bytes: k as a big-endian integer of
//     min(key_size, 8) bytes, then '0' padding (GenerateKeyFromInt). With
//     --keys_per_prefix > 0 the key opens with a prefix_size-byte prefix
//     made the same way from k % (num_keys / keys_per_prefix), so about
//     keys_per_prefix of the num_keys keys share each prefix.
//  3. Values: slices, at advancing positions, of one buffer of at least 1 MiB
//     built from 100-byte pieces that compress to compression_ratio of their
//     size. The buffer's bytes are the ones RocksDB's db_bench builds (a
//     Park-Miller generator seeded 301 drawing printable characters).
//  4. Random keys: each thread owns a std::mt19937_64 seeded with
//     seed + (running count of threads started by this process); every
//     workload draws from it exactly as RocksDB's does (including the draw
//     RocksDB spends choosing among databases), so a readrandom after a
//     fillrandom finds the same number of keys as RocksDB's for the same
//     --seed.
//  5. Output: the RocksDB report line
//       "%-12s : %11.3f micros/op %ld ops/sec %.3f seconds %ld operations;"
//     followed by " %6.1f MB/s" when bytes were counted and the workload's
//     message, and with --histogram "Microseconds per <op>:" and the
//     histogram. Progress ("... finished N ops") goes to stderr. The meta
//     workloads print what RocksDB's print: "compact" a report line of one
//     operation (its time), "flush" "flush memtable", "waitforcompaction"
//     "waitforcompaction(<db>): started" / "...: finished", "stats" the
//     store's stats property. With --statistics the end of the run prints
//     "STATISTICS:", the store's tickers, and one extra line,
//       "Write amplification: %.3f (flush+compaction bytes written: %lu,
//        user bytes written: %lu)"
//     where user bytes are the key+value bytes the workloads wrote since
//     the database was last created, then "Space amplification: ..." and
//     "Read amplification: ..." (SpaceAmplificationLine,
//     ReadAmplificationLine below; "n/a (<why>)" when the store cannot say). With --perf_level > 1
//     (Strata only) each benchmark runs its threads at that PerfLevel and the report line's message
//     gets " PERF_CONTEXT:" and, on the next line, the first thread's PerfContext ("name = value,
//     ..."), as RocksDB's db_bench.
//
// The workloads themselves are written once, in the Benchmark<Engine>
// template below; each driver supplies an Engine adapter over its store's
// public API (see "Engine requirements").
// Thread-safety: BenchFlags, ValueGenerator and Stats are not thread-safe
// (one per thread, Stats merged after the threads end); SharedState and
// RateLimiter are thread-safe.
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cinttypes>
#include <concepts>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "util/histogram.h"

namespace strata::bench {

// ---------------------------------------------------------------------------
// Flags

struct BenchFlags {
  BenchFlags();

  // Parses argv in gflags syntax. On failure returns false and sets *error
  // (e.g. "unknown command line flag 'foo'"). --help prints the flag list to
  // stdout and exits 0.
  bool Parse(int argc, char** argv, std::string* error);
  // True if the flag was given on the command line (not just defaulted).
  bool WasSet(std::string_view name) const;
  // One line per flag: name, type, default.
  std::string Usage() const;

  std::string benchmarks =
      "fillseq,fillrandom,overwrite,readrandom,readseq,readreverse,"
      "seekrandom";
  int64_t num = 1000000;
  int64_t reads = -1;    // < 0: num
  int64_t writes = -1;   // < 0: num
  int64_t deletes = -1;  // < 0: num
  int32_t value_size = 100;
  int32_t key_size = 16;
  double compression_ratio = 0.5;
  int32_t threads = 1;
  int32_t duration = 0;  // seconds; 0 = bounded by num/reads
  int32_t ops_between_duration_checks = 1000;
  std::string db;  // "" = <tmp>/<engine>test-<uid>/dbbench
  bool use_existing_db = false;
  bool disable_wal = false;
  bool sync = false;
  int64_t seed = 0;  // 0 = derived from the clock
  bool histogram = false;
  bool progress_reports = true;
  int64_t stats_interval = 0;
  // > 0: every this many seconds a reporter thread appends
  // "secs_elapsed,interval_qps" to report_file (RocksDB's CSV).
  int64_t report_interval_seconds = 0;
  std::string report_file = "report.csv";
  bool statistics = false;
  int32_t perf_level = 1;  // PerfLevel: 1 kDisable ... 5 kEnableTime
  int64_t batch_size = 1;
  int64_t multiread_stride = 0;    // > 0: a MultiGet reads keys this far apart
  bool multiread_batched = false;  // accepted; Strata has one MultiGet
  int32_t seek_nexts = 0;
  bool reverse_iterator = false;
  bool verify_checksum = true;
  uint64_t benchmark_write_rate_limit = 0;  // bytes/second, 0 = unlimited
  uint64_t benchmark_read_rate_limit = 0;   // ops/second, 0 = unlimited
  // Merge workloads.
  std::string merge_operator;  // "" = none (the merge workloads refuse to run)
  int64_t merge_keys = -1;     // < 0: num
  int32_t mergereadpercent = 70;
  // Key prefixes.
  int32_t prefix_size = 0;      // != 0: a fixed-prefix extractor of this size
  int64_t keys_per_prefix = 0;  // > 0: keys carry a prefix (see Keys above)
  double memtable_bloom_size_ratio = 0;
  bool memtable_whole_key_filtering = false;
  bool whole_key_filtering = true;
  // BlockBasedTableOptions::format_version (issue 19: 5, 6 or 7).
  int32_t format_version = 5;
  bool total_order_seek = false;
  bool prefix_same_as_start = false;
  // Range tombstones issued by the fill workloads.
  int64_t writes_per_range_tombstone = 0;  // 0 = none
  int64_t range_tombstone_width = 100;
  int64_t max_num_range_tombstones = 0;
  int64_t writes_before_delete_range = 0;
  bool expand_range_tombstones = false;  // point deletes instead

  // Options of the store.
  int64_t write_buffer_size = 64 << 20;
  int32_t max_write_buffer_number = 2;
  std::string compression_type = "snappy";
  std::string wal_compression = "none";
  bool allow_concurrent_memtable_write = true;
  bool enable_pipelined_write = true;
  bool mmap_write = false;
  bool wal_mmap_writes = true;   // Strata only: append to the WAL through a map
  bool table_mmap_reads = true;  // Strata only: read tables through maps
  bool mmap_read = false;
  bool use_fsync = false;
  int32_t open_files = -1;
  // Table options (RocksDB db_bench: a cache_size <= 0 means no block cache;
  // bloom_bits <= 0 means no filter).
  int64_t cache_size = 8 << 20;
  int32_t cache_numshardbits = -1;  // < 0: the cache's default
  // lru_cache | hyper_clock_cache (estimated_entry_charge = block_size);
  // clock_cache is refused, as RocksDB 7.8.3's db_bench does.
  std::string cache_type = "lru_cache";
  bool cache_index_and_filter_blocks = false;
  // Partitioned index and filters (issue 19; RocksDB's flags and defaults:
  // note db_bench's pin_top_level_index_and_filter defaults to false).
  bool partition_index_and_filters = false;
  bool partition_index = false;
  int64_t metadata_block_size = 4096;
  bool pin_top_level_index_and_filter = false;
  bool pin_l0_filter_and_index_blocks_in_cache = false;
  // Memory (issue 19): RocksDB 7.8.3 db_bench's names, and Strata's
  // memory_budget (0: off).
  int64_t db_write_buffer_size = 0;
  bool cost_write_buffer_to_cache = false;
  bool charge_table_reader = false;
  bool charge_filter_construction = false;
  bool charge_compression_dictionary_building_buffer = false;
  bool charge_file_metadata = false;
  uint64_t memory_budget = 0;
  int32_t bloom_bits = -1;
  // Ribbon instead of Bloom, at --bloom_bits equivalent bits per key.
  bool use_ribbon_filter = false;
  int32_t block_size = 4096;
  // Shape of the tree and background work.
  int32_t num_levels = 7;
  int32_t max_background_jobs = 2;
  int64_t target_file_size_base = 64 << 20;
  uint64_t max_bytes_for_level_base = 256 << 20;
  double max_bytes_for_level_multiplier = 10;
  // db_bench's default is false even where the store's default is true.
  bool level_compaction_dynamic_level_bytes = false;
  bool disable_auto_compactions = false;
  int32_t level0_file_num_compaction_trigger = 4;
  int32_t level0_slowdown_writes_trigger = 20;
  int32_t level0_stop_writes_trigger = 36;
  uint64_t subcompactions = 1;
  bool use_direct_reads = false;
  // File placement and direct I/O (issue 19, "paths"; RocksDB db_bench's
  // names and defaults).
  bool use_direct_io_for_flush_and_compaction = false;
  int64_t compaction_readahead_size = 0;
  std::string wal_dir;
  // Paced I/O (RocksDB db_bench's names; the sst_file_manager_* ones are a
  // later RocksDB's). Not supported by LevelDB (refused when set).
  uint64_t rate_limiter_bytes_per_sec = 0;
  int64_t rate_limiter_refill_period_us = 100 * 1000;
  bool rate_limiter_auto_tuned = false;
  bool rate_limit_bg_reads = false;
  uint64_t bytes_per_sync = 0;
  uint64_t wal_bytes_per_sync = 0;
  uint64_t sst_file_manager_bytes_per_sec = 0;
  uint64_t sst_file_manager_bytes_per_truncate = 0;
  // Compaction styles and compression by level (RocksDB 7.8.3 db_bench's
  // names, defaults and meanings; ParseCompactionSettings checks them and
  // the store's Open refuses what it does not build).
  int32_t compaction_style = 0;                          // 0 level, 1 universal, 2 fifo, 3 none
  int32_t compaction_pri = 3;                            // kMinOverlappingRatio
  int32_t universal_size_ratio = 0;                      // 0: the store's default
  int32_t universal_min_merge_width = 0;                 // 0: the store's default
  int32_t universal_max_merge_width = 0;                 // 0: the store's default
  int32_t universal_max_size_amplification_percent = 0;  // 0: the store's default
  int32_t universal_compression_size_percent = -1;       // -1: the store's default
  bool universal_allow_trivial_move = false;
  bool universal_incremental = false;
  uint64_t fifo_compaction_max_table_files_size_mb = 0;
  bool fifo_compaction_allow_compaction = true;
  uint64_t fifo_compaction_ttl = 0;
  uint64_t fifo_age_for_warm = 0;
  uint64_t ttl_seconds = 0xfffffffffffffffeull;
  uint64_t periodic_compaction_seconds = 0xfffffffffffffffeull;
  std::string max_bytes_for_level_multiplier_additional;  // "" = the store's default
  int32_t compression_level = 32767;  // CompressionOptions::kDefaultCompressionLevel
  int32_t compression_max_dict_bytes = 0;
  int32_t compression_zstd_max_train_bytes = 0;
  uint64_t compression_max_dict_buffer_bytes = 0;
  bool compression_use_zstd_dict_trainer = true;
  int32_t compression_parallel_threads = 1;
  int32_t min_level_to_compress = -1;  // < 0: compression_type at every level
  std::string compression_per_level;   // Strata only: "none,lz4,zstd" per level
  // Strata only: at the end of the run, measure live data by compacting
  // everything (see "Space amplification").
  bool compact_for_space_amp = false;
  // Transactions (RocksDB 7.8.3's flags; randomtransaction).
  bool optimistic_transaction_db = false;
  bool transaction_db = false;
  uint64_t transaction_sets = 2;
  bool transaction_set_snapshot = false;
  int32_t transaction_sleep = 0;  // RocksDB 7.8.3 reads it nowhere
  uint64_t transaction_lock_timeout = 100;

 private:
  enum class Type { kBool, kInt32, kInt64, kUint64, kDouble, kString };
  struct Def {
    const char* name;
    Type type;
    void* ptr;
    const char* help;
  };
  void Add(const char* name, bool* p, const char* help);
  void Add(const char* name, int32_t* p, const char* help);
  void Add(const char* name, int64_t* p, const char* help);
  void Add(const char* name, uint64_t* p, const char* help);
  void Add(const char* name, double* p, const char* help);
  void Add(const char* name, std::string* p, const char* help);
  const Def* Find(std::string_view name) const;
  static bool SetValue(const Def& def, std::string_view value, std::string* error);
  static std::string ValueString(const Def& def);

  std::vector<Def> defs_;
  std::set<std::string, std::less<>> set_;
};

// The compression algorithms RocksDB's --compression_type names.
enum class Compression { kNone, kSnappy, kZlib, kBZip2, kLZ4, kLZ4HC, kXpress, kZSTD };
// Parses RocksDB's spelling ("none", "snappy", "zlib", "bzip2", "lz4",
// "lz4hc", "xpress", "zstd"); false if unknown.
bool ParseCompression(std::string_view name, Compression* out);
// RocksDB's display name ("NoCompression", "Snappy", ..., "ZSTD").
const char* CompressionName(Compression c);

// The compaction-style flags checked and decoded, store-independent (each
// driver copies them onto its store's options). Field meanings are RocksDB
// 7.8.3's (include/rocksdb/options.h, advanced_options.h,
// universal_compaction.h); "unset" fields leave the store's default.
struct CompactionSettings {
  int compaction_style = 0;
  int compaction_pri = 3;
  // Universal: 0 (or -1 for compression_size_percent) = unset, as RocksDB's
  // db_bench only assigns the non-zero ones.
  unsigned universal_size_ratio = 0;
  unsigned universal_min_merge_width = 0;
  unsigned universal_max_merge_width = 0;
  unsigned universal_max_size_amplification_percent = 0;
  int universal_compression_size_percent = -1;
  bool universal_allow_trivial_move = false;
  bool universal_incremental = false;
  // FIFO: always assigned (RocksDB's db_bench does), in bytes.
  uint64_t fifo_max_table_files_size = 0;
  bool fifo_allow_compaction = true;
  uint64_t fifo_age_for_warm = 0;
  uint64_t ttl = 0xfffffffffffffffeull;
  uint64_t periodic_compaction_seconds = 0xfffffffffffffffeull;
  // Empty = unset; else exactly num_levels entries.
  std::vector<int> max_bytes_for_level_multiplier_additional;
  // CompressionOptions.
  int compression_level = 32767;
  uint32_t compression_max_dict_bytes = 0;
  uint32_t compression_zstd_max_train_bytes = 0;
  uint64_t compression_max_dict_buffer_bytes = 0;
  bool compression_use_zstd_dict_trainer = true;
  uint32_t compression_parallel_threads = 1;
  // Empty = unset (compression_type everywhere); else the algorithm of each
  // level (from --min_level_to_compress or --compression_per_level).
  std::vector<Compression> compression_per_level;
};

// Checks and decodes the compaction-style flags of `flags` into *out, with
// `compression` the decoded --compression_type (used by
// --min_level_to_compress). On a bad value returns false and sets *error to a
// message naming the flag. Facts kept from RocksDB 7.8.3's db_bench:
//  - --fifo_compaction_ttl sets ttl, but RocksDB then overwrites ttl with
//    --ttl_seconds (so there it has no effect); here --ttl_seconds wins when
//    given, else --fifo_compaction_ttl when given, else ttl's default, and
//    both given with different values is an error rather than a silent drop.
//  - --max_bytes_for_level_multiplier_additional needs exactly --num_levels
//    entries.
//  - --min_level_to_compress=N: levels < N uncompressed, the rest
//    --compression_type, num_levels entries (N <= num_levels).
// --compression_per_level (Strata only) is a comma list of --compression_type
// names, one per level (levels past the list use its last entry, as the
// store does); it cannot be combined with --min_level_to_compress.
bool ParseCompactionSettings(const BenchFlags& flags, Compression compression,
                             CompactionSettings* out, std::string* error);

// The names of the flags ParseCompactionSettings reads (for a store that has
// none of these options: it refuses each one given).
extern const char* const kCompactionStyleFlags[];
extern const size_t kNumCompactionStyleFlags;

// ---------------------------------------------------------------------------
// Amplification figures (printed with --statistics after the benchmarks)

// "Space amplification: %.3f (live SST bytes: S, live data bytes: L, live
// data = <how>)", or "Space amplification: n/a (<why>)" when live_bytes is 0.
std::string SpaceAmplificationLine(uint64_t sst_bytes, uint64_t live_bytes,
                                   std::string_view live_definition);

// Table-filter probes counted over the readrandom phases: `useful` filter
// checks that ruled a table out (rocksdb.bloom.filter.useful), `positive`
// ones that did not (rocksdb.bloom.filter.full.positive), over `gets` Gets
// (rocksdb.number.keys.read). Every table whose key range covers the key is
// checked exactly once per Get (until the key is found), so (useful +
// positive) / gets is the tables probed per Get and positive / gets the
// tables read past their filter per Get.
struct ReadProbes {
  uint64_t useful = 0;
  uint64_t positive = 0;
  uint64_t gets = 0;
};
// "Read amplification: %.3f tables probed per Get (filter useful: U, filter
// positive: P, Gets: G; %.3f tables read past the filter per Get)" or
// "Read amplification: n/a (<why>)".
std::string ReadAmplificationLine(const ReadProbes& probes, bool have_filters);

// ---------------------------------------------------------------------------
// Keys and values

// Writes the key for integer v into dst[0, key_size): v as a big-endian
// integer of min(key_size, 8) bytes (its low bytes when key_size < 8), then
// '0' characters up to key_size.
inline void GenerateKeyFromInt(uint64_t v, int key_size, char* dst) {
  if (key_size >= 8) {
    uint64_t be = v;
    if constexpr (std::endian::native == std::endian::little) {
      be = __builtin_bswap64(v);
    }
    std::memcpy(dst, &be, 8);
    if (key_size > 8) std::memset(dst + 8, '0', key_size - 8);
    return;
  }
  for (int i = 0; i < key_size; ++i) {
    dst[i] = static_cast<char>(v >> (8 * (key_size - 1 - i)));
  }
}

// How keys are shaped: key_size bytes, and with keys_per_prefix > 0 a
// prefix_size-byte prefix first. REQUIRES: prefix_size <= key_size when
// keys_per_prefix > 0.
struct KeyFormat {
  int key_size = 16;
  int prefix_size = 0;
  int64_t keys_per_prefix = 0;
};

// The key for integer v among num_keys keys (RocksDB db_bench's
// GenerateKeyFromInt): with keys_per_prefix > 0, first the prefix
// v % max(1, num_keys / keys_per_prefix) written as above in prefix_size
// bytes; then v in the remaining key_size - prefix_size bytes. Writes
// dst[0, key_size).
inline void GenerateKeyFromInt(uint64_t v, int64_t num_keys, const KeyFormat& format, char* dst) {
  if (format.keys_per_prefix <= 0) {
    GenerateKeyFromInt(v, format.key_size, dst);
    return;
  }
  // RocksDB divides by zero when num_keys < keys_per_prefix; one prefix here.
  const int64_t num_prefixes = std::max<int64_t>(1, num_keys / format.keys_per_prefix);
  GenerateKeyFromInt(v % static_cast<uint64_t>(num_prefixes), format.prefix_size, dst);
  GenerateKeyFromInt(v, format.key_size - format.prefix_size, dst + format.prefix_size);
}

// The value bytes: at least max(1 MiB, value_size) bytes of 100-byte pieces,
// each int(100 * compression_ratio) random printable characters repeated.
// Identical to the buffer of RocksDB's db_bench RandomGenerator.
std::string BuildValueData(int value_size, double compression_ratio);

// Hands out value_size-byte slices of a shared value buffer at advancing
// positions, wrapping to the start when the next slice would not fit.
class ValueGenerator {
 public:
  // data must outlive the generator and be at least value_size bytes.
  ValueGenerator(const std::string* data, size_t value_size)
      : data_(data), value_size_(value_size) {}

  std::string_view Next() {
    if (pos_ + value_size_ > data_->size()) pos_ = 0;
    pos_ += value_size_;
    return std::string_view(data_->data() + pos_ - value_size_, value_size_);
  }

 private:
  const std::string* data_;
  size_t value_size_;
  size_t pos_ = 0;
};

// ---------------------------------------------------------------------------
// Time, failure, rate limiting

// Microseconds on a monotonic clock.
inline uint64_t NowMicros() {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::microseconds>(
                                   std::chrono::steady_clock::now().time_since_epoch())
                                   .count());
}

// Prints the message (printf format) and a newline to stderr, flushes stdout
// and stderr, and ends the process with exit code 1 (callable from any
// thread).
[[noreturn]] void Fail(const char* format, ...) __attribute__((format(printf, 1, 2)));

// <TEST_TMPDIR or /tmp/<prefix>test-<euid>>/dbbench, the parent directory
// created (like RocksDB's /tmp/rocksdbtest-<euid>/dbbench).
std::string DefaultDbPath(const char* prefix);

// Paces callers to at most `per_second` units per second, shared by all
// threads that hold it. Thread-safe.
class RateLimiter {
 public:
  explicit RateLimiter(uint64_t per_second) : per_second_(per_second) {}
  // Blocks until `amount` units fit under the rate.
  void Request(uint64_t amount);

 private:
  std::mutex mu_;
  const uint64_t per_second_;
  double next_free_micros_ = 0;  // guarded by mu_
};

// ---------------------------------------------------------------------------
// Per-thread statistics

// In RocksDB's order (the order histograms are printed in).
enum class OpType : uint8_t { kRead, kWrite, kDelete, kSeek, kMerge, kOthers };
inline constexpr int kNumOpTypes = 6;

class Stats {
 public:
  Stats(bool histogram, bool progress_reports, int64_t stats_interval);
  Stats(Stats&&) noexcept = default;
  Stats& operator=(Stats&&) noexcept = default;

  void Start(int id);
  void Stop();
  // Adds other's counts, histograms and time span (unless other was
  // excluded); keeps the first non-empty message.
  void Merge(const Stats& other);

  // Counts n finished operations of the given kind.
  void FinishedOps(int64_t n, OpType type) {
    if (histogram_) AddLatency(type);
    done_ += n;
    if (report_ops_ != nullptr) report_ops_->fetch_add(n, std::memory_order_relaxed);
    if (done_ >= next_report_) ReportProgress();
  }
  // Makes time spent sleeping in a rate limiter invisible to the histogram.
  void ResetLastOpTime() { last_op_finish_ = NowMicros(); }
  void AddBytes(int64_t n) { bytes_ += n; }
  void AddMessage(std::string_view msg);
  void SetExcludeFromMerge() { exclude_from_merge_ = true; }
  // Finished ops are also added to *ops (the interval reporter's count).
  void SetReportCounter(std::atomic<uint64_t>* ops) { report_ops_ = ops; }

  uint64_t done() const { return done_; }
  // ops/second over the merged time span.
  double Throughput() const;
  // Prints RocksDB's report line (and the histograms with --histogram).
  void Report(std::string_view name);

 private:
  void AddLatency(OpType type);
  void ReportProgress();

  bool histogram_;
  bool progress_reports_;
  int64_t stats_interval_;
  int id_ = -1;
  uint64_t start_ = 0;   // micros
  uint64_t finish_ = 0;  // micros
  double seconds_ = 0;   // sum of per-thread run times
  uint64_t done_ = 0;
  uint64_t next_report_ = 100;
  uint64_t bytes_ = 0;
  uint64_t last_op_finish_ = 0;
  bool exclude_from_merge_ = false;
  std::atomic<uint64_t>* report_ops_ = nullptr;
  std::string message_;
  std::unique_ptr<Histogram> hist_[kNumOpTypes];
};

// ---------------------------------------------------------------------------
// Threads

// State shared by the threads of one benchmark run. Thread-safe.
struct SharedState {
  std::mutex mu;
  std::condition_variable cv;
  int total = 0;            // guarded by mu
  int num_initialized = 0;  // guarded by mu
  bool start = false;       // guarded by mu
  // Release on finish, acquire in OthersDone: a writer that sees every other
  // thread done may stop.
  std::atomic<int> num_done{0};
  std::unique_ptr<RateLimiter> write_rate_limiter;
  std::unique_ptr<RateLimiter> read_rate_limiter;
  // Operations finished by all threads, for --report_interval_seconds.
  std::atomic<uint64_t> report_ops{0};

  // True once every thread but one (the caller) has finished.
  bool OthersDone() const { return num_done.load(std::memory_order_acquire) + 1 >= total; }
};

// --report_interval_seconds: a thread that writes RocksDB's
// "secs_elapsed,interval_qps" lines from a shared count of finished ops, for
// one benchmark run (started by the constructor, ended by Stop).
class IntervalReporter {
 public:
  IntervalReporter(const BenchFlags& flags, const std::atomic<uint64_t>* ops);
  ~IntervalReporter();
  IntervalReporter(const IntervalReporter&) = delete;
  IntervalReporter& operator=(const IntervalReporter&) = delete;
  void Stop();

 private:
  const std::atomic<uint64_t>* ops_;
  std::FILE* file_ = nullptr;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;  // guarded by mu_
  std::thread thread_;
};

struct ThreadState {
  ThreadState(int index, uint64_t seed, const BenchFlags& flags)
      : tid(index),
        rand(seed),
        stats(flags.histogram, flags.progress_reports, flags.stats_interval) {}

  int tid;  // 0..n-1 within one benchmark run
  std::mt19937_64 rand;
  Stats stats;
  SharedState* shared = nullptr;
};

// Stops a loop after max_ops operations, or after max_seconds when that is
// non-zero (checked every ops_between_checks operations).
class Duration {
 public:
  Duration(uint64_t max_seconds, int64_t max_ops, int64_t ops_between_checks)
      : max_seconds_(max_seconds),
        max_ops_(max_ops),
        granularity_(ops_between_checks > 0 ? ops_between_checks : 1),
        start_at_(NowMicros()) {}

  // Counts `increment` more operations; true when the loop must stop.
  bool Done(int64_t increment) {
    if (increment <= 0) increment = 1;
    ops_ += increment;
    if (max_seconds_ == 0) return ops_ > max_ops_;
    if (ops_ / granularity_ == (ops_ - increment) / granularity_) return false;
    return (NowMicros() - start_at_) / 1000000 >= max_seconds_;
  }

 private:
  uint64_t max_seconds_;
  int64_t max_ops_;
  int64_t granularity_;
  int64_t ops_ = 0;
  uint64_t start_at_;
};

// The engine-independent half of a benchmark driver: seeds, thread launch,
// header.
class BenchmarkBase {
 public:
  explicit BenchmarkBase(const BenchFlags& flags);

 protected:
  // Runs body on n threads started together behind a barrier; returns (and
  // prints) the merged stats of the threads not excluded from merging.
  Stats RunBenchmark(int n, std::string_view name, const std::function<void(ThreadState*)>& body);
  // "<engine>:    version <v>", date and CPU, to stderr (like RocksDB).
  static void PrintEnvironment(const char* engine, const std::string& version);
  // The "Keys:/Values:/Entries:..." block and the dashed line, to stdout.
  void PrintHeader(const char* compression_name) const;

  const BenchFlags& flags_;
  uint64_t seed_base_;
  int total_thread_count_ = 0;
  std::string value_data_;  // BuildValueData(value_size, compression_ratio)
};

// ---------------------------------------------------------------------------
// Workloads
//
// Engine requirements (all non-virtual; the hot calls are inlined):
//   using Iterator = ...;  // Valid/SeekToFirst/SeekToLast/Next/Prev
//   using Batch = ...;
//   static const char* Name();           // "Strata", "LevelDB"
//   static const char* PathPrefix();     // "strata" -> /tmp/stratatest-<uid>
//   static const char* StatsProperty();  // property printed by "stats"
//   std::string Version() const;
//   const char* CompressionName() const;
//   bool Open(std::string* error);
//   void Close();
//   bool Destroy(std::string* error);    // REQUIRES: closed
//   void SetWriteOptions(bool sync, bool disable_wal);
//   void BatchClear(Batch*);
//   void BatchPut(Batch*, std::string_view key, std::string_view value);
//   void BatchDelete(Batch*, std::string_view key);
//   bool Write(Batch*, std::string* error);
//   bool Put(std::string_view key, std::string_view value, std::string* err);
//   GetResult Get(std::string_view key, std::string* value, std::string* err);
//   std::unique_ptr<Iterator> NewIterator();
//   static void Seek(Iterator*, std::string_view target);
//   static std::string_view Key(const Iterator*);
//   static std::string_view Value(const Iterator*);
//   static bool IterOk(const Iterator*, std::string* error);
//   bool GetProperty(const char* name, std::string* value);
//   std::string StatisticsString();  // "" when unsupported
//   bool CompactAll(std::string* error);  // compacts every key, waits
//   bool Flush(std::string* error);       // memtable to a table, waits
//   // Returns once no flush or compaction is running or wanted.
//   bool WaitForCompaction(std::string* error);
//   // Bytes written to table files by flushes and compactions since Open;
//   // false when the store does not say.
//   bool FlushCompactionBytes(uint64_t* bytes);
//
// Optional (detected at compile time; a store without one reports the
// workloads that need it as skipped, or the flags that need it as errors):
//   bool Merge(std::string_view key, std::string_view operand, std::string* err);
//   using MultiGetScratch = ...;  // per-thread state, default-constructible
//   // Looks every key up; results[i] / values[i] per key (values[i] is
//   // meaningful only when found). Sets *err from the first kError.
//   void MultiGet(MultiGetScratch*, const std::vector<std::string>& keys,
//                 std::vector<std::string>* values, std::vector<GetResult>* results,
//                 std::string* err);
//   void BatchDeleteRange(Batch*, std::string_view begin, std::string_view end);
//   // Cumulative filter-probe and Get tickers (see ReadProbes); false when
//   // the store keeps no statistics. Gives "Read amplification".
//   bool ReadProbeCounts(ReadProbes* out);
//   // Bytes of the live table files and the store's estimate of its live
//   // data (rocksdb.live-sst-files-size, rocksdb.estimate-live-data-size).
//   // Gives "Space amplification".
//   bool SpaceBytes(uint64_t* live_sst_bytes, uint64_t* live_data_estimate);
//   // Transactions (randomtransaction with --transaction_db or
//   // --optimistic_transaction_db; without them it runs plain batches on
//   // any engine, as RocksDB's does):
//   TxnKind TransactionKind() const;  // what the DB was opened as
//   using Txn = ...;  // per-thread, default-constructible; reused by TxnBegin
//   // Begins a transaction (reusing *txn's); pessimistic ones get `name`
//   // (SetName). Reads go through the snapshot TxnSetSnapshot took, if any.
//   TxnResult TxnBegin(Txn*, const std::string& name, std::string* err);
//   bool TxnHasSnapshot(const Txn*);
//   void TxnSetSnapshot(Txn*);  // SetSnapshot, and reads at it
//   TxnResult TxnGet(Txn*, std::string_view key, bool for_update, std::string* value,
//                    std::string* err);  // kNotFound when absent
//   TxnResult TxnDelete(Txn*, std::string_view key, bool single, std::string* err);
//   TxnResult TxnPut(Txn*, std::string_view key, std::string_view value, std::string* err);
//   TxnResult TxnCommitTimePut(Txn*, std::string_view key, std::string_view value,
//                              std::string* err);  // into GetCommitTimeWriteBatch()
//   TxnResult TxnPrepare(Txn*, std::string* err);
//   TxnResult TxnCommit(Txn*, std::string* err);
//   TxnResult TxnRollback(Txn*, std::string* err);

enum class GetResult { kFound, kNotFound, kError };

// How the DB was opened (--optimistic_transaction_db wins over
// --transaction_db, as in RocksDB's db_bench).
enum class TxnKind { kNone, kPessimistic, kOptimistic };
// A transaction call's outcome, in the classes RocksDB's
// RandomTransactionInserter tells apart: kConflict is Busy, TimedOut or
// TryAgain (a lock wait or a write conflict), kExpired is Expired.
enum class TxnResult { kOk, kNotFound, kConflict, kExpired, kError };

template <class E>
concept EngineWithTransactions = requires(E& e, typename E::Txn* t, const std::string& name,
                                          std::string_view k, std::string* s) {
  { e.TransactionKind() } -> std::same_as<TxnKind>;
  { e.TxnBegin(t, name, s) } -> std::same_as<TxnResult>;
  { e.TxnHasSnapshot(t) } -> std::same_as<bool>;
  e.TxnSetSnapshot(t);
  { e.TxnGet(t, k, true, s, s) } -> std::same_as<TxnResult>;
  { e.TxnDelete(t, k, true, s) } -> std::same_as<TxnResult>;
  { e.TxnPut(t, k, k, s) } -> std::same_as<TxnResult>;
  { e.TxnCommitTimePut(t, k, k, s) } -> std::same_as<TxnResult>;
  { e.TxnPrepare(t, s) } -> std::same_as<TxnResult>;
  { e.TxnCommit(t, s) } -> std::same_as<TxnResult>;
  { e.TxnRollback(t, s) } -> std::same_as<TxnResult>;
};

// The key of set `set` (0-based) for integer k in randomtransaction: the
// set number plus one in four decimal digits, then k in decimal (RocksDB's
// RandomTransactionInserter keys, e.g. "0001" "4711").
inline std::string TransactionSetKey(uint32_t set, uint64_t k) {
  char prefix[16];
  std::snprintf(prefix, sizeof(prefix), "%.4u", set + 1);
  return std::string(prefix) + std::to_string(k);
}

template <class E>
concept EngineWithMerge = requires(E& e, std::string_view k, std::string* err) {
  { e.Merge(k, k, err) } -> std::same_as<bool>;
};
template <class E>
concept EngineWithMultiGet = requires(E& e, typename E::MultiGetScratch* scratch,
                                      const std::vector<std::string>& keys,
                                      std::vector<std::string>* values,
                                      std::vector<GetResult>* results, std::string* err) {
  e.MultiGet(scratch, keys, values, results, err);
};
template <class E>
concept EngineWithReadProbes = requires(E& e, ReadProbes* p) {
  { e.ReadProbeCounts(p) } -> std::same_as<bool>;
};
template <class E>
concept EngineWithSpaceBytes = requires(E& e, uint64_t* n) {
  { e.SpaceBytes(n, n) } -> std::same_as<bool>;
};
template <class E>
concept EngineWithDeleteRange = requires(E& e, typename E::Batch* b, std::string_view k) {
  e.BatchDeleteRange(b, k, k);
};

template <class Engine>
class Benchmark : public BenchmarkBase {
 public:
  // flags.db must be set. engine must outlive the benchmark.
  Benchmark(const BenchFlags& flags, Engine* engine) : BenchmarkBase(flags), engine_(engine) {}

  // Runs every benchmark of --benchmarks in order; returns the exit code.
  int Run();

 private:
  enum class WriteMode { kSequential, kRandom };
  using Method = void (Benchmark::*)(ThreadState*);

  void Open();
  void WriteSeq(ThreadState* t) { DoWrite(t, WriteMode::kSequential); }
  void WriteRandom(ThreadState* t) { DoWrite(t, WriteMode::kRandom); }
  void DoWrite(ThreadState* thread, WriteMode mode);
  void ReadRandom(ThreadState* thread);
  void ReadSequential(ThreadState* thread);
  void ReadReverse(ThreadState* thread);
  void SeekRandom(ThreadState* thread);
  void DeleteSeq(ThreadState* t) { DoDelete(t, true); }
  void DeleteRandom(ThreadState* t) { DoDelete(t, false); }
  void DoDelete(ThreadState* thread, bool seq);
  void MultiReadRandom(ThreadState* thread);
  void MergeRandom(ThreadState* thread);
  void ReadRandomMergeRandom(ThreadState* thread);
  void ReadWhileWriting(ThreadState* thread);
  void BGWriter(ThreadState* thread);
  // randomtransaction (RocksDB's RandomTransaction with its
  // RandomTransactionInserter) and the check that follows it.
  void RandomTransaction(ThreadState* thread);
  void RandomTransactionVerify();
  TxnKind TransactionKind() const {
    if constexpr (EngineWithTransactions<Engine>) {
      return engine_->TransactionKind();
    } else {
      return TxnKind::kNone;
    }
  }
  // The next key of readrandom / multireadrandom (RocksDB's GetRandomKey).
  static uint64_t RandomKey(ThreadState* thread, uint64_t key_range) {
    return thread->rand() % key_range;
  }
  KeyFormat key_format() const {
    return KeyFormat{key_size_, flags_.prefix_size, flags_.keys_per_prefix};
  }
  void Compact(ThreadState* thread);
  void Flush();
  void WaitForCompaction();
  void PrintStats();
  // have_written: the store reported `written` flush+compaction bytes.
  void PrintWriteAmplification(bool have_written, uint64_t written);
  // The cumulative probe counters now (false: none, see ReadProbeCounts).
  bool ReadProbesNow(ReadProbes* out);
  // The "Space amplification" line; with --compact_for_space_amp compacts
  // everything first (REQUIRES: the write amplification already taken).
  std::string SpaceAmplification();

  Engine* engine_;
  // Per-benchmark settings, reset from the flags before each benchmark.
  int64_t num_ = 0;
  int64_t reads_ = 0;
  int64_t writes_ = 0;
  int64_t deletes_ = 0;
  int64_t readwrites_ = 0;  // max(reads_, writes_): the merge workloads' count
  int64_t merge_keys_ = 0;
  int key_size_ = 0;
  int64_t entries_per_batch_ = 1;
  // Key and value bytes handed to the store by every write and delete since
  // the database was last opened fresh (the write-amplification divisor).
  std::atomic<uint64_t> user_bytes_written_{0};
  // Filter probes and Gets of the readrandom runs of this process.
  ReadProbes read_probes_;
  bool have_read_probes_ = false;
};

template <class Engine>
void Benchmark<Engine>::Open() {
  std::string error;
  if (!engine_->Open(&error)) Fail("open error: %s", error.c_str());
}

template <class Engine>
int Benchmark<Engine>::Run() {
  if (flags_.num <= 0 || flags_.threads <= 0 || flags_.key_size < 0 || flags_.value_size < 0 ||
      flags_.batch_size <= 0) {
    Fail(
        "--num, --threads and --batch_size must be positive, --key_size and "
        "--value_size not negative");
  }
  if (flags_.keys_per_prefix > 0 &&
      (flags_.prefix_size < 0 || flags_.prefix_size > flags_.key_size)) {
    Fail("--prefix_size must be in [0, --key_size] when --keys_per_prefix > 0");
  }
  if (flags_.writes_per_range_tombstone > 0 && !flags_.expand_range_tombstones) {
    if constexpr (!EngineWithDeleteRange<Engine>) {
      Fail(
          "%s has no DeleteRange: --writes_per_range_tombstone needs "
          "--expand_range_tombstones (point deletes) here",
          Engine::Name());
    }
  }
  PrintEnvironment(Engine::Name(), engine_->Version());
  if (!flags_.use_existing_db) {
    std::string error;
    if (!engine_->Destroy(&error)) Fail("destroy error: %s", error.c_str());
  }
  Open();
  num_ = flags_.num;
  PrintHeader(engine_->CompressionName());

  std::string_view list = flags_.benchmarks;
  while (!list.empty()) {
    const size_t comma = list.find(',');
    const std::string name(list.substr(0, comma));
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
    num_ = flags_.num;
    reads_ = flags_.reads < 0 ? flags_.num : flags_.reads;
    writes_ = flags_.writes < 0 ? flags_.num : flags_.writes;
    deletes_ = flags_.deletes < 0 ? flags_.num : flags_.deletes;
    readwrites_ = std::max(reads_, writes_);
    merge_keys_ = flags_.merge_keys < 0 ? flags_.num : flags_.merge_keys;
    key_size_ = flags_.key_size;
    entries_per_batch_ = flags_.batch_size;
    bool sync = flags_.sync;
    Method method = nullptr;
    void (Benchmark::*post_process)() = nullptr;  // runs after the report line
    bool fresh_db = false;
    int num_threads = flags_.threads;

    if (name == "fillseq") {
      fresh_db = true;
      method = &Benchmark::WriteSeq;
    } else if (name == "fillbatch") {
      fresh_db = true;
      entries_per_batch_ = 1000;
      method = &Benchmark::WriteSeq;
    } else if (name == "fillrandom") {
      fresh_db = true;
      method = &Benchmark::WriteRandom;
    } else if (name == "overwrite") {
      method = &Benchmark::WriteRandom;
    } else if (name == "fillsync") {
      // As RocksDB: keys drawn from num/1000, --writes (default num)
      // synced writes.
      fresh_db = true;
      num_ /= 1000;
      sync = true;
      method = &Benchmark::WriteRandom;
    } else if (name == "readseq") {
      method = &Benchmark::ReadSequential;
    } else if (name == "readreverse") {
      method = &Benchmark::ReadReverse;
    } else if (name == "readrandom") {
      method = &Benchmark::ReadRandom;
    } else if (name == "readmissing") {
      ++key_size_;
      method = &Benchmark::ReadRandom;
    } else if (name == "seekrandom") {
      method = &Benchmark::SeekRandom;
    } else if (name == "deleteseq") {
      method = &Benchmark::DeleteSeq;
    } else if (name == "deleterandom") {
      method = &Benchmark::DeleteRandom;
    } else if (name == "multireadrandom") {
      if constexpr (EngineWithMultiGet<Engine>) {
        std::fprintf(stderr, "entries_per_batch = %" PRId64 "\n", entries_per_batch_);
        method = &Benchmark::MultiReadRandom;
      } else {
        std::printf("%-12s : skipped (%s has no MultiGet)\n", name.c_str(), Engine::Name());
        // Count the threads RocksDB would have started, so later workloads
        // still draw RocksDB's keys.
        total_thread_count_ += num_threads;
      }
    } else if (name == "mergerandom" || name == "readrandommergerandom") {
      if constexpr (EngineWithMerge<Engine>) {
        if (flags_.merge_operator.empty()) {
          // RocksDB's db_bench stops here with exit code 1.
          std::printf("%-12s : skipped (--merge_operator is unknown)\n", name.c_str());
          std::fflush(stdout);
          engine_->Close();
          return 1;
        }
        method =
            name == "mergerandom" ? &Benchmark::MergeRandom : &Benchmark::ReadRandomMergeRandom;
      } else {
        std::printf("%-12s : skipped (%s has no Merge)\n", name.c_str(), Engine::Name());
        total_thread_count_ += num_threads;  // as above
      }
    } else if (name == "readwhilewriting") {
      ++num_threads;  // the extra thread writes
      method = &Benchmark::ReadWhileWriting;
    } else if (name == "randomtransaction") {
      if (flags_.transaction_sets == 0 || flags_.transaction_sets > 9999) {
        Fail("invalid value for transaction_sets");  // RocksDB aborts here
      }
      method = &Benchmark::RandomTransaction;
      post_process = &Benchmark::RandomTransactionVerify;
    } else if (name == "compact" || name == "compactall") {
      // One thread: a second CompactRange over the same keys finds nothing
      // to do.
      num_threads = 1;
      method = &Benchmark::Compact;
    } else if (name == "flush") {
      Flush();
    } else if (name == "waitforcompaction") {
      WaitForCompaction();
    } else if (name == "stats") {
      PrintStats();
    } else if (!name.empty()) {
      Fail("unknown benchmark '%s'", name.c_str());
    }
    engine_->SetWriteOptions(sync, flags_.disable_wal);

    if (fresh_db) {
      if (flags_.use_existing_db) {
        std::printf("%-12s : skipped (--use_existing_db is true)\n", name.c_str());
        method = nullptr;
      } else {
        engine_->Close();
        std::string error;
        if (!engine_->Destroy(&error)) Fail("destroy error: %s", error.c_str());
        Open();
        user_bytes_written_.store(0, std::memory_order_relaxed);
      }
    }
    if (method != nullptr) {
      std::printf("DB path: [%s]\n", flags_.db.c_str());
      ReadProbes before;
      const bool count_probes = name == "readrandom" && ReadProbesNow(&before);
      RunBenchmark(num_threads, name, [this, method](ThreadState* t) {
        engine_->SetThreadPerfLevel(flags_.perf_level);
        (this->*method)(t);
        const std::string perf = engine_->ThreadPerfContextString();
        if (!perf.empty()) t->stats.AddMessage("PERF_CONTEXT:\n" + perf);
      });
      ReadProbes after;
      if (count_probes && ReadProbesNow(&after)) {
        read_probes_.useful += after.useful - before.useful;
        read_probes_.positive += after.positive - before.positive;
        read_probes_.gets += after.gets - before.gets;
        have_read_probes_ = true;
      }
    }
    if (post_process != nullptr) (this->*post_process)();
  }
  if (flags_.statistics) {
    // Tickers and write amplification are taken before the space
    // measurement, whose compaction (--compact_for_space_amp) must not
    // count as the workload's.
    std::string stats = engine_->StatisticsString();
    if (stats.empty()) stats = "(statistics not supported)";
    uint64_t written = 0;
    const bool have_written = engine_->FlushCompactionBytes(&written);
    const std::string space = SpaceAmplification();
    std::printf("STATISTICS:\n%s\n", stats.c_str());
    PrintWriteAmplification(have_written, written);
    std::printf("%s\n", space.c_str());
    if (have_read_probes_) {
      std::printf("%s\n", ReadAmplificationLine(read_probes_, flags_.bloom_bits > 0).c_str());
    } else if constexpr (EngineWithReadProbes<Engine>) {
      std::printf("Read amplification: n/a (no readrandom run)\n");
    } else {
      std::printf("Read amplification: n/a (the store does not count filter probes)\n");
    }
  }
  std::fflush(stdout);
  engine_->Close();
  return 0;
}

template <class Engine>
void Benchmark<Engine>::DoWrite(ThreadState* thread, WriteMode mode) {
  const int64_t num_ops = writes_ == 0 ? num_ : writes_;
  Duration duration(mode == WriteMode::kRandom ? flags_.duration : 0, num_ops,
                    flags_.ops_between_duration_checks);
  if (num_ != flags_.num) {
    char msg[100];
    std::snprintf(msg, sizeof(msg), "(%ld ops)", static_cast<long>(num_));
    thread->stats.AddMessage(msg);
  }
  ValueGenerator gen(&value_data_, flags_.value_size);
  typename Engine::Batch batch;
  const KeyFormat format = key_format();
  std::string key(key_size_, '\0');
  std::string begin_key(key_size_, '\0');
  std::string end_key(key_size_, '\0');
  std::string error;
  // As RocksDB: random keys (and range tombstone starts) are drawn from
  // num + max_num_range_tombstones; a sequential fill takes each tombstone's
  // start from the same counter as its keys.
  const int64_t max_tombstones = flags_.max_num_range_tombstones;
  const int64_t per_tombstone = flags_.writes_per_range_tombstone;
  const int64_t before_tombstones = flags_.writes_before_delete_range;
  const int64_t width = flags_.range_tombstone_width;
  const uint64_t key_range = static_cast<uint64_t>(num_ + max_tombstones);
  RateLimiter* limiter = thread->shared->write_rate_limiter.get();
  uint64_t next_seq = 0;
  int64_t bytes = 0;
  int64_t num_written = 0;
  int64_t num_range_deletions = 0;
  while (key_range != 0 && !duration.Done(entries_per_batch_)) {
    // RocksDB draws a database index per batch of random writes.
    if (mode != WriteMode::kSequential) thread->rand();
    engine_->BatchClear(&batch);
    int64_t batch_bytes = 0;
    for (int64_t j = 0; j < entries_per_batch_; ++j) {
      const uint64_t k = mode == WriteMode::kSequential ? next_seq++ : thread->rand() % key_range;
      GenerateKeyFromInt(k, flags_.num, format, key.data());
      const std::string_view value = gen.Next();
      engine_->BatchPut(&batch, key, value);
      batch_bytes += static_cast<int64_t>(value.size()) + key_size_;
      ++num_written;
      if (per_tombstone > 0 && num_written > before_tombstones &&
          (num_written - before_tombstones) / per_tombstone <= max_tombstones &&
          (num_written - before_tombstones) % per_tombstone == 0) {
        ++num_range_deletions;
        const uint64_t begin =
            mode == WriteMode::kSequential ? next_seq++ : thread->rand() % key_range;
        if (flags_.expand_range_tombstones) {
          for (int64_t offset = 0; offset < width; ++offset) {
            GenerateKeyFromInt(begin + static_cast<uint64_t>(offset), flags_.num, format,
                               begin_key.data());
            engine_->BatchDelete(&batch, begin_key);
          }
        } else if constexpr (EngineWithDeleteRange<Engine>) {
          GenerateKeyFromInt(begin, flags_.num, format, begin_key.data());
          GenerateKeyFromInt(begin + static_cast<uint64_t>(width), flags_.num, format,
                             end_key.data());
          engine_->BatchDeleteRange(&batch, begin_key, end_key);
        }
      }
    }
    bytes += batch_bytes;
    if (limiter != nullptr) {
      limiter->Request(batch_bytes);
      thread->stats.ResetLastOpTime();
    }
    if (!engine_->Write(&batch, &error)) Fail("put error: %s", error.c_str());
    thread->stats.FinishedOps(entries_per_batch_, OpType::kWrite);
  }
  if (num_range_deletions > 0) {
    std::printf("Number of range deletions: %" PRId64 "\n", num_range_deletions);
  }
  thread->stats.AddBytes(bytes);
  user_bytes_written_.fetch_add(static_cast<uint64_t>(bytes), std::memory_order_relaxed);
}

template <class Engine>
void Benchmark<Engine>::ReadRandom(ThreadState* thread) {
  int64_t read = 0;
  int64_t found = 0;
  int64_t bytes = 0;
  const KeyFormat format = key_format();
  std::string key(key_size_, '\0');
  std::string value;
  std::string error;
  const uint64_t key_range = static_cast<uint64_t>(flags_.num);
  const int64_t stride = entries_per_batch_ > 1 ? flags_.multiread_stride : 0;
  int64_t batch_pos = 0;
  uint64_t k = 0;
  RateLimiter* limiter = thread->shared->read_rate_limiter.get();
  Duration duration(flags_.duration, reads_, flags_.ops_between_duration_checks);
  while (!duration.Done(1)) {
    thread->rand();  // RocksDB's database choice
    if (stride != 0) {
      // RocksDB's strided readrandom: a fresh random start every
      // batch_size keys (pulled back so the run fits), else one stride on.
      if (++batch_pos == entries_per_batch_) {
        batch_pos = 0;
        k = RandomKey(thread, key_range);
        if (static_cast<int64_t>(k) + (entries_per_batch_ - 1) * stride >= flags_.num) {
          k = static_cast<uint64_t>(flags_.num - entries_per_batch_ * stride);
        }
      } else {
        k += static_cast<uint64_t>(stride);
      }
    } else {
      k = RandomKey(thread, key_range);
    }
    GenerateKeyFromInt(k, flags_.num, format, key.data());
    ++read;
    switch (engine_->Get(key, &value, &error)) {
      case GetResult::kFound:
        ++found;
        bytes += static_cast<int64_t>(key.size() + value.size());
        break;
      case GetResult::kNotFound:
        break;
      case GetResult::kError:
        Fail("Get returned an error: %s", error.c_str());
    }
    if (limiter != nullptr && read % 256 == 255) limiter->Request(256);
    thread->stats.FinishedOps(1, OpType::kRead);
  }
  char msg[100];
  std::snprintf(msg, sizeof(msg), "(%ld of %ld found)\n", static_cast<long>(found),
                static_cast<long>(read));
  thread->stats.AddBytes(bytes);
  thread->stats.AddMessage(msg);
}

template <class Engine>
void Benchmark<Engine>::MultiReadRandom(ThreadState* thread) {
  if constexpr (EngineWithMultiGet<Engine>) {
    int64_t read = 0;
    int64_t found = 0;
    int64_t bytes = 0;
    int64_t num_multireads = 0;
    const KeyFormat format = key_format();
    const size_t n = static_cast<size_t>(entries_per_batch_);
    std::vector<std::string> keys(n, std::string(key_size_, '\0'));
    std::vector<std::string> values(n);
    std::vector<GetResult> results(n);
    typename Engine::MultiGetScratch scratch;
    std::string error;
    const uint64_t key_range = static_cast<uint64_t>(flags_.num);
    const int64_t stride = flags_.multiread_stride;
    RateLimiter* limiter = thread->shared->read_rate_limiter.get();
    Duration duration(flags_.duration, reads_, flags_.ops_between_duration_checks);
    while (!duration.Done(entries_per_batch_)) {
      thread->rand();  // RocksDB's database choice
      if (stride != 0) {
        uint64_t k = RandomKey(thread, key_range);
        if (static_cast<int64_t>(k) + (entries_per_batch_ - 1) * stride >= flags_.num) {
          k = static_cast<uint64_t>(flags_.num - entries_per_batch_ * stride);
        }
        for (size_t i = 0; i < n; ++i, k += static_cast<uint64_t>(stride)) {
          GenerateKeyFromInt(k, flags_.num, format, keys[i].data());
        }
      } else {
        for (size_t i = 0; i < n; ++i) {
          GenerateKeyFromInt(RandomKey(thread, key_range), flags_.num, format, keys[i].data());
        }
      }
      engine_->MultiGet(&scratch, keys, &values, &results, &error);
      read += entries_per_batch_;
      ++num_multireads;
      for (size_t i = 0; i < n; ++i) {
        if (results[i] == GetResult::kFound) {
          ++found;
          bytes += static_cast<int64_t>(keys[i].size() + values[i].size());
        } else if (results[i] == GetResult::kError) {
          Fail("MultiGet returned an error: %s", error.c_str());
        }
      }
      if (limiter != nullptr && num_multireads % 256 == 255) {
        limiter->Request(static_cast<uint64_t>(256 * entries_per_batch_));
      }
      thread->stats.FinishedOps(entries_per_batch_, OpType::kRead);
    }
    char msg[100];
    std::snprintf(msg, sizeof(msg), "(%ld of %ld found)", static_cast<long>(found),
                  static_cast<long>(read));
    thread->stats.AddBytes(bytes);
    thread->stats.AddMessage(msg);
  }
}

template <class Engine>
void Benchmark<Engine>::MergeRandom(ThreadState* thread) {
  if constexpr (EngineWithMerge<Engine>) {
    // Each op merges a value_size operand into a random key among
    // merge_keys (for uint64add RocksDB's advice is --value_size=8).
    ValueGenerator gen(&value_data_, flags_.value_size);
    const KeyFormat format = key_format();
    std::string key(key_size_, '\0');
    std::string error;
    const uint64_t key_range = static_cast<uint64_t>(merge_keys_);
    int64_t bytes = 0;
    Duration duration(flags_.duration, readwrites_, flags_.ops_between_duration_checks);
    while (key_range != 0 && !duration.Done(1)) {
      thread->rand();  // RocksDB's database choice
      GenerateKeyFromInt(thread->rand() % key_range, merge_keys_, format, key.data());
      const std::string_view value = gen.Next();
      if (!engine_->Merge(key, value, &error)) Fail("merge error: %s", error.c_str());
      bytes += static_cast<int64_t>(key.size() + value.size());
      thread->stats.FinishedOps(1, OpType::kMerge);
    }
    char msg[100];
    std::snprintf(msg, sizeof(msg), "( updates:%ld)", static_cast<long>(readwrites_));
    thread->stats.AddBytes(bytes);
    thread->stats.AddMessage(msg);
    user_bytes_written_.fetch_add(static_cast<uint64_t>(bytes), std::memory_order_relaxed);
  }
}

template <class Engine>
void Benchmark<Engine>::ReadRandomMergeRandom(ThreadState* thread) {
  if constexpr (EngineWithMerge<Engine>) {
    ValueGenerator gen(&value_data_, flags_.value_size);
    const KeyFormat format = key_format();
    std::string key(key_size_, '\0');
    std::string value;
    std::string error;
    const uint64_t key_range = static_cast<uint64_t>(merge_keys_);
    int64_t num_hits = 0;
    int64_t num_gets = 0;
    int64_t num_merges = 0;
    size_t max_length = 0;
    uint64_t merged_bytes = 0;
    Duration duration(flags_.duration, readwrites_, flags_.ops_between_duration_checks);
    while (key_range != 0 && !duration.Done(1)) {
      thread->rand();  // RocksDB's database choice
      GenerateKeyFromInt(thread->rand() % key_range, merge_keys_, format, key.data());
      const bool do_merge = static_cast<int>(thread->rand() % 100) < flags_.mergereadpercent;
      if (do_merge) {
        const std::string_view operand = gen.Next();
        if (!engine_->Merge(key, operand, &error)) Fail("merge error: %s", error.c_str());
        merged_bytes += key.size() + operand.size();
        ++num_merges;
        thread->stats.FinishedOps(1, OpType::kMerge);
      } else {
        const GetResult r = engine_->Get(key, &value, &error);
        max_length = std::max(max_length, value.size());
        if (r == GetResult::kError) {
          // As RocksDB: report and go on, so later errors show too.
          std::fprintf(stderr, "get error: %s\n", error.c_str());
        } else if (r == GetResult::kFound) {
          ++num_hits;
        }
        ++num_gets;
        thread->stats.FinishedOps(1, OpType::kRead);
      }
    }
    char msg[160];
    std::snprintf(msg, sizeof(msg),
                  "(reads:%" PRId64 " merges:%" PRId64 " total:%" PRId64 " hits:%" PRId64
                  " maxlength:%zu)",
                  num_gets, num_merges, readwrites_, num_hits, max_length);
    thread->stats.AddMessage(msg);
    user_bytes_written_.fetch_add(merged_bytes, std::memory_order_relaxed);
  }
}

template <class Engine>
void Benchmark<Engine>::ReadSequential(ThreadState* thread) {
  std::unique_ptr<typename Engine::Iterator> iter = engine_->NewIterator();
  RateLimiter* limiter = thread->shared->read_rate_limiter.get();
  int64_t i = 0;
  int64_t bytes = 0;
  for (iter->SeekToFirst(); i < reads_ && iter->Valid(); iter->Next()) {
    bytes +=
        static_cast<int64_t>(Engine::Key(iter.get()).size() + Engine::Value(iter.get()).size());
    thread->stats.FinishedOps(1, OpType::kRead);
    ++i;
    if (limiter != nullptr && i % 1024 == 1023) limiter->Request(1024);
  }
  std::string error;
  if (!Engine::IterOk(iter.get(), &error)) {
    Fail("iterator error: %s", error.c_str());
  }
  thread->stats.AddBytes(bytes);
}

template <class Engine>
void Benchmark<Engine>::ReadReverse(ThreadState* thread) {
  std::unique_ptr<typename Engine::Iterator> iter = engine_->NewIterator();
  RateLimiter* limiter = thread->shared->read_rate_limiter.get();
  int64_t i = 0;
  int64_t bytes = 0;
  for (iter->SeekToLast(); i < reads_ && iter->Valid(); iter->Prev()) {
    bytes +=
        static_cast<int64_t>(Engine::Key(iter.get()).size() + Engine::Value(iter.get()).size());
    thread->stats.FinishedOps(1, OpType::kRead);
    ++i;
    if (limiter != nullptr && i % 1024 == 1023) limiter->Request(1024);
  }
  std::string error;
  if (!Engine::IterOk(iter.get(), &error)) {
    Fail("iterator error: %s", error.c_str());
  }
  thread->stats.AddBytes(bytes);
}

template <class Engine>
void Benchmark<Engine>::SeekRandom(ThreadState* thread) {
  int64_t read = 0;
  int64_t found = 0;
  int64_t bytes = 0;
  const KeyFormat format = key_format();
  std::string key(key_size_, '\0');
  std::string error;
  char value_buffer[256];
  const uint64_t key_range = static_cast<uint64_t>(flags_.num);
  RateLimiter* limiter = thread->shared->read_rate_limiter.get();
  Duration duration(flags_.duration, reads_, flags_.ops_between_duration_checks);
  while (!duration.Done(1)) {
    GenerateKeyFromInt(thread->rand() % key_range, flags_.num, format, key.data());
    // A fresh iterator per seek, as RocksDB's db_bench does by default.
    std::unique_ptr<typename Engine::Iterator> iter = engine_->NewIterator();
    Engine::Seek(iter.get(), key);
    ++read;
    if (iter->Valid() && Engine::Key(iter.get()) == std::string_view(key)) {
      ++found;
    }
    for (int j = 0; j < flags_.seek_nexts && iter->Valid(); ++j) {
      const std::string_view value = Engine::Value(iter.get());
      std::memcpy(value_buffer, value.data(), std::min(value.size(), sizeof(value_buffer)));
      bytes += static_cast<int64_t>(Engine::Key(iter.get()).size() + value.size());
      if (flags_.reverse_iterator) {
        iter->Prev();
      } else {
        iter->Next();
      }
    }
    if (!Engine::IterOk(iter.get(), &error)) {
      Fail("iterator error: %s", error.c_str());
    }
    if (limiter != nullptr && read % 256 == 255) limiter->Request(256);
    thread->stats.FinishedOps(1, OpType::kSeek);
  }
  char msg[100];
  std::snprintf(msg, sizeof(msg), "(%ld of %ld found)\n", static_cast<long>(found),
                static_cast<long>(read));
  thread->stats.AddBytes(bytes);
  thread->stats.AddMessage(msg);
}

template <class Engine>
void Benchmark<Engine>::DoDelete(ThreadState* thread, bool seq) {
  typename Engine::Batch batch;
  const KeyFormat format = key_format();
  std::string key(key_size_, '\0');
  std::string error;
  const uint64_t key_range = static_cast<uint64_t>(flags_.num);
  Duration duration(seq ? 0 : flags_.duration, deletes_, flags_.ops_between_duration_checks);
  int64_t i = 0;
  while (!duration.Done(entries_per_batch_)) {
    thread->rand();  // RocksDB's database choice
    engine_->BatchClear(&batch);
    for (int64_t j = 0; j < entries_per_batch_; ++j) {
      const uint64_t k = seq ? static_cast<uint64_t>(i + j) : thread->rand() % key_range;
      GenerateKeyFromInt(k, flags_.num, format, key.data());
      engine_->BatchDelete(&batch, key);
    }
    if (!engine_->Write(&batch, &error)) Fail("del error: %s", error.c_str());
    thread->stats.FinishedOps(entries_per_batch_, OpType::kDelete);
    i += entries_per_batch_;
  }
  user_bytes_written_.fetch_add(static_cast<uint64_t>(i) * static_cast<uint64_t>(key_size_),
                                std::memory_order_relaxed);
}

template <class Engine>
void Benchmark<Engine>::ReadWhileWriting(ThreadState* thread) {
  if (thread->tid > 0) {
    ReadRandom(thread);
  } else {
    BGWriter(thread);
  }
}

template <class Engine>
void Benchmark<Engine>::BGWriter(ThreadState* thread) {
  // Writes random keys until every reader has finished; not counted.
  thread->stats.SetExcludeFromMerge();
  ValueGenerator gen(&value_data_, flags_.value_size);
  std::unique_ptr<RateLimiter> limiter;
  if (flags_.benchmark_write_rate_limit > 0) {
    limiter = std::make_unique<RateLimiter>(flags_.benchmark_write_rate_limit);
  }
  const KeyFormat format = key_format();
  std::string key(key_size_, '\0');
  std::string error;
  const uint64_t key_range = static_cast<uint64_t>(flags_.num);
  int64_t bytes = 0;
  uint64_t writes = 0;
  const uint64_t start = NowMicros();
  while (true) {
    thread->rand();  // RocksDB's database choice
    if (thread->shared->OthersDone()) break;
    GenerateKeyFromInt(thread->rand() % key_range, flags_.num, format, key.data());
    const std::string_view value = gen.Next();
    if (!engine_->Put(key, value, &error)) {
      Fail("put or merge error: %s", error.c_str());
    }
    bytes += static_cast<int64_t>(key.size() + value.size());
    ++writes;
    thread->stats.FinishedOps(1, OpType::kWrite);
    if (limiter != nullptr) limiter->Request(key.size() + value.size());
  }
  // The writer is left out of the report line (as in RocksDB, whose rate
  // shows only in --statistics' keys-written count); its own line keeps a
  // reader from winning by starving it.
  const double secs = static_cast<double>(NowMicros() - start) / 1e6;
  std::printf("background writer: %" PRIu64 " writes in %.3f seconds, %.0f writes/sec, %.1f MB/s\n",
              writes, secs, secs > 0 ? static_cast<double>(writes) / secs : 0.0,
              secs > 0 ? static_cast<double>(bytes) / 1048576.0 / secs : 0.0);
  std::fflush(stdout);
  thread->stats.AddBytes(bytes);
  user_bytes_written_.fetch_add(static_cast<uint64_t>(bytes), std::memory_order_relaxed);
}

template <class Engine>
void Benchmark<Engine>::Compact(ThreadState* /*thread*/) {
  std::string error;
  if (!engine_->CompactAll(&error)) Fail("compact error: %s", error.c_str());
}

template <class Engine>
void Benchmark<Engine>::Flush() {
  std::string error;
  if (!engine_->Flush(&error)) Fail("flush error: %s", error.c_str());
  std::printf("flush memtable\n");
  std::fflush(stdout);
}

template <class Engine>
void Benchmark<Engine>::WaitForCompaction() {
  std::printf("waitforcompaction(%s): started\n", flags_.db.c_str());
  std::fflush(stdout);
  std::string error;
  if (!engine_->WaitForCompaction(&error)) Fail("waitforcompaction error: %s", error.c_str());
  std::printf("waitforcompaction(%s): finished\n", flags_.db.c_str());
  std::fflush(stdout);
}

template <class Engine>
void Benchmark<Engine>::PrintStats() {
  std::string stats;
  if (!engine_->GetProperty(Engine::StatsProperty(), &stats)) {
    stats = "(failed)";
  }
  std::printf("\n%s\n", stats.c_str());
}

template <class Engine>
bool Benchmark<Engine>::ReadProbesNow(ReadProbes* out) {
  if constexpr (EngineWithReadProbes<Engine>) {
    return engine_->ReadProbeCounts(out);
  } else {
    (void)out;
    return false;
  }
}

template <class Engine>
std::string Benchmark<Engine>::SpaceAmplification() {
  if constexpr (EngineWithSpaceBytes<Engine>) {
    uint64_t sst = 0, live = 0;
    if (!engine_->SpaceBytes(&sst, &live)) {
      return "Space amplification: n/a (the store does not report its table bytes)";
    }
    if (!flags_.compact_for_space_amp) {
      return SpaceAmplificationLine(sst, live, "rocksdb.estimate-live-data-size");
    }
    std::string error;
    if (!engine_->CompactAll(&error)) Fail("compact error: %s", error.c_str());
    uint64_t after = 0, unused = 0;
    if (!engine_->SpaceBytes(&after, &unused)) {
      return "Space amplification: n/a (the store does not report its table bytes)";
    }
    return SpaceAmplificationLine(sst, after, "live SST bytes after a full compaction");
  } else {
    return "Space amplification: n/a (the store does not report its table bytes)";
  }
}

template <class Engine>
void Benchmark<Engine>::PrintWriteAmplification(bool have_written, uint64_t written) {
  // Bytes the store wrote to tables (flushes and compactions) over the
  // key+value bytes the workloads gave it since the last fresh database.
  const uint64_t user = user_bytes_written_.load(std::memory_order_relaxed);
  if (!have_written) {
    std::printf(
        "Write amplification: n/a (the store does not report flush and compaction bytes)\n");
  } else if (user == 0) {
    std::printf("Write amplification: n/a (no user bytes written)\n");
  } else {
    std::printf("Write amplification: %.3f (flush+compaction bytes written: %" PRIu64
                ", user bytes written: %" PRIu64 ")\n",
                static_cast<double>(written) / static_cast<double>(user), written, user);
  }
  std::fflush(stdout);
}

}  // namespace strata::bench

// The randomtransaction workload (TransactionInserter, Benchmark::RandomTransaction
// and RandomTransactionVerify).
#include "tools/db_bench_txn.h"  // IWYU pragma: export
