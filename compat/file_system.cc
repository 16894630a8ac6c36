// compat/file_system.cc: rocksdb::FileSystem (file_system.h) and the file
// bridges of env_internal.h: RocksDB's FileSystem over Strata's, Strata's
// over RocksDB's (the engine's view of a user file system), a FileSystem
// over an Env's file methods, and Env-level files over FileSystem files.
#include "rocksdb/file_system.h"

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <string>
#include <utility>

#include "compat/env_internal.h"
#include "rocksdb/env.h"
#include "strata/env.h"

namespace rocksdb {
namespace compat {

::strata::FileOptions ToStrataFileOptions(const EnvOptions& in) {
  ::strata::FileOptions o;
  o.use_mmap_reads = in.use_mmap_reads;
  o.use_mmap_writes = in.use_mmap_writes;
  o.use_direct_reads = in.use_direct_reads;
  o.use_direct_writes = in.use_direct_writes;
  o.writable_file_max_buffer_size = in.writable_file_max_buffer_size;
  o.strict_bytes_per_sync = in.strict_bytes_per_sync;
  return o;
}

FileOptions FromStrataFileOptions(const ::strata::FileOptions& in) {
  FileOptions o;
  o.use_mmap_reads = in.use_mmap_reads;
  o.use_mmap_writes = in.use_mmap_writes;
  o.use_direct_reads = in.use_direct_reads;
  o.use_direct_writes = in.use_direct_writes;
  o.writable_file_max_buffer_size = in.writable_file_max_buffer_size;
  o.strict_bytes_per_sync = in.strict_bytes_per_sync;
  return o;
}

std::string FormatTime(uint64_t seconds) {
  const time_t t = static_cast<time_t>(seconds);
  struct tm parts;
  localtime_r(&t, &parts);
  char buf[64];
  snprintf(buf, sizeof(buf), "%04d/%02d/%02d-%02d:%02d:%02d ", parts.tm_year + 1900,
           parts.tm_mon + 1, parts.tm_mday, parts.tm_hour, parts.tm_min, parts.tm_sec);
  return buf;
}

std::string TestDirectory() {
  const char* dir = getenv("TEST_TMPDIR");
  if (dir != nullptr && dir[0] != '\0') return dir;
  return "/tmp/rocksdbtest-" + std::to_string(static_cast<int>(geteuid()));
}

namespace {

// ---- RocksDB's file classes over Strata's ----

class StrataSequentialFile : public FSSequentialFile {
 public:
  explicit StrataSequentialFile(std::unique_ptr<::strata::SequentialFile> f) : f_(std::move(f)) {}
  IOStatus Read(size_t n, const IOOptions&, Slice* result, char* scratch,
                IODebugContext*) override {
    return f_->Read(n, result, scratch);
  }
  IOStatus Skip(uint64_t n) override { return f_->Skip(n); }

 private:
  std::unique_ptr<::strata::SequentialFile> f_;
};

class StrataRandomAccessFile : public FSRandomAccessFile {
 public:
  explicit StrataRandomAccessFile(std::unique_ptr<::strata::RandomAccessFile> f)
      : f_(std::move(f)) {}
  IOStatus Read(uint64_t offset, size_t n, const IOOptions&, Slice* result, char* scratch,
                IODebugContext*) const override {
    return f_->Read(offset, n, result, scratch);
  }
  IOStatus Prefetch(uint64_t offset, size_t n, const IOOptions&, IODebugContext*) override {
    return f_->Prefetch(offset, n);
  }

 private:
  std::unique_ptr<::strata::RandomAccessFile> f_;
};

class StrataWritableFile : public FSWritableFile {
 public:
  StrataWritableFile(std::unique_ptr<::strata::WritableFile> f, const FileOptions& options)
      : FSWritableFile(options), f_(std::move(f)) {}
  IOStatus Append(const Slice& data, const IOOptions&, IODebugContext*) override {
    return f_->Append(data);
  }
  IOStatus Close(const IOOptions&, IODebugContext*) override { return f_->Close(); }
  IOStatus Flush(const IOOptions&, IODebugContext*) override { return f_->Flush(); }
  IOStatus Sync(const IOOptions&, IODebugContext*) override { return f_->Sync(); }
  IOStatus Fsync(const IOOptions&, IODebugContext*) override { return f_->Fsync(); }
  uint64_t GetFileSize(const IOOptions&, IODebugContext*) override { return f_->GetFileSize(); }
  IOStatus RangeSync(uint64_t offset, uint64_t nbytes, const IOOptions&, IODebugContext*) override {
    return f_->RangeSync(offset, nbytes);
  }
  IOStatus Allocate(uint64_t offset, uint64_t len, const IOOptions&, IODebugContext*) override {
    return f_->Allocate(offset, len);
  }

 private:
  std::unique_ptr<::strata::WritableFile> f_;
};

// Strata's RandomRWFile writes in place and cannot read back.
class StrataRandomRWFile : public FSRandomRWFile {
 public:
  explicit StrataRandomRWFile(std::unique_ptr<::strata::RandomRWFile> f) : f_(std::move(f)) {}
  IOStatus Write(uint64_t offset, const Slice& data, const IOOptions&, IODebugContext*) override {
    return f_->Write(offset, data);
  }
  IOStatus Read(uint64_t, size_t, const IOOptions&, Slice* result, char*,
                IODebugContext*) const override {
    *result = Slice();
    return IOStatus::NotSupported("RandomRWFile::Read is not supported by Strata's file systems");
  }
  IOStatus Flush(const IOOptions&, IODebugContext*) override { return IOStatus::OK(); }
  IOStatus Sync(const IOOptions&, IODebugContext*) override { return f_->Sync(); }
  IOStatus Fsync(const IOOptions&, IODebugContext*) override { return f_->Fsync(); }
  IOStatus Close(const IOOptions&, IODebugContext*) override { return f_->Close(); }

 private:
  std::unique_ptr<::strata::RandomRWFile> f_;
};

class StrataDirectory : public FSDirectory {
 public:
  explicit StrataDirectory(std::unique_ptr<::strata::Directory> d) : d_(std::move(d)) {}
  IOStatus Fsync(const IOOptions&, IODebugContext*) override { return d_->Fsync(); }
  IOStatus Close(const IOOptions&, IODebugContext*) override {
    d_.reset();
    return IOStatus::OK();
  }

