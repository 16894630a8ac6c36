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
#include <map>
#include <string>

#include "strata/export.h"
#include "strata/perf_level.h"

namespace strata {

// Counters of one LSM level (PerfContext::level_to_perf_context).
struct STRATA_EXPORT PerfContextByLevel {
  uint64_t bloom_filter_useful = 0;
  uint64_t bloom_filter_full_positive = 0;
  uint64_t bloom_filter_full_true_positive = 0;
  uint64_t user_key_return_count = 0;
  uint64_t get_from_table_nanos = 0;
  uint64_t block_cache_hit_count = 0;
  uint64_t block_cache_miss_count = 0;
  // Zeroes every field.
  void Reset();
};

struct STRATA_EXPORT PerfContext {
  // Every counter 0 (constant: the per-thread context needs no dynamic
  // initialization).
  constexpr PerfContext() noexcept {}
  // A copy (or move) has the counters and the per-level flag;
  // level_to_perf_context of a copy is a map of its own, owned by the
  // copying thread (as the map EnablePerLevelPerfContext makes), holding the
  // same entries.
  PerfContext(const PerfContext& other);
  PerfContext& operator=(const PerfContext& other);
  PerfContext(PerfContext&& other) noexcept;

  // Zeroes every counter (the per-level ones too).
  void Reset();
  // Makes level_to_perf_context (a map of the calling thread's, freed when
  // the thread ends) if null, and sets per_level_perf_context_enabled.
  void EnablePerLevelPerfContext();
  void DisablePerLevelPerfContext();
  // Empties the map, sets level_to_perf_context null and the flag false.
  void ClearPerLevelPerfContext();
  // "name = value, " for every field, in declaration order (RocksDB's
  // format); with exclude_zero_counters only the non-zero ones. The last
  // ", " is dropped.
  std::string ToString(bool exclude_zero_counters = false) const;

  uint64_t user_key_comparison_count = 0;
  uint64_t block_cache_hit_count = 0;
  uint64_t block_read_count = 0;
  uint64_t block_read_byte = 0;
  uint64_t block_read_time = 0;
  uint64_t block_cache_index_hit_count = 0;
  uint64_t block_cache_standalone_handle_count = 0;
  uint64_t block_cache_real_handle_count = 0;
  uint64_t index_block_read_count = 0;
  uint64_t block_cache_filter_hit_count = 0;
  uint64_t filter_block_read_count = 0;
  uint64_t compression_dict_block_read_count = 0;
  uint64_t secondary_cache_hit_count = 0;
  uint64_t compressed_sec_cache_insert_real_count = 0;
  uint64_t compressed_sec_cache_insert_dummy_count = 0;
  uint64_t compressed_sec_cache_uncompressed_bytes = 0;
  uint64_t compressed_sec_cache_compressed_bytes = 0;
  uint64_t block_checksum_time = 0;
  uint64_t block_decompress_time = 0;
  uint64_t get_read_bytes = 0;
  uint64_t multiget_read_bytes = 0;
  uint64_t iter_read_bytes = 0;
  uint64_t blob_cache_hit_count = 0;
  uint64_t blob_read_count = 0;
  uint64_t blob_read_byte = 0;
  uint64_t blob_read_time = 0;
  uint64_t blob_checksum_time = 0;
  uint64_t blob_decompress_time = 0;
  uint64_t internal_key_skipped_count = 0;
  uint64_t internal_delete_skipped_count = 0;
  uint64_t internal_recent_skipped_count = 0;
  uint64_t internal_merge_count = 0;
  uint64_t internal_range_del_reseek_count = 0;
  uint64_t write_wal_time = 0;
  uint64_t get_snapshot_time = 0;
  uint64_t get_from_memtable_time = 0;
  uint64_t get_from_memtable_count = 0;
  uint64_t get_post_process_time = 0;
  uint64_t get_from_output_files_time = 0;
  uint64_t seek_on_memtable_time = 0;
  uint64_t seek_on_memtable_count = 0;
  uint64_t next_on_memtable_count = 0;
  uint64_t prev_on_memtable_count = 0;
  uint64_t seek_child_seek_time = 0;
  uint64_t seek_child_seek_count = 0;
  uint64_t seek_min_heap_time = 0;
  uint64_t seek_max_heap_time = 0;  // always 0: not measured
  uint64_t seek_internal_seek_time = 0;
  uint64_t find_next_user_entry_time = 0;
  uint64_t write_pre_and_post_process_time = 0;
  uint64_t write_memtable_time = 0;
  uint64_t write_thread_wait_nanos = 0;
  uint64_t write_scheduling_flushes_compactions_time = 0;
  uint64_t db_mutex_lock_nanos = 0;
  uint64_t db_condition_wait_nanos = 0;
  uint64_t merge_operator_time_nanos = 0;
  uint64_t write_delay_time = 0;
  uint64_t read_index_block_nanos = 0;
  uint64_t read_filter_block_nanos = 0;
  uint64_t new_table_block_iter_nanos = 0;
  uint64_t new_table_iterator_nanos = 0;
  uint64_t block_seek_nanos = 0;
  uint64_t find_table_nanos = 0;
  uint64_t bloom_memtable_hit_count = 0;
  uint64_t bloom_memtable_miss_count = 0;
  uint64_t bloom_sst_hit_count = 0;
  uint64_t bloom_sst_miss_count = 0;
  uint64_t key_lock_wait_time = 0;
  uint64_t key_lock_wait_count = 0;
  uint64_t env_new_sequential_file_nanos = 0;
  uint64_t env_new_random_access_file_nanos = 0;
  uint64_t env_new_writable_file_nanos = 0;
  uint64_t env_reuse_writable_file_nanos = 0;
  uint64_t env_new_random_rw_file_nanos = 0;
  uint64_t env_new_directory_nanos = 0;
  uint64_t env_file_exists_nanos = 0;
  uint64_t env_get_children_nanos = 0;
  uint64_t env_get_children_file_attributes_nanos = 0;
  uint64_t env_delete_file_nanos = 0;
  uint64_t env_create_dir_nanos = 0;
  uint64_t env_create_dir_if_missing_nanos = 0;
  uint64_t env_delete_dir_nanos = 0;
  uint64_t env_get_file_size_nanos = 0;
  uint64_t env_get_file_modification_time_nanos = 0;
  uint64_t env_rename_file_nanos = 0;
  uint64_t env_link_file_nanos = 0;
  uint64_t env_lock_file_nanos = 0;
  uint64_t env_unlock_file_nanos = 0;
  uint64_t env_new_logger_nanos = 0;
  uint64_t get_cpu_nanos = 0;
  uint64_t iter_next_cpu_nanos = 0;
  uint64_t iter_prev_cpu_nanos = 0;
  uint64_t iter_seek_cpu_nanos = 0;
  // Always 0: Strata has no encrypted Env of its own (RocksDB fills them
  // with its EncryptedEnv).
  uint64_t encrypt_data_nanos = 0;
  uint64_t decrypt_data_nanos = 0;
  uint64_t number_async_seek = 0;

  // Per-level counters (RocksDB's). Strata's read path does not attribute
  // its counters to levels: the map, once EnablePerLevelPerfContext made
  // it, stays empty unless a program fills it.
  std::map<uint32_t, PerfContextByLevel>* level_to_perf_context = nullptr;
  bool per_level_perf_context_enabled = false;
};

// The calling thread's context (zero when the thread starts). The pointer
// stays valid for the thread's lifetime.
STRATA_EXPORT PerfContext* get_perf_context();

}  // namespace strata
