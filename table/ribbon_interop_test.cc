// Ribbon filters against RocksDB 7.8.3 itself (test_util/rocksdb_ribbon_tool.cc,
// linked with librocksdb only; its path comes in STRATA_ROCKSDB_RIBBON_TOOL):
//  (a) for the same keys, the filter block of a table written by RocksDB's
//      SstFileWriter with NewRibbonFilterPolicy equals, byte for byte, the one
//      Strata's SstFileWriter writes -- for tiny key sets (Bloom fallback) up
//      to 300,000 keys, at several bits/key;
//  (b) RocksDB reads Strata's Ribbon tables: sst_dump --command=check, and
//      Gets through an ingesting RocksDB DB with its filter statistics;
//  (c) Strata reads RocksDB's Ribbon tables (filter block and Gets); a whole
//      RocksDB DB with both kinds is read in db/db_ribbon_filter_test.cc.
// Without librocksdb or /usr/bin/sst_dump the tests skip.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <filesystem>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "strata/filter_policy.h"
#include "strata/options.h"
#include "strata/sst_file_writer.h"
#include "strata/table.h"
#include "table/block.h"
#include "table/block_based_table_reader.h"
#include "table/filter_policy.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

#ifdef STRATA_ROCKSDB_RIBBON_TOOL
constexpr const char* kTool = STRATA_ROCKSDB_RIBBON_TOOL;
#else
constexpr const char* kTool = "";
#endif
constexpr const char* kSstDump = "/usr/bin/sst_dump";

#define SKIP_WITHOUT_ROCKSDB()                                                         \
  do {                                                                                 \
    if (access(kSstDump, X_OK) != 0 || kTool[0] == '\0' || access(kTool, X_OK) != 0) { \
      GTEST_SKIP() << "needs " << kSstDump << " and rocksdb_ribbon_tool";              \
    }                                                                                  \
  } while (0)

std::string Shell(const std::string& cmd, int* rc) { return test::RunCommand(cmd, rc); }

// n distinct sorted keys drawn from rng (present keys end in an even digit,
// absent ones in the next odd digit).
void MakeKeys(std::mt19937_64* rng, size_t n, std::vector<std::string>* present,
              std::vector<std::string>* absent) {
  std::set<uint64_t> nums;
  while (nums.size() < n) nums.insert(((*rng)() >> 8) & ~uint64_t{1});
  present->clear();
  absent->clear();
  char buf[40];
  for (uint64_t v : nums) {
    std::snprintf(buf, sizeof(buf), "k%020llu", static_cast<unsigned long long>(v));
    present->push_back(buf);
    std::snprintf(buf, sizeof(buf), "k%020llu", static_cast<unsigned long long>(v + 1));
    absent->push_back(buf);
  }
}

std::string WriteKeyFile(const std::string& path, const std::vector<std::string>& keys) {
  std::string text;
  for (const auto& k : keys) text += k + "\n";
  test::WriteFileOrDie(path, text);
  return path;
}

Options OptionsWith(std::shared_ptr<const FilterPolicy> policy) {
  Options options;
  BlockBasedTableOptions t;
  t.filter_policy = std::move(policy);
  options.table_factory = NewBlockBasedTableFactory(t);
  options.compression = kNoCompression;
  return options;
}

void StrataWrite(const std::string& path, const std::vector<std::string>& keys,
                 std::shared_ptr<const FilterPolicy> policy) {
  SstFileWriter writer(OptionsWith(std::move(policy)));
  ASSERT_OK(writer.Open(path));
  for (const auto& k : keys) ASSERT_OK(writer.Put(k, "v" + k));
  ASSERT_OK(writer.Finish());
}

void OpenTable(const std::string& path, std::shared_ptr<const FilterPolicy> policy,
               std::unique_ptr<BlockBasedTable>* table) {
  std::unique_ptr<RandomAccessFile> file;
  ASSERT_OK(FileSystem::Default()->NewRandomAccessFile(path, FileOptions(), &file));
  uint64_t size = 0;
  ASSERT_OK(FileSystem::Default()->GetFileSize(path, &size));
  TableReaderOptions options;
  options.table_options.filter_policy = std::move(policy);
  options.file_name = path;
  ASSERT_OK(BlockBasedTable::Open(options, std::move(file), size, table));
}