 private:
  std::unique_ptr<::strata::Directory> d_;
};

class StrataFileLock : public FileLock {
 public:
  explicit StrataFileLock(std::unique_ptr<::strata::FileLock> lock) : lock_(std::move(lock)) {}
  std::unique_ptr<::strata::FileLock> lock_;
};

// RocksDB's FileSystem over a strata::FileSystem.
class StrataFileSystem : public FileSystem {
 public:
  explicit StrataFileSystem(std::shared_ptr<::strata::FileSystem> fs) : fs_(std::move(fs)) {}
  const char* Name() const override { return fs_->Name(); }
  const std::shared_ptr<::strata::FileSystem>& strata_fs() const { return fs_; }

  IOStatus NewSequentialFile(const std::string& fname, const FileOptions& opts,
                             std::unique_ptr<FSSequentialFile>* result, IODebugContext*) override {
    std::unique_ptr<::strata::SequentialFile> f;
    IOStatus s = fs_->NewSequentialFile(fname, ToStrataFileOptions(opts), &f);
    if (s.ok()) *result = std::make_unique<StrataSequentialFile>(std::move(f));
    return s;
  }
  IOStatus NewRandomAccessFile(const std::string& fname, const FileOptions& opts,
                               std::unique_ptr<FSRandomAccessFile>* result,
                               IODebugContext*) override {
    std::unique_ptr<::strata::RandomAccessFile> f;
    IOStatus s = fs_->NewRandomAccessFile(fname, ToStrataFileOptions(opts), &f);
    if (s.ok()) *result = std::make_unique<StrataRandomAccessFile>(std::move(f));
    return s;
  }
  IOStatus NewWritableFile(const std::string& fname, const FileOptions& opts,
                           std::unique_ptr<FSWritableFile>* result, IODebugContext*) override {
    std::unique_ptr<::strata::WritableFile> f;
    IOStatus s = fs_->NewWritableFile(fname, ToStrataFileOptions(opts), &f);
    if (s.ok()) *result = std::make_unique<StrataWritableFile>(std::move(f), opts);
    return s;
  }
  IOStatus ReopenWritableFile(const std::string& fname, const FileOptions& opts,
                              std::unique_ptr<FSWritableFile>* result, IODebugContext*) override {
    std::unique_ptr<::strata::WritableFile> f;
    IOStatus s = fs_->ReopenWritableFile(fname, ToStrataFileOptions(opts), &f);
    if (s.ok()) *result = std::make_unique<StrataWritableFile>(std::move(f), opts);
    return s;
  }
  IOStatus NewRandomRWFile(const std::string& fname, const FileOptions& opts,
                           std::unique_ptr<FSRandomRWFile>* result, IODebugContext*) override {
    std::unique_ptr<::strata::RandomRWFile> f;
    IOStatus s = fs_->NewRandomRWFile(fname, ToStrataFileOptions(opts), &f);
    if (s.ok()) *result = std::make_unique<StrataRandomRWFile>(std::move(f));
    return s;
  }
  IOStatus NewDirectory(const std::string& name, const IOOptions&,
                        std::unique_ptr<FSDirectory>* result, IODebugContext*) override {
    std::unique_ptr<::strata::Directory> d;
    IOStatus s = fs_->NewDirectory(name, &d);
    if (s.ok()) *result = std::make_unique<StrataDirectory>(std::move(d));
    return s;
  }
  IOStatus FileExists(const std::string& f, const IOOptions&, IODebugContext*) override {
    return fs_->FileExists(f);
  }
  IOStatus GetChildren(const std::string& dir, const IOOptions&, std::vector<std::string>* r,
                       IODebugContext*) override {
    return fs_->GetChildren(dir, r);
  }
  IOStatus DeleteFile(const std::string& f, const IOOptions&, IODebugContext*) override {
    return fs_->DeleteFile(f);
  }
  IOStatus Truncate(const std::string& fname, size_t size, const IOOptions&,
                    IODebugContext*) override {
    return fs_->Truncate(fname, size);
  }
  IOStatus CreateDir(const std::string& d, const IOOptions&, IODebugContext*) override {
    return fs_->CreateDir(d);
  }
  IOStatus CreateDirIfMissing(const std::string& d, const IOOptions&, IODebugContext*) override {
    return fs_->CreateDirIfMissing(d);
  }
  IOStatus DeleteDir(const std::string& d, const IOOptions&, IODebugContext*) override {
    return fs_->DeleteDir(d);
  }
  IOStatus GetFileSize(const std::string& f, const IOOptions&, uint64_t* s,
                       IODebugContext*) override {
    return fs_->GetFileSize(f, s);
  }
  IOStatus GetFileModificationTime(const std::string& fname, const IOOptions&, uint64_t* file_mtime,
                                   IODebugContext*) override {
    return fs_->GetFileModificationTime(fname, file_mtime);
  }
  IOStatus RenameFile(const std::string& s, const std::string& t, const IOOptions&,
                      IODebugContext*) override {
    return fs_->RenameFile(s, t);
  }
  IOStatus LinkFile(const std::string& s, const std::string& t, const IOOptions&,
                    IODebugContext*) override {
    return fs_->LinkFile(s, t);
  }
  IOStatus GetFreeSpace(const std::string& path, const IOOptions&, uint64_t* diskfree,
                        IODebugContext*) override {
    return fs_->GetFreeSpace(path, diskfree);
  }
  IOStatus NumFileLinks(const std::string& fname, const IOOptions&, uint64_t* count,
                        IODebugContext*) override {
    return fs_->NumFileLinks(fname, count);
  }
  IOStatus LockFile(const std::string& f, const IOOptions&, FileLock** l,
                    IODebugContext*) override {
    *l = nullptr;
    std::unique_ptr<::strata::FileLock> lock;
    IOStatus s = fs_->LockFile(f, &lock);
    if (s.ok()) *l = new StrataFileLock(std::move(lock));
    return s;
  }
  IOStatus UnlockFile(FileLock* l, const IOOptions&, IODebugContext*) override {
    auto* lock = dynamic_cast<StrataFileLock*>(l);
    if (lock == nullptr) {
      return IOStatus::InvalidArgument("UnlockFile: the lock was not taken by this file system");
    }
    IOStatus s = fs_->UnlockFile(std::move(lock->lock_));
    delete lock;
    return s;
  }
  IOStatus GetTestDirectory(const IOOptions&, std::string* path, IODebugContext*) override {
    *path = TestDirectory();
    return fs_->CreateDirIfMissing(*path);
  }
  IOStatus NewLogger(const std::string& fname, const IOOptions&, std::shared_ptr<Logger>* result,
                     IODebugContext*) override {
    return fs_->NewLogger(fname, result);
  }
  // As RocksDB's POSIX file system: an absolute path as it is, and for a
  // relative one the working directory (the path itself is not appended).
  IOStatus GetAbsolutePath(const std::string& db_path, const IOOptions&, std::string* output_path,
                           IODebugContext*) override {
    if (!db_path.empty() && db_path[0] == '/') {
      *output_path = db_path;
      return IOStatus::OK();
    }
    char cwd[4096];
    if (getcwd(cwd, sizeof(cwd)) == nullptr) {
      return IOStatus::IOError("GetAbsolutePath: cannot read the working directory", db_path);
    }
    *output_path = cwd;
    return IOStatus::OK();
  }
  IOStatus IsDirectory(const std::string& path, const IOOptions&, bool* is_dir,
                       IODebugContext*) override {
    return fs_->IsDirectory(path, is_dir);
  }

