// The FileSystem conformance suite: the semantics every FileSystem must share
// (strata/env.h), written once and instantiated by posix_file_system_test.cc
// and mem_file_system_test.cc with their own file system:
//
//   INSTANTIATE_TEST_SUITE_P(Posix, FileSystemTest,
//                            testing::Values(FileSystemTestParam{...}));
//
// Each test gets a fresh, empty directory `root_` on the file system under
// test. Test-only header; include it from exactly one test file per binary.
// Thread-safety: not applicable (test code).
#pragma once

#include <algorithm>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "strata/env.h"
#include "test_util/testutil.h"

namespace strata::test {

struct FileSystemTestParam {
  const char* name;
  std::function<std::shared_ptr<FileSystem>()> make;
  bool on_disk;  // root_ is a real TempDir
};

inline std::string FileSystemTestName(const testing::TestParamInfo<FileSystemTestParam>& info) {
  return info.param.name;
}

class FileSystemTest : public testing::TestWithParam<FileSystemTestParam> {
 protected:
  void SetUp() override {
    fs_ = GetParam().make();
    if (GetParam().on_disk) {
      tmp_ = std::make_unique<TempDir>("strata-fs");
      root_ = tmp_->path();
    } else {
      root_ = "/fs-test";
    }
    ASSERT_OK(fs_->CreateDirIfMissing(root_));
  }

  std::string Path(const std::string& name) const { return root_ + "/" + name; }

  void Write(const std::string& name, const std::string& data,
             const FileOptions& opts = FileOptions()) {
    std::unique_ptr<WritableFile> file;
    ASSERT_OK(fs_->NewWritableFile(Path(name), opts, &file));
    ASSERT_OK(file->Append(data));
    ASSERT_OK(file->Close());
  }

  std::string Read(const std::string& name) {
    std::string data;
    Status s = ReadFileToString(fs_.get(), Path(name), &data);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return data;
  }

  std::vector<std::string> Children(const std::string& dir) {
    std::vector<std::string> names;
    Status s = fs_->GetChildren(dir, &names);
    EXPECT_TRUE(s.ok()) << s.ToString();
    std::sort(names.begin(), names.end());
    return names;
  }

  // The ways a file can be opened for writing; file systems that ignore an
  // option must still behave the same.
  static std::vector<FileOptions> WriteOptionVariants() {
    std::vector<FileOptions> variants(7);
    variants[1].writable_file_max_buffer_size = 1000;
    variants[2].writable_file_max_buffer_size = 0;
    variants[3].preallocation_block_size = 8192;
    variants[4].use_mmap_writes = true;  // default 4 MiB chunks
    variants[5].use_mmap_writes = true;
    variants[5].preallocation_block_size = 4096;
    variants[6].use_mmap_writes = true;
    variants[6].preallocation_block_size = 3 * 4096 + 1;  // rounded up to pages
    return variants;
  }

