// rocksdb/utilities/transaction.h: a transaction of a TransactionDB or an
// OptimisticTransactionDB. Writes are buffered and reach the DB at Commit;
// reads through the transaction see its own writes. A wrapper over
// strata::Transaction with RocksDB's signatures (rocksdb::ReadOptions,
// Iterator* results); the semantics (locking, validation, statuses) are
// Strata's, which follow RocksDB's.
//
// Not in Strata, answered as RocksDB answers when the feature is absent:
// range locks (GetRangeLock: NotSupported, as RocksDB's point-lock
// manager), timestamped snapshots (CommitAndTryCreateSnapshot refuses
// after RocksDB's commit-timestamp checks, see below). The commit and
// read timestamps are kept and checked as RocksDB's WRITE_COMMITTED
// transaction does; with no user-defined timestamps they change nothing
// else, as in RocksDB.
// Thread-safety: not thread-safe.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "rocksdb/db.h"
#include "rocksdb/iterator.h"
#include "rocksdb/options.h"
#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/slice.h"
#include "rocksdb/status.h"
#include "rocksdb/utilities/write_batch_with_index.h"
#include "strata/utilities/transaction.h"

namespace rocksdb {
class TransactionDB;

namespace compat {
class TransactionRegistry;  // compat/transactions.cc
}  // namespace compat

using TransactionName = ::strata::TransactionName;
using TransactionID = ::strata::TransactionID;
using TxnTimestamp = uint64_t;
constexpr TxnTimestamp kMaxTxnTimestamp = std::numeric_limits<TxnTimestamp>::max();

// An end of a key range for range locking (RocksDB's): the key, and
// whether it stands for the key followed by a suffix greater than any
// other (so that {prefix, true} is past every key with that prefix).
// Strata locks single keys only: GetRangeLock answers NotSupported.
class Endpoint {
 public:
  Slice slice;
  bool inf_suffix;

  explicit Endpoint(const Slice& slice_arg, bool inf_suffix_arg = false)
      : slice(slice_arg), inf_suffix(inf_suffix_arg) {}
  explicit Endpoint(const char* s, bool inf_suffix_arg = false)
      : slice(s), inf_suffix(inf_suffix_arg) {}
  Endpoint(const char* s, size_t size, bool inf_suffix_arg = false)
      : slice(s, size), inf_suffix(inf_suffix_arg) {}
  Endpoint() : inf_suffix(false) {}
};

// Told (SnapshotCreated) when the snapshot SetSnapshotOnNextOperation asked
// for is taken, at the transaction's next write or GetForUpdate. Strata's
// class.
using TransactionNotifier = ::strata::TransactionNotifier;

class Transaction {
 public:
  // Made by TransactionDB / OptimisticTransactionDB::BeginTransaction.
  explicit Transaction(std::unique_ptr<::strata::Transaction> impl);
  virtual ~Transaction();
  Transaction(const Transaction&) = delete;
  void operator=(const Transaction&) = delete;

  virtual void SetSnapshot();
  // notifier (may be null) is called with the snapshot when it is taken.
  virtual void SetSnapshotOnNextOperation(std::shared_ptr<TransactionNotifier> notifier = nullptr);
  virtual const Snapshot* GetSnapshot() const;
  // The transaction's snapshot (null if none), shared: it stays valid while
  // the caller holds it (but not past the DB).
  virtual std::shared_ptr<const Snapshot> GetTimestampedSnapshot() const;
  virtual void ClearSnapshot();
  virtual Status Prepare();
  virtual Status Commit();
  // RocksDB's checks first: with no commit timestamp set and ts
  // kMaxTxnTimestamp, InvalidArgument "Commit timestamp unset"; a ts other
  // than the one set, InvalidArgument "Different commit ts specified"; an
  // optimistic transaction refuses any timestamp (NotSupported). Then,
  // since Strata has no timestamped snapshots, NotSupported naming the
  // call, before committing (the transaction is unchanged; Commit still
  // works). *snapshot (if given) is reset.
  Status CommitAndTryCreateSnapshot(
      std::shared_ptr<TransactionNotifier> notifier = std::shared_ptr<TransactionNotifier>(),
      TxnTimestamp ts = kMaxTxnTimestamp, std::shared_ptr<const Snapshot>* snapshot = nullptr);
  virtual Status Rollback();
  virtual void SetSavePoint();
  virtual Status RollbackToSavePoint();
  virtual Status PopSavePoint();

