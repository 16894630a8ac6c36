// rocksdb/advanced_options.h: the less common column-family options, with
// RocksDB 7.8.3's names and defaults. What Strata does with each field is
// decided at Open (compat/options_convert.cc): a field is either converted
// to Strata's option of the same meaning, accepted as advisory (tuning with
// no effect on results), or refused with InvalidArgument naming it when set
// to anything but its default.
// Thread-safety: plain data.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "rocksdb/cache.h"
#include "rocksdb/compression_type.h"
#include "rocksdb/memtablerep.h"
#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/slice.h"
#include "rocksdb/slice_transform.h"
#include "rocksdb/universal_compaction.h"
#include "strata/metadata.h"

namespace strata {
class TablePropertiesCollectorFactory;
}  // namespace strata

namespace rocksdb {
using TablePropertiesCollectorFactory = ::strata::TablePropertiesCollectorFactory;

enum CompactionStyle : char {
  kCompactionStyleLevel = 0x0,
  kCompactionStyleUniversal = 0x1,
  kCompactionStyleFIFO = 0x2,
  kCompactionStyleNone = 0x3,
};

enum CompactionPri : char {
  kByCompensatedSize = 0x0,
  kOldestLargestSeqFirst = 0x1,
  kOldestSmallestSeqFirst = 0x2,
  kMinOverlappingRatio = 0x3,
  kRoundRobin = 0x4,
};

// Strata's enum (strata/metadata.h), with RocksDB's values.
using Temperature = ::strata::Temperature;

enum class PrepopulateBlobCache : uint8_t {
  kDisable = 0x0,
  kFlushOnly = 0x1,
};

struct CompactionOptionsFIFO {
  uint64_t max_table_files_size = 1ull << 30;
  bool allow_compaction = false;
  uint64_t age_for_warm = 0;
  CompactionOptionsFIFO() = default;
  CompactionOptionsFIFO(uint64_t max_size, bool allow)
      : max_table_files_size(max_size), allow_compaction(allow) {}
};

struct CompressionOptions {
  static constexpr int kDefaultCompressionLevel = 32767;
  int window_bits = -14;
  int level = kDefaultCompressionLevel;
  int strategy = 0;
  uint32_t max_dict_bytes = 0;
  uint32_t zstd_max_train_bytes = 0;
  uint32_t parallel_threads = 1;
  bool enabled = false;
  uint64_t max_dict_buffer_bytes = 0;
  bool use_zstd_dict_trainer = true;
  CompressionOptions() = default;
  CompressionOptions(int wbits, int lev, int strat, uint32_t max_dict, uint32_t zstd_train,
                     uint32_t threads, bool en, uint64_t dict_buffer, bool trainer)
      : window_bits(wbits),
        level(lev),
        strategy(strat),
        max_dict_bytes(max_dict),
        zstd_max_train_bytes(zstd_train),
        parallel_threads(threads),
        enabled(en),
        max_dict_buffer_bytes(dict_buffer),
        use_zstd_dict_trainer(trainer) {}
};

// What an inplace_callback did (RocksDB's values).
enum UpdateStatus {
  UPDATE_FAILED = 0,
  UPDATED_INPLACE = 1,
  UPDATED = 2,
};

struct AdvancedColumnFamilyOptions {
  int max_write_buffer_number = 2;
  int min_write_buffer_number_to_merge = 1;       // advisory
  int max_write_buffer_number_to_maintain = 0;    // advisory
  int64_t max_write_buffer_size_to_maintain = 0;  // advisory
  bool inplace_update_support = false;            // refused when true
  size_t inplace_update_num_locks = 10000;        // advisory (only with the above)
  double experimental_mempurge_threshold = 0.0;   // refused when set

  // Advisory: RocksDB calls it only with inplace_update_support.
  UpdateStatus (*inplace_callback)(char* existing_value, uint32_t* existing_value_size,
                                   Slice delta_value, std::string* merged_value) = nullptr;

