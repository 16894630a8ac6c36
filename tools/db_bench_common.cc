// The engine-independent parts of db_bench: flag parsing, the value buffer,
// per-thread stats and their report line, thread launch, and the header.

#include "tools/db_bench_common.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstdarg>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <iterator>
#include <limits>
#include <thread>

namespace strata::bench {

// ---------------------------------------------------------------------------
// Flags

BenchFlags::BenchFlags() {
  Add("benchmarks", &benchmarks,
      "Comma-separated list of workloads to run in order: fillseq, "
      "fillbatch, fillrandom, overwrite, fillsync, readrandom, readmissing, "
      "readseq, readreverse, seekrandom, deleteseq, deleterandom, "
      "readwhilewriting, multireadrandom, mergerandom, "
      "readrandommergerandom, compact (compactall), flush, "
      "waitforcompaction, stats");
  Add("num", &num, "Number of key/values to place in database");
  Add("reads", &reads, "Number of read operations to do; < 0: --num");
  Add("writes", &writes, "Number of write operations to do; < 0: --num");
  Add("deletes", &deletes, "Number of delete operations to do; < 0: --num");
  Add("value_size", &value_size, "Size of each value");
  Add("key_size", &key_size, "Size of each key");
  Add("compression_ratio", &compression_ratio,
      "Generate values that shrink to this fraction of their size when "
      "compressed");
  Add("threads", &threads, "Number of concurrent threads to run");
  Add("duration", &duration, "Seconds the random workloads run; 0: --num/--reads bound them");
  Add("ops_between_duration_checks", &ops_between_duration_checks,
      "Check the --duration limit every this many operations");
  Add("db", &db, "Use the database in this directory");
  Add("use_existing_db", &use_existing_db,
      "Do not destroy the existing database; fill workloads are skipped");
  Add("disable_wal", &disable_wal, "Do not write the WAL");
  Add("sync", &sync, "Sync every write to disk");
  Add("seed", &seed, "Seed base of the random generators; 0: from the clock");
  Add("histogram", &histogram, "Print a histogram of operation timings");
  Add("progress_reports", &progress_reports, "Report the number of finished operations on stderr");
  Add("stats_interval", &stats_interval,
      "Report progress every this many operations; 0: growing interval");
  Add("report_interval_seconds", &report_interval_seconds,
      "> 0: write secs_elapsed,interval_qps to --report_file every this many seconds");
  Add("report_file", &report_file, "The CSV file of --report_interval_seconds (rewritten per run)");
  Add("statistics", &statistics,
      "Collect database statistics; at the end print them and: Write amplification = "
      "flush+compaction table bytes (strata.flush-write-bytes + strata.compact-write-bytes) / "
      "key+value bytes written by this process; Space amplification = "
      "rocksdb.live-sst-files-size / live data, where live data is "
      "rocksdb.estimate-live-data-size, or with --compact_for_space_amp the live SST bytes "
      "after a full compaction; Read amplification = tables probed per Get over the "
      "readrandom runs = (rocksdb.bloom.filter.useful + rocksdb.bloom.filter.full.positive) / "
      "rocksdb.number.keys.read (needs --bloom_bits > 0)");
  Add("perf_level", &perf_level,
      "PerfLevel of the benchmark threads (1 disable, 2 counts, 3 and 4 timers "
      "except the DB mutex, 5 everything); > 1 prints each run's PerfContext");
  Add("batch_size", &batch_size, "Writes per write batch");
  Add("multiread_stride", &multiread_stride,
      "multireadrandom (and readrandom with --batch_size > 1): the keys of one "
      "batch are this far apart from a random start; 0: independent keys");
  Add("multiread_batched", &multiread_batched,
      "Use the batched MultiGet API (Strata: the same call)");
  Add("seek_nexts", &seek_nexts, "Next() calls after each seekrandom Seek()");
  Add("reverse_iterator", &reverse_iterator, "seekrandom steps with Prev() instead of Next()");
  Add("verify_checksum", &verify_checksum, "Verify checksums on reads");
  Add("benchmark_write_rate_limit", &benchmark_write_rate_limit,
      "Limit writes to this many bytes/second; 0: no limit");
  Add("benchmark_read_rate_limit", &benchmark_read_rate_limit,
      "Limit reads to this many ops/second; 0: no limit");
  Add("merge_operator", &merge_operator,
      "The merge operator: put, put_v1, uint64add, stringappend, max (or an "
      "operator's Name()); needed by mergerandom and readrandommergerandom");
  Add("merge_keys", &merge_keys,
      "Distinct keys of mergerandom and readrandommergerandom; < 0: --num");
  Add("mergereadpercent", &mergereadpercent,
      "readrandommergerandom: percentage of operations that are merges (the "
      "rest are Gets)");
  Add("prefix_size", &prefix_size,
      "Bytes of the key prefix; != 0: a fixed-prefix extractor of this size");
  Add("keys_per_prefix", &keys_per_prefix,
      "> 0: keys open with a prefix_size-byte prefix shared by about this "
      "many keys; 0: no prefix part");
  Add("memtable_bloom_size_ratio", &memtable_bloom_size_ratio,
      "Fraction of the memtable size given to a memtable Bloom filter; 0: none");
  Add("memtable_whole_key_filtering", &memtable_whole_key_filtering,
      "Add whole keys to the memtable Bloom filter");
  Add("whole_key_filtering", &whole_key_filtering,
      "Add whole keys (besides prefixes) to table filters");
  Add("format_version", &format_version, "Format version of SST files (5, 6 or 7)");
  Add("total_order_seek", &total_order_seek, "Iterators ignore the prefix extractor");
  Add("prefix_same_as_start", &prefix_same_as_start,
      "Iterators stop at the end of the Seek target's prefix");
  Add("writes_per_range_tombstone", &writes_per_range_tombstone,
      "Fill workloads issue a DeleteRange every this many writes; 0: none");
  Add("range_tombstone_width", &range_tombstone_width, "Keys covered by each range tombstone");
  Add("max_num_range_tombstones", &max_num_range_tombstones,
      "Most range tombstones one fill thread issues");
  Add("writes_before_delete_range", &writes_before_delete_range,
      "Writes before the first range tombstone is counted towards");
  Add("expand_range_tombstones", &expand_range_tombstones,
      "Issue each range tombstone as range_tombstone_width point deletes");
  Add("write_buffer_size", &write_buffer_size, "Bytes to buffer in a memtable before flushing it");
  Add("max_write_buffer_number", &max_write_buffer_number, "Most memtables held in memory");
  Add("wal_compression", &wal_compression,
      "WAL compression: none or zstd (RocksDB's rule: other types turn it off)");
  Add("compression_type", &compression_type,
      "Block compression: none, snappy, zlib, bzip2, lz4, lz4hc, xpress, "
      "zstd");
  Add("allow_concurrent_memtable_write", &allow_concurrent_memtable_write,
      "Let a write group insert into the memtable in parallel");
  Add("enable_pipelined_write", &enable_pipelined_write,
      "Pipeline WAL and memtable writes (applied when given)");
  Add("mmap_write", &mmap_write, "Write files through memory maps");
  Add("wal_mmap_writes", &wal_mmap_writes, "Strata only: append to the WAL through a memory map");
  Add("table_mmap_reads", &table_mmap_reads,
      "Strata only: read table files through memory maps (uncompressed blocks in place)");
  Add("mmap_read", &mmap_read, "Read files through memory maps");
  Add("use_fsync", &use_fsync, "fsync instead of fdatasync");
  Add("open_files", &open_files, "Most files kept open; -1: no limit");
  Add("cache_size", &cache_size, "Bytes of block cache; <= 0: no block cache");
  Add("cache_numshardbits", &cache_numshardbits,
      "The block cache has 2^this shards; < 0: the cache's default");
  Add("cache_type", &cache_type,
      "Type of block cache: lru_cache or hyper_clock_cache (clock_cache was removed)");
  Add("cache_index_and_filter_blocks", &cache_index_and_filter_blocks,
      "Keep index and filter blocks in the block cache");
  Add("partition_index_and_filters", &partition_index_and_filters,
      "Partition index and filter blocks");
  Add("partition_index", &partition_index, "Partition index blocks");
  Add("metadata_block_size", &metadata_block_size,
      "Max partition size when partitioning index/filters");
  Add("pin_top_level_index_and_filter", &pin_top_level_index_and_filter,
      "Pin top-level index of partitioned index/filter blocks in block cache");
  Add("pin_l0_filter_and_index_blocks_in_cache", &pin_l0_filter_and_index_blocks_in_cache,
      "Pin index/filter blocks of L0 files in block cache");
  // Memory (issue 19).
  Add("db_write_buffer_size", &db_write_buffer_size,
      "Limit in bytes of all memtables together (a WriteBufferManager); 0: none");
  Add("cost_write_buffer_to_cache", &cost_write_buffer_to_cache,
      "Charge memtable memory to the block cache");
  Add("charge_table_reader", &charge_table_reader,
      "Charge table readers' memory to the block cache");
  Add("charge_filter_construction", &charge_filter_construction,
      "Charge filter construction buffers to the block cache");
  Add("charge_compression_dictionary_building_buffer",
      &charge_compression_dictionary_building_buffer,
      "Charge compression dictionary building buffers to the block cache");
  Add("charge_file_metadata", &charge_file_metadata, "Charge file metadata to the block cache");
  Add("memory_budget", &memory_budget,
      "Strata only: one bound in bytes for memtables, block cache and table readers; 0: off");
  Add("bloom_bits", &bloom_bits, "Bloom filter bits per key; <= 0: no filter");
  Add("use_ribbon_filter", &use_ribbon_filter,
      "Use a Ribbon filter (NewRibbonFilterPolicy) of --bloom_bits equivalent bits per key");
  Add("block_size", &block_size, "Bytes per table block");
  Add("num_levels", &num_levels, "Number of LSM levels");
  Add("max_background_jobs", &max_background_jobs, "Most concurrent flushes and compactions");
  Add("target_file_size_base", &target_file_size_base, "Target table file size at level 1");
  Add("max_bytes_for_level_base", &max_bytes_for_level_base, "Most bytes in level 1");
  Add("max_bytes_for_level_multiplier", &max_bytes_for_level_multiplier,
      "Each level below level 1 holds this many times the level above");
  Add("level_compaction_dynamic_level_bytes", &level_compaction_dynamic_level_bytes,
      "Size levels from the last level up");
  Add("disable_auto_compactions", &disable_auto_compactions,
      "Start no compaction except on request (compact)");
  Add("level0_file_num_compaction_trigger", &level0_file_num_compaction_trigger,
      "Level-0 files that start a compaction");
  Add("level0_slowdown_writes_trigger", &level0_slowdown_writes_trigger,
      "Level-0 files that slow writes down");
  Add("level0_stop_writes_trigger", &level0_stop_writes_trigger, "Level-0 files that stop writes");
  Add("subcompactions", &subcompactions, "Most subcompactions one compaction is split into");
  Add("use_direct_reads", &use_direct_reads,
      "Read table files with O_DIRECT (Strata: turns table_mmap_reads off unless it is given; "
      "LevelDB: ignored)");
  Add("use_direct_io_for_flush_and_compaction", &use_direct_io_for_flush_and_compaction,
      "Write flush and compaction outputs (and read compaction inputs) with O_DIRECT");
  Add("compaction_readahead_size", &compaction_readahead_size,
      "Compaction input read-ahead in bytes (0: the store's default; 2 MiB with direct reads)");
  Add("wal_dir", &wal_dir, "Directory of the WAL files (empty: the DB's directory)");
  // Paced I/O.
  Add("rate_limiter_bytes_per_sec", &rate_limiter_bytes_per_sec,
      "Set options.rate_limiter value (flush and compaction writes, bytes/s; 0: none)");
  Add("rate_limiter_refill_period_us", &rate_limiter_refill_period_us,
      "Set refill period on rate limiter.");
  Add("rate_limiter_auto_tuned", &rate_limiter_auto_tuned,
      "Enable dynamic adjustment of rate limit according to demand for background I/O");
  Add("rate_limit_bg_reads", &rate_limit_bg_reads,
      "Use options.rate_limiter on compaction reads (and not on writes: RocksDB's kReadsOnly)");
  Add("bytes_per_sync", &bytes_per_sync,
      "Allows OS to incrementally sync SST files to disk while they are being written");
  Add("wal_bytes_per_sync", &wal_bytes_per_sync,
      "Allows OS to incrementally sync WAL files to disk while they are being written");
  Add("sst_file_manager_bytes_per_sec", &sst_file_manager_bytes_per_sec,
      "Delete obsolete table files at this rate through an SstFileManager (0: at once)");
  Add("sst_file_manager_bytes_per_truncate", &sst_file_manager_bytes_per_truncate,
      "Delete large obsolete table files by truncating this many bytes at a time");
  Add("compaction_style", &compaction_style,
      "Style of compaction: 0 level-based, 1 universal, 2 fifo, 3 none");
  Add("compaction_pri", &compaction_pri,
      "Which file leveled compaction picks first: 0 kByCompensatedSize, 1 "
      "kOldestLargestSeqFirst, 2 kOldestSmallestSeqFirst, 3 kMinOverlappingRatio, 4 "
      "kRoundRobin");
  Add("universal_size_ratio", &universal_size_ratio,
      "Percentage flexibility while comparing file sizes (universal); 0: the store's default");
  Add("universal_min_merge_width", &universal_min_merge_width,
      "The fewest files in one universal compaction; 0: the store's default");
  Add("universal_max_merge_width", &universal_max_merge_width,
      "The most files in one universal compaction; 0: the store's default");
  Add("universal_max_size_amplification_percent", &universal_max_size_amplification_percent,
      "The largest size amplification universal compaction allows; 0: the store's default");
  Add("universal_compression_size_percent", &universal_compression_size_percent,
      "The percentage of the database to compress (universal); -1: compress everything");
  Add("universal_allow_trivial_move", &universal_allow_trivial_move,
      "Allow trivial moves in universal compaction");
  Add("universal_incremental", &universal_incremental,
      "Incremental universal compactions (size-amplification runs in pieces)");
  Add("fifo_compaction_max_table_files_size_mb", &fifo_compaction_max_table_files_size_mb,
      "FIFO: total table size (MiB) past which the oldest tables are dropped (RocksDB's "
      "db_bench sets it even at its default 0: pass it with --compaction_style=2)");
  Add("fifo_compaction_allow_compaction", &fifo_compaction_allow_compaction,
      "FIFO: merge small level-0 files (intra-L0 compaction)");
  Add("fifo_compaction_ttl", &fifo_compaction_ttl,
      "TTL of table files in seconds (sets ttl; RocksDB's db_bench overwrites it with "
      "--ttl_seconds, here --ttl_seconds wins only when given)");
  Add("fifo_age_for_warm", &fifo_age_for_warm, "FIFO: age_for_warm (tiered storage)");
  Add("ttl_seconds", &ttl_seconds, "Set options.ttl");
  Add("periodic_compaction_seconds", &periodic_compaction_seconds,
      "Files older than this are compacted again (rewritten to the same level)");
  Add("max_bytes_for_level_multiplier_additional", &max_bytes_for_level_multiplier_additional,
      "Comma list of --num_levels extra fanout factors, one per level");
  Add("compression_level", &compression_level,
      "Compression level (library-dependent); 32767: the library's default");
  Add("compression_max_dict_bytes", &compression_max_dict_bytes,
      "Largest dictionary used to prime the compression library; 0: none");
  Add("compression_zstd_max_train_bytes", &compression_zstd_max_train_bytes,
      "Most bytes of samples given to zstd's dictionary trainer");
  Add("compression_max_dict_buffer_bytes", &compression_max_dict_buffer_bytes,
      "Most bytes buffered to collect dictionary samples; 0: no limit");
  Add("compression_use_zstd_dict_trainer", &compression_use_zstd_dict_trainer,
      "Dictionary by ZDICT_trainFromBuffer (true) or ZDICT_finalizeDictionary (false)");
  Add("compression_parallel_threads", &compression_parallel_threads,
      "Threads compressing one table's blocks");
  Add("min_level_to_compress", &min_level_to_compress,
      "If non-negative, levels below this one are not compressed and the others use "
      "--compression_type (fills compression_per_level); < 0: --compression_type everywhere");
  Add("compression_per_level", &compression_per_level,
      "Strata only: comma list of --compression_type names, one per level (e.g. "
      "none,none,lz4,lz4,lz4,zstd,zstd; levels past the list use its last entry); \"\": "
      "--compression_type everywhere. Not with --min_level_to_compress");
  Add("compact_for_space_amp", &compact_for_space_amp,
      "Strata only: with --statistics, compact everything after the benchmarks and take "
      "the table bytes after it as the live data of 'Space amplification' (the write "
      "amplification is taken before that compaction)");
  Add("optimistic_transaction_db", &optimistic_transaction_db,
      "Open an OptimisticTransactionDB instance (randomtransaction runs optimistic "
      "transactions; the other benchmarks write to its base DB). Wins over --transaction_db");
  Add("transaction_db", &transaction_db,
      "Open a TransactionDB instance: randomtransaction runs pessimistic transactions and "
      "the other benchmarks' writes take its locks");
  Add("transaction_sets", &transaction_sets,
      "Number of keys each transaction will modify (use in RandomTransaction only). Max: "
      "9999");
  Add("transaction_set_snapshot", &transaction_set_snapshot,
      "Setting to true will have each transaction call SetSnapshot() upon creation (RocksDB "
      "7.8.3 applies it to pessimistic transactions only; Strata to optimistic ones too)");
  Add("transaction_sleep", &transaction_sleep,
      "Accepted for RocksDB 7.8.3's command lines, which read it nowhere: no effect");
  Add("transaction_lock_timeout", &transaction_lock_timeout,
      "If using a transaction_db, specifies the lock wait timeout in milliseconds before "
      "failing a transaction waiting on a lock");
}

void BenchFlags::Add(const char* name, bool* p, const char* help) {
  defs_.push_back({name, Type::kBool, p, help});
}
void BenchFlags::Add(const char* name, int32_t* p, const char* help) {
  defs_.push_back({name, Type::kInt32, p, help});
}
void BenchFlags::Add(const char* name, int64_t* p, const char* help) {
  defs_.push_back({name, Type::kInt64, p, help});
}
void BenchFlags::Add(const char* name, uint64_t* p, const char* help) {
  defs_.push_back({name, Type::kUint64, p, help});
}
void BenchFlags::Add(const char* name, double* p, const char* help) {
  defs_.push_back({name, Type::kDouble, p, help});
}
void BenchFlags::Add(const char* name, std::string* p, const char* help) {
  defs_.push_back({name, Type::kString, p, help});
}

const BenchFlags::Def* BenchFlags::Find(std::string_view name) const {
  for (const Def& def : defs_) {
    if (name == def.name) return &def;
  }
  return nullptr;
}

namespace {

const char* TypeName(int type) {
  static const char* const kNames[] = {"bool", "int32", "int64", "uint64", "double", "string"};
  return kNames[type];
}

bool ParseBool(std::string_view v, bool* out) {
  static const char* const kTrue[] = {"1", "t", "true", "y", "yes"};
  static const char* const kFalse[] = {"0", "f", "false", "n", "no"};
  std::string lower(v);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  for (const char* t : kTrue) {
    if (lower == t) {
      *out = true;
      return true;
    }
  }
  for (const char* f : kFalse) {
    if (lower == f) {
      *out = false;
      return true;
    }
  }
  return false;
}

// Parses a whole decimal (or 0x hex) integer in [lo, hi].
bool ParseInt(std::string_view v, int64_t lo, int64_t hi, int64_t* out) {
  if (v.empty()) return false;
  const std::string s(v);
  char* end = nullptr;
  errno = 0;
  const long long x = std::strtoll(s.c_str(), &end, 0);
  if (errno != 0 || *end != '\0' || x < lo || x > hi) return false;
  *out = x;
  return true;
}

bool ParseUint(std::string_view v, uint64_t* out) {
  if (v.empty() || v[0] == '-') return false;
  const std::string s(v);
  char* end = nullptr;
  errno = 0;
  const unsigned long long x = std::strtoull(s.c_str(), &end, 0);
  if (errno != 0 || *end != '\0') return false;
  *out = x;
  return true;
}

}  // namespace

bool BenchFlags::SetValue(const Def& def, std::string_view value, std::string* error) {
  bool ok = false;
  switch (def.type) {
    case Type::kBool:
      ok = ParseBool(value, static_cast<bool*>(def.ptr));
      break;
    case Type::kInt32: {
      int64_t x = 0;
      ok = ParseInt(value, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max(),
                    &x);
      if (ok) *static_cast<int32_t*>(def.ptr) = static_cast<int32_t>(x);
      break;
    }
    case Type::kInt64:
      ok = ParseInt(value, std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max(),
                    static_cast<int64_t*>(def.ptr));
      break;
    case Type::kUint64:
      ok = ParseUint(value, static_cast<uint64_t*>(def.ptr));
      break;
    case Type::kDouble: {
      const std::string s(value);
      char* end = nullptr;
      errno = 0;
      const double x = std::strtod(s.c_str(), &end);
      ok = !s.empty() && errno == 0 && *end == '\0';
      if (ok) *static_cast<double*>(def.ptr) = x;
      break;
    }
    case Type::kString:
      *static_cast<std::string*>(def.ptr) = std::string(value);
      ok = true;
      break;
  }
  if (!ok) {
    *error = "illegal value '" + std::string(value) + "' specified for " +
             TypeName(static_cast<int>(def.type)) + " flag '" + def.name + "'";
  }
  return ok;
}

std::string BenchFlags::ValueString(const Def& def) {
  switch (def.type) {
    case Type::kBool:
      return *static_cast<bool*>(def.ptr) ? "true" : "false";
    case Type::kInt32:
      return std::to_string(*static_cast<int32_t*>(def.ptr));
    case Type::kInt64:
      return std::to_string(*static_cast<int64_t*>(def.ptr));
    case Type::kUint64:
      return std::to_string(*static_cast<uint64_t*>(def.ptr));
    case Type::kDouble: {
      char buf[32];
      std::snprintf(buf, sizeof(buf), "%g", *static_cast<double*>(def.ptr));
      return buf;
    }
    case Type::kString:
      return "\"" + *static_cast<std::string*>(def.ptr) + "\"";
  }
  return "";
}

std::string BenchFlags::Usage() const {
  std::string out;
  for (const Def& def : defs_) {
    out += "    -";
    out += def.name;
    out += " (";
    out += def.help;
    out += ") type: ";
    out += TypeName(static_cast<int>(def.type));
    out += " default: ";
    out += ValueString(def);
    out += "\n";
  }
  return out;
}

bool BenchFlags::Parse(int argc, char** argv, std::string* error) {
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "--") break;
    if (arg.size() < 2 || arg[0] != '-') {
      *error = "unexpected argument '" + std::string(arg) + "'";
      return false;
    }
    arg.remove_prefix(arg[1] == '-' ? 2 : 1);
    std::string_view name = arg;
    std::string_view value;
    bool has_value = false;
    if (const size_t eq = arg.find('='); eq != std::string_view::npos) {
      name = arg.substr(0, eq);
      value = arg.substr(eq + 1);
      has_value = true;
    }
    if (name == "help" || name == "helpfull") {
      std::printf("db_bench flags (RocksDB's names and defaults):\n%s", Usage().c_str());
      std::exit(0);
    }
    const Def* def = Find(name);
    if (def == nullptr && !has_value && name.substr(0, 2) == "no") {
      // --nofoo sets the bool flag foo to false.
      const Def* negated = Find(name.substr(2));
      if (negated != nullptr && negated->type == Type::kBool) {
        *static_cast<bool*>(negated->ptr) = false;
        set_.emplace(negated->name);
        continue;
      }
    }
    if (def == nullptr) {
      *error = "unknown command line flag '" + std::string(name) + "'";
      return false;
    }
    if (!has_value) {
      if (def->type == Type::kBool) {
        value = "true";
      } else if (i + 1 < argc) {
        value = argv[++i];
      } else {
        *error = "flag '" + std::string(name) + "' is missing its argument";
        return false;
      }
    }
    if (!SetValue(*def, value, error)) return false;
    set_.emplace(def->name);
  }
  return true;
}

