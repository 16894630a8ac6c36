// AutoRollLogger: the LOG a database writes for itself (DBOptions::info_log
// null), with RocksDB's placement, rotation and retention:
//
//  - Placement. Without db_log_dir the LOG is <db>/LOG and rolled files are
//    <db>/LOG.old.<micros>. With db_log_dir it is <db_log_dir>/<prefix>_LOG
//    and <db_log_dir>/<prefix>_LOG.old.<micros>, where <prefix> is the DB's
//    absolute path with each character outside [A-Za-z0-9._-] replaced by
//    '_' (a leading one dropped): "/data/db1" gives "data_db1_LOG". Several
//    databases can then share one log directory.
//  - Rotation. At creation an existing LOG is renamed to LOG.old.<now>. While
//    the DB runs, a LOG that has reached max_log_file_size bytes, or is
//    log_file_time_to_roll seconds old, is renamed the same way before the
//    next line and a new LOG begun; the header lines (InfoLogLevel::kHeader:
//    the version and options dump) are written again at its top.
//  - Retention. After each rotation the oldest LOG.old files are deleted so
//    that at most keep_log_file_num log files remain, the current LOG
//    included (RocksDB keeps keep_log_file_num - 1 old ones).
//
// Thread-safety: thread-safe (one mutex; a roll happens under it, so lines
// never interleave across files).
// Invariants: after a successful NewDBInfoLog the LOG file exists and is
// open; a failed roll keeps logging to the current file.
#pragma once

#include <cstdarg>
#include <memory>
#include <string>
#include <vector>

#include "env/info_log.h"
#include "strata/env.h"
#include "util/mutex.h"

namespace strata {

struct InfoLogPlacement {
  std::string dbname;            // the DB directory as given to Open
  std::string db_absolute_path;  // for the name under db_log_dir
  std::string db_log_dir;        // empty = the DB directory
};

// The LOG's path, and the path of a LOG rolled at `micros`.
std::string InfoLogPath(const InfoLogPlacement& p);
std::string OldInfoLogPath(const InfoLogPlacement& p, uint64_t micros);
// The DB's absolute path for the placement (dbname itself when absolute,
// else the working directory joined with it; "//" collapsed).
std::string AbsoluteDBPath(const std::string& dbname);

struct AutoRollOptions {
  size_t max_log_file_size = 0;      // bytes; 0 = never by size
  size_t log_file_time_to_roll = 0;  // seconds; 0 = never by age
  size_t keep_log_file_num = 1000;   // >= 1
  InfoLogLevel level = InfoLogLevel::kInfo;
};

class AutoRollLogger final : public Logger {
 public:
  ~AutoRollLogger() override;
  AutoRollLogger(const AutoRollLogger&) = delete;
  AutoRollLogger& operator=(const AutoRollLogger&) = delete;

  void Logv(InfoLogLevel level, const char* format, va_list ap) override EXCLUDES(mu_);
  void Flush() override EXCLUDES(mu_);
  Status Close() override EXCLUDES(mu_);
  // The current LOG's size (bytes appended since it was opened); 0 once
  // closed.
  size_t GetLogFileSize() const override EXCLUDES(mu_);

  // Paths of the LOG.old files this logger knows, oldest first (tests).
  std::vector<std::string> TEST_OldLogFiles() EXCLUDES(mu_);

 private:
  friend Status NewDBInfoLog(FileSystem*, SystemClock*, const InfoLogPlacement&,
                             const AutoRollOptions&, std::shared_ptr<Logger>*);
  AutoRollLogger(FileSystem* fs, SystemClock* clock, InfoLogPlacement placement,
                 AutoRollOptions options);

  // Renames an existing LOG aside and opens a new one.
  Status OpenNewLog() REQUIRES(mu_);
  // Deletes the oldest LOG.old files beyond the retention limit.
  Status TrimOldLogs() REQUIRES(mu_);
  bool NeedsRoll() REQUIRES(mu_);

  FileSystem* const fs_;
  SystemClock* const clock_;
  const InfoLogPlacement placement_;
  const AutoRollOptions options_;

  mutable Mutex mu_;
  std::unique_ptr<InfoLog> log_ GUARDED_BY(mu_);  // null once closed
  uint64_t log_created_micros_ GUARDED_BY(mu_) = 0;
  std::vector<std::string> headers_ GUARDED_BY(mu_);  // kHeader lines, formatted
  bool rolling_ GUARDED_BY(mu_) = false;              // no roll inside a roll
};

// Makes the DB's own info log: creates db_log_dir if set, rolls an existing
// LOG aside, opens a new one and trims old ones. InvalidArgument when
// keep_log_file_num is 0.
Status NewDBInfoLog(FileSystem* fs, SystemClock* clock, const InfoLogPlacement& placement,
                    const AutoRollOptions& options, std::shared_ptr<Logger>* result);

}  // namespace strata
