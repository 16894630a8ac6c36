#include "memtable/dynamic_bloom.h"

#include <algorithm>
#include <cassert>
#include <new>

namespace strata {

namespace {
constexpr size_t kCacheLine = 64;
static_assert(sizeof(std::atomic<uint64_t>) == sizeof(uint64_t));
static_assert(std::atomic<uint64_t>::is_always_lock_free);
}  // namespace

uint32_t DynamicBloom::TotalBitsFor(size_t write_buffer_size, double size_ratio) {
  if (!(size_ratio > 0)) return 0;
  const double bits = static_cast<double>(write_buffer_size) * size_ratio * 8.0;
  // The largest whole number of lines a uint32_t bit count can hold.
  constexpr double kMax = static_cast<double>(0xffffffffu / kBitsPerLine * kBitsPerLine);
  if (bits >= kMax) return static_cast<uint32_t>(kMax);
  return static_cast<uint32_t>(bits);
}

DynamicBloom::DynamicBloom(Allocator* allocator, uint32_t total_bits, uint32_t num_probes)
    : num_lines_(std::max<uint32_t>(
          1, static_cast<uint32_t>((uint64_t{total_bits} + kBitsPerLine - 1) / kBitsPerLine))),
      num_probes_(std::clamp<uint32_t>(num_probes, 1, 32)) {
  assert(num_probes >= 1 && num_probes <= 32);
  const size_t bytes = size_t{num_lines_} * kCacheLine;
  // Room to align the array's start to a cache line.
  memory_usage_ = bytes + kCacheLine - 1;
  char* raw;
  if (allocator != nullptr) {
    raw = allocator->AllocateAligned(memory_usage_);
  } else {
    owned_.reset(new char[memory_usage_]);
    raw = owned_.get();
  }
  const uintptr_t p = reinterpret_cast<uintptr_t>(raw);
  char* aligned = raw + ((kCacheLine - p % kCacheLine) % kCacheLine);
  words_ = reinterpret_cast<std::atomic<uint64_t>*>(aligned);
  for (size_t i = 0; i < bytes / sizeof(uint64_t); ++i) {
    new (&words_[i]) std::atomic<uint64_t>(0);
  }
}

// The words are trivially destructible; the arena (or owned_) frees them.
DynamicBloom::~DynamicBloom() = default;

}  // namespace strata
