// Direct I/O (O_DIRECT) in the POSIX file system: aligned reads that copy
// the wanted range out, aligned whole-page writes with the tail page
// rewritten as it grows and the file cut to its size at Close, and a clean
// refusal where the file system does not take O_DIRECT.
//
// The files live on a real disk (/var/tmp, not TEST_TMPDIR, which may be a
// tmpfs), since that is where O_DIRECT means something.
#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <random>
#include <string>

#include "env/posix_file_system.h"
#include "gtest/gtest.h"
#include "test_util/testutil.h"

namespace strata::test {
namespace {

// A fresh directory under `root`, removed at the end.
class ScopedDir {
 public:
  explicit ScopedDir(const std::string& root) {
    static int counter = 0;
    path_ = root + "/strata-direct-" + std::to_string(getpid()) + "-" + std::to_string(counter++);
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~ScopedDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Whether the kernel takes O_DIRECT for a new file in dir.
bool KernelTakesODirect(const std::string& dir) {
  const std::string probe = dir + "/probe";
  const int fd = open(probe.c_str(), O_CREAT | O_WRONLY | O_DIRECT | O_CLOEXEC, 0644);
  if (fd >= 0) close(fd);
  unlink(probe.c_str());
  return fd >= 0;
}

class PosixDirectIOTest : public testing::Test {
 protected:
  void SetUp() override {
    if (!KernelTakesODirect(dir_.path())) GTEST_SKIP() << dir_.path() << " refuses O_DIRECT";
  }
  std::string Path(const std::string& name) const { return dir_.path() + "/" + name; }

  FileSystem* fs_ = FileSystem::Default().get();
  ScopedDir dir_{"/var/tmp"};
};

TEST_F(PosixDirectIOTest, WritesAreExactAfterClose) {
  const uint64_t seed = RandomSeed();
  std::mt19937_64 rng(seed);
  for (size_t buffer : {size_t{1}, size_t{4096}, size_t{10000}, size_t{1} << 20}) {
    SCOPED_TRACE("writable_file_max_buffer_size " + std::to_string(buffer));
    FileOptions opts;
    opts.use_direct_writes = true;
    opts.writable_file_max_buffer_size = buffer;
    const std::string fname = Path("w" + std::to_string(buffer));
    std::unique_ptr<WritableFile> file;
    ASSERT_OK(fs_->NewWritableFile(fname, opts, &file));
    std::string model;
    for (int i = 0; i < 200; ++i) {
      const size_t n = rng() % 3 == 0 ? rng() % 20000 : rng() % 700;
      const std::string data = RandomBytes(&rng, n);
      ASSERT_OK(file->Append(data));
      model += data;
      ASSERT_EQ(model.size(), file->GetFileSize());
      switch (rng() % 8) {
        case 0:
          ASSERT_OK(file->Flush());
          break;
        case 1:
          ASSERT_OK(file->Sync());
          break;
        default:
          break;
      }
      if (i % 50 == 49) {
        // After a flush the file holds every appended byte (the last page
        // padded with zeros until Close).
        ASSERT_OK(file->Flush());
        std::string on_disk;
        ASSERT_OK(ReadFileToString(fs_, fname, &on_disk));
        ASSERT_GE(on_disk.size(), model.size());
        ASSERT_EQ(model, on_disk.substr(0, model.size()));
        ASSERT_EQ(std::string(on_disk.size() - model.size(), '\0'), on_disk.substr(model.size()));
      }
    }
    ASSERT_OK(file->Close());
    std::string on_disk;
    ASSERT_OK(ReadFileToString(fs_, fname, &on_disk));
    ASSERT_EQ(model.size(), on_disk.size());
    ASSERT_TRUE(model == on_disk);
  }
}

TEST_F(PosixDirectIOTest, ReadsAtAnyOffsetAndLength) {
  const uint64_t seed = RandomSeed();
  std::mt19937_64 rng(seed);
  const std::string fname = Path("r");
  const std::string model = RandomBytes(&rng, 3 * 4096 * 7 + 123);
  ASSERT_OK(WriteStringToFile(fs_, model, fname));
  FileOptions opts;
  opts.use_direct_reads = true;
  std::unique_ptr<RandomAccessFile> file;
  ASSERT_OK(fs_->NewRandomAccessFile(fname, opts, &file));
  std::string scratch(70000, 'x');
  for (int i = 0; i < 500; ++i) {
    const uint64_t offset = rng() % (model.size() + 100);
    const size_t n = rng() % 3 == 0 ? (rng() % 8) * 4096 : rng() % 9000;
    Slice result;
    ASSERT_OK(file->Read(offset, n, &result, scratch.data()));
    const std::string want = offset >= model.size() ? "" : model.substr(offset, n);
    ASSERT_EQ(want.size(), result.size()) << "offset " << offset << " n " << n;
    ASSERT_TRUE(want == result.ToString()) << "offset " << offset << " n " << n;
  }
  // Aligned offset, length and buffer: read in place.
  char* aligned = static_cast<char*>(aligned_alloc(4096, 8192));
  Slice result;
  ASSERT_OK(file->Read(4096, 8192, &result, aligned));
  EXPECT_EQ(aligned, result.data());
  EXPECT_TRUE(model.substr(4096, 8192) == result.ToString());
  free(aligned);
}

TEST_F(PosixDirectIOTest, DirectlyWrittenFileReadsBackDirectly) {
  FileOptions opts;
  opts.use_direct_writes = true;
  opts.use_direct_reads = true;
  std::unique_ptr<WritableFile> w;
  ASSERT_OK(fs_->NewWritableFile(Path("rw"), opts, &w));
  std::string model;
  for (int i = 0; i < 1000; ++i) model += "record " + std::to_string(i) + ";";
  ASSERT_OK(w->Append(model));
  ASSERT_OK(w->Close());
  std::unique_ptr<RandomAccessFile> r;
  ASSERT_OK(fs_->NewRandomAccessFile(Path("rw"), opts, &r));
  std::string scratch(model.size() + 10, '\0');
  Slice result;
  ASSERT_OK(r->Read(0, model.size() + 10, &result, scratch.data()));
  EXPECT_EQ(model, result.ToString());
}

// Where the kernel refuses O_DIRECT (tmpfs before Linux 6.6: EINVAL) the open
// is an InvalidArgument naming the option and the file; where it takes it,
// the file works. /dev/shm is a tmpfs.
TEST(PosixDirectIORefusal, TmpfsRefusesCleanlyOrWorks) {
  if (!std::filesystem::is_directory("/dev/shm")) GTEST_SKIP() << "no /dev/shm";
  ScopedDir dir("/dev/shm");
  FileSystem* fs = FileSystem::Default().get();
  const std::string fname = dir.path() + "/f";
  ASSERT_OK(WriteStringToFile(fs, "some bytes", fname));
  const bool takes = KernelTakesODirect(dir.path());
  FileOptions ropts;
  ropts.use_direct_reads = true;
  std::unique_ptr<RandomAccessFile> r;
  Status s = fs->NewRandomAccessFile(fname, ropts, &r);
  FileOptions wopts;
  wopts.use_direct_writes = true;
  std::unique_ptr<WritableFile> w;
  Status ws = fs->NewWritableFile(dir.path() + "/g", wopts, &w);
  if (takes) {
    ASSERT_OK(s);
    char scratch[64];
    Slice result;
    ASSERT_OK(r->Read(0, sizeof(scratch), &result, scratch));
    EXPECT_EQ("some bytes", result.ToString());
    ASSERT_OK(ws);
    ASSERT_OK(w->Append("abc"));
    ASSERT_OK(w->Close());
    std::string back;
    ASSERT_OK(ReadFileToString(fs, dir.path() + "/g", &back));
    EXPECT_EQ("abc", back);
  } else {
    EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
    EXPECT_NE(std::string::npos, s.ToString().find("use_direct_reads")) << s.ToString();
    EXPECT_NE(std::string::npos, s.ToString().find(fname)) << s.ToString();
    EXPECT_EQ(nullptr, r);
    EXPECT_TRUE(ws.IsInvalidArgument()) << ws.ToString();
    EXPECT_NE(std::string::npos, ws.ToString().find("use_direct_io_for_flush_and_compaction"));
  }
}

// The in-memory file system ignores the direct I/O flags.
TEST(MemFileSystemDirectIO, FlagsAreIgnored) {
  std::shared_ptr<FileSystem> fs = NewMemFileSystem();
  FileOptions opts;
  opts.use_direct_writes = true;
  opts.use_direct_reads = true;
  std::unique_ptr<WritableFile> w;
  ASSERT_OK(fs->NewWritableFile("/m", opts, &w));
  ASSERT_OK(w->Append("hello"));
  ASSERT_OK(w->Close());
  std::unique_ptr<RandomAccessFile> r;
  ASSERT_OK(fs->NewRandomAccessFile("/m", opts, &r));
  char scratch[8];
  Slice result;
  ASSERT_OK(r->Read(1, 8, &result, scratch));
  EXPECT_EQ("ello", result.ToString());
}

}  // namespace
}  // namespace strata::test
