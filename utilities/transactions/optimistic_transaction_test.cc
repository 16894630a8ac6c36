// OptimisticTransactionDB: read-your-own-writes, the commit-time conflict
// check (write-write, read-write through GetForUpdate, DeleteRange by
// others) against the memtables and, with a snapshot, the tables;
// TryAgain when the memtables no longer reach back; save points,
// iterators, column families, merge operators, what optimistic
// transactions refuse (Prepare, SetName) and the reuse of a transaction
// object. Every test runs under both validation policies (serial, and
// parallel with 4 buckets so that unrelated keys share commit locks).
#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "strata/merge_operator.h"
#include "strata/utilities/optimistic_transaction_db.h"
#include "strata/utilities/write_batch_with_index.h"
#include "strata/write_batch.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

class OptimisticTransactionTest : public ::testing::TestWithParam<OccValidationPolicy> {
 protected:
  OptimisticTransactionTest() : dir_("optimistic_transaction_test") {
    options_.create_if_missing = true;
    options_.merge_operator = MergeOperators::CreateStringAppendOperator();
    occ_options_.validate_policy = GetParam();
    occ_options_.occ_lock_buckets = 4;  // unrelated keys share buckets
    Open();
  }
  ~OptimisticTransactionTest() override { Close(); }

  std::string Path() const { return dir_.path() + "/db"; }
  void Open(const std::vector<std::string>& cfs = {}) {
    std::vector<ColumnFamilyDescriptor> fams = {{kDefaultColumnFamilyName, options_}};
    for (const std::string& n : cfs) fams.emplace_back(n, options_);
    ASSERT_OK(OptimisticTransactionDB::Open(options_, occ_options_, Path(), fams, &handles_, &db_));
  }
  void Close() {
    for (auto* h : handles_) EXPECT_OK(db_->DestroyColumnFamilyHandle(h));
    handles_.clear();
    db_.reset();
  }
  std::string Get(const std::string& k, ColumnFamilyHandle* cf = nullptr) {
    std::string v;
    Status s = db_->Get(ReadOptions(), cf != nullptr ? cf : db_->DefaultColumnFamily(), k, &v);
    if (s.IsNotFound()) return "NOT_FOUND";
    EXPECT_OK(s);
    return v;
  }
  std::unique_ptr<Transaction> Begin(bool set_snapshot = false) {
    OptimisticTransactionOptions o;
    o.set_snapshot = set_snapshot;
    return db_->BeginTransaction(WriteOptions(), o);
  }
  void Flush() { ASSERT_OK(db_->Flush(FlushOptions())); }

  test::TempDir dir_;
  Options options_;
  OptimisticTransactionDBOptions occ_options_;
  std::vector<ColumnFamilyHandle*> handles_;
  std::unique_ptr<OptimisticTransactionDB> db_;
};

TEST_P(OptimisticTransactionTest, ReadYourOwnWrites) {
  ASSERT_OK(db_->Put(WriteOptions(), "a", "0"));
  ASSERT_OK(db_->Put(WriteOptions(), "c", "0"));
  auto txn = Begin();
  ASSERT_OK(txn->Put("a", "1"));
  ASSERT_OK(txn->Put("b", "2"));
  ASSERT_OK(txn->Delete("c"));
  ASSERT_OK(txn->SingleDelete("d"));
  std::string v;
  ASSERT_OK(txn->Get(ReadOptions(), "a", &v));
  EXPECT_EQ("1", v);
  ASSERT_OK(txn->GetForUpdate(ReadOptions(), "b", &v));
  EXPECT_EQ("2", v);
  EXPECT_TRUE(txn->Get(ReadOptions(), "c", &v).IsNotFound());
  PinnableSlice pinned;
  ASSERT_OK(txn->Get(ReadOptions(), "a", &pinned));
  EXPECT_EQ("1", pinned.ToString());
  std::vector<std::string> values;
  auto statuses = txn->MultiGet(ReadOptions(), {"a", "b", "c", "zz"}, &values);
  ASSERT_EQ(4u, statuses.size());
  ASSERT_OK(statuses[0]);
  ASSERT_OK(statuses[1]);
  EXPECT_TRUE(statuses[2].IsNotFound());
  EXPECT_TRUE(statuses[3].IsNotFound());
  EXPECT_EQ("1", values[0]);
  EXPECT_EQ("2", values[1]);
  // Outside, nothing yet.
  EXPECT_EQ("0", Get("a"));
  EXPECT_EQ("NOT_FOUND", Get("b"));
  EXPECT_EQ("0", Get("c"));
  EXPECT_EQ(4u, txn->GetNumKeys());
  EXPECT_EQ(2u, txn->GetNumPuts());
  EXPECT_EQ(2u, txn->GetNumDeletes());
  EXPECT_EQ(0u, txn->GetID());
  ASSERT_OK(txn->Commit());
  EXPECT_EQ(Transaction::COMMITTED, txn->GetState());
  EXPECT_EQ("1", Get("a"));
  EXPECT_EQ("2", Get("b"));
  EXPECT_EQ("NOT_FOUND", Get("c"));
  // An empty transaction commits.
  auto empty = Begin();
  ASSERT_OK(empty->Commit());
}

