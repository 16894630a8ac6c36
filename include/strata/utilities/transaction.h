// Transaction: a group of reads and writes that commits atomically, with
// the conflict control of the DB that began it. Names and semantics are
// RocksDB's (rocksdb/utilities/transaction.h); the differences are Strata's
// ownership rules (std::unique_ptr for what the caller owns).
//
// Writes are buffered in the transaction's WriteBatchWithIndex and reach
// the DB only at Commit; reads through the transaction (Get, GetForUpdate,
// MultiGet, GetIterator) see its own writes over the DB's data. What
// differs by kind:
//  - Pessimistic (TransactionDB::BeginTransaction): every write and every
//    GetForUpdate locks its key first (exclusive, or shared with
//    GetForUpdate(exclusive = false)), waiting up to the lock timeout
//    (TimedOut with subcode kLockTimeout) or failing at once on a deadlock
//    (Busy with subcode kDeadlock). With a snapshot set, a locked key
//    written by someone else after the snapshot fails the operation with
//    Busy. Commit cannot fail on a conflict. Two-phase commit: SetName,
//    Prepare (writes the batch to the WAL between BeginPrepare and
//    EndPrepare(name) markers, durable across crashes), then Commit or
//    Rollback (a Commit(name) or Rollback(name) marker).
//  - Optimistic (OptimisticTransactionDB::BeginTransaction): nothing is
//    locked; Commit checks every key the transaction wrote or read with
//    GetForUpdate and fails with Busy if another write to it committed
//    after the transaction's snapshot (or after the key was first read,
//    without a snapshot), or with TryAgain if that can no longer be told.
//    Prepare is NotSupported.
//
// Save points: SetSavePoint marks the batch (and the keys locked or
// tracked since); RollbackToSavePoint undoes the writes after the most
// recent mark and unlocks the keys first locked after it.
//
// Thread-safety: not thread-safe: one transaction is used by one thread at
// a time (different transactions may run concurrently).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "strata/db.h"
#include "strata/export.h"
#include "strata/iterator.h"
#include "strata/options.h"
#include "strata/pinnable_slice.h"
#include "strata/slice.h"
#include "strata/snapshot.h"
#include "strata/status.h"
#include "strata/write_batch.h"

namespace strata {

class WriteBatchWithIndex;

using TransactionName = std::string;
using TransactionID = uint64_t;

// Told when a snapshot requested with SetSnapshotOnNextOperation is taken.
class STRATA_EXPORT TransactionNotifier {
 public:
  virtual ~TransactionNotifier();
  virtual void SnapshotCreated(const Snapshot* new_snapshot) = 0;
};

class STRATA_EXPORT Transaction {
 public:
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  // A transaction destroyed before Commit is rolled back (its locks are
  // released; a prepared one stays prepared in the WAL and comes back at
  // the next open, as in RocksDB).
  virtual ~Transaction();

  // ---- snapshots ----
  // Takes a snapshot now: reads without ReadOptions::snapshot still read
  // the latest data, but conflicts are checked against this point.
  virtual void SetSnapshot() = 0;
  // The snapshot is taken at the next write or GetForUpdate.
  virtual void SetSnapshotOnNextOperation(
      std::shared_ptr<TransactionNotifier> notifier = nullptr) = 0;
  // The snapshot set (owned by the transaction), or null.
  virtual const Snapshot* GetSnapshot() const = 0;
  // The same snapshot, shared: it stays valid while the caller holds it,
  // after the transaction has cleared or replaced it (RocksDB's name: a
  // transaction's snapshot is what its timestamped snapshot would be).
  virtual std::shared_ptr<const Snapshot> GetTimestampedSnapshot() const = 0;
  // Releases the snapshot; later operations are not checked against it.
  virtual void ClearSnapshot() = 0;

  // ---- commit ----
  // Two-phase commit, first phase (pessimistic, named transactions only):
  // InvalidArgument when the transaction has no name or is past STARTED.
  virtual Status Prepare() = 0;
  // Writes the transaction's batch. Optimistic: Busy/TryAgain on a
  // conflict (the transaction is then unchanged and may be rolled back).
  // Pessimistic: after a Prepare, writes the Commit marker; an unprepared
  // named transaction commits directly (skip_prepare, RocksDB's default).
  virtual Status Commit() = 0;
  // Drops the writes and releases the locks; a prepared transaction writes
  // a Rollback marker.
  virtual Status Rollback() = 0;

