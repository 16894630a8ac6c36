// Block: a read-only view of one uncompressed block in the generic block
// format (docs/format/block.md (Block contents)), with iterators over its entries and a
// point-lookup path through the optional data-block hash index (docs/format/block.md, Data blocks).
//
//   entry*  restart[num_restarts]: fixed32 each  [hash index]  footer: fixed32
//   entry := varint32 shared | varint32 non_shared | varint32 value_len |
//            key_delta[non_shared] | value[value_len]
//   footer  = num_restarts | (hash index present ? 1 << 31 : 0)
//             (bit 31 is only a flag in blocks <= 64 KiB)
//   hash index := bucket[num_buckets]: u8 each | num_buckets: fixed16
//
// Thread-safety: a Block is immutable and may be shared by threads; each
// BlockIter is not thread-safe.
// Invariants:
//  1. A Block whose restart array, hash index or footer does not fit its size
//     is "malformed": its iterators are never Valid() and report Corruption.
//  2. Iterators never read outside [data, data + size) whatever the bytes;
//     an undecodable entry turns the iterator invalid with Corruption.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "base/internal_iterator.h"
#include "strata/comparator.h"
#include "strata/slice.h"
#include "strata/status.h"
#include "table/compression.h"
#include "table/format.h"

namespace strata {

class BlockIter;

class Block {
 public:
  // Takes ownership of the contents.
  explicit Block(std::string&& contents);
  explicit Block(BlockBuffer&& contents);
  // Borrows the contents; they must outlive the Block and its iterators.
  explicit Block(const Slice& contents);
  Block(const Block&) = delete;
  Block& operator=(const Block&) = delete;

  size_t size() const { return size_; }
  const char* data() const { return data_; }
  // Heap bytes this block holds: the object and the buffer it owns (its
  // capacity, not the block's size). What the block cache is charged.
  size_t ApproximateMemoryUsage() const {
    return sizeof(Block) + (owned_.empty() ? 0 : owned_.capacity()) + owned_buffer_.capacity();
  }
  // False if the block is malformed (see invariant 1).
  bool ok() const { return num_restarts_ != 0; }
  uint32_t num_restarts() const { return num_restarts_; }
  bool has_hash_index() const { return num_buckets_ != 0; }

  // A new iterator (caller owns) ordering keys by cmp as stored: pass an
  // InternalKeyComparator (base/dbformat.h) for data blocks
  // and BytewiseComparator for the metaindex. cmp and the Block must outlive
  // the iterator.
  BlockIter* NewIterator(const Comparator* cmp) const;
  // Re-targets an existing iterator at this block (no allocation).
  void InitIterator(const Comparator* cmp, BlockIter* iter) const;
  // Targets `iter` at this block read as an index block (docs/format/block.md (Index blocks)):
  // every value is a BlockHandle, available decoded through
  // BlockIter::handle(). With value_delta_encoded the entries have no value
  // length and non-restart handles are size deltas (format_version >= 4).
  void InitIndexIterator(const Comparator* cmp, bool value_delta_encoded, BlockIter* iter) const;

 private:
  void Parse();

  std::string owned_;
  BlockBuffer owned_buffer_;
  const char* data_;
  size_t size_;
  uint32_t restart_offset_ = 0;  // start of the restart array
  uint32_t num_restarts_ = 0;    // 0 when malformed
  const char* hash_map_ = nullptr;
  uint16_t num_buckets_ = 0;
};

class BlockIter final : public InternalIterator {
 public:
  BlockIter() = default;

  bool Valid() const override { return current_ < restarts_; }
  void SeekToFirst() override;
  void SeekToLast() override;
  void Seek(const Slice& target) override;
  void SeekForPrev(const Slice& target) override;
  void Next() override;
  void Prev() override;
  Slice key() const override { return key_; }
  Slice value() const override { return value_; }
  Status status() const override { return status_; }

  // Point lookup of an internal key `target` in a data block, using the
  // hash index when the block has one (else the same as Seek). user_cmp
  // orders user keys (stored keys minus their 8-byte trailer).
  // Returns false if the user key is certainly absent from this block and
  // from every later block of the table. Returns true otherwise, with the
  // iterator positioned as Seek(target) would (invalid means: continue in
  // the next block).
  bool SeekForGet(const Slice& target, const Comparator* user_cmp);

  // Positions at the entry that starts restart interval `index` (invalid,
  // with Corruption, if out of range).
  void SeekToRestart(uint32_t index);

  // Index blocks only (Block::InitIndexIterator): the current entry's data
  // block handle. REQUIRES: Valid().
  const BlockHandle& handle() const { return handle_; }

 private:
  friend class Block;

  void Init(const Comparator* cmp, const char* data, uint32_t restarts, uint32_t num_restarts,
            const char* hash_map, uint16_t num_buckets);
  // Decodes the entry header at p; nullptr when it does not fit.
  const char* DecodeHeader(const char* p, const char* limit, uint32_t* shared, uint32_t* non_shared,
                           uint32_t* value_length) const;
  // Index mode: decodes handle_ from the value at p (limit = end of entries).
  bool DecodeIndexValue(const char* p, const char* limit, uint32_t shared);
  uint32_t RestartPoint(uint32_t index) const;
  void SeekToRestartPoint(uint32_t index);
  // Decodes the entry at next_offset_; false at the end or on corruption.
  bool ParseNextKey();
  void CorruptionError();
  // Binary search: index of the last restart whose key is < target (0 if
  // none). false on corruption.
  bool BinarySeek(const Slice& target, uint32_t* index);

  const Comparator* cmp_ = nullptr;
  const char* data_ = nullptr;
  uint32_t restarts_ = 0;  // offset of the restart array = end of entries
  uint32_t num_restarts_ = 0;
  const char* hash_map_ = nullptr;
  uint16_t num_buckets_ = 0;

  uint32_t current_ = 0;        // offset of the current entry; restarts_ if invalid
  uint32_t next_ = 0;           // offset of the entry after the current one
  uint32_t restart_index_ = 0;  // restart interval containing current_
  // 0 = data/meta block, 1 = index with value lengths, 2 = index with
  // delta-encoded handles.
  uint8_t index_mode_ = 0;
  BlockHandle handle_;
  Slice key_;
  Slice value_;
  std::string key_buf_;  // backs key_ when the key was delta-encoded
  Status status_;
};

}  // namespace strata
