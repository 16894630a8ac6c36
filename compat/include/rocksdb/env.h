// rocksdb/env.h: RocksDB's Env -- the operating-system interface (files,
// directories, background thread pools, clock) -- with RocksDB 7.8.3's
// classes and signatures, over Strata's strata::Env.
//
//  - Env::Default() and NewMemEnv() are Env objects backed directly by a
//    strata::Env (the POSIX one, an in-memory one); a database opened with
//    them uses that strata::Env with no adapter in between.
//  - Any other Env -- a user subclass, an EnvWrapper, NewCompositeEnv(fs) --
//    is honoured: the engine's file I/O goes through the Env's FileSystem
//    (GetFileSystem(): for a plain subclass, a FileSystem that calls the
//    Env's own file methods, as RocksDB's), its clock through
//    GetSystemClock(), and its background jobs through its Schedule.
//    GetStrataEnv() is the strata::Env the engine is given.
//  - File objects: RocksDB's SequentialFile, RandomAccessFile, WritableFile,
//    RandomRWFile, Directory and FileLock classes. Logger is Strata's
//    (strata::Logger), as elsewhere in this layer; it has RocksDB's members
//    (the levelless Logv, LogHeader, GetLogFileSize, ...), and
//    InfoLogLevel is Strata's own level type, an unscoped enumeration with
//    RocksDB's names and values: a RocksDB logger subclass overriding
//    Logv(const InfoLogLevel, ...), GetInfoLogLevel or SetInfoLogLevel
//    compiles unchanged.
//  - Env, FileSystem and SystemClock are Customizables, as in RocksDB; the
//    wrappers serialize their target ("target=...").
//  - LoadLibrary of Env::Default() opens a shared library (dlopen), as
//    RocksDB's POSIX Env.
//  - Calls Strata cannot back (LoadLibrary of other Envs, NewMemoryMappedFileBuffer,
//    GetThreadList, SetAllowNonOwnerAccess, LoadEnv,
//    CreateFromString, ...) return NotSupported naming the call.
//
// Thread-safety: Env, FileSystem and SystemClock are thread-safe; a file
// object is used by one thread at a time (RandomAccessFile::Read and
// RandomRWFile::Read are thread-safe).
#pragma once

#include <stdint.h>

#include <cassert>
#include <cstdarg>
#include <cstddef>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "rocksdb/customizable.h"
#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/slice.h"
#include "rocksdb/status.h"
#include "strata/env.h"

#if defined(__GNUC__) || defined(__clang__)
#define ROCKSDB_PRINTF_FORMAT_ATTR(format_param, dots_param) \
  __attribute__((__format__(__printf__, format_param, dots_param)))
#else
#define ROCKSDB_PRINTF_FORMAT_ATTR(format_param, dots_param)
#endif

namespace strata {
class RateLimiter;
}  // namespace strata

namespace rocksdb {

class DynamicLibrary;
class FileLock;
class RandomAccessFile;
class SequentialFile;
struct DataVerificationInfo;
class WritableFile;
class RandomRWFile;
class MemoryMappedFileBuffer;
class Directory;
struct DBOptions;
struct ImmutableDBOptions;
struct MutableDBOptions;
class ThreadStatusUpdater;
struct ThreadStatus;
class FileSystem;
class SystemClock;
struct ConfigOptions;
namespace compat {
class StrataBackedEnv;
}  // namespace compat

using Logger = ::strata::Logger;
using RateLimiter = ::strata::RateLimiter;

const size_t kDefaultPageSize = 4 * 1024;

// RocksDB's CPU priorities (same names and values).
using CpuPriority = ::strata::CpuPriority;

// RocksDB's unscoped enumeration, as Strata's (the same type: same values,
// RocksDB's names among its constants), so Logger's level parameters are
// RocksDB's InfoLogLevel.
using InfoLogLevel = ::strata::InfoLogLevel;
using ::strata::info_log_level::DEBUG_LEVEL;
using ::strata::info_log_level::ERROR_LEVEL;
using ::strata::info_log_level::FATAL_LEVEL;
using ::strata::info_log_level::HEADER_LEVEL;
using ::strata::info_log_level::INFO_LEVEL;
using ::strata::info_log_level::NUM_INFO_LOG_LEVELS;
using ::strata::info_log_level::WARN_LEVEL;

// How a file is opened. The Env and FileSystem objects of this layer pass
// use_mmap_*, use_direct_*, writable_file_max_buffer_size and
// strict_bytes_per_sync on to Strata's file systems; the other fields are
// advisory (a user Env or FileSystem sees them as given).
struct EnvOptions {
  EnvOptions();
  explicit EnvOptions(const DBOptions& options);
  bool use_mmap_reads = false;
  bool use_mmap_writes = true;
  bool use_direct_reads = false;
  bool use_direct_writes = false;
  bool allow_fallocate = true;
  bool set_fd_cloexec = true;
  uint64_t bytes_per_sync = 0;
  bool strict_bytes_per_sync = false;
  bool fallocate_with_keep_size = true;
  size_t compaction_readahead_size = 0;
  size_t random_access_max_buffer_size = 0;
  size_t writable_file_max_buffer_size = 1024 * 1024;
  RateLimiter* rate_limiter = nullptr;
};

class Env : public Customizable {
 public:
  static const char* kDefaultName() { return "DefaultEnv"; }
  struct FileAttributes {
    std::string name;
    uint64_t size_bytes;
  };

  // A subclass made with Env() gets a FileSystem that calls its own file
  // methods and a SystemClock that calls its own clock methods (RocksDB's
  // legacy wrappers); Env(fs) uses fs for files; Env(fs, clock) both.
  Env();
  explicit Env(const std::shared_ptr<FileSystem>& fs);
  Env(const std::shared_ptr<FileSystem>& fs, const std::shared_ptr<SystemClock>& clock);
  Env(const Env&) = delete;
  void operator=(const Env&) = delete;
  virtual ~Env();

