// compat/transactions.cc: rocksdb::Transaction, TransactionDB and
// OptimisticTransactionDB over Strata's. The DBs are CompatDBT objects (every
// DB call is forwarded as for a plain DB) that also keep the Strata
// transaction DB to begin transactions on.
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "compat/compat_db.h"
#include "compat/error_iterator.h"
#include "compat/options_convert.h"
#include "rocksdb/utilities/optimistic_transaction_db.h"
#include "rocksdb/utilities/transaction.h"
#include "rocksdb/utilities/transaction_db.h"
#include "strata/utilities/optimistic_transaction_db.h"
#include "strata/utilities/transaction_db.h"

namespace rocksdb {

// ---- Transaction ----

namespace compat {

// The named rocksdb::Transaction objects of one TransactionDB, by the
// Strata transaction each wraps, so that GetTransactionByName and
// GetAllPreparedTransactions hand out the caller's own object for a
// transaction it began (only named transactions can be found or prepared,
// so unnamed ones cost nothing here). A prepared transaction recovered at
// Open belongs to the Strata DB; its wrapper is made here on first listing,
// and deleted here at close (without its Strata transaction) unless the
// caller deleted it first. Thread-safe.
class TransactionRegistry {
 public:
  ~TransactionRegistry() {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& [t, impl] : impl_of_) {
      t->set_registry(nullptr);
      t->set_listed(false);
      if (recovered_.count(t) != 0) {
        t->strata_transaction().release();  // the Strata DB deletes it
        delete t;
      }
    }
  }

  // t was named: listed under its Strata transaction.
  void Add(Transaction* t) {
    std::lock_guard<std::mutex> lock(mu_);
    EraseLocked(t);
    ::strata::Transaction* impl = t->strata_transaction().get();
    by_impl_[impl] = t;
    impl_of_[t] = impl;
    t->set_listed(true);
  }

  // t is deleted, or begun again (which drops its name).
  void Forget(Transaction* t) {
    std::lock_guard<std::mutex> lock(mu_);
    EraseLocked(t);
  }

  // The wrapper of impl: the caller's, or (for a transaction only the
  // Strata DB holds, one recovered at Open) a new one kept here.
  Transaction* Wrap(::strata::Transaction* impl) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = by_impl_.find(impl);
    if (it != by_impl_.end()) return it->second;
    auto* t = new Transaction(std::unique_ptr<::strata::Transaction>(impl));
    t->set_registry(this);
    t->set_listed(true);
    by_impl_[impl] = t;
    impl_of_[t] = impl;
    recovered_.insert(t);
    return t;
  }

 private:
  void EraseLocked(Transaction* t) {
    auto it = impl_of_.find(t);
    if (it != impl_of_.end()) {
      by_impl_.erase(it->second);
      impl_of_.erase(it);
    }
    recovered_.erase(t);
    t->set_listed(false);
  }

  std::mutex mu_;
  std::unordered_map<::strata::Transaction*, Transaction*> by_impl_;
  std::unordered_map<Transaction*, ::strata::Transaction*> impl_of_;
  std::unordered_set<Transaction*> recovered_;
};

}  // namespace compat

Transaction::Transaction(std::unique_ptr<::strata::Transaction> impl) : impl_(std::move(impl)) {}
Transaction::~Transaction() {
  if (registry_ != nullptr && listed_) registry_->Forget(this);
}

void Transaction::SetSnapshot() { impl_->SetSnapshot(); }
void Transaction::SetSnapshotOnNextOperation() { impl_->SetSnapshotOnNextOperation(); }
const Snapshot* Transaction::GetSnapshot() const { return impl_->GetSnapshot(); }
void Transaction::ClearSnapshot() { impl_->ClearSnapshot(); }
Status Transaction::Prepare() { return impl_->Prepare(); }
Status Transaction::Commit() { return impl_->Commit(); }
Status Transaction::Rollback() { return impl_->Rollback(); }
void Transaction::SetSavePoint() { impl_->SetSavePoint(); }
Status Transaction::RollbackToSavePoint() { return impl_->RollbackToSavePoint(); }
Status Transaction::PopSavePoint() { return impl_->PopSavePoint(); }

