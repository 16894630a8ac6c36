// rocksdb/options.h: RocksDB 7.8.3's option structs with RocksDB's field
// names and defaults. They are plain data; DB::Open converts them to
// Strata's options (compat/options_convert.cc) field by field. Each field
// is converted, or marked here as advisory (a tuning knob with no effect on
// results, accepted and unused), or refused: set to anything but its
// default, Open returns InvalidArgument naming it. Per-call options
// (ReadOptions, WriteOptions, ...) are converted the same way on each call.
// Thread-safety: plain data.
#pragma once

#include <atomic>
#include <chrono>
#include <climits>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "rocksdb/advanced_options.h"
#include "rocksdb/comparator.h"
#include "rocksdb/compression_type.h"
#include "rocksdb/customizable.h"
#include "rocksdb/data_structure.h"
#include "rocksdb/env.h"
#include "rocksdb/file_checksum.h"
#include "rocksdb/metadata.h"
#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/slice.h"
#include "rocksdb/statistics.h"
#include "rocksdb/types.h"
#include "strata/options.h"

namespace strata {
struct TableProperties;
class RateLimiter;
class WriteBufferManager;
class CompactionFilter;
class CompactionFilterFactory;
class MergeOperator;
class SliceTransform;
class Snapshot;
class ConcurrentTaskLimiter;
class WalFilter;  // rocksdb/wal_filter.h
}  // namespace strata

namespace rocksdb {
class EventListener;  // rocksdb/listener.h
using RateLimiter = ::strata::RateLimiter;
class SstFileManager;  // rocksdb/sst_file_manager.h
using WriteBufferManager = ::strata::WriteBufferManager;
using CompactionFilter = ::strata::CompactionFilter;
using CompactionFilterFactory = ::strata::CompactionFilterFactory;
using MergeOperator = ::strata::MergeOperator;
using SliceTransform = ::strata::SliceTransform;
using Snapshot = ::strata::Snapshot;
using TableProperties = ::strata::TableProperties;

class TableFactory;                     // rocksdb/table.h
using WalFilter = ::strata::WalFilter;  // rocksdb/wal_filter.h
class CompactionService;
class SstPartitionerFactory;
using ConcurrentTaskLimiter = ::strata::ConcurrentTaskLimiter;
class InternalKeyComparator;  // RocksDB-internal; named only

// DBOptions::checksum_handoff_file_types.
using FileTypeSet = SmallEnumSet<FileType, FileType::kBlobFile>;

enum class WALRecoveryMode : char {
  kTolerateCorruptedTailRecords = 0x00,
  kAbsoluteConsistency = 0x01,
  kPointInTimeRecovery = 0x02,
  kSkipAnyCorruptedRecords = 0x03,
};

struct DbPath {
  std::string path;
  uint64_t target_size = 0;
  DbPath() = default;
  DbPath(const std::string& p, uint64_t t) : path(p), target_size(t) {}
};

struct Options;

struct ColumnFamilyOptions : public AdvancedColumnFamilyOptions {
  ColumnFamilyOptions();
  explicit ColumnFamilyOptions(const Options& options);

  // Sets the fields whose default changed since RocksDB <major>.<minor> back
  // to that release's defaults (RocksDB's list: compaction_pri before 5.19,
  // the sizes and pending-compaction limits before 4.7,
  // level0_stop_writes_trigger before 5.2). Strata accepts every value set.
  ColumnFamilyOptions* OldDefaults(int rocksdb_major_version = 4, int rocksdb_minor_version = 6);
  // Writes the options, one "Options.<name>: <value>" line each, to log at
  // HEADER_LEVEL (null log: nothing).
  void Dump(Logger* log) const;

  // Tuning presets, as RocksDB's: they set fields of this struct only.
  ColumnFamilyOptions* OptimizeForSmallDb(std::shared_ptr<Cache>* cache = nullptr);
  ColumnFamilyOptions* OptimizeForPointLookup(uint64_t block_cache_size_mb);
  ColumnFamilyOptions* OptimizeLevelStyleCompaction(uint64_t memtable_memory_budget = 512 * 1024 *
                                                                                      1024);
  ColumnFamilyOptions* OptimizeUniversalStyleCompaction(uint64_t memtable_memory_budget = 512 *
                                                                                          1024 *
                                                                                          1024);

