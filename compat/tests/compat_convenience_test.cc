// compat_convenience_test: rocksdb/convenience.h and
// rocksdb/utilities/options_util.h over Strata's parser and OPTIONS reader:
// text applied to RocksDB's structs, the fields Strata lacks kept from the
// base, errors leaving the output equal to the base, options written to
// text and read back, and a database reopened from its OPTIONS file.
#include <algorithm>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "gtest/gtest.h"
#include "rocksdb/cache.h"
#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/file_checksum.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/listener.h"
#include "rocksdb/memtablerep.h"
#include "rocksdb/options.h"
#include "rocksdb/table.h"
#include "rocksdb/utilities/object_registry.h"
#include "rocksdb/utilities/options_util.h"
#include "rocksdb/wal_filter.h"

namespace rocksdb {
namespace {

const BlockBasedTableOptions& TableOf(const ColumnFamilyOptions& o) {
  static const BlockBasedTableOptions kDefault;
  return o.table_factory != nullptr ? o.table_factory->table_options() : kDefault;
}

// A base with non-default values in fields Strata has and in advisory
// fields it lacks.
Options NonDefaultBase() {
  Options o;
  o.create_if_missing = true;
  o.max_open_files = 321;
  o.max_background_jobs = 3;
  o.bytes_per_sync = 1 << 20;
  o.max_background_compactions = 5;  // advisory: Strata has no such field
  o.table_cache_numshardbits = 3;    // advisory
  o.write_buffer_size = 3 << 20;
  o.max_write_buffer_number = 4;
  o.level0_file_num_compaction_trigger = 6;
  o.compression = kLZ4Compression;
  o.num_levels = 5;
  o.max_bytes_for_level_multiplier = 8;
  o.max_sequential_skip_in_iterations = 16;  // advisory
  BlockBasedTableOptions t;
  t.block_size = 8 << 10;
  t.block_cache = NewLRUCache(4 << 20);
  t.filter_policy.reset(NewBloomFilterPolicy(10));
  t.format_version = 6;
  o.table_factory.reset(NewBlockBasedTableFactory(t));
  return o;
}

void ExpectSameStrataFields(const Options& a, const Options& b) {
  EXPECT_EQ(a.create_if_missing, b.create_if_missing);
  EXPECT_EQ(a.max_open_files, b.max_open_files);
  EXPECT_EQ(a.max_background_jobs, b.max_background_jobs);
  EXPECT_EQ(a.bytes_per_sync, b.bytes_per_sync);
  EXPECT_EQ(a.write_buffer_size, b.write_buffer_size);
  EXPECT_EQ(a.max_write_buffer_number, b.max_write_buffer_number);
  EXPECT_EQ(a.level0_file_num_compaction_trigger, b.level0_file_num_compaction_trigger);
  EXPECT_EQ(a.compression, b.compression);
  EXPECT_EQ(a.num_levels, b.num_levels);
  EXPECT_EQ(a.max_bytes_for_level_multiplier, b.max_bytes_for_level_multiplier);
  EXPECT_EQ(a.comparator, b.comparator);
  EXPECT_EQ(a.env, b.env);
  EXPECT_EQ(a.info_log_level, b.info_log_level);
  EXPECT_EQ(a.wal_recovery_mode, b.wal_recovery_mode);
  const BlockBasedTableOptions& ta = TableOf(a);
  const BlockBasedTableOptions& tb = TableOf(b);
  EXPECT_EQ(ta.block_size, tb.block_size);
  EXPECT_EQ(ta.block_cache, tb.block_cache);
  EXPECT_EQ(ta.filter_policy, tb.filter_policy);
  EXPECT_EQ(ta.format_version, tb.format_version);
  EXPECT_EQ(ta.checksum, tb.checksum);
  EXPECT_EQ(ta.index_type, tb.index_type);
}

TEST(CompatConvenienceTest, EmptyTextIsTheIdentity) {
  const Options base = NonDefaultBase();
  Options out;
  ASSERT_TRUE(GetOptionsFromString(base, "", &out).ok());
  ExpectSameStrataFields(base, out);
  // Fields Strata lacks are the base's.
  EXPECT_EQ(out.max_background_compactions, 5);
  EXPECT_EQ(out.table_cache_numshardbits, 3);
  EXPECT_EQ(out.max_sequential_skip_in_iterations, 16u);
}

TEST(CompatConvenienceTest, TextSetsFieldsAndKeepsTheRest) {
  const Options base = NonDefaultBase();
  Options out;
  Status s =
      GetOptionsFromString(base,
                           "write_buffer_size=1M;max_write_buffer_number=5;compression=kZSTD;"
                           "max_open_files=77;block_based_table_factory={block_size=16k;"
                           "cache_index_and_filter_blocks=true}",
                           &out);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(out.write_buffer_size, 1u << 20);
  EXPECT_EQ(out.max_write_buffer_number, 5);
  EXPECT_EQ(out.compression, kZSTD);
  EXPECT_EQ(out.max_open_files, 77);
  EXPECT_EQ(TableOf(out).block_size, 16u << 10);
  EXPECT_TRUE(TableOf(out).cache_index_and_filter_blocks);
  // Untouched: the base's values, objects included.
  EXPECT_EQ(out.level0_file_num_compaction_trigger, 6);
  EXPECT_EQ(out.num_levels, 5);
  EXPECT_EQ(out.max_background_compactions, 5);
  EXPECT_EQ(TableOf(out).block_cache, TableOf(base).block_cache);
  EXPECT_EQ(TableOf(out).filter_policy, TableOf(base).filter_policy);
  EXPECT_EQ(TableOf(out).format_version, 6u);

  // A filter policy named in the text is a new built-in policy.
  ASSERT_TRUE(GetOptionsFromString(
                  base, "block_based_table_factory={filter_policy=bloomfilter:7:false}", &out)
                  .ok());
  ASSERT_NE(TableOf(out).filter_policy, nullptr);
  EXPECT_NE(TableOf(out).filter_policy, TableOf(base).filter_policy);
  EXPECT_NE(TableOf(out).filter_policy->strata_policy(), nullptr);

  // The result opens a database.
  const std::string path = ::testing::TempDir() + "/compat_convenience_open";
  ASSERT_TRUE(DestroyDB(path, Options()).ok());
  DB* db = nullptr;
  Status open = DB::Open(out, path, &db);
  ASSERT_TRUE(open.ok()) << open.ToString();
  ASSERT_TRUE(db->Put(WriteOptions(), "k", "v").ok());
  std::string v;
  ASSERT_TRUE(db->Get(ReadOptions(), "k", &v).ok());
  EXPECT_EQ(v, "v");
  delete db;
  ASSERT_TRUE(DestroyDB(path, Options()).ok());
}

TEST(CompatConvenienceTest, ErrorsLeaveTheBase) {
  const Options base = NonDefaultBase();
  Options out;
  out.write_buffer_size = 12345;
  Status s = GetOptionsFromString(base, "write_buffer_size=1M;no_such_option=1", &out);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.ToString().find("no_such_option"), std::string::npos) << s.ToString();
  ExpectSameStrataFields(base, out);