  static const char* Type() { return "Environment"; }
  const char* Name() const override { return ""; }

  // Loading an Env by name (RocksDB's object registry): NotSupported.
  static Status LoadEnv(const std::string& value, Env** result);
  static Status LoadEnv(const std::string& value, Env** result, std::shared_ptr<Env>* guard);
  static Status CreateFromString(const ConfigOptions& config_options, const std::string& value,
                                 Env** result);
  static Status CreateFromString(const ConfigOptions& config_options, const std::string& value,
                                 Env** result, std::shared_ptr<Env>* guard);
  static Status CreateFromUri(const ConfigOptions& options, const std::string& env_uri,
                              const std::string& fs_uri, Env** result, std::shared_ptr<Env>* guard);

  // The process-wide POSIX environment over strata::Env::Default(); never
  // destroyed.
  static Env* Default();

  virtual Status RegisterDbPaths(const std::vector<std::string>& /*paths*/) { return Status::OK(); }
  virtual Status UnregisterDbPaths(const std::vector<std::string>& /*paths*/) {
    return Status::OK();
  }

  virtual Status NewSequentialFile(const std::string& fname,
                                   std::unique_ptr<SequentialFile>* result,
                                   const EnvOptions& options) = 0;
  virtual Status NewRandomAccessFile(const std::string& fname,
                                     std::unique_ptr<RandomAccessFile>* result,
                                     const EnvOptions& options) = 0;

  enum WriteLifeTimeHint {
    WLTH_NOT_SET = 0,
    WLTH_NONE,
    WLTH_SHORT,
    WLTH_MEDIUM,
    WLTH_LONG,
    WLTH_EXTREME,
  };

  // Creates or truncates fname.
  virtual Status NewWritableFile(const std::string& fname, std::unique_ptr<WritableFile>* result,
                                 const EnvOptions& options) = 0;
  virtual Status ReopenWritableFile(const std::string& /*fname*/,
                                    std::unique_ptr<WritableFile>* /*result*/,
                                    const EnvOptions& /*options*/) {
    return Status::NotSupported("Env::ReopenWritableFile() not supported.");
  }
  // Renames old_fname to fname and opens it for writing from the start.
  virtual Status ReuseWritableFile(const std::string& fname, const std::string& old_fname,
                                   std::unique_ptr<WritableFile>* result,
                                   const EnvOptions& options);
  virtual Status NewRandomRWFile(const std::string& /*fname*/,
                                 std::unique_ptr<RandomRWFile>* /*result*/,
                                 const EnvOptions& /*options*/) {
    return Status::NotSupported("RandomRWFile is not implemented in this Env");
  }
  virtual Status NewMemoryMappedFileBuffer(const std::string& /*fname*/,
                                           std::unique_ptr<MemoryMappedFileBuffer>* /*result*/) {
    return Status::NotSupported("MemoryMappedFileBuffer is not implemented in this Env");
  }
  virtual Status NewDirectory(const std::string& name, std::unique_ptr<Directory>* result) = 0;

  // OK, NotFound, or IOError.
  virtual Status FileExists(const std::string& fname) = 0;
  virtual Status GetChildren(const std::string& dir, std::vector<std::string>* result) = 0;
  virtual Status GetChildrenFileAttributes(const std::string& dir,
                                           std::vector<FileAttributes>* result);
  virtual Status DeleteFile(const std::string& fname) = 0;
  virtual Status Truncate(const std::string& /*fname*/, size_t /*size*/) {
    return Status::NotSupported("Truncate is not supported for this Env");
  }
  virtual Status CreateDir(const std::string& dirname) = 0;
  virtual Status CreateDirIfMissing(const std::string& dirname) = 0;
  virtual Status DeleteDir(const std::string& dirname) = 0;
  virtual Status GetFileSize(const std::string& fname, uint64_t* file_size) = 0;
  virtual Status GetFileModificationTime(const std::string& fname, uint64_t* file_mtime) = 0;
  virtual Status RenameFile(const std::string& src, const std::string& target) = 0;
  virtual Status LinkFile(const std::string& /*src*/, const std::string& /*target*/) {
    return Status::NotSupported("LinkFile is not supported for this Env");
  }
  virtual Status NumFileLinks(const std::string& /*fname*/, uint64_t* /*count*/) {
    return Status::NotSupported("Getting number of file links is not supported for this Env");
  }
  virtual Status AreFilesSame(const std::string& /*first*/, const std::string& /*second*/,
                              bool* /*res*/) {
    return Status::NotSupported("AreFilesSame is not supported for this Env");
  }
  // *lock is owned by the Env until UnlockFile(*lock).
  virtual Status LockFile(const std::string& fname, FileLock** lock) = 0;
  virtual Status UnlockFile(FileLock* lock) = 0;
  virtual Status LoadLibrary(const std::string& /*lib_name*/, const std::string& /*search_path*/,
                             std::shared_ptr<DynamicLibrary>* /*result*/) {
    return Status::NotSupported("LoadLibrary is not implemented in this Env");
  }

  // Background pools (RocksDB's values). LOW and HIGH start with one thread,
  // BOTTOM and USER with none.
  enum Priority { BOTTOM, LOW, HIGH, USER, TOTAL };
  static std::string PriorityToString(Priority priority);

  // Rate-limiter priorities: Strata's enum, so a RateLimiter takes them as is.
  using IOPriority = ::strata::Env::IOPriority;
  static constexpr IOPriority IO_LOW = ::strata::Env::IO_LOW;
  static constexpr IOPriority IO_MID = ::strata::Env::IO_MID;
  static constexpr IOPriority IO_HIGH = ::strata::Env::IO_HIGH;
  static constexpr IOPriority IO_USER = ::strata::Env::IO_USER;
  static constexpr IOPriority IO_TOTAL = ::strata::Env::IO_TOTAL;

