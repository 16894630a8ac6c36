// c_table.cc: table formats, filter policies and caches (rocksdb/c.h).
//
// Block-based tables are Strata's table format and are fully backed.
// Cuckoo and PlainTable formats do not exist in Strata: their option
// objects can be built, but choosing either table factory is recorded in
// rocksdb_options_t::refused and opening a database with it fails with an
// error naming the function.
#include <algorithm>

#include "compat/capi/c_internal.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/table.h"

struct rocksdb_block_based_table_options_t {
  rocksdb::BlockBasedTableOptions rep;
};

// Cuckoo tables do not exist in Strata; the fields are kept only so the
// setters have somewhere to write.
struct rocksdb_cuckoo_table_options_t {
  double hash_ratio = 0.9;
  uint32_t max_search_depth = 100;
  uint32_t cuckoo_block_size = 5;
  bool identity_as_first_hash = false;
  bool use_module_hash = true;
};

// A filter policy handle. Built-in policies (bloom, ribbon) are wrapped:
// the handle holds the real policy and forwards to it, so the handle itself
// can be given to rocksdb_block_based_options_set_filter_policy, which takes
// ownership.
struct rocksdb_filterpolicy_t {
  std::shared_ptr<const rocksdb::FilterPolicy> rep;
};

struct rocksdb_lru_cache_options_t {
  rocksdb::LRUCacheOptions rep;
};

// A memory allocator handle. c.h's only constructor,
// rocksdb_jemalloc_nodump_allocator_create, is a stub (Strata is not built
// with jemalloc, and RocksDB's C API offers no other allocator), so no
// handle exists yet; destroy and rocksdb_lru_cache_options_set_memory_allocator
// do what RocksDB's do with one.
struct rocksdb_memory_allocator_t {
  std::shared_ptr<rocksdb::MemoryAllocator> rep;
};

namespace {

const char* const kPlainTable = "rocksdb_options_set_plain_table_factory";
const char* const kCuckooTable = "rocksdb_options_set_cuckoo_table_factory";

// Only the table factory set last counts, as in RocksDB: choosing one
// forgets an earlier refused choice.
void ForgetTableFactory(rocksdb_options_t* opt) {
  std::vector<std::string>& r = opt->refused;
  r.erase(
      std::remove_if(r.begin(), r.end(),
                     [](const std::string& fn) { return fn == kPlainTable || fn == kCuckooTable; }),
      r.end());
}

void RefuseTable(rocksdb_options_t* opt, const char* fn) {
  ForgetTableFactory(opt);
  opt->refused.emplace_back(fn);
}

}  // namespace

