// Prefix Bloom filters in block-based tables: what the builder adds (whole
// keys and/or prefixes, duplicates once), the properties that describe it,
// and how the reader uses it -- PrefixMayMatch, Get with a prefix-only
// filter (never a false negative), a reader whose extractor differs from the
// file's (prefix filter ignored) and files without an extractor.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "base/get_context.h"
#include "strata/env.h"
#include "strata/filter_policy.h"
#include "strata/slice_transform.h"
#include "strata/statistics.h"
#include "table/block_based_table_builder.h"
#include "table/block_based_table_reader.h"
#include "table/filter_policy.h"
#include "table/full_filter_block.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

constexpr size_t kPrefixLen = 6;

// "p" + 5 digits: a 6-byte prefix.
std::string Prefix(int i) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "p%05d", i);
  return buf;
}

std::unique_ptr<FilterBitsBuilder> TenBitsBuilder() {
  auto policy = NewBloomFilterPolicy(10);
  return NewFilterBitsBuilder(policy.get());
}

TEST(FullFilterPrefixTest, WholeKeysAndPrefixesEachOnce) {
  std::unique_ptr<const SliceTransform> pe(NewFixedPrefixTransform(3));
  // Two versions of one user key, keys sharing prefixes, a key out of the
  // domain and a key equal to its own prefix.
  const std::vector<std::string> keys = {"aa", "aaa", "aaa1", "aaa1", "aaa2", "aab", "aab9", "ac"};
  {
    FullFilterBlockBuilder b(TenBitsBuilder(), pe.get(), /*whole_key_filtering=*/true);
    for (const auto& k : keys) b.Add(k);
    // Whole: aa aaa aaa1 aaa2 aab aab9 ac (7); prefixes: aaa aab (2), but
    // "aaa" and "aab" whole keys equal their prefixes and come right before
    // them, so the bits builder drops those repeats: 7 + 0.
    EXPECT_EQ(7u, b.NumAdded());
    const Slice f = b.Finish();
    FullFilterBlockReader r(f.ToString());
    for (const auto& k : keys) {
      EXPECT_TRUE(r.KeyMayMatch(k)) << k;
      if (pe->InDomain(k)) {
        EXPECT_TRUE(r.PrefixMayMatch(pe->Transform(k))) << k;
      }
    }
  }
  {
    FullFilterBlockBuilder b(TenBitsBuilder(), pe.get(), /*whole_key_filtering=*/false);
    for (const auto& k : keys) b.Add(k);
    // aaa, aab, and as RocksDB 7.8.3 does with prefixes only: the empty
    // string once after the first in-domain key, which makes the next
    // "aaa" count again: aaa "" aaa aab.
    EXPECT_EQ(4u, b.NumAdded());
    const Slice f = b.Finish();
    FullFilterBlockReader r(f.ToString());
    EXPECT_TRUE(r.PrefixMayMatch("aaa"));
    EXPECT_TRUE(r.PrefixMayMatch("aab"));
  }
  {
    // Longer keys: prefixes and whole keys interleave and never collide.
    FullFilterBlockBuilder b(TenBitsBuilder(), pe.get(), /*whole_key_filtering=*/true);
    for (const char* k : {"xyz1", "xyz2", "xyz2", "xyz3", "xzz1"}) b.Add(k);
    EXPECT_EQ(4u + 2u, b.NumAdded());
  }
}

// A model of user key -> value (every entry a Put at sequence 1).
using Model = std::map<std::string, std::string>;

class PrefixFilterTest : public testing::Test {
 protected:
  PrefixFilterTest()
      : fs_(NewMemFileSystem()),
        fixed_(NewFixedPrefixTransform(kPrefixLen)),
        other_(NewFixedPrefixTransform(kPrefixLen - 1)) {
    // Prefixes 2*i for i < kPrefixes, 1..4 keys each; plus keys shorter than
    // the prefix (outside the fixed extractor's domain).
    std::mt19937_64 rng(test::RandomSeed());
    for (int i = 0; i < kPrefixes; ++i) {
      const int n = 1 + static_cast<int>(rng() % 4);
      for (int j = 0; j < n; ++j) {
        model_[Prefix(2 * i) + "-" + std::to_string(rng() % 100000)] = "v" + std::to_string(i);
      }
    }
    for (const char* k : {"a", "p0", "p0000", "q", "zz"}) model_[k] = "short";
  }

