// The rest of the Transaction API, for pessimistic transactions unless
// named otherwise: the commit-time batch (written with the Commit marker,
// replayed at recovery), RebuildFromWriteBatch, max_write_batch_size,
// assume_tracked, skip_concurrency_control, DisableIndexing, PutLogData,
// UndoGetForUpdate after a write, SingleDelete, the reuse of a transaction
// object by BeginTransaction, recovery with an old prepared section
// pinning a WAL whose other commits were overwritten and flushed, two-phase
// commit across column families flushed apart, the unbuilt options
// refused, and GetForUpdate without validation in an optimistic
// transaction.
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "strata/merge_operator.h"
#include "strata/utilities/optimistic_transaction_db.h"
#include "strata/utilities/transaction_db.h"
#include "strata/utilities/write_batch_with_index.h"
#include "strata/write_batch.h"
#include "test_util/testutil.h"
#include "test_util/transaction_test_base.h"

namespace strata {
namespace {

class TransactionApiTest : public TransactionDBTestBase {
 protected:
  TransactionApiTest() : TransactionDBTestBase("transaction_api_test", 50) {
    options_.merge_operator = MergeOperators::CreateStringAppendOperator();
    options_.avoid_flush_during_shutdown = true;  // reopens replay the WAL
    Open();
  }
  // Reopens without Close (the WAL is replayed, nothing flushed).
  void Reopen() {
    db_.reset();
    Open();
  }
};

TEST_F(TransactionApiTest, CommitTimeBatch) {
  auto t = Begin();
  ASSERT_OK(t->SetName("ctb"));
  ASSERT_OK(t->Put("k", "v"));
  ASSERT_OK(t->Prepare());
  ASSERT_OK(t->GetCommitTimeWriteBatch()->Put("meta", "committed-with-k"));
  EXPECT_EQ("NOT_FOUND", Get("meta"));
  ASSERT_OK(t->Commit());
  EXPECT_EQ("v", Get("k"));
  EXPECT_EQ("committed-with-k", Get("meta"));
  t.reset();
  // Both come back from the WAL.
  Reopen();
  EXPECT_EQ("v", Get("k"));
  EXPECT_EQ("committed-with-k", Get("meta"));
  std::vector<Transaction*> prepared;
  db_->GetAllPreparedTransactions(&prepared);
  EXPECT_TRUE(prepared.empty());
  // Without Prepare, a non-empty commit-time batch is refused (RocksDB:
  // its values would not be committed) and the transaction stays usable.
  auto u = Begin();
  ASSERT_OK(u->Put("u", "1"));
  ASSERT_OK(u->GetCommitTimeWriteBatch()->Put("umeta", "1"));
  Status s = u->Commit();
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_EQ("NOT_FOUND", Get("u"));
  u->GetCommitTimeWriteBatch()->Clear();
  ASSERT_OK(u->Commit());
  EXPECT_EQ("1", Get("u"));
  EXPECT_EQ("NOT_FOUND", Get("umeta"));
}

TEST_F(TransactionApiTest, RebuildFromWriteBatch) {
  ASSERT_OK(db_->Put(WriteOptions(), "m", "a"));
  ASSERT_OK(db_->Put(WriteOptions(), "d", "x"));
  WriteBatch b;
  ASSERT_OK(b.Put("p", "1"));
  ASSERT_OK(b.Delete("d"));
  ASSERT_OK(b.Merge("m", "b"));
  auto t = Begin();
  ASSERT_OK(t->RebuildFromWriteBatch(&b));
  std::string v;
  ASSERT_OK(t->Get(ReadOptions(), "p", &v));
  EXPECT_EQ("1", v);
  EXPECT_TRUE(t->Get(ReadOptions(), "d", &v).IsNotFound());
  ASSERT_OK(t->Get(ReadOptions(), "m", &v));
  EXPECT_EQ("a,b", v);
  EXPECT_EQ(3u, t->GetNumKeys());
  // Its keys are locked.
  auto other = Begin();
  for (const char* k : {"p", "d", "m"}) EXPECT_TRUE(other->Put(k, "o").IsTimedOut()) << k;
  ASSERT_OK(t->Commit());
  EXPECT_EQ("1", Get("p"));
  EXPECT_EQ("NOT_FOUND", Get("d"));
  EXPECT_EQ("a,b", Get("m"));
}

TEST_F(TransactionApiTest, MaxWriteBatchSize) {
  TransactionOptions o;
  o.max_write_batch_size = 200;
  auto t = Begin(o);
  ASSERT_OK(t->Put("small", "v"));
  Status s = t->Put("big", std::string(500, 'x'));
  EXPECT_TRUE(s.IsMemoryLimit()) << s.ToString();
  // The refused write is not in the transaction; the rest commits.
  std::string v;
  EXPECT_TRUE(t->Get(ReadOptions(), "big", &v).IsNotFound());
  ASSERT_OK(t->Commit());
  EXPECT_EQ("v", Get("small"));
  EXPECT_EQ("NOT_FOUND", Get("big"));
}

TEST_F(TransactionApiTest, AssumeTracked) {
  auto t = Begin();
  Status s = t->Put(nullptr, "k", "v", /*assume_tracked=*/true);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  std::string v;
  EXPECT_TRUE(t->GetForUpdate(ReadOptions(), "k", &v).IsNotFound());
  ASSERT_OK(t->Put(nullptr, "k", "v", /*assume_tracked=*/true));
  ASSERT_OK(t->Commit());
  EXPECT_EQ("v", Get("k"));
}

TEST_F(TransactionApiTest, SkipConcurrencyControl) {
  TransactionOptions skip;
  skip.skip_concurrency_control = true;
  auto t1 = Begin();
  ASSERT_OK(t1->Put("k", "t1"));
  // A transaction that locks nothing is not blocked by t1 ...
  auto t2 = Begin(skip);
  ASSERT_OK(t2->Put("k", "t2"));
  ASSERT_OK(t2->Commit());
  // ... and blocks no one.
  auto t3 = Begin(skip);
  ASSERT_OK(t3->Put("j", "t3"));
  ASSERT_OK(db_->Put(WriteOptions(), "j", "plain"));
  ASSERT_OK(t3->Commit());
  ASSERT_OK(t1->Commit());
  EXPECT_EQ("t1", Get("k"));
  EXPECT_EQ("t3", Get("j"));
}

TEST_F(TransactionApiTest, DisableIndexingAndLogData) {
  auto t = Begin();
  ASSERT_OK(t->Put("indexed", "1"));
  t->DisableIndexing();
  ASSERT_OK(t->Put("hidden", "2"));
  t->PutLogData("a blob for WAL readers only");
  std::string v;
  // Not indexed: the transaction's reads do not see it.
  EXPECT_TRUE(t->Get(ReadOptions(), "hidden", &v).IsNotFound());
  t->EnableIndexing();
  ASSERT_OK(t->Get(ReadOptions(), "indexed", &v));
  // But it is committed (and locked meanwhile).
  auto other = Begin();
  EXPECT_TRUE(other->Put("hidden", "x").IsTimedOut());
  EXPECT_EQ(2u, t->GetWriteBatch()->GetWriteBatch()->Count());
  ASSERT_OK(t->Commit());
  EXPECT_EQ("1", Get("indexed"));
  EXPECT_EQ("2", Get("hidden"));
}

TEST_F(TransactionApiTest, UndoGetForUpdateKeepsLocksWritesNeed) {
  auto t = Begin();
  std::string v;
  EXPECT_TRUE(t->GetForUpdate(ReadOptions(), "w", &v).IsNotFound());
  ASSERT_OK(t->Put("w", "1"));
  t->UndoGetForUpdate("w");  // the write still needs the lock
  EXPECT_TRUE(t->GetForUpdate(ReadOptions(), "r", &v).IsNotFound());
  EXPECT_TRUE(t->GetForUpdate(ReadOptions(), "r", &v).IsNotFound());
  t->UndoGetForUpdate("r");  // two reads: one undo keeps the lock
  auto other = Begin();
  EXPECT_TRUE(other->Put("w", "x").IsTimedOut());
  EXPECT_TRUE(other->Put("r", "x").IsTimedOut());
  t->UndoGetForUpdate("r");  // the last read: released
  ASSERT_OK(other->Put("r", "x"));
  ASSERT_OK(t->Commit());
  ASSERT_OK(other->Commit());
  EXPECT_EQ("1", Get("w"));
  EXPECT_EQ("x", Get("r"));
}

TEST_F(TransactionApiTest, SingleDelete) {
  ASSERT_OK(db_->Put(WriteOptions(), "s", "once"));
  auto t = Begin();
  ASSERT_OK(t->SingleDelete("s"));
  std::string v;
  EXPECT_TRUE(t->Get(ReadOptions(), "s", &v).IsNotFound());
  EXPECT_EQ(1u, t->GetNumDeletes());
  ASSERT_OK(t->Commit());
  EXPECT_EQ("NOT_FOUND", Get("s"));
}

TEST_F(TransactionApiTest, BeginTransactionReusesTheOldOne) {
  auto t = Begin();
  ASSERT_OK(t->SetName("first"));
  ASSERT_OK(t->Put("k", "1"));
  const TransactionID first_id = t->GetID();
  Transaction* raw = t.get();
  // Reused mid-way: its writes are dropped, its locks and name released.
  TransactionOptions o;
  o.lock_timeout = 10;
  t = db_->BeginTransaction(WriteOptions(), o, std::move(t));
  EXPECT_EQ(raw, t.get());
  EXPECT_NE(first_id, t->GetID());
  EXPECT_EQ(Transaction::STARTED, t->GetState());
  EXPECT_EQ("", t->GetName());
  EXPECT_EQ(nullptr, db_->GetTransactionByName("first"));
  EXPECT_EQ(0u, t->GetNumKeys());
  ASSERT_OK(db_->Put(WriteOptions(), "k", "plain"));  // unlocked
  ASSERT_OK(t->SetName("first"));                     // the name is free
  ASSERT_OK(t->Put("k", "2"));
  ASSERT_OK(t->Prepare());
  ASSERT_OK(t->Commit());
  EXPECT_EQ("2", Get("k"));
  // Reused after commit.
  t = db_->BeginTransaction(WriteOptions(), o, std::move(t));
  EXPECT_EQ(raw, t.get());
  ASSERT_OK(t->Put("k", "3"));
  ASSERT_OK(t->Commit());
  EXPECT_EQ("3", Get("k"));
}

// GetForUpdate(do_validate = false) locks without checking the snapshot.
TEST_F(TransactionApiTest, SnapshotValidationCanBeSkipped) {
  TransactionOptions o;
  o.set_snapshot = true;
  auto t = Begin(o);
  ASSERT_OK(db_->Put(WriteOptions(), "k", "after-snapshot"));
  std::string v;
  ASSERT_OK(t->GetForUpdate(ReadOptions(), "k", &v, /*exclusive=*/true, /*do_validate=*/false));
  EXPECT_EQ("after-snapshot", v);  // reads the latest, not the snapshot
  // Locked now: a later validated access of the same key is still checked
  // against the snapshot (RocksDB re-validates a key locked without it).
  Status s = t->Put("k", "t");
  EXPECT_TRUE(s.IsBusy()) << s.ToString();
  // Untracked writes skip it too.
  ASSERT_OK(db_->Put(WriteOptions(), "u", "after-snapshot"));
  ASSERT_OK(t->PutUntracked("u", "t"));
  ASSERT_OK(t->Commit());
  EXPECT_EQ("t", Get("u"));
  EXPECT_EQ("after-snapshot", Get("k"));
}

TEST_F(TransactionApiTest, NameRules) {
  auto t = Begin();
  EXPECT_TRUE(t->SetName("").IsInvalidArgument());
  EXPECT_TRUE(t->SetName(std::string(513, 'n')).IsInvalidArgument());
  ASSERT_OK(t->SetName(std::string(512, 'n')));
  ASSERT_OK(t->Put("k", "v"));
  ASSERT_OK(t->Prepare());
  EXPECT_TRUE(t->SetName("other").IsInvalidArgument());
  ASSERT_OK(t->Rollback());
  // As in RocksDB, a rolled-back transaction keeps its name until the
  // object is destroyed (or reused); a committed one frees it at Commit.
  auto u = Begin();
  EXPECT_TRUE(u->SetName(std::string(512, 'n')).IsInvalidArgument());
  t.reset();
  ASSERT_OK(u->SetName(std::string(512, 'n')));
  ASSERT_OK(u->Put("k", "u"));
  ASSERT_OK(u->Prepare());
  ASSERT_OK(u->Commit());
  auto w = Begin();
  ASSERT_OK(w->SetName(std::string(512, 'n')));
}

// An old prepared transaction pins its WAL; transactions committed in
// that WAL whose data was since overwritten (or deleted) and flushed must
// not come back at recovery, nor come back as prepared.
TEST_F(TransactionApiTest, RecoveryDoesNotReplayFlushedCommits) {
  auto pin = Begin();
  ASSERT_OK(pin->SetName("pin"));
  ASSERT_OK(pin->Put("pinned", "p"));
  ASSERT_OK(pin->Prepare());
  for (int round = 0; round < 2; round++) {
    // Committed in the pinned WAL, then overwritten / deleted and flushed.
    auto t = Begin();
    ASSERT_OK(t->SetName("t" + std::to_string(round)));
    ASSERT_OK(t->Put("over", "txn"));
    ASSERT_OK(t->Put("del", "txn"));
    ASSERT_OK(t->Put("kept", "txn" + std::to_string(round)));
    ASSERT_OK(t->Prepare());
    if (round == 1) ASSERT_OK(db_->Flush(FlushOptions()));  // commit in a newer WAL
    ASSERT_OK(t->Commit());
    ASSERT_OK(db_->Put(WriteOptions(), "over", "plain"));
    ASSERT_OK(db_->Delete(WriteOptions(), "del"));
    ASSERT_OK(db_->Flush(FlushOptions()));
  }
  pin.reset();
  for (int reopen = 0; reopen < 2; reopen++) {
    Reopen();
    EXPECT_EQ("plain", Get("over"));
    EXPECT_EQ("NOT_FOUND", Get("del"));
    EXPECT_EQ("txn1", Get("kept"));
    EXPECT_EQ("NOT_FOUND", Get("pinned"));
    std::vector<Transaction*> prepared;
    db_->GetAllPreparedTransactions(&prepared);
    ASSERT_EQ(1u, prepared.size());
    EXPECT_EQ("pin", prepared[0]->GetName());
  }
  Transaction* p = db_->GetTransactionByName("pin");
  ASSERT_NE(nullptr, p);
  ASSERT_OK(p->Commit());
  delete p;
  Reopen();
  EXPECT_EQ("p", Get("pinned"));
  EXPECT_EQ("plain", Get("over"));
  EXPECT_EQ("NOT_FOUND", Get("del"));
  std::vector<Transaction*> prepared;
  db_->GetAllPreparedTransactions(&prepared);
  EXPECT_TRUE(prepared.empty());
}

// Options of the policies that are not built are refused at Open, naming
// the option.
TEST_F(TransactionApiTest, UnbuiltOptionsAreRefused) {
  db_.reset();
  std::unique_ptr<TransactionDB> db;
  for (TxnDBWritePolicy policy : {WRITE_PREPARED, WRITE_UNPREPARED}) {
    TransactionDBOptions o = txn_db_options_;
    o.write_policy = policy;
    Status s = TransactionDB::Open(options_, o, Path(), &db);
    EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
    EXPECT_NE(std::string::npos, s.ToString().find("write_policy")) << s.ToString();
    EXPECT_EQ(nullptr, db);
  }
  TransactionDBOptions o = txn_db_options_;
  o.default_write_batch_flush_threshold = 1 << 20;
  Status s = TransactionDB::Open(options_, o, Path(), &db);
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("default_write_batch_flush_threshold"))
      << s.ToString();
  o = txn_db_options_;
  o.num_stripes = 0;
  s = TransactionDB::Open(options_, o, Path(), &db);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  // A factory of the program's own mutexes is not taken.
  struct NoFactory : TransactionDBMutexFactory {
    std::shared_ptr<TransactionDBMutex> AllocateMutex() override { return nullptr; }
    std::shared_ptr<TransactionDBCondVar> AllocateCondVar() override { return nullptr; }
  };
  o = txn_db_options_;
  o.custom_mutex_factory = std::make_shared<NoFactory>();
  s = TransactionDB::Open(options_, o, Path(), &db);
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("custom_mutex_factory")) << s.ToString();
  EXPECT_EQ(nullptr, db);
  Open();
}

