// env: RocksDB's Env, SystemClock and FileSystem through RocksDB's C++
// interface -- Env::Default()'s file and directory calls, background jobs
// with priorities (Schedule, UnSchedule, SetBackgroundThreads), an
// EnvWrapper that watches the files and clock readings of a database, and a
// FileSystemWrapper made the database's file system with NewCompositeEnv.
// Built twice (system RocksDB and libstrata-rocksdb); CTest compares the
// output byte for byte, so it prints only facts both engines share (that a
// count is positive, which kinds of files were made), never exact counts.
// Usage: env DB_DIR
#include "rocksdb/env.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "rocksdb/db.h"
#include "rocksdb/file_system.h"
#include "rocksdb/options.h"
#include "rocksdb/system_clock.h"

namespace rdb = ROCKSDB_NAMESPACE;

static void Check(const rdb::Status& s, const char* what) {
  if (!s.ok()) {
    std::printf("FAILED %s: %s\n", what, s.ToString().c_str());
    std::exit(1);
  }
}

static std::string Base(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

static bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The kinds of files a database makes, by name.
struct FileKinds {
  bool wal = false, sst = false, manifest = false;
  std::set<std::string> unknown;

  void Add(const std::string& path) {
    const std::string name = Base(path);
    if (EndsWith(name, ".log")) {
      wal = true;
    } else if (EndsWith(name, ".sst")) {
      sst = true;
    } else if (name.rfind("MANIFEST-", 0) == 0) {
      manifest = true;
    } else if (!(name == "CURRENT" || name == "IDENTITY" || name == "LOG" || name == "LOCK" ||
                 name.rfind("LOG.old", 0) == 0 || name.rfind("OPTIONS-", 0) == 0 ||
                 EndsWith(name, ".dbtmp"))) {
      unknown.insert(name);
    }
  }
  void Print(const char* label) const {
    std::printf("%s: wal=%d sst=%d manifest=%d unknown=", label, wal, sst, manifest);
    if (unknown.empty()) std::printf("none");
    for (const std::string& n : unknown) std::printf("%s ", n.c_str());
    std::printf("\n");
  }
};

// Counts the files a database creates and the clock readings it takes
// through this Env.
class WatchingEnv : public rdb::EnvWrapper {
 public:
  explicit WatchingEnv(rdb::Env* base) : rdb::EnvWrapper(base) {}
  const char* Name() const override { return "WatchingEnv"; }

  rdb::Status NewWritableFile(const std::string& f, std::unique_ptr<rdb::WritableFile>* r,
                              const rdb::EnvOptions& options) override {
    {
      std::lock_guard<std::mutex> l(mu_);
      writable_files++;
      kinds.Add(f);
    }
    return rdb::EnvWrapper::NewWritableFile(f, r, options);
  }
  uint64_t NowMicros() override {
    clock_reads++;
    return rdb::EnvWrapper::NowMicros();
  }
  uint64_t NowNanos() override {
    clock_reads++;
    return rdb::EnvWrapper::NowNanos();
  }

  std::mutex mu_;
  int writable_files = 0;
  FileKinds kinds;
  std::atomic<int> clock_reads{0};
};

// Counts the files a database creates through this file system.
class CountingFileSystem : public rdb::FileSystemWrapper {
 public:
  explicit CountingFileSystem(const std::shared_ptr<rdb::FileSystem>& base)
      : rdb::FileSystemWrapper(base) {}
  const char* Name() const override { return "CountingFileSystem"; }

  rdb::IOStatus NewWritableFile(const std::string& f, const rdb::FileOptions& opts,
                                std::unique_ptr<rdb::FSWritableFile>* r,
                                rdb::IODebugContext* dbg) override {
    {
      std::lock_guard<std::mutex> l(mu_);
      writable_files++;
      kinds.Add(f);
    }
    return target()->NewWritableFile(f, opts, r, dbg);
  }
  rdb::IOStatus DeleteFile(const std::string& f, const rdb::IOOptions& options,
                           rdb::IODebugContext* dbg) override {
    deletes++;
    return target()->DeleteFile(f, options, dbg);
  }

  std::mutex mu_;
  int writable_files = 0;
  FileKinds kinds;
  std::atomic<int> deletes{0};
};

static void FilesAndDirectories(rdb::Env* env, const std::string& dir) {
  std::printf("-- files and directories\n");
  Check(env->CreateDirIfMissing(dir), "CreateDirIfMissing");
  Check(env->CreateDirIfMissing(dir), "CreateDirIfMissing again");
  const std::string a = dir + "/a.txt";
  std::unique_ptr<rdb::WritableFile> w;
  Check(env->NewWritableFile(a, &w, rdb::EnvOptions()), "NewWritableFile");
  Check(w->Append("hello, "), "Append");
  Check(w->Append("env"), "Append");
  Check(w->Sync(), "Sync");
  Check(w->Close(), "Close");
  w.reset();
  uint64_t size = 0;
  Check(env->GetFileSize(a, &size), "GetFileSize");
  std::printf("a.txt exists=%d size=%llu\n", env->FileExists(a).ok(),
              static_cast<unsigned long long>(size));

  std::unique_ptr<rdb::SequentialFile> r;
  Check(env->NewSequentialFile(a, &r, rdb::EnvOptions()), "NewSequentialFile");
  char scratch[64];
  rdb::Slice got;
  Check(r->Skip(7), "Skip");
  Check(r->Read(sizeof(scratch), &got, scratch), "Read");
  std::printf("read after skip: %s\n", got.ToString().c_str());
  r.reset();

  std::unique_ptr<rdb::RandomAccessFile> ra;
  Check(env->NewRandomAccessFile(a, &ra, rdb::EnvOptions()), "NewRandomAccessFile");
  Check(ra->Read(2, 3, &got, scratch), "positional Read");
  std::printf("read at 2: %s\n", got.ToString().c_str());
  ra.reset();

  Check(rdb::WriteStringToFile(env, "second file", dir + "/b.txt", true), "WriteStringToFile");
  std::string text;
  Check(rdb::ReadFileToString(env, dir + "/b.txt", &text), "ReadFileToString");
  std::printf("b.txt: %s\n", text.c_str());
  Check(env->CreateDir(dir + "/sub"), "CreateDir");
  std::printf("CreateDir of an existing dir fails: %d\n", !env->CreateDir(dir + "/sub").ok());

  std::vector<std::string> children;
  Check(env->GetChildren(dir, &children), "GetChildren");
  std::sort(children.begin(), children.end());
  std::printf("children:");
  for (const std::string& c : children) {
    if (c != "." && c != "..") std::printf(" %s", c.c_str());
  }
  std::printf("\n");
  std::vector<rdb::Env::FileAttributes> attrs;
  Check(env->GetChildrenFileAttributes(dir, &attrs), "GetChildrenFileAttributes");
  std::sort(attrs.begin(), attrs.end(),
            [](const rdb::Env::FileAttributes& x, const rdb::Env::FileAttributes& y) {
              return x.name < y.name;
            });
  for (const auto& f : attrs) {
    if (f.name == "a.txt" || f.name == "b.txt") {
      std::printf("attribute %s %llu\n", f.name.c_str(),
                  static_cast<unsigned long long>(f.size_bytes));
    }
  }
  bool is_dir = false;
  Check(env->IsDirectory(dir + "/sub", &is_dir), "IsDirectory");
  std::printf("sub is a directory: %d\n", is_dir);

  Check(env->RenameFile(a, dir + "/c.txt"), "RenameFile");
  std::printf("after rename: a exists=%d, a is NotFound=%d, c exists=%d\n", env->FileExists(a).ok(),
              env->FileExists(a).IsNotFound(), env->FileExists(dir + "/c.txt").ok());
  Check(env->DeleteFile(dir + "/c.txt"), "DeleteFile");
  std::printf("delete of a missing file fails: %d\n", !env->DeleteFile(dir + "/c.txt").ok());

  std::unique_ptr<rdb::Directory> d;
  Check(env->NewDirectory(dir, &d), "NewDirectory");
  Check(d->Fsync(), "Directory::Fsync");

  rdb::FileLock* lock = nullptr;
  Check(env->LockFile(dir + "/LOCK", &lock), "LockFile");
  rdb::FileLock* second = nullptr;
  std::printf("second lock of the same file fails: %d\n",
              !env->LockFile(dir + "/LOCK", &second).ok());
  Check(env->UnlockFile(lock), "UnlockFile");

  std::string abs;
  Check(env->GetAbsolutePath("/an/absolute/path", &abs), "GetAbsolutePath");
  std::printf("an absolute path stays: %d\n", abs == "/an/absolute/path");
  // RocksDB's POSIX Env answers the working directory for a relative path.
  Check(env->GetAbsolutePath("relative", &abs), "GetAbsolutePath relative");
  char cwd[4096];
  std::printf("a relative path gives the working directory: %d\n",
              getcwd(cwd, sizeof(cwd)) != nullptr && abs == cwd);
  std::string host;
  Check(env->GetHostNameString(&host), "GetHostNameString");
  std::printf("host name is not empty: %d\n", !host.empty());
  Check(env->DeleteFile(dir + "/b.txt"), "DeleteFile b");
  Check(env->DeleteDir(dir + "/sub"), "DeleteDir");
}

struct JobState {
  std::atomic<int> ran{0};
  std::atomic<int> unscheduled{0};
};

static void RunJob(void* arg) { static_cast<JobState*>(arg)->ran++; }
static void UnscheduledJob(void* arg) { static_cast<JobState*>(arg)->unscheduled++; }

static bool WaitFor(const std::atomic<int>& value, int wanted) {
  for (int i = 0; i < 6000 && value.load() < wanted; i++) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return value.load() >= wanted;
}

static void BackgroundJobs(rdb::Env* env) {
  std::printf("-- background jobs\n");
  std::printf("priorities: %s %s %s %s\n", rdb::Env::PriorityToString(rdb::Env::BOTTOM).c_str(),
              rdb::Env::PriorityToString(rdb::Env::LOW).c_str(),
              rdb::Env::PriorityToString(rdb::Env::HIGH).c_str(),
              rdb::Env::PriorityToString(rdb::Env::USER).c_str());
  env->SetBackgroundThreads(3, rdb::Env::HIGH);
  std::printf("HIGH threads: %d\n", env->GetBackgroundThreads(rdb::Env::HIGH));
  env->IncBackgroundThreadsIfNeeded(2, rdb::Env::LOW);
  std::printf("LOW threads at least 2: %d\n", env->GetBackgroundThreads(rdb::Env::LOW) >= 2);

  JobState state;
  for (int i = 0; i < 4; i++) env->Schedule(&RunJob, &state, rdb::Env::LOW);
  for (int i = 0; i < 4; i++) env->Schedule(&RunJob, &state, rdb::Env::HIGH);
  std::printf("LOW and HIGH jobs ran: %d\n", WaitFor(state.ran, 8));

  // The BOTTOM pool starts without threads: jobs wait there until taken
  // back or until the pool gets a thread.
  std::printf("BOTTOM threads at first: %d\n", env->GetBackgroundThreads(rdb::Env::BOTTOM));
  JobState waiting;
  int tag = 0;
  env->Schedule(&RunJob, &waiting, rdb::Env::BOTTOM, &tag, &UnscheduledJob);
  env->Schedule(&RunJob, &waiting, rdb::Env::BOTTOM, &tag, &UnscheduledJob);
  std::printf("BOTTOM queue: %u\n", env->GetThreadPoolQueueLen(rdb::Env::BOTTOM));
  const int taken_back = env->UnSchedule(&tag, rdb::Env::BOTTOM);
  std::printf("unscheduled: %d, their unschedule functions ran: %d, jobs ran: %d\n", taken_back,
              waiting.unscheduled.load(), waiting.ran.load());
  std::printf("BOTTOM queue after: %u\n", env->GetThreadPoolQueueLen(rdb::Env::BOTTOM));

  env->SetBackgroundThreads(1, rdb::Env::BOTTOM);
  std::printf("BOTTOM threads: %d\n", env->GetBackgroundThreads(rdb::Env::BOTTOM));
  JobState bottom;
  env->Schedule(&RunJob, &bottom, rdb::Env::BOTTOM);
  std::printf("BOTTOM job ran: %d\n", WaitFor(bottom.ran, 1));

  // StartThread / WaitForJoin.
  JobState started;
  env->StartThread(&RunJob, &started);
  env->StartThread(&RunJob, &started);
  env->WaitForJoin();
  std::printf("started threads ran: %d\n", started.ran.load());
}

static void Clock(rdb::Env* env) {
  std::printf("-- clock\n");
  const std::shared_ptr<rdb::SystemClock>& clock = rdb::SystemClock::Default();
  const uint64_t micros = clock->NowMicros();
  const int64_t wall = static_cast<int64_t>(std::time(nullptr));
  int64_t now = 0;
  Check(clock->GetCurrentTime(&now), "GetCurrentTime");
  std::printf(
      "clock agrees with time(): %d\n",
      now >= wall - 5 && now <= wall + 5 && micros / 1000000 >= static_cast<uint64_t>(wall - 5));
  const uint64_t t0 = clock->NowNanos();
  clock->SleepForMicroseconds(2000);
  std::printf("slept at least 2ms: %d\n", clock->NowNanos() - t0 >= 2000000);
  std::printf("TimeToString text length: %zu\n",
              std::strlen(clock->TimeToString(86400 * 365).c_str()));
  int64_t env_now = 0;
  Check(env->GetCurrentTime(&env_now), "Env::GetCurrentTime");
  std::printf("Env clock agrees: %d, Env has a clock: %d\n",
              env_now >= wall - 5 && env_now <= wall + 5, env->GetSystemClock() != nullptr);

  // A wrapper that shifts time by one hour.
  class ShiftedClock : public rdb::SystemClockWrapper {
   public:
    explicit ShiftedClock(const std::shared_ptr<rdb::SystemClock>& base)
        : rdb::SystemClockWrapper(base) {}
    const char* Name() const override { return "ShiftedClock"; }
    rdb::Status GetCurrentTime(int64_t* unix_time) override {
      rdb::Status s = target_->GetCurrentTime(unix_time);
      *unix_time += 3600;
      return s;
    }
  };
  ShiftedClock shifted(clock);
  int64_t later = 0;
  Check(shifted.GetCurrentTime(&later), "shifted GetCurrentTime");
  std::printf("shifted clock is an hour ahead: %d\n", later - now >= 3595 && later - now <= 3605);
}

static void FillAndFlush(rdb::Env* env, const std::string& path, const char* label) {
  rdb::Options options;
  options.create_if_missing = true;
  options.env = env;
  rdb::DB* db = nullptr;
  Check(rdb::DB::Open(options, path, &db), label);
  for (int i = 0; i < 100; i++) {
    Check(db->Put(rdb::WriteOptions(), "key" + std::to_string(i), "value" + std::to_string(i)),
          "Put");
  }
  Check(db->Flush(rdb::FlushOptions()), "Flush");
  std::string v;
  Check(db->Get(rdb::ReadOptions(), "key42", &v), "Get");
  std::printf("%s: key42=%s, GetEnv is ours: %d\n", label, v.c_str(), db->GetEnv() == env);
  delete db;
}

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DB_DIR\n", argv[0]);
    return 2;
  }
  const std::string root = argv[1];
  rdb::Env* env = rdb::Env::Default();
  Check(env->CreateDirIfMissing(root), "CreateDirIfMissing root");

  FilesAndDirectories(env, root + "/files");
  BackgroundJobs(env);
  Clock(env);

  std::printf("-- an EnvWrapper under a database\n");
  {
    WatchingEnv watching(rdb::Env::Default());
    FillAndFlush(&watching, root + "/watched", "watched");
    std::printf("writable files > 0: %d, clock read by the engine: %d\n",
                watching.writable_files > 0, watching.clock_reads.load() > 0);
    watching.kinds.Print("watched files");
    rdb::Options options;
    options.env = &watching;
    Check(rdb::DestroyDB(root + "/watched", options), "DestroyDB watched");
  }

  std::printf("-- a FileSystemWrapper through NewCompositeEnv\n");
  {
    auto fs = std::make_shared<CountingFileSystem>(rdb::FileSystem::Default());
    std::unique_ptr<rdb::Env> composite = rdb::NewCompositeEnv(fs);
    std::printf("composite env's file system is ours: %d\n",
                composite->GetFileSystem().get() == fs.get());
    FillAndFlush(composite.get(), root + "/composite", "composite");
    std::printf("writable files > 0: %d\n", fs->writable_files > 0);
    fs->kinds.Print("composite files");
    rdb::Options options;
    options.env = composite.get();
    Check(rdb::DestroyDB(root + "/composite", options), "DestroyDB composite");
    std::printf("DestroyDB deleted through it: %d\n", fs->deletes.load() > 0);

    // The file system directly.
    rdb::IOOptions io;
    std::vector<std::string> names;
    Check(fs->CreateDirIfMissing(root + "/fsdir", io, nullptr), "FS CreateDirIfMissing");
    std::unique_ptr<rdb::FSWritableFile> f;
    Check(fs->NewWritableFile(root + "/fsdir/x", rdb::FileOptions(), &f, nullptr),
          "FS NewWritableFile");
    Check(f->Append("xyz", io, nullptr), "FS Append");
    Check(f->Close(io, nullptr), "FS Close");
    uint64_t size = 0;
    Check(fs->GetFileSize(root + "/fsdir/x", io, &size, nullptr), "FS GetFileSize");
    Check(fs->GetChildren(root + "/fsdir", io, &names, nullptr), "FS GetChildren");
    std::printf("fs file size %llu, children %zu, missing file is NotFound: %d\n",
                static_cast<unsigned long long>(size), names.size(),
                fs->FileExists(root + "/fsdir/y", io, nullptr).IsNotFound());
  }

  std::printf("-- an in-memory Env\n");
  {
    std::unique_ptr<rdb::Env> mem(rdb::NewMemEnv(rdb::Env::Default()));
    FillAndFlush(mem.get(), "/in-memory/db", "memory");
    std::printf("the database is not on disk: %d\n",
                env->FileExists("/in-memory/db/CURRENT").IsNotFound());
  }
  std::printf("done\n");
  return 0;
}
