// WriteBatchIndex: the searchable index under a WriteBatchWithIndex.
//
// Point records (Put, Merge, Delete, SingleDelete) are nodes of a
// single-writer skip list allocated in an Arena: one allocation per node,
// holding the links and a fixed-size IndexEntry that refers to the record by
// offsets into the batch's bytes (which may move when the batch grows, so no
// pointer into them is ever kept). Level 0 is doubly linked, so stepping
// backwards is O(1). Range deletions are kept per column family in a list of
// offsets; a lookup asks for the newest range deletion covering a key, which
// is answered from a sorted, non-overlapping fragmentation of the list,
// rebuilt lazily after a DeleteRange.
//
// Order of nodes: (column family id, user key by the comparator, offset of
// the record). The offset of a record is its position in the batch: a larger
// offset is a newer record.
//
// Resolution of a key: its records newer than the newest covering range
// deletion, applied oldest first, give one of
//   kFound          a Put (value) with zero or more Merge operands on top
//   kDeleted        a deletion (point or range) with zero or more operands on top
//   kMergeInProgress only operands, nothing below them in the batch
//   kNotFound       no record of the key and no covering range deletion.
//
// Thread-safety: not thread-safe (const lookups build the fragment cache).
// Invariants:
//  1. Every level is sorted by the node order, strictly; level 0 holds every
//     node and prev links mirror its next links (head_ before the first).
//  2. An entry's offsets always refer to a record of its type, column
//     family and key in the batch (overwrite_key rewrites the entry to the
//     newer record of the same key, which keeps the order: it is the key's
//     newest entry and the new offset exceeds every other).
//  3. A family's fragments, when not dirty, are the sorted distinct
//     boundaries of its non-empty range deletions, with seq[i] the largest
//     offset of a range deletion covering [bound[i], bound[i+1]) (0 = none).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "strata/comparator.h"
#include "strata/merge_operator.h"
#include "strata/slice.h"
#include "strata/status.h"
#include "strata/utilities/write_batch_with_index.h"
#include "strata/write_batch.h"
#include "util/arena.h"
#include "util/random.h"

namespace strata {

struct WbwiEntry {
  size_t offset;      // the record's offset in the batch (its age)
  size_t key_offset;  // the key bytes' offset in the batch
  uint32_t key_size;
  uint32_t cf_id;
  WriteType type;  // kPutRecord, kMergeRecord, kDeleteRecord, kSingleDeleteRecord
};

enum class WbwiKeyState { kNotFound, kFound, kDeleted, kMergeInProgress };

// The outcome of resolving one key; reused across lookups (the operand
// vector keeps its capacity). Slices point into the batch.
struct WbwiResolved {
  WbwiKeyState state = WbwiKeyState::kNotFound;
  Slice value;                  // the Put's value when kFound
  std::vector<Slice> operands;  // Merge operands above value/deletion, oldest first
};

// Combines operands (oldest first) with base (null = none) into *result.
// InvalidArgument if merge_operator is null; Corruption naming the operator
// if it fails.
Status ApplyMerge(const MergeOperator* merge_operator, const Slice& key, const Slice* base,
                  const std::vector<Slice>& operands, std::string* result);

// Status::MergeInProgress: RocksDB's answer when a batch holds only operands
// for a key and nothing to merge them over.
Status MergeInProgressStatus();

class WriteBatchIndex {
 public:
  // A node is one arena block: this struct, then its height links.
  struct Node {
    WbwiEntry entry;
    Node* prev;  // level 0 only; head_ for the first node
  };
  static Node** Links(const Node* n) { return reinterpret_cast<Node**>(const_cast<Node*>(n) + 1); }

  WriteBatchIndex(const Comparator* ucmp, const WriteBatch* batch, bool overwrite_key);
  WriteBatchIndex(const WriteBatchIndex&) = delete;
  WriteBatchIndex& operator=(const WriteBatchIndex&) = delete;

