// OptimisticTransactionDBImpl and OptimisticTransaction (see the header).
#include "utilities/transactions/optimistic_transaction_db_impl.h"

#include <algorithm>
#include <thread>

#include "db/db_impl.h"
#include "db/write_thread.h"
#include "util/hash.h"

namespace strata {

OptimisticTransactionDB::~OptimisticTransactionDB() = default;

namespace {

Status Wrap(std::unique_ptr<DB> db, const OptimisticTransactionDBOptions& occ,
            std::unique_ptr<OptimisticTransactionDB>* out) {
  *out = std::make_unique<OptimisticTransactionDBImpl>(std::move(db), occ);
  return Status::OK();
}

}  // namespace

Status OptimisticTransactionDB::Open(const Options& options, const std::string& path,
                                     std::unique_ptr<OptimisticTransactionDB>* db) {
  db->reset();
  std::unique_ptr<DB> base;
  Status s = DB::Open(options, path, &base);
  if (!s.ok()) return s;
  return Wrap(std::move(base), OptimisticTransactionDBOptions(), db);
}

Status OptimisticTransactionDB::Open(const DBOptions& db_options, const std::string& path,
                                     const std::vector<ColumnFamilyDescriptor>& column_families,
                                     std::vector<ColumnFamilyHandle*>* handles,
                                     std::unique_ptr<OptimisticTransactionDB>* db) {
  return Open(db_options, OptimisticTransactionDBOptions(), path, column_families, handles, db);
}

Status OptimisticTransactionDB::Open(const DBOptions& db_options,
                                     const OptimisticTransactionDBOptions& occ_options,
                                     const std::string& path,
                                     const std::vector<ColumnFamilyDescriptor>& column_families,
                                     std::vector<ColumnFamilyHandle*>* handles,
                                     std::unique_ptr<OptimisticTransactionDB>* db) {
  db->reset();
  if (occ_options.validate_policy == OccValidationPolicy::kValidateParallel &&
      occ_options.occ_lock_buckets == 0) {
    return Status::InvalidArgument("OptimisticTransactionDBOptions::occ_lock_buckets must be > 0");
  }
  std::unique_ptr<DB> base;
  Status s = DB::Open(db_options, path, column_families, handles, &base);
  if (!s.ok()) return s;
  return Wrap(std::move(base), occ_options, db);
}

OptimisticTransactionDBImpl::OptimisticTransactionDBImpl(std::unique_ptr<DB> db,
                                                         const OptimisticTransactionDBOptions& o)
    : OptimisticTransactionDB(std::move(db)),
      dbimpl_(static_cast<DBImpl*>(db_->GetRootDB())),
      options_(o),
      num_buckets_(std::max<uint32_t>(1, o.occ_lock_buckets)),
      buckets_(new std::atomic<uint8_t>[num_buckets_]) {
  for (size_t i = 0; i < num_buckets_; i++) buckets_[i].store(0, std::memory_order_relaxed);
}

OptimisticTransactionDBImpl::~OptimisticTransactionDBImpl() = default;

void OptimisticTransactionDBImpl::LockBucket(size_t i) {
  std::atomic<uint8_t>& b = buckets_[i];
  for (int spin = 0;; spin++) {
    uint8_t expected = 0;
    // acquire: the holder's check and write happen-before ours.
    if (b.compare_exchange_weak(expected, 1, std::memory_order_acquire,
                                std::memory_order_relaxed)) {
      return;
    }
    if (spin < 64) continue;
    // The holder may be in an fsync: sleep until it lets go.
    b.wait(1, std::memory_order_relaxed);
  }
}

void OptimisticTransactionDBImpl::UnlockBucket(size_t i) {
  // release: pairs with LockBucket's acquire.
  buckets_[i].store(0, std::memory_order_release);
  buckets_[i].notify_all();
}

std::unique_ptr<Transaction> OptimisticTransactionDBImpl::BeginTransaction(
    const WriteOptions& write_options, const OptimisticTransactionOptions& txn_options,
    std::unique_ptr<Transaction> old_txn) {
  if (old_txn != nullptr) {
    static_cast<OptimisticTransaction*>(old_txn.get())->Reinitialize(write_options, txn_options);
    return old_txn;
  }
  return std::make_unique<OptimisticTransaction>(this, write_options, txn_options);
}

// ---- OptimisticTransaction ----

OptimisticTransaction::OptimisticTransaction(OptimisticTransactionDBImpl* txn_db,
                                             const WriteOptions& write_options,
                                             const OptimisticTransactionOptions& txn_options)
    : TransactionBase(txn_db, txn_db->dbimpl(), write_options), txn_db_(txn_db) {
  if (txn_options.set_snapshot) SetSnapshot();
}

OptimisticTransaction::~OptimisticTransaction() = default;

void OptimisticTransaction::Reinitialize(const WriteOptions& write_options,
                                         const OptimisticTransactionOptions& txn_options) {
  Reset(write_options);
  if (txn_options.set_snapshot) SetSnapshot();
}

Status OptimisticTransaction::TryLock(uint32_t cf_id, const Slice& key, bool read_only,
                                      bool exclusive, bool do_validate, bool /*assume_tracked*/) {
  // Untracked writes (PutUntracked, ...) and GetForUpdate(do_validate =
  // false) are never checked at commit, as in RocksDB.
  if (!do_validate) return Status::OK();
  const SequenceNumber seq =
      snapshot_ != nullptr ? snapshot_->GetSequenceNumber() : db_->GetLatestSequenceNumber();
  TrackKey(cf_id, key.ToString(), seq, read_only, exclusive);
  // Conflicts are found at commit.
  return Status::OK();
}

Status OptimisticTransaction::CheckConflicts() {
  const SequenceNumber snap =
      snapshot_ != nullptr ? snapshot_->GetSequenceNumber() : kMaxSequenceNumber;
  std::vector<DBImpl::KeyToCheck> memtable_only;
  std::vector<DBImpl::KeyToCheck> with_tables;
  for (const auto& [cf, keys] : tracked_keys_) {
    memtable_only.clear();
    with_tables.clear();
    for (const auto& [key, info] : keys) {
      // Tracked at (or after) a live snapshot: protected, tables may answer.
      (snap != kMaxSequenceNumber && info.seq >= snap ? with_tables : memtable_only)
          .push_back(DBImpl::KeyToCheck{Slice(key), info.seq});
    }
    Status s = dbimpl_->CheckKeysForConflicts(cf, memtable_only.data(), memtable_only.size(),
                                              /*cache_only=*/true);
    if (s.ok()) {
      s = dbimpl_->CheckKeysForConflicts(cf, with_tables.data(), with_tables.size(),
                                         /*cache_only=*/false);
    }
    if (!s.ok()) return s;
  }
  return Status::OK();
}

Status OptimisticTransaction::Commit() {
  Status s = txn_db_->validate_policy() == OccValidationPolicy::kValidateSerial ? CommitSerial()
                                                                                : CommitParallel();
  if (s.ok()) {
    ClearState();
    SetState(COMMITTED);
  }
  return s;
}

Status OptimisticTransaction::CommitSerial() {
  struct Check final : WriteThread::WriteCallback {
    explicit Check(OptimisticTransaction* t) : txn(t) {}
    Status Callback() override { return txn->CheckConflicts(); }
    // The check must see every earlier write applied: no group mates.
    bool AllowWriteBatching() override { return false; }
    OptimisticTransaction* txn;
  } check(this);
  DBImpl::TxnWrite txn;
  txn.callback = &check;
  return dbimpl_->WriteWithTxn(write_options_, write_batch_->GetWriteBatch(), txn);
}

Status OptimisticTransaction::CommitParallel() {
  std::vector<size_t> buckets;
  const size_t n = txn_db_->num_buckets();
  for (const auto& [cf, keys] : tracked_keys_) {
    for (const auto& [key, info] : keys) {
      const uint64_t h = XXH3_64(key.data(), key.size()) ^ (uint64_t{cf} * 0x9E3779B97F4A7C15ull);
      buckets.push_back(static_cast<size_t>((static_cast<__uint128_t>(h) * n) >> 64));
    }
  }
  std::sort(buckets.begin(), buckets.end());
  buckets.erase(std::unique(buckets.begin(), buckets.end()), buckets.end());
  // Ascending order: two commits never wait for each other in a cycle.
  for (size_t b : buckets) txn_db_->LockBucket(b);
  Status s = CheckConflicts();
  if (s.ok() && write_batch_->GetWriteBatch()->Count() > 0) {
    s = db_->Write(write_options_, write_batch_->GetWriteBatch());
  }
  for (size_t b : buckets) txn_db_->UnlockBucket(b);
  return s;
}

Status OptimisticTransaction::Prepare() {
  return Status::InvalidArgument("Two phase commit not supported for optimistic transactions.");
}

Status OptimisticTransaction::Rollback() {
  ClearState();
  return Status::OK();
}

Status OptimisticTransaction::SetName(const TransactionName& /*name*/) {
  return Status::InvalidArgument("Optimistic transactions cannot be named.");
}

}  // namespace strata
