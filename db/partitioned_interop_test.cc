// Partitioned index and filters against RocksDB 7.8.3 itself, both ways:
//  - tables Strata writes (SstFileWriter) pass /usr/bin/sst_dump
//    --command=check --verify_checksum, show their partition properties,
//    and are read by RocksDB (rocksdb_partition_tool: ingest, Get of present
//    and absent keys with the filter statistics, full scan); a Strata DB
//    with partitioned tables is opened read-only by RocksDB the same way;
//  - tables RocksDB writes are read by Strata's BlockBasedTable: every key,
//    absent keys, iteration both ways, seeks;
//  - for the same input both writers produce the same bytes from the first
//    data block to the end of the top-level index (data blocks, filter
//    partitions, filter index, index partitions, top-level index).
// Without /usr/bin/sst_dump or the helper program those tests skip. The
// options (parsing, the OPTIONS file, refusing what is not built) are
// checked here too.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "base/get_context.h"
#include "strata/convenience.h"
#include "strata/db.h"
#include "strata/env.h"
#include "strata/filter_policy.h"
#include "strata/slice_transform.h"
#include "strata/sst_file_writer.h"
#include "strata/table.h"
#include "strata/utilities/options_util.h"
#include "table/block_based_table_reader.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

#ifdef STRATA_ROCKSDB_PARTITION_TOOL
constexpr const char* kTool = STRATA_ROCKSDB_PARTITION_TOOL;
#else
constexpr const char* kTool = "";
#endif
constexpr const char* kSstDump = "/usr/bin/sst_dump";

using test::RunCommand;

std::string Hex(const std::string& s) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : s) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 0xf]);
  }
  return out.empty() ? "-" : out;
}

// Table options on both sides (the helper's flags mirror them).
struct Shape {
  uint64_t metadata_block_size = 4096;
  size_t block_size = 4096;
  int index_restart = 1;
  bool partition_filters = true;
  size_t prefix_len = 0;
  bool whole_key_filtering = true;
  bool snappy = false;

  std::string Flags() const {
    return " --metadata_block_size=" + std::to_string(metadata_block_size) +
           " --block_size=" + std::to_string(block_size) +
           " --index_restart=" + std::to_string(index_restart) +
           " --partition_filters=" + (partition_filters ? "1" : "0") +
           " --prefix_len=" + std::to_string(prefix_len) +
           " --whole_key_filtering=" + (whole_key_filtering ? "1" : "0") +
           " --compression=" + (snappy ? "snappy" : "none");
  }
  BlockBasedTableOptions Table() const {
    BlockBasedTableOptions t;
    t.index_type = BlockBasedTableOptions::IndexType::kTwoLevelIndexSearch;
    t.partition_filters = partition_filters;
    t.metadata_block_size = metadata_block_size;
    t.block_size = block_size;
    t.index_block_restart_interval = index_restart;
    t.whole_key_filtering = whole_key_filtering;
    t.filter_policy = NewBloomFilterPolicy(10);
    return t;
  }
  std::string Name() const { return Flags(); }
};

std::vector<Shape> Shapes() {
  std::vector<Shape> v;
  v.push_back(Shape());
  Shape small;
  small.metadata_block_size = 256;
  small.block_size = 512;
  v.push_back(small);
  Shape restart = small;
  restart.index_restart = 4;
  restart.snappy = true;
  v.push_back(restart);
  Shape prefix = small;
  prefix.prefix_len = 5;
  v.push_back(prefix);
  Shape prefix_only = prefix;
  prefix_only.whole_key_filtering = false;
  v.push_back(prefix_only);
  Shape index_only = small;
  index_only.partition_filters = false;
  v.push_back(index_only);
  Shape index_only_prefixes = index_only;  // a full filter of prefixes only
  index_only_prefixes.prefix_len = 5;
  index_only_prefixes.whole_key_filtering = false;
  v.push_back(index_only_prefixes);
  return v;
}

using Entries = std::map<std::string, std::string>;