  // Runs function(arg) once on a thread of pool pri. tag identifies the job
  // for UnSchedule; unschedFunction(arg) runs instead of the job when it is
  // unscheduled before it starts.
  virtual void Schedule(void (*function)(void* arg), void* arg, Priority pri = LOW,
                        void* tag = nullptr, void (*unschedFunction)(void* arg) = nullptr) = 0;
  // Removes the queued jobs scheduled with tag arg in pool pri (running ones
  // are not stopped); returns how many were removed.
  virtual int UnSchedule(void* /*arg*/, Priority /*pri*/) { return 0; }
  // Starts a new thread running function(arg); WaitForJoin joins them all.
  virtual void StartThread(void (*function)(void* arg), void* arg) = 0;

  template <typename FunctionT, typename... Args>
  void StartThreadTyped(FunctionT function, Args&&... args) {
    struct Call {
      std::function<void()> fn;
    };
    auto* call =
        new Call{std::bind(std::function<void(Args...)>(function), std::forward<Args>(args)...)};
    StartThread(
        [](void* arg) {
          auto* c = static_cast<Call*>(arg);
          c->fn();
          delete c;
        },
        call);
  }

  virtual void WaitForJoin() {}
  virtual int ReserveThreads(int /*threads_to_be_reserved*/, Priority /*pri*/) { return 0; }
  virtual int ReleaseThreads(int /*threads_to_be_released*/, Priority /*pri*/) { return 0; }
  virtual unsigned int GetThreadPoolQueueLen(Priority /*pri*/ = LOW) const { return 0; }

  // A directory for temporary test files ($TEST_TMPDIR, or /tmp/...).
  virtual Status GetTestDirectory(std::string* path) = 0;
  // An info log (Strata's Logger) writing to fname.
  virtual Status NewLogger(const std::string& fname, std::shared_ptr<Logger>* result);

  virtual uint64_t NowMicros() = 0;
  virtual uint64_t NowNanos() { return NowMicros() * 1000; }
  virtual uint64_t NowCPUNanos() { return 0; }
  virtual void SleepForMicroseconds(int micros) = 0;
  virtual Status GetHostName(char* name, uint64_t len) = 0;
  virtual Status GetHostNameString(std::string* result);
  virtual Status GetCurrentTime(int64_t* unix_time) = 0;
  virtual Status GetAbsolutePath(const std::string& db_path, std::string* output_path) = 0;

  virtual void SetBackgroundThreads(int number, Priority pri = LOW) = 0;
  virtual int GetBackgroundThreads(Priority pri = LOW) = 0;
  virtual Status SetAllowNonOwnerAccess(bool /*allow_non_owner_access*/) {
    return Status::NotSupported("Env::SetAllowNonOwnerAccess() not supported.");
  }
  // Grows pool pri to at least number threads.
  virtual void IncBackgroundThreadsIfNeeded(int number, Priority pri) = 0;
  virtual void LowerThreadPoolIOPriority(Priority /*pool*/ = LOW) {}
  virtual Status LowerThreadPoolCPUPriority(Priority /*pool*/, CpuPriority /*pri*/) {
    return Status::NotSupported(
        "Env::LowerThreadPoolCPUPriority(Priority, CpuPriority) not supported");
  }
  virtual void LowerThreadPoolCPUPriority(Priority /*pool*/ = LOW) {}

  // "YYYY/MM/DD-HH:MM:SS" (local time) for seconds since the epoch.
  virtual std::string TimeToString(uint64_t time) = 0;
  // A fresh unique id (an RFC 4122 UUID string).
  virtual std::string GenerateUniqueId();

  virtual EnvOptions OptimizeForLogRead(const EnvOptions& env_options) const;
  virtual EnvOptions OptimizeForManifestRead(const EnvOptions& env_options) const;
  virtual EnvOptions OptimizeForLogWrite(const EnvOptions& env_options,
                                         const DBOptions& db_options) const;
  virtual EnvOptions OptimizeForManifestWrite(const EnvOptions& env_options) const;
  virtual EnvOptions OptimizeForCompactionTableWrite(const EnvOptions& env_options,
                                                     const ImmutableDBOptions& immutable_ops) const;
  virtual EnvOptions OptimizeForCompactionTableRead(const EnvOptions& env_options,
                                                    const ImmutableDBOptions& db_options) const;
  virtual EnvOptions OptimizeForBlobFileRead(const EnvOptions& env_options,
                                             const ImmutableDBOptions& db_options) const;

  virtual Status GetThreadList(std::vector<ThreadStatus>* /*thread_list*/) {
    return Status::NotSupported("Env::GetThreadList() not supported.");
  }
  virtual ThreadStatusUpdater* GetThreadStatusUpdater() const { return thread_status_updater_; }
  // The calling thread's id.
  virtual uint64_t GetThreadID() const;

#undef GetFreeSpace
  virtual Status GetFreeSpace(const std::string& /*path*/, uint64_t* /*diskfree*/) {
    return Status::NotSupported("Env::GetFreeSpace() not supported.");
  }
  virtual Status IsDirectory(const std::string& /*path*/, bool* /*is_dir*/) {
    return Status::NotSupported("Env::IsDirectory() not supported.");
  }
  virtual void SanitizeEnvOptions(EnvOptions* /*env_opts*/) const {}

  const std::shared_ptr<FileSystem>& GetFileSystem() const;
  const std::shared_ptr<SystemClock>& GetSystemClock() const;

  // Strata extension: the strata::Env a database opened with this Env uses
  // (for Env::Default() and NewMemEnv, the strata::Env behind them; for any
  // other Env an adapter made on first use, owned by this Env and living as
  // long as it). Never null.
  ::strata::Env* GetStrataEnv();

 protected:
  ThreadStatusUpdater* thread_status_updater_;
  std::shared_ptr<FileSystem> file_system_;
  std::shared_ptr<SystemClock> system_clock_;

