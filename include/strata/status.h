// Status: the result of an operation -- success, or an error code, an optional
// subcode and a message saying what failed and where.
//
// Every fallible call in Strata returns a Status; the class is [[nodiscard]],
// so ignoring one is a compile-time warning (an error with -Werror). Code that
// deliberately drops a Status says so with PermitUncheckedError().
// Thread-safety: const methods are thread-safe.
// Invariants: ok() <=> code() == kOk; an ok Status carries no message and no
// heap allocation, so returning Status::OK() is free; so is any status made
// without a message (the factories taking a subcode alone). The object is
// two words (code, subcode, severity and RocksDB's I/O attributes in the
// first, the message pointer in the second).
#pragma once

#include <memory>
#include <string>

#include "strata/export.h"
#include "strata/slice.h"

namespace strata {

class STRATA_EXPORT [[nodiscard]] Status {
 public:
  // Persisted nowhere, but kept in RocksDB's numbering (rocksdb::Status is
  // this class).
  enum Code : unsigned char {
    kOk = 0,
    kNotFound = 1,
    kCorruption = 2,
    kNotSupported = 3,
    kInvalidArgument = 4,
    kIOError = 5,
    kMergeInProgress = 6,
    kIncomplete = 7,
    kShutdownInProgress = 8,
    kTimedOut = 9,
    kAborted = 10,
    kBusy = 11,
    kExpired = 12,
    kTryAgain = 13,
    kCompactionTooLarge = 14,
    kColumnFamilyDropped = 15,
    kMaxCode
  };

  // RocksDB's subcodes and numbering. Strata's engine produces kNoSpace,
  // kPathNotFound, kSpaceLimit, kMemoryLimit, kManualCompactionPaused,
  // kTxnNotPrepared and the lock ones; the others exist for programs (and
  // file systems) that make them.
  enum SubCode : unsigned char {
    kNone = 0,
    kMutexTimeout = 1,
    kLockTimeout = 2,
    kLockLimit = 3,
    kNoSpace = 4,
    kDeadlock = 5,
    kStaleFile = 6,
    kMemoryLimit = 7,
    kSpaceLimit = 8,
    kPathNotFound = 9,
    KMergeOperandsInsufficientCapacity = 10,  // RocksDB's spelling
    kManualCompactionPaused = 11,
    kOverwritten = 12,  // with kOk only
    kTxnNotPrepared = 13,
    kIOFenced = 14,
    kMaxSubCode
  };

  // How bad an error is for the database that met it (RocksDB's scale).
  // Strata's engine attaches none (its statuses carry kNoError); a severity
  // is kept and copied as a program sets it.
  enum Severity : unsigned char {
    kNoError = 0,
    kSoftError = 1,
    kHardError = 2,
    kFatalError = 3,
    kUnrecoverableError = 4,
    kMaxSeverity
  };

  Status() noexcept = default;
  Status(const Status& s);
  Status& operator=(const Status& s);
  Status(Status&& s) noexcept = default;
  Status& operator=(Status&& s) noexcept = default;
  ~Status() = default;

  // A copy of s with severity sev.
  Status(const Status& s, Severity sev) : Status(s) { sev_ = sev; }
  // Code, subcode, severity and message given directly (an OK code keeps
  // no message).
  Status(Code code, SubCode subcode, Severity sev, const Slice& msg)
      : Status(code, subcode, msg, Slice()) {
    sev_ = sev;
  }

