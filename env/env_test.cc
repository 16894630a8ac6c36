#include "strata/env.h"

#include <pthread.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <ctime>
#include <limits>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "env/info_log.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

// Holds jobs in place; waits give up after a minute so a broken pool fails
// instead of hanging (a liveness bound, not a speed check).
class Latch {
 public:
  explicit Latch(int count) : count_(count) {}
  void CountDown() {
    std::lock_guard<std::mutex> l(mu_);
    if (--count_ <= 0) cv_.notify_all();
  }
  bool Wait() {
    std::unique_lock<std::mutex> l(mu_);
    return cv_.wait_for(l, std::chrono::seconds(60), [this] { return count_ <= 0; });
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  int count_;
};

std::string CurrentThreadName() {
  char name[16] = {};
  pthread_getname_np(pthread_self(), name, sizeof(name));
  return name;
}

class EnvTest : public testing::Test {
 protected:
  std::unique_ptr<Env> env_ = NewMemEnv();
};

TEST_F(EnvTest, DefaultIsAProcessWidePosixEnv) {
  Env* env = Env::Default();
  ASSERT_NE(nullptr, env);
  EXPECT_EQ(env, Env::Default());
  EXPECT_STREQ("PosixFileSystem", env->GetFileSystem()->Name());
  EXPECT_EQ(FileSystem::Default().get(), env->GetFileSystem());
  EXPECT_STREQ("PosixClock", env->GetSystemClock()->Name());
}

TEST_F(EnvTest, ScheduleRunsJobsOnBothPriorities) {
  std::mutex mu;
  std::set<std::string> low_names, high_names;
  std::atomic<int> count{0};
  for (int i = 0; i < 20; i++) {
    env_->Schedule(
        [&] {
          std::lock_guard<std::mutex> l(mu);
          low_names.insert(CurrentThreadName());
          count++;
        },
        Env::Priority::kLow);
    env_->Schedule(
        [&] {
          std::lock_guard<std::mutex> l(mu);
          high_names.insert(CurrentThreadName());
          count++;
        },
        Env::Priority::kHigh);
  }
  env_->WaitForJobsAndJoinAllThreads();
  EXPECT_EQ(40, count.load());
  EXPECT_EQ(std::set<std::string>({"strata:low"}), low_names);
  EXPECT_EQ(std::set<std::string>({"strata:high"}), high_names);
}

TEST_F(EnvTest, DefaultPriorityIsLow) {
  std::string name;
  env_->Schedule([&] { name = CurrentThreadName(); });
  env_->WaitForJobsAndJoinAllThreads();
  EXPECT_EQ("strata:low", name);
}

TEST_F(EnvTest, BackgroundThreadsPerPriority) {
  EXPECT_EQ(1, env_->GetBackgroundThreads(Env::Priority::kLow));
  EXPECT_EQ(1, env_->GetBackgroundThreads(Env::Priority::kHigh));
  env_->SetBackgroundThreads(3, Env::Priority::kLow);
  EXPECT_EQ(3, env_->GetBackgroundThreads(Env::Priority::kLow));
  EXPECT_EQ(3, env_->GetBackgroundThreads());
  EXPECT_EQ(1, env_->GetBackgroundThreads(Env::Priority::kHigh));

  // Three LOW jobs that wait for each other need three threads.
  Latch all_running(3);
  std::atomic<int> ok{0};
  for (int i = 0; i < 3; i++) {
    env_->Schedule([&] {
      all_running.CountDown();
      if (all_running.Wait()) ok++;
    });
  }
  env_->WaitForJobsAndJoinAllThreads();
  EXPECT_EQ(3, ok.load());
}

TEST_F(EnvTest, QueueLenAndIndependentPools) {
  Latch low_busy(1), release(1);
  env_->Schedule(
      [&] {
        low_busy.CountDown();
        ASSERT_TRUE(release.Wait());
      },
      Env::Priority::kLow);
  ASSERT_TRUE(low_busy.Wait());
  env_->Schedule([] {}, Env::Priority::kLow);
  env_->Schedule([] {}, Env::Priority::kLow);
  EXPECT_EQ(2u, env_->GetThreadPoolQueueLen(Env::Priority::kLow));
  EXPECT_EQ(2u, env_->GetThreadPoolQueueLen());

  // The HIGH pool runs while every LOW thread is busy.
  Latch high_ran(1);
  env_->Schedule([&] { high_ran.CountDown(); }, Env::Priority::kHigh);
  EXPECT_TRUE(high_ran.Wait());
  EXPECT_EQ(0u, env_->GetThreadPoolQueueLen(Env::Priority::kHigh));

  release.CountDown();
  env_->WaitForJobsAndJoinAllThreads();
  EXPECT_EQ(0u, env_->GetThreadPoolQueueLen(Env::Priority::kLow));
}

TEST_F(EnvTest, WaitRunsJobsThatScheduleAcrossPriorities) {
  std::atomic<int> count{0};
  // LOW -> HIGH -> LOW -> HIGH ...: ten jobs in all.
  std::function<void(int)> step = [&](int left) {
    count++;
    if (left == 0) return;
    const Env::Priority next = (left % 2 == 0) ? Env::Priority::kHigh : Env::Priority::kLow;
    env_->Schedule([&step, left] { step(left - 1); }, next);
  };
  env_->Schedule([&step] { step(9); }, Env::Priority::kLow);
  env_->WaitForJobsAndJoinAllThreads();
  EXPECT_EQ(10, count.load());
  // The pools work again afterwards.
  env_->Schedule([&count] { count++; }, Env::Priority::kHigh);
  env_->WaitForJobsAndJoinAllThreads();
  EXPECT_EQ(11, count.load());
}

TEST_F(EnvTest, BottomAndUserPoolsStartWithoutThreads) {
  EXPECT_EQ(0, env_->GetBackgroundThreads(Env::Priority::kBottom));
  EXPECT_EQ(0, env_->GetBackgroundThreads(Env::Priority::kUser));
  Latch ran(1);
  std::string name;
  env_->Schedule(
      [&] {
        name = CurrentThreadName();
        ran.CountDown();
      },
      Env::Priority::kBottom);
  // No thread: the job waits in the queue until the pool gets one.
  EXPECT_EQ(1u, env_->GetThreadPoolQueueLen(Env::Priority::kBottom));
  env_->SetBackgroundThreads(1, Env::Priority::kBottom);
  EXPECT_EQ(1, env_->GetBackgroundThreads(Env::Priority::kBottom));
  ASSERT_TRUE(ran.Wait());
  EXPECT_EQ("strata:bottom", name);
  env_->SetBackgroundThreads(2, Env::Priority::kUser);
  Latch user_ran(1);
  env_->Schedule([&] { user_ran.CountDown(); }, Env::Priority::kUser);
  EXPECT_TRUE(user_ran.Wait());
  env_->WaitForJobsAndJoinAllThreads();
}

#ifdef __linux__
// The nice value and I/O class of the calling thread, as the kernel reports
// them for its thread id.
int ThreadNice() {
  errno = 0;
  return getpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)));
}
int ThreadIoClass() {
  const long prio = syscall(SYS_ioprio_get, 1, static_cast<int>(syscall(SYS_gettid)));
  return prio < 0 ? -1 : static_cast<int>(prio >> 13);
}