 private:
  friend class compat::StrataBackedEnv;
  static const size_t kMaxHostNameLen = 256;
  // Set by the Env objects backed by a strata::Env (Default, NewMemEnv).
  ::strata::Env* native_ = nullptr;
  std::once_flag adapter_once_;
  std::unique_ptr<::strata::Env> adapter_;
};

class SequentialFile {
 public:
  SequentialFile() {}
  virtual ~SequentialFile();
  // Reads up to n bytes; *result may point into scratch. A short result is
  // the end of the file.
  virtual Status Read(size_t n, Slice* result, char* scratch) = 0;
  virtual Status Skip(uint64_t n) = 0;
  virtual bool use_direct_io() const { return false; }
  virtual size_t GetRequiredBufferAlignment() const { return kDefaultPageSize; }
  virtual Status InvalidateCache(size_t /*offset*/, size_t /*length*/) {
    return Status::NotSupported("SequentialFile::InvalidateCache not supported.");
  }
  virtual Status PositionedRead(uint64_t /*offset*/, size_t /*n*/, Slice* /*result*/,
                                char* /*scratch*/) {
    return Status::NotSupported("SequentialFile::PositionedRead() not supported.");
  }
};

struct ReadRequest {
  uint64_t offset;
  size_t len;
  char* scratch;
  Slice result;
  Status status;
};

class RandomAccessFile {
 public:
  RandomAccessFile() {}
  virtual ~RandomAccessFile();
  // Thread-safe.
  virtual Status Read(uint64_t offset, size_t n, Slice* result, char* scratch) const = 0;
  virtual Status Prefetch(uint64_t /*offset*/, size_t /*n*/) { return Status::OK(); }
  virtual Status MultiRead(ReadRequest* reqs, size_t num_reqs) {
    assert(reqs != nullptr);
    for (size_t i = 0; i < num_reqs; ++i) {
      reqs[i].status = Read(reqs[i].offset, reqs[i].len, &reqs[i].result, reqs[i].scratch);
    }
    return Status::OK();
  }
  virtual size_t GetUniqueId(char* /*id*/, size_t /*max_size*/) const { return 0; }
  enum AccessPattern { NORMAL, RANDOM, SEQUENTIAL, WILLNEED, DONTNEED };
  virtual void Hint(AccessPattern /*pattern*/) {}
  virtual bool use_direct_io() const { return false; }
  virtual size_t GetRequiredBufferAlignment() const { return kDefaultPageSize; }
  virtual Status InvalidateCache(size_t /*offset*/, size_t /*length*/) {
    return Status::NotSupported("RandomAccessFile::InvalidateCache not supported.");
  }
};

class WritableFile {
 public:
  WritableFile()
      : last_preallocated_block_(0),
        preallocation_block_size_(0),
        io_priority_(Env::IO_TOTAL),
        write_hint_(Env::WLTH_NOT_SET),
        strict_bytes_per_sync_(false) {}
  explicit WritableFile(const EnvOptions& options)
      : last_preallocated_block_(0),
        preallocation_block_size_(0),
        io_priority_(Env::IO_TOTAL),
        write_hint_(Env::WLTH_NOT_SET),
        strict_bytes_per_sync_(options.strict_bytes_per_sync) {}
  WritableFile(const WritableFile&) = delete;
  void operator=(const WritableFile&) = delete;
  virtual ~WritableFile();

  virtual Status Append(const Slice& data) = 0;
  virtual Status Append(const Slice& data, const DataVerificationInfo& /*verification_info*/) {
    return Append(data);
  }
  virtual Status PositionedAppend(const Slice& /*data*/, uint64_t /*offset*/) {
    return Status::NotSupported("WritableFile::PositionedAppend() not supported.");
  }
  virtual Status PositionedAppend(const Slice& /*data*/, uint64_t /*offset*/,
                                  const DataVerificationInfo& /*verification_info*/) {
    return Status::NotSupported("PositionedAppend");
  }
  virtual Status Truncate(uint64_t /*size*/) { return Status::OK(); }
  virtual Status Close() = 0;
  virtual Status Flush() = 0;
  virtual Status Sync() = 0;
  virtual Status Fsync() { return Sync(); }
  virtual bool IsSyncThreadSafe() const { return false; }
  virtual bool use_direct_io() const { return false; }
  virtual size_t GetRequiredBufferAlignment() const { return kDefaultPageSize; }
  virtual void SetIOPriority(Env::IOPriority pri) { io_priority_ = pri; }
  virtual Env::IOPriority GetIOPriority() { return io_priority_; }
  virtual void SetWriteLifeTimeHint(Env::WriteLifeTimeHint hint) { write_hint_ = hint; }
  virtual Env::WriteLifeTimeHint GetWriteLifeTimeHint() { return write_hint_; }
  // Bytes appended so far (0 when the file does not keep count).
  virtual uint64_t GetFileSize() { return 0; }
  virtual void SetPreallocationBlockSize(size_t size) { preallocation_block_size_ = size; }
  virtual void GetPreallocationStatus(size_t* block_size, size_t* last_allocated_block) {
    *last_allocated_block = last_preallocated_block_;
    *block_size = preallocation_block_size_;
  }
  virtual size_t GetUniqueId(char* /*id*/, size_t /*max_size*/) const { return 0; }
  virtual Status InvalidateCache(size_t /*offset*/, size_t /*length*/) {
    return Status::NotSupported("WritableFile::InvalidateCache not supported.");
  }
  virtual Status RangeSync(uint64_t /*offset*/, uint64_t /*nbytes*/) {
    return strict_bytes_per_sync_ ? Sync() : Status::OK();
  }
  // Preallocates the blocks [offset, offset+len) touches, in whole
  // preallocation blocks, through Allocate.
  virtual void PrepareWrite(size_t offset, size_t len) {
    if (preallocation_block_size_ == 0) return;
    const size_t block = preallocation_block_size_;
    const size_t wanted_blocks = (offset + len + block - 1) / block;
    if (wanted_blocks > last_preallocated_block_) {
      Allocate(block * last_preallocated_block_, block * (wanted_blocks - last_preallocated_block_))
          .PermitUncheckedError();
      last_preallocated_block_ = wanted_blocks;
    }
  }
  virtual Status Allocate(uint64_t /*offset*/, uint64_t /*len*/) { return Status::OK(); }

