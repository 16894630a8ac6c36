// TransactionDB: a DB whose writes go through pessimistic concurrency
// control -- a striped point-lock manager, optional deadlock detection --
// and two-phase commit with RocksDB's WAL markers. Names, defaults and
// semantics are RocksDB 7.8.3's (rocksdb/utilities/transaction_db.h) for
// the WRITE_COMMITTED policy; Strata's ownership rules apply (Open and
// BeginTransaction hand out std::unique_ptr).
//
// Plain writes on a TransactionDB (Put, Delete, Merge, SingleDelete,
// Write) run as one-shot transactions: they lock their keys, so they wait
// for (and are serialized with) transactions holding those keys.
// DeleteRange is NotSupported unless skip_concurrency_control is set (a
// range cannot be locked point by point), as in RocksDB.
//
// Open turns allow_2pc on. Prepared transactions found in the WALs at open
// come back in the PREPARED state (GetAllPreparedTransactions), holding no
// locks, ready for Commit or Rollback; their WALs are kept until then.
//
// Thread-safety: thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "strata/db.h"
#include "strata/export.h"
#include "strata/utilities/stackable_db.h"
#include "strata/utilities/transaction.h"
#include "strata/utilities/transaction_db_mutex.h"

namespace strata {

enum TxnDBWritePolicy {
  WRITE_COMMITTED = 0,  // data reaches the memtable at commit (the only one built)
  WRITE_PREPARED,       // refused at Open (NotSupported)
  WRITE_UNPREPARED,     // refused at Open (NotSupported)
};

constexpr uint32_t kInitialMaxDeadlocks = 5;

struct STRATA_EXPORT TransactionDBOptions {
  // Most keys locked at once per column family (< 0: no limit); a lock past
  // it fails with Busy (subcode kLockLimit).
  int64_t max_num_locks = -1;
  // Deadlocks kept for GetDeadlockInfoBuffer.
  uint32_t max_num_deadlocks = kInitialMaxDeadlocks;
  // Stripes of each column family's lock table.
  size_t num_stripes = 16;
  // Default lock wait of a transaction, milliseconds (< 0: forever).
  int64_t transaction_lock_timeout = 1000;
  // Lock wait of the plain writes (Put, Write, ... outside transactions).
  int64_t default_lock_timeout = 1000;
  TxnDBWritePolicy write_policy = TxnDBWritePolicy::WRITE_COMMITTED;
  // Plain writes and transactions lock nothing (the caller guarantees no
  // conflicts, e.g. during recovery or bulk loads).
  bool skip_concurrency_control = false;
  // Not built: a non-zero value is refused at Open.
  int64_t default_write_batch_flush_threshold = 0;
  // The lock manager's mutexes and condition variables
  // (transaction_db_mutex.h). Not built: a factory is refused at Open.
  std::shared_ptr<TransactionDBMutexFactory> custom_mutex_factory;
};

struct STRATA_EXPORT TransactionOptions {
  // SetSnapshot at begin.
  bool set_snapshot = false;
  // Detect deadlocks while waiting for a lock (Busy, subcode kDeadlock).
  bool deadlock_detect = false;
  // Lock wait, milliseconds (< 0: TransactionDBOptions's default; 0: no wait).
  int64_t lock_timeout = -1;
  // Milliseconds after which the transaction's locks may be taken by
  // another transaction that waits for them (< 0: never). An expired
  // transaction fails Commit with Expired.
  int64_t expiration = -1;
  // How many waits-for edges deadlock detection follows.
  int64_t deadlock_detect_depth = 50;
  // Largest write batch in bytes (0: no limit); past it writes fail with
  // MemoryLimit.
  size_t max_write_batch_size = 0;
  // This transaction locks nothing.
  bool skip_concurrency_control = false;
  // A named transaction may Commit without Prepare.
  bool skip_prepare = true;
  // WRITE_UNPREPARED's batch flushing: as in RocksDB, it has no effect
  // under WRITE_COMMITTED (the only policy built).
  int64_t write_batch_flush_threshold = -1;
  // Accepted for RocksDB compatibility; recovery always uses the commit
  // marker's batch (the only batch there is under WRITE_COMMITTED).
  bool use_only_the_last_commit_time_batch_for_recovery = false;
};

// Per key lock state (GetLockStatusData).
struct STRATA_EXPORT KeyLockInfo {
  std::string key;
  std::vector<TransactionID> ids;
  bool exclusive = false;
};

// One transaction of a deadlock cycle, and the key it waited for.
struct STRATA_EXPORT DeadlockInfo {
  TransactionID m_txn_id = 0;
  uint32_t m_cf_id = 0;
  bool m_exclusive = false;
  std::string m_waiting_key;
};

struct STRATA_EXPORT DeadlockPath {
  std::vector<DeadlockInfo> path;
  // The search gave up at deadlock_detect_depth (the cycle was assumed).
  bool limit_exceeded = false;
  int64_t deadlock_time = 0;  // seconds since the epoch
  explicit DeadlockPath(std::vector<DeadlockInfo> path_entry, const int64_t& dl_time)
      : path(std::move(path_entry)), limit_exceeded(false), deadlock_time(dl_time) {}
  explicit DeadlockPath(const int64_t& dl_time = 0, bool limit = false)
      : limit_exceeded(limit), deadlock_time(dl_time) {}
  // No cycle recorded (and the search did not give up). The non-const
  // form is RocksDB's signature.
  bool empty() const { return path.empty() && !limit_exceeded; }
  bool empty() { return static_cast<const DeadlockPath*>(this)->empty(); }
};

class STRATA_EXPORT TransactionDB : public StackableDB {
 public:
  // Opens (or creates) the DB at path with allow_2pc on.
  static Status Open(const Options& options, const TransactionDBOptions& txn_db_options,
                     const std::string& path, std::unique_ptr<TransactionDB>* db);
  static Status Open(const DBOptions& db_options, const TransactionDBOptions& txn_db_options,
                     const std::string& path,
                     const std::vector<ColumnFamilyDescriptor>& column_families,
                     std::vector<ColumnFamilyHandle*>* handles, std::unique_ptr<TransactionDB>* db);

