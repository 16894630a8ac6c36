#include "env/fault_injection_fs.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "strata/env.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

class FaultInjectionFSTest : public ::testing::Test {
 protected:
  FaultInjectionFSTest()
      : base_(NewMemFileSystem()), fs_(std::make_shared<FaultInjectionFileSystem>(base_)) {
    EXPECT_TRUE(base_->CreateDir("/d").ok());
    EXPECT_TRUE(fs_->NewDirectory("/d", &dir_).ok());
  }

  // Creates path through the fault FS with data, synced or not.
  void Write(const std::string& path, const std::string& data, bool sync) {
    std::unique_ptr<WritableFile> f;
    ASSERT_OK(fs_->NewWritableFile(path, FileOptions(), &f));
    ASSERT_OK(f->Append(data));
    if (sync) ASSERT_OK(f->Sync());
    ASSERT_OK(f->Close());
  }

  // The base's contents of path, or "<missing>".
  std::string Contents(const std::string& path) {
    std::string data;
    if (!ReadFileToString(base_.get(), path, &data).ok()) return "<missing>";
    return data;
  }

  std::shared_ptr<FileSystem> base_;
  std::shared_ptr<FaultInjectionFileSystem> fs_;
  std::unique_ptr<Directory> dir_;
};

TEST_F(FaultInjectionFSTest, UnsyncedAppendsAreDropped) {
  std::unique_ptr<WritableFile> f;
  ASSERT_OK(fs_->NewWritableFile("/d/a", FileOptions(), &f));
  ASSERT_OK(dir_->Fsync());
  ASSERT_OK(f->Append("abc"));
  ASSERT_OK(f->Sync());
  ASSERT_OK(f->Append("def"));
  ASSERT_OK(f->Flush());
  EXPECT_EQ(Contents("/d/a"), "abcdef");
  ASSERT_OK(f->Close());
  f.reset();
  ASSERT_OK(fs_->DropUnsyncedData());
  EXPECT_EQ(Contents("/d/a"), "abc");
  // Fsync counts like Sync.
  ASSERT_OK(fs_->ReopenWritableFile("/d/a", FileOptions(), &f));
  ASSERT_OK(f->Append("ghi"));
  ASSERT_OK(f->Fsync());
  ASSERT_OK(f->Append("jkl"));
  f.reset();
  ASSERT_OK(fs_->DropUnsyncedData());
  EXPECT_EQ(Contents("/d/a"), "abcghi");
}

TEST_F(FaultInjectionFSTest, CreatedFileNeedsDirectoryFsync) {
  Write("/d/unsynced_dir", "data", /*sync=*/true);
  ASSERT_OK(fs_->DropUnsyncedData());
  EXPECT_EQ(Contents("/d/unsynced_dir"), "<missing>");

  Write("/d/synced_dir", "data", /*sync=*/true);
  ASSERT_OK(dir_->Fsync());
  Write("/d/later", "x", /*sync=*/true);
  ASSERT_OK(fs_->DropUnsyncedData());
  EXPECT_EQ(Contents("/d/synced_dir"), "data");
  EXPECT_EQ(Contents("/d/later"), "<missing>");
}

TEST_F(FaultInjectionFSTest, DurableEntryWithUnsyncedDataIsEmpty) {
  Write("/d/f", "data", /*sync=*/false);
  ASSERT_OK(dir_->Fsync());
  ASSERT_OK(fs_->DropUnsyncedData());
  EXPECT_EQ(Contents("/d/f"), "");
}

// CURRENT's update: a synced temp file renamed over the old CURRENT.
TEST_F(FaultInjectionFSTest, RenameOverFileIsUndoneWithoutDirectoryFsync) {
  Write("/d/CURRENT", "MANIFEST-1\n", true);
  ASSERT_OK(dir_->Fsync());
  Write("/d/000002.dbtmp", "MANIFEST-2\n", true);
  ASSERT_OK(fs_->RenameFile("/d/000002.dbtmp", "/d/CURRENT"));
  EXPECT_EQ(Contents("/d/CURRENT"), "MANIFEST-2\n");
  ASSERT_OK(fs_->DropUnsyncedData());
  EXPECT_EQ(Contents("/d/CURRENT"), "MANIFEST-1\n");
  EXPECT_EQ(Contents("/d/000002.dbtmp"), "<missing>");  // its creation was not durable

  Write("/d/000003.dbtmp", "MANIFEST-3\n", true);
  ASSERT_OK(fs_->RenameFile("/d/000003.dbtmp", "/d/CURRENT"));
  ASSERT_OK(dir_->Fsync());
  ASSERT_OK(fs_->DropUnsyncedData());
  EXPECT_EQ(Contents("/d/CURRENT"), "MANIFEST-3\n");
  EXPECT_EQ(Contents("/d/000003.dbtmp"), "<missing>");
}

