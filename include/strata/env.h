// Env, FileSystem and SystemClock: every byte of I/O and every clock reading
// Strata makes goes through these interfaces, so tests can swap in an
// in-memory or fault-injecting file system and a mock clock.
//
//  - FileSystem: files and directories (POSIX, in-memory, fault-injecting).
//  - SystemClock: wall-clock and monotonic time, sleeping.
//  - Env: bundles one of each with the background thread pools (HIGH
//    priority for flushes, LOW for compactions, BOTTOM for compactions into
//    the bottommost level when it has threads, USER for a program's own jobs).
// Thread-safety: FileSystem, SystemClock and Env are thread-safe. A file
// object is not: use it from one thread at a time (RandomAccessFile::Read is
// the exception and is thread-safe).
#pragma once

#include <cstdarg>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "strata/export.h"
#include "strata/slice.h"
#include "strata/status.h"

namespace strata {

// How a file is opened; ignored by file systems where it has no meaning.
struct STRATA_EXPORT FileOptions {
  // Append through a memory map of preallocated (fallocated) space instead of
  // write(2): the bytes are in the page cache as soon as Append returns, so
  // they survive a crash of the process without a system call per append.
  bool use_mmap_writes = false;
  bool use_mmap_reads = false;
  // O_DIRECT (RocksDB's names; the POSIX file system only, others ignore
  // them). A direct RandomAccessFile reads whole aligned blocks into an
  // aligned buffer and copies the wanted range out; a direct WritableFile
  // writes whole aligned pages, rewrites the partial tail page as it grows
  // and cuts the file to its real size at Close. Where the file system
  // refuses O_DIRECT the open fails (InvalidArgument naming the option).
  // Sequential files ignore both.
  bool use_direct_reads = false;
  bool use_direct_writes = false;
  // Buffer size of a writable file opened without mmap; Append copies into
  // the buffer and Flush (or a full buffer) issues one write(2).
  size_t writable_file_max_buffer_size = 1024 * 1024;
  // Chunk by which a writable file preallocates space (fallocate), 0 = none.
  size_t preallocation_block_size = 0;
  // A writable file's Sync() is fsync(2), metadata included, instead of
  // fdatasync(2) (DBOptions::use_fsync).
  bool use_fsync = false;
  // RangeSync also waits for the write-back of everything before the range
  // (DBOptions::strict_bytes_per_sync), so no more than bytes_per_sync bytes
  // are ever waiting to be written back.
  bool strict_bytes_per_sync = false;
};

// A file read from start to end.
class STRATA_EXPORT SequentialFile {
 public:
  virtual ~SequentialFile() = default;
  // Reads up to n bytes. *result points into scratch or into the file's own
  // memory; a result shorter than n means end of file. REQUIRES: scratch
  // holds n bytes.
  virtual Status Read(size_t n, Slice* result, char* scratch) = 0;
  virtual Status Skip(uint64_t n) = 0;
};

// A file read at arbitrary offsets. Read is thread-safe.
class STRATA_EXPORT RandomAccessFile {
 public:
  virtual ~RandomAccessFile() = default;
  // Reads up to n bytes at offset; a short result means end of file.
  virtual Status Read(uint64_t offset, size_t n, Slice* result, char* scratch) const = 0;
  // Advice that [offset, offset+n) will be read soon; may do nothing.
  virtual Status Prefetch(uint64_t /*offset*/, size_t /*n*/) { return Status::OK(); }
  // For a file mapped into memory: its bytes (as of open), valid as long as
  // this object lives, so readers may use them in place. Empty otherwise.
  virtual Slice mapped_contents() const { return Slice(); }
};

// A file written sequentially. Durability levels:
//  - after Append+Flush the bytes survive a crash of the process;
//  - after Sync (fdatasync) or Fsync they survive a crash of the machine.
class STRATA_EXPORT WritableFile {
 public:
  virtual ~WritableFile() = default;
  virtual Status Append(const Slice& data) = 0;
  virtual Status Flush() = 0;
  virtual Status Sync() = 0;
  virtual Status Fsync() { return Sync(); }
  // Flushes and closes; the file keeps exactly the appended bytes.
  virtual Status Close() = 0;
  virtual uint64_t GetFileSize() const = 0;
  // Reserves space for [offset, offset+len) so later appends cannot fail
  // with ENOSPC; may do nothing.
  virtual Status Allocate(uint64_t /*offset*/, uint64_t /*len*/) { return Status::OK(); }
  // Starts writing back [offset, offset+nbytes) of what was appended and
  // flushed, without waiting and without metadata (DBOptions::bytes_per_sync;
  // RocksDB's RangeSync). Not a durability point. With
  // FileOptions::strict_bytes_per_sync it also waits for the write-back of
  // everything before the range. The default does nothing.
  virtual Status RangeSync(uint64_t /*offset*/, uint64_t /*nbytes*/) { return Status::OK(); }
};

// A file written in place at given offsets (FileSystem::NewRandomRWFile):
// ingestion writes an external file's global sequence number this way.
class STRATA_EXPORT RandomRWFile {
 public:
  virtual ~RandomRWFile() = default;
  // Writes data at offset (the file grows if it ends before).
  virtual Status Write(uint64_t offset, const Slice& data) = 0;
  virtual Status Sync() = 0;
  virtual Status Fsync() { return Sync(); }
  virtual Status Close() = 0;
};

// An open directory, used to make entry changes (create, rename) durable.
class STRATA_EXPORT Directory {
 public:
  virtual ~Directory() = default;
  virtual Status Fsync() = 0;
};

// A held lock on a file (see FileSystem::LockFile).
class STRATA_EXPORT FileLock {
 public:
  virtual ~FileLock() = default;
};

// The info log's levels, least severe first. An unscoped enumeration in a
// namespace of its own: its values convert to integers (a table indexed by
// level works) while the names stay out of namespace strata (spell them
// InfoLogLevel::kInfo). It carries RocksDB's names too, with the same
// values (DEBUG_LEVEL ... HEADER_LEVEL, and NUM_INFO_LOG_LEVELS past the
// last): the RocksDB layer's InfoLogLevel is this very type, so a logger
// written against RocksDB's headers overrides Logger's methods unchanged.
namespace info_log_level {
enum InfoLogLevel : unsigned char {
  kDebug = 0,
  kInfo,
  kWarn,
  kError,
  kFatal,
  kHeader,
  DEBUG_LEVEL = kDebug,
  INFO_LEVEL = kInfo,
  WARN_LEVEL = kWarn,
  ERROR_LEVEL = kError,
  FATAL_LEVEL = kFatal,
  HEADER_LEVEL = kHeader,
  NUM_INFO_LOG_LEVELS,
};
}  // namespace info_log_level
using InfoLogLevel = info_log_level::InfoLogLevel;

// The info log (the LOG file of a database). Thread-safe.
//
// A subclass overrides Logv(level, format, ap), or the older levelless
// Logv(format, ap) (RocksDB's form; RocksDB 7.8.3's Logger members are all
// here so its loggers derive from this class unchanged). The defaults chain
// as RocksDB's do: Logv(level, ...) drops a message below
// GetInfoLogLevel(), sends kHeader to LogHeader, kInfo to Logv(format) as
// is and other levels to Logv(format) prefixed "[WARN] " (etc.), flushing
// after kWarn and up; Logv(format) logs at kInfo; LogHeader logs at
// kHeader. A logger overriding neither Logv drops every message.
class STRATA_EXPORT Logger {
 public:
  // What GetLogFileSize answers when the size is not known (SIZE_MAX).
  size_t kDoNotSupportGetLogFileSize = std::numeric_limits<size_t>::max();