 protected:
  size_t preallocation_block_size() { return preallocation_block_size_; }

 private:
  size_t last_preallocated_block_;
  size_t preallocation_block_size_;

 protected:
  Env::IOPriority io_priority_;
  Env::WriteLifeTimeHint write_hint_;
  const bool strict_bytes_per_sync_;
};

class RandomRWFile {
 public:
  RandomRWFile() {}
  RandomRWFile(const RandomRWFile&) = delete;
  RandomRWFile& operator=(const RandomRWFile&) = delete;
  virtual ~RandomRWFile() {}
  virtual bool use_direct_io() const { return false; }
  virtual size_t GetRequiredBufferAlignment() const { return kDefaultPageSize; }
  virtual Status Write(uint64_t offset, const Slice& data) = 0;
  virtual Status Read(uint64_t offset, size_t n, Slice* result, char* scratch) const = 0;
  virtual Status Flush() = 0;
  virtual Status Sync() = 0;
  virtual Status Fsync() { return Sync(); }
  virtual Status Close() = 0;
};

class MemoryMappedFileBuffer {
 public:
  MemoryMappedFileBuffer(void* _base, size_t _length) : base_(_base), length_(_length) {}
  virtual ~MemoryMappedFileBuffer() = 0;
  MemoryMappedFileBuffer(const MemoryMappedFileBuffer&) = delete;
  MemoryMappedFileBuffer& operator=(const MemoryMappedFileBuffer&) = delete;
  void* GetBase() const { return base_; }
  size_t GetLen() const { return length_; }

 protected:
  void* base_;
  const size_t length_;
};

class Directory {
 public:
  virtual ~Directory() {}
  virtual Status Fsync() = 0;
  virtual Status Close() { return Status::NotSupported("Close"); }
  virtual size_t GetUniqueId(char* /*id*/, size_t /*max_size*/) const { return 0; }
};

class FileLock {
 public:
  FileLock() {}
  virtual ~FileLock();

 private:
  FileLock(const FileLock&) = delete;
  void operator=(const FileLock&) = delete;
};

class DynamicLibrary {
 public:
  virtual ~DynamicLibrary() {}
  virtual const char* Name() const = 0;
  // *function = the symbol sym_name as a T (null and the status of
  // LoadSymbol when it is not found).
  template <typename T>
  Status LoadFunction(const std::string& sym_name, std::function<T>* function) {
    assert(nullptr != function);
    void* ptr = nullptr;
    Status s = LoadSymbol(sym_name, &ptr);
    *function = reinterpret_cast<T*>(ptr);
    return s;
  }
  // NotFound when the library has no such symbol.
  virtual Status LoadSymbol(const std::string& sym_name, void** func) = 0;
};

// RocksDB makes the object an Env reports its threads' status through; Strata
// tracks no thread status (GetThreadList is NotSupported): null.
ThreadStatusUpdater* CreateThreadStatusUpdater();

// Whole-file helpers over an Env.
Status WriteStringToFile(Env* env, const Slice& data, const std::string& fname,
                         bool should_sync = false);
Status ReadFileToString(Env* env, const std::string& fname, std::string* data);

// Forwards every call to another Env (the target). Subclass it and override
// what should change; the target must outlive the wrapper unless owned.
class EnvWrapper : public Env {
 public:
  struct Target {
    Env* env;
    std::shared_ptr<Env> guard;
    explicit Target(Env* t) : env(t) {}
    explicit Target(std::unique_ptr<Env>&& t) : guard(t.release()) { env = guard.get(); }
    explicit Target(const std::shared_ptr<Env>& t) : guard(t) { env = guard.get(); }
    void Prepare() {
      if (guard.get() != nullptr) {
        env = guard.get();
      } else if (env == nullptr) {
        env = Env::Default();
      }
    }
  };

  explicit EnvWrapper(Env* t);
  explicit EnvWrapper(std::unique_ptr<Env>&& t);
  explicit EnvWrapper(const std::shared_ptr<Env>& t);
  ~EnvWrapper() override;

  Env* target() const { return target_.env; }

  // Makes the target Env::Default() when none was given.
  Status PrepareOptions(const ConfigOptions& options) override;
  // The wrapper's options, then "target=<the target's>" unless the target is
  // Env::Default() or the depth is shallow.
  std::string SerializeOptions(const ConfigOptions& config_options,
                               const std::string& header) const override;

