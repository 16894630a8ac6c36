#include "memtable/dynamic_bloom.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "test_util/testutil.h"
#include "util/arena.h"

namespace strata {
namespace {

std::string Key(uint64_t i) { return "key" + std::to_string(i); }

TEST(DynamicBloomTest, TotalBitsFor) {
  EXPECT_EQ(0u, DynamicBloom::TotalBitsFor(64 << 20, 0));
  EXPECT_EQ(0u, DynamicBloom::TotalBitsFor(64 << 20, -1));
  // 64 MiB at 0.1: 6.4 MiB of bits.
  EXPECT_EQ(static_cast<uint32_t>((64 << 20) * 0.1 * 8), DynamicBloom::TotalBitsFor(64 << 20, 0.1));
  // Huge requests are clamped to whole lines under 2^32 bits.
  const uint32_t max = DynamicBloom::TotalBitsFor(size_t{1} << 40, 0.25);
  EXPECT_EQ(0u, max % DynamicBloom::kBitsPerLine);
  EXPECT_GT(max, 0xffffffffu - DynamicBloom::kBitsPerLine);
}

TEST(DynamicBloomTest, SizesAndMemory) {
  DynamicBloom tiny(nullptr, 1);
  EXPECT_EQ(512u, tiny.total_bits());
  EXPECT_EQ(DynamicBloom::kDefaultNumProbes, tiny.num_probes());
  EXPECT_GE(tiny.MemoryUsage(), 64u);
  EXPECT_FALSE(tiny.MayContain("x"));
  tiny.Add("x");
  EXPECT_TRUE(tiny.MayContain("x"));

  DynamicBloom b(nullptr, 513, 3);
  EXPECT_EQ(1024u, b.total_bits());
  EXPECT_EQ(3u, b.num_probes());

  // From an arena: the arena's usage grows by (at least) the filter's.
  Arena arena;
  const size_t before = arena.MemoryUsage();
  DynamicBloom from_arena(&arena, 100000);
  EXPECT_EQ(100352u, from_arena.total_bits());
  EXPECT_GE(arena.MemoryUsage() - before, from_arena.MemoryUsage());
  EXPECT_LT(from_arena.MemoryUsage(), 100352u / 8 + 64);
  for (int i = 0; i < 1000; ++i) ASSERT_FALSE(from_arena.MayContain(Key(i)));
}

TEST(DynamicBloomTest, NoFalseNegativesAndFalsePositiveRate) {
  const uint64_t seed = test::RandomSeed();
  std::mt19937_64 rng(seed);
  for (const bool use_arena : {false, true}) {
    for (const size_t n : {size_t{1000}, size_t{20000}, size_t{100000}}) {
      Arena arena;
      // 10 bits/key.
      DynamicBloom bloom(use_arena ? &arena : nullptr, static_cast<uint32_t>(n * 10));
      std::vector<std::string> keys;
      for (size_t i = 0; i < n; ++i) keys.push_back(test::RandomBytes(&rng, 1 + rng() % 24));
      for (const auto& k : keys) bloom.Add(k);
      for (const auto& k : keys) ASSERT_TRUE(bloom.MayContain(k));
      size_t fp = 0;
      const size_t probes = 100000;
      for (size_t i = 0; i < probes; ++i) {
        // 32 random bytes: distinct from every added key (those are shorter).
        if (bloom.MayContain(test::RandomBytes(&rng, 32))) ++fp;
      }
      const double rate = static_cast<double>(fp) / probes;
      std::printf("n=%zu arena=%d: false-positive rate %.4f at 10 bits/key, 6 probes\n", n,
                  use_arena, rate);
      // A cache-local Bloom filter at 10 bits/key and 6 probes is ~1.0-1.2%;
      // 2.5% leaves room for chance and small sizes.
      EXPECT_LT(rate, 0.025);
      EXPECT_GT(rate, 0.002);  // the filter is not oversized by mistake
    }
  }
}

TEST(DynamicBloomTest, ConcurrentAdds) {
  const uint64_t seed = test::RandomSeed();
  constexpr size_t kPerThread = 100000;
  DynamicBloom bloom(nullptr, static_cast<uint32_t>(2 * kPerThread * 10));
  std::vector<std::vector<uint64_t>> hashes(2);
  for (int t = 0; t < 2; ++t) {
    std::mt19937_64 rng(seed + t);
    for (size_t i = 0; i < kPerThread; ++i) hashes[t].push_back(rng());
  }
  // Each writer publishes how many of its hashes it added (release after
  // the relaxed bit updates, as the memtable publishes a sequence number);
  // a reader running alongside must find every published hash.
  std::atomic<size_t> progress[2] = {0, 0};
  std::atomic<bool> stop{false};
  std::atomic<size_t> reader_misses{0}, reader_checks{0};
  std::thread reader([&] {
    while (!stop.load(std::memory_order_relaxed)) {
      for (int t = 0; t < 2; ++t) {
        const size_t n = progress[t].load(std::memory_order_acquire);
        for (size_t i = n % 61; i < n; i += 61) {
          reader_checks.fetch_add(1, std::memory_order_relaxed);
          if (!bloom.MayContainHash(hashes[t][i])) {
            reader_misses.fetch_add(1, std::memory_order_relaxed);
          }
        }
      }
    }
  });
  std::vector<std::thread> writers;
  for (int t = 0; t < 2; ++t) {
    writers.emplace_back([&, t] {
      for (size_t i = 0; i < kPerThread; ++i) {
        bloom.AddHashConcurrently(hashes[t][i]);
        progress[t].store(i + 1, std::memory_order_release);
      }
    });
  }
  for (auto& w : writers) w.join();
  stop.store(true, std::memory_order_relaxed);
  reader.join();
  EXPECT_EQ(0u, reader_misses.load());
  std::printf("concurrent reader checked %zu published hashes\n", reader_checks.load());
  for (int t = 0; t < 2; ++t) {
    for (uint64_t h : hashes[t]) ASSERT_TRUE(bloom.MayContainHash(h)) << "thread " << t;
  }
  // Concurrent and single-writer adds set exactly the same bits.
  DynamicBloom serial(nullptr, static_cast<uint32_t>(2 * kPerThread * 10));
  for (int t = 0; t < 2; ++t) {
    for (uint64_t h : hashes[t]) serial.AddHash(h);
  }
  std::mt19937_64 rng(seed + 2);
  for (int i = 0; i < 100000; ++i) {
    const uint64_t h = rng();
    ASSERT_EQ(serial.MayContainHash(h), bloom.MayContainHash(h));
  }
}

}  // namespace
}  // namespace strata
