// The OPTIONS file's compaction-style and compression-by-level options:
// Strata writes them as RocksDB 7.8.3 writes them (lines compared with
// RocksDB's own file), reads them back (LoadOptionsFromFile), and RocksDB's
// ldb accepts a Strata OPTIONS file holding universal and FIFO settings
// (the RocksDB parts are skipped when its tools are not installed).
#include "db/options_file.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "db/column_family.h"
#include "db/options_helper.h"
#include "strata/db.h"
#include "strata/utilities/options_util.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

constexpr const char* kLdb = "/usr/bin/ldb";
constexpr const char* kDbBench = "/usr/bin/db_bench";

// The new options, in the order the writer puts them.
const char* const kNewOptions[] = {"compaction_style",
                                   "compaction_pri",
                                   "max_bytes_for_level_multiplier_additional",
                                   "compaction_options_universal",
                                   "compaction_options_fifo",
                                   "ttl",
                                   "periodic_compaction_seconds",
                                   "compression_per_level",
                                   "bottommost_compression",
                                   "compression_opts",
                                   "bottommost_compression_opts"};

using test::RunCommand;

// The name=value lines of the [CFOptions "default"] section of a file.
std::map<std::string, std::string> DefaultFamilyLines(const std::string& text) {
  std::map<std::string, std::string> r;
  bool in = false;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(pos, end - pos);
    pos = end + 1;
    const size_t b = line.find_first_not_of(' ');
    if (b == std::string::npos) continue;
    line = line.substr(b);
    if (line[0] == '[') {
      in = line == "[CFOptions \"default\"]";
      continue;
    }
    const size_t eq = line.find('=');
    if (in && eq != std::string::npos) r[line.substr(0, eq)] = line.substr(eq + 1);
  }
  return r;
}

// Options with every new option away from its default.
Options Unusual() {
  Options o;
  o.compaction_style = kCompactionStyleUniversal;
  o.compaction_pri = kOldestLargestSeqFirst;
  o.max_bytes_for_level_multiplier_additional = {1, 2, 3, 4, 5, 6, 7};
  o.compaction_options_universal.size_ratio = 5;
  o.compaction_options_universal.min_merge_width = 3;
  o.compaction_options_universal.max_merge_width = 10;
  o.compaction_options_universal.max_size_amplification_percent = 150;
  o.compaction_options_universal.compression_size_percent = 60;
  o.compaction_options_universal.stop_style = kCompactionStopStyleSimilarSize;
  o.compaction_options_universal.allow_trivial_move = true;
  o.compaction_options_universal.incremental = true;
  o.compaction_options_fifo.max_table_files_size = 12345678;
  o.compaction_options_fifo.allow_compaction = true;
  o.ttl = 3600;
  o.periodic_compaction_seconds = 1800;
  o.compression_per_level = {kNoCompression, kSnappyCompression, kZSTD};
  o.bottommost_compression = kZSTD;
  o.compression_opts.level = 4;
  o.compression_opts.max_dict_bytes = 16384;
  o.compression_opts.zstd_max_train_bytes = 65536;
  o.bottommost_compression_opts.level = 19;
  o.bottommost_compression_opts.enabled = true;
  return o;
}

TEST(OptionsFileTest, NewOptionsRoundTrip) {
  test::TempDir tmp("options_file_test");
  Env* env = Env::Default();
  const Options written = Unusual();
  const BlockBasedTableOptions table;
  ASSERT_OK(WriteOptionsFile(env->GetFileSystem(), tmp.path(), 7, written, table, nullptr));
  DBOptions db;
  std::vector<ColumnFamilyDescriptor> families;
  ASSERT_OK(LoadOptionsFromFile(tmp.path() + "/OPTIONS-000007", env, &db, &families));
  ASSERT_EQ(families.size(), 1u);
  const ColumnFamilyOptions& read = families[0].options;
  for (const char* name : kNewOptions) {
    const OptionInfo* info = FindOption(OptionScope::kCF, name);
    ASSERT_NE(info, nullptr) << name;
    EXPECT_EQ(OptionValueToString(*info, &read),
              OptionValueToString(*info, static_cast<const ColumnFamilyOptions*>(&written)))
        << name;
  }
  EXPECT_EQ(read.compaction_style, kCompactionStyleUniversal);
  EXPECT_EQ(read.compaction_options_universal.size_ratio, 5u);
  EXPECT_EQ(read.compaction_options_fifo.max_table_files_size, 12345678u);
  EXPECT_EQ(read.compression_per_level,
            (std::vector<CompressionType>{kNoCompression, kSnappyCompression, kZSTD}));
  EXPECT_EQ(read.bottommost_compression_opts.level, 19);
  // An empty compression_per_level is left out, as RocksDB leaves it out.
  const std::string text = OptionsFileContents(Options(), table);
  EXPECT_EQ(text.find("compression_per_level"), std::string::npos);
  EXPECT_NE(text.find("  compaction_style=kCompactionStyleLevel\n"), std::string::npos);
}

