// compat/options_convert.cc: see options_convert.h. The order of fields
// follows the structs in compat/include/rocksdb/{options,advanced_options,
// table}.h, so a field missing here is easy to spot.
#include "compat/options_convert.h"

#include <string>

#include "rocksdb/listener.h"
#include "rocksdb/sst_file_manager.h"
#include "strata/cache.h"
#include "strata/filter_policy.h"

namespace rocksdb {
namespace compat {
namespace {

using ::strata::Status;

Status Refused(const char* name) {
  return Status::InvalidArgument(std::string(name) +
                                 " is not supported by Strata: only its default value is accepted");
}

// Refuses `field` of `in` unless it equals the same field of `def`.
#define COMPAT_DEFAULT_ONLY(Struct, field)                             \
  do {                                                                 \
    if (!(in.field == def.field)) return Refused(#Struct "::" #field); \
  } while (0)

::strata::InfoLogLevel ConvertLogLevel(InfoLogLevel level) {
  switch (level) {
    case DEBUG_LEVEL:
      return ::strata::InfoLogLevel::kDebug;
    case INFO_LEVEL:
      return ::strata::InfoLogLevel::kInfo;
    case WARN_LEVEL:
      return ::strata::InfoLogLevel::kWarn;
    case ERROR_LEVEL:
      return ::strata::InfoLogLevel::kError;
    case FATAL_LEVEL:
      return ::strata::InfoLogLevel::kFatal;
    default:
      return ::strata::InfoLogLevel::kHeader;
  }
}

InfoLogLevel ConvertBackLogLevel(::strata::InfoLogLevel level) {
  switch (level) {
    case ::strata::InfoLogLevel::kDebug:
      return DEBUG_LEVEL;
    case ::strata::InfoLogLevel::kInfo:
      return INFO_LEVEL;
    case ::strata::InfoLogLevel::kWarn:
      return WARN_LEVEL;
    case ::strata::InfoLogLevel::kError:
      return ERROR_LEVEL;
    case ::strata::InfoLogLevel::kFatal:
      return FATAL_LEVEL;
    default:
      return HEADER_LEVEL;
  }
}

// A RocksDB listener as Strata's engine calls it: the strata::DB* of a
// callback becomes the rocksdb::DB* of the Open that made the listener.
class ListenerAdapter final : public ::strata::EventListener {
 public:
  ListenerAdapter(std::shared_ptr<::rocksdb::EventListener> listener,
                  std::shared_ptr<ListenerTarget> target)
      : listener_(std::move(listener)), target_(std::move(target)) {}
  const std::shared_ptr<::rocksdb::EventListener>& listener() const { return listener_; }

  const char* Name() const override { return listener_->Name(); }
  void OnFlushBegin(::strata::DB*, const FlushJobInfo& info) override {
    listener_->OnFlushBegin(db(), info);
  }
  void OnFlushCompleted(::strata::DB*, const FlushJobInfo& info) override {
    listener_->OnFlushCompleted(db(), info);
  }
  void OnCompactionBegin(::strata::DB*, const CompactionJobInfo& info) override {
    listener_->OnCompactionBegin(db(), info);
  }
  void OnCompactionCompleted(::strata::DB*, const CompactionJobInfo& info) override {
    listener_->OnCompactionCompleted(db(), info);
  }
  void OnTableFileCreationStarted(const TableFileCreationBriefInfo& info) override {
    listener_->OnTableFileCreationStarted(info);
  }
  void OnTableFileCreated(const TableFileCreationInfo& info) override {
    listener_->OnTableFileCreated(info);
  }
  void OnTableFileDeleted(const TableFileDeletionInfo& info) override {
    listener_->OnTableFileDeleted(info);
  }
  void OnExternalFileIngested(::strata::DB*, const ExternalFileIngestionInfo& info) override {
    listener_->OnExternalFileIngested(db(), info);
  }
  void OnMemTableSealed(const MemTableInfo& info) override { listener_->OnMemTableSealed(info); }
  void OnStallConditionsChanged(const WriteStallInfo& info) override {
    listener_->OnStallConditionsChanged(info);
  }
  void OnBackgroundError(BackgroundErrorReason reason, Status* bg_error) override {
    listener_->OnBackgroundError(reason, bg_error);
  }
  void OnErrorRecoveryBegin(BackgroundErrorReason reason, Status bg_error,
                            bool* auto_recovery) override {
    listener_->OnErrorRecoveryBegin(reason, bg_error, auto_recovery);
  }
  void OnErrorRecoveryEnd(const BackgroundErrorRecoveryInfo& info) override {
    // The deprecated callback announces a recovery that succeeded.
    if (info.new_bg_error.ok()) listener_->OnErrorRecoveryCompleted(info.old_bg_error);
    listener_->OnErrorRecoveryEnd(info);
  }

 private:
  ::rocksdb::DB* db() const { return target_->db.load(std::memory_order_acquire); }

  const std::shared_ptr<::rocksdb::EventListener> listener_;
  const std::shared_ptr<ListenerTarget> target_;
};

std::vector<::strata::DbPath> ConvertPaths(const std::vector<DbPath>& in) {
  std::vector<::strata::DbPath> out;
  for (const DbPath& p : in) out.emplace_back(p.path, p.target_size);
  return out;
}

std::vector<DbPath> ConvertBackPaths(const std::vector<::strata::DbPath>& in) {
  std::vector<DbPath> out;
  for (const ::strata::DbPath& p : in) out.emplace_back(p.path, p.target_size);
  return out;
}

CompressionOptions ConvertBackCompressionOptions(const ::strata::CompressionOptions& in) {
  CompressionOptions out;
  out.window_bits = in.window_bits;
  out.level = in.level;
  out.strategy = in.strategy;
  out.max_dict_bytes = in.max_dict_bytes;
  out.zstd_max_train_bytes = in.zstd_max_train_bytes;
  out.parallel_threads = in.parallel_threads;
  out.enabled = in.enabled;
  out.max_dict_buffer_bytes = in.max_dict_buffer_bytes;
  out.use_zstd_dict_trainer = in.use_zstd_dict_trainer;
  return out;
}

}  // namespace

::strata::CompressionOptions ConvertCompressionOptions(const CompressionOptions& in) {
  ::strata::CompressionOptions out;
  out.window_bits = in.window_bits;
  out.level = in.level;
  out.strategy = in.strategy;
  out.max_dict_bytes = in.max_dict_bytes;
  out.zstd_max_train_bytes = in.zstd_max_train_bytes;
  out.parallel_threads = in.parallel_threads;
  out.enabled = in.enabled;
  out.max_dict_buffer_bytes = in.max_dict_buffer_bytes;
  out.use_zstd_dict_trainer = in.use_zstd_dict_trainer;
  return out;
}

Status ConvertDBOptions(const DBOptions& in, ::strata::DBOptions* out,
                        const std::shared_ptr<ListenerTarget>& target) {
  const DBOptions def;
  ::strata::DBOptions& o = *out;
  o.create_if_missing = in.create_if_missing;
  o.create_missing_column_families = in.create_missing_column_families;
  o.error_if_exists = in.error_if_exists;
  o.paranoid_checks = in.paranoid_checks;
  COMPAT_DEFAULT_ONLY(DBOptions, track_and_verify_wals_in_manifest);
  o.env = in.env != nullptr ? in.env : ::strata::Env::Default();
  o.rate_limiter = in.rate_limiter;
  if (in.sst_file_manager != nullptr && in.sst_file_manager->strata_manager() == nullptr) {
    return Status::InvalidArgument(
        "DBOptions::sst_file_manager: only a manager made by NewSstFileManager is supported");
  }
  o.sst_file_manager =
      in.sst_file_manager != nullptr ? in.sst_file_manager->strata_manager() : nullptr;
  o.info_log = in.info_log;
  o.info_log_level = ConvertLogLevel(in.info_log_level);
  o.max_open_files = in.max_open_files;
  o.max_total_wal_size = in.max_total_wal_size;
  o.statistics = in.statistics;
  o.use_fsync = in.use_fsync;
  o.db_paths = ConvertPaths(in.db_paths);
  o.db_log_dir = in.db_log_dir;
  o.wal_dir = in.wal_dir;
  o.max_background_jobs = in.max_background_jobs;
  o.max_log_file_size = in.max_log_file_size;
  o.log_file_time_to_roll = in.log_file_time_to_roll;
  o.keep_log_file_num = in.keep_log_file_num;
  COMPAT_DEFAULT_ONLY(DBOptions, recycle_log_file_num);
  o.max_manifest_file_size = in.max_manifest_file_size;
  o.WAL_ttl_seconds = in.WAL_ttl_seconds;
  o.WAL_size_limit_MB = in.WAL_size_limit_MB;
  o.allow_mmap_reads = in.allow_mmap_reads;
  o.allow_mmap_writes = in.allow_mmap_writes;
  o.use_direct_reads = in.use_direct_reads;
  o.use_direct_io_for_flush_and_compaction = in.use_direct_io_for_flush_and_compaction;
  o.stats_dump_period_sec = in.stats_dump_period_sec;
  COMPAT_DEFAULT_ONLY(DBOptions, persist_stats_to_disk);
  o.db_write_buffer_size = in.db_write_buffer_size;
  o.write_buffer_manager = in.write_buffer_manager;
  o.compaction_readahead_size = in.compaction_readahead_size;
  o.writable_file_max_buffer_size = in.writable_file_max_buffer_size;
  o.bytes_per_sync = in.bytes_per_sync;
  o.wal_bytes_per_sync = in.wal_bytes_per_sync;
  o.strict_bytes_per_sync = in.strict_bytes_per_sync;
  o.listeners.clear();
  const std::shared_ptr<ListenerTarget> listener_target =
      target != nullptr ? target : std::make_shared<ListenerTarget>();
  for (const std::shared_ptr<EventListener>& l : in.listeners) {
    if (l == nullptr) continue;
    if (l->ShouldBeNotifiedOnFileIO()) {
      return Status::InvalidArgument(
          std::string("DBOptions::listeners: listener \"") + l->Name() +
          "\" asks for file I/O notifications (ShouldBeNotifiedOnFileIO), which Strata does "
          "not make");
    }
    o.listeners.push_back(std::make_shared<ListenerAdapter>(l, listener_target));
  }
  o.delayed_write_rate = in.delayed_write_rate;
  o.enable_pipelined_write = in.enable_pipelined_write;
  COMPAT_DEFAULT_ONLY(DBOptions, unordered_write);
  o.allow_concurrent_memtable_write = in.allow_concurrent_memtable_write;
  o.max_write_batch_group_size_bytes = in.max_write_batch_group_size_bytes;
  o.wal_recovery_mode = static_cast<::strata::WALRecoveryMode>(in.wal_recovery_mode);
  o.allow_2pc = in.allow_2pc;
  COMPAT_DEFAULT_ONLY(DBOptions, row_cache);
  COMPAT_DEFAULT_ONLY(DBOptions, wal_filter);
  o.avoid_flush_during_recovery = in.avoid_flush_during_recovery;
  o.avoid_flush_during_shutdown = in.avoid_flush_during_shutdown;
  o.allow_ingest_behind = in.allow_ingest_behind;
  COMPAT_DEFAULT_ONLY(DBOptions, two_write_queues);
  o.manual_wal_flush = in.manual_wal_flush;
  COMPAT_DEFAULT_ONLY(DBOptions, wal_compression);
  COMPAT_DEFAULT_ONLY(DBOptions, atomic_flush);
  COMPAT_DEFAULT_ONLY(DBOptions, write_dbid_to_manifest);
  COMPAT_DEFAULT_ONLY(DBOptions, file_checksum_gen_factory);
  COMPAT_DEFAULT_ONLY(DBOptions, best_efforts_recovery);
  o.max_bgerror_resume_count = in.max_bgerror_resume_count;
  o.bgerror_resume_retry_interval = in.bgerror_resume_retry_interval;
  COMPAT_DEFAULT_ONLY(DBOptions, compaction_service);
  // RocksDB's memory-mapped WAL writes do not exist: its WAL is written
  // through ordinary buffered files.
  o.wal_mmap_writes = false;
  return Status::OK();
}

Status ConvertTableOptions(const BlockBasedTableOptions& in,
                           ::strata::BlockBasedTableOptions* out) {
  const BlockBasedTableOptions def;
  ::strata::BlockBasedTableOptions& o = *out;
  COMPAT_DEFAULT_ONLY(BlockBasedTableOptions, flush_block_policy_factory);
  o.cache_index_and_filter_blocks = in.cache_index_and_filter_blocks;
  o.cache_index_and_filter_blocks_with_high_priority =
      in.cache_index_and_filter_blocks_with_high_priority;
  o.pin_l0_filter_and_index_blocks_in_cache = in.pin_l0_filter_and_index_blocks_in_cache;
  o.pin_top_level_index_and_filter = in.pin_top_level_index_and_filter;
  o.index_type = static_cast<::strata::BlockBasedTableOptions::IndexType>(in.index_type);
  o.data_block_index_type =
      static_cast<::strata::BlockBasedTableOptions::DataBlockIndexType>(in.data_block_index_type);
  o.data_block_hash_table_util_ratio = in.data_block_hash_table_util_ratio;
  o.checksum = static_cast<::strata::ChecksumType>(in.checksum);
  o.no_block_cache = in.no_block_cache;
  o.block_cache = in.block_cache;
  COMPAT_DEFAULT_ONLY(BlockBasedTableOptions, persistent_cache);
  COMPAT_DEFAULT_ONLY(BlockBasedTableOptions, block_cache_compressed);
  o.block_size = static_cast<size_t>(in.block_size);
  o.block_size_deviation = in.block_size_deviation;
  o.block_restart_interval = in.block_restart_interval;
  o.index_block_restart_interval = in.index_block_restart_interval;
  o.metadata_block_size = in.metadata_block_size;
  o.cache_usage_options.options.charged = static_cast<::strata::CacheEntryRoleOptions::Decision>(
      in.cache_usage_options.options.charged);
  for (const auto& [role, opt] : in.cache_usage_options.options_overrides) {
    o.cache_usage_options.options_overrides[role].charged =
        static_cast<::strata::CacheEntryRoleOptions::Decision>(opt.charged);
  }
  o.partition_filters = in.partition_filters;
  o.use_delta_encoding = in.use_delta_encoding;
  if (in.filter_policy != nullptr) {
    if (in.filter_policy->strata_policy() == nullptr) {
      return Status::InvalidArgument(
          "BlockBasedTableOptions::filter_policy: a user subclass of FilterPolicy is not "
          "supported by Strata (use NewBloomFilterPolicy or NewRibbonFilterPolicy)");
    }
    o.filter_policy = in.filter_policy->strata_policy();
  } else {
    o.filter_policy = nullptr;
  }
  o.whole_key_filtering = in.whole_key_filtering;
  COMPAT_DEFAULT_ONLY(BlockBasedTableOptions, read_amp_bytes_per_bit);
  o.format_version = in.format_version;
  o.enable_index_compression = in.enable_index_compression;
  COMPAT_DEFAULT_ONLY(BlockBasedTableOptions, block_align);
  COMPAT_DEFAULT_ONLY(BlockBasedTableOptions, index_shortening);
  o.max_auto_readahead_size = in.max_auto_readahead_size;
  COMPAT_DEFAULT_ONLY(BlockBasedTableOptions, prepopulate_block_cache);
  o.initial_auto_readahead_size = in.initial_auto_readahead_size;
  return Status::OK();
}

Status ConvertCFOptions(const ColumnFamilyOptions& in, ::strata::ColumnFamilyOptions* out) {
  const ColumnFamilyOptions def;
  ::strata::ColumnFamilyOptions& o = *out;
  // AdvancedColumnFamilyOptions.
  o.max_write_buffer_number = in.max_write_buffer_number;
  COMPAT_DEFAULT_ONLY(ColumnFamilyOptions, inplace_update_support);
  COMPAT_DEFAULT_ONLY(ColumnFamilyOptions, experimental_mempurge_threshold);
  o.memtable_prefix_bloom_size_ratio = in.memtable_prefix_bloom_size_ratio;
  o.memtable_whole_key_filtering = in.memtable_whole_key_filtering;
  o.arena_block_size = in.arena_block_size;
  o.compression_per_level.clear();
  for (CompressionType c : in.compression_per_level) {
    o.compression_per_level.push_back(static_cast<::strata::CompressionType>(c));
  }
  o.num_levels = in.num_levels;
  o.level0_slowdown_writes_trigger = in.level0_slowdown_writes_trigger;
  o.level0_stop_writes_trigger = in.level0_stop_writes_trigger;
  o.target_file_size_base = in.target_file_size_base;
  o.target_file_size_multiplier = in.target_file_size_multiplier;
  o.level_compaction_dynamic_level_bytes = in.level_compaction_dynamic_level_bytes;
  o.max_bytes_for_level_multiplier = in.max_bytes_for_level_multiplier;
  o.max_bytes_for_level_multiplier_additional = in.max_bytes_for_level_multiplier_additional;
  o.max_compaction_bytes = in.max_compaction_bytes;
  o.soft_pending_compaction_bytes_limit = in.soft_pending_compaction_bytes_limit;
  o.hard_pending_compaction_bytes_limit = in.hard_pending_compaction_bytes_limit;
  o.compaction_style = static_cast<::strata::CompactionStyle>(in.compaction_style);
  o.compaction_pri = static_cast<::strata::CompactionPri>(in.compaction_pri);
  o.compaction_options_universal = in.compaction_options_universal;
  o.compaction_options_fifo.max_table_files_size = in.compaction_options_fifo.max_table_files_size;
  o.compaction_options_fifo.allow_compaction = in.compaction_options_fifo.allow_compaction;
  o.compaction_options_fifo.age_for_warm = in.compaction_options_fifo.age_for_warm;
  if (in.memtable_factory != nullptr) {
    return Refused("ColumnFamilyOptions::memtable_factory (Strata has its skip list only)");
  }
  o.table_properties_collector_factories = in.table_properties_collector_factories;
  if (in.optimize_filters_for_hits)
    return Refused("ColumnFamilyOptions::optimize_filters_for_hits");
  o.ttl = in.ttl;
  o.periodic_compaction_seconds = in.periodic_compaction_seconds;
  COMPAT_DEFAULT_ONLY(ColumnFamilyOptions, bottommost_temperature);
  COMPAT_DEFAULT_ONLY(ColumnFamilyOptions, last_level_temperature);
  COMPAT_DEFAULT_ONLY(ColumnFamilyOptions, preclude_last_level_data_seconds);
  COMPAT_DEFAULT_ONLY(ColumnFamilyOptions, preserve_internal_time_seconds);
  COMPAT_DEFAULT_ONLY(ColumnFamilyOptions, enable_blob_files);

  // ColumnFamilyOptions.
  o.comparator = in.comparator != nullptr ? in.comparator : ::strata::BytewiseComparator();
  o.merge_operator = in.merge_operator;
  o.compaction_filter = in.compaction_filter;
  o.compaction_filter_factory = in.compaction_filter_factory;
  o.write_buffer_size = in.write_buffer_size;
  o.compression = static_cast<::strata::CompressionType>(in.compression);
  o.bottommost_compression = static_cast<::strata::CompressionType>(in.bottommost_compression);
  o.bottommost_compression_opts = ConvertCompressionOptions(in.bottommost_compression_opts);
  o.compression_opts = ConvertCompressionOptions(in.compression_opts);
  o.level0_file_num_compaction_trigger = in.level0_file_num_compaction_trigger;
  o.prefix_extractor = in.prefix_extractor;
  o.max_bytes_for_level_base = in.max_bytes_for_level_base;
  o.disable_auto_compactions = in.disable_auto_compactions;
  ::strata::BlockBasedTableOptions table;
  Status s = ConvertTableOptions(
      in.table_factory != nullptr ? in.table_factory->table_options() : BlockBasedTableOptions(),
      &table);
  if (!s.ok()) return s;
  o.table_factory = ::strata::NewBlockBasedTableFactory(table);
  o.cf_paths = ConvertPaths(in.cf_paths);
  COMPAT_DEFAULT_ONLY(ColumnFamilyOptions, compaction_thread_limiter);
  COMPAT_DEFAULT_ONLY(ColumnFamilyOptions, sst_partitioner_factory);
  return Status::OK();
}

Status ConvertOptions(const Options& in, ::strata::Options* out) {
  Status s = ConvertDBOptions(in, out);
  if (s.ok()) s = ConvertCFOptions(in, out);
  // max_subcompactions is a DB option in RocksDB and a family option in
  // Strata.
  out->max_subcompactions = in.DBOptions::max_subcompactions;
  return s;
}

Status ConvertReadOptions(const ReadOptions& in, ::strata::ReadOptions* out) {
  const ReadOptions def;
  ::strata::ReadOptions& o = *out;
  o.snapshot = in.snapshot;
  COMPAT_DEFAULT_ONLY(ReadOptions, timestamp);
  COMPAT_DEFAULT_ONLY(ReadOptions, iter_start_ts);
  o.iterate_lower_bound = in.iterate_lower_bound;
  o.iterate_upper_bound = in.iterate_upper_bound;
  o.readahead_size = in.readahead_size;
  COMPAT_DEFAULT_ONLY(ReadOptions, max_skippable_internal_keys);
  o.read_tier = static_cast<::strata::ReadTier>(in.read_tier);
  o.verify_checksums = in.verify_checksums;
  o.fill_cache = in.fill_cache;
  COMPAT_DEFAULT_ONLY(ReadOptions, tailing);
  o.total_order_seek = in.total_order_seek;
  COMPAT_DEFAULT_ONLY(ReadOptions, auto_prefix_mode);
  o.prefix_same_as_start = in.prefix_same_as_start;
  COMPAT_DEFAULT_ONLY(ReadOptions, ignore_range_deletions);
  COMPAT_DEFAULT_ONLY(ReadOptions, deadline);
  COMPAT_DEFAULT_ONLY(ReadOptions, io_timeout);
  COMPAT_DEFAULT_ONLY(ReadOptions, value_size_soft_limit);
  return Status::OK();
}

Status ConvertWriteOptions(const WriteOptions& in, ::strata::WriteOptions* out) {
  const WriteOptions def;
  out->sync = in.sync;
  out->disableWAL = in.disableWAL;
  out->no_slowdown = in.no_slowdown;
  COMPAT_DEFAULT_ONLY(WriteOptions, ignore_missing_column_families);
  return Status::OK();
}

Status ConvertCompactRangeOptions(const CompactRangeOptions& in,
                                  ::strata::CompactRangeOptions* out) {
  const CompactRangeOptions def;
  out->exclusive_manual_compaction = in.exclusive_manual_compaction;
  out->change_level = in.change_level;
  out->target_level = in.target_level;
  out->target_path_id = in.target_path_id;
  out->bottommost_level_compaction =
      static_cast<::strata::BottommostLevelCompaction>(in.bottommost_level_compaction);
  COMPAT_DEFAULT_ONLY(CompactRangeOptions, full_history_ts_low);
  COMPAT_DEFAULT_ONLY(CompactRangeOptions, canceled);
  return Status::OK();
}

Status ConvertIngestOptions(const IngestExternalFileOptions& in,
                            ::strata::IngestExternalFileOptions* out) {
  out->move_files = in.move_files;
  out->failed_move_fall_back_to_copy = in.failed_move_fall_back_to_copy;
  out->snapshot_consistency = in.snapshot_consistency;
  out->allow_global_seqno = in.allow_global_seqno;
  out->allow_blocking_flush = in.allow_blocking_flush;
  out->ingest_behind = in.ingest_behind;
  out->write_global_seqno = in.write_global_seqno;
  out->verify_checksums_before_ingest = in.verify_checksums_before_ingest;
  out->verify_checksums_readahead_size = in.verify_checksums_readahead_size;
  out->verify_file_checksum = in.verify_file_checksum;
  out->fail_if_not_bottommost_level = in.fail_if_not_bottommost_level;
  return Status::OK();
}

// ---- Strata to RocksDB ----
// The same order as the forward functions; refused and advisory fields are
// left as `out` holds them.

void ConvertBackDBOptions(const ::strata::DBOptions& in, DBOptions* out) {
  DBOptions& o = *out;
  o.create_if_missing = in.create_if_missing;
  o.create_missing_column_families = in.create_missing_column_families;
  o.error_if_exists = in.error_if_exists;
  o.paranoid_checks = in.paranoid_checks;
  o.env = in.env;
  o.rate_limiter = in.rate_limiter;
  // The RocksDB manager `out` holds is kept when it wraps the same one.
  if (in.sst_file_manager == nullptr) {
    o.sst_file_manager = nullptr;
  } else if (o.sst_file_manager == nullptr ||
             o.sst_file_manager->strata_manager() != in.sst_file_manager) {
    o.sst_file_manager = std::make_shared<SstFileManager>(in.sst_file_manager);
  }
  o.info_log = in.info_log;
  o.info_log_level = ConvertBackLogLevel(in.info_log_level);
  o.max_open_files = in.max_open_files;
  o.max_total_wal_size = in.max_total_wal_size;
  o.statistics = in.statistics;
  o.use_fsync = in.use_fsync;
  o.db_paths = ConvertBackPaths(in.db_paths);
  o.db_log_dir = in.db_log_dir;
  o.wal_dir = in.wal_dir;
  o.max_background_jobs = in.max_background_jobs;
  o.max_log_file_size = in.max_log_file_size;
  o.log_file_time_to_roll = in.log_file_time_to_roll;
  o.keep_log_file_num = in.keep_log_file_num;
  o.max_manifest_file_size = in.max_manifest_file_size;
  o.WAL_ttl_seconds = in.WAL_ttl_seconds;
  o.WAL_size_limit_MB = in.WAL_size_limit_MB;
  o.allow_mmap_reads = in.allow_mmap_reads;
  o.allow_mmap_writes = in.allow_mmap_writes;
  o.use_direct_reads = in.use_direct_reads;
  o.use_direct_io_for_flush_and_compaction = in.use_direct_io_for_flush_and_compaction;
  o.stats_dump_period_sec = in.stats_dump_period_sec;
  o.db_write_buffer_size = in.db_write_buffer_size;
  o.write_buffer_manager = in.write_buffer_manager;
  o.compaction_readahead_size = in.compaction_readahead_size;
  o.writable_file_max_buffer_size = in.writable_file_max_buffer_size;
  o.bytes_per_sync = in.bytes_per_sync;
  o.wal_bytes_per_sync = in.wal_bytes_per_sync;
  o.strict_bytes_per_sync = in.strict_bytes_per_sync;
  // Listeners Open wrapped come back as they were given; Strata's own
  // listeners have no RocksDB form and are left out.
  o.listeners.clear();
  for (const std::shared_ptr<::strata::EventListener>& l : in.listeners) {
    if (auto adapter = std::dynamic_pointer_cast<ListenerAdapter>(l)) {
      o.listeners.push_back(adapter->listener());
    }
  }
  o.delayed_write_rate = in.delayed_write_rate;
  o.enable_pipelined_write = in.enable_pipelined_write;
  o.allow_concurrent_memtable_write = in.allow_concurrent_memtable_write;
  o.max_write_batch_group_size_bytes = in.max_write_batch_group_size_bytes;
  o.wal_recovery_mode = static_cast<WALRecoveryMode>(in.wal_recovery_mode);
  o.allow_2pc = in.allow_2pc;
  o.avoid_flush_during_recovery = in.avoid_flush_during_recovery;
  o.avoid_flush_during_shutdown = in.avoid_flush_during_shutdown;
  o.allow_ingest_behind = in.allow_ingest_behind;
  o.manual_wal_flush = in.manual_wal_flush;
  o.max_bgerror_resume_count = in.max_bgerror_resume_count;
  o.bgerror_resume_retry_interval = in.bgerror_resume_retry_interval;
}

void ConvertBackTableOptions(const ::strata::BlockBasedTableOptions& in,
                             const BlockBasedTableOptions* prev, BlockBasedTableOptions* out) {
  BlockBasedTableOptions& o = *out;
  o.cache_index_and_filter_blocks = in.cache_index_and_filter_blocks;
  o.cache_index_and_filter_blocks_with_high_priority =
      in.cache_index_and_filter_blocks_with_high_priority;
  o.pin_l0_filter_and_index_blocks_in_cache = in.pin_l0_filter_and_index_blocks_in_cache;
  o.pin_top_level_index_and_filter = in.pin_top_level_index_and_filter;
  o.index_type = static_cast<BlockBasedTableOptions::IndexType>(in.index_type);
  o.data_block_index_type =
      static_cast<BlockBasedTableOptions::DataBlockIndexType>(in.data_block_index_type);
  o.data_block_hash_table_util_ratio = in.data_block_hash_table_util_ratio;
  o.checksum = static_cast<ChecksumType>(in.checksum);
  o.no_block_cache = in.no_block_cache;
  o.block_cache = in.block_cache;
  o.block_size = in.block_size;
  o.block_size_deviation = in.block_size_deviation;
  o.block_restart_interval = in.block_restart_interval;
  o.index_block_restart_interval = in.index_block_restart_interval;
  o.metadata_block_size = in.metadata_block_size;
  o.cache_usage_options.options.charged =
      static_cast<CacheEntryRoleOptions::Decision>(in.cache_usage_options.options.charged);
  o.cache_usage_options.options_overrides.clear();
  for (const auto& [role, opt] : in.cache_usage_options.options_overrides) {
    o.cache_usage_options.options_overrides[role].charged =
        static_cast<CacheEntryRoleOptions::Decision>(opt.charged);
  }
  o.partition_filters = in.partition_filters;
  o.use_delta_encoding = in.use_delta_encoding;
  if (in.filter_policy == nullptr) {
    o.filter_policy = nullptr;
  } else if (prev != nullptr && prev->filter_policy != nullptr &&
             prev->filter_policy->strata_policy() == in.filter_policy) {
    o.filter_policy = prev->filter_policy;
  } else {
    o.filter_policy = std::make_shared<const FilterPolicy>(in.filter_policy);
  }
  o.whole_key_filtering = in.whole_key_filtering;
  o.format_version = in.format_version;
  o.enable_index_compression = in.enable_index_compression;
  o.max_auto_readahead_size = in.max_auto_readahead_size;
  o.initial_auto_readahead_size = in.initial_auto_readahead_size;
}

void ConvertBackCFOptions(const ::strata::ColumnFamilyOptions& in, ColumnFamilyOptions* out) {
  ColumnFamilyOptions& o = *out;
  o.max_write_buffer_number = in.max_write_buffer_number;
  o.memtable_prefix_bloom_size_ratio = in.memtable_prefix_bloom_size_ratio;
  o.memtable_whole_key_filtering = in.memtable_whole_key_filtering;
  o.arena_block_size = in.arena_block_size;
  o.compression_per_level.clear();
  for (::strata::CompressionType c : in.compression_per_level) {
    o.compression_per_level.push_back(static_cast<CompressionType>(c));
  }
  o.num_levels = in.num_levels;
  o.level0_slowdown_writes_trigger = in.level0_slowdown_writes_trigger;
  o.level0_stop_writes_trigger = in.level0_stop_writes_trigger;
  o.target_file_size_base = in.target_file_size_base;
  o.target_file_size_multiplier = in.target_file_size_multiplier;
  o.level_compaction_dynamic_level_bytes = in.level_compaction_dynamic_level_bytes;
  o.max_bytes_for_level_multiplier = in.max_bytes_for_level_multiplier;
  o.max_bytes_for_level_multiplier_additional = in.max_bytes_for_level_multiplier_additional;
  o.max_compaction_bytes = in.max_compaction_bytes;
  o.soft_pending_compaction_bytes_limit = in.soft_pending_compaction_bytes_limit;
  o.hard_pending_compaction_bytes_limit = in.hard_pending_compaction_bytes_limit;
  o.compaction_style = static_cast<CompactionStyle>(in.compaction_style);
  o.compaction_pri = static_cast<CompactionPri>(in.compaction_pri);
  o.compaction_options_universal = in.compaction_options_universal;
  o.compaction_options_fifo.max_table_files_size = in.compaction_options_fifo.max_table_files_size;
  o.compaction_options_fifo.allow_compaction = in.compaction_options_fifo.allow_compaction;
  o.compaction_options_fifo.age_for_warm = in.compaction_options_fifo.age_for_warm;
  o.table_properties_collector_factories = in.table_properties_collector_factories;
  o.ttl = in.ttl;
  o.periodic_compaction_seconds = in.periodic_compaction_seconds;
  o.comparator = in.comparator;
  o.merge_operator = in.merge_operator;
  o.compaction_filter = in.compaction_filter;
  o.compaction_filter_factory = in.compaction_filter_factory;
  o.write_buffer_size = in.write_buffer_size;
  o.compression = static_cast<CompressionType>(in.compression);
  o.bottommost_compression = static_cast<CompressionType>(in.bottommost_compression);
  o.bottommost_compression_opts = ConvertBackCompressionOptions(in.bottommost_compression_opts);
  o.compression_opts = ConvertBackCompressionOptions(in.compression_opts);
  o.level0_file_num_compaction_trigger = in.level0_file_num_compaction_trigger;
  o.prefix_extractor = in.prefix_extractor;
  o.max_bytes_for_level_base = in.max_bytes_for_level_base;
  o.disable_auto_compactions = in.disable_auto_compactions;
  const BlockBasedTableOptions prev =
      o.table_factory != nullptr ? o.table_factory->table_options() : BlockBasedTableOptions();
  BlockBasedTableOptions table = prev;
  if (in.table_factory != nullptr) {
    ConvertBackTableOptions(in.table_factory->table_options(), &prev, &table);
  } else {
    ConvertBackTableOptions(::strata::BlockBasedTableOptions(), &prev, &table);
  }
  o.table_factory.reset(NewBlockBasedTableFactory(table));
  o.cf_paths = ConvertBackPaths(in.cf_paths);
}

void ConvertBackOptions(const ::strata::Options& in, Options* out) {
  ConvertBackDBOptions(in, out);
  ConvertBackCFOptions(in, out);
  out->DBOptions::max_subcompactions = in.max_subcompactions;
}

}  // namespace compat
}  // namespace rocksdb