Entries MakeEntries(int n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  Entries e;
  for (int i = 0; i < n; ++i) {
    char buf[32];
    // Groups of keys share a 5-byte prefix; the gaps leave absent keys.
    snprintf(buf, sizeof(buf), "k%03d.%06d", i / 9, i * 2);
    e[buf] = test::RandomPrintable(&rng, rng() % 50);
  }
  return e;
}

class PartitionedInteropTest : public testing::Test {
 protected:
  void SetUp() override {
    if (access(kSstDump, X_OK) != 0 || kTool[0] == '\0' || access(kTool, X_OK) != 0) {
      GTEST_SKIP() << "needs " << kSstDump << " and rocksdb_partition_tool";
    }
  }

  void WriteStrata(const std::string& path, const Entries& entries, const Shape& shape) {
    Options options;
    options.table_factory = NewBlockBasedTableFactory(shape.Table());
    options.compression = shape.snappy ? kSnappyCompression : kNoCompression;
    if (shape.prefix_len > 0)
      options.prefix_extractor.reset(NewFixedPrefixTransform(shape.prefix_len));
    SstFileWriter w(options);
    ASSERT_OK(w.Open(path));
    for (const auto& [k, v] : entries) ASSERT_OK(w.Put(k, v));
    ASSERT_OK(w.Finish());
  }

  void WriteRocksDB(const std::string& path, const Entries& entries, const Shape& shape) {
    std::string input;
    for (const auto& [k, v] : entries) input += Hex(k) + " " + Hex(v) + "\n";
    const std::string in_file = dir_.path() + "/input.txt";
    test::WriteFileOrDie(in_file, input);
    int rc = 0;
    const std::string out = RunCommand(
        std::string(kTool) + " write " + path + " --input=" + in_file + shape.Flags(), &rc);
    ASSERT_EQ(rc, 0) << out;
  }

  // RocksDB Gets every key and a neighbour of each that is absent.
  void CheckRocksDBGets(const std::string& cmd, const std::string& path, const Entries& entries,
                        const Shape& shape, bool expect_filter) {
    std::string keys;
    for (const auto& [k, v] : entries) keys += Hex(k) + "\n" + Hex(k + "x") + "\n";
    const std::string key_file = dir_.path() + "/keys.txt";
    test::WriteFileOrDie(key_file, keys);
    int rc = 0;
    const std::string out = RunCommand(
        std::string(kTool) + " " + cmd + " " + path + " --keys=" + key_file + shape.Flags(), &rc);
    ASSERT_EQ(rc, 0) << out;
    for (const auto& [k, v] : entries) {
      ASSERT_NE(out.find("FOUND " + Hex(k) + " " + (v.empty() ? "" : Hex(v)) + "\n"),
                std::string::npos)
          << k;
      ASSERT_NE(out.find("NOTFOUND " + Hex(k + "x") + "\n"), std::string::npos) << k;
    }
    ASSERT_NE(out.find("SCAN " + std::to_string(entries.size()) + "\n"), std::string::npos)
        << out.substr(out.rfind("SCAN"));
    const std::string stats = out.substr(out.find("STATS"));
    unsigned long found = 0, notfound = 0, useful = 0, positive = 0, pchecked = 0, puseful = 0,
                  partitions = 0;
    ASSERT_EQ(7, sscanf(stats.c_str(),
                        "STATS found=%lu notfound=%lu filter_useful=%lu filter_positive=%lu "
                        "prefix_checked=%lu prefix_useful=%lu index_partitions=%lu",
                        &found, &notfound, &useful, &positive, &pchecked, &puseful, &partitions))
        << stats;
    EXPECT_EQ(found, entries.size());
    EXPECT_EQ(notfound, entries.size());
    EXPECT_GT(partitions, 0u) << stats;
    if (expect_filter) {
      // Most absent keys were ruled out by a filter partition.
      EXPECT_GT(useful, entries.size() / 2) << stats;
    }
  }

  std::unique_ptr<BlockBasedTable> OpenStrata(const std::string& path, const Shape& shape,
                                              const SliceTransform* prefix) {
    auto fs = FileSystem::Default();
    std::unique_ptr<RandomAccessFile> file;
    EXPECT_OK(fs->NewRandomAccessFile(path, FileOptions(), &file));
    uint64_t size = 0;
    EXPECT_OK(fs->GetFileSize(path, &size));
    TableReaderOptions ro;
    ro.table_options = shape.Table();
    ro.table_options.block_cache = NewLRUCache(1 << 20);
    ro.file_name = path;
    ro.prefix_extractor = prefix;
    std::unique_ptr<BlockBasedTable> t;
    EXPECT_OK(BlockBasedTable::Open(ro, std::move(file), size, &t));
    return t;
  }

