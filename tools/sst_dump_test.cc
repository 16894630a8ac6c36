// Runs the sst_dump binary (path from STRATA_SST_DUMP_PATH) on tables built
// here with BlockBasedTableBuilder and checks what it prints.

#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "base/dbformat.h"
#include "strata/env.h"
#include "table/block_based_table_builder.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

struct RunResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr
};

RunResult RunSstDump(const std::string& args) {
  RunResult r;
  const std::string cmd = std::string(STRATA_SST_DUMP_PATH) + " " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), p)) > 0) r.output.append(buf, n);
  const int status = pclose(p);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

std::vector<std::string> Lines(const std::string& s) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < s.size()) {
    size_t end = s.find('\n', start);
    if (end == std::string::npos) end = s.size();
    lines.push_back(s.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

std::string IKey(const std::string& user_key, SequenceNumber seq, ValueType t) {
  std::string k;
  AppendInternalKey(&k, user_key, seq, t);
  return k;
}

struct Entry {
  std::string user_key;
  SequenceNumber seq;
  ValueType type;
  std::string value;
};

void BuildTable(const std::string& path, const std::vector<Entry>& entries, size_t block_size,
                bool with_range_tombstone) {
  std::unique_ptr<WritableFile> file;
  ASSERT_OK(Env::Default()->GetFileSystem()->NewWritableFile(path, FileOptions(), &file));
  TableBuilderOptions options;
  options.table_options.block_size = block_size;
  options.compression = kSnappyCompression;
  BlockBasedTableBuilder builder(options, file.get());
  for (const Entry& e : entries) builder.Add(IKey(e.user_key, e.seq, e.type), e.value);
  if (with_range_tombstone) builder.AddRangeTombstone("e", 11, "g");
  ASSERT_OK(builder.Finish());
  ASSERT_OK(file->Close());
}

class SstDumpTest : public testing::Test {
 protected:
  void SetUp() override {
    path_ = dir_.path() + "/000007.sst";
    BuildTable(path_,
               {{"a", 5, kTypeValue, "va"},
                {"b", 7, kTypeDeletion, ""},
                {"b", 3, kTypeValue, "old"},
                {std::string("c\x01", 2), 9, kTypeMerge, "m1"},
                {"d", 2, kTypeSingleDeletion, ""}},
               4096, /*with_range_tombstone=*/true);
  }

  test::TempDir dir_{"sst_dump_test"};
  std::string path_;
};

TEST_F(SstDumpTest, ScanPrintsRocksDBLines) {
  const RunResult r = RunSstDump("--file=" + path_);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::vector<std::string> expected = {"Process " + path_,
                                             "Sst file format: block-based",
                                             "from [] to []",
                                             "'a' seq:5, type:1 => va",
                                             "'b' seq:7, type:0 => ",
                                             "'b' seq:3, type:1 => old",
                                             std::string("'c\x01' seq:9, type:2 => m1"),
                                             "'d' seq:2, type:7 => "};
  EXPECT_EQ(Lines(r.output), expected);
}

TEST_F(SstDumpTest, ScanRangeHexAndReadNum) {
  RunResult r = RunSstDump("--file=" + path_ + " --command=scan --from=b --to=d --output_hex");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::vector<std::string> lines = Lines(r.output);
  ASSERT_EQ(lines.size(), 6u) << r.output;
  EXPECT_EQ(lines[2], "from [62] to [64]");
  EXPECT_EQ(lines[3], "'62' seq:7, type:0 => ");
  EXPECT_EQ(lines[4], "'62' seq:3, type:1 => 6F6C64");
  EXPECT_EQ(lines[5], "'6301' seq:9, type:2 => 6D31");

  r = RunSstDump("--file=" + path_ + " --input_key_hex --from=63 --verify_checksum");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  lines = Lines(r.output);
  ASSERT_EQ(lines.size(), 5u) << r.output;
  EXPECT_EQ(lines[2], "from [63] to []");
  EXPECT_EQ(lines[4], "'d' seq:2, type:7 => ");

  r = RunSstDump("--file=" + path_ + " --read_num=2");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  lines = Lines(r.output);
  ASSERT_EQ(lines.size(), 5u) << r.output;
  EXPECT_EQ(lines[4], "'b' seq:7, type:0 => ");
}

TEST_F(SstDumpTest, ShowProperties) {
  const RunResult r = RunSstDump("--file=" + path_ + " --command=none --show_properties");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::vector<std::string> lines = Lines(r.output);
  ASSERT_GE(lines.size(), 5u) << r.output;
  EXPECT_EQ(lines[2], "Table Properties:");
  for (const char* line :
       {"  # data blocks: 1", "  # entries: 6", "  # deletions: 3", "  # merge operands: 1",
        "  # range deletions: 1", "  comparator name: leveldb.BytewiseComparator",
        "  SST file compression algo: Snappy", "  column family name: default"}) {
    EXPECT_NE(std::find(lines.begin(), lines.end(), line), lines.end()) << line << " not in:\n"
                                                                        << r.output;
  }
}

TEST_F(SstDumpTest, VerifyAndCheck) {
  RunResult r = RunSstDump("--file=" + path_ + " --command=verify");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(Lines(r.output).back(), "The file is ok");
  r = RunSstDump("--file=" + path_ + " --command=check");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(Lines(r.output).size(), 3u) << r.output;  // header lines only
}

TEST_F(SstDumpTest, RawWritesDumpFile) {
  const RunResult r = RunSstDump("--file=" + path_ + " --command=raw");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string dump_path = dir_.path() + "/000007_dump.txt";
  EXPECT_NE(r.output.find("raw dump written to file " + dump_path), std::string::npos) << r.output;
  const std::string dump = test::ReadFileOrDie(dump_path);
  for (const char* piece :
       {"Footer Details:", "  format version: 5", "Metaindex Details:", "  rocksdb.properties: ",
        "  rocksdb.range_del: ", "Table Properties:", "Index Details:", "Range deletions:",
        "  HEX    65 seq:11 type:15: 67", "Data Block # 1 @ offset 0 ",
        "  HEX    61 seq:5 type:1: 7661", "  HEX    6301 seq:9 type:2: 6D31"}) {
    EXPECT_NE(dump.find(piece), std::string::npos) << piece << " not in:\n" << dump;
  }
}

TEST_F(SstDumpTest, CorruptedCopyFailsNamingTheFile) {
  std::string contents = test::ReadFileOrDie(path_);
  const std::string bad = dir_.path() + "/bad.sst";
  contents[3] ^= 0x40;  // inside data block 0
  test::WriteFileOrDie(bad, contents);
  for (const char* command : {"verify", "check"}) {
    const RunResult r = RunSstDump("--file=" + bad + " --command=" + command);
    EXPECT_NE(r.exit_code, 0) << command << ": " << r.output;
    EXPECT_NE(r.output.find("Corruption"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find(bad), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("The file is ok"), std::string::npos) << r.output;
  }

  // A truncated file is not a table.
  const std::string short_path = dir_.path() + "/short.sst";
  test::WriteFileOrDie(short_path, contents.substr(0, 30));
  RunResult r = RunSstDump("--file=" + short_path);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.output.find(short_path + " is not a valid SST file"), std::string::npos) << r.output;

  r = RunSstDump("--file=" + dir_.path() + "/missing.sst");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.output.find("missing.sst"), std::string::npos) << r.output;
}

TEST_F(SstDumpTest, DirectoryDumpsEverySst) {
  std::vector<Entry> many;
  for (int i = 0; i < 500; ++i) {
    char key[16];
    std::snprintf(key, sizeof(key), "key%05d", i);
    many.push_back({key, static_cast<SequenceNumber>(1000 + i), kTypeValue, std::string(40, 'v')});
  }
  ASSERT_NO_FATAL_FAILURE(BuildTable(dir_.path() + "/000009.sst", many, 1024, false));
  test::WriteFileOrDie(dir_.path() + "/notes.txt", "not a table");
  const RunResult r = RunSstDump("--file=" + dir_.path() + " --command=check");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("Process " + dir_.path() + "/000007.sst\n"), std::string::npos);
  EXPECT_NE(r.output.find("Process " + dir_.path() + "/000009.sst\n"), std::string::npos);
  EXPECT_EQ(r.output.find("notes.txt"), std::string::npos);

  // The multi-block table scans completely and in order.
  const RunResult scan = RunSstDump("--file=" + dir_.path() + "/000009.sst --from=key00100");
  ASSERT_EQ(scan.exit_code, 0);
  const std::vector<std::string> lines = Lines(scan.output);
  ASSERT_EQ(lines.size(), 3u + 400u);
  EXPECT_EQ(lines[3], "'key00100' seq:1100, type:1 => " + std::string(40, 'v'));
  EXPECT_EQ(lines.back(), "'key00499' seq:1499, type:1 => " + std::string(40, 'v'));
}

