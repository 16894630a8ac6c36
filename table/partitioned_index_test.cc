// Partitioned index and filters (kTwoLevelIndexSearch + partition_filters):
// round trips against a std::map model with small partitions, with and
// without the block cache for index/filter blocks, with user keys whose
// versions span blocks (internal-key separators), prefix filters,
// dictionary compression (buffered blocks) and MultiGet; the properties
// written; partitions loaded on demand; damage reported with file and offset.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "base/get_context.h"
#include "strata/cache.h"
#include "strata/env.h"
#include "strata/filter_policy.h"
#include "strata/slice_transform.h"
#include "strata/statistics.h"
#include "table/block.h"
#include "table/block_based_table_builder.h"
#include "table/block_based_table_reader.h"
#include "table/compression.h"
#include "table/meta_blocks.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

struct IkeyLess {
  InternalKeyComparator icmp{BytewiseComparator()};
  bool operator()(const std::string& a, const std::string& b) const {
    return icmp.Compare(a, b) < 0;
  }
};
using Model = std::map<std::string, std::string, IkeyLess>;

std::string IKey(const std::string& user, SequenceNumber seq, ValueType t = kTypeValue) {
  std::string k;
  AppendInternalKey(&k, user, seq, t);
  return k;
}

BlockBasedTableOptions PartitionedOptions() {
  BlockBasedTableOptions t;
  t.block_size = 256;
  t.index_type = BlockBasedTableOptions::IndexType::kTwoLevelIndexSearch;
  t.partition_filters = true;
  t.metadata_block_size = 128;
  t.filter_policy = NewBloomFilterPolicy(10);
  t.block_cache = NewLRUCache(4 << 20);
  return t;
}

class PartitionedTest : public testing::Test {
 protected:
  PartitionedTest() : fs_(NewMemFileSystem()) {}

  void Build(const Model& model, const BlockBasedTableOptions& topts,
             CompressionType compression = kNoCompression, const SliceTransform* prefix = nullptr,
             uint32_t max_dict_bytes = 0) {
    std::unique_ptr<WritableFile> file;
    ASSERT_OK(fs_->NewWritableFile(fname_, FileOptions(), &file));
    TableBuilderOptions bo;
    bo.table_options = topts;
    bo.compression = compression;
    bo.prefix_extractor = prefix;
    bo.compression_opts.max_dict_bytes = max_dict_bytes;
    BlockBasedTableBuilder builder(bo, file.get());
    for (const auto& [k, v] : model) builder.Add(k, v);
    ASSERT_OK(builder.status());
    ASSERT_OK(builder.Finish());
    ASSERT_OK(file->Close());
    props_ = builder.GetTableProperties();
    Open(topts, prefix);
  }

  void Open(const BlockBasedTableOptions& topts, const SliceTransform* prefix = nullptr,
            int level = -1) {
    table_.reset();
    std::unique_ptr<RandomAccessFile> rfile;
    ASSERT_OK(fs_->NewRandomAccessFile(fname_, FileOptions(), &rfile));
    uint64_t size = 0;
    ASSERT_OK(fs_->GetFileSize(fname_, &size));
    TableReaderOptions ro;
    ro.table_options = topts;
    ro.file_name = fname_;
    ro.statistics = stats_.get();
    ro.prefix_extractor = prefix;
    ro.level = level;
    ASSERT_OK(BlockBasedTable::Open(ro, std::move(rfile), size, &table_));
  }

  void CheckIteration(const Model& model) {
    std::unique_ptr<InternalIterator> it(table_->NewIterator(ReadOptions()));
    auto m = model.begin();
    for (it->SeekToFirst(); it->Valid(); it->Next(), ++m) {
      ASSERT_NE(m, model.end());
      ASSERT_EQ(it->key().ToString(), m->first);
      ASSERT_EQ(it->value().ToString(), m->second);
    }
    ASSERT_OK(it->status());
    ASSERT_EQ(m, model.end());
    auto rm = model.rbegin();
    for (it->SeekToLast(); it->Valid(); it->Prev(), ++rm) {
      ASSERT_NE(rm, model.rend());
      ASSERT_EQ(it->key().ToString(), rm->first);
    }
    ASSERT_OK(it->status());
    ASSERT_EQ(rm, model.rend());
    size_t i = 0;
    for (const auto& [k, v] : model) {
      if (i++ % 5 != 0) continue;
      it->Seek(k);
      ASSERT_TRUE(it->Valid());
      ASSERT_EQ(it->key().ToString(), k);
      it->SeekForPrev(k);
      ASSERT_TRUE(it->Valid());
      ASSERT_EQ(it->key().ToString(), k);
      // Between keys: the next one / the previous one.
      const std::string between =
          IKey(ExtractUserKey(k).ToString() + "!", kMaxSequenceNumber, kValueTypeForSeek);
      it->Seek(between);
      auto next = model.lower_bound(between);
      ASSERT_EQ(it->Valid(), next != model.end());
      if (it->Valid()) {
        ASSERT_EQ(it->key().ToString(), next->first);
      }
      it->SeekForPrev(between);
      auto prev = model.upper_bound(between);
      ASSERT_EQ(it->Valid(), prev != model.begin());
      if (it->Valid()) {
        ASSERT_EQ(it->key().ToString(), std::prev(prev)->first);
      }
    }
  }

