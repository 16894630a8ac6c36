// PartitionedFilterBlockBuilder: the filter of a table cut into partitions
// that follow the index partitions, plus a top-level "filter index" block
// (docs/format/filter.md, "Partitioned filters"), byte for byte RocksDB
// 7.8.3's. Stored under metaindex key "partitionedfilter." +
// FilterPolicy::CompatibilityName(); each partition is a full filter.
//
// What goes in is the full filter's rule (table/full_filter_block.h) with
// RocksDB's exact sequence of AddKey calls, since the partition sizes
// depend on it: whole keys when whole_key_filtering, prefixes of keys in
// the extractor's domain, the last prefix repeated at the start of a new
// partition, and the next key's prefix added to a partition being closed.
// After about ApproximateNumEntries(partition bytes) keys the builder asks
// the index builder for a cut; a partition closes when the index builder
// reports one (the next Add), and takes the key of the index partition that
// was just opened, which is >= every key in the filter partition.
//
// Thread-safety: not thread-safe.
// Invariants:
//  1. No false negatives: a key added lands in the partition whose
//     top-level key is the first >= it.
//  2. The top-level block lists every partition in order with the handles
//     the caller reported.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>

#include "strata/slice.h"
#include "strata/slice_transform.h"
#include "table/block_builder.h"
#include "table/filter_policy.h"
#include "table/format.h"
#include "table/partitioned_index.h"

namespace strata {

class PartitionedFilterBlockBuilder {
 public:
  // bits_builder: non-null. prefix_extractor: borrowed, may be null.
  // index: borrowed, must outlive this builder. partition_bytes: the
  // target partition size (metadata_block_size less the deviation).
  PartitionedFilterBlockBuilder(std::unique_ptr<FilterBitsBuilder> bits_builder,
                                const SliceTransform* prefix_extractor, bool whole_key_filtering,
                                int restart_interval, PartitionedIndexBuilder* index,
                                size_t partition_bytes);
  PartitionedFilterBlockBuilder(const PartitionedFilterBlockBuilder&) = delete;
  PartitionedFilterBlockBuilder& operator=(const PartitionedFilterBlockBuilder&) = delete;

  // Adds a user key (after the index entry of the block before it).
  void Add(const Slice& user_key);
  // Nothing was ever added: the table gets no filter.
  bool empty() const { return !any_added_; }
  // Hashes added over all partitions (rocksdb.num.filter_entries).
  size_t NumAdded() const { return total_added_ + bits_->EstimateEntriesAdded(); }
  // Bytes held while building: the open partition's key hashes (8 bytes
  // each) and the finished partitions not yet handed out by NextPartition
  // (what kFilterConstruction charges).
  size_t MemoryHeld() const {
    return held_bytes_ + bits_->EstimateEntriesAdded() * sizeof(uint64_t);
  }

  // Finishing, after the index's last entry: NextPartition gives the
  // partitions in order (contents valid until the next call), given the
  // handle the previous one was written at; after the last it returns false
  // and *top_level holds the filter index block (keys in the index's form).
  bool NextPartition(bool needs_sequence, const BlockHandle& previous_handle, Slice* contents,
                     Slice* top_level);

 private:
  void MaybeCut(const Slice* next_key);
  void AddKey(const Slice& key);

  std::unique_ptr<FilterBitsBuilder> bits_;
  const SliceTransform* const prefix_extractor_;
  const bool whole_key_filtering_;
  PartitionedIndexBuilder* const index_;
  size_t keys_per_partition_ = 1;
  size_t keys_in_partition_ = 0;
  size_t total_added_ = 0;

  // The full filter's duplicate tracking (reset at each partition).
  bool any_added_ = false;
  bool last_whole_key_recorded_ = false;
  bool last_prefix_recorded_ = false;
  bool last_key_in_domain_ = false;
  std::string last_whole_key_;
  std::string last_prefix_;

  struct Partition {
    std::string key;
    std::unique_ptr<const char[]> data;
    Slice filter;
  };
  std::deque<Partition> partitions_;
  size_t held_bytes_ = 0;  // sum of partitions_[i].filter.size()

  bool finishing_ = false;
  std::string pending_key_;
  std::unique_ptr<const char[]> pending_data_;
  BlockHandle last_handle_;
  bool has_last_handle_ = false;
  BlockBuilder top_with_seq_;
  BlockBuilder top_user_keys_;
  std::string handle_buf_;
  std::string delta_buf_;
};

}  // namespace strata
