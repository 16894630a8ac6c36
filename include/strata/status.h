// Status: the result of an operation -- success, or an error code, an optional
// subcode and a message saying what failed and where.
//
// Every fallible call in Strata returns a Status; the class is [[nodiscard]],
// so ignoring one is a compile-time warning (an error with -Werror). Code that
// deliberately drops a Status says so with PermitUncheckedError().
// Thread-safety: const methods are thread-safe.
// Invariant: ok() <=> code() == kOk; an ok Status carries no message and no
// heap allocation, so returning Status::OK() is free.
#pragma once

#include <memory>
#include <string>

#include "strata/export.h"
#include "strata/slice.h"

namespace strata {

class STRATA_EXPORT [[nodiscard]] Status {
 public:
  // Persisted nowhere, but kept in RocksDB's numbering for familiarity.
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
    kMaxCode
  };

  enum SubCode : unsigned char {
    kNone = 0,
    kMutexTimeout = 1,
    kLockTimeout = 2,
    kLockLimit = 3,
    kNoSpace = 4,
    kDeadlock = 5,
    kPathNotFound = 9,
    kMemoryLimit = 7,
    kSpaceLimit = 8,
    kManualCompactionPaused = 11,
    kTxnNotPrepared = 13,
    kMaxSubCode
  };

  Status() noexcept = default;
  Status(const Status& s);
  Status& operator=(const Status& s);
  Status(Status&& s) noexcept = default;
  Status& operator=(Status&& s) noexcept = default;
  ~Status() = default;

  static Status OK() { return Status(); }
  static Status NotFound(const Slice& msg = Slice(), const Slice& msg2 = Slice()) {
    return Status(kNotFound, kNone, msg, msg2);
  }
  static Status Corruption(const Slice& msg, const Slice& msg2 = Slice()) {
    return Status(kCorruption, kNone, msg, msg2);
  }
  static Status NotSupported(const Slice& msg, const Slice& msg2 = Slice()) {
    return Status(kNotSupported, kNone, msg, msg2);
  }
  static Status InvalidArgument(const Slice& msg, const Slice& msg2 = Slice()) {
    return Status(kInvalidArgument, kNone, msg, msg2);
  }
  static Status IOError(const Slice& msg, const Slice& msg2 = Slice()) {
    return Status(kIOError, kNone, msg, msg2);
  }
  static Status NoSpace(const Slice& msg, const Slice& msg2 = Slice()) {
    return Status(kIOError, kNoSpace, msg, msg2);
  }
  // SstFileManager's max_allowed_space_usage was reached (RocksDB's
  // IOError with subcode kSpaceLimit).
  static Status SpaceLimit(const Slice& msg = Slice(), const Slice& msg2 = Slice()) {
    return Status(kIOError, kSpaceLimit, msg, msg2);
  }
  static Status PathNotFound(const Slice& msg, const Slice& msg2 = Slice()) {
    return Status(kIOError, kPathNotFound, msg, msg2);
  }
  // A merge whose operands cannot be resolved here (WriteBatchWithIndex::
  // GetFromBatch with operands but no base in the batch).
  static Status MergeInProgress(const Slice& msg = Slice(), const Slice& msg2 = Slice()) {
    return Status(kMergeInProgress, kNone, msg, msg2);
  }
  static Status Incomplete(const Slice& msg, const Slice& msg2 = Slice()) {
    return Status(kIncomplete, kNone, msg, msg2);
  }
  static Status ShutdownInProgress(const Slice& msg = Slice(), const Slice& msg2 = Slice()) {
    return Status(kShutdownInProgress, kNone, msg, msg2);
  }
  static Status Aborted(const Slice& msg, const Slice& msg2 = Slice()) {
    return Status(kAborted, kNone, msg, msg2);
  }
  static Status Busy(const Slice& msg, const Slice& msg2 = Slice()) {
    return Status(kBusy, kNone, msg, msg2);
  }
  static Status TryAgain(const Slice& msg, const Slice& msg2 = Slice()) {
    return Status(kTryAgain, kNone, msg, msg2);
  }
  // A compaction not started: it would pass SstFileManager's space limit.
  static Status CompactionTooLarge(const Slice& msg = Slice(), const Slice& msg2 = Slice()) {
    return Status(kCompactionTooLarge, kNone, msg, msg2);
  }
  static Status TimedOut(const Slice& msg, const Slice& msg2 = Slice()) {
    return Status(kTimedOut, kNone, msg, msg2);
  }
  // The variants with a subcode (RocksDB's): transactions report why.
  static Status TimedOut(SubCode subcode, const Slice& msg = Slice(), const Slice& msg2 = Slice()) {
    return Status(kTimedOut, subcode, msg, msg2);
  }
  static Status Busy(SubCode subcode, const Slice& msg = Slice(), const Slice& msg2 = Slice()) {
    return Status(kBusy, subcode, msg, msg2);
  }
  static Status Incomplete(SubCode subcode, const Slice& msg = Slice(),
                           const Slice& msg2 = Slice()) {
    return Status(kIncomplete, subcode, msg, msg2);
  }
  static Status Expired(const Slice& msg = Slice(), const Slice& msg2 = Slice()) {
    return Status(kExpired, kNone, msg, msg2);
  }
  static Status MemoryLimit(const Slice& msg = Slice(), const Slice& msg2 = Slice()) {
    return Status(kAborted, kMemoryLimit, msg, msg2);
  }
  static Status TxnNotPrepared(const Slice& msg = Slice(), const Slice& msg2 = Slice()) {
    return Status(kInvalidArgument, kTxnNotPrepared, msg, msg2);
  }

