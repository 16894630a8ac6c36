// logger: info loggers written against RocksDB's headers -- one overriding
// Logv(const InfoLogLevel, ...), LogHeader, SetInfoLogLevel and Flush with
// RocksDB's level type, one in the older style with only the levelless
// Logv -- driven through the free helpers (Log, Header, Debug ... Fatal),
// a table indexed by level, a switch over RocksDB's level names, and a
// database that logs through the first (nothing below its level may reach
// it). Built twice (against RocksDB and against libstrata-rocksdb) and
// compared byte for byte.
// Usage: logger DB_DIR
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/options.h"

namespace rdb = ROCKSDB_NAMESPACE;

static const char* const kNames[rdb::NUM_INFO_LOG_LEVELS] = {"debug", "info",  "warn",
                                                             "error", "fatal", "header"};

static const char* Severity(rdb::InfoLogLevel level) {
  switch (level) {
    case rdb::InfoLogLevel::DEBUG_LEVEL:
    case rdb::InfoLogLevel::INFO_LEVEL:
      return "routine";
    case rdb::WARN_LEVEL:
    case rdb::ERROR_LEVEL:
    case rdb::FATAL_LEVEL:
      return "alarming";
    default:
      return "other";
  }
}

static std::string Format(const char* format, va_list ap) {
  char buf[512];
  std::vsnprintf(buf, sizeof(buf), format, ap);
  return buf;
}

// Counts what reaches it by level, keeping the texts while `record` is set.
class CountingLogger : public rdb::Logger {
 public:
  explicit CountingLogger(const rdb::InfoLogLevel log_level) : rdb::Logger(log_level) {}
  using rdb::Logger::Logv;
  void Logv(const rdb::InfoLogLevel log_level, const char* format, va_list ap) override {
    ++counts[log_level];
    if (record) lines.push_back(std::string(kNames[log_level]) + ": " + Format(format, ap));
  }
  // RocksDB sends a header through here by default; keep it apart.
  void Logv(const char* format, va_list ap) override {
    ++levelless;
    if (record) lines.push_back("levelless: " + Format(format, ap));
  }
  void LogHeader(const char* format, va_list ap) override {
    ++headers;
    if (record) lines.push_back("header: " + Format(format, ap));
  }
  void SetInfoLogLevel(const rdb::InfoLogLevel log_level) override {
    ++level_changes;
    rdb::Logger::SetInfoLogLevel(log_level);
  }
  void Flush() override { ++flushes; }

  int counts[rdb::NUM_INFO_LOG_LEVELS] = {};
  int levelless = 0;
  int headers = 0;
  int level_changes = 0;
  int flushes = 0;
  bool record = true;
  std::vector<std::string> lines;
};

// RocksDB's older style: only the levelless Logv; the base class adds the
// level prefixes and flushes.
class OldStyleLogger : public rdb::Logger {
 public:
  explicit OldStyleLogger(const rdb::InfoLogLevel log_level) : rdb::Logger(log_level) {}
  using rdb::Logger::Logv;
  void Logv(const char* format, va_list ap) override { lines.push_back(Format(format, ap)); }
  void Flush() override { ++flushes; }
  std::vector<std::string> lines;
  int flushes = 0;
};

