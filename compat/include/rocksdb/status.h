// rocksdb/status.h: Status of the RocksDB interface. strata::Status has
// RocksDB's codes, subcodes, factories, predicates and ToString() texts, so
// it is the same type here. One difference a program may notice: the type
// is [[nodiscard]], so dropping a Status draws a compiler warning.
#pragma once

#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/slice.h"
#include "strata/status.h"

namespace rocksdb {
using Status = ::strata::Status;
}  // namespace rocksdb