  virtual Status Get(const ReadOptions& options, ColumnFamilyHandle* column_family,
                     const Slice& key, std::string* value);
  virtual Status Get(const ReadOptions& options, const Slice& key, std::string* value);
  virtual Status Get(const ReadOptions& options, ColumnFamilyHandle* column_family,
                     const Slice& key, PinnableSlice* value);
  virtual Status Get(const ReadOptions& options, const Slice& key, PinnableSlice* value);
  virtual std::vector<Status> MultiGet(const ReadOptions& options,
                                       const std::vector<ColumnFamilyHandle*>& column_family,
                                       const std::vector<Slice>& keys,
                                       std::vector<std::string>* values);
  virtual std::vector<Status> MultiGet(const ReadOptions& options, const std::vector<Slice>& keys,
                                       std::vector<std::string>* values);
  // One Get per key into values[i] / statuses[i] (sorted_input is a hint).
  virtual void MultiGet(const ReadOptions& options, ColumnFamilyHandle* column_family,
                        const size_t num_keys, const Slice* keys, PinnableSlice* values,
                        Status* statuses, const bool sorted_input = false);
  virtual Status GetForUpdate(const ReadOptions& options, ColumnFamilyHandle* column_family,
                              const Slice& key, std::string* value, bool exclusive = true,
                              const bool do_validate = true);
  virtual Status GetForUpdate(const ReadOptions& options, ColumnFamilyHandle* column_family,
                              const Slice& key, PinnableSlice* pinnable_val, bool exclusive = true,
                              const bool do_validate = true);
  virtual Status GetForUpdate(const ReadOptions& options, const Slice& key, std::string* value,
                              bool exclusive = true, const bool do_validate = true);
  // Strata locks single keys: NotSupported (RocksDB's answer without a
  // range lock manager).
  virtual Status GetRangeLock(ColumnFamilyHandle* column_family, const Endpoint& start_endp,
                              const Endpoint& end_endp);
  virtual std::vector<Status> MultiGetForUpdate(
      const ReadOptions& options, const std::vector<ColumnFamilyHandle*>& column_family,
      const std::vector<Slice>& keys, std::vector<std::string>* values);
  virtual std::vector<Status> MultiGetForUpdate(const ReadOptions& options,
                                                const std::vector<Slice>& keys,
                                                std::vector<std::string>* values);
  // The caller deletes the iterator (before the transaction).
  virtual Iterator* GetIterator(const ReadOptions& read_options);
  virtual Iterator* GetIterator(const ReadOptions& read_options, ColumnFamilyHandle* column_family);

  virtual Status Put(ColumnFamilyHandle* column_family, const Slice& key, const Slice& value,
                     const bool assume_tracked = false);
  virtual Status Put(const Slice& key, const Slice& value);
  virtual Status Merge(ColumnFamilyHandle* column_family, const Slice& key, const Slice& value,
                       const bool assume_tracked = false);
  virtual Status Merge(const Slice& key, const Slice& value);
  virtual Status Delete(ColumnFamilyHandle* column_family, const Slice& key,
                        const bool assume_tracked = false);
  virtual Status Delete(const Slice& key);
  virtual Status SingleDelete(ColumnFamilyHandle* column_family, const Slice& key,
                              const bool assume_tracked = false);
  virtual Status SingleDelete(const Slice& key);
  virtual Status PutUntracked(ColumnFamilyHandle* column_family, const Slice& key,
                              const Slice& value);
  virtual Status PutUntracked(const Slice& key, const Slice& value);
  virtual Status MergeUntracked(ColumnFamilyHandle* column_family, const Slice& key,
                                const Slice& value);
  virtual Status MergeUntracked(const Slice& key, const Slice& value);
  virtual Status DeleteUntracked(ColumnFamilyHandle* column_family, const Slice& key);
  virtual Status DeleteUntracked(const Slice& key);
  // The SliceParts forms write the concatenation of the parts, as RocksDB.
  virtual Status Put(ColumnFamilyHandle* column_family, const SliceParts& key,
                     const SliceParts& value, const bool assume_tracked = false);
  virtual Status Put(const SliceParts& key, const SliceParts& value);
  virtual Status Delete(ColumnFamilyHandle* column_family, const SliceParts& key,
                        const bool assume_tracked = false);
  virtual Status Delete(const SliceParts& key);
  virtual Status SingleDelete(ColumnFamilyHandle* column_family, const SliceParts& key,
                              const bool assume_tracked = false);
  virtual Status SingleDelete(const SliceParts& key);
  virtual Status PutUntracked(ColumnFamilyHandle* column_family, const SliceParts& key,
                              const SliceParts& value);
  virtual Status PutUntracked(const SliceParts& key, const SliceParts& value);
  virtual Status DeleteUntracked(ColumnFamilyHandle* column_family, const SliceParts& key);
  virtual Status DeleteUntracked(const SliceParts& key);
  virtual Status SingleDeleteUntracked(ColumnFamilyHandle* column_family, const Slice& key);
  virtual Status SingleDeleteUntracked(const Slice& key);
  virtual void PutLogData(const Slice& blob);
  virtual void DisableIndexing();
  virtual void EnableIndexing();
  virtual uint64_t GetNumKeys() const;
  virtual uint64_t GetNumPuts() const;
  virtual uint64_t GetNumDeletes() const;
  virtual uint64_t GetNumMerges() const;
  virtual uint64_t GetElapsedTime() const;
  virtual void SetLockTimeout(int64_t timeout);
  // The options the transaction's Prepare, Commit and Rollback write with
  // (owned by the transaction; changes made through the pointer apply from
  // the next of those calls). SetWriteOptions replaces them.
  virtual WriteOptions* GetWriteOptions();
  virtual void SetWriteOptions(const WriteOptions& write_options);
  virtual void UndoGetForUpdate(ColumnFamilyHandle* column_family, const Slice& key);
  virtual void UndoGetForUpdate(const Slice& key);
  virtual Status RebuildFromWriteBatch(WriteBatch* src_batch);
  // The transaction's indexed batch (its writes so far), owned by the
  // transaction and valid until it is deleted or begun again.
  virtual WriteBatchWithIndex* GetWriteBatch();
  virtual WriteBatch* GetCommitTimeWriteBatch();
  virtual Status SetName(const TransactionName& name);
  virtual TransactionName GetName() const;
  virtual TransactionID GetID() const;
  // Two-phase commit: the WAL holding the prepared section.
  virtual void SetLogNumber(uint64_t log);
  virtual uint64_t GetLogNumber() const;
  virtual bool IsDeadlockDetect() const;
  // The transactions this one is waiting for now (empty when it is not
  // waiting), with the column family id and key it waits on.
  virtual std::vector<TransactionID> GetWaitingTxns(uint32_t* column_family_id,
                                                    std::string* key) const;
  // Timestamps (RocksDB's WRITE_COMMITTED transaction rules): a commit
  // timestamp must be above the read timestamp, and the read timestamp
  // cannot go down (InvalidArgument). Optimistic transactions answer
  // NotSupported "timestamp not supported". Without user-defined
  // timestamps they have no other effect, as in RocksDB.
  virtual Status SetReadTimestampForValidation(TxnTimestamp ts);
  virtual Status SetCommitTimestamp(TxnTimestamp ts);
  virtual TxnTimestamp GetCommitTimestamp() const;