  const Comparator* comparator = BytewiseComparator();
  std::shared_ptr<MergeOperator> merge_operator = nullptr;
  const CompactionFilter* compaction_filter = nullptr;
  std::shared_ptr<CompactionFilterFactory> compaction_filter_factory = nullptr;
  size_t write_buffer_size = 64 << 20;
  CompressionType compression = kSnappyCompression;
  CompressionType bottommost_compression = kDisableCompressionOption;
  CompressionOptions bottommost_compression_opts;
  CompressionOptions compression_opts;
  int level0_file_num_compaction_trigger = 4;
  std::shared_ptr<const SliceTransform> prefix_extractor = nullptr;
  uint64_t max_bytes_for_level_base = 256 * 1048576;
  uint64_t snap_refresh_nanos = 0;  // advisory (deprecated in RocksDB)
  bool disable_auto_compactions = false;
  std::shared_ptr<TableFactory> table_factory;  // null: block-based defaults
  std::vector<DbPath> cf_paths;
  std::shared_ptr<ConcurrentTaskLimiter> compaction_thread_limiter = nullptr;
  std::shared_ptr<SstPartitionerFactory> sst_partitioner_factory = nullptr;
};

enum class WalFilterDecision { kContinue };
enum AccessHint { NONE, NORMAL, SEQUENTIAL, WILLNEED };
enum class CacheTier : uint8_t { kVolatileTier = 0, kNonVolatileBlockTier = 0x01 };

// RocksDB 7.8.3's remote compaction hook (DBOptions::compaction_service).
// Strata has no remote compaction: Open refuses a non-null service (see
// DBOptions::compaction_service); the class exists so a program's service
// compiles.
enum class CompactionServiceJobStatus : char {
  kSuccess,
  kFailure,
  kUseLocal,
};

struct CompactionServiceJobInfo {
  std::string db_name;
  std::string db_id;
  std::string db_session_id;
  uint64_t job_id;  // unique within one DB session
  Env::Priority priority;

  CompactionServiceJobInfo(std::string db_name_, std::string db_id_, std::string db_session_id_,
                           uint64_t job_id_, Env::Priority priority_)
      : db_name(std::move(db_name_)),
        db_id(std::move(db_id_)),
        db_session_id(std::move(db_session_id_)),
        job_id(job_id_),
        priority(priority_) {}
};

class CompactionService : public Customizable {
 public:
  static const char* Type() { return "CompactionService"; }
  const char* Name() const override = 0;
  // Both answer kUseLocal unless overridden (RocksDB's defaults).
  virtual CompactionServiceJobStatus StartV2(const CompactionServiceJobInfo& /*info*/,
                                             const std::string& /*compaction_service_input*/) {
    return CompactionServiceJobStatus::kUseLocal;
  }
  virtual CompactionServiceJobStatus WaitForCompleteV2(const CompactionServiceJobInfo& /*info*/,
                                                       std::string* /*compaction_service_result*/) {
    return CompactionServiceJobStatus::kUseLocal;
  }
  ~CompactionService() override = default;
};

// The db_host_id value that stands for the machine's host name.
extern const char* kHostnameForDbHostId;

struct DBOptions {
  DBOptions();
  explicit DBOptions(const Options& options);
  // RocksDB's old defaults of <major>.<minor>: max_file_opening_threads and
  // table_cache_numshardbits before 4.7, delayed_write_rate before 5.6, and
  // always max_open_files = 5000 and kTolerateCorruptedTailRecords.
  DBOptions* OldDefaults(int rocksdb_major_version = 4, int rocksdb_minor_version = 6);
  // As ColumnFamilyOptions::Dump, for the DB-wide options.
  void Dump(Logger* log) const;
  // RocksDB names the hints inside DBOptions (DBOptions::SEQUENTIAL).
  using AccessHint = ::rocksdb::AccessHint;
  static constexpr AccessHint NONE = ::rocksdb::NONE;
  static constexpr AccessHint NORMAL = ::rocksdb::NORMAL;
  static constexpr AccessHint SEQUENTIAL = ::rocksdb::SEQUENTIAL;
  static constexpr AccessHint WILLNEED = ::rocksdb::WILLNEED;

  DBOptions* OptimizeForSmallDb(std::shared_ptr<Cache>* cache = nullptr);
  // Sets max_background_jobs to total_threads (Strata runs flushes and
  // compactions from one pool of that size).
  DBOptions* IncreaseParallelism(int total_threads = 16);