TEST_F(FaultInjectionFSTest, RenameOfDurableFileIsUndone) {
  Write("/d/src", "hello", true);
  ASSERT_OK(dir_->Fsync());
  ASSERT_OK(fs_->RenameFile("/d/src", "/d/dst"));
  ASSERT_OK(fs_->DropUnsyncedData());
  EXPECT_EQ(Contents("/d/src"), "hello");
  EXPECT_EQ(Contents("/d/dst"), "<missing>");
}

// Two durable files swapped through a third name: both come back intact.
TEST_F(FaultInjectionFSTest, SwappedFilesAreRestored) {
  Write("/d/a", "AAA", true);
  Write("/d/b", "BBB", true);
  ASSERT_OK(dir_->Fsync());
  ASSERT_OK(fs_->RenameFile("/d/a", "/d/t"));
  ASSERT_OK(fs_->RenameFile("/d/b", "/d/a"));
  ASSERT_OK(fs_->RenameFile("/d/t", "/d/b"));
  EXPECT_EQ(Contents("/d/a"), "BBB");
  ASSERT_OK(fs_->DropUnsyncedData());
  EXPECT_EQ(Contents("/d/a"), "AAA");
  EXPECT_EQ(Contents("/d/b"), "BBB");
  EXPECT_EQ(Contents("/d/t"), "<missing>");
}

TEST_F(FaultInjectionFSTest, DeleteIsUndoneWithoutDirectoryFsync) {
  std::unique_ptr<WritableFile> f;
  ASSERT_OK(fs_->NewWritableFile("/d/x", FileOptions(), &f));
  ASSERT_OK(f->Append("durable"));
  ASSERT_OK(f->Sync());
  ASSERT_OK(f->Append("-not"));
  ASSERT_OK(f->Close());
  ASSERT_OK(dir_->Fsync());
  ASSERT_OK(fs_->DeleteFile("/d/x"));
  EXPECT_EQ(Contents("/d/x"), "<missing>");
  ASSERT_OK(fs_->DropUnsyncedData());
  EXPECT_EQ(Contents("/d/x"), "durable");

  ASSERT_OK(fs_->DeleteFile("/d/x"));
  ASSERT_OK(dir_->Fsync());
  ASSERT_OK(fs_->DropUnsyncedData());
  EXPECT_EQ(Contents("/d/x"), "<missing>");
}

TEST_F(FaultInjectionFSTest, DeletedAndRecreatedNameGetsOldFileBack) {
  Write("/d/x", "old", true);
  ASSERT_OK(dir_->Fsync());
  ASSERT_OK(fs_->DeleteFile("/d/x"));
  Write("/d/x", "new", true);
  ASSERT_OK(fs_->DropUnsyncedData());
  EXPECT_EQ(Contents("/d/x"), "old");
}

TEST_F(FaultInjectionFSTest, FilesPresentBeforeWrappingAreDurable) {
  ASSERT_OK(WriteStringToFile(base_.get(), "pre", "/d/pre"));
  Write("/d/new", "n", true);  // first change in /d: lists "pre" as durable
  ASSERT_OK(fs_->DeleteFile("/d/pre"));
  ASSERT_OK(fs_->DropUnsyncedData());
  EXPECT_EQ(Contents("/d/pre"), "pre");
  EXPECT_EQ(Contents("/d/new"), "<missing>");
}

