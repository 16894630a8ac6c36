// rocksdb/write_batch.h: an atomic group of updates. strata::WriteBatch keeps
// RocksDB's wire format and methods (Put/Delete/SingleDelete/DeleteRange/
// Merge, each also per column family, PutLogData, save points, Count, Data,
// Iterate with a Handler; the WriteBatchBase forms: SliceParts, timestamp,
// PutEntity, SetMaxBytes, GetWriteBatch; the content flags HasPut & co.,
// GetWalTerminationPoint, the full constructor, VerifyChecksum and
// UpdateTimestamps) and is the same type here, as are SavePoint and the
// Handler. Strata keeps no per-key checksums and has no user-defined
// timestamps: a batch made with protection_bytes_per_key or
// default_cf_ts_sz non-zero is refused by Write (strata/write_batch.h).
// It is final: a RocksDB program that derives from WriteBatch does not
// compile.
// Thread-safety: not thread-safe for writes; const methods are.
#pragma once

#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/slice.h"
#include "rocksdb/status.h"
#include "rocksdb/write_batch_base.h"
#include "strata/db.h"
#include "strata/write_batch.h"

namespace rocksdb {
struct SavePoints;  // RocksDB-internal; declared only
using SavePoint = ::strata::SavePoint;
using WriteBatch = ::strata::WriteBatch;
using ColumnFamilyHandle = ::strata::ColumnFamilyHandle;
}  // namespace rocksdb
