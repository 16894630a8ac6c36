// PointLockManager: the per-key locks of TransactionDB (pessimistic
// transactions). Each column family has a lock table split into
// num_stripes stripes by key hash; a stripe is a mutex, a condition
// variable and a map key -> LockInfo (holders and mode). A transaction
// asks for a key in shared or exclusive mode; a compatible request is
// granted at once, an incompatible one waits on its stripe's condition
// variable until the key is free, its timeout passes (TimedOut, subcode
// kLockTimeout), a holder's expiration passes and the holder's locks can
// be stolen (the owner's StealLocks callback says yes), or -- with
// deadlock detection -- the wait would close a cycle in the waits-for
// graph (Busy, subcode kDeadlock; the cycle goes to the deadlock buffer).
// Semantics and limits are RocksDB 7.8.3's PointLockManager.
//
// Rules:
//  - Shared locks are compatible with each other; an exclusive lock with
//    nothing (except the same transaction's own locks).
//  - A transaction re-locking a key it holds succeeds: shared->shared,
//    exclusive->either; shared->exclusive (upgrade) succeeds when it is
//    the only holder, else waits like any exclusive request.
//  - max_num_locks (> 0) bounds the keys locked per column family; a new
//    key past it fails at once with Busy, subcode kLockLimit.
//  - timeout_us < 0 waits forever, 0 fails at once when not grantable;
//    a positive timeout counts from the first conflict (a lock granted at
//    once never reads the clock).
//  - A lock whose holders all have an expiration that has passed may be
//    stolen (StealLocks); a shared lock with any holder that never expires
//    (expiration_time_us 0) never expires.
//  - Without deadlock_detect a waiter has no edges in the waits-for graph:
//    a cycle through it is not seen (RocksDB's rule).
//
// REQUIRES: a transaction id is in at most one TryLock at a time (the
// waits-for graph and GetWaitingTxns are keyed by it).
//
// Thread-safety: thread-safe. Lock order: a stripe mutex, then the
// waits-for graph mutex; never two stripe mutexes at once. The deadlock
// buffer's mutex is a leaf. StealLocks runs with none of them held.
// Design, costs and the differences from RocksDB:
// docs/design/transaction-locks.md.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "strata/env.h"
#include "strata/slice.h"
#include "strata/status.h"
#include "strata/utilities/transaction_db.h"

namespace strata {

struct LockRequest {
  TransactionID txn_id = 0;
  uint32_t cf_id = 0;
  bool exclusive = true;
  // How long to wait, microseconds (< 0: forever).
  int64_t timeout_us = -1;
  // When the requester's own locks expire (SystemClock::NowMicros time;
  // 0: never). Recorded on the locks it is granted, so others can steal
  // them after that time.
  uint64_t expiration_time_us = 0;
  bool deadlock_detect = false;
  int64_t deadlock_detect_depth = 50;
};

class PointLockManager {
 public:
  // Asked, with no stripe mutex held, whether an expired holder's locks may
  // be taken: returns true if the holder is still running and is now
  // marked LOCKS_STOLEN (it will fail at Commit with Expired), false if
  // it has moved on (prepared, committing) and its locks stay.
  // It is asked on every attempt at an expired key, so again for a holder
  // already stolen (its other keys): true lets those be taken at once;
  // false (RocksDB's answer: its compare-and-swap from STARTED fails) makes
  // their waiters wait until the holder releases them or they time out.
  using StealLocks = std::function<bool(TransactionID holder)>;

  PointLockManager(const TransactionDBOptions& options, SystemClock* clock, StealLocks steal);
  ~PointLockManager();
  PointLockManager(const PointLockManager&) = delete;
  PointLockManager& operator=(const PointLockManager&) = delete;

  // Column families are added before their keys are locked and removed
  // when dropped (their locks go with them).
  void AddColumnFamily(uint32_t cf_id);
  void RemoveColumnFamily(uint32_t cf_id);

  // Locks key for req.txn_id. OK; TimedOut(kLockTimeout); Busy(kDeadlock);
  // Busy(kLockLimit); InvalidArgument for an unknown column family.
  Status TryLock(const LockRequest& req, const Slice& key);

  // Releases txn_id's lock on key (if it holds one) and wakes the waiters.
  void UnLock(TransactionID txn_id, uint32_t cf_id, const Slice& key);
  // Releases several keys of one family, taking each stripe once.
  void UnLock(TransactionID txn_id, uint32_t cf_id, const std::vector<std::string>& keys);

  // Every lock held now.
  std::unordered_multimap<uint32_t, KeyLockInfo> GetLockStatusData();
  // The last max_num_deadlocks deadlocks, oldest first.
  std::vector<DeadlockPath> GetDeadlockInfoBuffer();
  void SetDeadlockInfoBufferSize(uint32_t target_size);

  // What txn_id waits for right now (Transaction::GetWaitingTxns): the
  // holders, with the family and key; empty when it is not waiting.
  std::vector<TransactionID> GetWaitingTxns(TransactionID txn_id, uint32_t* cf_id,
                                            std::string* key);

  // Keys locked now in cf_id (tests, max_num_locks).
  size_t TEST_LockCount(uint32_t cf_id);

 private:
  struct Rep;
  std::unique_ptr<Rep> rep_;
};

}  // namespace strata
