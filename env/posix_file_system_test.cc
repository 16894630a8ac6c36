#include "env/posix_file_system.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include <set>

#include "env/file_system_test_suite.h"

namespace strata::test {
namespace {

INSTANTIATE_TEST_SUITE_P(Posix, FileSystemTest,
                         testing::Values(FileSystemTestParam{
                             "Posix", [] { return FileSystem::Default(); }, true}),
                         FileSystemTestName);

class PosixFileSystemTest : public testing::Test {
 protected:
  std::string Path(const std::string& name) const { return tmp_.path() + "/" + name; }

  // Runs child in a forked process and returns its wait status.
  static int RunInChild(const std::function<void()>& child) {
    fflush(nullptr);
    const pid_t pid = fork();
    if (pid == 0) {
      child();
      _exit(0);
    }
    int status = 0;
    EXPECT_EQ(pid, waitpid(pid, &status, 0));
    return status;
  }

  static uint64_t DiskSize(const std::string& path) {
    struct stat st;
    EXPECT_EQ(0, stat(path.c_str(), &st));
    return static_cast<uint64_t>(st.st_size);
  }

  FileSystem* fs_ = FileSystem::Default().get();
  TempDir tmp_{"strata-posix"};
};

TEST_F(PosixFileSystemTest, DefaultIsOneInstance) {
  EXPECT_EQ(FileSystem::Default().get(), FileSystem::Default().get());
  EXPECT_STREQ("PosixFileSystem", fs_->Name());
}

// statvfs's view: the bytes an unprivileged writer has, which shrink when
// a large file is written; a path that does not exist is an IOError naming
// it.
TEST_F(PosixFileSystemTest, GetFreeSpace) {
  uint64_t before = 0;
  ASSERT_OK(fs_->GetFreeSpace(tmp_.path(), &before));
  ASSERT_GT(before, 0u);
  struct statvfs sv;
  ASSERT_EQ(0, statvfs(tmp_.path().c_str(), &sv));
  const uint64_t now = static_cast<uint64_t>(sv.f_bavail) * sv.f_frsize;
  // Other processes write too: only roughly equal.
  EXPECT_LT(before > now ? before - now : now - before, uint64_t{1} << 30);
  Status s = fs_->GetFreeSpace(tmp_.path() + "/missing/dir", &before);
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_NE(s.ToString().find("missing"), std::string::npos) << s.ToString();
}

TEST_F(PosixFileSystemTest, MmapFileIsExactAfterClose) {
  std::mt19937_64 rng(RandomSeed());
  for (size_t chunk : {size_t{0}, size_t{4096}, size_t{3 * 4096 + 1}}) {
    SCOPED_TRACE("preallocation_block_size " + std::to_string(chunk));
    FileOptions opts;
    opts.use_mmap_writes = true;
    opts.preallocation_block_size = chunk;
    std::unique_ptr<WritableFile> file;
    ASSERT_OK(fs_->NewWritableFile(Path("mmap"), opts, &file));
    std::string expected;
    for (int i = 0; i < 100; i++) {
      const std::string piece = RandomBytes(&rng, rng() % 9000);
      ASSERT_OK(file->Append(piece));
      expected += piece;
    }
    ASSERT_OK(file->Sync());
    // Before Close the file holds whole reserved chunks.
    EXPECT_GE(DiskSize(Path("mmap")), expected.size());
    ASSERT_OK(file->Close());
    EXPECT_EQ(expected.size(), DiskSize(Path("mmap")));
    EXPECT_TRUE(ReadFileOrDie(Path("mmap")) == expected);
  }
}

TEST_F(PosixFileSystemTest, MmapReopenOfUnalignedFile) {
  std::mt19937_64 rng(RandomSeed());
  const std::string head = RandomBytes(&rng, 5000);  // not a page multiple
  WriteFileOrDie(Path("f"), head);
  FileOptions opts;
  opts.use_mmap_writes = true;
  opts.preallocation_block_size = 4096;
  std::unique_ptr<WritableFile> file;
  ASSERT_OK(fs_->ReopenWritableFile(Path("f"), opts, &file));
  EXPECT_EQ(5000u, file->GetFileSize());
  const std::string tail = RandomBytes(&rng, 10000);
  ASSERT_OK(file->Append(tail));
  ASSERT_OK(file->Close());
  EXPECT_TRUE(ReadFileOrDie(Path("f")) == head + tail);
}

// A process killed without Close leaves every byte it appended through the
// map, followed only by zeros (the rest of the reserved chunk).
TEST_F(PosixFileSystemTest, MmapAppendsSurviveKillOfProcess) {
  std::mt19937_64 rng(RandomSeed());
  std::vector<std::string> pieces;
  std::string expected;
  for (int i = 0; i < 50; i++) {
    pieces.push_back(RandomBytes(&rng, 1 + rng() % 5000));
    expected += pieces.back();
  }
  const std::string fname = Path("000003.log");
  const int status = RunInChild([&] {
    FileOptions opts;
    opts.use_mmap_writes = true;
    opts.preallocation_block_size = 16384;
    std::unique_ptr<WritableFile> file;
    if (!fs_->NewWritableFile(fname, opts, &file).ok()) _exit(2);
    for (const std::string& piece : pieces) {
      if (!file->Append(piece).ok() || !file->Flush().ok()) _exit(3);
    }
    raise(SIGKILL);
  });
  ASSERT_TRUE(WIFSIGNALED(status)) << status;
  ASSERT_EQ(SIGKILL, WTERMSIG(status));

  const std::string contents = ReadFileOrDie(fname);
  ASSERT_GE(contents.size(), expected.size());
  EXPECT_EQ(0u, contents.size() % 16384);
  EXPECT_TRUE(contents.compare(0, expected.size(), expected) == 0);
  EXPECT_EQ(std::string::npos, contents.find_first_not_of('\0', expected.size()));
}

TEST_F(PosixFileSystemTest, FlushedAppendsSurviveKillOfProcess) {
  std::mt19937_64 rng(RandomSeed());
  const std::string data = RandomBytes(&rng, 300000);
  const int status = RunInChild([&] {
    FileOptions opts;
    opts.writable_file_max_buffer_size = 4096;
    opts.preallocation_block_size = 65536;
    std::unique_ptr<WritableFile> file;
    if (!fs_->NewWritableFile(Path("f"), opts, &file).ok()) _exit(2);
    for (size_t pos = 0; pos < data.size(); pos += 1000) {
      if (!file->Append(Slice(data.data() + pos, 1000)).ok()) _exit(3);
    }
    if (!file->Flush().ok()) _exit(4);
    raise(SIGKILL);
  });
  ASSERT_TRUE(WIFSIGNALED(status)) << status;
  EXPECT_TRUE(ReadFileOrDie(Path("f")) == data);
}

// A full disk cannot be staged here; a file-size limit (RLIMIT_FSIZE) makes
// space reservation fail the same way. The mmap writer must then return an
// error Status from Append -- never touch unreserved mapped pages (SIGBUS).
TEST_F(PosixFileSystemTest, ReservationFailureIsAStatusNotASignal) {
  for (bool mmap : {true, false}) {
    SCOPED_TRACE(mmap ? "mmap" : "buffered");
    const std::string fname = Path(mmap ? "mmap" : "buffered");
    // Exit codes: 0 = Append failed cleanly with the path in the message.
    const int status = RunInChild([&] {
      signal(SIGXFSZ, SIG_IGN);  // get EFBIG instead of the signal
      struct rlimit limit = {64 << 10, 64 << 10};
      if (setrlimit(RLIMIT_FSIZE, &limit) != 0) _exit(10);
      FileOptions opts;
      opts.use_mmap_writes = mmap;
      opts.preallocation_block_size = 16 << 10;
      opts.writable_file_max_buffer_size = 4096;
      std::unique_ptr<WritableFile> file;
      if (!fs_->NewWritableFile(fname, opts, &file).ok()) _exit(11);
      const std::string piece(1000, 'x');
      for (int i = 0; i < 200; i++) {
        Status s = file->Append(piece);
        if (s.ok()) s = file->Flush();
        if (!s.ok()) {
          if (!s.IsIOError() || s.ToString().find(fname) == std::string::npos) _exit(12);
          _exit(0);
        }
      }
      _exit(13);  // 200 KB written past a 64 KB limit
    });
    ASSERT_TRUE(WIFEXITED(status)) << "killed by signal " << WTERMSIG(status);
    EXPECT_EQ(0, WEXITSTATUS(status));
  }
}

TEST_F(PosixFileSystemTest, PreallocatedSpaceIsReleasedOnClose) {
  FileOptions opts;
  opts.preallocation_block_size = 1 << 20;
  std::unique_ptr<WritableFile> file;
  ASSERT_OK(fs_->NewWritableFile(Path("f"), opts, &file));
  ASSERT_OK(file->Allocate(0, 4 << 20));
  ASSERT_OK(file->Append("0123456789"));
  ASSERT_OK(file->Close());
  EXPECT_EQ(10u, DiskSize(Path("f")));
  struct stat st;
  ASSERT_EQ(0, stat(Path("f").c_str(), &st));
  EXPECT_LT(st.st_blocks * 512, 1 << 20);  // the reserved megabytes are gone
}

TEST_F(PosixFileSystemTest, AppendAfterCloseFails) {
  for (bool mmap : {false, true}) {
    FileOptions opts;
    opts.use_mmap_writes = mmap;
    std::unique_ptr<WritableFile> file;
    ASSERT_OK(fs_->NewWritableFile(Path("f"), opts, &file));
    ASSERT_OK(file->Close());
    Status s = file->Append("x");
    EXPECT_TRUE(s.IsIOError()) << s.ToString();
    EXPECT_NE(std::string::npos, s.ToString().find(Path("f"))) << s.ToString();
  }
}

TEST_F(PosixFileSystemTest, SecondProcessCannotLock) {
  const std::string lock_path = Path("LOCK");
  std::unique_ptr<FileLock> lock;
  ASSERT_OK(fs_->LockFile(lock_path, &lock));
  // Exit codes: 0 = failed as expected with the path in the message.
  int status = RunInChild([&] {
    std::unique_ptr<FileLock> child_lock;
    Status s = fs_->LockFile(lock_path, &child_lock);
    if (s.ok()) _exit(1);
    if (!s.IsIOError() || s.ToString().find(lock_path) == std::string::npos) _exit(2);
    _exit(0);
  });
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(0, WEXITSTATUS(status));

  ASSERT_OK(fs_->UnlockFile(std::move(lock)));
  status = RunInChild([&] {
    std::unique_ptr<FileLock> child_lock;
    _exit(fs_->LockFile(lock_path, &child_lock).ok() ? 0 : 1);
  });
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(0, WEXITSTATUS(status));
}

TEST_F(PosixFileSystemTest, ErrorsNameFileAndErrno) {
  std::unique_ptr<WritableFile> file;
  Status s = fs_->NewWritableFile(Path("nodir/f"), FileOptions(), &file);
  EXPECT_TRUE(s.IsPathNotFound()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find(Path("nodir/f") + ": No such file or directory"))
      << s.ToString();
}

// EACCES is reported as IOError naming the file and the errno text.
TEST_F(PosixFileSystemTest, UnwritableDirectory) {
  ASSERT_OK(fs_->CreateDir(Path("ro")));
  ASSERT_EQ(0, chmod(Path("ro").c_str(), 0555));
  const std::string fname = Path("ro/f");
  auto try_write = [this, fname]() -> int {
    std::unique_ptr<WritableFile> file;
    Status s = fs_->NewWritableFile(fname, FileOptions(), &file);
    if (s.ok()) return 1;
    if (!s.IsIOError() || s.IsPathNotFound()) return 2;
    if (s.ToString().find(fname + ": Permission denied") == std::string::npos) return 3;
    return 0;
  };
  if (geteuid() != 0) {
    EXPECT_EQ(0, try_write());
  } else {
    // Root bypasses permission checks: try from a child that gives up root.
    const int status = RunInChild([&] {
      if (setgid(65534) != 0 || setuid(65534) != 0) _exit(10);
      _exit(try_write());
    });
    ASSERT_TRUE(WIFEXITED(status));
    if (WEXITSTATUS(status) == 10) GTEST_SKIP() << "cannot drop root privileges";
    EXPECT_EQ(0, WEXITSTATUS(status));
  }
  chmod(Path("ro").c_str(), 0755);
}

std::set<int> OpenDescriptors() {
  std::set<int> fds;
  DIR* d = opendir("/proc/self/fd");
  if (d == nullptr) return fds;
  const int own = dirfd(d);
  while (const struct dirent* e = readdir(d)) {
    if (e->d_name[0] == '.') continue;
    const int fd = atoi(e->d_name);
    if (fd != own) fds.insert(fd);
  }
  closedir(d);
  return fds;
}

TEST_F(PosixFileSystemTest, DescriptorsAreCloseOnExec) {
  WriteFileOrDie(Path("f"), "data");
  const std::set<int> before = OpenDescriptors();
  std::unique_ptr<SequentialFile> seq;
  ASSERT_OK(fs_->NewSequentialFile(Path("f"), FileOptions(), &seq));
  std::unique_ptr<RandomAccessFile> raf;
  ASSERT_OK(fs_->NewRandomAccessFile(Path("f"), FileOptions(), &raf));
  std::unique_ptr<WritableFile> w1, w2;
  ASSERT_OK(fs_->NewWritableFile(Path("w1"), FileOptions(), &w1));
  FileOptions mmap_opts;
  mmap_opts.use_mmap_writes = true;
  ASSERT_OK(fs_->NewWritableFile(Path("w2"), mmap_opts, &w2));
  std::unique_ptr<Directory> dir;
  ASSERT_OK(fs_->NewDirectory(tmp_.path(), &dir));
  std::unique_ptr<FileLock> lock;
  ASSERT_OK(fs_->LockFile(Path("LOCK"), &lock));

  int new_fds = 0;
  for (int fd : OpenDescriptors()) {
    if (before.count(fd) != 0) continue;
    new_fds++;
    EXPECT_TRUE(fcntl(fd, F_GETFD) & FD_CLOEXEC) << "fd " << fd;
  }
  EXPECT_EQ(6, new_fds);
  ASSERT_OK(fs_->UnlockFile(std::move(lock)));
  ASSERT_OK(w1->Close());
  ASSERT_OK(w2->Close());
}

TEST_F(PosixFileSystemTest, MmapReadsReturnViewsOfTheFile) {
  WriteFileOrDie(Path("f"), "0123456789");
  FileOptions opts;
  opts.use_mmap_reads = true;
  std::unique_ptr<RandomAccessFile> raf;
  ASSERT_OK(fs_->NewRandomAccessFile(Path("f"), opts, &raf));
  char scratch[16];
  Slice result;
  ASSERT_OK(raf->Read(2, 5, &result, scratch));
  EXPECT_EQ("23456", result.ToString());
  EXPECT_FALSE(result.data() >= scratch && result.data() < scratch + sizeof(scratch));
  ASSERT_OK(raf->Prefetch(0, 10));
}

}  // namespace
}  // namespace strata::test
