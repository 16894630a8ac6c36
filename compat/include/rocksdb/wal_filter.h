// rocksdb/wal_filter.h: a hook into WAL replay at DB::Open
// (DBOptions::wal_filter). WalFilter is Strata's class
// (include/strata/wal_filter.h), with RocksDB's names, enum values and
// virtual functions, so a RocksDB filter derives from it unchanged and the
// engine calls it directly; WriteBatch is Strata's too. What each answer
// does follows RocksDB 7.8.3 (the primary and read-only opens call the
// filter, a secondary open does not). WalFilter::CreateFromString knows
// "" / "nullptr" only (the object registry is not consulted).
// Thread-safety: called only from the thread running DB::Open.
#pragma once

#include <map>
#include <string>

#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/write_batch.h"
#include "strata/convenience.h"  // CreateFromString takes Strata's ConfigOptions
#include "strata/wal_filter.h"

namespace rocksdb {
using WalFilter = ::strata::WalFilter;
}  // namespace rocksdb
