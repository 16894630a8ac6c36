// The optional hash index of a data block (docs/format/block.md (Data blocks)): a small
// table from user-key hash to restart-interval index, appended after the
// restart array so a point lookup can skip the binary search.
//
//   restart[...] | bucket[num_buckets]: u8 each | num_buckets: fixed16 | footer
//
// bucket = Hash32(user_key, 397) % num_buckets holds the restart index of the
// interval containing the key (0..253), kNoEntry (255) or kCollision (254,
// two different restart indexes hashed there). num_buckets =
// trunc(sum over keys of 1/util_ratio), at least 1, forced odd.
// Thread-safety: builder not thread-safe; lookups are pure functions.
// Invariants: the builder is Valid() only while every added restart index is
// <= kMaxRestartSupportedByHashIndex and at least one key was added.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "strata/slice.h"

namespace strata {

constexpr uint8_t kHashIndexNoEntry = 255;
constexpr uint8_t kHashIndexCollision = 254;
constexpr uint8_t kMaxRestartSupportedByHashIndex = 253;
constexpr size_t kMaxBlockSizeSupportedByHashIndex = 1u << 16;
constexpr uint32_t kDataBlockHashIndexSeed = 397;

uint32_t DataBlockHashIndexHash(const Slice& user_key);

class DataBlockHashIndexBuilder {
 public:
  explicit DataBlockHashIndexBuilder(double util_ratio = 0.75)
      : bucket_per_key_(1.0 / util_ratio) {}

  // Records that user_key lives in restart interval restart_index.
  void Add(const Slice& user_key, size_t restart_index);
  // Appends the buckets and num_buckets. REQUIRES: Valid().
  void Finish(std::string* buffer) const;
  // Bytes Finish would append.
  size_t EstimateSize() const;
  bool Valid() const { return valid_ && !entries_.empty(); }
  void Reset();

 private:
  uint16_t NumBuckets() const;

  double bucket_per_key_;
  double estimated_num_buckets_ = 0;
  bool valid_ = true;
  std::vector<std::pair<uint32_t, uint8_t>> entries_;  // (hash, restart index)
};

// Reader side. `map_start` points at bucket[0] of a block's index with
// num_buckets >= 1 buckets. Returns the bucket's byte.
inline uint8_t DataBlockHashIndexLookup(const char* map_start, uint16_t num_buckets,
                                        const Slice& user_key) {
  return static_cast<uint8_t>(map_start[DataBlockHashIndexHash(user_key) % num_buckets]);
}

}  // namespace strata
