// rocksdb/iostats_context.h: per-thread I/O counters
// (get_iostats_context()). Strata's IOStatsContext is the same type here.
#pragma once

#include "rocksdb/perf_level.h"
#include "rocksdb/rocksdb_namespace.h"
#include "strata/iostats_context.h"

namespace rocksdb {
using IOStatsContext = ::strata::IOStatsContext;
using FileIOByTemperature = ::strata::FileIOByTemperature;
using ::strata::get_iostats_context;
}  // namespace rocksdb
