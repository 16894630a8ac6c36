// The table-format options of issue 19 together in one DB: every
// combination of format_version (5, 6, 7), index layout (binary search, or
// two-level with partitioned filters and small partitions), filter (Bloom,
// Ribbon) and where index and filter blocks live (held by the reader, or in
// the block cache; with memory_budget, charged to it) writes random keys
// through flushes and compactions and reads them back against a std::map:
// Get of present and absent keys, MultiGet, iteration both ways and seeks,
// before and after a reopen. The filters must be used (absent keys rejected
// by them), and the table properties must say what was written.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "strata/db.h"
#include "strata/filter_policy.h"
#include "strata/options.h"
#include "strata/statistics.h"
#include "strata/table.h"
#include "strata/table_properties.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

enum class Placement { kReader, kCache, kBudget };

using Combination =
    std::tuple<uint32_t /*format_version*/, bool /*partitioned*/, bool /*ribbon*/, Placement>;

std::string Name(const testing::TestParamInfo<Combination>& info) {
  const auto& [fv, partitioned, ribbon, placement] = info.param;
  std::string name = "fv" + std::to_string(fv);
  name += partitioned ? "_partitioned" : "_flat";
  name += ribbon ? "_ribbon" : "_bloom";
  name += placement == Placement::kReader  ? "_reader"
          : placement == Placement::kCache ? "_cache"
                                           : "_budget";
  return name;
}

class TableFormatMatrixTest : public testing::TestWithParam<Combination> {
 protected:
  Options MakeOptions() {
    const auto& [fv, partitioned, ribbon, placement] = GetParam();
    Options o;
    o.create_if_missing = true;
    o.write_buffer_size = 256 << 10;  // several flushes and compactions
    o.target_file_size_base = 256 << 10;
    o.max_bytes_for_level_base = 1 << 20;
    o.statistics = stats_;
    BlockBasedTableOptions t;
    t.format_version = fv;
    t.block_size = 512;
    if (partitioned) {
      t.index_type = BlockBasedTableOptions::IndexType::kTwoLevelIndexSearch;
      t.partition_filters = true;
      t.metadata_block_size = 256;  // many partitions per table
    }
    // bloom_before_level -1: every table gets Ribbon.
    t.filter_policy = ribbon ? NewRibbonFilterPolicy(10, -1) : NewBloomFilterPolicy(10);
    if (placement != Placement::kReader) {
      t.cache_index_and_filter_blocks = true;
      t.block_cache = NewLRUCache(1 << 20);
    }
    if (placement == Placement::kBudget) {
      t.block_cache = nullptr;  // the budget's cache is the DB's
      o.memory_budget = 16 << 20;
    }
    o.table_factory = NewBlockBasedTableFactory(t);
    return o;
  }

  void Verify(DB* db, const std::string& when) {
    SCOPED_TRACE(when);
    std::string value;
    for (const auto& [k, v] : model_) {
      ASSERT_OK(db->Get(ReadOptions(), k, &value));
      ASSERT_EQ(value, v) << k;
    }
    // Absent keys between present ones: the filters reject most.
    const uint64_t useful_before = stats_->getTickerCount(BLOOM_FILTER_USEFUL);
    for (int i = 0; i < 2000; ++i) {
      const std::string k = "absent" + std::to_string(i);
      ASSERT_TRUE(db->Get(ReadOptions(), k, &value).IsNotFound()) << k;
    }
    EXPECT_GT(stats_->getTickerCount(BLOOM_FILTER_USEFUL), useful_before + 1000);

    // MultiGet of present and absent keys.
    std::vector<std::string> keys;
    for (const auto& [k, v] : model_) {
      if (keys.size() % 3 == 0) keys.push_back(k + "x");  // absent
      keys.push_back(k);
      if (keys.size() >= 300) break;
    }
    std::vector<Slice> slices(keys.begin(), keys.end());
    std::vector<std::string> values;
    const std::vector<Status> st = db->MultiGet(ReadOptions(), slices, &values);
    ASSERT_EQ(st.size(), keys.size());
    for (size_t i = 0; i < keys.size(); ++i) {
      auto it = model_.find(keys[i]);
      if (it == model_.end()) {
        EXPECT_TRUE(st[i].IsNotFound()) << keys[i];
      } else {
        ASSERT_OK(st[i]);
        EXPECT_EQ(values[i], it->second) << keys[i];
      }
    }

    // Iteration both ways, and seeks to keys present and absent.
    std::unique_ptr<Iterator> it(db->NewIterator(ReadOptions()));
    auto m = model_.begin();
    for (it->SeekToFirst(); it->Valid(); it->Next(), ++m) {
      ASSERT_NE(m, model_.end());
      ASSERT_EQ(it->key().ToString(), m->first);
      ASSERT_EQ(it->value().ToString(), m->second);
    }
    ASSERT_OK(it->status());
    ASSERT_EQ(m, model_.end());
    auto r = model_.rbegin();
    for (it->SeekToLast(); it->Valid(); it->Prev(), ++r) {
      ASSERT_NE(r, model_.rend());
      ASSERT_EQ(it->key().ToString(), r->first);
    }
    ASSERT_OK(it->status());
    ASSERT_EQ(r, model_.rend());
    std::mt19937_64 rng(7);
    for (int i = 0; i < 300; ++i) {
      const std::string target = test::RandomPrintable(&rng, 6);
      it->Seek(target);
      auto want = model_.lower_bound(target);
      ASSERT_EQ(it->Valid(), want != model_.end()) << target;
      if (it->Valid()) {
        ASSERT_EQ(it->key().ToString(), want->first) << target;
      }
      it->SeekForPrev(target);
      auto up = model_.upper_bound(target);
      const bool has_prev = up != model_.begin();
      ASSERT_EQ(it->Valid(), has_prev) << target;
      if (has_prev) {
        ASSERT_EQ(it->key().ToString(), std::prev(up)->first) << target;
      }
    }
  }

