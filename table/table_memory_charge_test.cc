// Issue 19: a table builder charges its filter construction and its
// compression-dictionary sample buffer to the block cache
// (BlockBasedTableOptions::cache_usage_options), and releases the charges.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <string>

#include "base/dbformat.h"
#include "cache/cache_reservation_manager.h"
#include "strata/cache.h"
#include "strata/filter_policy.h"
#include "strata/table.h"
#include "table/block_based_table_builder.h"
#include "table/compression.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

constexpr size_t kDummy = CacheReservationManager::kSizeDummyEntry;

std::string Key(int i) {
  char buf[16];
  snprintf(buf, sizeof(buf), "k%08d", i);
  std::string k;
  AppendInternalKey(&k, buf, 1, kTypeValue);
  return k;
}

size_t Charged(const std::shared_ptr<Cache>& cache, CacheEntryRole role) {
  return CacheReservationManager::ChargedBytes(cache.get(), role);
}

class TableMemoryChargeTest : public testing::Test {
 protected:
  std::shared_ptr<FileSystem> fs_ = NewMemFileSystem();
};

TEST_F(TableMemoryChargeTest, FilterConstructionChargedWhileBuilding) {
  std::shared_ptr<Cache> cache = NewLRUCache(64 << 20);
  std::unique_ptr<WritableFile> file;
  ASSERT_OK(fs_->NewWritableFile("/t.sst", FileOptions(), &file));
  TableBuilderOptions bo;
  bo.table_options.block_cache = cache;
  bo.table_options.filter_policy = NewBloomFilterPolicy(10);
  bo.table_options.cache_usage_options.options_overrides[CacheEntryRole::kFilterConstruction]
      .charged = CacheEntryRoleOptions::Decision::kEnabled;
  {
    BlockBasedTableBuilder builder(bo, file.get());
    const int n = 100000;
    for (int i = 0; i < n; ++i) builder.Add(Key(i), "v");
    // 8 bytes of hash per key, in whole dummy entries.
    const size_t want = (n * sizeof(uint64_t) + kDummy - 1) / kDummy * kDummy;
    EXPECT_EQ(Charged(cache, CacheEntryRole::kFilterConstruction), want);
    EXPECT_EQ(cache->GetUsage(), want);
    ASSERT_OK(builder.Finish());
    EXPECT_GT(builder.GetTableProperties().filter_size, 0u);
    EXPECT_EQ(Charged(cache, CacheEntryRole::kFilterConstruction), 0u);
  }
  EXPECT_EQ(cache->GetUsage(), 0u);
}

// Partitioned filters: the open partition's hashes and the finished
// partitions (held until Finish writes them) are charged, and released once
// the filter is written.
TEST_F(TableMemoryChargeTest, PartitionedFilterConstructionCharged) {
  std::shared_ptr<Cache> cache = NewLRUCache(64 << 20);
  std::unique_ptr<WritableFile> file;
  ASSERT_OK(fs_->NewWritableFile("/p.sst", FileOptions(), &file));
  TableBuilderOptions bo;
  bo.table_options.block_cache = cache;
  bo.table_options.filter_policy = NewBloomFilterPolicy(10);
  bo.table_options.index_type = BlockBasedTableOptions::IndexType::kTwoLevelIndexSearch;
  bo.table_options.partition_filters = true;
  bo.table_options.metadata_block_size = 4096;
  bo.table_options.cache_usage_options.options_overrides[CacheEntryRole::kFilterConstruction]
      .charged = CacheEntryRoleOptions::Decision::kEnabled;
  {
    BlockBasedTableBuilder builder(bo, file.get());
    const int n = 400000;
    size_t max_charged = 0;
    for (int i = 0; i < n; ++i) {
      builder.Add(Key(i), "v");
      if (i % 1000 == 999) {
        const size_t c = Charged(cache, CacheEntryRole::kFilterConstruction);
        EXPECT_GE(c, max_charged) << "the charge only grows while building";
        max_charged = c;
      }
    }
    // ~10 bits a key of finished partitions: 400k keys hold ~500 KB of
    // filters, more than one dummy entry, and never more than the hashes
    // of every key would take.
    EXPECT_GE(max_charged, 2 * kDummy);
    EXPECT_LE(max_charged, (n * sizeof(uint64_t) + kDummy - 1) / kDummy * kDummy);
    ASSERT_OK(builder.Finish());
    EXPECT_GT(builder.GetTableProperties().filter_size, 0u);
    EXPECT_GE(max_charged, builder.GetTableProperties().filter_size / 2);
    EXPECT_EQ(Charged(cache, CacheEntryRole::kFilterConstruction), 0u);
  }
  EXPECT_EQ(cache->GetUsage(), 0u);
}

