// TransactionDB locking seen from transactions: deadlock cycles of two and
// three transactions (detected with deadlock_detect: Busy/kDeadlock, the
// cycle in GetDeadlockInfoBuffer, the others commit once the victim rolls
// back; without it: lock timeouts), expiration (a waiter steals an expired
// holder's lock, whose Commit then fails with Expired), max_num_locks,
// GetWaitingTxns while waiting, MultiGetForUpdate,
// SetSnapshotOnNextOperation with a notifier, and the PinnableSlice reads.
// (The lock manager's own rules are in lock/point_lock_manager_test.cc.)
#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "strata/utilities/transaction_db.h"
#include "strata/utilities/write_batch_with_index.h"
#include "test_util/testutil.h"
#include "test_util/transaction_test_base.h"

namespace strata {
namespace {

// Polls pred until it holds (true) or 10 s pass (false).
template <typename Pred>
bool WaitUntil(Pred pred) {
  for (int i = 0; i < 10000; i++) {
    if (pred()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return false;
}

class TransactionLockTest : public TransactionDBTestBase {
 protected:
  TransactionLockTest() : TransactionDBTestBase("transaction_lock_test", 100) { Open(); }

  using TransactionDBTestBase::Begin;
  std::unique_ptr<Transaction> Begin(bool deadlock_detect, int64_t lock_timeout_ms = 10000) {
    TransactionOptions o;
    o.deadlock_detect = deadlock_detect;
    o.lock_timeout = lock_timeout_ms;
    return db_->BeginTransaction(WriteOptions(), o);
  }
  // True once txn waits for a lock held by `holder`.
  static bool WaitsFor(Transaction* txn, TransactionID holder) {
    uint32_t cf = 0;
    std::string key;
    auto ids = txn->GetWaitingTxns(&cf, &key);
    return std::find(ids.begin(), ids.end(), holder) != ids.end();
  }
};

std::string CycleKey(int i) { return "key" + std::to_string(i); }

// A cycle of n transactions: txn i holds key i and asks for key i+1 (the
// first n-1 in threads, waiting); the last one closes the cycle and is the
// victim.
TEST_F(TransactionLockTest, DeadlockCyclesAreDetected) {
  for (int n : {2, 3}) {
    SCOPED_TRACE("cycle of " + std::to_string(n));
    std::vector<std::unique_ptr<Transaction>> txns;
    std::vector<TransactionID> ids;
    for (int i = 0; i < n; i++) {
      txns.push_back(Begin(/*deadlock_detect=*/true));
      ids.push_back(txns.back()->GetID());
      ASSERT_OK(txns[i]->Put(CycleKey(i), "held" + std::to_string(i)));
    }
    std::set<TransactionID> unique_ids(ids.begin(), ids.end());
    ASSERT_EQ(static_cast<size_t>(n), unique_ids.size());
    std::vector<Status> waits(n - 1);
    std::vector<std::thread> threads;
    for (int i = 0; i < n - 1; i++) {
      threads.emplace_back([&, i] {
        std::string v;
        waits[i] = txns[i]->GetForUpdate(ReadOptions(), CycleKey(i + 1), &v);
      });
      ASSERT_TRUE(WaitUntil([&] { return WaitsFor(txns[i].get(), ids[i + 1]); }));
      uint32_t cf = 99;
      std::string key;
      auto waiting = txns[i]->GetWaitingTxns(&cf, &key);
      EXPECT_EQ(std::vector<TransactionID>{ids[i + 1]}, waiting);
      EXPECT_EQ(0u, cf);
      EXPECT_EQ(CycleKey(i + 1), key);
    }
    // The last closes the cycle: refused at once, not after the timeout.
    const auto start = std::chrono::steady_clock::now();
    std::string v;
    Status s = txns[n - 1]->GetForUpdate(ReadOptions(), CycleKey(0), &v);
    const auto waited = std::chrono::steady_clock::now() - start;
    EXPECT_TRUE(s.IsBusy()) << s.ToString();
    EXPECT_EQ(Status::kDeadlock, s.subcode()) << s.ToString();
    EXPECT_LT(waited, std::chrono::seconds(5));
    // The cycle is in the buffer, with each transaction and the key it
    // waited for.
    auto buffer = db_->GetDeadlockInfoBuffer();
    ASSERT_FALSE(buffer.empty());
    const DeadlockPath& path = buffer.back();
    EXPECT_FALSE(path.limit_exceeded);
    EXPECT_GT(path.deadlock_time, 0);
    ASSERT_EQ(static_cast<size_t>(n), path.path.size());
    std::set<std::pair<TransactionID, std::string>> got, want;
    for (const DeadlockInfo& d : path.path) {
      got.insert({d.m_txn_id, d.m_waiting_key});
      EXPECT_TRUE(d.m_exclusive);
      EXPECT_EQ(0u, d.m_cf_id);
    }
    for (int i = 0; i < n; i++) want.insert({ids[i], CycleKey((i + 1) % n)});
    EXPECT_EQ(want, got);
    // The victim rolls back; the others get their keys one after another.
    ASSERT_OK(txns[n - 1]->Rollback());
    for (int i = n - 2; i >= 0; i--) {
      threads[i].join();
      // The victim's key was never written; the others were committed.
      if (i == n - 2) {
        EXPECT_TRUE(waits[i].IsNotFound()) << "waiter " << i << ": " << waits[i].ToString();
      } else {
        ASSERT_TRUE(waits[i].ok()) << "waiter " << i << ": " << waits[i].ToString();
      }
      ASSERT_OK(txns[i]->Put(CycleKey(i + 1), "by" + std::to_string(i)));
      ASSERT_OK(txns[i]->Commit());
    }
    EXPECT_EQ("by0", Get(CycleKey(1)));
    EXPECT_EQ("held0", Get(CycleKey(0)));
    if (n == 3) {
      EXPECT_EQ("by1", Get(CycleKey(2)));
    }
    EXPECT_TRUE(db_->GetLockStatusData().empty());
  }
  // Both cycles were kept (the default buffer holds 5).
  auto buffer = db_->GetDeadlockInfoBuffer();
  ASSERT_EQ(2u, buffer.size());
  EXPECT_EQ(2u, buffer[0].path.size());
  EXPECT_EQ(3u, buffer[1].path.size());
  // Shrinking the buffer keeps the newest.
  db_->SetDeadlockInfoBufferSize(1);
  buffer = db_->GetDeadlockInfoBuffer();
  ASSERT_EQ(1u, buffer.size());
  EXPECT_EQ(3u, buffer[0].path.size());
}

// Without deadlock detection the same cycle ends in lock timeouts, and no
// deadlock is recorded.
TEST_F(TransactionLockTest, CycleWithoutDetectionTimesOut) {
  auto t1 = Begin(/*deadlock_detect=*/false, /*lock_timeout_ms=*/300);
  auto t2 = Begin(/*deadlock_detect=*/false, /*lock_timeout_ms=*/50);
  ASSERT_OK(t1->Put("a", "1"));
  ASSERT_OK(t2->Put("b", "2"));
  Status s1;
  std::thread waiter([&] {
    std::string v;
    s1 = t1->GetForUpdate(ReadOptions(), "b", &v);
  });
  ASSERT_TRUE(WaitUntil([&] { return WaitsFor(t1.get(), t2->GetID()); }));
  std::string v;
  Status s2 = t2->GetForUpdate(ReadOptions(), "a", &v);
  EXPECT_TRUE(s2.IsTimedOut()) << s2.ToString();
  EXPECT_EQ(Status::kLockTimeout, s2.subcode());
  waiter.join();  // t2 still holds b
  EXPECT_TRUE(s1.IsTimedOut()) << s1.ToString();
  EXPECT_EQ(Status::kLockTimeout, s1.subcode());
  EXPECT_TRUE(db_->GetDeadlockInfoBuffer().empty());
  // Both keep what they had and can commit.
  ASSERT_OK(t1->Commit());
  ASSERT_OK(t2->Commit());
  EXPECT_EQ("1", Get("a"));
  EXPECT_EQ("2", Get("b"));
  // SetLockTimeout changes the wait of a running transaction: 0 fails at
  // once.
  auto t3 = Begin(false);
  auto t4 = Begin(false);
  ASSERT_OK(t3->Put("a", "3"));
  t4->SetLockTimeout(0);
  const auto start = std::chrono::steady_clock::now();
  s2 = t4->Put("a", "4");
  EXPECT_TRUE(s2.IsTimedOut()) << s2.ToString();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  ASSERT_OK(t3->Rollback());
  ASSERT_OK(t4->Put("a", "4"));
  ASSERT_OK(t4->Commit());
  EXPECT_EQ("4", Get("a"));
}

// An expired transaction's lock is taken by a waiter; the expired one's
// Commit returns Expired and writes nothing.
TEST_F(TransactionLockTest, ExpiredLocksAreStolen) {
  TransactionOptions exp;
  exp.expiration = 50;
  auto t1 = db_->BeginTransaction(WriteOptions(), exp);
  ASSERT_OK(t1->Put("k", "t1"));
  ASSERT_OK(t1->Put("k2", "t1"));
  // A waiter that starts before the expiration gets the lock once it
  // passes (its own timeout is long).
  auto t2 = Begin(false, /*lock_timeout_ms=*/10000);
  const auto start = std::chrono::steady_clock::now();
  ASSERT_OK(t2->Put("k", "t2"));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  EXPECT_EQ(Transaction::LOCKS_STOLEN, t1->GetState());
  Status s = t1->Commit();
  EXPECT_TRUE(s.IsExpired()) << s.ToString();
  EXPECT_EQ(2u, db_->GetLockStatusData().size());  // k2 (t1) and k (t2)
  ASSERT_OK(t1->Rollback());                       // releases k2
  ASSERT_OK(t2->Commit());
  EXPECT_EQ("t2", Get("k"));
  EXPECT_EQ("NOT_FOUND", Get("k2"));  // nothing of t1 was written
  // A plain write steals too.
  auto t3 = db_->BeginTransaction(WriteOptions(), exp);
  ASSERT_OK(t3->Put("p", "t3"));
  std::this_thread::sleep_for(std::chrono::milliseconds(60));
  ASSERT_OK(db_->Put(WriteOptions(), "p", "plain"));
  EXPECT_TRUE(t3->Commit().IsExpired());
  ASSERT_OK(t3->Rollback());
  EXPECT_EQ("plain", Get("p"));
  // An expired transaction nobody waited for cannot commit either.
  auto t4 = db_->BeginTransaction(WriteOptions(), exp);
  ASSERT_OK(t4->Put("q", "t4"));
  std::this_thread::sleep_for(std::chrono::milliseconds(60));
  EXPECT_TRUE(t4->Commit().IsExpired());
  EXPECT_EQ("NOT_FOUND", Get("q"));
  ASSERT_OK(t4->Rollback());
  EXPECT_TRUE(db_->GetLockStatusData().empty());
  // A transaction that does not expire keeps its lock: the waiter times out.
  auto t5 = Begin(false);
  ASSERT_OK(t5->Put("k", "t5"));
  auto t6 = Begin(false, 50);
  EXPECT_TRUE(t6->Put("k", "t6").IsTimedOut());
  ASSERT_OK(t5->Commit());
}

// A prepared transaction no longer expires: its locks cannot be stolen and
// it commits after its expiration time.
TEST_F(TransactionLockTest, PreparedTransactionsDoNotExpire) {
  TransactionOptions exp;
  exp.expiration = 30;
  auto t1 = db_->BeginTransaction(WriteOptions(), exp);
  ASSERT_OK(t1->SetName("prepared-expirable"));
  ASSERT_OK(t1->Put("k", "t1"));
  ASSERT_OK(t1->Prepare());
  std::this_thread::sleep_for(std::chrono::milliseconds(60));
  auto t2 = Begin(false, /*lock_timeout_ms=*/50);
  Status s = t2->Put("k", "t2");
  EXPECT_TRUE(s.IsTimedOut()) << s.ToString();
  EXPECT_EQ(Transaction::PREPARED, t1->GetState());
  ASSERT_OK(t1->Commit());
  ASSERT_OK(t2->Put("k", "t2"));
  ASSERT_OK(t2->Commit());
  EXPECT_EQ("t2", Get("k"));
}

// A transaction destroyed before Commit rolls back and wakes its waiters.
TEST_F(TransactionLockTest, DestroyedTransactionReleasesLocks) {
  auto t1 = Begin(false);
  ASSERT_OK(t1->Put("k", "t1"));
  Status waited;
  auto t2 = Begin(false, /*lock_timeout_ms=*/10000);
  std::thread waiter([&] { waited = t2->Put("k", "t2"); });
  ASSERT_TRUE(WaitUntil([&] { return WaitsFor(t2.get(), t1->GetID()); }));
  t1.reset();
  waiter.join();
  ASSERT_OK(waited);
  ASSERT_OK(t2->Commit());
  EXPECT_EQ("t2", Get("k"));
  EXPECT_TRUE(db_->GetLockStatusData().empty());
}

TEST_F(TransactionLockTest, MaxNumLocks) {
  txn_db_options_.max_num_locks = 3;
  Reopen();
  auto t1 = Begin(false);
  ASSERT_OK(t1->Put("a", "1"));
  ASSERT_OK(t1->Put("b", "1"));
  std::string v;
  EXPECT_TRUE(t1->GetForUpdate(ReadOptions(), "c", &v).IsNotFound());
  ASSERT_OK(t1->Put("a", "2"));  // already locked: no new lock
  Status s = t1->Put("d", "1");
  EXPECT_TRUE(s.IsBusy()) << s.ToString();
  EXPECT_EQ(Status::kLockLimit, s.subcode());
  // The limit is per DB column family, across transactions.
  auto t2 = Begin(false);
  s = t2->Put("e", "1");
  EXPECT_TRUE(s.IsBusy()) << s.ToString();
  EXPECT_EQ(Status::kLockLimit, s.subcode());
  ASSERT_OK(t1->Commit());
  ASSERT_OK(t2->Put("e", "1"));
  ASSERT_OK(t2->Commit());
  EXPECT_EQ("2", Get("a"));
  EXPECT_EQ("1", Get("e"));
  EXPECT_EQ("NOT_FOUND", Get("d"));
}

TEST_F(TransactionLockTest, MultiGetForUpdate) {
  ASSERT_OK(db_->Put(WriteOptions(), "a", "1"));
  ASSERT_OK(db_->Put(WriteOptions(), "c", "3"));
  auto t1 = Begin(false);
  ASSERT_OK(t1->Put("c", "own"));
  std::vector<std::string> values;
  auto st = t1->MultiGetForUpdate(ReadOptions(), {"a", "b", "c"}, &values);
  ASSERT_EQ(3u, st.size());
  ASSERT_OK(st[0]);
  EXPECT_TRUE(st[1].IsNotFound()) << st[1].ToString();
  ASSERT_OK(st[2]);
  EXPECT_EQ("1", values[0]);
  EXPECT_EQ("own", values[2]);
  // Every key is locked, also the missing one.
  auto t2 = Begin(false, 20);
  for (const char* k : {"a", "b", "c"}) {
    Status s = t2->Put(k, "x");
    EXPECT_TRUE(s.IsTimedOut()) << k << ": " << s.ToString();
  }
  auto locks = db_->GetLockStatusData();
  EXPECT_EQ(3u, locks.size());
  for (const auto& [cf, info] : locks) {
    EXPECT_EQ(0u, cf);
    EXPECT_EQ(std::vector<TransactionID>{t1->GetID()}, info.ids);
    EXPECT_TRUE(info.exclusive);
  }
  ASSERT_OK(t1->Commit());
  ASSERT_OK(t2->Put("b", "x"));
  ASSERT_OK(t2->Commit());
  EXPECT_EQ("x", Get("b"));
  EXPECT_EQ("own", Get("c"));
}

class RecordingNotifier : public TransactionNotifier {
 public:
  void SnapshotCreated(const Snapshot* s) override {
    calls++;
    snapshot = s;
  }
  int calls = 0;
  const Snapshot* snapshot = nullptr;
};

TEST_F(TransactionLockTest, SetSnapshotOnNextOperation) {
  auto notifier = std::make_shared<RecordingNotifier>();
  auto t = Begin(false);
  t->SetSnapshotOnNextOperation(notifier);
  EXPECT_EQ(nullptr, t->GetSnapshot());
  EXPECT_EQ(0, notifier->calls);
  // A write before the operation is not a conflict.
  ASSERT_OK(db_->Put(WriteOptions(), "k", "before"));
  ASSERT_OK(t->Put("x", "1"));
  ASSERT_NE(nullptr, t->GetSnapshot());
  EXPECT_EQ(1, notifier->calls);
  EXPECT_EQ(t->GetSnapshot(), notifier->snapshot);
  ASSERT_OK(t->Put("k", "t"));  // written before the snapshot: fine
  // A write after it is.
  ASSERT_OK(db_->Put(WriteOptions(), "j", "after"));
  std::string v;
  Status s = t->GetForUpdate(ReadOptions(), "j", &v);
  EXPECT_TRUE(s.IsBusy()) << s.ToString();
  // The lock of the refused key was released.
  ASSERT_OK(db_->Put(WriteOptions(), "j", "again"));
  // Only one snapshot per request.
  ASSERT_OK(t->Put("y", "1"));
  EXPECT_EQ(1, notifier->calls);
  ASSERT_OK(t->Commit());
  EXPECT_EQ("t", Get("k"));
  // GetForUpdate also takes the pending snapshot; a plain Get does not.
  auto t2 = Begin(false);
  t2->SetSnapshotOnNextOperation();
  EXPECT_TRUE(t2->Get(ReadOptions(), "none", &v).IsNotFound());
  EXPECT_EQ(nullptr, t2->GetSnapshot());
  EXPECT_TRUE(t2->GetForUpdate(ReadOptions(), "none", &v).IsNotFound());
  EXPECT_NE(nullptr, t2->GetSnapshot());
  t2->ClearSnapshot();
  EXPECT_EQ(nullptr, t2->GetSnapshot());
  ASSERT_OK(t2->Rollback());
}

// GetTimestampedSnapshot shares the transaction's snapshot: it outlives
// ClearSnapshot while held, and reads through it see the data of then.
TEST_F(TransactionLockTest, SharedSnapshotOutlivesClear) {
  auto t = Begin(false);
  EXPECT_EQ(nullptr, t->GetTimestampedSnapshot());
  ASSERT_OK(db_->Put(WriteOptions(), "k", "old"));
  t->SetSnapshot();
  std::shared_ptr<const Snapshot> held = t->GetTimestampedSnapshot();
  ASSERT_NE(nullptr, held);
  EXPECT_EQ(t->GetSnapshot(), held.get());
  ASSERT_OK(db_->Put(WriteOptions(), "k", "new"));
  t->ClearSnapshot();
  EXPECT_EQ(nullptr, t->GetTimestampedSnapshot());
  ReadOptions ro;
  ro.snapshot = held.get();
  std::string v;
  ASSERT_OK(db_->Get(ro, "k", &v));
  EXPECT_EQ("old", v);
  held.reset();
  ASSERT_OK(t->Rollback());
}

TEST_F(TransactionLockTest, PinnableSliceReads) {
  ASSERT_OK(db_->Put(WriteOptions(), "db", "from-db"));
  ASSERT_OK(db_->Flush(FlushOptions()));
  auto t = Begin(false);
  ASSERT_OK(t->Put("own", "from-txn"));
  PinnableSlice p;
  ASSERT_OK(t->Get(ReadOptions(), "db", &p));
  EXPECT_EQ("from-db", p.ToString());
  p.Reset();
  ASSERT_OK(t->Get(ReadOptions(), "own", &p));
  EXPECT_EQ("from-txn", p.ToString());
  p.Reset();
  EXPECT_TRUE(t->Get(ReadOptions(), "none", &p).IsNotFound());
  p.Reset();
  ASSERT_OK(t->GetForUpdate(ReadOptions(), nullptr, "db", &p));
  EXPECT_EQ("from-db", p.ToString());
  p.Reset();
  ASSERT_OK(t->GetForUpdate(ReadOptions(), nullptr, "own", &p));
  EXPECT_EQ("from-txn", p.ToString());
  p.Reset();
  // GetForUpdate through a PinnableSlice locks like the string form.
  auto t2 = Begin(false, 20);
  EXPECT_TRUE(t2->Put("db", "x").IsTimedOut());
  ASSERT_OK(t->Commit());
  ASSERT_OK(t2->Put("db", "x"));
  ASSERT_OK(t2->Commit());
  EXPECT_EQ("x", Get("db"));
}

}  // namespace
}  // namespace strata
