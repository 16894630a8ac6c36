// Env's thread pools, the process-wide defaults, the Log helpers and the
// whole-file helpers of strata/env.h.

#include "strata/env.h"

#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cassert>
#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "env/info_log.h"
#include "env/mem_file_system.h"
#include "env/thread_priority.h"
#include "util/thread_pool.h"

namespace strata {

namespace {

// The pools' priority hook (ThreadPool::PriorityHook): lowers the calling
// thread's I/O class and CPU priority the way RocksDB's POSIX Env does. The
// calls may fail (raising a priority needs privileges); the thread then keeps
// running as it was, which is what RocksDB does too.
void LowerCurrentThreadPriority(bool lower_io, int cpu_priority) {
#ifdef __linux__
  if (lower_io) {
    // ioprio_set(IOPRIO_WHO_PROCESS = 1, 0 = this thread,
    //            IOPRIO_PRIO_VALUE(IOPRIO_CLASS_IDLE = 3, 0)).
    constexpr int kIoprioClassShift = 13;
    (void)syscall(SYS_ioprio_set, 1, 0, 3 << kIoprioClassShift);
  }
  if (cpu_priority >= 0) {
    sched_param param{};
    param.sched_priority = 0;
    switch (static_cast<CpuPriority>(cpu_priority)) {
      case CpuPriority::kIdle:
        (void)sched_setscheduler(0, SCHED_IDLE, &param);
        break;
      case CpuPriority::kLow:
        (void)sched_setscheduler(0, SCHED_OTHER, &param);
        (void)setpriority(PRIO_PROCESS, 0, 19);  // 0: the calling thread on Linux
        break;
      case CpuPriority::kNormal:
        (void)sched_setscheduler(0, SCHED_OTHER, &param);
        (void)setpriority(PRIO_PROCESS, 0, 0);
        break;
      case CpuPriority::kHigh:
        (void)sched_setscheduler(0, SCHED_OTHER, &param);
        (void)setpriority(PRIO_PROCESS, 0, -20);
        break;
    }
  }
#else
  (void)lower_io;
  (void)cpu_priority;
#endif
}

}  // namespace

void SetCurrentThreadCpuPriority(CpuPriority cpu) {
  LowerCurrentThreadPriority(/*lower_io=*/false, static_cast<int>(cpu));
}

// One pool per priority; threads start on first use. BOTTOM and USER start
// with no threads, as RocksDB's.
struct Env::Pools {
  ThreadPool low{1, "strata:low", LowerCurrentThreadPriority};
  ThreadPool high{1, "strata:high", LowerCurrentThreadPriority};
  ThreadPool bottom{0, "strata:bottom", LowerCurrentThreadPriority};
  ThreadPool user{0, "strata:user", LowerCurrentThreadPriority};

