// Debugging views of a live database (RocksDB's rocksdb/utilities/debug.h):
// every stored version of the keys in a range, with its sequence number and
// entry type, as the engine holds them (memtables and table files merged,
// newest version of a key first).
//
// Thread-safety: thread-safe (reads a consistent view of the DB).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "strata/db.h"
#include "strata/export.h"
#include "strata/slice.h"
#include "strata/status.h"

namespace strata {

// One stored version of a key. `type` is the entry's type code as stored
// (RocksDB's ValueType: 0 deletion, 1 value, 2 merge operand, 7 single
// deletion, ...).
struct STRATA_EXPORT KeyVersion {
  KeyVersion() : user_key(""), value(""), sequence(0), type(0) {}
  KeyVersion(const std::string& _user_key, const std::string& _value, uint64_t _sequence, int _type)
      : user_key(_user_key), value(_value), sequence(_sequence), type(_type) {}

  std::string user_key;
  std::string value;
  uint64_t sequence;
  int type;
  // RocksDB's name of the type ("TypeValue", "TypeDeletion", "TypeMerge",
  // "TypeSingleDeletion", ...), "Invalid" for an unknown code.
  std::string GetTypeName() const;
};

// Appends to *key_versions (cleared first) the stored versions of the keys
// of cfh in [begin_key, end_key] (an empty slice: an open end), in internal
// key order (by user key, then newest first), at most max_num_ikeys of
// them. Point entries only: range tombstones are not listed. Values of
// deletions are empty. InvalidArgument for a null db, cfh or key_versions,
// or a db that is not Strata's engine (after GetRootDB).
STRATA_EXPORT Status GetAllKeyVersions(DB* db, ColumnFamilyHandle* cfh, Slice begin_key,
                                       Slice end_key, size_t max_num_ikeys,
                                       std::vector<KeyVersion>* key_versions);
// The same for the default family.
STRATA_EXPORT Status GetAllKeyVersions(DB* db, Slice begin_key, Slice end_key, size_t max_num_ikeys,
                                       std::vector<KeyVersion>* key_versions);

}  // namespace strata