TEST_F(EnvTest, LoweredPoolThreadsRunAtLowerPriorities) {
  const int main_nice = ThreadNice();
  const int main_io_class = ThreadIoClass();
  int nice_before = -100, nice_after = -100, io_after = -1, high_nice = -100, high_io = -1;
  env_->Schedule([&] { nice_before = ThreadNice(); }, Env::Priority::kLow);
  env_->WaitForJobsAndJoinAllThreads();
  ASSERT_TRUE(env_->LowerThreadPoolCPUPriority(Env::Priority::kLow, CpuPriority::kLow).ok());
  env_->LowerThreadPoolIOPriority(Env::Priority::kLow);
  Latch low_ran(1);
  env_->Schedule(
      [&] {
        nice_after = ThreadNice();
        io_after = ThreadIoClass();
        low_ran.CountDown();
      },
      Env::Priority::kLow);
  env_->Schedule(
      [&] {
        high_nice = ThreadNice();
        high_io = ThreadIoClass();
      },
      Env::Priority::kHigh);
  ASSERT_TRUE(low_ran.Wait());
  EXPECT_EQ(main_nice, nice_before);
  EXPECT_EQ(19, nice_after);
  EXPECT_EQ(3, io_after);  // IOPRIO_CLASS_IDLE

  // Priorities only go down: the same thread, asked for kNormal afterwards,
  // stays at nice 19.
  ASSERT_TRUE(env_->LowerThreadPoolCPUPriority(Env::Priority::kLow, CpuPriority::kNormal).ok());
  Latch later_ran(1);
  int nice_later = -100;
  env_->Schedule(
      [&] {
        nice_later = ThreadNice();
        later_ran.CountDown();
      },
      Env::Priority::kLow);
  ASSERT_TRUE(later_ran.Wait());
  EXPECT_EQ(19, nice_later);
  env_->WaitForJobsAndJoinAllThreads();
  // The other pool and the calling thread keep theirs.
  EXPECT_EQ(main_nice, high_nice);
  EXPECT_NE(3, high_io);
  EXPECT_EQ(main_nice, ThreadNice());
  EXPECT_EQ(main_io_class, ThreadIoClass());
}
#endif

