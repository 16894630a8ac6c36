// Round trips through BlockBasedTableBuilder and BlockBasedTable: every
// compression x checksum, block and index shapes, filters, the block cache,
// point lookups and iterators in both directions against a std::map model.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "base/merge_context.h"
#include "strata/cache.h"
#include "strata/env.h"
#include "strata/filter_policy.h"
#include "strata/merge_operator.h"
#include "strata/statistics.h"
#include "table/block_based_table_builder.h"
#include "table/block_based_table_reader.h"
#include "table/compression.h"
#include "table/meta_blocks.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

// The model: internal key -> value, ordered like the table.
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

class TableTest : public testing::Test {
 protected:
  TableTest() : fs_(NewMemFileSystem()) {}

  // Writes `model` as a table to fname and opens it.
  void Build(const Model& model, const BlockBasedTableOptions& topts,
             CompressionType compression = kNoCompression) {
    std::unique_ptr<WritableFile> file;
    ASSERT_OK(fs_->NewWritableFile(fname_, FileOptions(), &file));
    TableBuilderOptions bo;
    bo.table_options = topts;
    bo.compression = compression;
    BlockBasedTableBuilder builder(bo, file.get());
    for (const auto& [k, v] : model) builder.Add(k, v);
    for (const auto& t : tombstones_) builder.AddRangeTombstone(t.first, 7, t.second);
    ASSERT_OK(builder.status());
    ASSERT_OK(builder.Finish());
    ASSERT_EQ(builder.NumEntries(), model.size() + tombstones_.size());
    ASSERT_OK(file->Close());
    uint64_t size = 0;
    ASSERT_OK(fs_->GetFileSize(fname_, &size));
    ASSERT_EQ(size, builder.FileSize());
    props_written_ = builder.GetTableProperties();
    Open(topts);
  }

  void Open(const BlockBasedTableOptions& topts, Statistics* stats = nullptr) {
    table_.reset();
    std::unique_ptr<RandomAccessFile> rfile;
    ASSERT_OK(fs_->NewRandomAccessFile(fname_, FileOptions(), &rfile));
    uint64_t size = 0;
    ASSERT_OK(fs_->GetFileSize(fname_, &size));
    TableReaderOptions ro;
    ro.table_options = topts;
    ro.file_name = fname_;
    ro.statistics = stats;
    ASSERT_OK(BlockBasedTable::Open(ro, std::move(rfile), size, &table_));
  }

  // Every entry forward and backward, and Seek/SeekForPrev at each key.
  void CheckIteration(const Model& model, const ReadOptions& ropts = ReadOptions()) {
    std::unique_ptr<InternalIterator> it(table_->NewIterator(ropts));
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
      if (i++ % 7 != 0) continue;
      it->Seek(k);
      ASSERT_TRUE(it->Valid());
      ASSERT_EQ(it->key().ToString(), k);
      it->SeekForPrev(k);
      ASSERT_TRUE(it->Valid());
      ASSERT_EQ(it->key().ToString(), k);
    }
  }

  std::shared_ptr<FileSystem> fs_;
  const std::string fname_ = "/t/000001.sst";
  std::unique_ptr<BlockBasedTable> table_;
  TableProperties props_written_;
  std::vector<std::pair<std::string, std::string>> tombstones_;
};

Model RandomModel(std::mt19937_64* rng, int n, size_t value_max) {
  Model model;
  SequenceNumber seq = 1000000;
  for (int i = 0; i < n; ++i) {
    const std::string user = "key" + std::to_string((*rng)() % (n * 4));
    const int versions = (*rng)() % 8 == 0 ? 3 : 1;
    for (int v = 0; v < versions; ++v) {
      const ValueType t = (*rng)() % 10 == 0 ? kTypeDeletion : kTypeValue;
      model[IKey(user, --seq, t)] =
          t == kTypeValue ? test::RandomPrintable(rng, (*rng)() % (value_max + 1)) : "";
    }
  }
  return model;
}

