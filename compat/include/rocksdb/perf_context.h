// rocksdb/perf_context.h: per-thread counters of the current thread's reads
// and writes (get_perf_context()). Strata's PerfContext carries the
// counters Strata measures, under RocksDB's names; it is the same type here.
#pragma once

#include "rocksdb/perf_level.h"
#include "rocksdb/rocksdb_namespace.h"
#include "strata/perf_context.h"

namespace rocksdb {
using PerfContext = ::strata::PerfContext;
using PerfContextByLevel = ::strata::PerfContextByLevel;
using ::strata::get_perf_context;
}  // namespace rocksdb
