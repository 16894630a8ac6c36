// Helpers shared by the memtable micro-benchmarks (skiplist_bench.cc,
// memtable_index_bench.cc): db_bench's 16-byte keys (8-byte big-endian
// number, then '0' padding) as memtable entries with a sequence trailer,
// inserted into any index with the skip list's interface, and the
// per-key reporting of the manually timed insert loops.
#pragma once

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <numeric>
#include <random>
#include <vector>

#include "base/dbformat.h"
#include "memtable/memtable.h"
#include "util/coding.h"

namespace strata {
namespace bench {

constexpr size_t kKeySize = 16;
constexpr size_t kArenaBlockSize = 8 << 20;  // write_buffer_size / 8 for 64 MiB

inline void MakeUserKey(uint64_t n, char* dst) {
  const uint64_t big_endian = __builtin_bswap64(n);
  memcpy(dst, &big_endian, 8);
  memset(dst + 8, '0', kKeySize - 8);
}

// A memtable entry with an empty value: varint(24) | user key | trailer | varint(0).
constexpr size_t kEntrySize = 1 + kKeySize + 8 + 1;

inline void EncodeEntry(uint64_t n, SequenceNumber seq, char* dst) {
  dst[0] = static_cast<char>(kKeySize + 8);
  MakeUserKey(n, dst + 1);
  EncodeFixed64(dst + 1 + kKeySize, PackSequenceAndType(seq, kTypeValue));
  dst[1 + kKeySize + 8] = 0;
}

// Inserts key n (sequence n + 1) into index.
template <class Index>
void InsertKey(Index* index, uint64_t n, bool concurrent) {
  char* buf = index->AllocateKey(kEntrySize);
  EncodeEntry(n, n + 1, buf);
  if (concurrent) {
    index->InsertConcurrently(buf);
  } else {
    index->Insert(buf);
  }
}

inline std::vector<uint64_t> Shuffled(size_t n, uint64_t seed) {
  std::vector<uint64_t> v(n);
  std::iota(v.begin(), v.end(), 0);
  std::shuffle(v.begin(), v.end(), std::mt19937_64(seed));
  return v;
}

inline MemTableKeyComparator BytewiseKeyComparator() {
  return MemTableKeyComparator(BytewiseComparator());
}

// Reports the mean insert-loop time per key; total_seconds sums the manual
// iteration times.
inline void ReportPerKey(benchmark::State& state, size_t keys_per_iteration, double total_seconds) {
  const double keys =
      static_cast<double>(state.iterations()) * static_cast<double>(keys_per_iteration);
  state.SetItemsProcessed(static_cast<int64_t>(keys));
  state.counters["ns_per_key"] = benchmark::Counter(total_seconds * 1e9 / keys);
}

inline double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace bench
}  // namespace strata
