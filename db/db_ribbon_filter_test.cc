// Ribbon filters in a DB: bloom_before_level picks Bloom or Ribbon per table
// as RocksDB does (flushes count as level -1, compaction outputs as their
// level, FIFO and unknown levels as INT_MAX), lookups through either kind
// find every key, and RocksDB 7.8.3 reads the result both ways: its `ldb`
// scans a Strata DB with Ribbon tables (and its OPTIONS file naming
// ribbonfilter), and Strata opens a RocksDB DB with both kinds of tables
// (test_util/rocksdb_ribbon_tool.cc). The RocksDB parts skip without
// /usr/bin/ldb or the tool.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "strata/db.h"
#include "strata/filter_policy.h"
#include "strata/metadata.h"
#include "strata/options.h"
#include "strata/sst_file_writer.h"
#include "strata/statistics.h"
#include "strata/table.h"
#include "table/block.h"
#include "table/block_based_table_reader.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

#ifdef STRATA_ROCKSDB_RIBBON_TOOL
constexpr const char* kTool = STRATA_ROCKSDB_RIBBON_TOOL;
#else
constexpr const char* kTool = "";
#endif
constexpr const char* kLdb = "/usr/bin/ldb";

enum class Kind { kNone, kBloom, kRibbon, kOther };

// The kind of the table's full filter, from its metadata trailer byte.
Kind FilterKind(const std::string& path) {
  std::unique_ptr<RandomAccessFile> file;
  EXPECT_OK(FileSystem::Default()->NewRandomAccessFile(path, FileOptions(), &file));
  uint64_t size = 0;
  EXPECT_OK(FileSystem::Default()->GetFileSize(path, &size));
  TableReaderOptions options;
  options.file_name = path;
  std::unique_ptr<BlockBasedTable> table;
  Status s = BlockBasedTable::Open(options, std::move(file), size, &table);
  EXPECT_OK(s);
  if (!s.ok()) return Kind::kOther;
  std::string meta;
  EXPECT_OK(table->ReadBlockContents(table->footer().metaindex_handle(), &meta));
  Block block{std::move(meta)};
  std::unique_ptr<BlockIter> it(block.NewIterator(BytewiseComparator()));
  const Slice key("fullfilter.rocksdb.BuiltinBloomFilter");
  it->Seek(key);
  if (!it->Valid() || it->key() != key) return Kind::kNone;
  Slice v = it->value();
  BlockHandle h;
  EXPECT_OK(h.DecodeFrom(&v));
  std::string filter;
  EXPECT_OK(table->ReadBlockContents(h, &filter));
  if (filter.size() < 6) return Kind::kOther;
  const auto marker = static_cast<uint8_t>(filter[filter.size() - 5]);
  return marker == 0xFF ? Kind::kBloom : marker == 0xFE ? Kind::kRibbon : Kind::kOther;
}

std::string Key(int i) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "key%08d", i);
  return buf;
}

constexpr int kKeys = 3000;  // enough that Ribbon is smaller than Bloom

Options RibbonOptions(int bloom_before_level, CompactionStyle style) {
  Options o;
  o.create_if_missing = true;
  o.compaction_style = style;
  o.disable_auto_compactions = true;
  o.compression = kNoCompression;
  BlockBasedTableOptions t;
  t.filter_policy = NewRibbonFilterPolicy(10, bloom_before_level);
  o.table_factory = NewBlockBasedTableFactory(t);
  o.statistics = CreateDBStatistics();
  return o;
}

void PutAll(DB* db, int round) {
  for (int i = 0; i < kKeys; i++) {
    ASSERT_OK(db->Put(WriteOptions(), Key(i * 2), "v" + std::to_string(round)));
  }
}

// Each live table file's level and filter kind, newest file first.
std::vector<std::pair<int, Kind>> Tables(DB* db) {
  std::vector<LiveFileMetaData> files;
  db->GetLiveFilesMetaData(&files);
  std::sort(files.begin(), files.end(),
            [](const auto& a, const auto& b) { return a.file_number > b.file_number; });
  std::vector<std::pair<int, Kind>> out;
  for (const auto& f : files) out.emplace_back(f.level, FilterKind(f.db_path + f.name));
  return out;
}

