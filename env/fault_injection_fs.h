// FaultInjectionFileSystem: a FileSystem wrapping another one (POSIX or
// in-memory) that remembers what has been made durable, so a test can cut
// the power at any moment and see only what a real disk would still hold.
//
// What counts as durable (the model of a POSIX file system after power loss):
//  - File contents: the bytes up to the size the file had at its last
//    WritableFile::Sync/Fsync. Appended-but-unsynced bytes are lost.
//  - Directory entries: the names a directory held at its last
//    Directory::Fsync. A file created (or a rename made) since then
//    disappears (is undone) on power loss; a rename that replaced a file
//    brings the replaced file's durable contents back under the target name
//    (CURRENT is switched by renaming a temp file over it), and the source
//    name comes back with the renamed file's durable bytes. A delete not yet
//    made durable is undone too (the file reappears with its durable bytes).
//  - Files this wrapper has never seen created (they existed before it or
//    were never opened for writing through it) are taken as fully durable,
//    as are the entries of a directory up to the first change made in it
//    through this wrapper. Directories themselves (CreateDir, DeleteDir) are
//    passed through and assumed durable at once.
//
// Operations:
//  - DropUnsyncedData(): the power loss. Rewrites the base file system to
//    the durable state above. REQUIRES: nobody writes through this file
//    system meanwhile (close the DB first; open file objects must not be
//    used again).
//  - SetFilesystemActive(false): the crash moment. Every later mutating
//    operation (create, append, flush, sync, close, rename, delete,
//    truncate, directory fsync, allocate) fails with IOError and changes
//    nothing, so the DB may keep running while nothing more reaches the
//    "disk". Reads, locks and directory listing keep working.
//  - FailAfter(n, mode): fault injection at a chosen operation. The next n
//    mutating operations succeed; the one after fails with IOError. With
//    FaultMode::kCrash it also deactivates the file system at that moment
//    (a crash exactly there); with kOneShot only that operation fails.
//    mutating_ops() counts the mutating operations attempted so far, so a
//    test can run a workload once, count, and then walk n over the count.
//  - InjectFault(spec): a targeted fault (FaultSpec). Which operations: a
//    mask of FaultOp kinds (create, append, flush, sync, close, rename,
//    delete, truncate, directory fsync, allocate, directory create/delete,
//    open-for-read, read) restricted, optionally, to files whose base name
//    contains one of a list of strings (".log", ".sst", "MANIFEST-", ...)
//    and/or that a predicate accepts. When: at the (n+1)-th matching
//    operation, once or from then on (sticky), or at random with
//    probability p per matching operation from a seed (deterministic for a
//    given seed and operation order). What: IOError, NoSpace, or -- for
//    reads -- a short read (OK with fewer bytes than asked although the
//    file holds more) or a read with one bit flipped. A failing mutating
//    operation changes nothing. matched_ops() counts the matching
//    operations, so a test can arm a spec that never fires, run a
//    workload, and walk the fault point over the count.
//  - SetNoSpace(true): the disk is full. Every operation that allocates
//    (create, append, flush, sync, allocate, directory create/delete) fails
//    with NoSpace until SetNoSpace(false) returns the space.
//  - op_counts(kind): operations attempted / failed per kind;
//    SetFaultListener(fn): fn hears of every injected fault (to name it).
//
// Reads reach the fault through the RandomAccessFile / SequentialFile
// wrappers' Read (and Skip). (A short read of a SequentialFile looks like
// the end of the file, as its contract says; a reader can only tell by the
// file's size.) A base file that exposes mapped_contents()
// (POSIX with FileOptions::use_mmap_reads) lets table readers use its bytes
// in place, bypassing Read: tests of read faults on table files must turn
// mmap reads off (DBOptions::table_mmap_reads = false) or use a base, like
// MemFileSystem, without maps. The wrapper forwards mapped_contents() unless
// set_hide_mapped_contents(true).
//
// Thread-safety: thread-safe. One mutex guards all bookkeeping and is held
// across each base-file-system call it records, so the bookkeeping and the
// base never disagree; reads take it only to count and decide their fault.
// File objects follow strata/env.h (one thread at a time; RandomAccessFile::
// Read is thread-safe). Costs: every call that can fault takes the mutex;
// deleting or replacing a durable file copies its durable bytes into memory
// (to undo it later).
//
// Invariants:
//  1. Every tracked name maps to a FileState; a FileState is live under at
//     most one name, and durable under at most one name per directory.
//  2. A FileState's synced_size <= its size; both describe the base file
//     currently at its live name (while it has one).
//  3. saved_ holds the durable bytes of a FileState that is durable
//     somewhere but no longer live anywhere.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "strata/env.h"
#include "util/mutex.h"