  test::TempDir dir_{"partitioned_interop"};
};

TEST_F(PartitionedInteropTest, RocksDBReadsStrataTables) {
  const Entries entries = MakeEntries(3000, test::RandomSeed());
  for (const Shape& shape : Shapes()) {
    SCOPED_TRACE(shape.Name());
    const std::string path = dir_.path() + "/strata.sst";
    WriteStrata(path, entries, shape);
    int rc = 0;
    std::string out = RunCommand(
        std::string(kSstDump) + " --file=" + path + " --command=check --verify_checksum", &rc);
    ASSERT_EQ(rc, 0) << out;
    EXPECT_EQ(out.find("orrupt"), std::string::npos) << out;
    out = RunCommand(std::string(kSstDump) + " --file=" + path + " --show_properties", &rc);
    ASSERT_EQ(rc, 0) << out;
    EXPECT_NE(out.find("# index partitions:"), std::string::npos) << out;
    EXPECT_NE(out.find("top-level index size:"), std::string::npos) << out;
    CheckRocksDBGets("get", path, entries, shape,
                     shape.whole_key_filtering && shape.partition_filters);
  }
}

TEST_F(PartitionedInteropTest, StrataReadsRocksDBTables) {
  const Entries entries = MakeEntries(3000, test::RandomSeed());
  for (const Shape& shape : Shapes()) {
    SCOPED_TRACE(shape.Name());
    const std::string path = dir_.path() + "/rocksdb.sst";
    WriteRocksDB(path, entries, shape);
    std::unique_ptr<const SliceTransform> prefix(
        shape.prefix_len > 0 ? NewFixedPrefixTransform(shape.prefix_len) : nullptr);
    auto table = OpenStrata(path, shape, prefix.get());
    ASSERT_NE(table, nullptr);
    auto props = table->GetTableProperties();
    EXPECT_EQ(props->index_type, 2u);
    EXPECT_GT(props->index_partitions, 0u);
    ASSERT_OK(table->VerifyChecksum());
    // Every key and an absent neighbour.
    for (const auto& [k, v] : entries) {
      std::string got;
      GetContext ctx(BytewiseComparator(), k, &got);
      std::string ikey;
      AppendInternalKey(&ikey, k, kMaxSequenceNumber, kValueTypeForSeek);
      ASSERT_OK(table->Get(ReadOptions(), ikey, &ctx));
      ASSERT_EQ(ctx.state(), GetContext::kFound) << k;
      ASSERT_EQ(got, v);
      const std::string absent = k + "x";
      GetContext actx(BytewiseComparator(), absent, nullptr);
      ikey.clear();
      AppendInternalKey(&ikey, absent, kMaxSequenceNumber, kValueTypeForSeek);
      ASSERT_OK(table->Get(ReadOptions(), ikey, &actx));
      ASSERT_EQ(actx.state(), GetContext::kNotFound);
    }
    // Iteration both ways and seeks.
    std::unique_ptr<InternalIterator> it(table->NewIterator(ReadOptions()));
    auto e = entries.begin();
    for (it->SeekToFirst(); it->Valid(); it->Next(), ++e) {
      ASSERT_NE(e, entries.end());
      ASSERT_EQ(ExtractUserKey(it->key()).ToString(), e->first);
      ASSERT_EQ(it->value().ToString(), e->second);
    }
    ASSERT_OK(it->status());
    ASSERT_EQ(e, entries.end());
    auto r = entries.rbegin();
    for (it->SeekToLast(); it->Valid(); it->Prev(), ++r) {
      ASSERT_NE(r, entries.rend());
      ASSERT_EQ(ExtractUserKey(it->key()).ToString(), r->first);
    }
    ASSERT_OK(it->status());
    ASSERT_EQ(r, entries.rend());
    int i = 0;
    for (const auto& [k, v] : entries) {
      if (i++ % 13 != 0) continue;
      std::string target;
      AppendInternalKey(&target, k + "x", kMaxSequenceNumber, kValueTypeForSeek);
      it->Seek(target);
      auto next = entries.upper_bound(k);
      ASSERT_EQ(it->Valid(), next != entries.end());
      if (it->Valid()) {
        ASSERT_EQ(ExtractUserKey(it->key()).ToString(), next->first);
      }
      it->SeekForPrev(target);
      ASSERT_TRUE(it->Valid());
      ASSERT_EQ(ExtractUserKey(it->key()).ToString(), k);
    }
  }
}

