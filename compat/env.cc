// compat/env.cc: rocksdb::Env (env.h) and rocksdb::SystemClock
// (system_clock.h) over strata::Env.
//
//  - StrataBackedEnv: Env::Default() and NewMemEnv(): a strata::Env's files
//    (through WrapStrataFileSystem), clock and thread pools. GetStrataEnv()
//    is that strata::Env itself.
//  - CompositeEnvWrapper: files from a given FileSystem, clock from a given
//    SystemClock, everything else from a base Env (NewCompositeEnv,
//    NewMemEnv over another base).
//  - EngineEnv: the strata::Env a database gets for any other Env: its files
//    and clock are the Env's FileSystem and SystemClock (adapted), and its
//    background jobs go to the Env's Schedule.
#include "rocksdb/env.h"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <functional>
#include <map>
#include <mutex>
#include <random>
#include <thread>
#include <utility>
#include <vector>

#include "compat/env_internal.h"
#include "rocksdb/file_system.h"
#include "rocksdb/system_clock.h"
#include "rocksdb/utilities/options_type.h"
#include "strata/env.h"

namespace rocksdb {
namespace compat {
namespace {

// ---- clocks ----

class StrataClock : public SystemClock {
 public:
  explicit StrataClock(std::shared_ptr<::strata::SystemClock> clock) : clock_(std::move(clock)) {}
  const char* Name() const override { return clock_->Name(); }
  const std::shared_ptr<::strata::SystemClock>& strata_clock() const { return clock_; }
  uint64_t NowMicros() override { return clock_->NowMicros(); }
  uint64_t NowNanos() override { return clock_->NowNanos(); }
  uint64_t CPUMicros() override { return clock_->CPUMicros(); }
  void SleepForMicroseconds(int micros) override { clock_->SleepForMicroseconds(micros); }
  Status GetCurrentTime(int64_t* unix_time) override { return clock_->GetCurrentTime(unix_time); }
  std::string TimeToString(uint64_t time) override { return FormatTime(time); }

 private:
  const std::shared_ptr<::strata::SystemClock> clock_;
};

// A SystemClock over an Env's clock methods (an Env subclass's own clock).
class LegacyClock : public SystemClock {
 public:
  explicit LegacyClock(Env* env) : env_(env) {}
  const char* Name() const override { return "LegacySystemClock"; }
  uint64_t NowMicros() override { return env_->NowMicros(); }
  uint64_t NowNanos() override { return env_->NowNanos(); }
  uint64_t CPUMicros() override { return env_->NowCPUNanos() / 1000; }
  uint64_t CPUNanos() override { return env_->NowCPUNanos(); }
  void SleepForMicroseconds(int micros) override { env_->SleepForMicroseconds(micros); }
  Status GetCurrentTime(int64_t* unix_time) override { return env_->GetCurrentTime(unix_time); }
  std::string TimeToString(uint64_t time) override { return env_->TimeToString(time); }

 private:
  Env* const env_;
};

// strata::SystemClock over RocksDB's: the engine's clock for a user clock.
class EngineClock : public ::strata::SystemClock {
 public:
  explicit EngineClock(std::shared_ptr<rocksdb::SystemClock> clock) : clock_(std::move(clock)) {}
  const char* Name() const override { return clock_->Name(); }
  uint64_t NowMicros() override { return clock_->NowMicros(); }
  uint64_t NowNanos() override { return clock_->NowNanos(); }
  uint64_t CPUMicros() override { return clock_->CPUMicros(); }
  void SleepForMicroseconds(int micros) override { clock_->SleepForMicroseconds(micros); }
  ::strata::Status GetCurrentTime(int64_t* unix_time) override {
    return clock_->GetCurrentTime(unix_time);
  }

 private:
  const std::shared_ptr<rocksdb::SystemClock> clock_;
};

::strata::Env::Priority ToStrataPriority(Env::Priority pri) {
  switch (pri) {
    case Env::BOTTOM:
      return ::strata::Env::Priority::kBottom;
    case Env::HIGH:
      return ::strata::Env::Priority::kHigh;
    case Env::USER:
      return ::strata::Env::Priority::kUser;
    case Env::LOW:
    case Env::TOTAL:
      break;
  }
  assert(pri == Env::LOW);  // TOTAL is not a pool (RocksDB asserts too)
  return ::strata::Env::Priority::kLow;
}

Env::Priority FromStrataPriority(::strata::Env::Priority pri) {
  switch (pri) {
    case ::strata::Env::Priority::kBottom:
      return Env::BOTTOM;
    case ::strata::Env::Priority::kHigh:
      return Env::HIGH;
    case ::strata::Env::Priority::kUser:
      return Env::USER;
    case ::strata::Env::Priority::kLow:
    case ::strata::Env::Priority::kTotal:
      break;
  }
  return Env::LOW;
}

// ---- the strata::Env a database gets for a user Env ----

class EngineEnv : public ::strata::Env {
 public:
  EngineEnv(rocksdb::Env* owner, std::shared_ptr<::strata::FileSystem> fs,
            std::shared_ptr<::strata::SystemClock> clock)
      : ::strata::Env(std::move(fs), std::move(clock)), owner_(owner) {}

