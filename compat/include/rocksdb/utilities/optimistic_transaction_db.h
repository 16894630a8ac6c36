// rocksdb/utilities/optimistic_transaction_db.h: a DB with optimistic
// transactions (validated at Commit, no locks), over
// strata::OptimisticTransactionDB. A StackableDB, as RocksDB's: GetBaseDB()
// is the database under the transaction layer.
// Thread-safety: thread-safe; each Transaction is used by one thread.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/status.h"
#include "rocksdb/utilities/stackable_db.h"
#include "rocksdb/utilities/transaction.h"
#include "strata/utilities/optimistic_transaction_db.h"

namespace rocksdb {
using OptimisticTransactionOptions = ::strata::OptimisticTransactionOptions;
using OptimisticTransactionDBOptions = ::strata::OptimisticTransactionDBOptions;
using OccValidationPolicy = ::strata::OccValidationPolicy;

class OptimisticTransactionDB : public StackableDB {
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

 protected:
  explicit OptimisticTransactionDB(DB* db) : StackableDB(db) {}
};
}  // namespace rocksdb