// The lines RocksDB 7.8.3 wrote (OPTIONS file of `db_bench
// --compaction_style=1 --universal_size_ratio=5 --universal_min_merge_width=3
// --universal_max_size_amplification_percent=150 --compression_type=none`,
// whose FIFO flags default to allow_compaction=true, max_table_files_size=0),
// and the same settings in Strata, sanitized as at Open.
Options DbBenchUniversal() {
  Options o;
  o.compaction_style = kCompactionStyleUniversal;
  o.compression = kNoCompression;
  o.compaction_options_universal.size_ratio = 5;
  o.compaction_options_universal.min_merge_width = 3;
  o.compaction_options_universal.max_size_amplification_percent = 150;
  o.compaction_options_fifo.allow_compaction = true;
  o.compaction_options_fifo.max_table_files_size = 0;
  SanitizeColumnFamilyOptions(&o);
  return o;
}

TEST(OptionsFileTest, LinesAreRocksDBs) {
  const std::map<std::string, std::string> rocksdb = {
      {"compression_opts",
       "{max_dict_buffer_bytes=0;enabled=false;max_dict_bytes=0;parallel_threads=1;zstd_max_"
       "train_bytes=0;level=32767;use_zstd_dict_trainer=true;strategy=0;window_bits=-14;}"},
      {"bottommost_compression_opts",
       "{max_dict_buffer_bytes=0;enabled=false;max_dict_bytes=0;parallel_threads=1;zstd_max_"
       "train_bytes=0;level=32767;use_zstd_dict_trainer=true;strategy=0;window_bits=-14;}"},
      {"compaction_options_fifo", "{allow_compaction=true;age_for_warm=0;max_table_files_size=0;}"},
      {"max_bytes_for_level_multiplier_additional", "1:1:1:1:1:1:1"},
      {"compaction_options_universal",
       "{incremental=false;compression_size_percent=-1;allow_trivial_move=false;max_size_"
       "amplification_percent=150;max_merge_width=4294967295;stop_style=kCompactionStopStyleTotal"
       "Size;min_merge_width=3;size_ratio=5;}"},
      {"ttl", "2592000"},
      {"periodic_compaction_seconds", "2592000"},
      {"bottommost_compression", "kDisableCompressionOption"},
      {"compaction_style", "kCompactionStyleUniversal"},
      {"compaction_pri", "kMinOverlappingRatio"},
      {"level_compaction_dynamic_level_bytes", "false"},
  };
  const std::map<std::string, std::string> strata =
      DefaultFamilyLines(OptionsFileContents(DbBenchUniversal(), BlockBasedTableOptions()));
  for (const auto& [name, value] : rocksdb) {
    auto it = strata.find(name);
    ASSERT_NE(it, strata.end()) << name;
    EXPECT_EQ(it->second, value) << name;
  }
}

