// DBWithTTL: a database whose entries expire. Names, semantics and the
// stored form are RocksDB's (rocksdb/utilities/db_ttl.h), so a TTL database
// written by either engine opens in the other.
//
// Stored form: every value and merge operand written through this object
// carries its write time appended, as 4 bytes of little-endian int32 Unix
// seconds. Reads (Get, MultiGet, iterators, KeyMayExist, GetMergeOperands)
// strip the 4 bytes again. A value shorter than 4 bytes, or (for point reads)
// whose time is before 2013-05-09 (kMinTimestamp, RocksDB's release date of
// the feature), reads as Corruption: the database was most likely written
// without TTL.
//
// Expiry: an entry whose write time + ttl is before now is removed by the
// next compaction that sees it (a filter wrapped around the family's own
// compaction filter or factory). Until then reads still return it: the
// TTL is a lower bound on how long data lives, not an exact deadline.
// ttl <= 0 means never expire. Each column family has its own ttl, changed
// at any time by SetTtl (the next compaction uses the new value).
//
// Merge: the family's merge operator is wrapped so that it sees operands and
// base values without their times; its result is stamped with the time of
// the merge.
//
// Writes: Put and Merge stamp the value; Delete, SingleDelete and
// DeleteRange pass through unchanged, as do log data records. Write()
// re-encodes the batch with stamped values. Data added by other means
// (IngestExternalFile, a plain DB::Open on the same files) is not stamped
// and reads back as Corruption.
//
// read_only: opens with DB::OpenForReadOnly (no stamping is needed; writes
// fail as they do on any read-only DB).
//
// Thread-safety: as DB; SetTtl may race with compactions (they read the
// ttl atomically).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "strata/db.h"
#include "strata/env.h"
#include "strata/export.h"
#include "strata/merge_operator.h"
#include "strata/utilities/stackable_db.h"

namespace strata {

class STRATA_EXPORT DBWithTTL : public StackableDB {
 public:
  // Size of the write time appended to every stored value and operand.
  static constexpr size_t kTimestampSize = 4;
  // Write times before this (2013-05-09 00:40:02 UTC) read as Corruption.
  static constexpr int32_t kMinTimestamp = 1368146402;

  // Opens the default family only, with the given ttl (seconds; <= 0: never
  // expire).
  static Status Open(const Options& options, const std::string& path,
                     std::unique_ptr<DBWithTTL>* db, int32_t ttl = 0, bool read_only = false);
  // Opens with explicit column families; ttls[i] is column_families[i]'s
  // ttl (InvalidArgument when the sizes differ). handles as DB::Open.
  static Status Open(const DBOptions& db_options, const std::string& path,
                     const std::vector<ColumnFamilyDescriptor>& column_families,
                     std::vector<ColumnFamilyHandle*>* handles, std::unique_ptr<DBWithTTL>* db,
                     const std::vector<int32_t>& ttls, bool read_only = false);

  // Creates a family whose entries expire after ttl seconds.
  // CreateColumnFamily (inherited) creates one with ttl 0 (never).
  virtual Status CreateColumnFamilyWithTtl(const ColumnFamilyOptions& options,
                                           const std::string& name, ColumnFamilyHandle** handle,
                                           int32_t ttl) = 0;

  // Changes a family's ttl for the compactions that start afterwards.
  virtual void SetTtl(int32_t ttl) { SetTtl(DefaultColumnFamily(), ttl); }
  virtual void SetTtl(ColumnFamilyHandle* cf, int32_t ttl) = 0;
  // The family's current ttl; InvalidArgument for a null handle or
  // argument, or a family this object did not open or create.
  virtual Status GetTtl(ColumnFamilyHandle* cf, int32_t* ttl) = 0;

 protected:
  explicit DBWithTTL(std::unique_ptr<DB> db) : StackableDB(std::move(db)) {}
};

// The merge operator DBWithTTL puts around a family's own: user sees the
// operands and base value without their times; each result is stamped
// with clock's time (the default clock when null). For tools that open a
// TTL database without DBWithTTL yet must merge as it does (RocksDB's
// OPTIONS files name it "TtlMergeOperator").
STRATA_EXPORT std::shared_ptr<MergeOperator> NewTtlMergeOperator(
    std::shared_ptr<MergeOperator> user, SystemClock* clock = nullptr);

}  // namespace strata
