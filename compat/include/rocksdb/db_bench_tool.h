// rocksdb/db_bench_tool.h: db_bench_tool, RocksDB's db_bench as a library call.
// Strata's db_bench is its own program (tools/db_bench), not part of this
// library: the call prints a message naming itself on stderr and returns 1.
// Thread-safety: thread-safe (it does nothing else).
#pragma once

#include "rocksdb/rocksdb_namespace.h"

namespace rocksdb {
int db_bench_tool(int argc, char** argv);
}  // namespace rocksdb
