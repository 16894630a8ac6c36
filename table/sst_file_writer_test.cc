// Tests of SstFileWriter: key order, empty files, the info it returns, and
// every entry kind read back through BlockBasedTable.
#include "strata/sst_file_writer.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "base/dbformat.h"
#include "strata/env.h"
#include "strata/file_checksum.h"
#include "strata/table.h"
#include "table/block_based_table_reader.h"
#include "test_util/testutil.h"
#include "util/coding.h"

namespace strata {
namespace {

constexpr const char* kSstDump = "/usr/bin/sst_dump";
constexpr const char* kLdb = "/usr/bin/ldb";

// Runs a shell command; returns its stdout and sets *rc.
std::string RunCommand(const std::string& cmd, int* rc) {
  std::string out;
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  if (p == nullptr) {
    *rc = -1;
    return out;
  }
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), p)) > 0) out.append(buf, n);
  *rc = pclose(p);
  return out;
}

struct Entry {
  std::string user_key;
  SequenceNumber seq;
  ValueType type;
  std::string value;
};

class SstFileWriterTest : public testing::Test {
 protected:
  SstFileWriterTest() : env_(NewMemEnv()) {
    options_.env = env_.get();
    options_.compression = kNoCompression;
  }

  FileSystem* fs() { return env_->GetFileSystem(); }

  // Opens `path` as a table with the given comparator.
  void OpenTable(const std::string& path, std::unique_ptr<BlockBasedTable>* table,
                 const Comparator* cmp = BytewiseComparator()) {
    uint64_t size = 0;
    ASSERT_OK(fs()->GetFileSize(path, &size));
    std::unique_ptr<RandomAccessFile> file;
    ASSERT_OK(fs()->NewRandomAccessFile(path, FileOptions(), &file));
    TableReaderOptions tro;
    tro.user_comparator = cmp;
    tro.file_name = path;
    ASSERT_OK(BlockBasedTable::Open(tro, std::move(file), size, table));
  }

  // Every point entry of the table, in file order.
  static std::vector<Entry> ReadAll(BlockBasedTable* table) {
    std::vector<Entry> out;
    std::unique_ptr<InternalIterator> it(table->NewIterator(ReadOptions()));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      ParsedInternalKey pk;
      EXPECT_OK(ParseInternalKey(it->key(), &pk));
      out.push_back({pk.user_key.ToString(), pk.sequence, pk.type, it->value().ToString()});
    }
    EXPECT_OK(it->status());
    return out;
  }

  std::unique_ptr<Env> env_;
  Options options_;
};

TEST_F(SstFileWriterTest, PutsInOrderRoundTripAndInfo) {
  SstFileWriter writer(options_);
  ASSERT_OK(writer.Open("/f1.sst"));
  EXPECT_EQ(0u, writer.FileSize());
  const int kN = 2000;
  for (int i = 0; i < kN; i++) {
    char k[32], v[32];
    std::snprintf(k, sizeof(k), "key%06d", i);
    std::snprintf(v, sizeof(v), "value-%d", i * 7);
    ASSERT_OK(writer.Put(k, v));
  }
  // 2000 entries of ~30 bytes make several 4 KiB blocks, so bytes were
  // written before Finish.
  EXPECT_GT(writer.FileSize(), 0u);
  ExternalSstFileInfo info;
  ASSERT_OK(writer.Finish(&info));
  EXPECT_EQ("/f1.sst", info.file_path);
  EXPECT_EQ("key000000", info.smallest_key);
  EXPECT_EQ("key001999", info.largest_key);
  EXPECT_EQ(0u, info.sequence_number);
  EXPECT_EQ(static_cast<uint64_t>(kN), info.num_entries);
  EXPECT_EQ(0u, info.num_range_del_entries);
  EXPECT_EQ(2, info.version);
  uint64_t size = 0;
  ASSERT_OK(fs()->GetFileSize("/f1.sst", &size));
  EXPECT_EQ(size, info.file_size);
  EXPECT_EQ(size, writer.FileSize());

  std::unique_ptr<BlockBasedTable> table;
  ASSERT_NO_FATAL_FAILURE(OpenTable("/f1.sst", &table));
  std::vector<Entry> entries = ReadAll(table.get());
  ASSERT_EQ(static_cast<size_t>(kN), entries.size());
  for (int i = 0; i < kN; i++) {
    char k[32], v[32];
    std::snprintf(k, sizeof(k), "key%06d", i);
    std::snprintf(v, sizeof(v), "value-%d", i * 7);
    EXPECT_EQ(k, entries[i].user_key);
    EXPECT_EQ(0u, entries[i].seq);
    EXPECT_EQ(kTypeValue, entries[i].type);
    EXPECT_EQ(v, entries[i].value);
  }
  EXPECT_GT(table->GetTableProperties()->num_data_blocks, 1u);
}