  // The factories. Each code has a form with a message (msg, or
  // "msg: msg2") and one with a subcode alone (no message, nothing
  // allocated). A message given with a subcode prints after the subcode's
  // text and ": ", even when empty (as RocksDB prints it).
  static Status OK() { return Status(); }
  // OK, noting that a value was overwritten (ToString: "OK").
  static Status OkOverwritten() { return Status(kOk, kOverwritten); }
  static Status NotFound(const Slice& msg, const Slice& msg2 = Slice()) {
    return Status(kNotFound, kNone, msg, msg2);
  }
  static Status NotFound(SubCode subcode = kNone) { return Status(kNotFound, subcode); }
  static Status NotFound(SubCode subcode, const Slice& msg, const Slice& msg2 = Slice()) {
    return Status(kNotFound, subcode, msg, msg2);
  }
  static Status Corruption(const Slice& msg, const Slice& msg2 = Slice()) {
    return Status(kCorruption, kNone, msg, msg2);
  }
  static Status Corruption(SubCode subcode = kNone) { return Status(kCorruption, subcode); }
  static Status NotSupported(const Slice& msg, const Slice& msg2 = Slice()) {
    return Status(kNotSupported, kNone, msg, msg2);
  }
  static Status NotSupported(SubCode subcode = kNone) { return Status(kNotSupported, subcode); }
  static Status InvalidArgument(const Slice& msg, const Slice& msg2 = Slice()) {
    return Status(kInvalidArgument, kNone, msg, msg2);
  }
  static Status InvalidArgument(SubCode subcode = kNone) {
    return Status(kInvalidArgument, subcode);
  }
  static Status IOError(const Slice& msg, const Slice& msg2 = Slice()) {
    return Status(kIOError, kNone, msg, msg2);
  }
  static Status IOError(SubCode subcode = kNone) { return Status(kIOError, subcode); }
  static Status NoSpace() { return Status(kIOError, kNoSpace); }
  static Status NoSpace(const Slice& msg, const Slice& msg2 = Slice()) {
    return Status(kIOError, kNoSpace, msg, msg2);
  }
  // SstFileManager's max_allowed_space_usage was reached (RocksDB's
  // IOError with subcode kSpaceLimit).
  static Status SpaceLimit() { return Status(kIOError, kSpaceLimit); }
  static Status SpaceLimit(const Slice& msg, const Slice& msg2 = Slice()) {
    return Status(kIOError, kSpaceLimit, msg, msg2);
  }
  static Status PathNotFound() { return Status(kIOError, kPathNotFound); }
  static Status PathNotFound(const Slice& msg, const Slice& msg2 = Slice()) {
    return Status(kIOError, kPathNotFound, msg, msg2);
  }
  // A merge whose operands cannot be resolved here (WriteBatchWithIndex::
  // GetFromBatch with operands but no base in the batch).
  static Status MergeInProgress(const Slice& msg, const Slice& msg2 = Slice()) {
    return Status(kMergeInProgress, kNone, msg, msg2);
  }
  static Status MergeInProgress(SubCode subcode = kNone) {
    return Status(kMergeInProgress, subcode);
  }
  static Status Incomplete(const Slice& msg, const Slice& msg2 = Slice()) {
    return Status(kIncomplete, kNone, msg, msg2);
  }
  static Status Incomplete(SubCode subcode = kNone) { return Status(kIncomplete, subcode); }
  static Status ShutdownInProgress(const Slice& msg, const Slice& msg2 = Slice()) {
    return Status(kShutdownInProgress, kNone, msg, msg2);
  }
  static Status ShutdownInProgress(SubCode subcode = kNone) {
    return Status(kShutdownInProgress, subcode);
  }
  static Status Aborted(const Slice& msg, const Slice& msg2 = Slice()) {
    return Status(kAborted, kNone, msg, msg2);
  }
  static Status Aborted(SubCode subcode = kNone) { return Status(kAborted, subcode); }
  static Status Busy(const Slice& msg, const Slice& msg2 = Slice()) {
    return Status(kBusy, kNone, msg, msg2);
  }
  static Status Busy(SubCode subcode = kNone) { return Status(kBusy, subcode); }
  static Status TryAgain(const Slice& msg, const Slice& msg2 = Slice()) {
    return Status(kTryAgain, kNone, msg, msg2);
  }
  static Status TryAgain(SubCode subcode = kNone) { return Status(kTryAgain, subcode); }
  // A compaction not started: it would pass SstFileManager's space limit.
  static Status CompactionTooLarge(const Slice& msg, const Slice& msg2 = Slice()) {
    return Status(kCompactionTooLarge, kNone, msg, msg2);
  }
  static Status CompactionTooLarge(SubCode subcode = kNone) {
    return Status(kCompactionTooLarge, subcode);
  }
  // Strata reports an operation on a dropped column family as
  // InvalidArgument("column family was dropped", name); this code is for
  // programs that make it.
  static Status ColumnFamilyDropped(const Slice& msg, const Slice& msg2 = Slice()) {
    return Status(kColumnFamilyDropped, kNone, msg, msg2);
  }
  static Status ColumnFamilyDropped(SubCode subcode = kNone) {
    return Status(kColumnFamilyDropped, subcode);
  }
  static Status TimedOut(const Slice& msg, const Slice& msg2 = Slice()) {
    return Status(kTimedOut, kNone, msg, msg2);
  }
  static Status TimedOut(SubCode subcode = kNone) { return Status(kTimedOut, subcode); }
  static Status Expired(const Slice& msg, const Slice& msg2 = Slice()) {
    return Status(kExpired, kNone, msg, msg2);
  }
  static Status Expired(SubCode subcode = kNone) { return Status(kExpired, subcode); }
  // A subcode and a message (Strata's; RocksDB has this form for NotFound
  // only): transactions report why.
  static Status TimedOut(SubCode subcode, const Slice& msg, const Slice& msg2 = Slice()) {
    return Status(kTimedOut, subcode, msg, msg2);
  }
  static Status Busy(SubCode subcode, const Slice& msg, const Slice& msg2 = Slice()) {
    return Status(kBusy, subcode, msg, msg2);
  }
  static Status Incomplete(SubCode subcode, const Slice& msg, const Slice& msg2 = Slice()) {
    return Status(kIncomplete, subcode, msg, msg2);
  }
  static Status MemoryLimit() { return Status(kAborted, kMemoryLimit); }
  static Status MemoryLimit(const Slice& msg, const Slice& msg2 = Slice()) {
    return Status(kAborted, kMemoryLimit, msg, msg2);
  }
  static Status TxnNotPrepared() { return Status(kInvalidArgument, kTxnNotPrepared); }
  static Status TxnNotPrepared(const Slice& msg, const Slice& msg2 = Slice()) {
    return Status(kInvalidArgument, kTxnNotPrepared, msg, msg2);
  }