TEST_F(FaultInjectionFSTest, InactiveRefusesEveryChange) {
  Write("/d/a", "a", true);
  ASSERT_OK(dir_->Fsync());
  std::unique_ptr<WritableFile> open;
  ASSERT_OK(fs_->ReopenWritableFile("/d/a", FileOptions(), &open));
  fs_->SetFilesystemActive(false);
  EXPECT_FALSE(fs_->IsFilesystemActive());
  const uint64_t faults = fs_->injected_faults();

  std::unique_ptr<WritableFile> f;
  Status s = fs_->NewWritableFile("/d/b", FileOptions(), &f);
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_EQ(f, nullptr);
  EXPECT_TRUE(open->Append("more").IsIOError());
  EXPECT_TRUE(open->Flush().IsIOError());
  EXPECT_TRUE(open->Sync().IsIOError());
  EXPECT_TRUE(open->Close().IsIOError());
  EXPECT_TRUE(fs_->RenameFile("/d/a", "/d/c").IsIOError());
  EXPECT_TRUE(fs_->DeleteFile("/d/a").IsIOError());
  EXPECT_TRUE(fs_->Truncate("/d/a", 0).IsIOError());
  EXPECT_TRUE(fs_->CreateDir("/d/sub").IsIOError());
  EXPECT_TRUE(dir_->Fsync().IsIOError());
  EXPECT_EQ(fs_->injected_faults(), faults + 10);
  // Nothing reached the base; reads still work.
  EXPECT_EQ(Contents("/d/a"), "a");
  EXPECT_TRUE(fs_->FileExists("/d/b").IsNotFound());
  std::string data;
  ASSERT_OK(ReadFileToString(fs_.get(), "/d/a", &data));
  EXPECT_EQ(data, "a");

  fs_->SetFilesystemActive(true);
  Write("/d/b", "b", true);
  EXPECT_EQ(Contents("/d/b"), "b");
}

TEST_F(FaultInjectionFSTest, CountsMutatingOperations) {
  const uint64_t start = fs_->mutating_ops();
  std::unique_ptr<WritableFile> f;
  ASSERT_OK(fs_->NewWritableFile("/d/a", FileOptions(), &f));  // 1
  ASSERT_OK(f->Append("x"));                                   // 2
  ASSERT_OK(f->Sync());                                        // 3
  ASSERT_OK(f->Close());                                       // 4
  ASSERT_OK(dir_->Fsync());                                    // 5
  ASSERT_OK(fs_->RenameFile("/d/a", "/d/b"));                  // 6
  ASSERT_OK(fs_->DeleteFile("/d/b"));                          // 7
  uint64_t size = 0;
  EXPECT_FALSE(fs_->GetFileSize("/d/b", &size).ok());  // reads are not counted
  EXPECT_EQ(fs_->mutating_ops() - start, 7u);
}

TEST_F(FaultInjectionFSTest, FailAfterOneShot) {
  std::unique_ptr<WritableFile> f;
  ASSERT_OK(fs_->NewWritableFile("/d/a", FileOptions(), &f));
  fs_->FailAfter(2, FaultMode::kOneShot);
  ASSERT_OK(f->Append("1"));
  ASSERT_OK(f->Append("2"));
  Status s = f->Append("3");
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_NE(s.ToString().find("/d/a"), std::string::npos) << s.ToString();
  EXPECT_TRUE(fs_->IsFilesystemActive());
  ASSERT_OK(f->Append("4"));
  ASSERT_OK(f->Sync());
  ASSERT_OK(f->Close());
  EXPECT_EQ(Contents("/d/a"), "124");
  EXPECT_EQ(fs_->injected_faults(), 1u);
}

TEST_F(FaultInjectionFSTest, FailAfterCrashDeactivates) {
  fs_->FailAfter(0, FaultMode::kCrash);
  std::unique_ptr<WritableFile> f;
  EXPECT_TRUE(fs_->NewWritableFile("/d/a", FileOptions(), &f).IsIOError());
  EXPECT_FALSE(fs_->IsFilesystemActive());
  EXPECT_TRUE(fs_->NewWritableFile("/d/a", FileOptions(), &f).IsIOError());
  fs_->SetFilesystemActive(true);
  ASSERT_OK(fs_->NewWritableFile("/d/a", FileOptions(), &f));

  // Cleared before it fires: nothing fails.
  fs_->FailAfter(1, FaultMode::kCrash);
  fs_->ClearFailAfter();
  ASSERT_OK(f->Append("a"));
  ASSERT_OK(f->Append("b"));
  EXPECT_TRUE(fs_->IsFilesystemActive());
}

TEST_F(FaultInjectionFSTest, RepeatedCrashes) {
  std::unique_ptr<WritableFile> f;
  ASSERT_OK(fs_->NewWritableFile("/d/log", FileOptions(), &f));
  ASSERT_OK(dir_->Fsync());
  ASSERT_OK(f->Append("a"));
  ASSERT_OK(f->Sync());
  ASSERT_OK(f->Append("b"));
  f.reset();
  ASSERT_OK(fs_->DropUnsyncedData());
  EXPECT_EQ(Contents("/d/log"), "a");
  // After a crash the file is fully durable at its new length.
  ASSERT_OK(fs_->ReopenWritableFile("/d/log", FileOptions(), &f));
  ASSERT_OK(f->Append("c"));
  ASSERT_OK(f->Sync());
  ASSERT_OK(f->Append("d"));
  f.reset();
  ASSERT_OK(fs_->DropUnsyncedData());
  EXPECT_EQ(Contents("/d/log"), "ac");
}

