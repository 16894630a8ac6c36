// Full-filter bit builders and readers behind the public FilterPolicy
// (docs/format/filter.md).
//
// FastLocalBloom (what we write; RocksDB format_version 5), for a filter of
// L + 5 bytes:
//   [ bit array: L bytes, L % 64 == 0 ][ 0xff ][ 0x00 ][ probes ][ 0x00 ][ 0x00 ]
// A key's 64-bit hash h = XXPH3_64(key) picks one 64-byte line from its low
// 32 bits (fastrange) and num_probes bits inside that line from the top 9
// bits of its high 32 bits, multiplying the high half by 0x9E3779B9 between
// probes. The reader also understands the legacy Bloom layout (trailer byte 0
// = num_probes >= 1, then fixed32 num_lines; Hash32 seed 0xbc9f1d34) and
// treats Ribbon, reserved and malformed trailers as "always may match" and
// filters of 5 bytes or fewer as "no keys" (never matches).
//
// Thread-safety: FilterBitsBuilder needs external synchronization;
// FilterBitsReader is immutable after construction and thread-safe.
// Invariants:
//  1. No false negatives: every key added before Finish() matches.
//  2. Reading never touches bytes outside the given contents, whatever they
//     hold.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>

#include "strata/filter_policy.h"
#include "strata/slice.h"

namespace strata {

class FilterBitsBuilder;

// Trailer length of every full filter.
inline constexpr size_t kFilterMetadataLen = 5;

// The built-in policy (NewBloomFilterPolicy()).
class BloomFilterPolicy final : public FilterPolicy {
 public:
  explicit BloomFilterPolicy(double bits_per_key);

  const char* Name() const override { return "bloomfilter"; }
  const char* CompatibilityName() const override { return "rocksdb.BuiltinBloomFilter"; }

  // Rounded bits/key x 1000; 0 means "build no filter".
  int millibits_per_key() const { return millibits_per_key_; }

  // nullptr when this policy builds no filter.
  std::unique_ptr<FilterBitsBuilder> NewBuilder() const;

 private:
  int millibits_per_key_;
};

// A builder for `policy`, or nullptr when policy is null, is not the
// built-in policy, or builds no filter.
std::unique_ptr<FilterBitsBuilder> NewFilterBitsBuilder(const FilterPolicy* policy);

// Collects key hashes, then lays out a FastLocalBloom filter.
class FilterBitsBuilder {
 public:
  // REQUIRES: 1000 <= millibits_per_key <= 100000.
  explicit FilterBitsBuilder(int millibits_per_key);
  FilterBitsBuilder(const FilterBitsBuilder&) = delete;
  FilterBitsBuilder& operator=(const FilterBitsBuilder&) = delete;

  // Adds a key; a hash equal to the previous key's hash is dropped, so
  // adjacent duplicate keys count once.
  void AddKey(const Slice& key);

  // Number of hashes retained so far (rocksdb.num.filter_entries).
  size_t EstimateEntriesAdded() const { return hashes_.size(); }

  // How many keys a filter of `bytes` bytes (trailer included) holds at
  // this builder's bits/key: RocksDB's rule, which sizes filter partitions.
  size_t ApproximateNumEntries(size_t bytes) const;

  // Builds the filter from all hashes added since the last Finish, stores it
  // in *buf and returns a Slice over *buf. The builder is empty afterwards.
  // With no keys the result is 5 zero bytes (a "no keys" filter).
  Slice Finish(std::unique_ptr<const char[]>* buf);

  // Probe count RocksDB chooses for a millibits/key value (docs/format/filter.md, FastLocalBloom).
  static int ChooseNumProbes(int millibits_per_key);
  // Bit-array length L (multiple of 64, excluding the trailer) for n keys.
  static size_t BitArrayBytes(size_t num_keys, int millibits_per_key);

 private:
  const int millibits_per_key_;
  // std::deque allocates fixed-size chunks and frees each as Finish pops
  // past it, so peak memory never doubles as a growing vector's would.
  std::deque<uint64_t> hashes_;
};

// Answers MayMatch over the bytes of one full filter. Does not own the
// bytes: they must outlive the reader. A plain value (no virtual calls).
class FilterBitsReader {
 public:
  // An "always may match" reader.
  FilterBitsReader() = default;
  // Inspects the trailer of `contents` and picks the implementation.
  explicit FilterBitsReader(const Slice& contents);

  bool MayMatch(const Slice& key) const;

  enum class Kind : uint8_t { kAlwaysTrue, kAlwaysFalse, kFastLocalBloom, kLegacyBloom };
  Kind kind() const { return kind_; }
  int num_probes() const { return num_probes_; }

 private:
  bool FastLocalMayMatch(const Slice& key) const;
  bool LegacyMayMatch(const Slice& key) const;

  Kind kind_ = Kind::kAlwaysTrue;
  int num_probes_ = 0;
  const char* data_ = nullptr;
  // FastLocalBloom: number of 64-byte lines. Legacy: number of lines.
  uint32_t num_lines_ = 0;
  // Legacy only: log2 of the line size in bytes.
  uint32_t log2_line_bytes_ = 0;
  // Legacy only: mask selecting a bit inside one line.
  uint32_t bit_mask_ = 0;
};

}  // namespace strata
