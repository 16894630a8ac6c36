// db_bench_leveldb: db_bench's workloads on LevelDB (1.23, the Debian
// libleveldb-dev), through LevelDB's public API only, with RocksDB
// db_bench's flags, keys, values and report lines (tools/db_bench_common.h),
// so one command line runs the same work on Strata, LevelDB and RocksDB.
//
// Workloads (--benchmarks, comma-separated, run in order):
//   fillseq, fillbatch, fillrandom, fillsync  fresh database, then writes
//   overwrite                random writes into the existing database
//   readrandom, readmissing  random point reads, "(found of total found)"
//   readseq, readreverse     a full forward / backward scan
//   seekrandom               random Seek (+ --seek_nexts Next) per iterator
//   deleteseq, deleterandom  deletes
//   readwhilewriting         --threads readers and one uncounted writer
//   compact, compactall      CompactRange(nullptr, nullptr), timed as one op
//   flush                    the memtable to a table (LevelDB's CompactRange
//                            over the empty key range does exactly that)
//   waitforcompaction        returns once leveldb.stats shows no level over
//                            its compaction trigger and stops changing and
//                            no immutable memtable is held (LevelDB does
//                            not expose its background state, so this is
//                            approximate)
//   stats                    prints the "leveldb.stats" property
//
// Flag mapping: write_buffer_size, cache_size (block cache; <= 0: an 8 MiB
// cache, LevelDB's default, as LevelDB cannot run without one), block_size,
// compression_type (none or snappy only), bloom_bits (> 0: bloom filter),
// open_files (> 0), verify_checksum, sync; target_file_size_base sets
// max_file_size when given. LevelDB has no WAL switch: --disable_wal=1 is an
// error (exit code 2). Flags for features LevelDB lacks are accepted and
// ignored (its tree shape is fixed: 7 levels, L0 trigger 4, slowdown 8,
// stop 12, level 1 10 MiB, x10 per level, one background thread). With
// --statistics the end of the run prints the write amplification from the
// Write(MB) column of leveldb.stats.

#include <leveldb/cache.h>
#include <leveldb/db.h>
#include <leveldb/filter_policy.h>
#include <leveldb/iterator.h>
#include <leveldb/options.h>
#include <leveldb/write_batch.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "tools/db_bench_common.h"

namespace {

using strata::bench::BenchFlags;
using strata::bench::GetResult;

leveldb::Slice ToSlice(std::string_view s) { return leveldb::Slice(s.data(), s.size()); }

// The Engine of db_bench_common.h over leveldb::DB.
class LevelDBEngine {
 public:
  using Iterator = leveldb::Iterator;
  using Batch = leveldb::WriteBatch;

  static const char* Name() { return "LevelDB"; }
  static const char* PathPrefix() { return "leveldb"; }
  static const char* StatsProperty() { return "leveldb.stats"; }

  // REQUIRES: flags validated by Validate().
  explicit LevelDBEngine(const BenchFlags& flags) : flags_(flags) {
    options_.create_if_missing = true;
    options_.write_buffer_size = static_cast<size_t>(flags.write_buffer_size);
    if (flags.open_files > 0) options_.max_open_files = flags.open_files;
    // Our own cache even for cache_size <= 0 (LevelDB's default 8 MiB), so
    // WaitForCompaction can tell its usage from the memtables'.
    cache_.reset(leveldb::NewLRUCache(flags.cache_size > 0 ? static_cast<size_t>(flags.cache_size)
                                                           : size_t{8} << 20));
    options_.block_cache = cache_.get();
    if (flags.block_size > 0) {
      options_.block_size = static_cast<size_t>(flags.block_size);
    }
    if (flags.WasSet("target_file_size_base") && flags.target_file_size_base > 0) {
      options_.max_file_size = static_cast<size_t>(flags.target_file_size_base);
    }
    if (flags.bloom_bits > 0) {
      filter_.reset(leveldb::NewBloomFilterPolicy(flags.bloom_bits));
      options_.filter_policy = filter_.get();
    }
    options_.compression =
        flags.compression_type == "none" ? leveldb::kNoCompression : leveldb::kSnappyCompression;
    read_options_.verify_checksums = flags.verify_checksum;
  }