extern "C" {

// ---- block-based table options ----

rocksdb_block_based_table_options_t* rocksdb_block_based_options_create(void) {
  return new rocksdb_block_based_table_options_t;
}

void rocksdb_block_based_options_destroy(rocksdb_block_based_table_options_t* options) {
  delete options;
}

void rocksdb_block_based_options_set_checksum(rocksdb_block_based_table_options_t* opt, char v) {
  opt->rep.checksum = static_cast<rocksdb::ChecksumType>(v);
}

void rocksdb_block_based_options_set_block_size(rocksdb_block_based_table_options_t* options,
                                                size_t block_size) {
  options->rep.block_size = block_size;
}

void rocksdb_block_based_options_set_block_size_deviation(
    rocksdb_block_based_table_options_t* options, int block_size_deviation) {
  options->rep.block_size_deviation = block_size_deviation;
}

void rocksdb_block_based_options_set_block_restart_interval(
    rocksdb_block_based_table_options_t* options, int block_restart_interval) {
  options->rep.block_restart_interval = block_restart_interval;
}

void rocksdb_block_based_options_set_index_block_restart_interval(
    rocksdb_block_based_table_options_t* options, int index_block_restart_interval) {
  options->rep.index_block_restart_interval = index_block_restart_interval;
}

void rocksdb_block_based_options_set_metadata_block_size(
    rocksdb_block_based_table_options_t* options, uint64_t metadata_block_size) {
  options->rep.metadata_block_size = metadata_block_size;
}

void rocksdb_block_based_options_set_partition_filters(rocksdb_block_based_table_options_t* options,
                                                       unsigned char partition_filters) {
  options->rep.partition_filters = partition_filters;
}

void rocksdb_block_based_options_set_use_delta_encoding(
    rocksdb_block_based_table_options_t* options, unsigned char use_delta_encoding) {
  options->rep.use_delta_encoding = use_delta_encoding;
}

// Takes ownership of filter_policy (the handle is consumed; do not destroy
// it afterwards). NULL removes the filter.
void rocksdb_block_based_options_set_filter_policy(rocksdb_block_based_table_options_t* options,
                                                   rocksdb_filterpolicy_t* filter_policy) {
  if (filter_policy == nullptr) {
    options->rep.filter_policy.reset();
    return;
  }
  options->rep.filter_policy = filter_policy->rep;
  delete filter_policy;
}

void rocksdb_block_based_options_set_no_block_cache(rocksdb_block_based_table_options_t* options,
                                                    unsigned char no_block_cache) {
  options->rep.no_block_cache = no_block_cache;
}

void rocksdb_block_based_options_set_block_cache(rocksdb_block_based_table_options_t* options,
                                                 rocksdb_cache_t* block_cache) {
  options->rep.block_cache = block_cache != nullptr ? block_cache->rep : nullptr;
}

void rocksdb_block_based_options_set_block_cache_compressed(
    rocksdb_block_based_table_options_t* options, rocksdb_cache_t* block_cache_compressed) {
  options->rep.block_cache_compressed =
      block_cache_compressed != nullptr ? block_cache_compressed->rep : nullptr;
}

void rocksdb_block_based_options_set_whole_key_filtering(
    rocksdb_block_based_table_options_t* options, unsigned char v) {
  options->rep.whole_key_filtering = v;
}

void rocksdb_block_based_options_set_format_version(rocksdb_block_based_table_options_t* options,
                                                    int v) {
  options->rep.format_version = static_cast<uint32_t>(v);
}

void rocksdb_block_based_options_set_index_type(rocksdb_block_based_table_options_t* options,
                                                int v) {
  options->rep.index_type = static_cast<rocksdb::BlockBasedTableOptions::IndexType>(v);
}

void rocksdb_block_based_options_set_data_block_index_type(
    rocksdb_block_based_table_options_t* options, int v) {
  options->rep.data_block_index_type =
      static_cast<rocksdb::BlockBasedTableOptions::DataBlockIndexType>(v);
}

void rocksdb_block_based_options_set_data_block_hash_ratio(
    rocksdb_block_based_table_options_t* options, double v) {
  options->rep.data_block_hash_table_util_ratio = v;
}

void rocksdb_block_based_options_set_cache_index_and_filter_blocks(
    rocksdb_block_based_table_options_t* options, unsigned char v) {
  options->rep.cache_index_and_filter_blocks = v;
}

void rocksdb_block_based_options_set_cache_index_and_filter_blocks_with_high_priority(
    rocksdb_block_based_table_options_t* options, unsigned char v) {
  options->rep.cache_index_and_filter_blocks_with_high_priority = v;
}

void rocksdb_block_based_options_set_pin_l0_filter_and_index_blocks_in_cache(
    rocksdb_block_based_table_options_t* options, unsigned char v) {
  options->rep.pin_l0_filter_and_index_blocks_in_cache = v;
}

void rocksdb_block_based_options_set_pin_top_level_index_and_filter(
    rocksdb_block_based_table_options_t* options, unsigned char v) {
  options->rep.pin_top_level_index_and_filter = v;
}

// Copies the table options into a new factory; the caller still owns (and
// destroys) table_options.
void rocksdb_options_set_block_based_table_factory(
    rocksdb_options_t* opt, rocksdb_block_based_table_options_t* table_options) {
  if (table_options != nullptr) {
    opt->rep.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table_options->rep));
    ForgetTableFactory(opt);
  }
}

// ---- cuckoo and plain tables (not available: refused at open) ----

rocksdb_cuckoo_table_options_t* rocksdb_cuckoo_options_create(void) {
  return new rocksdb_cuckoo_table_options_t;
}

void rocksdb_cuckoo_options_destroy(rocksdb_cuckoo_table_options_t* options) { delete options; }

void rocksdb_cuckoo_options_set_hash_ratio(rocksdb_cuckoo_table_options_t* options, double v) {
  options->hash_ratio = v;
}

void rocksdb_cuckoo_options_set_max_search_depth(rocksdb_cuckoo_table_options_t* options,
                                                 uint32_t v) {
  options->max_search_depth = v;
}

void rocksdb_cuckoo_options_set_cuckoo_block_size(rocksdb_cuckoo_table_options_t* options,
                                                  uint32_t v) {
  options->cuckoo_block_size = v;
}

void rocksdb_cuckoo_options_set_identity_as_first_hash(rocksdb_cuckoo_table_options_t* options,
                                                       unsigned char v) {
  options->identity_as_first_hash = v;
}

void rocksdb_cuckoo_options_set_use_module_hash(rocksdb_cuckoo_table_options_t* options,
                                                unsigned char v) {
  options->use_module_hash = v;
}

void rocksdb_options_set_cuckoo_table_factory(rocksdb_options_t* opt,
                                              rocksdb_cuckoo_table_options_t* table_options) {
  RefuseTable(opt, kCuckooTable);
}