TEST_P(OptimisticTransactionTest, WriteWriteConflictIsBusyAndRollbackWorks) {
  ASSERT_OK(db_->Put(WriteOptions(), "k", "0"));
  auto t1 = Begin();
  auto t2 = Begin();
  ASSERT_OK(t1->Put("k", "1"));
  ASSERT_OK(t1->Put("other", "1"));
  ASSERT_OK(t2->Put("k", "2"));  // nothing is locked
  ASSERT_OK(t2->Commit());
  Status s = t1->Commit();
  EXPECT_TRUE(s.IsBusy()) << s.ToString();
  EXPECT_EQ("2", Get("k"));
  EXPECT_EQ("NOT_FOUND", Get("other"));  // nothing of t1 was written
  // The transaction is unchanged: its writes are still readable.
  std::string v;
  ASSERT_OK(t1->Get(ReadOptions(), "k", &v));
  EXPECT_EQ("1", v);
  ASSERT_OK(t1->Rollback());
  EXPECT_TRUE(t1->Get(ReadOptions(), "other", &v).IsNotFound());
  EXPECT_EQ(0u, t1->GetNumKeys());
  // A plain DB write is a conflict too.
  auto t3 = Begin();
  ASSERT_OK(t3->Put("k", "3"));
  ASSERT_OK(db_->Put(WriteOptions(), "k", "plain"));
  EXPECT_TRUE(t3->Commit().IsBusy());
  ASSERT_OK(t3->Rollback());
  EXPECT_EQ("plain", Get("k"));
  // A delete by someone else conflicts as well.
  auto t4 = Begin();
  ASSERT_OK(t4->Put("k", "4"));
  ASSERT_OK(db_->Delete(WriteOptions(), "k"));
  EXPECT_TRUE(t4->Commit().IsBusy());
  EXPECT_EQ("NOT_FOUND", Get("k"));
}

TEST_P(OptimisticTransactionTest, ReadWriteConflictThroughGetForUpdate) {
  ASSERT_OK(db_->Put(WriteOptions(), "r", "0"));
  auto t1 = Begin();
  std::string v;
  ASSERT_OK(t1->GetForUpdate(ReadOptions(), "r", &v));
  EXPECT_EQ("0", v);
  ASSERT_OK(t1->Put("w", v + "x"));
  ASSERT_OK(db_->Put(WriteOptions(), "r", "1"));
  EXPECT_TRUE(t1->Commit().IsBusy());
  ASSERT_OK(t1->Rollback());
  EXPECT_EQ("NOT_FOUND", Get("w"));
  // A plain Get tracks nothing: no conflict.
  auto t2 = Begin();
  ASSERT_OK(t2->Get(ReadOptions(), "r", &v));
  ASSERT_OK(t2->Put("w", v));
  ASSERT_OK(db_->Put(WriteOptions(), "r", "2"));
  ASSERT_OK(t2->Commit());
  EXPECT_EQ("1", Get("w"));
  // GetForUpdate of a missing key conflicts with its creation.
  auto t3 = Begin();
  EXPECT_TRUE(t3->GetForUpdate(ReadOptions(), "new", &v).IsNotFound());
  ASSERT_OK(db_->Put(WriteOptions(), "new", "1"));
  EXPECT_TRUE(t3->Commit().IsBusy());
  // UndoGetForUpdate is a no-op for optimistic transactions in RocksDB's
  // sense only when writes need the key; a read-only tracking is dropped.
  auto t4 = Begin();
  ASSERT_OK(t4->GetForUpdate(ReadOptions(), "r", &v));
  t4->UndoGetForUpdate("r");
  ASSERT_OK(db_->Put(WriteOptions(), "r", "3"));
  ASSERT_OK(t4->Commit());
}