  ThreadPool& Get(Priority pri) {
    switch (pri) {
      case Priority::kHigh:
        return high;
      case Priority::kBottom:
        return bottom;
      case Priority::kUser:
        return user;
      case Priority::kLow:
      case Priority::kTotal:
        break;
    }
    assert(pri == Priority::kLow);
    return low;
  }
  bool AllIdle() const { return low.IsIdle() && high.IsIdle() && bottom.IsIdle() && user.IsIdle(); }
};

Env::Env(std::shared_ptr<FileSystem> fs, std::shared_ptr<SystemClock> clock)
    : fs_(std::move(fs)), clock_(std::move(clock)), pools_(std::make_unique<Pools>()) {}

// Runs and joins the background jobs while the file system and clock they
// may use are still alive. A subclass whose overrides the jobs call must do
// this in its own destructor.
Env::~Env() { Env::WaitForJobsAndJoinAllThreads(); }

Env* Env::Default() {
  // Leaked: never destroyed, so background threads may outlive main().
  static Env* const env = new Env(FileSystem::Default(), SystemClock::Default());
  return env;
}

void Env::Schedule(std::function<void()> fn, Priority pri) {
  pools_->Get(pri).Schedule(std::move(fn));
}

void Env::SetBackgroundThreads(int n, Priority pri) { pools_->Get(pri).SetBackgroundThreads(n); }

int Env::GetBackgroundThreads(Priority pri) { return pools_->Get(pri).GetBackgroundThreads(); }

unsigned int Env::GetThreadPoolQueueLen(Priority pri) const { return pools_->Get(pri).QueueLen(); }

void Env::LowerThreadPoolIOPriority(Priority pri) { pools_->Get(pri).LowerIOPriority(); }

Status Env::LowerThreadPoolCPUPriority(Priority pri, CpuPriority cpu) {
#ifdef __linux__
  pools_->Get(pri).LowerCPUPriority(static_cast<int>(cpu));
  return Status::OK();
#else
  (void)pri, (void)cpu;
  return Status::NotSupported("Env::LowerThreadPoolCPUPriority",
                              "this platform has no per-thread priorities");
#endif
}

void Env::WaitForJobsAndJoinAllThreads() {
  // A flush may schedule a compaction and the other way round: repeat until
  // no pool has anything left.
  do {
    pools_->high.WaitForJobsAndJoinAllThreads();
    pools_->low.WaitForJobsAndJoinAllThreads();
    pools_->bottom.WaitForJobsAndJoinAllThreads();
    pools_->user.WaitForJobsAndJoinAllThreads();
  } while (!pools_->AllIdle());
}

std::unique_ptr<Env> NewMemEnv() {
  return std::make_unique<Env>(NewMemFileSystem(), SystemClock::Default());
}

std::shared_ptr<FileSystem> NewMemFileSystem() { return std::make_shared<MemFileSystem>(); }

namespace {

// The logger whose default Logv(level, ...) is running on this thread: its
// default Logv(format) then drops the message instead of calling back.
thread_local const Logger* tls_logger_in_default = nullptr;

class DefaultScope {
 public:
  explicit DefaultScope(const Logger* logger) : saved_(tls_logger_in_default) {
    tls_logger_in_default = logger;
  }
  ~DefaultScope() { tls_logger_in_default = saved_; }