  const char* Name() const override { return target_.env->Name(); }
  Status RegisterDbPaths(const std::vector<std::string>& paths) override {
    return target_.env->RegisterDbPaths(paths);
  }
  Status UnregisterDbPaths(const std::vector<std::string>& paths) override {
    return target_.env->UnregisterDbPaths(paths);
  }
  Status NewSequentialFile(const std::string& f, std::unique_ptr<SequentialFile>* r,
                           const EnvOptions& options) override {
    return target_.env->NewSequentialFile(f, r, options);
  }
  Status NewRandomAccessFile(const std::string& f, std::unique_ptr<RandomAccessFile>* r,
                             const EnvOptions& options) override {
    return target_.env->NewRandomAccessFile(f, r, options);
  }
  Status NewWritableFile(const std::string& f, std::unique_ptr<WritableFile>* r,
                         const EnvOptions& options) override {
    return target_.env->NewWritableFile(f, r, options);
  }
  Status ReopenWritableFile(const std::string& fname, std::unique_ptr<WritableFile>* result,
                            const EnvOptions& options) override {
    return target_.env->ReopenWritableFile(fname, result, options);
  }
  Status ReuseWritableFile(const std::string& fname, const std::string& old_fname,
                           std::unique_ptr<WritableFile>* r, const EnvOptions& options) override {
    return target_.env->ReuseWritableFile(fname, old_fname, r, options);
  }
  Status NewRandomRWFile(const std::string& fname, std::unique_ptr<RandomRWFile>* result,
                         const EnvOptions& options) override {
    return target_.env->NewRandomRWFile(fname, result, options);
  }
  Status NewMemoryMappedFileBuffer(const std::string& fname,
                                   std::unique_ptr<MemoryMappedFileBuffer>* result) override {
    return target_.env->NewMemoryMappedFileBuffer(fname, result);
  }
  Status NewDirectory(const std::string& name, std::unique_ptr<Directory>* result) override {
    return target_.env->NewDirectory(name, result);
  }
  Status FileExists(const std::string& f) override { return target_.env->FileExists(f); }
  Status GetChildren(const std::string& dir, std::vector<std::string>* r) override {
    return target_.env->GetChildren(dir, r);
  }
  Status GetChildrenFileAttributes(const std::string& dir,
                                   std::vector<FileAttributes>* result) override {
    return target_.env->GetChildrenFileAttributes(dir, result);
  }
  Status DeleteFile(const std::string& f) override { return target_.env->DeleteFile(f); }
  Status Truncate(const std::string& fname, size_t size) override {
    return target_.env->Truncate(fname, size);
  }
  Status CreateDir(const std::string& d) override { return target_.env->CreateDir(d); }
  Status CreateDirIfMissing(const std::string& d) override {
    return target_.env->CreateDirIfMissing(d);
  }
  Status DeleteDir(const std::string& d) override { return target_.env->DeleteDir(d); }
  Status GetFileSize(const std::string& f, uint64_t* s) override {
    return target_.env->GetFileSize(f, s);
  }
  Status GetFileModificationTime(const std::string& fname, uint64_t* file_mtime) override {
    return target_.env->GetFileModificationTime(fname, file_mtime);
  }
  Status RenameFile(const std::string& s, const std::string& t) override {
    return target_.env->RenameFile(s, t);
  }
  Status LinkFile(const std::string& s, const std::string& t) override {
    return target_.env->LinkFile(s, t);
  }
  Status NumFileLinks(const std::string& fname, uint64_t* count) override {
    return target_.env->NumFileLinks(fname, count);
  }
  Status AreFilesSame(const std::string& first, const std::string& second, bool* res) override {
    return target_.env->AreFilesSame(first, second, res);
  }
  Status LockFile(const std::string& f, FileLock** l) override {
    return target_.env->LockFile(f, l);
  }
  Status UnlockFile(FileLock* l) override { return target_.env->UnlockFile(l); }
  Status IsDirectory(const std::string& path, bool* is_dir) override {
    return target_.env->IsDirectory(path, is_dir);
  }
  Status LoadLibrary(const std::string& lib_name, const std::string& search_path,
                     std::shared_ptr<DynamicLibrary>* result) override {
    return target_.env->LoadLibrary(lib_name, search_path, result);
  }
  void Schedule(void (*f)(void* arg), void* a, Priority pri, void* tag = nullptr,
                void (*u)(void* arg) = nullptr) override {
    return target_.env->Schedule(f, a, pri, tag, u);
  }
  int UnSchedule(void* tag, Priority pri) override { return target_.env->UnSchedule(tag, pri); }
  void StartThread(void (*f)(void*), void* a) override { return target_.env->StartThread(f, a); }
  void WaitForJoin() override { return target_.env->WaitForJoin(); }
  unsigned int GetThreadPoolQueueLen(Priority pri = LOW) const override {
    return target_.env->GetThreadPoolQueueLen(pri);
  }
  int ReserveThreads(int threads_to_be_reserved, Priority pri) override {
    return target_.env->ReserveThreads(threads_to_be_reserved, pri);
  }
  int ReleaseThreads(int threads_to_be_released, Priority pri) override {
    return target_.env->ReleaseThreads(threads_to_be_released, pri);
  }
  Status GetTestDirectory(std::string* path) override {
    return target_.env->GetTestDirectory(path);
  }
  Status NewLogger(const std::string& fname, std::shared_ptr<Logger>* result) override {
    return target_.env->NewLogger(fname, result);
  }
  uint64_t NowMicros() override { return target_.env->NowMicros(); }
  uint64_t NowNanos() override { return target_.env->NowNanos(); }
  uint64_t NowCPUNanos() override { return target_.env->NowCPUNanos(); }
  void SleepForMicroseconds(int micros) override { target_.env->SleepForMicroseconds(micros); }
  Status GetHostName(char* name, uint64_t len) override {
    return target_.env->GetHostName(name, len);
  }
  Status GetCurrentTime(int64_t* unix_time) override {
    return target_.env->GetCurrentTime(unix_time);
  }
  Status GetAbsolutePath(const std::string& db_path, std::string* output_path) override {
    return target_.env->GetAbsolutePath(db_path, output_path);
  }
  void SetBackgroundThreads(int num, Priority pri) override {
    return target_.env->SetBackgroundThreads(num, pri);
  }
  int GetBackgroundThreads(Priority pri) override { return target_.env->GetBackgroundThreads(pri); }
  Status SetAllowNonOwnerAccess(bool allow_non_owner_access) override {
    return target_.env->SetAllowNonOwnerAccess(allow_non_owner_access);
  }
  void IncBackgroundThreadsIfNeeded(int num, Priority pri) override {
    return target_.env->IncBackgroundThreadsIfNeeded(num, pri);
  }
  void LowerThreadPoolIOPriority(Priority pool) override {
    target_.env->LowerThreadPoolIOPriority(pool);
  }
  void LowerThreadPoolCPUPriority(Priority pool) override {
    target_.env->LowerThreadPoolCPUPriority(pool);
  }
  Status LowerThreadPoolCPUPriority(Priority pool, CpuPriority pri) override {
    return target_.env->LowerThreadPoolCPUPriority(pool, pri);
  }
  std::string TimeToString(uint64_t time) override { return target_.env->TimeToString(time); }
  Status GetThreadList(std::vector<ThreadStatus>* thread_list) override {
    return target_.env->GetThreadList(thread_list);
  }
  ThreadStatusUpdater* GetThreadStatusUpdater() const override {
    return target_.env->GetThreadStatusUpdater();
  }
  uint64_t GetThreadID() const override { return target_.env->GetThreadID(); }
  std::string GenerateUniqueId() override { return target_.env->GenerateUniqueId(); }
  EnvOptions OptimizeForLogRead(const EnvOptions& env_options) const override {
    return target_.env->OptimizeForLogRead(env_options);
  }
  EnvOptions OptimizeForManifestRead(const EnvOptions& env_options) const override {
    return target_.env->OptimizeForManifestRead(env_options);
  }
  EnvOptions OptimizeForLogWrite(const EnvOptions& env_options,
                                 const DBOptions& db_options) const override {
    return target_.env->OptimizeForLogWrite(env_options, db_options);
  }
  EnvOptions OptimizeForManifestWrite(const EnvOptions& env_options) const override {
    return target_.env->OptimizeForManifestWrite(env_options);
  }
  EnvOptions OptimizeForCompactionTableWrite(
      const EnvOptions& env_options, const ImmutableDBOptions& immutable_ops) const override {
    return target_.env->OptimizeForCompactionTableWrite(env_options, immutable_ops);
  }
  EnvOptions OptimizeForCompactionTableRead(const EnvOptions& env_options,
                                            const ImmutableDBOptions& db_options) const override {
    return target_.env->OptimizeForCompactionTableRead(env_options, db_options);
  }
  EnvOptions OptimizeForBlobFileRead(const EnvOptions& env_options,
                                     const ImmutableDBOptions& db_options) const override {
    return target_.env->OptimizeForBlobFileRead(env_options, db_options);
  }
  Status GetFreeSpace(const std::string& path, uint64_t* diskfree) override {
    return target_.env->GetFreeSpace(path, diskfree);
  }
  void SanitizeEnvOptions(EnvOptions* env_opts) const override {
    target_.env->SanitizeEnvOptions(env_opts);
  }