// The contents of the table's full filter block (empty if it has none).
void FilterBlockOf(const std::string& path, std::string* filter) {
  filter->clear();
  std::unique_ptr<BlockBasedTable> table;
  OpenTable(path, nullptr, &table);
  if (testing::Test::HasFatalFailure()) return;
  std::string meta;
  ASSERT_OK(table->ReadBlockContents(table->footer().metaindex_handle(), &meta));
  Block block{std::move(meta)};
  ASSERT_TRUE(block.ok());
  std::unique_ptr<BlockIter> it(block.NewIterator(BytewiseComparator()));
  it->Seek("fullfilter.rocksdb.BuiltinBloomFilter");
  if (!it->Valid() || it->key() != Slice("fullfilter.rocksdb.BuiltinBloomFilter")) return;
  Slice v = it->value();
  BlockHandle h;
  ASSERT_OK(h.DecodeFrom(&v));
  ASSERT_OK(table->ReadBlockContents(h, filter));
}

uint8_t Marker(const std::string& filter) {
  return filter.size() >= 5 ? static_cast<uint8_t>(filter[filter.size() - 5]) : 0;
}

// (a) and (c): byte-equal filter blocks, and our reader over RocksDB's.
TEST(RibbonInteropTest, FilterBytesEqualRocksDB) {
  SKIP_WITHOUT_ROCKSDB();
  const uint64_t seed = test::RandomSeed();
  std::mt19937_64 rng(seed);
  test::TempDir dir("ribbon_interop");
  struct Case {
    size_t n;
    double bits;
    int bloom_before_level = 0;
  };
  const Case cases[] = {{1, 10},
                        {7, 10},
                        {60, 10},
                        {150, 10},
                        {200, 10},
                        {300, 10},
                        {700, 10},
                        {1000, 10},
                        {1500, 7},
                        {2000, 16},
                        {4100, 10},
                        {10000, 3.5},
                        {25000, 10},
                        {60000, 20},
                        {130000, 10},
                        {300000, 9.9},
                        // SstFileWriter's level is unknown: Ribbon even at INT_MAX.
                        {5000, 10, INT_MAX},
                        {5000, 10, -1},
                        // Rates beyond 32 columns and just above one column.
                        {3000, 60},
                        {3000, 1.2}};
  size_t ribbon_cases = 0, bloom_cases = 0;
  for (const Case& c : cases) {
    SCOPED_TRACE("n=" + std::to_string(c.n) + " bits=" + std::to_string(c.bits) +
                 " bloom_before_level=" + std::to_string(c.bloom_before_level) +
                 " seed=" + std::to_string(seed));
    std::vector<std::string> present, absent;
    MakeKeys(&rng, c.n, &present, &absent);
    const std::string keys = WriteKeyFile(dir.path() + "/keys", present);
    const std::string theirs = dir.path() + "/theirs.sst";
    const std::string ours = dir.path() + "/ours.sst";
    int rc = 0;
    char bits[32];
    std::snprintf(bits, sizeof(bits), "%g", c.bits);
    const std::string out =
        Shell(std::string(kTool) + " write " + theirs + " " + keys + " --bits=" + bits +
                  " --bloom_before_level=" + std::to_string(c.bloom_before_level),
              &rc);
    ASSERT_EQ(rc, 0) << out;
    StrataWrite(ours, present, NewRibbonFilterPolicy(c.bits, c.bloom_before_level));
    if (HasFatalFailure()) return;
    std::string their_filter, our_filter;
    FilterBlockOf(theirs, &their_filter);
    FilterBlockOf(ours, &our_filter);
    if (HasFatalFailure()) return;
    ASSERT_GT(their_filter.size(), 5u);
    ASSERT_EQ(their_filter.size(), our_filter.size());
    ASSERT_TRUE(their_filter == our_filter) << "filter bytes differ";
    (Marker(their_filter) == 0xFE ? ribbon_cases : bloom_cases)++;
    if (c.n >= 1000) {
      EXPECT_EQ(Marker(their_filter), 0xFE);
    }
    if (c.n <= 60) {
      EXPECT_EQ(Marker(their_filter), 0xFF);
    }

    // Our reader over RocksDB's table: no false negatives, few positives.
    std::unique_ptr<BlockBasedTable> table;
    OpenTable(theirs, NewRibbonFilterPolicy(c.bits), &table);
    if (HasFatalFailure()) return;
    size_t fp = 0;
    for (size_t i = 0; i < present.size(); i++) {
      ASSERT_TRUE(table->KeyMayMatch(present[i])) << present[i];
      fp += table->KeyMayMatch(absent[i]) ? 1 : 0;
    }
    if (c.n >= 10000) {
      EXPECT_LT(static_cast<double>(fp) / c.n, c.bits < 5 ? 0.3 : 0.03);
    }
  }
  EXPECT_GE(ribbon_cases, 8u);
  EXPECT_GE(bloom_cases, 3u);
}