 private:
  const Logger* saved_;
};

}  // namespace

void Logger::Logv(const InfoLogLevel log_level, const char* format, va_list ap) {
  static const char* const kNames[] = {"DEBUG", "INFO", "WARN", "ERROR", "FATAL"};
  if (log_level < GetInfoLogLevel()) return;
  {
    DefaultScope scope(this);
    if (log_level == InfoLogLevel::kInfo) {
      Logv(format, ap);
    } else if (log_level == InfoLogLevel::kHeader) {
      LogHeader(format, ap);
    } else {
      const auto i = static_cast<size_t>(log_level);
      char prefixed[500];
      std::snprintf(prefixed, sizeof(prefixed), "[%s] %s", i < 5 ? kNames[i] : "?", format);
      Logv(prefixed, ap);
    }
  }
  if (log_level >= InfoLogLevel::kWarn && log_level != InfoLogLevel::kHeader) {
    Flush();
  }
}

void Logger::Logv(const char* format, va_list ap) {
  if (tls_logger_in_default == this) return;  // neither Logv overridden
  Logv(InfoLogLevel::kInfo, format, ap);
}

void Logger::LogHeader(const char* format, va_list ap) {
  if (tls_logger_in_default == this) {
    Logv(format, ap);  // from the default Logv(kHeader, ...)
  } else {
    Logv(InfoLogLevel::kHeader, format, ap);
  }
}

void Log(InfoLogLevel level, Logger* logger, const char* format, ...) {
  if (logger == nullptr || level < logger->GetInfoLogLevel()) return;
  va_list ap;
  va_start(ap, format);
  if (level == InfoLogLevel::kHeader) {
    logger->LogHeader(format, ap);
  } else {
    logger->Logv(level, format, ap);
  }
  va_end(ap);
}

void Log(Logger* logger, const char* format, ...) {
  if (logger == nullptr || InfoLogLevel::kInfo < logger->GetInfoLogLevel()) return;
  va_list ap;
  va_start(ap, format);
  logger->Logv(InfoLogLevel::kInfo, format, ap);
  va_end(ap);
}

Status FileSystem::NewLogger(const std::string& fname, std::shared_ptr<Logger>* result) {
  result->reset();
  FileOptions opts;
  // Every line is flushed at once, so a small buffer is enough; longer lines
  // are written directly.
  opts.writable_file_max_buffer_size = 64 << 10;
  std::unique_ptr<WritableFile> file;
  Status s = NewWritableFile(fname, opts, &file);
  if (!s.ok()) return s;
  *result = std::make_shared<InfoLog>(std::move(file));
  return Status::OK();
}

Status WriteStringToFile(FileSystem* fs, const Slice& data, const std::string& fname,
                         bool should_sync, const FileOptions& opts) {
  std::unique_ptr<WritableFile> file;
  Status s = fs->NewWritableFile(fname, opts, &file);
  if (!s.ok()) return s;
  s = file->Append(data);
  if (s.ok() && should_sync) s = file->Sync();
  if (s.ok()) {
    s = file->Close();
  } else {
    file->Close().PermitUncheckedError();  // the first error is the one to report
  }
  file.reset();
  if (!s.ok()) fs->DeleteFile(fname).PermitUncheckedError();  // leave no partial file
  return s;
}

Status ReadFileToString(FileSystem* fs, const std::string& fname, std::string* data) {
  data->clear();
  std::unique_ptr<SequentialFile> file;
  Status s = fs->NewSequentialFile(fname, FileOptions(), &file);
  if (!s.ok()) return s;
  constexpr size_t kChunk = 64 << 10;
  while (true) {
    const size_t old_size = data->size();
    data->resize(old_size + kChunk);
    char* scratch = data->data() + old_size;
    Slice fragment;
    s = file->Read(kChunk, &fragment, scratch);
    if (!s.ok()) {
      data->resize(old_size);
      return s;
    }
    if (fragment.data() != scratch && !fragment.empty()) {
      memmove(scratch, fragment.data(), fragment.size());  // the file's own memory
    }
    data->resize(old_size + fragment.size());
    if (fragment.size() < kChunk) return Status::OK();  // a short read is the end
  }
}

Status CopyFile(FileSystem* fs, const std::string& src, const std::string& dst, uint64_t size,
                bool sync, const FileOptions& opts) {
  std::unique_ptr<SequentialFile> in;
  Status s = fs->NewSequentialFile(src, FileOptions(), &in);
  if (!s.ok()) return s;
  std::unique_ptr<WritableFile> out;
  s = fs->NewWritableFile(dst, opts, &out);
  if (!s.ok()) return s;
  constexpr size_t kChunk = 256 << 10;
  std::string buffer(kChunk, '\0');
  uint64_t left = size;
  while (size == 0 || left > 0) {
    const size_t want = size == 0 ? kChunk : static_cast<size_t>(std::min<uint64_t>(left, kChunk));
    Slice fragment;
    s = in->Read(want, &fragment, buffer.data());
    if (!s.ok()) break;
    if (fragment.empty()) {
      if (size != 0) {
        s = Status::Corruption(
            "file is shorter than expected while copying",
            src + ": " + std::to_string(size - left) + " of " + std::to_string(size) + " bytes");
      }
      break;
    }
    s = out->Append(fragment);
    if (!s.ok()) break;
    if (size != 0) left -= fragment.size();
  }
  if (s.ok()) s = out->Flush();
  if (s.ok() && sync) s = out->Sync();
  Status cs = out->Close();
  if (s.ok()) s = cs;
  if (!s.ok()) fs->DeleteFile(dst).PermitUncheckedError();
  return s;
}

}  // namespace strata