  void Schedule(std::function<void()> fn, Priority pri) override {
    owner_->Schedule(&RunJob, new std::function<void()>(std::move(fn)), FromStrataPriority(pri),
                     nullptr, &DropJob);
  }
  void SetBackgroundThreads(int n, Priority pri) override {
    owner_->SetBackgroundThreads(n, FromStrataPriority(pri));
  }
  int GetBackgroundThreads(Priority pri) override {
    return owner_->GetBackgroundThreads(FromStrataPriority(pri));
  }
  unsigned int GetThreadPoolQueueLen(Priority pri) const override {
    return owner_->GetThreadPoolQueueLen(FromStrataPriority(pri));
  }
  void LowerThreadPoolIOPriority(Priority pri) override {
    owner_->LowerThreadPoolIOPriority(FromStrataPriority(pri));
  }
  ::strata::Status LowerThreadPoolCPUPriority(Priority pri, ::strata::CpuPriority cpu) override {
    return owner_->LowerThreadPoolCPUPriority(FromStrataPriority(pri), cpu);
  }

 private:
  static void RunJob(void* arg) {
    std::unique_ptr<std::function<void()>> fn(static_cast<std::function<void()>*>(arg));
    (*fn)();
  }
  static void DropJob(void* arg) { delete static_cast<std::function<void()>*>(arg); }

  rocksdb::Env* const owner_;
};

// Files and clock through the members Env holds (file_system_,
// system_clock_); threads are left to subclasses.
class CompositeEnv : public Env {
 public:
  CompositeEnv(const std::shared_ptr<FileSystem>& fs, const std::shared_ptr<SystemClock>& clock)
      : Env(fs, clock) {}