  virtual void SetSavePoint() = 0;
  // NotFound when no save point is set.
  virtual Status RollbackToSavePoint() = 0;
  virtual Status PopSavePoint() = 0;

  // ---- reads: the transaction's own writes over the DB ----
  virtual Status Get(const ReadOptions& options, ColumnFamilyHandle* cf, const Slice& key,
                     std::string* value) = 0;
  Status Get(const ReadOptions& options, const Slice& key, std::string* value) {
    return Get(options, nullptr, key, value);
  }
  Status Get(const ReadOptions& options, ColumnFamilyHandle* cf, const Slice& key,
             PinnableSlice* value);
  Status Get(const ReadOptions& options, const Slice& key, PinnableSlice* value) {
    return Get(options, nullptr, key, value);
  }
  virtual std::vector<Status> MultiGet(const ReadOptions& options,
                                       const std::vector<ColumnFamilyHandle*>& cfs,
                                       const std::vector<Slice>& keys,
                                       std::vector<std::string>* values) = 0;
  std::vector<Status> MultiGet(const ReadOptions& options, const std::vector<Slice>& keys,
                               std::vector<std::string>* values);
  // Reads key and locks it (pessimistic: shared or exclusive; optimistic:
  // tracks it for the commit check). value may be null (lock only). With a
  // snapshot set and do_validate, a write to key after the snapshot fails
  // with Busy.
  virtual Status GetForUpdate(const ReadOptions& options, ColumnFamilyHandle* cf, const Slice& key,
                              std::string* value, bool exclusive = true,
                              bool do_validate = true) = 0;
  Status GetForUpdate(const ReadOptions& options, const Slice& key, std::string* value,
                      bool exclusive = true, bool do_validate = true) {
    return GetForUpdate(options, nullptr, key, value, exclusive, do_validate);
  }
  Status GetForUpdate(const ReadOptions& options, ColumnFamilyHandle* cf, const Slice& key,
                      PinnableSlice* value, bool exclusive = true, bool do_validate = true);
  virtual std::vector<Status> MultiGetForUpdate(const ReadOptions& options,
                                                const std::vector<ColumnFamilyHandle*>& cfs,
                                                const std::vector<Slice>& keys,
                                                std::vector<std::string>* values) = 0;
  std::vector<Status> MultiGetForUpdate(const ReadOptions& options, const std::vector<Slice>& keys,
                                        std::vector<std::string>* values);
  // An iterator over the transaction's writes merged with the DB (at
  // options.snapshot, or the latest data). Valid while the transaction is;
  // writes made through the transaction after it was created are seen
  // after the next Seek. Keys read through it are not locked.
  virtual std::unique_ptr<Iterator> GetIterator(const ReadOptions& options,
                                                ColumnFamilyHandle* cf) = 0;
  std::unique_ptr<Iterator> GetIterator(const ReadOptions& options) {
    return GetIterator(options, nullptr);
  }

  // ---- writes: locked (or tracked) first ----
  // assume_tracked: the key is already locked by this transaction (skips
  // the lock manager; InvalidArgument if it is not).
  virtual Status Put(ColumnFamilyHandle* cf, const Slice& key, const Slice& value,
                     bool assume_tracked = false) = 0;
  Status Put(const Slice& key, const Slice& value) { return Put(nullptr, key, value); }
  virtual Status Merge(ColumnFamilyHandle* cf, const Slice& key, const Slice& value,
                       bool assume_tracked = false) = 0;
  Status Merge(const Slice& key, const Slice& value) { return Merge(nullptr, key, value); }
  virtual Status Delete(ColumnFamilyHandle* cf, const Slice& key, bool assume_tracked = false) = 0;
  Status Delete(const Slice& key) { return Delete(nullptr, key); }
  virtual Status SingleDelete(ColumnFamilyHandle* cf, const Slice& key,
                              bool assume_tracked = false) = 0;
  Status SingleDelete(const Slice& key) { return SingleDelete(nullptr, key); }
  // Writes never checked against the snapshot (a pessimistic transaction
  // still locks the key, as RocksDB's; an optimistic one does not track
  // it for the commit check).
  virtual Status PutUntracked(ColumnFamilyHandle* cf, const Slice& key, const Slice& value) = 0;
  Status PutUntracked(const Slice& key, const Slice& value) {
    return PutUntracked(nullptr, key, value);
  }
  virtual Status MergeUntracked(ColumnFamilyHandle* cf, const Slice& key, const Slice& value) = 0;
  Status MergeUntracked(const Slice& key, const Slice& value) {
    return MergeUntracked(nullptr, key, value);
  }
  virtual Status DeleteUntracked(ColumnFamilyHandle* cf, const Slice& key) = 0;
  Status DeleteUntracked(const Slice& key) { return DeleteUntracked(nullptr, key); }
  virtual Status SingleDeleteUntracked(ColumnFamilyHandle* cf, const Slice& key) = 0;
  Status SingleDeleteUntracked(const Slice& key) { return SingleDeleteUntracked(nullptr, key); }
  virtual void PutLogData(const Slice& blob) = 0;

