// rocksdb/cache_bench_tool.h: cache_bench_tool, RocksDB's cache_bench as a
// library call. Strata's cache_bench is its own program (tools/cache_bench),
// not part of this library: the call prints a message naming itself on
// stderr and returns 1.
// Thread-safety: thread-safe (it does nothing else).
#pragma once

#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/status.h"
#include "rocksdb/types.h"

namespace rocksdb {
int cache_bench_tool(int argc, char** argv);
}  // namespace rocksdb
