// Statistics: process-wide counters ("tickers") and value histograms a DB
// updates when Options::statistics is set (CreateDBStatistics()).
//
// The enumerators are RocksDB 7.8.3's, in RocksDB's order, so their numeric
// values equal RocksDB's (the C API passes them as numbers), and their
// printed names are RocksDB's ("rocksdb.block.cache.miss"). New RocksDB
// enumerators are only ever appended before the *_ENUM_MAX markers.
//
// Enumerators that stay 0 (as RocksDB's do for a feature not in use):
//  - features Strata does not have: PERSISTENT_CACHE_*, SIM_BLOCK_CACHE_*,
//    BLOCK_CACHE_COMPRESSED_*, BLOCK_CACHE_COMPRESSION_DICT_*,
//    BLOCK_CACHE_*ADD_REDUNDANT, ROW_CACHE_*, SECONDARY_CACHE_HITS,
//    READ_AMP_*, RATE_LIMIT_DELAY_MILLIS, NUMBER_RATE_LIMITER_DRAINS,
//    BLOB_DB_* (tickers and histograms), TXN_*, BACKUP_*, REMOTE_COMPACT_*,
//    {HOT,WARM,COLD}_FILE_READ_*, GET_UPDATES_SINCE_CALLS, WRITE_TIMEDOUT,
//    NUMBER_KEYS_UPDATED (in-place updates), NUMBER_FILTERED_DELETES,
//    NUMBER_OF_RESEEKS_IN_ITERATION, COMPACTION_CANCELLED,
//    COMPACT_{READ,WRITE}_BYTES_{MARKED,PERIODIC,TTL},
//    NUMBER_DIRECT_LOAD_TABLE_PROPERTIES, FILES_MARKED_TRASH,
//    MULTIGET_COROUTINE_COUNT, READ_ASYNC_MICROS, ASYNC_READ_ERROR_COUNT,
//    ASYNC_READ_BYTES, POLL_WAIT_MICROS, PREFETCHED_BYTES_DISCARDED,
//    ASYNC_PREFETCH_ABORT_MICROS, MULTIGET_IO_BATCH_SIZE;
//  - deprecated by RocksDB itself (0 there too): BLOOM_FILTER_MICROS,
//    BLOCK_CACHE_{INDEX,FILTER}_BYTES_EVICT, NO_FILE_CLOSES, NO_ITERATORS,
//    STALL_L0_SLOWDOWN_MICROS, STALL_MEMTABLE_COMPACTION_MICROS,
//    STALL_L0_NUM_FILES_MICROS, the STALL_*_COUNT and
//    {HARD,SOFT}_RATE_LIMIT_DELAY_COUNT histograms,
//    NUM_DATA_BLOCKS_READ_PER_LEVEL;
//  - not recorded yet although the feature exists:
//    COMPACTION_RANGE_DEL_DROP_OBSOLETE, COMPACTION_OPTIMIZED_DEL_DROP_OBSOLETE,
//    NUMBER_SUPERVERSION_CLEANUPS, FILTER_OPERATION_TOTAL_TIME,
//    MEMTABLE_{PAYLOAD,GARBAGE}_BYTES_AT_FLUSH, {NON_,}LAST_LEVEL_READ_*,
//    COMPACTION_CPU_TIME (SystemClock has no thread CPU clock),
//    SUBCOMPACTION_SETUP_TIME, SST_BATCH_SIZE,
//    NUM_INDEX_AND_FILTER_BLOCKS_READ_PER_LEVEL, NUM_SST_READ_PER_LEVEL,
//    NUM_LEVEL_READ_PER_MULTIGET.
// docs/design/statistics.md says where every other one is recorded.
//
// Thread-safety: thread-safe. Recording is a relaxed atomic add (tickers) or
// an uncontended per-CPU lock (histograms).
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "strata/export.h"
#include "strata/status.h"

