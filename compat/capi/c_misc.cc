// c_misc.cc: environments, rate limiters, db paths, perf contexts, memory
// usage and rocksdb_free (rocksdb/c.h).
//
// Perf contexts are not available: rocksdb_perfcontext_* return empty
// reports and zero metrics and rocksdb_set_perf_level does nothing
// (coverage.txt lists them as error stubs). The low-level Env knobs that
// change thread priorities are likewise accepted and ignored by the
// environment where it has none. Memory usage is computed from the
// databases' memory properties and the caches' usage.
#include <set>

#include "compat/capi/c_internal.h"
#include "rocksdb/rate_limiter.h"

// Perf contexts are not available (stubs); the handle exists so that
// callers holding one do not crash.
struct rocksdb_perfcontext_t {
  int unused = 0;
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
  env->rep->SetBackgroundThreads(n, rocksdb::Env::Priority::kLow);
}

int rocksdb_env_get_background_threads(rocksdb_env_t* env) {
  return env->rep->GetBackgroundThreads(rocksdb::Env::Priority::kLow);
}

void rocksdb_env_set_high_priority_background_threads(rocksdb_env_t* env, int n) {
  env->rep->SetBackgroundThreads(n, rocksdb::Env::Priority::kHigh);
}

int rocksdb_env_get_high_priority_background_threads(rocksdb_env_t* env) {
  return env->rep->GetBackgroundThreads(rocksdb::Env::Priority::kHigh);
}

void rocksdb_env_set_low_priority_background_threads(rocksdb_env_t* env, int n) {
  env->rep->SetBackgroundThreads(n, rocksdb::Env::Priority::kLow);
}

int rocksdb_env_get_low_priority_background_threads(rocksdb_env_t* env) {
  return env->rep->GetBackgroundThreads(rocksdb::Env::Priority::kLow);
}

// Strata has no bottom-priority pool (bottommost compactions run in the
// low-priority pool, as RocksDB's do when that pool has no threads): the
// setter does nothing and the getter answers 0 (error stubs).
void rocksdb_env_set_bottom_priority_background_threads(rocksdb_env_t* /*env*/, int /*n*/) {}

int rocksdb_env_get_bottom_priority_background_threads(rocksdb_env_t* /*env*/) { return 0; }

void rocksdb_env_join_all_threads(rocksdb_env_t* env) { env->rep->WaitForJobsAndJoinAllThreads(); }

// Thread-priority knobs: Strata's thread pools have no I/O or CPU priority
// to lower, so these do nothing (listed as stubs in coverage.txt).
void rocksdb_env_lower_thread_pool_io_priority(rocksdb_env_t* env) {}
void rocksdb_env_lower_high_priority_thread_pool_io_priority(rocksdb_env_t* env) {}
void rocksdb_env_lower_thread_pool_cpu_priority(rocksdb_env_t* env) {}
void rocksdb_env_lower_high_priority_thread_pool_cpu_priority(rocksdb_env_t* env) {}

rocksdb_envoptions_t* rocksdb_envoptions_create(void) { return new rocksdb_envoptions_t; }

void rocksdb_envoptions_destroy(rocksdb_envoptions_t* opt) { delete opt; }

void rocksdb_create_dir_if_missing(rocksdb_env_t* env, const char* path, char** errptr) {
  strata_capi::SaveError(errptr, env->rep->GetFileSystem()->CreateDirIfMissing(path));
}

// ---- perf contexts (not available) ----

void rocksdb_set_perf_level(int level) {}

rocksdb_perfcontext_t* rocksdb_perfcontext_create(void) { return new rocksdb_perfcontext_t; }

void rocksdb_perfcontext_reset(rocksdb_perfcontext_t* context) {}

char* rocksdb_perfcontext_report(rocksdb_perfcontext_t* context,
                                 unsigned char exclude_zero_counters) {
  return strata_capi::CopyString("");
}

uint64_t rocksdb_perfcontext_metric(rocksdb_perfcontext_t* context, int metric) { return 0; }

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
