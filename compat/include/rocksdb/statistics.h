// rocksdb/statistics.h: DB-wide counters (Options::statistics). Strata's
// Statistics object is the same type here; its ticker and histogram names
// are Strata's (ToString() prints them), not RocksDB's enum numbering.
#pragma once

#include <memory>

#include "rocksdb/rocksdb_namespace.h"
#include "strata/statistics.h"

namespace rocksdb {
using Statistics = ::strata::Statistics;
using ::strata::CreateDBStatistics;
}  // namespace rocksdb
