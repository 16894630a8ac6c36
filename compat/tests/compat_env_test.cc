// compat_env_test: rocksdb::Env, SystemClock and FileSystem over Strata.
// A user Env or FileSystem given to a database must carry the engine's file
// I/O, background jobs and clock (the adapter of compat/env.cc): a failing
// Env makes Open fail with its error, a counting one sees the WAL, table and
// MANIFEST files; Env::Default() and NewMemEnv reach the engine as Strata's
// own Env; calls Strata cannot back answer NotSupported naming them.
#include <atomic>
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/file_system.h"
#include "rocksdb/options.h"
#include "rocksdb/system_clock.h"
#include "rocksdb/utilities/backup_engine.h"
#include "strata/env.h"

namespace rocksdb {
namespace {

std::string TestPath(const std::string& name) {
  std::string dir;
  EXPECT_TRUE(Env::Default()->GetTestDirectory(&dir).ok());
  return dir + "/compat_env_test_" + name;
}

std::string Base(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Records the names of the files created through it and counts Schedule
// calls and clock readings; fails NewWritableFile for names containing
// fail_on (when set).
class RecordingEnv : public EnvWrapper {
 public:
  explicit RecordingEnv(Env* base) : EnvWrapper(base) {}

  Status NewWritableFile(const std::string& f, std::unique_ptr<WritableFile>* r,
                         const EnvOptions& options) override {
    {
      std::lock_guard<std::mutex> l(mu);
      created.insert(Base(f));
    }
    if (!fail_on.empty() && f.find(fail_on) != std::string::npos) {
      return Status::IOError("injected failure creating", f);
    }
    return EnvWrapper::NewWritableFile(f, r, options);
  }
  void Schedule(void (*f)(void* arg), void* a, Priority pri, void* tag = nullptr,
                void (*u)(void* arg) = nullptr) override {
    scheduled[pri]++;
    EnvWrapper::Schedule(f, a, pri, tag, u);
  }
  uint64_t NowMicros() override {
    clock_reads++;
    return EnvWrapper::NowMicros();
  }

  bool Created(bool (*match)(const std::string&)) {
    std::lock_guard<std::mutex> l(mu);
    for (const std::string& n : created) {
      if (match(n)) return true;
    }
    return false;
  }

  std::string fail_on;
  std::mutex mu;
  std::set<std::string> created;
  std::atomic<int> scheduled[TOTAL] = {};
  std::atomic<int> clock_reads{0};
};

bool IsWal(const std::string& n) { return EndsWith(n, ".log"); }
bool IsTable(const std::string& n) { return EndsWith(n, ".sst"); }
bool IsManifest(const std::string& n) { return n.rfind("MANIFEST-", 0) == 0; }

Status FillAndFlush(Env* env, const std::string& path) {
  Options options;
  options.create_if_missing = true;
  options.env = env;
  DB* db = nullptr;
  Status s = DB::Open(options, path, &db);
  if (!s.ok()) return s;
  for (int i = 0; i < 50 && s.ok(); i++) {
    s = db->Put(WriteOptions(), "k" + std::to_string(i), "v" + std::to_string(i));
  }
  if (s.ok()) s = db->Flush(FlushOptions());
  std::string v;
  if (s.ok()) s = db->Get(ReadOptions(), "k7", &v);
  if (s.ok() && v != "v7") s = Status::Corruption("k7 read back as " + v);
  delete db;
  return s;
}

TEST(CompatEnvTest, DefaultAndMemEnvAreStrataEnvsWithoutAdapter) {
  EXPECT_EQ(::strata::Env::Default(), Env::Default()->GetStrataEnv());
  std::unique_ptr<Env> mem(NewMemEnv(Env::Default()));
  ASSERT_NE(nullptr, mem);
  EXPECT_NE(::strata::Env::Default(), mem->GetStrataEnv());
  EXPECT_STREQ("MemFileSystem", mem->GetStrataEnv()->GetFileSystem()->Name());
  // A wrapper gets an adapter of its own (made once).
  RecordingEnv wrapper(Env::Default());
  ::strata::Env* adapter = wrapper.GetStrataEnv();
  EXPECT_NE(::strata::Env::Default(), adapter);
  EXPECT_EQ(adapter, wrapper.GetStrataEnv());
}

TEST(CompatEnvTest, FailingEnvMakesOpenFailWithItsError) {
  const std::string path = TestPath("failing");
  ASSERT_TRUE(DestroyDB(path, Options()).ok());
  RecordingEnv env(Env::Default());
  env.fail_on = "MANIFEST";
  Status s = FillAndFlush(&env, path);
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("injected failure creating")) << s.ToString();
  ASSERT_TRUE(DestroyDB(path, Options()).ok());

  // Every file creation failing: Open still fails with the Env's error.
  env.fail_on = "/";
  s = FillAndFlush(&env, path);
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("injected failure creating")) << s.ToString();
  ASSERT_TRUE(DestroyDB(path, Options()).ok());
}

TEST(CompatEnvTest, RecordingEnvSeesTheEngineFilesJobsAndClock) {
  const std::string path = TestPath("recording");
  ASSERT_TRUE(DestroyDB(path, Options()).ok());
  RecordingEnv env(Env::Default());
  ASSERT_TRUE(FillAndFlush(&env, path).ok());
  EXPECT_TRUE(env.Created(IsWal));
  EXPECT_TRUE(env.Created(IsTable));
  EXPECT_TRUE(env.Created(IsManifest));
  EXPECT_GT(env.scheduled[Env::HIGH].load(), 0);  // the flush ran in the Env's HIGH pool
  EXPECT_GT(env.clock_reads.load(), 0);
  // A failing table file makes the flush fail.
  env.fail_on = ".sst";
  Options options;
  options.env = &env;
  DB* db = nullptr;
  ASSERT_TRUE(DB::Open(options, path, &db).ok());
  ASSERT_TRUE(db->Put(WriteOptions(), "x", "y").ok());
  Status s = db->Flush(FlushOptions());
  EXPECT_FALSE(s.ok());
  delete db;
  ASSERT_TRUE(DestroyDB(path, Options()).ok());
}

// A FileSystemWrapper given through NewCompositeEnv carries the files.
class CountingFileSystem : public FileSystemWrapper {
 public:
  explicit CountingFileSystem(const std::shared_ptr<FileSystem>& base) : FileSystemWrapper(base) {}
  const char* Name() const override { return "CountingFileSystem"; }
  IOStatus NewWritableFile(const std::string& f, const FileOptions& opts,
                           std::unique_ptr<FSWritableFile>* r, IODebugContext* dbg) override {
    if (IsTable(Base(f))) tables++;
    return FileSystemWrapper::NewWritableFile(f, opts, r, dbg);
  }
  IOStatus NewRandomAccessFile(const std::string& f, const FileOptions& opts,
                               std::unique_ptr<FSRandomAccessFile>* r,
                               IODebugContext* dbg) override {
    random_reads++;
    return FileSystemWrapper::NewRandomAccessFile(f, opts, r, dbg);
  }
  std::atomic<int> tables{0};
  std::atomic<int> random_reads{0};
};

TEST(CompatEnvTest, CompositeEnvUsesTheProgramsFileSystem) {
  const std::string path = TestPath("composite");
  ASSERT_TRUE(DestroyDB(path, Options()).ok());
  auto fs = std::make_shared<CountingFileSystem>(FileSystem::Default());
  std::unique_ptr<Env> env = NewCompositeEnv(fs);
  EXPECT_EQ(fs.get(), env->GetFileSystem().get());
  ASSERT_TRUE(FillAndFlush(env.get(), path).ok());
  EXPECT_GT(fs->tables.load(), 0);
  EXPECT_GT(fs->random_reads.load(), 0);
  ASSERT_TRUE(DestroyDB(path, Options()).ok());
}

TEST(CompatEnvTest, MemEnvOverAnotherBaseKeepsFilesInMemory) {
  RecordingEnv base(Env::Default());
  std::unique_ptr<Env> mem(NewMemEnv(&base));
  ASSERT_TRUE(FillAndFlush(mem.get(), "/compat_env_test/mem").ok());
  EXPECT_TRUE(Env::Default()->FileExists("/compat_env_test/mem/CURRENT").IsNotFound());
  EXPECT_TRUE(mem->FileExists("/compat_env_test/mem/CURRENT").ok());
  EXPECT_TRUE(base.created.empty());               // files are the memory's,
  EXPECT_GT(base.scheduled[Env::HIGH].load(), 0);  // threads the base's
}

void Count(void* arg) { static_cast<std::atomic<int>*>(arg)->fetch_add(1); }

TEST(CompatEnvTest, ScheduleUnScheduleAndPools) {
  std::unique_ptr<Env> env(NewMemEnv(Env::Default()));
  EXPECT_EQ(0, env->GetBackgroundThreads(Env::BOTTOM));
  std::atomic<int> ran{0}, dropped{0};
  int tag = 0;
  for (int i = 0; i < 3; i++) env->Schedule(&Count, &ran, Env::BOTTOM, &tag, &Count);
  EXPECT_EQ(3u, env->GetThreadPoolQueueLen(Env::BOTTOM));
  // Unschedule functions get the job's argument.
  EXPECT_EQ(3, env->UnSchedule(&tag, Env::BOTTOM));
  EXPECT_EQ(3, ran.load());  // the three unschedule calls, no job
  EXPECT_EQ(0u, env->GetThreadPoolQueueLen(Env::BOTTOM));
  EXPECT_EQ(0, env->UnSchedule(&tag, Env::BOTTOM));
  env->Schedule(&Count, &dropped, Env::BOTTOM);
  env->IncBackgroundThreadsIfNeeded(1, Env::BOTTOM);
  EXPECT_EQ(1, env->GetBackgroundThreads(Env::BOTTOM));
  for (int i = 0; i < 6000 && dropped.load() == 0; i++) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_EQ(1, dropped.load());
  EXPECT_EQ(0u, env->GetThreadPoolQueueLen(Env::BOTTOM));
  EXPECT_TRUE(env->LowerThreadPoolCPUPriority(Env::BOTTOM, CpuPriority::kLow).ok());
  env->LowerThreadPoolIOPriority(Env::BOTTOM);
}

TEST(CompatEnvTest, UnbackedCallsAreNotSupportedNamingThem) {
  Env* env = Env::Default();
  std::shared_ptr<DynamicLibrary> lib;
  // LoadLibrary is backed (dlopen, LoadLibraryOpensSharedLibraries): a
  // missing library is an IOError naming it.
  Status s = env->LoadLibrary("x", "", &lib);
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("libx.so")) << s.ToString();
  std::vector<ThreadStatus>* none = nullptr;
  s = env->GetThreadList(none);
  EXPECT_TRUE(s.IsNotSupported());
  EXPECT_NE(std::string::npos, s.ToString().find("GetThreadList")) << s.ToString();
  // GetFreeSpace is backed (statvfs), through the Env and its FileSystem.
  uint64_t free_space = 0;
  s = env->GetFreeSpace("/", &free_space);
  EXPECT_TRUE(s.ok()) << s.ToString();
  EXPECT_GT(free_space, 0u);
  free_space = 0;
  EXPECT_TRUE(FileSystem::Default()->GetFreeSpace("/", IOOptions(), &free_space, nullptr).ok());
  EXPECT_GT(free_space, 0u);
  Env* loaded = nullptr;
  s = Env::LoadEnv("posix", &loaded);
  EXPECT_TRUE(s.IsNotSupported());
  EXPECT_NE(std::string::npos, s.ToString().find("LoadEnv")) << s.ToString();
  std::unique_ptr<MemoryMappedFileBuffer> buffer;
  s = env->NewMemoryMappedFileBuffer("/tmp/x", &buffer);
  EXPECT_TRUE(s.IsNotSupported());
  EXPECT_NE(std::string::npos, s.ToString().find("MemoryMappedFileBuffer")) << s.ToString();
}

