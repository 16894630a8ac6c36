#include "table/filter_policy.h"

#include <algorithm>
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

BloomFilterPolicy::BloomFilterPolicy(double bits_per_key) {
  // Written so that NaN falls through to the cap, like RocksDB.
  if (bits_per_key < 0.5) {
    millibits_per_key_ = 0;
    return;
  }
  if (bits_per_key < 1.0) {
    bits_per_key = 1.0;
  } else if (!(bits_per_key < 100.0)) {
    bits_per_key = 100.0;
  }
  millibits_per_key_ = static_cast<int>(bits_per_key * 1000.0 + 0.500001);
}

std::unique_ptr<FilterBitsBuilder> BloomFilterPolicy::NewBuilder() const {
  if (millibits_per_key_ == 0) return nullptr;
  return std::make_unique<FilterBitsBuilder>(millibits_per_key_);
}

std::unique_ptr<FilterBitsBuilder> NewFilterBitsBuilder(const FilterPolicy* policy) {
  const auto* bloom = dynamic_cast<const BloomFilterPolicy*>(policy);
  return bloom == nullptr ? nullptr : bloom->NewBuilder();
}

std::shared_ptr<const FilterPolicy> NewBloomFilterPolicy(double bits_per_key) {
  return std::make_shared<const BloomFilterPolicy>(bits_per_key);
}

// ---- FilterBitsBuilder ----

FilterBitsBuilder::FilterBitsBuilder(int millibits_per_key)
    : millibits_per_key_(millibits_per_key) {}

size_t FilterBitsBuilder::ApproximateNumEntries(size_t bytes) const {
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
  if (marker < 1) return;  // 0, Ribbon (-2), reserved negatives: always true

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
    case Kind::kAlwaysFalse:
      return false;
    case Kind::kAlwaysTrue:
      break;
  }
  return true;
}

}  // namespace strata