// Two-phase commit across column families flushed at different times:
// the prepare's WAL must stay while any family's memtable holds data
// committed from it, and recovery must neither lose nor duplicate a
// family's share (a family flushed past the WAL skips its records, the
// other replays them).
TEST_F(TransactionApiTest, TwoPhaseCommitAcrossColumnFamiliesFlushedApart) {
  db_.reset();
  {
    std::unique_ptr<DB> plain;
    ASSERT_OK(DB::Open(options_, Path(), &plain));
    ColumnFamilyHandle* h;
    ASSERT_OK(plain->CreateColumnFamily(options_, "cf1", &h));
    ASSERT_OK(plain->DestroyColumnFamilyHandle(h));
  }
  const std::vector<ColumnFamilyDescriptor> fams = {{kDefaultColumnFamilyName, options_},
                                                    {"cf1", options_}};
  std::vector<ColumnFamilyHandle*> handles;
  auto open = [&]() {
    ASSERT_OK(TransactionDB::Open(options_, txn_db_options_, Path(), fams, &handles, &db_));
  };
  auto close = [&]() {
    for (auto* h : handles) ASSERT_OK(db_->DestroyColumnFamilyHandle(h));
    handles.clear();
    db_.reset();
  };
  auto get = [&](int cf, const std::string& k) {
    std::string v;
    Status s = db_->Get(ReadOptions(), handles[cf], k, &v);
    if (s.IsNotFound()) return std::string("NOT_FOUND");
    EXPECT_OK(s);
    return v;
  };
  open();
  for (int order = 0; order < 2; order++) {
    SCOPED_TRACE("order " + std::to_string(order));
    const std::string k = "k" + std::to_string(order);
    auto t = Begin();
    ASSERT_OK(t->SetName("x" + std::to_string(order)));
    ASSERT_OK(t->Put(handles[0], k, "default"));
    ASSERT_OK(t->Put(handles[1], k, "cf1"));
    ASSERT_OK(t->Merge(handles[1], k + "m", "m"));
    ASSERT_OK(t->Prepare());
    // One family is flushed while the section is prepared, the other
    // after the commit; then overwrites in the first are flushed too.
    ASSERT_OK(db_->Put(WriteOptions(), handles[order], "filler", "f"));
    ASSERT_OK(db_->Flush(FlushOptions(), handles[order]));
    ASSERT_OK(t->Commit());
    t.reset();
    ASSERT_OK(db_->Flush(FlushOptions(), handles[order]));
    ASSERT_OK(db_->Put(WriteOptions(), handles[order], k, "overwritten"));
    ASSERT_OK(db_->Flush(FlushOptions(), handles[order]));
    for (int reopen = 0; reopen < 2; reopen++) {
      close();
      open();
      EXPECT_EQ(order == 0 ? "overwritten" : "default", get(0, k));
      EXPECT_EQ(order == 1 ? "overwritten" : "cf1", get(1, k));
      EXPECT_EQ("m", get(1, k + "m"));  // once: a replayed merge would double it
      std::vector<Transaction*> prepared;
      db_->GetAllPreparedTransactions(&prepared);
      EXPECT_TRUE(prepared.empty());
    }
    // The other family flushed too: the same after reopens.
    ASSERT_OK(db_->Flush(FlushOptions(), handles[1 - order]));
    close();
    open();
    EXPECT_EQ(order == 0 ? "overwritten" : "default", get(0, k));
    EXPECT_EQ(order == 1 ? "overwritten" : "cf1", get(1, k));
    EXPECT_EQ("m", get(1, k + "m"));
  }
  close();
}

