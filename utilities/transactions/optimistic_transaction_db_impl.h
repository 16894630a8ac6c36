// OptimisticTransactionDBImpl and OptimisticTransaction: transactions that
// lock nothing while they run and are checked at Commit (see
// strata/utilities/optimistic_transaction_db.h for the contract).
//
// A transaction tracks each key it writes or reads with GetForUpdate, with
// the sequence it was tracked at (its snapshot's, or the latest one).
// Commit checks, per key, that no write with a larger sequence reached the
// DB (DBImpl::CheckKeysForConflicts), then writes the batch:
//  - kValidateParallel: under the hash-bucket locks of its keys, taken in
//    ascending bucket order, so that no conflicting commit can slip
//    between the check and the write; other commits share group commit.
//  - kValidateSerial: the check is a write callback run by the write-group
//    leader, and the commit forms a group alone.
// A key is checked against the tables only when its tracked sequence is
// protected by the transaction's snapshot (entries newer than a live
// snapshot keep their sequence numbers and tombstones through
// compactions); otherwise the memtables must reach back far enough, or
// Commit fails with TryAgain (RocksDB's rule).
//
// Thread-safety: the DB is thread-safe; a transaction is used by one
// thread at a time.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "strata/utilities/optimistic_transaction_db.h"
#include "utilities/transactions/transaction_base.h"

namespace strata {

class OptimisticTransactionDBImpl final : public OptimisticTransactionDB {
 public:
  OptimisticTransactionDBImpl(std::unique_ptr<DB> db, const OptimisticTransactionDBOptions& o);
  ~OptimisticTransactionDBImpl() override;

  std::unique_ptr<Transaction> BeginTransaction(const WriteOptions& write_options,
                                                const OptimisticTransactionOptions& txn_options,
                                                std::unique_ptr<Transaction> old_txn) override;

  DBImpl* dbimpl() const { return dbimpl_; }
  OccValidationPolicy validate_policy() const { return options_.validate_policy; }
  // The commit lock of a hash bucket (kValidateParallel): a one-byte lock
  // that spins briefly, then sleeps on the atomic.
  size_t num_buckets() const { return num_buckets_; }
  void LockBucket(size_t i);
  void UnlockBucket(size_t i);

 private:
  DBImpl* const dbimpl_;
  const OptimisticTransactionDBOptions options_;
  const size_t num_buckets_;
  std::unique_ptr<std::atomic<uint8_t>[]> buckets_;
};

class OptimisticTransaction final : public TransactionBase {
 public:
  OptimisticTransaction(OptimisticTransactionDBImpl* txn_db, const WriteOptions& write_options,
                        const OptimisticTransactionOptions& txn_options);
  ~OptimisticTransaction() override;
  void Reinitialize(const WriteOptions& write_options,
                    const OptimisticTransactionOptions& txn_options);

  Status Prepare() override;
  Status Commit() override;
  Status Rollback() override;
  Status SetName(const TransactionName& name) override;

  // The commit check: Busy on a conflict, TryAgain when undecidable.
  Status CheckConflicts();

 protected:
  Status TryLock(uint32_t cf_id, const Slice& key, bool read_only, bool exclusive, bool do_validate,
                 bool assume_tracked) override;
  void UnlockKey(uint32_t /*cf_id*/, const std::string& /*key*/) override {}

 private:
  Status CommitSerial();
  Status CommitParallel();

  OptimisticTransactionDBImpl* const txn_db_;
};

}  // namespace strata