  std::shared_ptr<FileSystem> fs_;
  std::unique_ptr<TempDir> tmp_;
  std::string root_;
};

TEST_P(FileSystemTest, WriteThenReadBackEveryWay) {
  std::mt19937_64 rng(RandomSeed());
  const std::vector<FileOptions> variants = WriteOptionVariants();
  for (size_t v = 0; v < variants.size(); v++) {
    SCOPED_TRACE("write option variant " + std::to_string(v));
    const std::string fname = Path("data" + std::to_string(v));
    std::string expected;
    std::unique_ptr<WritableFile> file;
    ASSERT_OK(fs_->NewWritableFile(fname, variants[v], &file));
    for (int i = 0; i < 60; i++) {
      const size_t n = (i % 10 == 9) ? rng() % 20000 : rng() % 300;
      const std::string piece = RandomBytes(&rng, n);
      ASSERT_OK(file->Append(piece));
      expected += piece;
      ASSERT_EQ(expected.size(), file->GetFileSize());
      if (i % 7 == 0) ASSERT_OK(file->Flush());
      if (i % 23 == 0) ASSERT_OK(file->Sync());
    }
    ASSERT_OK(file->Fsync());
    ASSERT_OK(file->Close());
    ASSERT_OK(file->Close());  // a second Close is harmless
    file.reset();

    uint64_t size = 0;
    ASSERT_OK(fs_->GetFileSize(fname, &size));
    ASSERT_EQ(expected.size(), size);

    // Sequentially, in pieces of random size.
    std::unique_ptr<SequentialFile> seq;
    ASSERT_OK(fs_->NewSequentialFile(fname, FileOptions(), &seq));
    std::string got;
    std::string scratch(30000, '\0');
    while (true) {
      const size_t n = 1 + rng() % scratch.size();
      Slice piece;
      ASSERT_OK(seq->Read(n, &piece, scratch.data()));
      got.append(piece.data(), piece.size());
      if (piece.size() < n) break;
    }
    ASSERT_TRUE(got == expected);

    // At random offsets, through pread and through a map.
    for (bool mmap_reads : {false, true}) {
      FileOptions ropts;
      ropts.use_mmap_reads = mmap_reads;
      std::unique_ptr<RandomAccessFile> raf;
      ASSERT_OK(fs_->NewRandomAccessFile(fname, ropts, &raf));
      for (int i = 0; i < 50; i++) {
        const uint64_t offset = rng() % (expected.size() + 1);
        const size_t n = rng() % 5000;
        Slice piece;
        ASSERT_OK(raf->Read(offset, n, &piece, scratch.data()));
        ASSERT_EQ(expected.substr(offset, n), piece.ToString());
      }
    }
  }
}

TEST_P(FileSystemTest, ReopenAppendsAtTheEnd) {
  for (const FileOptions& opts : WriteOptionVariants()) {
    Write("f", "hello ", opts);
    std::unique_ptr<WritableFile> file;
    ASSERT_OK(fs_->ReopenWritableFile(Path("f"), opts, &file));
    EXPECT_EQ(6u, file->GetFileSize());
    ASSERT_OK(file->Append("world"));
    EXPECT_EQ(11u, file->GetFileSize());
    ASSERT_OK(file->Close());
    EXPECT_EQ("hello world", Read("f"));
  }
  // A missing file is created.
  std::unique_ptr<WritableFile> file;
  ASSERT_OK(fs_->ReopenWritableFile(Path("new"), FileOptions(), &file));
  ASSERT_OK(file->Append("x"));
  ASSERT_OK(file->Close());
  EXPECT_EQ("x", Read("new"));
}

TEST_P(FileSystemTest, NewWritableFileTruncates) {
  Write("f", "a long first version");
  Write("f", "short");
  EXPECT_EQ("short", Read("f"));
}

TEST_P(FileSystemTest, ReadingPastEndGivesShortRead) {
  Write("f", "hello");
  char scratch[100];
  Slice result;
  std::unique_ptr<RandomAccessFile> raf;
  ASSERT_OK(fs_->NewRandomAccessFile(Path("f"), FileOptions(), &raf));
  ASSERT_OK(raf->Read(3, 10, &result, scratch));
  EXPECT_EQ("lo", result.ToString());
  ASSERT_OK(raf->Read(5, 10, &result, scratch));
  EXPECT_EQ("", result.ToString());
  ASSERT_OK(raf->Read(1000, 10, &result, scratch));
  EXPECT_EQ("", result.ToString());

  std::unique_ptr<SequentialFile> seq;
  ASSERT_OK(fs_->NewSequentialFile(Path("f"), FileOptions(), &seq));
  ASSERT_OK(seq->Skip(1));
  ASSERT_OK(seq->Read(2, &result, scratch));
  EXPECT_EQ("el", result.ToString());
  ASSERT_OK(seq->Read(100, &result, scratch));
  EXPECT_EQ("lo", result.ToString());
  ASSERT_OK(seq->Read(100, &result, scratch));
  EXPECT_EQ("", result.ToString());
}

TEST_P(FileSystemTest, EmptyFile) {
  Write("empty", "");
  uint64_t size = 1;
  ASSERT_OK(fs_->GetFileSize(Path("empty"), &size));
  EXPECT_EQ(0u, size);
  for (bool mmap_reads : {false, true}) {
    FileOptions opts;
    opts.use_mmap_reads = mmap_reads;
    std::unique_ptr<RandomAccessFile> raf;
    ASSERT_OK(fs_->NewRandomAccessFile(Path("empty"), opts, &raf));
    char scratch[10];
    Slice result;
    ASSERT_OK(raf->Read(0, 10, &result, scratch));
    EXPECT_TRUE(result.empty());
  }
  EXPECT_EQ("", Read("empty"));
}

TEST_P(FileSystemTest, RenameReplacesTarget) {
  Write("src", "new contents");
  Write("dst", "old contents");
  ASSERT_OK(fs_->RenameFile(Path("src"), Path("dst")));
  EXPECT_EQ("new contents", Read("dst"));
  EXPECT_TRUE(fs_->FileExists(Path("src")).IsNotFound());
  EXPECT_EQ(std::vector<std::string>({"dst"}), Children(root_));

  Status s = fs_->RenameFile(Path("missing"), Path("dst"));
  EXPECT_TRUE(s.IsPathNotFound()) << s.ToString();
  EXPECT_EQ("new contents", Read("dst"));
}

TEST_P(FileSystemTest, GetChildrenListsNamesOnly) {
  EXPECT_TRUE(Children(root_).empty());
  Write("b", "1");
  Write("a", "2");
  ASSERT_OK(fs_->CreateDir(Path("sub")));
  Write("sub/inner", "3");
  EXPECT_EQ(std::vector<std::string>({"a", "b", "sub"}), Children(root_));
  EXPECT_EQ(std::vector<std::string>({"inner"}), Children(Path("sub")));
  EXPECT_EQ(std::vector<std::string>({"inner"}), Children(Path("sub") + "/"));

  std::vector<std::string> names;
  Status s = fs_->GetChildren(Path("nosuchdir"), &names);
  EXPECT_TRUE(s.IsPathNotFound()) << s.ToString();
  s = fs_->GetChildren(Path("a"), &names);  // a file
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find(Path("a"))) << s.ToString();
}

