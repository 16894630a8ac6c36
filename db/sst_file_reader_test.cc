// Tests of SstFileReader: round trips with SstFileWriter in both
// directions, seeks, hidden deletions, snapshots, properties and checksum
// verification.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "base/dbformat.h"
#include "strata/env.h"
#include "strata/snapshot.h"
#include "strata/sst_file_writer.h"
#include "strata/table.h"
#include "table/block_based_table_builder.h"
#include "test_util/testutil.h"
#include "util/coding.h"

namespace strata {
namespace {

class FixedSnapshot : public Snapshot {
 public:
  explicit FixedSnapshot(SequenceNumber seq) : seq_(seq) {}
  ~FixedSnapshot() override = default;
  uint64_t GetSequenceNumber() const override { return seq_; }

 private:
  SequenceNumber seq_;
};

std::string Key(int i) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "key%06d", i);
  return buf;
}
std::string Value(int i) { return "value" + std::to_string(i * 31) + std::string(i % 13, 'v'); }

class SstFileReaderTest : public testing::Test {
 protected:
  SstFileReaderTest() : env_(NewMemEnv()) {
    options_.env = env_.get();
    options_.compression = kNoCompression;
  }

  // Writes Key(i) -> Value(i) for every i in [0, n) with i % step == 0.
  void WriteFile(const std::string& path, int n, int step = 1) {
    SstFileWriter writer(options_);
    ASSERT_OK(writer.Open(path));
    for (int i = 0; i < n; i += step) ASSERT_OK(writer.Put(Key(i), Value(i)));
    ASSERT_OK(writer.Finish());
  }

  std::unique_ptr<Env> env_;
  Options options_;
};

TEST_F(SstFileReaderTest, RoundTripBothDirections) {
  const int kN = 3000;
  ASSERT_NO_FATAL_FAILURE(WriteFile("/r1.sst", kN));
  SstFileReader reader(options_);
  ASSERT_OK(reader.Open("/r1.sst"));
  std::unique_ptr<Iterator> it = reader.NewIterator(ReadOptions());
  int i = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next(), i++) {
    ASSERT_EQ(Key(i), it->key().ToString());
    ASSERT_EQ(Value(i), it->value().ToString());
  }
  ASSERT_OK(it->status());
  EXPECT_EQ(kN, i);
  i = kN - 1;
  for (it->SeekToLast(); it->Valid(); it->Prev(), i--) {
    ASSERT_EQ(Key(i), it->key().ToString());
    ASSERT_EQ(Value(i), it->value().ToString());
  }
  ASSERT_OK(it->status());
  EXPECT_EQ(-1, i);
  // Change of direction in the middle.
  it->Seek(Key(100));
  ASSERT_TRUE(it->Valid());
  it->Next();
  it->Prev();
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(Key(100), it->key().ToString());
  it->Prev();
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(Key(99), it->key().ToString());
  it->Next();
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(Key(100), it->key().ToString());
}

TEST_F(SstFileReaderTest, Seek) {
  ASSERT_NO_FATAL_FAILURE(WriteFile("/r2.sst", 1000, 10));  // key000000, key000010, ...
  SstFileReader reader(options_);
  ASSERT_OK(reader.Open("/r2.sst"));
  std::unique_ptr<Iterator> it = reader.NewIterator(ReadOptions());
  it->Seek(Key(500));
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(Key(500), it->key().ToString());
  EXPECT_EQ(Value(500), it->value().ToString());
  it->Seek(Key(501));  // between keys: the next one
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(Key(510), it->key().ToString());
  it->Seek("");  // before everything
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(Key(0), it->key().ToString());
  it->Seek(Key(991));  // past the end
  EXPECT_FALSE(it->Valid());
  ASSERT_OK(it->status());
  it->SeekForPrev(Key(505));
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(Key(500), it->key().ToString());
  it->SeekForPrev("a");  // before everything
  EXPECT_FALSE(it->Valid());
  it->SeekForPrev("z");
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(Key(990), it->key().ToString());
  ASSERT_OK(it->status());
}

TEST_F(SstFileReaderTest, Bounds) {
  ASSERT_NO_FATAL_FAILURE(WriteFile("/r3.sst", 100));
  SstFileReader reader(options_);
  ASSERT_OK(reader.Open("/r3.sst"));
  ReadOptions ro;
  const std::string lower = Key(20), upper = Key(30);
  Slice lower_slice(lower), upper_slice(upper);
  ro.iterate_lower_bound = &lower_slice;
  ro.iterate_upper_bound = &upper_slice;
  std::unique_ptr<Iterator> it = reader.NewIterator(ro);
  std::vector<std::string> seen;
  for (it->SeekToFirst(); it->Valid(); it->Next()) seen.push_back(it->key().ToString());
  ASSERT_OK(it->status());
  ASSERT_EQ(10u, seen.size());
  EXPECT_EQ(Key(20), seen.front());
  EXPECT_EQ(Key(29), seen.back());
  it->SeekToLast();
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(Key(29), it->key().ToString());
}

