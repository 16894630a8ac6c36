// rocksdb/io_status.h: IOStatus, the Status of the file-system layer
// (FileSystem, FS*File): a Status with three more attributes a file system
// may set -- retryable, data loss, and the scope the error covers (the file
// system, one file, a byte range). The attributes live in strata::Status
// itself, so they survive when an IOStatus is passed on as a Status and
// back. Strata's engine reads none of them (its own retry logic keys on
// NoSpace); they are the program's.
//
// Differences from RocksDB's class: an IOStatus is also made implicitly from
// a Status (RocksDB asks for status_to_io_status()), and copying keeps the
// severity (RocksDB's IOStatus copy resets it to kNoError).
// Thread-safety: as Status (const methods thread-safe).
#pragma once

#include <utility>

#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/slice.h"
#include "rocksdb/status.h"

namespace rocksdb {

class IOStatus : public Status {
 public:
  using Code = Status::Code;
  using SubCode = Status::SubCode;

  // What a failure covers (RocksDB's numbering).
  enum IOErrorScope : unsigned char {
    kIOErrorScopeFileSystem,
    kIOErrorScopeFile,
    kIOErrorScopeRange,
    kIOErrorScopeMax,
  };

  IOStatus() : Status() {}
  ~IOStatus() {}
  // NOLINTNEXTLINE(google-explicit-constructor): a Status is an IOStatus here.
  IOStatus(const Status& s) : Status(s) {}
  // NOLINTNEXTLINE(google-explicit-constructor)
  IOStatus(Status&& s) noexcept : Status(std::move(s)) {}

  IOStatus(const IOStatus& s) = default;
  IOStatus& operator=(const IOStatus& s) = default;
  IOStatus(IOStatus&& s) noexcept = default;
  IOStatus& operator=(IOStatus&& s) noexcept = default;
  // Same code (RocksDB compares the code alone here).
  bool operator==(const IOStatus& rhs) const { return code() == rhs.code(); }
  bool operator!=(const IOStatus& rhs) const { return !(*this == rhs); }
  // Against a plain Status too (without these, C++20 would find `io == s`
  // ambiguous between this class's operator and Status's reversed one).
  bool operator==(const Status& rhs) const { return code() == rhs.code(); }
  bool operator!=(const Status& rhs) const { return !(*this == rhs); }

  void SetRetryable(bool retryable) { set_io_retryable(retryable); }
  void SetDataLoss(bool data_loss) { set_io_data_loss(data_loss); }
  void SetScope(IOErrorScope scope) { set_io_scope(static_cast<unsigned char>(scope)); }
  bool GetRetryable() const { return io_retryable(); }
  bool GetDataLoss() const { return io_data_loss(); }
  IOErrorScope GetScope() const { return static_cast<IOErrorScope>(io_scope()); }

  // The factories of Status, returning IOStatus (scope: the file system).
  static IOStatus OK() { return IOStatus(); }
  static IOStatus NotSupported(const Slice& msg, const Slice& msg2 = Slice()) {
    return IOStatus(kNotSupported, kNone, msg, msg2);
  }
  static IOStatus NotSupported(SubCode msg = kNone) { return IOStatus(kNotSupported, msg); }
  static IOStatus NotFound(const Slice& msg, const Slice& msg2 = Slice()) {
    return IOStatus(kNotFound, kNone, msg, msg2);
  }
  static IOStatus NotFound(SubCode msg = kNone) { return IOStatus(kNotFound, msg); }
  static IOStatus Corruption(const Slice& msg, const Slice& msg2 = Slice()) {
    return IOStatus(kCorruption, kNone, msg, msg2);
  }
  static IOStatus Corruption(SubCode msg = kNone) { return IOStatus(kCorruption, msg); }
  static IOStatus InvalidArgument(const Slice& msg, const Slice& msg2 = Slice()) {
    return IOStatus(kInvalidArgument, kNone, msg, msg2);
  }
  static IOStatus InvalidArgument(SubCode msg = kNone) { return IOStatus(kInvalidArgument, msg); }
  static IOStatus IOError(const Slice& msg, const Slice& msg2 = Slice()) {
    return IOStatus(kIOError, kNone, msg, msg2);
  }
  static IOStatus IOError(SubCode msg = kNone) { return IOStatus(kIOError, msg); }
  static IOStatus Busy(SubCode msg = kNone) { return IOStatus(kBusy, msg); }
  static IOStatus Busy(const Slice& msg, const Slice& msg2 = Slice()) {
    return IOStatus(kBusy, kNone, msg, msg2);
  }
  static IOStatus TimedOut(SubCode msg = kNone) { return IOStatus(kTimedOut, msg); }
  static IOStatus TimedOut(const Slice& msg, const Slice& msg2 = Slice()) {
    return IOStatus(kTimedOut, kNone, msg, msg2);
  }
  static IOStatus NoSpace() { return IOStatus(kIOError, kNoSpace); }
  static IOStatus NoSpace(const Slice& msg, const Slice& msg2 = Slice()) {
    return IOStatus(kIOError, kNoSpace, msg, msg2);
  }
  static IOStatus PathNotFound() { return IOStatus(kIOError, kPathNotFound); }
  static IOStatus PathNotFound(const Slice& msg, const Slice& msg2 = Slice()) {
    return IOStatus(kIOError, kPathNotFound, msg, msg2);
  }
  // Another writer took over the file system's files ("IO fenced off").
  static IOStatus IOFenced() { return IOStatus(kIOError, kIOFenced); }
  static IOStatus IOFenced(const Slice& msg, const Slice& msg2 = Slice()) {
    return IOStatus(kIOError, kIOFenced, msg, msg2);
  }
  static IOStatus Aborted(SubCode msg = kNone) { return IOStatus(kAborted, msg); }
  static IOStatus Aborted(const Slice& msg, const Slice& msg2 = Slice()) {
    return IOStatus(kAborted, kNone, msg, msg2);
  }

 private:
  explicit IOStatus(Code code, SubCode subcode = kNone) : Status(code, subcode) {}
  IOStatus(Code code, SubCode subcode, const Slice& msg, const Slice& msg2)
      : Status(code, subcode, msg, msg2) {}
};

// status as an IOStatus (its attributes kept).
inline IOStatus status_to_io_status(Status&& status) { return IOStatus(std::move(status)); }

}  // namespace rocksdb