Status Transaction::Get(const ReadOptions& options, ColumnFamilyHandle* cf, const Slice& key,
                        std::string* value) {
  ::strata::ReadOptions ro;
  Status s = compat::ConvertReadOptions(options, &ro);
  return s.ok() ? impl_->Get(ro, cf, key, value) : s;
}
Status Transaction::Get(const ReadOptions& options, const Slice& key, std::string* value) {
  return Get(options, nullptr, key, value);
}
Status Transaction::Get(const ReadOptions& options, ColumnFamilyHandle* cf, const Slice& key,
                        PinnableSlice* value) {
  Status s = Get(options, cf, key, value->GetSelf());
  if (s.ok()) value->PinSelf();
  return s;
}
Status Transaction::Get(const ReadOptions& options, const Slice& key, PinnableSlice* value) {
  return Get(options, nullptr, key, value);
}
std::vector<Status> Transaction::MultiGet(const ReadOptions& options,
                                          const std::vector<ColumnFamilyHandle*>& cfs,
                                          const std::vector<Slice>& keys,
                                          std::vector<std::string>* values) {
  ::strata::ReadOptions ro;
  Status s = compat::ConvertReadOptions(options, &ro);
  if (!s.ok()) {
    values->assign(keys.size(), std::string());
    return std::vector<Status>(keys.size(), s);
  }
  return impl_->MultiGet(ro, cfs, keys, values);
}
std::vector<Status> Transaction::MultiGet(const ReadOptions& options,
                                          const std::vector<Slice>& keys,
                                          std::vector<std::string>* values) {
  return MultiGet(options, std::vector<ColumnFamilyHandle*>(keys.size(), nullptr), keys, values);
}
Status Transaction::GetForUpdate(const ReadOptions& options, ColumnFamilyHandle* cf,
                                 const Slice& key, std::string* value, bool exclusive,
                                 const bool do_validate) {
  ::strata::ReadOptions ro;
  Status s = compat::ConvertReadOptions(options, &ro);
  return s.ok() ? impl_->GetForUpdate(ro, cf, key, value, exclusive, do_validate) : s;
}
Status Transaction::GetForUpdate(const ReadOptions& options, ColumnFamilyHandle* cf,
                                 const Slice& key, PinnableSlice* value, bool exclusive,
                                 const bool do_validate) {
  Status s = GetForUpdate(options, cf, key, value->GetSelf(), exclusive, do_validate);
  if (s.ok()) value->PinSelf();
  return s;
}
Status Transaction::GetForUpdate(const ReadOptions& options, const Slice& key, std::string* value,
                                 bool exclusive, const bool do_validate) {
  return GetForUpdate(options, nullptr, key, value, exclusive, do_validate);
}
std::vector<Status> Transaction::MultiGetForUpdate(const ReadOptions& options,
                                                   const std::vector<ColumnFamilyHandle*>& cfs,
                                                   const std::vector<Slice>& keys,
                                                   std::vector<std::string>* values) {
  ::strata::ReadOptions ro;
  Status s = compat::ConvertReadOptions(options, &ro);
  if (!s.ok()) {
    values->assign(keys.size(), std::string());
    return std::vector<Status>(keys.size(), s);
  }
  return impl_->MultiGetForUpdate(ro, cfs, keys, values);
}
std::vector<Status> Transaction::MultiGetForUpdate(const ReadOptions& options,
                                                   const std::vector<Slice>& keys,
                                                   std::vector<std::string>* values) {
  return MultiGetForUpdate(options, std::vector<ColumnFamilyHandle*>(keys.size(), nullptr), keys,
                           values);
}
Iterator* Transaction::GetIterator(const ReadOptions& options) {
  return GetIterator(options, nullptr);
}
Iterator* Transaction::GetIterator(const ReadOptions& options, ColumnFamilyHandle* cf) {
  ::strata::ReadOptions ro;
  Status s = compat::ConvertReadOptions(options, &ro);
  if (!s.ok()) return new compat::ErrorIterator(std::move(s));
  return impl_->GetIterator(ro, cf).release();
}