  s = GetOptionsFromString(base, "write_buffer_size=notanumber", &out);
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(out.write_buffer_size, base.write_buffer_size);

  // ignore_unknown_options skips the unknown name and applies the rest.
  ConfigOptions config;
  config.ignore_unknown_options = true;
  ASSERT_TRUE(
      GetOptionsFromString(config, base, "write_buffer_size=1M;no_such_option=1", &out).ok());
  EXPECT_EQ(out.write_buffer_size, 1u << 20);

  // A base holding an option Strata refuses fails as Open would.
  Options refused = base;
  refused.atomic_flush = true;
  s = GetOptionsFromString(refused, "write_buffer_size=1M", &out);
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.ToString().find("DBOptions::atomic_flush"), std::string::npos) << s.ToString();
  EXPECT_TRUE(out.atomic_flush);
  EXPECT_EQ(out.write_buffer_size, base.write_buffer_size);
}

TEST(CompatConvenienceTest, PartsAndMaps) {
  DBOptions db_base;
  DBOptions db_out;
  ASSERT_TRUE(
      GetDBOptionsFromString(db_base, "max_background_jobs=7;use_fsync=true", &db_out).ok());
  EXPECT_EQ(db_out.max_background_jobs, 7);
  EXPECT_TRUE(db_out.use_fsync);

  ColumnFamilyOptions cf_base;
  ColumnFamilyOptions cf_out;
  ASSERT_TRUE(
      GetColumnFamilyOptionsFromString(cf_base, "level0_stop_writes_trigger=50", &cf_out).ok());
  EXPECT_EQ(cf_out.level0_stop_writes_trigger, 50);

  BlockBasedTableOptions t_base;
  t_base.filter_policy.reset(NewBloomFilterPolicy(10));
  BlockBasedTableOptions t_out;
  ASSERT_TRUE(GetBlockBasedTableOptionsFromString(t_base, "block_restart_interval=4", &t_out).ok());
  EXPECT_EQ(t_out.block_restart_interval, 4);
  EXPECT_EQ(t_out.filter_policy, t_base.filter_policy);

  std::unordered_map<std::string, std::string> map;
  ASSERT_TRUE(StringToMap("a=1;b={c=2;d=3};e=x", &map).ok());
  EXPECT_EQ(map["a"], "1");
  EXPECT_EQ(map["b"], "c=2;d=3");
  EXPECT_EQ(map["e"], "x");

  ASSERT_TRUE(GetDBOptionsFromMap(db_base, {{"max_open_files", "99"}}, &db_out).ok());
  EXPECT_EQ(db_out.max_open_files, 99);
  ASSERT_TRUE(GetColumnFamilyOptionsFromMap(cf_base, {{"write_buffer_size", "2M"}}, &cf_out).ok());
  EXPECT_EQ(cf_out.write_buffer_size, 2u << 20);
  ASSERT_TRUE(GetBlockBasedTableOptionsFromMap(t_base, {{"block_size", "32k"}}, &t_out).ok());
  EXPECT_EQ(t_out.block_size, 32u << 10);
  EXPECT_FALSE(GetDBOptionsFromMap(db_base, {{"nope", "1"}}, &db_out).ok());
  EXPECT_TRUE(GetDBOptionsFromMap(db_base, {{"nope", "1"}}, &db_out, false, true).ok());
}