// Looks up every user key of the model at the newest sequence and at a few
// older ones, comparing with what the model says is visible.
constexpr char kDeletedMarker[] = "<deleted>";

void CheckGets(BlockBasedTable* table, const Model& model) {
  std::map<std::string, std::vector<std::pair<SequenceNumber, std::string>>> by_user;
  for (const auto& [k, v] : model) {
    ParsedInternalKey p;
    ASSERT_OK(ParseInternalKey(k, &p));
    by_user[p.user_key.ToString()].push_back(
        {p.sequence, p.type == kTypeValue ? v : kDeletedMarker});
  }
  ReadOptions ro;
  for (const auto& [user, versions] : by_user) {
    // versions are newest first; look up at each version's sequence.
    for (size_t i = 0; i < versions.size(); ++i) {
      std::string value;
      GetContext ctx(BytewiseComparator(), user, &value);
      ASSERT_OK(table->Get(ro, IKey(user, versions[i].first, kValueTypeForSeek), &ctx));
      if (versions[i].second == kDeletedMarker) {
        ASSERT_EQ(ctx.state(), GetContext::kDeleted) << user;
      } else {
        ASSERT_EQ(ctx.state(), GetContext::kFound) << user;
        ASSERT_EQ(value, versions[i].second);
      }
    }
    // Below the oldest version: nothing.
    if (versions.back().first > 0) {
      GetContext ctx(BytewiseComparator(), user, nullptr);
      ASSERT_OK(table->Get(ro, IKey(user, versions.back().first - 1, kValueTypeForSeek), &ctx));
      ASSERT_EQ(ctx.state(), GetContext::kNotFound) << user;
    }
    // A key just after this one (absent).
    const std::string absent_key = user + "~";  // the context keeps a view of it
    GetContext absent(BytewiseComparator(), absent_key, nullptr);
    ASSERT_OK(table->Get(ro, IKey(absent_key, kMaxSequenceNumber, kValueTypeForSeek), &absent));
    ASSERT_EQ(absent.state(), GetContext::kNotFound);
  }
}

// Every compression x checksum, hash index and index shapes.
class TableFormatTest
    : public TableTest,
      public testing::WithParamInterface<std::tuple<CompressionType, ChecksumType, bool, int>> {};

TEST_P(TableFormatTest, RoundTrip) {
  const auto [compression, checksum, hash_index, index_restart] = GetParam();
  const uint64_t seed = test::RandomSeed();
  std::mt19937_64 rng(seed);
  Model model = RandomModel(&rng, 1500, 120);
  BlockBasedTableOptions topts;
  topts.block_size = 512;
  topts.checksum = checksum;
  topts.index_block_restart_interval = index_restart;
  topts.filter_policy = NewBloomFilterPolicy(10);
  topts.block_cache = NewLRUCache(1 << 20);
  if (hash_index) {
    topts.data_block_index_type =
        BlockBasedTableOptions::DataBlockIndexType::kDataBlockBinaryAndHash;
  }
  Build(model, topts, compression);
  auto props = table_->GetTableProperties();
  EXPECT_EQ(props->num_entries, model.size());
  EXPECT_GT(props->num_data_blocks, 10u);
  EXPECT_EQ(props->compression_name, CompressionTypeName(compression));
  EXPECT_EQ(props->comparator_name, "leveldb.BytewiseComparator");
  EXPECT_EQ(props->filter_policy_name, "bloomfilter");
  EXPECT_EQ(props->index_value_is_delta_encoded, 1u);
  EXPECT_EQ(table_->footer().checksum_type(), checksum);
  CheckIteration(model);
  CheckGets(table_.get(), model);
  ASSERT_OK(table_->VerifyChecksum());
}

INSTANTIATE_TEST_SUITE_P(
    AllFormats, TableFormatTest,
    testing::Combine(testing::Values(kNoCompression, kSnappyCompression, kLZ4Compression, kZSTD),
                     testing::Values(kNoChecksum, kCRC32c, kxxHash, kxxHash64, kXXH3),
                     testing::Values(false, true), testing::Values(1, 4)));

