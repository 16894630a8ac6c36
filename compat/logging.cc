// compat/logging.cc: small free functions of RocksDB's headers: env.h's
// info-log helpers (Log, Header, Debug, Info, Warn, Error, Fatal, LogFlush)
// over Strata's Logger, iterator.h's NewEmptyIterator / NewErrorIterator,
// and table.h's factories of the table formats Strata does not have.
#include <cstdarg>
#include <memory>

#include "compat/error_iterator.h"
#include "rocksdb/env.h"
#include "rocksdb/iterator.h"
#include "rocksdb/table.h"

namespace rocksdb {

namespace {

// Writes at `level` unless the logger is null or set to a higher level; a
// header line goes to LogHeader.
void LogAt(InfoLogLevel level, Logger* logger, const char* format, va_list ap) {
  if (logger == nullptr || level < logger->GetInfoLogLevel()) return;
  if (level == HEADER_LEVEL) {
    logger->LogHeader(format, ap);
  } else {
    logger->Logv(level, format, ap);
  }
}

// Header: to LogHeader whatever the logger's level (as RocksDB's).
void HeaderAt(InfoLogLevel /*level*/, Logger* logger, const char* format, va_list ap) {
  if (logger != nullptr) logger->LogHeader(format, ap);
}

}  // namespace

void LogFlush(const std::shared_ptr<Logger>& info_log) { LogFlush(info_log.get()); }
void LogFlush(Logger* info_log) {
  if (info_log != nullptr) info_log->Flush();
}

void Log(const InfoLogLevel log_level, const std::shared_ptr<Logger>& info_log, const char* format,
         ...) {
  va_list ap;
  va_start(ap, format);
  LogAt(log_level, info_log.get(), format, ap);
  va_end(ap);
}

void Log(const std::shared_ptr<Logger>& info_log, const char* format, ...) {
  va_list ap;
  va_start(ap, format);
  LogAt(INFO_LEVEL, info_log.get(), format, ap);
  va_end(ap);
}

#define STRATA_COMPAT_LOG_AT(Name, WRITE, LEVEL)                                \
  void Name(const std::shared_ptr<Logger>& info_log, const char* format, ...) { \
    va_list ap;                                                                 \
    va_start(ap, format);                                                       \
    WRITE(LEVEL, info_log.get(), format, ap);                                   \
    va_end(ap);                                                                 \
  }                                                                             \
  void Name(Logger* info_log, const char* format, ...) {                        \
    va_list ap;                                                                 \
    va_start(ap, format);                                                       \
    WRITE(LEVEL, info_log, format, ap);                                         \
    va_end(ap);                                                                 \
  }

STRATA_COMPAT_LOG_AT(Header, HeaderAt, HEADER_LEVEL)
STRATA_COMPAT_LOG_AT(Debug, LogAt, DEBUG_LEVEL)
STRATA_COMPAT_LOG_AT(Info, LogAt, INFO_LEVEL)
STRATA_COMPAT_LOG_AT(Warn, LogAt, WARN_LEVEL)
STRATA_COMPAT_LOG_AT(Error, LogAt, ERROR_LEVEL)
STRATA_COMPAT_LOG_AT(Fatal, LogAt, FATAL_LEVEL)

#undef STRATA_COMPAT_LOG_AT

namespace {

// A factory of a format Strata cannot write or read: Open refuses a family
// given one, naming the format (options_convert.cc).
class OtherFormatFactory : public TableFactory {
 public:
  explicit OtherFormatFactory(const char* name)
      : TableFactory(BlockBasedTableOptions()), name_(name) {}
  const char* Name() const override { return name_; }

 private:
  const char* name_;
};

}  // namespace

TableFactory* NewPlainTableFactory(const PlainTableOptions& /*options*/) {
  return new OtherFormatFactory(TableFactory::kPlainTableName());
}
TableFactory* NewCuckooTableFactory(const CuckooTableOptions& /*table_options*/) {
  return new OtherFormatFactory(TableFactory::kCuckooTableName());
}
TableFactory* NewAdaptiveTableFactory(std::shared_ptr<TableFactory> /*table_factory_to_write*/,
                                      std::shared_ptr<TableFactory> /*block_based_table_factory*/,
                                      std::shared_ptr<TableFactory> /*plain_table_factory*/,
                                      std::shared_ptr<TableFactory> /*cuckoo_table_factory*/) {
  return new OtherFormatFactory("AdaptiveTableFactory");
}

Iterator* NewEmptyIterator() { return new compat::ErrorIterator(Status::OK()); }
Iterator* NewErrorIterator(const Status& status) { return new compat::ErrorIterator(status); }

}  // namespace rocksdb