  // The flags LevelDB cannot honour; false with *error set.
  static bool Validate(const BenchFlags& flags, std::string* error) {
    // LevelDB has one compaction style and one compression for all levels.
    for (size_t i = 0; i < strata::bench::kNumCompactionStyleFlags; ++i) {
      const char* name = strata::bench::kCompactionStyleFlags[i];
      if (flags.WasSet(name)) {
        *error = std::string("--") + name + " is not supported by LevelDB";
        return false;
      }
    }
    if (flags.use_ribbon_filter) {
      *error = "--use_ribbon_filter is not supported by LevelDB (Bloom filters only)";
      return false;
    }
    for (const char* name :
         {"rate_limiter_bytes_per_sec", "rate_limiter_auto_tuned", "rate_limit_bg_reads",
          "bytes_per_sync", "wal_bytes_per_sync", "sst_file_manager_bytes_per_sec",
          "sst_file_manager_bytes_per_truncate"}) {
      if (flags.WasSet(name)) {
        *error = std::string("--") + name + " is not supported by LevelDB (no paced I/O)";
        return false;
      }
    }
    // Table layouts, file placement and memory accounting LevelDB lacks
    // (its index and filter blocks live in the table cache, never in the
    // block cache).
    for (const char* name :
         {"partition_index_and_filters", "partition_index", "metadata_block_size",
          "pin_top_level_index_and_filter", "pin_l0_filter_and_index_blocks_in_cache",
          "format_version", "use_direct_io_for_flush_and_compaction", "compaction_readahead_size",
          "wal_dir", "db_write_buffer_size", "cost_write_buffer_to_cache", "charge_table_reader",
          "charge_filter_construction", "charge_compression_dictionary_building_buffer",
          "charge_file_metadata", "memory_budget", "wal_compression"}) {
      if (flags.WasSet(name)) {
        *error = std::string("--") + name + " is not supported by LevelDB";
        return false;
      }
    }
    if (flags.cache_type != "lru_cache") {
      *error = "--cache_type=" + flags.cache_type + " is not supported by LevelDB (lru_cache only)";
      return false;
    }
    if (flags.cache_index_and_filter_blocks) {
      *error =
          "--cache_index_and_filter_blocks=1 is not supported by LevelDB (its index and filter "
          "blocks are held by the table cache)";
      return false;
    }
    if (flags.compact_for_space_amp) {
      *error = "--compact_for_space_amp is not supported by LevelDB (no table-size property)";
      return false;
    }
    if (flags.disable_wal) {
      *error =
          "--disable_wal=1 is not supported by LevelDB (it has no WAL "
          "switch)";
      return false;
    }
    if (flags.perf_level != 1) {
      *error = "--perf_level=" + std::to_string(flags.perf_level) +
               " is not supported by LevelDB (it has no PerfContext)";
      return false;
    }
    if (flags.compression_type != "none" && flags.compression_type != "snappy") {
      *error = "--compression_type=" + flags.compression_type +
               " is not supported by LevelDB (none or snappy)";
      return false;
    }
    return true;
  }

  std::string Version() const {
    return std::to_string(leveldb::kMajorVersion) + "." + std::to_string(leveldb::kMinorVersion);
  }
  const char* CompressionName() const {
    return options_.compression == leveldb::kNoCompression ? "NoCompression" : "Snappy";
  }

  bool Open(std::string* error) {
    leveldb::DB* db = nullptr;
    leveldb::Status s = leveldb::DB::Open(options_, flags_.db, &db);
    if (!s.ok()) {
      *error = s.ToString();
      return false;
    }
    db_.reset(db);
    return true;
  }
  void Close() { db_.reset(); }
  bool Destroy(std::string* error) {
    leveldb::Status s = leveldb::DestroyDB(flags_.db, options_);
    if (!s.ok()) {
      *error = s.ToString();
      return false;
    }
    return true;
  }

  void SetWriteOptions(bool sync, bool /*disable_wal*/) { write_options_.sync = sync; }

  void BatchClear(Batch* batch) { batch->Clear(); }
  void BatchPut(Batch* batch, std::string_view key, std::string_view value) {
    batch->Put(ToSlice(key), ToSlice(value));
  }
  void BatchDelete(Batch* batch, std::string_view key) { batch->Delete(ToSlice(key)); }
  bool Write(Batch* batch, std::string* error) {
    leveldb::Status s = db_->Write(write_options_, batch);
    if (!s.ok()) *error = s.ToString();
    return s.ok();
  }
  bool Put(std::string_view key, std::string_view value, std::string* error) {
    leveldb::Status s = db_->Put(write_options_, ToSlice(key), ToSlice(value));
    if (!s.ok()) *error = s.ToString();
    return s.ok();
  }
  GetResult Get(std::string_view key, std::string* value, std::string* error) {
    leveldb::Status s = db_->Get(read_options_, ToSlice(key), value);
    if (s.ok()) return GetResult::kFound;
    if (s.IsNotFound()) return GetResult::kNotFound;
    *error = s.ToString();
    return GetResult::kError;
  }

  std::unique_ptr<Iterator> NewIterator() {
    return std::unique_ptr<Iterator>(db_->NewIterator(read_options_));
  }
  static void Seek(Iterator* it, std::string_view target) { it->Seek(ToSlice(target)); }
  static std::string_view Key(const Iterator* it) {
    const leveldb::Slice k = it->key();
    return std::string_view(k.data(), k.size());
  }
  static std::string_view Value(const Iterator* it) {
    const leveldb::Slice v = it->value();
    return std::string_view(v.data(), v.size());
  }
  static bool IterOk(const Iterator* it, std::string* error) {
    leveldb::Status s = it->status();
    if (!s.ok()) *error = s.ToString();
    return s.ok();
  }

  bool GetProperty(const char* name, std::string* value) { return db_->GetProperty(name, value); }
  std::string StatisticsString() { return ""; }
  void SetThreadPerfLevel(int /*level*/) {}
  std::string ThreadPerfContextString() { return ""; }