  explicit Logger(const InfoLogLevel log_level = InfoLogLevel::kInfo) : level_(log_level) {}
  Logger(const Logger&) = delete;
  void operator=(const Logger&) = delete;
  virtual ~Logger() = default;

  virtual void Logv(const InfoLogLevel log_level, const char* format, va_list ap);
  virtual void Logv(const char* format, va_list ap);
  virtual void LogHeader(const char* format, va_list ap);
  // The log file's size in bytes, or kDoNotSupportGetLogFileSize.
  virtual size_t GetLogFileSize() const { return kDoNotSupportGetLogFileSize; }
  // Pushes buffered lines to the file (RocksDB's signature: an info log's
  // flush failure is not reported).
  virtual void Flush() {}
  virtual Status Close() { return Status::OK(); }
  virtual InfoLogLevel GetInfoLogLevel() const { return level_; }
  virtual void SetInfoLogLevel(const InfoLogLevel log_level) { level_ = log_level; }

 private:
  InfoLogLevel level_;
};

// printf-style helpers; a null logger is allowed and ignored, and so is a
// message below the logger's level. Log(kHeader, ...) goes to LogHeader.
STRATA_EXPORT void Log(InfoLogLevel level, Logger* logger, const char* format, ...)
    __attribute__((format(printf, 3, 4)));
STRATA_EXPORT void Log(Logger* logger, const char* format, ...)
    __attribute__((format(printf, 2, 3)));

class STRATA_EXPORT FileSystem {
 public:
  virtual ~FileSystem() = default;
  virtual const char* Name() const = 0;