  Status RegisterDbPaths(const std::vector<std::string>& paths) override {
    return file_system_->RegisterDbPaths(paths);
  }
  Status UnregisterDbPaths(const std::vector<std::string>& paths) override {
    return file_system_->UnregisterDbPaths(paths);
  }
  Status NewSequentialFile(const std::string& f, std::unique_ptr<SequentialFile>* r,
                           const EnvOptions& options) override {
    std::unique_ptr<FSSequentialFile> file;
    Status s = file_system_->NewSequentialFile(f, FileOptions(options), &file, nullptr);
    if (s.ok()) *r = ToEnvFile(std::move(file));
    return s;
  }
  Status NewRandomAccessFile(const std::string& f, std::unique_ptr<RandomAccessFile>* r,
                             const EnvOptions& options) override {
    std::unique_ptr<FSRandomAccessFile> file;
    Status s = file_system_->NewRandomAccessFile(f, FileOptions(options), &file, nullptr);
    if (s.ok()) *r = ToEnvFile(std::move(file));
    return s;
  }
  Status NewWritableFile(const std::string& f, std::unique_ptr<WritableFile>* r,
                         const EnvOptions& options) override {
    std::unique_ptr<FSWritableFile> file;
    Status s = file_system_->NewWritableFile(f, FileOptions(options), &file, nullptr);
    if (s.ok()) *r = ToEnvFile(std::move(file));
    return s;
  }
  Status ReopenWritableFile(const std::string& f, std::unique_ptr<WritableFile>* r,
                            const EnvOptions& options) override {
    std::unique_ptr<FSWritableFile> file;
    Status s = file_system_->ReopenWritableFile(f, FileOptions(options), &file, nullptr);
    if (s.ok()) *r = ToEnvFile(std::move(file));
    return s;
  }
  Status ReuseWritableFile(const std::string& f, const std::string& old_f,
                           std::unique_ptr<WritableFile>* r, const EnvOptions& options) override {
    std::unique_ptr<FSWritableFile> file;
    Status s = file_system_->ReuseWritableFile(f, old_f, FileOptions(options), &file, nullptr);
    if (s.ok()) *r = ToEnvFile(std::move(file));
    return s;
  }
  Status NewRandomRWFile(const std::string& f, std::unique_ptr<RandomRWFile>* r,
                         const EnvOptions& options) override {
    std::unique_ptr<FSRandomRWFile> file;
    Status s = file_system_->NewRandomRWFile(f, FileOptions(options), &file, nullptr);
    if (s.ok()) *r = ToEnvFile(std::move(file));
    return s;
  }
  Status NewMemoryMappedFileBuffer(const std::string& f,
                                   std::unique_ptr<MemoryMappedFileBuffer>* r) override {
    return file_system_->NewMemoryMappedFileBuffer(f, r);
  }
  Status NewDirectory(const std::string& name, std::unique_ptr<Directory>* r) override {
    std::unique_ptr<FSDirectory> dir;
    Status s = file_system_->NewDirectory(name, IOOptions(), &dir, nullptr);
    if (s.ok()) *r = ToEnvFile(std::move(dir));
    return s;
  }
  Status FileExists(const std::string& f) override {
    return file_system_->FileExists(f, IOOptions(), nullptr);
  }
  Status GetChildren(const std::string& dir, std::vector<std::string>* r) override {
    return file_system_->GetChildren(dir, IOOptions(), r, nullptr);
  }
  Status GetChildrenFileAttributes(const std::string& dir,
                                   std::vector<FileAttributes>* result) override {
    return file_system_->GetChildrenFileAttributes(dir, IOOptions(), result, nullptr);
  }
  Status DeleteFile(const std::string& f) override {
    return file_system_->DeleteFile(f, IOOptions(), nullptr);
  }
  Status Truncate(const std::string& f, size_t size) override {
    return file_system_->Truncate(f, size, IOOptions(), nullptr);
  }
  Status CreateDir(const std::string& d) override {
    return file_system_->CreateDir(d, IOOptions(), nullptr);
  }
  Status CreateDirIfMissing(const std::string& d) override {
    return file_system_->CreateDirIfMissing(d, IOOptions(), nullptr);
  }
  Status DeleteDir(const std::string& d) override {
    return file_system_->DeleteDir(d, IOOptions(), nullptr);
  }
  Status GetFileSize(const std::string& f, uint64_t* s) override {
    return file_system_->GetFileSize(f, IOOptions(), s, nullptr);
  }
  Status GetFileModificationTime(const std::string& f, uint64_t* mtime) override {
    return file_system_->GetFileModificationTime(f, IOOptions(), mtime, nullptr);
  }
  Status RenameFile(const std::string& s, const std::string& t) override {
    return file_system_->RenameFile(s, t, IOOptions(), nullptr);
  }
  Status LinkFile(const std::string& s, const std::string& t) override {
    return file_system_->LinkFile(s, t, IOOptions(), nullptr);
  }
  Status NumFileLinks(const std::string& f, uint64_t* count) override {
    return file_system_->NumFileLinks(f, IOOptions(), count, nullptr);
  }
  Status AreFilesSame(const std::string& a, const std::string& b, bool* res) override {
    return file_system_->AreFilesSame(a, b, IOOptions(), res, nullptr);
  }
  Status LockFile(const std::string& f, FileLock** l) override {
    return file_system_->LockFile(f, IOOptions(), l, nullptr);
  }
  Status UnlockFile(FileLock* l) override {
    return file_system_->UnlockFile(l, IOOptions(), nullptr);
  }
  Status IsDirectory(const std::string& path, bool* is_dir) override {
    return file_system_->IsDirectory(path, IOOptions(), is_dir, nullptr);
  }
  Status GetFreeSpace(const std::string& path, uint64_t* diskfree) override {
    return file_system_->GetFreeSpace(path, IOOptions(), diskfree, nullptr);
  }
  Status GetTestDirectory(std::string* path) override {
    return file_system_->GetTestDirectory(IOOptions(), path, nullptr);
  }
  Status NewLogger(const std::string& f, std::shared_ptr<Logger>* result) override {
    return file_system_->NewLogger(f, IOOptions(), result, nullptr);
  }
  Status GetAbsolutePath(const std::string& db_path, std::string* out) override {
    return file_system_->GetAbsolutePath(db_path, IOOptions(), out, nullptr);
  }

  uint64_t NowMicros() override { return system_clock_->NowMicros(); }
  uint64_t NowNanos() override { return system_clock_->NowNanos(); }
  uint64_t NowCPUNanos() override { return system_clock_->CPUNanos(); }
  void SleepForMicroseconds(int micros) override { system_clock_->SleepForMicroseconds(micros); }
  Status GetCurrentTime(int64_t* unix_time) override {
    return system_clock_->GetCurrentTime(unix_time);
  }
  std::string TimeToString(uint64_t time) override { return system_clock_->TimeToString(time); }

