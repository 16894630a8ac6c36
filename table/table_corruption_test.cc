// Damaged table files: every byte of a table is overwritten in turn, and the
// file is truncated at every length. Each damaged file must either be
// reported (a Status naming the file) or read back exactly as written --
// never a crash, a hang or a wrong answer. Run under ASan (make check-asan)
// this also proves the reader never reads outside what it was given.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "strata/cache.h"
#include "strata/env.h"
#include "strata/filter_policy.h"
#include "table/block_based_table_builder.h"
#include "table/block_based_table_reader.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

std::string IKey(const std::string& user, SequenceNumber seq, ValueType t = kTypeValue) {
  std::string k;
  AppendInternalKey(&k, user, seq, t);
  return k;
}

struct Outcome {
  bool ok = true;
  std::string error;
  std::vector<std::pair<std::string, std::string>> scan;
  std::vector<std::string> gets;  // one per probe key: value or a state tag
};

class TableCorruptionTest
    : public testing::TestWithParam<std::tuple<CompressionType, ChecksumType, uint32_t>> {
 protected:
  TableCorruptionTest() : fs_(NewMemFileSystem()) {}

  void WriteTable(const std::string& fname, const BlockBasedTableOptions& topts,
                  CompressionType compression) {
    std::unique_ptr<WritableFile> file;
    ASSERT_OK(fs_->NewWritableFile(fname, FileOptions(), &file));
    TableBuilderOptions bo;
    bo.table_options = topts;
    bo.compression = compression;
    BlockBasedTableBuilder builder(bo, file.get());
    for (int i = 0; i < 120; ++i) {
      const std::string user = "key" + std::to_string(1000 + i);
      probes_.push_back(user);
      builder.Add(IKey(user, 500 - i, i % 9 == 0 ? kTypeDeletion : kTypeValue),
                  i % 9 == 0 ? "" : std::string(20 + i % 13, static_cast<char>('a' + i % 26)));
    }
    probes_.push_back("absent");
    probes_.push_back("key1050x");
    builder.AddRangeTombstone("key1010", 600, "key1020");
    ASSERT_OK(builder.Finish());
    ASSERT_OK(file->Close());
  }

  Outcome Read(const std::string& fname, const std::string& bytes,
               const BlockBasedTableOptions& topts) {
    Outcome out;
    auto fail = [&](const Status& s) {
      out.ok = false;
      out.error = s.ToString();
    };
    {
      std::unique_ptr<WritableFile> file;
      Status s = fs_->NewWritableFile(fname, FileOptions(), &file);
      if (s.ok()) s = file->Append(bytes);
      if (s.ok()) s = file->Close();
      EXPECT_TRUE(s.ok()) << s.ToString();
    }
    std::unique_ptr<RandomAccessFile> rfile;
    Status s = fs_->NewRandomAccessFile(fname, FileOptions(), &rfile);
    EXPECT_TRUE(s.ok());
    TableReaderOptions ro;
    ro.table_options = topts;
    ro.file_name = fname;
    std::unique_ptr<BlockBasedTable> table;
    s = BlockBasedTable::Open(ro, std::move(rfile), bytes.size(), &table);
    if (!s.ok()) {
      fail(s);
      return out;
    }
    std::unique_ptr<InternalIterator> it(table->NewIterator(ReadOptions()));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      out.scan.emplace_back(it->key().ToString(), it->value().ToString());
      if (out.scan.size() > 1000) break;  // a damaged block must not loop
    }
    if (!it->status().ok()) {
      fail(it->status());
      return out;
    }
    for (const std::string& user : probes_) {
      std::string value;
      GetContext ctx(BytewiseComparator(), user, &value);
      s = table->Get(ReadOptions(), IKey(user, kMaxSequenceNumber, kValueTypeForSeek), &ctx);
      if (!s.ok()) {
        fail(s);
        return out;
      }
      out.gets.push_back(std::to_string(ctx.state()) + ":" + value);
    }
    std::unique_ptr<InternalIterator> rd(table->NewRangeTombstoneIterator(ReadOptions()));
    if (rd != nullptr) {
      for (rd->SeekToFirst(); rd->Valid(); rd->Next()) {
        out.scan.emplace_back(rd->key().ToString(), rd->value().ToString());
      }
      if (!rd->status().ok()) {
        fail(rd->status());
        return out;
      }
    }
    s = table->VerifyChecksum();
    if (!s.ok()) fail(s);
    return out;
  }

  std::shared_ptr<FileSystem> fs_;
  std::vector<std::string> probes_;
};

