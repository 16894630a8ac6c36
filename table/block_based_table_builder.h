// BlockBasedTableBuilder: writes one table file in RocksDB's block-based
// format at format_version 5, 6 or 7 (docs/format/table.md, "Writing an SST"; 6 and 7 add
// context checksums, a footer checksum and the index handle in the metaindex):
//
//   [data block + trailer]*  [filter block + trailer]  [index block + trailer]
//   [range-del block + trailer]  [properties block + trailer]
//   [metaindex block + trailer]  [footer, 53 bytes]
//
// Data blocks hold internal keys in order and close at block_size (with
// block_size_deviation); each is compressed when that saves 1/8 and
// checksummed. With compression_opts.max_dict_bytes > 0 and a codec that
// uses dictionaries, data blocks are first buffered (up to
// max_dict_buffer_bytes / target_file_size), a dictionary is built from
// samples of them (table/compression.h BuildCompressionDictionary), and
// every data block is compressed with it; the dictionary is written raw as
// the meta block "rocksdb.compression_dict" (docs/format/table.md). The
// index has one entry per data block: a shortened separator
// stored as a user key while no user key spans two blocks (else full
// internal keys for the whole file), with delta-encoded block handles.
// With index_type kTwoLevelIndexSearch the entries are cut into index
// partitions under a top-level index (table/partitioned_index.h), and with
// partition_filters the filter follows them (table/partitioned_filter_block.h;
// docs/format/index.md, docs/format/filter.md).
//
// Thread-safety: not thread-safe.
// Invariants:
//  1. Keys are added in strictly increasing internal-key order (checked in
//     debug builds; out-of-order input makes status() InvalidArgument).
//  2. After Finish() returns OK the file holds a complete table that
//     RocksDB 7.8.3's sst_dump reads, and FileSize() is its exact length.
//  3. The first error of the file sticks: status() reports it and later
//     calls do nothing.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "base/dbformat.h"
#include "strata/env.h"
#include "strata/listener.h"
#include "strata/options.h"
#include "strata/slice.h"
#include "strata/slice_transform.h"
#include "strata/statistics.h"
#include "strata/status.h"
#include "strata/table.h"
#include "strata/table_properties.h"

namespace strata {

struct TableBuilderOptions {
  BlockBasedTableOptions table_options;
  // Orders user keys; its Name() goes into the properties.
  const Comparator* user_comparator = BytewiseComparator();
  CompressionType compression = kNoCompression;
  // The codec's parameters and the dictionary settings (table/compression.h).
  CompressionOptions compression_opts;
  // The size the caller aims its output files at (a compaction's
  // max_output_file_size); bounds the bytes buffered to build a dictionary
  // together with compression_opts.max_dict_buffer_bytes. 0 = unknown.
  uint64_t target_file_size = 0;
  std::string column_family_name = "default";
  uint32_t column_family_id = 0x7fffffff;
  std::string merge_operator_name = "nullptr";
  // Recorded as "rocksdb.prefix.extractor.name"; replaced by
  // prefix_extractor->Name() when an extractor is given.
  std::string prefix_extractor_name = "nullptr";
  // With a filter policy, the filter also holds Transform(key) of every key
  // InDomain (and whole keys only when table_options.whole_key_filtering).
  // Borrowed; must outlive the builder. Null = no prefixes.
  const SliceTransform* prefix_extractor = nullptr;
  uint64_t creation_time = 0;
  uint64_t oldest_key_time = 0;
  uint64_t file_creation_time = 0;
  uint64_t original_file_number = 0;
  std::string db_id;
  std::string db_session_id;
  std::string db_host_id;
  // Written verbatim among the properties (e.g. SstFileWriter's
  // "rocksdb.external_sst_file.version").
  std::map<std::string, std::string> extra_properties;
  // Counts compressed blocks and times block writes; may be null. Borrowed.
  Statistics* statistics = nullptr;
  // The table's property collectors: one per factory, made with
  // {column_family_id, level_at_creation} (strata/table_properties.h).
  // Borrowed; null or empty = none (then no per-entry cost but one branch).
  const std::vector<std::shared_ptr<TablePropertiesCollectorFactory>>* collector_factories =
      nullptr;
  int level_at_creation = TablePropertiesCollectorFactory::Context::kUnknownLevelAtCreation;
  // Ribbon's bloom_before_level: why the table is made and under which
  // compaction style (table/filter_policy.h FilterBuildingContext).
  TableFileCreationReason reason = TableFileCreationReason::kMisc;
  CompactionStyle compaction_style = kCompactionStyleLevel;
  // DBOptions::memory_budget (docs/design/memory-budget.md): the builder's
  // working memory -- the index being built, the open data block, the
  // compression buffer and `file_buffer_bytes` of the output file's write
  // buffer -- is charged to table_options.block_cache as
  // CacheEntryRole::kMisc while it builds (raised a dummy entry at a time,
  // released by Finish and Abandon).
  bool charge_working_memory = false;
  size_t file_buffer_bytes = 0;
};

class BlockBasedTableBuilder {
 public:
  // `file` is borrowed and must outlive the builder; the builder appends to
  // it and never closes or syncs it (the caller does, after Finish).
  BlockBasedTableBuilder(const TableBuilderOptions& options, WritableFile* file);
  ~BlockBasedTableBuilder();
  BlockBasedTableBuilder(const BlockBasedTableBuilder&) = delete;
  BlockBasedTableBuilder& operator=(const BlockBasedTableBuilder&) = delete;

  // Adds an entry (internal key, value). REQUIRES: Finish/Abandon not called.
  void Add(const Slice& internal_key, const Slice& value);

  // Adds a range tombstone [begin_user_key, end_user_key) at `seq` to the
  // range-deletion block. Tombstones may come in any order (they are sorted
  // at Finish).
  void AddRangeTombstone(const Slice& begin_user_key, SequenceNumber seq,
                         const Slice& end_user_key);

  Status status() const;

  // Writes the remaining data block and every meta block and the footer.
  Status Finish();
  // Stops without finishing; the file contents are then unspecified.
  void Abandon();

  uint64_t NumEntries() const;
  bool IsEmpty() const;
  // Bytes appended to the file so far (exact after Finish).
  uint64_t FileSize() const;
  // The properties written (complete after Finish).
  const TableProperties& GetTableProperties() const;
  // Some collector asked for the file to be compacted (valid after Finish).
  bool NeedCompact() const;

 private:
  struct Rep;
  void FlushDataBlock();
  // Writes a finished data block (compressed) and queues its index entry.
  void EmitDataBlock(const Slice& raw);
  // Ends buffering: builds the dictionary and writes the buffered blocks.
  void EnterUnbuffered();
  // data_block: compressed with the table's dictionary, if any.
  void WriteBlock(const Slice& raw, bool may_compress, std::string* encoded_handle,
                  uint64_t* stored_size = nullptr, bool data_block = false);
  void WriteRawBlock(const Slice& contents, unsigned char type, std::string* encoded_handle);
  void AddIndexEntry(const Slice* next_key);
  // Hands an entry (internal key) to every collector.
  void CollectEntry(const Slice& internal_key, const Slice& value);
  Rep* rep_;
};

}  // namespace strata