  // The process-wide POSIX file system.
  static std::shared_ptr<FileSystem> Default();

  virtual Status NewSequentialFile(const std::string& fname, const FileOptions& opts,
                                   std::unique_ptr<SequentialFile>* result) = 0;
  virtual Status NewRandomAccessFile(const std::string& fname, const FileOptions& opts,
                                     std::unique_ptr<RandomAccessFile>* result) = 0;
  // Creates or truncates fname.
  virtual Status NewWritableFile(const std::string& fname, const FileOptions& opts,
                                 std::unique_ptr<WritableFile>* result) = 0;
  // Opens fname for appending at its end, creating it if missing.
  virtual Status ReopenWritableFile(const std::string& fname, const FileOptions& opts,
                                    std::unique_ptr<WritableFile>* result) = 0;
  virtual Status NewDirectory(const std::string& name, std::unique_ptr<Directory>* result) = 0;

  // OK if fname exists, NotFound if it does not, IOError otherwise.
  virtual Status FileExists(const std::string& fname) = 0;
  // Names (not paths) of the entries of dir, without "." and "..".
  virtual Status GetChildren(const std::string& dir, std::vector<std::string>* result) = 0;
  virtual Status DeleteFile(const std::string& fname) = 0;
  virtual Status CreateDir(const std::string& dirname) = 0;
  virtual Status CreateDirIfMissing(const std::string& dirname) = 0;
  virtual Status DeleteDir(const std::string& dirname) = 0;
  virtual Status GetFileSize(const std::string& fname, uint64_t* size) = 0;
  // The file's last modification time, in seconds since the epoch
  // (archived-WAL expiry, DBOptions::WAL_ttl_seconds). File systems that
  // keep no times answer NotSupported.
  virtual Status GetFileModificationTime(const std::string& fname, uint64_t* file_mtime) {
    (void)fname;
    *file_mtime = 0;
    return Status::NotSupported("GetFileModificationTime", Name());
  }
  // Atomically replaces target with src (rename(2) semantics).
  virtual Status RenameFile(const std::string& src, const std::string& target) = 0;
  // Makes target a second name of src (a hard link); NotSupported where the
  // file system has no links (callers then copy). Fails when target exists.
  virtual Status LinkFile(const std::string& src, const std::string& target) {
    return Status::NotSupported("LinkFile is not supported by " + std::string(Name()),
                                src + " to " + target);
  }
  virtual Status IsDirectory(const std::string& path, bool* is_dir) = 0;
  virtual Status Truncate(const std::string& fname, uint64_t size) = 0;
  // Bytes an unprivileged writer may still use on the file system holding
  // path (RocksDB's GetFreeSpace); NotSupported where the file system
  // cannot tell (the default).
  virtual Status GetFreeSpace(const std::string& path, uint64_t* free_bytes) {
    (void)free_bytes;
    return Status::NotSupported("GetFreeSpace", path);
  }
  // How many hard links (names) the file has; NotSupported where the file
  // system cannot tell (SstFileManager then deletes trash whole).
  virtual Status NumFileLinks(const std::string& /*fname*/, uint64_t* /*count*/) {
    return Status::NotSupported("NumFileLinks");
  }
  // Opens the existing file fname for writing in place. NotSupported where
  // files cannot be rewritten at an offset.
  virtual Status NewRandomRWFile(const std::string& fname, const FileOptions& opts,
                                 std::unique_ptr<RandomRWFile>* result) {
    (void)fname, (void)opts, (void)result;
    return Status::NotSupported("NewRandomRWFile is not supported by this file system");
  }

  // Takes an exclusive advisory lock on fname (creating it). A second lock of
  // the same file -- from this or another process -- fails with IOError
  // naming the file. Release with UnlockFile.
  virtual Status LockFile(const std::string& fname, std::unique_ptr<FileLock>* lock) = 0;
  virtual Status UnlockFile(std::unique_ptr<FileLock> lock) = 0;

