// rocksdb/file_system.h: RocksDB's FileSystem -- files and directories with
// per-call IOOptions and an IODebugContext -- with RocksDB 7.8.3's classes
// and signatures, over Strata's strata::FileSystem.
//
//  - FileSystem::Default() is Strata's POSIX file system seen through this
//    interface (FileOptions' mmap/direct/buffer fields are passed on).
//  - A program's own FileSystem (a subclass, or a FileSystemWrapper over
//    Default()) becomes the engine's file system through
//    NewCompositeEnv(fs) or Env(fs): every file the database opens, lists,
//    renames or deletes goes through it.
//  - IOStatus is Status here (io_status.h); IOOptions and IODebugContext
//    are passed through to a program's FileSystem as given; Strata's own
//    file systems do not look at them.
//  - Calls Strata cannot back (NewMemoryMappedFileBuffer,
//    AreFilesSame, Poll/AbortIO of async reads, Load/CreateFromString)
//    return NotSupported naming the call.
//
// Thread-safety: FileSystem implementations are thread-safe; a file object
// is used by one thread at a time (FSRandomAccessFile::Read is thread-safe).
#pragma once

#include <stdint.h>

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "rocksdb/advanced_options.h"
#include "rocksdb/env.h"
#include "rocksdb/io_status.h"
#include "rocksdb/options.h"
#include "rocksdb/table.h"

namespace rocksdb {

class FSDirectory;
class FSRandomAccessFile;
class FSRandomRWFile;
class FSSequentialFile;
class FSWritableFile;
struct ImmutableDBOptions;
struct MutableDBOptions;
struct ConfigOptions;

using AccessPattern = RandomAccessFile::AccessPattern;
using FileAttributes = Env::FileAttributes;

enum class IOPriority : uint8_t {
  kIOLow,
  kIOHigh,
  kIOTotal,
};

enum class IOType : uint8_t {
  kData,
  kFilter,
  kIndex,
  kMetadata,
  kWAL,
  kManifest,
  kLog,
  kUnknown,
  kInvalid,
};

// Per-call I/O settings.
struct IOOptions {
  std::chrono::microseconds timeout;
  IOPriority prio;
  Env::IOPriority rate_limiter_priority;
  IOType type;
  std::unordered_map<std::string, std::string> property_bag;
  bool force_dir_fsync;
  bool do_not_recurse;

  IOOptions() : IOOptions(false) {}
  explicit IOOptions(bool force_dir_fsync_)
      : timeout(std::chrono::microseconds::zero()),
        prio(IOPriority::kIOLow),
        rate_limiter_priority(Env::IO_TOTAL),
        type(IOType::kUnknown),
        force_dir_fsync(force_dir_fsync_),
        do_not_recurse(false) {}
};

// Why a directory is being synced (FSDirectory::FsyncWithDirOptions).
struct DirFsyncOptions {
  enum FsyncReason : uint8_t {
    kNewFileSynced,
    kFileRenamed,
    kDirRenamed,
    kFileDeleted,
    kDefault,
  } reason;
  std::string renamed_new_name;

  DirFsyncOptions();
  explicit DirFsyncOptions(std::string file_renamed_new_name);
  explicit DirFsyncOptions(FsyncReason fsync_reason);
};

// How a file is opened: EnvOptions plus per-file I/O settings.
struct FileOptions : EnvOptions {
  IOOptions io_options;
  Temperature temperature = Temperature::kUnknown;
  ChecksumType handoff_checksum_type;

  FileOptions() : EnvOptions(), handoff_checksum_type(ChecksumType::kCRC32c) {}
  FileOptions(const DBOptions& opts)  // NOLINT: implicit, as RocksDB's
      : EnvOptions(opts), handoff_checksum_type(ChecksumType::kCRC32c) {}
  FileOptions(const EnvOptions& opts)  // NOLINT: implicit, as RocksDB's
      : EnvOptions(opts), handoff_checksum_type(ChecksumType::kCRC32c) {}
  FileOptions(const FileOptions& opts)
      : EnvOptions(opts),
        io_options(opts.io_options),
        temperature(opts.temperature),
        handoff_checksum_type(opts.handoff_checksum_type) {}
  FileOptions& operator=(const FileOptions&) = default;
};

// Debugging information a FileSystem may fill in for a call.
struct IODebugContext {
  std::string file_path;
  std::map<std::string, uint64_t> counters;
  std::string msg;
  std::string request_id;
  enum TraceData : char {
    kRequestID = 0,
  };
  uint64_t trace_data = 0;

  IODebugContext() {}
  void AddCounter(std::string& name, uint64_t value) { counters.emplace(name, value); }
  void SetRequestId(const std::string& _request_id) {
    request_id = _request_id;
    trace_data |= (1 << TraceData::kRequestID);
  }
  std::string ToString() {
    std::ostringstream out;
    out << file_path << ", ";
    for (const auto& counter : counters) out << counter.first << " = " << counter.second << ",";
    out << msg;
    return out.str();
  }
};

using IOHandleDeleter = std::function<void(void*)>;

class FileSystem : public Customizable {
 public:
  FileSystem();
  FileSystem(const FileSystem&) = delete;
  ~FileSystem() override;

  static const char* Type() { return "FileSystem"; }
  static const char* kDefaultName() { return "DefaultFileSystem"; }
  const char* Name() const override = 0;

  // Loading a file system by name (RocksDB's object registry): NotSupported.
  static Status Load(const std::string& value, std::shared_ptr<FileSystem>* result);
  static Status CreateFromString(const ConfigOptions& options, const std::string& value,
                                 std::shared_ptr<FileSystem>* result);