TEST(CompatEnvTest, ClockAndFileHelpers) {
  const std::shared_ptr<SystemClock>& clock = SystemClock::Default();
  EXPECT_EQ(clock.get(), SystemClock::Default().get());
  EXPECT_EQ(::strata::SystemClock::Default()->Name(), std::string(clock->Name()));
  int64_t now = 0;
  ASSERT_TRUE(clock->GetCurrentTime(&now).ok());
  EXPECT_NEAR(static_cast<double>(now), static_cast<double>(clock->NowMicros() / 1000000), 2.0);
  EXPECT_EQ("1970/01/02-00:00:00 ", [] {
    setenv("TZ", "UTC", 1);
    tzset();
    return SystemClock::Default()->TimeToString(86400);
  }());

  // A clock of the program's own, in an Env made with Env(fs, clock).
  class FixedClock : public SystemClockWrapper {
   public:
    FixedClock() : SystemClockWrapper(SystemClock::Default()) {}
    Status GetCurrentTime(int64_t* t) override {
      *t = 1234;
      return Status::OK();
    }
  };
  std::unique_ptr<Env> mem(NewMemEnv(Env::Default()));
  std::string data;
  ASSERT_TRUE(WriteStringToFile(mem.get(), "abc", "/f", true).ok());
  ASSERT_TRUE(ReadFileToString(mem.get(), "/f", &data).ok());
  EXPECT_EQ("abc", data);
  int64_t t = 0;
  ASSERT_TRUE(mem->GetStrataEnv()->GetSystemClock()->GetCurrentTime(&t).ok());
  EXPECT_GT(t, 1234);
  auto fixed = std::make_shared<FixedClock>();
  int64_t fixed_now = 0;
  ASSERT_TRUE(fixed->GetCurrentTime(&fixed_now).ok());
  EXPECT_EQ(1234, fixed_now);

  // An Env whose clock is the program's: the engine's strata::Env reads it.
  class ClockEnv : public EnvWrapper {
   public:
    explicit ClockEnv(Env* base) : EnvWrapper(base) {}
    Status GetCurrentTime(int64_t* t) override {
      *t = 4321;
      return Status::OK();
    }
  };
  ClockEnv clock_env(Env::Default());
  ASSERT_TRUE(clock_env.GetStrataEnv()->GetSystemClock()->GetCurrentTime(&t).ok());
  EXPECT_EQ(4321, t);
}

