// compat/options_presets.cc: RocksDB's option presets (OptimizeForSmallDb,
// OptimizeLevelStyleCompaction, PrepareForBulkLoad, ...) and the struct
// conversions between Options and its parts. The presets set the same
// fields to the same values as RocksDB 7.8.3's; every field they touch is
// one Strata converts or accepts.
#include "rocksdb/cache.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/options.h"
#include "rocksdb/table.h"

namespace rocksdb {

DBOptions::DBOptions(const Options& options) : DBOptions(static_cast<const DBOptions&>(options)) {}

ColumnFamilyOptions::ColumnFamilyOptions(const Options& options)
    : ColumnFamilyOptions(static_cast<const ColumnFamilyOptions&>(options)) {}

DBOptions* DBOptions::OptimizeForSmallDb(std::shared_ptr<Cache>* /*cache*/) {
  max_file_opening_threads = 1;
  max_open_files = 5000;
  return this;
}

DBOptions* DBOptions::IncreaseParallelism(int total_threads) {
  max_background_jobs = total_threads;
  return this;
}

ColumnFamilyOptions* ColumnFamilyOptions::OptimizeForSmallDb(std::shared_ptr<Cache>* cache) {
  write_buffer_size = 2 << 20;
  target_file_size_base = 2 * 1048576;
  max_bytes_for_level_base = 10 * 1048576;
  soft_pending_compaction_bytes_limit = 256 * 1048576;
  hard_pending_compaction_bytes_limit = 1073741824ul;
  BlockBasedTableOptions table;
  table.block_cache = cache != nullptr ? *cache : std::shared_ptr<Cache>();
  table.cache_index_and_filter_blocks = true;
  table.index_type = BlockBasedTableOptions::kTwoLevelIndexSearch;
  table_factory.reset(NewBlockBasedTableFactory(table));
  return this;
}

ColumnFamilyOptions* ColumnFamilyOptions::OptimizeForPointLookup(uint64_t block_cache_size_mb) {
  BlockBasedTableOptions table;
  table.data_block_index_type = BlockBasedTableOptions::kDataBlockBinaryAndHash;
  table.data_block_hash_table_util_ratio = 0.75;
  table.filter_policy.reset(NewBloomFilterPolicy(10));
  table.block_cache = NewLRUCache(static_cast<size_t>(block_cache_size_mb * 1024 * 1024));
  table_factory.reset(NewBlockBasedTableFactory(table));
  memtable_prefix_bloom_size_ratio = 0.02;
  memtable_whole_key_filtering = true;
  return this;
}

ColumnFamilyOptions* ColumnFamilyOptions::OptimizeLevelStyleCompaction(
    uint64_t memtable_memory_budget) {
  write_buffer_size = static_cast<size_t>(memtable_memory_budget / 4);
  min_write_buffer_number_to_merge = 2;
  max_write_buffer_number = 6;
  level0_file_num_compaction_trigger = 2;
  target_file_size_base = memtable_memory_budget / 8;
  max_bytes_for_level_base = memtable_memory_budget;
  compaction_style = kCompactionStyleLevel;
  compression_per_level.resize(static_cast<size_t>(num_levels));
  for (int i = 0; i < num_levels; ++i) {
    compression_per_level[static_cast<size_t>(i)] = i < 2 ? kNoCompression : kLZ4Compression;
  }
  return this;
}

ColumnFamilyOptions* ColumnFamilyOptions::OptimizeUniversalStyleCompaction(
    uint64_t memtable_memory_budget) {
  write_buffer_size = static_cast<size_t>(memtable_memory_budget / 4);
  min_write_buffer_number_to_merge = 2;
  max_write_buffer_number = 6;
  compaction_style = kCompactionStyleUniversal;
  compaction_options_universal.compression_size_percent = 80;
  return this;
}

Options* Options::PrepareForBulkLoad() {
  level0_file_num_compaction_trigger = (1 << 30);
  level0_slowdown_writes_trigger = (1 << 30);
  level0_stop_writes_trigger = (1 << 30);
  soft_pending_compaction_bytes_limit = 0;
  hard_pending_compaction_bytes_limit = 0;
  disable_auto_compactions = true;
  max_compaction_bytes = (static_cast<uint64_t>(1) << 60);
  max_write_buffer_number = 6;
  min_write_buffer_number_to_merge = 1;
  num_levels = 2;
  max_background_flushes = 4;
  max_background_compactions = 2;
  target_file_size_base = 256 * 1024 * 1024;
  return this;
}

Options* Options::OptimizeForSmallDb() {
  std::shared_ptr<Cache> cache = NewLRUCache(8 << 20, 0, false);
  ColumnFamilyOptions::OptimizeForSmallDb(&cache);
  DBOptions::OptimizeForSmallDb(&cache);
  return this;
}

}  // namespace rocksdb