  // The process-wide POSIX file system (Strata's); never destroyed.
  static std::shared_ptr<FileSystem> Default();

  virtual Status RegisterDbPaths(const std::vector<std::string>& /*paths*/) { return Status::OK(); }
  virtual Status UnregisterDbPaths(const std::vector<std::string>& /*paths*/) {
    return Status::OK();
  }

  virtual IOStatus NewSequentialFile(const std::string& fname, const FileOptions& file_opts,
                                     std::unique_ptr<FSSequentialFile>* result,
                                     IODebugContext* dbg) = 0;
  virtual IOStatus NewRandomAccessFile(const std::string& fname, const FileOptions& file_opts,
                                       std::unique_ptr<FSRandomAccessFile>* result,
                                       IODebugContext* dbg) = 0;

  enum WriteLifeTimeHint {
    kWLTHNotSet = 0,
    kWLTHNone,
    kWLTHShort,
    kWLTHMedium,
    kWLTHLong,
    kWLTHExtreme,
  };

  // Creates or truncates fname.
  virtual IOStatus NewWritableFile(const std::string& fname, const FileOptions& file_opts,
                                   std::unique_ptr<FSWritableFile>* result,
                                   IODebugContext* dbg) = 0;
  virtual IOStatus ReopenWritableFile(const std::string& /*fname*/, const FileOptions& /*options*/,
                                      std::unique_ptr<FSWritableFile>* /*result*/,
                                      IODebugContext* /*dbg*/) {
    return IOStatus::NotSupported("ReopenWritableFile");
  }
  // Renames old_fname to fname and opens it for writing from the start.
  virtual IOStatus ReuseWritableFile(const std::string& fname, const std::string& old_fname,
                                     const FileOptions& file_opts,
                                     std::unique_ptr<FSWritableFile>* result, IODebugContext* dbg);
  virtual IOStatus NewRandomRWFile(const std::string& /*fname*/, const FileOptions& /*options*/,
                                   std::unique_ptr<FSRandomRWFile>* /*result*/,
                                   IODebugContext* /*dbg*/) {
    return IOStatus::NotSupported("RandomRWFile is not implemented in this FileSystem");
  }
  virtual IOStatus NewMemoryMappedFileBuffer(const std::string& /*fname*/,
                                             std::unique_ptr<MemoryMappedFileBuffer>* /*result*/) {
    return IOStatus::NotSupported("MemoryMappedFileBuffer is not implemented in this FileSystem");
  }
  virtual IOStatus NewDirectory(const std::string& name, const IOOptions& io_opts,
                                std::unique_ptr<FSDirectory>* result, IODebugContext* dbg) = 0;

  // OK, NotFound, or IOError.
  virtual IOStatus FileExists(const std::string& fname, const IOOptions& options,
                              IODebugContext* dbg) = 0;
  virtual IOStatus GetChildren(const std::string& dir, const IOOptions& options,
                               std::vector<std::string>* result, IODebugContext* dbg) = 0;
  // The children of dir with their sizes (entries that vanish meanwhile are
  // left out).
  virtual IOStatus GetChildrenFileAttributes(const std::string& dir, const IOOptions& options,
                                             std::vector<FileAttributes>* result,
                                             IODebugContext* dbg);
#ifdef DeleteFile
#undef DeleteFile
#endif
  virtual IOStatus DeleteFile(const std::string& fname, const IOOptions& options,
                              IODebugContext* dbg) = 0;
  virtual IOStatus Truncate(const std::string& /*fname*/, size_t /*size*/,
                            const IOOptions& /*options*/, IODebugContext* /*dbg*/) {
    return IOStatus::NotSupported("Truncate is not supported for this FileSystem");
  }
  virtual IOStatus CreateDir(const std::string& dirname, const IOOptions& options,
                             IODebugContext* dbg) = 0;
  virtual IOStatus CreateDirIfMissing(const std::string& dirname, const IOOptions& options,
                                      IODebugContext* dbg) = 0;
  virtual IOStatus DeleteDir(const std::string& dirname, const IOOptions& options,
                             IODebugContext* dbg) = 0;
  virtual IOStatus GetFileSize(const std::string& fname, const IOOptions& options,
                               uint64_t* file_size, IODebugContext* dbg) = 0;
  virtual IOStatus GetFileModificationTime(const std::string& fname, const IOOptions& options,
                                           uint64_t* file_mtime, IODebugContext* dbg) = 0;
  virtual IOStatus RenameFile(const std::string& src, const std::string& target,
                              const IOOptions& options, IODebugContext* dbg) = 0;
  virtual IOStatus LinkFile(const std::string& /*src*/, const std::string& /*target*/,
                            const IOOptions& /*options*/, IODebugContext* /*dbg*/) {
    return IOStatus::NotSupported("LinkFile is not supported for this FileSystem");
  }
  virtual IOStatus NumFileLinks(const std::string& /*fname*/, const IOOptions& /*options*/,
                                uint64_t* /*count*/, IODebugContext* /*dbg*/) {
    return IOStatus::NotSupported(
        "Getting number of file links is not supported for this FileSystem");
  }
  virtual IOStatus AreFilesSame(const std::string& /*first*/, const std::string& /*second*/,
                                const IOOptions& /*options*/, bool* /*res*/,
                                IODebugContext* /*dbg*/) {
    return IOStatus::NotSupported("AreFilesSame is not supported for this FileSystem");
  }
  // *lock is owned by the file system until UnlockFile(*lock).
  virtual IOStatus LockFile(const std::string& fname, const IOOptions& options, FileLock** lock,
                            IODebugContext* dbg) = 0;
  virtual IOStatus UnlockFile(FileLock* lock, const IOOptions& options, IODebugContext* dbg) = 0;
  virtual IOStatus GetTestDirectory(const IOOptions& options, std::string* path,
                                    IODebugContext* dbg) = 0;
  // An info log (Strata's Logger) writing to fname through this file system.
  virtual IOStatus NewLogger(const std::string& fname, const IOOptions& io_opts,
                             std::shared_ptr<Logger>* result, IODebugContext* dbg);
  virtual IOStatus GetAbsolutePath(const std::string& db_path, const IOOptions& options,
                                   std::string* output_path, IODebugContext* dbg) = 0;
  virtual void SanitizeFileOptions(FileOptions* /*opts*/) const {}

