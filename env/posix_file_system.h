// PosixFileSystem: the FileSystem over the operating system's files (Linux),
// returned by FileSystem::Default().
//
// Files it hands out:
//  - SequentialFile: read(2) from the current position.
//  - RandomAccessFile: pread(2), or with FileOptions::use_mmap_reads a
//    read-only map of the whole file (Read then returns views into the map,
//    no copy; the file must not shrink while open). With
//    FileOptions::use_direct_reads (and no mmap): O_DIRECT, reading the
//    aligned blocks (logical block size of the device, from sysfs, else
//    4096) that cover the wanted range into an aligned per-thread buffer and
//    copying the range out.
//  - WritableFile, direct (FileOptions::use_direct_writes, new files only):
//    O_DIRECT, an aligned buffer written as whole aligned pages; Flush pads
//    the partial last page with zeros and keeps it to rewrite as it grows;
//    Close cuts the file to the appended size.
//  - A file system that refuses O_DIRECT (EINVAL) gives InvalidArgument
//    naming the option (use_direct_reads /
//    use_direct_io_for_flush_and_compaction) and the path.
//  - WritableFile, buffered (default): Append copies into a buffer of
//    FileOptions::writable_file_max_buffer_size bytes, allocated once; Flush
//    (or a full buffer) issues write(2); an Append that does not fit in the
//    buffer's free space flushes it and, if at least a buffer long, is
//    written directly. With preallocation_block_size > 0 space is reserved
//    ahead with fallocate(FALLOC_FL_KEEP_SIZE) and released again by Close.
//  - WritableFile, mmap (FileOptions::use_mmap_writes): space is reserved
//    with posix_fallocate in chunks of preallocation_block_size (4 MiB if 0),
//    each chunk is mapped MAP_SHARED and Append is a memcpy into it. Because
//    space is reserved before it is mapped, a full disk gives Status::NoSpace
//    from Append, never SIGBUS. Flush does nothing: copied bytes are in the
//    page cache and survive a crash of the process. Close unmaps and cuts the
//    file to the appended size. After a crash of the process the file ends
//    with zero bytes up to the end of the last reserved chunk; readers of such
//    files (the WAL reader) treat trailing zeros as the end of data.
//
// Errors: a Status naming the operation, the path and the errno text, e.g.
// IOError("While appending to file", "/db/000003.log: No space left on
// device"). ENOSPC gives Status::NoSpace, ENOENT gives Status::PathNotFound
// (both IOErrors); FileExists alone answers NotFound for a missing path.
//
// Locks: LockFile takes an open-file-description lock (fcntl F_OFD_SETLK,
// falling back to F_SETLK), which conflicts with other processes' fcntl
// locks (RocksDB's included), and also records the path in a process-wide
// table, so a second LockFile of the same path fails in the same process as
// well as in another one.
//
// Every descriptor is opened with O_CLOEXEC.
// Thread-safety: thread-safe (see strata/env.h for the file objects).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "strata/env.h"

namespace strata {

class PosixFileSystem final : public FileSystem {
 public:
  PosixFileSystem() = default;
  const char* Name() const override { return "PosixFileSystem"; }

  Status NewSequentialFile(const std::string& fname, const FileOptions& opts,
                           std::unique_ptr<SequentialFile>* result) override;
  Status NewRandomAccessFile(const std::string& fname, const FileOptions& opts,
                             std::unique_ptr<RandomAccessFile>* result) override;
  Status NewWritableFile(const std::string& fname, const FileOptions& opts,
                         std::unique_ptr<WritableFile>* result) override;
  Status ReopenWritableFile(const std::string& fname, const FileOptions& opts,
                            std::unique_ptr<WritableFile>* result) override;
  Status NewDirectory(const std::string& name, std::unique_ptr<Directory>* result) override;

  Status FileExists(const std::string& fname) override;
  Status GetChildren(const std::string& dir, std::vector<std::string>* result) override;
  Status DeleteFile(const std::string& fname) override;
  Status CreateDir(const std::string& dirname) override;
  Status CreateDirIfMissing(const std::string& dirname) override;
  Status DeleteDir(const std::string& dirname) override;
  Status GetFileSize(const std::string& fname, uint64_t* size) override;
  Status GetFileModificationTime(const std::string& fname, uint64_t* file_mtime) override;
  Status RenameFile(const std::string& src, const std::string& target) override;
  Status LinkFile(const std::string& src, const std::string& target) override;
  Status IsDirectory(const std::string& path, bool* is_dir) override;
  Status Truncate(const std::string& fname, uint64_t size) override;
  Status NumFileLinks(const std::string& fname, uint64_t* count) override;
  Status GetFreeSpace(const std::string& path, uint64_t* free_bytes) override;
  Status NewRandomRWFile(const std::string& fname, const FileOptions& opts,
                         std::unique_ptr<RandomRWFile>* result) override;

  Status LockFile(const std::string& fname, std::unique_ptr<FileLock>* lock) override;
  Status UnlockFile(std::unique_ptr<FileLock> lock) override;

 private:
  Status OpenWritable(const std::string& fname, const FileOptions& opts, bool truncate,
                      std::unique_ptr<WritableFile>* result);
};

}  // namespace strata
