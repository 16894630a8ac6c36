#include "table/ribbon_filter.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <memory>

#include "util/coding.h"

namespace strata {

namespace {

using U128 = unsigned __int128;

constexpr uint32_t kCoeffBits = 128;
constexpr uint32_t kResultBits = 32;

// Hashing constants of the Standard128Ribbon schema (docs/format/filter.md).
constexpr uint64_t kRehashFactor = 0x6193d459236a3a0dULL;
constexpr uint64_t kCoeffAndResultFactor = 0xc28f82822b650bedULL;
constexpr uint64_t kCoeffXor64 = 0xc367844a6e52731dULL;
constexpr uint64_t kSeedMixMask = 0xf0f0f0f0f0f0f0f0ULL;
constexpr uint64_t kToRawSeedFactor = 0xc78219a23eeadd03ULL;

// The per-filter seed as stored (0..255) mixed into the 32 bits XORed into
// every key hash.
inline uint32_t RawSeed(uint32_t ordinal) {
  uint64_t t = uint64_t{ordinal} * kToRawSeedFactor;
  t ^= (t & kSeedMixMask) >> 4;
  return static_cast<uint32_t>(t);
}

inline uint64_t Rehash(uint64_t key_hash, uint32_t raw_seed) {
  return (key_hash ^ raw_seed) * kRehashFactor;
}

inline uint32_t StartSlot(uint64_t h, uint32_t num_starts) {
  return static_cast<uint32_t>((U128{h} * num_starts) >> 64);
}

inline U128 CoeffRow(uint64_t h) {
  const uint64_t a = h * kCoeffAndResultFactor;
  return ((U128{a} << 64) | (a ^ kCoeffXor64)) | 1;
}

inline uint32_t Fingerprint(uint64_t h) {
  return static_cast<uint32_t>(__builtin_bswap64(h * kCoeffAndResultFactor));
}

inline int Parity(U128 v) {
  return __builtin_parityll(static_cast<uint64_t>(v) ^ static_cast<uint64_t>(v >> 64));
}

inline int Ctz(U128 v) {
  const auto lo = static_cast<uint64_t>(v);
  return lo != 0 ? __builtin_ctzll(lo) : 64 + __builtin_ctzll(static_cast<uint64_t>(v >> 64));
}

inline U128 LoadSegment(const char* p) {
  return (U128{DecodeFixed64(p + 8)} << 64) | DecodeFixed64(p);
}

inline void StoreSegment(char* p, U128 v) {
  EncodeFixed64(p, static_cast<uint64_t>(v));
  EncodeFixed64(p + 8, static_cast<uint64_t>(v >> 64));
}

// Column layout of an interleaved solution of `segments` 16-byte segments
// over num_blocks blocks: the upper blocks have `upper` columns, blocks
// below upper_start_block one fewer; at most 32 columns.
struct Layout {
  uint32_t upper = 0;
  uint32_t upper_start_block = 0;
  uint32_t segments = 0;
};

Layout LayoutFor(uint32_t num_blocks, uint64_t segments) {
  Layout l;
  if (num_blocks == 0) return l;
  uint64_t upper = (segments + num_blocks - 1) / num_blocks;
  if (upper > kResultBits) {
    l.upper = kResultBits;
    l.upper_start_block = 0;
    l.segments = num_blocks * kResultBits;
    return l;
  }
  l.upper = static_cast<uint32_t>(upper);
  l.upper_start_block = static_cast<uint32_t>(upper * num_blocks - segments);
  l.segments = static_cast<uint32_t>(segments);
  return l;
}

// Measured entries that 2^i slots hold with a 1-in-20 chance of a seed
// failing (128-bit coefficient rows); 0 = too small to be used.
constexpr double kToAddByPow2[18] = {0,       0,       0,       0,       0,       0,
                                     0,       0,       248.851, 499.532, 1001.26, 2003.97,
                                     4005.59, 8000.39, 15966.6, 31828.1, 63447.3, 126506};
constexpr double kFactorPerPow2 = 0.0038;

// Beyond the table the slots-per-entry factor grows linearly in log2.
double FactorForLarge(double log2_slots) {
  const double final_factor = 1.0 * (uint32_t{1} << 17) / kToAddByPow2[17];
  const double base_factor = final_factor - 17 * kFactorPerPow2;
  return base_factor + log2_slots * kFactorPerPow2;
}

double ToAddForPow2(uint32_t log2_slots) {
  if (log2_slots < 18) return kToAddByPow2[log2_slots];
  return 1.0 * static_cast<double>(uint64_t{1} << log2_slots) / FactorForLarge(1.0 * log2_slots);
}

// Slots for num_entries before rounding to whole blocks.
uint32_t RawNumSlots(uint32_t num_entries) {
  if (num_entries == 0) return 0;
  const double log2_n = std::log(num_entries) * 1.4426950409;
  uint32_t log2_slots = static_cast<uint32_t>(log2_n + 0.5);
  double lower = ToAddForPow2(log2_slots);
  double upper;
  if (log2_slots == 0 || lower == 0) return 2 * kCoeffBits;
  if (num_entries < lower) {
    upper = lower;
    --log2_slots;
    lower = ToAddForPow2(log2_slots);
  } else {
    upper = ToAddForPow2(log2_slots + 1);
  }
  const double portion = (num_entries - lower) / (upper - lower);
  const double lower_slots = 1.0 * static_cast<double>(uint64_t{1} << log2_slots);
  return static_cast<uint32_t>(portion * lower_slots + lower_slots + 0.999999999);
}

// The inverse: entries that num_slots hold (same 1-in-20 table).
uint32_t EntriesForSlots(uint32_t num_slots) {
  if (num_slots == 0) return 0;
  const double log2_slots = std::log(num_slots) * 1.4426950409;
  const auto floor_log2 = static_cast<uint32_t>(log2_slots);
  if (floor_log2 + 1 < 18) {
    const double ceil_portion = 1.0 * num_slots / (uint32_t{1} << floor_log2) - 1.0;
    return static_cast<uint32_t>(ceil_portion * kToAddByPow2[floor_log2 + 1] +
                                 (1.0 - ceil_portion) * kToAddByPow2[floor_log2]);
  }
  return static_cast<uint32_t>(num_slots / FactorForLarge(log2_slots));
}

uint32_t RoundDownSlots(uint32_t num_slots) {
  const uint32_t r = num_slots / kCoeffBits * kCoeffBits;
  return r == kCoeffBits ? 0 : r;
}

// The banding matrix: a 128-bit coefficient row and a 32-bit fingerprint
// per slot, zero where the slot has no pivot.
struct Banding {
  explicit Banding(uint32_t num_slots)
      : num_slots(num_slots),
        coeff(std::make_unique<U128[]>(num_slots)),
        result(std::make_unique<uint32_t[]>(num_slots)) {}