  // Indexes a point record just appended to the batch (or, with
  // overwrite_key and a type other than Merge, repoints the key's newest
  // entry at it).
  void AddPoint(const WbwiEntry& entry);
  // Records a DeleteRange record just appended.
  void AddRangeDeletion(uint32_t cf_id, size_t offset, size_t begin_offset, uint32_t begin_size,
                        size_t end_offset, uint32_t end_size);
  void Clear();
  size_t MemoryUsage() const;

  const Comparator* user_comparator() const { return ucmp_; }
  Slice KeyOf(const Node* n) const {
    return Slice(batch_->Data().data() + n->entry.key_offset, n->entry.key_size);
  }
  // The value or operand of a Put/Merge entry; empty for deletions.
  Slice ValueOf(const Node* n) const;

  // Cursor primitives within one family; null past either end.
  Node* First(uint32_t cf_id) const;
  Node* Last(uint32_t cf_id) const;
  // The oldest entry of the first key >= key.
  Node* SeekGE(uint32_t cf_id, const Slice& key) const;
  // The newest entry of the last key <= key.
  Node* SeekLE(uint32_t cf_id, const Slice& key) const;
  Node* Next(const Node* n) const {
    Node* x = Links(n)[0];
    return (x != nullptr && x->entry.cf_id == n->entry.cf_id) ? x : nullptr;
  }
  Node* Prev(const Node* n) const {
    Node* x = n->prev;
    return (x != head_ && x->entry.cf_id == n->entry.cf_id) ? x : nullptr;
  }
  bool SameKey(const Node* n, const Slice& key) const { return ucmp_->Equal(KeyOf(n), key); }

  // True if family cf_id has any range deletion.
  bool HasRangeDeletions(uint32_t cf_id) const { return FindTombstones(cf_id) != nullptr; }
  // The offset of the newest range deletion of cf_id covering key; 0 if none.
  size_t CoveringTombstone(uint32_t cf_id, const Slice& key) const;

  // Resolves the key whose oldest entry is oldest (may be null: no entries),
  // given the covering tombstone offset. Returns the first node past the
  // key's entries (null at the family's end).
  Node* Resolve(Node* oldest, const Slice& key, size_t tombstone, WbwiResolved* out) const;
  // Resolves key of family cf_id from scratch.
  void Get(uint32_t cf_id, const Slice& key, WbwiResolved* out) const;

 private:
  static constexpr int kMaxHeight = 12;

  // A search target: (cf, key, offset); key null = before every key of cf.
  struct Target {
    uint64_t cf;
    const Slice* key;
    size_t offset;
  };
  struct KeyRef {
    size_t offset;
    uint32_t size;
  };
  struct RawTombstone {
    size_t offset;
    KeyRef begin;
    KeyRef end;
  };
  struct CfTombstones {
    uint32_t cf_id;
    bool dirty = true;
    std::vector<RawTombstone> raw;
    std::vector<KeyRef> bounds;  // sorted, distinct
    std::vector<size_t> seqs;    // seqs[i] covers [bounds[i], bounds[i+1])
  };

  int Compare(const Node* n, const Target& t) const;
  Slice KeyOf(const KeyRef& r) const { return Slice(batch_->Data().data() + r.offset, r.size); }
  // The last node < t at level 0 (head_ if none).
  Node* FindLessThan(const Target& t, Node** prev) const;
  Node* NewNode(int height);
  int RandomHeight();
  const CfTombstones* FindTombstones(uint32_t cf_id) const;
  void BuildFragments(CfTombstones* t) const;

  const Comparator* const ucmp_;
  const WriteBatch* const batch_;
  const bool overwrite_key_;
  std::unique_ptr<Arena> arena_;
  Node* head_;
  Node* tail_;  // the last node at level 0 (head_ if empty)
  int height_ = 1;
  Random rnd_;
  mutable std::vector<CfTombstones> tombstones_;  // one per family with range deletions
};

}  // namespace strata