  // An info logger appending to fname (created or truncated).
  virtual Status NewLogger(const std::string& fname, std::shared_ptr<Logger>* result);
};

class STRATA_EXPORT SystemClock {
 public:
  virtual ~SystemClock() = default;
  virtual const char* Name() const = 0;
  // The process-wide real clock.
  static std::shared_ptr<SystemClock> Default();
  // Wall-clock microseconds since the Unix epoch.
  virtual uint64_t NowMicros() = 0;
  // Monotonic nanoseconds, for measuring intervals.
  virtual uint64_t NowNanos() = 0;
  // CPU time used by the calling thread, in microseconds; 0 when the clock
  // cannot tell (the default), as RocksDB's SystemClock::CPUMicros.
  virtual uint64_t CPUMicros() { return 0; }
  virtual void SleepForMicroseconds(int micros) = 0;
  // Unix seconds.
  virtual Status GetCurrentTime(int64_t* unix_time) = 0;
};

// The CPU priority of a pool's threads (RocksDB's names and values; see
// Env::LowerThreadPoolCPUPriority).
enum class CpuPriority { kIdle = 0, kLow = 1, kNormal = 2, kHigh = 3 };

class STRATA_EXPORT Env {
 public:
  // The background pools. kLow and kHigh start with one thread, kBottom and
  // kUser with none (a job scheduled there waits until threads are set).
  enum class Priority { kLow = 0, kHigh = 1, kBottom = 2, kUser = 3, kTotal = 4 };
  // The priority of an I/O request (RocksDB's names and values): what a
  // RateLimiter grants first. IO_TOTAL means "not rate limited".
  enum IOPriority { IO_LOW = 0, IO_MID = 1, IO_HIGH = 2, IO_USER = 3, IO_TOTAL = 4 };

  Env(std::shared_ptr<FileSystem> fs, std::shared_ptr<SystemClock> clock);
  virtual ~Env();
  Env(const Env&) = delete;
  Env& operator=(const Env&) = delete;

  // The process-wide POSIX environment; never destroyed.
  static Env* Default();

  FileSystem* GetFileSystem() const { return fs_.get(); }
  const std::shared_ptr<FileSystem>& GetFileSystemPtr() const { return fs_; }
  SystemClock* GetSystemClock() const { return clock_.get(); }

  // Runs fn on a background thread of the given priority's pool. The pools
  // grow and shrink with SetBackgroundThreads. REQUIRES: pri != kTotal.
  virtual void Schedule(std::function<void()> fn, Priority pri = Priority::kLow);
  virtual void SetBackgroundThreads(int n, Priority pri = Priority::kLow);
  virtual int GetBackgroundThreads(Priority pri = Priority::kLow);
  // Number of jobs queued (not yet running) in the given pool.
  virtual unsigned int GetThreadPoolQueueLen(Priority pri = Priority::kLow) const;
  // From their next job on, the pool's threads do their I/O in the idle I/O
  // class (Linux ioprio_set, IOPRIO_CLASS_IDLE); cannot be undone. Elsewhere
  // it does nothing.
  virtual void LowerThreadPoolIOPriority(Priority pri = Priority::kLow);
  // From their next job on, the pool's threads run at `cpu` (Linux: kIdle is
  // the SCHED_IDLE policy, kLow nice 19, kNormal nice 0, kHigh nice -20),
  // unless they already run lower: a pool's priority only goes down.
  // NotSupported where the platform has no per-thread priorities.
  virtual Status LowerThreadPoolCPUPriority(Priority pri, CpuPriority cpu);
  // Waits for all queued and running jobs, then stops the pools' threads.
  virtual void WaitForJobsAndJoinAllThreads();

  uint64_t NowMicros() { return clock_->NowMicros(); }
  uint64_t NowNanos() { return clock_->NowNanos(); }

 private:
  struct Pools;
  std::shared_ptr<FileSystem> fs_;
  std::shared_ptr<SystemClock> clock_;
  std::unique_ptr<Pools> pools_;
};

// An Env whose file system lives in memory (for tests); time and threads are
// real. Files are lost when the returned Env is destroyed.
STRATA_EXPORT std::unique_ptr<Env> NewMemEnv();

// An in-memory FileSystem on its own.
STRATA_EXPORT std::shared_ptr<FileSystem> NewMemFileSystem();

// Helpers on top of FileSystem.
// Writes data to a new file fname (replacing it), synced if should_sync;
// opts: how the file is opened (FileOptions::use_fsync for the sync).
STRATA_EXPORT Status WriteStringToFile(FileSystem* fs, const Slice& data, const std::string& fname,
                                       bool should_sync = false,
                                       const FileOptions& opts = FileOptions());
STRATA_EXPORT Status ReadFileToString(FileSystem* fs, const std::string& fname, std::string* data);
// Copies the first `size` bytes of src (0: all of it) to a new file dst,
// synced if sync. A src shorter than size is a Corruption naming it; dst is
// removed on any failure.
STRATA_EXPORT Status CopyFile(FileSystem* fs, const std::string& src, const std::string& dst,
                              uint64_t size, bool sync, const FileOptions& opts = FileOptions());

}  // namespace strata
