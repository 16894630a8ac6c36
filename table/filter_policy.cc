#include "table/filter_policy.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <iterator>

#include "util/coding.h"
#include "util/hash.h"

namespace strata {

namespace {

constexpr uint32_t kProbeMultiplier = 0x9E3779B9;
constexpr uint64_t kMaxBitArrayBytes = 0xFFFFFFC0;
constexpr uint32_t kLegacyHashSeed = 0xBC9F1D34;

// Sets (or tests) the probes of hash h in the 64-byte line at `line`.
inline void AddHashToLine(uint32_t h2, int num_probes, uint8_t* line) {
  for (int i = 0; i < num_probes; ++i) {
    const uint32_t bit = h2 >> 23;  // top 9 bits: 0..511
    line[bit >> 3] |= static_cast<uint8_t>(1u << (bit & 7));
    h2 *= kProbeMultiplier;
  }
}

// 32x32->64 multiply-shift: maps h uniformly onto [0, range).
inline uint32_t FastRange32(uint32_t h, uint32_t range) {
  return static_cast<uint32_t>((uint64_t{h} * range) >> 32);
}

}  // namespace

FilterPolicy::~FilterPolicy() = default;

namespace {

// RocksDB's clamping of bits/key: < 0.5 is "no filter" (0), [0.5, 1) is 1,
// 100 and above (and NaN) are 100.
double ClampBitsPerKey(double bits_per_key) {
  if (bits_per_key < 0.5) return 0;
  if (bits_per_key < 1.0) return 1.0;
  if (!(bits_per_key < 100.0)) return 100.0;
  return bits_per_key;
}

int MillibitsPerKey(double clamped) { return static_cast<int>(clamped * 1000.0 + 0.500001); }

}  // namespace

BloomFilterPolicy::BloomFilterPolicy(double bits_per_key)
    : millibits_per_key_(MillibitsPerKey(ClampBitsPerKey(bits_per_key))) {}

RibbonFilterPolicy::RibbonFilterPolicy(double bloom_equivalent_bits_per_key, int bloom_before_level)
    : bloom_before_level_(bloom_before_level) {
  const double clamped = ClampBitsPerKey(bloom_equivalent_bits_per_key);
  millibits_per_key_ = MillibitsPerKey(clamped);
  if (millibits_per_key_ > 0) {
    one_in_fp_rate_ =
        RibbonOneInFpRate(clamped, FilterBitsBuilder::ChooseNumProbes(millibits_per_key_));
  }
}

bool RibbonFilterPolicy::UsesBloom(const FilterBuildingContext& context) const {
  int levelish = INT_MAX;  // unknown levels count as the bottommost
  if (context.compaction_style == kCompactionStyleLevel ||
      context.compaction_style == kCompactionStyleUniversal) {
    if (context.reason == TableFileCreationReason::kFlush) {
      levelish = -1;  // below L0, so intra-L0 compactions can differ
    } else if (context.level_at_creation >= 0) {
      levelish = context.level_at_creation;
    }
  }
  return levelish < bloom_before_level_;
}

std::unique_ptr<FilterBitsBuilder> RibbonFilterPolicy::NewBuilder(
    const FilterBuildingContext& context) const {
  if (millibits_per_key_ == 0) return nullptr;
  if (UsesBloom(context)) return std::make_unique<FilterBitsBuilder>(millibits_per_key_);
  return std::make_unique<FilterBitsBuilder>(millibits_per_key_, one_in_fp_rate_);
}

std::unique_ptr<FilterBitsBuilder> BloomFilterPolicy::NewBuilder() const {
  if (millibits_per_key_ == 0) return nullptr;
  return std::make_unique<FilterBitsBuilder>(millibits_per_key_);
}

std::unique_ptr<FilterBitsBuilder> NewFilterBitsBuilder(const FilterPolicy* policy,
                                                        const FilterBuildingContext& context) {
  if (const auto* bloom = dynamic_cast<const BloomFilterPolicy*>(policy)) {
    return bloom->NewBuilder();
  }
  if (const auto* ribbon = dynamic_cast<const RibbonFilterPolicy*>(policy)) {
    return ribbon->NewBuilder(context);
  }
  return nullptr;
}

std::unique_ptr<FilterBitsBuilder> NewFilterBitsBuilder(const FilterPolicy* policy) {
  return NewFilterBitsBuilder(policy, FilterBuildingContext());
}

std::shared_ptr<const FilterPolicy> NewBloomFilterPolicy(double bits_per_key) {
  return std::make_shared<const BloomFilterPolicy>(bits_per_key);
}

std::shared_ptr<const FilterPolicy> NewRibbonFilterPolicy(double bloom_equivalent_bits_per_key,
                                                          int bloom_before_level) {
  return std::make_shared<const RibbonFilterPolicy>(bloom_equivalent_bits_per_key,
                                                    bloom_before_level);
}

// ---- FilterBitsBuilder ----

FilterBitsBuilder::FilterBitsBuilder(int millibits_per_key)
    : millibits_per_key_(millibits_per_key) {}

FilterBitsBuilder::FilterBitsBuilder(int millibits_per_key, double ribbon_one_in_fp_rate)
    : millibits_per_key_(millibits_per_key), ribbon_one_in_fp_rate_(ribbon_one_in_fp_rate) {}
size_t FilterBitsBuilder::ApproximateNumEntries(size_t bytes) const {
  if (is_ribbon()) return RibbonApproximateNumEntries(bytes);
  // The usable bit array: whole 64-byte lines after the trailer.
  size_t usable = 0;
  if (bytes >= kFilterMetadataLen) {
    usable = std::min<size_t>(bytes - kFilterMetadataLen, 0xffffffc0) & ~size_t{63};
  }
  return static_cast<size_t>(uint64_t{8000} * usable / static_cast<uint64_t>(millibits_per_key_));
}

void FilterBitsBuilder::AddKey(const Slice& key) {
  const uint64_t h = XXPH3_64(key.data(), key.size());
  if (hashes_.empty() || hashes_.back() != h) hashes_.push_back(h);
}

int FilterBitsBuilder::ChooseNumProbes(int millibits_per_key) {
  // Upper millibits/key bound for 1, 2, ... 12 probes (docs/format/filter.md, FastLocalBloom).
  static constexpr int kLimits[] = {2080,  3580,  5100,  6640,  8300,  10070,
                                    11720, 14001, 16050, 18300, 22001, 25501};
  for (int i = 0; i < static_cast<int>(std::size(kLimits)); ++i) {
    if (millibits_per_key <= kLimits[i]) return i + 1;
  }
  if (millibits_per_key <= 50000) return (millibits_per_key - 1) / 2000 - 1;
  return 24;
}

size_t FilterBitsBuilder::BitArrayBytes(size_t num_keys, int millibits_per_key) {
  uint64_t raw = (uint64_t{num_keys} * static_cast<uint64_t>(millibits_per_key) + 7999) / 8000;
  raw = std::min(raw, kMaxBitArrayBytes);
  return static_cast<size_t>((raw + 63) & ~uint64_t{63});
}

Slice FilterBitsBuilder::Finish(std::unique_ptr<const char[]>* buf) {
  return is_ribbon() ? FinishRibbon(buf) : FinishBloom(buf);
}

size_t FilterBitsBuilder::RibbonSpace(size_t n, uint64_t first_hash, uint32_t* num_slots,
                                      bool* bloom) const {
  const size_t bloom_space = BitArrayBytes(n, millibits_per_key_) + kFilterMetadataLen;
  *bloom = true;
  *num_slots = 0;
  if (n > kMaxRibbonEntries) return bloom_space;
  const uint32_t slots = RibbonNumSlots(static_cast<uint32_t>(n));
  const size_t space =
      RibbonSolutionBytes(slots, ribbon_one_in_fp_rate_, static_cast<uint32_t>(first_hash >> 32)) +
      kFilterMetadataLen;
  // Small filters: whichever is smaller (RocksDB's rule, below 1024 slots).
  if (slots < 1024 && bloom_space < space) return bloom_space;
  *bloom = false;
  *num_slots = slots;
  return space;
}

size_t FilterBitsBuilder::RibbonApproximateNumEntries(size_t bytes) const {
  // Usable space: whole 16-byte segments after the trailer.
  const size_t len = ((std::max(bytes, kFilterMetadataLen) - kFilterMetadataLen) & ~size_t{15});
  uint32_t slots = 0;
  const size_t ribbon = strata::RibbonApproximateNumEntries(len, ribbon_one_in_fp_rate_, &slots);
  if (slots < 1024) {
    // The Bloom fallback's count for the same bytes: whole 64-byte lines.
    size_t usable = 0;
    if (bytes >= kFilterMetadataLen) {
      usable = std::min<size_t>(bytes - kFilterMetadataLen, kMaxBitArrayBytes) & ~size_t{63};
    }
    const auto bloom =
        static_cast<size_t>(uint64_t{8000} * usable / static_cast<uint64_t>(millibits_per_key_));
    return std::max(bloom, ribbon);
  }
  return ribbon;
}

Slice FilterBitsBuilder::FinishRibbon(std::unique_ptr<const char[]>* buf) {
  const size_t n = hashes_.size();
  if (n == 0) {
    buf->reset();
    return Slice();  // "no keys"
  }
  uint32_t num_slots = 0;
  bool bloom = false;
  const size_t len = RibbonSpace(n, hashes_.front(), &num_slots, &bloom);
  if (bloom) return FinishBloom(buf);
  auto out = std::make_unique<char[]>(len);  // zeroed
  uint32_t seed = 0;
  if (!RibbonBuild(hashes_, num_slots, len - kFilterMetadataLen, out.get(), &seed)) {
    return FinishBloom(buf);  // no seed solved the banding (rare)
  }
  hashes_.clear();
  hashes_.shrink_to_fit();
  const uint32_t num_blocks = num_slots / 128;
  char* trailer = out.get() + len - kFilterMetadataLen;
  trailer[0] = static_cast<char>(0xFE);  // -2: Standard128Ribbon
  trailer[1] = static_cast<char>(seed);
  trailer[2] = static_cast<char>(num_blocks & 255);
  trailer[3] = static_cast<char>((num_blocks >> 8) & 255);
  trailer[4] = static_cast<char>((num_blocks >> 16) & 255);
  *buf = std::move(out);
  return Slice(buf->get(), len);
}

Slice FilterBitsBuilder::FinishBloom(std::unique_ptr<const char[]>* buf) {
  const size_t n = hashes_.size();
  if (n == 0) {
    auto empty = std::make_unique<char[]>(kFilterMetadataLen);  // zeroed
    *buf = std::move(empty);
    return Slice(buf->get(), kFilterMetadataLen);
  }
  const size_t len = BitArrayBytes(n, millibits_per_key_);
  const int num_probes = ChooseNumProbes(millibits_per_key_);
  auto out = std::make_unique<char[]>(len + kFilterMetadataLen);  // zeroed
  auto* bits = reinterpret_cast<uint8_t*>(out.get());
  const uint32_t num_lines = static_cast<uint32_t>(len >> 6);

  // Lines are touched in random order: prefetch each a few hashes before
  // it is written. Hashes are popped as they are used, so the deque's
  // chunks are freed while the bit array fills.
  constexpr size_t kRing = 8;
  uint32_t ring_h2[kRing];
  uint8_t* ring_line[kRing];
  size_t i = 0;
  while (!hashes_.empty()) {
    const uint64_t h = hashes_.front();
    hashes_.pop_front();
    uint8_t* line = bits + (size_t{FastRange32(static_cast<uint32_t>(h), num_lines)} << 6);
    __builtin_prefetch(line, 1);
    const size_t slot = i % kRing;
    if (i >= kRing) AddHashToLine(ring_h2[slot], num_probes, ring_line[slot]);
    ring_h2[slot] = static_cast<uint32_t>(h >> 32);
    ring_line[slot] = line;
    ++i;
  }
  for (size_t j = (i > kRing ? i - kRing : 0); j < i; ++j) {
    AddHashToLine(ring_h2[j % kRing], num_probes, ring_line[j % kRing]);
  }
  hashes_.shrink_to_fit();

  char* trailer = out.get() + len;
  trailer[0] = static_cast<char>(0xFF);        // -1: FastLocalBloom family
  trailer[1] = 0;                              // sub-implementation 0
  trailer[2] = static_cast<char>(num_probes);  // 64-byte lines (log2 - 6 = 0)
  trailer[3] = 0;
  trailer[4] = 0;
  *buf = std::move(out);
  return Slice(buf->get(), len + kFilterMetadataLen);
}

// ---- FilterBitsReader ----

FilterBitsReader::FilterBitsReader(const Slice& contents) {
  const size_t total = contents.size();
  if (total <= kFilterMetadataLen) {
    kind_ = Kind::kAlwaysFalse;  // "no keys"
    return;
  }
  const size_t len = total - kFilterMetadataLen;
  const char* trailer = contents.data() + len;
  const auto marker = static_cast<int8_t>(trailer[0]);
  if (marker == -1) {
    // FastLocalBloom family.
    const auto sub_impl = static_cast<uint8_t>(trailer[1]);
    const auto block_and_probes = static_cast<uint8_t>(trailer[2]);
    const int probes = block_and_probes & 31;
    const int log2_line_minus_6 = block_and_probes >> 5;
    const bool seed_zero = trailer[3] == 0 && trailer[4] == 0;
    const uint64_t lines = len >> 6;
    if (sub_impl == 0 && log2_line_minus_6 == 0 && seed_zero && probes >= 1 && probes <= 30 &&
        lines >= 1 && len <= kMaxBitArrayBytes) {
      kind_ = Kind::kFastLocalBloom;
      num_probes_ = probes;
      data_ = contents.data();
      num_lines_ = static_cast<uint32_t>(lines);
    }
    return;  // otherwise reserved: always true
  }
  if (marker == -2) {
    // Standard128Ribbon: seed, then num_blocks in 24 bits. Fewer than two
    // blocks is never written (always true, as RocksDB).
    const uint32_t seed = static_cast<uint8_t>(trailer[1]);
    const uint32_t num_blocks = static_cast<uint8_t>(trailer[2]) |
                                (uint32_t{static_cast<uint8_t>(trailer[3])} << 8) |
                                (uint32_t{static_cast<uint8_t>(trailer[4])} << 16);
    if (num_blocks >= 2 && len <= 0xFFFFFFFFu) {
      kind_ = Kind::kStandard128Ribbon;
      ribbon_.Init(contents.data(), len, num_blocks, seed);
    }
    return;
  }
  if (marker < 1) return;  // 0, reserved negatives: always true

  // Legacy Bloom: [bits][num_probes u8][num_lines fixed32].
  const uint32_t lines = DecodeFixed32(trailer + 1);
  if (lines == 0 || len % lines != 0) return;
  const uint64_t line_bytes = len / lines;
  if ((line_bytes & (line_bytes - 1)) != 0) return;  // not a power of two
  kind_ = Kind::kLegacyBloom;
  num_probes_ = marker;
  data_ = contents.data();
  num_lines_ = lines;
  log2_line_bytes_ = static_cast<uint32_t>(__builtin_ctzll(line_bytes));
  // Bit offsets come from a 32-bit hash, so wider masks change nothing.
  bit_mask_ = log2_line_bytes_ + 3 >= 32 ? 0xFFFFFFFFu : (1u << (log2_line_bytes_ + 3)) - 1;
}

bool FilterBitsReader::FastLocalMayMatch(const Slice& key) const {
  const uint64_t h = XXPH3_64(key.data(), key.size());
  const auto* line = reinterpret_cast<const uint8_t*>(data_) +
                     (size_t{FastRange32(static_cast<uint32_t>(h), num_lines_)} << 6);
  uint32_t h2 = static_cast<uint32_t>(h >> 32);
  // All probes, no early exit: the line is one cache line already loaded,
  // and a branch per probe mispredicts on absent keys (measured with
  // filter_bench: absent queries were twice as slow as present ones).
  uint32_t all_set = 1;
  for (int i = 0; i < num_probes_; ++i) {
    const uint32_t bit = h2 >> 23;
    all_set &= static_cast<uint32_t>(line[bit >> 3] >> (bit & 7));
    h2 *= kProbeMultiplier;
  }
  return (all_set & 1) != 0;
}

bool FilterBitsReader::LegacyMayMatch(const Slice& key) const {
  uint32_t h = Hash32(key.data(), key.size(), kLegacyHashSeed);
  const uint32_t delta = (h >> 17) | (h << 15);
  const auto* line =
      reinterpret_cast<const uint8_t*>(data_) + (uint64_t{h % num_lines_} << log2_line_bytes_);
  for (int i = 0; i < num_probes_; ++i) {
    const uint32_t bit = h & bit_mask_;
    if ((line[bit >> 3] & (1u << (bit & 7))) == 0) return false;
    h += delta;
  }
  return true;
}

bool FilterBitsReader::MayMatch(const Slice& key) const {
  switch (kind_) {
    case Kind::kFastLocalBloom:
      return FastLocalMayMatch(key);
    case Kind::kLegacyBloom:
      return LegacyMayMatch(key);
    case Kind::kStandard128Ribbon:
      return ribbon_.MayMatch(XXPH3_64(key.data(), key.size()));
    case Kind::kAlwaysFalse:
      return false;
    case Kind::kAlwaysTrue:
      break;
  }
  return true;
}

}  // namespace strata
