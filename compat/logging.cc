// compat/logging.cc: small free functions of RocksDB's headers: env.h's
// info-log helpers (Log, Header, Debug, Info, Warn, Error, Fatal, LogFlush)
// over Strata's Logger, and iterator.h's NewEmptyIterator /
// NewErrorIterator.
#include <cstdarg>
#include <memory>

#include "compat/error_iterator.h"
#include "rocksdb/env.h"
#include "rocksdb/iterator.h"

namespace rocksdb {

namespace {

// Writes at `level` unless the logger is null or set to a higher level.
void LogAt(InfoLogLevel level, Logger* logger, const char* format, va_list ap) {
  if (logger == nullptr) return;
  const auto strata_level = static_cast<::strata::InfoLogLevel>(level);
  if (strata_level < logger->GetInfoLogLevel() && level != HEADER_LEVEL) return;
  logger->Logv(strata_level, format, ap);
}

}  // namespace

void LogFlush(const std::shared_ptr<Logger>& info_log) { LogFlush(info_log.get()); }
void LogFlush(Logger* info_log) {
  if (info_log != nullptr) info_log->Flush().PermitUncheckedError();
}

void Log(const InfoLogLevel log_level, const std::shared_ptr<Logger>& info_log, const char* format,
         ...) {
  va_list ap;
  va_start(ap, format);
  LogAt(log_level, info_log.get(), format, ap);
  va_end(ap);
}

void Log(const InfoLogLevel log_level, Logger* info_log, const char* format, ...) {
  va_list ap;
  va_start(ap, format);
  LogAt(log_level, info_log, format, ap);
  va_end(ap);
}

void Log(const std::shared_ptr<Logger>& info_log, const char* format, ...) {
  va_list ap;
  va_start(ap, format);
  LogAt(INFO_LEVEL, info_log.get(), format, ap);
  va_end(ap);
}

#define STRATA_COMPAT_LOG_AT(Name, LEVEL)                                       \
  void Name(const std::shared_ptr<Logger>& info_log, const char* format, ...) { \
    va_list ap;                                                                 \
    va_start(ap, format);                                                       \
    LogAt(LEVEL, info_log.get(), format, ap);                                   \
    va_end(ap);                                                                 \
  }                                                                             \
  void Name(Logger* info_log, const char* format, ...) {                        \
    va_list ap;                                                                 \
    va_start(ap, format);                                                       \
    LogAt(LEVEL, info_log, format, ap);                                         \
    va_end(ap);                                                                 \
  }

STRATA_COMPAT_LOG_AT(Header, HEADER_LEVEL)
STRATA_COMPAT_LOG_AT(Debug, DEBUG_LEVEL)
STRATA_COMPAT_LOG_AT(Info, INFO_LEVEL)
STRATA_COMPAT_LOG_AT(Warn, WARN_LEVEL)
STRATA_COMPAT_LOG_AT(Error, ERROR_LEVEL)
STRATA_COMPAT_LOG_AT(Fatal, FATAL_LEVEL)

#undef STRATA_COMPAT_LOG_AT

Iterator* NewEmptyIterator() { return new compat::ErrorIterator(Status::OK()); }
Iterator* NewErrorIterator(const Status& status) { return new compat::ErrorIterator(status); }

}  // namespace rocksdb