namespace strata {

// Never renumber: the values are RocksDB's and cross the C API as numbers.
enum Tickers : uint32_t {
  BLOCK_CACHE_MISS = 0,
  BLOCK_CACHE_HIT,
  BLOCK_CACHE_ADD,
  BLOCK_CACHE_ADD_FAILURES,
  BLOCK_CACHE_INDEX_MISS,
  BLOCK_CACHE_INDEX_HIT,
  BLOCK_CACHE_INDEX_ADD,
  BLOCK_CACHE_INDEX_BYTES_INSERT,
  BLOCK_CACHE_INDEX_BYTES_EVICT,
  BLOCK_CACHE_FILTER_MISS,
  BLOCK_CACHE_FILTER_HIT,
  BLOCK_CACHE_FILTER_ADD,
  BLOCK_CACHE_FILTER_BYTES_INSERT,
  BLOCK_CACHE_FILTER_BYTES_EVICT,
  BLOCK_CACHE_DATA_MISS,
  BLOCK_CACHE_DATA_HIT,
  BLOCK_CACHE_DATA_ADD,
  BLOCK_CACHE_DATA_BYTES_INSERT,
  BLOCK_CACHE_BYTES_READ,
  BLOCK_CACHE_BYTES_WRITE,
  BLOOM_FILTER_USEFUL,
  BLOOM_FILTER_FULL_POSITIVE,
  BLOOM_FILTER_FULL_TRUE_POSITIVE,
  BLOOM_FILTER_MICROS,
  PERSISTENT_CACHE_HIT,
  PERSISTENT_CACHE_MISS,
  SIM_BLOCK_CACHE_HIT,
  SIM_BLOCK_CACHE_MISS,
  MEMTABLE_HIT,
  MEMTABLE_MISS,
  GET_HIT_L0,
  GET_HIT_L1,
  GET_HIT_L2_AND_UP,
  COMPACTION_KEY_DROP_NEWER_ENTRY,
  COMPACTION_KEY_DROP_OBSOLETE,
  COMPACTION_KEY_DROP_RANGE_DEL,
  COMPACTION_KEY_DROP_USER,
  COMPACTION_RANGE_DEL_DROP_OBSOLETE,
  COMPACTION_OPTIMIZED_DEL_DROP_OBSOLETE,
  COMPACTION_CANCELLED,
  NUMBER_KEYS_WRITTEN,
  NUMBER_KEYS_READ,
  NUMBER_KEYS_UPDATED,
  BYTES_WRITTEN,
  BYTES_READ,
  NUMBER_DB_SEEK,
  NUMBER_DB_NEXT,
  NUMBER_DB_PREV,
  NUMBER_DB_SEEK_FOUND,
  NUMBER_DB_NEXT_FOUND,
  NUMBER_DB_PREV_FOUND,
  ITER_BYTES_READ,
  NO_FILE_CLOSES,
  NO_FILE_OPENS,
  NO_FILE_ERRORS,
  STALL_L0_SLOWDOWN_MICROS,
  STALL_MEMTABLE_COMPACTION_MICROS,
  STALL_L0_NUM_FILES_MICROS,
  STALL_MICROS,
  DB_MUTEX_WAIT_MICROS,
  RATE_LIMIT_DELAY_MILLIS,
  NO_ITERATORS,
  NUMBER_MULTIGET_CALLS,
  NUMBER_MULTIGET_KEYS_READ,
  NUMBER_MULTIGET_BYTES_READ,
  NUMBER_FILTERED_DELETES,
  NUMBER_MERGE_FAILURES,
  BLOOM_FILTER_PREFIX_CHECKED,
  BLOOM_FILTER_PREFIX_USEFUL,
  NUMBER_OF_RESEEKS_IN_ITERATION,
  GET_UPDATES_SINCE_CALLS,
  BLOCK_CACHE_COMPRESSED_MISS,
  BLOCK_CACHE_COMPRESSED_HIT,
  BLOCK_CACHE_COMPRESSED_ADD,
  BLOCK_CACHE_COMPRESSED_ADD_FAILURES,
  WAL_FILE_SYNCED,
  WAL_FILE_BYTES,
  WRITE_DONE_BY_SELF,
  WRITE_DONE_BY_OTHER,
  WRITE_TIMEDOUT,
  WRITE_WITH_WAL,
  COMPACT_READ_BYTES,
  COMPACT_WRITE_BYTES,
  FLUSH_WRITE_BYTES,
  COMPACT_READ_BYTES_MARKED,
  COMPACT_READ_BYTES_PERIODIC,
  COMPACT_READ_BYTES_TTL,
  COMPACT_WRITE_BYTES_MARKED,
  COMPACT_WRITE_BYTES_PERIODIC,
  COMPACT_WRITE_BYTES_TTL,
  NUMBER_DIRECT_LOAD_TABLE_PROPERTIES,
  NUMBER_SUPERVERSION_ACQUIRES,
  NUMBER_SUPERVERSION_RELEASES,
  NUMBER_SUPERVERSION_CLEANUPS,
  NUMBER_BLOCK_COMPRESSED,
  NUMBER_BLOCK_DECOMPRESSED,
  NUMBER_BLOCK_NOT_COMPRESSED,
  MERGE_OPERATION_TOTAL_TIME,
  FILTER_OPERATION_TOTAL_TIME,
  ROW_CACHE_HIT,
  ROW_CACHE_MISS,
  READ_AMP_ESTIMATE_USEFUL_BYTES,
  READ_AMP_TOTAL_READ_BYTES,
  NUMBER_RATE_LIMITER_DRAINS,
  NUMBER_ITER_SKIP,
  BLOB_DB_NUM_PUT,
  BLOB_DB_NUM_WRITE,
  BLOB_DB_NUM_GET,
  BLOB_DB_NUM_MULTIGET,
  BLOB_DB_NUM_SEEK,
  BLOB_DB_NUM_NEXT,
  BLOB_DB_NUM_PREV,
  BLOB_DB_NUM_KEYS_WRITTEN,
  BLOB_DB_NUM_KEYS_READ,
  BLOB_DB_BYTES_WRITTEN,
  BLOB_DB_BYTES_READ,
  BLOB_DB_WRITE_INLINED,
  BLOB_DB_WRITE_INLINED_TTL,
  BLOB_DB_WRITE_BLOB,
  BLOB_DB_WRITE_BLOB_TTL,
  BLOB_DB_BLOB_FILE_BYTES_WRITTEN,
  BLOB_DB_BLOB_FILE_BYTES_READ,
  BLOB_DB_BLOB_FILE_SYNCED,
  BLOB_DB_BLOB_INDEX_EXPIRED_COUNT,
  BLOB_DB_BLOB_INDEX_EXPIRED_SIZE,
  BLOB_DB_BLOB_INDEX_EVICTED_COUNT,
  BLOB_DB_BLOB_INDEX_EVICTED_SIZE,
  BLOB_DB_GC_NUM_FILES,
  BLOB_DB_GC_NUM_NEW_FILES,
  BLOB_DB_GC_FAILURES,
  BLOB_DB_GC_NUM_KEYS_OVERWRITTEN,
  BLOB_DB_GC_NUM_KEYS_EXPIRED,
  BLOB_DB_GC_NUM_KEYS_RELOCATED,
  BLOB_DB_GC_BYTES_OVERWRITTEN,
  BLOB_DB_GC_BYTES_EXPIRED,
  BLOB_DB_GC_BYTES_RELOCATED,
  BLOB_DB_FIFO_NUM_FILES_EVICTED,
  BLOB_DB_FIFO_NUM_KEYS_EVICTED,
  BLOB_DB_FIFO_BYTES_EVICTED,
  TXN_PREPARE_MUTEX_OVERHEAD,
  TXN_OLD_COMMIT_MAP_MUTEX_OVERHEAD,
  TXN_DUPLICATE_KEY_OVERHEAD,
  TXN_SNAPSHOT_MUTEX_OVERHEAD,
  TXN_GET_TRY_AGAIN,
  NUMBER_MULTIGET_KEYS_FOUND,
  NO_ITERATOR_CREATED,
  NO_ITERATOR_DELETED,
  BLOCK_CACHE_COMPRESSION_DICT_MISS,
  BLOCK_CACHE_COMPRESSION_DICT_HIT,
  BLOCK_CACHE_COMPRESSION_DICT_ADD,
  BLOCK_CACHE_COMPRESSION_DICT_BYTES_INSERT,
  BLOCK_CACHE_COMPRESSION_DICT_BYTES_EVICT,
  BLOCK_CACHE_ADD_REDUNDANT,
  BLOCK_CACHE_INDEX_ADD_REDUNDANT,
  BLOCK_CACHE_FILTER_ADD_REDUNDANT,
  BLOCK_CACHE_DATA_ADD_REDUNDANT,
  BLOCK_CACHE_COMPRESSION_DICT_ADD_REDUNDANT,
  FILES_MARKED_TRASH,
  FILES_DELETED_IMMEDIATELY,
  ERROR_HANDLER_BG_ERROR_COUNT,
  ERROR_HANDLER_BG_IO_ERROR_COUNT,
  ERROR_HANDLER_BG_RETRYABLE_IO_ERROR_COUNT,
  ERROR_HANDLER_AUTORESUME_COUNT,
  ERROR_HANDLER_AUTORESUME_RETRY_TOTAL_COUNT,
  ERROR_HANDLER_AUTORESUME_SUCCESS_COUNT,
  MEMTABLE_PAYLOAD_BYTES_AT_FLUSH,
  MEMTABLE_GARBAGE_BYTES_AT_FLUSH,
  SECONDARY_CACHE_HITS,
  VERIFY_CHECKSUM_READ_BYTES,
  BACKUP_READ_BYTES,
  BACKUP_WRITE_BYTES,
  REMOTE_COMPACT_READ_BYTES,
  REMOTE_COMPACT_WRITE_BYTES,
  HOT_FILE_READ_BYTES,
  WARM_FILE_READ_BYTES,
  COLD_FILE_READ_BYTES,
  HOT_FILE_READ_COUNT,
  WARM_FILE_READ_COUNT,
  COLD_FILE_READ_COUNT,
  LAST_LEVEL_READ_BYTES,
  LAST_LEVEL_READ_COUNT,
  NON_LAST_LEVEL_READ_BYTES,
  NON_LAST_LEVEL_READ_COUNT,
  BLOCK_CHECKSUM_COMPUTE_COUNT,
  MULTIGET_COROUTINE_COUNT,
  BLOB_DB_CACHE_MISS,
  BLOB_DB_CACHE_HIT,
  BLOB_DB_CACHE_ADD,
  BLOB_DB_CACHE_ADD_FAILURES,
  BLOB_DB_CACHE_BYTES_READ,
  BLOB_DB_CACHE_BYTES_WRITE,
  READ_ASYNC_MICROS,
  ASYNC_READ_ERROR_COUNT,
  TICKER_ENUM_MAX
};

// Never renumber (as Tickers).
enum Histograms : uint32_t {
  DB_GET = 0,
  DB_WRITE,
  COMPACTION_TIME,
  COMPACTION_CPU_TIME,
  SUBCOMPACTION_SETUP_TIME,
  TABLE_SYNC_MICROS,
  COMPACTION_OUTFILE_SYNC_MICROS,
  WAL_FILE_SYNC_MICROS,
  MANIFEST_FILE_SYNC_MICROS,
  TABLE_OPEN_IO_MICROS,
  DB_MULTIGET,
  READ_BLOCK_COMPACTION_MICROS,
  READ_BLOCK_GET_MICROS,
  WRITE_RAW_BLOCK_MICROS,
  STALL_L0_SLOWDOWN_COUNT,
  STALL_MEMTABLE_COMPACTION_COUNT,
  STALL_L0_NUM_FILES_COUNT,
  HARD_RATE_LIMIT_DELAY_COUNT,
  SOFT_RATE_LIMIT_DELAY_COUNT,
  NUM_FILES_IN_SINGLE_COMPACTION,
  DB_SEEK,
  WRITE_STALL,
  SST_READ_MICROS,
  NUM_SUBCOMPACTIONS_SCHEDULED,
  BYTES_PER_READ,
  BYTES_PER_WRITE,
  BYTES_PER_MULTIGET,
  BYTES_COMPRESSED,
  BYTES_DECOMPRESSED,
  COMPRESSION_TIMES_NANOS,
  DECOMPRESSION_TIMES_NANOS,
  READ_NUM_MERGE_OPERANDS,
  BLOB_DB_KEY_SIZE,
  BLOB_DB_VALUE_SIZE,
  BLOB_DB_WRITE_MICROS,
  BLOB_DB_GET_MICROS,
  BLOB_DB_MULTIGET_MICROS,
  BLOB_DB_SEEK_MICROS,
  BLOB_DB_NEXT_MICROS,
  BLOB_DB_PREV_MICROS,
  BLOB_DB_BLOB_FILE_WRITE_MICROS,
  BLOB_DB_BLOB_FILE_READ_MICROS,
  BLOB_DB_BLOB_FILE_SYNC_MICROS,
  BLOB_DB_GC_MICROS,
  BLOB_DB_COMPRESSION_MICROS,
  BLOB_DB_DECOMPRESSION_MICROS,
  FLUSH_TIME,
  SST_BATCH_SIZE,
  NUM_INDEX_AND_FILTER_BLOCKS_READ_PER_LEVEL,
  NUM_DATA_BLOCKS_READ_PER_LEVEL,
  NUM_SST_READ_PER_LEVEL,
  ERROR_HANDLER_AUTORESUME_RETRY_COUNT,
  ASYNC_READ_BYTES,
  POLL_WAIT_MICROS,
  PREFETCHED_BYTES_DISCARDED,
  MULTIGET_IO_BATCH_SIZE,
  NUM_LEVEL_READ_PER_MULTIGET,
  ASYNC_PREFETCH_ABORT_MICROS,
  HISTOGRAM_ENUM_MAX
};

static_assert(TICKER_ENUM_MAX == 193, "Tickers must match RocksDB 7.8.3");
static_assert(HISTOGRAM_ENUM_MAX == 58, "Histograms must match RocksDB 7.8.3");

// RocksDB's name of a ticker or histogram ("rocksdb.block.cache.miss");
// an out-of-range value gives "rocksdb.unknown". The result is static.
STRATA_EXPORT const char* TickerName(uint32_t ticker);
STRATA_EXPORT const char* HistogramName(uint32_t histogram);

struct STRATA_EXPORT HistogramData {
  double median = 0;
  double percentile95 = 0;
  double percentile99 = 0;
  double average = 0;
  double standard_deviation = 0;
  double max = 0;
  uint64_t count = 0;
  uint64_t sum = 0;
  double min = 0;
};

// How much a Statistics records (RocksDB's values and meaning). Each level
// records everything the levels below it do.
enum StatsLevel : uint8_t {
  kDisableAll,                   // nothing
  kExceptTickers = kDisableAll,  // (no tickers either)
  kExceptHistogramOrTimers,      // tickers only
  kExceptTimers,                 // tickers and value histograms, no clock reads
  kExceptDetailedTimers,         // plus timers, but not compression/mutex time
  kExceptTimeForMutex,           // plus compression and decompression time
  kAll,                          // plus DB mutex wait time
};

struct ConfigOptions;  // strata/convenience.h

class STRATA_EXPORT Statistics {
 public:
  virtual ~Statistics() = default;