namespace strata {

enum class FaultMode {
  kCrash,    // the failing operation deactivates the file system
  kOneShot,  // only the failing operation fails
};

// The kinds of file-system operation a fault can target.
enum class FaultOp : uint8_t {
  kCreate,    // NewWritableFile, ReopenWritableFile
  kAppend,    // WritableFile::Append
  kFlush,     // WritableFile::Flush
  kSync,      // WritableFile::Sync / Fsync
  kClose,     // WritableFile::Close
  kRename,    // RenameFile
  kDelete,    // DeleteFile
  kTruncate,  // Truncate
  kDirFsync,  // Directory::Fsync
  kAllocate,  // WritableFile::Allocate
  kDirOp,     // CreateDir, CreateDirIfMissing, DeleteDir
  kOpenRead,  // NewRandomAccessFile, NewSequentialFile
  kRead,      // RandomAccessFile::Read, SequentialFile::Read / Skip
  kNumKinds
};
using FaultOpMask = uint32_t;
constexpr FaultOpMask FaultOpBit(FaultOp op) { return FaultOpMask{1} << static_cast<int>(op); }
// Every kind FailAfter counts as mutating (all but kAllocate and reads).
constexpr FaultOpMask kMutatingFaultOps =
    FaultOpBit(FaultOp::kCreate) | FaultOpBit(FaultOp::kAppend) | FaultOpBit(FaultOp::kFlush) |
    FaultOpBit(FaultOp::kSync) | FaultOpBit(FaultOp::kClose) | FaultOpBit(FaultOp::kRename) |
    FaultOpBit(FaultOp::kDelete) | FaultOpBit(FaultOp::kTruncate) | FaultOpBit(FaultOp::kDirFsync) |
    FaultOpBit(FaultOp::kDirOp);
constexpr FaultOpMask kReadFaultOps = FaultOpBit(FaultOp::kOpenRead) | FaultOpBit(FaultOp::kRead);
// "create", "append", ...
const char* FaultOpName(FaultOp op);

// What an injected fault does.
enum class FaultError : uint8_t {
  kIOError,      // Status::IOError
  kNoSpace,      // Status::NoSpace (ENOSPC)
  kShortRead,    // read: OK with fewer bytes than the file holds (other ops: IOError)
  kCorruptRead,  // read: OK with one bit of the bytes flipped (other ops: IOError)
};

// A targeted fault; see the file comment.
struct FaultSpec {
  FaultOpMask ops = 0;  // which kinds (FaultOpBit | ...)
  // If non-empty, only files whose base name contains one of these (for a
  // rename, either name).
  std::vector<std::string> name_contains;
  // If set, only paths it accepts (for a rename, either path). Called under
  // the file system's mutex: it must not call back into the file system.
  std::function<bool(const std::string& path)> predicate;
  FaultError error = FaultError::kIOError;
  // Countdown mode (probability == 0): the (countdown+1)-th matching
  // operation fails; sticky makes every later matching operation fail too.
  uint64_t countdown = 0;
  bool sticky = false;
  // Random mode (probability > 0): each matching operation fails with this
  // probability, drawn from a generator seeded with seed (which also picks
  // the bit a kCorruptRead flips, in either mode).
  double probability = 0;
  uint64_t seed = 0;
};

// Counters of one operation kind.
struct FaultOpCounts {
  uint64_t attempted = 0;
  uint64_t failed = 0;  // by any injected fault (inactive, FailAfter, spec, no space)
};

class FaultInjectionFileSystem final : public FileSystem {
 public:
  // base is shared with the caller, who may keep using it (for instance to
  // reopen the DB on the base after a simulated crash).
  explicit FaultInjectionFileSystem(std::shared_ptr<FileSystem> base);
  ~FaultInjectionFileSystem() override;
  FaultInjectionFileSystem(const FaultInjectionFileSystem&) = delete;
  FaultInjectionFileSystem& operator=(const FaultInjectionFileSystem&) = delete;

  const char* Name() const override { return "FaultInjectionFileSystem"; }
  FileSystem* base() const { return base_.get(); }

  // --- Fault control -------------------------------------------------------