// RocksDB's own sst_dump (Debian rocksdb-tools), when installed, prints the
// same scan lines for our table and for one RocksDB wrote.
std::string ScanLines(const std::string& output) {
  std::string kept;
  for (const std::string& line : Lines(output)) {
    if (line.rfind("options.env is", 0) == 0) continue;  // RocksDB's extra line
    kept += line + "\n";
  }
  return kept;
}

TEST_F(SstDumpTest, SameScanAsRocksDBSstDump) {
  const std::string rocks_sst_dump = "/usr/bin/sst_dump";
  const std::string ldb = "/usr/bin/ldb";
  if (Env::Default()->GetFileSystem()->FileExists(rocks_sst_dump).ok() == false ||
      Env::Default()->GetFileSystem()->FileExists(ldb).ok() == false) {
    GTEST_SKIP() << "RocksDB tools not installed";
  }
  auto rocks = [&](const std::string& args) {
    RunResult r;
    FILE* p = popen((rocks_sst_dump + " " + args + " 2>/dev/null").c_str(), "r");
    if (p == nullptr) return r;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof(buf), p)) > 0) r.output.append(buf, n);
    const int status = pclose(p);
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
  };
  for (const char* flags :
       {"", " --output_hex", " --from=b --to=d", " --read_num=3", " --from=c --output_hex"}) {
    // RocksDB's sst_dump without --command reads but prints no entries.
    const RunResult theirs = rocks("--command=scan --file=" + path_ + flags);
    const RunResult ours = RunSstDump("--file=" + path_ + flags);
    ASSERT_EQ(theirs.exit_code, 0) << theirs.output;
    ASSERT_EQ(ours.exit_code, 0) << ours.output;
    EXPECT_EQ(ScanLines(ours.output), ScanLines(theirs.output)) << flags;
  }

  // A table RocksDB wrote (ldb put + compact).
  const std::string db = dir_.path() + "/rocksdb";
  const std::string put = ldb + " --db=" + db + " --create_if_missing put k1 v1 >/dev/null 2>&1";
  ASSERT_EQ(std::system(put.c_str()), 0);
  ASSERT_EQ(std::system((ldb + " --db=" + db + " put k2 v2 >/dev/null 2>&1").c_str()), 0);
  ASSERT_EQ(std::system((ldb + " --db=" + db + " compact >/dev/null 2>&1").c_str()), 0);
  std::vector<std::string> children;
  ASSERT_OK(Env::Default()->GetFileSystem()->GetChildren(db, &children));
  int tables = 0;
  for (const std::string& c : children) {
    if (c.size() < 4 || c.compare(c.size() - 4, 4, ".sst") != 0) continue;
    ++tables;
    const std::string sst = db + "/" + c;
    const RunResult theirs = rocks("--command=scan --file=" + sst);
    const RunResult ours = RunSstDump("--file=" + sst);
    ASSERT_EQ(ours.exit_code, 0) << ours.output;
    EXPECT_EQ(ScanLines(ours.output), ScanLines(theirs.output));
    EXPECT_NE(ours.output.find("'k2' seq:0, type:1 => v2"), std::string::npos) << ours.output;
    const RunResult verify = RunSstDump("--file=" + sst + " --command=verify --show_properties");
    ASSERT_EQ(verify.exit_code, 0) << verify.output;
    EXPECT_NE(verify.output.find("The file is ok"), std::string::npos);
    EXPECT_NE(verify.output.find("  # entries: 2\n"), std::string::npos) << verify.output;
  }
  EXPECT_EQ(tables, 1);
}