TEST_P(FileSystemTest, DeleteFile) {
  Write("f", "x");
  ASSERT_OK(fs_->FileExists(Path("f")));
  ASSERT_OK(fs_->DeleteFile(Path("f")));
  EXPECT_TRUE(fs_->FileExists(Path("f")).IsNotFound());
  EXPECT_TRUE(Children(root_).empty());
  Status s = fs_->DeleteFile(Path("f"));
  EXPECT_TRUE(s.IsPathNotFound()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find(Path("f"))) << s.ToString();
}

TEST_P(FileSystemTest, OpenFileSurvivesDelete) {
  Write("f", "still here");
  std::unique_ptr<RandomAccessFile> raf;
  ASSERT_OK(fs_->NewRandomAccessFile(Path("f"), FileOptions(), &raf));
  std::unique_ptr<SequentialFile> seq;
  ASSERT_OK(fs_->NewSequentialFile(Path("f"), FileOptions(), &seq));
  ASSERT_OK(fs_->DeleteFile(Path("f")));
  Write("f", "a different file");  // a new file under the same name
  char scratch[100];
  Slice result;
  ASSERT_OK(raf->Read(0, 100, &result, scratch));
  EXPECT_EQ("still here", result.ToString());
  ASSERT_OK(seq->Read(100, &result, scratch));
  EXPECT_EQ("still here", result.ToString());
}

TEST_P(FileSystemTest, FileExistsCodes) {
  Write("f", "x");
  ASSERT_OK(fs_->CreateDir(Path("d")));
  EXPECT_OK(fs_->FileExists(Path("f")));
  EXPECT_OK(fs_->FileExists(Path("d")));
  EXPECT_OK(fs_->FileExists(root_));
  EXPECT_TRUE(fs_->FileExists(Path("missing")).IsNotFound());
  EXPECT_TRUE(fs_->FileExists(Path("missing/below")).IsNotFound());
  EXPECT_TRUE(fs_->FileExists(Path("f/below")).IsNotFound());
}