Status Transaction::Put(ColumnFamilyHandle* cf, const Slice& key, const Slice& value,
                        const bool assume_tracked) {
  return impl_->Put(cf, key, value, assume_tracked);
}
Status Transaction::Put(const Slice& key, const Slice& value) { return impl_->Put(key, value); }
Status Transaction::Merge(ColumnFamilyHandle* cf, const Slice& key, const Slice& value,
                          const bool assume_tracked) {
  return impl_->Merge(cf, key, value, assume_tracked);
}
Status Transaction::Merge(const Slice& key, const Slice& value) { return impl_->Merge(key, value); }
Status Transaction::Delete(ColumnFamilyHandle* cf, const Slice& key, const bool assume_tracked) {
  return impl_->Delete(cf, key, assume_tracked);
}
Status Transaction::Delete(const Slice& key) { return impl_->Delete(key); }
Status Transaction::SingleDelete(ColumnFamilyHandle* cf, const Slice& key,
                                 const bool assume_tracked) {
  return impl_->SingleDelete(cf, key, assume_tracked);
}
Status Transaction::SingleDelete(const Slice& key) { return impl_->SingleDelete(key); }
Status Transaction::PutUntracked(ColumnFamilyHandle* cf, const Slice& key, const Slice& value) {
  return impl_->PutUntracked(cf, key, value);
}
Status Transaction::PutUntracked(const Slice& key, const Slice& value) {
  return impl_->PutUntracked(key, value);
}
Status Transaction::MergeUntracked(ColumnFamilyHandle* cf, const Slice& key, const Slice& value) {
  return impl_->MergeUntracked(cf, key, value);
}
Status Transaction::MergeUntracked(const Slice& key, const Slice& value) {
  return impl_->MergeUntracked(key, value);
}
Status Transaction::DeleteUntracked(ColumnFamilyHandle* cf, const Slice& key) {
  return impl_->DeleteUntracked(cf, key);
}
Status Transaction::DeleteUntracked(const Slice& key) { return impl_->DeleteUntracked(key); }
void Transaction::PutLogData(const Slice& blob) { impl_->PutLogData(blob); }
void Transaction::DisableIndexing() { impl_->DisableIndexing(); }
void Transaction::EnableIndexing() { impl_->EnableIndexing(); }
uint64_t Transaction::GetNumKeys() const { return impl_->GetNumKeys(); }
uint64_t Transaction::GetNumPuts() const { return impl_->GetNumPuts(); }
uint64_t Transaction::GetNumDeletes() const { return impl_->GetNumDeletes(); }
uint64_t Transaction::GetNumMerges() const { return impl_->GetNumMerges(); }
uint64_t Transaction::GetElapsedTime() const { return impl_->GetElapsedTime(); }
void Transaction::SetLockTimeout(int64_t timeout) { impl_->SetLockTimeout(timeout); }
void Transaction::UndoGetForUpdate(ColumnFamilyHandle* cf, const Slice& key) {
  impl_->UndoGetForUpdate(cf, key);
}
void Transaction::UndoGetForUpdate(const Slice& key) { impl_->UndoGetForUpdate(key); }
Status Transaction::RebuildFromWriteBatch(WriteBatch* src_batch) {
  return impl_->RebuildFromWriteBatch(src_batch);
}
WriteBatchWithIndex* Transaction::GetWriteBatch() {
  ::strata::WriteBatchWithIndex* batch = impl_->GetWriteBatch();
  // A transaction begun again (BeginTransaction's old_txn) has a new batch.
  if (batch_view_ == nullptr || batch_view_->borrowed() != batch) {
    batch_view_.reset(new WriteBatchWithIndex(batch));
  }
  return batch_view_.get();
}
WriteBatch* Transaction::GetCommitTimeWriteBatch() { return impl_->GetCommitTimeWriteBatch(); }
Status Transaction::SetName(const TransactionName& name) {
  Status s = impl_->SetName(name);
  if (s.ok() && registry_ != nullptr) registry_->Add(this);
  return s;
}
TransactionName Transaction::GetName() const { return impl_->GetName(); }
TransactionID Transaction::GetID() const { return impl_->GetID(); }