// The same comparison against a file RocksDB writes now.
TEST(OptionsFileTest, LinesAreThoseRocksDBWritesNow) {
  if (access(kDbBench, X_OK) != 0) GTEST_SKIP() << kDbBench << " not installed";
  test::TempDir tmp("options_file_rocksdb");
  const std::string path = tmp.path() + "/db";
  int rc = 0;
  const std::string out =
      RunCommand(std::string(kDbBench) +
                     " --compaction_style=1 --universal_size_ratio=5 --universal_min_merge_width=3"
                     " --universal_max_size_amplification_percent=150 --compression_type=none"
                     " --benchmarks=fillseq --num=100 --db=" +
                     path,
                 &rc);
  ASSERT_EQ(rc, 0) << out;
  std::string name;
  ASSERT_OK(GetLatestOptionsFileName(path, Env::Default(), &name));
  const std::map<std::string, std::string> rocksdb =
      DefaultFamilyLines(test::ReadFileOrDie(path + "/" + name));
  const std::map<std::string, std::string> strata =
      DefaultFamilyLines(OptionsFileContents(DbBenchUniversal(), BlockBasedTableOptions()));
  for (const char* option : kNewOptions) {
    auto r = rocksdb.find(option);
    auto s = strata.find(option);
    if (r == rocksdb.end()) {
      EXPECT_EQ(s, strata.end()) << option << " written by Strata, not by RocksDB";
      continue;
    }
    ASSERT_NE(s, strata.end()) << option;
    EXPECT_EQ(s->second, r->second) << option;
  }
  // Strata reads RocksDB's file: the style and the universal settings
  // (db_bench sets options Strata lacks away from their defaults: those
  // are skipped; the new options are parsed all the same).
  DBOptions db;
  std::vector<ColumnFamilyDescriptor> families;
  ConfigOptions config;
  config.ignore_unknown_options = true;
  ASSERT_OK(LoadLatestOptions(config, path, &db, &families));
  ASSERT_EQ(families.size(), 1u);
  const ColumnFamilyOptions& cf = families[0].options;
  EXPECT_EQ(cf.compaction_style, kCompactionStyleUniversal);
  EXPECT_EQ(cf.compaction_options_universal.size_ratio, 5u);
  EXPECT_EQ(cf.compaction_options_universal.min_merge_width, 3u);
  EXPECT_EQ(cf.compaction_options_universal.max_size_amplification_percent, 150u);
  EXPECT_TRUE(cf.compaction_options_fifo.allow_compaction);
  EXPECT_EQ(cf.ttl, 2592000u);
  EXPECT_EQ(cf.periodic_compaction_seconds, 2592000u);
}

// RocksDB's ldb opens a Strata database with --try_load_options when the
// OPTIONS file holds universal or FIFO settings, and reads every key.
TEST(OptionsFileTest, LdbLoadsStrataOptionsOfEveryStyle) {
  if (access(kLdb, X_OK) != 0) GTEST_SKIP() << kLdb << " not installed (rocksdb-tools)";
  test::TempDir tmp("options_file_ldb");
  const std::string path = tmp.path() + "/db";
  {
    Options options;
    options.create_if_missing = true;
    std::unique_ptr<DB> db;
    ASSERT_OK(DB::Open(options, path, &db));
    for (int i = 0; i < 50; ++i) {
      ASSERT_OK(db->Put(WriteOptions(), "key" + std::to_string(100 + i), "v" + std::to_string(i)));
    }
    ASSERT_OK(db->Flush(FlushOptions()));
    ASSERT_OK(db->Put(WriteOptions(), "key200", "in the wal"));
    ASSERT_OK(db->Close());
  }
  std::string latest;
  ASSERT_OK(GetLatestOptionsFileName(path, Env::Default(), &latest));
  uint64_t number = std::stoull(latest.substr(strlen("OPTIONS-")));
  for (CompactionStyle style : {kCompactionStyleUniversal, kCompactionStyleFIFO,
                                kCompactionStyleNone, kCompactionStyleLevel}) {
    Options o = Unusual();
    o.compaction_style = style;
    o.compression_per_level.clear();  // only codecs both builds have
    o.bottommost_compression = kDisableCompressionOption;
    o.bottommost_compression_opts = CompressionOptions();
    o.compression_opts = CompressionOptions();
    SanitizeColumnFamilyOptions(&o);
    ++number;
    ASSERT_OK(WriteOptionsFile(Env::Default()->GetFileSystem(), path, number, o,
                               BlockBasedTableOptions(), nullptr));
    int rc = 0;
    const std::string out =
        RunCommand(std::string(kLdb) + " --db=" + path + " --try_load_options scan", &rc);
    ASSERT_EQ(rc, 0) << "style " << static_cast<int>(style) << ": " << out;
    EXPECT_NE(out.find("key100 : v0\n"), std::string::npos) << out;
    EXPECT_NE(out.find("key149 : v49\n"), std::string::npos) << out;
    EXPECT_NE(out.find("key200 : in the wal\n"), std::string::npos) << out;
    // And Strata reads the same file back.
    DBOptions db;
    std::vector<ColumnFamilyDescriptor> families;
    ASSERT_OK(LoadLatestOptions(path, Env::Default(), &db, &families));
    ASSERT_EQ(families.size(), 1u);
    EXPECT_EQ(families[0].options.compaction_style, style);
    EXPECT_EQ(families[0].options.compaction_options_universal.size_ratio, 5u);
    EXPECT_EQ(families[0].options.compaction_options_fifo.max_table_files_size, 12345678u);
  }
}

}  // namespace
}  // namespace strata