  Status GetHostName(char* name, uint64_t len) override {
    if (gethostname(name, static_cast<size_t>(len)) != 0) {
      const int err = errno;
      if (err == EFAULT || err == EINVAL || err == ENAMETOOLONG) {
        return Status::InvalidArgument("GetHostName", strerror(err));
      }
      return Status::IOError("GetHostName", strerror(err));
    }
    return Status::OK();
  }
};

}  // namespace

// Env::Default() and NewMemEnv: a strata::Env's files, clock and pools.
// A library opened with dlopen; closed with the object.
class PosixDynamicLibrary : public DynamicLibrary {
 public:
  PosixDynamicLibrary(std::string name, void* handle) : name_(std::move(name)), handle_(handle) {}
  ~PosixDynamicLibrary() override { dlclose(handle_); }
  const char* Name() const override { return name_.c_str(); }
  Status LoadSymbol(const std::string& sym_name, void** func) override {
    dlerror();  // clear an older error
    *func = dlsym(handle_, sym_name.c_str());
    if (*func != nullptr) return Status::OK();
    const char* err = dlerror();
    return Status::NotFound("Error finding symbol: " + sym_name, err != nullptr ? err : "");
  }

 private:
  const std::string name_;
  void* const handle_;
};

// RocksDB's POSIX rules: "" is the program itself; otherwise ".so" is
// appended unless present and "lib" prefixed to a bare name, then the name
// is opened as is (the loader's search) or in each ':'-separated directory
// of search_path.
Status LoadLibraryPosix(const std::string& lib_name, const std::string& search_path,
                        std::shared_ptr<DynamicLibrary>* result) {
  if (result == nullptr) return Status::InvalidArgument("LoadLibrary: null result");
  if (lib_name.empty()) {
    void* handle = dlopen(nullptr, RTLD_NOW);
    if (handle != nullptr) {
      *result = std::make_shared<PosixDynamicLibrary>(lib_name, handle);
      return Status::OK();
    }
  } else {
    std::string name = lib_name;
    if (name.find(".so") == std::string::npos) name += ".so";
    if (name.find('/') == std::string::npos && name.compare(0, 3, "lib") != 0) name = "lib" + name;
    if (search_path.empty()) {
      void* handle = dlopen(name.c_str(), RTLD_NOW);
      if (handle != nullptr) {
        *result = std::make_shared<PosixDynamicLibrary>(name, handle);
        return Status::OK();
      }
    } else {
      size_t pos = 0;
      while (pos <= search_path.size()) {
        size_t colon = search_path.find(':', pos);
        if (colon == std::string::npos) colon = search_path.size();
        const std::string full = search_path.substr(pos, colon - pos) + "/" + name;
        void* handle = dlopen(full.c_str(), RTLD_NOW);
        if (handle != nullptr) {
          *result = std::make_shared<PosixDynamicLibrary>(full, handle);
          return Status::OK();
        }
        pos = colon + 1;
      }
    }
  }
  const char* err = dlerror();
  return Status::IOError("Failed to open shared library: xs: " + lib_name,
                         err != nullptr ? err : "");
}

class StrataBackedEnv : public CompositeEnv {
 public:
  // env: borrowed (Default) unless owned is set.
  StrataBackedEnv(::strata::Env* env, std::unique_ptr<::strata::Env> owned)
      : CompositeEnv(WrapStrataFileSystem(env->GetFileSystemPtr()),
                     WrapStrataClock(SharedClock(env))),
        owned_(std::move(owned)),
        env_(env) {
    native_ = env;
  }
  ~StrataBackedEnv() override {
    // Jobs and threads may use this object: stop them while it is whole.
    env_->WaitForJobsAndJoinAllThreads();
    StrataBackedEnv::WaitForJoin();
  }

  const char* Name() const override { return kDefaultName(); }
  Status LoadLibrary(const std::string& lib_name, const std::string& search_path,
                     std::shared_ptr<DynamicLibrary>* result) override {
    return LoadLibraryPosix(lib_name, search_path, result);
  }

  void Schedule(void (*function)(void* arg), void* arg, Priority pri, void* tag,
                void (*unschedFunction)(void* arg)) override {
    auto job = std::make_shared<Job>();
    job->function = function;
    job->arg = arg;
    job->tag = tag;
    job->unschedule = unschedFunction;
    const size_t pool = PoolIndex(pri);
    if (tag != nullptr) {
      std::lock_guard<std::mutex> l(mu_);
      pending_[pool].emplace(tag, job);
    }
    env_->Schedule(
        [this, job, pool] {
          bool expected = false;
          if (!job->claimed.compare_exchange_strong(expected, true, std::memory_order_acq_rel)) {
            // Unscheduled before it started: it leaves the queue only now.
            cancelled_queued_[pool].fetch_sub(1, std::memory_order_relaxed);
            return;
          }
          if (job->tag != nullptr) Forget(pool, job.get());
          job->function(job->arg);
        },
        ToStrataPriority(pri));
  }

