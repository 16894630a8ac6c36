// Helpers shared by the tests: Status assertions, scratch directories, random
// data with a printed, replayable seed, and an event threads wait on.
// Thread-safety: the functions are thread-safe; objects are not, except
// Event (thread-safe).
#pragma once

#include <gtest/gtest.h>

#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "strata/status.h"

#define ASSERT_OK(expr)                                     \
  do {                                                      \
    const ::strata::Status _s = (expr);                     \
    ASSERT_TRUE(_s.ok()) << #expr << ": " << _s.ToString(); \
  } while (0)
#define EXPECT_OK(expr)                                     \
  do {                                                      \
    const ::strata::Status _s = (expr);                     \
    EXPECT_TRUE(_s.ok()) << #expr << ": " << _s.ToString(); \
  } while (0)
// ASSERT_OK that also prints Where(), a function the test defines in scope
// (randomized tests: the parameters, the seed and the operation).
#define ASSERT_OK_AT(expr)                                                       \
  do {                                                                           \
    const ::strata::Status _st = (expr);                                         \
    ASSERT_TRUE(_st.ok()) << Where() << ": " << #expr << ": " << _st.ToString(); \
  } while (0)

namespace strata::test {

// True in a ThreadSanitizer build. TSan refuses to start a thread in the
// child of a fork() taken while other threads ran ("starting new threads
// after multi-threaded fork is not supported"), so a test whose forked child
// needs threads (a DB's background jobs) skips under it.
#if defined(__SANITIZE_THREAD__)
constexpr bool kThreadSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
constexpr bool kThreadSanitizer = true;
#else
constexpr bool kThreadSanitizer = false;
#endif
#else
constexpr bool kThreadSanitizer = false;
#endif

// A fresh, empty directory under $TEST_TMPDIR (or /tmp), unique per process
// and call; removed (recursively) by the destructor.
class TempDir {
 public:
  explicit TempDir(const std::string& tag = "strata");
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Every file under dir (recursively), by path relative to dir, with its
// bytes: two calls compare equal when nothing in the directory was
// created, deleted, renamed or changed in between.
std::map<std::string, std::string> DirectoryContents(const std::string& dir);

// The seed for a randomized test: $STRATA_TEST_SEED if set, else derived from
// the clock. Printed (via a gtest RecordProperty and stdout) so a failure can
// be replayed.
uint64_t RandomSeed();

// n random bytes (any byte value) / n random printable characters.
std::string RandomBytes(std::mt19937_64* rng, size_t n);
std::string RandomPrintable(std::mt19937_64* rng, size_t n);

// True if name is "<digits>.log" (a WAL file name); *number gets the value
// and *digits the digit count. Written independently of db/filename.cc so
// tests check the on-disk names against the format, not against our parser.
bool ParseLogFileName(const std::string& name, uint64_t* number, size_t* digits = nullptr);

// Reads / overwrites a whole file through POSIX (for corrupting files).
std::string ReadFileOrDie(const std::string& path);
// Runs a shell command (through popen, stderr joined to stdout) and
// returns its output; *rc gets pclose's status (-1 if it could not start).
std::string RunCommand(const std::string& cmd, int* rc);
void WriteFileOrDie(const std::string& path, const std::string& data);

// Starts this test binary again in a new process, running only the tests
// gtest_filter names, with env added to this process's environment; the
// file descriptors this process has open (without close-on-exec) are
// inherited. Returns the child's pid (-1 on failure). The forked copy only
// calls execve: library code must not run in the child of a fork taken while
// other threads ran, as a lock or condition variable another thread held at
// the fork (the sanitizers' allocators have such locks) stays held forever
// in the copy. The test that gtest_filter names reads env to know its task
// and skips in a normal run.
int SpawnSelf(const std::string& gtest_filter,
              const std::vector<std::pair<std::string, std::string>>& env);

// A flag that is set once and that threads wait for: a sync-point
// callback sets it when the library reaches a place, the test waits for
// it. Thread-safe.
class Event {
 public:
  Event() = default;
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;

  void Set();
  bool IsSet() const;
  // Waits until Set() and returns true, or returns false after `seconds`.
  // The limit only turns a hang into a failure a test can report
  // (ASSERT_TRUE(e.WaitFor())); no test depends on how long anything takes.
  bool WaitFor(int seconds = 120) const;

 private:
  mutable std::mutex mu_;
  mutable std::condition_variable cv_;
  bool set_ = false;  // guarded by mu_
};

}  // namespace strata::test