bool BenchFlags::WasSet(std::string_view name) const { return set_.find(name) != set_.end(); }

bool ParseCompression(std::string_view name, Compression* out) {
  static const struct {
    const char* name;
    Compression c;
  } kNames[] = {{"none", Compression::kNone},     {"snappy", Compression::kSnappy},
                {"zlib", Compression::kZlib},     {"bzip2", Compression::kBZip2},
                {"lz4", Compression::kLZ4},       {"lz4hc", Compression::kLZ4HC},
                {"xpress", Compression::kXpress}, {"zstd", Compression::kZSTD}};
  for (const auto& entry : kNames) {
    if (name == entry.name) {
      *out = entry.c;
      return true;
    }
  }
  return false;
}

const char* CompressionName(Compression c) {
  switch (c) {
    case Compression::kNone:
      return "NoCompression";
    case Compression::kSnappy:
      return "Snappy";
    case Compression::kZlib:
      return "Zlib";
    case Compression::kBZip2:
      return "BZip2";
    case Compression::kLZ4:
      return "LZ4";
    case Compression::kLZ4HC:
      return "LZ4HC";
    case Compression::kXpress:
      return "Xpress";
    case Compression::kZSTD:
      return "ZSTD";
  }
  return "?";
}

// ---------------------------------------------------------------------------
// Compaction styles