TEST_F(TransactionApiTest, ElapsedTime) {
  auto t = Begin();
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_GE(t->GetElapsedTime(), 19u);
  EXPECT_LT(t->GetElapsedTime(), 60000u);
}

TEST(OptimisticTransactionApiTest, GetForUpdateWithoutValidation) {
  test::TempDir dir("transaction_api_test");
  Options options;
  options.create_if_missing = true;
  std::unique_ptr<OptimisticTransactionDB> db;
  ASSERT_OK(OptimisticTransactionDB::Open(options, dir.path() + "/db", &db));
  auto t = db->BeginTransaction(WriteOptions());
  std::string v;
  EXPECT_TRUE(t->GetForUpdate(ReadOptions(), "k", &v, /*exclusive=*/true,
                              /*do_validate=*/false)
                  .IsNotFound());
  ASSERT_OK(t->PutUntracked("u", "1"));
  EXPECT_EQ(0u, t->GetNumKeys());
  ASSERT_OK(db->Put(WriteOptions(), "k", "other"));
  ASSERT_OK(db->Put(WriteOptions(), "u", "other"));
  ASSERT_OK(t->Commit());  // nothing was tracked: no conflict
  ASSERT_OK(db->Get(ReadOptions(), "u", &v));
  EXPECT_EQ("1", v);
}

}  // namespace
}  // namespace strata
