// rocksdb/write_batch_base.h: the abstract base of WriteBatch and
// WriteBatchWithIndex. Strata's class is the same class here
// (strata/write_batch_base.h): WriteBatch derives from it directly, and
// rocksdb::WriteBatchWithIndex implements it by forwarding. The timestamp
// forms answer as RocksDB 7.8.3 does for a family without timestamps
// (InvalidArgument "timestamp disabled"; "column family handle cannot be
// null" without a family; Merge: NotSupported); PutEntity is NotSupported.
// Thread-safety: not thread-safe.
#pragma once

#include <cstddef>

#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/slice.h"
#include "rocksdb/status.h"
#include "rocksdb/wide_columns.h"
#include "strata/write_batch_base.h"

namespace rocksdb {
using WriteBatchBase = ::strata::WriteBatchBase;
}  // namespace rocksdb
