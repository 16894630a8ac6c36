// CRC-32C throughput: crc32c::Value on 64 B, 4 KiB, 64 KiB and 1 MiB buffers,
// with the run-time-selected (hardware when available) path and with the
// portable slicing-by-8 path.

#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <string>

#include "util/crc32c.h"

namespace strata {
namespace {

std::string MakeBuffer(size_t n) {
  std::mt19937_64 rng(301);
  std::string s(n, '\0');
  for (size_t i = 0; i < n; i++) s[i] = static_cast<char>(rng() & 0xff);
  return s;
}

void BM_Crc32cValue(benchmark::State& state) {
  const std::string buf = MakeBuffer(static_cast<size_t>(state.range(0)));
  for (auto _ : state) {
    benchmark::DoNotOptimize(crc32c::Value(buf.data(), buf.size()));
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(buf.size()));
  state.SetLabel(crc32c::IsFastCrc32Supported() ? "sse4.2" : "portable");
}

void BM_Crc32cPortable(benchmark::State& state) {
  const std::string buf = MakeBuffer(static_cast<size_t>(state.range(0)));
  for (auto _ : state) {
    benchmark::DoNotOptimize(crc32c::ExtendPortable(0, buf.data(), buf.size()));
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(buf.size()));
}

BENCHMARK(BM_Crc32cValue)->Arg(64)->Arg(4 << 10)->Arg(64 << 10)->Arg(1 << 20);
BENCHMARK(BM_Crc32cPortable)->Arg(64)->Arg(4 << 10)->Arg(64 << 10)->Arg(1 << 20);

}  // namespace
}  // namespace strata

BENCHMARK_MAIN();
