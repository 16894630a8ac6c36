#include "env/checksumming_writable_file.h"

#include <memory>
#include <string>

#include "test_util/testutil.h"

namespace strata {
namespace {

std::string ChecksumOf(const std::string& data) {
  std::unique_ptr<FileChecksumGenerator> gen =
      GetFileChecksumGenCrc32cFactory()->CreateFileChecksumGenerator(FileChecksumGenContext());
  gen->Update(data.data(), data.size());
  gen->Finalize();
  return gen->GetChecksum();
}

// Takes `capacity` bytes, then fails every Append (a full disk).
class FillingFile final : public WritableFile {
 public:
  explicit FillingFile(size_t capacity) : capacity_(capacity) {}
  Status Append(const Slice& data) override {
    if (data_.size() + data.size() > capacity_) return Status::NoSpace("test file full");
    data_.append(data.data(), data.size());
    return Status::OK();
  }
  Status Flush() override { return Status::OK(); }
  Status Sync() override { return Status::OK(); }
  Status Close() override { return Status::OK(); }
  uint64_t GetFileSize() const override { return data_.size(); }

 private:
  const size_t capacity_;
  std::string data_;
};

TEST(ChecksummingWritableFileTest, GeneratorSeesEveryByteTheFileTook) {
  std::shared_ptr<FileSystem> fs = NewMemFileSystem();
  std::unique_ptr<WritableFile> base;
  ASSERT_OK(fs->NewWritableFile("/f", FileOptions(), &base));
  std::unique_ptr<FileChecksumGenerator> gen =
      GetFileChecksumGenCrc32cFactory()->CreateFileChecksumGenerator(FileChecksumGenContext());
  std::unique_ptr<WritableFile> file = NewChecksummingWritableFile(std::move(base), gen.get());
  std::string all;
  for (int i = 0; i < 100; ++i) {
    const std::string piece(static_cast<size_t>(i * 37 % 501), static_cast<char>('a' + i % 26));
    ASSERT_OK(file->Append(piece));
    all += piece;
  }
  ASSERT_OK(file->Flush());
  ASSERT_OK(file->Sync());
  EXPECT_EQ(all.size(), file->GetFileSize());
  ASSERT_OK(file->Close());
  gen->Finalize();
  EXPECT_EQ(ChecksumOf(all), gen->GetChecksum());
  // And the file holds those bytes.
  std::string read;
  ASSERT_OK(ReadFileToString(fs.get(), "/f", &read));
  EXPECT_EQ(all, read);
}

TEST(ChecksummingWritableFileTest, FailedAppendIsNotFed) {
  std::unique_ptr<FileChecksumGenerator> gen =
      GetFileChecksumGenCrc32cFactory()->CreateFileChecksumGenerator(FileChecksumGenContext());
  std::unique_ptr<WritableFile> file =
      NewChecksummingWritableFile(std::make_unique<FillingFile>(10), gen.get());
  ASSERT_OK(file->Append("12345678"));
  Status s = file->Append("abc");
  EXPECT_TRUE(s.IsNoSpace()) << s.ToString();
  ASSERT_OK(file->Append("9"));
  EXPECT_EQ(9u, file->GetFileSize());
  gen->Finalize();
  EXPECT_EQ(ChecksumOf("123456789"), gen->GetChecksum());
}

}  // namespace
}  // namespace strata