TEST_F(TableTest, RestartIntervalsAndBlockSizes) {
  std::mt19937_64 rng(test::RandomSeed());
  Model model = RandomModel(&rng, 800, 300);
  for (int restart : {1, 2, 16, 64}) {
    for (size_t block_size : {size_t{1}, size_t{256}, size_t{4096}, size_t{65536}}) {
      BlockBasedTableOptions topts;
      topts.block_restart_interval = restart;
      topts.block_size = block_size;
      Build(model, topts, kSnappyCompression);
      CheckIteration(model);
      CheckGets(table_.get(), model);
    }
  }
}

TEST_F(TableTest, UserKeySpanningBlocksUsesInternalKeyIndex) {
  // Many versions of one user key: they cannot all fit in one block.
  Model model;
  for (int i = 0; i < 300; ++i) model[IKey("same", 1000 - i)] = std::string(50, 'a' + i % 26);
  model[IKey("after", 5)] = "x";
  model[IKey("zzz", 5)] = "y";
  BlockBasedTableOptions topts;
  topts.block_size = 256;
  Build(model, topts);
  EXPECT_EQ(table_->GetTableProperties()->index_key_is_user_key, 0u);
  CheckIteration(model);
  CheckGets(table_.get(), model);

  // Without a spanning user key the index holds user keys.
  Model distinct;
  for (int i = 0; i < 300; ++i) distinct[IKey("k" + std::to_string(1000 + i), 9)] = "v";
  Build(distinct, topts);
  EXPECT_EQ(table_->GetTableProperties()->index_key_is_user_key, 1u);
  CheckIteration(distinct);
  CheckGets(table_.get(), distinct);
}

// Joins the operands (and base) with ','.
class JoinMerge final : public MergeOperator {
 public:
  bool FullMergeV2(const MergeOperationInput& in, MergeOperationOutput* out) const override {
    if (in.existing_value != nullptr) out->new_value = in.existing_value->ToString();
    for (const Slice& op : in.operand_list) {
      if (!out->new_value.empty()) out->new_value += ",";
      out->new_value += op.ToString();
    }
    return true;
  }
  const char* Name() const override { return "JoinMerge"; }
};

// MultiGet answers every key exactly as one Get per key does, including
// keys whose versions (merge operands) straddle data blocks, keys sharing a
// block, absent keys and keys the filter rules out.
TEST_F(TableTest, MultiGetMatchesGet) {
  std::mt19937_64 rng(test::RandomSeed());
  Model model;
  for (int i = 0; i < 400; ++i) {
    const std::string user = "k" + std::to_string(1000 + 2 * i);
    const int versions = i % 37 == 0 ? 40 : 1 + static_cast<int>(rng() % 3);
    SequenceNumber seq = 5000;
    for (int v = 0; v < versions; ++v) {
      const uint64_t r = rng() % 10;
      const ValueType t = r < 5 ? kTypeMerge : (r < 9 ? kTypeValue : kTypeDeletion);
      model[IKey(user, --seq, t)] = t == kTypeDeletion ? "" : "v" + std::to_string(v);
    }
  }
  BlockBasedTableOptions topts;
  topts.block_size = 256;
  topts.filter_policy = NewBloomFilterPolicy(10);
  Build(model, topts);
  JoinMerge op;
  ReadOptions ro;
  for (int round = 0; round < 20; ++round) {
    // A sorted batch of present and absent user keys.
    std::set<std::string> users;
    for (int j = 0; j < 64; ++j) users.insert("k" + std::to_string(1000 + rng() % 820));
    std::vector<std::string> user_keys(users.begin(), users.end());
    const size_t n = user_keys.size();
    std::vector<std::string> ikeys(n), values(n), expect_values(n);
    std::vector<MergeContext> mcs(n), expect_mcs(n);
    std::vector<GetContext> contexts, expected;
    contexts.reserve(n);
    expected.reserve(n);
    std::vector<Slice> keys;
    std::vector<GetContext*> ctx_ptrs;
    std::vector<Status> statuses(n);
    for (size_t i = 0; i < n; ++i) {
      ikeys[i] = IKey(user_keys[i], kMaxSequenceNumber, kValueTypeForSeek);
      contexts.emplace_back(BytewiseComparator(), user_keys[i], &values[i], &op, &mcs[i]);
      expected.emplace_back(BytewiseComparator(), user_keys[i], &expect_values[i], &op,
                            &expect_mcs[i]);
      keys.emplace_back(ikeys[i]);
      ctx_ptrs.push_back(&contexts[i]);
    }
    table_->MultiGet(ro, n, keys.data(), ctx_ptrs.data(), statuses.data());
    for (size_t i = 0; i < n; ++i) {
      ASSERT_OK(statuses[i]);
      ASSERT_OK(table_->Get(ro, ikeys[i], &expected[i]));
      ASSERT_EQ(contexts[i].state(), expected[i].state()) << user_keys[i];
      if (expected[i].state() == GetContext::kFound) {
        ASSERT_EQ(values[i], expect_values[i]) << user_keys[i];
      }
      ASSERT_EQ(mcs[i].size(), expect_mcs[i].size()) << user_keys[i];
      const std::vector<Slice>& got_ops = mcs[i].GetOperands();
      const std::vector<Slice>& want_ops = expect_mcs[i].GetOperands();
      for (size_t o = 0; o < got_ops.size(); ++o) ASSERT_EQ(got_ops[o], want_ops[o]);
    }
  }
}