  int UnSchedule(void* tag, Priority pri) override {
    std::vector<std::shared_ptr<Job>> removed;
    {
      std::lock_guard<std::mutex> l(mu_);
      auto& jobs = pending_[PoolIndex(pri)];
      auto range = jobs.equal_range(tag);
      for (auto it = range.first; it != range.second;) {
        bool expected = false;
        if (it->second->claimed.compare_exchange_strong(expected, true,
                                                        std::memory_order_acq_rel)) {
          removed.push_back(it->second);
          cancelled_queued_[PoolIndex(pri)].fetch_add(1, std::memory_order_relaxed);
        }
        it = jobs.erase(it);
      }
    }
    for (const auto& job : removed) {
      if (job->unschedule != nullptr) job->unschedule(job->arg);
    }
    return static_cast<int>(removed.size());
  }

  void StartThread(void (*function)(void* arg), void* arg) override {
    std::lock_guard<std::mutex> l(mu_);
    threads_.emplace_back([function, arg] { function(arg); });
  }
  void WaitForJoin() override {
    std::vector<std::thread> threads;
    {
      std::lock_guard<std::mutex> l(mu_);
      threads.swap(threads_);
    }
    for (std::thread& t : threads) t.join();
  }

  // Unscheduled jobs stay in the strata pool's queue (as no-ops) until a
  // thread pops them; they are not counted.
  unsigned int GetThreadPoolQueueLen(Priority pri) const override {
    const int queued = static_cast<int>(env_->GetThreadPoolQueueLen(ToStrataPriority(pri)));
    const int cancelled = cancelled_queued_[PoolIndex(pri)].load(std::memory_order_relaxed);
    return static_cast<unsigned int>(std::max(queued - cancelled, 0));
  }
  void SetBackgroundThreads(int number, Priority pri) override {
    env_->SetBackgroundThreads(number, ToStrataPriority(pri));
  }
  int GetBackgroundThreads(Priority pri) override {
    return env_->GetBackgroundThreads(ToStrataPriority(pri));
  }
  void IncBackgroundThreadsIfNeeded(int number, Priority pri) override {
    if (env_->GetBackgroundThreads(ToStrataPriority(pri)) < number) {
      env_->SetBackgroundThreads(number, ToStrataPriority(pri));
    }
  }
  void LowerThreadPoolIOPriority(Priority pool) override {
    env_->LowerThreadPoolIOPriority(ToStrataPriority(pool));
  }
  void LowerThreadPoolCPUPriority(Priority pool) override {
    env_->LowerThreadPoolCPUPriority(ToStrataPriority(pool), CpuPriority::kLow)
        .PermitUncheckedError();  // RocksDB's void overload has no error channel
  }
  Status LowerThreadPoolCPUPriority(Priority pool, CpuPriority pri) override {
    return env_->LowerThreadPoolCPUPriority(ToStrataPriority(pool), pri);
  }

 private:
  struct Job {
    void (*function)(void*) = nullptr;
    void* arg = nullptr;
    void* tag = nullptr;
    void (*unschedule)(void*) = nullptr;
    // Set by whichever comes first, the run or UnSchedule; acq_rel so the
    // loser sees the winner's claim.
    std::atomic<bool> claimed{false};
  };

  static std::shared_ptr<::strata::SystemClock> SharedClock(::strata::Env* env) {
    // strata::Env hands out its clock as a raw pointer; the Env outlives
    // every object made here, so the shared_ptr does not own it.
    return std::shared_ptr<::strata::SystemClock>(env->GetSystemClock(),
                                                  [](::strata::SystemClock*) {});
  }
  static size_t PoolIndex(Priority pri) {
    return pri >= BOTTOM && pri < TOTAL ? static_cast<size_t>(pri) : static_cast<size_t>(LOW);
  }
  void Forget(size_t pool, const Job* job) {
    std::lock_guard<std::mutex> l(mu_);
    auto& jobs = pending_[pool];
    auto range = jobs.equal_range(job->tag);
    for (auto it = range.first; it != range.second; ++it) {
      if (it->second.get() == job) {
        jobs.erase(it);
        return;
      }
    }
  }

  // Declared before owned_ so that they outlive the pools' last jobs.
  std::mutex mu_;
  std::multimap<void*, std::shared_ptr<Job>> pending_[TOTAL];  // guarded by mu_
  std::vector<std::thread> threads_;                           // guarded by mu_
  // Per pool: jobs unscheduled but still in the strata pool's queue. Relaxed:
  // a count for GetThreadPoolQueueLen, which is a snapshot anyway.
  std::atomic<int> cancelled_queued_[TOTAL] = {};
  const std::unique_ptr<::strata::Env> owned_;
  ::strata::Env* const env_;
};

namespace {

// Files and clock of its own, everything else from a base Env.
class CompositeEnvWrapper : public CompositeEnv {
 public:
  CompositeEnvWrapper(Env* base, const std::shared_ptr<FileSystem>& fs,
                      const std::shared_ptr<SystemClock>& clock)
      : CompositeEnv(fs, clock), base_(base) {}

