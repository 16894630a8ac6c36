#include "util/arena.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include "test_util/testutil.h"

namespace strata {
namespace {

constexpr size_t kAlign = alignof(std::max_align_t);

struct Piece {
  char* ptr;
  size_t size;
  uint8_t fill;
};

bool IsAligned(const char* p) { return reinterpret_cast<uintptr_t>(p) % kAlign == 0; }

// Every piece still holds the byte it was filled with, and no two overlap.
void CheckPieces(std::vector<Piece> pieces) {
  for (const Piece& p : pieces) {
    const char* bad = std::find_if(p.ptr, p.ptr + p.size,
                                   [&p](char c) { return static_cast<uint8_t>(c) != p.fill; });
    ASSERT_EQ(bad, p.ptr + p.size) << "piece of " << p.size << " bytes overwritten";
  }
  std::sort(pieces.begin(), pieces.end(),
            [](const Piece& a, const Piece& b) { return a.ptr < b.ptr; });
  for (size_t i = 1; i < pieces.size(); i++) {
    ASSERT_LE(pieces[i - 1].ptr + pieces[i - 1].size, pieces[i].ptr) << "pieces overlap";
  }
}

// Mostly small sizes like memtable entries, some medium, a few larger than a
// block.
size_t RandomSize(std::mt19937_64* rng, size_t block_size) {
  const uint64_t r = (*rng)() % 100;
  if (r < 80) return 1 + (*rng)() % 128;
  if (r < 98) return 1 + (*rng)() % (block_size / 3);
  return block_size / 4 + (*rng)() % (2 * block_size);
}

TEST(ArenaTest, Empty) {
  Arena arena;
  EXPECT_EQ(arena.MemoryUsage(), 0u);
  EXPECT_EQ(arena.AllocatedAndUnused(), 0u);
  EXPECT_EQ(arena.BlockSize(), Arena::kDefaultBlockSize);
}

TEST(ArenaTest, BlockSizeIsClampedAndAligned) {
  EXPECT_EQ(Arena(1).BlockSize(), Arena::kMinBlockSize);
  EXPECT_EQ(Arena(0).BlockSize(), Arena::kMinBlockSize);
  const size_t odd = Arena(5001).BlockSize();
  EXPECT_GE(odd, 5001u);
  EXPECT_LT(odd, 5001u + kAlign);
  EXPECT_EQ(odd % kAlign, 0u);
  EXPECT_EQ(Arena(64 << 10).BlockSize(), 64u << 10);
  EXPECT_EQ(ConcurrentArena(1).BlockSize(), Arena::kMinBlockSize);
}

TEST(ArenaTest, ZeroByteRequestsReturnUsablePointers) {
  Arena arena;
  EXPECT_NE(arena.Allocate(0), nullptr);
  Arena arena2;
  EXPECT_NE(arena2.AllocateAligned(0), nullptr);
  ConcurrentArena concurrent;
  EXPECT_NE(concurrent.Allocate(0), nullptr);
  EXPECT_NE(concurrent.AllocateAligned(0), nullptr);
}

TEST(ArenaTest, AlignedAndUnalignedShareABlock) {
  Arena arena(4096);
  char* a = arena.AllocateAligned(24);
  char* u = arena.Allocate(7);
  char* b = arena.AllocateAligned(1);
  char* v = arena.Allocate(3);
  EXPECT_TRUE(IsAligned(a));
  EXPECT_TRUE(IsAligned(b));
  // Aligned pieces grow up from the block start, unaligned down from its end.
  EXPECT_LT(a, b);
  EXPECT_LT(v, u);
  EXPECT_GE(arena.MemoryUsage(), 4096u);  // one block
  EXPECT_LT(arena.MemoryUsage(), 4096u + 64);
  EXPECT_EQ(arena.AllocatedAndUnused(), 4096u - 32 - 16 - 7 - 3);
}

TEST(ArenaTest, LargeRequestsGetTheirOwnBlock) {
  Arena arena(4096);
  char* small = nullptr;
  for (int i = 0; i < 3; i++) small = arena.Allocate(1000);
  ASSERT_NE(small, nullptr);
  const size_t unused = arena.AllocatedAndUnused();
  ASSERT_EQ(unused, 4096u - 3000);
  const size_t usage = arena.MemoryUsage();
  // A request larger than a quarter block that does not fit gets a block of
  // its own; the current block keeps serving small requests.
  char* big = arena.Allocate(2000);
  memset(big, 0x5a, 2000);
  EXPECT_EQ(arena.AllocatedAndUnused(), unused);
  EXPECT_GE(arena.MemoryUsage(), usage + 2000);
  EXPECT_LT(arena.MemoryUsage(), usage + 2000 + 64);
  char* huge = arena.AllocateAligned(1 << 20);
  EXPECT_TRUE(IsAligned(huge));
  memset(huge, 0xa5, 1 << 20);
  EXPECT_EQ(arena.AllocatedAndUnused(), unused);
  char* small2 = arena.Allocate(10);
  EXPECT_EQ(small2 + 10, small);
  EXPECT_NE(arena.Allocate(1000), nullptr);
  EXPECT_EQ(arena.AllocatedAndUnused(), 86u);
  // A small request that does not fit starts a new block, abandoning the rest.
  EXPECT_NE(arena.Allocate(500), nullptr);
  EXPECT_EQ(arena.AllocatedAndUnused(), 4096u - 500);
}

// Blocks of 2 MiB and more take the huge-page path; they behave the same.
TEST(ArenaTest, HugeBlocks) {
  Arena arena(4 << 20);
  std::vector<Piece> pieces;
  size_t requested = 0;
  for (int i = 0; i < 3000; i++) {
    const size_t size = 1 + (i * 7919) % 4000;
    char* p = (i % 2 == 0) ? arena.AllocateAligned(size) : arena.Allocate(size);
    ASSERT_TRUE(i % 2 != 0 || IsAligned(p));
    memset(p, i & 0xff, size);
    pieces.push_back({p, size, static_cast<uint8_t>(i & 0xff)});
    requested += size;
  }
  // About 6 MB requested: two 4 MiB blocks, counted at their nominal size.
  EXPECT_GE(arena.MemoryUsage(), 8u << 20);
  EXPECT_LT(arena.MemoryUsage(), (8u << 20) + 64);
  // A dedicated block larger than 2 MiB from a small-block arena.
  Arena small_blocks;
  char* big = small_blocks.Allocate(3 << 20);
  memset(big, 0x77, 3 << 20);
  pieces.push_back({big, 3u << 20, 0x77});
  ASSERT_NO_FATAL_FAILURE(CheckPieces(pieces));
  EXPECT_GE(requested, 5u << 20);
}

void RandomArenaRun(size_t block_size, int n, uint64_t seed) {
  SCOPED_TRACE("block_size " + std::to_string(block_size));
  std::mt19937_64 rng(seed);
  Arena arena(block_size);
  const size_t bs = arena.BlockSize();
  std::vector<Piece> pieces;
  size_t requested = 0;          // bytes asked for
  size_t requested_rounded = 0;  // the same with aligned sizes rounded up
  for (int i = 0; i < n; i++) {
    const size_t size = RandomSize(&rng, bs);
    const bool aligned = rng() % 2 == 0;
    char* p = aligned ? arena.AllocateAligned(size) : arena.Allocate(size);
    ASSERT_NE(p, nullptr);
    ASSERT_TRUE(!aligned || IsAligned(p)) << "size " << size;
    const auto fill = static_cast<uint8_t>(i * 131 + 7);
    memset(p, fill, size);
    pieces.push_back({p, size, fill});
    requested += size;
    requested_rounded += aligned ? (size + kAlign - 1) / kAlign * kAlign : size;
    ASSERT_GE(arena.MemoryUsage(), requested);
    ASSERT_LE(arena.AllocatedAndUnused(), bs);
    if (i == n / 2) {
      ASSERT_NO_FATAL_FAILURE(CheckPieces(pieces));
    }
  }
  ASSERT_NO_FATAL_FAILURE(CheckPieces(pieces));
  // A block is abandoned only when a request of at most bs/4 does not fit, so
  // at most a quarter of each block is wasted; plus the current block and
  // per-block bookkeeping (well under 1%).
  const double bound =
      4.0 / 3.0 * static_cast<double>(requested_rounded) * 1.01 + static_cast<double>(bs);
  EXPECT_LE(static_cast<double>(arena.MemoryUsage()), bound);
}

TEST(ArenaTest, RandomSizesKeepTheirData) {
  const uint64_t seed = test::RandomSeed();
  RandomArenaRun(4096, 20000, seed);
  RandomArenaRun(64 << 10, 20000, seed + 1);
  RandomArenaRun(1 << 20, 2000, seed + 2);
}

TEST(ConcurrentArenaTest, SingleThreadRandomSizes) {
  const uint64_t seed = test::RandomSeed();
  std::mt19937_64 rng(seed);
  ConcurrentArena arena(1 << 20);
  std::vector<Piece> pieces;
  size_t requested = 0;
  for (int i = 0; i < 20000; i++) {
    const size_t size = RandomSize(&rng, 1 << 16);
    const bool aligned = rng() % 2 == 0;
    char* p = aligned ? arena.AllocateAligned(size) : arena.Allocate(size);
    ASSERT_NE(p, nullptr);
    ASSERT_TRUE(!aligned || IsAligned(p));
    const auto fill = static_cast<uint8_t>(i * 31 + 1);
    memset(p, fill, size);
    pieces.push_back({p, size, fill});
    requested += size;
    ASSERT_GE(arena.MemoryUsage(), requested);
  }
  ASSERT_NO_FATAL_FAILURE(CheckPieces(pieces));
  // Shards strand at most one slab each; the arena wastes at most a quarter
  // of each block; allow for both and rounding.
  EXPECT_LE(static_cast<double>(arena.MemoryUsage()),
            4.0 / 3.0 * static_cast<double>(requested + 16 * pieces.size()) * 1.01 +
                static_cast<double>(2 * arena.BlockSize()));
}

TEST(ConcurrentArenaTest, FourThreads) {
  const uint64_t seed = test::RandomSeed();
  constexpr int kThreads = 4;
  constexpr int kPerThread = 20000;
  ConcurrentArena arena(256 << 10);
  std::vector<std::vector<Piece>> per_thread(kThreads);
  std::vector<size_t> requested(kThreads, 0);
  std::atomic<bool> done{false};
  std::atomic<bool> usage_went_down{false};

  // MemoryUsage() is read concurrently and never goes backwards.
  std::thread watcher([&] {
    size_t last = 0;
    while (!done.load(std::memory_order_acquire)) {
      const size_t now = arena.MemoryUsage();
      if (now < last) usage_went_down = true;
      last = now;
    }
  });
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; t++) {
    threads.emplace_back([&, t] {
      std::mt19937_64 rng(seed + t);
      for (int i = 0; i < kPerThread; i++) {
        const size_t size = RandomSize(&rng, 8 << 10);
        const bool aligned = rng() % 2 == 0;
        char* p = aligned ? arena.AllocateAligned(size) : arena.Allocate(size);
        if (p == nullptr || (aligned && !IsAligned(p))) {
          ADD_FAILURE() << "bad pointer for " << size << " bytes";
          return;
        }
        const auto fill = static_cast<uint8_t>(t * 61 + i);
        memset(p, fill, size);
        per_thread[t].push_back({p, size, fill});
        requested[t] += size;
      }
    });
  }
  for (auto& th : threads) th.join();
  done.store(true, std::memory_order_release);
  watcher.join();
  EXPECT_FALSE(usage_went_down.load());

  std::vector<Piece> all;
  size_t total = 0;
  for (int t = 0; t < kThreads; t++) {
    all.insert(all.end(), per_thread[t].begin(), per_thread[t].end());
    total += requested[t];
  }
  ASSERT_EQ(all.size(), static_cast<size_t>(kThreads * kPerThread));
  ASSERT_NO_FATAL_FAILURE(CheckPieces(all));
  EXPECT_GE(arena.MemoryUsage(), total);
  EXPECT_LE(static_cast<double>(arena.MemoryUsage()),
            4.0 / 3.0 * static_cast<double>(total + 16 * all.size()) * 1.01 +
                static_cast<double>(4 * arena.BlockSize()));
}

}  // namespace
}  // namespace strata
