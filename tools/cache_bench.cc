// cache_bench: times a block cache (strata::Cache) alone under concurrent
// Insert / Lookup / Erase, in the manner of RocksDB's cache_bench, to compare
// the sharded LRU cache with the HyperClockCache.
//
// Each of --threads threads runs --ops_per_thread operations on 16-byte keys
// drawn from [0, max_key), where max_key = cache_size / value_bytes /
// resident_ratio (so about resident_ratio of the keys fit). An operation is,
// by the percentages (they must add up to 100):
//   lookup_insert_percent  Lookup; on a miss, Insert (the block cache's use)
//   insert_percent         Insert
//   lookup_percent         Lookup
//   erase_percent          Erase
// A found value is read (one byte) before its Release. Each Insert allocates
// a value of --value_bytes and charges value_bytes; the deleter frees it.
// --skew=N draws each key as the least of N+1 uniform draws (0: uniform;
// larger: a hotter set of small keys), as RocksDB's cache_bench does.
// --populate_cache first inserts max_key keys in order from one thread.
//
// Flags are -name=value or --name=value: threads (16), cache_size (1 GiB),
// num_shard_bits (6), ops_per_thread (2000000), value_bytes (8192),
// resident_ratio (0.25), skew (5), populate_cache (1), lookup_insert_percent
// (87), insert_percent (2), lookup_percent (10), erase_percent (1), seed (0),
// cache_type (lru_cache | hyper_clock_cache, whose estimated_entry_charge is
// value_bytes; clock_cache is refused as in RocksDB's cache_bench).
// Output: the settings, then
//   Complete in <s> s; Rough parallel ops/sec = <n>
//   Thread ops/sec = <n>
//   Hit rate <h>% (lookups <n>), usage <bytes>
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "strata/cache.h"

