// rocksdb/concurrent_task_limiter.h: RocksDB 7.8.3's limiter of concurrent
// compactions (ColumnFamilyOptions::compaction_thread_limiter).
// ConcurrentTaskLimiter is Strata's class (include/strata/
// concurrent_task_limiter.h); NewConcurrentTaskLimiter returns a new one
// the caller owns (RocksDB's raw pointer). Only limiters made by it are
// accepted at Open (RocksDB casts to its own implementation too).
// Thread-safety: thread-safe.
#pragma once

#include <cstdint>
#include <string>

#include "rocksdb/rocksdb_namespace.h"
#include "strata/concurrent_task_limiter.h"

namespace rocksdb {

using ConcurrentTaskLimiter = ::strata::ConcurrentTaskLimiter;

// limit < 0: unlimited; 0: no automatic compaction of the families using it.
extern ConcurrentTaskLimiter* NewConcurrentTaskLimiter(const std::string& name, int32_t limit);

}  // namespace rocksdb
