// RateLimiter: a token bucket that paces background I/O (RocksDB 7.8.3's
// interface and semantics). DBOptions::rate_limiter charges flush writes at
// Env::IO_HIGH and compaction writes at Env::IO_LOW (and, when the mode
// limits reads, compaction reads at IO_LOW); WAL and MANIFEST writes and
// user reads are not charged.
//
// NewGenericRateLimiter's limiter refills rate_bytes_per_sec *
// refill_period_us / 1e6 bytes (one "burst") every refill period. A request
// larger than what is left waits in the queue of its priority; at each refill
// IO_USER's queue is served first, then IO_HIGH, IO_MID and IO_LOW, except
// that one refill in `fairness` (chosen at random) serves IO_HIGH after the
// lower two, and one in `fairness` serves IO_MID after IO_LOW, so no
// priority starves. A request at the front of a queue that does not fit is
// granted in part (its remainder waits), so a request as large as a burst
// always goes through.
//
// With auto_tuned, the rate starts at rate_bytes_per_sec / 2 and every 100
// refill periods moves within [rate_bytes_per_sec / 20, rate_bytes_per_sec]
// by the share of those periods in which a request had to wait (a "drain"):
// below 50% it drops 5% (to the floor when there were no drains), above
// 90% it rises 5%.
//
// Thread-safety: thread-safe. One limiter may be shared by several DBs.
#pragma once

#include <cstdint>
#include <memory>

#include "strata/env.h"
#include "strata/export.h"
#include "strata/statistics.h"
#include "strata/status.h"

namespace strata {

class STRATA_EXPORT RateLimiter {
 public:
  enum class OpType {
    kRead,
    kWrite,
  };

  enum class Mode {
    kReadsOnly,
    kWritesOnly,
    kAllIo,
  };

  explicit RateLimiter(Mode mode = Mode::kWritesOnly) : mode_(mode) {}
  virtual ~RateLimiter() = default;
  RateLimiter(const RateLimiter&) = delete;
  RateLimiter& operator=(const RateLimiter&) = delete;

  // Changes the rate. REQUIRES: bytes_per_second > 0.
  virtual void SetBytesPerSecond(int64_t bytes_per_second) = 0;

  // Blocks until `bytes` are granted at priority `pri`; counts a drain in
  // stats (NUMBER_RATE_LIMITER_DRAINS, may be null) when it has to wait for a
  // refill. REQUIRES: 0 <= bytes <= GetSingleBurstBytes(). pri == IO_TOTAL
  // is not limited.
  virtual void Request(const int64_t bytes, const Env::IOPriority pri, Statistics* stats) = 0;

  // RocksDB's older form (no statistics): Request(bytes, pri, nullptr).
  // (Unlike RocksDB's, the three-argument form stays the one a limiter must
  // implement.)
  virtual void Request(const int64_t bytes, const Env::IOPriority pri) {
    Request(bytes, pri, nullptr);
  }

  // As above, and does nothing when the mode does not limit op_type.
  virtual void Request(const int64_t bytes, const Env::IOPriority pri, Statistics* stats,
                       OpType op_type) {
    if (IsRateLimited(op_type)) Request(bytes, pri, stats);
  }

  // Requests min(bytes, GetSingleBurstBytes()) (rounded down to a multiple
  // of alignment, at least alignment, when alignment > 0) and returns how
  // many were granted; the caller does that much I/O and asks again for the
  // rest. Returns bytes unchanged when pri is IO_TOTAL or the mode does not
  // limit op_type.
  virtual size_t RequestToken(size_t bytes, size_t alignment, Env::IOPriority io_priority,
                              Statistics* stats, OpType op_type);

  // The most one Request may ask for: the bytes of one refill period.
  virtual int64_t GetSingleBurstBytes() const = 0;
  // Bytes granted / requests made so far at pri (IO_TOTAL: all).
  virtual int64_t GetTotalBytesThrough(const Env::IOPriority pri = Env::IO_TOTAL) const = 0;
  virtual int64_t GetTotalRequests(const Env::IOPriority pri = Env::IO_TOTAL) const = 0;
  // Requests waiting now at pri (IO_TOTAL: all). REQUIRES: out != nullptr.
  virtual Status GetTotalPendingRequests(int64_t* /*total_pending_requests*/,
                                         const Env::IOPriority /*pri*/ = Env::IO_TOTAL) const {
    return Status::NotSupported("GetTotalPendingRequests");
  }
  virtual int64_t GetBytesPerSecond() const = 0;

  virtual bool IsRateLimited(OpType op_type) {
    if ((mode_ == Mode::kWritesOnly && op_type == OpType::kRead) ||
        (mode_ == Mode::kReadsOnly && op_type == OpType::kWrite)) {
      return false;
    }
    return true;
  }

 protected:
  Mode GetMode() const { return mode_; }

 private:
  const Mode mode_;
};

// The token-bucket limiter described above, on the process's real clock.
// REQUIRES: rate_bytes_per_sec > 0, refill_period_us > 0, fairness > 0
// (capped at 100). Returns null when an argument is out of range.
STRATA_EXPORT std::shared_ptr<RateLimiter> NewGenericRateLimiter(
    int64_t rate_bytes_per_sec, int64_t refill_period_us = 100 * 1000, int32_t fairness = 10,
    RateLimiter::Mode mode = RateLimiter::Mode::kWritesOnly, bool auto_tuned = false);

// As NewGenericRateLimiter, timed by `clock` (tests pass a mock clock: a
// waiting request sleeps through clock->SleepForMicroseconds).
STRATA_EXPORT std::shared_ptr<RateLimiter> NewGenericRateLimiter(
    int64_t rate_bytes_per_sec, int64_t refill_period_us, int32_t fairness, RateLimiter::Mode mode,
    bool auto_tuned, std::shared_ptr<SystemClock> clock);

}  // namespace strata
