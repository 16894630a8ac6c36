// Tables at format_version 5, 6 and 7 (docs/format/footer.md, block.md,
// table.md): written and read back for every checksum type and codec, the
// fv6 footer and the context checksums checked against damage (a flipped
// footer byte, a block moved to another offset), and the fv7
// compression_name property (a custom compression manager or a codec Strata
// lacks is refused naming it). Tables written by a current RocksDB are read
// by db/db_current_rocksdb_test.cc.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "strata/cache.h"
#include "strata/env.h"
#include "strata/filter_policy.h"
#include "strata/options.h"
#include "strata/sst_file_writer.h"
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

std::string IKey(const std::string& user, SequenceNumber seq, ValueType t = kTypeValue) {
  std::string k;
  AppendInternalKey(&k, user, seq, t);
  return k;
}

class FormatVersionTest : public testing::Test {
 protected:
  FormatVersionTest() : fs_(NewMemFileSystem()) {}

  // Builds a table of n keys "key%06d" (every 7th a deletion) with
  // `value_len`-byte values and one range tombstone; returns its bytes.
  // *model gets user key -> value ("" for deletions).
  std::string Build(const BlockBasedTableOptions& topts, CompressionType compression, int n,
                    size_t value_len, std::map<std::string, std::string>* model,
                    Status* finish = nullptr) {
    const std::string fname = "/t/build.sst";
    std::unique_ptr<WritableFile> file;
    EXPECT_OK(fs_->NewWritableFile(fname, FileOptions(), &file));
    TableBuilderOptions bo;
    bo.table_options = topts;
    bo.compression = compression;
    BlockBasedTableBuilder builder(bo, file.get());
    for (int i = 0; i < n; ++i) {
      char user[16];
      std::snprintf(user, sizeof(user), "key%06d", i);
      const bool del = i % 7 == 3;
      std::string value = del ? "" : std::string(value_len, static_cast<char>('a' + i % 26));
      if (!del && value_len >= 6) std::memcpy(value.data(), user + 3, 6);
      builder.Add(IKey(user, 1000 + i, del ? kTypeDeletion : kTypeValue), value);
      if (model != nullptr) (*model)[user] = value;
    }
    if (n > 20) builder.AddRangeTombstone("key000010", 5000, "key000012");
    Status s = builder.Finish();
    if (finish != nullptr) *finish = s;
    if (!s.ok()) return "";
    EXPECT_OK(file->Close());
    std::string bytes;
    EXPECT_OK(ReadFileToString(fs_.get(), fname, &bytes));
    return bytes;
  }

  Status Open(const std::string& fname, const std::string& bytes,
              const BlockBasedTableOptions& topts, std::unique_ptr<BlockBasedTable>* table) {
    {
      std::unique_ptr<WritableFile> file;
      Status s = fs_->NewWritableFile(fname, FileOptions(), &file);
      if (s.ok()) s = file->Append(bytes);
      if (s.ok()) s = file->Close();
      if (!s.ok()) return s;
    }
    std::unique_ptr<RandomAccessFile> rfile;
    Status s = fs_->NewRandomAccessFile(fname, FileOptions(), &rfile);
    if (!s.ok()) return s;
    TableReaderOptions ro;
    ro.table_options = topts;
    ro.file_name = fname;
    return BlockBasedTable::Open(ro, std::move(rfile), bytes.size(), table);
  }

  // Every entry by scan and by Get, against the model; then VerifyChecksum.
  void CheckContents(BlockBasedTable* table, const std::map<std::string, std::string>& model) {
    std::unique_ptr<InternalIterator> it(table->NewIterator(ReadOptions()));
    auto m = model.begin();
    for (it->SeekToFirst(); it->Valid(); it->Next(), ++m) {
      ASSERT_NE(m, model.end());
      ParsedInternalKey pk;
      ASSERT_OK(ParseInternalKey(it->key(), &pk));
      ASSERT_EQ(pk.user_key.ToString(), m->first);
      ASSERT_EQ(it->value().ToString(), m->second);
    }
    ASSERT_OK(it->status());
    ASSERT_EQ(m, model.end());
    for (const auto& [user, value] : model) {
      std::string got;
      GetContext ctx(BytewiseComparator(), user, &got);
      ASSERT_OK(table->Get(ReadOptions(), IKey(user, kMaxSequenceNumber, kValueTypeForSeek), &ctx));
      if (value.empty()) {
        ASSERT_NE(ctx.state(), GetContext::kFound) << user;
      } else {
        ASSERT_EQ(ctx.state(), GetContext::kFound) << user;
        ASSERT_EQ(got, value);
      }
    }
    std::unique_ptr<InternalIterator> rd(table->NewRangeTombstoneIterator(ReadOptions()));
    if (model.size() > 20) {
      ASSERT_NE(rd, nullptr);
      rd->SeekToFirst();
      ASSERT_TRUE(rd->Valid());
      ASSERT_EQ(rd->value().ToString(), "key000012");
    }
    ASSERT_OK(table->VerifyChecksum());
  }