 private:
  const std::shared_ptr<::strata::FileSystem> fs_;
};

// ---- Strata's file classes over RocksDB's (the engine's view) ----

class EngineSequentialFile : public ::strata::SequentialFile {
 public:
  explicit EngineSequentialFile(std::unique_ptr<FSSequentialFile> f) : f_(std::move(f)) {}
  ::strata::Status Read(size_t n, Slice* result, char* scratch) override {
    return f_->Read(n, IOOptions(), result, scratch, nullptr);
  }
  ::strata::Status Skip(uint64_t n) override { return f_->Skip(n); }

 private:
  std::unique_ptr<FSSequentialFile> f_;
};

class EngineRandomAccessFile : public ::strata::RandomAccessFile {
 public:
  explicit EngineRandomAccessFile(std::unique_ptr<FSRandomAccessFile> f) : f_(std::move(f)) {}
  ::strata::Status Read(uint64_t offset, size_t n, Slice* result, char* scratch) const override {
    return f_->Read(offset, n, IOOptions(), result, scratch, nullptr);
  }
  ::strata::Status Prefetch(uint64_t offset, size_t n) override {
    Status s = f_->Prefetch(offset, n, IOOptions(), nullptr);
    return s.IsNotSupported() ? Status::OK() : s;  // advice only
  }

 private:
  std::unique_ptr<FSRandomAccessFile> f_;
};

// Counts the bytes appended itself: a user file may not (GetFileSize 0).
class EngineWritableFile : public ::strata::WritableFile {
 public:
  EngineWritableFile(std::unique_ptr<FSWritableFile> f, uint64_t size)
      : f_(std::move(f)), size_(size) {}
  ::strata::Status Append(const Slice& data) override {
    Status s = f_->Append(data, IOOptions(), nullptr);
    if (s.ok()) size_ += data.size();
    return s;
  }
  ::strata::Status Flush() override { return f_->Flush(IOOptions(), nullptr); }
  ::strata::Status Sync() override { return f_->Sync(IOOptions(), nullptr); }
  ::strata::Status Fsync() override { return f_->Fsync(IOOptions(), nullptr); }
  ::strata::Status Close() override { return f_->Close(IOOptions(), nullptr); }
  uint64_t GetFileSize() const override { return size_; }
  ::strata::Status Allocate(uint64_t offset, uint64_t len) override {
    return f_->Allocate(offset, len, IOOptions(), nullptr);
  }
  ::strata::Status RangeSync(uint64_t offset, uint64_t nbytes) override {
    return f_->RangeSync(offset, nbytes, IOOptions(), nullptr);
  }

 private:
  std::unique_ptr<FSWritableFile> f_;
  uint64_t size_;
};

class EngineRandomRWFile : public ::strata::RandomRWFile {
 public:
  explicit EngineRandomRWFile(std::unique_ptr<FSRandomRWFile> f) : f_(std::move(f)) {}
  ::strata::Status Write(uint64_t offset, const Slice& data) override {
    return f_->Write(offset, data, IOOptions(), nullptr);
  }
  ::strata::Status Sync() override { return f_->Sync(IOOptions(), nullptr); }
  ::strata::Status Fsync() override { return f_->Fsync(IOOptions(), nullptr); }
  ::strata::Status Close() override { return f_->Close(IOOptions(), nullptr); }

 private:
  std::unique_ptr<FSRandomRWFile> f_;
};

class EngineDirectory : public ::strata::Directory {
 public:
  explicit EngineDirectory(std::unique_ptr<FSDirectory> d) : d_(std::move(d)) {}
  ~EngineDirectory() override {
    if (d_ != nullptr)
      d_->Close(IOOptions(), nullptr).PermitUncheckedError();  // may be unsupported
  }
  ::strata::Status Fsync() override { return d_->Fsync(IOOptions(), nullptr); }

 private:
  std::unique_ptr<FSDirectory> d_;
};

class EngineFileLock : public ::strata::FileLock {
 public:
  explicit EngineFileLock(rocksdb::FileLock* lock) : lock_(lock) {}
  rocksdb::FileLock* lock_;  // owned by the file system that made it
};

// strata::FileSystem over RocksDB's: what the engine calls when a database
// is opened with a user Env or FileSystem. fs_ may be borrowed (a
// FileSystem's own NewLogger) or shared.
class EngineFileSystem : public ::strata::FileSystem {
 public:
  explicit EngineFileSystem(std::shared_ptr<rocksdb::FileSystem> fs)
      : guard_(std::move(fs)), fs_(guard_.get()) {}
  explicit EngineFileSystem(rocksdb::FileSystem* fs) : fs_(fs) {}
  const char* Name() const override { return fs_->Name(); }

