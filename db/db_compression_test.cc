// Compression through the DB: per-level compression and bottommost
// compression land on the tables of each level (table property
// rocksdb.compression per live file), dictionaries and the zlib / LZ4HC
// codecs survive flush, compaction and reopen (every key checked against a
// std::map model), and the options are validated at Open.

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "strata/db.h"
#include "strata/metadata.h"
#include "table/compression.h"
#include "test_util/db_test_base.h"

namespace strata {
namespace {

class DBCompressionTest : public DBTestBase {
 protected:
  DBCompressionTest() : DBTestBase("db_compression_test") {}

  // Writes n random keys with compressible values into the DB and model.
  void Fill(std::mt19937_64* rng, int n, std::map<std::string, std::string>* model) {
    static const char* const kWords[] = {"alpha;", "beta;", "gamma;", "delta;", "country=FR;"};
    for (int i = 0; i < n; i++) {
      std::string key = "k" + std::to_string((*rng)() % 200000);
      std::string value = std::to_string((*rng)() % 1000) + ":";
      for (int w = 0; w < 12; w++) value += kWords[(*rng)() % 5];
      ASSERT_OK(Put(key, value));
      (*model)[key] = value;
    }
  }

  void ExpectModel(const std::map<std::string, std::string>& model) {
    std::unique_ptr<Iterator> it(db_->NewIterator(ReadOptions()));
    auto m = model.begin();
    for (it->SeekToFirst(); it->Valid(); it->Next(), ++m) {
      ASSERT_NE(m, model.end());
      ASSERT_EQ(it->key().ToString(), m->first);
      ASSERT_EQ(it->value().ToString(), m->second);
    }
    ASSERT_OK(it->status());
    ASSERT_EQ(m, model.end());
    int probes = 0;
    for (const auto& [k, v] : model) {
      if (++probes % 7 != 0) continue;
      ASSERT_EQ(Get(k), v);
    }
  }