TEST_P(OptimisticTransactionTest, NoConflictWithEarlierWrites) {
  // Without a snapshot: the key's tracking point is when it was first
  // touched; writes before it do not conflict.
  auto t1 = Begin();
  ASSERT_OK(db_->Put(WriteOptions(), "k", "before"));
  ASSERT_OK(t1->Put("k", "1"));
  ASSERT_OK(t1->Commit());
  EXPECT_EQ("1", Get("k"));
  // With a snapshot: writes before the snapshot do not conflict, later
  // ones do even if they came before the key was touched.
  ASSERT_OK(db_->Put(WriteOptions(), "s", "before"));
  auto t2 = Begin(/*set_snapshot=*/true);
  ASSERT_OK(t2->Put("s", "2"));
  ASSERT_OK(t2->Commit());
  EXPECT_EQ("2", Get("s"));
  auto t3 = Begin(/*set_snapshot=*/true);
  ASSERT_OK(db_->Put(WriteOptions(), "s", "after-snapshot"));
  ASSERT_OK(t3->Put("s", "3"));
  EXPECT_TRUE(t3->Commit().IsBusy());
  // Writes to other keys never conflict.
  auto t4 = Begin(/*set_snapshot=*/true);
  ASSERT_OK(t4->Put("x", "4"));
  ASSERT_OK(db_->Put(WriteOptions(), "y", "other"));
  ASSERT_OK(t4->Commit());
  EXPECT_EQ("4", Get("x"));
  // SetSnapshot later moves the point forward.
  auto t5 = Begin(/*set_snapshot=*/true);
  ASSERT_OK(db_->Put(WriteOptions(), "z", "1"));
  t5->SetSnapshot();
  ASSERT_OK(t5->Put("z", "5"));
  ASSERT_OK(t5->Commit());
  EXPECT_EQ("5", Get("z"));
}

// Without a snapshot, a key tracked before the oldest memtable's history
// cannot be checked: TryAgain (RocksDB's rule), and the transaction can be
// rolled back. A key tracked after the flush is checkable.
TEST_P(OptimisticTransactionTest, TryAgainWhenTheMemtablesNoLongerReachBack) {
  auto t1 = Begin();
  ASSERT_OK(t1->Put("k", "1"));
  ASSERT_OK(db_->Put(WriteOptions(), "unrelated", "x"));
  Flush();
  Status s = t1->Commit();
  EXPECT_TRUE(s.IsTryAgain()) << s.ToString();
  EXPECT_EQ("NOT_FOUND", Get("k"));
  ASSERT_OK(t1->Rollback());
  // Tracked after the flush: fine.
  auto t2 = Begin();
  ASSERT_OK(t2->Put("k", "2"));
  ASSERT_OK(t2->Commit());
  EXPECT_EQ("2", Get("k"));
  // Also when the flush left the memtable empty and nothing came after.
  Flush();
  auto t3 = Begin();
  ASSERT_OK(t3->Put("k", "3"));
  ASSERT_OK(t3->Commit());
  EXPECT_EQ("3", Get("k"));
}

