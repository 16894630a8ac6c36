// Micro-benchmarks of the memtable's ordered index, the same cases on each
// candidate: InlineSkipList (memtable/inline_skiplist.h) and BTreeIndex
// (memtable/btree_index.h) at a few node sizes.
//
// Keys are skiplist_bench's: db_bench's 16-byte keys (8-byte big-endian
// number, then '0' padding) in memtable entries with a sequence trailer and
// an empty value, compared by MemTableKeyComparator with the bytewise user
// comparator, exactly as in the DB.
//
//   BM_InsertSequential<I>/N    N ascending keys into an empty index (fillseq)
//   BM_InsertRandom<I>/N        N keys in random order (fillrandom)
//   BM_InsertConcurrent<I>/N/T  the same N random keys from T threads with
//                               InsertConcurrently (ConcurrentArena)
//   BM_Contains<I>/N            Contains() of a random present key in an
//                               N-entry index built in random order
//   BM_Seek<I>/N                Iterator::SeekDecoded to a random present
//                               user key (a LookupKey-style target)
//   BM_Scan<I>/N                SeekToFirst then Next over all N entries,
//                               reading one byte of every key
//   BM_Memory<I>/N              not a timing: bytes_per_key is the arena
//                               bytes in use after N random inserts, over N
//                               (26 of them are the entry)
//
// Every case reports ns_per_key: for inserts the insert loop's time divided
// by N (manual timing, arena setup and teardown excluded); for Contains and
// Seek one key is one iteration; for Scan the pass's time divided by N.
// Lookups probe in an order unrelated to the insertion order, so entries
// allocated next to each other are not probed one after the other.
//
// Run from a Release build, e.g.
//   build-btr/memtable_index_bench --benchmark_repetitions=5
//     --benchmark_report_aggregates_only=true   (one command line)
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <memory>
#include <numeric>
#include <random>
#include <thread>
#include <vector>

#include "base/dbformat.h"
#include "bench/memtable_bench_keys.h"
#include "memtable/btree_index.h"
#include "memtable/inline_skiplist.h"
#include "memtable/memtable.h"
#include "util/arena.h"
#include "util/coding.h"