  // Per live table: its level and its properties.
  struct TableInfo {
    int level;
    std::shared_ptr<const TableProperties> props;
  };
  std::vector<TableInfo> Tables() {
    std::vector<LiveFileMetaData> files;
    db_->GetLiveFilesMetaData(&files);
    TablePropertiesCollection all;
    EXPECT_OK(db_->GetPropertiesOfAllTables(&all));
    std::vector<TableInfo> out;
    for (const LiveFileMetaData& f : files) {
      auto it = all.find(f.db_path + f.name);
      EXPECT_NE(it, all.end()) << f.db_path + f.name;
      if (it != all.end()) out.push_back({f.level, it->second});
    }
    return out;
  }
};

TEST_F(DBCompressionTest, PerLevelCompressionLands) {
  Options o = SmallOptions();
  o.num_levels = 4;
  o.level_compaction_dynamic_level_bytes = false;  // base level 1: entry i is level i
  o.compression_per_level = {kNoCompression, kLZ4Compression, kZlibCompression, kZSTD};
  o.compression = kSnappyCompression;  // not used: per-level wins
  DestroyAndReopen(o);
  std::mt19937_64 rng(test::RandomSeed());
  std::map<std::string, std::string> model;
  Fill(&rng, 30000, &model);
  ASSERT_OK(Flush());
  ASSERT_OK(WaitForCompact());
  std::vector<int> seen(4, 0);
  for (const TableInfo& t : Tables()) {
    SCOPED_TRACE("level " + std::to_string(t.level));
    seen[t.level]++;
    EXPECT_EQ(t.props->compression_name,
              CompressionTypeName(o.compression_per_level[static_cast<size_t>(t.level)]));
  }
  EXPECT_GT(seen[1] + seen[2], 0) << FilesPerLevel();
  ExpectModel(model);
  // A full compaction writes everything into the deepest non-empty level
  // (RocksDB's CompactRange), with that level's entry.
  int deepest = 0;
  for (const TableInfo& t : Tables()) deepest = std::max(deepest, t.level);
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  ASSERT_OK(WaitForCompact());
  int last = 0;
  for (const TableInfo& t : Tables()) {
    EXPECT_EQ(t.level, deepest);
    EXPECT_EQ(t.props->compression_name,
              CompressionTypeName(o.compression_per_level[static_cast<size_t>(deepest)]));
    last++;
  }
  EXPECT_GT(last, 0);
  Reopen(o);
  ExpectModel(model);
}

// With level_compaction_dynamic_level_bytes the base level takes entry 1:
// while the data is small L0 compacts straight into the last level, whose
// tables then take entry 1, not entry 3. A table written when the base
// level was b sits at level L with entry L - b + 1.
TEST_F(DBCompressionTest, PerLevelFollowsDynamicBaseLevel) {
  Options o = SmallOptions();
  o.num_levels = 4;
  o.level_compaction_dynamic_level_bytes = true;
  o.compression_per_level = {kNoCompression, kLZ4Compression, kZlibCompression, kZSTD};
  DestroyAndReopen(o);
  std::mt19937_64 rng(test::RandomSeed());
  std::map<std::string, std::string> model;
  Fill(&rng, 1500, &model);
  ASSERT_OK(Flush());
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  ASSERT_OK(WaitForCompact());
  // Small: everything in the last level, which is the base level.
  ASSERT_EQ(FilesPerLevel().substr(0, 6), "0,0,0,") << FilesPerLevel();
  for (const TableInfo& t : Tables()) {
    EXPECT_EQ(t.level, 3);
    EXPECT_EQ(t.props->compression_name, "LZ4");
  }
  Fill(&rng, 30000, &model);
  ASSERT_OK(Flush());
  ASSERT_OK(WaitForCompact());
  for (const TableInfo& t : Tables()) {
    SCOPED_TRACE("level " + std::to_string(t.level));
    if (t.level == 0) {
      EXPECT_EQ(t.props->compression_name, "NoCompression");
      continue;
    }
    bool possible = false;
    for (int b = 1; b <= t.level; b++) {
      possible = possible || t.props->compression_name ==
                                 CompressionTypeName(o.compression_per_level[t.level - b + 1]);
    }
    EXPECT_TRUE(possible) << t.props->compression_name;
  }
  ExpectModel(model);
}

TEST_F(DBCompressionTest, BottommostCompressionAndOptions) {
  Options o = SmallOptions();
  o.num_levels = 4;
  o.compression = kLZ4Compression;
  o.bottommost_compression = kZSTD;
  o.bottommost_compression_opts.enabled = true;
  o.bottommost_compression_opts.level = 5;
  o.bottommost_compression_opts.max_dict_bytes = 8192;
  o.compression_opts.level = 1;
  DestroyAndReopen(o);
  std::mt19937_64 rng(test::RandomSeed());
  std::map<std::string, std::string> model;
  Fill(&rng, 8000, &model);
  ASSERT_OK(Flush());
  // Level-0 tables (flushes) never take the bottommost settings.
  for (const TableInfo& t : Tables()) {
    if (t.level != 0) continue;
    EXPECT_EQ(t.props->compression_name, "LZ4");
    EXPECT_NE(t.props->compression_options.find("level=1;"), std::string::npos);
  }
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  ASSERT_OK(WaitForCompact());
  int bottom = 0;
  int last_level = 0;
  for (const TableInfo& t : Tables()) last_level = std::max(last_level, t.level);
  for (const TableInfo& t : Tables()) {
    SCOPED_TRACE("level " + std::to_string(t.level));
    if (t.level == last_level) {
      bottom++;
      EXPECT_EQ(t.props->compression_name, "ZSTD");
      EXPECT_NE(t.props->compression_options.find("level=5; strategy=0; max_dict_bytes=8192;"),
                std::string::npos)
          << t.props->compression_options;
      EXPECT_NE(t.props->compression_options.find("enabled=1;"), std::string::npos);
    } else {
      EXPECT_EQ(t.props->compression_name, "LZ4");
    }
  }
  EXPECT_GT(bottom, 0);
  ExpectModel(model);
  Reopen(o);
  ExpectModel(model);
}

// Dictionaries and the new codecs across flush, compaction and reopen;
// random overwrites checked against the model.
TEST_F(DBCompressionTest, DictionaryAndCodecsRoundTrip) {
  const struct {
    CompressionType type;
    uint32_t dict;
    uint32_t train;
    int level;
  } cases[] = {
      {kZSTD, 16384, 0, CompressionOptions::kDefaultCompressionLevel},
      {kZSTD, 16384, 65536, 7},
      {kLZ4Compression, 8192, 0, CompressionOptions::kDefaultCompressionLevel},
      {kLZ4HCCompression, 8192, 0, 10},
      {kZlibCompression, 8192, 0, 9},
      {kZlibCompression, 0, 0, 1},
  };
  std::mt19937_64 rng(test::RandomSeed());
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(CompressionTypeName(c.type)) + " dict " + std::to_string(c.dict));
    Options o = SmallOptions();
    o.compression = c.type;
    o.compression_opts.max_dict_bytes = c.dict;
    o.compression_opts.zstd_max_train_bytes = c.train;
    o.compression_opts.level = c.level;
    DestroyAndReopen(o);
    std::map<std::string, std::string> model;
    Fill(&rng, 6000, &model);
    ASSERT_OK(Flush());
    ASSERT_OK(WaitForCompact());
    for (const TableInfo& t : Tables()) {
      EXPECT_EQ(t.props->compression_name, CompressionTypeName(c.type));
      EXPECT_NE(t.props->compression_options.find("max_dict_bytes=" + std::to_string(c.dict)),
                std::string::npos);
    }
    ExpectModel(model);
    Reopen(o);
    ExpectModel(model);
  }
}