TEST_F(SstFileReaderTest, DeletionsHidden) {
  SstFileWriter writer(options_);
  ASSERT_OK(writer.Open("/r4.sst"));
  ASSERT_OK(writer.Put("a", "1"));
  ASSERT_OK(writer.Delete("b"));
  ASSERT_OK(writer.Put("c", "3"));
  ASSERT_OK(writer.Delete("d"));
  ASSERT_OK(writer.Delete("e"));
  ASSERT_OK(writer.Put("f", "6"));
  ASSERT_OK(writer.Finish());
  SstFileReader reader(options_);
  ASSERT_OK(reader.Open("/r4.sst"));
  std::unique_ptr<Iterator> it = reader.NewIterator(ReadOptions());
  std::string forward, backward;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    forward += it->key().ToString() + "=" + it->value().ToString() + ";";
  }
  ASSERT_OK(it->status());
  for (it->SeekToLast(); it->Valid(); it->Prev()) {
    backward += it->key().ToString() + "=" + it->value().ToString() + ";";
  }
  ASSERT_OK(it->status());
  EXPECT_EQ("a=1;c=3;f=6;", forward);
  EXPECT_EQ("f=6;c=3;a=1;", backward);
  it->Seek("b");
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ("c", it->key().ToString());
  it->SeekForPrev("e");
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ("c", it->key().ToString());
}

// A file with several versions per key (written by the table builder, as a
// DB flush would) read at different snapshots.
TEST_F(SstFileReaderTest, SnapshotsSelectVersions) {
  {
    std::unique_ptr<WritableFile> file;
    ASSERT_OK(env_->GetFileSystem()->NewWritableFile("/r5.sst", FileOptions(), &file));
    TableBuilderOptions tbo;
    BlockBasedTableBuilder builder(tbo, file.get());
    std::string k;
    auto add = [&](const char* key, SequenceNumber seq, ValueType t, const char* v) {
      k.clear();
      AppendInternalKey(&k, key, seq, t);
      builder.Add(k, v);
    };
    add("k1", 10, kTypeValue, "new");
    add("k1", 5, kTypeValue, "old");
    add("k2", 7, kTypeDeletion, "");
    add("k2", 3, kTypeValue, "was");
    add("k3", 8, kTypeValue, "late");
    ASSERT_OK(builder.Finish());
    ASSERT_OK(file->Close());
  }
  SstFileReader reader(options_);
  ASSERT_OK(reader.Open("/r5.sst"));
  auto dump = [&](const Snapshot* snap) {
    ReadOptions ro;
    ro.snapshot = snap;
    std::unique_ptr<Iterator> it = reader.NewIterator(ro);
    std::string out;
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      out += it->key().ToString() + "=" + it->value().ToString() + ";";
    }
    EXPECT_OK(it->status());
    return out;
  };
  EXPECT_EQ("k1=new;k3=late;", dump(nullptr));
  FixedSnapshot s6(6), s9(9), s2(2);
  EXPECT_EQ("k1=old;k2=was;", dump(&s6));
  EXPECT_EQ("k1=old;k3=late;", dump(&s9));
  EXPECT_EQ("", dump(&s2));
}

TEST_F(SstFileReaderTest, Properties) {
  ASSERT_NO_FATAL_FAILURE(WriteFile("/r6.sst", 250));
  SstFileReader reader(options_);
  EXPECT_EQ(nullptr, reader.GetTableProperties());  // not opened yet
  ASSERT_OK(reader.Open("/r6.sst"));
  std::shared_ptr<const TableProperties> props = reader.GetTableProperties();
  ASSERT_NE(nullptr, props);
  EXPECT_EQ(250u, props->num_entries);
  EXPECT_EQ(0u, props->num_deletions);
  EXPECT_EQ("leveldb.BytewiseComparator", props->comparator_name);
  EXPECT_EQ("", props->column_family_name);
  auto it = props->user_collected_properties.find("rocksdb.external_sst_file.version");
  ASSERT_NE(props->user_collected_properties.end(), it);
  ASSERT_EQ(4u, it->second.size());
  EXPECT_EQ(2u, DecodeFixed32(it->second.data()));
}

TEST_F(SstFileReaderTest, VerifyChecksumFindsDamage) {
  ASSERT_NO_FATAL_FAILURE(WriteFile("/r7.sst", 2000));
  {
    SstFileReader reader(options_);
    ASSERT_OK(reader.Open("/r7.sst"));
    ASSERT_OK(reader.VerifyChecksum());
  }
  std::string contents;
  ASSERT_OK(ReadFileToString(env_->GetFileSystem(), "/r7.sst", &contents));
  contents[100] ^= 0x40;  // inside the first data block
  ASSERT_OK(WriteStringToFile(env_->GetFileSystem(), contents, "/r7.sst"));
  SstFileReader reader(options_);
  ASSERT_OK(reader.Open("/r7.sst"));  // footer, index and properties are intact
  Status s = reader.VerifyChecksum();
  ASSERT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("/r7.sst")) << s.ToString();
  std::unique_ptr<Iterator> iter = reader.NewIterator(ReadOptions());
  iter->SeekToFirst();
  EXPECT_FALSE(iter->Valid());
  EXPECT_TRUE(iter->status().IsCorruption()) << iter->status().ToString();
}