namespace {

using compat::ConvertForOpen;

// Begins `fresh` as a new rocksdb::Transaction, or reuses old_txn.
template <class Begin>
Transaction* BeginWith(Transaction* old_txn, Begin begin) {
  if (old_txn != nullptr) {
    old_txn->strata_transaction() = begin(std::move(old_txn->strata_transaction()));
    return old_txn;
  }
  return new Transaction(begin(nullptr));
}

class CompatTransactionDB final : public compat::CompatDBT<TransactionDB> {
 public:
  // The StackableDB base holds a view of the DB under the transaction
  // layer (GetBaseDB).
  CompatTransactionDB(std::unique_ptr<::strata::TransactionDB> db, const DBOptions& options)
      : CompatDBT(nullptr, options,
                  new compat::CompatDB(compat::CompatDB::Borrow(), db->GetBaseDB(), options)),
        txn_db_(db.get()) {
    Adopt(std::move(db));
  }
  Transaction* BeginTransaction(const WriteOptions& write_options,
                                const TransactionOptions& txn_options,
                                Transaction* old_txn) override {
    ::strata::WriteOptions wo;
    if (!compat::ConvertWriteOptions(write_options, &wo).ok()) return nullptr;
    // Beginning again drops the name (as in RocksDB).
    if (old_txn != nullptr && old_txn->listed()) registry_.Forget(old_txn);
    Transaction* t = BeginWith(old_txn, [&](std::unique_ptr<::strata::Transaction> old) {
      return txn_db_->BeginTransaction(wo, txn_options, std::move(old));
    });
    if (t != nullptr) t->set_registry(&registry_);
    return t;
  }
  Transaction* GetTransactionByName(const TransactionName& name) override {
    ::strata::Transaction* impl = txn_db_->GetTransactionByName(name);
    return impl != nullptr ? registry_.Wrap(impl) : nullptr;
  }
  void GetAllPreparedTransactions(std::vector<Transaction*>* trans) override {
    std::vector<::strata::Transaction*> prepared;
    txn_db_->GetAllPreparedTransactions(&prepared);
    trans->clear();
    for (::strata::Transaction* impl : prepared) trans->push_back(registry_.Wrap(impl));
  }
  std::vector<DeadlockPath> GetDeadlockInfoBuffer() override {
    return txn_db_->GetDeadlockInfoBuffer();
  }
  void SetDeadlockInfoBufferSize(uint32_t target_size) override {
    txn_db_->SetDeadlockInfoBufferSize(target_size);
  }

 private:
  ::strata::TransactionDB* const txn_db_;
  // Destroyed before the base class closes the Strata DB.
  compat::TransactionRegistry registry_;
};

class CompatOptimisticTransactionDB final : public compat::CompatDBT<OptimisticTransactionDB> {
 public:
  CompatOptimisticTransactionDB(std::unique_ptr<::strata::OptimisticTransactionDB> db,
                                const DBOptions& options)
      : CompatDBT(nullptr, options,
                  new compat::CompatDB(compat::CompatDB::Borrow(), db->GetBaseDB(), options)),
        occ_db_(db.get()) {
    Adopt(std::move(db));
  }
  Transaction* BeginTransaction(const WriteOptions& write_options,
                                const OptimisticTransactionOptions& txn_options,
                                Transaction* old_txn) override {
    ::strata::WriteOptions wo;
    if (!compat::ConvertWriteOptions(write_options, &wo).ok()) return nullptr;
    return BeginWith(old_txn, [&](std::unique_ptr<::strata::Transaction> old) {
      return occ_db_->BeginTransaction(wo, txn_options, std::move(old));
    });
  }