// With a snapshot and a flush in between, the tables decide.
TEST_P(OptimisticTransactionTest, SnapshotAndFlushTablesDecide) {
  ASSERT_OK(db_->Put(WriteOptions(), "a", "0"));
  ASSERT_OK(db_->Put(WriteOptions(), "b", "0"));
  auto conflicting = Begin(/*set_snapshot=*/true);
  auto clean = Begin(/*set_snapshot=*/true);
  std::string v;
  ASSERT_OK(conflicting->GetForUpdate(ReadOptions(), "a", &v));
  ASSERT_OK(conflicting->Put("a", "c"));
  ASSERT_OK(clean->GetForUpdate(ReadOptions(), "b", &v));
  ASSERT_OK(clean->Put("b", "c"));
  ASSERT_OK(db_->Put(WriteOptions(), "a", "outside"));
  Flush();
  ASSERT_OK(db_->Put(WriteOptions(), "fill", "x"));
  Flush();  // the conflicting write is in a table, two memtables back
  Status s = conflicting->Commit();
  EXPECT_TRUE(s.IsBusy()) << s.ToString();
  ASSERT_OK(conflicting->Rollback());
  ASSERT_OK(clean->Commit());
  EXPECT_EQ("outside", Get("a"));
  EXPECT_EQ("c", Get("b"));
  // A delete that reached the tables conflicts too, also after compaction
  // (the snapshot keeps the tombstone).
  auto t = Begin(/*set_snapshot=*/true);
  ASSERT_OK(t->Put("b", "t"));
  ASSERT_OK(db_->Delete(WriteOptions(), "b"));
  Flush();
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  EXPECT_TRUE(t->Commit().IsBusy());
  EXPECT_EQ("NOT_FOUND", Get("b"));
}

TEST_P(OptimisticTransactionTest, DeleteRangeByOthersIsAConflict) {
  ASSERT_OK(db_->Put(WriteOptions(), "m", "0"));
  auto t1 = Begin();
  std::string v;
  ASSERT_OK(t1->GetForUpdate(ReadOptions(), "m", &v));
  ASSERT_OK(t1->Put("m", "1"));
  ASSERT_OK(db_->DeleteRange(WriteOptions(), db_->DefaultColumnFamily(), "l", "n"));
  EXPECT_TRUE(t1->Commit().IsBusy());
  ASSERT_OK(t1->Rollback());
  EXPECT_EQ("NOT_FOUND", Get("m"));
  // A range that misses the key is no conflict.
  auto t2 = Begin();
  ASSERT_OK(t2->Put("m", "2"));
  ASSERT_OK(db_->DeleteRange(WriteOptions(), db_->DefaultColumnFamily(), "a", "b"));
  ASSERT_OK(t2->Commit());
  EXPECT_EQ("2", Get("m"));
  // Through the tables, with a snapshot.
  auto t3 = Begin(/*set_snapshot=*/true);
  ASSERT_OK(t3->Put("m", "3"));
  ASSERT_OK(db_->DeleteRange(WriteOptions(), db_->DefaultColumnFamily(), "m", "mm"));
  Flush();
  EXPECT_TRUE(t3->Commit().IsBusy());
  EXPECT_EQ("NOT_FOUND", Get("m"));
}

TEST_P(OptimisticTransactionTest, SavePoints) {
  auto t = Begin();
  EXPECT_TRUE(t->RollbackToSavePoint().IsNotFound());
  EXPECT_TRUE(t->PopSavePoint().IsNotFound());
  ASSERT_OK(t->Put("a", "1"));
  t->SetSavePoint();
  ASSERT_OK(t->Put("a", "2"));
  ASSERT_OK(t->Put("b", "2"));
  t->SetSavePoint();
  ASSERT_OK(t->Delete("a"));
  std::string v;
  EXPECT_TRUE(t->Get(ReadOptions(), "a", &v).IsNotFound());
  ASSERT_OK(t->RollbackToSavePoint());
  ASSERT_OK(t->Get(ReadOptions(), "a", &v));
  EXPECT_EQ("2", v);
  ASSERT_OK(t->RollbackToSavePoint());
  ASSERT_OK(t->Get(ReadOptions(), "a", &v));
  EXPECT_EQ("1", v);
  EXPECT_TRUE(t->Get(ReadOptions(), "b", &v).IsNotFound());
  EXPECT_EQ(1u, t->GetNumPuts());
  t->SetSavePoint();
  ASSERT_OK(t->Put("c", "3"));
  ASSERT_OK(t->PopSavePoint());  // keeps c
  EXPECT_TRUE(t->RollbackToSavePoint().IsNotFound());
  // b was rolled back: it is no longer tracked, so a write to it by others
  // is no conflict.
  ASSERT_OK(db_->Put(WriteOptions(), "b", "other"));
  ASSERT_OK(t->Commit());
  EXPECT_EQ("1", Get("a"));
  EXPECT_EQ("other", Get("b"));
  EXPECT_EQ("3", Get("c"));
}

