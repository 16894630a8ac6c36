// compat/transactions.cc: rocksdb::Transaction, TransactionDB and
// OptimisticTransactionDB over Strata's. The DBs are CompatDBT objects (every
// DB call is forwarded as for a plain DB) that also keep the Strata
// transaction DB to begin transactions on.
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
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
    t->Begun(/*pessimistic=*/true, WriteOptions());
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
void Transaction::SetSnapshotOnNextOperation(std::shared_ptr<TransactionNotifier> notifier) {
  impl_->SetSnapshotOnNextOperation(std::move(notifier));
}
const Snapshot* Transaction::GetSnapshot() const { return impl_->GetSnapshot(); }
std::shared_ptr<const Snapshot> Transaction::GetTimestampedSnapshot() const {
  return impl_->GetTimestampedSnapshot();
}
void Transaction::ClearSnapshot() { impl_->ClearSnapshot(); }

Status Transaction::ApplyWriteOptions() {
  ::strata::WriteOptions wo;
  Status s = compat::ConvertWriteOptions(write_options_, &wo);
  if (s.ok()) impl_->SetWriteOptions(wo);
  return s;
}
Status Transaction::Prepare() {
  Status s = ApplyWriteOptions();
  return s.ok() ? impl_->Prepare() : s;
}
Status Transaction::Commit() {
  Status s = ApplyWriteOptions();
  return s.ok() ? impl_->Commit() : s;
}
Status Transaction::Rollback() {
  Status s = ApplyWriteOptions();
  return s.ok() ? impl_->Rollback() : s;
}

Status Transaction::CommitAndTryCreateSnapshot(std::shared_ptr<TransactionNotifier> notifier,
                                               TxnTimestamp ts,
                                               std::shared_ptr<const Snapshot>* snapshot) {
  (void)notifier;
  if (snapshot != nullptr) snapshot->reset();
  // RocksDB's checks of the commit timestamp, in its order.
  const TxnTimestamp commit_ts = GetCommitTimestamp();
  if (commit_ts == kMaxTxnTimestamp) {
    if (ts == kMaxTxnTimestamp) return Status::InvalidArgument("Commit timestamp unset");
    Status s = SetCommitTimestamp(ts);
    if (!s.ok()) return s;
  } else if (ts != kMaxTxnTimestamp && ts != commit_ts) {
    return Status::InvalidArgument("Different commit ts specified");
  }
  return Status::NotSupported(
      "Transaction::CommitAndTryCreateSnapshot is not supported by Strata: it has no "
      "timestamped snapshots (use Commit, then DB::GetSnapshot)");
}