  static constexpr int kPrefixes = 2000;

  void Build(bool whole_key_filtering, const SliceTransform* pe) {
    std::unique_ptr<WritableFile> file;
    ASSERT_OK(fs_->NewWritableFile(fname_, FileOptions(), &file));
    TableBuilderOptions bo;
    bo.table_options.filter_policy = NewBloomFilterPolicy(10);
    bo.table_options.whole_key_filtering = whole_key_filtering;
    bo.table_options.block_size = 1024;
    bo.prefix_extractor = pe;
    BlockBasedTableBuilder builder(bo, file.get());
    for (const auto& [k, v] : model_) {
      std::string ikey;
      AppendInternalKey(&ikey, k, 1, kTypeValue);
      builder.Add(ikey, v);
    }
    ASSERT_OK(builder.Finish());
    ASSERT_OK(file->Close());
    props_ = builder.GetTableProperties();
  }

  void Open(const SliceTransform* pe, bool whole_key_filtering_option = true) {
    table_.reset();
    stats_ = CreateDBStatistics();
    std::unique_ptr<RandomAccessFile> rfile;
    ASSERT_OK(fs_->NewRandomAccessFile(fname_, FileOptions(), &rfile));
    uint64_t size = 0;
    ASSERT_OK(fs_->GetFileSize(fname_, &size));
    TableReaderOptions ro;
    ro.table_options.filter_policy = NewBloomFilterPolicy(10);
    ro.table_options.whole_key_filtering = whole_key_filtering_option;
    ro.file_name = fname_;
    ro.statistics = stats_.get();
    ro.prefix_extractor = pe;
    ASSERT_OK(BlockBasedTable::Open(ro, std::move(rfile), size, &table_));
  }

  // Get of every key finds its value; keys absent from the model (with
  // present and absent prefixes) are not found.
  void CheckGets() {
    for (const auto& [k, v] : model_) {
      std::string value;
      LookupKey lk(k, kMaxSequenceNumber);
      GetContext ctx(BytewiseComparator(), k, &value);
      ASSERT_OK(table_->Get(ReadOptions(), lk.internal_key(), &ctx));
      ASSERT_EQ(GetContext::kFound, ctx.state()) << k;
      ASSERT_EQ(v, value);
    }
    for (int i = 0; i < 2 * kPrefixes; ++i) {
      const std::string k = Prefix(i) + "-absent";
      LookupKey lk(k, kMaxSequenceNumber);
      GetContext ctx(BytewiseComparator(), k, nullptr);
      ASSERT_OK(table_->Get(ReadOptions(), lk.internal_key(), &ctx));
      ASSERT_EQ(GetContext::kNotFound, ctx.state()) << k;
    }
  }

  // Fraction of absent prefixes (odd numbers) PrefixMayMatch lets through.
  double PrefixFalsePositiveRate() {
    int fp = 0;
    for (int i = 0; i < kPrefixes; ++i) {
      if (table_->PrefixMayMatch(Prefix(2 * i + 1) + "-x")) ++fp;
    }
    return static_cast<double>(fp) / kPrefixes;
  }

  uint64_t Ticker(uint32_t t) const { return stats_->getTickerCount(t); }

  std::shared_ptr<FileSystem> fs_;
  const std::string fname_ = "/t/000001.sst";
  std::unique_ptr<const SliceTransform> fixed_;
  std::unique_ptr<const SliceTransform> other_;
  Model model_;
  TableProperties props_;
  std::shared_ptr<Statistics> stats_;
  std::unique_ptr<BlockBasedTable> table_;
};