TEST(CompatConvenienceTest, OptionsToTextAndBack) {
  const Options base = NonDefaultBase();
  std::string db_text;
  std::string cf_text;
  ASSERT_TRUE(GetStringFromDBOptions(&db_text, base).ok());
  ASSERT_TRUE(GetStringFromColumnFamilyOptions(&cf_text, base).ok());
  EXPECT_NE(db_text.find("max_open_files=321"), std::string::npos) << db_text;
  EXPECT_NE(cf_text.find("write_buffer_size=3145728"), std::string::npos) << cf_text;

  DBOptions db_out;
  ASSERT_TRUE(GetDBOptionsFromString(DBOptions(), db_text, &db_out).ok());
  EXPECT_EQ(db_out.max_open_files, 321);
  EXPECT_EQ(db_out.bytes_per_sync, 1u << 20);
  ColumnFamilyOptions cf_out;
  Status s = GetColumnFamilyOptionsFromString(ColumnFamilyOptions(), cf_text, &cf_out);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(cf_out.write_buffer_size, 3u << 20);
  EXPECT_EQ(cf_out.compression, kLZ4Compression);
  EXPECT_EQ(cf_out.num_levels, 5);
  EXPECT_EQ(TableOf(cf_out).block_size, 8u << 10);
  EXPECT_EQ(TableOf(cf_out).format_version, 6u);
}