 private:
  Target target_;
};

// Forwarding file classes: each forwards every call to the file it was given
// (borrowed; it must outlive the wrapper).
class SequentialFileWrapper : public SequentialFile {
 public:
  explicit SequentialFileWrapper(SequentialFile* target) : target_(target) {}
  Status Read(size_t n, Slice* result, char* scratch) override {
    return target_->Read(n, result, scratch);
  }
  Status Skip(uint64_t n) override { return target_->Skip(n); }
  bool use_direct_io() const override { return target_->use_direct_io(); }
  size_t GetRequiredBufferAlignment() const override {
    return target_->GetRequiredBufferAlignment();
  }
  Status InvalidateCache(size_t offset, size_t length) override {
    return target_->InvalidateCache(offset, length);
  }
  Status PositionedRead(uint64_t offset, size_t n, Slice* result, char* scratch) override {
    return target_->PositionedRead(offset, n, result, scratch);
  }

 private:
  SequentialFile* target_;
};

class RandomAccessFileWrapper : public RandomAccessFile {
 public:
  explicit RandomAccessFileWrapper(RandomAccessFile* target) : target_(target) {}
  Status Read(uint64_t offset, size_t n, Slice* result, char* scratch) const override {
    return target_->Read(offset, n, result, scratch);
  }
  Status MultiRead(ReadRequest* reqs, size_t num_reqs) override {
    return target_->MultiRead(reqs, num_reqs);
  }
  Status Prefetch(uint64_t offset, size_t n) override { return target_->Prefetch(offset, n); }
  size_t GetUniqueId(char* id, size_t max_size) const override {
    return target_->GetUniqueId(id, max_size);
  }
  void Hint(AccessPattern pattern) override { target_->Hint(pattern); }
  bool use_direct_io() const override { return target_->use_direct_io(); }
  size_t GetRequiredBufferAlignment() const override {
    return target_->GetRequiredBufferAlignment();
  }
  Status InvalidateCache(size_t offset, size_t length) override {
    return target_->InvalidateCache(offset, length);
  }

 private:
  RandomAccessFile* target_;
};

class WritableFileWrapper : public WritableFile {
 public:
  explicit WritableFileWrapper(WritableFile* t) : target_(t) {}
  Status Append(const Slice& data) override { return target_->Append(data); }
  Status Append(const Slice& data, const DataVerificationInfo& verification_info) override {
    return target_->Append(data, verification_info);
  }
  Status PositionedAppend(const Slice& data, uint64_t offset) override {
    return target_->PositionedAppend(data, offset);
  }
  Status PositionedAppend(const Slice& data, uint64_t offset,
                          const DataVerificationInfo& verification_info) override {
    return target_->PositionedAppend(data, offset, verification_info);
  }
  Status Truncate(uint64_t size) override { return target_->Truncate(size); }
  Status Close() override { return target_->Close(); }
  Status Flush() override { return target_->Flush(); }
  Status Sync() override { return target_->Sync(); }
  Status Fsync() override { return target_->Fsync(); }
  bool IsSyncThreadSafe() const override { return target_->IsSyncThreadSafe(); }
  bool use_direct_io() const override { return target_->use_direct_io(); }
  size_t GetRequiredBufferAlignment() const override {
    return target_->GetRequiredBufferAlignment();
  }
  void SetIOPriority(Env::IOPriority pri) override { target_->SetIOPriority(pri); }
  Env::IOPriority GetIOPriority() override { return target_->GetIOPriority(); }
  void SetWriteLifeTimeHint(Env::WriteLifeTimeHint hint) override {
    target_->SetWriteLifeTimeHint(hint);
  }
  Env::WriteLifeTimeHint GetWriteLifeTimeHint() override { return target_->GetWriteLifeTimeHint(); }
  uint64_t GetFileSize() override { return target_->GetFileSize(); }
  void SetPreallocationBlockSize(size_t size) override { target_->SetPreallocationBlockSize(size); }
  void GetPreallocationStatus(size_t* block_size, size_t* last_allocated_block) override {
    target_->GetPreallocationStatus(block_size, last_allocated_block);
  }
  size_t GetUniqueId(char* id, size_t max_size) const override {
    return target_->GetUniqueId(id, max_size);
  }
  Status InvalidateCache(size_t offset, size_t length) override {
    return target_->InvalidateCache(offset, length);
  }
  Status RangeSync(uint64_t offset, uint64_t nbytes) override {
    return target_->RangeSync(offset, nbytes);
  }
  void PrepareWrite(size_t offset, size_t len) override { target_->PrepareWrite(offset, len); }
  Status Allocate(uint64_t offset, uint64_t len) override { return target_->Allocate(offset, len); }