  void Clear() {
    std::fill_n(coeff.get(), num_slots, U128{0});
    std::fill_n(result.get(), num_slots, 0u);
  }

  // Eliminates one row; false if it contradicts the rows already in.
  bool Add(uint32_t i, U128 cr, uint32_t rr) {
    for (;;) {
      const U128 existing = coeff[i];
      if (existing == 0) {
        coeff[i] = cr;
        result[i] = rr;
        return true;
      }
      cr ^= existing;
      rr ^= result[i];
      if (cr == 0) return rr == 0;  // redundant row: fine if consistent
      const int tz = Ctz(cr);
      i += static_cast<uint32_t>(tz);
      cr >>= tz;
    }
  }

  const uint32_t num_slots;
  std::unique_ptr<U128[]> coeff;
  std::unique_ptr<uint32_t[]> result;
};

bool BandAll(const std::deque<uint64_t>& hashes, uint32_t raw_seed, Banding* b) {
  const uint32_t num_starts = b->num_slots - kCoeffBits + 1;
  // Rows land in random places of a banding far larger than the caches:
  // the start slot of the key kAhead places on is prefetched, so its miss
  // overlaps the eliminations in between. The order of adds is unchanged.
  constexpr size_t kAhead = 8;
  uint64_t ring_h[kAhead];
  uint32_t ring_start[kAhead];
  const size_t n = hashes.size();
  auto next = hashes.begin();
  auto fetch = [&](size_t slot) {
    const uint64_t h = Rehash(*next++, raw_seed);
    const uint32_t start = StartSlot(h, num_starts);
    __builtin_prefetch(&b->coeff[start], 1, 1);
    __builtin_prefetch(&b->result[start], 1, 1);
    ring_h[slot] = h;
    ring_start[slot] = start;
  };
  for (size_t i = 0; i < std::min(n, kAhead); i++) fetch(i);
  for (size_t i = 0; i < n; i++) {
    const size_t slot = i % kAhead;
    const uint64_t h = ring_h[slot];
    const uint32_t start = ring_start[slot];
    if (i + kAhead < n) fetch(slot);
    if (!b->Add(start, CoeffRow(h), Fingerprint(h))) return false;
  }
  return true;
}

// Solves one block of 128 rows (from the top down) for `columns` result
// bits; state[j] carries the last 128 solution bits of column j.
void SolveBlock(const Banding& b, uint32_t first_slot, uint32_t columns, U128* state) {
  for (uint32_t i = first_slot + kCoeffBits; i > first_slot;) {
    --i;
    const U128 cr = b.coeff[i];
    const uint32_t rr = b.result[i];
    for (uint32_t j = 0; j < columns; ++j) {
      U128 s = state[j] << 1;
      s |= static_cast<U128>(Parity(s & cr) ^ ((rr >> j) & 1));
      state[j] = s;
    }
  }
}

void BackSubstitute(const Banding& b, size_t solution_bytes, char* out) {
  const uint32_t num_blocks = b.num_slots / kCoeffBits;
  const Layout l = LayoutFor(num_blocks, solution_bytes / 16);
  if (l.upper == 0) return;
  U128 state[kResultBits] = {};
  uint32_t block = num_blocks;
  uint32_t segment = l.segments;
  uint32_t columns = l.upper;
  while (block > 0) {
    if (block == l.upper_start_block) --columns;
    --block;
    SolveBlock(b, block * kCoeffBits, columns, state);
    segment -= columns;
    for (uint32_t j = 0; j < columns; ++j) StoreSegment(out + size_t{segment + j} * 16, state[j]);
  }
  assert(segment == 0);
}

}  // namespace

double RibbonOneInFpRate(double bits_per_key, int num_probes) {
  // Expected FP rate of a Bloom filter whose 512-bit lines hold one standard
  // deviation more or fewer keys than average, averaged.
  auto standard = [](double bits, int probes) {
    return std::pow(1.0 - std::exp(-probes / bits), probes);
  };
  double fp = 1.0;
  if (bits_per_key > 0.0) {
    const double keys_per_line = 512 / bits_per_key;
    const double stddev = std::sqrt(keys_per_line);
    const double crowded = standard(512 / (keys_per_line + stddev), num_probes);
    const double uncrowded = standard(512 / (keys_per_line - stddev), num_probes);
    fp = (crowded + uncrowded) / 2;
  }
  return 1.0 / fp;
}

uint32_t RibbonNumSlots(uint32_t num_entries) {
  // Whole blocks, and never a single block.
  uint32_t slots = (RawNumSlots(num_entries) + kCoeffBits - 1) / kCoeffBits * kCoeffBits;
  if (slots == kCoeffBits) slots += kCoeffBits;
  return slots;
}

uint32_t RibbonApproximateNumEntries(size_t solution_bytes, double one_in_fp_rate,
                                     uint32_t* num_slots) {
  *num_slots = UINT32_MAX;  // "no slot count": the early answers below
  if (!(one_in_fp_rate > 1.0)) return kMaxRibbonEntries;
  // A slight underestimate of the solution bits per slot: the mix of L and
  // L + 1 columns that meets the rate.
  double min_bits_per_slot = 32.0;
  if (one_in_fp_rate < 1.0 + 4294967295.0) {
    const auto rounded = static_cast<uint32_t>(one_in_fp_rate);
    const int upper_bits = 1 + (31 - __builtin_clz(rounded));
    const double upper_fp = std::pow(2.0, -upper_bits);
    const double portion_lower = (1.0 / one_in_fp_rate - upper_fp) / upper_fp;
    min_bits_per_slot = upper_bits - portion_lower;
  }
  const double max_slots = solution_bytes * 8.0 / min_bits_per_slot;
  if (!(max_slots < RawNumSlots(kMaxRibbonEntries))) return kMaxRibbonEntries;
  // Round up to whole blocks, then down (at most a few steps) until the
  // solution fits.
  auto slots = static_cast<uint32_t>(max_slots);
  slots = (slots + kCoeffBits - 1) / kCoeffBits * kCoeffBits;
  if (slots == kCoeffBits) slots += kCoeffBits;
  for (int i = 0; slots > 0; ++i) {
    if (RibbonSolutionBytes(slots, one_in_fp_rate, 0) <= solution_bytes) break;
    if (i >= 2) break;
    slots = RoundDownSlots(slots - 1);
  }
  *num_slots = slots;
  return std::min(EntriesForSlots(slots), kMaxRibbonEntries);
}

size_t RibbonSolutionBytes(uint32_t num_slots, double one_in_fp_rate, uint32_t rounding_bias32) {
  const double fp_rate = 1.0 / one_in_fp_rate;
  if (!(one_in_fp_rate > 1.0 && fp_rate < 1.0)) return 16;              // one segment
  if (!(one_in_fp_rate <= 4294967295.0)) return size_t{num_slots} * 4;  // 32 columns
  const auto rounded = static_cast<uint32_t>(one_in_fp_rate);
  const int lower_columns = 31 - __builtin_clz(rounded);
  const double lower_fp = std::pow(2.0, -lower_columns);
  const double upper_fp = std::pow(2.0, -(lower_columns + 1));
  // Share of blocks that get only lower_columns, so that the mix of
  // lower_columns and lower_columns + 1 meets fp_rate.
  const double lower_portion = (fp_rate - upper_fp) / (lower_fp - upper_fp);
  const double bias = (rounding_bias32 + 0.5) / double{0x100000000};
  const uint32_t num_starts = num_slots - kCoeffBits + 1;
  const auto upper_start_block =
      static_cast<uint32_t>((lower_portion * num_starts + bias) / kCoeffBits);
  const uint32_t num_blocks = num_slots / kCoeffBits;
  const uint32_t segments =
      num_blocks * static_cast<uint32_t>(lower_columns) + (num_blocks - upper_start_block);
  return size_t{segments} * 16;
}

bool RibbonBuild(const std::deque<uint64_t>& hashes, uint32_t num_slots, size_t solution_bytes,
                 char* out, uint32_t* ordinal_seed) {
  assert(num_slots % kCoeffBits == 0 && num_slots >= 2 * kCoeffBits && !hashes.empty());
  Banding banding(num_slots);
  const uint32_t first = static_cast<uint32_t>(hashes.front()) & 255;
  uint32_t seed = first;
  do {
    if (seed != first) banding.Clear();
    if (BandAll(hashes, RawSeed(seed), &banding)) {
      BackSubstitute(banding, solution_bytes, out);
      *ordinal_seed = seed;
      return true;
    }
    seed = (seed + 1) & 255;
  } while (seed != first);
  return false;
}

void RibbonQuery::Init(const char* data, size_t len, uint32_t num_blocks, uint32_t ordinal_seed) {
  assert(num_blocks >= 2);
  data_ = data;
  raw_seed_ = RawSeed(ordinal_seed);
  num_starts_ = num_blocks * kCoeffBits - kCoeffBits + 1;
  const Layout l = LayoutFor(num_blocks, len / 16);
  upper_num_columns_ = l.upper;
  upper_start_block_ = l.upper_start_block;
}

bool RibbonQuery::MayMatch(uint64_t key_hash) const {
  const uint64_t h = Rehash(key_hash, raw_seed_);
  const uint32_t start = StartSlot(h, num_starts_);
  const uint32_t block = start / kCoeffBits;
  const uint32_t bit = start % kCoeffBits;
  uint32_t columns = upper_num_columns_;
  const size_t segment = size_t{block} * columns - std::min(block, upper_start_block_);
  if (block < upper_start_block_) --columns;
  const U128 cr = CoeffRow(h);
  const uint32_t expected = Fingerprint(h);
  const char* p = data_ + segment * 16;
  if (bit == 0) {
    for (uint32_t j = 0; j < columns; ++j) {
      if (Parity(LoadSegment(p + j * 16) & cr) != static_cast<int>((expected >> j) & 1)) {
        return false;
      }
    }
    return true;
  }
  // The key's 128 rows straddle this block and the next.
  const U128 cr_left = cr << bit;
  const U128 cr_right = cr >> (kCoeffBits - bit);
  const char* next = p + size_t{columns} * 16;
  for (uint32_t j = 0; j < columns; ++j) {
    const U128 v = (LoadSegment(p + j * 16) & cr_left) ^ (LoadSegment(next + j * 16) & cr_right);
    if (Parity(v) != static_cast<int>((expected >> j) & 1)) return false;
  }
  return true;
}

}  // namespace strata
