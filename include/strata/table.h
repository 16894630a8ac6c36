// Table options: how a column family lays out its sorted table files (SSTs).
// The one table kind is RocksDB's block-based table, written at
// format_version 5 by default (RocksDB 7.8.3's tools read it) or 6/7 when
// asked (what current RocksDB writes), and read at 0..7 (docs/format/table.md).
//
// BlockBasedTableOptions keeps RocksDB's names and defaults; wrap it with
// NewBlockBasedTableFactory() and set ColumnFamilyOptions::table_factory.
// Thread-safety: plain data; a TableFactory is immutable and shareable.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>

#include "strata/cache.h"
#include "strata/export.h"
#include "strata/filter_policy.h"

namespace strata {

class FlushBlockPolicyFactory;  // strata/flush_block_policy.h

// Block checksum kinds, stored in byte 0 of every table footer: never
// renumber (docs/format/block.md (Block trailer)).
enum ChecksumType : unsigned char {
  kNoChecksum = 0x0,
  kCRC32c = 0x1,
  kxxHash = 0x2,
  kxxHash64 = 0x3,
  kXXH3 = 0x4,
};

// ---- memory charged to the block cache by role (issue 19) ----
// Whether a role's memory is charged to the block cache (RocksDB 7.8.3's
// names). kFallback: the role's default (see cache_usage_options).
struct CacheEntryRoleOptions {
  enum class Decision { kEnabled, kDisabled, kFallback };
  Decision charged = Decision::kFallback;
  bool operator==(const CacheEntryRoleOptions& other) const { return charged == other.charged; }
};
struct CacheUsageOptions {
  CacheEntryRoleOptions options;  // for every role without an override
  std::map<CacheEntryRole, CacheEntryRoleOptions> options_overrides;
};

struct STRATA_EXPORT BlockBasedTableOptions {
  // Index layouts; the numbers are the on-disk "rocksdb.block.based.table.
  // index.type" property. kBinarySearch: one index block. kTwoLevelIndexSearch:
  // the index is cut into partitions of about metadata_block_size bytes,
  // found through a small top-level index (docs/design/partitioned-index-
  // filters.md). kHashSearch and kBinarySearchWithFirstKey are not built:
  // a DB or table factory refuses them, and files using them are refused
  // by the reader with NotSupported naming the file.
  enum class IndexType : unsigned char {
    kBinarySearch = 0,
    kHashSearch = 1,
    kTwoLevelIndexSearch = 2,
    kBinarySearchWithFirstKey = 3,
  };
  // Data block layouts: binary search over restart points, or that plus a
  // hash index of the user keys for point lookups (docs/format/block.md, Data blocks).
  enum class DataBlockIndexType : unsigned char {
    kDataBlockBinarySearch = 0,
    kDataBlockBinaryAndHash = 1,
  };

  // Where data blocks end (strata/flush_block_policy.h); null = by
  // block_size and block_size_deviation.
  std::shared_ptr<FlushBlockPolicyFactory> flush_block_policy_factory;
  // Target uncompressed size of a data block.
  size_t block_size = 4 * 1024;
  // A block closes early when the next entry would overflow block_size and
  // the block is already more than (100 - deviation)% full.
  int block_size_deviation = 10;
  // Entries between restart points in data blocks and index blocks.
  int block_restart_interval = 16;
  int index_block_restart_interval = 1;
  // Prefix-compress keys in data blocks.
  bool use_delta_encoding = true;
  IndexType index_type = IndexType::kBinarySearch;
  DataBlockIndexType data_block_index_type = DataBlockIndexType::kDataBlockBinarySearch;
  double data_block_hash_table_util_ratio = 0.75;
  // Compress index blocks with the table's compression too.
  bool enable_index_compression = true;

  // Uncompressed data (and, per the next options, index and filter) blocks.
  // Null means a private 32 MiB LRU cache per table factory, unless
  // no_block_cache is set.
  std::shared_ptr<Cache> block_cache;
  bool no_block_cache = false;
  // Index and filter blocks go through the block cache (charged, evictable)
  // instead of being held by each open table reader.
  bool cache_index_and_filter_blocks = false;
  // ...in the cache's high-priority pool.
  bool cache_index_and_filter_blocks_with_high_priority = true;
  // With cache_index_and_filter_blocks: keep the index and filter of level-0
  // tables pinned while the table is open.
  bool pin_l0_filter_and_index_blocks_in_cache = false;

  // Null: no filter block is written or read.
  std::shared_ptr<const FilterPolicy> filter_policy;
  // Add whole user keys to the filter.
  bool whole_key_filtering = true;

  // Partitioned index and filters (issue 19). partition_filters cuts the
  // filter into partitions aligned with the index partitions, with a
  // top-level filter index; it needs kTwoLevelIndexSearch (otherwise it is
  // turned off, as RocksDB does). metadata_block_size: target size of an
  // index or filter partition. pin_top_level_index_and_filter: with
  // cache_index_and_filter_blocks, the top-level index and filter index stay
  // pinned in the block cache while the table is open.
  bool partition_filters = false;
  uint64_t metadata_block_size = 4096;
  bool pin_top_level_index_and_filter = true;

  ChecksumType checksum = kXXH3;
  // 5 (default), 6 or 7 is written (anything else is InvalidArgument at
  // Open or SstFileWriter::Open); 0..7 are read. 6 adds footer and
  // offset-bound ("context") block checksums (RocksDB >= 8.6 reads it); 7
  // also changes the compression_name property (RocksDB >= 10.4).
  uint32_t format_version = 5;

  // Iterators that read many consecutive blocks double their read-ahead from
  // initial_auto_readahead_size up to max_auto_readahead_size (0 = off).
  size_t initial_auto_readahead_size = 8 * 1024;
  size_t max_auto_readahead_size = 256 * 1024;

  // Memory charged to block_cache by role (issue 19). An override's
  // decision wins, then `options`, then the role's default. Built:
  //  - kBlockBasedTableReader (default disabled): each open table
  //    reader's own memory (index, filter and properties it holds outside
  //    the cache); a reader that does not fit a strict cache fails to open
  //    with MemoryLimit.
  //  - kFilterConstruction (default disabled): the key hashes buffered
  //    while a table's filter is built (for partitioned filters also the
  //    finished partitions), and the finished filter while it is written.
  //  - kCompressionDictionaryBuildingBuffer (default enabled): the data
  //    blocks buffered to sample a compression dictionary from; a charge a
  //    strict cache refuses ends the buffering early.
  //  - kFileMetadata (default disabled): the in-memory metadata of every
  //    live table of the family (its struct, keys and checksum strings)
  //    while a Version lists it; a strict cache without room fails the
  //    flush, compaction or open with MemoryLimit.
  // Other roles set to kEnabled or kDisabled are refused at open
  // (InvalidArgument naming the role); kWriteBuffer is charged through
  // WriteBufferManager's cache instead.
  CacheUsageOptions cache_usage_options;
};

// Produces table builders and readers for a column family. Implementations
// are internal; NewBlockBasedTableFactory() returns the one kind.
class STRATA_EXPORT TableFactory {
 public:
  virtual ~TableFactory();
  // "BlockBasedTable".
  virtual const char* Name() const = 0;
  // The options the factory was made with (the block cache filled in).
  virtual const BlockBasedTableOptions& table_options() const = 0;
};

STRATA_EXPORT std::shared_ptr<TableFactory> NewBlockBasedTableFactory(
    const BlockBasedTableOptions& options = BlockBasedTableOptions());

}  // namespace strata
