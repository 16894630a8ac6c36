// A block cache with a MemoryAllocator (strata/memory_allocator.h): the
// blocks table readers read for the cache -- data, index and filter blocks,
// compressed or not, LRU or HyperClockCache -- take their memory from the
// allocator and give it back to it. A counting allocator checks that every
// pointer it hands out comes back exactly once (by the time the cache is
// destroyed), that the blocks resident in the cache are its allocations,
// that the cache charges what UsableSize reports, and the data read is the
// data written.
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "strata/cache.h"
#include "strata/filter_policy.h"
#include "strata/iterator.h"
#include "strata/memory_allocator.h"
#include "strata/table.h"
#include "table/compression.h"
#include "test_util/db_test_base.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

// Rounds every allocation up to a multiple of `granule` (and really
// allocates that much, so UsableSize tells the truth); records the live
// pointers. Fails the test on a foreign or repeated Deallocate.
class CountingAllocator : public MemoryAllocator {
 public:
  explicit CountingAllocator(size_t granule = 1) : granule_(granule) {}
  const char* Name() const override { return "CountingAllocator"; }
  void* Allocate(size_t size) override {
    const size_t rounded = Round(size);
    void* p = std::malloc(rounded);
    std::lock_guard<std::mutex> l(mu_);
    live_[p] = rounded;
    allocations_++;
    return p;
  }
  void Deallocate(void* p) override {
    {
      std::lock_guard<std::mutex> l(mu_);
      auto it = live_.find(p);
      if (it == live_.end()) {
        bad_frees_++;
        return;
      }
      live_.erase(it);
      deallocations_++;
    }
    std::free(p);
  }
  size_t UsableSize(void* /*p*/, size_t allocation_size) const override {
    return Round(allocation_size);
  }

  uint64_t allocations() const {
    std::lock_guard<std::mutex> l(mu_);
    return allocations_;
  }
  uint64_t deallocations() const {
    std::lock_guard<std::mutex> l(mu_);
    return deallocations_;
  }
  uint64_t bad_frees() const {
    std::lock_guard<std::mutex> l(mu_);
    return bad_frees_;
  }
  size_t live_count() const {
    std::lock_guard<std::mutex> l(mu_);
    return live_.size();
  }
  size_t live_bytes() const {
    std::lock_guard<std::mutex> l(mu_);
    size_t n = 0;
    for (const auto& e : live_) n += e.second;
    return n;
  }

 private:
  size_t Round(size_t n) const { return (n + granule_ - 1) / granule_ * granule_; }

  const size_t granule_;
  mutable std::mutex mu_;
  std::unordered_map<void*, size_t> live_;
  uint64_t allocations_ = 0;
  uint64_t deallocations_ = 0;
  uint64_t bad_frees_ = 0;
};

class DBMemoryAllocatorTest : public DBTestBase {
 protected:
  DBMemoryAllocatorTest() : DBTestBase("db_memory_allocator_test") {}

  Options WithCache(std::shared_ptr<Cache> cache, CompressionType compression,
                    bool cache_meta_blocks) {
    Options o = SmallOptions();
    // pread path: with memory-mapped reads, uncompressed blocks are used in
    // place and nothing is allocated.
    o.table_mmap_reads = false;
    o.compression = compression;
    BlockBasedTableOptions t;
    t.block_cache = std::move(cache);
    t.block_size = 512;
    t.cache_index_and_filter_blocks = cache_meta_blocks;
    t.filter_policy = NewBloomFilterPolicy(10);
    o.table_factory = NewBlockBasedTableFactory(t);
    return o;
  }

  // The shared model run at this test's sizes, scanning with and without
  // fill_cache.
  void RunAgainstModel(uint64_t seed) {
    ModelRun run;
    run.scan_without_fill = true;
    RunRandomOpsAgainstModel(seed, run);
  }