  const char* Name() const override { return "CompositeEnv"; }
  void Schedule(void (*f)(void* arg), void* a, Priority pri, void* tag,
                void (*u)(void* arg)) override {
    base_->Schedule(f, a, pri, tag, u);
  }
  int UnSchedule(void* tag, Priority pri) override { return base_->UnSchedule(tag, pri); }
  void StartThread(void (*f)(void*), void* a) override { base_->StartThread(f, a); }
  void WaitForJoin() override { base_->WaitForJoin(); }
  unsigned int GetThreadPoolQueueLen(Priority pri) const override {
    return base_->GetThreadPoolQueueLen(pri);
  }
  int ReserveThreads(int n, Priority pri) override { return base_->ReserveThreads(n, pri); }
  int ReleaseThreads(int n, Priority pri) override { return base_->ReleaseThreads(n, pri); }
  void SetBackgroundThreads(int n, Priority pri) override { base_->SetBackgroundThreads(n, pri); }
  int GetBackgroundThreads(Priority pri) override { return base_->GetBackgroundThreads(pri); }
  void IncBackgroundThreadsIfNeeded(int n, Priority pri) override {
    base_->IncBackgroundThreadsIfNeeded(n, pri);
  }
  void LowerThreadPoolIOPriority(Priority pool) override { base_->LowerThreadPoolIOPriority(pool); }
  void LowerThreadPoolCPUPriority(Priority pool) override {
    base_->LowerThreadPoolCPUPriority(pool);
  }
  Status LowerThreadPoolCPUPriority(Priority pool, CpuPriority pri) override {
    return base_->LowerThreadPoolCPUPriority(pool, pri);
  }
  Status GetHostName(char* name, uint64_t len) override { return base_->GetHostName(name, len); }
  uint64_t GetThreadID() const override { return base_->GetThreadID(); }
  Status GetThreadList(std::vector<ThreadStatus>* list) override {
    return base_->GetThreadList(list);
  }