TEST(CompatEnvTest, BackupEngineWritesThroughBackupEnv) {
  const std::string path = TestPath("backup_db");
  const std::string backups = TestPath("backups");
  ASSERT_TRUE(DestroyDB(path, Options()).ok());
  ASSERT_TRUE(FillAndFlush(Env::Default(), path).ok());
  RecordingEnv backup_env(Env::Default());
  BackupEngineOptions bo(backups, &backup_env);
  bo.destroy_old_data = true;
  BackupEngine* engine = nullptr;
  ASSERT_TRUE(BackupEngine::Open(bo, Env::Default(), &engine).ok());
  Options options;
  DB* db = nullptr;
  ASSERT_TRUE(DB::Open(options, path, &db).ok());
  ASSERT_TRUE(engine->CreateNewBackup(db).ok());
  delete db;
  std::vector<BackupInfo> infos;
  engine->GetBackupInfo(&infos);
  EXPECT_EQ(1u, infos.size());
  delete engine;
  // The backup's files were written through backup_env (tables under a
  // temporary name, renamed when complete).
  std::string names;
  for (const std::string& n : backup_env.created) names += n + " ";
  EXPECT_TRUE(backup_env.Created([](const std::string& n) {
    return n.find(".sst") != std::string::npos;
  })) << names;
  EXPECT_TRUE(backup_env.Created(IsManifest)) << names;
  ASSERT_TRUE(DestroyDB(path, Options()).ok());
}

