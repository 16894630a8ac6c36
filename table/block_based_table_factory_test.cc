#include "table/block_based_table_factory.h"

#include <memory>

#include "strata/cache.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

TEST(BlockBasedTableFactoryTest, FillsInDefaultCacheOnce) {
  std::shared_ptr<TableFactory> f = NewBlockBasedTableFactory();
  ASSERT_NE(f, nullptr);
  EXPECT_STREQ(f->Name(), "BlockBasedTable");
  const std::shared_ptr<Cache>& cache = f->table_options().block_cache;
  ASSERT_NE(cache, nullptr);
  EXPECT_EQ(cache->GetCapacity(), size_t{32} << 20);
  // The same cache every time; another factory gets its own.
  EXPECT_EQ(f->table_options().block_cache, cache);
  EXPECT_NE(NewBlockBasedTableFactory()->table_options().block_cache, cache);
  EXPECT_EQ(f->table_options().block_size, BlockBasedTableOptions().block_size);
}

TEST(BlockBasedTableFactoryTest, KeepsGivenOptionsAndCache) {
  BlockBasedTableOptions o;
  o.block_size = 16 * 1024;
  o.block_cache = NewLRUCache(1 << 20);
  auto f = NewBlockBasedTableFactory(o);
  EXPECT_EQ(f->table_options().block_cache, o.block_cache);
  EXPECT_EQ(f->table_options().block_size, 16u * 1024);
}

TEST(BlockBasedTableFactoryTest, NoBlockCacheMeansNone) {
  BlockBasedTableOptions o;
  o.no_block_cache = true;
  EXPECT_EQ(NewBlockBasedTableFactory(o)->table_options().block_cache, nullptr);
  o.block_cache = NewLRUCache(1 << 20);
  EXPECT_EQ(NewBlockBasedTableFactory(o)->table_options().block_cache, nullptr);
}

TEST(BlockBasedTableFactoryTest, NullFactoryGivesSharedDefaults) {
  const BlockBasedTableOptions& a = GetBlockBasedTableOptions(nullptr);
  const BlockBasedTableOptions& b = GetBlockBasedTableOptions(nullptr);
  EXPECT_EQ(&a, &b);
  EXPECT_NE(a.block_cache, nullptr);
  EXPECT_EQ(a.format_version, 5u);
  auto f = NewBlockBasedTableFactory();
  EXPECT_EQ(&GetBlockBasedTableOptions(f.get()), &f->table_options());
}

}  // namespace
}  // namespace strata