const char* const kCompactionStyleFlags[] = {
    "compaction_style",
    "compaction_pri",
    "universal_size_ratio",
    "universal_min_merge_width",
    "universal_max_merge_width",
    "universal_max_size_amplification_percent",
    "universal_compression_size_percent",
    "universal_allow_trivial_move",
    "universal_incremental",
    "fifo_compaction_max_table_files_size_mb",
    "fifo_compaction_allow_compaction",
    "fifo_compaction_ttl",
    "fifo_age_for_warm",
    "ttl_seconds",
    "periodic_compaction_seconds",
    "max_bytes_for_level_multiplier_additional",
    "compression_level",
    "compression_max_dict_bytes",
    "compression_zstd_max_train_bytes",
    "compression_max_dict_buffer_bytes",
    "compression_use_zstd_dict_trainer",
    "compression_parallel_threads",
    "min_level_to_compress",
    "compression_per_level",
};
const size_t kNumCompactionStyleFlags = std::size(kCompactionStyleFlags);

namespace {

// Splits a comma list; "" gives no items, and every item must be non-empty.
bool SplitCommaList(const std::string& list, std::vector<std::string>* items) {
  items->clear();
  if (list.empty()) return true;
  size_t start = 0;
  while (true) {
    const size_t comma = list.find(',', start);
    std::string item = list.substr(start, comma == std::string::npos ? comma : comma - start);
    if (item.empty()) return false;
    items->push_back(std::move(item));
    if (comma == std::string::npos) return true;
    start = comma + 1;
  }
}

// Sets *error to "--<flag>=<value>: <why>" and returns false.
bool FlagError(std::string* error, const char* flag, const std::string& value,
               const std::string& why) {
  *error = std::string("--") + flag + "=" + value + ": " + why;
  return false;
}

}  // namespace

