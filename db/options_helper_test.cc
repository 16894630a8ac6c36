// Option strings and maps (strata/convenience.h over db/options_helper.h):
// RocksDB's syntax, every value kind, errors naming the option, RocksDB
// options Strata lacks, and the round trip options -> string -> options.
#include "db/options_helper.h"

#include <gtest/gtest.h>

#include <set>

#include "db/options_dump.h"
#include "strata/convenience.h"
#include "strata/filter_policy.h"
#include "strata/merge_operator.h"
#include "strata/slice_transform.h"
#include "table/filter_policy.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

TEST(OptionsHelperTest, TableCoversEveryFieldWithATextForm) {
  // options_dump_test proves the dump lists every field; here every dumped
  // field is in the table, except objects that have no text form.
  const std::set<std::string> no_text = {"env",
                                         "info_log",
                                         "listeners",
                                         "statistics",
                                         "compaction_filter",
                                         "table_factory",
                                         "compaction_filter_factory",
                                         "table_properties_collectors"};
  for (const OptionLine& l : DBOptionLines(DBOptions())) {
    if (no_text.count(l.name) == 0) {
      EXPECT_NE(FindOption(OptionScope::kDB, l.name), nullptr) << l.name;
    }
  }
  for (const OptionLine& l : ColumnFamilyOptionLines(ColumnFamilyOptions())) {
    if (no_text.count(l.name) == 0) {
      EXPECT_NE(FindOption(OptionScope::kCF, l.name), nullptr) << l.name;
    }
  }
  for (const OptionLine& l : TableOptionLines(BlockBasedTableOptions())) {
    EXPECT_NE(FindOption(OptionScope::kTable, l.name), nullptr) << l.name;
  }
  // Every name of the table is one RocksDB has, except Strata's own.
  const std::set<std::string> strata_only = {
      "wal_mmap_writes", "table_mmap_reads", "wal_preallocation_size", "memtable_point_index",
      "l0_key_filter_bits_per_key", "use_delta_encoding", "max_subcompactions",
      // RocksDB has these but does not print them.
      "db_log_dir", "block_cache"};
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
      {"block_based_table_factory={filter_policy=ribbonfilter:10}", "filter_policy"},
      {"block_based_table_factory={no_such_table_option=1}", "no_such_table_option"},
      {"table_factory=PlainTable", "table_factory"},
      {"compaction_style=kCompactionStyleUniversal", "compaction_style"},
      {"bottommost_compression=kZSTD", "bottommost_compression"},
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
  ASSERT_OK(GetDBOptionsFromString(config, DBOptions(), "bytes_per_sync=0;allow_2pc=false", &db));
  Status s = GetDBOptionsFromString(config, DBOptions(), "bytes_per_sync=1m", &db);
  ASSERT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.ToString().find("Strata does not support option bytes_per_sync"), std::string::npos)
      << s.ToString();
  // ignore_unknown_options: anything goes (and nothing changes).
  config.ignore_unknown_options = true;
  ASSERT_OK(GetDBOptionsFromString(config, DBOptions(), "bytes_per_sync=1m;foo=bar", &db));
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

}  // namespace
}  // namespace strata