TEST_F(FaultInjectionFSTest, TruncateLowersSyncedSize) {
  Write("/d/t", "0123456789", true);
  ASSERT_OK(dir_->Fsync());
  ASSERT_OK(fs_->Truncate("/d/t", 4));
  ASSERT_OK(fs_->DropUnsyncedData());
  EXPECT_EQ(Contents("/d/t"), "0123");
}

// --- FaultSpec, the disk-full switch, read faults, counters ---------------

TEST_F(FaultInjectionFSTest, SpecCountdownOneShot) {
  std::unique_ptr<WritableFile> f;
  ASSERT_OK(fs_->NewWritableFile("/d/a", FileOptions(), &f));
  FaultSpec spec;
  spec.ops = FaultOpBit(FaultOp::kAppend);
  spec.countdown = 2;
  fs_->InjectFault(spec);
  ASSERT_OK(f->Append("1"));
  ASSERT_OK(f->Sync());  // not a matching kind
  ASSERT_OK(f->Append("2"));
  Status s = f->Append("3");
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_FALSE(s.IsNoSpace());
  EXPECT_NE(s.ToString().find("/d/a"), std::string::npos) << s.ToString();
  ASSERT_OK(f->Append("4"));
  ASSERT_OK(f->Close());
  EXPECT_EQ(Contents("/d/a"), "124");
  EXPECT_EQ(fs_->matched_ops(), 4u);
  EXPECT_EQ(fs_->spec_faults(), 1u);
  EXPECT_TRUE(fs_->IsFilesystemActive());
}

TEST_F(FaultInjectionFSTest, SpecCountdownStickyNoSpace) {
  std::unique_ptr<WritableFile> f;
  ASSERT_OK(fs_->NewWritableFile("/d/a", FileOptions(), &f));
  FaultSpec spec;
  spec.ops = FaultOpBit(FaultOp::kAppend) | FaultOpBit(FaultOp::kSync);
  spec.countdown = 1;
  spec.sticky = true;
  spec.error = FaultError::kNoSpace;
  fs_->InjectFault(spec);
  ASSERT_OK(f->Append("1"));
  for (int i = 0; i < 3; i++) {
    Status s = f->Append("x");
    EXPECT_TRUE(s.IsNoSpace()) << s.ToString();
    s = f->Sync();
    EXPECT_TRUE(s.IsNoSpace()) << s.ToString();
  }
  ASSERT_OK(f->Flush());  // not a matching kind
  EXPECT_EQ(fs_->spec_faults(), 6u);
  EXPECT_EQ(fs_->matched_ops(), 7u);
  fs_->ClearFault();
  ASSERT_OK(f->Append("2"));
  ASSERT_OK(f->Close());
  EXPECT_EQ(Contents("/d/a"), "12");
}