// (b): RocksDB reads our Ribbon tables.
TEST(RibbonInteropTest, OurRibbonTablesReadByRocksDB) {
  SKIP_WITHOUT_ROCKSDB();
  const uint64_t seed = test::RandomSeed();
  std::mt19937_64 rng(seed);
  test::TempDir dir("ribbon_interop");
  for (size_t n : {50u, 3000u, 40000u}) {
    SCOPED_TRACE("n=" + std::to_string(n) + " seed=" + std::to_string(seed));
    std::vector<std::string> present, absent;
    MakeKeys(&rng, n, &present, &absent);
    const std::string path = dir.path() + "/ours" + std::to_string(n) + ".sst";
    StrataWrite(path, present, NewRibbonFilterPolicy(10));
    if (HasFatalFailure()) return;
    std::string filter;
    FilterBlockOf(path, &filter);
    if (HasFatalFailure()) return;
    EXPECT_EQ(Marker(filter), n >= 1000 ? 0xFE : 0xFF);

    int rc = 0;
    std::string out = Shell(
        std::string(kSstDump) + " --file=" + path + " --command=check --verify_checksum", &rc);
    ASSERT_EQ(rc, 0) << out;
    EXPECT_EQ(out.find("orrupt"), std::string::npos) << out;
    out = Shell(std::string(kSstDump) + " --file=" + path + " --show_properties", &rc);
    ASSERT_EQ(rc, 0) << out;
    EXPECT_NE(out.find("filter policy name: ribbonfilter"), std::string::npos) << out;

    const std::string pf = WriteKeyFile(dir.path() + "/present", present);
    const std::string af = WriteKeyFile(dir.path() + "/absent", absent);
    out = Shell(std::string(kTool) + " get " + path + " " + pf + " " + af + " --bits=10", &rc);
    ASSERT_EQ(rc, 0) << out;
    unsigned long long found = 0, notfound = 0, useful = 0, positive = 0, true_positive = 0;
    const size_t at = out.find("STATS ");
    ASSERT_NE(at, std::string::npos) << out;
    ASSERT_EQ(std::sscanf(out.c_str() + at,
                          "STATS found=%llu notfound=%llu filter_useful=%llu "
                          "filter_positive=%llu filter_true_positive=%llu",
                          &found, &notfound, &useful, &positive, &true_positive),
              5)
        << out;
    EXPECT_EQ(found, n);
    EXPECT_EQ(notfound, n);
    // Every present key passed the filter; nearly every absent key inside
    // the file's range was rejected by it (the last absent key is past the
    // range and never reaches the filter).
    EXPECT_EQ(true_positive, n);
    EXPECT_GE(useful, n * 95 / 100) << out;
    EXPECT_EQ(useful + positive, 2 * n - 1) << out;
  }
}

}  // namespace
}  // namespace strata