// External files take RocksDB's compression: bottommost_compression (and
// bottommost_compression_opts when enabled), else the last per-level entry,
// else `compression`; with a dictionary when max_dict_bytes is set.
TEST_F(SstFileWriterTest, CompressionLikeRocksDB) {
  struct Case {
    const char* path;
    std::function<void(Options*)> set;
    const char* codec;
    const char* opts_fragment;
  };
  const Case cases[] = {
      {"/c1.sst", [](Options* o) { o->compression = kLZ4Compression; }, "LZ4", "level=32767;"},
      {"/c2.sst",
       [](Options* o) {
         o->compression_per_level = {kNoCompression, kZlibCompression};
       },
       "Zlib", "level=32767;"},
      {"/c3.sst",
       [](Options* o) {
         o->compression_per_level = {kNoCompression, kZlibCompression};
         o->bottommost_compression = kZSTD;
         o->bottommost_compression_opts.enabled = true;
         o->bottommost_compression_opts.level = 9;
         o->bottommost_compression_opts.max_dict_bytes = 4096;
       },
       "ZSTD", "level=9; strategy=0; max_dict_bytes=4096;"},
  };
  for (const Case& c : cases) {
    Options o = options_;
    c.set(&o);
    SstFileWriter writer(o);
    ASSERT_OK(writer.Open(c.path));
    for (int i = 0; i < 3000; i++) {
      char k[32], v[64];
      std::snprintf(k, sizeof(k), "key%06d", i);
      std::snprintf(v, sizeof(v), "value-%d-country=FR;lang=fr;", i * 7);
      ASSERT_OK(writer.Put(k, v));
    }
    ASSERT_OK(writer.Finish());
    std::unique_ptr<BlockBasedTable> table;
    ASSERT_NO_FATAL_FAILURE(OpenTable(c.path, &table));
    EXPECT_EQ(table->GetTableProperties()->compression_name, c.codec) << c.path;
    EXPECT_NE(table->GetTableProperties()->compression_options.find(c.opts_fragment),
              std::string::npos)
        << table->GetTableProperties()->compression_options;
    EXPECT_EQ(ReadAll(table.get()).size(), 3000u);
  }
}

TEST_F(SstFileWriterTest, OutOfOrderKeysRejected) {
  SstFileWriter writer(options_);
  ASSERT_OK(writer.Open("/f2.sst"));
  ASSERT_OK(writer.Put("b", "1"));
  Status s = writer.Put("a", "2");
  ASSERT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("'a' after 'b'")) << s.ToString();
  s = writer.Delete("b");  // equal keys are not increasing either
  ASSERT_TRUE(s.IsInvalidArgument()) << s.ToString();
  s = writer.Merge(std::string("\x01\xff", 2), "m");
  ASSERT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("'\\x01\\xff' after 'b'")) << s.ToString();
  ASSERT_OK(writer.Put("c", "3"));
  ExternalSstFileInfo info;
  ASSERT_OK(writer.Finish(&info));
  EXPECT_EQ(2u, info.num_entries);
  EXPECT_EQ("b", info.smallest_key);
  EXPECT_EQ("c", info.largest_key);

  std::unique_ptr<BlockBasedTable> table;
  ASSERT_NO_FATAL_FAILURE(OpenTable("/f2.sst", &table));
  std::vector<Entry> entries = ReadAll(table.get());
  ASSERT_EQ(2u, entries.size());
  EXPECT_EQ("b", entries[0].user_key);
  EXPECT_EQ("1", entries[0].value);
  EXPECT_EQ("c", entries[1].user_key);
  EXPECT_EQ("3", entries[1].value);
}

TEST_F(SstFileWriterTest, EmptyFinishIsInvalidAndWriterStaysOpen) {
  SstFileWriter writer(options_);
  ASSERT_OK(writer.Open("/f3.sst"));
  Status s = writer.Finish();
  ASSERT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("Cannot create sst file with no entries"));
  // The file is still open: entries can be added and finished.
  ASSERT_OK(writer.Put("k", "v"));
  ASSERT_OK(writer.Finish());
  // A finished writer is closed until the next Open.
  EXPECT_TRUE(writer.Put("l", "v").IsInvalidArgument());
  EXPECT_TRUE(writer.Finish().IsInvalidArgument());
}

