#include "db/filename.h"

#include <gtest/gtest.h>

#include "test_util/testutil.h"

namespace strata {

TEST(FileNameTest, Parse) {
  struct Case {
    const char* name;
    uint64_t number;
    FileType type;
  };
  const Case cases[] = {
      {"100.log", 100, FileType::kWalFile},
      {"0.log", 0, FileType::kWalFile},
      {"000005.sst", 5, FileType::kTableFile},
      {"000005.ldb", 5, FileType::kTableFile},
      {"CURRENT", 0, FileType::kCurrentFile},
      {"LOCK", 0, FileType::kDBLockFile},
      {"IDENTITY", 0, FileType::kIdentityFile},
      {"LOG", 0, FileType::kInfoLogFile},
      {"LOG.old.1234567", 0, FileType::kInfoLogFile},
      {"MANIFEST-000002", 2, FileType::kDescriptorFile},
      {"MANIFEST-18446744073709551615", 18446744073709551615ull, FileType::kDescriptorFile},
      {"OPTIONS-000007", 7, FileType::kOptionsFile},
      {"OPTIONS-000007.dbtmp", 7, FileType::kTempFile},
      {"000009.dbtmp", 9, FileType::kTempFile},
      {"000010.blob", 10, FileType::kBlobFile},
  };
  for (const Case& c : cases) {
    uint64_t number = 99;
    FileType type = FileType::kBlobFile;
    ASSERT_TRUE(ParseFileName(c.name, &number, &type)) << c.name;
    EXPECT_EQ(c.number, number) << c.name;
    EXPECT_EQ(static_cast<int>(c.type), static_cast<int>(type)) << c.name;
  }
  const char* bad[] = {"",
                       "foo",
                       "foo-dx-100.log",
                       ".log",
                       "",
                       "manifest",
                       "CURREN",
                       "CURRENTX",
                       "MANIFES",
                       "MANIFEST",
                       "MANIFEST-",
                       "XMANIFEST-3",
                       "MANIFEST-3x",
                       "LOC",
                       "LOCKx",
                       "100",
                       "100.",
                       "100.lop",
                       "18446744073709551616.log",
                       "184467440737095516150.log"};
  for (const char* name : bad) {
    uint64_t number;
    FileType type;
    EXPECT_FALSE(ParseFileName(name, &number, &type)) << name;
  }
}

TEST(FileNameTest, Construction) {
  EXPECT_EQ("db/000003.log", LogFileName("db", 3));
  EXPECT_EQ("db/000123.sst", TableFileName("db", 123));
  EXPECT_EQ("db/1234567.sst", TableFileName("db", 1234567));
  EXPECT_EQ("db/MANIFEST-000004", DescriptorFileName("db", 4));
  EXPECT_EQ("db/CURRENT", CurrentFileName("db"));
  EXPECT_EQ("db/LOCK", LockFileName("db"));
  EXPECT_EQ("db/IDENTITY", IdentityFileName("db"));
  EXPECT_EQ("db/OPTIONS-000008", OptionsFileName("db", 8));
  EXPECT_EQ("db/000009.dbtmp", TempFileName("db", 9));

  // Every constructed name parses back.
  for (uint64_t n : {0ull, 1ull, 999999ull, 1000000ull, 123456789012ull}) {
    for (const std::string& path :
         {LogFileName("d", n), TableFileName("d", n), DescriptorFileName("d", n)}) {
      uint64_t number;
      FileType type;
      ASSERT_TRUE(ParseFileName(path.substr(2), &number, &type)) << path;
      EXPECT_EQ(n, number);
    }
  }
}

TEST(FileNameTest, SetCurrentFile) {
  test::TempDir dir;
  auto fs = FileSystem::Default();
  std::unique_ptr<Directory> d;
  ASSERT_OK(fs->NewDirectory(dir.path(), &d));
  ASSERT_OK(SetCurrentFile(fs.get(), dir.path(), 12, d.get()));
  std::string contents;
  ASSERT_OK(ReadFileToString(fs.get(), CurrentFileName(dir.path()), &contents));
  EXPECT_EQ("MANIFEST-000012\n", contents);
  // No temp file is left behind.
  std::vector<std::string> children;
  ASSERT_OK(fs->GetChildren(dir.path(), &children));
  EXPECT_EQ(1u, children.size());
}

}  // namespace strata