  bool ok() const { return code_ == kOk; }
  bool IsNotFound() const { return code_ == kNotFound; }
  bool IsCorruption() const { return code_ == kCorruption; }
  bool IsNotSupported() const { return code_ == kNotSupported; }
  bool IsInvalidArgument() const { return code_ == kInvalidArgument; }
  bool IsIOError() const { return code_ == kIOError; }
  bool IsNoSpace() const { return code_ == kIOError && subcode_ == kNoSpace; }
  bool IsManualCompactionPaused() const {
    return code_ == kIncomplete && subcode_ == kManualCompactionPaused;
  }
  bool IsPathNotFound() const { return code_ == kIOError && subcode_ == kPathNotFound; }
  bool IsIncomplete() const { return code_ == kIncomplete; }
  bool IsMergeInProgress() const { return code_ == kMergeInProgress; }
  bool IsShutdownInProgress() const { return code_ == kShutdownInProgress; }
  bool IsAborted() const { return code_ == kAborted; }
  bool IsBusy() const { return code_ == kBusy; }
  bool IsTryAgain() const { return code_ == kTryAgain; }
  bool IsCompactionTooLarge() const { return code_ == kCompactionTooLarge; }
  bool IsTimedOut() const { return code_ == kTimedOut; }
  bool IsExpired() const { return code_ == kExpired; }
  bool IsDeadlock() const { return code_ == kBusy && subcode_ == kDeadlock; }
  bool IsLockLimit() const { return code_ == kBusy && subcode_ == kLockLimit; }
  bool IsMemoryLimit() const { return code_ == kAborted && subcode_ == kMemoryLimit; }
  bool IsTxnNotPrepared() const { return code_ == kInvalidArgument && subcode_ == kTxnNotPrepared; }

  Code code() const { return code_; }
  SubCode subcode() const { return subcode_; }
  // The message alone (without the code prefix); empty for OK.
  const char* getState() const { return state_ ? state_.get() : ""; }

  // "OK", or "<Code name>: <message>".
  std::string ToString() const;

  // Marks a Status as deliberately ignored.
  void PermitUncheckedError() const {}

  bool operator==(const Status& rhs) const {
    return code_ == rhs.code_ && subcode_ == rhs.subcode_;
  }
  bool operator!=(const Status& rhs) const { return !(*this == rhs); }

 private:
  Status(Code code, SubCode subcode, const Slice& msg, const Slice& msg2);

  Code code_ = kOk;
  SubCode subcode_ = kNone;
  std::unique_ptr<const char[]> state_;
};

}  // namespace strata