  bool create_if_missing = false;
  bool create_missing_column_families = false;
  bool error_if_exists = false;
  bool paranoid_checks = true;
  bool flush_verify_memtable_count = true;         // advisory
  bool track_and_verify_wals_in_manifest = false;  // refused when true
  bool verify_sst_unique_id_in_manifest = true;    // advisory
  Env* env = Env::Default();
  std::shared_ptr<RateLimiter> rate_limiter = nullptr;
  std::shared_ptr<SstFileManager> sst_file_manager = nullptr;
  std::shared_ptr<Logger> info_log = nullptr;
  InfoLogLevel info_log_level = INFO_LEVEL;
  int max_open_files = -1;
  int max_file_opening_threads = 16;  // advisory
  uint64_t max_total_wal_size = 0;
  std::shared_ptr<Statistics> statistics = nullptr;
  bool use_fsync = false;
  std::vector<DbPath> db_paths;
  std::string db_log_dir = "";
  std::string wal_dir = "";
  uint64_t delete_obsolete_files_period_micros = 6ULL * 60 * 60 * 1000000;  // advisory
  int max_background_jobs = 2;
  int max_background_compactions = -1;  // advisory (Strata sizes by max_background_jobs)
  uint32_t max_subcompactions = 1;
  int max_background_flushes = -1;  // advisory (as max_background_compactions)
  size_t max_log_file_size = 0;
  size_t log_file_time_to_roll = 0;
  size_t keep_log_file_num = 1000;
  size_t recycle_log_file_num = 0;  // refused when set
  uint64_t max_manifest_file_size = 1024 * 1024 * 1024;
  int table_cache_numshardbits = 6;  // advisory
  uint64_t WAL_ttl_seconds = 0;
  uint64_t WAL_size_limit_MB = 0;
  size_t manifest_preallocation_size = 4 * 1024 * 1024;  // advisory
  bool allow_mmap_reads = false;
  bool allow_mmap_writes = false;
  bool use_direct_reads = false;
  bool use_direct_io_for_flush_and_compaction = false;
  bool allow_fallocate = true;      // advisory
  bool is_fd_close_on_exec = true;  // advisory
  unsigned int stats_dump_period_sec = 600;
  unsigned int stats_persist_period_sec = 600;     // advisory (persist_stats_to_disk is refused)
  bool persist_stats_to_disk = false;              // refused when true
  size_t stats_history_buffer_size = 1024 * 1024;  // advisory
  bool advise_random_on_open = true;               // advisory
  size_t db_write_buffer_size = 0;
  std::shared_ptr<WriteBufferManager> write_buffer_manager = nullptr;
  AccessHint access_hint_on_compaction_start = NORMAL;  // advisory
  size_t compaction_readahead_size = 0;
  size_t random_access_max_buffer_size = 1024 * 1024;  // advisory
  size_t writable_file_max_buffer_size = 1024 * 1024;
  bool use_adaptive_mutex = false;  // advisory
  uint64_t bytes_per_sync = 0;
  uint64_t wal_bytes_per_sync = 0;
  bool strict_bytes_per_sync = false;
  std::vector<std::shared_ptr<EventListener>> listeners;
  bool enable_thread_tracking = false;  // advisory
  uint64_t delayed_write_rate = 0;
  bool enable_pipelined_write = false;
  bool unordered_write = false;  // refused when true
  bool allow_concurrent_memtable_write = true;
  bool enable_write_thread_adaptive_yield = true;  // advisory
  uint64_t max_write_batch_group_size_bytes = 1 << 20;
  uint64_t write_thread_max_yield_usec = 100;            // advisory
  uint64_t write_thread_slow_yield_usec = 3;             // advisory
  bool skip_stats_update_on_db_open = false;             // advisory
  bool skip_checking_sst_file_sizes_on_db_open = false;  // advisory
  WALRecoveryMode wal_recovery_mode = WALRecoveryMode::kPointInTimeRecovery;
  bool allow_2pc = false;
  std::shared_ptr<Cache> row_cache = nullptr;  // refused when set
  WalFilter* wal_filter = nullptr;             // borrowed; rocksdb/wal_filter.h
  bool fail_if_options_file_error = false;     // advisory
  bool dump_malloc_stats = false;              // advisory
  bool avoid_flush_during_recovery = false;
  bool avoid_flush_during_shutdown = false;
  bool allow_ingest_behind = false;
  bool two_write_queues = false;  // refused when true
  bool manual_wal_flush = false;
  CompressionType wal_compression = kNoCompression;
  bool atomic_flush = false;                                                    // refused when true
  bool avoid_unnecessary_blocking_io = false;                                   // advisory
  bool write_dbid_to_manifest = false;                                          // refused when true
  size_t log_readahead_size = 0;                                                // advisory
  std::shared_ptr<FileChecksumGenFactory> file_checksum_gen_factory = nullptr;  // converted
  bool best_efforts_recovery = false;                                           // refused when true
  int max_bgerror_resume_count = INT_MAX;
  uint64_t bgerror_resume_retry_interval = 1000000;
  bool allow_data_in_errors = false;              // advisory (affects message texts only)
  std::string db_host_id = kHostnameForDbHostId;  // advisory
  // Refused when not empty: Strata's writers hand no checksums to the file
  // system.
  FileTypeSet checksum_handoff_file_types;
  std::shared_ptr<CompactionService> compaction_service = nullptr;      // refused when set
  CacheTier lowest_used_cache_tier = CacheTier::kNonVolatileBlockTier;  // advisory
  bool enforce_single_del_contracts = true;                             // advisory
};

struct Options : public DBOptions, public ColumnFamilyOptions {
  Options() : DBOptions(), ColumnFamilyOptions() {}
  Options(const DBOptions& db_options, const ColumnFamilyOptions& cf_options)
      : DBOptions(db_options), ColumnFamilyOptions(cf_options) {}

