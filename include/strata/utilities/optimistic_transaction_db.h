// OptimisticTransactionDB: a DB whose transactions lock nothing while they
// run and are checked for conflicts at Commit (see transaction.h). Names,
// defaults and semantics are RocksDB 7.8.3's
// (rocksdb/utilities/optimistic_transaction_db.h); Strata's ownership
// rules apply.
//
// Validation (OccValidationPolicy):
//  - kValidateParallel (default): Commit locks the hash buckets of the
//    transaction's keys (occ_lock_buckets of them, taken in ascending
//    order, so commits never deadlock), checks the keys, and writes; commits
//    of disjoint key sets proceed in parallel and share group commit.
//  - kValidateSerial: the check runs inside the write queue, by the writer
//    at its head, and such a commit is never grouped with other writes.
// A key conflicts when the DB holds a write to it newer than the
// transaction's snapshot (or, without a snapshot, than the moment the key
// was first written or read for update by the transaction). Recent writes
// are found in the memtables; when the memtables no longer reach back that
// far, a transaction with a snapshot is checked against the tables, and
// one without fails with TryAgain, as in RocksDB.
//
// Thread-safety: thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "strata/comparator.h"
#include "strata/db.h"
#include "strata/export.h"
#include "strata/utilities/stackable_db.h"
#include "strata/utilities/transaction.h"

namespace strata {

struct STRATA_EXPORT OptimisticTransactionOptions {
  // SetSnapshot at begin.
  bool set_snapshot = false;
  // Accepted for RocksDB compatibility: the column family's comparator
  // orders the transaction's index.
  const Comparator* cmp = BytewiseComparator();
};

enum class OccValidationPolicy {
  kValidateSerial = 0,
  kValidateParallel = 1,
};

struct STRATA_EXPORT OptimisticTransactionDBOptions {
  OccValidationPolicy validate_policy = OccValidationPolicy::kValidateParallel;
  // Hash buckets of the commit locks (kValidateParallel).
  uint32_t occ_lock_buckets = (1 << 20);
};

class STRATA_EXPORT OptimisticTransactionDB : public StackableDB {
 public:
  static Status Open(const Options& options, const std::string& path,
                     std::unique_ptr<OptimisticTransactionDB>* db);
  static Status Open(const DBOptions& db_options, const std::string& path,
                     const std::vector<ColumnFamilyDescriptor>& column_families,
                     std::vector<ColumnFamilyHandle*>* handles,
                     std::unique_ptr<OptimisticTransactionDB>* db);
  static Status Open(const DBOptions& db_options, const OptimisticTransactionDBOptions& occ_options,
                     const std::string& path,
                     const std::vector<ColumnFamilyDescriptor>& column_families,
                     std::vector<ColumnFamilyHandle*>* handles,
                     std::unique_ptr<OptimisticTransactionDB>* db);

  ~OptimisticTransactionDB() override;

  // A new transaction, or old_txn reinitialized and returned.
  virtual std::unique_ptr<Transaction> BeginTransaction(
      const WriteOptions& write_options,
      const OptimisticTransactionOptions& txn_options = OptimisticTransactionOptions(),
      std::unique_ptr<Transaction> old_txn = nullptr) = 0;

 protected:
  explicit OptimisticTransactionDB(std::unique_ptr<DB> db) : StackableDB(std::move(db)) {}
};

}  // namespace strata