  bool ok() const { return code_ == kOk; }
  bool IsOkOverwritten() const { return code_ == kOk && subcode_ == kOverwritten; }
  bool IsNotFound() const { return code_ == kNotFound; }
  bool IsCorruption() const { return code_ == kCorruption; }
  bool IsNotSupported() const { return code_ == kNotSupported; }
  bool IsInvalidArgument() const { return code_ == kInvalidArgument; }
  bool IsIOError() const { return code_ == kIOError; }
  bool IsNoSpace() const { return code_ == kIOError && subcode_ == kNoSpace; }
  bool IsManualCompactionPaused() const {
    return code_ == kIncomplete && subcode_ == kManualCompactionPaused;
  }
  // An IOError or a NotFound with subcode kPathNotFound (as RocksDB).
  bool IsPathNotFound() const {
    return (code_ == kIOError || code_ == kNotFound) && subcode_ == kPathNotFound;
  }
  bool IsIncomplete() const { return code_ == kIncomplete; }
  bool IsMergeInProgress() const { return code_ == kMergeInProgress; }
  bool IsShutdownInProgress() const { return code_ == kShutdownInProgress; }
  bool IsAborted() const { return code_ == kAborted; }
  bool IsBusy() const { return code_ == kBusy; }
  bool IsTryAgain() const { return code_ == kTryAgain; }
  bool IsCompactionTooLarge() const { return code_ == kCompactionTooLarge; }
  bool IsColumnFamilyDropped() const { return code_ == kColumnFamilyDropped; }
  bool IsTimedOut() const { return code_ == kTimedOut; }
  bool IsExpired() const { return code_ == kExpired; }
  bool IsDeadlock() const { return code_ == kBusy && subcode_ == kDeadlock; }
  bool IsLockLimit() const { return code_ == kBusy && subcode_ == kLockLimit; }
  bool IsMemoryLimit() const { return code_ == kAborted && subcode_ == kMemoryLimit; }
  bool IsTxnNotPrepared() const { return code_ == kInvalidArgument && subcode_ == kTxnNotPrepared; }
  bool IsIOFenced() const { return code_ == kIOError && subcode_ == kIOFenced; }

  Code code() const { return code_; }
  SubCode subcode() const { return subcode_; }
  Severity severity() const { return sev_; }
  // The message alone (without the code prefix); empty when none.
  const char* getState() const { return state_ ? state_.get() : ""; }

  // "OK", or "<Code name>: " then the subcode's text (if any), then the
  // message (after ": " when there is a subcode text): RocksDB's texts.
  std::string ToString() const;

  // Marks a Status as deliberately ignored.
  void PermitUncheckedError() const {}
  // Marks a Status as needing a check again (RocksDB's; Strata builds have
  // no checked-status mode, so it does nothing).
  void MustCheck() const {}

  // Same code and subcode.
  bool operator==(const Status& rhs) const {
    return code_ == rhs.code_ && subcode_ == rhs.subcode_;
  }
  bool operator!=(const Status& rhs) const { return !(*this == rhs); }

 protected:
  // For derived status types (the RocksDB layer's IOStatus).
  Status(Code code, SubCode subcode) : code_(code), subcode_(subcode) {}
  // msg (and ": " msg2) is copied when either is non-empty, or when the
  // subcode is not kNone (then even an empty message prints); never for
  // kOk.
  Status(Code code, SubCode subcode, const Slice& msg, const Slice& msg2);

  // The file-system error attributes of RocksDB's IOStatus (kept here so
  // that they survive a copy through Status).
  bool io_retryable() const { return retryable_; }
  bool io_data_loss() const { return data_loss_; }
  unsigned char io_scope() const { return scope_; }
  void set_io_retryable(bool v) { retryable_ = v; }
  void set_io_data_loss(bool v) { data_loss_ = v; }
  void set_io_scope(unsigned char v) { scope_ = v; }

 private:
  // Six bytes of attributes and one pointer: sizeof(Status) is 16.
  Code code_ = kOk;
  SubCode subcode_ = kNone;
  Severity sev_ = kNoError;
  bool retryable_ = false;
  bool data_loss_ = false;
  unsigned char scope_ = 0;
  std::unique_ptr<const char[]> state_;
};

}  // namespace strata
