// PacedWritableFile: the one place background file writes are paced
// (DBOptions::rate_limiter) and written back early (bytes_per_sync,
// wal_bytes_per_sync). A WritableFile decorator, so the file systems stay
// unaware of both and a file system change (direct I/O) composes with it.
//
//  - Rate limiting: each Append is cut into pieces of at most one burst
//    (RateLimiter::RequestToken) and each piece waits for its tokens at the
//    file's priority before it goes to the file (flush: IO_HIGH,
//    compaction: IO_LOW, as RocksDB 7.8.3).
//  - Range sync: once the bytes appended, less the newest 1 MiB (rounded
//    down to 4 KiB), are bytes_per_sync past the last range synced, that
//    range is flushed to the file and RangeSync'ed (RocksDB's rule: the
//    newest megabyte is left alone since it may still be rewritten in the
//    page cache). Tables check after each Append; the WAL only at Flush
//    (range_sync_on_flush_only), so manual_wal_flush keeps its buffered tail.
//
// Thread-safety: not thread-safe (as any WritableFile); the rate limiter
// it charges is.
#pragma once

#include <cstdint>
#include <memory>

#include "strata/env.h"
#include "strata/rate_limiter.h"
#include "strata/statistics.h"

namespace strata {

struct PacedWriteOptions {
  RateLimiter* rate_limiter = nullptr;  // borrowed; null = no pacing
  Env::IOPriority priority = Env::IO_TOTAL;
  Statistics* statistics = nullptr;
  uint64_t bytes_per_sync = 0;  // 0 = no range sync
  bool range_sync_on_flush_only = false;
};

// The newest bytes never range-synced, and the alignment of a synced range
// end (RocksDB's values).
constexpr uint64_t kRangeSyncSkipNewestBytes = 1024 * 1024;
constexpr uint64_t kRangeSyncAlignment = 4 * 1024;

// Returns `base` itself when there is nothing to pace (no limiter or
// IO_TOTAL, and bytes_per_sync 0), else base wrapped.
std::unique_ptr<WritableFile> NewPacedWritableFile(std::unique_ptr<WritableFile> base,
                                                   const PacedWriteOptions& options);

}  // namespace strata