TEST_F(SstFileWriterTest, CallsBeforeOpenAreInvalid) {
  SstFileWriter writer(options_);
  EXPECT_TRUE(writer.Put("a", "1").IsInvalidArgument());
  EXPECT_TRUE(writer.Merge("a", "1").IsInvalidArgument());
  EXPECT_TRUE(writer.Delete("a").IsInvalidArgument());
  EXPECT_TRUE(writer.DeleteRange("a", "b").IsInvalidArgument());
  EXPECT_TRUE(writer.Finish().IsInvalidArgument());
}

TEST_F(SstFileWriterTest, AllEntryKinds) {
  SstFileWriter writer(options_);
  ASSERT_OK(writer.Open("/f4.sst"));
  ASSERT_OK(writer.DeleteRange("x", "z"));  // range tombstones in any order
  ASSERT_OK(writer.Put("a", "va"));
  ASSERT_OK(writer.Merge("b", "vb"));
  ASSERT_OK(writer.Delete("c"));
  ASSERT_OK(writer.DeleteRange("b", "d"));
  ExternalSstFileInfo info;
  ASSERT_OK(writer.Finish(&info));
  EXPECT_EQ(3u, info.num_entries);
  EXPECT_EQ(2u, info.num_range_del_entries);
  EXPECT_EQ("a", info.smallest_key);
  EXPECT_EQ("c", info.largest_key);

  std::unique_ptr<BlockBasedTable> table;
  ASSERT_NO_FATAL_FAILURE(OpenTable("/f4.sst", &table));
  std::vector<Entry> entries = ReadAll(table.get());
  ASSERT_EQ(3u, entries.size());
  EXPECT_EQ("a", entries[0].user_key);
  EXPECT_EQ(kTypeValue, entries[0].type);
  EXPECT_EQ("va", entries[0].value);
  EXPECT_EQ("b", entries[1].user_key);
  EXPECT_EQ(kTypeMerge, entries[1].type);
  EXPECT_EQ("vb", entries[1].value);
  EXPECT_EQ("c", entries[2].user_key);
  EXPECT_EQ(kTypeDeletion, entries[2].type);
  EXPECT_EQ("", entries[2].value);
  for (const Entry& e : entries) EXPECT_EQ(0u, e.seq);

  std::unique_ptr<InternalIterator> rit(table->NewRangeTombstoneIterator(ReadOptions()));
  ASSERT_NE(nullptr, rit);
  std::vector<std::pair<std::string, std::string>> tombstones;
  for (rit->SeekToFirst(); rit->Valid(); rit->Next()) {
    ParsedInternalKey pk;
    ASSERT_OK(ParseInternalKey(rit->key(), &pk));
    EXPECT_EQ(kTypeRangeDeletion, pk.type);
    EXPECT_EQ(0u, pk.sequence);
    tombstones.emplace_back(pk.user_key.ToString(), rit->value().ToString());
  }
  ASSERT_OK(rit->status());
  ASSERT_EQ(2u, tombstones.size());  // sorted by begin key
  EXPECT_EQ("b", tombstones[0].first);
  EXPECT_EQ("d", tombstones[0].second);
  EXPECT_EQ("x", tombstones[1].first);
  EXPECT_EQ("z", tombstones[1].second);

  auto props = table->GetTableProperties();
  EXPECT_EQ(5u, props->num_entries);  // range tombstones included
  EXPECT_EQ(3u, props->num_deletions);
  EXPECT_EQ(1u, props->num_merge_operands);
  EXPECT_EQ(2u, props->num_range_deletions);
}

TEST_F(SstFileWriterTest, RangeDeletionOnlyFile) {
  SstFileWriter writer(options_);
  ASSERT_OK(writer.Open("/f5.sst"));
  ASSERT_OK(writer.DeleteRange("m", "n"));
  ExternalSstFileInfo info;
  ASSERT_OK(writer.Finish(&info));
  EXPECT_EQ(0u, info.num_entries);
  EXPECT_EQ(1u, info.num_range_del_entries);
  std::unique_ptr<BlockBasedTable> table;
  ASSERT_NO_FATAL_FAILURE(OpenTable("/f5.sst", &table));
  EXPECT_TRUE(ReadAll(table.get()).empty());
  std::unique_ptr<InternalIterator> rit(table->NewRangeTombstoneIterator(ReadOptions()));
  ASSERT_NE(nullptr, rit);
  rit->SeekToFirst();
  ASSERT_TRUE(rit->Valid());
  EXPECT_EQ("n", rit->value().ToString());
}