TEST_P(OptimisticTransactionTest, Iterators) {
  ASSERT_OK(db_->Put(WriteOptions(), "a", "db"));
  ASSERT_OK(db_->Put(WriteOptions(), "c", "db"));
  ASSERT_OK(db_->Put(WriteOptions(), "e", "db"));
  Flush();
  ASSERT_OK(db_->Put(WriteOptions(), "d", "db"));
  auto t = Begin(/*set_snapshot=*/true);
  ASSERT_OK(t->Put("b", "txn"));
  ASSERT_OK(t->Delete("c"));
  ASSERT_OK(t->Put("e", "txn"));
  ASSERT_OK(db_->Put(WriteOptions(), "f", "later"));
  auto scan = [](Iterator* it, bool reverse) {
    std::string seen;
    if (reverse) {
      for (it->SeekToLast(); it->Valid(); it->Prev())
        seen += it->key().ToString() + "=" + it->value().ToString() + ";";
    } else {
      for (it->SeekToFirst(); it->Valid(); it->Next())
        seen += it->key().ToString() + "=" + it->value().ToString() + ";";
    }
    EXPECT_OK(it->status());
    return seen;
  };
  auto it = t->GetIterator(ReadOptions());
  EXPECT_EQ("a=db;b=txn;d=db;e=txn;f=later;", scan(it.get(), false));
  EXPECT_EQ("f=later;e=txn;d=db;b=txn;a=db;", scan(it.get(), true));
  it->Seek("c");
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ("d", it->key().ToString());
  // At the transaction's snapshot.
  ReadOptions at_snap;
  at_snap.snapshot = t->GetSnapshot();
  auto it2 = t->GetIterator(at_snap);
  EXPECT_EQ("a=db;b=txn;d=db;e=txn;", scan(it2.get(), false));
  // Later writes of the transaction show after the next Seek.
  ASSERT_OK(t->Put("aa", "txn2"));
  EXPECT_EQ("a=db;aa=txn2;b=txn;d=db;e=txn;", scan(it2.get(), false));
  it.reset();
  it2.reset();
  ASSERT_OK(t->Commit());
  EXPECT_EQ("NOT_FOUND", Get("c"));
}

