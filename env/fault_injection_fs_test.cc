#include "env/fault_injection_fs.h"

#include <gtest/gtest.h>

#include <algorithm>
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
