// SystemClock::Default(): the real clock of a POSIX system. NowMicros is
// wall-clock time (CLOCK_REALTIME, may jump), NowNanos is CLOCK_MONOTONIC
// (for intervals), CPUMicros is the calling thread's CPU time
// (CLOCK_THREAD_CPUTIME_ID). Thread-safe and stateless.

#include <time.h>

#include <cerrno>
#include <cstring>

#include "strata/env.h"

namespace strata {

namespace {

class PosixClock final : public SystemClock {
 public:
  const char* Name() const override { return "PosixClock"; }

  uint64_t NowMicros() override {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return static_cast<uint64_t>(ts.tv_sec) * 1000000 + static_cast<uint64_t>(ts.tv_nsec) / 1000;
  }

  uint64_t NowNanos() override {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<uint64_t>(ts.tv_sec) * 1000000000 + static_cast<uint64_t>(ts.tv_nsec);
  }

  uint64_t CPUMicros() override {
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return 0;
    return static_cast<uint64_t>(ts.tv_sec) * 1000000 + static_cast<uint64_t>(ts.tv_nsec) / 1000;
  }

  void SleepForMicroseconds(int micros) override {
    if (micros <= 0) return;
    struct timespec req;
    req.tv_sec = micros / 1000000;
    req.tv_nsec = static_cast<long>(micros % 1000000) * 1000;
    struct timespec rem;
    while (nanosleep(&req, &rem) < 0 && errno == EINTR) req = rem;
  }

  Status GetCurrentTime(int64_t* unix_time) override {
    const time_t t = time(nullptr);
    if (t == static_cast<time_t>(-1)) {
      char buf[128];
      return Status::IOError("GetCurrentTime", strerror_r(errno, buf, sizeof(buf)));
    }
    *unix_time = static_cast<int64_t>(t);
    return Status::OK();
  }
};

}  // namespace

std::shared_ptr<SystemClock> SystemClock::Default() {
  // Leaked: usable from static destructors.
  static auto* const clock = new std::shared_ptr<SystemClock>(std::make_shared<PosixClock>());
  return *clock;
}

}  // namespace strata
