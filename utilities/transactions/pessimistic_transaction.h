// PessimisticTransaction: a transaction of TransactionDB (WRITE_COMMITTED).
// Every write and GetForUpdate locks its key through the DB's
// PointLockManager before it is buffered; with a snapshot set, a newly
// locked key is also checked for writes after the snapshot (Busy). Commit
// writes the buffered batch; two-phase commit logs it first between
// BeginPrepare / EndPrepare(name) markers (Prepare), then logs a
// Commit(name) marker with the data applied to the memtables, or a
// Rollback(name) marker. Semantics, states and messages are RocksDB
// 7.8.3's PessimisticTransaction / WriteCommittedTxn.
//
// Thread-safety: not thread-safe, except the state, which a lock stealer
// (another transaction waiting for an expired one's keys) changes with a
// compare-and-exchange.
// Invariants:
//  1. Every key in tracked_keys_ is locked by this transaction (unless its
//     locks were stolen: state LOCKS_STOLEN, and Commit fails Expired).
//  2. A PREPARED transaction's batch is in the WAL (log_number_ names it)
//     and its WAL is kept until Commit or Rollback.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "strata/utilities/transaction_db.h"
#include "utilities/transactions/transaction_base.h"

namespace strata {

class PessimisticTransactionDBImpl;

class PessimisticTransaction final : public TransactionBase {
 public:
  PessimisticTransaction(PessimisticTransactionDBImpl* txn_db, const WriteOptions& write_options,
                         const TransactionOptions& txn_options);
  ~PessimisticTransaction() override;

  // BeginTransaction's reuse of a finished transaction object.
  void Reinitialize(const WriteOptions& write_options, const TransactionOptions& txn_options);

  Status Prepare() override;
  Status Commit() override;
  Status Rollback() override;
  Status RollbackToSavePoint() override;

  Status SetName(const TransactionName& name) override;
  TransactionID GetID() const override { return txn_id_; }
  bool IsDeadlockDetect() const override { return deadlock_detect_; }
  std::vector<TransactionID> GetWaitingTxns(uint32_t* column_family_id,
                                            std::string* key) const override;
  void SetLockTimeout(int64_t timeout_ms) override;

  // Lock stealing: an expired transaction still STARTED gives its locks up
  // (its state becomes LOCKS_STOLEN). True if that happened now or before.
  bool TryStealingLocks();
  // Expired: the expiration time passed (never once prepared).
  bool IsExpired() const;
  uint64_t expiration_time_us() const { return expiration_time_us_; }

  // Recovery (TransactionDB::Open): the transaction holds no locks.
  void SetSkipConcurrencyControl() { skip_concurrency_control_ = true; }

 protected:
  Status TryLock(uint32_t cf_id, const Slice& key, bool read_only, bool exclusive, bool do_validate,
                 bool assume_tracked) override;
  void UnlockKey(uint32_t cf_id, const std::string& key) override;

 private:
  void Initialize(const TransactionOptions& txn_options);
  // Releases every lock and forgets the state (not the snapshot).
  void Clear();
  void UnlockAll();
  Status CommitWithoutPrepare();
  // The error of Prepare / Commit in a state that allows neither.
  Status WrongStateError() const;
  // Drops the name from the DB's registry (if registered).
  void UnregisterName();
  Status CommitPrepared();

  PessimisticTransactionDBImpl* const txn_db_;
  TransactionID txn_id_ = 0;
  int64_t lock_timeout_us_ = 0;
  uint64_t expiration_time_us_ = 0;  // 0: never
  bool deadlock_detect_ = false;
  int64_t deadlock_detect_depth_ = 50;
  bool skip_concurrency_control_ = false;
  bool skip_prepare_ = true;
  size_t max_write_batch_size_ = 0;
  bool registered_name_ = false;
};

}  // namespace strata