TEST_P(TableCorruptionTest, EveryByteAndEveryLength) {
  const auto [compression, checksum, format_version] = GetParam();
  BlockBasedTableOptions topts;
  topts.format_version = format_version;
  topts.block_size = 256;
  topts.checksum = checksum;
  topts.filter_policy = NewBloomFilterPolicy(10);
  topts.block_cache = NewLRUCache(1 << 20);
  topts.data_block_index_type = BlockBasedTableOptions::DataBlockIndexType::kDataBlockBinaryAndHash;
  WriteTable("/t/good.sst", topts, compression);
  std::string good;
  ASSERT_OK(ReadFileToString(fs_.get(), "/t/good.sst", &good));
  const Outcome expected = Read("/t/good.sst", good, topts);
  ASSERT_TRUE(expected.ok) << expected.error;
  ASSERT_EQ(expected.gets.size(), probes_.size());

  size_t detected = 0, harmless = 0;
  for (size_t pos = 0; pos < good.size(); ++pos) {
    for (const unsigned char flip : {0x01, 0x80}) {
      std::string bad = good;
      bad[pos] = static_cast<char>(bad[pos] ^ flip);
      // Each damaged copy gets its own name (and so its own cache keys).
      const std::string fname = "/t/bad" + std::to_string(pos) + "_" + std::to_string(flip);
      const Outcome got = Read(fname, bad, topts);
      ASSERT_OK(fs_->DeleteFile(fname));
      if (!got.ok) {
        ++detected;
        EXPECT_NE(got.error.find(fname), std::string::npos)
            << "error does not name the file: " << got.error;
        continue;
      }
      ++harmless;
      if (checksum == kNoChecksum) continue;  // nothing can notice: only no crash
      ASSERT_EQ(got.scan, expected.scan) << "wrong data after flipping byte " << pos;
      ASSERT_EQ(got.gets, expected.gets) << "wrong Get after flipping byte " << pos;
    }
  }
  // With checksums, nearly everything outside the footer's padding is caught.
  if (checksum != kNoChecksum) {
    EXPECT_GT(detected, harmless * 10);
  }

  for (size_t len = 0; len < good.size(); ++len) {
    const std::string fname = "/t/short" + std::to_string(len);
    const Outcome got = Read(fname, good.substr(0, len), topts);
    ASSERT_OK(fs_->DeleteFile(fname));
    ASSERT_FALSE(got.ok) << "a table cut to " << len << " bytes was accepted";
  }
}

INSTANTIATE_TEST_SUITE_P(Formats, TableCorruptionTest,
                         testing::Values(std::make_tuple(kNoCompression, kCRC32c, 5u),
                                         std::make_tuple(kSnappyCompression, kXXH3, 5u),
                                         std::make_tuple(kZSTD, kxxHash64, 5u),
                                         std::make_tuple(kLZ4Compression, kNoChecksum, 5u),
                                         // format_version 6/7: context and footer checksums
                                         std::make_tuple(kNoCompression, kCRC32c, 6u),
                                         std::make_tuple(kZSTD, kXXH3, 7u),
                                         std::make_tuple(kLZ4Compression, kNoChecksum, 7u)));

}  // namespace
}  // namespace strata