TEST_F(DBCompressionTest, OptionsValidated) {
  struct Bad {
    const char* what;
    std::function<void(Options*)> set;
    bool not_supported;
  };
  const Bad bad[] = {
      {"options.compression_per_level[1]",
       [](Options* o) {
         o->compression_per_level = {kNoCompression, kBZip2Compression};
       },
       false},
      {"options.bottommost_compression",
       [](Options* o) { o->bottommost_compression = kXpressCompression; }, false},
      {"options.compression_opts.zstd_max_train_bytes",
       [](Options* o) {
         o->compression = kZSTD;
         o->compression_opts.zstd_max_train_bytes = 1000;
       },
       false},
      {"options.compression_opts.max_dict_bytes",
       [](Options* o) {
         o->compression = kSnappyCompression;
         o->compression_opts.max_dict_bytes = 1000;
       },
       false},
      {"options.bottommost_compression_opts.max_dict_bytes",
       [](Options* o) {
         o->bottommost_compression = kSnappyCompression;
         o->bottommost_compression_opts.enabled = true;
         o->bottommost_compression_opts.max_dict_bytes = 1000;
       },
       false},
      {"options.compression_opts.parallel_threads",
       [](Options* o) { o->compression_opts.parallel_threads = 4; }, true},
  };
  for (const Bad& b : bad) {
    Options o = SmallOptions();
    b.set(&o);
    Close();
    Status s = TryReopen(o);
    EXPECT_TRUE(b.not_supported ? s.IsNotSupported() : s.IsInvalidArgument())
        << b.what << ": " << s.ToString();
    EXPECT_NE(s.ToString().find(b.what), std::string::npos) << s.ToString();
  }
  // Accepted: a dictionary with one dictionary codec among the levels, and
  // bottommost options that are not enabled (then unused).
  Options o = SmallOptions();
  o.compression_per_level = {kNoCompression, kSnappyCompression, kZSTD};
  o.compression_opts.max_dict_bytes = 4096;
  o.bottommost_compression_opts.parallel_threads = 8;
  ASSERT_OK(TryReopen(o));
}

}  // namespace
}  // namespace strata
