// rocksdb/write_batch.h: an atomic group of updates. strata::WriteBatch keeps
// RocksDB's wire format and methods (Put/Delete/SingleDelete/DeleteRange/
// Merge, each also per column family, PutLogData, save points, Count, Data,
// Iterate with a Handler) and is the same type here.
// Thread-safety: not thread-safe for writes; const methods are.
#pragma once

#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/slice.h"
#include "rocksdb/status.h"
#include "strata/db.h"
#include "strata/write_batch.h"

namespace rocksdb {
using WriteBatch = ::strata::WriteBatch;
using ColumnFamilyHandle = ::strata::ColumnFamilyHandle;
}  // namespace rocksdb
