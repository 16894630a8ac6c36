// rocksdb/snapshot.h: a consistent read view (DB::GetSnapshot). Owned by the
// DB; released with DB::ReleaseSnapshot or a ManagedSnapshot. strata::Snapshot
// is the same type: GetSequenceNumber, GetUnixTime (seconds, the DB's clock
// when taken) and GetTimestamp (no user-defined timestamps: UINT64_MAX, as
// RocksDB answers for a snapshot taken without one).
#pragma once

#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/types.h"
#include "strata/snapshot.h"

namespace rocksdb {
using Snapshot = ::strata::Snapshot;
class DB;

// Takes a snapshot on construction (or adopts one) and releases it on
// destruction. Not thread-safe.
class ManagedSnapshot {
 public:
  explicit ManagedSnapshot(DB* db);
  ManagedSnapshot(DB* db, const Snapshot* snapshot);
  ~ManagedSnapshot();
  ManagedSnapshot(const ManagedSnapshot&) = delete;
  ManagedSnapshot& operator=(const ManagedSnapshot&) = delete;
  const Snapshot* snapshot();

 private:
  DB* db_;
  const Snapshot* snapshot_;
};
}  // namespace rocksdb