TEST_F(TableTest, SeparatorsAreShortened) {
  Model model;
  // Keys 37 apart: adjacent blocks differ early enough for a shorter
  // separator to fit between them.
  for (int i = 0; i < 400; ++i) {
    char num[16];
    snprintf(num, sizeof(num), "%06d", i * 37);
    model[IKey(std::string("alpha-long-prefix-") + num, 5)] = std::string(40, 'v');
  }
  BlockBasedTableOptions topts;
  topts.block_size = 1024;
  Build(model, topts);
  std::unique_ptr<InternalIterator> index(table_->NewIndexIterator());
  size_t shorter = 0, entries = 0;
  for (index->SeekToFirst(); index->Valid(); index->Next(), ++entries) {
    if (index->key().size() < 24) ++shorter;
  }
  ASSERT_OK(index->status());
  EXPECT_EQ(entries, table_->GetTableProperties()->num_data_blocks);
  EXPECT_GT(shorter, 0u);
  CheckIteration(model);
  CheckGets(table_.get(), model);
}

TEST_F(TableTest, EmptyTableAndTombstoneOnly) {
  Model empty;
  tombstones_ = {{"b", "d"}, {"a", "c"}};
  Build(empty, BlockBasedTableOptions());
  std::unique_ptr<InternalIterator> it(table_->NewIterator(ReadOptions()));
  it->SeekToFirst();
  EXPECT_FALSE(it->Valid());
  ASSERT_OK(it->status());
  auto props = table_->GetTableProperties();
  EXPECT_EQ(props->num_range_deletions, 2u);
  EXPECT_EQ(props->num_entries, 2u);
  std::unique_ptr<InternalIterator> rd(table_->NewRangeTombstoneIterator(ReadOptions()));
  ASSERT_NE(rd, nullptr);
  rd->SeekToFirst();
  ASSERT_TRUE(rd->Valid());
  EXPECT_EQ(ExtractUserKey(rd->key()).ToString(), "a");
  EXPECT_EQ(rd->value().ToString(), "c");
  rd->Next();
  ASSERT_TRUE(rd->Valid());
  EXPECT_EQ(ExtractUserKey(rd->key()).ToString(), "b");
  EXPECT_EQ(ExtractValueType(rd->key()), kTypeRangeDeletion);
  rd->Next();
  EXPECT_FALSE(rd->Valid());
  ASSERT_OK(table_->VerifyChecksum());
}

