// compat/options_convert.cc: see options_convert.h. Each field of RocksDB's
// structs (compat/include/rocksdb/{options,advanced_options,table}.h) is in
// exactly one place: a shared-field list (COMPAT_*_FIELDS, copied in both
// directions), a special case in the functions, a refusal
// (COMPAT_DEFAULT_ONLY), or marked "advisory" in the header.
#include "compat/options_convert.h"

#include <string>

#include "compat/env_internal.h"
#include "rocksdb/concurrent_task_limiter.h"
#include "rocksdb/db.h"
#include "rocksdb/flush_block_policy.h"
#include "rocksdb/listener.h"
#include "rocksdb/sst_file_manager.h"
#include "rocksdb/sst_partitioner.h"
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

// The fields RocksDB's and Strata's structs share, by name: each is copied
// as it is (an enum by value), in both directions. The fields that need more
// (objects, paths, enums of another shape) and the refused ones are handled
// one by one in the functions below.
#define COMPAT_COPY(field) o.field = static_cast<decltype(o.field)>(in.field);

// clang-format off
#define COMPAT_COMPRESSION_FIELDS(X)                                                              \
  X(window_bits) X(level) X(strategy) X(max_dict_bytes) X(zstd_max_train_bytes)                   \
  X(parallel_threads) X(enabled) X(max_dict_buffer_bytes) X(use_zstd_dict_trainer)

#define COMPAT_DB_FIELDS(X)                                                                       \
  X(create_if_missing) X(create_missing_column_families) X(error_if_exists) X(paranoid_checks)    \
  X(rate_limiter) X(info_log) X(max_open_files) X(max_total_wal_size) X(statistics)               \
  X(use_fsync) X(db_log_dir) X(wal_dir) X(max_background_jobs) X(max_log_file_size)               \
  X(log_file_time_to_roll) X(keep_log_file_num) X(max_manifest_file_size) X(WAL_ttl_seconds)      \
  X(WAL_size_limit_MB)                                                                            \
  X(allow_mmap_reads) X(allow_mmap_writes) X(use_direct_reads)                                    \
  X(use_direct_io_for_flush_and_compaction) X(stats_dump_period_sec) X(db_write_buffer_size)      \
  X(write_buffer_manager) X(compaction_readahead_size) X(writable_file_max_buffer_size)           \
  X(bytes_per_sync) X(wal_bytes_per_sync) X(strict_bytes_per_sync) X(delayed_write_rate)          \
  X(enable_pipelined_write) X(allow_concurrent_memtable_write)                                    \
  X(max_write_batch_group_size_bytes) X(wal_recovery_mode) X(allow_2pc)                           \
  X(avoid_flush_during_recovery) X(avoid_flush_during_shutdown) X(allow_ingest_behind)            \
  X(manual_wal_flush) X(max_bgerror_resume_count) X(bgerror_resume_retry_interval)              \
  X(wal_compression)

#define COMPAT_TABLE_FIELDS(X)                                                                    \
  X(cache_index_and_filter_blocks) X(cache_index_and_filter_blocks_with_high_priority)            \
  X(pin_l0_filter_and_index_blocks_in_cache) X(pin_top_level_index_and_filter) X(index_type)      \
  X(data_block_index_type) X(data_block_hash_table_util_ratio) X(checksum) X(no_block_cache)      \
  X(block_cache) X(block_size) X(block_size_deviation) X(block_restart_interval)                  \
  X(index_block_restart_interval) X(metadata_block_size) X(partition_filters)                     \
  X(use_delta_encoding) X(whole_key_filtering) X(format_version) X(enable_index_compression)      \
  X(max_auto_readahead_size) X(initial_auto_readahead_size)

