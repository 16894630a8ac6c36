// rocksdb/utilities/db_ttl.h: RocksDB 7.8.3's DBWithTTL over Strata's
// (include/strata/utilities/db_ttl.h, which has the semantics): values are
// stored with their 4-byte write time, as RocksDB stores them, so a TTL
// database written by either engine opens in the other; compactions remove
// entries older than their family's ttl (seconds; <= 0: never).
//
// Open converts the options as DB::Open does (an option Strata refuses gives
// InvalidArgument naming it). The DB returned is a StackableDB over the
// converted Strata database; the caller deletes it.
// Thread-safety: as DB.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rocksdb/db.h"
#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/utilities/stackable_db.h"

namespace rocksdb {

class DBWithTTL : public StackableDB {
 public:
  virtual Status CreateColumnFamilyWithTtl(const ColumnFamilyOptions& options,
                                           const std::string& column_family_name,
                                           ColumnFamilyHandle** handle, int ttl) = 0;

  static Status Open(const Options& options, const std::string& dbname, DBWithTTL** dbptr,
                     int32_t ttl = 0, bool read_only = false);
  static Status Open(const DBOptions& db_options, const std::string& dbname,
                     const std::vector<ColumnFamilyDescriptor>& column_families,
                     std::vector<ColumnFamilyHandle*>* handles, DBWithTTL** dbptr,
                     const std::vector<int32_t>& ttls, bool read_only = false);

  virtual void SetTtl(int32_t ttl) = 0;
  virtual void SetTtl(ColumnFamilyHandle* h, int32_t ttl) = 0;

 protected:
  explicit DBWithTTL(DB* db) : StackableDB(db) {}
};

}  // namespace rocksdb