TEST_P(OptimisticTransactionTest, ColumnFamilies) {
  Close();
  {
    std::unique_ptr<DB> plain;
    ASSERT_OK(DB::Open(options_, Path(), &plain));
    ColumnFamilyHandle* h;
    ASSERT_OK(plain->CreateColumnFamily(options_, "cf1", &h));
    ASSERT_OK(plain->DestroyColumnFamilyHandle(h));
  }
  Open({"cf1"});
  ColumnFamilyHandle* cf1 = handles_[1];
  // The same key in two families: independent for conflicts.
  auto t1 = Begin();
  ASSERT_OK(t1->Put(cf1, "k", "cf1"));
  ASSERT_OK(t1->Put(nullptr, "k", "default"));
  ASSERT_OK(db_->Put(WriteOptions(), "unrelated", "x"));
  std::string v;
  ASSERT_OK(t1->Get(ReadOptions(), cf1, "k", &v));
  EXPECT_EQ("cf1", v);
  ASSERT_OK(t1->Commit());
  EXPECT_EQ("cf1", Get("k", cf1));
  EXPECT_EQ("default", Get("k"));
  // A conflict in one family fails the whole commit.
  auto t2 = Begin();
  ASSERT_OK(t2->Put(cf1, "k", "t2"));
  ASSERT_OK(t2->Put(nullptr, "j", "t2"));
  ASSERT_OK(db_->Put(WriteOptions(), cf1, "k", "other"));
  EXPECT_TRUE(t2->Commit().IsBusy());
  EXPECT_EQ("NOT_FOUND", Get("j"));
  // A write to the same key in the other family is no conflict.
  auto t3 = Begin();
  ASSERT_OK(t3->GetForUpdate(ReadOptions(), cf1, "k", &v));
  ASSERT_OK(db_->Put(WriteOptions(), "k", "default2"));
  ASSERT_OK(t3->Put(cf1, "k", v + "+t3"));
  ASSERT_OK(t3->Commit());
  EXPECT_EQ("other+t3", Get("k", cf1));
  // Multi-family reads.
  auto t4 = Begin();
  std::vector<std::string> values;
  auto st = t4->MultiGet(ReadOptions(), {cf1, db_->DefaultColumnFamily()}, {"k", "k"}, &values);
  ASSERT_OK(st[0]);
  ASSERT_OK(st[1]);
  EXPECT_EQ("other+t3", values[0]);
  EXPECT_EQ("default2", values[1]);
}

TEST_P(OptimisticTransactionTest, MergeOperators) {
  ASSERT_OK(db_->Put(WriteOptions(), "m", "a"));
  auto t = Begin();
  ASSERT_OK(t->Merge("m", "b"));
  ASSERT_OK(t->Merge("m", "c"));
  std::string v;
  ASSERT_OK(t->Get(ReadOptions(), "m", &v));
  EXPECT_EQ("a,b,c", v);
  EXPECT_EQ(2u, t->GetNumMerges());
  ASSERT_OK(t->Commit());
  EXPECT_EQ("a,b,c", Get("m"));
  // A merge is a tracked write: another merge to the key conflicts.
  auto t2 = Begin();
  ASSERT_OK(t2->Merge("m", "d"));
  ASSERT_OK(db_->Merge(WriteOptions(), "m", "x"));
  EXPECT_TRUE(t2->Commit().IsBusy());
  EXPECT_EQ("a,b,c,x", Get("m"));
  // Untracked merges are never checked.
  auto t3 = Begin();
  ASSERT_OK(t3->MergeUntracked("m", "u"));
  ASSERT_OK(db_->Merge(WriteOptions(), "m", "y"));
  ASSERT_OK(t3->Commit());
  EXPECT_EQ("a,b,c,x,y,u", Get("m"));
}

TEST_P(OptimisticTransactionTest, PrepareAndSetNameAreRefused) {
  auto t = Begin();
  Status s = t->SetName("x");
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  ASSERT_OK(t->Put("k", "v"));
  s = t->Prepare();
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  ASSERT_OK(t->Commit());
  EXPECT_EQ("v", Get("k"));
}

TEST_P(OptimisticTransactionTest, BeginTransactionReusesTheOldOne) {
  auto t = Begin();
  ASSERT_OK(t->Put("k", "1"));
  ASSERT_OK(t->Commit());
  Transaction* raw = t.get();
  OptimisticTransactionOptions o;
  o.set_snapshot = true;
  t = db_->BeginTransaction(WriteOptions(), o, std::move(t));
  EXPECT_EQ(raw, t.get());
  EXPECT_EQ(Transaction::STARTED, t->GetState());
  EXPECT_NE(nullptr, t->GetSnapshot());
  EXPECT_EQ(0u, t->GetNumKeys());
  // Reuse of a transaction abandoned mid-way drops its writes.
  ASSERT_OK(t->Put("k", "2"));
  ASSERT_OK(t->Put("j", "2"));
  t = db_->BeginTransaction(WriteOptions(), OptimisticTransactionOptions(), std::move(t));
  EXPECT_EQ(raw, t.get());
  EXPECT_EQ(nullptr, t->GetSnapshot());
  std::string v;
  ASSERT_OK(t->Get(ReadOptions(), "k", &v));
  EXPECT_EQ("1", v);
  EXPECT_TRUE(t->Get(ReadOptions(), "j", &v).IsNotFound());
  ASSERT_OK(t->Put("j", "3"));
  ASSERT_OK(t->Commit());
  EXPECT_EQ("1", Get("k"));
  EXPECT_EQ("3", Get("j"));
}

