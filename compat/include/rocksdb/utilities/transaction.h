// rocksdb/utilities/transaction.h: a transaction of a TransactionDB or an
// OptimisticTransactionDB. Writes are buffered and reach the DB at Commit;
// reads through the transaction see its own writes. A wrapper over
// strata::Transaction with RocksDB's signatures (rocksdb::ReadOptions,
// Iterator* results); the semantics (locking, validation, statuses) are
// Strata's, which follow RocksDB's.
// Thread-safety: not thread-safe.
#pragma once

#include <cstdint>
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
namespace compat {
class TransactionRegistry;  // compat/transactions.cc
}  // namespace compat

using TransactionName = ::strata::TransactionName;
using TransactionID = ::strata::TransactionID;

class Transaction {
 public:
  // Made by TransactionDB / OptimisticTransactionDB::BeginTransaction.
  explicit Transaction(std::unique_ptr<::strata::Transaction> impl);
  virtual ~Transaction();
  Transaction(const Transaction&) = delete;
  void operator=(const Transaction&) = delete;

  virtual void SetSnapshot();
  virtual void SetSnapshotOnNextOperation();
  virtual const Snapshot* GetSnapshot() const;
  virtual void ClearSnapshot();
  virtual Status Prepare();
  virtual Status Commit();
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
  virtual Status GetForUpdate(const ReadOptions& options, ColumnFamilyHandle* column_family,
                              const Slice& key, std::string* value, bool exclusive = true,
                              const bool do_validate = true);
  virtual Status GetForUpdate(const ReadOptions& options, ColumnFamilyHandle* column_family,
                              const Slice& key, PinnableSlice* pinnable_val, bool exclusive = true,
                              const bool do_validate = true);
  virtual Status GetForUpdate(const ReadOptions& options, const Slice& key, std::string* value,
                              bool exclusive = true, const bool do_validate = true);
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
  virtual void PutLogData(const Slice& blob);
  virtual void DisableIndexing();
  virtual void EnableIndexing();
  virtual uint64_t GetNumKeys() const;
  virtual uint64_t GetNumPuts() const;
  virtual uint64_t GetNumDeletes() const;
  virtual uint64_t GetNumMerges() const;
  virtual uint64_t GetElapsedTime() const;
  virtual void SetLockTimeout(int64_t timeout);
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

 private:
  std::unique_ptr<::strata::Transaction> impl_;
  compat::TransactionRegistry* registry_ = nullptr;
  bool listed_ = false;
  std::unique_ptr<WriteBatchWithIndex> batch_view_;  // GetWriteBatch's, made on first use
};
}  // namespace rocksdb