TEST_F(EnvTest, DestructorRunsPendingJobs) {
  std::atomic<int> count{0};
  {
    std::unique_ptr<Env> env = NewMemEnv();
    for (int i = 0; i < 30; i++) {
      env->Schedule([&count] { count++; }, i % 2 ? Env::Priority::kLow : Env::Priority::kHigh);
    }
  }
  EXPECT_EQ(30, count.load());
}

// A Logger that records what reaches it.
class RecordingLogger : public Logger {
 public:
  using Logger::Logger;
  void Logv(InfoLogLevel level, const char* format, va_list ap) override {
    char buf[256];
    vsnprintf(buf, sizeof(buf), format, ap);
    lines.push_back(std::to_string(static_cast<int>(level)) + ":" + buf);
  }
  std::vector<std::string> lines;
};

TEST(LogTest, HelpersFilterByLevelAndAcceptNull) {
  Log(nullptr, "ignored %d", 1);
  Log(InfoLogLevel::kError, nullptr, "ignored %d", 2);
  RecordingLogger logger(InfoLogLevel::kWarn);
  Log(&logger, "info %d", 1);                         // below kWarn
  Log(InfoLogLevel::kDebug, &logger, "debug %d", 2);  // below kWarn
  Log(InfoLogLevel::kWarn, &logger, "warn %d", 3);
  Log(InfoLogLevel::kError, &logger, "error %s", "x");
  EXPECT_EQ(std::vector<std::string>({"2:warn 3", "3:error x"}), logger.lines);
  logger.SetInfoLogLevel(InfoLogLevel::kDebug);
  Log(&logger, "info %d", 4);
  EXPECT_EQ("1:info 4", logger.lines.back());
}

class InfoLogTest : public testing::Test {
 protected:
  std::shared_ptr<Logger> NewLog() {
    std::shared_ptr<Logger> logger;
    Status s = fs_->NewLogger("/db/LOG", &logger);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return logger;
  }

  std::vector<std::string> Lines() {
    std::string contents;
    Status s = ReadFileToString(fs_.get(), "/db/LOG", &contents);
    EXPECT_TRUE(s.ok()) << s.ToString();
    EXPECT_TRUE(contents.empty() || contents.back() == '\n');
    std::vector<std::string> lines;
    size_t start = 0;
    for (size_t nl; (nl = contents.find('\n', start)) != std::string::npos; start = nl + 1) {
      lines.push_back(contents.substr(start, nl - start));
    }
    return lines;
  }

