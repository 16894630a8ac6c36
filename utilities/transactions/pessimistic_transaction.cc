// PessimisticTransaction (see the header for the contract).
#include "utilities/transactions/pessimistic_transaction.h"

#include "db/db_impl.h"
#include "db/write_batch_internal.h"
#include "utilities/transactions/pessimistic_transaction_db.h"

namespace strata {

PessimisticTransaction::PessimisticTransaction(PessimisticTransactionDBImpl* txn_db,
                                               const WriteOptions& write_options,
                                               const TransactionOptions& txn_options)
    : TransactionBase(txn_db, txn_db->dbimpl(), write_options), txn_db_(txn_db) {
  Initialize(txn_options);
}

PessimisticTransaction::~PessimisticTransaction() {
  // A prepared transaction stays prepared in the WAL (it comes back at the
  // next open); its locks go now.
  UnlockAll();
  if (expiration_time_us_ != 0) txn_db_->UnregisterExpirable(this);
  UnregisterName();
  txn_db_->Forget(this);
}

void PessimisticTransaction::Initialize(const TransactionOptions& o) {
  const TransactionDBOptions& db_options = txn_db_->txn_db_options();
  txn_id_ = txn_db_->NextTransactionId();
  id_ = txn_id_;
  const int64_t timeout_ms =
      o.lock_timeout < 0 ? db_options.transaction_lock_timeout : o.lock_timeout;
  lock_timeout_us_ = timeout_ms < 0 ? -1 : timeout_ms * 1000;
  deadlock_detect_ = o.deadlock_detect;
  deadlock_detect_depth_ = o.deadlock_detect_depth;
  skip_concurrency_control_ = o.skip_concurrency_control || db_options.skip_concurrency_control;
  skip_prepare_ = o.skip_prepare;
  expiration_time_us_ =
      o.expiration >= 0 ? start_time_us_ + static_cast<uint64_t>(o.expiration) * 1000 : 0;
  if (max_write_batch_size_ != o.max_write_batch_size) {
    max_write_batch_size_ = o.max_write_batch_size;
    write_batch_ =
        std::make_unique<WriteBatchWithIndex>(BytewiseComparator(), 0,
                                              /*overwrite_key=*/true, max_write_batch_size_);
    if (dbimpl_->allow_2pc()) WriteBatchInternal::InsertNoop(write_batch_->GetWriteBatch());
  }
  if (expiration_time_us_ != 0) txn_db_->RegisterExpirable(this);
  if (o.set_snapshot) SetSnapshot();
}

void PessimisticTransaction::Reinitialize(const WriteOptions& write_options,
                                          const TransactionOptions& txn_options) {
  UnlockAll();
  if (expiration_time_us_ != 0) txn_db_->UnregisterExpirable(this);
  UnregisterName();
  Reset(write_options);
  Initialize(txn_options);
}

void PessimisticTransaction::SetLockTimeout(int64_t timeout_ms) {
  lock_timeout_us_ = timeout_ms < 0 ? -1 : timeout_ms * 1000;
}

bool PessimisticTransaction::IsExpired() const {
  return expiration_time_us_ != 0 &&
         db_->GetEnv()->GetSystemClock()->NowMicros() >= expiration_time_us_;
}

bool PessimisticTransaction::TryStealingLocks() {
  TransactionState expected = STARTED;
  if (txn_state_.compare_exchange_strong(expected, LOCKS_STOLEN, std::memory_order_acq_rel)) {
    return true;
  }
  return expected == LOCKS_STOLEN;
}

std::vector<TransactionID> PessimisticTransaction::GetWaitingTxns(uint32_t* column_family_id,
                                                                  std::string* key) const {
  return txn_db_->lock_manager().GetWaitingTxns(txn_id_, column_family_id, key);
}

// ---- locking ----

Status PessimisticTransaction::TryLock(uint32_t cf_id, const Slice& key, bool read_only,
                                       bool exclusive, bool do_validate, bool assume_tracked) {
  if (skip_concurrency_control_) return Status::OK();
  std::string key_str = key.ToString();
  bool previously_locked = false;
  bool previously_exclusive = false;
  SequenceNumber tracked_at_seq = kMaxSequenceNumber;
  auto cf_it = tracked_keys_.find(cf_id);
  if (cf_it != tracked_keys_.end()) {
    auto it = cf_it->second.find(key_str);
    if (it != cf_it->second.end()) {
      previously_locked = true;
      previously_exclusive = it->second.exclusive;
      tracked_at_seq = it->second.seq;
    }
  }
  if (assume_tracked && !previously_locked) {
    return Status::InvalidArgument("assume_tracked is set but it is not tracked yet");
  }
  const bool lock_upgrade = previously_locked && exclusive && !previously_exclusive;
  if (!previously_locked || lock_upgrade) {
    if (GetState() == LOCKS_STOLEN) return Status::Expired();
    LockRequest req;
    req.txn_id = txn_id_;
    req.cf_id = cf_id;
    req.exclusive = exclusive;
    req.timeout_us = lock_timeout_us_;
    req.expiration_time_us = expiration_time_us_;
    req.deadlock_detect = deadlock_detect_;
    req.deadlock_detect_depth = deadlock_detect_depth_;
    Status s = txn_db_->lock_manager().TryLock(req, key);
    if (!s.ok()) return s;
  }
  if (do_validate && snapshot_ != nullptr) {
    // A key locked (or read) at or before the snapshot was checked then.
    const SequenceNumber snap = snapshot_->GetSequenceNumber();
    if (tracked_at_seq == kMaxSequenceNumber || tracked_at_seq > snap) {
      DBImpl::KeyToCheck k{key, snap};
      Status s = dbimpl_->CheckKeysForConflicts(cf_id, &k, 1, /*cache_only=*/false);
      if (!s.ok()) {
        if (!previously_locked) txn_db_->lock_manager().UnLock(txn_id_, cf_id, key);
        return s;
      }
    }
    tracked_at_seq = std::min(tracked_at_seq, snap);
  } else if (tracked_at_seq == kMaxSequenceNumber) {
    // Unchanged since it was locked, at least.
    tracked_at_seq = db_->GetLatestSequenceNumber();
  }
  TrackKey(cf_id, key_str, tracked_at_seq, read_only, exclusive);
  return Status::OK();
}

void PessimisticTransaction::UnlockKey(uint32_t cf_id, const std::string& key) {
  if (skip_concurrency_control_) return;
  txn_db_->lock_manager().UnLock(txn_id_, cf_id, key);
}

void PessimisticTransaction::UnlockAll() {
  if (skip_concurrency_control_) return;
  std::vector<std::string> keys;
  for (const auto& [cf, tracked] : tracked_keys_) {
    keys.clear();
    keys.reserve(tracked.size());
    for (const auto& [key, info] : tracked) keys.push_back(key);
    txn_db_->lock_manager().UnLock(txn_id_, cf, keys);
  }
}

void PessimisticTransaction::Clear() {
  UnlockAll();
  ClearState();
}

// ---- names ----

Status PessimisticTransaction::SetName(const TransactionName& name) {
  if (GetState() != STARTED)
    return Status::InvalidArgument("Transaction is beyond state for naming.");
  if (!name_.empty()) return Status::InvalidArgument("Transaction has already been named.");
  if (name.empty()) return Status::InvalidArgument("Transaction name must not be empty.");
  if (name.size() > 512) {
    return Status::InvalidArgument("Transaction name length must be less than 512 bytes.");
  }
  Status s = txn_db_->RegisterName(name, this);
  if (!s.ok()) return s;
  name_ = name;
  registered_name_ = true;
  return Status::OK();
}

// ---- two-phase commit ----

Status PessimisticTransaction::WrongStateError() const {
  // RocksDB's answers to Prepare or Commit in a state that allows neither
  // (Commit never gets here PREPARED: that is its normal path).
  switch (GetState()) {
    case LOCKS_STOLEN:
      return Status::Expired();
    case PREPARED:
      return Status::InvalidArgument("Transaction has already been prepared.");
    case COMMITTED:
      return Status::InvalidArgument("Transaction has already been committed.");
    case ROLLEDBACK:
      return Status::InvalidArgument("Transaction has already been rolledback.");
    default:
      return Status::InvalidArgument("Transaction is not in state for commit.");
  }
}

void PessimisticTransaction::UnregisterName() {
  if (!registered_name_) return;
  txn_db_->UnregisterName(name_, this);
  registered_name_ = false;
}

Status PessimisticTransaction::Prepare() {
  if (name_.empty()) {
    return Status::InvalidArgument("Cannot prepare a transaction that has not been named.");
  }
  if (IsExpired()) return Status::Expired();
  bool can_prepare = false;
  if (expiration_time_us_ != 0) {
    // A lock stealer may change the state under us.
    TransactionState expected = STARTED;
    can_prepare =
        txn_state_.compare_exchange_strong(expected, AWAITING_PREPARE, std::memory_order_acq_rel);
  } else if (GetState() == STARTED) {
    SetState(AWAITING_PREPARE);
    can_prepare = true;
  }
  if (!can_prepare) {
    return WrongStateError();
  }
  // A prepared transaction cannot expire.
  if (expiration_time_us_ != 0) {
    txn_db_->UnregisterExpirable(this);
    expiration_time_us_ = 0;
  }
  WriteBatch* batch = write_batch_->GetWriteBatch();
  Status s = WriteBatchInternal::MarkEndPrepare(batch, name_);
  if (s.ok()) {
    WriteOptions o = write_options_;
    o.disableWAL = false;  // the prepared section lives in the WAL
    DBImpl::TxnWrite txn;
    txn.disable_memtable = true;
    txn.prepare_section = true;
    txn.log_used = &log_number_;
    s = dbimpl_->WriteWithTxn(o, batch, txn);
  }
  if (s.ok()) {
    SetState(PREPARED);
  } else {
    SetState(STARTED);
  }
  return s;
}

Status PessimisticTransaction::Commit() {
  if (IsExpired()) return Status::Expired();
  bool commit_without_prepare = false;
  bool commit_prepared = false;
  if (expiration_time_us_ != 0) {
    TransactionState expected = STARTED;
    commit_without_prepare =
        txn_state_.compare_exchange_strong(expected, AWAITING_COMMIT, std::memory_order_acq_rel);
  } else if (GetState() == PREPARED) {
    commit_prepared = true;
  } else if (GetState() == STARTED) {
    if (!skip_prepare_ && !name_.empty()) return Status::TxnNotPrepared();
    commit_without_prepare = true;
  }
  Status s;
  if (commit_without_prepare) {
    if (WriteBatchInternal::Count(&commit_time_batch_) > 0) {
      SetState(STARTED);
      return Status::InvalidArgument(
          "Commit-time batch contains values that will not be committed.");
    }
    SetState(AWAITING_COMMIT);
    s = CommitWithoutPrepare();
    UnregisterName();
    Clear();
    if (s.ok()) SetState(COMMITTED);
  } else if (commit_prepared) {
    SetState(AWAITING_COMMIT);
    s = CommitPrepared();
    if (!s.ok()) {
      // Still prepared: the commit may be retried (or rolled back).
      SetState(PREPARED);
      return s;
    }
    dbimpl_->MarkPrepSectionResolved(log_number_);
    UnregisterName();
    Clear();
    SetState(COMMITTED);
  } else {
    return WrongStateError();
  }
  return s;
}

Status PessimisticTransaction::CommitWithoutPrepare() {
  WriteBatch* batch = write_batch_->GetWriteBatch();
  // Nothing written: nothing to log (RocksDB logs the empty batch).
  if (WriteBatchInternal::Count(batch) == 0) return Status::OK();
  DBImpl::TxnWrite txn;
  return dbimpl_->WriteWithTxn(write_options_, batch, txn);
}

Status PessimisticTransaction::CommitPrepared() {
  // The WAL gets the commit-time batch and the Commit marker; the prepared
  // records, already logged, follow behind the termination point for the
  // memtables only (RocksDB's WriteCommittedTxn::CommitInternal).
  WriteBatch* working = &commit_time_batch_;
  Status s = WriteBatchInternal::MarkCommit(working, name_);
  if (!s.ok()) return s;
  working->MarkWalTerminationPoint();
  WriteBatchInternal::Append(working, write_batch_->GetWriteBatch());
  DBImpl::TxnWrite txn;
  txn.log_ref = log_number_;
  s = dbimpl_->WriteWithTxn(write_options_, working, txn);
  if (!s.ok()) {
    // Back to the commit-time batch alone, for a retry.
    working->Clear();
  }
  return s;
}

Status PessimisticTransaction::Rollback() {
  const TransactionState state = GetState();
  if (state == PREPARED) {
    SetState(AWAITING_ROLLBACK);
    WriteBatch marker;
    Status s = WriteBatchInternal::MarkRollback(&marker, name_);
    if (s.ok()) {
      DBImpl::TxnWrite txn;
      txn.disable_memtable = true;
      s = dbimpl_->WriteWithTxn(write_options_, &marker, txn);
    }
    if (!s.ok()) {
      SetState(PREPARED);
      return s;
    }
    dbimpl_->MarkPrepSectionResolved(log_number_);
    Clear();
    SetState(ROLLEDBACK);
    return Status::OK();
  }
  if (state == STARTED || state == LOCKS_STOLEN) {
    // Nothing was logged: dropping the batch and the locks is enough.
    Clear();
    return Status::OK();
  }
  if (state == COMMITTED) {
    return Status::InvalidArgument("This transaction has already been committed.");
  }
  return Status::InvalidArgument("Two phase transaction is not in state for rollback.");
}

Status PessimisticTransaction::RollbackToSavePoint() {
  if (GetState() != STARTED) {
    return Status::InvalidArgument("Transaction is beyond state for rollback.");
  }
  return TransactionBase::RollbackToSavePoint();
}

}  // namespace strata
