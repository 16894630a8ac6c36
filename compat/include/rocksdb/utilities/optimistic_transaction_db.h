// rocksdb/utilities/optimistic_transaction_db.h: a DB with optimistic
// transactions (validated at Commit, no locks), over
// strata::OptimisticTransactionDB. As with TransactionDB, it derives from
// DB directly rather than from StackableDB.
// Thread-safety: thread-safe; each Transaction is used by one thread.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/status.h"
#include "rocksdb/utilities/transaction.h"
#include "strata/utilities/optimistic_transaction_db.h"

namespace rocksdb {
using OptimisticTransactionOptions = ::strata::OptimisticTransactionOptions;
using OptimisticTransactionDBOptions = ::strata::OptimisticTransactionDBOptions;
using OccValidationPolicy = ::strata::OccValidationPolicy;

class OptimisticTransactionDB : public DB {
 public:
  static Status Open(const Options& options, const std::string& dbname,
                     OptimisticTransactionDB** dbptr);
  static Status Open(const DBOptions& db_options, const std::string& dbname,
                     const std::vector<ColumnFamilyDescriptor>& column_families,
                     std::vector<ColumnFamilyHandle*>* handles, OptimisticTransactionDB** dbptr);
  static Status Open(const DBOptions& db_options, const OptimisticTransactionDBOptions& occ_options,
                     const std::string& dbname,
                     const std::vector<ColumnFamilyDescriptor>& column_families,
                     std::vector<ColumnFamilyHandle*>* handles, OptimisticTransactionDB** dbptr);

  virtual Transaction* BeginTransaction(
      const WriteOptions& write_options,
      const OptimisticTransactionOptions& txn_options = OptimisticTransactionOptions(),
      Transaction* old_txn = nullptr) = 0;
  // This object (RocksDB returns the DB underneath; here it is the same
  // object, as every DB call works on it).
  virtual DB* GetBaseDB() { return this; }
};
}  // namespace rocksdb
