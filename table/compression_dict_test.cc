// Tables whose data blocks are compressed with a dictionary
// (CompressionOptions::max_dict_bytes): written by BlockBasedTableBuilder and
// read back by BlockBasedTable, checked against a std::map model; the
// "rocksdb.compression_dict" meta block, the compression_options property,
// and damage to the dictionary block.

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "base/get_context.h"
#include "strata/env.h"
#include "table/block.h"
#include "table/block_based_table_builder.h"
#include "table/block_based_table_reader.h"
#include "table/compression.h"
#include "table/format.h"
#include "table/meta_blocks.h"
#include "test_util/testutil.h"
#include "util/coding.h"

namespace strata {
namespace {

std::string IKey(const std::string& user, SequenceNumber seq) {
  std::string k;
  AppendInternalKey(&k, user, seq, kTypeValue);
  return k;
}

// Values from a small vocabulary with random numbers: a dictionary of
// other blocks helps, as with real records.
std::map<std::string, std::string> MakeModel(std::mt19937_64* rng, int n) {
  static const char* const kWords[] = {"country=FR;",    "lang=fr;",       "tier=gold;",
                                       "plan=yearly;",   "status=active;", "device=mobile;",
                                       "region=eu-west;"};
  std::map<std::string, std::string> model;
  while (static_cast<int>(model.size()) < n) {
    std::string v = "{id:" + std::to_string((*rng)() % 100000) + ";";
    const int words = 3 + static_cast<int>((*rng)() % 6);
    for (int w = 0; w < words; w++) v += kWords[(*rng)() % 7];
    model["user" + std::to_string((*rng)() % 10000000)] = v;
  }
  return model;
}

class CompressionDictTest : public testing::Test {
 protected:
  CompressionDictTest() : fs_(NewMemFileSystem()) {}

  // Writes the model as a table; returns the file's bytes.
  std::string Write(const std::map<std::string, std::string>& model, CompressionType type,
                    const CompressionOptions& copts, uint64_t target_file_size = 0) {
    const std::string fname = "/t" + std::to_string(++files_) + ".sst";
    std::unique_ptr<WritableFile> file;
    EXPECT_OK(fs_->NewWritableFile(fname, FileOptions(), &file));
    TableBuilderOptions bo;
    bo.table_options.block_size = 1024;
    bo.compression = type;
    bo.compression_opts = copts;
    bo.target_file_size = target_file_size;
    BlockBasedTableBuilder builder(bo, file.get());
    SequenceNumber seq = 1;
    for (const auto& [k, v] : model) builder.Add(IKey(k, seq++), v);
    EXPECT_OK(builder.Finish());
    EXPECT_EQ(builder.GetTableProperties().compression_name, CompressionTypeName(type));
    EXPECT_OK(file->Close());
    std::string bytes;
    EXPECT_OK(ReadFileToString(fs_.get(), fname, &bytes));
    return bytes;
  }

  Status Open(const std::string& bytes, std::unique_ptr<BlockBasedTable>* table) {
    const std::string fname = "/r" + std::to_string(++files_) + ".sst";
    std::unique_ptr<WritableFile> w;
    Status s = fs_->NewWritableFile(fname, FileOptions(), &w);
    if (s.ok()) s = w->Append(bytes);
    if (s.ok()) s = w->Close();
    if (!s.ok()) return s;
    std::unique_ptr<RandomAccessFile> file;
    s = fs_->NewRandomAccessFile(fname, FileOptions(), &file);
    if (!s.ok()) return s;
    TableReaderOptions ro;
    ro.file_name = fname;
    return BlockBasedTable::Open(ro, std::move(file), bytes.size(), table);
  }