  std::shared_ptr<Statistics> stats_ = CreateDBStatistics();
  std::map<std::string, std::string> model_;
};

TEST_P(TableFormatMatrixTest, WritesAndReadsEveryCombination) {
  const auto& [fv, partitioned, ribbon, placement] = GetParam();
  test::TempDir dir("format_matrix");
  const std::string path = dir.path() + "/db";
  const Options options = MakeOptions();
  std::unique_ptr<DB> db;
  ASSERT_OK(DB::Open(options, path, &db));
  std::mt19937_64 rng(test::RandomSeed());
  for (int i = 0; i < 12000; ++i) {
    const std::string k = test::RandomPrintable(&rng, 6 + rng() % 10);
    const std::string v = test::RandomPrintable(&rng, 20 + rng() % 60);
    if (rng() % 10 == 0 && !model_.empty()) {
      auto it = model_.lower_bound(k);
      if (it != model_.end()) {
        ASSERT_OK(db->Delete(WriteOptions(), it->first));
        model_.erase(it);
        continue;
      }
    }
    ASSERT_OK(db->Put(WriteOptions(), k, v));
    model_[k] = v;
  }
  ASSERT_OK(db->Flush(FlushOptions()));
  ASSERT_NO_FATAL_FAILURE(Verify(db.get(), "after flushes"));
  ASSERT_OK(db->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  ASSERT_NO_FATAL_FAILURE(Verify(db.get(), "after a full compaction"));

  // The tables say what was asked for.
  TablePropertiesCollection props;
  ASSERT_OK(db->GetPropertiesOfAllTables(&props));
  ASSERT_FALSE(props.empty());
  uint64_t most_partitions = 0;
  for (const auto& [file, p] : props) {
    EXPECT_EQ(p->index_type, partitioned ? 2u : 0u) << file;
    if (partitioned) {
      EXPECT_GE(p->index_partitions, 1u) << file;  // a small table may have one
    }
    most_partitions = std::max(most_partitions, p->index_partitions);
    EXPECT_EQ(p->filter_policy_name,
              ribbon ? std::string("ribbonfilter") : std::string("bloomfilter"))
        << file;
  }
  if (partitioned) {
    EXPECT_GT(most_partitions, 1u);
  }
  if (placement == Placement::kBudget) {
    uint64_t usage = 0;
    ASSERT_TRUE(db->GetIntProperty("rocksdb.block-cache-usage", &usage));
    EXPECT_LE(usage, options.memory_budget);
  }

  ASSERT_OK(db->Close());
  db.reset();
  ASSERT_OK(DB::Open(options, path, &db));
  ASSERT_NO_FATAL_FAILURE(Verify(db.get(), "after a reopen"));
  ASSERT_OK(db->VerifyChecksum());
  ASSERT_OK(db->Close());
  (void)fv;
}

INSTANTIATE_TEST_SUITE_P(
    All, TableFormatMatrixTest,
    testing::Combine(testing::Values(5u, 6u, 7u), testing::Bool(), testing::Bool(),
                     testing::Values(Placement::kReader, Placement::kCache, Placement::kBudget)),
    Name);

}  // namespace
}  // namespace strata