TEST_F(PrefixFilterTest, PrefixOnlyFilter) {
  Build(/*whole_key_filtering=*/false, fixed_.get());
  EXPECT_EQ("rocksdb.FixedPrefix.6", props_.prefix_extractor_name);
  EXPECT_EQ("0", props_.whole_key_filtering);
  EXPECT_EQ("1", props_.prefix_filtering);
  // RocksDB's count, simulated: each prefix with adjacent repeats dropped,
  // plus the empty string it adds once after the first in-domain key
  // (FullFilterBlockBuilder::AddWithPrefix).
  {
    uint64_t expected = 0;
    std::string last;
    bool have_last = false, prev_in_domain = false, empty_added = false;
    auto add = [&](const std::string& x) {
      if (!have_last || x != last) ++expected;
      last = x;
      have_last = true;
    };
    for (const auto& [k, v] : model_) {
      const bool in_domain = fixed_->InDomain(k);
      if (prev_in_domain && !empty_added) {
        add("");
        empty_added = true;
      }
      prev_in_domain = in_domain;
      if (in_domain) add(fixed_->Transform(k).ToString());
    }
    EXPECT_GE(expected, static_cast<uint64_t>(kPrefixes) + 1);
    EXPECT_EQ(expected, props_.num_filter_entries);
  }

  Open(fixed_.get());
  ASSERT_TRUE(table_->HasUsablePrefixFilter());
  for (const auto& [k, v] : model_) {
    EXPECT_TRUE(table_->PrefixMayMatch(k)) << k;
    EXPECT_TRUE(table_->KeyMayMatch(k)) << k;  // through the prefix
  }
  // Keys outside the domain are never ruled out.
  EXPECT_TRUE(table_->PrefixMayMatch("p1"));
  EXPECT_TRUE(table_->PrefixMayMatch(""));
  const double fp = PrefixFalsePositiveRate();
  std::printf("prefix-only filter: prefix false-positive rate %.4f\n", fp);
  EXPECT_LT(fp, 0.05);  // ~1% expected at 10 bits/key

  Open(fixed_.get());
  CheckGets();
  // Absent keys with absent prefixes were mostly stopped by the filter.
  EXPECT_GT(Ticker(BLOOM_FILTER_PREFIX_USEFUL), kPrefixes * 90 / 100);
  EXPECT_EQ(Ticker(BLOOM_FILTER_PREFIX_USEFUL), Ticker(BLOOM_FILTER_USEFUL));
  EXPECT_EQ(0u, Ticker(BLOOM_FILTER_FULL_POSITIVE));
  EXPECT_EQ(Ticker(BLOOM_FILTER_PREFIX_CHECKED), model_.size() - 5 + 2 * kPrefixes);

  // The reader's whole_key_filtering option does not matter: the file says
  // it holds no whole keys.
  Open(fixed_.get(), /*whole_key_filtering_option=*/true);
  CheckGets();
  Open(fixed_.get(), /*whole_key_filtering_option=*/false);
  CheckGets();
}

TEST_F(PrefixFilterTest, WholeKeysAndPrefixes) {
  Build(/*whole_key_filtering=*/true, fixed_.get());
  EXPECT_EQ("rocksdb.FixedPrefix.6", props_.prefix_extractor_name);
  EXPECT_EQ("1", props_.whole_key_filtering);
  EXPECT_EQ("1", props_.prefix_filtering);
  EXPECT_EQ(model_.size() + kPrefixes, props_.num_filter_entries);

  Open(fixed_.get());
  ASSERT_TRUE(table_->HasUsablePrefixFilter());
  for (const auto& [k, v] : model_) {
    EXPECT_TRUE(table_->PrefixMayMatch(k)) << k;
    EXPECT_TRUE(table_->KeyMayMatch(k)) << k;
  }
  const double fp = PrefixFalsePositiveRate();
  std::printf("whole+prefix filter: prefix false-positive rate %.4f\n", fp);
  EXPECT_LT(fp, 0.05);

  // Whole-key probes still work as for a whole-key-only file: absent keys
  // under present prefixes are mostly rejected.
  int key_fp = 0;
  for (int i = 0; i < kPrefixes; ++i) {
    if (table_->KeyMayMatch(Prefix(2 * i) + "-absent")) ++key_fp;
  }
  std::printf("whole+prefix filter: whole-key false-positive rate %.4f\n",
              static_cast<double>(key_fp) / kPrefixes);
  EXPECT_LT(key_fp, kPrefixes * 5 / 100);

  Open(fixed_.get());
  CheckGets();
  // Get used whole keys: every absent key (2 * kPrefixes) was a candidate.
  EXPECT_GT(Ticker(BLOOM_FILTER_USEFUL), 2 * kPrefixes * 90 / 100);
  EXPECT_EQ(0u, Ticker(BLOOM_FILTER_PREFIX_CHECKED));
}

