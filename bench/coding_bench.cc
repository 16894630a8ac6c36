// Integer coding speed: PutVarint32/64 encoding and GetVarint32Ptr /
// GetVarint64Ptr decoding over arrays of random values of mixed encoded
// lengths, and fixed64 encode/decode.

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "util/coding.h"

namespace strata {
namespace {

constexpr size_t kNumValues = 4096;

// Values whose encoded lengths are spread evenly over 1..max_bytes.
template <typename T>
std::vector<T> MixedLengthValues(int max_bytes) {
  std::mt19937_64 rng(301);
  std::vector<T> values(kNumValues);
  for (auto& v : values) {
    const int bytes = 1 + static_cast<int>(rng() % static_cast<uint64_t>(max_bytes));
    const int bits = std::min(7 * bytes, static_cast<int>(8 * sizeof(T)));
    const uint64_t mask = bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
    v = static_cast<T>(rng() & mask);
  }
  return values;
}

void BM_PutVarint32(benchmark::State& state) {
  const auto values = MixedLengthValues<uint32_t>(kMaxVarint32Length);
  std::string dst;
  dst.reserve(kNumValues * kMaxVarint32Length);
  for (auto _ : state) {
    dst.clear();
    for (uint32_t v : values) PutVarint32(&dst, v);
    benchmark::DoNotOptimize(dst.data());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kNumValues));
}

void BM_PutVarint64(benchmark::State& state) {
  const auto values = MixedLengthValues<uint64_t>(kMaxVarint64Length);
  std::string dst;
  dst.reserve(kNumValues * kMaxVarint64Length);
  for (auto _ : state) {
    dst.clear();
    for (uint64_t v : values) PutVarint64(&dst, v);
    benchmark::DoNotOptimize(dst.data());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kNumValues));
}

void BM_GetVarint32Ptr(benchmark::State& state) {
  std::string encoded;
  for (uint32_t v : MixedLengthValues<uint32_t>(kMaxVarint32Length)) PutVarint32(&encoded, v);
  const char* const limit = encoded.data() + encoded.size();
  for (auto _ : state) {
    const char* p = encoded.data();
    uint32_t sum = 0;
    while (p < limit) {
      uint32_t v;
      p = GetVarint32Ptr(p, limit, &v);
      sum += v;
    }
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kNumValues));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * encoded.size()));
}

void BM_GetVarint64Ptr(benchmark::State& state) {
  std::string encoded;
  for (uint64_t v : MixedLengthValues<uint64_t>(kMaxVarint64Length)) PutVarint64(&encoded, v);
  const char* const limit = encoded.data() + encoded.size();
  for (auto _ : state) {
    const char* p = encoded.data();
    uint64_t sum = 0;
    while (p < limit) {
      uint64_t v;
      p = GetVarint64Ptr(p, limit, &v);
      sum += v;
    }
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kNumValues));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * encoded.size()));
}

void BM_EncodeFixed64(benchmark::State& state) {
  const auto values = MixedLengthValues<uint64_t>(kMaxVarint64Length);
  std::vector<char> buf(kNumValues * 8);
  for (auto _ : state) {
    char* p = buf.data();
    for (uint64_t v : values) {
      EncodeFixed64(p, v);
      p += 8;
    }
    benchmark::DoNotOptimize(buf.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kNumValues));
}

void BM_DecodeFixed64(benchmark::State& state) {
  std::string encoded;
  for (uint64_t v : MixedLengthValues<uint64_t>(kMaxVarint64Length)) PutFixed64(&encoded, v);
  for (auto _ : state) {
    uint64_t sum = 0;
    for (size_t i = 0; i < kNumValues; i++) sum += DecodeFixed64(encoded.data() + 8 * i);
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kNumValues));
}

BENCHMARK(BM_PutVarint32);
BENCHMARK(BM_PutVarint64);
BENCHMARK(BM_GetVarint32Ptr);
BENCHMARK(BM_GetVarint64Ptr);
BENCHMARK(BM_EncodeFixed64);
BENCHMARK(BM_DecodeFixed64);

}  // namespace
}  // namespace strata

BENCHMARK_MAIN();