bool ParseCompactionSettings(const BenchFlags& flags, Compression compression,
                             CompactionSettings* out, std::string* error) {
  CompactionSettings s;
  if (flags.compaction_style < 0 || flags.compaction_style > 3) {
    return FlagError(error, "compaction_style", std::to_string(flags.compaction_style),
                     "must be 0 (level), 1 (universal), 2 (fifo) or 3 (none)");
  }
  s.compaction_style = flags.compaction_style;
  if (flags.compaction_pri < 0 || flags.compaction_pri > 4) {
    return FlagError(error, "compaction_pri", std::to_string(flags.compaction_pri),
                     "must be 0 (kByCompensatedSize) ... 4 (kRoundRobin)");
  }
  s.compaction_pri = flags.compaction_pri;

  // The unsigned universal fields: a negative value has no meaning.
  const struct {
    const char* name;
    int32_t value;
    unsigned* field;
  } kUnsigned[] = {
      {"universal_size_ratio", flags.universal_size_ratio, &s.universal_size_ratio},
      {"universal_min_merge_width", flags.universal_min_merge_width, &s.universal_min_merge_width},
      {"universal_max_merge_width", flags.universal_max_merge_width, &s.universal_max_merge_width},
      {"universal_max_size_amplification_percent", flags.universal_max_size_amplification_percent,
       &s.universal_max_size_amplification_percent},
  };
  for (const auto& u : kUnsigned) {
    if (u.value < 0)
      return FlagError(error, u.name, std::to_string(u.value), "must not be negative");
    *u.field = static_cast<unsigned>(u.value);
  }
  if (flags.universal_compression_size_percent < -1 ||
      flags.universal_compression_size_percent > 100) {
    return FlagError(error, "universal_compression_size_percent",
                     std::to_string(flags.universal_compression_size_percent),
                     "must be -1 (compress everything) or a percentage 0-100");
  }
  s.universal_compression_size_percent = flags.universal_compression_size_percent;
  s.universal_allow_trivial_move = flags.universal_allow_trivial_move;
  s.universal_incremental = flags.universal_incremental;

  constexpr uint64_t kMiB = 1024 * 1024;
  if (flags.fifo_compaction_max_table_files_size_mb > UINT64_MAX / kMiB) {
    return FlagError(error, "fifo_compaction_max_table_files_size_mb",
                     std::to_string(flags.fifo_compaction_max_table_files_size_mb),
                     "overflows 64 bits of bytes");
  }
  s.fifo_max_table_files_size = flags.fifo_compaction_max_table_files_size_mb * kMiB;
  s.fifo_allow_compaction = flags.fifo_compaction_allow_compaction;
  s.fifo_age_for_warm = flags.fifo_age_for_warm;
  if (flags.WasSet("ttl_seconds")) {
    if (flags.WasSet("fifo_compaction_ttl") && flags.fifo_compaction_ttl != flags.ttl_seconds) {
      return FlagError(error, "fifo_compaction_ttl", std::to_string(flags.fifo_compaction_ttl),
                       "differs from --ttl_seconds=" + std::to_string(flags.ttl_seconds) +
                           " (both set options.ttl)");
    }
    s.ttl = flags.ttl_seconds;
  } else if (flags.WasSet("fifo_compaction_ttl")) {
    s.ttl = flags.fifo_compaction_ttl;
  } else {
    s.ttl = flags.ttl_seconds;
  }
  s.periodic_compaction_seconds = flags.periodic_compaction_seconds;

  std::vector<std::string> items;
  const std::string& fanout = flags.max_bytes_for_level_multiplier_additional;
  if (!SplitCommaList(fanout, &items)) {
    return FlagError(error, "max_bytes_for_level_multiplier_additional", fanout,
                     "an empty entry in the comma list");
  }
  for (const std::string& item : items) {
    char* end = nullptr;
    errno = 0;
    const long v = std::strtol(item.c_str(), &end, 10);
    if (errno != 0 || *end != '\0' || v < 0 || v > std::numeric_limits<int>::max()) {
      return FlagError(error, "max_bytes_for_level_multiplier_additional", fanout,
                       "'" + item + "' is not a non-negative integer");
    }
    s.max_bytes_for_level_multiplier_additional.push_back(static_cast<int>(v));
  }
  if (!items.empty() && static_cast<int64_t>(items.size()) != flags.num_levels) {
    return FlagError(error, "max_bytes_for_level_multiplier_additional", fanout,
                     "has " + std::to_string(items.size()) + " entries, --num_levels is " +
                         std::to_string(flags.num_levels) +
                         " (RocksDB's db_bench: "
                         "\"Insufficient number of fanouts\")");
  }

  s.compression_level = flags.compression_level;
  const struct {
    const char* name;
    int32_t value;
    uint32_t* field;
    int32_t min;
  } kCompressionInts[] = {
      {"compression_max_dict_bytes", flags.compression_max_dict_bytes,
       &s.compression_max_dict_bytes, 0},
      {"compression_zstd_max_train_bytes", flags.compression_zstd_max_train_bytes,
       &s.compression_zstd_max_train_bytes, 0},
      {"compression_parallel_threads", flags.compression_parallel_threads,
       &s.compression_parallel_threads, 1},
  };
  for (const auto& c : kCompressionInts) {
    if (c.value < c.min) {
      return FlagError(error, c.name, std::to_string(c.value),
                       "must be at least " + std::to_string(c.min));
    }
    *c.field = static_cast<uint32_t>(c.value);
  }
  s.compression_max_dict_buffer_bytes = flags.compression_max_dict_buffer_bytes;
  s.compression_use_zstd_dict_trainer = flags.compression_use_zstd_dict_trainer;

  if (!flags.compression_per_level.empty()) {
    if (flags.min_level_to_compress >= 0) {
      return FlagError(error, "compression_per_level", flags.compression_per_level,
                       "cannot be combined with --min_level_to_compress");
    }
    if (!SplitCommaList(flags.compression_per_level, &items)) {
      return FlagError(error, "compression_per_level", flags.compression_per_level,
                       "an empty entry in the comma list");
    }
    for (const std::string& item : items) {
      Compression c;
      if (!ParseCompression(item, &c)) {
        return FlagError(error, "compression_per_level", flags.compression_per_level,
                         "unknown compression '" + item +
                             "' (none, snappy, zlib, bzip2, lz4, lz4hc, xpress, zstd)");
      }
      s.compression_per_level.push_back(c);
    }
  } else if (flags.min_level_to_compress >= 0) {
    if (flags.min_level_to_compress > flags.num_levels) {
      return FlagError(error, "min_level_to_compress", std::to_string(flags.min_level_to_compress),
                       "exceeds --num_levels=" + std::to_string(flags.num_levels));
    }
    for (int level = 0; level < flags.num_levels; ++level) {
      s.compression_per_level.push_back(level < flags.min_level_to_compress ? Compression::kNone
                                                                            : compression);
    }
  }
  *out = std::move(s);
  return true;
}