  virtual FileOptions OptimizeForLogRead(const FileOptions& file_options) const;
  virtual FileOptions OptimizeForManifestRead(const FileOptions& file_options) const;
  virtual FileOptions OptimizeForLogWrite(const FileOptions& file_options,
                                          const DBOptions& db_options) const;
  virtual FileOptions OptimizeForManifestWrite(const FileOptions& file_options) const;
  virtual FileOptions OptimizeForCompactionTableWrite(
      const FileOptions& file_options, const ImmutableDBOptions& immutable_ops) const;
  virtual FileOptions OptimizeForCompactionTableRead(const FileOptions& file_options,
                                                     const ImmutableDBOptions& db_options) const;
  virtual FileOptions OptimizeForBlobFileRead(const FileOptions& file_options,
                                              const ImmutableDBOptions& db_options) const;

#ifdef GetFreeSpace
#undef GetFreeSpace
#endif
  virtual IOStatus GetFreeSpace(const std::string& /*path*/, const IOOptions& /*options*/,
                                uint64_t* /*diskfree*/, IODebugContext* /*dbg*/) {
    return IOStatus::NotSupported("GetFreeSpace");
  }
  virtual IOStatus IsDirectory(const std::string& path, const IOOptions& options, bool* is_dir,
                               IODebugContext* dgb) = 0;
  virtual IOStatus Poll(std::vector<void*>& /*io_handles*/, size_t /*min_completions*/) {
    return IOStatus::OK();
  }
  virtual IOStatus AbortIO(std::vector<void*>& /*io_handles*/) { return IOStatus::OK(); }

 private:
  void operator=(const FileSystem&);
};

class FSSequentialFile {
 public:
  FSSequentialFile() {}
  virtual ~FSSequentialFile() {}
  virtual IOStatus Read(size_t n, const IOOptions& options, Slice* result, char* scratch,
                        IODebugContext* dbg) = 0;
  virtual IOStatus Skip(uint64_t n) = 0;
  virtual bool use_direct_io() const { return false; }
  virtual size_t GetRequiredBufferAlignment() const { return kDefaultPageSize; }
  virtual IOStatus InvalidateCache(size_t /*offset*/, size_t /*length*/) {
    return IOStatus::NotSupported("InvalidateCache not supported.");
  }
  virtual IOStatus PositionedRead(uint64_t /*offset*/, size_t /*n*/, const IOOptions& /*options*/,
                                  Slice* /*result*/, char* /*scratch*/, IODebugContext* /*dbg*/) {
    return IOStatus::NotSupported("PositionedRead");
  }
  virtual Temperature GetTemperature() const { return Temperature::kUnknown; }
};

struct FSReadRequest {
  uint64_t offset;
  size_t len;
  char* scratch;
  Slice result;
  IOStatus status;
};

class FSRandomAccessFile {
 public:
  FSRandomAccessFile() {}
  virtual ~FSRandomAccessFile() {}
  // Thread-safe.
  virtual IOStatus Read(uint64_t offset, size_t n, const IOOptions& options, Slice* result,
                        char* scratch, IODebugContext* dbg) const = 0;
  virtual IOStatus Prefetch(uint64_t /*offset*/, size_t /*n*/, const IOOptions& /*options*/,
                            IODebugContext* /*dbg*/) {
    return IOStatus::NotSupported("Prefetch");
  }
  virtual IOStatus MultiRead(FSReadRequest* reqs, size_t num_reqs, const IOOptions& options,
                             IODebugContext* dbg) {
    for (size_t i = 0; i < num_reqs; ++i) {
      FSReadRequest& req = reqs[i];
      req.status = Read(req.offset, req.len, options, &req.result, req.scratch, dbg);
    }
    return IOStatus::OK();
  }
  virtual size_t GetUniqueId(char* /*id*/, size_t /*max_size*/) const { return 0; }
  enum AccessPattern { kNormal, kRandom, kSequential, kWillNeed, kWontNeed };
  virtual void Hint(AccessPattern /*pattern*/) {}
  virtual bool use_direct_io() const { return false; }
  virtual size_t GetRequiredBufferAlignment() const { return kDefaultPageSize; }
  virtual IOStatus InvalidateCache(size_t /*offset*/, size_t /*length*/) {
    return IOStatus::NotSupported("InvalidateCache not supported.");
  }
  // Reads synchronously and calls cb before returning (no async I/O here).
  virtual IOStatus ReadAsync(FSReadRequest& req, const IOOptions& opts,
                             std::function<void(const FSReadRequest&, void*)> cb, void* cb_arg,
                             void** /*io_handle*/, IOHandleDeleter* /*del_fn*/,
                             IODebugContext* dbg) {
    req.status = Read(req.offset, req.len, opts, &(req.result), req.scratch, dbg);
    cb(req, cb_arg);
    return IOStatus::OK();
  }
  virtual Temperature GetTemperature() const { return Temperature::kUnknown; }
};

struct DataVerificationInfo {
  Slice checksum;
};

class FSWritableFile {
 public:
  FSWritableFile()
      : last_preallocated_block_(0),
        preallocation_block_size_(0),
        io_priority_(Env::IO_TOTAL),
        write_hint_(Env::WLTH_NOT_SET),
        strict_bytes_per_sync_(false) {}
  explicit FSWritableFile(const FileOptions& options)
      : last_preallocated_block_(0),
        preallocation_block_size_(0),
        io_priority_(Env::IO_TOTAL),
        write_hint_(Env::WLTH_NOT_SET),
        strict_bytes_per_sync_(options.strict_bytes_per_sync) {}
  virtual ~FSWritableFile() {}