#define COMPAT_CF_FIELDS(X)                                                                       \
  X(max_write_buffer_number) X(memtable_prefix_bloom_size_ratio)                                  \
  X(memtable_whole_key_filtering) X(arena_block_size) X(num_levels)                               \
  X(level0_slowdown_writes_trigger) X(level0_stop_writes_trigger) X(target_file_size_base)        \
  X(target_file_size_multiplier) X(level_compaction_dynamic_level_bytes)                          \
  X(max_bytes_for_level_multiplier) X(max_bytes_for_level_multiplier_additional)                  \
  X(max_compaction_bytes) X(soft_pending_compaction_bytes_limit)                                  \
  X(hard_pending_compaction_bytes_limit) X(compaction_style) X(compaction_pri)                    \
  X(compaction_options_universal) X(table_properties_collector_factories) X(ttl)                  \
  X(periodic_compaction_seconds) X(merge_operator) X(compaction_filter)                           \
  X(compaction_filter_factory) X(write_buffer_size) X(compression) X(bottommost_compression)      \
  X(level0_file_num_compaction_trigger) X(prefix_extractor) X(max_bytes_for_level_base)           \
  X(disable_auto_compactions)
// clang-format on

// The engine's level is RocksDB's type; a value past HEADER_LEVEL (such as
// NUM_INFO_LOG_LEVELS) logs what HEADER_LEVEL logs.
InfoLogLevel ClampLogLevel(InfoLogLevel level) {
  return level < NUM_INFO_LOG_LEVELS ? level : HEADER_LEVEL;
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
  CompressionOptions o;
  COMPAT_COMPRESSION_FIELDS(COMPAT_COPY)
  return o;
}

}  // namespace

::strata::CompressionOptions ConvertCompressionOptions(const CompressionOptions& in) {
  ::strata::CompressionOptions o;
  COMPAT_COMPRESSION_FIELDS(COMPAT_COPY)
  return o;
}

Status ConvertDBOptions(const DBOptions& in, ::strata::DBOptions* out,
                        const std::shared_ptr<ListenerTarget>& target) {
  const DBOptions def;
  ::strata::DBOptions& o = *out;
  COMPAT_DB_FIELDS(COMPAT_COPY)
  o.env = in.env != nullptr ? in.env->GetStrataEnv() : ::strata::Env::Default();
  // Strata maps table files by default (table_mmap_reads); a program's own
  // FileSystem must see RocksDB's requests only (use_mmap_reads when
  // allow_mmap_reads is set): an encrypted one, for one, refuses maps.
  if (in.env != nullptr && !in.allow_mmap_reads &&
      compat::UnwrapStrataFileSystem(in.env->GetFileSystem().get()) == nullptr) {
    o.table_mmap_reads = false;
  }
  if (in.sst_file_manager != nullptr && in.sst_file_manager->strata_manager() == nullptr) {
    return Status::InvalidArgument(
        "DBOptions::sst_file_manager: only a manager made by NewSstFileManager is supported");
  }
  o.sst_file_manager =
      in.sst_file_manager != nullptr ? in.sst_file_manager->strata_manager() : nullptr;
  o.info_log_level = ClampLogLevel(in.info_log_level);
  o.db_paths = ConvertPaths(in.db_paths);
  o.listeners.clear();
  // A target of its own only when there are listeners to wrap (this runs
  // per call in WriteBatchWithIndex::GetFromBatch).
  std::shared_ptr<ListenerTarget> listener_target = target;
  if (listener_target == nullptr && !in.listeners.empty()) {
    listener_target = std::make_shared<ListenerTarget>();
  }
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
  COMPAT_DEFAULT_ONLY(DBOptions, track_and_verify_wals_in_manifest);
  COMPAT_DEFAULT_ONLY(DBOptions, recycle_log_file_num);
  COMPAT_DEFAULT_ONLY(DBOptions, persist_stats_to_disk);
  COMPAT_DEFAULT_ONLY(DBOptions, unordered_write);
  COMPAT_DEFAULT_ONLY(DBOptions, row_cache);
  o.wal_filter = in.wal_filter;  // Strata's class (rocksdb/wal_filter.h)
  COMPAT_DEFAULT_ONLY(DBOptions, two_write_queues);
  COMPAT_DEFAULT_ONLY(DBOptions, atomic_flush);
  COMPAT_DEFAULT_ONLY(DBOptions, write_dbid_to_manifest);
  o.file_checksum_gen_factory = in.file_checksum_gen_factory;  // Strata's class
  COMPAT_DEFAULT_ONLY(DBOptions, best_efforts_recovery);
  COMPAT_DEFAULT_ONLY(DBOptions, compaction_service);
  {
    // RocksDB hands a checksum of each write of these file types to the file
    // system; Strata's writers hand none.
    FileTypeSet handoff = in.checksum_handoff_file_types;
    for (int t = 0; t <= static_cast<int>(kBlobFile); t++) {
      if (handoff.Contains(static_cast<FileType>(t))) {
        return Status::InvalidArgument(
            "DBOptions::checksum_handoff_file_types is not supported by Strata: its file system "
            "is handed no checksums (only the empty set is accepted)");
      }
    }
  }
  // RocksDB's memory-mapped WAL writes do not exist: its WAL is written
  // through ordinary buffered files.
  o.wal_mmap_writes = false;
  return Status::OK();
}

