// The options dump covers every field of the three option structs (counted
// by aggregate initialization, so a new field without a dump line fails
// here), and a DB's LOG holds the dump in RocksDB's shape.
#include "db/options_dump.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "strata/db.h"
#include "test_util/testutil.h"

// The field counting below initializes aggregates with fewer initializers
// than fields on purpose (in unevaluated contexts).
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wmissing-field-initializers"
#endif

namespace strata {
namespace {

// Converts to any field type; only used in unevaluated contexts.
struct AnyField {
  template <typename T>
  operator T() const;  // NOLINT: implicit on purpose
};

template <typename T, typename... A>
constexpr auto BraceInitializable(int) -> decltype(T{std::declval<A>()...}, true) {
  return true;
}
template <typename T, typename... A>
constexpr bool BraceInitializable(...) {
  return false;
}
template <typename T, size_t... I>
constexpr bool InitializableWith(std::index_sequence<I...>) {
  return BraceInitializable<T, decltype((void)I, AnyField{})...>(0);
}
// The number of fields of the aggregate T: the most initializers T{...}
// accepts.
template <typename T, size_t N = 0>
constexpr size_t FieldCount() {
  if constexpr (InitializableWith<T>(std::make_index_sequence<N + 1>())) {
    return FieldCount<T, N + 1>();
  } else {
    return N;
  }
}

void ExpectUniqueNames(const std::vector<OptionLine>& lines) {
  std::set<std::string> names;
  for (const OptionLine& l : lines) EXPECT_TRUE(names.insert(l.name).second) << l.name;
}

// The fields the lines show (a field may have several lines).
size_t FieldsShown(const std::vector<OptionLine>& lines) {
  std::set<std::string> fields;
  for (const OptionLine& l : lines) fields.insert(l.FieldName());
  return fields.size();
}

TEST(OptionsDumpTest, EveryFieldHasALine) {
  EXPECT_EQ(DBOptionLines(DBOptions()).size(), FieldCount<DBOptions>());
  // compression_per_level has lines only when it is not empty.
  ColumnFamilyOptions cf;
  cf.compression_per_level = {kNoCompression, kSnappyCompression};
  EXPECT_EQ(FieldsShown(ColumnFamilyOptionLines(cf)), FieldCount<ColumnFamilyOptions>());
  EXPECT_EQ(TableOptionLines(BlockBasedTableOptions()).size(),
            FieldCount<BlockBasedTableOptions>());
  ExpectUniqueNames(DBOptionLines(DBOptions()));
  ExpectUniqueNames(ColumnFamilyOptionLines(cf));
  ExpectUniqueNames(TableOptionLines(BlockBasedTableOptions()));
  // The counter itself: a struct of known size.
  struct Three {
    int a;
    std::string b;
    std::shared_ptr<int> c;
  };
  EXPECT_EQ(FieldCount<Three>(), 3u);
}

TEST(OptionsDumpTest, ValuesPrintAsRocksDBPrintsThem) {
  DBOptions db;
  db.max_open_files = 123;
  db.keep_log_file_num = 7;
  std::map<std::string, std::string> m;
  for (const OptionLine& l : DBOptionLines(db)) m[l.name] = l.value;
  EXPECT_EQ(m["max_open_files"], "123");
  EXPECT_EQ(m["keep_log_file_num"], "7");
  EXPECT_EQ(m["paranoid_checks"], "1");
  EXPECT_EQ(m["statistics"], "(nil)");
  EXPECT_EQ(m["info_log_level"], "INFO_LEVEL");
  ColumnFamilyOptions cf;
  m.clear();
  for (const OptionLine& l : ColumnFamilyOptionLines(cf)) m[l.name] = l.value;
  EXPECT_EQ(m["write_buffer_size"], "67108864");
  EXPECT_EQ(m["comparator"], "leveldb.BytewiseComparator");
  EXPECT_EQ(m["compression"], "Snappy");
  EXPECT_EQ(m["merge_operator"], "None");
  EXPECT_EQ(m["prefix_extractor"], "nullptr");
  EXPECT_EQ(m["max_bytes_for_level_multiplier"], "10.000000");
}

TEST(OptionsDumpTest, TheLogHoldsEveryOption) {
  test::TempDir tmp("options_dump_test");
  const std::string dir = tmp.path() + "/db";
  Options options;
  options.create_if_missing = true;
  options.write_buffer_size = 1000000;
  std::unique_ptr<DB> db;
  ASSERT_OK(DB::Open(options, dir, &db));
  ASSERT_OK(db->Close());
  db.reset();
  const std::string log = test::ReadFileOrDie(dir + "/LOG");
  for (const OptionLine& l : DBOptionLines(options)) {
    if (l.name == "env" || l.name == "info_log") continue;  // addresses
    const std::string want = "Options." + l.name + ": " + l.value + "\n";
    EXPECT_NE(log.find(want), std::string::npos) << want;
  }
  EXPECT_NE(log.find("--------------- Options for column family [default]:\n"), std::string::npos);
  EXPECT_NE(log.find("Options.write_buffer_size: 1000000\n"), std::string::npos);
  for (const OptionLine& l : TableOptionLines(BlockBasedTableOptions())) {
    if (l.name == "block_cache") continue;
    EXPECT_NE(log.find("  " + l.name + ": " + l.value), std::string::npos) << l.name;
  }
  EXPECT_NE(log.find("table_factory options:   block_size: 4096\n"), std::string::npos);
  // The compaction-style lines, with the values sanitizing resolved.
  for (const char* want :
       {"Options.compaction_style: kCompactionStyleLevel\n",
        "Options.compaction_pri: kMinOverlappingRatio\n",
        "Options.compaction_options_universal.size_ratio: 1\n",
        "Options.compaction_options_universal.stop_style: "
        "kCompactionStopStyleTotalSize\n",
        "Options.compaction_options_fifo.max_table_files_size: 1073741824\n",
        "Options.ttl: 2592000\n", "Options.periodic_compaction_seconds: 0\n",
        "Options.bottommost_compression: Disabled\n", "Options.compression_opts.level: 32767\n",
        "Options.bottommost_compression_opts.enabled: false\n",
        "Options.max_bytes_for_level_multiplier_addtl[6]: 1\n"}) {
    EXPECT_NE(log.find(want), std::string::npos) << want;
  }
}

TEST(OptionsDumpTest, CompactionStyleLinesAsRocksDBPrintsThem) {
  ColumnFamilyOptions cf;
  cf.compression_per_level = {kNoCompression, kSnappyCompression, kZSTD};
  cf.bottommost_compression = kZSTD;
  cf.compaction_style = kCompactionStyleUniversal;
  cf.compaction_options_universal.stop_style = kCompactionStopStyleSimilarSize;
  cf.compaction_options_fifo.allow_compaction = true;
  cf.max_bytes_for_level_multiplier_additional = {2, 3};
  cf.compression_opts.enabled = true;
  std::map<std::string, std::string> m;
  for (const OptionLine& l : ColumnFamilyOptionLines(cf)) m[l.name] = l.value;
  EXPECT_EQ(m["compression[0]"], "NoCompression");
  EXPECT_EQ(m["compression[1]"], "Snappy");
  EXPECT_EQ(m["compression[2]"], "ZSTD");
  EXPECT_EQ(m.count("compression[3]"), 0u);
  EXPECT_EQ(m["bottommost_compression"], "ZSTD");
  EXPECT_EQ(m["compaction_style"], "kCompactionStyleUniversal");
  EXPECT_EQ(m["compaction_options_universal.stop_style"], "kCompactionStopStyleSimilarSize");
  EXPECT_EQ(m["compaction_options_universal.max_merge_width"], "4294967295");
  EXPECT_EQ(m["compaction_options_fifo.allow_compaction"], "1");
  EXPECT_EQ(m["max_bytes_for_level_multiplier_addtl[0]"], "2");
  EXPECT_EQ(m["max_bytes_for_level_multiplier_addtl[1]"], "3");
  EXPECT_EQ(m.count("max_bytes_for_level_multiplier_addtl[2]"), 0u);
  EXPECT_EQ(m["compression_opts.enabled"], "true");
  EXPECT_EQ(m["compression_opts.window_bits"], "-14");
  EXPECT_EQ(m["ttl"], "18446744073709551614");
}

}  // namespace
}  // namespace strata
