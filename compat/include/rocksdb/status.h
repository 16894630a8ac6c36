// rocksdb/status.h: Status of the RocksDB interface. strata::Status has
// RocksDB's codes, subcodes, severities, constructors, factories, predicates
// and ToString() texts, so it is the same type here. Differences a program
// may notice: the type is [[nodiscard]], so dropping a Status draws a
// compiler warning; == compares code and subcode (RocksDB: the code alone);
// IsLockLimit() means Busy with kLockLimit (what lock managers return;
// RocksDB 7.8.3 tests Aborted); getState() is "" rather than null when there
// is no message; MustCheck() does nothing (no checked-status build);
// Strata's engine sets no severity.
#pragma once

#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/slice.h"
#include "strata/status.h"

namespace rocksdb {
using Status = ::strata::Status;
}  // namespace rocksdb
