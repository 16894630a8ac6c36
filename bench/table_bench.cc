// Table read speed through the block cache: one block-based table of 1M
// entries (16-byte user keys shaped like db_bench's, 100-byte values, no
// compression, block_size 4096) on the POSIX file system under /tmp, every
// block warmed into an LRU cache large enough to hold the whole file. Then:
//   BM_TableGet         random existing keys (Get through filter, index and
//                       one cached data block)
//   BM_TableGetAbsent   random keys between the table's keys (the filter, when
//                       there is one, answers most of them)
//   BM_TableScan        a full forward scan with NewIterator; bytes are
//                       user key + value (116 per entry), printed as B/s
//   BM_TableScanReverse the same backwards
//   BM_TableSeek        random Seek then 10 Next
// Arguments of the Get benchmarks: data block index (0 = binary search,
// 1 = binary and hash) and bloom (0 = no filter, 1 = 10 bits/key).
//
// The table is built once per configuration (benchmarks are registered grouped
// by configuration) and removed, with its directory, at exit.

#include <benchmark/benchmark.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>

#include "base/dbformat.h"
#include "base/get_context.h"
#include "base/internal_iterator.h"
#include "strata/cache.h"
#include "strata/env.h"
#include "strata/filter_policy.h"
#include "strata/options.h"
#include "strata/table.h"
#include "table/block_based_table_builder.h"
#include "table/block_based_table_reader.h"
#include "util/coding.h"

namespace strata {
namespace {

constexpr uint64_t kNumKeys = 1000000;
constexpr size_t kKeySize = 16;
constexpr size_t kValueSize = 100;
constexpr size_t kCacheCapacity = size_t{1} << 30;

// db_bench's key shape: the key number big-endian in 8 bytes, padded with
// '0' to 16 bytes. The table holds the even numbers 0, 2, ..., 2(N-1); the
// odd numbers in between are absent keys inside the table's key range.
inline void MakeKey(uint64_t num, char* buf) {
  for (int i = 7; i >= 0; --i) {
    buf[i] = static_cast<char>(num & 0xff);
    num >>= 8;
  }
  for (size_t i = 8; i < kKeySize; ++i) buf[i] = '0';
}

// Cheap per-benchmark random numbers (xorshift64*), so key choice costs a few
// nanoseconds, not the mt19937 state walk.
class FastRandom {
 public:
  explicit FastRandom(uint64_t seed) : s_(seed | 1) {}
  uint64_t Next() {
    s_ ^= s_ >> 12;
    s_ ^= s_ << 25;
    s_ ^= s_ >> 27;
    return s_ * 0x2545F4914F6CDD1DULL;
  }
  uint64_t Uniform(uint64_t n) { return Next() % n; }

 private:
  uint64_t s_;
};

struct Config {
  int hash_index = 0;
  int bloom = 0;
  bool operator==(const Config&) const = default;
};

// One built, opened and warmed table.
class Fixture {
 public:
  Fixture(const std::string& dir, const Config& config) : config_(config) {
    fname_ = dir + "/000001.sst";
    BlockBasedTableOptions topts;
    topts.block_size = 4096;
    if (config.hash_index) {
      topts.data_block_index_type =
          BlockBasedTableOptions::DataBlockIndexType::kDataBlockBinaryAndHash;
    }
    if (config.bloom) topts.filter_policy = NewBloomFilterPolicy(10);
    cache_ = NewLRUCache(kCacheCapacity);
    topts.block_cache = cache_;
    FileSystem* fs = Env::Default()->GetFileSystem();

    {
      std::unique_ptr<WritableFile> file;
      Check(fs->NewWritableFile(fname_, FileOptions(), &file), "create");
      TableBuilderOptions bo;
      bo.table_options = topts;
      BlockBasedTableBuilder builder(bo, file.get());
      FastRandom rnd(301);
      std::string value(kValueSize, 'x');
      std::string ikey;
      char ukey[kKeySize];
      for (uint64_t i = 0; i < kNumKeys; ++i) {
        MakeKey(2 * i, ukey);
        ikey.clear();
        AppendInternalKey(&ikey, Slice(ukey, kKeySize), i + 1, kTypeValue);
        for (size_t j = 0; j < kValueSize; j += 8) {
          const uint64_t r = rnd.Next();
          for (size_t b = 0; b < 8 && j + b < kValueSize; ++b) {
            value[j + b] = static_cast<char>(' ' + ((r >> (8 * b)) & 0x3f));
          }
        }
        builder.Add(ikey, value);
      }
      Check(builder.Finish(), "finish");
      Check(file->Close(), "close");
      file_size_ = builder.FileSize();
    }

    std::unique_ptr<RandomAccessFile> rfile;
    Check(fs->NewRandomAccessFile(fname_, FileOptions(), &rfile), "open");
    TableReaderOptions ro;
    ro.table_options = topts;
    ro.file_name = fname_;
    Check(BlockBasedTable::Open(ro, std::move(rfile), file_size_, &table_), "table open");

    // Warm: one full scan fills the cache with every data block.
    std::unique_ptr<InternalIterator> it(table_->NewIterator(ReadOptions()));
    uint64_t n = 0;
    for (it->SeekToFirst(); it->Valid(); it->Next()) ++n;
    Check(it->status(), "warm scan");
    if (n != kNumKeys) Die("warm scan count");
    warm_usage_ = cache_->GetUsage();
  }

