#include "strata/status.h"

#include <cstring>

namespace strata {

namespace {

std::unique_ptr<const char[]> CopyState(const char* s) {
  const size_t n = strlen(s) + 1;
  char* r = new char[n];
  memcpy(r, s, n);
  return std::unique_ptr<const char[]>(r);
}

const char* CodeName(Status::Code code) {
  switch (code) {
    case Status::kOk:
      return "OK";
    case Status::kNotFound:
      return "NotFound: ";
    case Status::kCorruption:
      return "Corruption: ";
    case Status::kNotSupported:
      return "Not implemented: ";
    case Status::kInvalidArgument:
      return "Invalid argument: ";
    case Status::kIOError:
      return "IO error: ";
    case Status::kMergeInProgress:
      return "Merge in progress: ";
    case Status::kIncomplete:
      return "Result incomplete: ";
    case Status::kShutdownInProgress:
      return "Shutdown in progress: ";
    case Status::kTimedOut:
      return "Operation timed out: ";
    case Status::kAborted:
      return "Operation aborted: ";
    case Status::kBusy:
      return "Resource busy: ";
    case Status::kExpired:
      return "Operation expired: ";
    case Status::kTryAgain:
      return "Operation failed. Try again.: ";
    case Status::kCompactionTooLarge:
      return "Compaction too large: ";
    case Status::kColumnFamilyDropped:
      return "Column family dropped: ";
    default:
      return "Unknown code: ";
  }
}

}  // namespace

namespace {

// The text RocksDB prints for a subcode (util/status.cc's table there); null
// for kNone. kOverwritten goes with kOk, whose text is "OK" alone.
const char* SubCodeText(Status::SubCode subcode) {
  switch (subcode) {
    case Status::kNone:
      return nullptr;
    case Status::kMutexTimeout:
      return "Timeout Acquiring Mutex";
    case Status::kLockTimeout:
      return "Timeout waiting to lock key";
    case Status::kLockLimit:
      return "Failed to acquire lock due to max_num_locks limit";
    case Status::kNoSpace:
      return "No space left on device";
    case Status::kDeadlock:
      return "Deadlock";
    case Status::kStaleFile:
      return "Stale file handle";
    case Status::kMemoryLimit:
      return "Memory limit reached";
    case Status::kSpaceLimit:
      return "Space limit reached";
    case Status::kPathNotFound:
      return "No such file or directory";
    case Status::KMergeOperandsInsufficientCapacity:
      return "Insufficient capacity for merge operands";
    case Status::kManualCompactionPaused:
      return "Manual compaction paused";
    case Status::kOverwritten:
      return " (overwritten)";
    case Status::kTxnNotPrepared:
      return "Txn not prepared";
    case Status::kIOFenced:
      return "IO fenced off";
    case Status::kMaxSubCode:
      break;
  }
  return nullptr;
}

}  // namespace

Status::Status(Code code, SubCode subcode, const Slice& msg, const Slice& msg2)
    : code_(code), subcode_(subcode) {
  // No allocation for OK, nor for an empty message without a subcode (it
  // prints the same as none); with a subcode an empty message still adds
  // ": " to ToString, as in RocksDB.
  if (code == kOk) return;
  if (msg.empty() && msg2.empty() && subcode == kNone) return;
  const size_t len1 = msg.size();
  const size_t len2 = msg2.size();
  const size_t size = len1 + (len2 ? (2 + len2) : 0);
  char* result = new char[size + 1];
  if (len1) memcpy(result, msg.data(), len1);
  if (len2) {
    result[len1] = ':';
    result[len1 + 1] = ' ';
    memcpy(result + len1 + 2, msg2.data(), len2);
  }
  result[size] = '\0';
  state_.reset(result);
}

Status::Status(const Status& s)
    : code_(s.code_),
      subcode_(s.subcode_),
      sev_(s.sev_),
      retryable_(s.retryable_),
      data_loss_(s.data_loss_),
      scope_(s.scope_) {
  if (s.state_) state_ = CopyState(s.state_.get());
}

Status& Status::operator=(const Status& s) {
  if (this != &s) {
    code_ = s.code_;
    subcode_ = s.subcode_;
    sev_ = s.sev_;
    retryable_ = s.retryable_;
    data_loss_ = s.data_loss_;
    scope_ = s.scope_;
    state_ = s.state_ ? CopyState(s.state_.get()) : nullptr;
  }
  return *this;
}

std::string Status::ToString() const {
  if (code_ == kOk) return "OK";
  std::string result(CodeName(code_));
  // RocksDB's texts for the subcodes, then ": " and the message if any.
  const char* sub = SubCodeText(subcode_);
  if (sub != nullptr) result += sub;
  if (state_) {
    if (sub != nullptr) result += ": ";
    result += state_.get();
  }
  return result;
}

}  // namespace strata