void rocksdb_options_set_plain_table_factory(rocksdb_options_t* opt, uint32_t user_key_len,
                                             int bloom_bits_per_key, double hash_table_ratio,
                                             size_t index_sparseness) {
  RefuseTable(opt, kPlainTable);
}

// ---- filter policies ----

void rocksdb_filterpolicy_destroy(rocksdb_filterpolicy_t* filter) { delete filter; }

static rocksdb_filterpolicy_t* WrapPolicy(const rocksdb::FilterPolicy* p) {
  auto* w = new rocksdb_filterpolicy_t;
  w->rep.reset(p);
  return w;
}

// Since RocksDB 7.0 the block-based ("old") Bloom filter is gone and both
// functions give the full-filter format.
rocksdb_filterpolicy_t* rocksdb_filterpolicy_create_bloom(double bits_per_key) {
  return WrapPolicy(rocksdb::NewBloomFilterPolicy(bits_per_key, false));
}

rocksdb_filterpolicy_t* rocksdb_filterpolicy_create_bloom_full(double bits_per_key) {
  return WrapPolicy(rocksdb::NewBloomFilterPolicy(bits_per_key, false));
}

rocksdb_filterpolicy_t* rocksdb_filterpolicy_create_ribbon(double bloom_equivalent_bits_per_key) {
  return WrapPolicy(rocksdb::NewRibbonFilterPolicy(bloom_equivalent_bits_per_key));
}

rocksdb_filterpolicy_t* rocksdb_filterpolicy_create_ribbon_hybrid(
    double bloom_equivalent_bits_per_key, int bloom_before_level) {
  return WrapPolicy(
      rocksdb::NewRibbonFilterPolicy(bloom_equivalent_bits_per_key, bloom_before_level));
}

// ---- memory allocators and caches ----

rocksdb_memory_allocator_t* rocksdb_jemalloc_nodump_allocator_create(char** errptr) {
  strata_capi::NotSupported(errptr, "rocksdb_jemalloc_nodump_allocator_create",
                            "Strata is not built with jemalloc");
  return nullptr;
}

void rocksdb_memory_allocator_destroy(rocksdb_memory_allocator_t* allocator) { delete allocator; }

rocksdb_lru_cache_options_t* rocksdb_lru_cache_options_create(void) {
  return new rocksdb_lru_cache_options_t;
}

void rocksdb_lru_cache_options_destroy(rocksdb_lru_cache_options_t* opt) { delete opt; }

void rocksdb_lru_cache_options_set_capacity(rocksdb_lru_cache_options_t* opt, size_t capacity) {
  opt->rep.capacity = capacity;
}

void rocksdb_lru_cache_options_set_num_shard_bits(rocksdb_lru_cache_options_t* opt,
                                                  int num_shard_bits) {
  opt->rep.num_shard_bits = num_shard_bits;
}

void rocksdb_lru_cache_options_set_memory_allocator(rocksdb_lru_cache_options_t* opt,
                                                    rocksdb_memory_allocator_t* allocator) {
  // The cache's blocks are allocated through it (NULL: the default heap).
  opt->rep.memory_allocator = allocator != nullptr ? allocator->rep : nullptr;
}

static rocksdb_cache_t* WrapCache(std::shared_ptr<rocksdb::Cache> cache) {
  auto* c = new rocksdb_cache_t;
  c->rep = std::move(cache);
  return c;
}

rocksdb_cache_t* rocksdb_cache_create_lru(size_t capacity) {
  return WrapCache(rocksdb::NewLRUCache(capacity));
}

rocksdb_cache_t* rocksdb_cache_create_lru_with_strict_capacity_limit(size_t capacity) {
  return WrapCache(rocksdb::NewLRUCache(capacity, -1, true));
}

rocksdb_cache_t* rocksdb_cache_create_lru_opts(rocksdb_lru_cache_options_t* opt) {
  return WrapCache(rocksdb::NewLRUCache(opt->rep));
}

// Options that were given this cache keep it alive after destroy.
void rocksdb_cache_destroy(rocksdb_cache_t* cache) { delete cache; }

// DisownData only lets a process skip freeing the cache's memory at exit;
// Strata's caches always free it, which is what RocksDB's Cache::DisownData
// does by default (a cache that does not override it).
void rocksdb_cache_disown_data(rocksdb_cache_t* /*cache*/) {}

void rocksdb_cache_set_capacity(rocksdb_cache_t* cache, size_t capacity) {
  cache->rep->SetCapacity(capacity);
}

size_t rocksdb_cache_get_capacity(rocksdb_cache_t* cache) { return cache->rep->GetCapacity(); }

size_t rocksdb_cache_get_usage(rocksdb_cache_t* cache) { return cache->rep->GetUsage(); }

size_t rocksdb_cache_get_pinned_usage(rocksdb_cache_t* cache) {
  return cache->rep->GetPinnedUsage();
}

}  // extern "C"