Status ConvertTableOptions(const BlockBasedTableOptions& in,
                           ::strata::BlockBasedTableOptions* out) {
  const BlockBasedTableOptions def;
  ::strata::BlockBasedTableOptions& o = *out;
  COMPAT_TABLE_FIELDS(COMPAT_COPY)
  o.cache_usage_options.options.charged = static_cast<::strata::CacheEntryRoleOptions::Decision>(
      in.cache_usage_options.options.charged);
  o.cache_usage_options.options_overrides.clear();
  for (const auto& [role, opt] : in.cache_usage_options.options_overrides) {
    o.cache_usage_options.options_overrides[role].charged =
        static_cast<::strata::CacheEntryRoleOptions::Decision>(opt.charged);
  }
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
  o.flush_block_policy_factory = ToStrataFlushBlockPolicyFactory(in);
  COMPAT_DEFAULT_ONLY(BlockBasedTableOptions, persistent_cache);
  COMPAT_DEFAULT_ONLY(BlockBasedTableOptions, block_cache_compressed);
  COMPAT_DEFAULT_ONLY(BlockBasedTableOptions, read_amp_bytes_per_bit);
  COMPAT_DEFAULT_ONLY(BlockBasedTableOptions, block_align);
  COMPAT_DEFAULT_ONLY(BlockBasedTableOptions, index_shortening);
  COMPAT_DEFAULT_ONLY(BlockBasedTableOptions, prepopulate_block_cache);
  return Status::OK();
}