Status Transaction::SetReadTimestampForValidation(TxnTimestamp ts) {
  if (!pessimistic_) return Status::NotSupported("timestamp not supported");
  if (read_timestamp_ < kMaxTxnTimestamp && ts < read_timestamp_) {
    return Status::InvalidArgument("Cannot decrease read timestamp for validation");
  }
  read_timestamp_ = ts;
  return Status::OK();
}
Status Transaction::SetCommitTimestamp(TxnTimestamp ts) {
  if (!pessimistic_) return Status::NotSupported("timestamp not supported");
  if (read_timestamp_ < kMaxTxnTimestamp && ts <= read_timestamp_) {
    return Status::InvalidArgument(
        "Cannot commit at timestamp smaller than or equal to read timestamp");
  }
  commit_timestamp_ = ts;
  return Status::OK();
}
TxnTimestamp Transaction::GetCommitTimestamp() const { return commit_timestamp_; }
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
void Transaction::MultiGet(const ReadOptions& options, ColumnFamilyHandle* cf,
                           const size_t num_keys, const Slice* keys, PinnableSlice* values,
                           Status* statuses, const bool /*sorted_input*/) {
  for (size_t i = 0; i < num_keys; ++i) statuses[i] = Get(options, cf, keys[i], &values[i]);
}
Status Transaction::GetRangeLock(ColumnFamilyHandle* /*column_family*/,
                                 const Endpoint& /*start_endp*/, const Endpoint& /*end_endp*/) {
  // RocksDB's point-lock manager's answer; an optimistic transaction
  // locks nothing (RocksDB's: NotSupported with no message).
  if (pessimistic_) return Status::NotSupported("PointLockManager does not support range locking");
  return Status::NotSupported(
      "Transaction::GetRangeLock: an optimistic transaction takes no locks");
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

namespace {
// The parts, concatenated (RocksDB writes a SliceParts key or value so).
std::string Joined(const SliceParts& parts) {
  std::string out;
  for (int i = 0; i < parts.num_parts; ++i)
    out.append(parts.parts[i].data(), parts.parts[i].size());
  return out;
}
}  // namespace

Status Transaction::Put(ColumnFamilyHandle* cf, const SliceParts& key, const SliceParts& value,
                        const bool assume_tracked) {
  return impl_->Put(cf, Joined(key), Joined(value), assume_tracked);
}
Status Transaction::Put(const SliceParts& key, const SliceParts& value) {
  return Put(nullptr, key, value);
}
Status Transaction::Delete(ColumnFamilyHandle* cf, const SliceParts& key,
                           const bool assume_tracked) {
  return impl_->Delete(cf, Joined(key), assume_tracked);
}
Status Transaction::Delete(const SliceParts& key) { return Delete(nullptr, key); }
Status Transaction::SingleDelete(ColumnFamilyHandle* cf, const SliceParts& key,
                                 const bool assume_tracked) {
  return impl_->SingleDelete(cf, Joined(key), assume_tracked);
}
Status Transaction::SingleDelete(const SliceParts& key) { return SingleDelete(nullptr, key); }
Status Transaction::PutUntracked(ColumnFamilyHandle* cf, const SliceParts& key,
                                 const SliceParts& value) {
  return impl_->PutUntracked(cf, Joined(key), Joined(value));
}
Status Transaction::PutUntracked(const SliceParts& key, const SliceParts& value) {
  return PutUntracked(nullptr, key, value);
}
Status Transaction::DeleteUntracked(ColumnFamilyHandle* cf, const SliceParts& key) {
  return impl_->DeleteUntracked(cf, Joined(key));
}
Status Transaction::DeleteUntracked(const SliceParts& key) { return DeleteUntracked(nullptr, key); }
Status Transaction::SingleDeleteUntracked(ColumnFamilyHandle* cf, const Slice& key) {
  return impl_->SingleDeleteUntracked(cf, key);
}
Status Transaction::SingleDeleteUntracked(const Slice& key) {
  return impl_->SingleDeleteUntracked(key);
}
void Transaction::PutLogData(const Slice& blob) { impl_->PutLogData(blob); }
void Transaction::DisableIndexing() { impl_->DisableIndexing(); }
void Transaction::EnableIndexing() { impl_->EnableIndexing(); }
uint64_t Transaction::GetNumKeys() const { return impl_->GetNumKeys(); }
uint64_t Transaction::GetNumPuts() const { return impl_->GetNumPuts(); }
uint64_t Transaction::GetNumDeletes() const { return impl_->GetNumDeletes(); }
uint64_t Transaction::GetNumMerges() const { return impl_->GetNumMerges(); }
uint64_t Transaction::GetElapsedTime() const { return impl_->GetElapsedTime(); }
void Transaction::SetLockTimeout(int64_t timeout) { impl_->SetLockTimeout(timeout); }
WriteOptions* Transaction::GetWriteOptions() { return &write_options_; }
void Transaction::SetWriteOptions(const WriteOptions& write_options) {
  write_options_ = write_options;
}
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
void Transaction::SetLogNumber(uint64_t log) { impl_->SetLogNumber(log); }
uint64_t Transaction::GetLogNumber() const { return impl_->GetLogNumber(); }
bool Transaction::IsDeadlockDetect() const { return impl_->IsDeadlockDetect(); }
std::vector<TransactionID> Transaction::GetWaitingTxns(uint32_t* column_family_id,
                                                       std::string* key) const {
  return impl_->GetWaitingTxns(column_family_id, key);
}

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
    if (t != nullptr) {
      t->set_registry(&registry_);
      t->Begun(/*pessimistic=*/true, write_options);
    }
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
  std::unordered_multimap<uint32_t, KeyLockInfo> GetLockStatusData() override {
    return txn_db_->GetLockStatusData();
  }
  using TransactionDB::Write;
  Status Write(const WriteOptions& options, const TransactionDBWriteOptimizations& optimizations,
               WriteBatch* updates) override {
    ::strata::WriteOptions wo;
    Status s = compat::ConvertWriteOptions(options, &wo);
    if (!s.ok()) return s;
    ::strata::TransactionDBWriteOptimizations so;
    so.skip_concurrency_control = optimizations.skip_concurrency_control;
    so.skip_duplicate_key_check = optimizations.skip_duplicate_key_check;
    return txn_db_->Write(wo, so, updates);
  }

  // ---- timestamped snapshots: DB snapshots listed by a number ----
  // RocksDB's rules: a new one at the latest sequence; a timestamp below
  // the newest listed one is refused; the newest one's timestamp again is
  // that snapshot when nothing was written since, refused otherwise.
  std::pair<Status, std::shared_ptr<const Snapshot>> CreateTimestampedSnapshot(
      TxnTimestamp ts) override {
    if (ts == kMaxTxnTimestamp) return {Status::InvalidArgument("invalid ts"), nullptr};
    std::lock_guard<std::mutex> lock(ts_mu_);
    ::strata::DB* const db = txn_db_;
    std::shared_ptr<const Snapshot> snapshot(db->GetSnapshot(), [db](const Snapshot* p) {
      if (p != nullptr) db->ReleaseSnapshot(p);
    });
    if (!by_ts_.empty()) {
      const auto& [latest_ts, latest] = *by_ts_.rbegin();
      const uint64_t seq = snapshot->GetSequenceNumber();
      if (latest_ts > ts) {
        std::ostringstream msg;
        msg << "snapshot exists with larger timestamp " << latest_ts << " > " << ts;
        return {Status::InvalidArgument(msg.str()), nullptr};
      }
      if (latest_ts == ts) {
        if (latest->GetSequenceNumber() == seq) return {Status::OK(), latest};
        std::ostringstream msg;
        msg << "Allocated seq is " << seq << ", while snapshot exists with smaller seq "
            << latest->GetSequenceNumber() << " but same timestamp " << ts;
        return {Status::InvalidArgument(msg.str()), nullptr};
      }
    }
    by_ts_.emplace(ts, snapshot);
    return {Status::OK(), snapshot};
  }
  // kMaxTxnTimestamp: the newest.
  std::shared_ptr<const Snapshot> GetTimestampedSnapshot(TxnTimestamp ts) const override {
    std::lock_guard<std::mutex> lock(ts_mu_);
    if (ts == kMaxTxnTimestamp && !by_ts_.empty()) return by_ts_.rbegin()->second;
    auto it = by_ts_.find(ts);
    return it == by_ts_.end() ? nullptr : it->second;
  }
  void ReleaseTimestampedSnapshotsOlderThan(TxnTimestamp ts) override {
    std::vector<std::shared_ptr<const Snapshot>> released;  // let go after the lock
    std::lock_guard<std::mutex> lock(ts_mu_);
    auto end = by_ts_.lower_bound(ts);
    for (auto it = by_ts_.begin(); it != end; ++it) released.push_back(std::move(it->second));
    by_ts_.erase(by_ts_.begin(), end);
  }
  Status GetTimestampedSnapshots(
      TxnTimestamp ts_lb, TxnTimestamp ts_ub,
      std::vector<std::shared_ptr<const Snapshot>>& timestamped_snapshots) const override {
    if (ts_lb >= ts_ub) {
      return Status::InvalidArgument("timestamp lower bound must be smaller than upper bound");
    }
    timestamped_snapshots.clear();
    std::lock_guard<std::mutex> lock(ts_mu_);
    for (auto it = by_ts_.lower_bound(ts_lb); it != by_ts_.lower_bound(ts_ub); ++it) {
      timestamped_snapshots.push_back(it->second);
    }
    return Status::OK();
  }

 private:
  ::strata::TransactionDB* const txn_db_;
  // Destroyed before the base class closes the Strata DB.
  compat::TransactionRegistry registry_;
  // The timestamped snapshots, by timestamp (each holds a snapshot of
  // txn_db_; released when the last holder lets go -- the list's
  // references go when the DB is deleted, before the Strata DB closes).
  mutable std::mutex ts_mu_;
  std::map<TxnTimestamp, std::shared_ptr<const Snapshot>> by_ts_;
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
    Transaction* t = BeginWith(old_txn, [&](std::unique_ptr<::strata::Transaction> old) {
      return occ_db_->BeginTransaction(wo, txn_options, std::move(old));
    });
    if (t != nullptr) t->Begun(/*pessimistic=*/false, write_options);
    return t;
  }

 private:
  ::strata::OptimisticTransactionDB* const occ_db_;
};

