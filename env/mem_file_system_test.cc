#include "env/mem_file_system.h"

#include "env/file_system_test_suite.h"

namespace strata::test {
namespace {

INSTANTIATE_TEST_SUITE_P(Mem, FileSystemTest,
                         testing::Values(FileSystemTestParam{
                             "Mem", [] { return NewMemFileSystem(); }, false}),
                         FileSystemTestName);

class MemFileSystemTest : public testing::Test {
 protected:
  std::vector<std::string> Children(const std::string& dir) {
    std::vector<std::string> names;
    Status s = fs_->GetChildren(dir, &names);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return names;  // sorted already
  }

  std::string Read(const std::string& fname) {
    std::string data;
    Status s = ReadFileToString(fs_.get(), fname, &data);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return data;
  }

  std::shared_ptr<FileSystem> fs_ = NewMemFileSystem();
};

TEST_F(MemFileSystemTest, Name) { EXPECT_STREQ("MemFileSystem", fs_->Name()); }

TEST_F(MemFileSystemTest, ParentsExistImplicitly) {
  ASSERT_OK(WriteStringToFile(fs_.get(), "x", "/a/b/c"));
  EXPECT_OK(fs_->FileExists("/a"));
  EXPECT_OK(fs_->FileExists("/a/b"));
  EXPECT_EQ(std::vector<std::string>({"a"}), Children("/"));
  EXPECT_EQ(std::vector<std::string>({"b"}), Children("/a"));
  bool is_dir = false;
  ASSERT_OK(fs_->IsDirectory("/a/b", &is_dir));
  EXPECT_TRUE(is_dir);
  // The implicit directory vanishes with its last entry.
  ASSERT_OK(fs_->DeleteFile("/a/b/c"));
  EXPECT_TRUE(fs_->FileExists("/a").IsNotFound());
}

TEST_F(MemFileSystemTest, PathsAreNormalized) {
  ASSERT_OK(WriteStringToFile(fs_.get(), "x", "//dir///file"));
  EXPECT_EQ("x", Read("/dir/file"));
  EXPECT_EQ(std::vector<std::string>({"file"}), Children("/dir/"));
  std::unique_ptr<FileLock> lock;
  ASSERT_OK(fs_->LockFile("/dir/LOCK", &lock));
  std::unique_ptr<FileLock> again;
  EXPECT_TRUE(fs_->LockFile("/dir//LOCK", &again).IsIOError());
  ASSERT_OK(fs_->UnlockFile(std::move(lock)));
}

TEST_F(MemFileSystemTest, SimilarNamesAreNotChildren) {
  ASSERT_OK(fs_->CreateDir("/db"));
  ASSERT_OK(WriteStringToFile(fs_.get(), "x", "/db/CURRENT"));
  ASSERT_OK(WriteStringToFile(fs_.get(), "x", "/db0"));
  ASSERT_OK(WriteStringToFile(fs_.get(), "x", "/db-backup/CURRENT"));
  EXPECT_EQ(std::vector<std::string>({"CURRENT"}), Children("/db"));
  EXPECT_EQ(std::vector<std::string>({"db", "db-backup", "db0"}), Children("/"));
  ASSERT_OK(fs_->DeleteFile("/db/CURRENT"));
  EXPECT_OK(fs_->DeleteDir("/db"));  // /db0 and /db-backup are not inside it
}

TEST_F(MemFileSystemTest, RenameDirectoryMovesEverythingBelow) {
  ASSERT_OK(fs_->CreateDir("/src"));
  ASSERT_OK(fs_->CreateDir("/src/empty"));
  ASSERT_OK(WriteStringToFile(fs_.get(), "1", "/src/f"));
  ASSERT_OK(WriteStringToFile(fs_.get(), "2", "/src/sub/g"));
  ASSERT_OK(fs_->RenameFile("/src", "/dst"));
  EXPECT_TRUE(fs_->FileExists("/src").IsNotFound());
  EXPECT_EQ(std::vector<std::string>({"empty", "f", "sub"}), Children("/dst"));
  EXPECT_EQ("2", Read("/dst/sub/g"));
  // Onto a file, or into itself: refused.
  ASSERT_OK(WriteStringToFile(fs_.get(), "x", "/file"));
  EXPECT_TRUE(fs_->RenameFile("/dst", "/file").IsIOError());
  EXPECT_TRUE(fs_->RenameFile("/dst", "/dst/sub/deeper").IsIOError());
  // A file onto a directory: refused.
  EXPECT_TRUE(fs_->RenameFile("/file", "/dst").IsIOError());
}

TEST_F(MemFileSystemTest, WriterSeesTruncationByAnotherOpen) {
  // Like O_TRUNC on one inode: all handles share the bytes.
  std::unique_ptr<WritableFile> first;
  ASSERT_OK(fs_->NewWritableFile("/f", FileOptions(), &first));
  ASSERT_OK(first->Append("abc"));
  std::unique_ptr<RandomAccessFile> reader;
  ASSERT_OK(fs_->NewRandomAccessFile("/f", FileOptions(), &reader));
  std::unique_ptr<WritableFile> second;
  ASSERT_OK(fs_->NewWritableFile("/f", FileOptions(), &second));
  EXPECT_EQ(0u, first->GetFileSize());
  ASSERT_OK(second->Append("xy"));
  char scratch[8];
  Slice result;
  ASSERT_OK(reader->Read(0, 8, &result, scratch));
  EXPECT_EQ("xy", result.ToString());
}

TEST_F(MemFileSystemTest, InstancesAreIndependent) {
  std::shared_ptr<FileSystem> other = NewMemFileSystem();
  ASSERT_OK(WriteStringToFile(fs_.get(), "x", "/f"));
  EXPECT_TRUE(other->FileExists("/f").IsNotFound());
}

TEST_F(MemFileSystemTest, ConcurrentWritersAndReaders) {
  constexpr int kThreads = 4;
  std::vector<std::thread> threads;
  std::vector<int> failures(kThreads, 0);
  for (int t = 0; t < kThreads; t++) {
    threads.emplace_back([&, t] {
      const std::string dir = "/t" + std::to_string(t);
      for (int i = 0; i < 200; i++) {
        const std::string fname = dir + "/" + std::to_string(i);
        const std::string data(i, static_cast<char>('a' + t));
        if (!WriteStringToFile(fs_.get(), data, fname).ok()) failures[t]++;
        std::string got;
        if (!ReadFileToString(fs_.get(), fname, &got).ok() || got != data) failures[t]++;
        if (i % 2 == 0 && !fs_->DeleteFile(fname).ok()) failures[t]++;
      }
      std::vector<std::string> names;
      if (!fs_->GetChildren(dir, &names).ok() || names.size() != 100) failures[t]++;
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(std::vector<int>(kThreads, 0), failures);
}

TEST_F(MemFileSystemTest, MemEnvUsesMemoryAndRealThreads) {
  std::unique_ptr<Env> env = NewMemEnv();
  EXPECT_STREQ("MemFileSystem", env->GetFileSystem()->Name());
  ASSERT_OK(WriteStringToFile(env->GetFileSystem(), "in memory", "/mem/f"));
  EXPECT_TRUE(FileSystem::Default()->FileExists("/mem/f").IsNotFound());
  std::string got;
  env->Schedule(
      [&] { ReadFileToString(env->GetFileSystem(), "/mem/f", &got).PermitUncheckedError(); });
  env->WaitForJobsAndJoinAllThreads();
  EXPECT_EQ("in memory", got);
}

}  // namespace
}  // namespace strata::test
