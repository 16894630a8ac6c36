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
    default:
      return "Unknown code: ";
  }
}

}  // namespace

Status::Status(Code code, SubCode subcode, const Slice& msg, const Slice& msg2)
    : code_(code), subcode_(subcode) {
  if (msg.empty() && msg2.empty()) return;
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

Status::Status(const Status& s) : code_(s.code_), subcode_(s.subcode_) {
  if (s.state_) state_ = CopyState(s.state_.get());
}

Status& Status::operator=(const Status& s) {
  if (this != &s) {
    code_ = s.code_;
    subcode_ = s.subcode_;
    state_ = s.state_ ? CopyState(s.state_.get()) : nullptr;
  }
  return *this;
}

std::string Status::ToString() const {
  if (code_ == kOk) return "OK";
  std::string result(CodeName(code_));
  // RocksDB's texts for the subcodes, then ": " and the message if any.
  const char* sub = nullptr;
  switch (subcode_) {
    case kMutexTimeout:
      sub = "Timeout Acquiring Mutex";
      break;
    case kLockTimeout:
      sub = "Timeout waiting to lock key";
      break;
    case kLockLimit:
      sub = "Failed to acquire lock due to max_num_locks limit";
      break;
    case kNoSpace:
      sub = "No space left on device";
      break;
    case kDeadlock:
      sub = "Deadlock";
      break;
    case kMemoryLimit:
      sub = "Memory limit reached";
      break;
    case kSpaceLimit:
      sub = "Space limit reached";
      break;
    case kManualCompactionPaused:
      sub = "Manual compaction paused";
      break;
    case kTxnNotPrepared:
      sub = "Txn not prepared";
      break;
    default:
      break;
  }
  if (sub != nullptr) {
    result += sub;
    if (state_ && state_[0] != '\0') result += ": ";
  }
  if (state_) result += state_.get();
  return result;
}

}  // namespace strata