// ---------------------------------------------------------------------------
// Amplification figures

std::string SpaceAmplificationLine(uint64_t sst_bytes, uint64_t live_bytes,
                                   std::string_view live_definition) {
  char buf[512];
  if (live_bytes == 0) {
    std::snprintf(buf, sizeof(buf), "Space amplification: n/a (no live data; live data = %.*s)",
                  static_cast<int>(live_definition.size()), live_definition.data());
  } else {
    std::snprintf(buf, sizeof(buf),
                  "Space amplification: %.3f (live SST bytes: %" PRIu64
                  ", live data bytes: %" PRIu64 ", live data = %.*s)",
                  static_cast<double>(sst_bytes) / static_cast<double>(live_bytes), sst_bytes,
                  live_bytes, static_cast<int>(live_definition.size()), live_definition.data());
  }
  return buf;
}

std::string ReadAmplificationLine(const ReadProbes& probes, bool have_filters) {
  char buf[512];
  if (!have_filters) {
    std::snprintf(buf, sizeof(buf),
                  "Read amplification: n/a (needs --bloom_bits > 0: tables probed are counted "
                  "by their filter checks)");
  } else if (probes.gets == 0) {
    std::snprintf(buf, sizeof(buf), "Read amplification: n/a (no readrandom Gets)");
  } else {
    const double gets = static_cast<double>(probes.gets);
    std::snprintf(buf, sizeof(buf),
                  "Read amplification: %.3f tables probed per Get (filter useful: %" PRIu64
                  ", filter positive: %" PRIu64 ", Gets: %" PRIu64
                  "; %.3f tables read past the filter per Get)",
                  static_cast<double>(probes.useful + probes.positive) / gets, probes.useful,
                  probes.positive, probes.gets, static_cast<double>(probes.positive) / gets);
  }
  return buf;
}