  // "YYYY/MM/DD-HH:MM:SS.uuuuuu <hex thread id> <message>": returns the
  // message, or a "<malformed...>" marker.
  static std::string MessageOf(const std::string& line) {
    const std::string malformed = "<malformed: " + line + ">";
    // The timestamp: digits where the template has 'd'.
    const char* kTemplate = "dddd/dd/dd-dd:dd:dd.dddddd ";
    const size_t stamp_len = strlen(kTemplate);
    if (line.size() < stamp_len) return malformed;
    for (size_t i = 0; i < stamp_len; i++) {
      const bool ok = kTemplate[i] == 'd' ? isdigit(static_cast<unsigned char>(line[i])) != 0
                                          : line[i] == kTemplate[i];
      if (!ok) return malformed;
    }
    size_t pos = stamp_len;
    while (pos < line.size() && isxdigit(static_cast<unsigned char>(line[pos])) &&
           !isupper(static_cast<unsigned char>(line[pos]))) {
      pos++;
    }
    if (pos == stamp_len || pos == line.size() || line[pos] != ' ') return malformed;
    return line.substr(pos + 1);
  }

  std::shared_ptr<FileSystem> fs_ = NewMemFileSystem();
};

TEST_F(InfoLogTest, LineFormat) {
  std::shared_ptr<Logger> log = NewLog();
  Log(log.get(), "hello %d", 42);
  Log(log.get(), "ends with newline\n");
  Log(InfoLogLevel::kError, log.get(), "bad %s", "thing");
  Log(InfoLogLevel::kHeader, log.get(), "header");
  Log(log.get(), "%s", "");
  const std::vector<std::string> lines = Lines();
  ASSERT_EQ(5u, lines.size());
  EXPECT_EQ("hello 42", MessageOf(lines[0]));
  EXPECT_EQ("ends with newline", MessageOf(lines[1]));
  EXPECT_EQ("[ERROR] bad thing", MessageOf(lines[2]));
  EXPECT_EQ("header", MessageOf(lines[3]));
  EXPECT_EQ("", MessageOf(lines[4]));

  // The timestamp is now, in local time.
  const time_t now = time(nullptr);
  struct tm t;
  localtime_r(&now, &t);
  EXPECT_EQ(std::to_string(t.tm_year + 1900), lines[0].substr(0, 4));
}

TEST_F(InfoLogTest, LongLinesAreWhole) {
  std::shared_ptr<Logger> log = NewLog();
  const std::string long_message(10000, 'x');
  Log(log.get(), "%s|end", long_message.c_str());
  Log(log.get(), "short");
  const std::vector<std::string> lines = Lines();
  ASSERT_EQ(2u, lines.size());
  EXPECT_EQ(long_message + "|end", MessageOf(lines[0]));
  EXPECT_EQ("short", MessageOf(lines[1]));
}

TEST_F(InfoLogTest, LevelIsHonoured) {
  std::shared_ptr<Logger> log = NewLog();
  log->SetInfoLogLevel(InfoLogLevel::kWarn);
  Log(log.get(), "dropped");
  // Called directly, bypassing the Log helper's own check.
  struct Direct {
    static void Call(Logger* logger, InfoLogLevel level, const char* format, ...) {
      va_list ap;
      va_start(ap, format);
      logger->Logv(level, format, ap);
      va_end(ap);
    }
  };
  Direct::Call(log.get(), InfoLogLevel::kInfo, "dropped too");
  Direct::Call(log.get(), InfoLogLevel::kWarn, "kept %d", 1);
  const std::vector<std::string> lines = Lines();
  ASSERT_EQ(1u, lines.size());
  EXPECT_EQ("[WARN] kept 1", MessageOf(lines[0]));
}

TEST_F(InfoLogTest, NothingAfterClose) {
  std::shared_ptr<Logger> log = NewLog();
  Log(log.get(), "one");
  log->Flush();
  ASSERT_OK(log->Close());
  Log(log.get(), "two");
  ASSERT_OK(log->Close());
  ASSERT_EQ(1u, Lines().size());
}