using compat::OpenDefaultFamily;

}  // namespace

RangeLockManagerHandle* NewRangeLockManager(
    std::shared_ptr<TransactionDBMutexFactory> /*mutex_factory*/) {
  return nullptr;  // Strata has no range locking (see transaction_db.h)
}

void TransactionDB::PrepareWrap(DBOptions* /*db_options*/,
                                std::vector<ColumnFamilyDescriptor>* /*column_families*/,
                                std::vector<size_t>* /*compaction_enabled_cf_indices*/) {}

Status TransactionDB::WrapDB(DB* /*db*/, const TransactionDBOptions& /*txn_db_options*/,
                             const std::vector<size_t>& /*compaction_enabled_cf_indices*/,
                             const std::vector<ColumnFamilyHandle*>& /*handles*/,
                             TransactionDB** dbptr) {
  if (dbptr != nullptr) *dbptr = nullptr;
  return Status::NotSupported(
      "TransactionDB::WrapDB is not supported by Strata: open the database with "
      "TransactionDB::Open");
}

Status TransactionDB::WrapStackableDB(StackableDB* /*db*/,
                                      const TransactionDBOptions& /*txn_db_options*/,
                                      const std::vector<size_t>& /*compaction_enabled_cf_indices*/,
                                      const std::vector<ColumnFamilyHandle*>& /*handles*/,
                                      TransactionDB** dbptr) {
  if (dbptr != nullptr) *dbptr = nullptr;
  return Status::NotSupported(
      "TransactionDB::WrapStackableDB is not supported by Strata: open the database with "
      "TransactionDB::Open");
}

Status TransactionDB::Open(const DBOptions& db_options, const TransactionDBOptions& txn_db_options,
                           const std::string& dbname,
                           const std::vector<ColumnFamilyDescriptor>& column_families,
                           std::vector<ColumnFamilyHandle*>* handles, TransactionDB** dbptr) {
  *dbptr = nullptr;
  if (txn_db_options.lock_mgr_handle != nullptr) {
    return Status::NotSupported(
        "TransactionDBOptions::lock_mgr_handle is not supported by Strata: it uses its own "
        "point-lock manager");
  }
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