TEST_F(TableTest, LargeValuesAndBinaryKeys) {
  std::mt19937_64 rng(test::RandomSeed());
  Model model;
  for (int i = 0; i < 50; ++i) {
    model[IKey(test::RandomBytes(&rng, 1 + rng() % 40), 100 + i)] =
        test::RandomBytes(&rng, rng() % 3 == 0 ? 200000 : 10);
  }
  model[IKey(std::string(), 1)] = "empty user key";
  BlockBasedTableOptions topts;
  Build(model, topts, kZSTD);
  CheckIteration(model);
  CheckGets(table_.get(), model);
}

TEST_F(TableTest, PropertiesDescribeTheFile) {
  Model model;
  model[IKey("a", 3)] = "1";
  model[IKey("b", 3, kTypeDeletion)] = "";
  model[IKey("c", 3, kTypeMerge)] = "m";
  model[IKey("d", 3, kTypeSingleDeletion)] = "";
  BlockBasedTableOptions topts;
  topts.filter_policy = NewBloomFilterPolicy(10);
  Build(model, topts, kLZ4Compression);
  auto p = table_->GetTableProperties();
  EXPECT_EQ(p->num_entries, 4u);
  EXPECT_EQ(p->num_deletions, 2u);
  EXPECT_EQ(p->num_merge_operands, 1u);
  EXPECT_EQ(p->raw_key_size, 4u * 9);
  EXPECT_EQ(p->raw_value_size, 2u);
  EXPECT_EQ(p->num_data_blocks, 1u);
  EXPECT_EQ(p->num_filter_entries, 4u);
  EXPECT_GT(p->filter_size, 0u);
  EXPECT_EQ(p->index_key_is_user_key, 1u);
  EXPECT_EQ(p->column_family_id, 0x7fffffffu);
  EXPECT_EQ(p->data_size, props_written_.data_size);
  EXPECT_EQ(p->index_size, props_written_.index_size);
  EXPECT_EQ(p->whole_key_filtering, "1");
  EXPECT_EQ(p->compression_name, "LZ4");
}

TEST_F(TableTest, FilterSkipsAbsentKeysAndCountsInStatistics) {
  Model model;
  for (int i = 0; i < 5000; ++i) model[IKey("key" + std::to_string(i * 2), 5)] = "v";
  BlockBasedTableOptions topts;
  topts.filter_policy = NewBloomFilterPolicy(10);
  Build(model, topts);
  auto stats = CreateDBStatistics();
  Open(topts, stats.get());
  int false_positives = 0;
  for (int i = 0; i < 5000; ++i) {
    const std::string present = "key" + std::to_string(i * 2);
    EXPECT_TRUE(table_->KeyMayMatch(present));
    const std::string absent = "key" + std::to_string(i * 2 + 1);
    GetContext ctx(BytewiseComparator(), absent, nullptr);
    ASSERT_OK(
        table_->Get(ReadOptions(), IKey(absent, kMaxSequenceNumber, kValueTypeForSeek), &ctx));
    EXPECT_EQ(ctx.state(), GetContext::kNotFound);
    if (table_->KeyMayMatch(absent)) ++false_positives;
  }
  EXPECT_LT(false_positives, 150);  // ~1% expected of 5000
  EXPECT_EQ(stats->getTickerCount(BLOOM_FILTER_USEFUL), 5000u - false_positives);
  EXPECT_EQ(stats->getTickerCount(BLOOM_FILTER_FULL_POSITIVE),
            static_cast<uint64_t>(false_positives));
}

TEST_F(TableTest, BlockCacheHitsMissesAndFillCache) {
  Model model;
  for (int i = 0; i < 2000; ++i) model[IKey("key" + std::to_string(10000 + i), 5)] = "value";
  BlockBasedTableOptions topts;
  topts.block_cache = NewLRUCache(8 << 20);
  Build(model, topts);
  auto stats = CreateDBStatistics();
  Open(topts, stats.get());

  ReadOptions no_fill;
  no_fill.fill_cache = false;
  CheckIteration(model, no_fill);
  EXPECT_EQ(stats->getTickerCount(BLOCK_CACHE_ADD), 0u);
  EXPECT_EQ(topts.block_cache->GetUsage(), 0u);

  const uint64_t blocks = table_->GetTableProperties()->num_data_blocks;
  std::unique_ptr<InternalIterator> it(table_->NewIterator(ReadOptions()));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
  }
  EXPECT_EQ(stats->getTickerCount(BLOCK_CACHE_ADD), blocks);
  const uint64_t hits_before = stats->getTickerCount(BLOCK_CACHE_HIT);
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
  }
  EXPECT_EQ(stats->getTickerCount(BLOCK_CACHE_HIT) - hits_before, blocks);
  EXPECT_GT(topts.block_cache->GetUsage(), 0u);
}