// ---------------------------------------------------------------------------
// Values

namespace {

// The Lehmer / Park-Miller generator x' = 16807 x mod (2^31 - 1) that
// RocksDB's value buffer is drawn from.
class ParkMiller {
 public:
  explicit ParkMiller(uint32_t seed) {
    constexpr uint32_t kM = 2147483647u;
    state_ = seed & kM;
    if (state_ == 0 || state_ == kM) state_ = 1;
  }
  uint32_t Next() {
    constexpr uint32_t kM = 2147483647u;
    const uint64_t product = static_cast<uint64_t>(state_) * 16807;
    // product mod M, using (x << 31) mod M == x.
    uint32_t r = static_cast<uint32_t>((product >> 31) + (product & kM));
    if (r > kM) r -= kM;
    state_ = r;
    return r;
  }
  uint32_t Uniform(uint32_t n) { return Next() % n; }

 private:
  uint32_t state_;
};

}  // namespace

std::string BuildValueData(int value_size, double compression_ratio) {
  constexpr int kPiece = 100;
  const size_t target = static_cast<size_t>(std::max(1048576, std::max(value_size, 0)));
  int raw_len = static_cast<int>(kPiece * compression_ratio);
  if (raw_len < 1) raw_len = 1;
  ParkMiller rnd(301);
  std::string data;
  data.reserve(target + kPiece);
  std::string raw(raw_len, '\0');
  while (data.size() < target) {
    // One piece: raw_len printable characters, repeated to kPiece bytes.
    for (char& c : raw) c = static_cast<char>(' ' + rnd.Uniform(95));
    for (int filled = 0; filled < kPiece; filled += raw_len) {
      data.append(raw, 0, std::min(raw_len, kPiece - filled));
    }
  }
  return data;
}

// ---------------------------------------------------------------------------
// Failure and rate limiting

void Fail(const char* format, ...) {
  std::fflush(stdout);
  va_list ap;
  va_start(ap, format);
  std::vfprintf(stderr, format, ap);
  va_end(ap);
  std::fputc('\n', stderr);
  std::fflush(stderr);
  // _exit: other threads may still be inside the store.
  _exit(1);
}

void RateLimiter::Request(uint64_t amount) {
  double wait_until;
  {
    std::lock_guard<std::mutex> lock(mu_);
    const double now = static_cast<double>(NowMicros());
    // Unused budget carries over for at most 100 ms (a bounded burst), so
    // sleep overshoot does not lower the achieved rate.
    if (next_free_micros_ < now - 1e5) next_free_micros_ = now - 1e5;
    wait_until = next_free_micros_;
    next_free_micros_ += static_cast<double>(amount) * 1e6 / static_cast<double>(per_second_);
  }
  const double now = static_cast<double>(NowMicros());
  if (wait_until > now) {
    std::this_thread::sleep_for(std::chrono::microseconds(static_cast<int64_t>(wait_until - now)));
  }
}

