// Full-file checksums across engines (strata/file_checksum.h): a DB
// written by Strata with the crc32c factory is read by RocksDB 7.8.3
// (test_util/rocksdb_checksum_tool.cc, linked with librocksdb: its
// GetLiveFilesChecksumInfo and VerifyFileChecksums; and /usr/bin/ldb
// manifest_dump --verbose), which must see the very checksums Strata
// computed; and a DB written by RocksDB is read by Strata, whose list must
// equal RocksDB's and whose VerifyFileChecksums passes -- and fails with a
// Corruption naming the file once a byte of it is flipped. Skipped without
// librocksdb (the tool); the ldb check without /usr/bin/ldb.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "strata/db.h"
#include "strata/file_checksum.h"
#include "strata/utilities/options_util.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

using test::RunCommand;

constexpr const char* kLdb = "/usr/bin/ldb";

std::string Hex(const std::string& s) { return Slice(s).ToString(/*hex=*/true); }

class DBFileChecksumInteropTest : public testing::Test {
 protected:
  void SetUp() override {
#ifndef STRATA_ROCKSDB_CHECKSUM_TOOL
    GTEST_SKIP() << "built without librocksdb: no rocksdb_checksum_tool";
#endif
  }
  std::string Tool() const {
#ifdef STRATA_ROCKSDB_CHECKSUM_TOOL
    return STRATA_ROCKSDB_CHECKSUM_TOOL;
#else
    return "";
#endif
  }
  static Options Opts() {
    Options o;
    o.file_checksum_gen_factory = GetFileChecksumGenCrc32cFactory();
    o.wal_mmap_writes = false;  // the WAL ends where its data ends
    return o;
  }
  // Strata's list, as the tool prints it: "<number> <hex> <function>"
  // lines in file number order.
  static std::string StrataList(DB* db) {
    std::unique_ptr<FileChecksumList> list = NewFileChecksumList();
    EXPECT_OK(db->GetLiveFilesChecksumInfo(list.get()));
    std::vector<uint64_t> numbers;
    std::vector<std::string> checksums, names;
    EXPECT_OK(list->GetAllFileChecksums(&numbers, &checksums, &names));
    std::string out;
    for (size_t i = 0; i < numbers.size(); ++i) {
      out += std::to_string(numbers[i]) + " " + Hex(checksums[i]) + " " + names[i] + "\n";
    }
    return out;
  }
  // The tool's output lines, sorted by file number (RocksDB's list is a
  // hash map).
  static std::string SortedToolLines(const std::string& out, std::string* verify) {
    std::istringstream in(out);
    std::vector<std::pair<uint64_t, std::string>> lines;
    std::string line;
    while (std::getline(in, line)) {
      if (line.rfind("verify: ", 0) == 0) {
        *verify = line;
        continue;
      }
      lines.emplace_back(std::stoull(line), line);
    }
    std::sort(lines.begin(), lines.end());
    std::string sorted;
    for (const auto& [n, l] : lines) sorted += l + "\n";
    return sorted;
  }

  test::TempDir dir_{"checksum_interop"};
};

TEST_F(DBFileChecksumInteropTest, StrataWrittenChecksumsReadByRocksDb) {
  const std::string db_path = dir_.path() + "/db";
  std::string strata_list;
  {
    Options o = Opts();
    o.create_if_missing = true;
    std::unique_ptr<DB> db;
    ASSERT_OK(DB::Open(o, db_path, &db));
    for (int part = 0; part < 3; ++part) {
      for (int i = part; i < 3000; i += 3) {
        ASSERT_OK(db->Put(WriteOptions(), "key" + std::to_string(i), std::to_string(i)));
      }
      ASSERT_OK(db->Flush(FlushOptions()));
    }
    ASSERT_OK(db->CompactRange(CompactRangeOptions(), nullptr, nullptr));
    ASSERT_OK(db->Put(WriteOptions(), "last", "x"));
    ASSERT_OK(db->Flush(FlushOptions()));
    strata_list = StrataList(db.get());
    ASSERT_OK(db->Close());
  }
  ASSERT_NE(strata_list.find("FileChecksumCrc32c"), std::string::npos) << strata_list;
  // ldb's MANIFEST dump shows each file's checksum as Strata recorded it
  // (before RocksDB opens the DB and rewrites the MANIFEST).
  if (access(kLdb, X_OK) == 0) {
    int rc = 0;
    const std::string dump =
        RunCommand(std::string(kLdb) + " --db=" + db_path + " manifest_dump --verbose", &rc);
    ASSERT_EQ(rc, 0) << dump;
    std::istringstream in(strata_list);
    std::string number, hex, name;
    while (in >> number >> hex >> name) {
      EXPECT_NE(dump.find(" " + number + " "), std::string::npos) << number;
      EXPECT_NE(dump.find("file_checksum:" + hex + " file_checksum_func_name: " + name),
                std::string::npos)
          << hex << "\n"
          << dump;
    }
  }
  int rc = 0;
  const std::string out = RunCommand(Tool() + " list --db=" + db_path, &rc);
  ASSERT_EQ(rc, 0) << out;
  std::string verify;
  EXPECT_EQ(SortedToolLines(out, &verify), strata_list);
  EXPECT_EQ(verify, "verify: OK");
}

TEST_F(DBFileChecksumInteropTest, RocksDbWrittenChecksumsReadByStrata) {
  const std::string db_path = dir_.path() + "/db";
  int rc = 0;
  std::string out = RunCommand(Tool() + " write --db=" + db_path, &rc);
  ASSERT_EQ(rc, 0) << out;
  out = RunCommand(Tool() + " list --db=" + db_path, &rc);
  ASSERT_EQ(rc, 0) << out;
  std::string verify;
  const std::string rocksdb_list = SortedToolLines(out, &verify);
  EXPECT_EQ(verify, "verify: OK");
  ASSERT_NE(rocksdb_list.find(" FileChecksumCrc32c\n"), std::string::npos) << rocksdb_list;
  // RocksDB's OPTIONS file names the factory; Strata reads it back.
  DBOptions loaded;
  std::vector<ColumnFamilyDescriptor> cf_descs;
  ASSERT_OK(LoadLatestOptions(db_path, Env::Default(), &loaded, &cf_descs));
  EXPECT_EQ(loaded.file_checksum_gen_factory, GetFileChecksumGenCrc32cFactory());
  std::unique_ptr<DB> db;
  ASSERT_OK(DB::Open(Opts(), db_path, &db));
  EXPECT_EQ(StrataList(db.get()), rocksdb_list);
  ASSERT_OK(db->VerifyFileChecksums(ReadOptions()));
  // One flipped byte in a table: Corruption naming it.
  std::vector<LiveFileMetaData> meta;
  db->GetLiveFilesMetaData(&meta);
  ASSERT_FALSE(meta.empty());
  const std::string path = meta.back().directory + "/" + meta.back().relative_filename;
  std::string bytes = test::ReadFileOrDie(path);
  bytes[bytes.size() / 3] ^= 0x01;
  test::WriteFileOrDie(path, bytes);
  const Status s = db->VerifyFileChecksums(ReadOptions());
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_EQ(s.ToString().rfind("Corruption: " + path + " file checksum mismatch, expecting " +
                                   Hex(meta.back().file_checksum) + ", but actual ",
                               0),
            0u)
      << s.ToString();
}

}  // namespace
}  // namespace strata
