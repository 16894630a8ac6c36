// rocksdb/table.h: options of the block-based table format, with RocksDB
// 7.8.3's names and defaults, and the raw-pointer factory RocksDB programs
// call (options.table_factory.reset(NewBlockBasedTableFactory(t))). The
// TableFactory here holds the options; Open converts them to Strata's.
// Only the block-based format exists (plain and cuckoo tables do not).
// Thread-safety: immutable after construction.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "rocksdb/cache.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/status.h"

namespace rocksdb {
class FlushBlockPolicyFactory;
class PersistentCache;
struct ConfigOptions;
struct ReadOptions;
// RocksDB's internal table classes: named by TableFactory's NewTableReader /
// NewTableBuilder, never defined here (Strata's readers and builders are
// internal).
struct TableReaderOptions;
struct TableBuilderOptions;
class TableBuilder;
class TableReader;
class RandomAccessFileReader;
class WritableFileWriter;

enum ChecksumType : char {
  kNoChecksum = 0x0,
  kCRC32c = 0x1,
  kxxHash = 0x2,
  kxxHash64 = 0x3,
  kXXH3 = 0x4,
};

enum class PinningTier { kFallback, kNone, kFlushedAndSimilar, kAll };

struct MetadataCacheOptions {
  PinningTier top_level_index_pinning = PinningTier::kFallback;
  PinningTier partition_pinning = PinningTier::kFallback;
  PinningTier unpartitioned_pinning = PinningTier::kFallback;
};

struct CacheEntryRoleOptions {
  enum class Decision { kEnabled, kDisabled, kFallback };
  Decision charged = Decision::kFallback;
  bool operator==(const CacheEntryRoleOptions& other) const { return charged == other.charged; }
};

struct CacheUsageOptions {
  CacheEntryRoleOptions options;
  std::map<CacheEntryRole, CacheEntryRoleOptions> options_overrides;
};

struct BlockBasedTableOptions {
  static const char* kName() { return "BlockTableOptions"; }

  // null: the size policy (rocksdb/flush_block_policy.h)
  std::shared_ptr<FlushBlockPolicyFactory> flush_block_policy_factory;
  bool cache_index_and_filter_blocks = false;
  bool cache_index_and_filter_blocks_with_high_priority = true;
  bool pin_l0_filter_and_index_blocks_in_cache = false;
  bool pin_top_level_index_and_filter = true;
  MetadataCacheOptions metadata_cache_options;  // advisory (pinning tiers)

  enum IndexType : char {
    kBinarySearch = 0x00,
    kHashSearch = 0x01,
    kTwoLevelIndexSearch = 0x02,
    kBinarySearchWithFirstKey = 0x03,
  };
  IndexType index_type = kBinarySearch;

  enum DataBlockIndexType : char {
    kDataBlockBinarySearch = 0,
    kDataBlockBinaryAndHash = 1,
  };
  DataBlockIndexType data_block_index_type = kDataBlockBinarySearch;
  double data_block_hash_table_util_ratio = 0.75;

  ChecksumType checksum = kXXH3;
  bool no_block_cache = false;
  std::shared_ptr<Cache> block_cache = nullptr;
  std::shared_ptr<PersistentCache> persistent_cache = nullptr;  // refused when set
  std::shared_ptr<Cache> block_cache_compressed = nullptr;      // refused when set
  uint64_t block_size = 4 * 1024;
  int block_size_deviation = 10;
  int block_restart_interval = 16;
  int index_block_restart_interval = 1;
  uint64_t metadata_block_size = 4096;
  CacheUsageOptions cache_usage_options;
  bool partition_filters = false;
  bool optimize_filters_for_memory = false;  // advisory (allocation sizing)
  bool use_delta_encoding = true;
  std::shared_ptr<const FilterPolicy> filter_policy = nullptr;
  bool whole_key_filtering = true;
  bool detect_filter_construct_corruption = false;  // advisory
  bool verify_compression = false;                  // advisory
  uint32_t read_amp_bytes_per_bit = 0;              // refused when set
  uint32_t format_version = 5;
  bool enable_index_compression = true;
  bool block_align = false;  // refused when true

  enum class IndexShorteningMode : char {
    kNoShortening,
    kShortenSeparators,
    kShortenSeparatorsAndSuccessor,
  };
  IndexShorteningMode index_shortening =
      IndexShorteningMode::kShortenSeparators;  // refused when changed
  size_t max_auto_readahead_size = 256 * 1024;