  bool CompactAll(std::string* /*error*/) {
    db_->CompactRange(nullptr, nullptr);
    return true;
  }
  bool Flush(std::string* /*error*/) {
    // CompactRange first writes the memtable out; the range [,] overlaps no
    // table, so nothing else is compacted.
    const leveldb::Slice empty;
    db_->CompactRange(&empty, &empty);
    return true;
  }
  bool WaitForCompaction(std::string* error) {
    // Idle: no level over its trigger, no immutable memtable waiting to be
    // flushed, and the stats unchanged over one poll. An immutable memtable
    // shows as memtable memory past write_buffer_size (the active one is
    // switched out once it passes it); 1 MiB of slack keeps a last write
    // that overshot from looking like one. Gives up after 10 minutes.
    std::string previous;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(10);
    while (std::chrono::steady_clock::now() < deadline) {
      std::string stats;
      std::string memory;
      if (!db_->GetProperty("leveldb.stats", &stats) ||
          stats.find("Size(MB)") == std::string::npos ||
          !db_->GetProperty("leveldb.approximate-memory-usage", &memory)) {
        *error = "leveldb.stats or leveldb.approximate-memory-usage is missing";
        return false;
      }
      const double memtables =
          std::strtod(memory.c_str(), nullptr) - static_cast<double>(cache_->TotalCharge());
      const bool flush_pending =
          memtables > static_cast<double>(options_.write_buffer_size) + 1048576.0;
      if (stats == previous && !flush_pending && !NeedsCompaction(stats)) return true;
      previous = std::move(stats);
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    std::fprintf(stderr, "WARNING: waitforcompaction gave up after 10 minutes\n");
    return true;
  }
  bool FlushCompactionBytes(uint64_t* bytes) {
    // Sum of the Write(MB) column (memtable flushes are counted at level 0).
    std::string stats;
    if (!db_->GetProperty("leveldb.stats", &stats)) return false;
    double mb = 0;
    if (!ForEachLevelRow(stats, "Write(MB)", [&](int /*level*/, double v) { mb += v; })) {
      return false;
    }
    *bytes = static_cast<uint64_t>(mb * 1048576.0 + 0.5);
    return true;
  }

 private:
  // Calls fn(level, value of column `name`) for each level row of a
  // leveldb.stats table (LevelDB lists only levels that hold or wrote
  // something); false if the table has no such column.
  template <class Fn>
  static bool ForEachLevelRow(const std::string& stats, const char* name, Fn fn) {
    std::istringstream in(stats);
    std::string line;
    int column = -1;
    while (std::getline(in, line)) {
      std::istringstream words(line);
      std::vector<std::string> w;
      for (std::string x; words >> x;) w.push_back(x);
      if (w.empty()) continue;
      if (w[0] == "Level") {
        for (size_t i = 0; i < w.size(); ++i) {
          if (w[i] == name) column = static_cast<int>(i);
        }
      } else if (column >= 0 && w[0][0] >= '0' && w[0][0] <= '9' &&
                 static_cast<size_t>(column) < w.size()) {
        fn(std::atoi(w[0].c_str()), std::strtod(w[column].c_str(), nullptr));
      }
    }
    return column >= 0;
  }
  // LevelDB's size-triggered compaction rule: 4+ files at level 0, or level
  // L >= 1 over 10^L MiB (sizes are printed rounded to 1 MiB; at the
  // boundary this errs towards "done" rather than waiting forever).
  static bool NeedsCompaction(const std::string& stats) {
    bool needed = false;
    ForEachLevelRow(stats, "Files", [&](int level, double files) {
      if (level == 0 && files >= 4) needed = true;
    });
    ForEachLevelRow(stats, "Size(MB)", [&](int level, double mb) {
      if (level >= 1 && level < 6 && mb > std::pow(10.0, level)) needed = true;
    });
    return needed;
  }

  const BenchFlags& flags_;
  leveldb::Options options_;
  leveldb::ReadOptions read_options_;
  leveldb::WriteOptions write_options_;
  std::unique_ptr<leveldb::Cache> cache_;
  std::unique_ptr<const leveldb::FilterPolicy> filter_;
  std::unique_ptr<leveldb::DB> db_;  // destroyed before cache_ and filter_
};

}  // namespace

int main(int argc, char** argv) {
  BenchFlags flags;
  std::string error;
  if (!flags.Parse(argc, argv, &error)) {
    std::fprintf(stderr, "ERROR: %s\n", error.c_str());
    return 1;
  }
  strata::bench::Compression compression;
  if (!strata::bench::ParseCompression(flags.compression_type, &compression)) {
    std::fprintf(stderr, "Cannot parse compression type '%s'\n", flags.compression_type.c_str());
    return 1;
  }
  if (!LevelDBEngine::Validate(flags, &error)) {
    std::fprintf(stderr, "ERROR: %s\n", error.c_str());
    return 2;
  }
  if (flags.db.empty()) {
    flags.db = strata::bench::DefaultDbPath(LevelDBEngine::PathPrefix());
  }
  LevelDBEngine engine(flags);
  strata::bench::Benchmark<LevelDBEngine> bench(flags, &engine);
  return bench.Run();
}