TEST_F(PrefixFilterTest, DifferentExtractorIgnoresPrefixFilter) {
  for (bool whole : {false, true}) {
    SCOPED_TRACE(whole ? "whole keys and prefixes" : "prefixes only");
    Build(whole, fixed_.get());
    for (const SliceTransform* pe : {other_.get(), static_cast<const SliceTransform*>(nullptr)}) {
      Open(pe);
      EXPECT_FALSE(table_->HasUsablePrefixFilter());
      for (int i = 0; i < kPrefixes; ++i) {
        ASSERT_TRUE(table_->PrefixMayMatch(Prefix(2 * i + 1) + "-x"));
      }
      CheckGets();
      EXPECT_EQ(0u, Ticker(BLOOM_FILTER_PREFIX_CHECKED));
      if (whole) {
        // Whole keys are still in the filter and still used.
        EXPECT_GT(Ticker(BLOOM_FILTER_USEFUL), 2 * kPrefixes * 90 / 100);
      } else {
        // Nothing usable: the filter is not consulted.
        EXPECT_EQ(0u, Ticker(BLOOM_FILTER_USEFUL));
        EXPECT_EQ(0u, Ticker(BLOOM_FILTER_FULL_POSITIVE));
      }
    }
  }
}

TEST_F(PrefixFilterTest, CappedExtractorIsNotFixed) {
  // Same length, different extractor kind: names differ, filter ignored.
  std::unique_ptr<const SliceTransform> capped(NewCappedPrefixTransform(kPrefixLen));
  Build(/*whole_key_filtering=*/false, fixed_.get());
  Open(capped.get());
  EXPECT_FALSE(table_->HasUsablePrefixFilter());
  CheckGets();

  // A file built with the capped extractor: every key is in its domain, so
  // the short keys' (whole-key) prefixes are in the filter too.
  Build(/*whole_key_filtering=*/false, capped.get());
  EXPECT_EQ("rocksdb.CappedPrefix.6", props_.prefix_extractor_name);
  Open(capped.get());
  ASSERT_TRUE(table_->HasUsablePrefixFilter());
  for (const auto& [k, v] : model_) EXPECT_TRUE(table_->PrefixMayMatch(k)) << k;
  EXPECT_LT(PrefixFalsePositiveRate(), 0.05);
  Open(capped.get());
  CheckGets();
}

TEST_F(PrefixFilterTest, FileWithoutExtractor) {
  Build(/*whole_key_filtering=*/true, nullptr);
  EXPECT_EQ("nullptr", props_.prefix_extractor_name);
  EXPECT_EQ("0", props_.prefix_filtering);
  EXPECT_EQ(model_.size(), props_.num_filter_entries);
  Open(fixed_.get());
  EXPECT_FALSE(table_->HasUsablePrefixFilter());
  EXPECT_TRUE(table_->PrefixMayMatch(Prefix(1) + "-x"));
  CheckGets();
  EXPECT_GT(Ticker(BLOOM_FILTER_USEFUL), 2 * kPrefixes * 90 / 100);
  EXPECT_EQ(0u, Ticker(BLOOM_FILTER_PREFIX_CHECKED));

  // No extractor and no whole keys: no filter block at all.
  Build(/*whole_key_filtering=*/false, nullptr);
  EXPECT_EQ(0u, props_.filter_size);
  EXPECT_EQ(0u, props_.num_filter_entries);
  Open(fixed_.get());
  CheckGets();
}

}  // namespace
}  // namespace strata