  enum class PrepopulateBlockCache : char { kDisable, kFlushOnly };
  PrepopulateBlockCache prepopulate_block_cache =
      PrepopulateBlockCache::kDisable;  // refused when changed
  size_t initial_auto_readahead_size = 8 * 1024;
  uint64_t num_file_reads_for_auto_readahead = 2;  // advisory
};

// The property names of a block-based table's own properties (RocksDB's
// strings): the index type (fixed32), whole-key and prefix filtering
// ("1" / "0").
struct BlockBasedTablePropertyNames {
  static const std::string kIndexType;
  static const std::string kWholeKeyFiltering;
  static const std::string kPrefixFiltering;
};

// The factory of block-based tables: it carries the options given to
// NewBlockBasedTableFactory.
// - Type() is "TableFactory"; CreateFromString knows "BlockBasedTable"
//   (optionally "id=BlockBasedTable;<BlockBasedTableOptions fields>"),
//   "PlainTable" and "CuckooTable" (refused at Open, as their factories).
// - NewTableReader answers NotSupported and NewTableBuilder nullptr:
//   RocksDB's reader and builder classes are internal to it and Strata
//   builds its own inside the engine.
// - IsDeleteRangeSupported: true for block-based tables (as RocksDB's).
class TableFactory {
 public:
  explicit TableFactory(const BlockBasedTableOptions& options) : options_(options) {}
  virtual ~TableFactory();
  virtual const char* Name() const { return "BlockBasedTable"; }
  // RocksDB's factory names.
  static const char* kBlockCacheOpts() { return "BlockCache"; }
  static const char* kBlockBasedTableName() { return "BlockBasedTable"; }
  static const char* kPlainTableName() { return "PlainTable"; }
  static const char* kCuckooTableName() { return "CuckooTable"; }
  static const char* Type() { return "TableFactory"; }
  static Status CreateFromString(const ConfigOptions& config_options, const std::string& id,
                                 std::shared_ptr<TableFactory>* factory);

  virtual Status NewTableReader(const TableReaderOptions& table_reader_options,
                                std::unique_ptr<RandomAccessFileReader>&& file, uint64_t file_size,
                                std::unique_ptr<TableReader>* table_reader,
                                bool prefetch_index_and_filter_in_cache = true) const;
  virtual Status NewTableReader(const ReadOptions& ro,
                                const TableReaderOptions& table_reader_options,
                                std::unique_ptr<RandomAccessFileReader>&& file, uint64_t file_size,
                                std::unique_ptr<TableReader>* table_reader,
                                bool prefetch_index_and_filter_in_cache) const;
  virtual TableBuilder* NewTableBuilder(const TableBuilderOptions& table_builder_options,
                                        WritableFileWriter* file) const;
  virtual bool IsDeleteRangeSupported() const {
    return std::string(Name()) == kBlockBasedTableName();
  }
  // The options this factory was made with.
  const BlockBasedTableOptions& table_options() const { return options_; }
  // RocksDB's generic accessor; only BlockBasedTableOptions exist here.
  template <typename T>
  const T* GetOptions() const {
    return &options_;
  }

 private:
  BlockBasedTableOptions options_;
};

// The caller owns the result (put it in Options::table_factory).
TableFactory* NewBlockBasedTableFactory(
    const BlockBasedTableOptions& table_options = BlockBasedTableOptions());

// RocksDB's other table formats. Strata writes and reads block-based tables
// only: these factories exist so that programs naming them compile, and a
// family given one is refused at Open (`InvalidArgument:
// ColumnFamilyOptions::table_factory is not supported by Strata: ...
// (PlainTable)`, CuckooTable, AdaptiveTable).
const uint32_t kPlainTableVariableLength = 0;
enum EncodingType : char {
  kPlain,
  kPrefix,
};
// The property names of RocksDB's plain and cuckoo table files (strings
// only: Strata reads neither format).
struct PlainTablePropertyNames {
  static const std::string kEncodingType;
  static const std::string kBloomVersion;
  static const std::string kNumBloomBlocks;
};
struct CuckooTablePropertyNames {
  static const std::string kEmptyKey;
  static const std::string kValueLength;
  static const std::string kNumHashFunc;
  static const std::string kCuckooBlockSize;
  static const std::string kHashTableSize;
  static const std::string kIsLastLevel;
  static const std::string kIdentityAsFirstHash;
  static const std::string kUseModuleHash;
  static const std::string kUserKeyLength;
};
struct PlainTableOptions {
  static const char* kName() { return "PlainTableOptions"; }
  uint32_t user_key_len = kPlainTableVariableLength;
  int bloom_bits_per_key = 10;
  double hash_table_ratio = 0.75;
  size_t index_sparseness = 16;
  size_t huge_page_tlb_size = 0;
  EncodingType encoding_type = kPlain;
  bool full_scan_mode = false;
  bool store_index_in_file = false;
};
struct CuckooTableOptions {
  static const char* kName() { return "CuckooTableOptions"; }
  double hash_table_ratio = 0.9;
  uint32_t max_search_depth = 100;
  uint32_t cuckoo_block_size = 5;
  bool identity_as_first_hash = false;
  bool use_module_hash = true;
};
TableFactory* NewPlainTableFactory(const PlainTableOptions& options = PlainTableOptions());
TableFactory* NewCuckooTableFactory(const CuckooTableOptions& table_options = CuckooTableOptions());
TableFactory* NewAdaptiveTableFactory(
    std::shared_ptr<TableFactory> table_factory_to_write = nullptr,
    std::shared_ptr<TableFactory> block_based_table_factory = nullptr,
    std::shared_ptr<TableFactory> plain_table_factory = nullptr,
    std::shared_ptr<TableFactory> cuckoo_table_factory = nullptr);
}  // namespace rocksdb