namespace strata {
namespace {

using SkipList = InlineSkipList<MemTableKeyComparator>;
// The default node sizes (62 leaf slots, 30 inner: 1 KiB leaves, 768-byte
// inner nodes), and other <leaf slots, inner slots> for comparison.
using BTree = BTreeIndex<MemTableKeyComparator>;
using BTree14x14 = BTreeIndex<MemTableKeyComparator, 14, 14>;
using BTree30x30 = BTreeIndex<MemTableKeyComparator, 30, 30>;
using BTree62x62 = BTreeIndex<MemTableKeyComparator, 62, 62>;
using BTree126x30 = BTreeIndex<MemTableKeyComparator, 126, 30>;

using bench::BytewiseKeyComparator;
using bench::EncodeEntry;
using bench::InsertKey;
using bench::kArenaBlockSize;
using bench::kEntrySize;
using bench::kKeySize;
using bench::MakeUserKey;
using bench::ReportPerKey;
using bench::SecondsSince;
using bench::Shuffled;

// Inserts keys (in that order) into a fresh index per iteration.
template <class Index>
void InsertLoop(benchmark::State& state, const std::vector<uint64_t>& keys, size_t threads) {
  double total_seconds = 0;
  for (auto _ : state) {
    auto arena = std::make_unique<ConcurrentArena>(kArenaBlockSize);
    auto index = std::make_unique<Index>(BytewiseKeyComparator(), arena.get());
    const auto start = std::chrono::steady_clock::now();
    if (threads == 0) {
      for (uint64_t k : keys) InsertKey(index.get(), k, false);
    } else {
      std::vector<std::thread> workers;
      for (size_t t = 0; t < threads; t++) {
        workers.emplace_back([&, t] {
          for (size_t i = t; i < keys.size(); i += threads) InsertKey(index.get(), keys[i], true);
        });
      }
      for (auto& w : workers) w.join();
    }
    const double seconds = SecondsSince(start);
    total_seconds += seconds;
    state.SetIterationTime(seconds);
  }
  ReportPerKey(state, keys.size(), total_seconds);
}

template <class Index>
void BM_InsertSequential(benchmark::State& state) {
  std::vector<uint64_t> keys(static_cast<size_t>(state.range(0)));
  std::iota(keys.begin(), keys.end(), 0);
  InsertLoop<Index>(state, keys, 0);
}

template <class Index>
void BM_InsertRandom(benchmark::State& state) {
  InsertLoop<Index>(state, Shuffled(static_cast<size_t>(state.range(0)), 301), 0);
}

template <class Index>
void BM_InsertConcurrent(benchmark::State& state) {
  InsertLoop<Index>(state, Shuffled(static_cast<size_t>(state.range(0)), 302),
                    static_cast<size_t>(state.range(1)));
}

// An index of keys 0..n-1, inserted in random order, built once per index
// type and size (only the last size is kept, to bound memory).
template <class Index>
struct Built {
  explicit Built(uint64_t n)
      : arena(kArenaBlockSize), index(BytewiseKeyComparator(), &arena), probes(Shuffled(n, 8)) {
    for (uint64_t k : Shuffled(n, 7)) InsertKey(&index, k, false);
  }
  ConcurrentArena arena;
  Index index;
  std::vector<uint64_t> probes;  // every key, in an order unrelated to insertion
};

template <class Index>
Built<Index>* GetBuilt(uint64_t n) {
  static std::unique_ptr<Built<Index>> built;
  if (built == nullptr || built->probes.size() != n) {
    built.reset();
    built = std::make_unique<Built<Index>>(n);
  }
  return built.get();
}

template <class Index>
void BM_Contains(benchmark::State& state) {
  Built<Index>* b = GetBuilt<Index>(static_cast<uint64_t>(state.range(0)));
  char target[kEntrySize];
  size_t i = 0;
  int64_t found = 0;
  for (auto _ : state) {
    EncodeEntry(b->probes[i], b->probes[i] + 1, target);
    found += b->index.Contains(target) ? 1 : 0;
    if (++i == b->probes.size()) i = 0;
  }
  if (found != static_cast<int64_t>(state.iterations())) state.SkipWithError("key not found");
  state.counters["ns_per_key"] =
      benchmark::Counter(static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

template <class Index>
void BM_Seek(benchmark::State& state) {
  Built<Index>* b = GetBuilt<Index>(static_cast<uint64_t>(state.range(0)));
  typename Index::Iterator iter(&b->index);
  size_t i = 0;
  int64_t found = 0;
  char user_key[kKeySize];
  for (auto _ : state) {
    MakeUserKey(b->probes[i], user_key);
    // A LookupKey-style target: newest version visible at any snapshot.
    const MemTableKeyComparator::DecodedKey decoded{
        user_key, kKeySize, PackSequenceAndType(kMaxSequenceNumber, kValueTypeForSeek)};
    iter.SeekDecoded(decoded);
    found += iter.Valid() ? 1 : 0;
    if (++i == b->probes.size()) i = 0;
  }
  if (found != static_cast<int64_t>(state.iterations())) state.SkipWithError("seek failed");
  state.counters["ns_per_key"] =
      benchmark::Counter(static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

template <class Index>
void BM_Scan(benchmark::State& state) {
  const auto n = static_cast<uint64_t>(state.range(0));
  Built<Index>* b = GetBuilt<Index>(n);
  typename Index::Iterator iter(&b->index);
  uint64_t seen = 0;
  uint64_t sum = 0;
  for (auto _ : state) {
    for (iter.SeekToFirst(); iter.Valid(); iter.Next()) {
      sum += static_cast<unsigned char>(iter.key()[8]);  // low byte of the key number
      seen++;
    }
  }
  benchmark::DoNotOptimize(sum);
  if (seen != n * state.iterations()) state.SkipWithError("scan missed keys");
  state.SetItemsProcessed(static_cast<int64_t>(seen));
  state.counters["ns_per_key"] = benchmark::Counter(
      static_cast<double>(seen), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

template <class Index>
void BM_Memory(benchmark::State& state) {
  const std::vector<uint64_t> keys = Shuffled(static_cast<size_t>(state.range(0)), 301);
  size_t bytes = 0;
  for (auto _ : state) {
    // Small blocks, so that the figure is not rounded to a big block.
    Arena arena(64 << 10);
    Index index(BytewiseKeyComparator(), &arena);
    for (uint64_t k : keys) InsertKey(&index, k, false);
    bytes = arena.MemoryUsage() - arena.AllocatedAndUnused();
  }
  state.counters["bytes_per_key"] =
      benchmark::Counter(static_cast<double>(bytes) / static_cast<double>(keys.size()));
}

constexpr int64_t kMillion = 1 << 20;

// Registers every case for one index type.
#define STRATA_INDEX_BENCHMARKS(Index)                                                      \
  BENCHMARK_TEMPLATE(BM_InsertSequential, Index)                                            \
      ->Arg(kMillion)                                                                       \
      ->UseManualTime()                                                                     \
      ->Unit(benchmark::kMillisecond);                                                      \
  BENCHMARK_TEMPLATE(BM_InsertRandom, Index)                                                \
      ->Arg(100 << 10)                                                                      \
      ->Arg(kMillion)                                                                       \
      ->Arg(4 * kMillion)                                                                   \
      ->UseManualTime()                                                                     \
      ->Unit(benchmark::kMillisecond);                                                      \
  BENCHMARK_TEMPLATE(BM_InsertConcurrent, Index)                                            \
      ->Args({kMillion, 1})                                                                 \
      ->Args({kMillion, 2})                                                                 \
      ->UseManualTime()                                                                     \
      ->Unit(benchmark::kMillisecond);                                                      \
  BENCHMARK_TEMPLATE(BM_Contains, Index)->Arg(100 << 10)->Arg(kMillion)->Arg(4 * kMillion); \
  BENCHMARK_TEMPLATE(BM_Seek, Index)->Arg(kMillion);                                        \
  BENCHMARK_TEMPLATE(BM_Scan, Index)->Arg(kMillion)->Unit(benchmark::kMillisecond);         \
  BENCHMARK_TEMPLATE(BM_Memory, Index)->Arg(kMillion)->Iterations(1)->Unit(benchmark::kMillisecond)

// The node-size comparison: a random fill, lookups and a scan.
#define STRATA_NODE_SIZE_BENCHMARKS(Index)                                          \
  BENCHMARK_TEMPLATE(BM_InsertRandom, Index)                                        \
      ->Arg(kMillion)                                                               \
      ->UseManualTime()                                                             \
      ->Unit(benchmark::kMillisecond);                                              \
  BENCHMARK_TEMPLATE(BM_Contains, Index)->Arg(kMillion);                            \
  BENCHMARK_TEMPLATE(BM_Scan, Index)->Arg(kMillion)->Unit(benchmark::kMillisecond); \
  BENCHMARK_TEMPLATE(BM_Memory, Index)->Arg(kMillion)->Iterations(1)->Unit(benchmark::kMillisecond)

STRATA_INDEX_BENCHMARKS(SkipList);
STRATA_INDEX_BENCHMARKS(BTree);
STRATA_NODE_SIZE_BENCHMARKS(BTree14x14);
STRATA_NODE_SIZE_BENCHMARKS(BTree30x30);
STRATA_NODE_SIZE_BENCHMARKS(BTree62x62);
STRATA_NODE_SIZE_BENCHMARKS(BTree126x30);

}  // namespace
}  // namespace strata

BENCHMARK_MAIN();