  // RocksDB's states and values; the Strata transaction underneath keeps
  // the state (Prepare, Commit and Rollback move it).
  using TransactionState = ::strata::Transaction::TransactionState;
  static constexpr TransactionState STARTED = ::strata::Transaction::STARTED;
  static constexpr TransactionState AWAITING_PREPARE = ::strata::Transaction::AWAITING_PREPARE;
  static constexpr TransactionState PREPARED = ::strata::Transaction::PREPARED;
  static constexpr TransactionState AWAITING_COMMIT = ::strata::Transaction::AWAITING_COMMIT;
  static constexpr TransactionState COMMITTED = ::strata::Transaction::COMMITTED;
  static constexpr TransactionState COMMITED = ::strata::Transaction::COMMITED;
  static constexpr TransactionState AWAITING_ROLLBACK = ::strata::Transaction::AWAITING_ROLLBACK;
  static constexpr TransactionState ROLLEDBACK = ::strata::Transaction::ROLLEDBACK;
  static constexpr TransactionState LOCKS_STOLEN = ::strata::Transaction::LOCKS_STOLEN;
  TransactionState GetState() const { return impl_->GetState(); }
  void SetState(TransactionState state) { impl_->SetState(state); }
  uint64_t GetId() { return impl_->GetId(); }

  // The Strata transaction underneath (for BeginTransaction's reuse).
  std::unique_ptr<::strata::Transaction>& strata_transaction() { return impl_; }
  // The TransactionDB that lists this transaction once it is named
  // (GetTransactionByName, GetAllPreparedTransactions); listed_ says
  // whether it does now. Both are the registry's to set.
  void set_registry(compat::TransactionRegistry* registry) { registry_ = registry; }
  void set_listed(bool listed) { listed_ = listed; }
  bool listed() const { return listed_; }
  // (Re)begun: a TransactionDB's (locking) transaction or not, with these
  // write options; the timestamps are unset again. BeginTransaction's.
  void Begun(bool pessimistic, const WriteOptions& write_options) {
    pessimistic_ = pessimistic;
    write_options_ = write_options;
    read_timestamp_ = kMaxTxnTimestamp;
    commit_timestamp_ = kMaxTxnTimestamp;
  }

 private:
  std::unique_ptr<::strata::Transaction> impl_;
  compat::TransactionRegistry* registry_ = nullptr;
  bool listed_ = false;
  bool pessimistic_ = false;
  std::unique_ptr<WriteBatchWithIndex> batch_view_;  // GetWriteBatch's, made on first use
  WriteOptions write_options_;  // GetWriteOptions'; handed to impl_ before each commit step
  TxnTimestamp read_timestamp_ = kMaxTxnTimestamp;
  TxnTimestamp commit_timestamp_ = kMaxTxnTimestamp;

  // Converts write_options_ and gives them to impl_.
  Status ApplyWriteOptions();
};
}  // namespace rocksdb