  virtual IOStatus Append(const Slice& data, const IOOptions& options, IODebugContext* dbg) = 0;
  virtual IOStatus Append(const Slice& data, const IOOptions& options,
                          const DataVerificationInfo& /*verification_info*/, IODebugContext* dbg) {
    return Append(data, options, dbg);
  }
  virtual IOStatus PositionedAppend(const Slice& /*data*/, uint64_t /*offset*/,
                                    const IOOptions& /*options*/, IODebugContext* /*dbg*/) {
    return IOStatus::NotSupported("PositionedAppend");
  }
  virtual IOStatus PositionedAppend(const Slice& /*data*/, uint64_t /*offset*/,
                                    const IOOptions& /*options*/,
                                    const DataVerificationInfo& /*verification_info*/,
                                    IODebugContext* /*dbg*/) {
    return IOStatus::NotSupported("PositionedAppend");
  }
  virtual IOStatus Truncate(uint64_t /*size*/, const IOOptions& /*options*/,
                            IODebugContext* /*dbg*/) {
    return IOStatus::OK();
  }
  virtual IOStatus Close(const IOOptions& options, IODebugContext* dbg) = 0;
  virtual IOStatus Flush(const IOOptions& options, IODebugContext* dbg) = 0;
  virtual IOStatus Sync(const IOOptions& options, IODebugContext* dbg) = 0;
  virtual IOStatus Fsync(const IOOptions& options, IODebugContext* dbg) {
    return Sync(options, dbg);
  }
  virtual bool IsSyncThreadSafe() const { return false; }
  virtual bool use_direct_io() const { return false; }
  virtual size_t GetRequiredBufferAlignment() const { return kDefaultPageSize; }
  virtual void SetWriteLifeTimeHint(Env::WriteLifeTimeHint hint) { write_hint_ = hint; }
  virtual void SetIOPriority(Env::IOPriority pri) { io_priority_ = pri; }
  virtual Env::IOPriority GetIOPriority() { return io_priority_; }
  virtual Env::WriteLifeTimeHint GetWriteLifeTimeHint() { return write_hint_; }
  // Bytes appended so far (0 when the file does not keep count).
  virtual uint64_t GetFileSize(const IOOptions& /*options*/, IODebugContext* /*dbg*/) { return 0; }
  virtual void SetPreallocationBlockSize(size_t size) { preallocation_block_size_ = size; }
  virtual void GetPreallocationStatus(size_t* block_size, size_t* last_allocated_block) {
    *last_allocated_block = last_preallocated_block_;
    *block_size = preallocation_block_size_;
  }
  virtual size_t GetUniqueId(char* /*id*/, size_t /*max_size*/) const { return 0; }
  virtual IOStatus InvalidateCache(size_t /*offset*/, size_t /*length*/) {
    return IOStatus::NotSupported("InvalidateCache not supported.");
  }
  virtual IOStatus RangeSync(uint64_t /*offset*/, uint64_t /*nbytes*/, const IOOptions& options,
                             IODebugContext* dbg) {
    return strict_bytes_per_sync_ ? Sync(options, dbg) : IOStatus::OK();
  }
  virtual void PrepareWrite(size_t offset, size_t len, const IOOptions& options,
                            IODebugContext* dbg) {
    if (preallocation_block_size_ == 0) return;
    const size_t block = preallocation_block_size_;
    const size_t wanted_blocks = (offset + len + block - 1) / block;
    if (wanted_blocks > last_preallocated_block_) {
      Allocate(block * last_preallocated_block_, block * (wanted_blocks - last_preallocated_block_),
               options, dbg)
          .PermitUncheckedError();
      last_preallocated_block_ = wanted_blocks;
    }
  }
  virtual IOStatus Allocate(uint64_t /*offset*/, uint64_t /*len*/, const IOOptions& /*options*/,
                            IODebugContext* /*dbg*/) {
    return IOStatus::OK();
  }

 protected:
  size_t preallocation_block_size() { return preallocation_block_size_; }

 private:
  size_t last_preallocated_block_;
  size_t preallocation_block_size_;
  FSWritableFile(const FSWritableFile&);
  void operator=(const FSWritableFile&);