Status ConvertCFOptions(const ColumnFamilyOptions& in, ::strata::ColumnFamilyOptions* out) {
  const ColumnFamilyOptions def;
  ::strata::ColumnFamilyOptions& o = *out;
  COMPAT_CF_FIELDS(COMPAT_COPY)
  o.compression_per_level.clear();
  for (CompressionType c : in.compression_per_level) {
    o.compression_per_level.push_back(static_cast<::strata::CompressionType>(c));
  }
  o.compaction_options_fifo.max_table_files_size = in.compaction_options_fifo.max_table_files_size;
  o.compaction_options_fifo.allow_compaction = in.compaction_options_fifo.allow_compaction;
  o.compaction_options_fifo.age_for_warm = in.compaction_options_fifo.age_for_warm;
  o.comparator = in.comparator != nullptr ? in.comparator : ::strata::BytewiseComparator();
  o.bottommost_compression_opts = ConvertCompressionOptions(in.bottommost_compression_opts);
  o.compression_opts = ConvertCompressionOptions(in.compression_opts);
  o.cf_paths = ConvertPaths(in.cf_paths);
  COMPAT_DEFAULT_ONLY(ColumnFamilyOptions, inplace_update_support);
  COMPAT_DEFAULT_ONLY(ColumnFamilyOptions, experimental_mempurge_threshold);
  // Strata's memtable is a skip list: RocksDB's default SkipListFactory (any
  // lookahead, a search hint) is what it does; other representations are not.
  if (in.memtable_factory != nullptr &&
      (dynamic_cast<const SkipListFactory*>(in.memtable_factory.get()) == nullptr ||
       std::string(in.memtable_factory->Name()) != SkipListFactory::kClassName())) {
    return Status::InvalidArgument(std::string("ColumnFamilyOptions::memtable_factory ") +
                                   in.memtable_factory->Name() +
                                   " is not supported by Strata: its memtable is a skip list "
                                   "(SkipListFactory)");
  }
  if (in.optimize_filters_for_hits)
    return Refused("ColumnFamilyOptions::optimize_filters_for_hits");
  COMPAT_DEFAULT_ONLY(ColumnFamilyOptions, bottommost_temperature);
  COMPAT_DEFAULT_ONLY(ColumnFamilyOptions, last_level_temperature);
  COMPAT_DEFAULT_ONLY(ColumnFamilyOptions, preclude_last_level_data_seconds);
  COMPAT_DEFAULT_ONLY(ColumnFamilyOptions, preserve_internal_time_seconds);
  COMPAT_DEFAULT_ONLY(ColumnFamilyOptions, enable_blob_files);
  o.compaction_thread_limiter = in.compaction_thread_limiter;
  o.sst_partitioner_factory = ToStrataSstPartitionerFactory(in.sst_partitioner_factory);
  if (in.table_factory != nullptr &&
      std::string(in.table_factory->Name()) != TableFactory::kBlockBasedTableName()) {
    return Status::InvalidArgument(std::string("ColumnFamilyOptions::table_factory is not "
                                               "supported by Strata: only block-based tables (") +
                                   in.table_factory->Name() + ")");
  }
  ::strata::BlockBasedTableOptions table;
  Status s = ConvertTableOptions(
      in.table_factory != nullptr ? in.table_factory->table_options() : BlockBasedTableOptions(),
      &table);
  if (!s.ok()) return s;
  o.table_factory = ::strata::NewBlockBasedTableFactory(table);
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
  COMPAT_DEFAULT_ONLY(ReadOptions, rate_limiter_priority);
  if (in.table_filter) return Refused("ReadOptions::table_filter");
  return Status::OK();
}

