// rocksdb/unique_id.h: the unique id of a table file, computed from its
// properties (db_id, db_session_id, original file number) exactly as
// RocksDB 7.8.3 computes it, so a file has the same id in both engines.
// Thread-safety: thread-safe (pure functions).
#pragma once

#include <string>

#include "rocksdb/status.h"
#include "rocksdb/table_properties.h"

namespace rocksdb {

// The 128-bit id of the table whose properties are props, as 16 raw bytes
// in *out_id. NotSupported (naming what is missing or malformed: db_id,
// db_session_id, the file number) when the properties cannot give one;
// *out_id is then cleared.
Status GetUniqueIdFromTableProperties(const TableProperties& props, std::string* out_id);

// The 192-bit form (24 bytes); its first 16 bytes are the 128-bit id.
Status GetExtendedUniqueIdFromTableProperties(const TableProperties& props, std::string* out_id);

// The bytes of an id in hex, one '-' after every 8 bytes
// ("0123456789ABCDEF-0123456789ABCDEF").
std::string UniqueIdToHumanString(const std::string& id);

}  // namespace rocksdb