TEST_F(InfoLogTest, ConcurrentLinesDoNotInterleave) {
  std::shared_ptr<Logger> log = NewLog();
  constexpr int kThreads = 4, kLines = 300;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; t++) {
    threads.emplace_back([&, t] {
      const std::string body(50 + t * 200, static_cast<char>('a' + t));
      for (int i = 0; i < kLines; i++) Log(log.get(), "%d %d %s", t, i, body.c_str());
    });
  }
  for (auto& th : threads) th.join();
  const std::vector<std::string> lines = Lines();
  ASSERT_EQ(static_cast<size_t>(kThreads * kLines), lines.size());
  std::vector<int> next(kThreads, 0);
  for (const std::string& line : lines) {
    const std::string msg = MessageOf(line);
    int t = -1, i = -1;
    ASSERT_EQ(2, sscanf(msg.c_str(), "%d %d", &t, &i)) << msg;
    ASSERT_TRUE(t >= 0 && t < kThreads) << msg;
    EXPECT_EQ(next[t]++, i);  // one thread's lines stay in order
    EXPECT_EQ(std::string(50 + t * 200, static_cast<char>('a' + t)),
              msg.substr(msg.rfind(' ') + 1));
  }
}

TEST(SystemClockTest, Readings) {
  std::shared_ptr<SystemClock> clock = SystemClock::Default();
  EXPECT_EQ(clock.get(), SystemClock::Default().get());
  int64_t unix_time = 0;
  ASSERT_OK(clock->GetCurrentTime(&unix_time));
  const uint64_t micros = clock->NowMicros();
  // Both are the wall clock: they agree to the second or so.
  EXPECT_LE(static_cast<uint64_t>(unix_time - 2) * 1000000, micros);
  EXPECT_GE(static_cast<uint64_t>(unix_time + 2) * 1000000, micros);

  const uint64_t before = clock->NowNanos();
  clock->SleepForMicroseconds(2000);
  const uint64_t after = clock->NowNanos();
  EXPECT_GE(after - before, 2000000u);  // slept at least as long as asked
  clock->SleepForMicroseconds(0);
  clock->SleepForMicroseconds(-5);
}

TEST(EnvClockTest, EnvForwardsToItsClock) {
  std::unique_ptr<Env> env = NewMemEnv();
  const uint64_t a = env->NowNanos();
  const uint64_t b = env->NowNanos();
  EXPECT_LE(a, b);
  EXPECT_GT(env->NowMicros(), uint64_t{1600000000} * 1000000);  // after 2020
}

// A logger in RocksDB's older style: it overrides only the levelless Logv.
class LevellessLogger : public Logger {
 public:
  using Logger::Logv;
  explicit LevellessLogger(InfoLogLevel level) : Logger(level) {}
  void Logv(const char* format, va_list ap) override {
    char buf[256];
    vsnprintf(buf, sizeof(buf), format, ap);
    lines.push_back(buf);
  }
  void Flush() override { flushes++; }
  std::vector<std::string> lines;
  int flushes = 0;
};

TEST(LogTest, LevellessLoggerGetsRocksDBsPrefixesAndFlushes) {
  LevellessLogger logger(InfoLogLevel::kInfo);
  Log(InfoLogLevel::kDebug, &logger, "debug %d", 1);  // below the level
  Log(InfoLogLevel::kInfo, &logger, "info %d", 2);
  Log(InfoLogLevel::kWarn, &logger, "warn %d", 3);
  Log(InfoLogLevel::kError, &logger, "error %d", 4);
  Log(InfoLogLevel::kFatal, &logger, "fatal %d", 5);
  Log(InfoLogLevel::kHeader, &logger, "header %d", 6);
  Log(&logger, "plain %d", 7);
  EXPECT_EQ(std::vector<std::string>({"info 2", "[WARN] warn 3", "[ERROR] error 4",
                                      "[FATAL] fatal 5", "header 6", "plain 7"}),
            logger.lines);
  EXPECT_EQ(3, logger.flushes);  // after kWarn, kError, kFatal; not kHeader
  EXPECT_EQ(logger.kDoNotSupportGetLogFileSize, logger.GetLogFileSize());
  EXPECT_EQ(std::numeric_limits<size_t>::max(), logger.GetLogFileSize());
}