  ::strata::Status NewSequentialFile(const std::string& fname, const ::strata::FileOptions& opts,
                                     std::unique_ptr<::strata::SequentialFile>* result) override {
    std::unique_ptr<FSSequentialFile> f;
    Status s = fs_->NewSequentialFile(fname, FromStrataFileOptions(opts), &f, nullptr);
    if (s.ok()) *result = std::make_unique<EngineSequentialFile>(std::move(f));
    return s;
  }
  ::strata::Status NewRandomAccessFile(
      const std::string& fname, const ::strata::FileOptions& opts,
      std::unique_ptr<::strata::RandomAccessFile>* result) override {
    std::unique_ptr<FSRandomAccessFile> f;
    Status s = fs_->NewRandomAccessFile(fname, FromStrataFileOptions(opts), &f, nullptr);
    if (s.ok()) *result = std::make_unique<EngineRandomAccessFile>(std::move(f));
    return s;
  }
  ::strata::Status NewWritableFile(const std::string& fname, const ::strata::FileOptions& opts,
                                   std::unique_ptr<::strata::WritableFile>* result) override {
    std::unique_ptr<FSWritableFile> f;
    Status s = fs_->NewWritableFile(fname, FromStrataFileOptions(opts), &f, nullptr);
    if (s.ok()) *result = std::make_unique<EngineWritableFile>(std::move(f), 0);
    return s;
  }
  ::strata::Status ReopenWritableFile(const std::string& fname, const ::strata::FileOptions& opts,
                                      std::unique_ptr<::strata::WritableFile>* result) override {
    std::unique_ptr<FSWritableFile> f;
    Status s = fs_->ReopenWritableFile(fname, FromStrataFileOptions(opts), &f, nullptr);
    if (!s.ok()) return s;
    uint64_t size = 0;
    s = fs_->GetFileSize(fname, IOOptions(), &size, nullptr);
    if (s.ok()) *result = std::make_unique<EngineWritableFile>(std::move(f), size);
    return s;
  }
  ::strata::Status NewRandomRWFile(const std::string& fname, const ::strata::FileOptions& opts,
                                   std::unique_ptr<::strata::RandomRWFile>* result) override {
    std::unique_ptr<FSRandomRWFile> f;
    Status s = fs_->NewRandomRWFile(fname, FromStrataFileOptions(opts), &f, nullptr);
    if (s.ok()) *result = std::make_unique<EngineRandomRWFile>(std::move(f));
    return s;
  }
  ::strata::Status NewDirectory(const std::string& name,
                                std::unique_ptr<::strata::Directory>* result) override {
    std::unique_ptr<FSDirectory> d;
    Status s = fs_->NewDirectory(name, IOOptions(), &d, nullptr);
    if (s.ok()) *result = std::make_unique<EngineDirectory>(std::move(d));
    return s;
  }
  ::strata::Status FileExists(const std::string& fname) override {
    return fs_->FileExists(fname, IOOptions(), nullptr);
  }
  ::strata::Status GetChildren(const std::string& dir, std::vector<std::string>* result) override {
    return fs_->GetChildren(dir, IOOptions(), result, nullptr);
  }
  ::strata::Status DeleteFile(const std::string& fname) override {
    return fs_->DeleteFile(fname, IOOptions(), nullptr);
  }
  ::strata::Status CreateDir(const std::string& dirname) override {
    return fs_->CreateDir(dirname, IOOptions(), nullptr);
  }
  ::strata::Status CreateDirIfMissing(const std::string& dirname) override {
    return fs_->CreateDirIfMissing(dirname, IOOptions(), nullptr);
  }
  ::strata::Status DeleteDir(const std::string& dirname) override {
    return fs_->DeleteDir(dirname, IOOptions(), nullptr);
  }
  ::strata::Status GetFileSize(const std::string& fname, uint64_t* size) override {
    return fs_->GetFileSize(fname, IOOptions(), size, nullptr);
  }
  ::strata::Status GetFileModificationTime(const std::string& fname,
                                           uint64_t* file_mtime) override {
    return fs_->GetFileModificationTime(fname, IOOptions(), file_mtime, nullptr);
  }
  ::strata::Status RenameFile(const std::string& src, const std::string& target) override {
    return fs_->RenameFile(src, target, IOOptions(), nullptr);
  }
  ::strata::Status LinkFile(const std::string& src, const std::string& target) override {
    return fs_->LinkFile(src, target, IOOptions(), nullptr);
  }
  ::strata::Status IsDirectory(const std::string& path, bool* is_dir) override {
    return fs_->IsDirectory(path, IOOptions(), is_dir, nullptr);
  }
  ::strata::Status Truncate(const std::string& fname, uint64_t size) override {
    return fs_->Truncate(fname, static_cast<size_t>(size), IOOptions(), nullptr);
  }
  ::strata::Status GetFreeSpace(const std::string& path, uint64_t* free_bytes) override {
    return fs_->GetFreeSpace(path, IOOptions(), free_bytes, nullptr);
  }
  ::strata::Status NumFileLinks(const std::string& fname, uint64_t* count) override {
    return fs_->NumFileLinks(fname, IOOptions(), count, nullptr);
  }
  ::strata::Status LockFile(const std::string& fname,
                            std::unique_ptr<::strata::FileLock>* lock) override {
    rocksdb::FileLock* l = nullptr;
    Status s = fs_->LockFile(fname, IOOptions(), &l, nullptr);
    if (s.ok()) *lock = std::make_unique<EngineFileLock>(l);
    return s;
  }
  // The info log: the file system's own NewLogger (an Env subclass's
  // NewLogger, through the legacy FileSystem), as RocksDB opens it.
  ::strata::Status NewLogger(const std::string& fname, std::shared_ptr<Logger>* result) override {
    return fs_->NewLogger(fname, IOOptions(), result, nullptr);
  }
  ::strata::Status UnlockFile(std::unique_ptr<::strata::FileLock> lock) override {
    auto* l = dynamic_cast<EngineFileLock*>(lock.get());
    if (l == nullptr) return Status::InvalidArgument("UnlockFile: not a lock of this file system");
    return fs_->UnlockFile(l->lock_, IOOptions(), nullptr);
  }

