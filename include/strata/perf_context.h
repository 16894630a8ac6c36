// PerfContext: per-thread counters and timers of what the calling thread's
// reads and writes did inside the engine (comparisons, block reads, time in
// the memtable, in the WAL, ...), with RocksDB's field names.
//
// Collection is switched per thread by SetPerfLevel (strata/perf_level.h):
// at kDisable (the default) nothing is touched; kEnableCount fills the
// *_count and byte fields; kEnableTimeExceptForMutex and above also fill
// the *_time and *_nanos fields (nanoseconds); db_mutex_lock_nanos and
// db_condition_wait_nanos need kEnableTime. Fields of features Strata does
// not have (blobs, secondary cache, transactions' key locks) stay 0; see
// docs/design/statistics.md for which fields are filled where.
//
// Thread-safety: not thread-safe; each thread owns its context and only
// that thread may read or reset it while it runs engine calls.
#pragma once

#include <cstdint>
#include <string>

#include "strata/export.h"
#include "strata/perf_level.h"

namespace strata {

struct STRATA_EXPORT PerfContext {
  // Zeroes every field.
  void Reset();
  // "name = value, " for every field, in declaration order (RocksDB's
  // format); with exclude_zero_counters only the non-zero ones. The last
  // ", " is dropped.
  std::string ToString(bool exclude_zero_counters = false) const;

  uint64_t user_key_comparison_count;
  uint64_t block_cache_hit_count;
  uint64_t block_read_count;
  uint64_t block_read_byte;
  uint64_t block_read_time;
  uint64_t block_cache_index_hit_count;
  uint64_t block_cache_standalone_handle_count;
  uint64_t block_cache_real_handle_count;
  uint64_t index_block_read_count;
  uint64_t block_cache_filter_hit_count;
  uint64_t filter_block_read_count;
  uint64_t compression_dict_block_read_count;
  uint64_t secondary_cache_hit_count;
  uint64_t compressed_sec_cache_insert_real_count;
  uint64_t compressed_sec_cache_insert_dummy_count;
  uint64_t compressed_sec_cache_uncompressed_bytes;
  uint64_t compressed_sec_cache_compressed_bytes;
  uint64_t block_checksum_time;
  uint64_t block_decompress_time;
  uint64_t get_read_bytes;
  uint64_t multiget_read_bytes;
  uint64_t iter_read_bytes;
  uint64_t blob_cache_hit_count;
  uint64_t blob_read_count;
  uint64_t blob_read_byte;
  uint64_t blob_read_time;
  uint64_t blob_checksum_time;
  uint64_t blob_decompress_time;
  uint64_t internal_key_skipped_count;
  uint64_t internal_delete_skipped_count;
  uint64_t internal_recent_skipped_count;
  uint64_t internal_merge_count;
  uint64_t internal_range_del_reseek_count;
  uint64_t write_wal_time;
  uint64_t get_snapshot_time;
  uint64_t get_from_memtable_time;
  uint64_t get_from_memtable_count;
  uint64_t get_post_process_time;
  uint64_t get_from_output_files_time;
  uint64_t seek_on_memtable_time;
  uint64_t seek_on_memtable_count;
  uint64_t next_on_memtable_count;
  uint64_t prev_on_memtable_count;
  uint64_t seek_child_seek_time;
  uint64_t seek_child_seek_count;
  uint64_t seek_min_heap_time;
  uint64_t seek_internal_seek_time;
  uint64_t find_next_user_entry_time;
  uint64_t write_pre_and_post_process_time;
  uint64_t write_memtable_time;
  uint64_t write_thread_wait_nanos;
  uint64_t write_scheduling_flushes_compactions_time;
  uint64_t db_mutex_lock_nanos;
  uint64_t db_condition_wait_nanos;
  uint64_t merge_operator_time_nanos;
  uint64_t write_delay_time;
  uint64_t read_index_block_nanos;
  uint64_t read_filter_block_nanos;
  uint64_t new_table_block_iter_nanos;
  uint64_t new_table_iterator_nanos;
  uint64_t block_seek_nanos;
  uint64_t find_table_nanos;
  uint64_t bloom_memtable_hit_count;
  uint64_t bloom_memtable_miss_count;
  uint64_t bloom_sst_hit_count;
  uint64_t bloom_sst_miss_count;
  uint64_t key_lock_wait_time;
  uint64_t key_lock_wait_count;
  uint64_t env_new_sequential_file_nanos;
  uint64_t env_new_random_access_file_nanos;
  uint64_t env_new_writable_file_nanos;
  uint64_t env_reuse_writable_file_nanos;
  uint64_t env_new_random_rw_file_nanos;
  uint64_t env_new_directory_nanos;
  uint64_t env_file_exists_nanos;
  uint64_t env_get_children_nanos;
  uint64_t env_get_children_file_attributes_nanos;
  uint64_t env_delete_file_nanos;
  uint64_t env_create_dir_nanos;
  uint64_t env_create_dir_if_missing_nanos;
  uint64_t env_delete_dir_nanos;
  uint64_t env_get_file_size_nanos;
  uint64_t env_get_file_modification_time_nanos;
  uint64_t env_rename_file_nanos;
  uint64_t env_link_file_nanos;
  uint64_t env_lock_file_nanos;
  uint64_t env_unlock_file_nanos;
  uint64_t env_new_logger_nanos;
  uint64_t get_cpu_nanos;
  uint64_t iter_next_cpu_nanos;
  uint64_t iter_prev_cpu_nanos;
  uint64_t iter_seek_cpu_nanos;
  uint64_t number_async_seek;
};

// The calling thread's context (zero when the thread starts). The pointer
// stays valid for the thread's lifetime.
STRATA_EXPORT PerfContext* get_perf_context();

}  // namespace strata