// Two threads hammer a counter through GetForUpdate + Put and retry on
// Busy: no increment is lost (the commit check and the write are atomic
// under both policies).
TEST_P(OptimisticTransactionTest, ConcurrentIncrementsLoseNothing) {
  ASSERT_OK(db_->Put(WriteOptions(), "counter", "0"));
  constexpr int kPerThread = 200;
  std::atomic<int> busy{0};
  auto worker = [&](int id) {
    std::unique_ptr<Transaction> t;
    for (int i = 0; i < kPerThread; i++) {
      for (;;) {
        t = db_->BeginTransaction(WriteOptions(), OptimisticTransactionOptions(), std::move(t));
        std::string v;
        ASSERT_OK(t->GetForUpdate(ReadOptions(), "counter", &v));
        ASSERT_OK(t->Put("counter", std::to_string(std::stoi(v) + 1)));
        ASSERT_OK(t->Put("mine" + std::to_string(id), std::to_string(i)));
        Status s = t->Commit();
        if (s.ok()) break;
        ASSERT_TRUE(s.IsBusy()) << s.ToString();
        busy++;
        ASSERT_OK(t->Rollback());
      }
    }
  };
  std::thread a(worker, 0), b(worker, 1);
  a.join();
  b.join();
  EXPECT_EQ(std::to_string(2 * kPerThread), Get("counter"));
  EXPECT_EQ(std::to_string(kPerThread - 1), Get("mine0"));
  printf("busy retries: %d\n", busy.load());
}

// Transactions on disjoint keys never conflict, however their commits
// interleave (the commit check must not report another transaction's
// commit to other keys, nor one sharing a commit-lock bucket).
TEST_P(OptimisticTransactionTest, DisjointKeysNeverConflict) {
  constexpr int kThreads = 3;
  constexpr int kPerThread = 300;
  std::atomic<int> failures{0};
  std::string first_failure;
  std::mutex mu;
  auto worker = [&](int id) {
    std::unique_ptr<Transaction> t;
    const std::string a = "a" + std::to_string(id), b = "b" + std::to_string(id);
    for (int i = 0; i < kPerThread; i++) {
      t = db_->BeginTransaction(WriteOptions(), OptimisticTransactionOptions(), std::move(t));
      std::string v;
      Status s = t->GetForUpdate(ReadOptions(), a, &v);
      if (s.ok() || s.IsNotFound()) s = t->Put(a, std::to_string(i));
      if (s.ok()) s = t->Put(b, std::to_string(i));
      if (s.ok()) s = t->Commit();
      if (!s.ok()) {
        std::lock_guard<std::mutex> l(mu);
        if (failures++ == 0) first_failure = s.ToString();
        EXPECT_OK(t->Rollback());
      }
    }
  };
  std::vector<std::thread> ts;
  for (int i = 0; i < kThreads; i++) ts.emplace_back(worker, i);
  for (auto& t : ts) t.join();
  EXPECT_EQ(0, failures.load()) << "first: " << first_failure;
  for (int i = 0; i < kThreads; i++) {
    EXPECT_EQ(std::to_string(kPerThread - 1), Get("b" + std::to_string(i)));
  }
}

INSTANTIATE_TEST_SUITE_P(Policies, OptimisticTransactionTest,
                         ::testing::Values(OccValidationPolicy::kValidateSerial,
                                           OccValidationPolicy::kValidateParallel),
                         [](const ::testing::TestParamInfo<OccValidationPolicy>& info) {
                           return std::string(info.param == OccValidationPolicy::kValidateSerial
                                                  ? "Serial"
                                                  : "Parallel");
                         });

}  // namespace
}  // namespace strata