TEST_F(FaultInjectionFSTest, SpecMaskCoversEveryMutatingKind) {
  Write("/d/a", "a", true);
  std::unique_ptr<WritableFile> f;
  ASSERT_OK(fs_->NewWritableFile("/d/w", FileOptions(), &f));
  struct Case {
    FaultOp op;
    std::function<Status()> run;
  };
  std::vector<Case> cases = {
      {FaultOp::kCreate,
       [&] {
         std::unique_ptr<WritableFile> g;
         return fs_->NewWritableFile("/d/n", FileOptions(), &g);
       }},
      {FaultOp::kCreate,
       [&] {
         std::unique_ptr<WritableFile> g;
         return fs_->ReopenWritableFile("/d/a", FileOptions(), &g);
       }},
      {FaultOp::kAppend, [&] { return f->Append("x"); }},
      {FaultOp::kFlush, [&] { return f->Flush(); }},
      {FaultOp::kSync, [&] { return f->Sync(); }},
      {FaultOp::kSync, [&] { return f->Fsync(); }},
      {FaultOp::kAllocate, [&] { return f->Allocate(0, 100); }},
      {FaultOp::kRename, [&] { return fs_->RenameFile("/d/a", "/d/b"); }},
      {FaultOp::kDelete, [&] { return fs_->DeleteFile("/d/a"); }},
      {FaultOp::kTruncate, [&] { return fs_->Truncate("/d/a", 0); }},
      {FaultOp::kDirFsync, [&] { return dir_->Fsync(); }},
      {FaultOp::kDirOp, [&] { return fs_->CreateDir("/d/sub"); }},
      {FaultOp::kOpenRead,
       [&] {
         std::unique_ptr<RandomAccessFile> r;
         return fs_->NewRandomAccessFile("/d/a", FileOptions(), &r);
       }},
      {FaultOp::kOpenRead,
       [&] {
         std::unique_ptr<SequentialFile> r;
         return fs_->NewSequentialFile("/d/a", FileOptions(), &r);
       }},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(FaultOpName(c.op));
    FaultSpec spec;
    spec.ops = FaultOpBit(c.op);
    spec.sticky = true;
    fs_->InjectFault(spec);
    const FaultOpCounts before = fs_->op_counts(c.op);
    Status s = c.run();
    EXPECT_TRUE(s.IsIOError()) << s.ToString();
    EXPECT_EQ(fs_->op_counts(c.op).attempted, before.attempted + 1);
    EXPECT_EQ(fs_->op_counts(c.op).failed, before.failed + 1);
    EXPECT_EQ(fs_->spec_faults(), 1u);
    fs_->ClearFault();
  }
  // The failed operations changed nothing.
  EXPECT_EQ(Contents("/d/a"), "a");
  EXPECT_EQ(Contents("/d/n"), "<missing>");
  EXPECT_EQ(Contents("/d/w"), "");
  bool is_dir = false;
  EXPECT_FALSE(fs_->IsDirectory("/d/sub", &is_dir).ok() && is_dir);
}

TEST_F(FaultInjectionFSTest, SpecFileFilters) {
  FaultSpec spec;
  spec.ops = FaultOpBit(FaultOp::kCreate) | FaultOpBit(FaultOp::kRename);
  spec.name_contains = {".log", "MANIFEST-"};
  spec.sticky = true;
  fs_->InjectFault(spec);
  std::unique_ptr<WritableFile> f;
  EXPECT_TRUE(fs_->NewWritableFile("/d/000001.log", FileOptions(), &f).IsIOError());
  EXPECT_TRUE(fs_->NewWritableFile("/d/MANIFEST-000002", FileOptions(), &f).IsIOError());
  ASSERT_OK(fs_->NewWritableFile("/d/000003.sst", FileOptions(), &f));
  ASSERT_OK(fs_->NewWritableFile("/d/CURRENT", FileOptions(), &f));
  // A rename matches on either name.
  EXPECT_TRUE(fs_->RenameFile("/d/CURRENT", "/d/x.log").IsIOError());
  ASSERT_OK(fs_->RenameFile("/d/CURRENT", "/d/CURRENT2"));
  EXPECT_EQ(fs_->matched_ops(), 3u);

  spec.name_contains.clear();
  spec.predicate = [](const std::string& path) { return path.find("sst") != std::string::npos; };
  fs_->InjectFault(spec);
  EXPECT_TRUE(fs_->NewWritableFile("/d/000004.sst", FileOptions(), &f).IsIOError());
  ASSERT_OK(fs_->NewWritableFile("/d/000005.log", FileOptions(), &f));
  // Both filters: the name and the predicate must accept.
  spec.name_contains = {"000006"};
  fs_->InjectFault(spec);
  EXPECT_TRUE(fs_->NewWritableFile("/d/000006.sst", FileOptions(), &f).IsIOError());
  ASSERT_OK(fs_->NewWritableFile("/d/000006.log", FileOptions(), &f));
  ASSERT_OK(fs_->NewWritableFile("/d/000007.sst", FileOptions(), &f));
}

// Which operations fail, as a string of 0/1.
std::string RandomPattern(FaultInjectionFileSystem* fs, uint64_t seed, double p, int n) {
  FaultSpec spec;
  spec.ops = FaultOpBit(FaultOp::kAppend);
  spec.probability = p;
  spec.seed = seed;
  fs->InjectFault(spec);
  std::unique_ptr<WritableFile> f;
  EXPECT_TRUE(fs->NewWritableFile("/d/r", FileOptions(), &f).ok());
  std::string pattern;
  for (int i = 0; i < n; i++) pattern.push_back(f->Append("x").ok() ? '0' : '1');
  fs->ClearFault();
  EXPECT_TRUE(f->Close().ok());
  return pattern;
}

