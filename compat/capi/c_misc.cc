// c_misc.cc: environments, rate limiters, db paths, perf contexts, memory
// usage and rocksdb_free (rocksdb/c.h).
//
// Perf contexts are Strata's per-thread PerfContext, with RocksDB's counter
// names (seek_max_heap_time, which Strata does not measure, reads 0). The
// Env calls are rocksdb::Env's (compat/env.cc): pools of every priority,
// the bottom one included, and lowering a pool's I/O and CPU priority, as
// RocksDB's C API does. Memory usage is computed from the
// databases' memory properties and the caches' usage.
#include <set>

#include "compat/capi/c_internal.h"
#include "rocksdb/perf_context.h"
#include "rocksdb/perf_level.h"
#include "rocksdb/rate_limiter.h"

// The thread's perf context (rocksdb_perfcontext_create's caller).
struct rocksdb_perfcontext_t {
  rocksdb::PerfContext* rep = nullptr;
};

// The databases and caches whose memory rocksdb_approximate_memory_usage_*
// adds up (borrowed).
struct rocksdb_memory_consumers_t {
  std::vector<rocksdb_t*> dbs;
  std::vector<rocksdb_cache_t*> caches;
};

struct rocksdb_memory_usage_t {
  uint64_t mem_table_total = 0;
  uint64_t mem_table_unflushed = 0;
  uint64_t mem_table_readers_total = 0;
  uint64_t cache_total = 0;
};

