// PessimisticTransactionDBImpl: TransactionDB for the WRITE_COMMITTED
// policy. It owns the PointLockManager, the registry of named transactions
// (SetName, GetTransactionByName, GetAllPreparedTransactions) and of
// expirable ones (lock stealing), and makes the DB's plain writes lock
// their keys: Put, Delete, SingleDelete and Merge lock one key for the
// write; Write locks every key of the batch in sorted order (so batches
// never deadlock each other), writes, and unlocks.
//
// At open, the prepared transactions the engine recovered from the WALs
// become PREPARED transactions owned by this object (holding no locks:
// RocksDB's rule, since nothing else runs before the application resolves
// them); the caller may delete them after resolving them, and the rest are
// deleted at close.
//
// Thread-safety: thread-safe. Lock order: name_mu_ and expirable_mu_ are
// leaves (never held while taking another lock; the lock manager's stripe
// mutexes are not held when it calls StealLocks).
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "strata/utilities/transaction_db.h"
#include "utilities/transactions/lock/point_lock_manager.h"

namespace strata {

class DBImpl;
class PessimisticTransaction;

class PessimisticTransactionDBImpl final : public TransactionDB {
 public:
  PessimisticTransactionDBImpl(std::unique_ptr<DB> db, const TransactionDBOptions& options);
  ~PessimisticTransactionDBImpl() override;

  // Registers the families of handles (and the default one) with the lock
  // manager and turns the recovered prepared sections into transactions.
  Status Initialize(const std::vector<ColumnFamilyHandle*>& handles);

  std::unique_ptr<Transaction> BeginTransaction(const WriteOptions& write_options,
                                                const TransactionOptions& txn_options,
                                                std::unique_ptr<Transaction> old_txn) override;
  Transaction* GetTransactionByName(const TransactionName& name) override;
  void GetAllPreparedTransactions(std::vector<Transaction*>* trans) override;
  std::unordered_multimap<uint32_t, KeyLockInfo> GetLockStatusData() override;
  std::vector<DeadlockPath> GetDeadlockInfoBuffer() override;
  void SetDeadlockInfoBufferSize(uint32_t target_size) override;

  using StackableDB::Delete;
  using StackableDB::Merge;
  using StackableDB::Put;
  using StackableDB::SingleDelete;
  Status Put(const WriteOptions& o, ColumnFamilyHandle* cf, const Slice& key,
             const Slice& value) override;
  Status Delete(const WriteOptions& o, ColumnFamilyHandle* cf, const Slice& key) override;
  Status SingleDelete(const WriteOptions& o, ColumnFamilyHandle* cf, const Slice& key) override;
  Status Merge(const WriteOptions& o, ColumnFamilyHandle* cf, const Slice& key,
               const Slice& value) override;
  Status DeleteRange(const WriteOptions& o, ColumnFamilyHandle* cf, const Slice& begin,
                     const Slice& end) override;
  Status Write(const WriteOptions& o, WriteBatch* updates) override;
  Status Write(const WriteOptions& o, const WriteOptimizations& optimizations,
               WriteBatch* updates) override;

  Status CreateColumnFamily(const ColumnFamilyOptions& o, const std::string& name,
                            ColumnFamilyHandle** handle) override;
  Status DropColumnFamily(ColumnFamilyHandle* handle) override;
  Status Close() override;

  // ---- for PessimisticTransaction ----
  DBImpl* dbimpl() const { return dbimpl_; }
  PointLockManager& lock_manager() { return lock_manager_; }
  const TransactionDBOptions& txn_db_options() const { return options_; }
  TransactionID NextTransactionId() { return next_id_.fetch_add(1, std::memory_order_relaxed); }
  // Name registry: InvalidArgument when the name is taken.
  Status RegisterName(const TransactionName& name, PessimisticTransaction* txn);
  void UnregisterName(const TransactionName& name, PessimisticTransaction* txn);
  void RegisterExpirable(PessimisticTransaction* txn);
  void UnregisterExpirable(PessimisticTransaction* txn);
  // The transaction is being destroyed: the DB no longer owns it.
  void Forget(PessimisticTransaction* txn);

 private:
  // Locks one key for a plain write, runs fn, unlocks.
  template <class Fn>
  Status WithKeyLocked(ColumnFamilyHandle* cf, const Slice& key, Fn&& fn);
  bool StealLocks(TransactionID holder);

  DBImpl* const dbimpl_;
  const TransactionDBOptions options_;
  PointLockManager lock_manager_;
  std::atomic<TransactionID> next_id_{1};

  std::mutex name_mu_;
  std::unordered_map<std::string, PessimisticTransaction*> named_;  // guarded by name_mu_
  // Recovered transactions the application has not deleted.
  std::unordered_set<PessimisticTransaction*> owned_;  // guarded by name_mu_

  std::mutex expirable_mu_;
  std::unordered_map<TransactionID, PessimisticTransaction*> expirable_;  // by expirable_mu_
};

}  // namespace strata