  // Writes after DisableIndexing are not indexed: reads through the
  // transaction do not see them (RocksDB's bulk-write switch).
  virtual void DisableIndexing() = 0;
  virtual void EnableIndexing() = 0;

  // ---- state ----
  virtual uint64_t GetNumKeys() const = 0;  // keys locked or tracked
  virtual uint64_t GetNumPuts() const = 0;
  virtual uint64_t GetNumDeletes() const = 0;
  virtual uint64_t GetNumMerges() const = 0;
  // Milliseconds since the transaction began.
  virtual uint64_t GetElapsedTime() const = 0;
  // The transaction's batch (owned by the transaction).
  virtual WriteBatchWithIndex* GetWriteBatch() = 0;
  // Milliseconds to wait for a lock (< 0: the DB's default).
  virtual void SetLockTimeout(int64_t timeout_ms) = 0;
  virtual WriteOptions* GetWriteOptions() = 0;
  virtual void SetWriteOptions(const WriteOptions& write_options) = 0;
  // Releases the lock GetForUpdate took on key, if no write since needs it.
  virtual void UndoGetForUpdate(ColumnFamilyHandle* cf, const Slice& key) = 0;
  void UndoGetForUpdate(const Slice& key) { UndoGetForUpdate(nullptr, key); }
  // Replays src_batch's writes into the transaction (locking their keys).
  virtual Status RebuildFromWriteBatch(WriteBatch* src_batch) = 0;
  // A batch written to the WAL with the Commit marker and applied with the
  // transaction (pessimistic two-phase commit).
  virtual WriteBatch* GetCommitTimeWriteBatch() = 0;

  // Two-phase commit: the WAL holding the prepared section.
  virtual void SetLogNumber(uint64_t log) { log_number_ = log; }
  virtual uint64_t GetLogNumber() const { return log_number_; }
  // Names the transaction (required before Prepare): at most 512 bytes,
  // unique among the DB's live transactions (InvalidArgument otherwise).
  virtual Status SetName(const TransactionName& name) = 0;
  virtual TransactionName GetName() const { return name_; }
  // A number unique among the DB's transactions (pessimistic; 0 for
  // optimistic ones).
  virtual TransactionID GetID() const { return 0; }
  virtual bool IsDeadlockDetect() const { return false; }
  // The transactions this one waits for, and for which key (pessimistic).
  virtual std::vector<TransactionID> GetWaitingTxns(uint32_t* column_family_id,
                                                    std::string* key) const {
    (void)column_family_id, (void)key;
    return {};
  }

  // RocksDB's values (persisted by nobody; kept for the C API).
  enum TransactionState {
    STARTED = 0,
    AWAITING_PREPARE = 1,
    PREPARED = 2,
    AWAITING_COMMIT = 3,
    COMMITTED = 4,
    COMMITED = COMMITTED,  // RocksDB's old spelling
    AWAITING_ROLLBACK = 5,
    ROLLEDBACK = 6,
    LOCKS_STOLEN = 7,
  };
  TransactionState GetState() const { return txn_state_.load(std::memory_order_acquire); }
  void SetState(TransactionState state) { txn_state_.store(state, std::memory_order_release); }
  uint64_t GetId() const { return id_; }

 protected:
  Transaction() = default;

  uint64_t log_number_ = 0;
  TransactionName name_;
  // acquire/release: a lock stealer and the owner race on it (expiration).
  std::atomic<TransactionState> txn_state_{STARTED};
  uint64_t id_ = 0;
};

}  // namespace strata
