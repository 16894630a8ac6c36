// rocksdb/utilities/transaction_db.h: a DB with pessimistic (locking)
// transactions, over strata::TransactionDB. TransactionDB is a DB (every DB
// call works on it; plain writes run as one-shot transactions, as in
// RocksDB). A StackableDB, as RocksDB's: GetBaseDB() is the database under
// the transaction layer (its writes take no locks), GetRootDB() the same.
// TransactionOptions is Strata's struct and TransactionDBOptions derives
// from Strata's; both carry RocksDB's field names. RocksDB's write policies
// other than WRITE_COMMITTED, range locking and custom lock managers do
// not exist (lock_mgr_handle is refused at Open; NewRangeLockManager
// returns null). Timestamped snapshots are DB snapshots listed by a
// number, kept by this layer with RocksDB's rules. WrapDB and WrapStackableDB answer NotSupported:
// Strata's transaction layer is set up only by Open (PrepareWrap, which only adjusts options in
// RocksDB, does the same here).
// Thread-safety: thread-safe; each Transaction is used by one thread.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/status.h"
#include "rocksdb/types.h"
#include "rocksdb/utilities/stackable_db.h"
#include "rocksdb/utilities/transaction.h"
#include "rocksdb/utilities/transaction_db_mutex.h"
#include "strata/utilities/transaction_db.h"

namespace rocksdb {
class TransactionDB;
class LockManager;  // RocksDB's lock manager interface (declared only)
struct RangeLockInfo;

// What TransactionDBOptions::lock_mgr_handle holds (RocksDB's interface).
// Strata's lock manager is its own: TransactionDB::Open refuses a handle.
class LockManagerHandle {
 public:
  virtual LockManager* getLockManager() = 0;
  virtual ~LockManagerHandle() {}
};

// Range-lock types (RocksDB's shapes). Strata has no range locking; they
// exist so that programs naming them compile.
struct EndpointWithString {
  std::string slice;
  bool inf_suffix;
};
struct RangeDeadlockInfo {
  TransactionID m_txn_id;
  uint32_t m_cf_id;
  bool m_exclusive;
  EndpointWithString m_start;
  EndpointWithString m_end;
};
struct RangeDeadlockPath {
  std::vector<RangeDeadlockInfo> path;
  bool limit_exceeded;
  int64_t deadlock_time;
  explicit RangeDeadlockPath(std::vector<RangeDeadlockInfo> path_entry, const int64_t& dl_time)
      : path(std::move(path_entry)), limit_exceeded(false), deadlock_time(dl_time) {}
  explicit RangeDeadlockPath(const int64_t& dl_time = 0, bool limit = false)
      : limit_exceeded(limit), deadlock_time(dl_time) {}
  bool empty() { return path.empty() && !limit_exceeded; }
};
class RangeLockManagerHandle : public LockManagerHandle {
 public:
  virtual int SetMaxLockMemory(size_t max_lock_memory) = 0;
  virtual size_t GetMaxLockMemory() = 0;
  using RangeLockStatus = std::unordered_multimap<ColumnFamilyId, RangeLockInfo>;
  using EscalationBarrierFunc = std::function<bool(const Endpoint& a, const Endpoint& b)>;
  virtual void SetEscalationBarrierFunc(EscalationBarrierFunc func) = 0;
  virtual RangeLockStatus GetRangeLockStatusData() = 0;
  class Counters {
   public:
    uint64_t escalation_count;
    uint64_t lock_wait_count;
    uint64_t current_lock_memory;
  };
  virtual Counters GetStatus() = 0;
  virtual std::vector<RangeDeadlockPath> GetRangeDeadlockInfoBuffer() = 0;
  virtual void SetRangeDeadlockInfoBufferSize(uint32_t target_size) = 0;
  virtual ~RangeLockManagerHandle() {}
};
struct RangeLockInfo {
  EndpointWithString start;
  EndpointWithString end;
  std::vector<TransactionID> ids;
  bool exclusive;
};

// Strata has no range lock manager: returns nullptr (mutex_factory is
// unused). A program that hands the result to lock_mgr_handle gets an
// ordinary point-locking TransactionDB; one that calls through it must
// check for null first.
RangeLockManagerHandle* NewRangeLockManager(
    std::shared_ptr<TransactionDBMutexFactory> mutex_factory);

// Strata's options plus RocksDB's fields Strata does not take:
//  - lock_mgr_handle: a custom lock manager; non-null is refused by Open
//    (NotSupported naming it).
//  - rollback_merge_operands, rollback_deletion_type_callback: they steer
//    how RocksDB's WRITE_PREPARED / WRITE_UNPREPARED policies roll back
//    data already in the DB; under WRITE_COMMITTED (Strata's only policy)
//    nothing is in the DB before commit, so, as in RocksDB, they have no
//    effect.
struct TransactionDBOptions : ::strata::TransactionDBOptions {
  bool rollback_merge_operands = false;
  std::shared_ptr<LockManagerHandle> lock_mgr_handle;
  std::function<bool(TransactionDB* /*db*/, ColumnFamilyHandle* /*column_family*/,
                     const Slice& /*key*/)>
      rollback_deletion_type_callback;
};
using TransactionOptions = ::strata::TransactionOptions;
// TransactionDB::Write's optimizations (see there).
struct TransactionDBWriteOptimizations {
  bool skip_concurrency_control = false;
  bool skip_duplicate_key_check = false;
};
using KeyLockInfo = ::strata::KeyLockInfo;
using DeadlockInfo = ::strata::DeadlockInfo;
using DeadlockPath = ::strata::DeadlockPath;
// WRITE_COMMITTED is the only policy built; the others are refused at Open.
using TxnDBWritePolicy = ::strata::TxnDBWritePolicy;
using ::strata::kInitialMaxDeadlocks;
using ::strata::WRITE_COMMITTED;
using ::strata::WRITE_PREPARED;
using ::strata::WRITE_UNPREPARED;

class TransactionDB : public StackableDB {
 public:
  // On success *dbptr is the caller's (delete it).
  static Status Open(const Options& options, const TransactionDBOptions& txn_db_options,
                     const std::string& dbname, TransactionDB** dbptr);
  static Status Open(const DBOptions& db_options, const TransactionDBOptions& txn_db_options,
                     const std::string& dbname,
                     const std::vector<ColumnFamilyDescriptor>& column_families,
                     std::vector<ColumnFamilyHandle*>* handles, TransactionDB** dbptr);

