// AutoRollLogger (see the header).
#include "env/auto_roll_logger.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <utility>

namespace strata {

namespace {

// The file name of the LOG (no directory).
std::string LogBaseName(const InfoLogPlacement& p) {
  if (p.db_log_dir.empty()) return "LOG";
  // RocksDB builds the name in a 260-byte buffer: the path part stops where
  // "_LOG" and the terminator would no longer fit.
  constexpr size_t kBuf = 260;
  constexpr size_t kSuffix = sizeof("_LOG");
  std::string name;
  const std::string& path = p.db_absolute_path;
  for (size_t i = 0; i < path.size() && name.size() < kBuf - kSuffix; ++i) {
    const char c = path[i];
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '-' || c == '.' || c == '_';
    if (keep) {
      name += c;
    } else if (i > 0) {
      name += '_';
    }
  }
  return name + "_LOG";
}

std::string LogDir(const InfoLogPlacement& p) {
  return p.db_log_dir.empty() ? p.dbname : p.db_log_dir;
}

// The time stamp of a rolled log's name, if `name` is one of ours.
bool ParseOldLogName(const std::string& base, const std::string& name, uint64_t* micros) {
  const std::string prefix = base + ".old.";
  if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) return false;
  uint64_t v = 0;
  for (size_t i = prefix.size(); i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9') return false;
    v = v * 10 + static_cast<uint64_t>(name[i] - '0');
  }
  *micros = v;
  return true;
}

}  // namespace

std::string InfoLogPath(const InfoLogPlacement& p) { return LogDir(p) + "/" + LogBaseName(p); }

std::string OldInfoLogPath(const InfoLogPlacement& p, uint64_t micros) {
  return LogDir(p) + "/" + LogBaseName(p) + ".old." + std::to_string(micros);
}

std::string AbsoluteDBPath(const std::string& dbname) {
  std::string path;
  if (!dbname.empty() && dbname[0] == '/') {
    path = dbname;
  } else {
    char cwd[4096];
    path = getcwd(cwd, sizeof(cwd)) != nullptr ? std::string(cwd) + "/" + dbname : dbname;
  }
  std::string out;
  for (char c : path) {
    if (c == '/' && !out.empty() && out.back() == '/') continue;
    out += c;
  }
  return out;
}

AutoRollLogger::AutoRollLogger(FileSystem* fs, SystemClock* clock, InfoLogPlacement placement,
                               AutoRollOptions options)
    : Logger(options.level),
      fs_(fs),
      clock_(clock),
      placement_(std::move(placement)),
      options_(options) {}

AutoRollLogger::~AutoRollLogger() { Close().PermitUncheckedError(); }

Status AutoRollLogger::OpenNewLog() {
  const std::string fname = InfoLogPath(placement_);
  if (fs_->FileExists(fname).ok()) {
    // Two rolls within one microsecond would collide: the later one waits
    // for a fresh name rather than overwrite.
    uint64_t now = clock_->NowMicros();
    while (fs_->FileExists(OldInfoLogPath(placement_, now)).ok()) ++now;
    Status s = fs_->RenameFile(fname, OldInfoLogPath(placement_, now));
    if (!s.ok()) return s;
  }
  FileOptions opts;
  // Every line is flushed at once, so a small buffer is enough.
  opts.writable_file_max_buffer_size = 64 << 10;
  std::unique_ptr<WritableFile> file;
  Status s = fs_->NewWritableFile(fname, opts, &file);
  if (!s.ok()) return s;
  log_ = std::make_unique<InfoLog>(std::move(file), InfoLogLevel::kDebug);
  log_created_micros_ = clock_->NowMicros();
  return Status::OK();
}

Status AutoRollLogger::TrimOldLogs() {
  const std::string base = LogBaseName(placement_);
  std::vector<std::string> children;
  Status s = fs_->GetChildren(LogDir(placement_), &children);
  if (!s.ok()) return s;
  std::vector<std::pair<uint64_t, std::string>> old;
  for (const std::string& name : children) {
    uint64_t micros;
    if (ParseOldLogName(base, name, &micros)) old.emplace_back(micros, name);
  }
  std::sort(old.begin(), old.end());
  // The current LOG counts towards the limit.
  const size_t keep_old = options_.keep_log_file_num - 1;
  Status first_error;
  for (size_t i = 0; i + keep_old < old.size(); ++i) {
    Status ds = fs_->DeleteFile(LogDir(placement_) + "/" + old[i].second);
    // Gone already (deleted by hand) is fine.
    if (!ds.ok() && !ds.IsNotFound() && first_error.ok()) first_error = ds;
  }
  return first_error;
}