 private:
  const std::shared_ptr<rocksdb::FileSystem> guard_;
  rocksdb::FileSystem* const fs_;
};

// ---- RocksDB's FileSystem over an Env's file methods ----

class LegacySequentialFile : public FSSequentialFile {
 public:
  explicit LegacySequentialFile(std::unique_ptr<SequentialFile> f) : f_(std::move(f)) {}
  IOStatus Read(size_t n, const IOOptions&, Slice* result, char* scratch,
                IODebugContext*) override {
    return f_->Read(n, result, scratch);
  }
  IOStatus Skip(uint64_t n) override { return f_->Skip(n); }
  bool use_direct_io() const override { return f_->use_direct_io(); }
  size_t GetRequiredBufferAlignment() const override { return f_->GetRequiredBufferAlignment(); }
  IOStatus InvalidateCache(size_t offset, size_t length) override {
    return f_->InvalidateCache(offset, length);
  }
  IOStatus PositionedRead(uint64_t offset, size_t n, const IOOptions&, Slice* result, char* scratch,
                          IODebugContext*) override {
    return f_->PositionedRead(offset, n, result, scratch);
  }

 private:
  std::unique_ptr<SequentialFile> f_;
};

class LegacyRandomAccessFile : public FSRandomAccessFile {
 public:
  explicit LegacyRandomAccessFile(std::unique_ptr<RandomAccessFile> f) : f_(std::move(f)) {}
  IOStatus Read(uint64_t offset, size_t n, const IOOptions&, Slice* result, char* scratch,
                IODebugContext*) const override {
    return f_->Read(offset, n, result, scratch);
  }
  IOStatus Prefetch(uint64_t offset, size_t n, const IOOptions&, IODebugContext*) override {
    return f_->Prefetch(offset, n);
  }
  size_t GetUniqueId(char* id, size_t max_size) const override {
    return f_->GetUniqueId(id, max_size);
  }
  bool use_direct_io() const override { return f_->use_direct_io(); }
  size_t GetRequiredBufferAlignment() const override { return f_->GetRequiredBufferAlignment(); }
  IOStatus InvalidateCache(size_t offset, size_t length) override {
    return f_->InvalidateCache(offset, length);
  }

 private:
  std::unique_ptr<RandomAccessFile> f_;
};

class LegacyWritableFile : public FSWritableFile {
 public:
  explicit LegacyWritableFile(std::unique_ptr<WritableFile> f) : f_(std::move(f)) {}
  IOStatus Append(const Slice& data, const IOOptions&, IODebugContext*) override {
    return f_->Append(data);
  }
  IOStatus PositionedAppend(const Slice& data, uint64_t offset, const IOOptions&,
                            IODebugContext*) override {
    return f_->PositionedAppend(data, offset);
  }
  IOStatus Truncate(uint64_t size, const IOOptions&, IODebugContext*) override {
    return f_->Truncate(size);
  }
  IOStatus Close(const IOOptions&, IODebugContext*) override { return f_->Close(); }
  IOStatus Flush(const IOOptions&, IODebugContext*) override { return f_->Flush(); }
  IOStatus Sync(const IOOptions&, IODebugContext*) override { return f_->Sync(); }
  IOStatus Fsync(const IOOptions&, IODebugContext*) override { return f_->Fsync(); }
  bool IsSyncThreadSafe() const override { return f_->IsSyncThreadSafe(); }
  bool use_direct_io() const override { return f_->use_direct_io(); }
  size_t GetRequiredBufferAlignment() const override { return f_->GetRequiredBufferAlignment(); }
  uint64_t GetFileSize(const IOOptions&, IODebugContext*) override { return f_->GetFileSize(); }
  IOStatus RangeSync(uint64_t offset, uint64_t nbytes, const IOOptions&, IODebugContext*) override {
    return f_->RangeSync(offset, nbytes);
  }
  IOStatus Allocate(uint64_t offset, uint64_t len, const IOOptions&, IODebugContext*) override {
    return f_->Allocate(offset, len);
  }
  IOStatus InvalidateCache(size_t offset, size_t length) override {
    return f_->InvalidateCache(offset, length);
  }

 private:
  std::unique_ptr<WritableFile> f_;
};

class LegacyRandomRWFile : public FSRandomRWFile {
 public:
  explicit LegacyRandomRWFile(std::unique_ptr<RandomRWFile> f) : f_(std::move(f)) {}
  IOStatus Write(uint64_t offset, const Slice& data, const IOOptions&, IODebugContext*) override {
    return f_->Write(offset, data);
  }
  IOStatus Read(uint64_t offset, size_t n, const IOOptions&, Slice* result, char* scratch,
                IODebugContext*) const override {
    return f_->Read(offset, n, result, scratch);
  }
  IOStatus Flush(const IOOptions&, IODebugContext*) override { return f_->Flush(); }
  IOStatus Sync(const IOOptions&, IODebugContext*) override { return f_->Sync(); }
  IOStatus Fsync(const IOOptions&, IODebugContext*) override { return f_->Fsync(); }
  IOStatus Close(const IOOptions&, IODebugContext*) override { return f_->Close(); }

 private:
  std::unique_ptr<RandomRWFile> f_;
};

class LegacyDirectory : public FSDirectory {
 public:
  explicit LegacyDirectory(std::unique_ptr<Directory> d) : d_(std::move(d)) {}
  IOStatus Fsync(const IOOptions&, IODebugContext*) override { return d_->Fsync(); }
  IOStatus Close(const IOOptions&, IODebugContext*) override { return d_->Close(); }
  size_t GetUniqueId(char* id, size_t max_size) const override {
    return d_->GetUniqueId(id, max_size);
  }

 private:
  std::unique_ptr<Directory> d_;
};

class LegacyFileSystem : public FileSystem {
 public:
  explicit LegacyFileSystem(Env* env) : env_(env) {}
  const char* Name() const override { return "LegacyFileSystem"; }