TEST_F(FaultInjectionFSTest, SpecRandomIsDeterministicPerSeed) {
  const uint64_t seed = test::RandomSeed();
  const std::string a = RandomPattern(fs_.get(), seed, 0.25, 400);
  const std::string b = RandomPattern(fs_.get(), seed, 0.25, 400);
  EXPECT_EQ(a, b);
  const auto ones = std::count(a.begin(), a.end(), '1');
  EXPECT_GT(ones, 50) << a;  // 100 expected; far outside 6 sigma otherwise
  EXPECT_LT(ones, 150) << a;
  EXPECT_NE(a, RandomPattern(fs_.get(), seed + 1, 0.25, 400));
  const std::string none = RandomPattern(fs_.get(), seed, 1e-300, 100);
  EXPECT_EQ(none, std::string(100, '0'));
  const std::string all = RandomPattern(fs_.get(), seed, 1.0, 100);
  EXPECT_EQ(all, std::string(100, '1'));
}

TEST_F(FaultInjectionFSTest, NoSpaceSwitch) {
  Write("/d/a", "a", true);
  ASSERT_OK(dir_->Fsync());
  std::unique_ptr<WritableFile> f;
  ASSERT_OK(fs_->ReopenWritableFile("/d/a", FileOptions(), &f));
  fs_->SetNoSpace(true);
  EXPECT_TRUE(fs_->IsNoSpace());
  std::unique_ptr<WritableFile> g;
  Status s = fs_->NewWritableFile("/d/b", FileOptions(), &g);
  EXPECT_TRUE(s.IsNoSpace()) << s.ToString();
  EXPECT_EQ(g, nullptr);
  EXPECT_TRUE(f->Append("x").IsNoSpace());
  EXPECT_TRUE(f->Flush().IsNoSpace());
  EXPECT_TRUE(f->Sync().IsNoSpace());
  EXPECT_TRUE(f->Allocate(0, 4096).IsNoSpace());
  EXPECT_TRUE(fs_->CreateDir("/d/sub").IsNoSpace());
  // What frees or only renames space still works; reads too.
  ASSERT_OK(fs_->RenameFile("/d/a", "/d/c"));
  ASSERT_OK(dir_->Fsync());
  std::string data;
  ASSERT_OK(ReadFileToString(fs_.get(), "/d/c", &data));
  EXPECT_EQ(data, "a");
  ASSERT_OK(f->Close());
  EXPECT_EQ(fs_->op_counts(FaultOp::kAppend).failed, 1u);
  EXPECT_EQ(fs_->op_counts(FaultOp::kCreate).failed, 1u);
  // Space returns.
  fs_->SetNoSpace(false);
  EXPECT_FALSE(fs_->IsNoSpace());
  Write("/d/b", "b", true);
  EXPECT_EQ(Contents("/d/b"), "b");
  ASSERT_OK(fs_->DeleteFile("/d/c"));
}

TEST_F(FaultInjectionFSTest, RandomAccessReadFaults) {
  const std::string content = "0123456789abcdefghij";
  Write("/d/t", content, true);
  std::unique_ptr<RandomAccessFile> r;
  ASSERT_OK(fs_->NewRandomAccessFile("/d/t", FileOptions(), &r));
  char scratch[64];
  Slice result;
  // No fault: the data as written.
  ASSERT_OK(r->Read(2, 8, &result, scratch));
  EXPECT_EQ(result.ToString(), content.substr(2, 8));

  FaultSpec spec;
  spec.ops = FaultOpBit(FaultOp::kRead);
  spec.countdown = 1;
  fs_->InjectFault(spec);
  ASSERT_OK(r->Read(0, 4, &result, scratch));
  EXPECT_EQ(result.ToString(), "0123");
  Status s = r->Read(0, 4, &result, scratch);
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_NE(s.ToString().find("/d/t"), std::string::npos) << s.ToString();
  ASSERT_OK(r->Read(0, 4, &result, scratch));  // one shot
  EXPECT_EQ(result.ToString(), "0123");

  spec.countdown = 0;
  spec.error = FaultError::kShortRead;
  fs_->InjectFault(spec);
  ASSERT_OK(r->Read(4, 10, &result, scratch));
  EXPECT_LT(result.size(), 10u);
  EXPECT_EQ(result.ToString(), content.substr(4, result.size()));

  spec.error = FaultError::kCorruptRead;
  spec.seed = test::RandomSeed();
  fs_->InjectFault(spec);
  ASSERT_OK(r->Read(4, 10, &result, scratch));
  ASSERT_EQ(result.size(), 10u);
  const std::string want = content.substr(4, 10);
  int flipped_bits = 0;
  for (size_t i = 0; i < 10; i++) {
    flipped_bits += __builtin_popcount(static_cast<unsigned char>(result[i] ^ want[i]));
  }
  EXPECT_EQ(flipped_bits, 1);
  EXPECT_EQ(fs_->spec_faults(), 1u);
  EXPECT_EQ(fs_->op_counts(FaultOp::kRead).attempted, 6u);
  EXPECT_EQ(fs_->op_counts(FaultOp::kRead).failed, 3u);

  // Filters apply to reads too.
  spec.error = FaultError::kIOError;
  spec.sticky = true;
  spec.name_contains = {".sst"};
  fs_->InjectFault(spec);
  ASSERT_OK(r->Read(0, 4, &result, scratch));
  EXPECT_EQ(fs_->matched_ops(), 0u);
}