// Index types Strata does not write: kHashSearch files are read through
// their binary-search index; kBinarySearchWithFirstKey is NotSupported,
// naming the file.
TEST_F(PartitionedInteropTest, OtherIndexTypesFromRocksDB) {
  const Entries entries = MakeEntries(2000, test::RandomSeed());
  std::string input;
  for (const auto& [k, v] : entries) input += Hex(k) + " " + Hex(v) + "\n";
  const std::string in_file = dir_.path() + "/input.txt";
  test::WriteFileOrDie(in_file, input);
  for (const int type : {1, 3}) {
    SCOPED_TRACE(type);
    const std::string path = dir_.path() + "/type" + std::to_string(type) + ".sst";
    int rc = 0;
    const std::string out =
        RunCommand(std::string(kTool) + " write " + path + " --input=" + in_file +
                       " --index_type=" + std::to_string(type) + " --prefix_len=4 --block_size=512",
                   &rc);
    ASSERT_EQ(rc, 0) << out;
    auto fs = FileSystem::Default();
    std::unique_ptr<RandomAccessFile> file;
    ASSERT_OK(fs->NewRandomAccessFile(path, FileOptions(), &file));
    uint64_t size = 0;
    ASSERT_OK(fs->GetFileSize(path, &size));
    TableReaderOptions ro;
    ro.table_options.filter_policy = NewBloomFilterPolicy(10);
    ro.file_name = path;
    std::unique_ptr<BlockBasedTable> table;
    Status s = BlockBasedTable::Open(ro, std::move(file), size, &table);
    if (type == 3) {
      ASSERT_TRUE(s.IsNotSupported()) << s.ToString();
      EXPECT_NE(s.ToString().find(path), std::string::npos) << s.ToString();
      continue;
    }
    ASSERT_OK(s);
    EXPECT_EQ(table->GetTableProperties()->index_type, 1u);
    for (const auto& [k, v] : entries) {
      std::string got;
      GetContext ctx(BytewiseComparator(), k, &got);
      std::string ikey;
      AppendInternalKey(&ikey, k, kMaxSequenceNumber, kValueTypeForSeek);
      ASSERT_OK(table->Get(ReadOptions(), ikey, &ctx));
      ASSERT_EQ(ctx.state(), GetContext::kFound) << k;
      ASSERT_EQ(got, v);
    }
    std::unique_ptr<InternalIterator> it(table->NewIterator(ReadOptions()));
    size_t n = 0;
    for (it->SeekToLast(); it->Valid(); it->Prev()) ++n;
    ASSERT_OK(it->status());
    EXPECT_EQ(n, entries.size());
  }
}