  // The registry type name (RocksDB's Customizable::Type).
  static const char* Type() { return "Statistics"; }
  // RocksDB's answers: "" or "BasicStatistics" make a new CreateDBStatistics();
  // "nullptr" resets *result; any other id is NotSupported ("Could not load
  // Statistics: <id>"), or OK leaving *result unchanged when
  // config_options.ignore_unsupported_options is set.
  static Status CreateFromString(const ConfigOptions& config_options, const std::string& id,
                                 std::shared_ptr<Statistics>* result);
  // The implementation's name: "BasicStatistics" for CreateDBStatistics()'s,
  // "" by default (RocksDB's).
  virtual const char* Name() const { return ""; }
  // RocksDB's Customizable serialization: "{<prefix>id=BasicStatistics;
  // inner=nullptr;}" for CreateDBStatistics()'s (delimiter from
  // config_options), Name() for others.
  std::string ToString(const ConfigOptions& config_options) const;
  std::string ToString(const ConfigOptions& config_options, const std::string& prefix) const;

  virtual uint64_t getTickerCount(uint32_t ticker) const = 0;
  virtual void histogramData(uint32_t histogram, HistogramData* const data) const = 0;
  // The histogram's multi-line report (count, average, percentiles, buckets).
  virtual std::string getHistogramString(uint32_t histogram) const = 0;
  // Adds count to the ticker unless the level is kDisableAll. (RocksDB's
  // default count is 0, which makes the one-argument call a no-op; ours is 1.)
  virtual void recordTick(uint32_t ticker, uint64_t count = 1) = 0;
  virtual void setTickerCount(uint32_t ticker, uint64_t count) = 0;
  // The ticker's value, leaving it 0.
  virtual uint64_t getAndResetTickerCount(uint32_t ticker) = 0;
  // Adds a value (a size or a count) unless the level is below kExceptTimers.
  virtual void recordInHistogram(uint32_t histogram, uint64_t value) = 0;
  // Adds a duration unless the level is below kExceptDetailedTimers.
  virtual void reportTimeToHistogram(uint32_t histogram, uint64_t time) {
    if (get_stats_level() <= kExceptTimers) return;
    recordInHistogram(histogram, time);
  }
  // The old name of recordInHistogram.
  void measureTime(uint32_t histogram, uint64_t value) { recordInHistogram(histogram, value); }
  // Zeroes every ticker and histogram.
  virtual Status Reset() = 0;
  // Every ticker ("rocksdb.x COUNT : N") and then every histogram
  // ("rocksdb.x P50 : a P95 : b P99 : c P100 : d COUNT : n SUM : s"), one per
  // line, in enum order: RocksDB's format.
  virtual std::string ToString() const = 0;
  // Fills *map with name -> value for every ticker; false if unsupported.
  virtual bool getTickerMap(std::map<std::string, uint64_t>* map) const = 0;
  virtual bool HistEnabledForType(uint32_t histogram) const {
    return histogram < HISTOGRAM_ENUM_MAX;
  }

  // Default kExceptDetailedTimers (RocksDB's). Takes effect for recordings
  // that start after the call.
  void set_stats_level(StatsLevel level) {
    // Relaxed: a setting, not a publication of other data.
    stats_level_.store(level, std::memory_order_relaxed);
  }
  StatsLevel get_stats_level() const { return stats_level_.load(std::memory_order_relaxed); }

 private:
  std::atomic<StatsLevel> stats_level_{kExceptDetailedTimers};
};

// A new, empty Statistics; share it between DBs by sharing the pointer.
STRATA_EXPORT std::shared_ptr<Statistics> CreateDBStatistics();

}  // namespace strata