 protected:
  Env::IOPriority io_priority_;
  Env::WriteLifeTimeHint write_hint_;
  const bool strict_bytes_per_sync_;
};

class FSRandomRWFile {
 public:
  FSRandomRWFile() {}
  virtual ~FSRandomRWFile() {}
  virtual bool use_direct_io() const { return false; }
  virtual size_t GetRequiredBufferAlignment() const { return kDefaultPageSize; }
  virtual IOStatus Write(uint64_t offset, const Slice& data, const IOOptions& options,
                         IODebugContext* dbg) = 0;
  virtual IOStatus Read(uint64_t offset, size_t n, const IOOptions& options, Slice* result,
                        char* scratch, IODebugContext* dbg) const = 0;
  virtual IOStatus Flush(const IOOptions& options, IODebugContext* dbg) = 0;
  virtual IOStatus Sync(const IOOptions& options, IODebugContext* dbg) = 0;
  virtual IOStatus Fsync(const IOOptions& options, IODebugContext* dbg) {
    return Sync(options, dbg);
  }
  virtual IOStatus Close(const IOOptions& options, IODebugContext* dbg) = 0;
  virtual Temperature GetTemperature() const { return Temperature::kUnknown; }
  FSRandomRWFile(const RandomRWFile&) = delete;
  FSRandomRWFile& operator=(const RandomRWFile&) = delete;
};

class FSMemoryMappedFileBuffer {
 public:
  FSMemoryMappedFileBuffer(void* _base, size_t _length) : base_(_base), length_(_length) {}
  virtual ~FSMemoryMappedFileBuffer() = 0;
  FSMemoryMappedFileBuffer(const FSMemoryMappedFileBuffer&) = delete;
  FSMemoryMappedFileBuffer& operator=(const FSMemoryMappedFileBuffer&) = delete;
  void* GetBase() const { return base_; }
  size_t GetLen() const { return length_; }

 protected:
  void* base_;
  const size_t length_;
};

class FSDirectory {
 public:
  virtual ~FSDirectory() {}
  virtual IOStatus Fsync(const IOOptions& options, IODebugContext* dbg) = 0;
  virtual IOStatus FsyncWithDirOptions(const IOOptions& options, IODebugContext* dbg,
                                       const DirFsyncOptions& /*dir_fsync_options*/) {
    return Fsync(options, dbg);
  }
  virtual IOStatus Close(const IOOptions& /*options*/, IODebugContext* /*dbg*/) {
    return IOStatus::NotSupported("Close");
  }
  virtual size_t GetUniqueId(char* /*id*/, size_t /*max_size*/) const { return 0; }
};

// Forwards every call to another file system (the target); subclass it and
// override what should change.
class FileSystemWrapper : public FileSystem {
 public:
  explicit FileSystemWrapper(const std::shared_ptr<FileSystem>& t);
  ~FileSystemWrapper() override {}

  FileSystem* target() const { return target_.get(); }
  const char* Name() const override { return target_->Name(); }

  // Makes the target FileSystem::Default() when none was given.
  Status PrepareOptions(const ConfigOptions& options) override;
  // The wrapper's options, then "target=<the target's>" unless the target is
  // the default file system or the depth is shallow.
  std::string SerializeOptions(const ConfigOptions& config_options,
                               const std::string& header) const override;
  const Customizable* Inner() const override { return target_.get(); }

