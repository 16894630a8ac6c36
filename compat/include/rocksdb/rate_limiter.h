// rocksdb/rate_limiter.h: the I/O rate limiter. RateLimiter is Strata's
// class (same members, modes and priorities as RocksDB 7.8.3's); a limiter
// is given to DBOptions::rate_limiter as a shared_ptr. NewGenericRateLimiter
// returns a raw pointer as RocksDB's does (the caller owns it, usually by
// wrapping it in a shared_ptr); it is null when an argument is out of range
// (rate_bytes_per_sec, refill_period_us or fairness not positive).
#pragma once

#include <cstdint>

#include "rocksdb/env.h"
#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/status.h"
#include "strata/rate_limiter.h"

namespace rocksdb {
using RateLimiter = ::strata::RateLimiter;

RateLimiter* NewGenericRateLimiter(int64_t rate_bytes_per_sec,
                                   int64_t refill_period_us = 100 * 1000, int32_t fairness = 10,
                                   RateLimiter::Mode mode = RateLimiter::Mode::kWritesOnly,
                                   bool auto_tuned = false);
}  // namespace rocksdb
