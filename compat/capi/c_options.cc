// c_options.cc: the options area of the C API (rocksdb/c.h): database and
// column-family options, read/write/compact/flush options, universal and
// FIFO compaction options, and loading or parsing options.
//
// Most functions copy one value into, or out of, one field of the wrapped
// RocksDB options struct. Options that Strata does not implement are still
// stored here: the compat layer refuses a non-default value by name when a
// database is opened with it, so nothing is silently dropped. Settings that
// rocksdb::Options itself cannot carry are recorded in
// rocksdb_options_t::refused and refused by the open functions.
#include <chrono>

#include "compat/capi/c_internal.h"
#include "rocksdb/merge_operator.h"
#include "rocksdb/statistics.h"
#include "rocksdb/utilities/table_properties_collectors.h"

using strata_capi::SaveError;

namespace {

// rocksdb_options_set_uint64add_merge_operator: operands and values are
// 8-byte little-endian unsigned integers; the merge result is their sum
// modulo 2^64. A value of another length counts as 0.
class UInt64AddOperator : public rocksdb::AssociativeMergeOperator {
 public:
  bool Merge(const rocksdb::Slice& key, const rocksdb::Slice* existing, const rocksdb::Slice& value,
             std::string* new_value, rocksdb::Logger* logger) const override {
    uint64_t sum = Decode(existing) + Decode(&value);
    new_value->resize(8);
    for (int i = 0; i < 8; i++) {
      (*new_value)[i] = static_cast<char>((sum >> (8 * i)) & 0xff);
    }
    return true;
  }
  const char* Name() const override { return "UInt64AddOperator"; }

 private:
  static uint64_t Decode(const rocksdb::Slice* s) {
    if (s == nullptr || s->size() != 8) return 0;
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) {
      v = (v << 8) | static_cast<unsigned char>((*s)[i]);
    }
    return v;
  }
};

void Refuse(rocksdb_options_t* opt, const char* fn) {
  for (const std::string& r : opt->refused) {
    if (r == fn) return;
  }
  opt->refused.emplace_back(fn);
}

}  // namespace

// A setter and a getter for one field of `rep`, converting between the C
// type and the field's own type.
#define STRATA_C_FIELD(T, prefix, cname, set_t, get_t, field) \
  void prefix##_set_##cname(T* o, set_t v) {                  \
    o->rep.field = static_cast<decltype(o->rep.field)>(v);    \
  }                                                           \
  get_t prefix##_get_##cname(T* o) { return static_cast<get_t>(o->rep.field); }
#define STRATA_OPT(cname, set_t, get_t, field) \
  STRATA_C_FIELD(rocksdb_options_t, rocksdb_options, cname, set_t, get_t, field)
#define STRATA_READOPT(cname, set_t, get_t, field) \
  STRATA_C_FIELD(rocksdb_readoptions_t, rocksdb_readoptions, cname, set_t, get_t, field)
#define STRATA_WRITEOPT(cname, set_t, get_t, field) \
  STRATA_C_FIELD(rocksdb_writeoptions_t, rocksdb_writeoptions, cname, set_t, get_t, field)
#define STRATA_COMPACTOPT(cname, set_t, get_t, field) \
  STRATA_C_FIELD(rocksdb_compactoptions_t, rocksdb_compactoptions, cname, set_t, get_t, field)
#define STRATA_UNIVERSAL(cname, field)                                                         \
  STRATA_C_FIELD(rocksdb_universal_compaction_options_t, rocksdb_universal_compaction_options, \
                 cname, int, int, field)

using UChar = unsigned char;
using UInt = unsigned int;