TEST_F(TableTest, IndexAndFilterInCache) {
  Model model;
  for (int i = 0; i < 3000; ++i) model[IKey("key" + std::to_string(10000 + i), 5)] = "value";
  BlockBasedTableOptions topts;
  topts.block_cache = NewLRUCache(8 << 20);
  topts.cache_index_and_filter_blocks = true;
  topts.filter_policy = NewBloomFilterPolicy(10);
  Build(model, topts);
  EXPECT_GT(topts.block_cache->GetUsage(), table_->GetTableProperties()->filter_size);
  CheckIteration(model);
  CheckGets(table_.get(), model);
  // Evicting everything makes the reader load them again.
  topts.block_cache->EraseUnRefEntries();
  CheckGets(table_.get(), model);

  // Pinned for level 0.
  topts.pin_l0_filter_and_index_blocks_in_cache = true;
  table_.reset();
  topts.block_cache->EraseUnRefEntries();
  std::unique_ptr<RandomAccessFile> rfile;
  ASSERT_OK(fs_->NewRandomAccessFile(fname_, FileOptions(), &rfile));
  uint64_t size = 0;
  ASSERT_OK(fs_->GetFileSize(fname_, &size));
  TableReaderOptions ro;
  ro.table_options = topts;
  ro.file_name = fname_;
  ro.level = 0;
  ASSERT_OK(BlockBasedTable::Open(ro, std::move(rfile), size, &table_));
  EXPECT_GT(topts.block_cache->GetPinnedUsage(), 0u);
  CheckGets(table_.get(), model);
  table_.reset();
  EXPECT_EQ(topts.block_cache->GetPinnedUsage(), 0u);
}

TEST_F(TableTest, NoBlockCache) {
  Model model;
  for (int i = 0; i < 500; ++i) model[IKey("key" + std::to_string(i), 5)] = "value";
  BlockBasedTableOptions topts;
  topts.no_block_cache = true;
  topts.cache_index_and_filter_blocks = true;  // ignored without a cache
  Build(model, topts);
  CheckIteration(model);
  CheckGets(table_.get(), model);
}

TEST_F(TableTest, UpperBoundStopsAtTheBlockPastIt) {
  Model model;
  for (int i = 0; i < 1000; ++i) model[IKey("key" + std::to_string(10000 + i), 5)] = "value";
  BlockBasedTableOptions topts;
  topts.block_size = 256;
  topts.no_block_cache = true;
  Build(model, topts);
  auto stats = CreateDBStatistics();
  Open(topts, stats.get());
  const Slice upper("key10100");
  ReadOptions ro;
  ro.iterate_upper_bound = &upper;
  std::unique_ptr<InternalIterator> it(table_->NewIterator(ro));
  int n = 0;
  for (it->Seek(IKey("key10050", kMaxSequenceNumber, kValueTypeForSeek)); it->Valid(); it->Next()) {
    ++n;
  }
  ASSERT_OK(it->status());
  // The table iterator may return keys up to the end of the block holding
  // the bound (DBIter filters exactly), but no further blocks.
  EXPECT_GE(n, 50);
  EXPECT_LT(n, 70);
}