  double memtable_prefix_bloom_size_ratio = 0.0;
  bool memtable_whole_key_filtering = false;
  size_t memtable_huge_page_size = 0;  // advisory
  uint32_t bloom_locality = 0;         // advisory
  size_t arena_block_size = 0;
  std::vector<CompressionType> compression_per_level;
  int num_levels = 7;
  int level0_slowdown_writes_trigger = 20;
  int level0_stop_writes_trigger = 36;
  uint64_t target_file_size_base = 64 * 1048576;
  int target_file_size_multiplier = 1;
  bool level_compaction_dynamic_level_bytes = false;
  bool level_compaction_dynamic_file_size = true;  // advisory
  double max_bytes_for_level_multiplier = 10;
  std::vector<int> max_bytes_for_level_multiplier_additional = std::vector<int>(num_levels, 1);
  uint64_t max_compaction_bytes = 0;
  bool ignore_max_compaction_bytes_for_input = true;  // advisory
  uint64_t soft_pending_compaction_bytes_limit = 64 * 1073741824ull;
  uint64_t hard_pending_compaction_bytes_limit = 256 * 1073741824ull;
  CompactionStyle compaction_style = kCompactionStyleLevel;
  CompactionPri compaction_pri = kMinOverlappingRatio;
  CompactionOptionsUniversal compaction_options_universal;
  CompactionOptionsFIFO compaction_options_fifo;
  uint64_t max_sequential_skip_in_iterations = 8;  // advisory
  // A SkipListFactory, as RocksDB's default; any other factory is refused
  // at Open (rocksdb/memtablerep.h).
  std::shared_ptr<MemTableRepFactory> memtable_factory = std::make_shared<SkipListFactory>();
  using TablePropertiesCollectorFactories =
      std::vector<std::shared_ptr<TablePropertiesCollectorFactory>>;
  TablePropertiesCollectorFactories table_properties_collector_factories;
  size_t max_successive_merges = 0;              // advisory (results are the same)
  bool optimize_filters_for_hits = false;        // refused when true (changes table contents)
  bool check_flush_compaction_key_order = true;  // advisory
  bool paranoid_file_checks = false;             // advisory
  bool force_consistency_checks = true;          // advisory
  bool report_bg_io_stats = false;               // advisory
  uint64_t ttl = 0xfffffffffffffffe;
  uint64_t periodic_compaction_seconds = 0xfffffffffffffffe;
  uint64_t sample_for_compression = 0;                         // advisory
  Temperature bottommost_temperature = Temperature::kUnknown;  // refused when set
  Temperature last_level_temperature = Temperature::kUnknown;  // refused when set
  uint64_t preclude_last_level_data_seconds = 0;               // refused when set
  uint64_t preserve_internal_time_seconds = 0;                 // refused when set
  bool enable_blob_files = false;                              // refused when true
  // The blob_* fields below only matter with enable_blob_files, which is
  // refused; they are accepted and unused.
  uint64_t min_blob_size = 0;
  uint64_t blob_file_size = 1ULL << 28;
  CompressionType blob_compression_type = kNoCompression;
  bool enable_blob_garbage_collection = false;
  double blob_garbage_collection_age_cutoff = 0.25;
  double blob_garbage_collection_force_threshold = 1.0;
  uint64_t blob_compaction_readahead_size = 0;
  int blob_file_starting_level = 0;
  std::shared_ptr<Cache> blob_cache = nullptr;
  PrepopulateBlobCache prepopulate_blob_cache = PrepopulateBlobCache::kDisable;
  uint32_t memtable_protection_bytes_per_key = 0;  // advisory
  // Advisory: a memtable insertion hint (RocksDB's speeds up sequential
  // inserts per prefix; no effect on results).
  std::shared_ptr<const SliceTransform> memtable_insert_with_hint_prefix_extractor = nullptr;

  AdvancedColumnFamilyOptions();
};
}  // namespace rocksdb
