// DynamicBloom: the memtable's Bloom filter (RocksDB's memtable prefix
// bloom, ColumnFamilyOptions::memtable_prefix_bloom_size_ratio). Writers add
// prefixes (and, with memtable_whole_key_filtering, whole keys) as they
// insert; readers ask MayContain before searching the memtable. It is never
// persisted, so its layout is ours (it happens to follow FastLocalBloom's
// probe sequence, docs/format/filter.md (FastLocalBloom), with 64-bit words):
//
//   bits: num_lines x 64-byte cache lines (8 x uint64_t words each)
//   key hash h = XXPH3_64(key)  (util/hash.h, the filters' hash)
//   line      = ((h & 0xffffffff) * num_lines) >> 32
//   h2        = h >> 32; num_probes times: set/test bit (h2 >> 23) of the
//               line's 512 bits, then h2 *= 0x9E3779B9 (mod 2^32)
//
// All probes of one key touch one cache line: one miss per lookup.
//
// Memory: the bit array comes from the Allocator given to the constructor
// (the memtable's arena, so the arena's MemoryUsage already counts it) or,
// with a null allocator, from the heap, owned by the filter. MemoryUsage()
// reports the bytes used either way (array plus alignment slack); callers
// that pass their arena must not add it a second time.
//
// Thread-safety: MayContain* may run concurrently with anything. Add* with
// a single writer at a time (relaxed load + store per word); AddConcurrently*
// from any number of writers at once (relaxed fetch_or). A reader sees an
// add once something ordered the two (relaxed suffices for the memtable:
// readers acquire the published sequence number that the writer released
// after adding).
// Invariants:
//  1. No false negatives: after Add(k) is visible, MayContain(k) is true.
//  2. Bits are only ever set, never cleared.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "strata/slice.h"
#include "util/arena.h"
#include "util/hash.h"

namespace strata {

class DynamicBloom {
 public:
  static constexpr uint32_t kDefaultNumProbes = 6;
  static constexpr uint32_t kBitsPerLine = 512;

  // Bits for a memtable of write_buffer_size bytes at size_ratio
  // (memtable_prefix_bloom_size_ratio): write_buffer_size * ratio * 8,
  // clamped to what one filter can hold. 0 means "no filter".
  static uint32_t TotalBitsFor(size_t write_buffer_size, double size_ratio);

  // total_bits is rounded up to whole 512-bit lines (at least one line).
  // num_probes in [1, 32]. allocator: see "Memory" above; borrowed, must
  // outlive the filter.
  DynamicBloom(Allocator* allocator, uint32_t total_bits, uint32_t num_probes = kDefaultNumProbes);
  ~DynamicBloom();
  DynamicBloom(const DynamicBloom&) = delete;
  DynamicBloom& operator=(const DynamicBloom&) = delete;

  // The hash every method below applies to keys.
  static uint64_t Hash(const Slice& key) { return XXPH3_64(key.data(), key.size()); }

  // Single writer.
  void Add(const Slice& key) { AddHash(Hash(key)); }
  void AddHash(uint64_t h);
  // Any number of concurrent writers.
  void AddConcurrently(const Slice& key) { AddHashConcurrently(Hash(key)); }
  void AddHashConcurrently(uint64_t h);

  // False only if the key (hash) was certainly never added. Lock-free.
  bool MayContain(const Slice& key) const { return MayContainHash(Hash(key)); }
  bool MayContainHash(uint64_t h) const;

  // Prefetches the cache line a later MayContainHash(h) will read.
  void Prefetch(uint64_t h) const { __builtin_prefetch(Line(h)); }

  uint32_t num_probes() const { return num_probes_; }
  uint32_t total_bits() const { return num_lines_ * kBitsPerLine; }
  // Bytes taken by the bit array, alignment slack included.
  size_t MemoryUsage() const { return memory_usage_; }

 private:
  static constexpr uint32_t kWordsPerLine = kBitsPerLine / 64;

  std::atomic<uint64_t>* Line(uint64_t h) const {
    const uint64_t line = ((h & 0xffffffffu) * num_lines_) >> 32;
    return words_ + line * kWordsPerLine;
  }

  // Immutable after construction.
  uint32_t num_lines_;
  uint32_t num_probes_;
  size_t memory_usage_;
  std::unique_ptr<char[]> owned_;  // when no allocator was given
  std::atomic<uint64_t>* words_;   // 64-byte aligned, num_lines_ lines
};

inline void DynamicBloom::AddHash(uint64_t h) {
  std::atomic<uint64_t>* line = Line(h);
  uint32_t h2 = static_cast<uint32_t>(h >> 32);
  for (uint32_t i = 0; i < num_probes_; ++i) {
    const uint32_t bit = h2 >> 23;
    std::atomic<uint64_t>& w = line[bit >> 6];
    // Relaxed: the single writer owns the updates; readers only need to
    // see every bit eventually (see the contract).
    w.store(w.load(std::memory_order_relaxed) | (uint64_t{1} << (bit & 63)),
            std::memory_order_relaxed);
    h2 *= 0x9E3779B9u;
  }
}

inline void DynamicBloom::AddHashConcurrently(uint64_t h) {
  std::atomic<uint64_t>* line = Line(h);
  uint32_t h2 = static_cast<uint32_t>(h >> 32);
  for (uint32_t i = 0; i < num_probes_; ++i) {
    const uint32_t bit = h2 >> 23;
    std::atomic<uint64_t>& w = line[bit >> 6];
    const uint64_t mask = uint64_t{1} << (bit & 63);
    // Relaxed (see AddHash); skip the locked RMW when the bit is already
    // set, so hot lines are not bounced between writers' caches.
    if ((w.load(std::memory_order_relaxed) & mask) == 0) {
      w.fetch_or(mask, std::memory_order_relaxed);
    }
    h2 *= 0x9E3779B9u;
  }
}

inline bool DynamicBloom::MayContainHash(uint64_t h) const {
  const std::atomic<uint64_t>* line = Line(h);
  uint32_t h2 = static_cast<uint32_t>(h >> 32);
  for (uint32_t i = 0; i < num_probes_; ++i) {
    const uint32_t bit = h2 >> 23;
    // Relaxed: see the contract on visibility.
    if ((line[bit >> 6].load(std::memory_order_relaxed) & (uint64_t{1} << (bit & 63))) == 0) {
      return false;
    }
    h2 *= 0x9E3779B9u;
  }
  return true;
}

}  // namespace strata
