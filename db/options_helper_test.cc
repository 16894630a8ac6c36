// Option strings and maps (strata/convenience.h over db/options_helper.h):
// RocksDB's syntax, every value kind, errors naming the option, RocksDB
// options Strata lacks, and the round trip options -> string -> options.
#include "db/options_helper.h"

#include <gtest/gtest.h>

#include <set>

#include "db/options_dump.h"
#include "strata/cache.h"
#include "strata/compaction_filter.h"
#include "strata/comparator.h"
#include "strata/convenience.h"
#include "strata/filter_policy.h"
#include "strata/merge_operator.h"
#include "strata/slice_transform.h"
#include "strata/statistics.h"
#include "table/filter_policy.h"
#include "test_util/testutil.h"
#include "util/random.h"

namespace strata {
namespace {

TEST(OptionsHelperTest, TableCoversEveryFieldWithATextForm) {
  // options_dump_test proves the dump lists every field; here every dumped
  // field is in the table, except objects that have no text form.
  const std::set<std::string> no_text = {"env", "info_log", "listeners", "statistics",
                                         "compaction_filter", "table_factory",
                                         "compaction_filter_factory", "table_properties_collectors",
                                         // No text form in RocksDB 7.8.3 either.
                                         "db_paths", "cf_paths",
                                         // paced I/O's objects (issue 19)
                                         "rate_limiter", "sst_file_manager.rate_bytes_per_sec",
                                         // Issue 19: objects RocksDB does not print either.
                                         "write_buffer_manager", "cache_usage_options",
                                         // An object RocksDB's OPTIONS file leaves out too.
                                         "compaction_thread_limiter",
                                         // A borrowed object (strata/wal_filter.h).
                                         "wal_filter"};
  for (const OptionLine& l : DBOptionLines(DBOptions())) {
    if (no_text.count(l.name) == 0) {
      EXPECT_NE(FindOption(OptionScope::kDB, l.name), nullptr) << l.name;
    }
  }
  ColumnFamilyOptions cf;
  cf.compression_per_level = {kNoCompression};  // no line when empty
  for (const OptionLine& l : ColumnFamilyOptionLines(cf)) {
    if (no_text.count(l.FieldName()) == 0) {
      EXPECT_NE(FindOption(OptionScope::kCF, l.FieldName()), nullptr) << l.FieldName();
    }
  }
  for (const OptionLine& l : TableOptionLines(BlockBasedTableOptions())) {
    if (no_text.count(l.name) != 0) continue;
    EXPECT_NE(FindOption(OptionScope::kTable, l.name), nullptr) << l.name;
  }
  // Every name of the table is one RocksDB has, except Strata's own.
  const std::set<std::string> strata_only = {
      "wal_mmap_writes", "table_mmap_reads", "wal_preallocation_size", "memtable_point_index",
      "l0_key_filter_bits_per_key", "use_delta_encoding", "max_subcompactions",
      "memory_budget",  // issue 19
      // RocksDB has these but does not print them.
      "db_log_dir", "block_cache", "wal_dir"};
  for (const OptionInfo& i : OptionTable()) {
    if (strata_only.count(i.name) != 0) continue;
    EXPECT_TRUE(IsRocksDBOption(i.scope, i.name)) << i.name;
  }
}

TEST(OptionsHelperTest, StringToMapSyntax) {
  OptionsMap m;
  ASSERT_OK(StringToMap("  a = 1 ;b=  two words ;c={x=1;y={z=2}};d=;", &m));
  EXPECT_EQ(m.size(), 4u);
  EXPECT_EQ(m["a"], "1");
  EXPECT_EQ(m["b"], "two words");
  EXPECT_EQ(m["c"], "x=1;y={z=2}");
  EXPECT_EQ(m["d"], "");
  ASSERT_OK(StringToMap("", &m));
  EXPECT_TRUE(m.empty());
  ASSERT_OK(StringToMap("a=x\\;y;b=2", &m));
  EXPECT_EQ(m["a"], "x\\;y");
  EXPECT_TRUE(StringToMap("write_buffer_size", &m).IsInvalidArgument());
  EXPECT_TRUE(StringToMap("a={b=1", &m).IsInvalidArgument());
  EXPECT_TRUE(StringToMap("a={b=1}x;", &m).IsInvalidArgument());
  EXPECT_TRUE(StringToMap("=1", &m).IsInvalidArgument());
}

TEST(OptionsHelperTest, ColumnFamilyValuesOfEveryKind) {
  ConfigOptions config;
  ColumnFamilyOptions base, cf;
  ASSERT_OK(GetColumnFamilyOptionsFromString(
      config, base,
      " write_buffer_size = 4k ; max_write_buffer_number=3; target_file_size_base=2m;"
      "max_bytes_for_level_base=1G;hard_pending_compaction_bytes_limit=1T;"
      "disable_auto_compactions=true;level_compaction_dynamic_level_bytes=0;"
      "max_bytes_for_level_multiplier=4.5;compression=kNoCompression;"
      "prefix_extractor=fixed:3;merge_operator=uint64add;"
      "comparator=rocksdb.ReverseBytewiseComparator;"
      "block_based_table_factory={block_size=8k;cache_index_and_filter_blocks=true;"
      "filter_policy=bloomfilter:10:false;checksum=kCRC32c;"
      "data_block_index_type=kDataBlockBinaryAndHash}",
      &cf));
  EXPECT_EQ(cf.write_buffer_size, 4096u);
  EXPECT_EQ(cf.max_write_buffer_number, 3);
  EXPECT_EQ(cf.target_file_size_base, 2u << 20);
  EXPECT_EQ(cf.max_bytes_for_level_base, 1ull << 30);
  EXPECT_EQ(cf.hard_pending_compaction_bytes_limit, 1ull << 40);
  EXPECT_TRUE(cf.disable_auto_compactions);
  EXPECT_FALSE(cf.level_compaction_dynamic_level_bytes);
  EXPECT_DOUBLE_EQ(cf.max_bytes_for_level_multiplier, 4.5);
  EXPECT_EQ(cf.compression, kNoCompression);
  ASSERT_NE(cf.prefix_extractor, nullptr);
  EXPECT_STREQ(cf.prefix_extractor->Name(), "rocksdb.FixedPrefix.3");
  ASSERT_NE(cf.merge_operator, nullptr);
  EXPECT_STREQ(cf.merge_operator->Name(), "UInt64AddOperator");
  EXPECT_EQ(cf.comparator, ReverseBytewiseComparator());
  ASSERT_NE(cf.table_factory, nullptr);
  const BlockBasedTableOptions& t = cf.table_factory->table_options();
  EXPECT_EQ(t.block_size, 8192u);
  EXPECT_TRUE(t.cache_index_and_filter_blocks);
  EXPECT_EQ(t.checksum, kCRC32c);
  EXPECT_EQ(t.data_block_index_type,
            BlockBasedTableOptions::DataBlockIndexType::kDataBlockBinaryAndHash);
  const auto* bloom = dynamic_cast<const BloomFilterPolicy*>(t.filter_policy.get());
  ASSERT_NE(bloom, nullptr);
  EXPECT_EQ(bloom->millibits_per_key(), 10000);
  // The base is untouched.
  EXPECT_EQ(base.write_buffer_size, ColumnFamilyOptions().write_buffer_size);

  ASSERT_OK(GetColumnFamilyOptionsFromString(config, base,
                                             "prefix_extractor=rocksdb.CappedPrefix.5;"
                                             "merge_operator={id=StringAppendOperator;delimiter=:}",
                                             &cf));
  EXPECT_STREQ(cf.prefix_extractor->Name(), "rocksdb.CappedPrefix.5");
  EXPECT_STREQ(cf.merge_operator->Name(), "StringAppendOperator");
  ASSERT_OK(GetColumnFamilyOptionsFromString(config, cf, "prefix_extractor=nullptr", &cf));
  EXPECT_EQ(cf.prefix_extractor, nullptr);
}

TEST(OptionsHelperTest, DBValuesAndEnums) {
  ConfigOptions config;
  DBOptions db;
  ASSERT_OK(GetDBOptionsFromString(config, DBOptions(),
                                   "max_open_files=-1;max_background_jobs=8;create_if_missing=1;"
                                   "wal_recovery_mode=kAbsoluteConsistency;"
                                   "info_log_level=WARN_LEVEL;db_log_dir=/tmp/x;"
                                   "stats_dump_period_sec=0;delayed_write_rate=16M",
                                   &db));
  EXPECT_EQ(db.max_open_files, -1);
  EXPECT_EQ(db.max_background_jobs, 8);
  EXPECT_TRUE(db.create_if_missing);
  EXPECT_EQ(db.wal_recovery_mode, WALRecoveryMode::kAbsoluteConsistency);
  EXPECT_EQ(db.info_log_level, InfoLogLevel::kWarn);
  EXPECT_EQ(db.db_log_dir, "/tmp/x");
  EXPECT_EQ(db.stats_dump_period_sec, 0u);
  EXPECT_EQ(db.delayed_write_rate, 16u << 20);

  Options o;
  ASSERT_OK(GetOptionsFromString(config, Options(),
                                 "create_if_missing=true;write_buffer_size=1m;num_levels=4", &o));
  EXPECT_TRUE(o.create_if_missing);
  EXPECT_EQ(o.write_buffer_size, 1u << 20);
  EXPECT_EQ(o.num_levels, 4);
}

TEST(OptionsHelperTest, ErrorsNameTheOption) {
  ConfigOptions config;
  ColumnFamilyOptions base, cf;
  base.write_buffer_size = 12345;
  Status s = GetColumnFamilyOptionsFromString(config, base, "foo=1", &cf);
  ASSERT_TRUE(s.IsInvalidArgument());
  // RocksDB 7.8.3 prints exactly this.
  EXPECT_EQ(s.ToString(), "Invalid argument: Could not find option: : foo");
  EXPECT_EQ(cf.write_buffer_size, 12345u);  // left at the base

  const std::pair<const char*, const char*> bad[] = {
      {"write_buffer_size=abc", "write_buffer_size"},
      {"write_buffer_size=-1", "write_buffer_size"},
      {"write_buffer_size=1x", "write_buffer_size"},
      {"disable_auto_compactions=yes", "disable_auto_compactions"},
      {"compression=kFoo", "compression"},
      {"max_write_buffer_number=99999999999", "max_write_buffer_number"},
      {"max_bytes_for_level_multiplier=abc", "max_bytes_for_level_multiplier"},
      {"prefix_extractor=weird:3", "prefix_extractor"},
      {"merge_operator=NoSuchOperator", "merge_operator"},
      {"comparator=my.Comparator", "comparator"},
      {"block_based_table_factory={block_size=big}", "block_size"},
      {"block_based_table_factory={filter_policy=cuckoofilter:10}", "filter_policy"},
      {"block_based_table_factory={no_such_table_option=1}", "no_such_table_option"},
      {"table_factory=PlainTable", "table_factory"},
      {"compaction_style=kCompactionStyleTiered", "compaction_style"},
      {"compaction_pri=kBySize", "compaction_pri"},
      {"bottommost_compression=kZstd", "bottommost_compression"},
      {"ttl=-5", "ttl"},
      {"periodic_compaction_seconds=1day", "periodic_compaction_seconds"},
      {"max_bytes_for_level_multiplier_additional=1:x:1",
       "max_bytes_for_level_multiplier_additional"},
      {"compression_per_level=kNoCompression:kFast", "compression_per_level"},
      {"compaction_options_universal={size_ratio=big}", "compaction_options_universal.size_ratio"},
      {"compaction_options_universal={stop_style=kSimilar}",
       "compaction_options_universal.stop_style"},
      {"compaction_options_universal={no_such_field=1}",
       "compaction_options_universal.no_such_field"},
      {"compaction_options_universal.max_merge_width=-1",
       "compaction_options_universal.max_merge_width"},
      {"compaction_options_fifo={allow_compaction=maybe}",
       "compaction_options_fifo.allow_compaction"},
      {"compaction_options_fifo=lots", "compaction_options_fifo"},
      {"compression_opts={level=high}", "compression_opts.level"},
      {"compression_opts=-14:32767", "compression_opts"},
      {"bottommost_compression_opts=-14:1:0:0:0:1:false:0:true:9", "bottommost_compression_opts"},
      {"bottommost_compression_opts=-14:1:0:0:0:maybe", "bottommost_compression_opts"},
  };
  for (const auto& [text, name] : bad) {
    s = GetColumnFamilyOptionsFromString(config, base, text, &cf);
    EXPECT_TRUE(s.IsInvalidArgument()) << text;
    EXPECT_NE(s.ToString().find(name), std::string::npos) << text << " -> " << s.ToString();
    EXPECT_EQ(cf.write_buffer_size, 12345u) << text;
  }
  DBOptions db;
  s = GetDBOptionsFromString(config, DBOptions(), "write_buffer_size=4k", &db);
  EXPECT_EQ(s.ToString(), "Invalid argument: Could not find option: : write_buffer_size");
  s = GetDBOptionsFromString(config, DBOptions(), "wal_recovery_mode=kBogus", &db);
  EXPECT_NE(s.ToString().find("wal_recovery_mode"), std::string::npos);
}

TEST(OptionsHelperTest, RocksDBOptionsStrataLacks) {
  ConfigOptions config;
  ColumnFamilyOptions cf;
  // At RocksDB's default: accepted, nothing changes.
  ASSERT_OK(GetColumnFamilyOptionsFromString(
      config, ColumnFamilyOptions(),
      "compaction_style=kCompactionStyleLevel;bottommost_compression=kDisableCompressionOption;"
      "table_factory=BlockBasedTable;optimize_filters_for_hits=0;"
      "compaction_options_fifo={max_table_files_size=1073741824;allow_compaction=false;"
      "age_for_warm=0}",
      &cf));
  DBOptions db;
  ASSERT_OK(GetDBOptionsFromString(
      config, DBOptions(), "delete_obsolete_files_period_micros=21600000000;allow_2pc=false", &db));
  Status s =
      GetDBOptionsFromString(config, DBOptions(), "delete_obsolete_files_period_micros=1000", &db);
  ASSERT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.ToString().find("Strata does not support option delete_obsolete_files_period_micros"),
            std::string::npos)
      << s.ToString();
  // ignore_unknown_options: anything goes (and nothing changes).
  config.ignore_unknown_options = true;
  ASSERT_OK(GetDBOptionsFromString(config, DBOptions(),
                                   "delete_obsolete_files_period_micros=1000;foo=bar", &db));
  ASSERT_OK(GetColumnFamilyOptionsFromString(
      config, ColumnFamilyOptions(),
      "compaction_style=kCompactionStyleUniversal;comparator=my.Comparator;write_buffer_size=1m",
      &cf));
  EXPECT_EQ(cf.comparator, BytewiseComparator());
  EXPECT_EQ(cf.write_buffer_size, 1u << 20);
}

TEST(OptionsHelperTest, EscapesAndLegacyOverloads) {
  ConfigOptions config;
  DBOptions db;
  ASSERT_OK(GetDBOptionsFromString(config, DBOptions(), "db_log_dir=/tmp/a\\;b", &db));
  EXPECT_EQ(db.db_log_dir, "/tmp/a;b");
  config.input_strings_escaped = false;
  ASSERT_OK(GetDBOptionsFromString(config, DBOptions(), "db_log_dir=/tmp/a\\;b", &db));
  EXPECT_EQ(db.db_log_dir, "/tmp/a\\;b");

  ColumnFamilyOptions cf;
  ASSERT_OK(GetColumnFamilyOptionsFromMap(ColumnFamilyOptions(),
                                          {{"write_buffer_size", "8k"}, {"num_levels", "3"}}, &cf));
  EXPECT_EQ(cf.write_buffer_size, 8192u);
  EXPECT_TRUE(GetColumnFamilyOptionsFromMap(ColumnFamilyOptions(), {{"nope", "1"}}, &cf)
                  .IsInvalidArgument());
  ASSERT_OK(GetColumnFamilyOptionsFromMap(ColumnFamilyOptions(), {{"nope", "1"}}, &cf, false,
                                          /*ignore_unknown_options=*/true));
  BlockBasedTableOptions t;
  ASSERT_OK(GetBlockBasedTableOptionsFromString(BlockBasedTableOptions(),
                                                "block_size=16k;block_cache=1m", &t));
  EXPECT_EQ(t.block_size, 16384u);
  ASSERT_NE(t.block_cache, nullptr);
  EXPECT_EQ(t.block_cache->GetCapacity(), 1u << 20);
  Options o;
  ASSERT_OK(GetOptionsFromString(Options(), "max_open_files=100;max_write_buffer_number=5", &o));
  EXPECT_EQ(o.max_open_files, 100);
  EXPECT_EQ(o.max_write_buffer_number, 5);
}

TEST(OptionsHelperTest, RoundTrip) {
  Options o;
  o.create_if_missing = true;
  o.max_open_files = 77;
  o.wal_recovery_mode = WALRecoveryMode::kSkipAnyCorruptedRecords;
  o.db_log_dir = "/some/dir";
  o.write_buffer_size = 3 << 20;
  o.compression = kZSTD;
  o.max_bytes_for_level_multiplier = 7.25;
  o.prefix_extractor.reset(NewCappedPrefixTransform(4));
  o.merge_operator = MergeOperators::CreateMaxOperator();
  BlockBasedTableOptions t;
  t.block_size = 16 << 10;
  t.filter_policy = NewBloomFilterPolicy(12.5);
  t.checksum = kxxHash64;
  o.table_factory = NewBlockBasedTableFactory(t);

  ConfigOptions config;
  std::string db_text, cf_text;
  ASSERT_OK(GetStringFromDBOptions(config, o, &db_text));
  ASSERT_OK(GetStringFromColumnFamilyOptions(config, o, &cf_text));
  DBOptions db;
  ColumnFamilyOptions cf;
  ASSERT_OK(GetDBOptionsFromString(config, DBOptions(), db_text, &db));
  ASSERT_OK(GetColumnFamilyOptionsFromString(config, ColumnFamilyOptions(), cf_text, &cf));
  std::string db_again, cf_again;
  ASSERT_OK(GetStringFromDBOptions(config, db, &db_again));
  ASSERT_OK(GetStringFromColumnFamilyOptions(config, cf, &cf_again));
  EXPECT_EQ(db_text, db_again);
  EXPECT_EQ(cf_text, cf_again);
  EXPECT_EQ(db.max_open_files, 77);
  EXPECT_EQ(db.wal_recovery_mode, WALRecoveryMode::kSkipAnyCorruptedRecords);
  EXPECT_EQ(cf.compression, kZSTD);
  EXPECT_STREQ(cf.prefix_extractor->Name(), "rocksdb.CappedPrefix.4");
  EXPECT_STREQ(cf.merge_operator->Name(), "MaxOperator");
  EXPECT_EQ(cf.table_factory->table_options().block_size, 16u << 10);
  EXPECT_EQ(cf.table_factory->table_options().checksum, kxxHash64);
  EXPECT_NE(cf_text.find("filter_policy=bloomfilter:12.5:false"), std::string::npos) << cf_text;
  // The legacy printer's delimiter.
  std::string legacy;
  ASSERT_OK(GetStringFromDBOptions(&legacy, o));
  EXPECT_NE(legacy.find("max_open_files=77;  "), std::string::npos);
}

TEST(OptionsHelperTest, MutableOnly) {
  ConfigOptions config;
  config.mutable_options_only = true;
  ColumnFamilyOptions cf;
  ASSERT_OK(GetColumnFamilyOptionsFromString(config, ColumnFamilyOptions(),
                                             "write_buffer_size=1m;"
                                             "block_based_table_factory={block_size=8k}",
                                             &cf));
  Status s = GetColumnFamilyOptionsFromString(config, ColumnFamilyOptions(), "num_levels=3", &cf);
  EXPECT_EQ(s.ToString(), "Invalid argument: Option not changeable: num_levels");
  s = GetColumnFamilyOptionsFromString(config, ColumnFamilyOptions(),
                                       "block_based_table_factory={checksum=kCRC32c}", &cf);
  EXPECT_NE(s.ToString().find("checksum"), std::string::npos);
}

// ---- the compaction-style and compression-by-level options ----

TEST(OptionsHelperTest, CompactionStyleOptionsParse) {
  ConfigOptions config;
  ColumnFamilyOptions cf;
  ASSERT_OK(GetColumnFamilyOptionsFromString(
      config, ColumnFamilyOptions(),
      "compaction_style=kCompactionStyleUniversal;compaction_pri=kOldestSmallestSeqFirst;"
      "compaction_options_universal={size_ratio=5;min_merge_width=3;max_merge_width=9;"
      "max_size_amplification_percent=150;compression_size_percent=40;"
      "stop_style=kCompactionStopStyleSimilarSize;allow_trivial_move=true;incremental=true};"
      "compaction_options_fifo={max_table_files_size=1m;allow_compaction=true;age_for_warm=7};"
      "ttl=3600;periodic_compaction_seconds=7200;"
      "max_bytes_for_level_multiplier_additional=1:2:3;"
      "compression_per_level=kNoCompression:kSnappyCompression:kZSTD;"
      "bottommost_compression=kZSTD;"
      "compression_opts={window_bits=-15;level=5;strategy=1;max_dict_bytes=16k;"
      "zstd_max_train_bytes=64k;parallel_threads=2;enabled=true;max_dict_buffer_bytes=1m;"
      "use_zstd_dict_trainer=false};"
      "bottommost_compression_opts={level=19;enabled=true}",
      &cf));
  EXPECT_EQ(cf.compaction_style, kCompactionStyleUniversal);
  EXPECT_EQ(cf.compaction_pri, kOldestSmallestSeqFirst);
  const CompactionOptionsUniversal& u = cf.compaction_options_universal;
  EXPECT_EQ(u.size_ratio, 5u);
  EXPECT_EQ(u.min_merge_width, 3u);
  EXPECT_EQ(u.max_merge_width, 9u);
  EXPECT_EQ(u.max_size_amplification_percent, 150u);
  EXPECT_EQ(u.compression_size_percent, 40);
  EXPECT_EQ(u.stop_style, kCompactionStopStyleSimilarSize);
  EXPECT_TRUE(u.allow_trivial_move);
  EXPECT_TRUE(u.incremental);
  EXPECT_EQ(cf.compaction_options_fifo.max_table_files_size, 1u << 20);
  EXPECT_TRUE(cf.compaction_options_fifo.allow_compaction);
  EXPECT_EQ(cf.compaction_options_fifo.age_for_warm, 7u);
  EXPECT_EQ(cf.ttl, 3600u);
  EXPECT_EQ(cf.periodic_compaction_seconds, 7200u);
  EXPECT_EQ(cf.max_bytes_for_level_multiplier_additional, (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(cf.compression_per_level,
            (std::vector<CompressionType>{kNoCompression, kSnappyCompression, kZSTD}));
  EXPECT_EQ(cf.bottommost_compression, kZSTD);
  const CompressionOptions& c = cf.compression_opts;
  EXPECT_EQ(c.window_bits, -15);
  EXPECT_EQ(c.level, 5);
  EXPECT_EQ(c.strategy, 1);
  EXPECT_EQ(c.max_dict_bytes, 16u << 10);
  EXPECT_EQ(c.zstd_max_train_bytes, 64u << 10);
  EXPECT_EQ(c.parallel_threads, 2u);
  EXPECT_TRUE(c.enabled);
  EXPECT_EQ(c.max_dict_buffer_bytes, 1u << 20);
  EXPECT_FALSE(c.use_zstd_dict_trainer);
  // A partial nested value changes only the fields it names.
  const CompressionOptions d;
  EXPECT_EQ(cf.bottommost_compression_opts.level, 19);
  EXPECT_TRUE(cf.bottommost_compression_opts.enabled);
  EXPECT_EQ(cf.bottommost_compression_opts.window_bits, d.window_bits);
  EXPECT_EQ(cf.bottommost_compression_opts.use_zstd_dict_trainer, d.use_zstd_dict_trainer);

  ColumnFamilyOptions base = cf, again;
  ASSERT_OK(GetColumnFamilyOptionsFromString(
      config, base, "compaction_options_universal={size_ratio=7}", &again));
  EXPECT_EQ(again.compaction_options_universal.size_ratio, 7u);
  EXPECT_EQ(again.compaction_options_universal.min_merge_width, 3u);  // kept from the base
  EXPECT_EQ(again.compaction_options_universal.stop_style, kCompactionStopStyleSimilarSize);
  // RocksDB's dotted form for one field.
  ASSERT_OK(GetColumnFamilyOptionsFromString(
      config, base, "compaction_options_fifo.max_table_files_size=2k;compression_opts.level=3",
      &again));
  EXPECT_EQ(again.compaction_options_fifo.max_table_files_size, 2048u);
  EXPECT_TRUE(again.compaction_options_fifo.allow_compaction);
  EXPECT_EQ(again.compression_opts.level, 3);
  EXPECT_EQ(again.compression_opts.window_bits, -15);
  // Empty lists.
  ASSERT_OK(GetColumnFamilyOptionsFromString(
      config, base, "compression_per_level=;max_bytes_for_level_multiplier_additional=", &again));
  EXPECT_TRUE(again.compression_per_level.empty());
  EXPECT_TRUE(again.max_bytes_for_level_multiplier_additional.empty());
  // Every enum spelling.
  for (const char* style : {"kCompactionStyleLevel", "kCompactionStyleUniversal",
                            "kCompactionStyleFIFO", "kCompactionStyleNone"}) {
    ASSERT_OK(GetColumnFamilyOptionsFromString(config, base,
                                               std::string("compaction_style=") + style, &again));
    EXPECT_EQ(CFOptionsToString(again, ";").find(std::string("compaction_style=") + style + ";") !=
                  std::string::npos,
              true)
        << style;
  }
  for (const char* pri : {"kByCompensatedSize", "kOldestLargestSeqFirst", "kOldestSmallestSeqFirst",
                          "kMinOverlappingRatio", "kRoundRobin"}) {
    ASSERT_OK(GetColumnFamilyOptionsFromString(config, base, std::string("compaction_pri=") + pri,
                                               &again));
    EXPECT_NE(CFOptionsToString(again, ";").find(std::string("compaction_pri=") + pri + ";"),
              std::string::npos)
        << pri;
  }
}

TEST(OptionsHelperTest, CompactionStyleLegacyForms) {
  ConfigOptions config;
  ColumnFamilyOptions cf;
  // compression_opts as RocksDB's colon list, every length it reads.
  ASSERT_OK(GetColumnFamilyOptionsFromString(config, ColumnFamilyOptions(),
                                             "compression_opts=-13:4:2", &cf));
  EXPECT_EQ(cf.compression_opts.window_bits, -13);
  EXPECT_EQ(cf.compression_opts.level, 4);
  EXPECT_EQ(cf.compression_opts.strategy, 2);
  EXPECT_EQ(cf.compression_opts.max_dict_bytes, 0u);
  ASSERT_OK(GetColumnFamilyOptionsFromString(config, ColumnFamilyOptions(),
                                             "compression_opts=-14:32767:0:1024:2048:true", &cf));
  EXPECT_EQ(cf.compression_opts.max_dict_bytes, 1024u);
  EXPECT_EQ(cf.compression_opts.zstd_max_train_bytes, 2048u);
  EXPECT_TRUE(cf.compression_opts.enabled);  // a sixth and last field is `enabled`
  EXPECT_EQ(cf.compression_opts.parallel_threads, 1u);
  ASSERT_OK(GetColumnFamilyOptionsFromString(
      config, ColumnFamilyOptions(),
      "bottommost_compression_opts=-14:32767:0:0:0:3:true:4096:false", &cf));
  EXPECT_EQ(cf.bottommost_compression_opts.parallel_threads, 3u);
  EXPECT_TRUE(cf.bottommost_compression_opts.enabled);
  EXPECT_EQ(cf.bottommost_compression_opts.max_dict_buffer_bytes, 4096u);
  EXPECT_FALSE(cf.bottommost_compression_opts.use_zstd_dict_trainer);
  // compaction_options_fifo as a bare max_table_files_size; FIFO's old
  // ttl field is read and ignored, as RocksDB 7.8.3 does.
  ASSERT_OK(GetColumnFamilyOptionsFromString(config, ColumnFamilyOptions(),
                                             "compaction_options_fifo=12345", &cf));
  EXPECT_EQ(cf.compaction_options_fifo.max_table_files_size, 12345u);
  ASSERT_OK(GetColumnFamilyOptionsFromString(
      config, ColumnFamilyOptions(), "compaction_options_fifo={ttl=100;allow_compaction=true}",
      &cf));
  EXPECT_TRUE(cf.compaction_options_fifo.allow_compaction);
  EXPECT_EQ(cf.ttl, ColumnFamilyOptions::kDefaultTtl);
  // An unknown nested field is ignored only with ignore_unknown_options.
  config.ignore_unknown_options = true;
  ASSERT_OK(GetColumnFamilyOptionsFromString(
      config, ColumnFamilyOptions(), "compaction_options_universal={size_ratio=4;future_field=1}",
      &cf));
  EXPECT_EQ(cf.compaction_options_universal.size_ratio, 4u);
}

TEST(OptionsHelperTest, CompactionStyleOptionsPrintAsRocksDB) {
  // RocksDB 7.8.3's text for the defaults (rocksdb_option_defaults.inc,
  // printed by librocksdb itself).
  const std::string text = CFOptionsToString(ColumnFamilyOptions(), ";");
  for (const char* want :
       {"compaction_options_universal={incremental=false;compression_size_percent=-1;"
        "allow_trivial_move=false;max_size_amplification_percent=200;"
        "max_merge_width=4294967295;stop_style=kCompactionStopStyleTotalSize;"
        "min_merge_width=2;size_ratio=1;};",
        "compaction_options_fifo={allow_compaction=false;age_for_warm=0;"
        "max_table_files_size=1073741824;};",
        "compression_opts={max_dict_buffer_bytes=0;enabled=false;max_dict_bytes=0;"
        "parallel_threads=1;zstd_max_train_bytes=0;level=32767;use_zstd_dict_trainer=true;"
        "strategy=0;window_bits=-14;};",
        "bottommost_compression_opts={max_dict_buffer_bytes=0;enabled=false;max_dict_bytes=0;"
        "parallel_threads=1;zstd_max_train_bytes=0;level=32767;use_zstd_dict_trainer=true;"
        "strategy=0;window_bits=-14;};",
        ";ttl=18446744073709551614;", ";periodic_compaction_seconds=18446744073709551614;",
        ";max_bytes_for_level_multiplier_additional=1:1:1:1:1:1:1;",
        ";compaction_style=kCompactionStyleLevel;", ";compaction_pri=kMinOverlappingRatio;",
        ";bottommost_compression=kDisableCompressionOption;", ";compression_per_level=;"}) {
    EXPECT_NE(text.find(want), std::string::npos) << want << "\nin " << text;
  }
}

// Random values of every new option survive options -> string -> options.
TEST(OptionsHelperTest, CompactionStyleOptionsRandomRoundTrip) {
  Random64 rng(test::RandomSeed());
  struct {
    Random64* r;
    uint32_t Next() { return static_cast<uint32_t>(r->Next()); }
    uint64_t Next64() { return r->Next(); }
    uint32_t Uniform(uint32_t n) { return static_cast<uint32_t>(r->Uniform(n)); }
    bool OneIn(uint32_t n) { return r->OneIn(n); }
  } rnd{&rng};
  const CompressionType kinds[] = {kNoCompression,  kSnappyCompression, kZlibCompression,
                                   kLZ4Compression, kLZ4HCCompression,  kZSTD};
  auto random_compression_options = [&](CompressionOptions* c) {
    c->window_bits = -static_cast<int>(rnd.Uniform(16));
    c->level = static_cast<int>(rnd.Uniform(40)) - 5;
    c->strategy = static_cast<int>(rnd.Uniform(4));
    c->max_dict_bytes = rnd.Next();
    c->zstd_max_train_bytes = rnd.Next();
    c->parallel_threads = rnd.Uniform(8) + 1;
    c->enabled = rnd.OneIn(2);
    c->max_dict_buffer_bytes = rnd.Next64();
    c->use_zstd_dict_trainer = rnd.OneIn(2);
  };
  ConfigOptions config;
  for (int round = 0; round < 200; ++round) {
    ColumnFamilyOptions o;
    o.compaction_style = static_cast<CompactionStyle>(rnd.Uniform(4));
    o.compaction_pri = static_cast<CompactionPri>(rnd.Uniform(5));
    o.compaction_options_universal.size_ratio = rnd.Next();
    o.compaction_options_universal.min_merge_width = rnd.Next();
    o.compaction_options_universal.max_merge_width = rnd.Next();
    o.compaction_options_universal.max_size_amplification_percent = rnd.Next();
    o.compaction_options_universal.compression_size_percent =
        static_cast<int>(rnd.Uniform(202)) - 101;
    o.compaction_options_universal.stop_style = static_cast<CompactionStopStyle>(rnd.Uniform(2));
    o.compaction_options_universal.allow_trivial_move = rnd.OneIn(2);
    o.compaction_options_universal.incremental = rnd.OneIn(2);
    o.compaction_options_fifo.max_table_files_size = rnd.Next64();
    o.compaction_options_fifo.allow_compaction = rnd.OneIn(2);
    o.compaction_options_fifo.age_for_warm = rnd.Next64();
    o.ttl = rnd.OneIn(4) ? ColumnFamilyOptions::kDefaultTtl : rnd.Next64();
    o.periodic_compaction_seconds = rnd.Next64();
    o.max_bytes_for_level_multiplier_additional.clear();
    for (uint32_t i = rnd.Uniform(9); i > 0; --i) {
      o.max_bytes_for_level_multiplier_additional.push_back(static_cast<int>(rnd.Next()));
    }
    for (uint32_t i = rnd.Uniform(8); i > 0; --i) {
      o.compression_per_level.push_back(kinds[rnd.Uniform(6)]);
    }
    o.bottommost_compression = rnd.OneIn(3) ? kDisableCompressionOption : kinds[rnd.Uniform(6)];
    random_compression_options(&o.compression_opts);
    random_compression_options(&o.bottommost_compression_opts);

    std::string text, again_text;
    ASSERT_OK(GetStringFromColumnFamilyOptions(config, o, &text));
    ColumnFamilyOptions back;
    Status parsed = GetColumnFamilyOptionsFromString(config, ColumnFamilyOptions(), text, &back);
    ASSERT_TRUE(parsed.ok()) << parsed.ToString() << "\n" << text;
    ASSERT_OK(GetStringFromColumnFamilyOptions(config, back, &again_text));
    ASSERT_EQ(text, again_text);
    const auto& u = o.compaction_options_universal;
    const auto& bu = back.compaction_options_universal;
    EXPECT_EQ(back.compaction_style, o.compaction_style);
    EXPECT_EQ(back.compaction_pri, o.compaction_pri);
    EXPECT_EQ(bu.size_ratio, u.size_ratio);
    EXPECT_EQ(bu.min_merge_width, u.min_merge_width);
    EXPECT_EQ(bu.max_merge_width, u.max_merge_width);
    EXPECT_EQ(bu.max_size_amplification_percent, u.max_size_amplification_percent);
    EXPECT_EQ(bu.compression_size_percent, u.compression_size_percent);
    EXPECT_EQ(bu.stop_style, u.stop_style);
    EXPECT_EQ(bu.allow_trivial_move, u.allow_trivial_move);
    EXPECT_EQ(bu.incremental, u.incremental);
    EXPECT_EQ(back.compaction_options_fifo.max_table_files_size,
              o.compaction_options_fifo.max_table_files_size);
    EXPECT_EQ(back.compaction_options_fifo.allow_compaction,
              o.compaction_options_fifo.allow_compaction);
    EXPECT_EQ(back.compaction_options_fifo.age_for_warm, o.compaction_options_fifo.age_for_warm);
    EXPECT_EQ(back.ttl, o.ttl);
    EXPECT_EQ(back.periodic_compaction_seconds, o.periodic_compaction_seconds);
    EXPECT_EQ(back.max_bytes_for_level_multiplier_additional,
              o.max_bytes_for_level_multiplier_additional);
    EXPECT_EQ(back.compression_per_level, o.compression_per_level);
    EXPECT_EQ(back.bottommost_compression, o.bottommost_compression);
    for (auto [a, b] :
         {std::pair{&o.compression_opts, &back.compression_opts},
          std::pair{&o.bottommost_compression_opts, &back.bottommost_compression_opts}}) {
      EXPECT_EQ(b->window_bits, a->window_bits);
      EXPECT_EQ(b->level, a->level);
      EXPECT_EQ(b->strategy, a->strategy);
      EXPECT_EQ(b->max_dict_bytes, a->max_dict_bytes);
      EXPECT_EQ(b->zstd_max_train_bytes, a->zstd_max_train_bytes);
      EXPECT_EQ(b->parallel_threads, a->parallel_threads);
      EXPECT_EQ(b->enabled, a->enabled);
      EXPECT_EQ(b->max_dict_buffer_bytes, a->max_dict_buffer_bytes);
      EXPECT_EQ(b->use_zstd_dict_trainer, a->use_zstd_dict_trainer);
    }
  }
}

TEST(OptionsHelperTest, CompactionStyleMutability) {
  // RocksDB 7.8.3: compaction_style and compaction_pri are fixed at open;
  // the others can be changed by SetOptions.
  ConfigOptions config;
  config.mutable_options_only = true;
  ColumnFamilyOptions cf;
  ASSERT_OK(GetColumnFamilyOptionsFromString(
      config, ColumnFamilyOptions(),
      "compaction_options_universal={size_ratio=3};compaction_options_fifo={allow_compaction=true};"
      "ttl=10;periodic_compaction_seconds=20;max_bytes_for_level_multiplier_additional=2:2;"
      "compression_per_level=kNoCompression;bottommost_compression=kNoCompression;"
      "compression_opts={level=2};bottommost_compression_opts={enabled=true};"
      "compaction_options_universal.max_merge_width=4",
      &cf));
  EXPECT_EQ(cf.compaction_options_universal.size_ratio, 3u);
  EXPECT_EQ(cf.compaction_options_universal.max_merge_width, 4u);
  for (const char* fixed :
       {"compaction_style=kCompactionStyleUniversal", "compaction_pri=kByCompensatedSize"}) {
    Status s = GetColumnFamilyOptionsFromString(config, ColumnFamilyOptions(), fixed, &cf);
    EXPECT_TRUE(s.IsInvalidArgument()) << fixed;
    EXPECT_NE(s.ToString().find("Option not changeable"), std::string::npos) << s.ToString();
  }
}

// Ribbon: RocksDB's ids parse (with and without bloom_before_level) and
// print back as RocksDB writes them ("ribbonfilter:<bits>:<level>").
TEST(OptionsHelperTest, RibbonFilterPolicy) {
  ConfigOptions config;
  struct Case {
    const char* text;
    int millibits;
    int level;
    const char* printed;
  };
  const Case cases[] = {
      {"ribbonfilter:10", 10000, 0, "ribbonfilter:10:0"},
      {"ribbonfilter:7.5:2", 7500, 2, "ribbonfilter:7.5:2"},
      {"rocksdb.RibbonFilter:12.125:-1", 12125, -1, "ribbonfilter:12.125:-1"},
      {"ribbonfilter:9:2147483647", 9000, 2147483647, "ribbonfilter:9:2147483647"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    BlockBasedTableOptions t;
    ASSERT_OK(GetBlockBasedTableOptionsFromString(config, BlockBasedTableOptions(),
                                                  std::string("filter_policy=") + c.text, &t));
    const auto* ribbon = dynamic_cast<const RibbonFilterPolicy*>(t.filter_policy.get());
    ASSERT_NE(ribbon, nullptr);
    EXPECT_EQ(ribbon->millibits_per_key(), c.millibits);
    EXPECT_EQ(ribbon->bloom_before_level(), c.level);
    ColumnFamilyOptions cf;
    cf.table_factory = NewBlockBasedTableFactory(t);
    std::string text;
    ASSERT_OK(GetStringFromColumnFamilyOptions(config, cf, &text));
    EXPECT_NE(text.find(std::string("filter_policy=") + c.printed), std::string::npos) << text;
  }
  BlockBasedTableOptions t;
  const Status s = GetBlockBasedTableOptionsFromString(config, BlockBasedTableOptions(),
                                                       "filter_policy=ribbonfilter:10:x", &t);
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.ToString().find("filter_policy"), std::string::npos) << s.ToString();
}

}  // namespace
// The CreateFromString of the public classes (RocksDB's answers).
TEST(CreateFromStringTest, Comparator) {
  EXPECT_STREQ("Comparator", Comparator::Type());
  ConfigOptions co;
  const Comparator* c = nullptr;
  ASSERT_OK(Comparator::CreateFromString(co, "leveldb.BytewiseComparator", &c));
  EXPECT_EQ(BytewiseComparator(), c);
  ASSERT_OK(Comparator::CreateFromString(co, "rocksdb.ReverseBytewiseComparator", &c));
  EXPECT_EQ(ReverseBytewiseComparator(), c);
  // Unknown: ignored by default (RocksDB's ignore_unsupported_options).
  ASSERT_OK(Comparator::CreateFromString(co, "no.such", &c));
  EXPECT_EQ(ReverseBytewiseComparator(), c);
  co.ignore_unsupported_options = false;
  Status s = Comparator::CreateFromString(co, "no.such", &c);
  EXPECT_TRUE(s.IsNotSupported());
  EXPECT_EQ("Not implemented: Could not load Comparator: no.such", s.ToString());
  ASSERT_OK(Comparator::CreateFromString(co, "", &c));
  EXPECT_EQ(nullptr, c);
}

TEST(CreateFromStringTest, SliceTransform) {
  ConfigOptions co;
  std::shared_ptr<const SliceTransform> t;
  ASSERT_OK(SliceTransform::CreateFromString(co, "fixed:4", &t));
  EXPECT_STREQ("rocksdb.FixedPrefix.4", t->Name());
  ASSERT_OK(SliceTransform::CreateFromString(co, "rocksdb.CappedPrefix.2", &t));
  EXPECT_STREQ("rocksdb.CappedPrefix.2", t->Name());
  ASSERT_OK(SliceTransform::CreateFromString(co, "rocksdb.Noop", &t));
  EXPECT_STREQ("rocksdb.Noop", t->Name());
  ASSERT_OK(SliceTransform::CreateFromString(co, "nope", &t));  // ignored: unchanged
  EXPECT_STREQ("rocksdb.Noop", t->Name());
  co.ignore_unsupported_options = false;
  EXPECT_TRUE(SliceTransform::CreateFromString(co, "nope", &t).IsNotSupported());
  EXPECT_TRUE(SliceTransform::CreateFromString(co, "fixed:x", &t).IsNotSupported());
  ASSERT_OK(SliceTransform::CreateFromString(co, "nullptr", &t));
  EXPECT_EQ(nullptr, t);
}

TEST(CreateFromStringTest, Statistics) {
  EXPECT_STREQ("Statistics", Statistics::Type());
  std::shared_ptr<Statistics> stats = CreateDBStatistics();
  EXPECT_STREQ("BasicStatistics", stats->Name());
  ConfigOptions co;
  EXPECT_EQ("{id=BasicStatistics;inner=nullptr;}", stats->ToString(co));
  EXPECT_EQ("{p.id=BasicStatistics;inner=nullptr;}", stats->ToString(co, "p."));
  std::shared_ptr<Statistics> made;
  ASSERT_OK(Statistics::CreateFromString(co, "", &made));
  ASSERT_NE(nullptr, made);
  EXPECT_NE(stats, made);
  ASSERT_OK(Statistics::CreateFromString(co, "BasicStatistics", &made));
  EXPECT_STREQ("BasicStatistics", made->Name());
  ASSERT_OK(Statistics::CreateFromString(co, "nope", &made));  // ignored
  EXPECT_NE(nullptr, made);
  ASSERT_OK(Statistics::CreateFromString(co, "nullptr", &made));
  EXPECT_EQ(nullptr, made);
  co.ignore_unsupported_options = false;
  EXPECT_TRUE(Statistics::CreateFromString(co, "nope", &made).IsNotSupported());
  // The const form of histogramData.
  const Statistics* cs = stats.get();
  stats->recordInHistogram(DB_GET, 5);
  HistogramData hd;
  cs->histogramData(DB_GET, &hd);
  EXPECT_EQ(1u, hd.count);
}

TEST(CreateFromStringTest, Cache) {
  ConfigOptions co;
  std::shared_ptr<Cache> cache;
  ASSERT_OK(Cache::CreateFromString(co, "8M", &cache));
  ASSERT_NE(nullptr, cache);
  EXPECT_STREQ("LRUCache", cache->Name());
  EXPECT_EQ(size_t{8} << 20, cache->GetCapacity());
  ASSERT_OK(Cache::CreateFromString(co, "capacity=1M;num_shard_bits=2;strict_capacity_limit=true",
                                    &cache));
  EXPECT_EQ(size_t{1} << 20, cache->GetCapacity());
  EXPECT_TRUE(cache->HasStrictCapacityLimit());
  Status s = Cache::CreateFromString(co, "capacity=1M;nope=1", &cache);
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(nullptr, cache);  // unchanged on error
  ASSERT_OK(Cache::CreateFromString(
      co, "capacity=1M;high_pri_pool_ratio=0.9;low_pri_pool_ratio=0.5", &cache));
  EXPECT_EQ(nullptr, cache);  // ratios over 1: RocksDB's NewLRUCache answers null
  EXPECT_STREQ("Cache", Cache::Type());
}

TEST(CreateFromStringTest, MergeOperator) {
  EXPECT_STREQ("MergeOperator", MergeOperator::Type());
  ConfigOptions co;
  std::shared_ptr<MergeOperator> op;
  ASSERT_OK(MergeOperator::CreateFromString(co, "uint64add", &op));
  ASSERT_NE(nullptr, op);
  EXPECT_STREQ("UInt64AddOperator", op->Name());
  ASSERT_OK(MergeOperator::CreateFromString(co, "MaxOperator", &op));
  EXPECT_STREQ("MaxOperator", op->Name());
  ASSERT_OK(MergeOperator::CreateFromString(co, "nope", &op));  // ignored: unchanged
  EXPECT_STREQ("MaxOperator", op->Name());
  co.ignore_unsupported_options = false;
  Status s = MergeOperator::CreateFromString(co, "nope", &op);
  EXPECT_TRUE(s.IsNotSupported());
  EXPECT_EQ("Not implemented: Could not load MergeOperator: nope", s.ToString());
  ASSERT_OK(MergeOperator::CreateFromString(co, "", &op));
  EXPECT_EQ(nullptr, op);
}

// RocksDB's CompactionFilter surface beyond FilterV2: defaults and names.
TEST(CompactionFilterDefaultsTest, RocksDBMembers) {
  class Plain : public CompactionFilter {
   public:
    const char* Name() const override { return "Plain"; }
  } f;
  EXPECT_TRUE(f.IgnoreSnapshots());
  EXPECT_FALSE(f.IsStackedBlobDbInternalCompactionFilter());
  std::string v, skip;
  EXPECT_EQ(CompactionFilter::Decision::kUndetermined, f.FilterBlobByKey(1, "k", &v, &skip));
  EXPECT_EQ(CompactionFilter::BlobDecision::kKeep, f.PrepareBlobOutput("k", "v", &v));
  EXPECT_EQ(CompactionFilter::Decision::kKeep,
            f.FilterV2(1, "k", CompactionFilter::kBlobIndex, "v", &v, &skip));
  EXPECT_STREQ("CompactionFilter", CompactionFilter::Type());
  EXPECT_STREQ("CompactionFilterFactory", CompactionFilterFactory::Type());
  ConfigOptions co;
  const CompactionFilter* made = &f;
  ASSERT_OK(CompactionFilter::CreateFromString(co, "nope", &made));
  EXPECT_EQ(&f, made);
  ASSERT_OK(CompactionFilter::CreateFromString(co, "", &made));
  EXPECT_EQ(nullptr, made);
  co.ignore_unsupported_options = false;
  EXPECT_TRUE(CompactionFilter::CreateFromString(co, "nope", &made).IsNotSupported());
  std::shared_ptr<CompactionFilterFactory> factory;
  EXPECT_TRUE(CompactionFilterFactory::CreateFromString(co, "nope", &factory).IsNotSupported());

  class Factory : public CompactionFilterFactory {
   public:
    std::unique_ptr<CompactionFilter> CreateCompactionFilter(
        const CompactionFilter::Context&) override {
      return nullptr;
    }
    const char* Name() const override { return "Factory"; }
  } plain_factory;
  EXPECT_TRUE(plain_factory.ShouldFilterTableFileCreation(TableFileCreationReason::kCompaction));
  EXPECT_FALSE(plain_factory.ShouldFilterTableFileCreation(TableFileCreationReason::kFlush));
  EXPECT_FALSE(plain_factory.ShouldFilterTableFileCreation(TableFileCreationReason::kRecovery));
}

}  // namespace strata