  IOStatus NewSequentialFile(const std::string& f, const FileOptions& opts,
                             std::unique_ptr<FSSequentialFile>* r, IODebugContext*) override {
    std::unique_ptr<SequentialFile> file;
    IOStatus s = env_->NewSequentialFile(f, &file, opts);
    if (s.ok()) *r = std::make_unique<LegacySequentialFile>(std::move(file));
    return s;
  }
  IOStatus NewRandomAccessFile(const std::string& f, const FileOptions& opts,
                               std::unique_ptr<FSRandomAccessFile>* r, IODebugContext*) override {
    std::unique_ptr<RandomAccessFile> file;
    IOStatus s = env_->NewRandomAccessFile(f, &file, opts);
    if (s.ok()) *r = std::make_unique<LegacyRandomAccessFile>(std::move(file));
    return s;
  }
  IOStatus NewWritableFile(const std::string& f, const FileOptions& opts,
                           std::unique_ptr<FSWritableFile>* r, IODebugContext*) override {
    std::unique_ptr<WritableFile> file;
    IOStatus s = env_->NewWritableFile(f, &file, opts);
    if (s.ok()) *r = std::make_unique<LegacyWritableFile>(std::move(file));
    return s;
  }
  IOStatus ReopenWritableFile(const std::string& f, const FileOptions& opts,
                              std::unique_ptr<FSWritableFile>* r, IODebugContext*) override {
    std::unique_ptr<WritableFile> file;
    IOStatus s = env_->ReopenWritableFile(f, &file, opts);
    if (s.ok()) *r = std::make_unique<LegacyWritableFile>(std::move(file));
    return s;
  }
  IOStatus ReuseWritableFile(const std::string& f, const std::string& old_f,
                             const FileOptions& opts, std::unique_ptr<FSWritableFile>* r,
                             IODebugContext*) override {
    std::unique_ptr<WritableFile> file;
    IOStatus s = env_->ReuseWritableFile(f, old_f, &file, opts);
    if (s.ok()) *r = std::make_unique<LegacyWritableFile>(std::move(file));
    return s;
  }
  IOStatus NewRandomRWFile(const std::string& f, const FileOptions& opts,
                           std::unique_ptr<FSRandomRWFile>* r, IODebugContext*) override {
    std::unique_ptr<RandomRWFile> file;
    IOStatus s = env_->NewRandomRWFile(f, &file, opts);
    if (s.ok()) *r = std::make_unique<LegacyRandomRWFile>(std::move(file));
    return s;
  }
  IOStatus NewMemoryMappedFileBuffer(const std::string& f,
                                     std::unique_ptr<MemoryMappedFileBuffer>* r) override {
    return env_->NewMemoryMappedFileBuffer(f, r);
  }
  IOStatus NewDirectory(const std::string& name, const IOOptions&, std::unique_ptr<FSDirectory>* r,
                        IODebugContext*) override {
    std::unique_ptr<Directory> d;
    IOStatus s = env_->NewDirectory(name, &d);
    if (s.ok()) *r = std::make_unique<LegacyDirectory>(std::move(d));
    return s;
  }
  IOStatus FileExists(const std::string& f, const IOOptions&, IODebugContext*) override {
    return env_->FileExists(f);
  }
  IOStatus GetChildren(const std::string& dir, const IOOptions&, std::vector<std::string>* r,
                       IODebugContext*) override {
    return env_->GetChildren(dir, r);
  }
  IOStatus GetChildrenFileAttributes(const std::string& dir, const IOOptions&,
                                     std::vector<FileAttributes>* result,
                                     IODebugContext*) override {
    return env_->GetChildrenFileAttributes(dir, result);
  }
  IOStatus DeleteFile(const std::string& f, const IOOptions&, IODebugContext*) override {
    return env_->DeleteFile(f);
  }
  IOStatus Truncate(const std::string& f, size_t size, const IOOptions&, IODebugContext*) override {
    return env_->Truncate(f, size);
  }
  IOStatus CreateDir(const std::string& d, const IOOptions&, IODebugContext*) override {
    return env_->CreateDir(d);
  }
  IOStatus CreateDirIfMissing(const std::string& d, const IOOptions&, IODebugContext*) override {
    return env_->CreateDirIfMissing(d);
  }
  IOStatus DeleteDir(const std::string& d, const IOOptions&, IODebugContext*) override {
    return env_->DeleteDir(d);
  }
  IOStatus GetFileSize(const std::string& f, const IOOptions&, uint64_t* s,
                       IODebugContext*) override {
    return env_->GetFileSize(f, s);
  }
  IOStatus GetFileModificationTime(const std::string& f, const IOOptions&, uint64_t* mtime,
                                   IODebugContext*) override {
    return env_->GetFileModificationTime(f, mtime);
  }
  IOStatus RenameFile(const std::string& s, const std::string& t, const IOOptions&,
                      IODebugContext*) override {
    return env_->RenameFile(s, t);
  }
  IOStatus LinkFile(const std::string& s, const std::string& t, const IOOptions&,
                    IODebugContext*) override {
    return env_->LinkFile(s, t);
  }
  IOStatus NumFileLinks(const std::string& f, const IOOptions&, uint64_t* count,
                        IODebugContext*) override {
    return env_->NumFileLinks(f, count);
  }
  IOStatus AreFilesSame(const std::string& a, const std::string& b, const IOOptions&, bool* res,
                        IODebugContext*) override {
    return env_->AreFilesSame(a, b, res);
  }
  IOStatus LockFile(const std::string& f, const IOOptions&, FileLock** l,
                    IODebugContext*) override {
    return env_->LockFile(f, l);
  }
  IOStatus UnlockFile(FileLock* l, const IOOptions&, IODebugContext*) override {
    return env_->UnlockFile(l);
  }
  IOStatus GetTestDirectory(const IOOptions&, std::string* path, IODebugContext*) override {
    return env_->GetTestDirectory(path);
  }
  IOStatus NewLogger(const std::string& f, const IOOptions&, std::shared_ptr<Logger>* result,
                     IODebugContext*) override {
    return env_->NewLogger(f, result);
  }
  IOStatus GetAbsolutePath(const std::string& db_path, const IOOptions&, std::string* out,
                           IODebugContext*) override {
    return env_->GetAbsolutePath(db_path, out);
  }
  IOStatus GetFreeSpace(const std::string& path, const IOOptions&, uint64_t* diskfree,
                        IODebugContext*) override {
    return env_->GetFreeSpace(path, diskfree);
  }
  IOStatus IsDirectory(const std::string& path, const IOOptions&, bool* is_dir,
                       IODebugContext*) override {
    return env_->IsDirectory(path, is_dir);
  }