bool AutoRollLogger::NeedsRoll() {
  if (log_ == nullptr || rolling_) return false;
  if (options_.max_log_file_size > 0 && log_->GetLogFileSize() >= options_.max_log_file_size) {
    return true;
  }
  return options_.log_file_time_to_roll > 0 &&
         clock_->NowMicros() - log_created_micros_ >=
             uint64_t{options_.log_file_time_to_roll} * 1000000;
}

void AutoRollLogger::Logv(InfoLogLevel level, const char* format, va_list ap) {
  if (level < GetInfoLogLevel()) return;
  MutexLock l(&mu_);
  if (log_ == nullptr) return;
  if (NeedsRoll()) {
    rolling_ = true;
    std::unique_ptr<InfoLog> old = std::move(log_);
    old->Close().PermitUncheckedError();
    Status s = OpenNewLog();
    if (!s.ok()) {
      // Keep writing somewhere: reopen the old file for appending.
      std::unique_ptr<WritableFile> file;
      if (fs_->ReopenWritableFile(InfoLogPath(placement_), FileOptions(), &file).ok()) {
        log_ = std::make_unique<InfoLog>(std::move(file), InfoLogLevel::kDebug);
        log_created_micros_ = clock_->NowMicros();
      }
    } else {
      for (const std::string& h : headers_) Log(InfoLogLevel::kHeader, log_.get(), "%s", h.c_str());
      Status ts = TrimOldLogs();
      if (!ts.ok()) {
        Log(InfoLogLevel::kWarn, log_.get(), "Fail to trim old info log file: %s",
            ts.ToString().c_str());
      }
    }
    rolling_ = false;
    if (log_ == nullptr) return;
  }
  if (level == InfoLogLevel::kHeader) {
    va_list args;
    va_copy(args, ap);
    char buf[1024];
    const int n = vsnprintf(buf, sizeof(buf), format, args);
    va_end(args);
    if (n >= 0 && static_cast<size_t>(n) < sizeof(buf)) {
      headers_.emplace_back(buf, static_cast<size_t>(n));
    } else if (n >= 0) {
      std::string big(static_cast<size_t>(n) + 1, '\0');
      va_copy(args, ap);
      vsnprintf(&big[0], big.size(), format, args);
      va_end(args);
      big.resize(static_cast<size_t>(n));
      headers_.push_back(std::move(big));
    }
  }
  log_->Logv(level, format, ap);
}

void AutoRollLogger::Flush() {
  MutexLock l(&mu_);
  if (log_ != nullptr) log_->Flush();
}

size_t AutoRollLogger::GetLogFileSize() const {
  MutexLock l(&mu_);
  return log_ == nullptr ? 0 : log_->GetLogFileSize();
}

Status AutoRollLogger::Close() {
  MutexLock l(&mu_);
  if (log_ == nullptr) return Status::OK();
  Status s = log_->Close();
  log_.reset();
  return s;
}

std::vector<std::string> AutoRollLogger::TEST_OldLogFiles() {
  MutexLock l(&mu_);
  const std::string base = LogBaseName(placement_);
  std::vector<std::string> children;
  std::vector<std::pair<uint64_t, std::string>> old;
  if (fs_->GetChildren(LogDir(placement_), &children).ok()) {
    for (const std::string& name : children) {
      uint64_t micros;
      if (ParseOldLogName(base, name, &micros)) old.emplace_back(micros, name);
    }
  }
  std::sort(old.begin(), old.end());
  std::vector<std::string> r;
  for (const auto& o : old) r.push_back(LogDir(placement_) + "/" + o.second);
  return r;
}

Status NewDBInfoLog(FileSystem* fs, SystemClock* clock, const InfoLogPlacement& placement,
                    const AutoRollOptions& options, std::shared_ptr<Logger>* result) {
  result->reset();
  if (options.keep_log_file_num == 0) {
    return Status::InvalidArgument("keep_log_file_num must be greater than 0");
  }
  if (!placement.db_log_dir.empty()) {
    Status s = fs->CreateDirIfMissing(placement.db_log_dir);
    if (!s.ok()) return s;
  }
  std::shared_ptr<AutoRollLogger> logger(new AutoRollLogger(fs, clock, placement, options));
  {
    MutexLock l(&logger->mu_);
    // A directory that refuses the rename (read-only, or full) would not
    // let the open go much further; the old LOG is not truncated for it.
    Status s = logger->OpenNewLog();
    if (!s.ok()) return s;
    s = logger->TrimOldLogs();
    if (!s.ok()) {
      Log(InfoLogLevel::kWarn, logger->log_.get(), "Fail to trim old info log file: %s",
          s.ToString().c_str());
    }
  }
  *result = std::move(logger);
  return Status::OK();
}

}  // namespace strata