TEST_F(FaultInjectionFSTest, SequentialReadFaults) {
  Write("/d/s", "abcdefghijklmnop", true);
  std::unique_ptr<SequentialFile> r;
  ASSERT_OK(fs_->NewSequentialFile("/d/s", FileOptions(), &r));
  char scratch[64];
  Slice result;
  FaultSpec spec;
  spec.ops = FaultOpBit(FaultOp::kRead);
  spec.countdown = 1;
  spec.error = FaultError::kShortRead;
  fs_->InjectFault(spec);
  ASSERT_OK(r->Read(4, &result, scratch));
  EXPECT_EQ(result.ToString(), "abcd");
  ASSERT_OK(r->Read(4, &result, scratch));
  EXPECT_EQ(result.ToString(), "ef");  // short: the reader sees less
  spec.countdown = 0;
  spec.error = FaultError::kIOError;
  fs_->InjectFault(spec);
  EXPECT_TRUE(r->Skip(2).IsIOError());  // Skip counts as a read
  ASSERT_OK(r->Skip(2));
  ASSERT_OK(r->Read(4, &result, scratch));
  EXPECT_EQ(result.ToString(), "klmn");
  EXPECT_EQ(fs_->op_counts(FaultOp::kRead).attempted, 5u);
  EXPECT_EQ(fs_->op_counts(FaultOp::kOpenRead).attempted, 1u);
}

TEST_F(FaultInjectionFSTest, FaultListenerSeesEveryInjectedFault) {
  std::vector<std::string> seen;
  fs_->SetFaultListener([&seen](FaultOp op, const std::string& path, const Status& s) {
    seen.push_back(std::string(FaultOpName(op)) + " " + path + " " + s.ToString());
  });
  Write("/d/a", "abcdef", true);
  FaultSpec spec;
  spec.ops = FaultOpBit(FaultOp::kRename) | FaultOpBit(FaultOp::kRead);
  spec.sticky = true;
  spec.error = FaultError::kShortRead;
  fs_->InjectFault(spec);
  EXPECT_TRUE(fs_->RenameFile("/d/a", "/d/b").IsIOError());
  std::unique_ptr<RandomAccessFile> r;
  ASSERT_OK(fs_->NewRandomAccessFile("/d/a", FileOptions(), &r));
  char scratch[8];
  Slice result;
  ASSERT_OK(r->Read(0, 6, &result, scratch));
  EXPECT_EQ(result.ToString(), "abc");
  fs_->ClearFault();
  fs_->SetNoSpace(true);
  std::unique_ptr<WritableFile> f;
  EXPECT_TRUE(fs_->NewWritableFile("/d/c", FileOptions(), &f).IsNoSpace());
  fs_->SetNoSpace(false);
  fs_->FailAfter(0, FaultMode::kOneShot);
  EXPECT_TRUE(fs_->DeleteFile("/d/a").IsIOError());
  ASSERT_EQ(seen.size(), 4u);
  EXPECT_EQ(seen[0].rfind("rename /d/a -> /d/b IO error", 0), 0u) << seen[0];
  EXPECT_EQ(seen[1].rfind("read /d/a Corruption: injected short read", 0), 0u) << seen[1];
  EXPECT_EQ(seen[2].rfind("create /d/c IO error", 0), 0u) << seen[2];
  EXPECT_NE(seen[2].find("no space"), std::string::npos) << seen[2];
  EXPECT_EQ(seen[3].rfind("delete /d/a IO error", 0), 0u) << seen[3];
  fs_->SetFaultListener(nullptr);
}