extern "C" {

// ---- the options object ----

rocksdb_options_t* rocksdb_options_create(void) { return new rocksdb_options_t; }

void rocksdb_options_destroy(rocksdb_options_t* options) { delete options; }

rocksdb_options_t* rocksdb_options_create_copy(rocksdb_options_t* options) {
  return new rocksdb_options_t(*options);
}

void rocksdb_options_increase_parallelism(rocksdb_options_t* opt, int total_threads) {
  opt->rep.IncreaseParallelism(total_threads);
}

void rocksdb_options_optimize_for_point_lookup(rocksdb_options_t* opt,
                                               uint64_t block_cache_size_mb) {
  opt->rep.OptimizeForPointLookup(block_cache_size_mb);
}

void rocksdb_options_optimize_level_style_compaction(rocksdb_options_t* opt,
                                                     uint64_t memtable_memory_budget) {
  opt->rep.OptimizeLevelStyleCompaction(memtable_memory_budget);
}

void rocksdb_options_optimize_universal_style_compaction(rocksdb_options_t* opt,
                                                         uint64_t memtable_memory_budget) {
  opt->rep.OptimizeUniversalStyleCompaction(memtable_memory_budget);
}

void rocksdb_options_prepare_for_bulk_load(rocksdb_options_t* opt) {
  opt->rep.PrepareForBulkLoad();
}

// ---- callbacks and shared objects ----

void rocksdb_options_set_compaction_filter(rocksdb_options_t* opt,
                                           rocksdb_compactionfilter_t* filter) {
  opt->rep.compaction_filter =
      strata_capi::CompactionFilterOf(filter);  // borrowed: the caller keeps it alive
  // A filter that would see entries snapshots can read is not offered
  // (Strata's filters skip them, as RocksDB's do by default).
  if (!strata_capi::CompactionFilterIgnoresSnapshots(filter)) {
    Refuse(opt, "rocksdb_compactionfilter_set_ignore_snapshots");
  }
}

void rocksdb_options_set_compaction_filter_factory(rocksdb_options_t* opt,
                                                   rocksdb_compactionfilterfactory_t* factory) {
  opt->rep.compaction_filter_factory = strata_capi::TakeCompactionFilterFactory(factory);
}

void rocksdb_options_set_comparator(rocksdb_options_t* opt, rocksdb_comparator_t* cmp) {
  opt->rep.comparator = strata_capi::ComparatorOf(cmp);  // borrowed: the caller keeps it alive
}

void rocksdb_options_set_merge_operator(rocksdb_options_t* opt, rocksdb_mergeoperator_t* merge_op) {
  opt->rep.merge_operator = strata_capi::TakeMergeOperator(merge_op);
}

void rocksdb_options_set_uint64add_merge_operator(rocksdb_options_t* opt) {
  opt->rep.merge_operator = std::make_shared<UInt64AddOperator>();
}

void rocksdb_options_set_prefix_extractor(rocksdb_options_t* opt,
                                          rocksdb_slicetransform_t* prefix) {
  opt->rep.prefix_extractor = strata_capi::TakeSliceTransform(prefix);
}

void rocksdb_options_set_env(rocksdb_options_t* opt, rocksdb_env_t* env) {
  opt->rep.env = env != nullptr ? env->rep : rocksdb::Env::Default();
}

void rocksdb_options_set_info_log(rocksdb_options_t* opt, rocksdb_logger_t* logger) {
  opt->rep.info_log = logger != nullptr ? logger->rep : nullptr;
}

void rocksdb_options_set_ratelimiter(rocksdb_options_t* opt, rocksdb_ratelimiter_t* limiter) {
  opt->rep.rate_limiter = limiter != nullptr ? limiter->rep : nullptr;
}

void rocksdb_options_set_row_cache(rocksdb_options_t* opt, rocksdb_cache_t* cache) {
  opt->rep.row_cache = cache != nullptr ? cache->rep : nullptr;
}

void rocksdb_options_set_blob_cache(rocksdb_options_t* opt, rocksdb_cache_t* blob_cache) {
  opt->rep.blob_cache = blob_cache != nullptr ? blob_cache->rep : nullptr;
}

void rocksdb_options_enable_statistics(rocksdb_options_t* opt) {
  opt->rep.statistics = rocksdb::CreateDBStatistics();
}

char* rocksdb_options_statistics_get_string(rocksdb_options_t* opt) {
  if (opt->rep.statistics == nullptr) return nullptr;
  return strata_capi::CopyString(opt->rep.statistics->ToString());
}

void rocksdb_options_set_db_paths(rocksdb_options_t* opt, const rocksdb_dbpath_t** path_values,
                                  size_t num_paths) {
  opt->rep.db_paths.clear();
  for (size_t i = 0; i < num_paths; i++) {
    opt->rep.db_paths.push_back(path_values[i]->rep);
  }
}

void rocksdb_options_set_db_log_dir(rocksdb_options_t* opt, const char* dir) {
  opt->rep.db_log_dir = dir;
}

void rocksdb_options_set_wal_dir(rocksdb_options_t* opt, const char* dir) {
  opt->rep.wal_dir = dir;
}

void rocksdb_options_set_universal_compaction_options(rocksdb_options_t* opt,
                                                      rocksdb_universal_compaction_options_t* uco) {
  opt->rep.compaction_options_universal = uco->rep;
}

void rocksdb_options_set_fifo_compaction_options(rocksdb_options_t* opt,
                                                 rocksdb_fifo_compaction_options_t* fifo) {
  opt->rep.compaction_options_fifo = fifo->rep;
}

// ---- compression ----

void rocksdb_options_set_compression_per_level(rocksdb_options_t* opt, const int* level_values,
                                               size_t num_levels) {
  opt->rep.compression_per_level.clear();
  for (size_t i = 0; i < num_levels; i++) {
    opt->rep.compression_per_level.push_back(
        static_cast<rocksdb::CompressionType>(level_values[i]));
  }
}

void rocksdb_options_set_min_level_to_compress(rocksdb_options_t* opt, int level) {
  // Levels below `level` are not compressed; the others use the
  // options' compression type. A negative level changes nothing.
  if (level < 0) return;
  opt->rep.compression_per_level.assign(opt->rep.num_levels, opt->rep.compression);
  for (int i = 0; i < level && i < opt->rep.num_levels; i++) {
    opt->rep.compression_per_level[i] = rocksdb::kNoCompression;
  }
}

void rocksdb_options_set_compression_options(rocksdb_options_t* opt, int w_bits, int level,
                                             int strategy, int max_dict_bytes) {
  opt->rep.compression_opts.window_bits = w_bits;
  opt->rep.compression_opts.level = level;
  opt->rep.compression_opts.strategy = strategy;
  opt->rep.compression_opts.max_dict_bytes = max_dict_bytes;
}

STRATA_OPT(compression_options_zstd_max_train_bytes, int, int,
           compression_opts.zstd_max_train_bytes)
STRATA_OPT(compression_options_use_zstd_dict_trainer, UChar, UChar,
           compression_opts.use_zstd_dict_trainer)
STRATA_OPT(compression_options_parallel_threads, int, int, compression_opts.parallel_threads)
STRATA_OPT(compression_options_max_dict_buffer_bytes, uint64_t, uint64_t,
           compression_opts.max_dict_buffer_bytes)

void rocksdb_options_set_bottommost_compression_options(rocksdb_options_t* opt, int w_bits,
                                                        int level, int strategy, int max_dict_bytes,
                                                        unsigned char enabled) {
  opt->rep.bottommost_compression_opts.window_bits = w_bits;
  opt->rep.bottommost_compression_opts.level = level;
  opt->rep.bottommost_compression_opts.strategy = strategy;
  opt->rep.bottommost_compression_opts.max_dict_bytes = max_dict_bytes;
  opt->rep.bottommost_compression_opts.enabled = enabled;
}

void rocksdb_options_set_bottommost_compression_options_zstd_max_train_bytes(
    rocksdb_options_t* opt, int zstd_max_train_bytes, unsigned char enabled) {
  opt->rep.bottommost_compression_opts.zstd_max_train_bytes = zstd_max_train_bytes;
  opt->rep.bottommost_compression_opts.enabled = enabled;
}

void rocksdb_options_set_bottommost_compression_options_use_zstd_dict_trainer(
    rocksdb_options_t* opt, unsigned char use_trainer, unsigned char enabled) {
  opt->rep.bottommost_compression_opts.use_zstd_dict_trainer = use_trainer;
  opt->rep.bottommost_compression_opts.enabled = enabled;
}

unsigned char rocksdb_options_get_bottommost_compression_options_use_zstd_dict_trainer(
    rocksdb_options_t* opt) {
  return opt->rep.bottommost_compression_opts.use_zstd_dict_trainer;
}

void rocksdb_options_set_bottommost_compression_options_max_dict_buffer_bytes(
    rocksdb_options_t* opt, uint64_t max_dict_buffer_bytes, unsigned char enabled) {
  opt->rep.bottommost_compression_opts.max_dict_buffer_bytes = max_dict_buffer_bytes;
  opt->rep.bottommost_compression_opts.enabled = enabled;
}

STRATA_OPT(compression, int, int, compression)
STRATA_OPT(bottommost_compression, int, int, bottommost_compression)
STRATA_OPT(wal_compression, int, int, wal_compression)

// ---- plain fields ----

STRATA_OPT(allow_ingest_behind, UChar, UChar, allow_ingest_behind)
STRATA_OPT(create_if_missing, UChar, UChar, create_if_missing)
STRATA_OPT(create_missing_column_families, UChar, UChar, create_missing_column_families)
STRATA_OPT(error_if_exists, UChar, UChar, error_if_exists)
STRATA_OPT(paranoid_checks, UChar, UChar, paranoid_checks)
STRATA_OPT(info_log_level, int, int, info_log_level)
STRATA_OPT(write_buffer_size, size_t, size_t, write_buffer_size)
STRATA_OPT(db_write_buffer_size, size_t, size_t, db_write_buffer_size)
STRATA_OPT(max_open_files, int, int, max_open_files)
STRATA_OPT(max_file_opening_threads, int, int, max_file_opening_threads)
STRATA_OPT(max_total_wal_size, uint64_t, uint64_t, max_total_wal_size)
STRATA_OPT(num_levels, int, int, num_levels)
STRATA_OPT(level0_file_num_compaction_trigger, int, int, level0_file_num_compaction_trigger)
STRATA_OPT(level0_slowdown_writes_trigger, int, int, level0_slowdown_writes_trigger)
STRATA_OPT(level0_stop_writes_trigger, int, int, level0_stop_writes_trigger)
STRATA_OPT(target_file_size_base, uint64_t, uint64_t, target_file_size_base)
STRATA_OPT(target_file_size_multiplier, int, int, target_file_size_multiplier)
STRATA_OPT(max_bytes_for_level_base, uint64_t, uint64_t, max_bytes_for_level_base)
STRATA_OPT(level_compaction_dynamic_level_bytes, UChar, UChar, level_compaction_dynamic_level_bytes)
STRATA_OPT(max_bytes_for_level_multiplier, double, double, max_bytes_for_level_multiplier)
STRATA_OPT(skip_stats_update_on_db_open, UChar, UChar, skip_stats_update_on_db_open)
STRATA_OPT(skip_checking_sst_file_sizes_on_db_open, UChar, UChar,
           skip_checking_sst_file_sizes_on_db_open)
STRATA_OPT(enable_blob_files, UChar, UChar, enable_blob_files)
STRATA_OPT(min_blob_size, uint64_t, uint64_t, min_blob_size)
STRATA_OPT(blob_file_size, uint64_t, uint64_t, blob_file_size)
STRATA_OPT(blob_compression_type, int, int, blob_compression_type)
STRATA_OPT(enable_blob_gc, UChar, UChar, enable_blob_garbage_collection)
STRATA_OPT(blob_gc_age_cutoff, double, double, blob_garbage_collection_age_cutoff)
STRATA_OPT(blob_gc_force_threshold, double, double, blob_garbage_collection_force_threshold)
STRATA_OPT(blob_compaction_readahead_size, uint64_t, uint64_t, blob_compaction_readahead_size)
STRATA_OPT(blob_file_starting_level, int, int, blob_file_starting_level)
STRATA_OPT(prepopulate_blob_cache, int, int, prepopulate_blob_cache)
STRATA_OPT(max_write_buffer_number, int, int, max_write_buffer_number)
STRATA_OPT(min_write_buffer_number_to_merge, int, int, min_write_buffer_number_to_merge)
STRATA_OPT(max_write_buffer_number_to_maintain, int, int, max_write_buffer_number_to_maintain)
STRATA_OPT(max_write_buffer_size_to_maintain, int64_t, int64_t, max_write_buffer_size_to_maintain)
STRATA_OPT(enable_pipelined_write, UChar, UChar, enable_pipelined_write)
STRATA_OPT(unordered_write, UChar, UChar, unordered_write)
STRATA_OPT(max_subcompactions, uint32_t, uint32_t, max_subcompactions)
STRATA_OPT(max_background_jobs, int, int, max_background_jobs)
STRATA_OPT(max_background_compactions, int, int, max_background_compactions)
STRATA_OPT(max_background_flushes, int, int, max_background_flushes)
STRATA_OPT(max_log_file_size, size_t, size_t, max_log_file_size)
STRATA_OPT(log_file_time_to_roll, size_t, size_t, log_file_time_to_roll)
STRATA_OPT(keep_log_file_num, size_t, size_t, keep_log_file_num)
STRATA_OPT(recycle_log_file_num, size_t, size_t, recycle_log_file_num)
STRATA_OPT(soft_pending_compaction_bytes_limit, size_t, size_t, soft_pending_compaction_bytes_limit)
STRATA_OPT(hard_pending_compaction_bytes_limit, size_t, size_t, hard_pending_compaction_bytes_limit)
STRATA_OPT(max_manifest_file_size, size_t, size_t, max_manifest_file_size)
STRATA_OPT(table_cache_numshardbits, int, int, table_cache_numshardbits)
STRATA_OPT(arena_block_size, size_t, size_t, arena_block_size)
STRATA_OPT(use_fsync, int, int, use_fsync)
STRATA_OPT(WAL_ttl_seconds, uint64_t, uint64_t, WAL_ttl_seconds)
STRATA_OPT(WAL_size_limit_MB, uint64_t, uint64_t, WAL_size_limit_MB)
STRATA_OPT(manifest_preallocation_size, size_t, size_t, manifest_preallocation_size)
STRATA_OPT(allow_mmap_reads, UChar, UChar, allow_mmap_reads)
STRATA_OPT(allow_mmap_writes, UChar, UChar, allow_mmap_writes)
STRATA_OPT(use_direct_reads, UChar, UChar, use_direct_reads)
STRATA_OPT(use_direct_io_for_flush_and_compaction, UChar, UChar,
           use_direct_io_for_flush_and_compaction)
STRATA_OPT(is_fd_close_on_exec, UChar, UChar, is_fd_close_on_exec)
STRATA_OPT(stats_dump_period_sec, UInt, UInt, stats_dump_period_sec)
STRATA_OPT(stats_persist_period_sec, UInt, UInt, stats_persist_period_sec)
STRATA_OPT(advise_random_on_open, UChar, UChar, advise_random_on_open)
STRATA_OPT(access_hint_on_compaction_start, int, int, access_hint_on_compaction_start)
STRATA_OPT(use_adaptive_mutex, UChar, UChar, use_adaptive_mutex)
STRATA_OPT(bytes_per_sync, uint64_t, uint64_t, bytes_per_sync)
STRATA_OPT(wal_bytes_per_sync, uint64_t, uint64_t, wal_bytes_per_sync)
STRATA_OPT(writable_file_max_buffer_size, uint64_t, uint64_t, writable_file_max_buffer_size)
STRATA_OPT(allow_concurrent_memtable_write, UChar, UChar, allow_concurrent_memtable_write)
STRATA_OPT(enable_write_thread_adaptive_yield, UChar, UChar, enable_write_thread_adaptive_yield)
STRATA_OPT(max_sequential_skip_in_iterations, uint64_t, uint64_t, max_sequential_skip_in_iterations)
STRATA_OPT(disable_auto_compactions, int, UChar, disable_auto_compactions)
STRATA_OPT(optimize_filters_for_hits, int, UChar, optimize_filters_for_hits)
STRATA_OPT(delete_obsolete_files_period_micros, uint64_t, uint64_t,
           delete_obsolete_files_period_micros)
STRATA_OPT(memtable_prefix_bloom_size_ratio, double, double, memtable_prefix_bloom_size_ratio)
STRATA_OPT(max_compaction_bytes, uint64_t, uint64_t, max_compaction_bytes)
STRATA_OPT(memtable_huge_page_size, size_t, size_t, memtable_huge_page_size)
STRATA_OPT(max_successive_merges, size_t, size_t, max_successive_merges)
STRATA_OPT(bloom_locality, uint32_t, uint32_t, bloom_locality)
STRATA_OPT(inplace_update_support, UChar, UChar, inplace_update_support)
STRATA_OPT(inplace_update_num_locks, size_t, size_t, inplace_update_num_locks)
STRATA_OPT(report_bg_io_stats, int, UChar, report_bg_io_stats)
STRATA_OPT(avoid_unnecessary_blocking_io, UChar, UChar, avoid_unnecessary_blocking_io)
STRATA_OPT(experimental_mempurge_threshold, double, double, experimental_mempurge_threshold)
STRATA_OPT(wal_recovery_mode, int, int, wal_recovery_mode)
STRATA_OPT(compaction_style, int, int, compaction_style)
STRATA_OPT(atomic_flush, UChar, UChar, atomic_flush)
STRATA_OPT(manual_wal_flush, UChar, UChar, manual_wal_flush)

void rocksdb_options_compaction_readahead_size(rocksdb_options_t* opt, size_t n) {
  opt->rep.compaction_readahead_size = n;
}

size_t rocksdb_options_get_compaction_readahead_size(rocksdb_options_t* opt) {
  return opt->rep.compaction_readahead_size;
}

void rocksdb_options_set_max_bytes_for_level_multiplier_additional(rocksdb_options_t* opt,
                                                                   int* level_values,
                                                                   size_t num_levels) {
  opt->rep.max_bytes_for_level_multiplier_additional.assign(level_values,
                                                            level_values + num_levels);
}

void rocksdb_options_set_dump_malloc_stats(rocksdb_options_t* opt, unsigned char val) {
  opt->rep.dump_malloc_stats = val;
}

void rocksdb_options_set_memtable_whole_key_filtering(rocksdb_options_t* opt, unsigned char val) {
  opt->rep.memtable_whole_key_filtering = val;
}

// ---- table-properties collectors ----

void rocksdb_options_add_compact_on_deletion_collector_factory(rocksdb_options_t* opt,
                                                               size_t window_size,
                                                               size_t num_dels_trigger) {
  opt->rep.table_properties_collector_factories.emplace_back(
      rocksdb::NewCompactOnDeletionCollectorFactory(window_size, num_dels_trigger));
}

// ---- settings rocksdb::Options cannot carry: refused at open ----

void rocksdb_options_set_memtable_vector_rep(rocksdb_options_t* opt) {
  Refuse(opt, "rocksdb_options_set_memtable_vector_rep");
}

void rocksdb_options_set_hash_skip_list_rep(rocksdb_options_t* opt, size_t bucket_count,
                                            int32_t skiplist_height,
                                            int32_t skiplist_branching_factor) {
  Refuse(opt, "rocksdb_options_set_hash_skip_list_rep");
}

void rocksdb_options_set_hash_link_list_rep(rocksdb_options_t* opt, size_t bucket_count) {
  Refuse(opt, "rocksdb_options_set_hash_link_list_rep");
}

// ---- read options ----

rocksdb_readoptions_t* rocksdb_readoptions_create(void) { return new rocksdb_readoptions_t; }

void rocksdb_readoptions_destroy(rocksdb_readoptions_t* opt) { delete opt; }

STRATA_READOPT(verify_checksums, UChar, UChar, verify_checksums)
STRATA_READOPT(fill_cache, UChar, UChar, fill_cache)
STRATA_READOPT(read_tier, int, int, read_tier)
STRATA_READOPT(tailing, UChar, UChar, tailing)
STRATA_READOPT(readahead_size, size_t, size_t, readahead_size)
STRATA_READOPT(prefix_same_as_start, UChar, UChar, prefix_same_as_start)
STRATA_READOPT(pin_data, UChar, UChar, pin_data)
STRATA_READOPT(total_order_seek, UChar, UChar, total_order_seek)
STRATA_READOPT(max_skippable_internal_keys, uint64_t, uint64_t, max_skippable_internal_keys)
STRATA_READOPT(background_purge_on_iterator_cleanup, UChar, UChar,
               background_purge_on_iterator_cleanup)
STRATA_READOPT(ignore_range_deletions, UChar, UChar, ignore_range_deletions)

void rocksdb_readoptions_set_managed(rocksdb_readoptions_t* opt, unsigned char v) {
  opt->rep.managed = v;
}

void rocksdb_readoptions_set_snapshot(rocksdb_readoptions_t* opt, const rocksdb_snapshot_t* snap) {
  opt->rep.snapshot = snap != nullptr ? snap->rep : nullptr;
}

void rocksdb_readoptions_set_iterate_upper_bound(rocksdb_readoptions_t* opt, const char* key,
                                                 size_t keylen) {
  if (key == nullptr) {
    opt->upper_bound.clear();
    opt->rep.iterate_upper_bound = nullptr;
    return;
  }
  opt->upper_bound.assign(key, keylen);
  opt->upper_bound_slice = rocksdb::Slice(opt->upper_bound);
  opt->rep.iterate_upper_bound = &opt->upper_bound_slice;
}

void rocksdb_readoptions_set_iterate_lower_bound(rocksdb_readoptions_t* opt, const char* key,
                                                 size_t keylen) {
  if (key == nullptr) {
    opt->lower_bound.clear();
    opt->rep.iterate_lower_bound = nullptr;
    return;
  }
  opt->lower_bound.assign(key, keylen);
  opt->lower_bound_slice = rocksdb::Slice(opt->lower_bound);
  opt->rep.iterate_lower_bound = &opt->lower_bound_slice;
}

void rocksdb_readoptions_set_deadline(rocksdb_readoptions_t* opt, uint64_t microseconds) {
  opt->rep.deadline = std::chrono::microseconds(microseconds);
}

uint64_t rocksdb_readoptions_get_deadline(rocksdb_readoptions_t* opt) {
  return static_cast<uint64_t>(opt->rep.deadline.count());
}

void rocksdb_readoptions_set_io_timeout(rocksdb_readoptions_t* opt, uint64_t microseconds) {
  opt->rep.io_timeout = std::chrono::microseconds(microseconds);
}

uint64_t rocksdb_readoptions_get_io_timeout(rocksdb_readoptions_t* opt) {
  return static_cast<uint64_t>(opt->rep.io_timeout.count());
}

// ---- write options ----

rocksdb_writeoptions_t* rocksdb_writeoptions_create(void) { return new rocksdb_writeoptions_t; }

void rocksdb_writeoptions_destroy(rocksdb_writeoptions_t* opt) { delete opt; }

STRATA_WRITEOPT(sync, UChar, UChar, sync)
STRATA_WRITEOPT(ignore_missing_column_families, UChar, UChar, ignore_missing_column_families)
STRATA_WRITEOPT(no_slowdown, UChar, UChar, no_slowdown)
STRATA_WRITEOPT(low_pri, UChar, UChar, low_pri)
STRATA_WRITEOPT(memtable_insert_hint_per_batch, UChar, UChar, memtable_insert_hint_per_batch)

void rocksdb_writeoptions_disable_WAL(rocksdb_writeoptions_t* opt, int disable) {
  opt->rep.disableWAL = disable != 0;
}

unsigned char rocksdb_writeoptions_get_disable_WAL(rocksdb_writeoptions_t* opt) {
  return opt->rep.disableWAL;
}

// ---- compact and flush options ----

rocksdb_compactoptions_t* rocksdb_compactoptions_create(void) {
  return new rocksdb_compactoptions_t;
}

void rocksdb_compactoptions_destroy(rocksdb_compactoptions_t* opt) { delete opt; }

STRATA_COMPACTOPT(exclusive_manual_compaction, UChar, UChar, exclusive_manual_compaction)
STRATA_COMPACTOPT(bottommost_level_compaction, UChar, UChar, bottommost_level_compaction)
STRATA_COMPACTOPT(change_level, UChar, UChar, change_level)
STRATA_COMPACTOPT(target_level, int, int, target_level)

rocksdb_flushoptions_t* rocksdb_flushoptions_create(void) { return new rocksdb_flushoptions_t; }

void rocksdb_flushoptions_destroy(rocksdb_flushoptions_t* opt) { delete opt; }

void rocksdb_flushoptions_set_wait(rocksdb_flushoptions_t* opt, unsigned char v) {
  opt->rep.wait = v;
}

unsigned char rocksdb_flushoptions_get_wait(rocksdb_flushoptions_t* opt) { return opt->rep.wait; }

// ---- universal and FIFO compaction options ----

rocksdb_universal_compaction_options_t* rocksdb_universal_compaction_options_create(void) {
  return new rocksdb_universal_compaction_options_t;
}

void rocksdb_universal_compaction_options_destroy(rocksdb_universal_compaction_options_t* uco) {
  delete uco;
}

STRATA_UNIVERSAL(size_ratio, size_ratio)
STRATA_UNIVERSAL(min_merge_width, min_merge_width)
STRATA_UNIVERSAL(max_merge_width, max_merge_width)
STRATA_UNIVERSAL(max_size_amplification_percent, max_size_amplification_percent)
STRATA_UNIVERSAL(compression_size_percent, compression_size_percent)
STRATA_UNIVERSAL(stop_style, stop_style)

rocksdb_fifo_compaction_options_t* rocksdb_fifo_compaction_options_create(void) {
  return new rocksdb_fifo_compaction_options_t;
}

void rocksdb_fifo_compaction_options_set_max_table_files_size(
    rocksdb_fifo_compaction_options_t* fifo_opts, uint64_t size) {
  fifo_opts->rep.max_table_files_size = size;
}

uint64_t rocksdb_fifo_compaction_options_get_max_table_files_size(
    rocksdb_fifo_compaction_options_t* fifo_opts) {
  return fifo_opts->rep.max_table_files_size;
}

void rocksdb_fifo_compaction_options_destroy(rocksdb_fifo_compaction_options_t* fifo_opts) {
  delete fifo_opts;
}

// ---- options from strings, files and a live database ----

static void SetOptionsImpl(rocksdb_t* db, rocksdb::ColumnFamilyHandle* cf, int count,
                           const char* const keys[], const char* const values[], char** errptr) {
  std::unordered_map<std::string, std::string> changes;
  for (int i = 0; i < count; i++) changes[keys[i]] = values[i];
  SaveError(errptr,
            cf != nullptr ? db->rep->SetOptions(cf, changes) : db->rep->SetOptions(changes));
}

void rocksdb_set_options(rocksdb_t* db, int count, const char* const keys[],
                         const char* const values[], char** errptr) {
  SetOptionsImpl(db, nullptr, count, keys, values, errptr);
}

void rocksdb_set_options_cf(rocksdb_t* db, rocksdb_column_family_handle_t* handle, int count,
                            const char* const keys[], const char* const values[], char** errptr) {
  SetOptionsImpl(db, handle->rep, count, keys, values, errptr);
}

}  // extern "C"