Status ConvertWriteOptions(const WriteOptions& in, ::strata::WriteOptions* out) {
  const WriteOptions def;
  out->sync = in.sync;
  out->disableWAL = in.disableWAL;
  out->no_slowdown = in.no_slowdown;
  COMPAT_DEFAULT_ONLY(WriteOptions, ignore_missing_column_families);
  COMPAT_DEFAULT_ONLY(WriteOptions, rate_limiter_priority);
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
// Refused and advisory fields are left as `out` holds them.

void ConvertBackDBOptions(const ::strata::DBOptions& in, DBOptions* out) {
  DBOptions& o = *out;
  COMPAT_DB_FIELDS(COMPAT_COPY)
  // The Env `out` holds is kept when it stands for in.env; Strata's default
  // Env comes back as Env::Default(); any other strata::Env has no RocksDB
  // object and leaves `out`'s as it was.
  if (o.env == nullptr || o.env->GetStrataEnv() != in.env) {
    if (in.env == ::strata::Env::Default()) o.env = Env::Default();
  }
  // The RocksDB manager `out` holds is kept when it wraps the same one.
  if (in.sst_file_manager == nullptr) {
    o.sst_file_manager = nullptr;
  } else if (o.sst_file_manager == nullptr ||
             o.sst_file_manager->strata_manager() != in.sst_file_manager) {
    o.sst_file_manager = std::make_shared<SstFileManager>(in.sst_file_manager);
  }
  o.info_log_level = in.info_log_level;
  o.db_paths = ConvertBackPaths(in.db_paths);
  o.wal_filter = in.wal_filter;
  o.file_checksum_gen_factory = in.file_checksum_gen_factory;
  // Listeners Open wrapped come back as they were given; Strata's own
  // listeners have no RocksDB form and are left out.
  o.listeners.clear();
  for (const std::shared_ptr<::strata::EventListener>& l : in.listeners) {
    if (auto adapter = std::dynamic_pointer_cast<ListenerAdapter>(l)) {
      o.listeners.push_back(adapter->listener());
    }
  }
}

void ConvertBackTableOptions(const ::strata::BlockBasedTableOptions& in,
                             const BlockBasedTableOptions* prev, BlockBasedTableOptions* out) {
  BlockBasedTableOptions& o = *out;
  COMPAT_TABLE_FIELDS(COMPAT_COPY)
  o.cache_usage_options.options.charged =
      static_cast<CacheEntryRoleOptions::Decision>(in.cache_usage_options.options.charged);
  o.cache_usage_options.options_overrides.clear();
  for (const auto& [role, opt] : in.cache_usage_options.options_overrides) {
    o.cache_usage_options.options_overrides[role].charged =
        static_cast<CacheEntryRoleOptions::Decision>(opt.charged);
  }
  if (in.filter_policy == nullptr) {
    o.filter_policy = nullptr;
  } else if (prev != nullptr && prev->filter_policy != nullptr &&
             prev->filter_policy->strata_policy() == in.filter_policy) {
    o.filter_policy = prev->filter_policy;
  } else {
    o.filter_policy = std::make_shared<const FilterPolicy>(in.filter_policy);
  }
  o.flush_block_policy_factory = FromStrataFlushBlockPolicyFactory(
      in.flush_block_policy_factory, prev != nullptr ? prev->flush_block_policy_factory : nullptr);
}

void ConvertBackCFOptions(const ::strata::ColumnFamilyOptions& in, ColumnFamilyOptions* out) {
  ColumnFamilyOptions& o = *out;
  COMPAT_CF_FIELDS(COMPAT_COPY)
  o.compression_per_level.clear();
  for (::strata::CompressionType c : in.compression_per_level) {
    o.compression_per_level.push_back(static_cast<CompressionType>(c));
  }
  o.compaction_options_fifo.max_table_files_size = in.compaction_options_fifo.max_table_files_size;
  o.compaction_options_fifo.allow_compaction = in.compaction_options_fifo.allow_compaction;
  o.compaction_options_fifo.age_for_warm = in.compaction_options_fifo.age_for_warm;
  o.comparator = in.comparator;
  o.bottommost_compression_opts = ConvertBackCompressionOptions(in.bottommost_compression_opts);
  o.compression_opts = ConvertBackCompressionOptions(in.compression_opts);
  o.cf_paths = ConvertBackPaths(in.cf_paths);
  o.compaction_thread_limiter = in.compaction_thread_limiter;
  o.sst_partitioner_factory =
      FromStrataSstPartitionerFactory(in.sst_partitioner_factory, o.sst_partitioner_factory);
  const BlockBasedTableOptions prev =
      o.table_factory != nullptr ? o.table_factory->table_options() : BlockBasedTableOptions();
  BlockBasedTableOptions table = prev;
  ConvertBackTableOptions(in.table_factory != nullptr ? in.table_factory->table_options()
                                                      : ::strata::BlockBasedTableOptions(),
                          &prev, &table);
  o.table_factory.reset(NewBlockBasedTableFactory(table));
}

void ConvertBackOptions(const ::strata::Options& in, Options* out) {
  ConvertBackDBOptions(in, out);
  ConvertBackCFOptions(in, out);
  out->DBOptions::max_subcompactions = in.max_subcompactions;
}

::strata::Status ConvertForOpen(const DBOptions& db_options,
                                const std::vector<ColumnFamilyDescriptor>& column_families,
                                const std::shared_ptr<ListenerTarget>& listener_target,
                                ::strata::DBOptions* sdb,
                                std::vector<::strata::ColumnFamilyDescriptor>* scfs) {
  ::strata::Status s = ConvertDBOptions(db_options, sdb, listener_target);
  if (!s.ok()) return s;
  for (const ColumnFamilyDescriptor& cf : column_families) {
    ::strata::ColumnFamilyOptions o;
    s = ConvertCFOptions(cf.options, &o);
    if (!s.ok()) return s;
    o.max_subcompactions = db_options.max_subcompactions;
    scfs->emplace_back(cf.name, o);
  }
  return s;
}

}  // namespace compat
}  // namespace rocksdb