namespace {

struct Flags {
  uint64_t threads = 16;
  uint64_t cache_size = uint64_t{1} << 30;
  int64_t num_shard_bits = 6;
  uint64_t ops_per_thread = 2000000;
  uint64_t value_bytes = 8192;
  double resident_ratio = 0.25;
  uint64_t skew = 5;
  bool populate_cache = true;
  uint64_t lookup_insert_percent = 87;
  uint64_t insert_percent = 2;
  uint64_t lookup_percent = 10;
  uint64_t erase_percent = 1;
  uint64_t seed = 0;
  std::string cache_type = "lru_cache";
};

[[noreturn]] void Die(const std::string& msg) {
  std::fprintf(stderr, "cache_bench: %s\n", msg.c_str());
  std::exit(1);
}

uint64_t ParseU64(const std::string& name, const std::string& v) {
  char* end = nullptr;
  errno = 0;
  unsigned long long x = std::strtoull(v.c_str(), &end, 10);
  if (v.empty() || *end != '\0' || errno != 0 || v[0] == '-') {
    Die("--" + name + "=" + v + ": not a non-negative integer");
  }
  return x;
}

Flags ParseFlags(int argc, char** argv) {
  Flags f;
  for (int i = 1; i < argc; i++) {
    std::string arg = argv[i];
    size_t dashes = arg.rfind("--", 0) == 0 ? 2 : (arg.rfind('-', 0) == 0 ? 1 : 0);
    size_t eq = arg.find('=');
    if (dashes == 0 || eq == std::string::npos) Die("bad argument " + arg + " (want -name=value)");
    std::string name = arg.substr(dashes, eq - dashes);
    std::string v = arg.substr(eq + 1);
    if (name == "threads") {
      f.threads = ParseU64(name, v);
    } else if (name == "cache_size") {
      f.cache_size = ParseU64(name, v);
    } else if (name == "num_shard_bits") {
      f.num_shard_bits = static_cast<int64_t>(ParseU64(name, v));
    } else if (name == "ops_per_thread") {
      f.ops_per_thread = ParseU64(name, v);
    } else if (name == "value_bytes") {
      f.value_bytes = ParseU64(name, v);
    } else if (name == "resident_ratio") {
      f.resident_ratio = std::atof(v.c_str());
    } else if (name == "skew") {
      f.skew = ParseU64(name, v);
    } else if (name == "populate_cache") {
      f.populate_cache = v == "1" || v == "true";
    } else if (name == "lookup_insert_percent") {
      f.lookup_insert_percent = ParseU64(name, v);
    } else if (name == "insert_percent") {
      f.insert_percent = ParseU64(name, v);
    } else if (name == "lookup_percent") {
      f.lookup_percent = ParseU64(name, v);
    } else if (name == "erase_percent") {
      f.erase_percent = ParseU64(name, v);
    } else if (name == "seed") {
      f.seed = ParseU64(name, v);
    } else if (name == "cache_type") {
      f.cache_type = v;
    } else {
      Die("unknown flag --" + name);
    }
  }
  if (f.threads == 0) Die("--threads must be > 0");
  if (f.value_bytes == 0) Die("--value_bytes must be > 0");
  if (!(f.resident_ratio > 0 && f.resident_ratio <= 1)) Die("--resident_ratio must be in (0, 1]");
  if (f.lookup_insert_percent + f.insert_percent + f.lookup_percent + f.erase_percent != 100) {
    Die("--lookup_insert_percent + --insert_percent + --lookup_percent + --erase_percent must be "
        "100");
  }
  return f;
}

std::shared_ptr<strata::Cache> MakeCache(const Flags& f) {
  std::shared_ptr<strata::Cache> c;
  if (f.cache_type == "lru_cache") {
    c = strata::NewLRUCache(f.cache_size, static_cast<int>(f.num_shard_bits), false, 0.5);
  } else if (f.cache_type == "hyper_clock_cache") {
    c = strata::HyperClockCacheOptions(f.cache_size, f.value_bytes,
                                       static_cast<int>(f.num_shard_bits))
            .MakeSharedCache();
  } else if (f.cache_type == "clock_cache") {
    Die("--cache_type=clock_cache: old clock cache implementation has been removed");
  } else {
    Die("--cache_type=" + f.cache_type + ": unknown (lru_cache, hyper_clock_cache)");
  }
  if (c == nullptr) Die("cannot make the cache (check --num_shard_bits < 20)");
  return c;
}

void DeleteValue(const strata::Slice& /*key*/, void* value) { delete[] static_cast<char*>(value); }

// A 16-byte key for k: k and a mixed copy, so no two keys share a prefix.
void EncodeKey(uint64_t k, char* out) {
  uint64_t mixed = k * 0x9E3779B97F4A7C15ull;
  std::memcpy(out, &k, 8);
  std::memcpy(out + 8, &mixed, 8);
}

struct ThreadStats {
  uint64_t lookups = 0;
  uint64_t hits = 0;
  uint64_t checksum = 0;
};

void RunThread(const Flags& f, strata::Cache* cache, uint64_t max_key, uint64_t tid,
               ThreadStats* out) {
  std::mt19937_64 rng(f.seed * 1000003 + 1000 + tid);
  ThreadStats st;
  char key[16];
  auto insert = [&](const strata::Slice& k) {
    char* v = new char[f.value_bytes];
    v[0] = static_cast<char>(k.data()[0]);
    cache->Insert(k, v, f.value_bytes, &DeleteValue).PermitUncheckedError();
  };
  for (uint64_t i = 0; i < f.ops_per_thread; i++) {
    uint64_t raw = rng();
    for (uint64_t s = 0; s < f.skew; s++) raw = std::min(raw, rng());
    uint64_t k = static_cast<uint64_t>((static_cast<unsigned __int128>(raw) * max_key) >> 64);
    EncodeKey(k, key);
    strata::Slice ks(key, sizeof(key));
    uint64_t op = rng() % 100;
    if (op < f.lookup_insert_percent + f.lookup_percent) {
      st.lookups++;
      strata::Cache::Handle* h = cache->Lookup(ks);
      if (h != nullptr) {
        st.hits++;
        st.checksum += static_cast<unsigned char>(static_cast<char*>(cache->Value(h))[0]);
        cache->Release(h);
      } else if (op < f.lookup_insert_percent) {
        insert(ks);
      }
    } else if (op < f.lookup_insert_percent + f.lookup_percent + f.insert_percent) {
      insert(ks);
    } else {
      cache->Erase(ks);
    }
  }
  *out = st;
}

}  // namespace