  IOStatus NewSequentialFile(const std::string& f, const FileOptions& file_opts,
                             std::unique_ptr<FSSequentialFile>* r, IODebugContext* dbg) override {
    return target_->NewSequentialFile(f, file_opts, r, dbg);
  }
  IOStatus NewRandomAccessFile(const std::string& f, const FileOptions& file_opts,
                               std::unique_ptr<FSRandomAccessFile>* r,
                               IODebugContext* dbg) override {
    return target_->NewRandomAccessFile(f, file_opts, r, dbg);
  }
  IOStatus NewWritableFile(const std::string& f, const FileOptions& file_opts,
                           std::unique_ptr<FSWritableFile>* r, IODebugContext* dbg) override {
    return target_->NewWritableFile(f, file_opts, r, dbg);
  }
  IOStatus ReopenWritableFile(const std::string& fname, const FileOptions& file_opts,
                              std::unique_ptr<FSWritableFile>* result,
                              IODebugContext* dbg) override {
    return target_->ReopenWritableFile(fname, file_opts, result, dbg);
  }
  IOStatus ReuseWritableFile(const std::string& fname, const std::string& old_fname,
                             const FileOptions& file_opts, std::unique_ptr<FSWritableFile>* r,
                             IODebugContext* dbg) override {
    return target_->ReuseWritableFile(fname, old_fname, file_opts, r, dbg);
  }
  IOStatus NewRandomRWFile(const std::string& fname, const FileOptions& file_opts,
                           std::unique_ptr<FSRandomRWFile>* result, IODebugContext* dbg) override {
    return target_->NewRandomRWFile(fname, file_opts, result, dbg);
  }
  IOStatus NewMemoryMappedFileBuffer(const std::string& fname,
                                     std::unique_ptr<MemoryMappedFileBuffer>* result) override {
    return target_->NewMemoryMappedFileBuffer(fname, result);
  }
  IOStatus NewDirectory(const std::string& name, const IOOptions& io_opts,
                        std::unique_ptr<FSDirectory>* result, IODebugContext* dbg) override {
    return target_->NewDirectory(name, io_opts, result, dbg);
  }
  IOStatus FileExists(const std::string& f, const IOOptions& io_opts,
                      IODebugContext* dbg) override {
    return target_->FileExists(f, io_opts, dbg);
  }
  IOStatus GetChildren(const std::string& dir, const IOOptions& io_opts,
                       std::vector<std::string>* r, IODebugContext* dbg) override {
    return target_->GetChildren(dir, io_opts, r, dbg);
  }
  IOStatus GetChildrenFileAttributes(const std::string& dir, const IOOptions& options,
                                     std::vector<FileAttributes>* result,
                                     IODebugContext* dbg) override {
    return target_->GetChildrenFileAttributes(dir, options, result, dbg);
  }
  IOStatus DeleteFile(const std::string& f, const IOOptions& options,
                      IODebugContext* dbg) override {
    return target_->DeleteFile(f, options, dbg);
  }
  IOStatus Truncate(const std::string& fname, size_t size, const IOOptions& options,
                    IODebugContext* dbg) override {
    return target_->Truncate(fname, size, options, dbg);
  }
  IOStatus CreateDir(const std::string& d, const IOOptions& options, IODebugContext* dbg) override {
    return target_->CreateDir(d, options, dbg);
  }
  IOStatus CreateDirIfMissing(const std::string& d, const IOOptions& options,
                              IODebugContext* dbg) override {
    return target_->CreateDirIfMissing(d, options, dbg);
  }
  IOStatus DeleteDir(const std::string& d, const IOOptions& options, IODebugContext* dbg) override {
    return target_->DeleteDir(d, options, dbg);
  }
  IOStatus GetFileSize(const std::string& f, const IOOptions& options, uint64_t* s,
                       IODebugContext* dbg) override {
    return target_->GetFileSize(f, options, s, dbg);
  }
  IOStatus GetFileModificationTime(const std::string& fname, const IOOptions& options,
                                   uint64_t* file_mtime, IODebugContext* dbg) override {
    return target_->GetFileModificationTime(fname, options, file_mtime, dbg);
  }
  IOStatus GetAbsolutePath(const std::string& db_path, const IOOptions& options,
                           std::string* output_path, IODebugContext* dbg) override {
    return target_->GetAbsolutePath(db_path, options, output_path, dbg);
  }
  IOStatus RenameFile(const std::string& s, const std::string& t, const IOOptions& options,
                      IODebugContext* dbg) override {
    return target_->RenameFile(s, t, options, dbg);
  }
  IOStatus LinkFile(const std::string& s, const std::string& t, const IOOptions& options,
                    IODebugContext* dbg) override {
    return target_->LinkFile(s, t, options, dbg);
  }
  IOStatus NumFileLinks(const std::string& fname, const IOOptions& options, uint64_t* count,
                        IODebugContext* dbg) override {
    return target_->NumFileLinks(fname, options, count, dbg);
  }
  IOStatus AreFilesSame(const std::string& first, const std::string& second,
                        const IOOptions& options, bool* res, IODebugContext* dbg) override {
    return target_->AreFilesSame(first, second, options, res, dbg);
  }
  IOStatus LockFile(const std::string& f, const IOOptions& options, FileLock** l,
                    IODebugContext* dbg) override {
    return target_->LockFile(f, options, l, dbg);
  }
  IOStatus UnlockFile(FileLock* l, const IOOptions& options, IODebugContext* dbg) override {
    return target_->UnlockFile(l, options, dbg);
  }
  IOStatus GetTestDirectory(const IOOptions& options, std::string* path,
                            IODebugContext* dbg) override {
    return target_->GetTestDirectory(options, path, dbg);
  }
  IOStatus NewLogger(const std::string& fname, const IOOptions& options,
                     std::shared_ptr<Logger>* result, IODebugContext* dbg) override {
    return target_->NewLogger(fname, options, result, dbg);
  }
  void SanitizeFileOptions(FileOptions* opts) const override { target_->SanitizeFileOptions(opts); }
  FileOptions OptimizeForLogRead(const FileOptions& file_options) const override {
    return target_->OptimizeForLogRead(file_options);
  }
  FileOptions OptimizeForManifestRead(const FileOptions& file_options) const override {
    return target_->OptimizeForManifestRead(file_options);
  }
  FileOptions OptimizeForLogWrite(const FileOptions& file_options,
                                  const DBOptions& db_options) const override {
    return target_->OptimizeForLogWrite(file_options, db_options);
  }
  FileOptions OptimizeForManifestWrite(const FileOptions& file_options) const override {
    return target_->OptimizeForManifestWrite(file_options);
  }
  FileOptions OptimizeForCompactionTableWrite(
      const FileOptions& file_options, const ImmutableDBOptions& immutable_ops) const override {
    return target_->OptimizeForCompactionTableWrite(file_options, immutable_ops);
  }
  FileOptions OptimizeForCompactionTableRead(const FileOptions& file_options,
                                             const ImmutableDBOptions& db_options) const override {
    return target_->OptimizeForCompactionTableRead(file_options, db_options);
  }
  FileOptions OptimizeForBlobFileRead(const FileOptions& file_options,
                                      const ImmutableDBOptions& db_options) const override {
    return target_->OptimizeForBlobFileRead(file_options, db_options);
  }
  IOStatus GetFreeSpace(const std::string& path, const IOOptions& options, uint64_t* diskfree,
                        IODebugContext* dbg) override {
    return target_->GetFreeSpace(path, options, diskfree, dbg);
  }
  IOStatus IsDirectory(const std::string& path, const IOOptions& options, bool* is_dir,
                       IODebugContext* dbg) override {
    return target_->IsDirectory(path, options, is_dir, dbg);
  }
  IOStatus Poll(std::vector<void*>& io_handles, size_t min_completions) override {
    return target_->Poll(io_handles, min_completions);
  }
  IOStatus AbortIO(std::vector<void*>& io_handles) override { return target_->AbortIO(io_handles); }