  // The metaindex entries name -> handle.
  std::map<std::string, BlockHandle> Metaindex(BlockBasedTable* table) {
    std::map<std::string, BlockHandle> out;
    std::string contents;
    EXPECT_OK(table->ReadBlockContents(table->footer().metaindex_handle(), &contents));
    Block block{Slice(contents)};
    std::unique_ptr<BlockIter> it(block.NewIterator(BytewiseComparator()));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      Slice v = it->value();
      BlockHandle h;
      EXPECT_OK(h.DecodeFrom(&v));
      out[it->key().ToString()] = h;
    }
    return out;
  }

  // Recomputes the trailer checksum of the block at h in *bytes (after a
  // test edited its contents), for a file whose base is `base`.
  static void Reseal(std::string* bytes, const BlockHandle& h, ChecksumType type, uint32_t base) {
    char* p = bytes->data() + h.offset();
    const size_t n = static_cast<size_t>(h.size());
    EncodeFixed32(p + n + 1, ComputeBlockChecksum(type, p, n, p[n]) +
                                 ChecksumModifierForContext(base, h.offset()));
  }

  std::shared_ptr<FileSystem> fs_;
};

TEST_F(FormatVersionTest, EveryVersionChecksumAndCodec) {
  const std::vector<CompressionType> codecs = {kNoCompression, kSnappyCompression, kLZ4Compression,
                                               kZlibCompression, kZSTD};
  for (uint32_t fv : {5u, 6u, 7u}) {
    for (ChecksumType checksum : {kNoChecksum, kCRC32c, kxxHash, kxxHash64, kXXH3}) {
      for (CompressionType codec : codecs) {
        if (!CompressionTypeSupported(codec)) continue;
        SCOPED_TRACE("format_version " + std::to_string(fv) + " checksum " +
                     std::to_string(checksum) + " codec " + CompressionTypeName(codec));
        BlockBasedTableOptions topts;
        topts.format_version = fv;
        topts.checksum = checksum;
        topts.block_size = 512;
        topts.filter_policy = NewBloomFilterPolicy(10);
        std::map<std::string, std::string> model;
        const std::string bytes = Build(topts, codec, 300, 40, &model);
        ASSERT_FALSE(bytes.empty());
        std::unique_ptr<BlockBasedTable> table;
        ASSERT_OK(Open("/t/a.sst", bytes, topts, &table));
        const Footer& footer = table->footer();
        ASSERT_EQ(footer.format_version(), fv);
        ASSERT_EQ(footer.checksum_type(), checksum);
        ASSERT_EQ(footer.base_context_checksum() != 0, fv >= 6);
        CheckContents(table.get(), model);

        const auto meta = Metaindex(table.get());
        ASSERT_EQ(meta.count(kIndexBlockName) == 1, fv >= 6);
        if (fv >= 6) {
          // The index handle comes from the metaindex; the metaindex ends
          // where the footer starts.
          ASSERT_EQ(meta.at(kIndexBlockName).offset(), footer.index_handle().offset());
          ASSERT_EQ(footer.metaindex_handle().offset() + footer.metaindex_handle().size() +
                        kBlockTrailerSize + Footer::kNewFooterLength,
                    bytes.size());
          ASSERT_EQ(bytes.substr(bytes.size() - 52, 4), std::string("\x3e\x00\x7a\x00", 4));
        }
        auto props = table->GetTableProperties();
        ASSERT_EQ(props->format_version, fv >= 6 ? fv : 0u);
        if (fv >= 7) {
          const char* hex = codec == kNoCompression       ? ""
                            : codec == kSnappyCompression ? "01"
                            : codec == kZlibCompression   ? "02"
                            : codec == kLZ4Compression    ? "04"
                                                          : "07";
          ASSERT_EQ(props->compression_name,
                    std::string(codec == kNoCompression ? "" : "BuiltinV2") + ";" + hex + ";");
        } else {
          ASSERT_EQ(props->compression_name, CompressionTypeName(codec));
        }
      }
    }
  }
}

TEST_F(FormatVersionTest, BaseContextChecksumDiffersPerFile) {
  BlockBasedTableOptions topts;
  topts.format_version = 6;
  std::map<std::string, std::string> model;
  const std::string a = Build(topts, kNoCompression, 50, 10, &model);
  const std::string b = Build(topts, kNoCompression, 50, 10, &model);
  std::unique_ptr<BlockBasedTable> ta, tb;
  ASSERT_OK(Open("/t/a.sst", a, topts, &ta));
  ASSERT_OK(Open("/t/b.sst", b, topts, &tb));
  ASSERT_NE(ta->footer().base_context_checksum(), tb->footer().base_context_checksum());
  // Same contents, different bases: the files differ in every trailer.
  ASSERT_EQ(a.size(), b.size());
  ASSERT_NE(a, b);
}