TEST_F(SstFileReaderTest, ErrorsBeforeAndOnOpen) {
  SstFileReader reader(options_);
  std::unique_ptr<Iterator> it = reader.NewIterator(ReadOptions());
  EXPECT_FALSE(it->Valid());
  EXPECT_TRUE(it->status().IsInvalidArgument());
  EXPECT_TRUE(reader.VerifyChecksum().IsInvalidArgument());
  EXPECT_FALSE(reader.Open("/missing.sst").ok());
  ASSERT_OK(WriteStringToFile(env_->GetFileSystem(), "not a table", "/junk.sst"));
  Status s = reader.Open("/junk.sst");
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
}

// Random binary keys through writer and reader, then random seeks checked
// against a std::map.
TEST_F(SstFileReaderTest, RandomizedAgainstMap) {
  const uint64_t seed = test::RandomSeed();
  std::mt19937_64 rng(seed);
  std::map<std::string, std::string> model;
  while (model.size() < 2000) {
    model[test::RandomBytes(&rng, 1 + rng() % 16)] = test::RandomBytes(&rng, rng() % 40);
  }
  options_.compression = kLZ4Compression;
  SstFileWriter writer(options_);
  ASSERT_OK(writer.Open("/r8.sst"));
  for (const auto& [k, v] : model) ASSERT_OK(writer.Put(k, v));
  ASSERT_OK(writer.Finish());
  SstFileReader reader(options_);
  ASSERT_OK(reader.Open("/r8.sst"));
  std::unique_ptr<Iterator> it = reader.NewIterator(ReadOptions());
  for (int i = 0; i < 2000; i++) {
    const std::string target = test::RandomBytes(&rng, rng() % 17);
    auto m = model.lower_bound(target);
    it->Seek(target);
    if (m == model.end()) {
      ASSERT_FALSE(it->Valid()) << "seed " << seed;
      continue;
    }
    ASSERT_TRUE(it->Valid()) << "seed " << seed;
    ASSERT_EQ(m->first, it->key().ToString()) << "seed " << seed;
    ASSERT_EQ(m->second, it->value().ToString()) << "seed " << seed;
    if (rng() % 2 && m != model.begin()) {
      it->Prev();
      --m;
      ASSERT_TRUE(it->Valid()) << "seed " << seed;
      ASSERT_EQ(m->first, it->key().ToString()) << "seed " << seed;
    }
  }
  ASSERT_OK(it->status());
}

// A file written by RocksDB 7.8.3's own SstFileWriter (`ldb
// write_extern_sst`, Snappy-compressed by ldb's defaults) reads back.
// Skipped when rocksdb-tools is not installed.
TEST_F(SstFileReaderTest, ReadsRocksDBSstFileWriterOutput) {
  constexpr const char* kLdb = "/usr/bin/ldb";
  if (access(kLdb, X_OK) != 0) GTEST_SKIP() << "rocksdb-tools not installed";
  test::TempDir dir("sst_file_reader_interop");
  const std::string input = dir.path() + "/input.txt";
  const std::string path = dir.path() + "/ext.sst";
  std::string lines;
  for (int i = 0; i < 500; i++) lines += Key(i) + " ==> " + Value(i) + "\n";
  test::WriteFileOrDie(input, lines);
  const std::string cmd = std::string(kLdb) + " --db=" + dir.path() +
                          "/db --create_if_missing write_extern_sst " + path + " < " + input +
                          " >/dev/null 2>&1";
  ASSERT_EQ(0, std::system(cmd.c_str())) << cmd;

  Options options;  // the POSIX Env
  SstFileReader reader(options);
  ASSERT_OK(reader.Open(path));
  ASSERT_OK(reader.VerifyChecksum());
  std::shared_ptr<const TableProperties> props = reader.GetTableProperties();
  ASSERT_NE(nullptr, props);
  EXPECT_EQ(500u, props->num_entries);
  EXPECT_EQ("leveldb.BytewiseComparator", props->comparator_name);
  EXPECT_EQ("Snappy", props->compression_name);
  EXPECT_EQ("SST Writer", props->db_id);
  auto version = props->user_collected_properties.find("rocksdb.external_sst_file.version");
  ASSERT_NE(props->user_collected_properties.end(), version);
  ASSERT_EQ(4u, version->second.size());
  EXPECT_EQ(2u, DecodeFixed32(version->second.data()));

  std::unique_ptr<Iterator> it = reader.NewIterator(ReadOptions());
  int i = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next(), i++) {
    ASSERT_EQ(Key(i), it->key().ToString());
    ASSERT_EQ(Value(i), it->value().ToString());
  }
  ASSERT_OK(it->status());
  EXPECT_EQ(500, i);
  it->Seek(Key(250));
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(Value(250), it->value().ToString());
}

}  // namespace
}  // namespace strata