TEST_F(SstFileWriterTest, EmptyOrInvertedRangeRejected) {
  SstFileWriter writer(options_);
  ASSERT_OK(writer.Open("/f6.sst"));
  Status s = writer.DeleteRange("k", "k");
  ASSERT_TRUE(s.IsInvalidArgument()) << s.ToString();
  s = writer.DeleteRange("z", "a");
  ASSERT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("'z'")) << s.ToString();
  // Nothing was added.
  EXPECT_TRUE(writer.Finish().IsInvalidArgument());
}

TEST_F(SstFileWriterTest, PropertiesMatchRocksDBSstFileWriter) {
  SstFileWriter writer(options_);
  ASSERT_OK(writer.Open("/f7.sst"));
  ASSERT_OK(writer.Put("k1", "v1"));
  ASSERT_OK(writer.Put("k2", "v2"));
  ASSERT_OK(writer.Finish());
  std::unique_ptr<BlockBasedTable> table;
  ASSERT_NO_FATAL_FAILURE(OpenTable("/f7.sst", &table));
  auto props = table->GetTableProperties();
  EXPECT_EQ(2u, props->num_entries);
  EXPECT_EQ("leveldb.BytewiseComparator", props->comparator_name);
  EXPECT_EQ("", props->column_family_name);
  EXPECT_EQ(0x7fffffffu, props->column_family_id);
  EXPECT_EQ("NoCompression", props->compression_name);
  const auto& user = props->user_collected_properties;
  auto it = user.find("rocksdb.external_sst_file.version");
  ASSERT_NE(user.end(), it);
  ASSERT_EQ(4u, it->second.size());  // fixed32
  EXPECT_EQ(2u, DecodeFixed32(it->second.data()));
  it = user.find("rocksdb.external_sst_file.global_seqno");
  ASSERT_NE(user.end(), it);
  ASSERT_EQ(8u, it->second.size());  // fixed64
  EXPECT_EQ(0u, DecodeFixed64(it->second.data()));
}

TEST_F(SstFileWriterTest, ReverseComparator) {
  options_.comparator = ReverseBytewiseComparator();
  SstFileWriter writer(options_);
  ASSERT_OK(writer.Open("/f8.sst"));
  ASSERT_OK(writer.Put("c", "3"));
  ASSERT_OK(writer.Put("b", "2"));
  EXPECT_TRUE(writer.Put("d", "4").IsInvalidArgument());
  ASSERT_OK(writer.Put("a", "1"));
  ExternalSstFileInfo info;
  ASSERT_OK(writer.Finish(&info));
  EXPECT_EQ("c", info.smallest_key);
  EXPECT_EQ("a", info.largest_key);
  std::unique_ptr<BlockBasedTable> table;
  ASSERT_NO_FATAL_FAILURE(OpenTable("/f8.sst", &table, ReverseBytewiseComparator()));
  EXPECT_EQ("rocksdb.ReverseBytewiseComparator", table->GetTableProperties()->comparator_name);
  std::vector<Entry> entries = ReadAll(table.get());
  ASSERT_EQ(3u, entries.size());
  EXPECT_EQ("c", entries[0].user_key);
  EXPECT_EQ("b", entries[1].user_key);
  EXPECT_EQ("a", entries[2].user_key);
}

// Random binary keys and values, compressed, small blocks, from the table
// factory's options.
TEST_F(SstFileWriterTest, RandomizedCompressedSmallBlocks) {
  const uint64_t seed = test::RandomSeed();
  std::mt19937_64 rng(seed);
  BlockBasedTableOptions topts;
  topts.block_size = 256;
  options_.table_factory = NewBlockBasedTableFactory(topts);
  options_.compression = kSnappyCompression;
  std::set<std::string> keys;
  while (keys.size() < 3000) keys.insert(test::RandomBytes(&rng, 1 + rng() % 24));
  std::vector<std::string> values;
  SstFileWriter writer(options_);
  ASSERT_OK(writer.Open("/f9.sst"));
  for (const std::string& k : keys) {
    values.push_back(rng() % 2 ? std::string(rng() % 100, 'x')
                               : test::RandomBytes(&rng, rng() % 60));
    ASSERT_OK(writer.Put(k, values.back()));
  }
  ExternalSstFileInfo info;
  ASSERT_OK(writer.Finish(&info));
  EXPECT_EQ(*keys.begin(), info.smallest_key);
  EXPECT_EQ(*keys.rbegin(), info.largest_key);

  std::unique_ptr<BlockBasedTable> table;
  ASSERT_NO_FATAL_FAILURE(OpenTable("/f9.sst", &table));
  EXPECT_OK(table->VerifyChecksum());
  EXPECT_GT(table->GetTableProperties()->num_data_blocks, 50u);
  EXPECT_EQ("Snappy", table->GetTableProperties()->compression_name);
  std::vector<Entry> entries = ReadAll(table.get());
  ASSERT_EQ(keys.size(), entries.size());
  size_t i = 0;
  for (const std::string& k : keys) {
    EXPECT_EQ(k, entries[i].user_key);
    EXPECT_EQ(values[i], entries[i].value);
    i++;
  }
}