  // Every user key at its newest version and an absent neighbour.
  void CheckGets(const Model& model) {
    std::map<std::string, std::string> newest;
    for (const auto& [k, v] : model) {
      const std::string user = ExtractUserKey(k).ToString();
      if (newest.count(user) == 0) newest[user] = v;
    }
    ReadOptions ro;
    for (const auto& [user, value] : newest) {
      std::string got;
      GetContext ctx(BytewiseComparator(), user, &got);
      ASSERT_OK(table_->Get(ro, IKey(user, kMaxSequenceNumber, kValueTypeForSeek), &ctx));
      ASSERT_EQ(ctx.state(), GetContext::kFound) << user;
      ASSERT_EQ(got, value);
      const std::string absent = user + "#";
      GetContext actx(BytewiseComparator(), absent, nullptr);
      ASSERT_OK(table_->Get(ro, IKey(absent, kMaxSequenceNumber, kValueTypeForSeek), &actx));
      ASSERT_EQ(actx.state(), GetContext::kNotFound);
    }
  }

  void CheckMultiGet(const Model& model, std::mt19937_64* rng) {
    std::set<std::string> users;
    for (const auto& [k, v] : model) {
      if ((*rng)() % 3 == 0) users.insert(ExtractUserKey(k).ToString());
      if ((*rng)() % 5 == 0) users.insert(ExtractUserKey(k).ToString() + "#");
    }
    std::vector<std::string> user_keys(users.begin(), users.end());
    const size_t n = user_keys.size();
    std::vector<std::string> ikeys(n), values(n), expect(n);
    std::vector<GetContext> contexts, expected;
    contexts.reserve(n);
    expected.reserve(n);
    std::vector<Slice> keys;
    std::vector<GetContext*> ptrs;
    std::vector<Status> statuses(n);
    for (size_t i = 0; i < n; ++i) {
      ikeys[i] = IKey(user_keys[i], kMaxSequenceNumber, kValueTypeForSeek);
      contexts.emplace_back(BytewiseComparator(), user_keys[i], &values[i]);
      expected.emplace_back(BytewiseComparator(), user_keys[i], &expect[i]);
      keys.emplace_back(ikeys[i]);
      ptrs.push_back(&contexts[i]);
    }
    table_->MultiGet(ReadOptions(), n, keys.data(), ptrs.data(), statuses.data());
    for (size_t i = 0; i < n; ++i) {
      ASSERT_OK(statuses[i]);
      ASSERT_OK(table_->Get(ReadOptions(), ikeys[i], &expected[i]));
      ASSERT_EQ(contexts[i].state(), expected[i].state()) << user_keys[i];
      ASSERT_EQ(values[i], expect[i]);
    }
  }

  std::shared_ptr<FileSystem> fs_;
  std::shared_ptr<Statistics> stats_ = CreateDBStatistics();
  const std::string fname_ = "/t/000001.sst";
  std::unique_ptr<BlockBasedTable> table_;
  TableProperties props_;
};

Model SequentialModel(int n, std::mt19937_64* rng) {
  Model model;
  for (int i = 0; i < n; ++i) {
    char buf[32];
    snprintf(buf, sizeof(buf), "key%07d", i * 3);
    model[IKey(buf, 100 + i)] = test::RandomPrintable(rng, (*rng)() % 40);
  }
  return model;
}

TEST_F(PartitionedTest, RoundTripWithAndWithoutCachedMetadata) {
  std::mt19937_64 rng(test::RandomSeed());
  const Model model = SequentialModel(5000, &rng);
  for (const bool cached : {false, true}) {
    for (const bool pin : {false, true}) {
      SCOPED_TRACE(testing::Message() << "cached=" << cached << " pin=" << pin);
      BlockBasedTableOptions t = PartitionedOptions();
      t.cache_index_and_filter_blocks = cached;
      t.pin_top_level_index_and_filter = pin;
      Build(model, t);
      EXPECT_EQ(props_.index_type, 2u);
      EXPECT_GT(props_.index_partitions, 5u);
      EXPECT_GT(props_.top_level_index_size, 0u);
      EXPECT_EQ(props_.index_key_is_user_key, 1u);
      auto read_props = table_->GetTableProperties();
      EXPECT_EQ(read_props->index_partitions, props_.index_partitions);
      EXPECT_EQ(read_props->top_level_index_size, props_.top_level_index_size);
      CheckGets(model);
      CheckIteration(model);
      CheckMultiGet(model, &rng);
      ASSERT_OK(table_->VerifyChecksum());
      // Absent keys are ruled out by the filter partitions.
      EXPECT_GT(stats_->getTickerCount(BLOOM_FILTER_USEFUL), 4000u);
    }
  }
}

