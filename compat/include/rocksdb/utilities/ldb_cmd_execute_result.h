// rocksdb/utilities/ldb_cmd_execute_result.h: LDBCommandExecuteResult, the
// state an LDBCommand ends in (not started, succeeded, failed) with its
// message.
// Thread-safety: not thread-safe (a plain value).
#pragma once

#include <string>

#include "rocksdb/rocksdb_namespace.h"

// A Windows header defines FAILED; RocksDB's header clears it too.
#ifdef FAILED
#undef FAILED
#endif

namespace rocksdb {

class LDBCommandExecuteResult {
 public:
  enum State {
    EXEC_NOT_STARTED = 0,
    EXEC_SUCCEED = 1,
    EXEC_FAILED = 2,
  };

  LDBCommandExecuteResult() : state_(EXEC_NOT_STARTED), message_("") {}
  LDBCommandExecuteResult(State state, std::string& msg) : state_(state), message_(msg) {}

  // "" / "Failed: " / "Not started: ", then the message.
  std::string ToString() {
    std::string out;
    if (state_ == EXEC_FAILED) out = "Failed: ";
    if (state_ == EXEC_NOT_STARTED) out = "Not started: ";
    return out + message_;
  }

  void Reset() {
    state_ = EXEC_NOT_STARTED;
    message_ = "";
  }

  bool IsSucceed() { return state_ == EXEC_SUCCEED; }
  bool IsNotStarted() { return state_ == EXEC_NOT_STARTED; }
  bool IsFailed() { return state_ == EXEC_FAILED; }

  static LDBCommandExecuteResult Succeed(std::string msg) {
    return LDBCommandExecuteResult(EXEC_SUCCEED, msg);
  }
  static LDBCommandExecuteResult Failed(std::string msg) {
    return LDBCommandExecuteResult(EXEC_FAILED, msg);
  }

 private:
  State state_;
  std::string message_;

  // Not comparable (declared, never defined, as in RocksDB).
  bool operator==(const LDBCommandExecuteResult&);
  bool operator!=(const LDBCommandExecuteResult&);
};

}  // namespace rocksdb