// memory_budget's charge of a builder's working memory (kMisc): at least
// the output file's write buffer from the start, growing with the index,
// released by Finish; none without charge_working_memory.
TEST_F(TableMemoryChargeTest, WorkingMemoryChargedUnderABudget) {
  for (bool partitioned : {false, true}) {
    SCOPED_TRACE(partitioned ? "partitioned index" : "flat index");
    std::shared_ptr<Cache> cache = NewLRUCache(64 << 20);
    std::unique_ptr<WritableFile> file;
    ASSERT_OK(fs_->NewWritableFile("/w.sst", FileOptions(), &file));
    TableBuilderOptions bo;
    bo.table_options.block_cache = cache;
    bo.table_options.block_size = 256;  // many blocks: a large index
    if (partitioned) {
      bo.table_options.index_type = BlockBasedTableOptions::IndexType::kTwoLevelIndexSearch;
      bo.table_options.metadata_block_size = 4096;
    }
    bo.charge_working_memory = true;
    bo.file_buffer_bytes = 1 << 20;
    BlockBasedTableBuilder builder(bo, file.get());
    EXPECT_EQ(Charged(cache, CacheEntryRole::kMisc), 5 * kDummy) << "1 MiB write buffer";
    const int n = 200000;
    for (int i = 0; i < n; ++i) builder.Add(Key(i), "v");
    // 200k keys in 256-byte blocks: ~15k index entries of ~20 bytes each
    // (both key forms), over a dummy entry beyond the write buffer.
    EXPECT_GE(Charged(cache, CacheEntryRole::kMisc), 6 * kDummy);
    EXPECT_LE(Charged(cache, CacheEntryRole::kMisc), 12 * kDummy);
    ASSERT_OK(builder.Finish());
    EXPECT_EQ(Charged(cache, CacheEntryRole::kMisc), 0u);
    EXPECT_EQ(cache->GetUsage(), 0u);
  }
  // Not asked: nothing charged.
  std::shared_ptr<Cache> cache = NewLRUCache(64 << 20);
  std::unique_ptr<WritableFile> file;
  ASSERT_OK(fs_->NewWritableFile("/x.sst", FileOptions(), &file));
  TableBuilderOptions bo;
  bo.table_options.block_cache = cache;
  bo.file_buffer_bytes = 1 << 20;
  BlockBasedTableBuilder builder(bo, file.get());
  for (int i = 0; i < 1000; ++i) builder.Add(Key(i), "v");
  EXPECT_EQ(cache->GetUsage(), 0u);
  ASSERT_OK(builder.Finish());
}

TEST_F(TableMemoryChargeTest, FilterConstructionNotChargedByDefault) {
  std::shared_ptr<Cache> cache = NewLRUCache(64 << 20);
  std::unique_ptr<WritableFile> file;
  ASSERT_OK(fs_->NewWritableFile("/t.sst", FileOptions(), &file));
  TableBuilderOptions bo;
  bo.table_options.block_cache = cache;
  bo.table_options.filter_policy = NewBloomFilterPolicy(10);
  BlockBasedTableBuilder builder(bo, file.get());
  for (int i = 0; i < 100000; ++i) builder.Add(Key(i), "v");
  EXPECT_EQ(cache->GetUsage(), 0u);
  ASSERT_OK(builder.Finish());
}

TEST_F(TableMemoryChargeTest, DictionaryBufferChargedByDefaultAndCutShortByAStrictCache) {
  CompressionType type = kNoCompression;
  for (CompressionType t : {kZSTD, kLZ4Compression, kZlibCompression}) {
    if (CompressionTypeSupported(t) && CompressionTypeUsesDictionary(t)) {
      type = t;
      break;
    }
  }
  if (type == kNoCompression) GTEST_SKIP() << "no dictionary compression in this build";
  const std::string value(100, 'x');
  for (bool strict : {false, true}) {
    std::shared_ptr<Cache> cache = NewLRUCache(strict ? (1 << 20) : (64 << 20), 0, strict);
    std::unique_ptr<WritableFile> file;
    ASSERT_OK(fs_->NewWritableFile("/d.sst", FileOptions(), &file));
    TableBuilderOptions bo;
    bo.table_options.block_cache = cache;
    bo.compression = type;
    bo.compression_opts.max_dict_bytes = 16 << 10;
    BlockBasedTableBuilder builder(bo, file.get());
    const int n = 40000;  // ~4.5 MB of blocks, all buffered (no limit)
    for (int i = 0; i < n; ++i) builder.Add(Key(i), value);
    const size_t charged = Charged(cache, CacheEntryRole::kCompressionDictionaryBuildingBuffer);
    if (strict) {
      // The cache could not take the buffer: buffering ended, charge gone.
      EXPECT_EQ(charged, 0u);
    } else {
      EXPECT_GE(charged, size_t{4} << 20);
      EXPECT_EQ(cache->GetUsage(), charged);
    }
    ASSERT_OK(builder.Finish());
    EXPECT_EQ(Charged(cache, CacheEntryRole::kCompressionDictionaryBuildingBuffer), 0u);
    EXPECT_GT(builder.GetTableProperties().num_data_blocks, 0u);
  }
}

}  // namespace
}  // namespace strata
