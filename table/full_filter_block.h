// Full filter block: one filter over every user key of a table file
// (whole_key_filtering), stored uncompressed under metaindex key
// "fullfilter." + FilterPolicy::CompatibilityName() (FORMATS.md 7.1).
// Thin wrappers over FilterBitsBuilder / FilterBitsReader.
//
// Thread-safety: a builder needs external synchronization; a reader is
// immutable and thread-safe.
// Invariants:
//  1. KeyMayMatch(k) is true for every k passed to Add() of the builder that
//     produced the contents.
//  2. A table with no added keys has no filter block (callers check
//     NumAdded() before Finish()).
#pragma once

#include <memory>
#include <string>

#include "strata/slice.h"
#include "table/filter_policy.h"

namespace strata {

class FullFilterBlockBuilder {
 public:
  // REQUIRES: bits_builder != nullptr (see NewFilterBitsBuilder()).
  explicit FullFilterBlockBuilder(std::unique_ptr<FilterBitsBuilder> bits_builder);
  FullFilterBlockBuilder(const FullFilterBlockBuilder&) = delete;
  FullFilterBlockBuilder& operator=(const FullFilterBlockBuilder&) = delete;

  // Adds a user key (timestamp already stripped). Adjacent duplicates count
  // once.
  void Add(const Slice& user_key) { bits_builder_->AddKey(user_key); }

  // Distinct hashes added so far (rocksdb.num.filter_entries).
  size_t NumAdded() const { return bits_builder_->EstimateEntriesAdded(); }

  // The filter block contents, to be stored uncompressed. Valid until the
  // next Finish() or the builder's destruction.
  Slice Finish();

 private:
  std::unique_ptr<FilterBitsBuilder> bits_builder_;
  std::unique_ptr<const char[]> buf_;
};

class FullFilterBlockReader {
 public:
  // Reads `contents`, which must outlive the reader.
  explicit FullFilterBlockReader(const Slice& contents) : reader_(contents) {}
  // Takes ownership of the contents.
  explicit FullFilterBlockReader(std::string&& contents)
      : owned_(std::move(contents)), reader_(Slice(owned_)) {}
  FullFilterBlockReader(const FullFilterBlockReader&) = delete;
  FullFilterBlockReader& operator=(const FullFilterBlockReader&) = delete;

  // False only if user_key was certainly not added.
  bool KeyMayMatch(const Slice& user_key) const { return reader_.MayMatch(user_key); }

 private:
  const std::string owned_;  // declared before reader_, which points into it
  const FilterBitsReader reader_;
};

}  // namespace strata