  ~Fixture() {
    table_.reset();
    Env::Default()->GetFileSystem()->DeleteFile(fname_).PermitUncheckedError();
  }

  const Config& config() const { return config_; }
  BlockBasedTable* table() const { return table_.get(); }
  Cache* cache() const { return cache_.get(); }
  uint64_t file_size() const { return file_size_; }
  size_t warm_usage() const { return warm_usage_; }

 private:
  static void Check(const Status& s, const char* what) {
    if (!s.ok()) {
      std::fprintf(stderr, "table_bench: %s: %s\n", what, s.ToString().c_str());
      std::abort();
    }
  }
  static void Die(const char* what) {
    std::fprintf(stderr, "table_bench: %s\n", what);
    std::abort();
  }

  Config config_;
  std::string fname_;
  std::shared_ptr<Cache> cache_;
  std::unique_ptr<BlockBasedTable> table_;
  uint64_t file_size_ = 0;
  size_t warm_usage_ = 0;
};

std::mutex fixture_mu;
std::string temp_dir;
std::unique_ptr<Fixture> fixture;

// The fixture for `config`, built (replacing any other) on first use. Safe to
// call from every thread of a multi-threaded benchmark.
Fixture* GetFixture(const Config& config) {
  std::lock_guard<std::mutex> lock(fixture_mu);
  if (temp_dir.empty()) {
    char tmpl[] = "/tmp/strata_table_bench.XXXXXX";
    if (mkdtemp(tmpl) == nullptr) {
      std::perror("mkdtemp");
      std::abort();
    }
    temp_dir = tmpl;
  }
  if (fixture == nullptr || !(fixture->config() == config)) {
    fixture.reset();
    fixture = std::make_unique<Fixture>(temp_dir, config);
  }
  return fixture.get();
}

void RemoveTempDir() {
  fixture.reset();
  if (!temp_dir.empty()) rmdir(temp_dir.c_str());
}

Config ConfigOf(const benchmark::State& state) {
  Config c;
  c.hash_index = static_cast<int>(state.range(0));
  c.bloom = static_cast<int>(state.range(1));
  return c;
}

void ReportCache(benchmark::State& state, const Fixture* f) {
  const Cache::CacheStats stats = f->cache()->GetStats();
  state.counters["file_MB"] = static_cast<double>(f->file_size()) / 1e6;
  state.counters["cached_MB"] = static_cast<double>(f->warm_usage()) / 1e6;
  state.counters["misses"] = static_cast<double>(stats.misses);
}

// Point lookups of keys numbered 2 * Uniform(N) + odd: odd = 0 finds every
// key, odd = 1 finds none.
void RunGets(benchmark::State& state, uint64_t odd) {
  Fixture* f = GetFixture(ConfigOf(state));
  BlockBasedTable* table = f->table();
  const ReadOptions ropts;
  FastRandom rnd(1000 + static_cast<uint64_t>(state.thread_index()));
  std::string value;
  char ukey[kKeySize];
  uint64_t found = 0;
  for (auto _ : state) {
    MakeKey(2 * rnd.Uniform(kNumKeys) + odd, ukey);
    const Slice user_key(ukey, kKeySize);
    LookupKey lkey(user_key, kMaxSequenceNumber);
    GetContext ctx(BytewiseComparator(), user_key, &value);
    Status s = table->Get(ropts, lkey.internal_key(), &ctx);
    if (!s.ok()) {
      state.SkipWithError(s.ToString().c_str());
      break;
    }
    found += ctx.state() == GetContext::kFound;
  }
  const uint64_t expected = odd ? 0 : static_cast<uint64_t>(state.iterations());
  if (found != expected) state.SkipWithError("Get found the wrong number of keys");
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
  if (state.thread_index() == 0) ReportCache(state, f);
}

void BM_TableGet(benchmark::State& state) { RunGets(state, 0); }
void BM_TableGetAbsent(benchmark::State& state) { RunGets(state, 1); }

// A full scan, forward or (reverse) backward.
void RunScan(benchmark::State& state, bool reverse) {
  Fixture* f = GetFixture(ConfigOf(state));
  const ReadOptions ropts;
  uint64_t entries = 0;
  uint64_t bytes = 0;
  for (auto _ : state) {
    std::unique_ptr<InternalIterator> it(f->table()->NewIterator(ropts));
    uint64_t n = 0;
    for (reverse ? it->SeekToLast() : it->SeekToFirst(); it->Valid();
         reverse ? it->Prev() : it->Next()) {
      bytes += ExtractUserKey(it->key()).size() + it->value().size();
      ++n;
    }
    if (!it->status().ok() || n != kNumKeys) {
      state.SkipWithError("scan saw the wrong number of entries");
      break;
    }
    entries += n;
  }
  state.SetItemsProcessed(static_cast<int64_t>(entries));
  state.SetBytesProcessed(static_cast<int64_t>(bytes));
  ReportCache(state, f);
}

void BM_TableScan(benchmark::State& state) { RunScan(state, false); }
void BM_TableScanReverse(benchmark::State& state) { RunScan(state, true); }

// One iterator reused for every Seek (as a DB iterator over one table would).
void BM_TableSeek(benchmark::State& state) {
  Fixture* f = GetFixture(ConfigOf(state));
  std::unique_ptr<InternalIterator> it(f->table()->NewIterator(ReadOptions()));
  FastRandom rnd(2000);
  char ukey[kKeySize];
  uint64_t bytes = 0;
  for (auto _ : state) {
    MakeKey(2 * rnd.Uniform(kNumKeys), ukey);
    LookupKey lkey(Slice(ukey, kKeySize), kMaxSequenceNumber);
    it->Seek(lkey.internal_key());
    for (int i = 0; i < 10 && it->Valid(); ++i) {
      bytes += it->key().size() + it->value().size();
      it->Next();
    }
  }
  if (!it->status().ok()) state.SkipWithError(it->status().ToString().c_str());
  benchmark::DoNotOptimize(bytes);
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
  ReportCache(state, f);
}

// Grouped by configuration so each table is built once: {hash index, bloom}.
BENCHMARK(BM_TableGet)->Args({0, 1});
BENCHMARK(BM_TableGet)->Args({0, 1})->Threads(2)->UseRealTime();
BENCHMARK(BM_TableGetAbsent)->Args({0, 1});
BENCHMARK(BM_TableScan)->Args({0, 1})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TableScanReverse)->Args({0, 1})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TableSeek)->Args({0, 1});
BENCHMARK(BM_TableGet)->Args({1, 1});
BENCHMARK(BM_TableGetAbsent)->Args({1, 1});
BENCHMARK(BM_TableGet)->Args({0, 0});
BENCHMARK(BM_TableGetAbsent)->Args({0, 0});
BENCHMARK(BM_TableGet)->Args({1, 0});

}  // namespace
}  // namespace strata

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  strata::RemoveTempDir();
  return 0;
}