  // Simulates power loss (see the file comment). Returns the first error of
  // the base file system, if any. Works whether or not the file system is
  // active; afterwards every tracked file counts as fully durable.
  Status DropUnsyncedData() EXCLUDES(mu_);
  // Active (the default): operations reach the base. Inactive: every
  // mutating operation fails with IOError("file system inactive").
  void SetFilesystemActive(bool active) EXCLUDES(mu_);
  bool IsFilesystemActive() const EXCLUDES(mu_);
  // Arms the countdown described in the file comment; replaces an earlier one.
  void FailAfter(uint64_t n, FaultMode mode) EXCLUDES(mu_);
  void ClearFailAfter() EXCLUDES(mu_);
  // Mutating operations attempted (whether they succeeded or not).
  uint64_t mutating_ops() const EXCLUDES(mu_);
  // Operations failed by the countdown, by inactivity, by a FaultSpec or
  // by a full disk.
  uint64_t injected_faults() const EXCLUDES(mu_);

  // Arms spec (replacing an earlier one) and zeroes matched_ops() and
  // spec_faults(). A spec with an empty mask matches nothing.
  void InjectFault(const FaultSpec& spec) EXCLUDES(mu_);
  void ClearFault() EXCLUDES(mu_);
  // Operations that matched the armed spec (its kinds and file filter)
  // since InjectFault, whether they failed or not.
  uint64_t matched_ops() const EXCLUDES(mu_);
  // Operations the armed spec failed (or damaged, for reads).
  uint64_t spec_faults() const EXCLUDES(mu_);
  // The disk-full switch (see the file comment).
  void SetNoSpace(bool no_space) EXCLUDES(mu_);
  bool IsNoSpace() const EXCLUDES(mu_);
  // What GetFreeSpace answers: 0 while the disk is full (SetNoSpace), else
  // `bytes` once set here, else the base file system's answer.
  void SetFreeSpace(uint64_t bytes) EXCLUDES(mu_);
  // Per-kind counters since construction or ResetOpCounts().
  FaultOpCounts op_counts(FaultOp op) const EXCLUDES(mu_);
  void ResetOpCounts() EXCLUDES(mu_);
  // Called (under the file system's mutex: it must not call back into this
  // file system) for every injected fault: the operation, its path (a
  // rename's "src -> target") and the Status it fails with -- for a short
  // or bit-flipped read, which returns OK, a Corruption describing it.
  using FaultListener =
      std::function<void(FaultOp op, const std::string& path, const Status& fault)>;
  void SetFaultListener(FaultListener listener) EXCLUDES(mu_);
  // Hides the base files' mapped_contents() from readers, so every read
  // goes through Read (and its faults). Affects files opened afterwards.
  void set_hide_mapped_contents(bool hide) EXCLUDES(mu_);

  // --- FileSystem ----------------------------------------------------------

  Status NewSequentialFile(const std::string& fname, const FileOptions& opts,
                           std::unique_ptr<SequentialFile>* result) override;
  Status NewRandomAccessFile(const std::string& fname, const FileOptions& opts,
                             std::unique_ptr<RandomAccessFile>* result) override;
  Status NewWritableFile(const std::string& fname, const FileOptions& opts,
                         std::unique_ptr<WritableFile>* result) override EXCLUDES(mu_);
  Status ReopenWritableFile(const std::string& fname, const FileOptions& opts,
                            std::unique_ptr<WritableFile>* result) override EXCLUDES(mu_);
  Status NewDirectory(const std::string& name, std::unique_ptr<Directory>* result) override;

  Status FileExists(const std::string& fname) override;
  Status GetChildren(const std::string& dir, std::vector<std::string>* result) override;
  Status DeleteFile(const std::string& fname) override EXCLUDES(mu_);
  Status CreateDir(const std::string& dirname) override EXCLUDES(mu_);
  Status CreateDirIfMissing(const std::string& dirname) override EXCLUDES(mu_);
  Status DeleteDir(const std::string& dirname) override EXCLUDES(mu_);
  Status GetFileSize(const std::string& fname, uint64_t* size) override;
  Status GetFileModificationTime(const std::string& fname, uint64_t* file_mtime) override;
  Status RenameFile(const std::string& src, const std::string& target) override EXCLUDES(mu_);
  Status IsDirectory(const std::string& path, bool* is_dir) override;
  Status GetFreeSpace(const std::string& path, uint64_t* free_bytes) override EXCLUDES(mu_);
  Status Truncate(const std::string& fname, uint64_t size) override EXCLUDES(mu_);

  Status LockFile(const std::string& fname, std::unique_ptr<FileLock>* lock) override;
  Status UnlockFile(std::unique_ptr<FileLock> lock) override;

