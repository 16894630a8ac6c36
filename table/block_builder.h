// BlockBuilder: encodes sorted key/value entries into one block in the
// generic block format of docs/format/block.md (Block contents) (see table/block.h for the
// layout), optionally followed by a data-block hash index (docs/format/block.md, Data blocks).
// Output is byte-identical to RocksDB 7.8.3's BlockBuilder.
//
// Thread-safety: not thread-safe.
// Invariants:
//  1. Keys are added in strictly increasing order (the caller's order).
//  2. Every restart_interval-th entry has shared == 0 and its offset is in
//     the restart array; restart[0] == 0.
//  3. The hash index is written only when it was requested, at most 254
//     restart intervals exist and the finished block is <= 64 KiB; bit 31 of
//     the footer word is set exactly when it is written.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "strata/slice.h"
#include "table/data_block_hash_index.h"

namespace strata {

class BlockBuilder {
 public:
  // use_hash_index: keys must be internal keys (the index hashes the user
  // key, i.e. the key minus its 8-byte trailer).
  explicit BlockBuilder(int restart_interval = 16, bool use_delta_encoding = true,
                        bool use_hash_index = false, double hash_util_ratio = 0.75);
  BlockBuilder(const BlockBuilder&) = delete;
  BlockBuilder& operator=(const BlockBuilder&) = delete;

  // REQUIRES: Finish() not called since the last Reset(); key is greater
  // than every key added before (and >= 8 bytes with the hash index).
  void Add(const Slice& key, const Slice& value);
  // An index entry in the delta-encoded layout (docs/format/block.md (Index blocks)): no value
  // length; full_value (the encoded handle) when the entry shares no key
  // bytes with the previous one, else delta_value (the zigzag size delta).
  void AddIndexEntry(const Slice& key, const Slice& full_value, const Slice& delta_value);

  // Appends the restart array, hash index and footer word. The result stays
  // valid until Reset() or destruction.
  Slice Finish();

  // Back to the empty state (keeps allocated memory).
  void Reset();

  // Size of the block Finish() would produce now (uncompressed).
  size_t CurrentSizeEstimate() const;
  // Estimate after adding key/value (without adding them). With
  // value_delta_encoded (an index block of delta-encoded handles), an entry
  // inside a restart interval counts half the value and no value length,
  // as RocksDB estimates it.
  size_t EstimateSizeAfterKV(const Slice& key, const Slice& value,
                             bool value_delta_encoded = false) const;

  bool empty() const { return buffer_.empty(); }

 private:
  void AddEntry(const Slice& key, const Slice& full_value, const Slice* delta_value);

  const int restart_interval_;
  const bool use_delta_encoding_;
  const bool use_hash_index_;

  std::string buffer_;
  std::vector<uint32_t> restarts_;
  size_t estimate_;  // buffer_ + restart array + footer word
  int counter_;      // entries since the last restart
  bool finished_;
  std::string last_key_;
  DataBlockHashIndexBuilder hash_index_;
};

}  // namespace strata