TEST(CompatConvenienceTest, ReopenFromTheOptionsFile) {
  const std::string path = ::testing::TempDir() + "/compat_convenience_load";
  ASSERT_TRUE(DestroyDB(path, Options()).ok());
  Options o = NonDefaultBase();
  o.create_missing_column_families = true;
  ColumnFamilyOptions extra_opts(o);
  extra_opts.write_buffer_size = 5 << 20;
  extra_opts.compression = kNoCompression;
  std::vector<ColumnFamilyDescriptor> cfs = {{kDefaultColumnFamilyName, ColumnFamilyOptions(o)},
                                             {"extra", extra_opts}};
  std::vector<ColumnFamilyHandle*> handles;
  DB* db = nullptr;
  Status open = DB::Open(DBOptions(o), path, cfs, &handles, &db);
  ASSERT_TRUE(open.ok()) << open.ToString();
  ASSERT_TRUE(db->Put(WriteOptions(), handles[1], "x", "1").ok());
  for (ColumnFamilyHandle* h : handles) ASSERT_TRUE(db->DestroyColumnFamilyHandle(h).ok());
  delete db;

  std::string name;
  ASSERT_TRUE(GetLatestOptionsFileName(path, Env::Default(), &name).ok());
  EXPECT_EQ(name.rfind("OPTIONS-", 0), 0u) << name;

  DBOptions loaded_db;
  std::vector<ColumnFamilyDescriptor> loaded;
  std::shared_ptr<Cache> cache = NewLRUCache(1 << 20);
  Status s = LoadLatestOptions(path, Env::Default(), &loaded_db, &loaded, false, &cache);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(loaded_db.max_open_files, 321);
  EXPECT_EQ(loaded_db.max_background_jobs, 3);
  ASSERT_EQ(loaded.size(), 2u);
  EXPECT_EQ(loaded[0].name, kDefaultColumnFamilyName);
  EXPECT_EQ(loaded[1].name, "extra");
  EXPECT_EQ(loaded[0].options.write_buffer_size, 3u << 20);
  EXPECT_EQ(loaded[1].options.write_buffer_size, 5u << 20);
  EXPECT_EQ(loaded[1].options.compression, kNoCompression);
  EXPECT_EQ(TableOf(loaded[0].options).block_size, 8u << 10);
  EXPECT_EQ(TableOf(loaded[1].options).block_cache, cache);
  ASSERT_NE(TableOf(loaded[0].options).filter_policy, nullptr);

  // LoadOptionsFromFile reads the same file.
  DBOptions from_file;
  std::vector<ColumnFamilyDescriptor> from_file_cfs;
  ASSERT_TRUE(
      LoadOptionsFromFile(path + "/" + name, Env::Default(), &from_file, &from_file_cfs).ok());
  EXPECT_EQ(from_file.max_open_files, 321);
  EXPECT_EQ(from_file_cfs.size(), 2u);

  // The loaded options reopen the database.
  handles.clear();
  ASSERT_TRUE(DB::Open(loaded_db, path, loaded, &handles, &db).ok());
  std::string v;
  ASSERT_TRUE(db->Get(ReadOptions(), handles[1], "x", &v).ok());
  EXPECT_EQ(v, "1");
  for (ColumnFamilyHandle* h : handles) ASSERT_TRUE(db->DestroyColumnFamilyHandle(h).ok());
  delete db;

  // No OPTIONS file: an error, as RocksDB.
  const std::string empty = ::testing::TempDir() + "/compat_convenience_empty";
  ASSERT_TRUE(DestroyDB(empty, Options()).ok());
  EXPECT_FALSE(LoadLatestOptions(empty, Env::Default(), &loaded_db, &loaded).ok());
  ASSERT_TRUE(DestroyDB(path, Options()).ok());
}

TEST(CompatConvenienceTest, DeleteFilesInRange) {
  const std::string path = ::testing::TempDir() + "/compat_convenience_delete";
  ASSERT_TRUE(DestroyDB(path, Options()).ok());
  Options o;
  o.create_if_missing = true;
  o.disable_auto_compactions = true;
  DB* db = nullptr;
  ASSERT_TRUE(DB::Open(o, path, &db).ok());
  for (char c = 'a'; c <= 'f'; c++) {
    ASSERT_TRUE(db->Put(WriteOptions(), std::string(1, c), "v").ok());
  }
  ASSERT_TRUE(db->Flush(FlushOptions()).ok());
  CompactRangeOptions cro;
  ASSERT_TRUE(db->CompactRange(cro, nullptr, nullptr).ok());
  std::string levels;
  ASSERT_TRUE(db->GetProperty("rocksdb.levelstats", &levels));
  // The one file at level 1 lies inside [a, z]: deleted.
  const Slice begin("a");
  const Slice end("z");
  ASSERT_TRUE(DeleteFilesInRange(db, db->DefaultColumnFamily(), &begin, &end).ok());
  std::string v;
  EXPECT_TRUE(db->Get(ReadOptions(), "c", &v).IsNotFound()) << levels;
  RangePtr none[1] = {RangePtr(&begin, &end)};
  EXPECT_TRUE(DeleteFilesInRanges(db, db->DefaultColumnFamily(), none, 1).ok());
  delete db;
  ASSERT_TRUE(DestroyDB(path, Options()).ok());
}