  Options* OldDefaults(int rocksdb_major_version = 4, int rocksdb_minor_version = 6);
  // The DB options, then the family options (DumpCFOptions).
  void Dump(Logger* log) const;
  void DumpCFOptions(Logger* log) const;
  Options* PrepareForBulkLoad();
  Options* OptimizeForSmallDb();
  // force_consistency_checks = false, as RocksDB's (advisory here).
  Options* DisableExtraChecks();
};

// Makes the info log DB::Open would make for dbname with these options:
// <db_log_dir or dbname>/LOG (with db_log_dir, "<dbname as a prefix>_LOG"),
// an older one renamed to LOG.old.<micros>, at options.info_log_level.
// Log rolling (max_log_file_size, log_file_time_to_roll) is NotSupported
// here. The directory is created if missing.
Status CreateLoggerFromOptions(const std::string& dbname, const DBOptions& options,
                               std::shared_ptr<Logger>* logger);

enum ReadTier {
  kReadAllTier = 0x0,
  kBlockCacheTier = 0x1,
  kPersistedTier = 0x2,
  kMemtableTier = 0x3,
};

struct ReadOptions {
  const Snapshot* snapshot = nullptr;
  const Slice* timestamp = nullptr;      // refused when set
  const Slice* iter_start_ts = nullptr;  // refused when set
  const Slice* iterate_lower_bound = nullptr;
  const Slice* iterate_upper_bound = nullptr;
  size_t readahead_size = 0;
  uint64_t max_skippable_internal_keys = 0;  // refused when set
  ReadTier read_tier = kReadAllTier;
  bool verify_checksums = true;
  bool fill_cache = true;
  bool tailing = false;  // refused when true
  bool managed = false;  // advisory (deprecated in RocksDB)
  bool total_order_seek = false;
  bool auto_prefix_mode = false;  // refused when true
  bool prefix_same_as_start = false;
  bool pin_data = false;                              // advisory (Strata's keys stay valid)
  bool background_purge_on_iterator_cleanup = false;  // advisory
  bool ignore_range_deletions = false;                // refused when true
  std::chrono::microseconds deadline = std::chrono::microseconds::zero();    // refused when set
  std::chrono::microseconds io_timeout = std::chrono::microseconds::zero();  // refused when set
  uint64_t value_size_soft_limit = std::numeric_limits<uint64_t>::max();     // refused when set
  bool adaptive_readahead = false;                                           // advisory
  bool async_io = false;                                                     // advisory
  bool optimize_multiget_for_io = true;                                      // advisory
  Env::IOPriority rate_limiter_priority = Env::IO_TOTAL;                     // refused when set
  std::function<bool(const TableProperties&)> table_filter;                  // refused when set

  ReadOptions() = default;
  ReadOptions(bool cksum, bool cache) : verify_checksums(cksum), fill_cache(cache) {}
};

struct WriteOptions {
  bool sync = false;
  bool disableWAL = false;
  bool ignore_missing_column_families = false;  // refused when true
  bool no_slowdown = false;
  bool low_pri = false;                         // advisory
  bool memtable_insert_hint_per_batch = false;  // advisory
  size_t protection_bytes_per_key = 0;          // advisory