  // A new transaction (the caller deletes it), or old_txn reset for reuse
  // and returned.
  virtual Transaction* BeginTransaction(
      const WriteOptions& write_options,
      const TransactionOptions& txn_options = TransactionOptions(),
      Transaction* old_txn = nullptr) = 0;
  // The live transaction named `name` (a recovered prepared one included),
  // or null. Not the caller's: its owner deletes it (for a recovered one,
  // the caller may delete it after Commit or Rollback, as in RocksDB;
  // otherwise the DB does at close).
  virtual Transaction* GetTransactionByName(const TransactionName& name) = 0;
  // Every transaction in the PREPARED state, those recovered at Open
  // included (same ownership as GetTransactionByName).
  virtual void GetAllPreparedTransactions(std::vector<Transaction*>* trans) = 0;
  // The keys locked now, by column family id: each key's holders and
  // whether the lock is exclusive.
  virtual std::unordered_multimap<uint32_t, KeyLockInfo> GetLockStatusData() = 0;
  virtual std::vector<DeadlockPath> GetDeadlockInfoBuffer() = 0;
  virtual void SetDeadlockInfoBufferSize(uint32_t target_size) = 0;

  // A batch written with RocksDB's optimizations: skip_concurrency_control
  // writes without locking its keys (the caller guarantees no conflict);
  // skip_duplicate_key_check is a hint (Strata never needs the check).
  using StackableDB::Write;
  virtual Status Write(const WriteOptions& opts,
                       const TransactionDBWriteOptimizations& optimizations,
                       WriteBatch* updates) = 0;

  // Not backed (Strata's transaction layer is made only by Open): WrapDB
  // and WrapStackableDB answer NotSupported naming the call and leave
  // *dbptr null (db stays the caller's); PrepareWrap changes nothing.
  static void PrepareWrap(DBOptions* db_options,
                          std::vector<ColumnFamilyDescriptor>* column_families,
                          std::vector<size_t>* compaction_enabled_cf_indices);
  static Status WrapDB(DB* db, const TransactionDBOptions& txn_db_options,
                       const std::vector<size_t>& compaction_enabled_cf_indices,
                       const std::vector<ColumnFamilyHandle*>& handles, TransactionDB** dbptr);
  static Status WrapStackableDB(StackableDB* db, const TransactionDBOptions& txn_db_options,
                                const std::vector<size_t>& compaction_enabled_cf_indices,
                                const std::vector<ColumnFamilyHandle*>& handles,
                                TransactionDB** dbptr);

  // Timestamped snapshots (RocksDB's rules): CreateTimestampedSnapshot
  // takes a snapshot of the latest data and lists it under ts
  // (InvalidArgument for kMaxTxnTimestamp, for a ts below the newest
  // listed one, or for the newest one's ts after writes since; the newest
  // one's ts with no write since returns that snapshot). The list holds a
  // reference until ReleaseTimestampedSnapshotsOlderThan(ts) drops the
  // ones below ts, or the DB is deleted; a snapshot is released when its
  // last holder lets go, so callers must drop theirs before deleting the
  // DB. GetTimestampedSnapshot(kMaxTxnTimestamp) is the newest;
  // GetTimestampedSnapshots lists those in [ts_lb, ts_ub) (InvalidArgument
  // unless ts_lb < ts_ub).
  virtual std::pair<Status, std::shared_ptr<const Snapshot>> CreateTimestampedSnapshot(
      TxnTimestamp ts) = 0;
  std::shared_ptr<const Snapshot> GetLatestTimestampedSnapshot() const {
    return GetTimestampedSnapshot(kMaxTxnTimestamp);
  }
  virtual std::shared_ptr<const Snapshot> GetTimestampedSnapshot(TxnTimestamp ts) const = 0;
  virtual void ReleaseTimestampedSnapshotsOlderThan(TxnTimestamp ts) = 0;
  Status GetAllTimestampedSnapshots(
      std::vector<std::shared_ptr<const Snapshot>>& timestamped_snapshots) const {
    return GetTimestampedSnapshots(/*ts_lb=*/0, /*ts_ub=*/kMaxTxnTimestamp, timestamped_snapshots);
  }
  virtual Status GetTimestampedSnapshots(
      TxnTimestamp ts_lb, TxnTimestamp ts_ub,
      std::vector<std::shared_ptr<const Snapshot>>& timestamped_snapshots) const = 0;

 protected:
  explicit TransactionDB(DB* db) : StackableDB(db) {}
};
}  // namespace rocksdb