  // Every entry by scan and by Get; the checksums of every block.
  void ExpectReadsModel(BlockBasedTable* table, const std::map<std::string, std::string>& model) {
    std::unique_ptr<InternalIterator> it(table->NewIterator(ReadOptions()));
    auto m = model.begin();
    for (it->SeekToFirst(); it->Valid(); it->Next(), ++m) {
      ASSERT_NE(m, model.end());
      ASSERT_EQ(ExtractUserKey(it->key()).ToString(), m->first);
      ASSERT_EQ(it->value().ToString(), m->second);
    }
    ASSERT_OK(it->status());
    ASSERT_EQ(m, model.end());
    for (const auto& [k, v] : model) {
      std::string value;
      GetContext ctx(BytewiseComparator(), k, &value);
      ASSERT_OK(table->Get(ReadOptions(), IKey(k, kMaxSequenceNumber), &ctx));
      ASSERT_EQ(ctx.state(), GetContext::kFound) << k;
      ASSERT_EQ(value, v);
    }
    ASSERT_OK(table->VerifyChecksum());
  }

  // The metaindex's entry for `name`; false when absent.
  bool FindMetaBlock(BlockBasedTable* table, const char* name, BlockHandle* h) {
    std::string contents;
    EXPECT_OK(table->ReadBlockContents(table->footer().metaindex_handle(), &contents));
    Block meta(std::move(contents));
    std::unique_ptr<BlockIter> it(meta.NewIterator(BytewiseComparator()));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      if (it->key() == Slice(name)) {
        Slice v = it->value();
        return h->DecodeFrom(&v).ok();
      }
    }
    return false;
  }