  // Runs the model with `cache` (built over `alloc`), then checks: blocks
  // were allocated; after Close the cache's resident entries are exactly
  // the live allocations; erasing them frees everything; the cache dies
  // with the options and every count balances.
  void CheckBalanced(std::shared_ptr<Cache> cache, const std::shared_ptr<CountingAllocator>& alloc,
                     CompressionType compression, bool cache_meta_blocks) {
    ASSERT_EQ(alloc.get(), cache->memory_allocator());
    DestroyAndReopen(WithCache(cache, compression, cache_meta_blocks));
    RunAgainstModel(301);
    if (HasFatalFailure()) return;
    EXPECT_GT(alloc->allocations(), 0u);
    EXPECT_GT(alloc->deallocations(), 0u);
    Close();
    // No reader is left: what is still allocated is held by the cache.
    EXPECT_GT(alloc->live_count(), 0u);
    EXPECT_GT(cache->GetUsage(), 0u);
    EXPECT_EQ(0u, cache->GetPinnedUsage());
    // Each cached entry is charged at least its allocation's usable size.
    EXPECT_GE(cache->GetUsage(), alloc->live_bytes());
    cache->EraseUnRefEntries();
    EXPECT_EQ(0u, cache->GetUsage());
    EXPECT_EQ(0u, alloc->live_count());
    // Refill it (a new database), then let the cache die with its last
    // reference.
    DestroyAndReopen();
    RunAgainstModel(302);
    if (HasFatalFailure()) return;
    Close();
    EXPECT_GT(alloc->live_count(), 0u);
    std::weak_ptr<Cache> weak = cache;
    cache.reset();
    options_ = SmallOptions();
    EXPECT_TRUE(weak.expired());
    EXPECT_EQ(0u, alloc->live_count());
    EXPECT_EQ(alloc->allocations(), alloc->deallocations());
    EXPECT_EQ(0u, alloc->bad_frees());
  }
};

TEST_F(DBMemoryAllocatorTest, LRUCacheUncompressedMetaBlocksCached) {
  auto alloc = std::make_shared<CountingAllocator>();
  LRUCacheOptions co;
  co.capacity = 64 << 10;  // small: evicts all the time
  co.num_shard_bits = 0;
  co.memory_allocator = alloc;
  CheckBalanced(NewLRUCache(co), alloc, kNoCompression, true);
}

TEST_F(DBMemoryAllocatorTest, LRUCacheCompressedMetaBlocksHeld) {
  if (!CompressionTypeSupported(kSnappyCompression)) GTEST_SKIP() << "no snappy";
  auto alloc = std::make_shared<CountingAllocator>();
  LRUCacheOptions co;
  co.capacity = 1 << 20;
  co.memory_allocator = alloc;
  CheckBalanced(NewLRUCache(co), alloc, kSnappyCompression, false);
}

TEST_F(DBMemoryAllocatorTest, HyperClockCache) {
  auto alloc = std::make_shared<CountingAllocator>();
  HyperClockCacheOptions co(256 << 10, 700);
  co.memory_allocator = alloc;
  CheckBalanced(NewHyperClockCache(co), alloc, kNoCompression, true);
}

// The charge of a cached block counts the allocator's usable size: with an
// allocator that rounds every allocation up to 4 KiB, each resident block
// is charged at least 4 KiB.
TEST_F(DBMemoryAllocatorTest, ChargeIsUsableSize) {
  auto alloc = std::make_shared<CountingAllocator>(4096);
  LRUCacheOptions co;
  co.capacity = 8 << 20;
  co.num_shard_bits = 0;
  co.memory_allocator = alloc;
  std::shared_ptr<Cache> cache = NewLRUCache(co);
  DestroyAndReopen(WithCache(cache, kNoCompression, false));
  for (int i = 0; i < 200; i++) ASSERT_OK(Put("k" + std::to_string(i), std::string(40, 'v')));
  ASSERT_OK(Flush());
  for (int i = 0; i < 200; i++) ASSERT_EQ(std::string(40, 'v'), Get("k" + std::to_string(i)));
  Close();
  const size_t blocks = alloc->live_count();
  EXPECT_GT(blocks, 5u);  // 200 x ~50 bytes in 512-byte blocks
  EXPECT_EQ(blocks * 4096, alloc->live_bytes());
  EXPECT_GE(cache->GetUsage(), blocks * 4096);
  cache->EraseUnRefEntries();
  EXPECT_EQ(0u, alloc->live_count());
}

// Without an allocator nothing changes: the cache reports none.
TEST_F(DBMemoryAllocatorTest, NoAllocator) {
  EXPECT_EQ(nullptr, NewLRUCache(1 << 20)->memory_allocator());
  EXPECT_EQ(nullptr, NewHyperClockCache(HyperClockCacheOptions(1 << 20, 4096))->memory_allocator());
}

}  // namespace
}  // namespace strata