// Every key found (through the filters), absent keys rejected mostly by
// them.
void CheckReads(DB* db, const Options& o, int round) {
  std::string value;
  for (int i = 0; i < kKeys; i++) {
    ASSERT_OK(db->Get(ReadOptions(), Key(i * 2), &value));
    ASSERT_EQ(value, "v" + std::to_string(round));
  }
  const uint64_t useful = o.statistics->getTickerCount(BLOOM_FILTER_USEFUL);
  for (int i = 0; i < kKeys - 1; i++) {
    ASSERT_TRUE(db->Get(ReadOptions(), Key(i * 2 + 1), &value).IsNotFound());
  }
  EXPECT_GE(o.statistics->getTickerCount(BLOOM_FILTER_USEFUL) - useful, uint64_t{kKeys} * 9 / 10);
}

// Leveled and universal: two flushes compacted together, then a third flush
// left in L0. The flushed table and the compaction output get the kinds
// RocksDB would give them.
TEST(DBRibbonFilterTest, BloomBeforeLevelPerTable) {
  struct Case {
    CompactionStyle style;
    int num_levels;
    int bloom_before_level;
  };
  // The compaction goes to the last level: L1 with 2 levels, L6 with 7, and
  // L0 for universal with one level (an intra-L0 compaction).
  const Case cases[] = {
      {kCompactionStyleLevel, 2, 0},           {kCompactionStyleLevel, 2, 1},
      {kCompactionStyleLevel, 2, 2},           {kCompactionStyleLevel, 2, -1},
      {kCompactionStyleLevel, 2, INT_MAX},     {kCompactionStyleLevel, 7, 6},
      {kCompactionStyleLevel, 7, 7},           {kCompactionStyleUniversal, 1, 0},
      {kCompactionStyleUniversal, 1, 1},       {kCompactionStyleUniversal, 7, 1},
      {kCompactionStyleUniversal, 7, INT_MAX},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE("style=" + std::to_string(c.style) +
                 " num_levels=" + std::to_string(c.num_levels) +
                 " bloom_before_level=" + std::to_string(c.bloom_before_level));
    test::TempDir dir("ribbon_db");
    Options o = RibbonOptions(c.bloom_before_level, c.style);
    o.num_levels = c.num_levels;
    std::unique_ptr<DB> db;
    ASSERT_OK(DB::Open(o, dir.path() + "/db", &db));
    for (int round = 0; round < 3; round++) {
      PutAll(db.get(), round);
      ASSERT_OK(db->Flush(FlushOptions()));
      if (round == 1) ASSERT_OK(db->CompactRange(CompactRangeOptions(), nullptr, nullptr));
    }
    const auto tables = Tables(db.get());
    ASSERT_EQ(tables.size(), 2u);
    // The newest file is the last flush (in L0); the other is the compaction
    // output.
    const auto flushed = tables[0];
    const auto compacted = tables[1];
    std::printf("style %d bloom_before_level %d: flushed table L%d %s, compacted L%d %s\n", c.style,
                c.bloom_before_level, flushed.first,
                flushed.second == Kind::kBloom ? "bloom" : "ribbon", compacted.first,
                compacted.second == Kind::kBloom ? "bloom" : "ribbon");
    EXPECT_EQ(flushed.first, 0);
    EXPECT_EQ(flushed.second, c.bloom_before_level > -1 ? Kind::kBloom : Kind::kRibbon);
    EXPECT_EQ(compacted.first, c.num_levels - 1);
    EXPECT_EQ(compacted.second,
              compacted.first < c.bloom_before_level ? Kind::kBloom : Kind::kRibbon)
        << "compaction output at level " << compacted.first;
    CheckReads(db.get(), o, 2);
  }
}

// FIFO: every table counts as bottommost, so even INT_MAX gives Ribbon.
TEST(DBRibbonFilterTest, FifoIsAlwaysRibbon) {
  for (int level : {0, INT_MAX}) {
    test::TempDir dir("ribbon_db");
    const Options o = RibbonOptions(level, kCompactionStyleFIFO);
    std::unique_ptr<DB> db;
    ASSERT_OK(DB::Open(o, dir.path() + "/db", &db));
    PutAll(db.get(), 0);
    ASSERT_OK(db->Flush(FlushOptions()));
    const auto tables = Tables(db.get());
    ASSERT_EQ(tables.size(), 1u);
    EXPECT_EQ(tables[0].second, Kind::kRibbon);
    CheckReads(db.get(), o, 0);
  }
}