TEST_F(SstFileWriterTest, OpenErrorAndReopen) {
  test::TempDir dir("sst_file_writer_test");
  Options options;
  options.compression = kNoCompression;
  SstFileWriter writer(options);
  EXPECT_FALSE(writer.Open(dir.path() + "/missing-dir/x.sst").ok());
  // An unfinished file is abandoned by the next Open.
  ASSERT_OK(writer.Open(dir.path() + "/a.sst"));
  ASSERT_OK(writer.Put("z", "1"));
  ASSERT_OK(writer.Open(dir.path() + "/b.sst"));
  ASSERT_OK(writer.Put("a", "1"));  // a fresh file: no order relative to "z"
  ExternalSstFileInfo info;
  ASSERT_OK(writer.Finish(&info));
  EXPECT_EQ(dir.path() + "/b.sst", info.file_path);
  EXPECT_EQ(1u, info.num_entries);
  uint64_t size = 0;
  ASSERT_OK(Env::Default()->GetFileSystem()->GetFileSize(info.file_path, &size));
  EXPECT_EQ(size, info.file_size);
}

// RocksDB 7.8.3 (Debian's rocksdb-tools) reads what SstFileWriter writes:
// sst_dump verifies and scans it, and ldb ingests it into a fresh DB.
// Skipped when the tools are not installed.
TEST_F(SstFileWriterTest, ReadAndIngestedByRocksDB) {
  if (access(kSstDump, X_OK) != 0 || access(kLdb, X_OK) != 0) {
    GTEST_SKIP() << "rocksdb-tools not installed";
  }
  test::TempDir dir("sst_file_writer_interop");
  const std::string path = dir.path() + "/ext.sst";
  Options options;
  options.compression = kSnappyCompression;
  SstFileWriter writer(options);
  ASSERT_OK(writer.Open(path));
  std::string expected_scan;  // what `ldb scan` prints after ingestion
  for (int i = 0; i < 300; i++) {
    char k[16];
    std::snprintf(k, sizeof(k), "key%04d", i);
    if (i == 7) {
      ASSERT_OK(writer.Delete(k));
    } else if (i == 8) {
      ASSERT_OK(writer.Merge(k, "m8"));  // no base value: the operand itself
      expected_scan += std::string(k) + " : m8\n";
    } else {
      const std::string v = "value" + std::to_string(i) + std::string(i % 50, 'x');
      ASSERT_OK(writer.Put(k, v));
      // Like RocksDB's, a file's range tombstone does not cover the point
      // keys of the same file (same sequence number): key0100..key0199 stay.
      expected_scan += std::string(k) + " : " + v + "\n";
    }
  }
  ASSERT_OK(writer.DeleteRange("key0100", "key0200"));
  ASSERT_OK(writer.Finish());

  int rc = 0;
  std::string out =
      RunCommand(std::string(kSstDump) + " --file=" + path + " --command=verify", &rc);
  ASSERT_EQ(0, rc) << out;
  EXPECT_NE(std::string::npos, out.find("The file is ok")) << out;
  out = RunCommand(std::string(kSstDump) + " --file=" + path + " --command=scan", &rc);
  ASSERT_EQ(0, rc) << out;
  EXPECT_NE(std::string::npos, out.find("'key0000' seq:0, type:1 => value0")) << out;
  EXPECT_NE(std::string::npos, out.find("'key0007' seq:0, type:0 => ")) << out;
  EXPECT_NE(std::string::npos, out.find("'key0008' seq:0, type:2 => m8")) << out;
  out = RunCommand(std::string(kSstDump) + " --file=" + path + " --show_properties", &rc);
  ASSERT_EQ(0, rc) << out;
  EXPECT_NE(std::string::npos, out.find("rocksdb.external_sst_file.version: 0x02000000")) << out;
  EXPECT_NE(std::string::npos, out.find("# range deletions: 1")) << out;

  // The tombstone does hide what the DB held before the ingestion.
  const std::string db = dir.path() + "/db";
  out =
      RunCommand(std::string(kLdb) + " --db=" + db + " --create_if_missing put key0150a old", &rc);
  ASSERT_EQ(0, rc) << out;
  out = RunCommand(std::string(kLdb) + " --db=" + db + " put key0300 kept", &rc);
  ASSERT_EQ(0, rc) << out;
  expected_scan += "key0300 : kept\n";
  out = RunCommand(
      std::string(kLdb) + " --db=" + db + " --create_if_missing ingest_extern_sst " + path, &rc);
  ASSERT_EQ(0, rc) << out;
  out = RunCommand(std::string(kLdb) + " --db=" + db + " scan 2>/dev/null", &rc);
  ASSERT_EQ(0, rc) << out;
  EXPECT_EQ(expected_scan, out);
}

}  // namespace
}  // namespace strata

