// Full filter block: one filter over the user keys of a table file, stored
// uncompressed under metaindex key "fullfilter." +
// FilterPolicy::CompatibilityName() (docs/format/filter.md (Which keys go in)). Thin wrappers over
// FilterBitsBuilder / FilterBitsReader.
//
// What goes in, per user key (RocksDB's rule, so either side reads the
// other's filters): the whole key when whole_key_filtering, and
// prefix_extractor->Transform(key) when an extractor is set and the key is
// InDomain. Both kinds share one bit array; a reader learns which kinds a
// file holds from its properties ("rocksdb.block.based.table.whole.key.
// filtering", "...prefix.filtering", "rocksdb.prefix.extractor.name").
// Consecutive duplicates count once: the bits builder drops a hash equal to
// the previous one, and with both kinds interleaved the builder also
// remembers the last whole key and the last prefix.
//
// Thread-safety: a builder needs external synchronization; a reader is
// immutable and thread-safe.
// Invariants:
//  1. KeyMayMatch(k) is true for every k passed to Add() of a builder with
//     whole_key_filtering, and PrefixMayMatch(Transform(k)) for every k in the
//     extractor's domain when the builder had an extractor.
//  2. A table with no added keys has no filter block (callers check
//     NumAdded() before Finish()).
#pragma once

#include <memory>
#include <string>

#include "strata/slice.h"
#include "strata/slice_transform.h"
#include "table/compression.h"
#include "table/filter_policy.h"

namespace strata {

class FullFilterBlockBuilder {
 public:
  // Whole keys only. REQUIRES: bits_builder != nullptr (see
  // NewFilterBitsBuilder()).
  explicit FullFilterBlockBuilder(std::unique_ptr<FilterBitsBuilder> bits_builder);
  // Whole keys when whole_key_filtering, plus prefixes when prefix_extractor
  // is non-null (borrowed; must outlive the builder). REQUIRES: bits_builder
  // != nullptr and (whole_key_filtering or prefix_extractor != nullptr).
  FullFilterBlockBuilder(std::unique_ptr<FilterBitsBuilder> bits_builder,
                         const SliceTransform* prefix_extractor, bool whole_key_filtering);
  FullFilterBlockBuilder(const FullFilterBlockBuilder&) = delete;
  FullFilterBlockBuilder& operator=(const FullFilterBlockBuilder&) = delete;

  // Adds a user key (timestamp already stripped), and its prefix when there
  // is an extractor. Adjacent duplicates count once.
  void Add(const Slice& user_key) {
    if (prefix_extractor_ == nullptr) {
      bits_builder_->AddKey(user_key);
    } else {
      AddWithPrefix(user_key);
    }
  }

  // Distinct hashes added so far (rocksdb.num.filter_entries).
  size_t NumAdded() const { return bits_builder_->EstimateEntriesAdded(); }

  // The filter block contents, to be stored uncompressed. Valid until the
  // next Finish() or the builder's destruction.
  Slice Finish();

 private:
  void AddWithPrefix(const Slice& user_key);

  std::unique_ptr<FilterBitsBuilder> bits_builder_;
  const SliceTransform* const prefix_extractor_ = nullptr;
  const bool whole_key_filtering_ = true;
  // With both kinds interleaved, the bits builder's "same as the previous
  // hash" check no longer sees repeats: remember the last of each.
  bool have_last_whole_key_ = false;
  bool have_last_prefix_ = false;
  std::string last_whole_key_;
  std::string last_prefix_;
  // Prefixes only: the previous key was in the domain, and the empty
  // string RocksDB adds once after such a key (AddWithPrefix).
  bool prev_in_domain_ = false;
  bool empty_prefix_added_ = false;
  std::unique_ptr<const char[]> buf_;
};

class FullFilterBlockReader {
 public:
  // Reads `contents`, which must outlive the reader.
  explicit FullFilterBlockReader(const Slice& contents) : reader_(contents) {}
  // Takes ownership of the contents.
  explicit FullFilterBlockReader(std::string&& contents)
      : owned_(std::move(contents)), reader_(Slice(owned_)) {}
  // Takes ownership of the contents (freed through their allocator, if any).
  explicit FullFilterBlockReader(BlockBuffer&& contents)
      : owned_buffer_(std::move(contents)),
        reader_(Slice(owned_buffer_.data(), owned_buffer_.size())) {}
  FullFilterBlockReader(const FullFilterBlockReader&) = delete;
  FullFilterBlockReader& operator=(const FullFilterBlockReader&) = delete;

  // False only if user_key was certainly not added (meaningful only for a
  // filter built with whole keys).
  bool KeyMayMatch(const Slice& user_key) const { return reader_.MayMatch(user_key); }
  // False only if prefix was certainly not added (meaningful only for a
  // filter built with the same prefix extractor).
  bool PrefixMayMatch(const Slice& prefix) const { return reader_.MayMatch(prefix); }

 private:
  // Declared before reader_, which points into one of them.
  const std::string owned_;
  BlockBuffer owned_buffer_;
  const FilterBitsReader reader_;
};

}  // namespace strata