int main(int argc, char** argv) {
  Flags f = ParseFlags(argc, argv);
  std::shared_ptr<strata::Cache> cache = MakeCache(f);
  uint64_t max_key = std::max<uint64_t>(
      1,
      static_cast<uint64_t>(static_cast<double>(f.cache_size / f.value_bytes) / f.resident_ratio));
  std::printf("Cache type        : %s (%s)\n", f.cache_type.c_str(), cache->Name());
  std::printf("Number of threads : %llu\n", static_cast<unsigned long long>(f.threads));
  std::printf("Ops per thread    : %llu\n", static_cast<unsigned long long>(f.ops_per_thread));
  std::printf("Cache size        : %llu\n", static_cast<unsigned long long>(f.cache_size));
  std::printf("Num shard bits    : %lld\n", static_cast<long long>(f.num_shard_bits));
  std::printf("Max key           : %llu\n", static_cast<unsigned long long>(max_key));
  std::printf("Value bytes       : %llu\n", static_cast<unsigned long long>(f.value_bytes));
  std::printf("Skew degree       : %llu\n", static_cast<unsigned long long>(f.skew));
  std::printf("Populate cache    : %d\n", f.populate_cache ? 1 : 0);
  std::printf("Lookup+Insert pct : %llu%%\n",
              static_cast<unsigned long long>(f.lookup_insert_percent));
  std::printf("Insert percentage : %llu%%\n", static_cast<unsigned long long>(f.insert_percent));
  std::printf("Lookup percentage : %llu%%\n", static_cast<unsigned long long>(f.lookup_percent));
  std::printf("Erase percentage  : %llu%%\n", static_cast<unsigned long long>(f.erase_percent));
  std::printf("----------------------------\n");
  std::fflush(stdout);

  if (f.populate_cache) {
    char key[16];
    for (uint64_t k = 0; k < max_key; k++) {
      EncodeKey(k, key);
      char* v = new char[f.value_bytes];
      v[0] = 0;
      cache->Insert(strata::Slice(key, 16), v, f.value_bytes, &DeleteValue).PermitUncheckedError();
    }
  }

  std::vector<ThreadStats> stats(f.threads);
  std::vector<std::thread> threads;
  auto start = std::chrono::steady_clock::now();
  for (uint64_t t = 0; t < f.threads; t++) {
    threads.emplace_back(RunThread, std::cref(f), cache.get(), max_key, t, &stats[t]);
  }
  for (auto& th : threads) th.join();
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  uint64_t lookups = 0, hits = 0, checksum = 0;
  for (const auto& s : stats) {
    lookups += s.lookups;
    hits += s.hits;
    checksum += s.checksum;
  }
  double total_ops = static_cast<double>(f.ops_per_thread * f.threads);
  std::printf("Complete in %.3f s; Rough parallel ops/sec = %.0f\n", secs, total_ops / secs);
  std::printf("Thread ops/sec = %.0f\n", static_cast<double>(f.ops_per_thread) / secs);
  std::printf("Hit rate %.2f%% (lookups %llu), usage %zu (checksum %llu)\n",
              lookups ? 100.0 * static_cast<double>(hits) / static_cast<double>(lookups) : 0.0,
              static_cast<unsigned long long>(lookups), cache->GetUsage(),
              static_cast<unsigned long long>(checksum));
  return 0;
}