TEST(LogTest, LevelledLoggerGetsLevellessCallsAtInfo) {
  RecordingLogger logger(InfoLogLevel::kDebug);
  va_list none{};
  // Through the levelless form: the default sends it at kInfo.
  static_cast<Logger&>(logger).Logv("no args", none);
  EXPECT_EQ(std::vector<std::string>({"1:no args"}), logger.lines);
  // A header through LogHeader's default keeps its level.
  static_cast<Logger&>(logger).LogHeader("hdr", none);
  EXPECT_EQ("5:hdr", logger.lines.back());
}

// Log(kHeader, ...) goes to LogHeader (as RocksDB's Log does), below the
// logger's level or not; other levels to Logv(level, ...).
TEST(LogTest, HeaderLevelGoesToLogHeader) {
  class HeaderCounting : public Logger {
   public:
    using Logger::Logv;
    HeaderCounting() : Logger(InfoLogLevel::kFatal) {}
    void Logv(const InfoLogLevel level, const char*, va_list) override { levels.push_back(level); }
    void LogHeader(const char* format, va_list ap) override {
      char buf[64];
      vsnprintf(buf, sizeof(buf), format, ap);
      headers.push_back(buf);
    }
    std::vector<InfoLogLevel> levels;
    std::vector<std::string> headers;
  } logger;
  Log(InfoLogLevel::kHeader, &logger, "h%d", 1);
  Log(InfoLogLevel::kError, &logger, "dropped");
  Log(InfoLogLevel::kFatal, &logger, "f");
  EXPECT_EQ(std::vector<std::string>({"h1"}), logger.headers);
  EXPECT_EQ(std::vector<InfoLogLevel>({InfoLogLevel::kFatal}), logger.levels);
}

// Overrides neither Logv: every message is dropped (no endless recursion).
class SilentLogger : public Logger {};

TEST(LogTest, LoggerOverridingNeitherLogvDropsMessages) {
  SilentLogger logger;
  Log(InfoLogLevel::kWarn, &logger, "dropped %d", 1);
  Log(InfoLogLevel::kHeader, &logger, "dropped %d", 2);
  Log(&logger, "dropped %d", 3);
  SUCCEED();
}

TEST(LogTest, LevelsAreIntegersWithRocksDBsNamesAndTheLevelIsVirtual) {
  // RocksDB's names are the same constants; a level indexes a table.
  static_assert(InfoLogLevel::WARN_LEVEL == InfoLogLevel::kWarn);
  static_assert(InfoLogLevel::HEADER_LEVEL == InfoLogLevel::kHeader);
  static_assert(InfoLogLevel::NUM_INFO_LOG_LEVELS == 6);
  static_assert(sizeof(InfoLogLevel) == 1);
  const char* names[InfoLogLevel::NUM_INFO_LOG_LEVELS] = {};
  for (int i = InfoLogLevel::DEBUG_LEVEL; i < InfoLogLevel::NUM_INFO_LOG_LEVELS; ++i) {
    names[i] = "x";
  }
  EXPECT_STREQ("x", names[InfoLogLevel::kHeader]);
  LevellessLogger logger(InfoLogLevel::kInfo);
  logger.SetInfoLogLevel(InfoLogLevel::WARN_LEVEL);
  EXPECT_EQ(InfoLogLevel::kWarn, logger.GetInfoLogLevel());
  class Fixed : public LevellessLogger {
   public:
    Fixed() : LevellessLogger(InfoLogLevel::kInfo) {}
    InfoLogLevel GetInfoLogLevel() const override { return InfoLogLevel::kError; }
  } fixed;
  Log(InfoLogLevel::kWarn, &fixed, "dropped by the virtual level");
  Log(InfoLogLevel::kError, &fixed, "kept");
  EXPECT_EQ(std::vector<std::string>({"[ERROR] kept"}), fixed.lines);
}

}  // namespace
}  // namespace strata
