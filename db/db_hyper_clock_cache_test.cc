// A DB whose block cache is a HyperClockCache (issue 19, item 6): random
// writes, deletes, flushes and compactions against a std::map model, read
// back through the cache (point reads and full scans) with index and filter
// blocks cached too; a cache small enough to evict all the time; memtables
// charged to the same cache through a WriteBufferManager.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "strata/cache.h"
#include "strata/filter_policy.h"
#include "strata/iterator.h"
#include "strata/table.h"
#include "strata/write_buffer_manager.h"
#include "test_util/db_test_base.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

class DBHyperClockCacheTest : public DBTestBase {
 protected:
  DBHyperClockCacheTest() : DBTestBase("db_hyper_clock_cache_test") {}

  Options WithCache(std::shared_ptr<Cache> cache) {
    Options o = SmallOptions();
    // pread path: every data block goes through the block cache (with the
    // default memory-mapped reads, uncompressed blocks are used in place).
    o.table_mmap_reads = false;
    BlockBasedTableOptions t;
    t.block_cache = std::move(cache);
    t.cache_index_and_filter_blocks = true;
    t.filter_policy = NewBloomFilterPolicy(10);
    o.table_factory = NewBlockBasedTableFactory(t);
    return o;
  }

  // The shared model run (DBTestBase), larger than its defaults; then the
  // cache must have served hits and stayed within its capacity.
  void RunAgainstModel(const std::shared_ptr<Cache>& cache, uint64_t seed) {
    ModelRun run;
    run.rounds = 6;
    run.ops_per_round = 1500;
    run.key_space = 3000;
    run.value_min = 20;
    run.value_spread = 200;
    RunRandomOpsAgainstModel(seed, run);
    if (HasFatalFailure()) return;
    Cache::CacheStats st = cache->GetStats();
    EXPECT_GT(st.hits, 0u);
    EXPECT_GT(st.inserts, 0u);
    EXPECT_LE(cache->GetUsage(), cache->GetCapacity());
  }
};

TEST_F(DBHyperClockCacheTest, ReadsBackThroughALargeCache) {
  auto cache = HyperClockCacheOptions(8 << 20, 1024).MakeSharedCache();
  ASSERT_NE(cache, nullptr);
  EXPECT_STREQ("HyperClockCache", cache->Name());
  Open(WithCache(cache));
  RunAgainstModel(cache, test::RandomSeed());
  EXPECT_EQ(0u, cache->GetStats().evictions);
  Close();
}

TEST_F(DBHyperClockCacheTest, ReadsBackThroughASmallEvictingCache) {
  // 64 KiB in 4 shards: a few dozen 1 KiB blocks; evicts on most misses.
  auto cache = HyperClockCacheOptions(64 << 10, 1024, 2).MakeSharedCache();
  ASSERT_NE(cache, nullptr);
  Open(WithCache(cache));
  RunAgainstModel(cache, test::RandomSeed());
  Cache::CacheStats st = cache->GetStats();
  EXPECT_GT(st.evictions, 0u);
  EXPECT_GT(st.misses, 1000u);
  Close();
}

TEST_F(DBHyperClockCacheTest, StrictLimitAndChargedMemtables) {
  // Memtables charged to the same (strict) cache as the blocks: reads still
  // succeed when the cache refuses an insert.
  auto cache = HyperClockCacheOptions(1 << 20, 1024, 0, /*strict=*/true).MakeSharedCache();
  ASSERT_NE(cache, nullptr);
  Options o = WithCache(cache);
  o.write_buffer_manager = std::make_shared<WriteBufferManager>(0, cache);
  Open(o);
  RunAgainstModel(cache, test::RandomSeed());
  Close();
  EXPECT_EQ(0u, cache->GetPinnedUsage());
}

}  // namespace
}  // namespace strata