 protected:
  std::shared_ptr<FileSystem> target_;
};

// Forwarding file classes: a *Wrapper borrows its target, an *OwnerWrapper
// owns it.
class FSSequentialFileWrapper : public FSSequentialFile {
 public:
  explicit FSSequentialFileWrapper(FSSequentialFile* t) : target_(t) {}
  FSSequentialFile* target() const { return target_; }
  IOStatus Read(size_t n, const IOOptions& options, Slice* result, char* scratch,
                IODebugContext* dbg) override {
    return target_->Read(n, options, result, scratch, dbg);
  }
  IOStatus Skip(uint64_t n) override { return target_->Skip(n); }
  bool use_direct_io() const override { return target_->use_direct_io(); }
  size_t GetRequiredBufferAlignment() const override {
    return target_->GetRequiredBufferAlignment();
  }
  IOStatus InvalidateCache(size_t offset, size_t length) override {
    return target_->InvalidateCache(offset, length);
  }
  IOStatus PositionedRead(uint64_t offset, size_t n, const IOOptions& options, Slice* result,
                          char* scratch, IODebugContext* dbg) override {
    return target_->PositionedRead(offset, n, options, result, scratch, dbg);
  }
  Temperature GetTemperature() const override { return target_->GetTemperature(); }

 private:
  FSSequentialFile* target_;
};

class FSSequentialFileOwnerWrapper : public FSSequentialFileWrapper {
 public:
  explicit FSSequentialFileOwnerWrapper(std::unique_ptr<FSSequentialFile>&& t)
      : FSSequentialFileWrapper(t.get()), guard_(std::move(t)) {}

 private:
  std::unique_ptr<FSSequentialFile> guard_;
};

class FSRandomAccessFileWrapper : public FSRandomAccessFile {
 public:
  explicit FSRandomAccessFileWrapper(FSRandomAccessFile* t) : target_(t) {}
  FSRandomAccessFile* target() const { return target_; }
  IOStatus Read(uint64_t offset, size_t n, const IOOptions& options, Slice* result, char* scratch,
                IODebugContext* dbg) const override {
    return target_->Read(offset, n, options, result, scratch, dbg);
  }
  IOStatus MultiRead(FSReadRequest* reqs, size_t num_reqs, const IOOptions& options,
                     IODebugContext* dbg) override {
    return target_->MultiRead(reqs, num_reqs, options, dbg);
  }
  IOStatus Prefetch(uint64_t offset, size_t n, const IOOptions& options,
                    IODebugContext* dbg) override {
    return target_->Prefetch(offset, n, options, dbg);
  }
  size_t GetUniqueId(char* id, size_t max_size) const override {
    return target_->GetUniqueId(id, max_size);
  }
  void Hint(AccessPattern pattern) override { target_->Hint(pattern); }
  bool use_direct_io() const override { return target_->use_direct_io(); }
  size_t GetRequiredBufferAlignment() const override {
    return target_->GetRequiredBufferAlignment();
  }
  IOStatus InvalidateCache(size_t offset, size_t length) override {
    return target_->InvalidateCache(offset, length);
  }
  IOStatus ReadAsync(FSReadRequest& req, const IOOptions& opts,
                     std::function<void(const FSReadRequest&, void*)> cb, void* cb_arg,
                     void** io_handle, IOHandleDeleter* del_fn, IODebugContext* dbg) override {
    return target_->ReadAsync(req, opts, cb, cb_arg, io_handle, del_fn, dbg);
  }
  Temperature GetTemperature() const override { return target_->GetTemperature(); }

 private:
  FSRandomAccessFile* target_;
};

class FSRandomAccessFileOwnerWrapper : public FSRandomAccessFileWrapper {
 public:
  explicit FSRandomAccessFileOwnerWrapper(std::unique_ptr<FSRandomAccessFile>&& t)
      : FSRandomAccessFileWrapper(t.get()), guard_(std::move(t)) {}

