// Standard128Ribbon: the Ribbon filter layout of RocksDB's
// NewRibbonFilterPolicy (metadata marker -2), built and queried byte for byte
// as RocksDB 7.8.3 does (docs/format/filter.md, "Standard128Ribbon").
//
// A Ribbon filter stores, for every key, an r-bit fingerprint as the XOR of a
// band of solution rows: key K (64-bit hash h = XXPH3_64(K), rehashed with a
// per-filter seed) selects a start slot s and a 128-bit coefficient row c; the
// filter holds a solution matrix S (one row per slot) with
//   XOR over j with bit j of c set: S[s + j]  ==  fingerprint(K).
// Construction ("banding") is Gaussian elimination on a banded matrix, done
// on the fly as keys are added; it can fail (an inconsistent row), and then
// the next of 256 seeds is tried. The solution is then found by
// back-substitution and stored interleaved: blocks of 128 slots, each block
// as `columns` 128-bit segments (segment k holds bit k of the 128 rows), with
// the first `upper_start_block` blocks having one column fewer so that the
// average bits per key can be fractional.
//
// Thread-safety: the functions are thread-safe; RibbonQuery is immutable
// after Init and thread-safe.
// Invariants:
//  1. Every hash given to RibbonBuild answers true from a RibbonQuery over
//     the bytes it produced (no false negatives).
//  2. RibbonQuery never reads outside the `len` bytes it was given, whatever
//     the bytes and the metadata hold.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>

namespace strata {

// Above this many entries RocksDB uses its Bloom filter instead.
inline constexpr uint32_t kMaxRibbonEntries = 950000000;

// Target 1/FP rate of a Ribbon filter "equivalent" to a FastLocalBloom filter
// of bits_per_key (already clamped to [1, 100]) with num_probes probes: the
// expected FP rate of the cache-local Bloom filter (512-bit lines).
double RibbonOneInFpRate(double bits_per_key, int num_probes);

// Number of slots (a multiple of 128, at least 256) for num_entries >= 1,
// sized for about a 1-in-20 chance that one seed fails.
uint32_t RibbonNumSlots(uint32_t num_entries);

// How many entries a Ribbon filter with solution_bytes of solution (after
// the trailer, rounded down to whole segments) holds at the rate: RocksDB's
// reversal of the sizing, which sizes filter partitions. *num_slots gets the
// slot count it assumed (RocksDB prefers Bloom's count below 1024 slots), or
// UINT32_MAX when the answer is kMaxRibbonEntries without one.
uint32_t RibbonApproximateNumEntries(size_t solution_bytes, double one_in_fp_rate,
                                     uint32_t* num_slots);

// Bytes of solution (a multiple of 16, excluding the 5-byte trailer) for
// num_slots at the given 1/FP rate. rounding_bias32 (the upper 32 bits of the
// first hash added) decides the rounding of the fractional column count.
size_t RibbonSolutionBytes(uint32_t num_slots, double one_in_fp_rate, uint32_t rounding_bias32);

// Bands `hashes` into num_slots slots, trying ordinal seeds (first_hash & 255),
// +1, ... mod 256, and on success back-substitutes into out[0, solution_bytes)
// and sets *ordinal_seed. Returns false when all 256 seeds fail.
// REQUIRES: num_slots % 128 == 0, num_slots >= 256, !hashes.empty(),
// solution_bytes % 16 == 0.
bool RibbonBuild(const std::deque<uint64_t>& hashes, uint32_t num_slots, size_t solution_bytes,
                 char* out, uint32_t* ordinal_seed);

// Queries over the solution bytes of one filter (not owned).
class RibbonQuery {
 public:
  // data[0, len) is the solution (the filter without its trailer).
  // REQUIRES: num_blocks >= 2, ordinal_seed < 256.
  void Init(const char* data, size_t len, uint32_t num_blocks, uint32_t ordinal_seed);

  // False only if the key with this XXPH3_64 hash was certainly not added.
  bool MayMatch(uint64_t key_hash) const;

  uint32_t num_starts() const { return num_starts_; }
  uint32_t upper_num_columns() const { return upper_num_columns_; }
  uint32_t upper_start_block() const { return upper_start_block_; }

 private:
  const char* data_ = nullptr;
  uint32_t raw_seed_ = 0;
  uint32_t num_starts_ = 0;
  uint32_t upper_num_columns_ = 0;
  uint32_t upper_start_block_ = 0;
};

}  // namespace strata
