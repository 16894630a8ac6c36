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
