// rocksdb/utilities/transaction_db.h: a DB with pessimistic (locking)
// transactions, over strata::TransactionDB. TransactionDB is a DB (every DB
// call works on it; plain writes run as one-shot transactions, as in
// RocksDB). A StackableDB, as RocksDB's: GetBaseDB() is the database under
// the transaction layer (its writes take no locks), GetRootDB() the same.
// TransactionDBOptions and TransactionOptions are Strata's structs, which
// carry RocksDB's field names; RocksDB's write policies other than
// WRITE_COMMITTED and custom lock managers do not exist.
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
#include "strata/utilities/transaction_db.h"

namespace rocksdb {
using TransactionDBOptions = ::strata::TransactionDBOptions;
using TransactionOptions = ::strata::TransactionOptions;
using KeyLockInfo = ::strata::KeyLockInfo;
using DeadlockInfo = ::strata::DeadlockInfo;
using DeadlockPath = ::strata::DeadlockPath;
// WRITE_COMMITTED is the only policy built; the others are refused at Open.
using TxnDBWritePolicy = ::strata::TxnDBWritePolicy;
using ::strata::kInitialMaxDeadlocks;
using ::strata::WRITE_COMMITTED;
using ::strata::WRITE_PREPARED;
using ::strata::WRITE_UNPREPARED;

class TransactionDB : public StackableDB {
 public:
  // On success *dbptr is the caller's (delete it).
  static Status Open(const Options& options, const TransactionDBOptions& txn_db_options,
                     const std::string& dbname, TransactionDB** dbptr);
  static Status Open(const DBOptions& db_options, const TransactionDBOptions& txn_db_options,
                     const std::string& dbname,
                     const std::vector<ColumnFamilyDescriptor>& column_families,
                     std::vector<ColumnFamilyHandle*>* handles, TransactionDB** dbptr);

  // A new transaction (the caller deletes it), or old_txn reset for reuse
  // and returned.
  virtual Transaction* BeginTransaction(
      const WriteOptions& write_options,
      const TransactionOptions& txn_options = TransactionOptions(),
      Transaction* old_txn = nullptr) = 0;
  // The live transaction named `name` (a recovered prepared one included),
  // or null. Not the caller's: its owner deletes it (for a recovered one,
  // the caller may delete it after Commit or Rollback, as in RocksDB;
  // otherwise the DB does at close).
  virtual Transaction* GetTransactionByName(const TransactionName& name) = 0;
  // Every transaction in the PREPARED state, those recovered at Open
  // included (same ownership as GetTransactionByName).
  virtual void GetAllPreparedTransactions(std::vector<Transaction*>* trans) = 0;
  virtual std::vector<DeadlockPath> GetDeadlockInfoBuffer() = 0;
  virtual void SetDeadlockInfoBufferSize(uint32_t target_size) = 0;

 protected:
  explicit TransactionDB(DB* db) : StackableDB(db) {}
};
}  // namespace rocksdb
