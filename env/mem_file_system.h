// MemFileSystem: a FileSystem held entirely in memory, for tests
// (NewMemFileSystem(), NewMemEnv()). It mirrors PosixFileSystem's semantics
// and error statuses, so a test passing on one means the same on the other:
//
//  - A file is a shared, reference-counted byte buffer, like an inode: a file
//    opened before DeleteFile or a replacing RenameFile stays readable, and
//    NewWritableFile of an existing name truncates that same buffer.
//  - Directories are tracked: CreateDir records one; a directory also exists
//    implicitly while any file or directory below it exists, and the root
//    "/" always exists. Parents are not required to exist before a file is
//    created in them, but a path through an existing *file* fails
//    ("Not a directory"), as on POSIX.
//  - RenameFile is atomic (one mutex); renaming a directory moves everything
//    below it.
//  - LockFile creates the file and fails with IOError naming it while it is
//    locked (one process: there is nobody else to lock it).
//  - Error statuses use the same contexts and errno texts as POSIX
//    (PathNotFound for a missing path, IOError otherwise).
//  - Paths are compared after collapsing repeated '/' and dropping a
//    trailing '/'; "." and ".." components are not interpreted.
//  - Flush, Sync and Directory::Fsync do nothing: memory is the durable
//    medium, and everything is lost when the file system is destroyed.
//  - FileOptions::use_direct_reads / use_direct_writes are ignored (there
//    is no page cache to bypass); a DB opened with direct I/O on it works.
//
// Thread-safety: thread-safe. One mutex guards the namespace (names,
// directories, locks); each file's bytes have their own mutex, so reads of
// one file do not wait for writes to another.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "strata/env.h"
#include "util/mutex.h"

namespace strata {

class MemFileSystem final : public FileSystem {
 public:
  MemFileSystem() = default;
  const char* Name() const override { return "MemFileSystem"; }

  Status NewSequentialFile(const std::string& fname, const FileOptions& opts,
                           std::unique_ptr<SequentialFile>* result) override EXCLUDES(mu_);
  Status NewRandomAccessFile(const std::string& fname, const FileOptions& opts,
                             std::unique_ptr<RandomAccessFile>* result) override EXCLUDES(mu_);
  Status NewWritableFile(const std::string& fname, const FileOptions& opts,
                         std::unique_ptr<WritableFile>* result) override EXCLUDES(mu_);
  Status ReopenWritableFile(const std::string& fname, const FileOptions& opts,
                            std::unique_ptr<WritableFile>* result) override EXCLUDES(mu_);
  Status NewDirectory(const std::string& name, std::unique_ptr<Directory>* result) override
      EXCLUDES(mu_);

  Status FileExists(const std::string& fname) override EXCLUDES(mu_);
  Status GetChildren(const std::string& dir, std::vector<std::string>* result) override
      EXCLUDES(mu_);
  Status DeleteFile(const std::string& fname) override EXCLUDES(mu_);
  Status CreateDir(const std::string& dirname) override EXCLUDES(mu_);
  Status CreateDirIfMissing(const std::string& dirname) override EXCLUDES(mu_);
  Status DeleteDir(const std::string& dirname) override EXCLUDES(mu_);
  Status GetFileSize(const std::string& fname, uint64_t* size) override EXCLUDES(mu_);
  Status RenameFile(const std::string& src, const std::string& target) override EXCLUDES(mu_);
  // The target shares the source's bytes (a hard link).
  Status LinkFile(const std::string& src, const std::string& target) override EXCLUDES(mu_);
  Status IsDirectory(const std::string& path, bool* is_dir) override EXCLUDES(mu_);
  Status Truncate(const std::string& fname, uint64_t size) override EXCLUDES(mu_);

  Status LockFile(const std::string& fname, std::unique_ptr<FileLock>* lock) override EXCLUDES(mu_);
  Status UnlockFile(std::unique_ptr<FileLock> lock) override EXCLUDES(mu_);

  // The bytes of one file (defined in mem_file_system.cc).
  struct FileData;

 private:
  using FileMap = std::map<std::string, std::shared_ptr<FileData>>;

  bool IsDirLocked(const std::string& path) const REQUIRES(mu_);
  // True if a proper ancestor of path is a file.
  bool AncestorIsFileLocked(const std::string& path) const REQUIRES(mu_);
  // Finds or creates the file at path (normalized) for writing.
  Status OpenForWriteLocked(const std::string& path, const char* context, bool truncate,
                            std::shared_ptr<FileData>* data) REQUIRES(mu_);
  Status OpenForRead(const std::string& fname, const char* context, std::shared_ptr<FileData>* data)
      EXCLUDES(mu_);
  Status OpenWritable(const std::string& fname, bool truncate,
                      std::unique_ptr<WritableFile>* result) EXCLUDES(mu_);

  mutable Mutex mu_;
  FileMap files_ GUARDED_BY(mu_);
  std::set<std::string> dirs_ GUARDED_BY(mu_);    // created explicitly
  std::set<std::string> locked_ GUARDED_BY(mu_);  // held by LockFile
};

}  // namespace strata
