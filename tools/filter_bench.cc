// filter_bench: times Strata's full Bloom or Ribbon filter (table/filter_policy.h) on
// its own, away from tables and caches, in the manner of RocksDB's
// util/filter_bench.
//
// It builds --num_filters filters of --num_keys random keys each (every key
// --key_size random bytes from std::mt19937_64 seeded with --seed) at
// --bits_per_key, then runs --queries lookups of added keys (any false
// negative is a bug: exit status 1) and --queries lookups of keys that were
// never added (the measured false-positive rate). Each query picks a random
// filter and one of its keys (absent keys: fresh random ones), all chosen
// and copied into query order before the clock starts. Added keys have bit 0 of
// their first byte clear and absent keys have it set, so the two sets never
// overlap even for tiny key sizes.
//
// Flags are --name=value: bits_per_key (double, 10), num_keys (1000000),
// num_filters (1), key_size (16), queries (2000000), seed (1), impl (bloom,
// or ribbon for NewRibbonFilterPolicy at --bits_per_key equivalent bits;
// RocksDB's filter_bench numbers 2 and 3 are accepted for them).
// Output:
//   Build: <keys> keys, <bytes> bytes (<bits> bits/key), <ns> ns/key
//   Query present: <n> queries, <ns> ns/query, <m> false negatives
//   Query absent: <n> queries, <ns> ns/query, FP rate <r>%
//   Expected FP rate (cache-local Bloom model): <r>%   (Bloom)
//   Target FP rate (Bloom-equivalent): <r>%            (Ribbon)
//
// Single-threaded.

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "strata/slice.h"
#include "table/filter_policy.h"

namespace strata {
namespace {

struct Flags {
  double bits_per_key = 10;
  uint64_t num_keys = 1000000;
  uint64_t num_filters = 1;
  uint64_t key_size = 16;
  uint64_t queries = 2000000;
  uint64_t seed = 1;
  bool ribbon = false;
};

bool ParseUint(std::string_view text, uint64_t* out) {
  if (text.empty() || text[0] < '0' || text[0] > '9') return false;
  std::string s(text);
  char* end = nullptr;
  errno = 0;
  unsigned long long v = std::strtoull(s.c_str(), &end, 10);
  if (errno != 0 || *end != '\0') return false;
  *out = v;
  return true;
}

bool ParseDouble(std::string_view text, double* out) {
  if (text.empty()) return false;
  std::string s(text);
  char* end = nullptr;
  errno = 0;
  double v = std::strtod(s.c_str(), &end);
  if (errno != 0 || *end != '\0' || !std::isfinite(v)) return false;
  *out = v;
  return true;
}

// Fills *flags from argv; prints the problem and returns false on an
// unknown flag or a bad value.
bool ParseFlags(int argc, char** argv, Flags* flags) {
  for (int i = 1; i < argc; i++) {
    std::string_view arg(argv[i]);
    size_t eq = arg.find('=');
    if (arg.substr(0, 2) != "--" || eq == std::string_view::npos) {
      std::fprintf(stderr, "filter_bench: expected --name=value, got '%s'\n", argv[i]);
      return false;
    }
    std::string_view name = arg.substr(2, eq - 2);
    std::string_view value = arg.substr(eq + 1);
    bool ok;
    if (name == "bits_per_key") {
      ok = ParseDouble(value, &flags->bits_per_key);
    } else if (name == "num_keys") {
      ok = ParseUint(value, &flags->num_keys);
    } else if (name == "num_filters") {
      ok = ParseUint(value, &flags->num_filters);
    } else if (name == "key_size") {
      ok = ParseUint(value, &flags->key_size);
    } else if (name == "queries") {
      ok = ParseUint(value, &flags->queries);
    } else if (name == "seed") {
      ok = ParseUint(value, &flags->seed);
    } else if (name == "impl") {
      ok = value == "bloom" || value == "2" || value == "ribbon" || value == "3";
      flags->ribbon = value == "ribbon" || value == "3";
    } else {
      std::fprintf(stderr, "filter_bench: unknown flag --%.*s\n", static_cast<int>(name.size()),
                   name.data());
      return false;
    }
    if (!ok) {
      std::fprintf(stderr, "filter_bench: bad value for --%.*s: '%.*s'\n",
                   static_cast<int>(name.size()), name.data(), static_cast<int>(value.size()),
                   value.data());
      return false;
    }
  }
  if (flags->bits_per_key < 1 || flags->bits_per_key > 100) {
    std::fprintf(stderr, "filter_bench: --bits_per_key must be in [1, 100]\n");
    return false;
  }
  if (flags->num_keys == 0 || flags->num_filters == 0 || flags->key_size == 0) {
    std::fprintf(stderr, "filter_bench: --num_keys, --num_filters, --key_size must be > 0\n");
    return false;
  }
  // Filter numbers are 32-bit; keep every key buffer addressable.
  constexpr uint64_t kMaxCount = std::numeric_limits<uint32_t>::max();
  const uint64_t total = flags->num_keys * flags->num_filters;
  if (flags->num_keys > kMaxCount || flags->num_filters > kMaxCount || total > kMaxCount ||
      flags->queries > kMaxCount || flags->key_size > (uint64_t{1} << 20) ||
      total * flags->key_size > (uint64_t{1} << 40) ||
      flags->queries * flags->key_size > (uint64_t{1} << 40)) {
    std::fprintf(stderr, "filter_bench: too many keys or key bytes\n");
    return false;
  }
  return true;
}

// `count` keys of `key_size` random bytes, back to back; bit 0 of each key's
// first byte is set to `tag`.
std::string MakeKeys(std::mt19937_64* rng, size_t count, size_t key_size, bool tag) {
  std::string keys(count * key_size, '\0');
  size_t pos = 0;
  while (pos < keys.size()) {
    uint64_t r = (*rng)();
    size_t n = std::min(sizeof(r), keys.size() - pos);
    std::memcpy(&keys[pos], &r, n);
    pos += n;
  }
  for (size_t i = 0; i < count; i++) {
    char& c = keys[i * key_size];
    c = static_cast<char>(tag ? (c | 1) : (c & ~1));
  }
  return keys;
}

double NowNanos() {
  return static_cast<double>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                 std::chrono::steady_clock::now().time_since_epoch())
                                 .count());
}