TEST_F(PartitionedInteropTest, SameBytesAsRocksDB) {
  const Entries entries = MakeEntries(3000, test::RandomSeed());
  for (const Shape& shape : Shapes()) {
    SCOPED_TRACE(shape.Name());
    const std::string ours = dir_.path() + "/ours.sst";
    const std::string theirs = dir_.path() + "/theirs.sst";
    WriteStrata(ours, entries, shape);
    WriteRocksDB(theirs, entries, shape);
    std::unique_ptr<const SliceTransform> prefix(
        shape.prefix_len > 0 ? NewFixedPrefixTransform(shape.prefix_len) : nullptr);
    auto a = OpenStrata(ours, shape, prefix.get());
    auto b = OpenStrata(theirs, shape, prefix.get());
    ASSERT_NE(a, nullptr);
    ASSERT_NE(b, nullptr);
    const auto pa = a->GetTableProperties();
    const auto pb = b->GetTableProperties();
    EXPECT_EQ(pa->index_partitions, pb->index_partitions);
    EXPECT_EQ(pa->top_level_index_size, pb->top_level_index_size);
    EXPECT_EQ(pa->index_size, pb->index_size);
    EXPECT_EQ(pa->filter_size, pb->filter_size);
    EXPECT_EQ(pa->num_filter_entries, pb->num_filter_entries);
    EXPECT_EQ(pa->index_key_is_user_key, pb->index_key_is_user_key);
    const BlockHandle ia = a->footer().index_handle();
    const BlockHandle ib = b->footer().index_handle();
    ASSERT_EQ(ia.offset(), ib.offset());
    ASSERT_EQ(ia.size(), ib.size());
    std::string da, db;
    ASSERT_OK(ReadFileToString(FileSystem::Default().get(), ours, &da));
    ASSERT_OK(ReadFileToString(FileSystem::Default().get(), theirs, &db));
    const size_t end = static_cast<size_t>(ia.offset() + ia.size() + 5);
    ASSERT_LE(end, da.size());
    ASSERT_LE(end, db.size());
    size_t first_diff = 0;
    while (first_diff < end && da[first_diff] == db[first_diff]) ++first_diff;
    EXPECT_EQ(first_diff, end) << "first difference at offset " << first_diff << " of " << end;
  }
}

TEST_F(PartitionedInteropTest, RocksDBOpensStrataDB) {
  const std::string path = dir_.path() + "/db";
  Shape shape;
  shape.metadata_block_size = 512;
  shape.block_size = 1024;
  Entries model;
  {
    Options options;
    options.create_if_missing = true;
    options.table_factory = NewBlockBasedTableFactory(shape.Table());
    options.write_buffer_size = 256 << 10;
    std::unique_ptr<DB> db;
    ASSERT_OK(DB::Open(options, path, &db));
    const Entries entries = MakeEntries(10000, test::RandomSeed());
    for (const auto& [k, v] : entries) {
      ASSERT_OK(db->Put(WriteOptions(), k, v));
      model[k] = v;
    }
    ASSERT_OK(db->Flush(FlushOptions()));
    ASSERT_OK(db->CompactRange(CompactRangeOptions(), nullptr, nullptr));
    // Strata reads its own DB too, and the readers stay small.
    for (const auto& [k, v] : model) {
      std::string got;
      ASSERT_OK(db->Get(ReadOptions(), k, &got));
      ASSERT_EQ(got, v);
    }
    std::string mem;
    ASSERT_TRUE(db->GetProperty("rocksdb.estimate-table-readers-mem", &mem));
    EXPECT_GT(std::stoull(mem), 0u);
    ASSERT_OK(db->Close());
  }
  CheckRocksDBGets("dbget", path, model, shape, true);
}

// rocksdb.estimate-table-readers-mem counts what readers hold: with
// partitions only the top levels, far less than whole indexes and filters.
TEST(PartitionedMemoryTest, TableReadersHoldOnlyTheTopLevels) {
  test::TempDir dir("partitioned_mem");
  uint64_t mem[2] = {0, 0};
  for (int partitioned = 0; partitioned < 2; ++partitioned) {
    BlockBasedTableOptions t;
    t.filter_policy = NewBloomFilterPolicy(10);
    if (partitioned != 0) {
      t.index_type = BlockBasedTableOptions::IndexType::kTwoLevelIndexSearch;
      t.partition_filters = true;
    }
    Options options;
    options.create_if_missing = true;
    options.table_factory = NewBlockBasedTableFactory(t);
    std::unique_ptr<DB> db;
    const std::string path = dir.path() + "/db" + std::to_string(partitioned);
    ASSERT_OK(DB::Open(options, path, &db));
    for (int i = 0; i < 60000; ++i) {
      char key[32];
      snprintf(key, sizeof(key), "key%09d", i * 7);
      ASSERT_OK(db->Put(WriteOptions(), key, std::string(20, 'v')));
    }
    ASSERT_OK(db->Flush(FlushOptions()));
    std::string value;
    ASSERT_OK(db->Get(ReadOptions(), "key000000007", &value));  // opens the reader
    ASSERT_TRUE(db->GetProperty("rocksdb.estimate-table-readers-mem", &value));
    mem[partitioned] = std::stoull(value);
    for (int i = 0; i < 60000; i += 997) {
      char key[32];
      snprintf(key, sizeof(key), "key%09d", i * 7);
      ASSERT_OK(db->Get(ReadOptions(), key, &value));
      snprintf(key, sizeof(key), "key%09d", i * 7 + 1);
      ASSERT_TRUE(db->Get(ReadOptions(), key, &value).IsNotFound());
    }
    ASSERT_OK(db->Close());
  }
  EXPECT_LT(mem[1] * 5, mem[0]) << "partitioned " << mem[1] << " vs " << mem[0];
}