 private:
  Env* const env_;
};

// ---- Env-level files over FileSystem files ----

class EnvSequentialFile : public SequentialFile {
 public:
  explicit EnvSequentialFile(std::unique_ptr<FSSequentialFile> f) : f_(std::move(f)) {}
  Status Read(size_t n, Slice* result, char* scratch) override {
    return f_->Read(n, IOOptions(), result, scratch, nullptr);
  }
  Status Skip(uint64_t n) override { return f_->Skip(n); }
  bool use_direct_io() const override { return f_->use_direct_io(); }
  size_t GetRequiredBufferAlignment() const override { return f_->GetRequiredBufferAlignment(); }
  Status InvalidateCache(size_t offset, size_t length) override {
    return f_->InvalidateCache(offset, length);
  }
  Status PositionedRead(uint64_t offset, size_t n, Slice* result, char* scratch) override {
    return f_->PositionedRead(offset, n, IOOptions(), result, scratch, nullptr);
  }

 private:
  std::unique_ptr<FSSequentialFile> f_;
};

class EnvRandomAccessFile : public RandomAccessFile {
 public:
  explicit EnvRandomAccessFile(std::unique_ptr<FSRandomAccessFile> f) : f_(std::move(f)) {}
  Status Read(uint64_t offset, size_t n, Slice* result, char* scratch) const override {
    return f_->Read(offset, n, IOOptions(), result, scratch, nullptr);
  }
  Status Prefetch(uint64_t offset, size_t n) override {
    return f_->Prefetch(offset, n, IOOptions(), nullptr);
  }
  size_t GetUniqueId(char* id, size_t max_size) const override {
    return f_->GetUniqueId(id, max_size);
  }
  bool use_direct_io() const override { return f_->use_direct_io(); }
  size_t GetRequiredBufferAlignment() const override { return f_->GetRequiredBufferAlignment(); }
  Status InvalidateCache(size_t offset, size_t length) override {
    return f_->InvalidateCache(offset, length);
  }

 private:
  std::unique_ptr<FSRandomAccessFile> f_;
};

class EnvWritableFile : public WritableFile {
 public:
  explicit EnvWritableFile(std::unique_ptr<FSWritableFile> f) : f_(std::move(f)) {}
  Status Append(const Slice& data) override { return f_->Append(data, IOOptions(), nullptr); }
  Status PositionedAppend(const Slice& data, uint64_t offset) override {
    return f_->PositionedAppend(data, offset, IOOptions(), nullptr);
  }
  Status Truncate(uint64_t size) override { return f_->Truncate(size, IOOptions(), nullptr); }
  Status Close() override { return f_->Close(IOOptions(), nullptr); }
  Status Flush() override { return f_->Flush(IOOptions(), nullptr); }
  Status Sync() override { return f_->Sync(IOOptions(), nullptr); }
  Status Fsync() override { return f_->Fsync(IOOptions(), nullptr); }
  bool IsSyncThreadSafe() const override { return f_->IsSyncThreadSafe(); }
  bool use_direct_io() const override { return f_->use_direct_io(); }
  size_t GetRequiredBufferAlignment() const override { return f_->GetRequiredBufferAlignment(); }
  uint64_t GetFileSize() override { return f_->GetFileSize(IOOptions(), nullptr); }
  Status RangeSync(uint64_t offset, uint64_t nbytes) override {
    return f_->RangeSync(offset, nbytes, IOOptions(), nullptr);
  }
  Status Allocate(uint64_t offset, uint64_t len) override {
    return f_->Allocate(offset, len, IOOptions(), nullptr);
  }
  Status InvalidateCache(size_t offset, size_t length) override {
    return f_->InvalidateCache(offset, length);
  }

 private:
  std::unique_ptr<FSWritableFile> f_;
};

class EnvRandomRWFile : public RandomRWFile {
 public:
  explicit EnvRandomRWFile(std::unique_ptr<FSRandomRWFile> f) : f_(std::move(f)) {}
  Status Write(uint64_t offset, const Slice& data) override {
    return f_->Write(offset, data, IOOptions(), nullptr);
  }
  Status Read(uint64_t offset, size_t n, Slice* result, char* scratch) const override {
    return f_->Read(offset, n, IOOptions(), result, scratch, nullptr);
  }
  Status Flush() override { return f_->Flush(IOOptions(), nullptr); }
  Status Sync() override { return f_->Sync(IOOptions(), nullptr); }
  Status Fsync() override { return f_->Fsync(IOOptions(), nullptr); }
  Status Close() override { return f_->Close(IOOptions(), nullptr); }

 private:
  std::unique_ptr<FSRandomRWFile> f_;
};

class EnvDirectory : public Directory {
 public:
  explicit EnvDirectory(std::unique_ptr<FSDirectory> d) : d_(std::move(d)) {}
  Status Fsync() override { return d_->Fsync(IOOptions(), nullptr); }
  Status Close() override { return d_->Close(IOOptions(), nullptr); }
  size_t GetUniqueId(char* id, size_t max_size) const override {
    return d_->GetUniqueId(id, max_size);
  }