 private:
  WritableFile* target_;
};

class RandomRWFileWrapper : public RandomRWFile {
 public:
  explicit RandomRWFileWrapper(RandomRWFile* target) : target_(target) {}
  bool use_direct_io() const override { return target_->use_direct_io(); }
  size_t GetRequiredBufferAlignment() const override {
    return target_->GetRequiredBufferAlignment();
  }
  Status Write(uint64_t offset, const Slice& data) override { return target_->Write(offset, data); }
  Status Read(uint64_t offset, size_t n, Slice* result, char* scratch) const override {
    return target_->Read(offset, n, result, scratch);
  }
  Status Flush() override { return target_->Flush(); }
  Status Sync() override { return target_->Sync(); }
  Status Fsync() override { return target_->Fsync(); }
  Status Close() override { return target_->Close(); }

 private:
  RandomRWFile* target_;
};

class DirectoryWrapper : public Directory {
 public:
  explicit DirectoryWrapper(Directory* target) : target_(target) {}
  Status Fsync() override { return target_->Fsync(); }
  Status Close() override { return target_->Close(); }
  size_t GetUniqueId(char* id, size_t max_size) const override {
    return target_->GetUniqueId(id, max_size);
  }

 private:
  Directory* target_;
};

// An Env whose files live in memory (lost when it is deleted). With
// base_env Env::Default() or null it is a strata::Env of its own (an
// in-memory file system, Strata's threads and clock); with another base_env,
// everything but the files is base_env's (which must outlive the result).
// The caller deletes the result.
Env* NewMemEnv(Env* base_env);

// Not offered (no timing Env): returns null.
Env* NewTimedEnv(Env* base_env);

// An info log writing to fname through env's files.
Status NewEnvLogger(const std::string& fname, Env* env, std::shared_ptr<Logger>* result);

// Forwards every call to another logger (borrowed; it must outlive this).
class LoggerWrapper : public Logger {
 public:
  explicit LoggerWrapper(Logger* target) : target_(target) {}

  Status Close() override { return target_->Close(); }
  void LogHeader(const char* format, va_list ap) override { target_->LogHeader(format, ap); }
  void Logv(const char* format, va_list ap) override { target_->Logv(format, ap); }
  void Logv(const InfoLogLevel log_level, const char* format, va_list ap) override {
    target_->Logv(log_level, format, ap);
  }
  size_t GetLogFileSize() const override { return target_->GetLogFileSize(); }
  void Flush() override { target_->Flush(); }
  InfoLogLevel GetInfoLogLevel() const override { return target_->GetInfoLogLevel(); }
  void SetInfoLogLevel(const InfoLogLevel log_level) override {
    target_->SetInfoLogLevel(log_level);
  }

 private:
  Logger* target_;
};

// An Env like Env::Default() (its threads and clock) whose files are fs's:
// a database opened with it does all its file I/O through fs.
std::unique_ptr<Env> NewCompositeEnv(const std::shared_ptr<FileSystem>& fs);

// Writing to an info log, RocksDB's helpers: a message below the logger's
// GetInfoLogLevel() is dropped, a null logger ignored; Header (and Log at
// HEADER_LEVEL) goes to the logger's LogHeader. Log(level, Logger*, ...)
// and Log(Logger*, format, ...) are Strata's own, so an unqualified call
// finds one function.
void LogFlush(const std::shared_ptr<Logger>& info_log);
void LogFlush(Logger* info_log);
void Log(const InfoLogLevel log_level, const std::shared_ptr<Logger>& info_log, const char* format,
         ...) __attribute__((format(printf, 3, 4)));
void Log(const std::shared_ptr<Logger>& info_log, const char* format, ...)
    __attribute__((format(printf, 2, 3)));
using ::strata::Log;
void Header(const std::shared_ptr<Logger>& info_log, const char* format, ...)
    __attribute__((format(printf, 2, 3)));
void Header(Logger* info_log, const char* format, ...) __attribute__((format(printf, 2, 3)));
void Debug(const std::shared_ptr<Logger>& info_log, const char* format, ...)
    __attribute__((format(printf, 2, 3)));
void Debug(Logger* info_log, const char* format, ...) __attribute__((format(printf, 2, 3)));
void Info(const std::shared_ptr<Logger>& info_log, const char* format, ...)
    __attribute__((format(printf, 2, 3)));
void Info(Logger* info_log, const char* format, ...) __attribute__((format(printf, 2, 3)));
void Warn(const std::shared_ptr<Logger>& info_log, const char* format, ...)
    __attribute__((format(printf, 2, 3)));
void Warn(Logger* info_log, const char* format, ...) __attribute__((format(printf, 2, 3)));
void Error(const std::shared_ptr<Logger>& info_log, const char* format, ...)
    __attribute__((format(printf, 2, 3)));
void Error(Logger* info_log, const char* format, ...) __attribute__((format(printf, 2, 3)));
void Fatal(const std::shared_ptr<Logger>& info_log, const char* format, ...)
    __attribute__((format(printf, 2, 3)));
void Fatal(Logger* info_log, const char* format, ...) __attribute__((format(printf, 2, 3)));

}  // namespace rocksdb