// RocksDB's older logger style: only the levelless Logv.
class OldStyleLogger : public Logger {
 public:
  explicit OldStyleLogger(const InfoLogLevel level = INFO_LEVEL) : Logger(level) {}
  using Logger::Logv;
  void Logv(const char* format, va_list ap) override {
    char buf[512];
    vsnprintf(buf, sizeof(buf), format, ap);
    lines.push_back(buf);
  }
  std::vector<std::string> lines;
};

TEST(CompatEnvTest, LoggersOfRocksDBsShapeAndTheWrapper) {
  OldStyleLogger logger(WARN_LEVEL);
  EXPECT_TRUE(logger.GetInfoLogLevel() == WARN_LEVEL);
  EXPECT_TRUE(logger.GetInfoLogLevel() >= INFO_LEVEL);
  EXPECT_TRUE(INFO_LEVEL < logger.GetInfoLogLevel());
  Log(INFO_LEVEL, &logger, "dropped");
  Log(ERROR_LEVEL, &logger, "kept %d", 1);
  Header(&logger, "head");
  EXPECT_EQ(std::vector<std::string>({"[ERROR] kept 1", "head"}), logger.lines);
  EXPECT_EQ(logger.kDoNotSupportGetLogFileSize, logger.GetLogFileSize());

  LoggerWrapper wrapper(&logger);
  wrapper.SetInfoLogLevel(DEBUG_LEVEL);  // RocksDB's level type
  EXPECT_TRUE(logger.GetInfoLogLevel() == DEBUG_LEVEL);
  EXPECT_TRUE(wrapper.GetInfoLogLevel() == DEBUG_LEVEL);
  Debug(&wrapper, "debug %s", "x");
  EXPECT_EQ("[DEBUG] debug x", logger.lines.back());
  wrapper.Flush();
  EXPECT_TRUE(wrapper.Close().ok());

  // The engine's own LOG knows its size.
  const std::string dir = ::testing::TempDir() + "/compat_env_logger";
  Env* env = Env::Default();
  ASSERT_TRUE(env->CreateDirIfMissing(dir).ok());
  std::shared_ptr<Logger> file_log;
  ASSERT_TRUE(env->NewLogger(dir + "/LOG", &file_log).ok());
  Log(INFO_LEVEL, file_log, "some line");
  file_log->Flush();
  EXPECT_GT(file_log->GetLogFileSize(), 9u);
  EXPECT_NE(file_log->kDoNotSupportGetLogFileSize, file_log->GetLogFileSize());
  file_log.reset();
  env->DeleteFile(dir + "/LOG").PermitUncheckedError();
  env->DeleteDir(dir).PermitUncheckedError();
}