 private:
  Env* const base_;
};

}  // namespace

std::shared_ptr<SystemClock> WrapStrataClock(std::shared_ptr<::strata::SystemClock> clock) {
  return std::make_shared<StrataClock>(std::move(clock));
}

std::shared_ptr<::strata::SystemClock> UnwrapStrataClock(const SystemClock* clock) {
  auto* wrapped = dynamic_cast<const StrataClock*>(clock);
  return wrapped != nullptr ? wrapped->strata_clock() : nullptr;
}

std::shared_ptr<::strata::SystemClock> NewEngineClock(const std::shared_ptr<SystemClock>& clock) {
  std::shared_ptr<::strata::SystemClock> under = UnwrapStrataClock(clock.get());
  if (under != nullptr) return under;
  return std::make_shared<EngineClock>(clock);
}

std::shared_ptr<SystemClock> NewLegacyClock(Env* env) { return std::make_shared<LegacyClock>(env); }

}  // namespace compat

// ---- Env ----

EnvOptions::EnvOptions() = default;

Env::Env() : thread_status_updater_(nullptr) {
  file_system_ = compat::NewLegacyFileSystem(this);
  system_clock_ = compat::NewLegacyClock(this);
}

Env::Env(const std::shared_ptr<FileSystem>& fs)
    : thread_status_updater_(nullptr), file_system_(fs) {
  system_clock_ = compat::NewLegacyClock(this);
}

Env::Env(const std::shared_ptr<FileSystem>& fs, const std::shared_ptr<SystemClock>& clock)
    : thread_status_updater_(nullptr), file_system_(fs), system_clock_(clock) {}

Env::~Env() = default;

Status Env::LoadEnv(const std::string& value, Env** /*result*/) {
  return Status::NotSupported("Env::LoadEnv is not supported by Strata", value);
}
Status Env::LoadEnv(const std::string& value, Env** /*result*/, std::shared_ptr<Env>* /*guard*/) {
  return Status::NotSupported("Env::LoadEnv is not supported by Strata", value);
}
Status Env::CreateFromString(const ConfigOptions& /*config_options*/, const std::string& value,
                             Env** /*result*/) {
  return Status::NotSupported("Env::CreateFromString is not supported by Strata", value);
}
Status Env::CreateFromString(const ConfigOptions& /*config_options*/, const std::string& value,
                             Env** /*result*/, std::shared_ptr<Env>* /*guard*/) {
  return Status::NotSupported("Env::CreateFromString is not supported by Strata", value);
}
Status Env::CreateFromUri(const ConfigOptions& /*options*/, const std::string& env_uri,
                          const std::string& fs_uri, Env** /*result*/,
                          std::shared_ptr<Env>* /*guard*/) {
  return Status::NotSupported("Env::CreateFromUri is not supported by Strata",
                              env_uri + " " + fs_uri);
}

Env* Env::Default() {
  // Leaked, as strata::Env::Default(): background jobs may outlive main().
  static Env* const env = new compat::StrataBackedEnv(::strata::Env::Default(), nullptr);
  return env;
}

Status Env::ReuseWritableFile(const std::string& fname, const std::string& old_fname,
                              std::unique_ptr<WritableFile>* result, const EnvOptions& options) {
  Status s = RenameFile(old_fname, fname);
  if (!s.ok()) return s;
  return NewWritableFile(fname, result, options);
}

Status Env::GetChildrenFileAttributes(const std::string& dir, std::vector<FileAttributes>* result) {
  // Through this Env's own calls (a plain subclass's FileSystem calls back
  // into this Env, so going through file_system_ would loop).
  std::vector<std::string> names;
  Status s = GetChildren(dir, &names);
  if (!s.ok()) return s;
  result->clear();
  for (std::string& name : names) {
    FileAttributes a;
    s = GetFileSize(dir + "/" + name, &a.size_bytes);
    if (!s.ok()) {
      if (FileExists(dir + "/" + name).IsNotFound()) continue;  // vanished meanwhile
      return s;
    }
    a.name = std::move(name);
    result->push_back(std::move(a));
  }
  return Status::OK();
}

Status Env::NewLogger(const std::string& fname, std::shared_ptr<Logger>* result) {
  return compat::NewLoggerThrough(file_system_.get(), fname, result);
}

Status Env::GetHostNameString(std::string* result) {
  char name[kMaxHostNameLen];
  Status s = GetHostName(name, sizeof(name));
  if (s.ok()) *result = name;
  return s;
}

std::string Env::PriorityToString(Priority priority) {
  switch (priority) {
    case BOTTOM:
      return "Bottom";
    case LOW:
      return "Low";
    case HIGH:
      return "High";
    case USER:
      return "User";
    case TOTAL:
      break;
  }
  return "Invalid";
}

std::string Env::GenerateUniqueId() {
  // A random (version 4) UUID.
  std::random_device rd;
  std::mt19937_64 gen((static_cast<uint64_t>(rd()) << 32) ^ rd() ^ NowNanos());
  uint64_t hi = gen(), lo = gen();
  hi = (hi & ~0xF000ull) | 0x4000ull;        // version 4
  lo = (lo & ~(3ull << 62)) | (2ull << 62);  // RFC 4122 variant
  char buf[40];
  snprintf(buf, sizeof(buf), "%08x-%04x-%04x-%04x-%012llx", static_cast<unsigned>(hi >> 32),
           static_cast<unsigned>((hi >> 16) & 0xFFFF), static_cast<unsigned>(hi & 0xFFFF),
           static_cast<unsigned>(lo >> 48),
           static_cast<unsigned long long>(lo & 0xFFFFFFFFFFFFull));
  return buf;
}

EnvOptions Env::OptimizeForLogRead(const EnvOptions& env_options) const { return env_options; }
EnvOptions Env::OptimizeForManifestRead(const EnvOptions& env_options) const { return env_options; }
EnvOptions Env::OptimizeForLogWrite(const EnvOptions& env_options,
                                    const DBOptions& /*db_options*/) const {
  return env_options;
}
EnvOptions Env::OptimizeForManifestWrite(const EnvOptions& env_options) const {
  return env_options;
}
EnvOptions Env::OptimizeForCompactionTableWrite(const EnvOptions& env_options,
                                                const ImmutableDBOptions& /*immutable_ops*/) const {
  return env_options;
}
EnvOptions Env::OptimizeForCompactionTableRead(const EnvOptions& env_options,
                                               const ImmutableDBOptions& /*db_options*/) const {
  return env_options;
}
EnvOptions Env::OptimizeForBlobFileRead(const EnvOptions& env_options,
                                        const ImmutableDBOptions& /*db_options*/) const {
  return env_options;
}

uint64_t Env::GetThreadID() const {
  return static_cast<uint64_t>(std::hash<std::thread::id>()(std::this_thread::get_id()));
}

const std::shared_ptr<FileSystem>& Env::GetFileSystem() const { return file_system_; }
const std::shared_ptr<SystemClock>& Env::GetSystemClock() const { return system_clock_; }

::strata::Env* Env::GetStrataEnv() {
  if (native_ != nullptr) return native_;
  std::call_once(adapter_once_, [this] {
    adapter_ = std::make_unique<compat::EngineEnv>(this, compat::NewEngineFileSystem(file_system_),
                                                   compat::NewEngineClock(system_clock_));
  });
  return adapter_.get();
}

SequentialFile::~SequentialFile() = default;
RandomAccessFile::~RandomAccessFile() = default;
WritableFile::~WritableFile() = default;
MemoryMappedFileBuffer::~MemoryMappedFileBuffer() = default;
FileLock::~FileLock() = default;

EnvWrapper::EnvWrapper(Env* t) : target_(t) { target_.Prepare(); }
EnvWrapper::EnvWrapper(std::unique_ptr<Env>&& t) : target_(std::move(t)) { target_.Prepare(); }
EnvWrapper::EnvWrapper(const std::shared_ptr<Env>& t) : target_(t) { target_.Prepare(); }
EnvWrapper::~EnvWrapper() = default;

Status EnvWrapper::PrepareOptions(const ConfigOptions& options) {
  target_.Prepare();
  return Env::PrepareOptions(options);
}

std::string EnvWrapper::SerializeOptions(const ConfigOptions& config_options,
                                         const std::string& header) const {
  return compat::SerializeWrapper(
      config_options, header, Env::SerializeOptions(config_options, ""),
      target_.env == nullptr || target_.env == Env::Default() ? nullptr : target_.env);
}

Status WriteStringToFile(Env* env, const Slice& data, const std::string& fname, bool should_sync) {
  std::unique_ptr<WritableFile> file;
  Status s = env->NewWritableFile(fname, &file, EnvOptions());
  if (!s.ok()) return s;
  s = file->Append(data);
  if (s.ok() && should_sync) s = file->Sync();
  Status closed = file->Close();
  if (s.ok()) s = closed;
  file.reset();
  if (!s.ok()) env->DeleteFile(fname).PermitUncheckedError();  // leave no partial file
  return s;
}

Status ReadFileToString(Env* env, const std::string& fname, std::string* data) {
  return ReadFileToString(env->GetFileSystem().get(), fname, data);
}

Env* NewMemEnv(Env* base_env) {
  if (base_env == nullptr || base_env == Env::Default()) {
    std::unique_ptr<::strata::Env> mem = ::strata::NewMemEnv();
    ::strata::Env* raw = mem.get();
    return new compat::StrataBackedEnv(raw, std::move(mem));
  }
  return new compat::CompositeEnvWrapper(base_env,
                                         compat::WrapStrataFileSystem(::strata::NewMemFileSystem()),
                                         base_env->GetSystemClock());
}

Env* compat::NewCompositeEnvOver(Env* base, const std::shared_ptr<FileSystem>& fs) {
  return new compat::CompositeEnvWrapper(base, fs, base->GetSystemClock());
}

Env* NewTimedEnv(Env* /*base_env*/) { return nullptr; }

Status NewEnvLogger(const std::string& fname, Env* env, std::shared_ptr<Logger>* result) {
  return compat::NewLoggerThrough(env->GetFileSystem().get(), fname, result);
}

std::unique_ptr<Env> NewCompositeEnv(const std::shared_ptr<FileSystem>& fs) {
  return std::make_unique<compat::CompositeEnvWrapper>(Env::Default(), fs,
                                                       Env::Default()->GetSystemClock());
}

// ---- SystemClock ----

Status SystemClock::CreateFromString(const ConfigOptions& /*options*/, const std::string& value,
                                     std::shared_ptr<SystemClock>* /*result*/) {
  return Status::NotSupported("SystemClock::CreateFromString is not supported by Strata", value);
}

const std::shared_ptr<SystemClock>& SystemClock::Default() {
  static const std::shared_ptr<SystemClock>* const clock =
      new std::shared_ptr<SystemClock>(compat::WrapStrataClock(::strata::SystemClock::Default()));
  return *clock;
}

SystemClockWrapper::SystemClockWrapper(const std::shared_ptr<SystemClock>& t) : target_(t) {}

Status SystemClockWrapper::PrepareOptions(const ConfigOptions& options) {
  if (target_ == nullptr) target_ = SystemClock::Default();
  return SystemClock::PrepareOptions(options);
}

std::string SystemClockWrapper::SerializeOptions(const ConfigOptions& config_options,
                                                 const std::string& header) const {
  return compat::SerializeWrapper(config_options, header,
                                  SystemClock::SerializeOptions(config_options, ""),
                                  target_ == nullptr || target_->IsInstanceOf(kDefaultName()) ||
                                          target_.get() == SystemClock::Default().get()
                                      ? nullptr
                                      : target_.get());
}

std::string compat::SerializeWrapper(const ConfigOptions& config_options, const std::string& header,
                                     const std::string& own, const Customizable* target) {
  if (config_options.IsShallow() || target == nullptr) return own;
  std::string result = header;
  if (own.rfind(OptionTypeInfo::kIdPropName(), 0) != 0) {
    result.append(OptionTypeInfo::kIdPropName()).append("=");
  }
  result.append(own);
  const std::string& d = config_options.delimiter;
  if (result.size() < d.size() || result.compare(result.size() - d.size(), d.size(), d) != 0) {
    result.append(d);
  }
  result.append("target=").append(target->ToString(config_options));
  return result;
}

ThreadStatusUpdater* CreateThreadStatusUpdater() { return nullptr; }

}  // namespace rocksdb