// Every byte of a fv6/7 footer is covered by the footer checksum: a flip is
// refused naming the file and the footer's offset (or, for the checked
// reserved bytes, NotSupported).
TEST_F(FormatVersionTest, FlippedFooterByte) {
  for (uint32_t fv : {6u, 7u}) {
    for (ChecksumType checksum : {kCRC32c, kXXH3}) {
      BlockBasedTableOptions topts;
      topts.format_version = fv;
      topts.checksum = checksum;
      std::map<std::string, std::string> model;
      const std::string good = Build(topts, kNoCompression, 100, 20, &model);
      const size_t footer_offset = good.size() - Footer::kNewFooterLength;
      for (size_t i = 0; i < Footer::kNewFooterLength; ++i) {
        std::string bad = good;
        bad[footer_offset + i] ^= 0x10;
        const std::string fname = "/t/flip" + std::to_string(i) + ".sst";
        std::unique_ptr<BlockBasedTable> table;
        Status s = Open(fname, bad, topts, &table);
        ASSERT_FALSE(s.ok()) << "fv " << fv << ": flipped footer byte " << i << " accepted";
        ASSERT_TRUE(s.IsCorruption() || s.IsNotSupported()) << s.ToString();
        ASSERT_NE(s.ToString().find(fname), std::string::npos) << s.ToString();
        ASSERT_NE(s.ToString().find("offset " + std::to_string(footer_offset)), std::string::npos)
            << s.ToString();
        ASSERT_OK(fs_->DeleteFile(fname));
      }
    }
  }
}

// Two data blocks of the same size swapped: each still carries a valid
// plain checksum, so format_version 5 cannot notice; 6 and 7 refuse the
// block naming the file and the offset it was read at.
TEST_F(FormatVersionTest, BlockMovedToAnotherOffset) {
  for (uint32_t fv : {5u, 6u, 7u}) {
    BlockBasedTableOptions topts;
    topts.format_version = fv;
    topts.block_size = 400;
    topts.block_restart_interval = 4;
    std::map<std::string, std::string> model;
    // No deletions in the first blocks' worth of keys would be simpler, but
    // equal-size blocks are what matters: fixed-size keys and values.
    const std::string good = Build(topts, kNoCompression, 200, 30, &model);
    std::unique_ptr<BlockBasedTable> table;
    ASSERT_OK(Open("/t/good.sst", good, topts, &table));
    std::vector<BlockHandle> blocks;
    {
      std::unique_ptr<InternalIterator> idx(table->NewIndexIterator());
      for (idx->SeekToFirst(); idx->Valid(); idx->Next()) {
        Slice v = idx->value();
        BlockHandle h;
        ASSERT_OK(h.DecodeFrom(&v));
        blocks.push_back(h);
      }
    }
    // Two adjacent blocks of equal size.
    size_t k = 0;
    while (k + 1 < blocks.size() && blocks[k].size() != blocks[k + 1].size()) ++k;
    ASSERT_LT(k + 1, blocks.size()) << "no two equal-size data blocks";
    const BlockHandle a = blocks[k], b = blocks[k + 1];
    const size_t n = static_cast<size_t>(a.size()) + kBlockTrailerSize;
    std::string bad = good;
    bad.replace(a.offset(), n, good, b.offset(), n);
    bad.replace(b.offset(), n, good, a.offset(), n);
    const std::string fname = "/t/moved" + std::to_string(fv) + ".sst";
    table.reset();
    Status s = Open(fname, bad, topts, &table);
    ASSERT_OK(s);  // only data blocks moved
    s = table->VerifyChecksum();
    if (fv < 6) {
      ASSERT_OK(s);
      continue;
    }
    ASSERT_TRUE(s.IsCorruption()) << s.ToString();
    ASSERT_NE(s.ToString().find(fname), std::string::npos) << s.ToString();
    ASSERT_NE(s.ToString().find("offset " + std::to_string(a.offset())), std::string::npos)
        << s.ToString();
    // A read of a key in the moved block fails the same way.
    std::unique_ptr<InternalIterator> it(table->NewIterator(ReadOptions()));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
    }
    ASSERT_TRUE(it->status().IsCorruption()) << it->status().ToString();
  }
}

