// rocksdb/utilities/debug.h: every stored version of the keys in a range
// (user key, value, sequence number, type code), as the engine holds them.
// KeyVersion is Strata's type; the calls run strata::GetAllKeyVersions
// (strata/utilities/debug.h: point entries of the memtables and tables,
// range tombstones not listed) on the Strata database under db.
// Thread-safety: thread-safe.
#pragma once

#include <cstddef>
#include <vector>

#include "rocksdb/db.h"
#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/types.h"
#include "strata/utilities/debug.h"

namespace rocksdb {
using KeyVersion = ::strata::KeyVersion;

// InvalidArgument "db cannot be null." / "Column family handle cannot be
// null." / "key_versions cannot be null.", as RocksDB's.
Status GetAllKeyVersions(DB* db, Slice begin_key, Slice end_key, size_t max_num_ikeys,
                         std::vector<KeyVersion>* key_versions);
Status GetAllKeyVersions(DB* db, ColumnFamilyHandle* cfh, Slice begin_key, Slice end_key,
                         size_t max_num_ikeys, std::vector<KeyVersion>* key_versions);
}  // namespace rocksdb
