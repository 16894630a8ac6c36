// rocksdb/perf_level.h: how much the per-thread perf context measures.
// Strata's enum has RocksDB's names and values and is the same type here.
#pragma once

#include "rocksdb/rocksdb_namespace.h"
#include "strata/perf_level.h"

namespace rocksdb {
using PerfLevel = ::strata::PerfLevel;
using ::strata::GetPerfLevel;
using ::strata::kDisable;
using ::strata::kEnableCount;
using ::strata::kEnableTime;
using ::strata::kEnableTimeAndCPUTimeExceptForMutex;
using ::strata::kEnableTimeExceptForMutex;
using ::strata::kOutOfBounds;
using ::strata::kUninitialized;
using ::strata::SetPerfLevel;
}  // namespace rocksdb