// format_version 7 names the compression manager: one Strata does not have
// (a custom algorithm) or a built-in codec it cannot decompress is refused
// at open, naming it.
TEST_F(FormatVersionTest, Fv7CompressionNameRefusals) {
  BlockBasedTableOptions topts;
  topts.format_version = 7;
  std::map<std::string, std::string> model;
  const CompressionType codec = CompressionTypeSupported(kZSTD) ? kZSTD : kSnappyCompression;
  const std::string good = Build(topts, codec, 200, 40, &model);
  std::unique_ptr<BlockBasedTable> table;
  ASSERT_OK(Open("/t/good.sst", good, topts, &table));
  const std::string name = table->GetTableProperties()->compression_name;
  ASSERT_EQ(name, codec == kZSTD ? "BuiltinV2;07;" : "BuiltinV2;01;");
  const BlockHandle props = Metaindex(table.get()).at(kPropertiesBlockName);
  const uint32_t base = table->footer().base_context_checksum();
  const size_t at = good.find(name, props.offset());
  ASSERT_NE(at, std::string::npos);

  auto patched = [&](const std::string& replacement) {
    EXPECT_EQ(replacement.size(), name.size());
    std::string bad = good;
    bad.replace(at, name.size(), replacement);
    Reseal(&bad, props, topts.checksum, base);
    return bad;
  };
  struct Case {
    std::string property;
    bool not_supported;
    std::string mentions;
  };
  const std::vector<Case> cases = {
      {"CustomV99;07;", true, "'CustomV99'"},   // a custom compression manager
      {"BuiltinV2;03;", true, "BZip2"},         // a codec Strata lacks
      {"BuiltinV2;06;", true, "Xpress"},        //
      {"BuiltinV2;07:", false, "compression"},  // no second separator
      {"BuiltinV2;0Z;", false, "compression"},  // not hex
      {"BuiltinV2;00;", false, "compression"},  // "no compression" listed
  };
  for (const Case& c : cases) {
    const std::string fname = "/t/" + c.property.substr(0, 9) + ".sst";
    table.reset();
    Status s = Open(fname, patched(c.property), topts, &table);
    ASSERT_EQ(s.IsNotSupported(), c.not_supported) << c.property << ": " << s.ToString();
    ASSERT_EQ(s.IsCorruption(), !c.not_supported) << c.property << ": " << s.ToString();
    ASSERT_NE(s.ToString().find(c.mentions), std::string::npos) << s.ToString();
    ASSERT_NE(s.ToString().find(fname), std::string::npos) << s.ToString();
  }
  // The property as written, resealed: still opens (the patch helper is sound).
  table.reset();
  ASSERT_OK(Open("/t/same.sst", patched(name), topts, &table));
  CheckContents(table.get(), model);
}

TEST_F(FormatVersionTest, UnsupportedVersionsForWriting) {
  for (uint32_t fv : {0u, 2u, 4u, 8u, 100u}) {
    BlockBasedTableOptions topts;
    topts.format_version = fv;
    Status s;
    std::map<std::string, std::string> model;
    Build(topts, kNoCompression, 10, 10, &model, &s);
    ASSERT_TRUE(s.IsInvalidArgument()) << s.ToString();
    ASSERT_NE(s.ToString().find("format_version"), std::string::npos) << s.ToString();

    auto env = NewMemEnv();
    Options options;
    options.env = env.get();
    options.table_factory = NewBlockBasedTableFactory(topts);
    SstFileWriter writer(options);
    s = writer.Open("/fv_unsupported.sst");
    ASSERT_TRUE(s.IsInvalidArgument()) << s.ToString();
    ASSERT_NE(s.ToString().find("BlockBasedTableOptions::format_version"), std::string::npos);
  }
}

TEST_F(FormatVersionTest, SstFileWriterWritesFv7) {
  BlockBasedTableOptions topts;
  topts.format_version = 7;
  auto env = NewMemEnv();
  Options options;
  options.env = env.get();
  options.table_factory = NewBlockBasedTableFactory(topts);
  options.compression = kNoCompression;
  const std::string path = "/fv7_writer.sst";
  SstFileWriter writer(options);
  ASSERT_OK(writer.Open(path));
  ASSERT_OK(writer.Put("a", "1"));
  ASSERT_OK(writer.Put("b", "2"));
  ASSERT_OK(writer.Finish());
  std::string bytes;
  ASSERT_OK(ReadFileToString(env->GetFileSystem(), path, &bytes));
  ASSERT_EQ(DecodeFixed32(bytes.data() + bytes.size() - 12), 7u);
  std::unique_ptr<BlockBasedTable> table;
  ASSERT_OK(Open("/t/writer.sst", bytes, topts, &table));
  ASSERT_EQ(table->GetTableProperties()->compression_name, ";;");
  ASSERT_OK(table->VerifyChecksum());
}

}  // namespace
}  // namespace strata
