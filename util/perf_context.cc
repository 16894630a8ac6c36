// PerfContext and the per-thread perf level (strata/perf_context.h,
// strata/perf_level.h); the counting sites use util/perf_context_imp.h.
#include "strata/perf_context.h"

#include <cinttypes>
#include <cstdio>
#include <string>

#include "util/perf_context_imp.h"

namespace strata {

namespace perf_internal {

// Zero-initialized thread-locals (constant initialization: no guard, no
// wrapper call on access).
STRATA_PERF_TLS thread_local PerfLevel tls_perf_level = kDisable;
thread_local PerfContext tls_perf_context;

}  // namespace perf_internal

void SetPerfLevel(PerfLevel level) {
  if (level <= kUninitialized || level >= kOutOfBounds) return;
  perf_internal::tls_perf_level = level;
}

PerfLevel GetPerfLevel() { return perf_internal::tls_perf_level; }

PerfContext* get_perf_context() { return &perf_internal::tls_perf_context; }

// Every field once, in declaration order (RocksDB's printing order).
#define STRATA_PERF_CONTEXT_FIELDS(F)          \
  F(user_key_comparison_count)                 \
  F(block_cache_hit_count)                     \
  F(block_read_count)                          \
  F(block_read_byte)                           \
  F(block_read_time)                           \
  F(block_cache_index_hit_count)               \
  F(block_cache_standalone_handle_count)       \
  F(block_cache_real_handle_count)             \
  F(index_block_read_count)                    \
  F(block_cache_filter_hit_count)              \
  F(filter_block_read_count)                   \
  F(compression_dict_block_read_count)         \
  F(secondary_cache_hit_count)                 \
  F(compressed_sec_cache_insert_real_count)    \
  F(compressed_sec_cache_insert_dummy_count)   \
  F(compressed_sec_cache_uncompressed_bytes)   \
  F(compressed_sec_cache_compressed_bytes)     \
  F(block_checksum_time)                       \
  F(block_decompress_time)                     \
  F(get_read_bytes)                            \
  F(multiget_read_bytes)                       \
  F(iter_read_bytes)                           \
  F(blob_cache_hit_count)                      \
  F(blob_read_count)                           \
  F(blob_read_byte)                            \
  F(blob_read_time)                            \
  F(blob_checksum_time)                        \
  F(blob_decompress_time)                      \
  F(internal_key_skipped_count)                \
  F(internal_delete_skipped_count)             \
  F(internal_recent_skipped_count)             \
  F(internal_merge_count)                      \
  F(internal_range_del_reseek_count)           \
  F(write_wal_time)                            \
  F(get_snapshot_time)                         \
  F(get_from_memtable_time)                    \
  F(get_from_memtable_count)                   \
  F(get_post_process_time)                     \
  F(get_from_output_files_time)                \
  F(seek_on_memtable_time)                     \
  F(seek_on_memtable_count)                    \
  F(next_on_memtable_count)                    \
  F(prev_on_memtable_count)                    \
  F(seek_child_seek_time)                      \
  F(seek_child_seek_count)                     \
  F(seek_min_heap_time)                        \
  F(seek_max_heap_time)                        \
  F(seek_internal_seek_time)                   \
  F(find_next_user_entry_time)                 \
  F(write_pre_and_post_process_time)           \
  F(write_memtable_time)                       \
  F(write_thread_wait_nanos)                   \
  F(write_scheduling_flushes_compactions_time) \
  F(db_mutex_lock_nanos)                       \
  F(db_condition_wait_nanos)                   \
  F(merge_operator_time_nanos)                 \
  F(write_delay_time)                          \
  F(read_index_block_nanos)                    \
  F(read_filter_block_nanos)                   \
  F(new_table_block_iter_nanos)                \
  F(new_table_iterator_nanos)                  \
  F(block_seek_nanos)                          \
  F(find_table_nanos)                          \
  F(bloom_memtable_hit_count)                  \
  F(bloom_memtable_miss_count)                 \
  F(bloom_sst_hit_count)                       \
  F(bloom_sst_miss_count)                      \
  F(key_lock_wait_time)                        \
  F(key_lock_wait_count)                       \
  F(env_new_sequential_file_nanos)             \
  F(env_new_random_access_file_nanos)          \
  F(env_new_writable_file_nanos)               \
  F(env_reuse_writable_file_nanos)             \
  F(env_new_random_rw_file_nanos)              \
  F(env_new_directory_nanos)                   \
  F(env_file_exists_nanos)                     \
  F(env_get_children_nanos)                    \
  F(env_get_children_file_attributes_nanos)    \
  F(env_delete_file_nanos)                     \
  F(env_create_dir_nanos)                      \
  F(env_create_dir_if_missing_nanos)           \
  F(env_delete_dir_nanos)                      \
  F(env_get_file_size_nanos)                   \
  F(env_get_file_modification_time_nanos)      \
  F(env_rename_file_nanos)                     \
  F(env_link_file_nanos)                       \
  F(env_lock_file_nanos)                       \
  F(env_unlock_file_nanos)                     \
  F(env_new_logger_nanos)                      \
  F(get_cpu_nanos)                             \
  F(iter_next_cpu_nanos)                       \
  F(iter_prev_cpu_nanos)                       \
  F(iter_seek_cpu_nanos)                       \
  F(encrypt_data_nanos)                        \
  F(decrypt_data_nanos)                        \
  F(number_async_seek)

void PerfContextByLevel::Reset() { *this = PerfContextByLevel(); }

namespace {

// The map EnablePerLevelPerfContext gives a context of this thread (and a
// copy made on it); freed when the thread ends.
std::map<uint32_t, PerfContextByLevel>* ThreadLevelMap() {
  static thread_local std::map<uint32_t, PerfContextByLevel> map;
  return &map;
}

}  // namespace

PerfContext::PerfContext(const PerfContext& other) { *this = other; }

PerfContext::PerfContext(PerfContext&& other) noexcept { *this = other; }

PerfContext& PerfContext::operator=(const PerfContext& other) {
  if (this == &other) return *this;
#define STRATA_COPY(name) name = other.name;
  STRATA_PERF_CONTEXT_FIELDS(STRATA_COPY)
#undef STRATA_COPY
  per_level_perf_context_enabled = other.per_level_perf_context_enabled;
  if (other.level_to_perf_context == nullptr) {
    level_to_perf_context = nullptr;
  } else {
    std::map<uint32_t, PerfContextByLevel>* mine = ThreadLevelMap();
    if (mine != other.level_to_perf_context) *mine = *other.level_to_perf_context;
    level_to_perf_context = mine;
  }
  return *this;
}

void PerfContext::Reset() {
#define STRATA_ZERO(name) name = 0;
  STRATA_PERF_CONTEXT_FIELDS(STRATA_ZERO)
#undef STRATA_ZERO
  if (level_to_perf_context != nullptr) {
    for (auto& [level, counters] : *level_to_perf_context) counters.Reset();
  }
}

void PerfContext::EnablePerLevelPerfContext() {
  if (level_to_perf_context == nullptr) level_to_perf_context = ThreadLevelMap();
  per_level_perf_context_enabled = true;
}

void PerfContext::DisablePerLevelPerfContext() { per_level_perf_context_enabled = false; }

void PerfContext::ClearPerLevelPerfContext() {
  if (level_to_perf_context != nullptr) level_to_perf_context->clear();
  level_to_perf_context = nullptr;
  per_level_perf_context_enabled = false;
}

std::string PerfContext::ToString(bool exclude_zero_counters) const {
  std::string r;
  char buf[128];
#define STRATA_PRINT(name)                                         \
  if (!exclude_zero_counters || name != 0) {                       \
    snprintf(buf, sizeof(buf), "%s = %" PRIu64 ", ", #name, name); \
    r.append(buf);                                                 \
  }
  STRATA_PERF_CONTEXT_FIELDS(STRATA_PRINT)
#undef STRATA_PRINT
  TrimTrailingSeparator(&r);
  return r;
}

}  // namespace strata