// ---------------------------------------------------------------------------
// Stats

namespace {
const char* const kOpNames[kNumOpTypes] = {"read", "write", "delete", "seek", "merge", "op"};
}  // namespace

Stats::Stats(bool histogram, bool progress_reports, int64_t stats_interval)
    : histogram_(histogram), progress_reports_(progress_reports), stats_interval_(stats_interval) {}

void Stats::Start(int id) {
  id_ = id;
  next_report_ = stats_interval_ > 0 ? stats_interval_ : 100;
  for (auto& h : hist_) h.reset();
  done_ = 0;
  bytes_ = 0;
  seconds_ = 0;
  start_ = NowMicros();
  finish_ = start_;
  last_op_finish_ = start_;
  message_.clear();
  exclude_from_merge_ = false;
}

void Stats::Stop() {
  finish_ = NowMicros();
  seconds_ = static_cast<double>(finish_ - start_) * 1e-6;
}

void Stats::Merge(const Stats& other) {
  if (other.exclude_from_merge_) return;
  for (int i = 0; i < kNumOpTypes; ++i) {
    if (other.hist_[i] == nullptr) continue;
    if (hist_[i] == nullptr) hist_[i] = std::make_unique<Histogram>();
    hist_[i]->Merge(*other.hist_[i]);
  }
  // The first merged thread defines the span; later ones widen it.
  if (start_ == 0) {
    start_ = other.start_;
    finish_ = other.finish_;
  } else {
    start_ = std::min(start_, other.start_);
    finish_ = std::max(finish_, other.finish_);
  }
  done_ += other.done_;
  bytes_ += other.bytes_;
  seconds_ += other.seconds_;
  if (message_.empty()) message_ = other.message_;
}

void Stats::AddMessage(std::string_view msg) {
  if (msg.empty()) return;
  if (!message_.empty()) message_.push_back(' ');
  message_.append(msg);
}

void Stats::AddLatency(OpType type) {
  const uint64_t now = NowMicros();
  const int i = static_cast<int>(type);
  if (hist_[i] == nullptr) hist_[i] = std::make_unique<Histogram>();
  hist_[i]->Add(now - last_op_finish_);
  last_op_finish_ = now;
}

void Stats::ReportProgress() {
  if (stats_interval_ > 0) {
    next_report_ += stats_interval_;
  } else if (next_report_ < 1000) {
    next_report_ += 100;
  } else if (next_report_ < 5000) {
    next_report_ += 500;
  } else if (next_report_ < 10000) {
    next_report_ += 1000;
  } else if (next_report_ < 50000) {
    next_report_ += 5000;
  } else if (next_report_ < 100000) {
    next_report_ += 10000;
  } else if (next_report_ < 500000) {
    next_report_ += 50000;
  } else {
    next_report_ += 100000;
  }
  if (progress_reports_) {
    std::fprintf(stderr, "... finished %" PRIu64 " ops%30s\r", done_, "");
    std::fflush(stderr);
  }
}

double Stats::Throughput() const {
  double elapsed = static_cast<double>(finish_ - start_) * 1e-6;
  if (elapsed <= 0) elapsed = 1e-6;
  return static_cast<double>(std::max<uint64_t>(done_, 1)) / elapsed;
}

void Stats::Report(std::string_view name) {
  // Pretend one op was done for workloads that count none.
  if (done_ < 1) done_ = 1;
  double elapsed = static_cast<double>(finish_ - start_) * 1e-6;
  if (elapsed <= 0) elapsed = 1e-6;
  std::string extra;
  if (bytes_ > 0) {
    // The rate uses the elapsed span, not the sum of per-thread times.
    char rate[100];
    std::snprintf(rate, sizeof(rate), "%6.1f MB/s",
                  (static_cast<double>(bytes_) / 1048576.0) / elapsed);
    extra = rate;
  }
  if (!message_.empty()) {
    if (!extra.empty()) extra.push_back(' ');
    extra += message_;
  }
  const double throughput = static_cast<double>(done_) / elapsed;
  std::printf("%-12s : %11.3f micros/op %ld ops/sec %.3f seconds %" PRIu64 " operations;%s%s\n",
              std::string(name).c_str(), seconds_ * 1e6 / static_cast<double>(done_),
              static_cast<long>(throughput), elapsed, done_, extra.empty() ? "" : " ",
              extra.c_str());
  if (histogram_) {
    for (int i = 0; i < kNumOpTypes; ++i) {
      if (hist_[i] == nullptr) continue;
      std::printf("Microseconds per %s:\n%s\n", kOpNames[i], hist_[i]->ToString().c_str());
    }
  }
  std::fflush(stdout);
}

// ---------------------------------------------------------------------------
// IntervalReporter

IntervalReporter::IntervalReporter(const BenchFlags& flags, const std::atomic<uint64_t>* ops)
    : ops_(ops) {
  if (flags.report_interval_seconds <= 0) return;
  file_ = std::fopen(flags.report_file.c_str(), "w");
  if (file_ == nullptr) {
    std::fprintf(stderr, "--report_file %s: %s\n", flags.report_file.c_str(), std::strerror(errno));
    return;
  }
  std::fprintf(file_, "secs_elapsed,interval_qps\n");
  std::fflush(file_);
  const auto interval = std::chrono::seconds(flags.report_interval_seconds);
  thread_ = std::thread([this, interval] {
    const auto start = std::chrono::steady_clock::now();
    auto last_time = start;
    uint64_t last_ops = 0;
    std::unique_lock<std::mutex> lock(mu_);
    while (!stop_) {
      // Reports fall on whole multiples of the interval after the start.
      if (cv_.wait_until(lock, last_time + interval, [this] { return stop_; })) break;
      const auto now = std::chrono::steady_clock::now();
      const uint64_t ops = ops_->load(std::memory_order_relaxed);
      const double secs = std::chrono::duration<double>(now - last_time).count();
      std::fprintf(file_, "%" PRId64 ",%" PRId64 "\n",
                   static_cast<int64_t>(
                       std::chrono::duration_cast<std::chrono::seconds>(now - start).count()),
                   static_cast<int64_t>(static_cast<double>(ops - last_ops) / secs));
      std::fflush(file_);
      last_ops = ops;
      last_time += interval;
    }
  });
}

IntervalReporter::~IntervalReporter() { Stop(); }

void IntervalReporter::Stop() {
  if (thread_.joinable()) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  if (file_ != nullptr) {
    std::fclose(file_);
    file_ = nullptr;
  }
}