// A format_version 7 table written by RocksDB 10.5.1 (testdata/README.md):
// verified, scanned and dumped raw with its fv7 footer fields.
TEST(SstDumpCurrentRocksDBTest, ReadsRocksDbFv7Table) {
  test::TempDir dir("sst_dump_fv7");
  const std::string src = std::string(STRATA_TESTDATA_DIR) + "/rocksdb-10.5.1/fv7/000009.sst";
  const std::string path = dir.path() + "/000009.sst";
  {
    std::string bytes;
    ASSERT_OK(ReadFileToString(Env::Default()->GetFileSystem(), src, &bytes));
    ASSERT_OK(WriteStringToFile(Env::Default()->GetFileSystem(), bytes, path));
  }
  RunResult r = RunSstDump("--file=" + path + " --command=verify");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(Lines(r.output).back(), "The file is ok");
  r = RunSstDump("--file=" + path + " --command=scan");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("'key000001' seq:2, type:1 => value-1-x"), std::string::npos) << r.output;
  r = RunSstDump("--file=" + path + " --command=raw");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string dump = test::ReadFileOrDie(dir.path() + "/000009_dump.txt");
  for (const char* piece : {"  format version: 7", "  base context checksum: 0x78608114",
                            "  rocksdb.index: ", "  SST file compression algo: ;;"}) {
    EXPECT_NE(dump.find(piece), std::string::npos) << piece << " not in:\n" << dump;
  }
}

TEST(SstDumpFlagsTest, BadFlagsExitWithUsage) {
  RunResult r = RunSstDump("--file=/nonexistent --command=bogus");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("unknown command bogus"), std::string::npos) << r.output;
  r = RunSstDump("--no_such_flag");
  EXPECT_EQ(r.exit_code, 2);
  r = RunSstDump("");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("--file is required"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace strata