TEST_P(FileSystemTest, Directories) {
  ASSERT_OK(fs_->CreateDir(Path("d")));
  Status s = fs_->CreateDir(Path("d"));
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find(Path("d"))) << s.ToString();
  EXPECT_OK(fs_->CreateDirIfMissing(Path("d")));
  EXPECT_OK(fs_->CreateDirIfMissing(Path("d2")));

  bool is_dir = false;
  ASSERT_OK(fs_->IsDirectory(Path("d"), &is_dir));
  EXPECT_TRUE(is_dir);
  Write("f", "x");
  ASSERT_OK(fs_->IsDirectory(Path("f"), &is_dir));
  EXPECT_FALSE(is_dir);
  s = fs_->IsDirectory(Path("missing"), &is_dir);
  EXPECT_TRUE(s.IsPathNotFound()) << s.ToString();

  std::unique_ptr<Directory> dir;
  ASSERT_OK(fs_->NewDirectory(Path("d"), &dir));
  EXPECT_OK(dir->Fsync());
  s = fs_->NewDirectory(Path("missing"), &dir);
  EXPECT_TRUE(s.IsPathNotFound()) << s.ToString();

  Write("d/inner", "x");
  s = fs_->DeleteDir(Path("d"));
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  ASSERT_OK(fs_->DeleteFile(Path("d/inner")));
  ASSERT_OK(fs_->DeleteDir(Path("d")));
  EXPECT_TRUE(fs_->FileExists(Path("d")).IsNotFound());
  s = fs_->DeleteDir(Path("d"));
  EXPECT_TRUE(s.IsPathNotFound()) << s.ToString();
}

TEST_P(FileSystemTest, DirectoryThatIsAFile) {
  Write("f", "x");
  Status s = fs_->CreateDirIfMissing(Path("f"));
  EXPECT_FALSE(s.ok());
  EXPECT_NE(std::string::npos, s.ToString().find(Path("f"))) << s.ToString();
  s = fs_->CreateDir(Path("f"));
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  s = fs_->CreateDir(Path("f/sub"));
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  std::unique_ptr<WritableFile> file;
  s = fs_->NewWritableFile(Path("f/below"), FileOptions(), &file);
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find(Path("f/below"))) << s.ToString();
  s = fs_->DeleteDir(Path("f"));
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  // And a file that is a directory.
  ASSERT_OK(fs_->CreateDir(Path("d")));
  s = fs_->NewWritableFile(Path("d"), FileOptions(), &file);
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  s = fs_->DeleteFile(Path("d"));
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
}

TEST_P(FileSystemTest, MissingFileErrorsNameThePath) {
  const std::string missing = Path("missing");
  std::unique_ptr<SequentialFile> seq;
  Status s = fs_->NewSequentialFile(missing, FileOptions(), &seq);
  EXPECT_TRUE(s.IsPathNotFound()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find(missing + ": No such file or directory"))
      << s.ToString();
  std::unique_ptr<RandomAccessFile> raf;
  s = fs_->NewRandomAccessFile(missing, FileOptions(), &raf);
  EXPECT_TRUE(s.IsPathNotFound()) << s.ToString();
  uint64_t size;
  s = fs_->GetFileSize(missing, &size);
  EXPECT_TRUE(s.IsPathNotFound()) << s.ToString();
  s = fs_->Truncate(missing, 0);
  EXPECT_TRUE(s.IsPathNotFound()) << s.ToString();
  std::string data;
  s = ReadFileToString(fs_.get(), missing, &data);
  EXPECT_TRUE(s.IsPathNotFound()) << s.ToString();
}