TEST_F(PartitionedTest, ResidentMemoryIsTheTopLevelOnly) {
  std::mt19937_64 rng(test::RandomSeed());
  const Model model = SequentialModel(20000, &rng);
  BlockBasedTableOptions flat = PartitionedOptions();
  flat.index_type = BlockBasedTableOptions::IndexType::kBinarySearch;
  flat.partition_filters = false;
  Build(model, flat);
  const size_t flat_mem = table_->ApproximateMemoryUsage();
  BlockBasedTableOptions part = PartitionedOptions();
  part.metadata_block_size = 4096;
  Build(model, part);
  const size_t part_mem = table_->ApproximateMemoryUsage();
  EXPECT_LT(part_mem * 10, flat_mem) << part_mem << " vs " << flat_mem;
  CheckGets(model);
}

TEST_F(PartitionedTest, SequenceSeparatorsAndVersionsAcrossPartitions) {
  // Many versions of few user keys: separators need sequence numbers, and
  // one user key's versions span blocks and partitions.
  std::mt19937_64 rng(test::RandomSeed());
  Model model;
  for (int u = 0; u < 60; ++u) {
    const std::string user = "user" + std::to_string(1000 + u);
    const int versions = u % 7 == 0 ? 120 : 3;
    for (int v = 0; v < versions; ++v) {
      model[IKey(user, 10000 - v)] = test::RandomPrintable(&rng, 20);
    }
  }
  BlockBasedTableOptions t = PartitionedOptions();
  Build(model, t);
  EXPECT_EQ(props_.index_key_is_user_key, 0u);
  EXPECT_GT(props_.index_partitions, 2u);
  CheckGets(model);
  CheckIteration(model);
  CheckMultiGet(model, &rng);
  // Older versions are found at their own sequence numbers.
  for (const auto& [k, v] : model) {
    ParsedInternalKey p;
    ASSERT_OK(ParseInternalKey(k, &p));
    std::string got;
    GetContext ctx(BytewiseComparator(), p.user_key, &got);
    ASSERT_OK(table_->Get(ReadOptions(), IKey(p.user_key.ToString(), p.sequence, kValueTypeForSeek),
                          &ctx));
    ASSERT_EQ(ctx.state(), GetContext::kFound);
    ASSERT_EQ(got, v);
  }
}

TEST_F(PartitionedTest, PrefixFilterPartitions) {
  std::mt19937_64 rng(test::RandomSeed());
  std::unique_ptr<const SliceTransform> prefix(NewFixedPrefixTransform(6));
  Model model;
  for (int i = 0; i < 3000; ++i) {
    char buf[32];
    snprintf(buf, sizeof(buf), "p%04d-%05d", i / 7 * 2, i);
    model[IKey(buf, 10)] = "v" + std::to_string(i);
  }
  for (const bool whole : {true, false}) {
    BlockBasedTableOptions t = PartitionedOptions();
    t.whole_key_filtering = whole;
    Build(model, t, kNoCompression, prefix.get());
    CheckGets(model);
    CheckIteration(model);
    // Every present prefix may match; most absent prefixes (odd numbers)
    // are ruled out.
    int ruled_out = 0;
    for (int p = 0; p < 3000 / 7 * 2; ++p) {
      char buf[32];
      snprintf(buf, sizeof(buf), "p%04d-", p);
      const bool present = p % 2 == 0;
      const bool may = table_->PrefixMayMatch(std::string(buf) + "00000");
      if (present) {
        ASSERT_TRUE(may) << buf;
      }
      if (!present && !may) ++ruled_out;
    }
    EXPECT_GT(ruled_out, 300);
    // A prefix seek finds the first key of each present prefix.
    ReadOptions ro;
    std::unique_ptr<InternalIterator> it(table_->NewIterator(ro));
    for (int p = 0; p < 3000 / 7 * 2; p += 2) {
      char buf[32];
      snprintf(buf, sizeof(buf), "p%04d-", p);
      it->Seek(IKey(buf, kMaxSequenceNumber, kValueTypeForSeek));
      ASSERT_TRUE(it->Valid()) << buf;
      ASSERT_TRUE(it->key().starts_with(buf));
    }
  }
}