TEST_F(TableTest, ApproximateOffsets) {
  Model model;
  for (int i = 0; i < 1000; ++i)
    model[IKey("key" + std::to_string(10000 + i), 5)] = std::string(100, 'x');
  BlockBasedTableOptions topts;
  Build(model, topts);
  const uint64_t a = table_->ApproximateOffsetOf(IKey("key10000", 5));
  const uint64_t b = table_->ApproximateOffsetOf(IKey("key10500", 5));
  const uint64_t c = table_->ApproximateOffsetOf(IKey("zzz", 5));
  EXPECT_LT(a, 1000u);
  EXPECT_NEAR(static_cast<double>(b), c / 2.0, c / 10.0);
  EXPECT_GE(c, table_->GetTableProperties()->data_size - 5000);
}

// Tables read through a memory map: uncompressed blocks are used in place
// and verified once; compressed ones go through the cache; damage is found.
TEST_F(TableTest, MemoryMappedReads) {
  test::TempDir dir("mmap_table");
  fs_ = Env::Default()->GetFileSystemPtr();
  const std::string path = dir.path() + "/000001.sst";
  std::mt19937_64 rng(test::RandomSeed());
  Model model = RandomModel(&rng, 1500, 200);
  for (CompressionType compression : {kNoCompression, kSnappyCompression}) {
    std::unique_ptr<WritableFile> file;
    ASSERT_OK(fs_->NewWritableFile(path, FileOptions(), &file));
    TableBuilderOptions bo;
    bo.table_options.block_size = 512;
    bo.compression = compression;
    BlockBasedTableBuilder builder(bo, file.get());
    for (const auto& [k, v] : model) builder.Add(k, v);
    ASSERT_OK(builder.Finish());
    ASSERT_OK(file->Close());

    auto open = [&](Statistics* stats, std::unique_ptr<BlockBasedTable>* table) {
      FileOptions fo;
      fo.use_mmap_reads = true;
      std::unique_ptr<RandomAccessFile> rfile;
      ASSERT_OK(fs_->NewRandomAccessFile(path, fo, &rfile));
      ASSERT_FALSE(rfile->mapped_contents().empty());
      uint64_t size = 0;
      ASSERT_OK(fs_->GetFileSize(path, &size));
      TableReaderOptions ro;
      ro.table_options.block_cache = NewLRUCache(4 << 20);
      ro.file_name = path;
      ro.statistics = stats;
      ASSERT_OK(BlockBasedTable::Open(ro, std::move(rfile), size, table));
    };
    auto stats = CreateDBStatistics();
    open(stats.get(), &table_);
    CheckIteration(model);
    CheckGets(table_.get(), model);
    ASSERT_OK(table_->VerifyChecksum());
    // Uncompressed blocks never enter the cache; compressed ones do.
    if (compression == kNoCompression) {
      EXPECT_EQ(stats->getTickerCount(BLOCK_CACHE_ADD), 0u);
    } else if (table_->GetTableProperties()->data_size <
               table_->GetTableProperties()->raw_key_size +
                   table_->GetTableProperties()->raw_value_size) {
      EXPECT_GT(stats->getTickerCount(BLOCK_CACHE_ADD), 0u);
    }
    table_.reset();

    // A flipped byte in the first data block is reported, with the file.
    std::string bytes = test::ReadFileOrDie(path);
    bytes[20] ^= 0x40;
    test::WriteFileOrDie(path, bytes);
    open(nullptr, &table_);
    std::unique_ptr<InternalIterator> it(table_->NewIterator(ReadOptions()));
    it->SeekToFirst();
    EXPECT_FALSE(it->Valid());
    EXPECT_TRUE(it->status().IsCorruption()) << it->status().ToString();
    EXPECT_NE(it->status().ToString().find(path), std::string::npos);
    it.reset();
    table_.reset();
  }
}

TEST_F(TableTest, OutOfOrderKeysAreRejected) {
  std::unique_ptr<WritableFile> file;
  ASSERT_OK(fs_->NewWritableFile(fname_, FileOptions(), &file));
  BlockBasedTableBuilder builder(TableBuilderOptions(), file.get());
  builder.Add(IKey("b", 5), "1");
  builder.Add(IKey("a", 5), "2");
  EXPECT_TRUE(builder.status().IsInvalidArgument());
  builder.Abandon();
}

}  // namespace
}  // namespace strata