 private:
  ::strata::OptimisticTransactionDB* const occ_db_;
};

using compat::OpenDefaultFamily;

}  // namespace

Status TransactionDB::Open(const DBOptions& db_options, const TransactionDBOptions& txn_db_options,
                           const std::string& dbname,
                           const std::vector<ColumnFamilyDescriptor>& column_families,
                           std::vector<ColumnFamilyHandle*>* handles, TransactionDB** dbptr) {
  *dbptr = nullptr;
  ::strata::DBOptions sdb;
  std::vector<::strata::ColumnFamilyDescriptor> scfs;
  auto listener_target = std::make_shared<compat::ListenerTarget>();
  Status s = ConvertForOpen(db_options, column_families, listener_target, &sdb, &scfs);
  if (!s.ok()) return s;
  std::unique_ptr<::strata::TransactionDB> db;
  s = ::strata::TransactionDB::Open(sdb, txn_db_options, dbname, scfs, handles, &db);
  if (!s.ok()) return s;
  auto result = std::make_unique<CompatTransactionDB>(std::move(db), db_options);
  result->RememberAll(*handles, column_families);
  listener_target->db.store(result.get(), std::memory_order_release);
  *dbptr = result.release();
  return s;
}

Status TransactionDB::Open(const Options& options, const TransactionDBOptions& txn_db_options,
                           const std::string& dbname, TransactionDB** dbptr) {
  return OpenDefaultFamily(
      options, [&](const DBOptions& db_options, const std::vector<ColumnFamilyDescriptor>& cfs,
                   std::vector<ColumnFamilyHandle*>* handles, DB** db) {
        Status s = Open(db_options, txn_db_options, dbname, cfs, handles, dbptr);
        *db = *dbptr;
        return s;
      });
}

Status OptimisticTransactionDB::Open(const DBOptions& db_options,
                                     const OptimisticTransactionDBOptions& occ_options,
                                     const std::string& dbname,
                                     const std::vector<ColumnFamilyDescriptor>& column_families,
                                     std::vector<ColumnFamilyHandle*>* handles,
                                     OptimisticTransactionDB** dbptr) {
  *dbptr = nullptr;
  ::strata::DBOptions sdb;
  std::vector<::strata::ColumnFamilyDescriptor> scfs;
  auto listener_target = std::make_shared<compat::ListenerTarget>();
  Status s = ConvertForOpen(db_options, column_families, listener_target, &sdb, &scfs);
  if (!s.ok()) return s;
  std::unique_ptr<::strata::OptimisticTransactionDB> db;
  s = ::strata::OptimisticTransactionDB::Open(sdb, occ_options, dbname, scfs, handles, &db);
  if (!s.ok()) return s;
  auto result = std::make_unique<CompatOptimisticTransactionDB>(std::move(db), db_options);
  result->RememberAll(*handles, column_families);
  listener_target->db.store(result.get(), std::memory_order_release);
  *dbptr = result.release();
  return s;
}

Status OptimisticTransactionDB::Open(const DBOptions& db_options, const std::string& dbname,
                                     const std::vector<ColumnFamilyDescriptor>& column_families,
                                     std::vector<ColumnFamilyHandle*>* handles,
                                     OptimisticTransactionDB** dbptr) {
  return Open(db_options, OptimisticTransactionDBOptions(), dbname, column_families, handles,
              dbptr);
}

Status OptimisticTransactionDB::Open(const Options& options, const std::string& dbname,
                                     OptimisticTransactionDB** dbptr) {
  return OpenDefaultFamily(
      options, [&](const DBOptions& db_options, const std::vector<ColumnFamilyDescriptor>& cfs,
                   std::vector<ColumnFamilyHandle*>* handles, DB** db) {
        Status s = Open(db_options, dbname, cfs, handles, dbptr);
        *db = *dbptr;
        return s;
      });
}

}  // namespace rocksdb