  // Refused when set.
  Env::IOPriority rate_limiter_priority = Env::IO_TOTAL;
  WriteOptions() = default;
};

struct FlushOptions {
  bool wait = true;
  bool allow_write_stall = false;  // advisory
  FlushOptions() = default;
};

enum class BottommostLevelCompaction {
  kSkip,
  kIfHaveCompactionFilter,
  kForce,
  kForceOptimized,
};

// CompactRangeOptions::blob_garbage_collection_policy.
enum class BlobGarbageCollectionPolicy { kForce, kDisable, kUseDefault };

struct CompactRangeOptions {
  bool exclusive_manual_compaction = false;
  bool change_level = false;
  int target_level = -1;
  uint32_t target_path_id = 0;
  BottommostLevelCompaction bottommost_level_compaction =
      BottommostLevelCompaction::kIfHaveCompactionFilter;
  bool allow_write_stall = false;                  // advisory
  uint32_t max_subcompactions = 0;                 // advisory
  const Slice* full_history_ts_low = nullptr;      // refused when set
  std::atomic<bool>* canceled = nullptr;           // refused when set
  double blob_garbage_collection_age_cutoff = -1;  // advisory (no blob files)
  BlobGarbageCollectionPolicy blob_garbage_collection_policy =
      BlobGarbageCollectionPolicy::kUseDefault;  // advisory (no blob files)
};

struct IngestExternalFileOptions {
  bool move_files = false;
  bool failed_move_fall_back_to_copy = true;
  bool snapshot_consistency = true;
  bool allow_global_seqno = true;
  bool allow_blocking_flush = true;
  bool ingest_behind = false;
  bool write_global_seqno = true;
  bool verify_checksums_before_ingest = false;
  size_t verify_checksums_readahead_size = 0;
  bool verify_file_checksum = true;
  bool fail_if_not_bottommost_level = false;
};

struct CompactionOptions {
  CompressionType compression;
  uint64_t output_file_size_limit;
  uint32_t max_subcompactions;
  CompactionOptions()
      : compression(kSnappyCompression),
        output_file_size_limit(std::numeric_limits<uint64_t>::max()),
        max_subcompactions(0) {}
};

struct SizeApproximationOptions {
  bool include_memtables = false;
  bool include_files = true;
  double files_size_error_margin = -1.0;
};

// DB::CreateColumnFamilyWithImport and DB::GetLiveFilesStorageInfo: Strata's
// structs (the same fields).
using ImportColumnFamilyOptions = ::strata::ImportColumnFamilyOptions;
using LiveFilesStorageInfoOptions = ::strata::LiveFilesStorageInfoOptions;

// Which operations a trace records (TraceOptions::filter, bits to leave out).
enum TraceFilterType : uint64_t {
  kTraceFilterNone = 0x0,
  kTraceFilterGet = 0x1 << 0,
  kTraceFilterWrite = 0x1 << 1,
  kTraceFilterIteratorSeek = 0x1 << 2,
  kTraceFilterIteratorSeekForPrev = 0x1 << 3,
  kTraceFilterMultiGet = 0x1 << 4,
};

// DB::StartTrace, StartIOTrace, StartBlockCacheTrace. Strata records no
// traces: those calls answer NotSupported, so these fields are never read.
struct TraceOptions {
  uint64_t max_trace_file_size = uint64_t{64} * 1024 * 1024 * 1024;
  uint64_t sampling_frequency = 1;  // one of every N requests
  uint64_t filter = kTraceFilterNone;
  bool preserve_write_order = false;
};

// DB::OpenAndCompact (a remote compaction worker's entry point). Strata has
// no compaction service: OpenAndCompact answers NotSupported.
struct CompactionServiceOptionsOverride {
  Env* env = Env::Default();
  std::shared_ptr<FileChecksumGenFactory> file_checksum_gen_factory = nullptr;
  const Comparator* comparator = BytewiseComparator();
  std::shared_ptr<MergeOperator> merge_operator = nullptr;
  const CompactionFilter* compaction_filter = nullptr;
  std::shared_ptr<CompactionFilterFactory> compaction_filter_factory = nullptr;
  std::shared_ptr<const SliceTransform> prefix_extractor = nullptr;
  std::shared_ptr<TableFactory> table_factory;
  std::shared_ptr<SstPartitionerFactory> sst_partitioner_factory = nullptr;
  std::vector<std::shared_ptr<EventListener>> listeners;
  std::shared_ptr<Statistics> statistics = nullptr;
  std::vector<std::shared_ptr<TablePropertiesCollectorFactory>>
      table_properties_collector_factories;
};

struct OpenAndCompactOptions {
  std::atomic<bool>* canceled = nullptr;  // set to stop the compaction early
};

}  // namespace rocksdb