// FP rate of a Bloom filter confined to 512-bit lines: keys per line follow a
// Poisson law with mean keys_per_line; a line holding j keys has each of its
// bits set with probability 1 - (1 - 1/512)^(probes * j).
double ExpectedFpRate(double keys_per_line, int probes) {
  double total = 0;
  double p_j = std::exp(-keys_per_line);  // Poisson P(j = 0)
  const int max_j = static_cast<int>(keys_per_line * 4 + 64);
  for (int j = 0; j <= max_j; j++) {
    double set = 1 - std::pow(1 - 1.0 / 512, probes * j);
    total += p_j * std::pow(set, probes);
    p_j *= keys_per_line / (j + 1);
  }
  return total;
}

int Run(const Flags& flags) {
  const size_t num_keys = flags.num_keys;
  const size_t num_filters = flags.num_filters;
  const size_t key_size = flags.key_size;
  const size_t total_keys = num_keys * num_filters;

  std::mt19937_64 rng(flags.seed);
  const std::string added = MakeKeys(&rng, total_keys, key_size, false);
  // Query keys are laid out in query order, so reading them streams through
  // memory and the timings show the filter probes, not key-buffer misses.
  const size_t num_queries = flags.queries;
  std::vector<uint32_t> query_filter(num_queries);
  std::string present(num_queries * key_size, '\0');
  for (size_t i = 0; i < num_queries; i++) {
    uint64_t r = rng();
    size_t f = (r >> 32) % num_filters;
    size_t k = f * num_keys + (r & 0xffffffffu) % num_keys;
    query_filter[i] = static_cast<uint32_t>(f);
    std::memcpy(&present[i * key_size], added.data() + k * key_size, key_size);
  }
  const std::string absent = MakeKeys(&rng, num_queries, key_size, true);

  std::shared_ptr<const FilterPolicy> policy = flags.ribbon
                                                   ? NewRibbonFilterPolicy(flags.bits_per_key, -1)
                                                   : NewBloomFilterPolicy(flags.bits_per_key);
  std::unique_ptr<FilterBitsBuilder> builder = NewFilterBitsBuilder(policy.get());
  if (builder == nullptr) {
    std::fprintf(stderr, "filter_bench: --bits_per_key=%g builds no filter\n", flags.bits_per_key);
    return 1;
  }

  // Build.
  std::vector<std::unique_ptr<const char[]>> bufs(num_filters);
  std::vector<FilterBitsReader> readers;
  readers.reserve(num_filters);
  size_t filter_bytes = 0;
  double start = NowNanos();
  for (size_t f = 0; f < num_filters; f++) {
    const char* base = added.data() + f * num_keys * key_size;
    for (size_t i = 0; i < num_keys; i++) {
      builder->AddKey(Slice(base + i * key_size, key_size));
    }
    Slice contents = builder->Finish(&bufs[f]);
    filter_bytes += contents.size();
    readers.emplace_back(contents);
  }
  double build_ns = NowNanos() - start;
  std::printf("Build: %zu keys, %.3g bytes (%.2f bits/key), %.1f ns/key\n", total_keys,
              static_cast<double>(filter_bytes),
              static_cast<double>(filter_bytes) * 8 / static_cast<double>(total_keys),
              build_ns / static_cast<double>(total_keys));

  const FilterBitsReader* r = readers.data();
  const double nq = num_queries == 0 ? 1 : static_cast<double>(num_queries);

  // Present keys: every one must match.
  volatile size_t sink = 0;
  size_t matches = 0;
  start = NowNanos();
  for (size_t i = 0; i < num_queries; i++) {
    matches += r[query_filter[i]].MayMatch(Slice(present.data() + i * key_size, key_size));
  }
  double present_ns = NowNanos() - start;
  sink = sink + matches;
  const size_t false_negatives = num_queries - matches;
  std::printf("Query present: %zu queries, %.1f ns/query, %zu false negatives\n", num_queries,
              present_ns / nq, false_negatives);

  // Absent keys: matches are false positives.
  matches = 0;
  start = NowNanos();
  for (size_t i = 0; i < num_queries; i++) {
    matches += r[query_filter[i]].MayMatch(Slice(absent.data() + i * key_size, key_size));
  }
  double absent_ns = NowNanos() - start;
  sink = sink + matches;
  std::printf("Query absent: %zu queries, %.1f ns/query, FP rate %.2f%%\n", num_queries,
              absent_ns / nq, 100.0 * static_cast<double>(matches) / nq);

  const size_t lines = (filter_bytes - num_filters * kFilterMetadataLen) / 64;
  if (readers[0].kind() == FilterBitsReader::Kind::kFastLocalBloom && lines > 0) {
    double keys_per_line = static_cast<double>(total_keys) / static_cast<double>(lines);
    std::printf("Expected FP rate (cache-local Bloom model): %.2f%% (%d probes)\n",
                100.0 * ExpectedFpRate(keys_per_line, readers[0].num_probes()),
                readers[0].num_probes());
  } else if (readers[0].kind() == FilterBitsReader::Kind::kStandard128Ribbon) {
    const int millibits = static_cast<const RibbonFilterPolicy*>(policy.get())->millibits_per_key();
    std::printf("Target FP rate (Bloom-equivalent): %.2f%%\n",
                100.0 / RibbonOneInFpRate(millibits / 1000.0,
                                          FilterBitsBuilder::ChooseNumProbes(millibits)));
  }
  (void)sink;

  if (false_negatives != 0) {
    std::fprintf(stderr, "filter_bench: FAILED: %zu false negatives\n", false_negatives);
    return 1;
  }
  return 0;
}

}  // namespace
}  // namespace strata

int main(int argc, char** argv) {
  strata::Flags flags;
  if (!strata::ParseFlags(argc, argv, &flags)) return 1;
  return strata::Run(flags);
}