TEST_F(FaultInjectionFSTest, OpCountsPerKind) {
  fs_->ResetOpCounts();
  Write("/d/a", "abc", true);  // create, append, sync, close
  ASSERT_OK(dir_->Fsync());
  std::string data;
  ASSERT_OK(ReadFileToString(fs_.get(), "/d/a", &data));
  ASSERT_OK(fs_->RenameFile("/d/a", "/d/b"));
  ASSERT_OK(fs_->Truncate("/d/b", 1));
  ASSERT_OK(fs_->DeleteFile("/d/b"));
  for (FaultOp op :
       {FaultOp::kCreate, FaultOp::kAppend, FaultOp::kSync, FaultOp::kClose, FaultOp::kDirFsync,
        FaultOp::kOpenRead, FaultOp::kRename, FaultOp::kTruncate, FaultOp::kDelete}) {
    EXPECT_EQ(fs_->op_counts(op).attempted, 1u) << FaultOpName(op);
    EXPECT_EQ(fs_->op_counts(op).failed, 0u) << FaultOpName(op);
  }
  EXPECT_GE(fs_->op_counts(FaultOp::kRead).attempted, 1u);
  EXPECT_EQ(fs_->op_counts(FaultOp::kFlush).attempted, 0u);
  fs_->ResetOpCounts();
  EXPECT_EQ(fs_->op_counts(FaultOp::kCreate).attempted, 0u);
  EXPECT_STREQ(FaultOpName(FaultOp::kDirFsync), "dir-fsync");
}

// POSIX mmap reads: the wrapper forwards the map (readers then bypass Read
// and its faults) unless told to hide it.
TEST(FaultInjectionFSPosixTest, MappedContentsAndReadFaults) {
  test::TempDir tmp("fault_fs_mmap");
  auto fs = std::make_shared<FaultInjectionFileSystem>(FileSystem::Default());
  const std::string path = tmp.path() + "/m";
  ASSERT_OK(WriteStringToFile(fs.get(), "mapped bytes", path, true));
  FileOptions fo;
  fo.use_mmap_reads = true;
  std::unique_ptr<RandomAccessFile> r;
  ASSERT_OK(fs->NewRandomAccessFile(path, fo, &r));
  EXPECT_EQ(r->mapped_contents().ToString(), "mapped bytes");
  fs->set_hide_mapped_contents(true);
  ASSERT_OK(fs->NewRandomAccessFile(path, fo, &r));
  EXPECT_TRUE(r->mapped_contents().empty());
  FaultSpec spec;
  spec.ops = FaultOpBit(FaultOp::kRead);
  fs->InjectFault(spec);
  char scratch[16];
  Slice result;
  EXPECT_TRUE(r->Read(0, 6, &result, scratch).IsIOError());
  ASSERT_OK(r->Read(0, 6, &result, scratch));
  EXPECT_EQ(result.ToString(), "mapped");
}

TEST(FaultInjectionFSPosixTest, DropsUnsyncedDataOnDisk) {
  test::TempDir tmp("fault_fs_test");
  auto fs = std::make_shared<FaultInjectionFileSystem>(FileSystem::Default());
  const std::string dir = tmp.path();
  std::unique_ptr<Directory> d;
  ASSERT_OK(fs->NewDirectory(dir, &d));
  std::unique_ptr<WritableFile> f;
  ASSERT_OK(fs->NewWritableFile(dir + "/kept", FileOptions(), &f));
  ASSERT_OK(f->Append("synced"));
  ASSERT_OK(f->Sync());
  ASSERT_OK(f->Append("lost"));
  ASSERT_OK(f->Close());
  ASSERT_OK(d->Fsync());
  ASSERT_OK(WriteStringToFile(fs.get(), "x", dir + "/gone", /*should_sync=*/true));
  ASSERT_OK(fs->DropUnsyncedData());
  std::string data;
  ASSERT_OK(ReadFileToString(FileSystem::Default().get(), dir + "/kept", &data));
  EXPECT_EQ(data, "synced");
  EXPECT_TRUE(FileSystem::Default()->FileExists(dir + "/gone").IsNotFound());
}

// The Env for a DB over the fault-injecting file system.
TEST(FaultInjectionFSEnvTest, EnvOverFaultFileSystem) {
  auto fs = std::make_shared<FaultInjectionFileSystem>(NewMemFileSystem());
  Env env(fs, SystemClock::Default());
  EXPECT_EQ(env.GetFileSystem(), fs.get());
  ASSERT_OK(WriteStringToFile(env.GetFileSystem(), "v", "/e/f", true));
  std::string data;
  ASSERT_OK(ReadFileToString(fs->base(), "/e/f", &data));
  EXPECT_EQ(data, "v");
}

}  // namespace
}  // namespace strata