  // What one file has made durable (defined in fault_injection_fs.cc).
  struct FileState;

 private:
  friend class FaultWritableFile;
  friend class FaultDirectory;
  friend class FaultRandomAccessFile;
  friend class FaultSequentialFile;

  // What a read is to suffer.
  enum class ReadFault { kNone, kError, kShort, kCorrupt };

  using NameMap = std::map<std::string, std::shared_ptr<FileState>>;  // entry name -> file
  struct DirState {
    NameMap live;     // the entries now
    NameMap durable;  // the entries at the last Directory::Fsync
  };

  // Counts one operation and decides whether it is to fail. path2 is a
  // rename's target (else empty).
  Status CheckFault(FaultOp kind, const char* op, const std::string& path,
                    const std::string& path2 = std::string()) REQUIRES(mu_);
  // True if the armed spec covers kind on path (or path2).
  bool SpecMatches(FaultOp kind, const std::string& path, const std::string& path2) const
      REQUIRES(mu_);
  // Decides whether the armed spec fires on this matching operation.
  bool SpecFires() REQUIRES(mu_);
  // For a read: counts it and decides its fault; *error is set for kError.
  ReadFault CheckRead(const std::string& path, Status* error) EXCLUDES(mu_);
  // Applies a kShort / kCorrupt fault to a read's result (moving it into
  // scratch if needed). n is the size asked for.
  void DamageRead(ReadFault f, size_t n, Slice* result, char* scratch) EXCLUDES(mu_);
  Status FileAllocate(const std::string& path, WritableFile* base, uint64_t offset, uint64_t len)
      EXCLUDES(mu_);
  // The directory's state, created from the base's listing on first use
  // (existing entries are taken as durable).
  DirState* GetDir(const std::string& dir) REQUIRES(mu_);
  // Looks up (or starts tracking, as fully durable) the file at path.
  std::shared_ptr<FileState> Lookup(const std::string& path) REQUIRES(mu_);
  // Removes the live entry at path (callers first save the durable bytes of
  // a file that is durable somewhere, for DropUnsyncedData).
  void Unlink(const std::string& path) REQUIRES(mu_);
  bool IsDurableSomewhere(const FileState* f) const REQUIRES(mu_);

  // Entry points of the file objects.
  Status FileAppend(const std::string& path, FileState* f, WritableFile* base, const Slice& data)
      EXCLUDES(mu_);
  Status FileFlush(const std::string& path, WritableFile* base) EXCLUDES(mu_);
  Status FileSync(const std::string& path, FileState* f, WritableFile* base, bool fsync)
      EXCLUDES(mu_);
  Status FileClose(const std::string& path, WritableFile* base) EXCLUDES(mu_);
  Status DirFsync(const std::string& dir, Directory* base) EXCLUDES(mu_);

  const std::shared_ptr<FileSystem> base_;

  mutable Mutex mu_;
  std::map<std::string, DirState> dirs_ GUARDED_BY(mu_);  // normalized dir path -> state
  bool active_ GUARDED_BY(mu_) = true;
  bool countdown_armed_ GUARDED_BY(mu_) = false;
  uint64_t countdown_ GUARDED_BY(mu_) = 0;
  FaultMode countdown_mode_ GUARDED_BY(mu_) = FaultMode::kCrash;
  uint64_t mutating_ops_ GUARDED_BY(mu_) = 0;
  uint64_t injected_faults_ GUARDED_BY(mu_) = 0;
  bool spec_armed_ GUARDED_BY(mu_) = false;
  bool spec_fired_ GUARDED_BY(mu_) = false;  // a countdown spec has fired
  FaultSpec spec_ GUARDED_BY(mu_);
  uint64_t spec_remaining_ GUARDED_BY(mu_) = 0;  // countdown left
  uint64_t matched_ops_ GUARDED_BY(mu_) = 0;
  uint64_t spec_faults_ GUARDED_BY(mu_) = 0;
  std::mt19937_64 rng_ GUARDED_BY(mu_);
  bool no_space_ GUARDED_BY(mu_) = false;
  bool free_space_set_ GUARDED_BY(mu_) = false;
  uint64_t free_space_ GUARDED_BY(mu_) = 0;
  bool hide_mapped_ GUARDED_BY(mu_) = false;
  FaultListener listener_ GUARDED_BY(mu_);
  FaultOpCounts counts_[static_cast<int>(FaultOp::kNumKinds)] GUARDED_BY(mu_);
};

}  // namespace strata
