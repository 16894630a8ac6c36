// Full-filter bit builders and readers behind the public FilterPolicy
// (docs/format/filter.md).
//
// Two built-in policies: BloomFilterPolicy (always FastLocalBloom) and
// RibbonFilterPolicy (Standard128Ribbon, table/ribbon_filter.h, with
// FastLocalBloom for tables created before its bloom_before_level and as
// RocksDB's fallback for small or unsolvable key sets). A table builder asks
// NewFilterBitsBuilder(policy, context) for the builder of one filter; the
// FilterBuildingContext says what the table is for (level, reason, style).
//
// FastLocalBloom (what we write; RocksDB format_version 5), for a filter of
// L + 5 bytes:
//   [ bit array: L bytes, L % 64 == 0 ][ 0xff ][ 0x00 ][ probes ][ 0x00 ][ 0x00 ]
// A key's 64-bit hash h = XXPH3_64(key) picks one 64-byte line from its low
// 32 bits (fastrange) and num_probes bits inside that line from the top 9
// bits of its high 32 bits, multiplying the high half by 0x9E3779B9 between
// probes. The reader also understands the legacy Bloom layout (trailer byte 0
// = num_probes >= 1, then fixed32 num_lines; Hash32 seed 0xbc9f1d34) and
// Standard128Ribbon (trailer fe | seed | num_blocks as 3 bytes), and treats
// reserved and malformed trailers as "always may match" and filters of 5
// bytes or fewer as "no keys" (never matches).
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
#include "strata/listener.h"
#include "strata/options.h"
#include "strata/slice.h"
#include "table/ribbon_filter.h"

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

// What a table file is being built for (RocksDB's FilterBuildingContext,
// the parts its built-in policies look at).
struct FilterBuildingContext {
  CompactionStyle compaction_style = kCompactionStyleLevel;
  // The level the table is created for, or -1 when unknown (SstFileWriter,
  // repair).
  int level_at_creation = -1;
  TableFileCreationReason reason = TableFileCreationReason::kMisc;
};

// NewRibbonFilterPolicy(). Bloom for tables created "before"
// bloom_before_level, Ribbon otherwise, as RocksDB decides: under leveled and
// universal compaction a flush counts as level -1, an unknown level as
// INT_MAX, any other table as its level; under FIFO (and kCompactionStyleNone)
// every table counts as INT_MAX.
class RibbonFilterPolicy final : public FilterPolicy {
 public:
  RibbonFilterPolicy(double bloom_equivalent_bits_per_key, int bloom_before_level);

  const char* Name() const override { return "ribbonfilter"; }
  const char* CompatibilityName() const override { return "rocksdb.BuiltinBloomFilter"; }

  int millibits_per_key() const { return millibits_per_key_; }
  int bloom_before_level() const { return bloom_before_level_; }
  // True when a table built in `context` gets a Bloom filter.
  bool UsesBloom(const FilterBuildingContext& context) const;

  // nullptr when this policy builds no filter.
  std::unique_ptr<FilterBitsBuilder> NewBuilder(const FilterBuildingContext& context) const;

 private:
  int millibits_per_key_;
  int bloom_before_level_;
  // 1 / the FP rate of the equivalent Bloom filter (RibbonOneInFpRate).
  double one_in_fp_rate_ = 1.0;
};

// A builder for `policy` in `context`, or nullptr when policy is null, is
// not a built-in policy, or builds no filter.
std::unique_ptr<FilterBitsBuilder> NewFilterBitsBuilder(const FilterPolicy* policy,
                                                        const FilterBuildingContext& context);
// Same with a default context (unknown level: Ribbon for a Ribbon policy).
std::unique_ptr<FilterBitsBuilder> NewFilterBitsBuilder(const FilterPolicy* policy);

// Collects key hashes, then lays out a FastLocalBloom or a Standard128Ribbon
// filter.
class FilterBitsBuilder {
 public:
  // A FastLocalBloom builder. REQUIRES: 1000 <= millibits_per_key <= 100000.
  explicit FilterBitsBuilder(int millibits_per_key);
  // A Standard128Ribbon builder aiming at 1/ribbon_one_in_fp_rate, with
  // millibits_per_key for its Bloom fallback. REQUIRES: as above, and
  // ribbon_one_in_fp_rate >= 1.
  FilterBitsBuilder(int millibits_per_key, double ribbon_one_in_fp_rate);
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
  // With no keys the result is 5 zero bytes (a "no keys" filter) for Bloom
  // and an empty Slice (also "no keys") for Ribbon, as RocksDB.
  Slice Finish(std::unique_ptr<const char[]>* buf);

  bool is_ribbon() const { return ribbon_one_in_fp_rate_ > 0; }

  // Ribbon builders: how many keys a filter of `bytes` bytes (trailer
  // included) holds, as RocksDB's Standard128RibbonBitsBuilder computes it
  // (with its Bloom fallback's count when that is larger below 1024 slots).
  // Partitioned filters size their partitions with it.
  size_t RibbonApproximateNumEntries(size_t bytes) const;

  // Probe count RocksDB chooses for a millibits/key value (docs/format/filter.md, FastLocalBloom).
  static int ChooseNumProbes(int millibits_per_key);
  // Bit-array length L (multiple of 64, excluding the trailer) for n keys.
  static size_t BitArrayBytes(size_t num_keys, int millibits_per_key);

  // Ribbon only: the filter's total size (with trailer) for n hashes whose
  // first is first_hash, and whether it falls back to Bloom (*bloom).
  size_t RibbonSpace(size_t n, uint64_t first_hash, uint32_t* num_slots, bool* bloom) const;

 private:
  Slice FinishBloom(std::unique_ptr<const char[]>* buf);
  Slice FinishRibbon(std::unique_ptr<const char[]>* buf);

  const int millibits_per_key_;
  // 0 for a Bloom builder.
  const double ribbon_one_in_fp_rate_ = 0;
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

  enum class Kind : uint8_t {
    kAlwaysTrue,
    kAlwaysFalse,
    kFastLocalBloom,
    kLegacyBloom,
    kStandard128Ribbon
  };
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
  // Ribbon only.
  RibbonQuery ribbon_;
};

}  // namespace strata