extern "C" {

void rocksdb_free(void* ptr) { free(ptr); }

// ---- rate limiter ----

rocksdb_ratelimiter_t* rocksdb_ratelimiter_create(int64_t rate_bytes_per_sec,
                                                  int64_t refill_period_us, int32_t fairness) {
  auto* r = new rocksdb_ratelimiter_t;
  r->rep.reset(rocksdb::NewGenericRateLimiter(rate_bytes_per_sec, refill_period_us, fairness));
  return r;
}

void rocksdb_ratelimiter_destroy(rocksdb_ratelimiter_t* limiter) { delete limiter; }

// ---- db paths ----

rocksdb_dbpath_t* rocksdb_dbpath_create(const char* path, uint64_t target_size) {
  auto* p = new rocksdb_dbpath_t;
  p->rep.path = path;
  p->rep.target_size = target_size;
  return p;
}

void rocksdb_dbpath_destroy(rocksdb_dbpath_t* dbpath) { delete dbpath; }

// ---- environments ----

rocksdb_env_t* rocksdb_create_default_env(void) {
  auto* e = new rocksdb_env_t;
  e->rep = rocksdb::Env::Default();
  e->is_default = true;
  return e;
}

rocksdb_env_t* rocksdb_create_mem_env(void) {
  auto* e = new rocksdb_env_t;
  e->rep = rocksdb::NewMemEnv(rocksdb::Env::Default());
  e->is_default = false;
  return e;
}

void rocksdb_env_destroy(rocksdb_env_t* env) {
  if (!env->is_default) delete env->rep;
  delete env;
}

void rocksdb_env_set_background_threads(rocksdb_env_t* env, int n) {
  env->rep->SetBackgroundThreads(n, rocksdb::Env::LOW);
}

int rocksdb_env_get_background_threads(rocksdb_env_t* env) {
  return env->rep->GetBackgroundThreads(rocksdb::Env::LOW);
}

void rocksdb_env_set_high_priority_background_threads(rocksdb_env_t* env, int n) {
  env->rep->SetBackgroundThreads(n, rocksdb::Env::HIGH);
}

int rocksdb_env_get_high_priority_background_threads(rocksdb_env_t* env) {
  return env->rep->GetBackgroundThreads(rocksdb::Env::HIGH);
}

void rocksdb_env_set_low_priority_background_threads(rocksdb_env_t* env, int n) {
  env->rep->SetBackgroundThreads(n, rocksdb::Env::LOW);
}

int rocksdb_env_get_low_priority_background_threads(rocksdb_env_t* env) {
  return env->rep->GetBackgroundThreads(rocksdb::Env::LOW);
}

void rocksdb_env_set_bottom_priority_background_threads(rocksdb_env_t* env, int n) {
  env->rep->SetBackgroundThreads(n, rocksdb::Env::BOTTOM);
}

int rocksdb_env_get_bottom_priority_background_threads(rocksdb_env_t* env) {
  return env->rep->GetBackgroundThreads(rocksdb::Env::BOTTOM);
}

// Joins the threads started with Env::StartThread (RocksDB's WaitForJoin);
// the pools' queued jobs are not waited for.
void rocksdb_env_join_all_threads(rocksdb_env_t* env) { env->rep->WaitForJoin(); }

void rocksdb_env_lower_thread_pool_io_priority(rocksdb_env_t* env) {
  env->rep->LowerThreadPoolIOPriority(rocksdb::Env::LOW);
}
void rocksdb_env_lower_high_priority_thread_pool_io_priority(rocksdb_env_t* env) {
  env->rep->LowerThreadPoolIOPriority(rocksdb::Env::HIGH);
}
void rocksdb_env_lower_thread_pool_cpu_priority(rocksdb_env_t* env) {
  env->rep->LowerThreadPoolCPUPriority(rocksdb::Env::LOW);
}
void rocksdb_env_lower_high_priority_thread_pool_cpu_priority(rocksdb_env_t* env) {
  env->rep->LowerThreadPoolCPUPriority(rocksdb::Env::HIGH);
}

rocksdb_envoptions_t* rocksdb_envoptions_create(void) { return new rocksdb_envoptions_t; }

void rocksdb_envoptions_destroy(rocksdb_envoptions_t* opt) { delete opt; }

void rocksdb_create_dir_if_missing(rocksdb_env_t* env, const char* path, char** errptr) {
  strata_capi::SaveError(errptr, env->rep->CreateDirIfMissing(path));
}

// ---- perf contexts ----
// A handle names the calling thread's context (RocksDB's C API does the
// same): use it on the thread that created it.

void rocksdb_set_perf_level(int level) {
  rocksdb::SetPerfLevel(static_cast<rocksdb::PerfLevel>(level));
}

rocksdb_perfcontext_t* rocksdb_perfcontext_create(void) {
  auto* c = new rocksdb_perfcontext_t;
  c->rep = rocksdb::get_perf_context();
  return c;
}

void rocksdb_perfcontext_reset(rocksdb_perfcontext_t* context) { context->rep->Reset(); }

char* rocksdb_perfcontext_report(rocksdb_perfcontext_t* context,
                                 unsigned char exclude_zero_counters) {
  return strata_capi::CopyString(context->rep->ToString(exclude_zero_counters != 0));
}

uint64_t rocksdb_perfcontext_metric(rocksdb_perfcontext_t* context, int metric) {
  const rocksdb::PerfContext& c = *context->rep;
  switch (metric) {
    case rocksdb_user_key_comparison_count:
      return c.user_key_comparison_count;
    case rocksdb_block_cache_hit_count:
      return c.block_cache_hit_count;
    case rocksdb_block_read_count:
      return c.block_read_count;
    case rocksdb_block_read_byte:
      return c.block_read_byte;
    case rocksdb_block_read_time:
      return c.block_read_time;
    case rocksdb_block_checksum_time:
      return c.block_checksum_time;
    case rocksdb_block_decompress_time:
      return c.block_decompress_time;
    case rocksdb_get_read_bytes:
      return c.get_read_bytes;
    case rocksdb_multiget_read_bytes:
      return c.multiget_read_bytes;
    case rocksdb_iter_read_bytes:
      return c.iter_read_bytes;
    case rocksdb_internal_key_skipped_count:
      return c.internal_key_skipped_count;
    case rocksdb_internal_delete_skipped_count:
      return c.internal_delete_skipped_count;
    case rocksdb_internal_recent_skipped_count:
      return c.internal_recent_skipped_count;
    case rocksdb_internal_merge_count:
      return c.internal_merge_count;
    case rocksdb_get_snapshot_time:
      return c.get_snapshot_time;
    case rocksdb_get_from_memtable_time:
      return c.get_from_memtable_time;
    case rocksdb_get_from_memtable_count:
      return c.get_from_memtable_count;
    case rocksdb_get_post_process_time:
      return c.get_post_process_time;
    case rocksdb_get_from_output_files_time:
      return c.get_from_output_files_time;
    case rocksdb_seek_on_memtable_time:
      return c.seek_on_memtable_time;
    case rocksdb_seek_on_memtable_count:
      return c.seek_on_memtable_count;
    case rocksdb_next_on_memtable_count:
      return c.next_on_memtable_count;
    case rocksdb_prev_on_memtable_count:
      return c.prev_on_memtable_count;
    case rocksdb_seek_child_seek_time:
      return c.seek_child_seek_time;
    case rocksdb_seek_child_seek_count:
      return c.seek_child_seek_count;
    case rocksdb_seek_min_heap_time:
      return c.seek_min_heap_time;
    case rocksdb_seek_max_heap_time:
      return 0;  // not measured by Strata
    case rocksdb_seek_internal_seek_time:
      return c.seek_internal_seek_time;
    case rocksdb_find_next_user_entry_time:
      return c.find_next_user_entry_time;
    case rocksdb_write_wal_time:
      return c.write_wal_time;
    case rocksdb_write_memtable_time:
      return c.write_memtable_time;
    case rocksdb_write_delay_time:
      return c.write_delay_time;
    case rocksdb_write_pre_and_post_process_time:
      return c.write_pre_and_post_process_time;
    case rocksdb_db_mutex_lock_nanos:
      return c.db_mutex_lock_nanos;
    case rocksdb_db_condition_wait_nanos:
      return c.db_condition_wait_nanos;
    case rocksdb_merge_operator_time_nanos:
      return c.merge_operator_time_nanos;
    case rocksdb_read_index_block_nanos:
      return c.read_index_block_nanos;
    case rocksdb_read_filter_block_nanos:
      return c.read_filter_block_nanos;
    case rocksdb_new_table_block_iter_nanos:
      return c.new_table_block_iter_nanos;
    case rocksdb_new_table_iterator_nanos:
      return c.new_table_iterator_nanos;
    case rocksdb_block_seek_nanos:
      return c.block_seek_nanos;
    case rocksdb_find_table_nanos:
      return c.find_table_nanos;
    case rocksdb_bloom_memtable_hit_count:
      return c.bloom_memtable_hit_count;
    case rocksdb_bloom_memtable_miss_count:
      return c.bloom_memtable_miss_count;
    case rocksdb_bloom_sst_hit_count:
      return c.bloom_sst_hit_count;
    case rocksdb_bloom_sst_miss_count:
      return c.bloom_sst_miss_count;
    case rocksdb_key_lock_wait_time:
      return c.key_lock_wait_time;
    case rocksdb_key_lock_wait_count:
      return c.key_lock_wait_count;
    case rocksdb_env_new_sequential_file_nanos:
      return c.env_new_sequential_file_nanos;
    case rocksdb_env_new_random_access_file_nanos:
      return c.env_new_random_access_file_nanos;
    case rocksdb_env_new_writable_file_nanos:
      return c.env_new_writable_file_nanos;
    case rocksdb_env_reuse_writable_file_nanos:
      return c.env_reuse_writable_file_nanos;
    case rocksdb_env_new_random_rw_file_nanos:
      return c.env_new_random_rw_file_nanos;
    case rocksdb_env_new_directory_nanos:
      return c.env_new_directory_nanos;
    case rocksdb_env_file_exists_nanos:
      return c.env_file_exists_nanos;
    case rocksdb_env_get_children_nanos:
      return c.env_get_children_nanos;
    case rocksdb_env_get_children_file_attributes_nanos:
      return c.env_get_children_file_attributes_nanos;
    case rocksdb_env_delete_file_nanos:
      return c.env_delete_file_nanos;
    case rocksdb_env_create_dir_nanos:
      return c.env_create_dir_nanos;
    case rocksdb_env_create_dir_if_missing_nanos:
      return c.env_create_dir_if_missing_nanos;
    case rocksdb_env_delete_dir_nanos:
      return c.env_delete_dir_nanos;
    case rocksdb_env_get_file_size_nanos:
      return c.env_get_file_size_nanos;
    case rocksdb_env_get_file_modification_time_nanos:
      return c.env_get_file_modification_time_nanos;
    case rocksdb_env_rename_file_nanos:
      return c.env_rename_file_nanos;
    case rocksdb_env_link_file_nanos:
      return c.env_link_file_nanos;
    case rocksdb_env_lock_file_nanos:
      return c.env_lock_file_nanos;
    case rocksdb_env_unlock_file_nanos:
      return c.env_unlock_file_nanos;
    case rocksdb_env_new_logger_nanos:
      return c.env_new_logger_nanos;
    case rocksdb_number_async_seek:
      return c.number_async_seek;
    case rocksdb_blob_cache_hit_count:
      return c.blob_cache_hit_count;
    case rocksdb_blob_read_count:
      return c.blob_read_count;
    case rocksdb_blob_read_byte:
      return c.blob_read_byte;
    case rocksdb_blob_read_time:
      return c.blob_read_time;
    case rocksdb_blob_checksum_time:
      return c.blob_checksum_time;
    case rocksdb_blob_decompress_time:
      return c.blob_decompress_time;
    case rocksdb_internal_range_del_reseek_count:
      return c.internal_range_del_reseek_count;
    default:
      return 0;
  }
}

void rocksdb_perfcontext_destroy(rocksdb_perfcontext_t* context) { delete context; }

// ---- memory usage ----

rocksdb_memory_consumers_t* rocksdb_memory_consumers_create(void) {
  return new rocksdb_memory_consumers_t;
}

void rocksdb_memory_consumers_add_db(rocksdb_memory_consumers_t* consumers, rocksdb_t* db) {
  consumers->dbs.push_back(db);
}

void rocksdb_memory_consumers_add_cache(rocksdb_memory_consumers_t* consumers,
                                        rocksdb_cache_t* cache) {
  consumers->caches.push_back(cache);
}

void rocksdb_memory_consumers_destroy(rocksdb_memory_consumers_t* consumers) { delete consumers; }

rocksdb_memory_usage_t* rocksdb_approximate_memory_usage_create(
    rocksdb_memory_consumers_t* consumers, char** errptr) {
  auto* usage = new rocksdb_memory_usage_t;
  for (rocksdb_t* db : consumers->dbs) {
    uint64_t v = 0;
    // Sums over every column family of the database.
    if (db->rep->GetAggregatedIntProperty("rocksdb.size-all-mem-tables", &v)) {
      usage->mem_table_total += v;
    }
    if (db->rep->GetAggregatedIntProperty("rocksdb.cur-size-all-mem-tables", &v)) {
      usage->mem_table_unflushed += v;
    }
    if (db->rep->GetAggregatedIntProperty("rocksdb.estimate-table-readers-mem", &v)) {
      usage->mem_table_readers_total += v;
    }
  }
  // A cache shared by several consumers is counted once.
  std::set<const rocksdb::Cache*> seen;
  for (rocksdb_cache_t* c : consumers->caches) {
    if (c->rep != nullptr && seen.insert(c->rep.get()).second) {
      usage->cache_total += c->rep->GetUsage();
    }
  }
  return usage;
}

void rocksdb_approximate_memory_usage_destroy(rocksdb_memory_usage_t* usage) { delete usage; }

uint64_t rocksdb_approximate_memory_usage_get_mem_table_total(
    rocksdb_memory_usage_t* memory_usage) {
  return memory_usage->mem_table_total;
}

uint64_t rocksdb_approximate_memory_usage_get_mem_table_unflushed(
    rocksdb_memory_usage_t* memory_usage) {
  return memory_usage->mem_table_unflushed;
}

uint64_t rocksdb_approximate_memory_usage_get_mem_table_readers_total(
    rocksdb_memory_usage_t* memory_usage) {
  return memory_usage->mem_table_readers_total;
}

uint64_t rocksdb_approximate_memory_usage_get_cache_total(rocksdb_memory_usage_t* memory_usage) {
  return memory_usage->cache_total;
}

}  // extern "C"