TEST(CompatEnvTest, LoadLibraryOpensSharedLibraries) {
  Env* env = Env::Default();
  std::shared_ptr<DynamicLibrary> self;
  ASSERT_TRUE(env->LoadLibrary("", "", &self).ok());
  std::function<int(const char*)> to_int;
  ASSERT_TRUE(self->LoadFunction<int(const char*)>("atoi", &to_int).ok());
  EXPECT_EQ(42, to_int("42"));
  void* sym = reinterpret_cast<void*>(&to_int);
  Status s = self->LoadSymbol("no_such_symbol_in_this_program", &sym);
  EXPECT_TRUE(s.IsNotFound()) << s.ToString();
  EXPECT_EQ(nullptr, sym);
  // "m" is libm.so... found by the loader; "c.so.6" is opened as named.
  std::shared_ptr<DynamicLibrary> libc;
  s = env->LoadLibrary("libc.so.6", "", &libc);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(std::string("libc.so.6"), libc->Name());
  std::shared_ptr<DynamicLibrary> none;
  s = env->LoadLibrary("no_such_library_anywhere", "/nonexistent:/also_not", &none);
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_EQ(nullptr, none);
  // An EnvWrapper forwards to its target.
  EnvWrapper wrapper(env);
  EXPECT_TRUE(wrapper.LoadLibrary("", "", &none).ok());  // forwarded to the target
  EXPECT_EQ(nullptr, CreateThreadStatusUpdater());
}

class NamedFs : public FileSystemWrapper {
 public:
  using FileSystemWrapper::FileSystemWrapper;
  const char* Name() const override { return "NamedFs"; }
};

TEST(CompatEnvTest, WrappersAreCustomizablesOverTheirTargets) {
  ConfigOptions config;
  auto fs = std::make_shared<NamedFs>(FileSystem::Default());
  EXPECT_EQ(FileSystem::Default().get(), fs->Inner());
  EXPECT_TRUE(fs->PrepareOptions(config).ok());
  // The default target is not written.
  EXPECT_EQ(std::string::npos, fs->ToString(config).find("target="));
  auto outer = std::make_shared<NamedFs>(fs);
  const std::string text = outer->ToString(config);
  EXPECT_NE(std::string::npos, text.find("target=")) << text;
  EXPECT_NE(std::string::npos, text.find("NamedFs")) << text;
  config.depth = ConfigOptions::kDepthShallow;
  EXPECT_EQ(std::string::npos, outer->ToString(config).find("target="));

  ConfigOptions deep;
  SystemClockWrapper clock(SystemClock::Default());
  EXPECT_EQ(SystemClock::Default().get(), clock.Inner());
  EXPECT_TRUE(clock.PrepareOptions(deep).ok());
  EXPECT_EQ(std::string::npos, clock.ToString(deep).find("target="));

  EnvWrapper env(Env::Default());
  EXPECT_TRUE(env.PrepareOptions(deep).ok());
  EXPECT_EQ(Env::Default(), env.target());
  EXPECT_EQ(std::string::npos, env.ToString(deep).find("target="));
  EnvWrapper over(&env);
  EXPECT_NE(std::string::npos, over.ToString(deep).find("target=")) << over.ToString(deep);
}

TEST(CompatEnvTest, WriteStringToFileThroughAFileSystem) {
  auto fs = std::make_shared<CountingFileSystem>(FileSystem::Default());
  const std::string dir = ::testing::TempDir() + "/compat_env_write_string";
  ASSERT_TRUE(fs->CreateDirIfMissing(dir, IOOptions(), nullptr).ok());
  ASSERT_TRUE(WriteStringToFile(fs.get(), "hello", dir + "/f", true).ok());
  std::string back;
  ASSERT_TRUE(ReadFileToString(fs.get(), dir + "/f", &back).ok());
  EXPECT_EQ("hello", back);
  // A failure leaves no file.
  IOStatus s = WriteStringToFile(fs.get(), "x", dir + "/missing_dir/f");
  EXPECT_FALSE(s.ok());
  EXPECT_TRUE(fs->FileExists(dir + "/missing_dir/f", IOOptions(), nullptr).IsNotFound());
  fs->DeleteFile(dir + "/f", IOOptions(), nullptr).PermitUncheckedError();
  fs->DeleteDir(dir, IOOptions(), nullptr).PermitUncheckedError();
}

}  // namespace
}  // namespace rocksdb
