// PartitionedIndexBuilder: the writer side of kTwoLevelIndexSearch
// (docs/format/index.md, "Partitioned index"), byte for byte RocksDB
// 7.8.3's layout.
//
// The index entries of a table (one per data block: separator, handle) go
// into index partitions. A partition is closed before the entry of a new
// data block is added when it has reached metadata_block_size (or, with
// block_size_deviation, when this entry would push it past the size while it
// is already nearly full), or when the filter builder asked for a cut. The
// entry that triggered the cut opens the next partition. The top-level index
// has one entry per partition: the partition's last separator and the
// partition's block handle. Partitions and the top-level index store user
// keys unless some separator of the whole file needs its sequence number;
// then every one of them stores internal keys.
//
// Filter partitions (table/partitioned_filter_block.h) follow the index
// partitions: each index cut raises a flag the filter builder takes
// (TakeFilterCut) when the next key arrives, and names the filter partition
// with the separator the new index partition was opened with.
//
// Thread-safety: not thread-safe.
// Invariants:
//  1. Every entry lands in exactly one partition, in order; partitions are
//     returned by NextPartition in order and the top-level block lists them
//     with the handles the caller reports back.
//  2. Every partition and the top-level index use one key form
//     (separator_needs_sequence() as of Finish time).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>

#include "strata/slice.h"
#include "table/block_builder.h"
#include "table/format.h"

namespace strata {

class PartitionedIndexBuilder {
 public:
  PartitionedIndexBuilder(int restart_interval, uint64_t metadata_block_size,
                          int block_size_deviation);
  PartitionedIndexBuilder(const PartitionedIndexBuilder&) = delete;
  PartitionedIndexBuilder& operator=(const PartitionedIndexBuilder&) = delete;

  // Before the entry of the block that ends with `last_key` (its internal
  // key, unshortened) is added: closes the current partition when it is
  // full or a cut was requested. `needs_sequence`: some earlier separator
  // needed its sequence number (decides which form's size counts).
  void MaybeCut(const Slice& last_key, const BlockHandle& handle, bool needs_sequence);
  // Adds an entry (internal-key separator) to the current partition (opened
  // if none). `last`: the table's final entry; closes the partition.
  void AddEntry(const Slice& separator, const Slice& encoded_handle, const Slice& delta, bool last);

  // The filter builder asks for the next entry to start a new partition.
  void RequestCut() { cut_requested_ = true; }
  // True once after each partition cut (the filter partition closes too).
  bool TakeFilterCut() {
    const bool cut = filter_cut_;
    filter_cut_ = false;
    return cut;
  }
  // The last separator of the open partition (internal key).
  const std::string& partition_key() const { return current_key_; }

  // Finishing: NextPartition hands out the closed partitions in order (the
  // block contents, valid until the next call), given the handle the
  // previous one was written at; after the last it returns false and
  // *top_level holds the top-level index block.
  bool NextPartition(bool needs_sequence, const BlockHandle& previous_handle, Slice* contents,
                     Slice* top_level);
  size_t num_partitions() const { return num_partitions_; }
  // Bytes of index held while building: the closed partitions not yet
  // handed out and the open one, both forms (an estimate of their buffers).
  size_t MemoryHeld() const {
    size_t n = closed_bytes_;
    if (current_.with_seq != nullptr) {
      n += current_.with_seq->CurrentSizeEstimate() + current_.user_keys->CurrentSizeEstimate();
    }
    return n;
  }
  // Sum of the raw partition sizes and the top-level size (after Finish),
  // as RocksDB records the index size.
  uint64_t raw_index_size() const { return raw_index_size_; }
  uint64_t top_level_size() const { return top_level_size_; }

 private:
  struct Partition {
    std::string key;  // last separator, internal key
    std::unique_ptr<BlockBuilder> with_seq;
    std::unique_ptr<BlockBuilder> user_keys;
    size_t bytes = 0;  // both forms' size estimates when closed
  };
  void OpenPartition();
  // Moves the open partition to closed_ (with its key).
  void ClosePartition();

  const int restart_interval_;
  const uint64_t metadata_block_size_;
  const uint64_t deviation_limit_;
  std::deque<Partition> closed_;
  size_t closed_bytes_ = 0;  // sum of closed_[i].bytes
  Partition current_;
  std::string current_key_;
  bool cut_requested_ = true;
  bool filter_cut_ = false;

  // Finishing state.
  bool finishing_ = false;
  std::string pending_key_;  // key of the partition just handed out
  size_t num_partitions_ = 0;
  uint64_t raw_index_size_ = 0;
  uint64_t top_level_size_ = 0;
  BlockHandle last_handle_;
  bool has_last_handle_ = false;
  BlockBuilder top_with_seq_;
  BlockBuilder top_user_keys_;
  std::string handle_buf_;
  std::string delta_buf_;
};

}  // namespace strata
