// Micro-benchmarks of the memtable index: InlineSkipList over memtable
// entries, and MemTable::Add / Get on top of it.
//
// Keys are db_bench's 16-byte keys (8-byte big-endian number, then '0'
// padding), as internal keys with a sequence trailer, so comparisons go
// through MemTableKeyComparator's inline bytewise path exactly as in the DB.
//
//   BM_SkipListInsertSequential/N   N ascending keys into an empty list (the
//                                   splice path: fillseq)
//   BM_SkipListInsertRandom/N       N keys in random order (fillrandom)
//   BM_SkipListInsertConcurrent/N/T the same N random keys from T threads
//                                   with InsertConcurrently
//   BM_SkipListContains/N           Contains() of a random present key in an
//                                   N-entry list (readrandom)
//   BM_SkipListSeek/N               Iterator::SeekDecoded to a random key
//   BM_MemTableAdd{Sequential,Random}/N/B MemTable::Add with 100-byte values,
//                                   arena blocks of B bytes
//   BM_MemTableGet/N/B              MemTable::Get of a random present key
//
// The insert benchmarks report ns_per_key (time of the insert loop only,
// manual timing); the lookup ones report the usual time per iteration.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "base/dbformat.h"
#include "bench/memtable_bench_keys.h"
#include "memtable/inline_skiplist.h"
#include "memtable/memtable.h"
#include "util/arena.h"
#include "util/coding.h"