TEST_F(PartitionedTest, DictionaryCompressionBuffersBlocks) {
  if (!CompressionTypeSupported(kZSTD)) GTEST_SKIP() << "no zstd";
  std::mt19937_64 rng(test::RandomSeed());
  const Model model = SequentialModel(4000, &rng);
  BlockBasedTableOptions t = PartitionedOptions();
  Build(model, t, kZSTD, nullptr, 4096);
  const auto filter_entries = props_.num_filter_entries;
  const auto partitions = props_.index_partitions;
  CheckGets(model);
  CheckIteration(model);
  // The same layout of partitions as without buffering.
  Build(model, t, kZSTD);
  EXPECT_EQ(props_.num_filter_entries, filter_entries);
  EXPECT_EQ(props_.index_partitions, partitions);
}

TEST_F(PartitionedTest, IndexOnlyAndFullFilter) {
  std::mt19937_64 rng(test::RandomSeed());
  const Model model = SequentialModel(3000, &rng);
  BlockBasedTableOptions t = PartitionedOptions();
  t.partition_filters = false;  // a full filter beside a partitioned index
  for (const bool cached : {false, true}) {
    t.cache_index_and_filter_blocks = cached;
    Build(model, t, kSnappyCompression);
    CheckGets(model);
    CheckIteration(model);
    CheckMultiGet(model, &rng);
    ASSERT_OK(table_->VerifyChecksum());
  }
}

TEST_F(PartitionedTest, LevelZeroPartitionsArePinned) {
  std::mt19937_64 rng(test::RandomSeed());
  const Model model = SequentialModel(5000, &rng);
  BlockBasedTableOptions t = PartitionedOptions();
  t.cache_index_and_filter_blocks = true;
  t.pin_l0_filter_and_index_blocks_in_cache = true;
  t.block_cache = NewLRUCache(16 << 10);  // far smaller than the metadata
  Build(model, t);
  for (const int level : {0, 1}) {
    SCOPED_TRACE(level);
    Open(t, nullptr, level);
    const uint64_t index_miss = stats_->getTickerCount(BLOCK_CACHE_INDEX_MISS);
    const uint64_t filter_miss = stats_->getTickerCount(BLOCK_CACHE_FILTER_MISS);
    CheckGets(model);
    const uint64_t index_after = stats_->getTickerCount(BLOCK_CACHE_INDEX_MISS) - index_miss;
    const uint64_t filter_after = stats_->getTickerCount(BLOCK_CACHE_FILTER_MISS) - filter_miss;
    if (level == 0) {
      EXPECT_EQ(index_after, 0u);
      EXPECT_EQ(filter_after, 0u);
    } else {
      // Evicted by the data blocks, read again.
      EXPECT_GT(index_after, 0u);
      EXPECT_GT(filter_after, 0u);
    }
  }
}

TEST_F(PartitionedTest, DamagedPartitionIsReportedWithOffset) {
  std::mt19937_64 rng(test::RandomSeed());
  const Model model = SequentialModel(3000, &rng);
  BlockBasedTableOptions t = PartitionedOptions();
  t.block_cache.reset();
  t.no_block_cache = true;
  Build(model, t);
  // NewIndexIterator lists the data blocks of all partitions.
  {
    std::unique_ptr<InternalIterator> entries(table_->NewIndexIterator());
    size_t n = 0;
    for (entries->SeekToFirst(); entries->Valid(); entries->Next()) ++n;
    ASSERT_OK(entries->status());
    EXPECT_EQ(n, props_.num_data_blocks);
  }
  // Find the first index partition through the top-level index and flip a
  // byte in it.
  std::string top_contents;
  ASSERT_OK(table_->ReadBlockContents(table_->footer().index_handle(), &top_contents));
  Block top{Slice(top_contents)};
  BlockIter top_it;
  top.InitIndexIterator(BytewiseComparator(), true, &top_it);
  top_it.SeekToFirst();
  ASSERT_TRUE(top_it.Valid());
  const BlockHandle h = top_it.handle();
  std::string contents;
  ASSERT_OK(ReadFileToString(fs_.get(), fname_, &contents));
  contents[h.offset() + 3] ^= 0x40;
  ASSERT_OK(WriteStringToFile(fs_.get(), contents, fname_, false));
  Open(t);
  Status s = table_->VerifyChecksum();
  ASSERT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(s.ToString().find(std::to_string(h.offset())), std::string::npos) << s.ToString();
  EXPECT_NE(s.ToString().find(fname_), std::string::npos);
  std::unique_ptr<InternalIterator> it(table_->NewIterator(ReadOptions()));
  it->SeekToFirst();
  EXPECT_FALSE(it->Valid());
  EXPECT_TRUE(it->status().IsCorruption());
}

}  // namespace
}  // namespace strata
