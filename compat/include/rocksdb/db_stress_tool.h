// rocksdb/db_stress_tool.h: db_stress_tool, RocksDB's db_stress as a library call.
// Strata's db_stress is its own program (tools/db_stress), not part of this
// library: the call prints a message naming itself on stderr and returns 1.
// Thread-safety: thread-safe (it does nothing else).
#pragma once

#include "rocksdb/rocksdb_namespace.h"

namespace rocksdb {
int db_stress_tool(int argc, char** argv);
}  // namespace rocksdb