  std::shared_ptr<FileSystem> fs_;
  int files_ = 0;
};

TEST_F(CompressionDictTest, EveryCodecAndDictionaryKindReadsBack) {
  std::mt19937_64 rng(test::RandomSeed());
  const auto model = MakeModel(&rng, 3000);
  struct Kind {
    const char* name;
    uint32_t train_bytes;
    bool trainer;
  };
  const Kind kinds[] = {{"raw samples", 0, true},
                        {"zstd trained", 64 << 10, true},
                        {"zstd finalized", 64 << 10, false}};
  for (CompressionType t : {kZSTD, kLZ4Compression, kLZ4HCCompression, kZlibCompression}) {
    for (const Kind& kind : kinds) {
      // RocksDB trains a zstd dictionary for any codec when asked; the raw
      // samples kind suffices for the others.
      if (t != kZSTD && kind.train_bytes != 0) continue;
      // Buffer limits: unbounded (the whole file), and small (the
      // dictionary is built after a few blocks, the rest written at once).
      for (uint64_t buffer : {uint64_t{0}, uint64_t{8} << 10}) {
        SCOPED_TRACE(std::string(CompressionTypeName(t)) + " " + kind.name + " buffer " +
                     std::to_string(buffer));
        CompressionOptions o;
        o.max_dict_bytes = 8192;
        o.zstd_max_train_bytes = kind.train_bytes;
        o.use_zstd_dict_trainer = kind.trainer;
        o.max_dict_buffer_bytes = buffer;
        const std::string bytes = Write(model, t, o);
        std::unique_ptr<BlockBasedTable> table;
        ASSERT_OK(Open(bytes, &table));
        ExpectReadsModel(table.get(), model);
        BlockHandle h;
        ASSERT_TRUE(FindMetaBlock(table.get(), kCompressionDictBlockName, &h));
        EXPECT_GT(h.size(), 0u);
        EXPECT_LE(h.size(), 8192u);
        // The block is stored raw (type byte 0 in its trailer).
        EXPECT_EQ(bytes[h.offset() + h.size()], 0);
        const auto props = table->GetTableProperties();
        EXPECT_EQ(props->compression_options,
                  "window_bits=-14; level=32767; strategy=0; max_dict_bytes=8192; "
                  "zstd_max_train_bytes=" +
                      std::to_string(kind.train_bytes) +
                      "; enabled=0; max_dict_buffer_bytes=" + std::to_string(buffer) +
                      "; use_zstd_dict_trainer=" + (kind.trainer ? "1" : "0") + "; ");
      }
    }
  }
}

// The dictionary really is used: data blocks shrink, and a target file
// size bounds the buffering like max_dict_buffer_bytes.
TEST_F(CompressionDictTest, DictionaryShrinksDataBlocks) {
  std::mt19937_64 rng(test::RandomSeed());
  const auto model = MakeModel(&rng, 2000);
  for (CompressionType t : {kZSTD, kLZ4Compression, kZlibCompression}) {
    SCOPED_TRACE(CompressionTypeName(t));
    CompressionOptions plain;
    CompressionOptions dict = plain;
    dict.max_dict_bytes = 16384;
    std::unique_ptr<BlockBasedTable> a, b, c;
    ASSERT_OK(Open(Write(model, t, plain), &a));
    ASSERT_OK(Open(Write(model, t, dict), &b));
    ASSERT_OK(Open(Write(model, t, dict, 16 << 10), &c));
    EXPECT_LT(b->GetTableProperties()->data_size, a->GetTableProperties()->data_size);
    ExpectReadsModel(c.get(), model);
    BlockHandle h;
    EXPECT_FALSE(FindMetaBlock(a.get(), kCompressionDictBlockName, &h));
  }
}

// Codecs without dictionaries (Snappy, none) write no dictionary block; an
// empty table writes none either.
TEST_F(CompressionDictTest, NoDictionaryBlockWhenUnused) {
  std::mt19937_64 rng(test::RandomSeed());
  const auto model = MakeModel(&rng, 500);
  CompressionOptions o;
  o.max_dict_bytes = 4096;
  for (CompressionType t : {kSnappyCompression, kNoCompression}) {
    std::unique_ptr<BlockBasedTable> table;
    ASSERT_OK(Open(Write(model, t, o), &table));
    ExpectReadsModel(table.get(), model);
    BlockHandle h;
    EXPECT_FALSE(FindMetaBlock(table.get(), kCompressionDictBlockName, &h));
  }
  std::unique_ptr<BlockBasedTable> empty;
  ASSERT_OK(Open(Write({}, kZSTD, o), &empty));
  BlockHandle h;
  EXPECT_FALSE(FindMetaBlock(empty.get(), kCompressionDictBlockName, &h));
}

// A damaged dictionary block fails Open with Corruption naming the file
// (checksum), and so does a zstd dictionary whose checksum matches but
// whose contents do not parse; random byte flips anywhere never crash.
TEST_F(CompressionDictTest, DamagedDictionaryIsCorruption) {
  std::mt19937_64 rng(test::RandomSeed());
  const auto model = MakeModel(&rng, 1500);
  CompressionOptions o;
  o.max_dict_bytes = 4096;
  o.zstd_max_train_bytes = 32768;
  const std::string bytes = Write(model, kZSTD, o);
  std::unique_ptr<BlockBasedTable> table;
  ASSERT_OK(Open(bytes, &table));
  BlockHandle h;
  ASSERT_TRUE(FindMetaBlock(table.get(), kCompressionDictBlockName, &h));
  const std::string opened_name = "/r" + std::to_string(files_ + 1) + ".sst";

  std::string bad = bytes;
  bad[h.offset() + h.size() / 2] ^= 0x5a;
  Status s = Open(bad, &table);
  ASSERT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(s.ToString().find(opened_name), std::string::npos) << s.ToString();

  // The zstd magic kept, the header behind it broken, checksum recomputed.
  bad = bytes;
  for (size_t i = 4; i < 12; i++) bad[h.offset() + i] = '\xff';
  EncodeFixed32(&bad[h.offset() + h.size() + 1],
                ComputeBlockChecksum(kXXH3, bad.data() + h.offset(), h.size(), 0));
  s = Open(bad, &table);
  ASSERT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(s.ToString().find("compression dictionary"), std::string::npos) << s.ToString();

  for (int trial = 0; trial < 200; trial++) {
    bad = bytes;
    bad[rng() % bad.size()] ^= static_cast<char>(1 + rng() % 255);
    s = Open(bad, &table);
    if (!s.ok()) {
      EXPECT_TRUE(s.IsCorruption() || s.IsNotSupported() || s.IsInvalidArgument()) << s.ToString();
      continue;
    }
    std::unique_ptr<InternalIterator> it(table->NewIterator(ReadOptions()));
    int n = 0;
    for (it->SeekToFirst(); it->Valid() && n < 10000; it->Next()) n++;
  }
}

}  // namespace
}  // namespace strata