TEST(PartitionedOptionsTest, ParsedWrittenAndRefused) {
  BlockBasedTableOptions t;
  EXPECT_EQ(t.metadata_block_size, 4096u);
  EXPECT_TRUE(t.pin_top_level_index_and_filter);
  EXPECT_FALSE(t.partition_filters);
  ASSERT_OK(GetBlockBasedTableOptionsFromString(
      ConfigOptions(), BlockBasedTableOptions(),
      "index_type=kTwoLevelIndexSearch;partition_filters=true;metadata_block_size=8192;"
      "pin_top_level_index_and_filter=false",
      &t));
  EXPECT_EQ(t.index_type, BlockBasedTableOptions::IndexType::kTwoLevelIndexSearch);
  EXPECT_TRUE(t.partition_filters);
  EXPECT_EQ(t.metadata_block_size, 8192u);
  EXPECT_FALSE(t.pin_top_level_index_and_filter);

  // The OPTIONS file carries them back.
  test::TempDir dir("partitioned_options");
  const std::string path = dir.path() + "/db";
  {
    Options options;
    options.create_if_missing = true;
    options.table_factory = NewBlockBasedTableFactory(t);
    std::unique_ptr<DB> db;
    ASSERT_OK(DB::Open(options, path, &db));
    ASSERT_OK(db->Put(WriteOptions(), "a", "b"));
    ASSERT_OK(db->Close());
  }
  DBOptions db_opts;
  std::vector<ColumnFamilyDescriptor> cfs;
  ASSERT_OK(LoadLatestOptions(ConfigOptions(), path, &db_opts, &cfs));
  ASSERT_EQ(cfs.size(), 1u);
  ASSERT_NE(cfs[0].options.table_factory, nullptr);
  const BlockBasedTableOptions& loaded = cfs[0].options.table_factory->table_options();
  EXPECT_EQ(loaded.index_type, BlockBasedTableOptions::IndexType::kTwoLevelIndexSearch);
  EXPECT_TRUE(loaded.partition_filters);
  EXPECT_EQ(loaded.metadata_block_size, 8192u);
  EXPECT_FALSE(loaded.pin_top_level_index_and_filter);

  // Index types that are not built are refused by name at open.
  for (auto type : {BlockBasedTableOptions::IndexType::kHashSearch,
                    BlockBasedTableOptions::IndexType::kBinarySearchWithFirstKey}) {
    BlockBasedTableOptions bad;
    bad.index_type = type;
    Options options;
    options.create_if_missing = true;
    options.table_factory = NewBlockBasedTableFactory(bad);
    std::unique_ptr<DB> db;
    Status s = DB::Open(options, dir.path() + "/bad", &db);
    ASSERT_TRUE(s.IsInvalidArgument()) << s.ToString();
    EXPECT_NE(s.ToString().find(type == BlockBasedTableOptions::IndexType::kHashSearch
                                    ? "kHashSearch"
                                    : "kBinarySearchWithFirstKey"),
              std::string::npos)
        << s.ToString();
  }
  // partition_filters without the partitioned index is turned off, as
  // RocksDB's factory does.
  BlockBasedTableOptions only_filters;
  only_filters.partition_filters = true;
  EXPECT_FALSE(NewBlockBasedTableFactory(only_filters)->table_options().partition_filters);
}

}  // namespace
}  // namespace strata