 private:
  std::unique_ptr<FSRandomAccessFile> guard_;
};

class FSWritableFileWrapper : public FSWritableFile {
 public:
  explicit FSWritableFileWrapper(FSWritableFile* t) : target_(t) {}
  FSWritableFile* target() const { return target_; }
  IOStatus Append(const Slice& data, const IOOptions& options, IODebugContext* dbg) override {
    return target_->Append(data, options, dbg);
  }
  IOStatus Append(const Slice& data, const IOOptions& options,
                  const DataVerificationInfo& verification_info, IODebugContext* dbg) override {
    return target_->Append(data, options, verification_info, dbg);
  }
  IOStatus PositionedAppend(const Slice& data, uint64_t offset, const IOOptions& options,
                            IODebugContext* dbg) override {
    return target_->PositionedAppend(data, offset, options, dbg);
  }
  IOStatus PositionedAppend(const Slice& data, uint64_t offset, const IOOptions& options,
                            const DataVerificationInfo& verification_info,
                            IODebugContext* dbg) override {
    return target_->PositionedAppend(data, offset, options, verification_info, dbg);
  }
  IOStatus Truncate(uint64_t size, const IOOptions& options, IODebugContext* dbg) override {
    return target_->Truncate(size, options, dbg);
  }
  IOStatus Close(const IOOptions& options, IODebugContext* dbg) override {
    return target_->Close(options, dbg);
  }
  IOStatus Flush(const IOOptions& options, IODebugContext* dbg) override {
    return target_->Flush(options, dbg);
  }
  IOStatus Sync(const IOOptions& options, IODebugContext* dbg) override {
    return target_->Sync(options, dbg);
  }
  IOStatus Fsync(const IOOptions& options, IODebugContext* dbg) override {
    return target_->Fsync(options, dbg);
  }
  bool IsSyncThreadSafe() const override { return target_->IsSyncThreadSafe(); }
  bool use_direct_io() const override { return target_->use_direct_io(); }
  size_t GetRequiredBufferAlignment() const override {
    return target_->GetRequiredBufferAlignment();
  }
  void SetWriteLifeTimeHint(Env::WriteLifeTimeHint hint) override {
    target_->SetWriteLifeTimeHint(hint);
  }
  Env::WriteLifeTimeHint GetWriteLifeTimeHint() override { return target_->GetWriteLifeTimeHint(); }
  void SetIOPriority(Env::IOPriority pri) override { target_->SetIOPriority(pri); }
  Env::IOPriority GetIOPriority() override { return target_->GetIOPriority(); }
  uint64_t GetFileSize(const IOOptions& options, IODebugContext* dbg) override {
    return target_->GetFileSize(options, dbg);
  }
  void SetPreallocationBlockSize(size_t size) override { target_->SetPreallocationBlockSize(size); }
  void GetPreallocationStatus(size_t* block_size, size_t* last_allocated_block) override {
    target_->GetPreallocationStatus(block_size, last_allocated_block);
  }
  size_t GetUniqueId(char* id, size_t max_size) const override {
    return target_->GetUniqueId(id, max_size);
  }
  IOStatus InvalidateCache(size_t offset, size_t length) override {
    return target_->InvalidateCache(offset, length);
  }
  IOStatus RangeSync(uint64_t offset, uint64_t nbytes, const IOOptions& options,
                     IODebugContext* dbg) override {
    return target_->RangeSync(offset, nbytes, options, dbg);
  }
  void PrepareWrite(size_t offset, size_t len, const IOOptions& options,
                    IODebugContext* dbg) override {
    target_->PrepareWrite(offset, len, options, dbg);
  }
  IOStatus Allocate(uint64_t offset, uint64_t len, const IOOptions& options,
                    IODebugContext* dbg) override {
    return target_->Allocate(offset, len, options, dbg);
  }

 private:
  FSWritableFile* target_;
};

class FSWritableFileOwnerWrapper : public FSWritableFileWrapper {
 public:
  explicit FSWritableFileOwnerWrapper(std::unique_ptr<FSWritableFile>&& t)
      : FSWritableFileWrapper(t.get()), guard_(std::move(t)) {}

 private:
  std::unique_ptr<FSWritableFile> guard_;
};

class FSRandomRWFileWrapper : public FSRandomRWFile {
 public:
  explicit FSRandomRWFileWrapper(FSRandomRWFile* t) : target_(t) {}
  FSRandomRWFile* target() const { return target_; }
  bool use_direct_io() const override { return target_->use_direct_io(); }
  size_t GetRequiredBufferAlignment() const override {
    return target_->GetRequiredBufferAlignment();
  }
  IOStatus Write(uint64_t offset, const Slice& data, const IOOptions& options,
                 IODebugContext* dbg) override {
    return target_->Write(offset, data, options, dbg);
  }
  IOStatus Read(uint64_t offset, size_t n, const IOOptions& options, Slice* result, char* scratch,
                IODebugContext* dbg) const override {
    return target_->Read(offset, n, options, result, scratch, dbg);
  }
  IOStatus Flush(const IOOptions& options, IODebugContext* dbg) override {
    return target_->Flush(options, dbg);
  }
  IOStatus Sync(const IOOptions& options, IODebugContext* dbg) override {
    return target_->Sync(options, dbg);
  }
  IOStatus Fsync(const IOOptions& options, IODebugContext* dbg) override {
    return target_->Fsync(options, dbg);
  }
  IOStatus Close(const IOOptions& options, IODebugContext* dbg) override {
    return target_->Close(options, dbg);
  }

 private:
  FSRandomRWFile* target_;
};

class FSRandomRWFileOwnerWrapper : public FSRandomRWFileWrapper {
 public:
  explicit FSRandomRWFileOwnerWrapper(std::unique_ptr<FSRandomRWFile>&& t)
      : FSRandomRWFileWrapper(t.get()), guard_(std::move(t)) {}

 private:
  std::unique_ptr<FSRandomRWFile> guard_;
};

class FSDirectoryWrapper : public FSDirectory {
 public:
  explicit FSDirectoryWrapper(std::unique_ptr<FSDirectory>&& t) : guard_(std::move(t)) {
    target_ = guard_.get();
  }
  explicit FSDirectoryWrapper(FSDirectory* t) : target_(t) {}
  IOStatus Fsync(const IOOptions& options, IODebugContext* dbg) override {
    return target_->Fsync(options, dbg);
  }
  IOStatus FsyncWithDirOptions(const IOOptions& options, IODebugContext* dbg,
                               const DirFsyncOptions& dir_fsync_options) override {
    return target_->FsyncWithDirOptions(options, dbg, dir_fsync_options);
  }
  IOStatus Close(const IOOptions& options, IODebugContext* dbg) override {
    return target_->Close(options, dbg);
  }
  size_t GetUniqueId(char* id, size_t max_size) const override {
    return target_->GetUniqueId(id, max_size);
  }

 private:
  std::unique_ptr<FSDirectory> guard_;
  FSDirectory* target_;
};

// Writes data as the whole of fname through fs (synced if should_sync); on
// failure the file is deleted.
IOStatus WriteStringToFile(FileSystem* fs, const Slice& data, const std::string& fname,
                           bool should_sync = false);
// Reads fname whole into *data through fs.
IOStatus ReadFileToString(FileSystem* fs, const std::string& fname, std::string* data);

}  // namespace rocksdb
