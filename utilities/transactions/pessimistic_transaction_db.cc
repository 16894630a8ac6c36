// PessimisticTransactionDBImpl and TransactionDB::Open (see the header for
// the contract).
#include "utilities/transactions/pessimistic_transaction_db.h"

#include <algorithm>
#include <set>

#include "db/db_impl.h"
#include "utilities/transactions/pessimistic_transaction.h"

namespace strata {

TransactionDB::~TransactionDB() = default;

namespace {

Status CheckTxnDBOptions(const TransactionDBOptions& o) {
  if (o.write_policy != TxnDBWritePolicy::WRITE_COMMITTED) {
    return Status::NotSupported(
        "TransactionDBOptions::write_policy: only WRITE_COMMITTED is built (WRITE_PREPARED and "
        "WRITE_UNPREPARED are not)");
  }
  if (o.num_stripes == 0) {
    return Status::InvalidArgument("TransactionDBOptions::num_stripes must be at least 1");
  }
  // Only WRITE_UNPREPARED uses it in RocksDB; refused, as transaction_db.h says.
  if (o.default_write_batch_flush_threshold != 0) {
    return Status::NotSupported(
        "TransactionDBOptions::default_write_batch_flush_threshold: not built (must be 0)");
  }
  if (o.custom_mutex_factory != nullptr) {
    return Status::NotSupported(
        "TransactionDBOptions::custom_mutex_factory: Strata's lock manager uses its own mutexes "
        "(must be null)");
  }
  return Status::OK();
}

// Opens the DB with allow_2pc on (RocksDB's TransactionDB::PrepareWrap)
// through open_db, then wraps it.
template <class OpenFn>
Status OpenWrapped(const TransactionDBOptions& txn_db_options, OpenFn&& open_db,
                   std::vector<ColumnFamilyHandle*>* handles, std::unique_ptr<TransactionDB>* out) {
  out->reset();
  Status s = CheckTxnDBOptions(txn_db_options);
  if (!s.ok()) return s;
  std::unique_ptr<DB> db;
  s = open_db(&db);
  if (!s.ok()) return s;
  auto txn_db = std::make_unique<PessimisticTransactionDBImpl>(std::move(db), txn_db_options);
  static const std::vector<ColumnFamilyHandle*> kNone;
  s = txn_db->Initialize(handles != nullptr ? *handles : kNone);
  if (!s.ok()) {
    if (handles != nullptr) {
      for (ColumnFamilyHandle* h : *handles) {
        txn_db->DestroyColumnFamilyHandle(h).PermitUncheckedError();
      }
      handles->clear();
    }
    return s;
  }
  *out = std::move(txn_db);
  return Status::OK();
}

}  // namespace

Status TransactionDB::Open(const Options& options, const TransactionDBOptions& txn_db_options,
                           const std::string& path, std::unique_ptr<TransactionDB>* db) {
  Options o = options;
  o.allow_2pc = true;
  return OpenWrapped(
      txn_db_options, [&](std::unique_ptr<DB>* base) { return DB::Open(o, path, base); }, nullptr,
      db);
}

Status TransactionDB::Open(const DBOptions& db_options, const TransactionDBOptions& txn_db_options,
                           const std::string& path,
                           const std::vector<ColumnFamilyDescriptor>& column_families,
                           std::vector<ColumnFamilyHandle*>* handles,
                           std::unique_ptr<TransactionDB>* db) {
  DBOptions o = db_options;
  o.allow_2pc = true;
  return OpenWrapped(
      txn_db_options,
      [&](std::unique_ptr<DB>* base) { return DB::Open(o, path, column_families, handles, base); },
      handles, db);
}

PessimisticTransactionDBImpl::PessimisticTransactionDBImpl(std::unique_ptr<DB> db,
                                                           const TransactionDBOptions& options)
    : TransactionDB(std::move(db)),
      dbimpl_(static_cast<DBImpl*>(db_->GetRootDB())),
      options_(options),
      lock_manager_(options, db_->GetEnv()->GetSystemClock(),
                    [this](TransactionID holder) { return StealLocks(holder); }) {}

PessimisticTransactionDBImpl::~PessimisticTransactionDBImpl() {
  // The recovered transactions the application left (their destructors
  // call Forget, which finds the set empty).
  std::unordered_set<PessimisticTransaction*> owned;
  {
    std::lock_guard<std::mutex> l(name_mu_);
    owned.swap(owned_);
  }
  for (PessimisticTransaction* t : owned) delete t;
}

Status PessimisticTransactionDBImpl::Initialize(const std::vector<ColumnFamilyHandle*>& handles) {
  lock_manager_.AddColumnFamily(0);
  for (ColumnFamilyHandle* h : handles) lock_manager_.AddColumnFamily(h->GetID());
  // Prepared sections found in the WALs become PREPARED transactions.
  RecoveredTransactions recovered = dbimpl_->TakeRecoveredTransactions();
  for (auto& [name, r] : recovered) {
    WriteOptions wo;
    wo.sync = true;
    TransactionOptions to;
    // Their keys went through locking before the crash, and the
    // application resolves them before new transactions start (RocksDB's
    // reasoning): they lock nothing.
    to.skip_concurrency_control = true;
    auto* txn = new PessimisticTransaction(this, wo, to);
    txn->SetLogNumber(r->log_number);
    Status s = txn->SetName(name);
    if (s.ok()) s = txn->RebuildFromWriteBatch(&r->batch);
    if (!s.ok()) {
      // The WAL mark goes with the transaction's (failed) reconstruction.
      dbimpl_->MarkPrepSectionResolved(r->log_number);
      delete txn;
      return s;
    }
    txn->SetState(Transaction::PREPARED);
    std::lock_guard<std::mutex> l(name_mu_);
    owned_.insert(txn);
  }
  return Status::OK();
}

std::unique_ptr<Transaction> PessimisticTransactionDBImpl::BeginTransaction(
    const WriteOptions& write_options, const TransactionOptions& txn_options,
    std::unique_ptr<Transaction> old_txn) {
  if (old_txn != nullptr) {
    auto* txn = static_cast<PessimisticTransaction*>(old_txn.get());
    txn->Reinitialize(write_options, txn_options);
    return old_txn;
  }
  return std::make_unique<PessimisticTransaction>(this, write_options, txn_options);
}

Transaction* PessimisticTransactionDBImpl::GetTransactionByName(const TransactionName& name) {
  std::lock_guard<std::mutex> l(name_mu_);
  auto it = named_.find(name);
  return it == named_.end() ? nullptr : it->second;
}

void PessimisticTransactionDBImpl::GetAllPreparedTransactions(std::vector<Transaction*>* trans) {
  trans->clear();
  std::lock_guard<std::mutex> l(name_mu_);
  for (const auto& [name, txn] : named_) {
    if (txn->GetState() == Transaction::PREPARED) trans->push_back(txn);
  }
}

std::unordered_multimap<uint32_t, KeyLockInfo> PessimisticTransactionDBImpl::GetLockStatusData() {
  return lock_manager_.GetLockStatusData();
}

std::vector<DeadlockPath> PessimisticTransactionDBImpl::GetDeadlockInfoBuffer() {
  return lock_manager_.GetDeadlockInfoBuffer();
}

void PessimisticTransactionDBImpl::SetDeadlockInfoBufferSize(uint32_t target_size) {
  lock_manager_.SetDeadlockInfoBufferSize(target_size);
}

Status PessimisticTransactionDBImpl::RegisterName(const TransactionName& name,
                                                  PessimisticTransaction* txn) {
  std::lock_guard<std::mutex> l(name_mu_);
  if (!named_.emplace(name, txn).second) {
    return Status::InvalidArgument("Transaction name must be unique.");
  }
  return Status::OK();
}

void PessimisticTransactionDBImpl::UnregisterName(const TransactionName& name,
                                                  PessimisticTransaction* txn) {
  std::lock_guard<std::mutex> l(name_mu_);
  auto it = named_.find(name);
  if (it != named_.end() && it->second == txn) named_.erase(it);
}

void PessimisticTransactionDBImpl::Forget(PessimisticTransaction* txn) {
  std::lock_guard<std::mutex> l(name_mu_);
  owned_.erase(txn);
}

void PessimisticTransactionDBImpl::RegisterExpirable(PessimisticTransaction* txn) {
  std::lock_guard<std::mutex> l(expirable_mu_);
  expirable_[txn->GetID()] = txn;
}

void PessimisticTransactionDBImpl::UnregisterExpirable(PessimisticTransaction* txn) {
  std::lock_guard<std::mutex> l(expirable_mu_);
  auto it = expirable_.find(txn->GetID());
  if (it != expirable_.end() && it->second == txn) expirable_.erase(it);
}

bool PessimisticTransactionDBImpl::StealLocks(TransactionID holder) {
  std::lock_guard<std::mutex> l(expirable_mu_);
  auto it = expirable_.find(holder);
  // Not registered: the holder is gone, or cannot expire (prepared).
  if (it == expirable_.end()) return false;
  return it->second->IsExpired() && it->second->TryStealingLocks();
}

// ---- plain writes: locked one-shot transactions ----

template <class Fn>
Status PessimisticTransactionDBImpl::WithKeyLocked(ColumnFamilyHandle* cf, const Slice& key,
                                                   Fn&& fn) {
  if (options_.skip_concurrency_control) return fn();
  LockRequest req;
  req.txn_id = NextTransactionId();
  req.cf_id = cf == nullptr ? 0 : cf->GetID();
  req.exclusive = true;
  req.timeout_us = options_.default_lock_timeout < 0 ? -1 : options_.default_lock_timeout * 1000;
  Status s = lock_manager_.TryLock(req, key);
  if (!s.ok()) return s;
  s = fn();
  lock_manager_.UnLock(req.txn_id, req.cf_id, key);
  return s;
}

Status PessimisticTransactionDBImpl::Put(const WriteOptions& o, ColumnFamilyHandle* cf,
                                         const Slice& key, const Slice& value) {
  return WithKeyLocked(cf, key, [&]() { return db_->Put(o, cf, key, value); });
}

Status PessimisticTransactionDBImpl::Delete(const WriteOptions& o, ColumnFamilyHandle* cf,
                                            const Slice& key) {
  return WithKeyLocked(cf, key, [&]() { return db_->Delete(o, cf, key); });
}

Status PessimisticTransactionDBImpl::SingleDelete(const WriteOptions& o, ColumnFamilyHandle* cf,
                                                  const Slice& key) {
  return WithKeyLocked(cf, key, [&]() { return db_->SingleDelete(o, cf, key); });
}

Status PessimisticTransactionDBImpl::Merge(const WriteOptions& o, ColumnFamilyHandle* cf,
                                           const Slice& key, const Slice& value) {
  return WithKeyLocked(cf, key, [&]() { return db_->Merge(o, cf, key, value); });
}

Status PessimisticTransactionDBImpl::DeleteRange(const WriteOptions& o, ColumnFamilyHandle* cf,
                                                 const Slice& begin, const Slice& end) {
  if (!options_.skip_concurrency_control) {
    return Status::NotSupported(
        "DeleteRange on a TransactionDB: a range cannot be locked key by key (set "
        "TransactionDBOptions::skip_concurrency_control)");
  }
  return db_->DeleteRange(o, cf, begin, end);
}

Status PessimisticTransactionDBImpl::Write(const WriteOptions& o, WriteBatch* updates) {
  WriteOptimizations none;
  return Write(o, none, updates);
}

Status PessimisticTransactionDBImpl::Write(const WriteOptions& o,
                                           const WriteOptimizations& optimizations,
                                           WriteBatch* updates) {
  if (updates == nullptr) return Status::InvalidArgument("Write: batch is null");
  if (optimizations.skip_concurrency_control || options_.skip_concurrency_control) {
    return db_->Write(o, updates);
  }
  // Every key of the batch, per family, in order: batches lock in one
  // global order and never deadlock each other.
  struct Collector : WriteBatch::Handler {
    std::map<uint32_t, std::set<std::string>> keys;
    Status PutCF(uint32_t cf, const Slice& k, const Slice&) override { return Add(cf, k); }
    Status DeleteCF(uint32_t cf, const Slice& k) override { return Add(cf, k); }
    Status SingleDeleteCF(uint32_t cf, const Slice& k) override { return Add(cf, k); }
    Status MergeCF(uint32_t cf, const Slice& k, const Slice&) override { return Add(cf, k); }
    Status DeleteRangeCF(uint32_t, const Slice&, const Slice&) override {
      return Status::NotSupported(
          "DeleteRange in a batch written to a TransactionDB (without skip_concurrency_control)");
    }
    Status Add(uint32_t cf, const Slice& k) {
      keys[cf].insert(k.ToString());
      return Status::OK();
    }
  } collector;
  Status s = updates->Iterate(&collector);
  if (!s.ok()) return s;
  const TransactionID id = NextTransactionId();
  LockRequest req;
  req.txn_id = id;
  req.exclusive = true;
  req.timeout_us = options_.default_lock_timeout < 0 ? -1 : options_.default_lock_timeout * 1000;
  std::vector<std::pair<uint32_t, const std::string*>> locked;
  for (const auto& [cf, keys] : collector.keys) {
    req.cf_id = cf;
    for (const std::string& k : keys) {
      s = lock_manager_.TryLock(req, k);
      if (!s.ok()) break;
      locked.emplace_back(cf, &k);
    }
    if (!s.ok()) break;
  }
  if (s.ok()) s = db_->Write(o, updates);
  for (const auto& [cf, k] : locked) lock_manager_.UnLock(id, cf, *k);
  return s;
}

Status PessimisticTransactionDBImpl::CreateColumnFamily(const ColumnFamilyOptions& o,
                                                        const std::string& name,
                                                        ColumnFamilyHandle** handle) {
  Status s = db_->CreateColumnFamily(o, name, handle);
  if (s.ok()) lock_manager_.AddColumnFamily((*handle)->GetID());
  return s;
}

Status PessimisticTransactionDBImpl::DropColumnFamily(ColumnFamilyHandle* handle) {
  Status s = db_->DropColumnFamily(handle);
  if (s.ok()) lock_manager_.RemoveColumnFamily(handle->GetID());
  return s;
}

Status PessimisticTransactionDBImpl::Close() { return StackableDB::Close(); }

}  // namespace strata