namespace strata {
namespace {

using Table = InlineSkipList<MemTableKeyComparator>;

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

void BM_SkipListInsertSequential(benchmark::State& state) {
  const auto n = static_cast<uint64_t>(state.range(0));
  double total_seconds = 0;
  for (auto _ : state) {
    auto arena = std::make_unique<ConcurrentArena>(kArenaBlockSize);
    auto table = std::make_unique<Table>(BytewiseKeyComparator(), arena.get());
    const auto start = std::chrono::steady_clock::now();
    for (uint64_t i = 0; i < n; i++) InsertKey(table.get(), i, false);
    const double seconds = SecondsSince(start);
    total_seconds += seconds;
    state.SetIterationTime(seconds);
  }
  ReportPerKey(state, n, total_seconds);
}

void BM_SkipListInsertRandom(benchmark::State& state) {
  const auto n = static_cast<uint64_t>(state.range(0));
  const std::vector<uint64_t> keys = Shuffled(n, 301);
  double total_seconds = 0;
  for (auto _ : state) {
    auto arena = std::make_unique<ConcurrentArena>(kArenaBlockSize);
    auto table = std::make_unique<Table>(BytewiseKeyComparator(), arena.get());
    const auto start = std::chrono::steady_clock::now();
    for (uint64_t k : keys) InsertKey(table.get(), k, false);
    const double seconds = SecondsSince(start);
    total_seconds += seconds;
    state.SetIterationTime(seconds);
  }
  ReportPerKey(state, n, total_seconds);
}

void BM_SkipListInsertConcurrent(benchmark::State& state) {
  const auto n = static_cast<uint64_t>(state.range(0));
  const auto num_threads = static_cast<size_t>(state.range(1));
  const std::vector<uint64_t> keys = Shuffled(n, 302);
  double total_seconds = 0;
  for (auto _ : state) {
    auto arena = std::make_unique<ConcurrentArena>(kArenaBlockSize);
    auto table = std::make_unique<Table>(BytewiseKeyComparator(), arena.get());
    const auto start = std::chrono::steady_clock::now();
    std::vector<std::thread> threads;
    for (size_t t = 0; t < num_threads; t++) {
      threads.emplace_back([&, t] {
        for (size_t i = t; i < keys.size(); i += num_threads) {
          InsertKey(table.get(), keys[i], true);
        }
      });
    }
    for (auto& th : threads) th.join();
    const double seconds = SecondsSince(start);
    total_seconds += seconds;
    state.SetIterationTime(seconds);
  }
  ReportPerKey(state, n, total_seconds);
}

// A list of n keys 0..n-1 built once per size and kept for the process.
struct BuiltTable {
  explicit BuiltTable(uint64_t n)
      : arena(kArenaBlockSize), table(BytewiseKeyComparator(), &arena), probes(Shuffled(n, 7)) {
    for (uint64_t i = 0; i < n; i++) InsertKey(&table, probes[i], false);
  }
  ConcurrentArena arena;
  Table table;
  std::vector<uint64_t> probes;  // a random order of the keys
};

BuiltTable* GetBuiltTable(uint64_t n) {
  static std::unique_ptr<BuiltTable> built;
  if (built == nullptr || built->probes.size() != n) built = std::make_unique<BuiltTable>(n);
  return built.get();
}

void BM_SkipListContains(benchmark::State& state) {
  BuiltTable* b = GetBuiltTable(static_cast<uint64_t>(state.range(0)));
  char target[kEntrySize];
  size_t i = 0;
  int64_t found = 0;
  for (auto _ : state) {
    EncodeEntry(b->probes[i], b->probes[i] + 1, target);
    found += b->table.Contains(target) ? 1 : 0;
    if (++i == b->probes.size()) i = 0;
  }
  if (found != static_cast<int64_t>(state.iterations())) state.SkipWithError("key not found");
}

void BM_SkipListSeek(benchmark::State& state) {
  BuiltTable* b = GetBuiltTable(static_cast<uint64_t>(state.range(0)));
  std::string target;
  Table::Iterator iter(&b->table);
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
}

void MemTableAdd(benchmark::State& state, bool sequential) {
  const auto n = static_cast<uint64_t>(state.range(0));
  const auto block_size = static_cast<size_t>(state.range(1));
  const std::vector<uint64_t> keys = Shuffled(n, 303);
  const std::string value(100, 'v');
  char user_key[kKeySize];
  double total_seconds = 0;
  for (auto _ : state) {
    MemTableOptions opts;
    opts.arena_block_size = block_size;
    auto* mem = new MemTable(InternalKeyComparator(BytewiseComparator()), opts);
    const auto start = std::chrono::steady_clock::now();
    for (uint64_t i = 0; i < n; i++) {
      MakeUserKey(sequential ? i : keys[i], user_key);
      mem->Add(i + 1, kTypeValue, Slice(user_key, kKeySize), value, false);
    }
    const double seconds = SecondsSince(start);
    total_seconds += seconds;
    state.SetIterationTime(seconds);
    mem->Unref();
  }
  ReportPerKey(state, n, total_seconds);
}

void BM_MemTableAddSequential(benchmark::State& state) { MemTableAdd(state, true); }
void BM_MemTableAddRandom(benchmark::State& state) { MemTableAdd(state, false); }

void BM_MemTableGet(benchmark::State& state) {
  const auto n = static_cast<uint64_t>(state.range(0));
  const auto block_size = static_cast<size_t>(state.range(1));
  static MemTable* mem = nullptr;
  static uint64_t mem_size = 0;
  static size_t mem_block_size = 0;
  if (mem == nullptr || mem_size != n || mem_block_size != block_size) {
    if (mem != nullptr) mem->Unref();
    MemTableOptions opts;
    opts.arena_block_size = block_size;
    mem = new MemTable(InternalKeyComparator(BytewiseComparator()), opts);
    mem_size = n;
    mem_block_size = block_size;
    const std::vector<uint64_t> keys = Shuffled(n, 304);
    const std::string value(100, 'v');
    char user_key[kKeySize];
    for (uint64_t i = 0; i < n; i++) {
      MakeUserKey(keys[i], user_key);
      mem->Add(i + 1, kTypeValue, Slice(user_key, kKeySize), value, false);
    }
  }
  const std::vector<uint64_t> probes = Shuffled(n, 305);
  std::string value;
  size_t i = 0;
  int64_t found = 0;
  char user_key[kKeySize];
  for (auto _ : state) {
    MakeUserKey(probes[i], user_key);
    LookupKey lkey(Slice(user_key, kKeySize), kMaxSequenceNumber);
    Status s;
    found += (mem->Get(lkey, &value, &s) && s.ok()) ? 1 : 0;
    if (++i == probes.size()) i = 0;
  }
  if (found != static_cast<int64_t>(state.iterations())) state.SkipWithError("key not found");
}

constexpr int64_t kMillion = 1 << 20;

BENCHMARK(BM_SkipListInsertSequential)
    ->Arg(kMillion)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SkipListInsertRandom)->Arg(kMillion)->UseManualTime()->Unit(benchmark::kMillisecond);
// Second argument: threads calling InsertConcurrently.
BENCHMARK(BM_SkipListInsertConcurrent)
    ->Args({kMillion, 1})
    ->Args({kMillion, 2})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SkipListContains)->Arg(kMillion);
BENCHMARK(BM_SkipListSeek)->Arg(kMillion);
// Second argument: arena block size. 256 KiB blocks sit on small pages; the
// memtable's arena rounds 1 MiB blocks up to 2 MiB on huge pages.
BENCHMARK(BM_MemTableAddSequential)
    ->Args({kMillion, 1 << 20})
    ->Args({kMillion, 256 << 10})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MemTableAddRandom)
    ->Args({kMillion, 1 << 20})
    ->Args({kMillion, 256 << 10})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MemTableGet)->Args({kMillion, 1 << 20})->Args({kMillion, 256 << 10});

}  // namespace
}  // namespace strata

BENCHMARK_MAIN();
