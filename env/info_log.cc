#include "env/info_log.h"

#include <sys/time.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <ctime>

#include "util/perf_context_imp.h"

namespace strata {

namespace {

const char* LevelTag(InfoLogLevel level) {
  switch (level) {
    case InfoLogLevel::kDebug:
      return "[DEBUG] ";
    case InfoLogLevel::kWarn:
      return "[WARN] ";
    case InfoLogLevel::kError:
      return "[ERROR] ";
    case InfoLogLevel::kFatal:
      return "[FATAL] ";
    case InfoLogLevel::kInfo:
    case InfoLogLevel::kHeader:
    case InfoLogLevel::NUM_INFO_LOG_LEVELS:
      break;
  }
  return "";
}

// The kernel's id of the calling thread (what top and gdb show), cached.
unsigned long long ThreadId() {
  static thread_local const unsigned long long tid = static_cast<unsigned long long>(gettid());
  return tid;
}

}  // namespace

InfoLog::InfoLog(std::unique_ptr<WritableFile> file, InfoLogLevel level)
    : Logger(level), file_(std::move(file)) {}

InfoLog::~InfoLog() { Close().PermitUncheckedError(); }

void InfoLog::Logv(InfoLogLevel level, const char* format, va_list ap) {
  if (level < GetInfoLogLevel()) return;
  IOSTATS_TIMER_GUARD(logger_nanos);

  struct timeval now;
  gettimeofday(&now, nullptr);
  struct tm t;
  const time_t seconds = now.tv_sec;
  localtime_r(&seconds, &t);

  char stack_buf[512];
  const int prefix_len =
      snprintf(stack_buf, sizeof(stack_buf), "%04d/%02d/%02d-%02d:%02d:%02d.%06ld %llx %s",
               t.tm_year + 1900, t.tm_mon + 1, t.tm_mday, t.tm_hour, t.tm_min, t.tm_sec,
               static_cast<long>(now.tv_usec), ThreadId(), LevelTag(level));
  const size_t prefix = static_cast<size_t>(prefix_len);  // < 100: fits the buffer

  va_list args;
  va_copy(args, ap);
  int body_len = vsnprintf(stack_buf + prefix, sizeof(stack_buf) - prefix, format, args);
  va_end(args);
  if (body_len < 0) body_len = 0;  // a bad format: log the prefix alone
  const size_t body = static_cast<size_t>(body_len);

  char* buf = stack_buf;
  std::unique_ptr<char[]> heap_buf;
  // One byte for the added newline, one for vsnprintf's terminator.
  if (prefix + body + 2 > sizeof(stack_buf)) {
    heap_buf.reset(new char[prefix + body + 2]);
    memcpy(heap_buf.get(), stack_buf, prefix);
    va_copy(args, ap);
    vsnprintf(heap_buf.get() + prefix, body + 1, format, args);
    va_end(args);
    buf = heap_buf.get();
  }
  size_t len = prefix + body;
  if (body == 0 || buf[len - 1] != '\n') buf[len++] = '\n';

  MutexLock l(&mu_);
  if (file_ == nullptr) return;
  // A failing LOG must not fail the database: errors are dropped.
  file_->Append(Slice(buf, len)).PermitUncheckedError();
  file_->Flush().PermitUncheckedError();
  size_ += len;
}

size_t InfoLog::GetLogFileSize() const {
  MutexLock l(&mu_);
  return size_;
}

void InfoLog::Flush() {
  MutexLock l(&mu_);
  // A failed flush of the info log is not the DB's error (RocksDB's rule).
  if (file_ != nullptr) file_->Flush().PermitUncheckedError();
}

Status InfoLog::Close() {
  MutexLock l(&mu_);
  if (file_ == nullptr) return Status::OK();
  Status s = file_->Close();
  file_.reset();
  return s;
}

}  // namespace strata
