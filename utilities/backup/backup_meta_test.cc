// Tests of the backup meta file format (utilities/backup/backup_meta.h):
// RocksDB 7.8.3's own output parses, encode/decode round-trips, schema 2
// fields, and damaged files give Corruption naming the file.
#include "utilities/backup/backup_meta.h"

#include <gtest/gtest.h>

#include "util/random.h"

namespace strata::backup {
namespace {

// A meta file written by RocksDB 7.8.3 (`ldb backup` of a db_bench
// fillrandom DB), verbatim.
constexpr char kRocksDbMeta[] =
    "1796171821\n"
    "20000\n"
    "4\n"
    "shared_checksum/000008_sFNT4JXOKXUYVSYZKXSVH_1548497.sst crc32 1683814911\n"
    "private/1/MANIFEST-000010 crc32 175847156\n"
    "private/1/CURRENT crc32 1712763145\n"
    "private/1/OPTIONS-000012 crc32 3835357336\n";

TEST(BackupMetaTest, ReadsRocksDbMetaFile) {
  BackupMetaContents meta;
  ASSERT_TRUE(DecodeBackupMeta(kRocksDbMeta, "meta/1", &meta).ok());
  EXPECT_EQ(meta.timestamp, 1796171821);
  EXPECT_EQ(meta.sequence_number, 20000u);
  EXPECT_TRUE(meta.app_metadata.empty());
  ASSERT_EQ(meta.files.size(), 4u);
  EXPECT_EQ(meta.files[0].path, "shared_checksum/000008_sFNT4JXOKXUYVSYZKXSVH_1548497.sst");
  EXPECT_TRUE(meta.files[0].has_checksum);
  EXPECT_EQ(meta.files[0].crc32c, 1683814911u);
  EXPECT_EQ(meta.files[3].crc32c, 3835357336u);
  EXPECT_FALSE(meta.files[3].has_size);
  // Encoding it again gives the same bytes.
  EXPECT_EQ(EncodeBackupMeta(meta, 1), kRocksDbMeta);
}

TEST(BackupMetaTest, AppMetadataIsUpperHex) {
  BackupMetaContents meta;
  meta.timestamp = 5;
  meta.sequence_number = 7;
  meta.app_metadata = std::string("a\0\xff", 3);
  meta.files.push_back({"private/2/CURRENT", true, 12, false, 0});
  const std::string text = EncodeBackupMeta(meta, 1);
  EXPECT_EQ(text, "5\n7\nmetadata 6100FF\n1\nprivate/2/CURRENT crc32 12\n");
  BackupMetaContents back;
  ASSERT_TRUE(DecodeBackupMeta(text, "m", &back).ok());
  EXPECT_EQ(back.app_metadata, meta.app_metadata);
  // Lower-case hex is read too.
  ASSERT_TRUE(DecodeBackupMeta("5\n7\nmetadata 6100ff\n0\n", "m", &back).ok());
  EXPECT_EQ(back.app_metadata, meta.app_metadata);
}

TEST(BackupMetaTest, SchemaTwoFields) {
  const std::string text =
      "schema_version 2.1\n"
      "10\n"
      "20\n"
      "metadata 41\n"
      "some_field whatever it is\n"
      "2\n"
      "private/1/CURRENT crc32 99 size 16 temp kHot future x\n"
      "shared/000005.sst size 100\n"
      "// FOOTER\n"
      "checksum 1234\n";
  BackupMetaContents meta;
  ASSERT_TRUE(DecodeBackupMeta(text, "m", &meta).ok());
  EXPECT_EQ(meta.app_metadata, "A");
  ASSERT_EQ(meta.files.size(), 2u);
  EXPECT_TRUE(meta.files[0].has_size);
  EXPECT_EQ(meta.files[0].size, 16u);
  EXPECT_EQ(meta.files[0].crc32c, 99u);
  EXPECT_FALSE(meta.files[1].has_checksum);
  // Non-ignorable fields and unknown schema versions are refused.
  EXPECT_TRUE(DecodeBackupMeta("schema_version 3\n1\n2\n0\n", "m", &meta).IsNotSupported());
  EXPECT_TRUE(
      DecodeBackupMeta("schema_version 2\n1\n2\nni::x y\n0\n", "m", &meta).IsNotSupported());
  EXPECT_TRUE(DecodeBackupMeta("schema_version 2\n1\n2\n1\nprivate/1/CURRENT ni::x y\n", "m", &meta)
                  .IsNotSupported());
  // Writing schema 2 with sizes and reading it back.
  BackupMetaContents out;
  out.timestamp = 1;
  out.sequence_number = 2;
  out.files.push_back({"private/1/CURRENT", true, 3, true, 16});
  const std::string enc = EncodeBackupMeta(out, 2, true);
  EXPECT_EQ(enc, "schema_version 2.0\n1\n2\n1\nprivate/1/CURRENT crc32 3 size 16\n");
  ASSERT_TRUE(DecodeBackupMeta(enc, "m", &meta).ok());
  EXPECT_EQ(meta.files[0].size, 16u);
}

TEST(BackupMetaTest, DamagedFilesAreCorruptionNamingTheFile) {
  const char* bad[] = {
      "",                                        // empty
      "12\n",                                    // no sequence
      "12\n34\n",                                // no count
      "12\n34\n2\nprivate/1/CURRENT crc32 5\n",  // fewer files than announced
      "12\n34\n1\nprivate/1/CURRENT crc32 x\n",  // bad checksum
      "12\n34\n1\nprivate/1/CURRENT\n",          // checksum missing (schema 1)
      "12\n34\n1\nprivate/1/CURRENT md5 5\n",    // unknown checksum type
      "12\n34\n1\nprivate/1/CURRENT crc32 5 x\n",
      "12\n34\nfoo bar\n0\n",       // schema 1 allows only metadata
      "12\n34\nmetadata 4\n0\n",    // odd hex
      "12\n34\n1\n../x crc32 5\n",  // escapes the backup dir
      "12\n34\n1\nprivate/1/CURRENT crc32 4294967296\n",
      "x\n34\n0\n",
  };
  for (const char* text : bad) {
    BackupMetaContents meta;
    Status s = DecodeBackupMeta(text, "/b/meta/7", &meta);
    EXPECT_TRUE(s.IsCorruption()) << text << " -> " << s.ToString();
    EXPECT_NE(s.ToString().find("/b/meta/7"), std::string::npos) << s.ToString();
  }
}

TEST(BackupMetaTest, RandomRoundTrip) {
  const uint32_t seed = static_cast<uint32_t>(testing::UnitTest::GetInstance()->random_seed());
  SCOPED_TRACE("seed " + std::to_string(seed));
  Random rnd(seed + 1);
  for (int iter = 0; iter < 200; ++iter) {
    BackupMetaContents meta;
    meta.timestamp = rnd.Uniform(2000000000);
    meta.sequence_number = (uint64_t{rnd.Next()} << 20) ^ rnd.Next();
    const int meta_len = static_cast<int>(rnd.Uniform(3)) == 0 ? 0 : rnd.Uniform(40);
    for (int i = 0; i < meta_len; ++i) meta.app_metadata.push_back(static_cast<char>(rnd.Next()));
    const int n = rnd.Uniform(10);
    for (int i = 0; i < n; ++i) {
      meta.files.push_back({"private/3/" + std::to_string(i) + ".log", true, rnd.Next(), false, 0});
    }
    const int schema = 1 + static_cast<int>(rnd.Uniform(2));
    BackupMetaContents back;
    ASSERT_TRUE(DecodeBackupMeta(EncodeBackupMeta(meta, schema), "m", &back).ok());
    EXPECT_EQ(back.timestamp, meta.timestamp);
    EXPECT_EQ(back.sequence_number, meta.sequence_number);
    EXPECT_EQ(back.app_metadata, meta.app_metadata);
    ASSERT_EQ(back.files.size(), meta.files.size());
    for (size_t i = 0; i < meta.files.size(); ++i) {
      EXPECT_EQ(back.files[i].path, meta.files[i].path);
      EXPECT_EQ(back.files[i].crc32c, meta.files[i].crc32c);
    }
  }
}

TEST(BackupMetaTest, DbFileNames) {
  EXPECT_EQ(DbFileNameOfBackupFile("private/3/MANIFEST-000010"), "MANIFEST-000010");
  EXPECT_EQ(DbFileNameOfBackupFile("shared_checksum/000008_sFNT4JXOKXUYVSYZKXSVH_1548497.sst"),
            "000008.sst");
  EXPECT_EQ(DbFileNameOfBackupFile("shared_checksum/000008_123_456.sst"), "000008.sst");
  EXPECT_EQ(DbFileNameOfBackupFile("shared/000008.sst"), "000008.sst");
  EXPECT_EQ(DbFileNameOfBackupFile("private/1/000004.log"), "000004.log");
}

}  // namespace
}  // namespace strata::backup