// SstFileWriter does not know the level: Ribbon even at INT_MAX (RocksDB's
// rule), and an ingested file is read through its filter.
TEST(DBRibbonFilterTest, SstFileWriterIsRibbon) {
  test::TempDir dir("ribbon_db");
  const Options o = RibbonOptions(INT_MAX, kCompactionStyleLevel);
  const std::string sst = dir.path() + "/ext.sst";
  {
    SstFileWriter writer(o);
    ASSERT_OK(writer.Open(sst));
    for (int i = 0; i < kKeys; i++) ASSERT_OK(writer.Put(Key(i * 2), "v0"));
    ASSERT_OK(writer.Finish());
  }
  EXPECT_EQ(FilterKind(sst), Kind::kRibbon);
  std::unique_ptr<DB> db;
  ASSERT_OK(DB::Open(o, dir.path() + "/db", &db));
  ASSERT_OK(db->IngestExternalFile({sst}, IngestExternalFileOptions()));
  CheckReads(db.get(), o, 0);
}

// RocksDB's ldb scans a Strata DB whose tables have Ribbon filters (its
// OPTIONS file says filter_policy=ribbonfilter:10:-1).
TEST(DBRibbonFilterTest, RocksDBReadsStrataRibbonDB) {
  if (access(kLdb, X_OK) != 0) GTEST_SKIP() << kLdb << " not installed";
  test::TempDir dir("ribbon_db");
  const std::string path = dir.path() + "/db";
  {
    const Options o = RibbonOptions(-1, kCompactionStyleLevel);
    std::unique_ptr<DB> db;
    ASSERT_OK(DB::Open(o, path, &db));
    PutAll(db.get(), 0);
    ASSERT_OK(db->Flush(FlushOptions()));
    const auto tables = Tables(db.get());
    ASSERT_EQ(tables.size(), 1u);
    EXPECT_EQ(tables[0].second, Kind::kRibbon);
  }
  bool options_say_ribbon = false;
  for (const auto& e : std::filesystem::directory_iterator(path)) {
    if (e.path().filename().string().rfind("OPTIONS-", 0) != 0) continue;
    if (test::ReadFileOrDie(e.path().string()).find("filter_policy=ribbonfilter:10:-1") !=
        std::string::npos) {
      options_say_ribbon = true;
    }
  }
  EXPECT_TRUE(options_say_ribbon);
  int rc = 0;
  std::string out = test::RunCommand(std::string(kLdb) + " --db=" + path + " scan", &rc);
  ASSERT_EQ(rc, 0) << out;
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), kKeys);
  out = test::RunCommand(std::string(kLdb) + " --db=" + path + " get " + Key(42), &rc);
  ASSERT_EQ(rc, 0) << out;
  EXPECT_EQ(out, "v0\n");
}

// A RocksDB DB with a flushed (Bloom) and a compacted (Ribbon) table, opened
// and read by Strata through both filters.
TEST(DBRibbonFilterTest, StrataReadsRocksDBRibbonDB) {
  if (kTool[0] == '\0' || access(kTool, X_OK) != 0) GTEST_SKIP() << "needs rocksdb_ribbon_tool";
  test::TempDir dir("ribbon_db");
  std::string keys;
  for (int i = 0; i < kKeys; i++) keys += Key(i * 2) + "\n";
  test::WriteFileOrDie(dir.path() + "/keys", keys);
  const std::string path = dir.path() + "/db";
  int rc = 0;
  const std::string out = test::RunCommand(std::string(kTool) + " db " + path + " " + dir.path() +
                                               "/keys --bits=10 --bloom_before_level=0",
                                           &rc);
  ASSERT_EQ(rc, 0) << out;
  std::set<Kind> kinds;
  for (const auto& e : std::filesystem::directory_iterator(path)) {
    if (e.path().extension() == ".sst") kinds.insert(FilterKind(e.path().string()));
  }
  EXPECT_EQ(kinds, (std::set<Kind>{Kind::kBloom, Kind::kRibbon}));

  Options o = RibbonOptions(0, kCompactionStyleLevel);
  o.create_if_missing = false;
  std::unique_ptr<DB> db;
  ASSERT_OK(DB::Open(o, path, &db));
  std::string value;
  for (int i = 0; i < kKeys; i++) {
    ASSERT_OK(db->Get(ReadOptions(), Key(i * 2), &value));
    ASSERT_EQ(value, "v" + Key(i * 2));
  }
  const uint64_t useful = o.statistics->getTickerCount(BLOOM_FILTER_USEFUL);
  for (int i = 0; i < kKeys - 1; i++) {
    ASSERT_TRUE(db->Get(ReadOptions(), Key(i * 2 + 1), &value).IsNotFound());
  }
  // Two tables per absent key, ~1% false positives each.
  EXPECT_GE(o.statistics->getTickerCount(BLOOM_FILTER_USEFUL) - useful,
            uint64_t{kKeys} * 2 * 9 / 10);
}

}  // namespace
}  // namespace strata
