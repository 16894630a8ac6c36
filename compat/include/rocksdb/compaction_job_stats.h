// rocksdb/compaction_job_stats.h: RocksDB 7.8.3's CompactionJobStats, which
// is Strata's struct (include/strata/listener.h): every RocksDB field, with
// Reset() and Add(). Fields Strata does not measure are 0 (cpu_micros, the
// blob counters, num_corrupt_keys, the file I/O timers).
// Thread-safety: plain data.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "rocksdb/rocksdb_namespace.h"
#include "strata/listener.h"

namespace rocksdb {

using CompactionJobStats = ::strata::CompactionJobStats;

}  // namespace rocksdb