 private:
  std::unique_ptr<FSDirectory> d_;
};

}  // namespace

std::shared_ptr<FileSystem> WrapStrataFileSystem(std::shared_ptr<::strata::FileSystem> fs) {
  return std::make_shared<StrataFileSystem>(std::move(fs));
}

std::shared_ptr<::strata::FileSystem> UnwrapStrataFileSystem(const FileSystem* fs) {
  auto* wrapped = dynamic_cast<const StrataFileSystem*>(fs);
  return wrapped != nullptr ? wrapped->strata_fs() : nullptr;
}

std::shared_ptr<::strata::FileSystem> NewEngineFileSystem(const std::shared_ptr<FileSystem>& fs) {
  std::shared_ptr<::strata::FileSystem> under = UnwrapStrataFileSystem(fs.get());
  if (under != nullptr) return under;
  return std::make_shared<EngineFileSystem>(fs);
}

std::shared_ptr<FileSystem> NewLegacyFileSystem(Env* env) {
  return std::make_shared<LegacyFileSystem>(env);
}

Status NewLoggerThrough(FileSystem* fs, const std::string& fname, std::shared_ptr<Logger>* result) {
  // strata::FileSystem's own NewLogger (called non-virtually: the
  // adapter's override would come back here) opens the file with
  // NewWritableFile; the adapter is needed only while it does.
  EngineFileSystem adapter(fs);
  return adapter.::strata::FileSystem::NewLogger(fname, result);
}

std::unique_ptr<SequentialFile> ToEnvFile(std::unique_ptr<FSSequentialFile> f) {
  return std::make_unique<EnvSequentialFile>(std::move(f));
}
std::unique_ptr<RandomAccessFile> ToEnvFile(std::unique_ptr<FSRandomAccessFile> f) {
  return std::make_unique<EnvRandomAccessFile>(std::move(f));
}
std::unique_ptr<WritableFile> ToEnvFile(std::unique_ptr<FSWritableFile> f) {
  return std::make_unique<EnvWritableFile>(std::move(f));
}
std::unique_ptr<RandomRWFile> ToEnvFile(std::unique_ptr<FSRandomRWFile> f) {
  return std::make_unique<EnvRandomRWFile>(std::move(f));
}
std::unique_ptr<Directory> ToEnvFile(std::unique_ptr<FSDirectory> f) {
  return std::make_unique<EnvDirectory>(std::move(f));
}

}  // namespace compat

// ---- file_system.h ----

FileSystem::FileSystem() = default;
FileSystem::~FileSystem() = default;

Status FileSystem::Load(const std::string& value, std::shared_ptr<FileSystem>* /*result*/) {
  return Status::NotSupported("FileSystem::Load is not supported by Strata", value);
}

Status FileSystem::CreateFromString(const ConfigOptions& /*options*/, const std::string& value,
                                    std::shared_ptr<FileSystem>* /*result*/) {
  return Status::NotSupported("FileSystem::CreateFromString is not supported by Strata", value);
}

std::shared_ptr<FileSystem> FileSystem::Default() {
  static const std::shared_ptr<FileSystem>* const fs = new std::shared_ptr<FileSystem>(
      compat::WrapStrataFileSystem(::strata::FileSystem::Default()));
  return *fs;
}

IOStatus FileSystem::ReuseWritableFile(const std::string& fname, const std::string& old_fname,
                                       const FileOptions& file_opts,
                                       std::unique_ptr<FSWritableFile>* result,
                                       IODebugContext* dbg) {
  IOStatus s = RenameFile(old_fname, fname, file_opts.io_options, dbg);
  if (!s.ok()) return s;
  return NewWritableFile(fname, file_opts, result, dbg);
}

IOStatus FileSystem::GetChildrenFileAttributes(const std::string& dir, const IOOptions& options,
                                               std::vector<FileAttributes>* result,
                                               IODebugContext* dbg) {
  std::vector<std::string> names;
  IOStatus s = GetChildren(dir, options, &names, dbg);
  if (!s.ok()) return s;
  result->clear();
  for (std::string& name : names) {
    FileAttributes a;
    s = GetFileSize(dir + "/" + name, options, &a.size_bytes, dbg);
    if (!s.ok()) {
      if (FileExists(dir + "/" + name, options, dbg).IsNotFound()) continue;  // vanished
      return s;
    }
    a.name = std::move(name);
    result->push_back(std::move(a));
  }
  return IOStatus::OK();
}

IOStatus FileSystem::NewLogger(const std::string& fname, const IOOptions& /*io_opts*/,
                               std::shared_ptr<Logger>* result, IODebugContext* /*dbg*/) {
  return compat::NewLoggerThrough(this, fname, result);
}

FileOptions FileSystem::OptimizeForLogRead(const FileOptions& file_options) const {
  return file_options;
}
FileOptions FileSystem::OptimizeForManifestRead(const FileOptions& file_options) const {
  return file_options;
}
FileOptions FileSystem::OptimizeForLogWrite(const FileOptions& file_options,
                                            const DBOptions& /*db_options*/) const {
  return file_options;
}
FileOptions FileSystem::OptimizeForManifestWrite(const FileOptions& file_options) const {
  return file_options;
}
FileOptions FileSystem::OptimizeForCompactionTableWrite(
    const FileOptions& file_options, const ImmutableDBOptions& /*immutable_ops*/) const {
  return file_options;
}
FileOptions FileSystem::OptimizeForCompactionTableRead(
    const FileOptions& file_options, const ImmutableDBOptions& /*db_options*/) const {
  return file_options;
}
FileOptions FileSystem::OptimizeForBlobFileRead(const FileOptions& file_options,
                                                const ImmutableDBOptions& /*db_options*/) const {
  return file_options;
}

FileSystemWrapper::FileSystemWrapper(const std::shared_ptr<FileSystem>& t) : target_(t) {}

Status FileSystemWrapper::PrepareOptions(const ConfigOptions& options) {
  if (target_ == nullptr) target_ = FileSystem::Default();
  return FileSystem::PrepareOptions(options);
}

std::string FileSystemWrapper::SerializeOptions(const ConfigOptions& config_options,
                                                const std::string& header) const {
  return compat::SerializeWrapper(config_options, header,
                                  FileSystem::SerializeOptions(config_options, ""),
                                  target_ == nullptr || target_->IsInstanceOf(kDefaultName()) ||
                                          target_.get() == FileSystem::Default().get()
                                      ? nullptr
                                      : target_.get());
}

IOStatus WriteStringToFile(FileSystem* fs, const Slice& data, const std::string& fname,
                           bool should_sync) {
  std::unique_ptr<FSWritableFile> file;
  IOStatus s = fs->NewWritableFile(fname, FileOptions(), &file, nullptr);
  if (!s.ok()) return s;
  s = file->Append(data, IOOptions(), nullptr);
  if (s.ok() && should_sync) s = file->Sync(IOOptions(), nullptr);
  IOStatus closed = file->Close(IOOptions(), nullptr);
  if (s.ok()) s = closed;
  file.reset();
  if (!s.ok()) fs->DeleteFile(fname, IOOptions(), nullptr).PermitUncheckedError();
  return s;
}

FSMemoryMappedFileBuffer::~FSMemoryMappedFileBuffer() = default;

DirFsyncOptions::DirFsyncOptions() : reason(kDefault) {}
DirFsyncOptions::DirFsyncOptions(std::string file_renamed_new_name)
    : reason(kFileRenamed), renamed_new_name(std::move(file_renamed_new_name)) {}
DirFsyncOptions::DirFsyncOptions(FsyncReason fsync_reason) : reason(fsync_reason) {}

IOStatus ReadFileToString(FileSystem* fs, const std::string& fname, std::string* data) {
  compat::EngineFileSystem adapter(fs);
  return ::strata::ReadFileToString(&adapter, fname, data);
}

}  // namespace rocksdb
