// The public tool entry points (strata/utilities/ldb_tool.h,
// sst_dump_tool.h) run in-process: the caller's base options reach every
// open (a DB with a custom comparator scans only with it), the key
// formatter prints scan's keys, the help header is the caller's, and
// SSTDumpTool reads a table with the caller's comparator.

#include "strata/utilities/ldb_tool.h"

#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "strata/comparator.h"
#include "strata/db.h"
#include "strata/options.h"
#include "strata/utilities/sst_dump_tool.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

// Bytewise order reversed, under its own name (not a built-in comparator).
class BackwardComparator : public Comparator {
 public:
  int Compare(const Slice& a, const Slice& b) const override {
    return BytewiseComparator()->Compare(b, a);
  }
  const char* Name() const override { return "test.Backward"; }
  void FindShortestSeparator(std::string*, const Slice&) const override {}
  void FindShortSuccessor(std::string*) const override {}
};

class Brackets : public SliceFormatter {
 public:
  std::string Format(const Slice& s) const override { return "[" + s.ToString() + "]"; }
};

class LdbToolTest : public ::testing::Test {
 protected:
  LdbToolTest() { path_ = dir_.path() + "/db"; }

  // Runs the ldb command line (after --db=path) in-process.
  int Ldb(const std::vector<std::string>& args, const Options& options,
          const LDBOptions& ldb_options, std::string* out, bool with_db = true) {
    std::vector<std::string> words = {"ldb"};
    if (with_db) words.push_back("--db=" + path_);
    words.insert(words.end(), args.begin(), args.end());
    std::vector<const char*> argv;
    for (const std::string& w : words) argv.push_back(w.c_str());
    ::testing::internal::CaptureStdout();
    const int rc = RunLDBTool(static_cast<int>(argv.size()), argv.data(), options, ldb_options);
    *out = ::testing::internal::GetCapturedStdout();
    return rc;
  }

  BackwardComparator backward_;
  test::TempDir dir_;
  std::string path_;
};

TEST_F(LdbToolTest, BaseOptionsReachTheOpen) {
  Options o;
  o.create_if_missing = true;
  o.comparator = &backward_;
  {
    std::unique_ptr<DB> db;
    ASSERT_OK(DB::Open(o, path_, &db));
    for (const char* k : {"a", "b", "c"}) ASSERT_OK(db->Put(WriteOptions(), k, "v"));
    ASSERT_OK(db->Flush(FlushOptions()));
    ASSERT_OK(db->Close());
  }
  std::string out;
  // Without the comparator the DB does not open (its MANIFEST names it).
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(Ldb({"scan"}, Options(), LDBOptions(), &out), 1);
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("test.Backward"), std::string::npos) << err;
  // With it: scan in the comparator's order.
  Options base;
  base.comparator = &backward_;
  EXPECT_EQ(Ldb({"scan"}, base, LDBOptions(), &out), 0);
  EXPECT_EQ(out, "c : v\nb : v\na : v\n");
  // The key formatter; --key_hex wins over it.
  LDBOptions formatted;
  formatted.key_formatter = std::make_shared<Brackets>();
  EXPECT_EQ(Ldb({"scan", "--no_value"}, base, formatted, &out), 0);
  EXPECT_EQ(out, "[c]\n[b]\n[a]\n");
  EXPECT_EQ(Ldb({"scan", "--key_hex", "--max_keys=1"}, base, formatted, &out), 0);
  EXPECT_EQ(out, "0x63 : v\n");
  // get goes through the same open.
  EXPECT_EQ(Ldb({"get", "b"}, base, LDBOptions(), &out), 0);
  EXPECT_EQ(out, "v\n");
}

TEST_F(LdbToolTest, HelpHeader) {
  LDBOptions ldb_options;
  EXPECT_EQ(ldb_options.print_help_header, "ldb - RocksDB Tool");
  ldb_options.print_help_header = "my tool";
  std::string out;
  EXPECT_EQ(Ldb({"--help"}, Options(), ldb_options, &out, /*with_db=*/false), 0);
  EXPECT_EQ(out.rfind("my tool\n\ncommands MUST specify --db=", 0), 0u) << out;
}

TEST_F(LdbToolTest, SstDumpToolUsesTheComparator) {
  Options o;
  o.create_if_missing = true;
  o.comparator = &backward_;
  std::unique_ptr<DB> db;
  ASSERT_OK(DB::Open(o, path_, &db));
  ASSERT_OK(db->Put(WriteOptions(), "x", "1"));
  ASSERT_OK(db->Put(WriteOptions(), "y", "2"));
  ASSERT_OK(db->Flush(FlushOptions()));
  std::vector<LiveFileMetaData> files;
  db->GetLiveFilesMetaData(&files);
  ASSERT_EQ(files.size(), 1u);
  ASSERT_OK(db->Close());
  const std::string file = "--file=" + files[0].db_path + files[0].name;
  const char* argv[] = {"sst_dump", file.c_str(), "--command=scan"};
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(SSTDumpTool().Run(3, argv), 1);  // the built-in comparators refuse it
  std::string out = ::testing::internal::GetCapturedStdout();
  std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("test.Backward"), std::string::npos) << err;
  Options base;
  base.comparator = &backward_;
  ::testing::internal::CaptureStdout();
  EXPECT_EQ(SSTDumpTool().Run(3, argv, base), 0);
  out = ::testing::internal::GetCapturedStdout();
  const size_t y = out.find("'y' seq:");
  const size_t x = out.find("'x' seq:");
  ASSERT_NE(y, std::string::npos) << out;
  ASSERT_NE(x, std::string::npos) << out;
  EXPECT_LT(y, x);  // the comparator's order
}

}  // namespace
}  // namespace strata