TEST(CompatConvenienceTest, CompressionNamesAndSupport) {
  std::vector<CompressionType> supported = GetSupportedCompressions();
  auto has = [&](CompressionType t) {
    return std::find(supported.begin(), supported.end(), t) != supported.end();
  };
  // Strata is built with these (DESIGN.md section 7's codecs).
  EXPECT_TRUE(has(kNoCompression));
  EXPECT_TRUE(has(kSnappyCompression));
  EXPECT_TRUE(has(kLZ4Compression));
  EXPECT_TRUE(has(kZSTD));
  EXPECT_FALSE(has(kDisableCompressionOption));
  std::string name;
  ASSERT_TRUE(GetStringFromCompressionType(&name, kSnappyCompression).ok());
  EXPECT_EQ(name, "kSnappyCompression");
  ASSERT_TRUE(GetStringFromCompressionType(&name, kZSTD).ok());
  EXPECT_EQ(name, "kZSTD");
  ASSERT_TRUE(GetStringFromCompressionType(&name, kZSTDNotFinalCompression).ok());
  EXPECT_EQ(name, "kZSTDNotFinalCompression");
  EXPECT_TRUE(
      GetStringFromCompressionType(&name, static_cast<CompressionType>(0x33)).IsInvalidArgument());
}

// A paused DB still takes writes into its memtable; Close flushes them and
// a reopen reads them; a table file's checksums verify, and a flipped byte
// is Corruption.
TEST(CompatConvenienceTest, CancelAllBackgroundWorkAndVerifySstFileChecksum) {
  const std::string path = ::testing::TempDir() + "/compat_convenience_cancel";
  ASSERT_TRUE(DestroyDB(path, Options()).ok());
  Options o;
  o.create_if_missing = true;
  DB* db = nullptr;
  ASSERT_TRUE(DB::Open(o, path, &db).ok());
  ASSERT_TRUE(db->Put(WriteOptions(), "before", "1").ok());
  ASSERT_TRUE(db->Flush(FlushOptions()).ok());
  CancelAllBackgroundWork(db, true);
  CancelAllBackgroundWork(db, false);  // again: no effect
  ASSERT_TRUE(db->Put(WriteOptions(), "after", "2").ok());
  std::vector<LiveFileMetaData> files;
  db->GetLiveFilesMetaData(&files);
  ASSERT_EQ(files.size(), 1u);
  const std::string table = path + "/" + files[0].name;
  ASSERT_TRUE(db->Close().ok());
  delete db;
  ASSERT_TRUE(DB::Open(o, path, &db).ok());
  std::string v;
  ASSERT_TRUE(db->Get(ReadOptions(), "after", &v).ok());
  EXPECT_EQ(v, "2");
  delete db;

  ASSERT_TRUE(VerifySstFileChecksum(o, EnvOptions(), table).ok());
  std::string bytes;
  ASSERT_TRUE(ReadFileToString(Env::Default(), table, &bytes).ok());
  bytes[bytes.size() / 4] ^= 0x40;  // inside a block (every block is checksummed)
  ASSERT_TRUE(WriteStringToFile(Env::Default(), bytes, table, true).ok());
  Status s = VerifySstFileChecksum(o, EnvOptions(), ReadOptions(), table);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_FALSE(VerifySstFileChecksum(o, EnvOptions(), path + "/nothing.sst").ok());
  ASSERT_TRUE(DestroyDB(path, Options()).ok());
}

TEST(CompatConvenienceTest, PlainTableOptionsParseAsRocksDBs) {
  PlainTableOptions base;
  PlainTableOptions out;
  ASSERT_TRUE(GetPlainTableOptionsFromString(
                  base,
                  "user_key_len=16;bloom_bits_per_key=4;hash_table_ratio=0.5;"
                  "index_sparseness=8;huge_page_tlb_size=4096;encoding_type=kPrefix;"
                  "full_scan_mode=true;store_index_in_file=true",
                  &out)
                  .ok());
  EXPECT_EQ(16u, out.user_key_len);
  EXPECT_EQ(4, out.bloom_bits_per_key);
  EXPECT_DOUBLE_EQ(0.5, out.hash_table_ratio);
  EXPECT_EQ(8u, out.index_sparseness);
  EXPECT_EQ(4096u, out.huge_page_tlb_size);
  EXPECT_EQ(kPrefix, out.encoding_type);
  EXPECT_TRUE(out.full_scan_mode);
  EXPECT_TRUE(out.store_index_in_file);
  // Errors leave the base; the string form reads every error as
  // InvalidArgument, the map form says NotFound for an unknown name.
  const PlainTableOptions kept = out;
  Status s = GetPlainTableOptionsFromString(kept, "user_key_len=3;no_such_option=1", &out);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_EQ(16u, out.user_key_len);
  s = GetPlainTableOptionsFromString(kept, "user_key_len=abc", &out);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  std::unordered_map<std::string, std::string> map = {{"user_key_len", "9"},
                                                      {"no_such_option", "1"}};
  ASSERT_TRUE(GetPlainTableOptionsFromMap(base, map, &out, false, true).ok());
  EXPECT_EQ(9u, out.user_key_len);
  s = GetPlainTableOptionsFromMap(base, map, &out);
  EXPECT_TRUE(s.IsNotFound()) << s.ToString();
  EXPECT_EQ(base.user_key_len, out.user_key_len);
}