static void PrintCounting(const char* label, const CountingLogger& logger) {
  std::printf("-- %s\n", label);
  for (const std::string& line : logger.lines) std::printf("  %s\n", line.c_str());
  for (int i = rdb::DEBUG_LEVEL; i < rdb::NUM_INFO_LOG_LEVELS; ++i) {
    std::printf("  %s=%d", kNames[i], logger.counts[i]);
  }
  std::printf("\n  levelless=%d headers=%d level_changes=%d flushes=%d level=%s\n",
              logger.levelless, logger.headers, logger.level_changes, logger.flushes,
              kNames[logger.GetInfoLogLevel()]);
}

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DB_DIR\n", argv[0]);
    return 2;
  }
  for (int i = rdb::DEBUG_LEVEL; i < rdb::NUM_INFO_LOG_LEVELS; ++i) {
    const auto level = static_cast<rdb::InfoLogLevel>(i);
    std::printf("level %d %s %s\n", i, kNames[level], Severity(level));
  }

  auto counting = std::make_shared<CountingLogger>(rdb::InfoLogLevel::INFO_LEVEL);
  rdb::Log(rdb::InfoLogLevel::DEBUG_LEVEL, counting, "dropped %d", 1);
  rdb::Log(rdb::InfoLogLevel::INFO_LEVEL, counting, "info %d", 2);
  rdb::Log(rdb::WARN_LEVEL, counting.get(), "warn %d", 3);
  rdb::Log(rdb::HEADER_LEVEL, counting.get(), "log at header %d", 4);
  rdb::Log(counting, "plain %d", 5);
  rdb::Log(counting.get(), "plain pointer %d", 6);
  rdb::Header(counting, "header %d", 7);
  rdb::Debug(counting, "dropped %d", 8);
  rdb::Info(counting.get(), "info %d", 9);
  rdb::Warn(counting, "warn %d", 10);
  rdb::Error(counting.get(), "error %d", 11);
  rdb::Fatal(counting, "fatal %d", 12);
  rdb::LogFlush(counting);
  counting->SetInfoLogLevel(rdb::ERROR_LEVEL);
  rdb::Warn(counting, "dropped %d", 13);
  rdb::Error(counting, "error %d", 14);
  rdb::Header(counting, "header below nothing %d", 15);
  PrintCounting("counting logger", *counting);

  OldStyleLogger old_style(rdb::InfoLogLevel::DEBUG_LEVEL);
  rdb::Log(rdb::DEBUG_LEVEL, &old_style, "debug %d", 1);
  rdb::Log(rdb::INFO_LEVEL, &old_style, "info %d", 2);
  rdb::Log(rdb::WARN_LEVEL, &old_style, "warn %d", 3);
  rdb::Log(rdb::ERROR_LEVEL, &old_style, "error %d", 4);
  rdb::Log(rdb::FATAL_LEVEL, &old_style, "fatal %d", 5);
  rdb::Log(rdb::HEADER_LEVEL, &old_style, "header %d", 6);
  std::printf("-- old-style logger (flushes=%d)\n", old_style.flushes);
  for (const std::string& line : old_style.lines) std::printf("  %s\n", line.c_str());

  // A database logging through a logger set to WARN_LEVEL: what arrives is
  // each engine's own, but nothing below WARN_LEVEL may, and the level is
  // the logger's (info_log_level applies to a logger the DB makes).
  auto db_logger = std::make_shared<CountingLogger>(rdb::WARN_LEVEL);
  db_logger->record = false;
  rdb::Options options;
  options.create_if_missing = true;
  options.info_log = db_logger;
  options.info_log_level = rdb::DEBUG_LEVEL;
  rdb::DB* db = nullptr;
  rdb::Status s = rdb::DB::Open(options, argv[1], &db);
  if (!s.ok()) {
    std::printf("open: %s\n", s.ToString().c_str());
    return 1;
  }
  for (int i = 0; i < 100 && s.ok(); ++i) {
    s = db->Put(rdb::WriteOptions(), "key" + std::to_string(i), "value");
  }
  if (s.ok()) s = db->Flush(rdb::FlushOptions());
  if (s.ok()) s = db->Close();
  delete db;
  std::printf("-- database with a WARN_LEVEL logger: %s\n", s.ToString().c_str());
  std::printf("  debug=%d info=%d level=%s levelless=%d\n", db_logger->counts[rdb::DEBUG_LEVEL],
              db_logger->counts[rdb::INFO_LEVEL], kNames[db_logger->GetInfoLogLevel()],
              db_logger->levelless);

  // info_log_level sets the level of a logger the database makes itself.
  std::shared_ptr<rdb::Logger> made;
  rdb::Options made_options;
  made_options.info_log_level = rdb::ERROR_LEVEL;
  s = rdb::CreateLoggerFromOptions(argv[1], made_options, &made);
  std::printf("-- CreateLoggerFromOptions: %s level=%s\n", s.ToString().c_str(),
              made != nullptr ? kNames[made->GetInfoLogLevel()] : "none");
  return 0;
}
