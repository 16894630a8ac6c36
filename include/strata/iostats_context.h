// IOStatsContext: per-thread counters and timers of the file I/O the calling
// thread did through the default (POSIX) file system and the info LOG, with
// RocksDB's field names.
//
// Switched by the same per-thread PerfLevel as PerfContext: kEnableCount and
// above count bytes; kEnableTimeExceptForMutex and above also time the calls
// (nanoseconds). (RocksDB counts the byte fields at every level; Strata
// keeps the disabled level free of any work.) thread_pool_id, cpu_*_nanos,
// prepare_write_nanos and the per-temperature fields stay 0.
//
// Thread-safety: not thread-safe; each thread owns its context.
#pragma once

#include <cstdint>
#include <string>

#include "strata/export.h"
#include "strata/perf_level.h"

namespace strata {

struct STRATA_EXPORT FileIOByTemperature {
  uint64_t hot_file_bytes_read = 0;
  uint64_t warm_file_bytes_read = 0;
  uint64_t cold_file_bytes_read = 0;
  uint64_t hot_file_read_count = 0;
  uint64_t warm_file_read_count = 0;
  uint64_t cold_file_read_count = 0;
  // Zeroes every field.
  void Reset() { *this = FileIOByTemperature(); }
};

struct STRATA_EXPORT IOStatsContext {
  // Zeroes every field.
  void Reset();
  // "name = value, " per field in RocksDB's order and format; with
  // exclude_zero_counters only the non-zero ones. The last ", " is dropped.
  std::string ToString(bool exclude_zero_counters = false) const;

  uint64_t thread_pool_id = 0;
  uint64_t bytes_written = 0;
  uint64_t bytes_read = 0;
  uint64_t open_nanos = 0;
  uint64_t allocate_nanos = 0;
  uint64_t write_nanos = 0;
  uint64_t read_nanos = 0;
  uint64_t range_sync_nanos = 0;
  uint64_t fsync_nanos = 0;
  uint64_t prepare_write_nanos = 0;
  uint64_t logger_nanos = 0;
  uint64_t cpu_write_nanos = 0;
  uint64_t cpu_read_nanos = 0;
  FileIOByTemperature file_io_stats_by_temperature;
  // Set by a thread to stop its byte counters (bytes_read, bytes_written)
  // from growing, as RocksDB's backdoor; the timers still run. Reset keeps it.
  bool disable_iostats = false;
};

// The calling thread's context (zero when the thread starts).
STRATA_EXPORT IOStatsContext* get_iostats_context();

}  // namespace strata