// ---------------------------------------------------------------------------
// BenchmarkBase

BenchmarkBase::BenchmarkBase(const BenchFlags& flags)
    : flags_(flags), seed_base_(static_cast<uint64_t>(flags.seed)) {
  if (flags.seed == 0) {
    // Like RocksDB: wall-clock microseconds.
    seed_base_ = static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::microseconds>(
                                           std::chrono::system_clock::now().time_since_epoch())
                                           .count());
    std::printf("Set seed to %" PRIu64 " because --seed was 0\n", seed_base_);
  }
  value_data_ = BuildValueData(flags.value_size, flags.compression_ratio);
}

Stats BenchmarkBase::RunBenchmark(int n, std::string_view name,
                                  const std::function<void(ThreadState*)>& body) {
  SharedState shared;
  shared.total = n;
  if (flags_.benchmark_write_rate_limit > 0) {
    shared.write_rate_limiter = std::make_unique<RateLimiter>(flags_.benchmark_write_rate_limit);
  }
  if (flags_.benchmark_read_rate_limit > 0) {
    shared.read_rate_limiter = std::make_unique<RateLimiter>(flags_.benchmark_read_rate_limit);
  }
  std::vector<std::unique_ptr<ThreadState>> states;
  states.reserve(n);
  for (int i = 0; i < n; ++i) {
    // RocksDB seeds thread i of every run with seed + (threads started so
    // far, this one included).
    ++total_thread_count_;
    states.push_back(std::make_unique<ThreadState>(
        i, seed_base_ + static_cast<uint64_t>(total_thread_count_), flags_));
    states.back()->shared = &shared;
    if (flags_.report_interval_seconds > 0)
      states.back()->stats.SetReportCounter(&shared.report_ops);
  }
  IntervalReporter reporter(flags_, &shared.report_ops);
  std::vector<std::thread> threads;
  threads.reserve(n);
  for (int i = 0; i < n; ++i) {
    ThreadState* state = states[i].get();
    threads.emplace_back([&shared, &body, state] {
      {
        std::unique_lock<std::mutex> lock(shared.mu);
        ++shared.num_initialized;
        if (shared.num_initialized >= shared.total) shared.cv.notify_all();
        shared.cv.wait(lock, [&shared] { return shared.start; });
      }
      state->stats.Start(state->tid);
      body(state);
      state->stats.Stop();
      shared.num_done.fetch_add(1, std::memory_order_release);
    });
  }
  {
    std::unique_lock<std::mutex> lock(shared.mu);
    shared.cv.wait(lock, [&shared, n] { return shared.num_initialized >= n; });
    shared.start = true;
  }
  shared.cv.notify_all();
  for (std::thread& t : threads) t.join();
  reporter.Stop();

  Stats merged(flags_.histogram, false, 0);
  for (const auto& state : states) merged.Merge(state->stats);
  merged.Report(name);
  return merged;
}

void BenchmarkBase::PrintEnvironment(const char* engine, const std::string& version) {
  std::fprintf(stderr, "%-11s version %s\n", (std::string(engine) + ":").c_str(), version.c_str());
  const time_t now = std::time(nullptr);
  char date[64];
  std::fprintf(stderr, "Date:       %s", ctime_r(&now, date));
  if (FILE* cpuinfo = std::fopen("/proc/cpuinfo", "r")) {
    char line[1000];
    int num_cpus = 0;
    std::string cpu_type;
    std::string cache_size;
    auto trim = [](std::string s) {
      const size_t b = s.find_first_not_of(" \t\n");
      const size_t e = s.find_last_not_of(" \t\n");
      return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
    };
    while (std::fgets(line, sizeof(line), cpuinfo) != nullptr) {
      const char* sep = std::strchr(line, ':');
      if (sep == nullptr) continue;
      const std::string key = trim(std::string(line, sep - line));
      const std::string val = trim(std::string(sep + 1));
      if (key == "model name") {
        ++num_cpus;
        cpu_type = val;
      } else if (key == "cache size") {
        cache_size = val;
      }
    }
    std::fclose(cpuinfo);
    std::fprintf(stderr, "CPU:        %d * %s\n", num_cpus, cpu_type.c_str());
    std::fprintf(stderr, "CPUCache:   %s\n", cache_size.c_str());
  }
}

void BenchmarkBase::PrintHeader(const char* compression_name) const {
  const int64_t num = flags_.num;
  std::printf("Keys:       %d bytes each (+ 0 bytes user-defined timestamp)\n", flags_.key_size);
  std::printf("Values:     %d bytes each (%d bytes after compression)\n", flags_.value_size,
              static_cast<int>(flags_.value_size * flags_.compression_ratio + 0.5));
  std::printf("Entries:    %" PRId64 "\n", num);
  std::printf("Prefix:    %d bytes\n", flags_.prefix_size);
  std::printf("Keys per prefix:    %" PRId64 "\n", flags_.keys_per_prefix);
  std::printf("RawSize:    %.1f MB (estimated)\n",
              static_cast<double>(static_cast<int64_t>(flags_.key_size + flags_.value_size) * num) /
                  1048576.0);
  std::printf("FileSize:   %.1f MB (estimated)\n",
              ((flags_.key_size + flags_.value_size * flags_.compression_ratio) *
               static_cast<double>(num)) /
                  1048576.0);
  std::printf("Write rate: %" PRIu64 " bytes/second\n", flags_.benchmark_write_rate_limit);
  std::printf("Read rate: %" PRIu64 " ops/second\n", flags_.benchmark_read_rate_limit);
  std::printf("Compression: %s\n", compression_name);
  std::printf("Memtablerep: SkipListFactory\n");
  std::printf("Perf Level: %d\n", flags_.perf_level);
#if defined(__GNUC__) && !defined(__OPTIMIZE__)
  std::printf(
      "WARNING: Optimization is disabled: benchmarks unnecessarily "
      "slow\n");
#endif
#ifndef NDEBUG
  std::printf(
      "WARNING: Assertions are enabled; benchmarks unnecessarily "
      "slow\n");
#endif
  std::printf("------------------------------------------------\n");
  std::fflush(stdout);
}

std::string DefaultDbPath(const char* prefix) {
  std::string dir;
  if (const char* tmp = std::getenv("TEST_TMPDIR"); tmp != nullptr && *tmp) {
    dir = tmp;
  } else {
    dir = "/tmp/" + std::string(prefix) + "test-" + std::to_string(geteuid());
  }
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) Fail("cannot create %s: %s", dir.c_str(), ec.message().c_str());
  return dir + "/dbbench";
}

}  // namespace strata::bench