namespace strata {
namespace {

TEST_F(SstFileWriterTest, RangeDeletionBoundsAndChecksum) {
  SstFileWriter writer(options_);
  ASSERT_OK(writer.Open("/rb.sst"));
  ASSERT_OK(writer.Put("a", "1"));
  ASSERT_OK(writer.DeleteRange("m", "p"));
  ASSERT_OK(writer.DeleteRange("k", "n"));
  ASSERT_OK(writer.DeleteRange("x", "z"));
  ExternalSstFileInfo info;
  ASSERT_OK(writer.Finish(&info));
  EXPECT_EQ("k", info.smallest_range_del_key);
  EXPECT_EQ("z", info.largest_range_del_key);
  EXPECT_EQ(2, info.version);
  // No checksum factory: RocksDB's "unknown" answers.
  EXPECT_EQ("", info.file_checksum);
  EXPECT_EQ("Unknown", info.file_checksum_func_name);

  // With one, the whole file's checksum under the generator's name: the
  // same value as the function over the file's bytes.
  options_.file_checksum_gen_factory = GetFileChecksumGenCrc32cFactory();
  SstFileWriter with_checksum(options_);
  ASSERT_OK(with_checksum.Open("/ck.sst"));
  ASSERT_OK(with_checksum.Put("a", "1"));
  ASSERT_OK(with_checksum.Finish(&info));
  EXPECT_EQ(kStandardDbFileChecksumFuncName, info.file_checksum_func_name);
  EXPECT_EQ("", info.smallest_range_del_key);
  std::string contents;
  ASSERT_OK(ReadFileToString(fs(), "/ck.sst", &contents));
  FileChecksumGenContext context;
  auto gen = options_.file_checksum_gen_factory->CreateFileChecksumGenerator(context);
  gen->Update(contents.data(), contents.size());
  gen->Finalize();
  EXPECT_EQ(gen->GetChecksum(), info.file_checksum);
  EXPECT_EQ(4u, info.file_checksum.size());
}

TEST_F(SstFileWriterTest, TimestampComparatorRefused) {
  class TsComparator : public Comparator {
   public:
    TsComparator() : Comparator(8) {}
    int Compare(const Slice& a, const Slice& b) const override { return a.compare(b); }
    const char* Name() const override { return "test.Ts"; }
    void FindShortestSeparator(std::string*, const Slice&) const override {}
    void FindShortSuccessor(std::string*) const override {}
  } ts;
  options_.comparator = &ts;
  SstFileWriter writer(options_);
  EXPECT_TRUE(writer.Open("/ts.sst").IsNotSupported());
}

TEST_F(SstFileWriterTest, ExternalFilePropertiesKnowTheirSeqnoOffset) {
  SstFileWriter writer(options_);
  ASSERT_OK(writer.Open("/so.sst"));
  ASSERT_OK(writer.Put("a", "1"));
  ASSERT_OK(writer.Finish());
  std::unique_ptr<BlockBasedTable> table;
  ASSERT_NO_FATAL_FAILURE(OpenTable("/so.sst", &table));
  ASSERT_NE(0u, table->global_seqno_offset());
  EXPECT_EQ(table->global_seqno_offset(),
            table->GetTableProperties()->external_sst_file_global_seqno_offset);
}

}  // namespace
}  // namespace strata