TEST(CompatConvenienceTest, MemTableFactoriesFromStrings) {
  std::unique_ptr<MemTableRepFactory> f;
  ASSERT_TRUE(GetMemTableRepFactoryFromString("skip_list:16", &f).ok());
  EXPECT_STREQ("SkipListFactory", f->Name());
  ASSERT_TRUE(GetMemTableRepFactoryFromString("vector", &f).ok());
  EXPECT_STREQ("VectorRepFactory", f->Name());
  EXPECT_FALSE(GetMemTableRepFactoryFromString("no_such_memtable", &f).ok());
  ASSERT_TRUE(GetMemTableRepFactoryFromString("", &f).ok());
  EXPECT_EQ(nullptr, f);
  // A vector memtable parses, and Open refuses it as any non-skip-list one.
  ASSERT_TRUE(GetMemTableRepFactoryFromString("vector", &f).ok());
  Options o;
  o.create_if_missing = true;
  o.memtable_factory = std::move(f);
  DB* db = nullptr;
  Status s = DB::Open(o, ::testing::TempDir() + "/compat_memtable_from_string", &db);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("memtable_factory")) << s.ToString();
}

TEST(CompatConvenienceTest, CheckOptionsCompatibilityAtEachSanityLevel) {
  const std::string path = ::testing::TempDir() + "/compat_check_options";
  ASSERT_TRUE(DestroyDB(path, Options()).ok());
  Options options;
  options.create_if_missing = true;
  options.write_buffer_size = 1 << 20;
  options.merge_operator.reset();
  DB* db = nullptr;
  ASSERT_TRUE(DB::Open(options, path, &db).ok());
  ColumnFamilyHandle* cf = nullptr;
  ASSERT_TRUE(db->CreateColumnFamily(ColumnFamilyOptions(options), "second", &cf).ok());
  ASSERT_TRUE(db->DestroyColumnFamilyHandle(cf).ok());
  delete db;

  Env* env = Env::Default();
  ColumnFamilyOptions cfo(options);
  std::vector<ColumnFamilyDescriptor> same = {{kDefaultColumnFamilyName, cfo}, {"second", cfo}};
  Status s = CheckOptionsCompatibility(path, env, options, same);
  EXPECT_TRUE(s.ok()) << s.ToString();
  ConfigOptions exact;
  exact.env = env;
  exact.sanity_level = ConfigOptions::kSanityLevelExactMatch;
  // The file holds the options as Open sanitized them: RocksDB's exact
  // check (and ours) reports the first difference, in RocksDB's words.
  s = CheckOptionsCompatibility(exact, path, options, same);
  EXPECT_EQ(
      "Invalid argument: [RocksDBOptionsParser]: failed the verification on "
      "DBOptions::delayed_write_rate -- -- The specified one is 0 while the persisted one is "
      "16777216.\n",
      s.ToString());
  DBOptions loaded_db;
  std::vector<ColumnFamilyDescriptor> loaded;
  ASSERT_TRUE(LoadLatestOptions(exact, path, &loaded_db, &loaded).ok());
  s = CheckOptionsCompatibility(exact, path, loaded_db, loaded);
  EXPECT_TRUE(s.ok()) << s.ToString();

  std::vector<ColumnFamilyDescriptor> one = {{kDefaultColumnFamilyName, cfo}};
  s = CheckOptionsCompatibility(path, env, options, one);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  std::vector<ColumnFamilyDescriptor> renamed = {{kDefaultColumnFamilyName, cfo}, {"x", cfo}};
  s = CheckOptionsCompatibility(path, env, options, renamed);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();

  ColumnFamilyOptions reversed = cfo;
  reversed.comparator = ReverseBytewiseComparator();
  std::vector<ColumnFamilyDescriptor> other_cmp = {{kDefaultColumnFamilyName, reversed},
                                                   {"second", cfo}};
  s = CheckOptionsCompatibility(path, env, options, other_cmp);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("ColumnFamilyOptions::comparator"))
      << s.ToString();
  ConfigOptions none;
  none.env = env;
  none.sanity_level = ConfigOptions::kSanityLevelNone;
  EXPECT_TRUE(CheckOptionsCompatibility(none, path, options, other_cmp).ok());

  ColumnFamilyOptions bigger = cfo;
  bigger.write_buffer_size = 8 << 20;
  std::vector<ColumnFamilyDescriptor> other_size = {{kDefaultColumnFamilyName, bigger},
                                                    {"second", cfo}};
  EXPECT_TRUE(CheckOptionsCompatibility(path, env, options, other_size).ok());  // loose
  std::vector<ColumnFamilyDescriptor> loaded_size = loaded;
  loaded_size[0].options.write_buffer_size = 8 << 20;
  s = CheckOptionsCompatibility(exact, path, loaded_db, loaded_size);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("ColumnFamilyOptions::write_buffer_size"))
      << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("8388608")) << s.ToString();

  DBOptions more_files(loaded_db);
  more_files.max_open_files = 77;
  s = CheckOptionsCompatibility(exact, path, more_files, loaded);
  EXPECT_EQ(
      "Invalid argument: [RocksDBOptionsParser]: failed the verification on "
      "DBOptions::max_open_files -- -- The specified one is 77 while the persisted one is -1.\n",
      s.ToString());
  EXPECT_TRUE(CheckOptionsCompatibility(path, env, more_files, same).ok());  // loose

  ColumnFamilyOptions small_blocks = cfo;
  BlockBasedTableOptions t;
  t.block_size = 1024;
  small_blocks.table_factory.reset(NewBlockBasedTableFactory(t));
  std::vector<ColumnFamilyDescriptor> other_table = {{kDefaultColumnFamilyName, small_blocks},
                                                     {"second", cfo}};
  EXPECT_TRUE(CheckOptionsCompatibility(path, env, options, other_table).ok());  // loose
  std::vector<ColumnFamilyDescriptor> loaded_table = loaded;
  loaded_table[0].options.table_factory = small_blocks.table_factory;
  s = CheckOptionsCompatibility(exact, path, loaded_db, loaded_table);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("block_size")) << s.ToString();

  ColumnFamilyOptions plain = cfo;
  plain.table_factory.reset(NewPlainTableFactory());
  std::vector<ColumnFamilyDescriptor> plain_table = {{kDefaultColumnFamilyName, plain},
                                                     {"second", cfo}};
  s = CheckOptionsCompatibility(path, env, options, plain_table);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("table_factory")) << s.ToString();

  s = CheckOptionsCompatibility(path + "_missing", env, options, same);
  EXPECT_FALSE(s.ok());
  ASSERT_TRUE(DestroyDB(path, Options()).ok());
}