TEST_P(FileSystemTest, Truncate) {
  Write("f", "0123456789");
  ASSERT_OK(fs_->Truncate(Path("f"), 4));
  EXPECT_EQ("0123", Read("f"));
  ASSERT_OK(fs_->Truncate(Path("f"), 6));
  EXPECT_EQ(std::string("0123\0\0", 6), Read("f"));
}

TEST_P(FileSystemTest, LockTwiceFailsNamingTheFile) {
  const std::string lock_path = Path("LOCK");
  std::unique_ptr<FileLock> lock;
  ASSERT_OK(fs_->LockFile(lock_path, &lock));
  ASSERT_NE(nullptr, lock);
  EXPECT_OK(fs_->FileExists(lock_path));  // LockFile creates the file

  std::unique_ptr<FileLock> second;
  Status s = fs_->LockFile(lock_path, &second);
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find(lock_path)) << s.ToString();
  EXPECT_EQ(nullptr, second);

  // Another file locks independently.
  std::unique_ptr<FileLock> other;
  ASSERT_OK(fs_->LockFile(Path("LOCK2"), &other));
  ASSERT_OK(fs_->UnlockFile(std::move(other)));

  ASSERT_OK(fs_->UnlockFile(std::move(lock)));
  ASSERT_OK(fs_->LockFile(lock_path, &lock));
  ASSERT_OK(fs_->UnlockFile(std::move(lock)));
}

TEST_P(FileSystemTest, WriteAndReadWholeFileHelpers) {
  std::mt19937_64 rng(RandomSeed());
  const std::string data = RandomBytes(&rng, 300000);  // several read chunks
  ASSERT_OK(WriteStringToFile(fs_.get(), data, Path("f"), /*should_sync=*/true));
  std::string got;
  ASSERT_OK(ReadFileToString(fs_.get(), Path("f"), &got));
  EXPECT_TRUE(got == data);
  ASSERT_OK(WriteStringToFile(fs_.get(), "", Path("f")));
  ASSERT_OK(ReadFileToString(fs_.get(), Path("f"), &got));
  EXPECT_EQ("", got);
}

TEST_P(FileSystemTest, NewLoggerWritesLines) {
  std::shared_ptr<Logger> logger;
  ASSERT_OK(fs_->NewLogger(Path("LOG"), &logger));
  Log(logger.get(), "first %d", 1);
  Log(InfoLogLevel::kWarn, logger.get(), "second %s", "line");
  const std::string contents = Read("LOG");  // each line is flushed at once
  EXPECT_NE(std::string::npos, contents.find(" first 1\n")) << contents;
  EXPECT_NE(std::string::npos, contents.find(" [WARN] second line\n")) << contents;
  EXPECT_EQ(2, std::count(contents.begin(), contents.end(), '\n'));
  ASSERT_OK(logger->Close());
}

TEST_P(FileSystemTest, ConcurrentRandomReads) {
  std::mt19937_64 rng(RandomSeed());
  const std::string data = RandomBytes(&rng, 100000);
  Write("f", data);
  for (bool mmap_reads : {false, true}) {
    FileOptions opts;
    opts.use_mmap_reads = mmap_reads;
    std::unique_ptr<RandomAccessFile> raf;
    ASSERT_OK(fs_->NewRandomAccessFile(Path("f"), opts, &raf));
    std::vector<std::thread> threads;
    std::vector<int> failures(4, 0);
    for (int t = 0; t < 4; t++) {
      const uint64_t seed = rng();
      threads.emplace_back([&, t, seed] {
        std::mt19937_64 local(seed);
        std::string scratch(2000, '\0');
        for (int i = 0; i < 2000; i++) {
          const uint64_t offset = local() % data.size();
          const size_t n = local() % scratch.size();
          Slice piece;
          if (!raf->Read(offset, n, &piece, scratch.data()).ok() ||
              piece != Slice(data.substr(offset, n))) {
            failures[t]++;
          }
        }
      });
    }
    for (auto& th : threads) th.join();
    EXPECT_EQ(std::vector<int>(4, 0), failures);
  }
}

}  // namespace strata::test