  ~TransactionDB() override;

  // A new transaction, or old_txn reinitialized (its previous state dropped
  // as by Rollback) and returned.
  virtual std::unique_ptr<Transaction> BeginTransaction(
      const WriteOptions& write_options,
      const TransactionOptions& txn_options = TransactionOptions(),
      std::unique_ptr<Transaction> old_txn = nullptr) = 0;

  // The live named transaction called name (owned by its owner), or null.
  virtual Transaction* GetTransactionByName(const TransactionName& name) = 0;
  // Every transaction in the PREPARED state. The ones recovered at open are
  // owned by the DB until the caller deletes them (RocksDB's rule: a caller
  // may `delete` a recovered transaction after Commit or Rollback); the DB
  // deletes those left at close.
  virtual void GetAllPreparedTransactions(std::vector<Transaction*>* trans) = 0;

  // Locks held now, by column family id.
  virtual std::unordered_multimap<uint32_t, KeyLockInfo> GetLockStatusData() = 0;
  // The most recent deadlocks, oldest first.
  virtual std::vector<DeadlockPath> GetDeadlockInfoBuffer() = 0;
  virtual void SetDeadlockInfoBufferSize(uint32_t target_size) = 0;

  // Batch writes with RocksDB's optimizations: skip_concurrency_control
  // writes without locking.
  struct WriteOptimizations {
    bool skip_concurrency_control = false;
    bool skip_duplicate_key_check = false;
  };
  using StackableDB::Write;
  virtual Status Write(const WriteOptions& options, const WriteOptimizations& optimizations,
                       WriteBatch* updates) = 0;

 protected:
  explicit TransactionDB(std::unique_ptr<DB> db) : StackableDB(std::move(db)) {}
};

// RocksDB's name for TransactionDB::WriteOptimizations.
using TransactionDBWriteOptimizations = TransactionDB::WriteOptimizations;

}  // namespace strata