class RegisteredListener : public EventListener {
 public:
  const char* Name() const override { return "RegisteredListener"; }
};

TEST(CompatConvenienceTest, CreateFromStringOfListenersFiltersAndFactories) {
  ConfigOptions config;
  config.registry->AddLibrary("compat_convenience_test")
      ->AddFactory<EventListener>(
          "RegisteredListener",
          [](const std::string&, std::unique_ptr<EventListener>* guard, std::string*) {
            guard->reset(new RegisteredListener());
            return guard->get();
          });
  std::shared_ptr<EventListener> listener;
  ASSERT_TRUE(EventListener::CreateFromString(config, "RegisteredListener", &listener).ok());
  ASSERT_NE(nullptr, listener);
  EXPECT_STREQ("RegisteredListener", listener->Name());
  ASSERT_TRUE(EventListener::CreateFromString(config, "", &listener).ok());
  EXPECT_EQ(nullptr, listener);
  config.ignore_unsupported_options = false;
  Status s = EventListener::CreateFromString(config, "Unknown", &listener);
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();

  WalFilter* filter = nullptr;
  EXPECT_TRUE(WalFilter::CreateFromString(config, "", &filter).ok());
  s = WalFilter::CreateFromString(config, "Unknown", &filter);
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
  std::shared_ptr<FileChecksumGenFactory> factory;
  ASSERT_TRUE(
      FileChecksumGenFactory::CreateFromString(config, "FileChecksumGenCrc32cFactory", &factory)
          .ok());
  EXPECT_EQ(GetFileChecksumGenCrc32cFactory(), factory);
}

}  // namespace
}  // namespace rocksdb
