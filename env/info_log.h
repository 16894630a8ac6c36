// InfoLog: the Logger behind a database's LOG file (FileSystem::NewLogger).
//
// Each message becomes one line
//   "YYYY/MM/DD-HH:MM:SS.uuuuuu <thread id, hex> [LEVEL] <message>\n"
// in local time; "[LEVEL] " appears for every level but kInfo and kHeader,
// and a newline is added unless the message ends with one. A line is
// formatted into a stack buffer (the heap only for lines over ~500 bytes),
// then written with one Append and one Flush, so a line is whole in the file
// even if the process dies right after. Messages below the logger's level
// are dropped before formatting.
//
// Thread-safety: thread-safe (one mutex around the file).
// Invariant: after Close (or the destructor) the file is closed and further
// messages are dropped.
#pragma once

#include <cstdarg>
#include <memory>

#include "strata/env.h"
#include "util/mutex.h"

namespace strata {

class InfoLog final : public Logger {
 public:
  // Takes ownership of file, which is written from its current end.
  explicit InfoLog(std::unique_ptr<WritableFile> file, InfoLogLevel level = InfoLogLevel::kInfo);
  ~InfoLog() override;

  InfoLog(const InfoLog&) = delete;
  InfoLog& operator=(const InfoLog&) = delete;

  void Logv(InfoLogLevel level, const char* format, va_list ap) override EXCLUDES(mu_);
  void Flush() override EXCLUDES(mu_);
  Status Close() override EXCLUDES(mu_);
  // Bytes this logger has appended (what rolling by size measures).
  size_t GetLogFileSize() const override EXCLUDES(mu_);

 private:
  mutable Mutex mu_;
  std::unique_ptr<WritableFile> file_ GUARDED_BY(mu_);  // null once closed
  uint64_t size_ GUARDED_BY(mu_) = 0;
};

}  // namespace strata
