// TransactionDB (pessimistic, WRITE_COMMITTED): reads of a transaction's
// own writes, locking (conflicts, timeouts, shared locks, plain writes),
// snapshot validation, save points, and two-phase commit across reopens
// and crashes (the WAL markers, prepared transactions recovered, WAL
// retention while prepared).
#include <chrono>
#include <thread>

#include "strata/merge_operator.h"
#include "strata/sst_file_writer.h"
#include "strata/utilities/transaction_db.h"
#include "strata/utilities/write_batch_with_index.h"
#include "strata/write_batch.h"
#include "test_util/testutil.h"
#include "test_util/transaction_test_base.h"

namespace strata {
namespace {

class TransactionTest : public TransactionDBTestBase {
 protected:
  TransactionTest() : TransactionDBTestBase("transaction_test", 100) { Open(); }
};

TEST_F(TransactionTest, ReadYourOwnWritesAndCommit) {
  ASSERT_OK(db_->Put(WriteOptions(), "a", "0"));
  auto txn = Begin();
  ASSERT_OK(txn->Put("a", "1"));
  ASSERT_OK(txn->Put("b", "2"));
  ASSERT_OK(txn->Delete("c"));
  std::string v;
  ASSERT_OK(txn->Get(ReadOptions(), "a", &v));
  EXPECT_EQ("1", v);
  EXPECT_TRUE(txn->Get(ReadOptions(), "c", &v).IsNotFound());
  EXPECT_EQ("0", Get("a"));  // not visible outside before commit
  EXPECT_EQ(3u, txn->GetNumKeys());
  EXPECT_EQ(2u, txn->GetNumPuts());
  EXPECT_EQ(1u, txn->GetNumDeletes());
  ASSERT_OK(txn->Commit());
  EXPECT_EQ("1", Get("a"));
  EXPECT_EQ("2", Get("b"));
  EXPECT_EQ(Transaction::COMMITTED, txn->GetState());

  // The iterator merges the transaction's writes over the DB.
  auto t2 = Begin();
  ASSERT_OK(t2->Put("aa", "x"));
  ASSERT_OK(t2->Delete("b"));
  auto it = t2->GetIterator(ReadOptions());
  std::string seen;
  for (it->SeekToFirst(); it->Valid(); it->Next())
    seen += it->key().ToString() + "=" + it->value().ToString() + ";";
  ASSERT_OK(it->status());
  EXPECT_EQ("a=1;aa=x;", seen);
  it.reset();
  ASSERT_OK(t2->Rollback());
  EXPECT_EQ("2", Get("b"));
}

TEST_F(TransactionTest, WriteConflictTimesOut) {
  auto t1 = Begin();
  auto t2 = Begin();
  ASSERT_OK(t1->Put("k", "1"));
  Status s = t2->Put("k", "2");
  EXPECT_TRUE(s.IsTimedOut()) << s.ToString();
  EXPECT_EQ(Status::kLockTimeout, s.subcode());
  // A plain write waits for the lock too.
  s = db_->Put(WriteOptions(), "k", "3");
  EXPECT_TRUE(s.IsTimedOut()) << s.ToString();
  WriteBatch b;
  ASSERT_OK(b.Put("z", "1"));
  ASSERT_OK(b.Put("k", "4"));
  s = db_->Write(WriteOptions(), &b);
  EXPECT_TRUE(s.IsTimedOut()) << s.ToString();
  EXPECT_EQ("NOT_FOUND", Get("z"));
  ASSERT_OK(t1->Commit());
  ASSERT_OK(t2->Put("k", "2"));
  ASSERT_OK(t2->Commit());
  EXPECT_EQ("2", Get("k"));
  ASSERT_OK(db_->Write(WriteOptions(), &b));
  EXPECT_EQ("4", Get("k"));
}

TEST_F(TransactionTest, WaiterGetsTheLockWhenTheHolderCommits) {
  TransactionOptions o;
  o.lock_timeout = 5000;
  auto t1 = Begin();
  ASSERT_OK(t1->Put("k", "1"));
  std::thread other([&]() {
    auto t2 = Begin(o);
    std::string v;
    ASSERT_OK(t2->GetForUpdate(ReadOptions(), "k", &v));
    EXPECT_EQ("1", v);  // read after t1's commit released the lock
    ASSERT_OK(t2->Put("k", v + "2"));
    ASSERT_OK(t2->Commit());
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_OK(t1->Commit());
  other.join();
  EXPECT_EQ("12", Get("k"));
}

TEST_F(TransactionTest, SharedLocks) {
  auto t1 = Begin();
  auto t2 = Begin();
  std::string v;
  EXPECT_TRUE(t1->GetForUpdate(ReadOptions(), "k", &v, /*exclusive=*/false).IsNotFound());
  EXPECT_TRUE(t2->GetForUpdate(ReadOptions(), "k", &v, /*exclusive=*/false).IsNotFound());
  // Upgrade blocked by the other reader.
  Status s = t1->Put("k", "1");
  EXPECT_TRUE(s.IsTimedOut()) << s.ToString();
  t2->UndoGetForUpdate("k");
  ASSERT_OK(t1->Put("k", "1"));
  ASSERT_OK(t1->Commit());
  auto locks = db_->GetLockStatusData();
  EXPECT_TRUE(locks.empty());
}

TEST_F(TransactionTest, SnapshotValidation) {
  TransactionOptions o;
  o.set_snapshot = true;
  auto t1 = Begin(o);
  ASSERT_OK(db_->Put(WriteOptions(), "k", "outside"));
  std::string v;
  Status s = t1->GetForUpdate(ReadOptions(), "k", &v);
  EXPECT_TRUE(s.IsBusy()) << s.ToString();
  s = t1->Put("k", "1");
  EXPECT_TRUE(s.IsBusy()) << s.ToString();
  // A key untouched since the snapshot is fine, also after a flush.
  ASSERT_OK(db_->Put(WriteOptions(), "other", "x"));
  ASSERT_OK(db_->Flush(FlushOptions()));
  ASSERT_OK(t1->Put("fresh", "1"));
  ASSERT_OK(t1->Commit());
  // The same against the tables: the conflicting write is flushed.
  auto t2 = Begin(o);
  ASSERT_OK(db_->Put(WriteOptions(), "k2", "outside"));
  ASSERT_OK(db_->Flush(FlushOptions()));
  s = t2->Put("k2", "1");
  EXPECT_TRUE(s.IsBusy()) << s.ToString();
  ASSERT_OK(t2->Rollback());
}

TEST_F(TransactionTest, SavePointsUnlockLaterKeys) {
  auto t1 = Begin();
  ASSERT_OK(t1->Put("a", "1"));
  t1->SetSavePoint();
  ASSERT_OK(t1->Put("b", "2"));
  ASSERT_OK(t1->Put("a", "3"));
  ASSERT_OK(t1->RollbackToSavePoint());
  std::string v;
  ASSERT_OK(t1->Get(ReadOptions(), "a", &v));
  EXPECT_EQ("1", v);
  EXPECT_TRUE(t1->Get(ReadOptions(), "b", &v).IsNotFound());
  // b is unlocked, a is not.
  auto t2 = Begin();
  ASSERT_OK(t2->Put("b", "x"));
  EXPECT_TRUE(t2->Put("a", "x").IsTimedOut());
  EXPECT_TRUE(t1->RollbackToSavePoint().IsNotFound());
  ASSERT_OK(t1->Commit());
  ASSERT_OK(t2->Commit());
  EXPECT_EQ("1", Get("a"));
  EXPECT_EQ("x", Get("b"));
}

TEST_F(TransactionTest, DeleteRangeNeedsSkipConcurrencyControl) {
  Status s = db_->DeleteRange(WriteOptions(), db_->DefaultColumnFamily(), "a", "b");
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
  WriteBatch b;
  ASSERT_OK(b.DeleteRange("a", "b"));
  EXPECT_TRUE(db_->Write(WriteOptions(), &b).IsNotSupported());
  TransactionDB::WriteOptimizations skip;
  skip.skip_concurrency_control = true;
  ASSERT_OK(db_->Put(WriteOptions(), "a1", "v"));
  ASSERT_OK(db_->Write(WriteOptions(), skip, &b));
  EXPECT_EQ("NOT_FOUND", Get("a1"));
}

TEST_F(TransactionTest, TwoPhaseCommitStates) {
  auto t = Begin();
  EXPECT_TRUE(t->Prepare().IsInvalidArgument());  // no name
  ASSERT_OK(t->SetName("xid1"));
  EXPECT_TRUE(t->SetName("xid2").IsInvalidArgument());
  auto other = Begin();
  EXPECT_TRUE(other->SetName("xid1").IsInvalidArgument());  // taken
  EXPECT_EQ(t.get(), db_->GetTransactionByName("xid1"));
  ASSERT_OK(t->Put("k", "v"));
  ASSERT_OK(t->Prepare());
  EXPECT_EQ(Transaction::PREPARED, t->GetState());
  EXPECT_EQ("NOT_FOUND", Get("k"));
  EXPECT_TRUE(t->Prepare().IsInvalidArgument());
  std::vector<Transaction*> prepared;
  db_->GetAllPreparedTransactions(&prepared);
  ASSERT_EQ(1u, prepared.size());
  EXPECT_EQ("xid1", prepared[0]->GetName());
  ASSERT_OK(t->Commit());
  EXPECT_EQ("v", Get("k"));
  EXPECT_EQ(nullptr, db_->GetTransactionByName("xid1"));
  EXPECT_TRUE(t->Commit().IsInvalidArgument());

  // skip_prepare = false: a named transaction must be prepared.
  TransactionOptions o;
  o.skip_prepare = false;
  auto u = Begin(o);
  ASSERT_OK(u->SetName("xid3"));
  ASSERT_OK(u->Put("u", "1"));
  Status s = u->Commit();
  EXPECT_TRUE(s.IsTxnNotPrepared()) << s.ToString();
  ASSERT_OK(u->Prepare());
  ASSERT_OK(u->Rollback());
  EXPECT_EQ(Transaction::ROLLEDBACK, u->GetState());
  EXPECT_EQ("NOT_FOUND", Get("u"));
}

// Prepared transactions survive reopens (and crashes) until resolved, with
// their writes and names; committed and rolled-back ones do not come back.
TEST_F(TransactionTest, PreparedTransactionsAreRecovered) {
  auto committed = Begin();
  ASSERT_OK(committed->SetName("c"));
  ASSERT_OK(committed->Put("c", "1"));
  ASSERT_OK(committed->Prepare());
  ASSERT_OK(committed->Commit());
  auto rolled = Begin();
  ASSERT_OK(rolled->SetName("r"));
  ASSERT_OK(rolled->Put("r", "1"));
  ASSERT_OK(rolled->Prepare());
  ASSERT_OK(rolled->Rollback());
  for (const char* name : {"p1", "p2"}) {
    auto p = Begin();
    ASSERT_OK(p->SetName(name));
    ASSERT_OK(p->Put(std::string("key_") + name, name));
    ASSERT_OK(p->Delete(std::string(name) == "p1" ? "c" : "gone"));
    ASSERT_OK(p->Prepare());
    p.release();  // left prepared (the DB does not own live ones: leaked on purpose below)
  }
  committed.reset();
  rolled.reset();
  // The prepared objects are the application's; a crash loses them.
  std::vector<Transaction*> live;
  db_->GetAllPreparedTransactions(&live);
  ASSERT_EQ(2u, live.size());
  for (Transaction* t : live) delete t;

  for (int round = 0; round < 2; round++) {
    Reopen();
    EXPECT_EQ("1", Get("c"));
    EXPECT_EQ("NOT_FOUND", Get("r"));
    EXPECT_EQ("NOT_FOUND", Get("key_p1"));
    std::vector<Transaction*> prepared;
    db_->GetAllPreparedTransactions(&prepared);
    ASSERT_EQ(2u, prepared.size());
    std::sort(prepared.begin(), prepared.end(),
              [](Transaction* a, Transaction* b) { return a->GetName() < b->GetName(); });
    EXPECT_EQ("p1", prepared[0]->GetName());
    EXPECT_EQ("p2", prepared[1]->GetName());
    EXPECT_EQ(Transaction::PREPARED, prepared[0]->GetState());
    EXPECT_EQ(2u, prepared[0]->GetWriteBatch()->GetWriteBatch()->Count());
    // Written data, flushes and more WALs do not lose them.
    ASSERT_OK(db_->Put(WriteOptions(), "x", std::to_string(round)));
    ASSERT_OK(db_->Flush(FlushOptions()));
  }
  std::vector<Transaction*> prepared;
  db_->GetAllPreparedTransactions(&prepared);
  ASSERT_EQ(2u, prepared.size());
  Transaction* p1 = db_->GetTransactionByName("p1");
  Transaction* p2 = db_->GetTransactionByName("p2");
  ASSERT_NE(nullptr, p1);
  ASSERT_NE(nullptr, p2);
  ASSERT_OK(p1->Commit());
  ASSERT_OK(p2->Rollback());
  delete p1;  // RocksDB's rule: the application may delete recovered ones
  EXPECT_EQ("p1", Get("key_p1"));
  EXPECT_EQ("NOT_FOUND", Get("c"));  // p1 deleted it
  EXPECT_EQ("NOT_FOUND", Get("key_p2"));
  Reopen();  // p2 is deleted by the DB at close
  prepared.clear();
  db_->GetAllPreparedTransactions(&prepared);
  EXPECT_TRUE(prepared.empty());
  EXPECT_EQ("p1", Get("key_p1"));
  EXPECT_EQ("NOT_FOUND", Get("key_p2"));
  EXPECT_EQ("NOT_FOUND", Get("c"));
}

// A WAL holding a prepared section stays while the transaction is
// unresolved, however many memtables are flushed after it; the commit's
// data survives a reopen after the prepare's WAL is the only one holding
// the prepared records.
TEST_F(TransactionTest, PreparedSectionKeepsItsWal) {
  auto p = Begin();
  ASSERT_OK(p->SetName("p"));
  ASSERT_OK(p->Put("pk", "pv"));
  ASSERT_OK(p->Prepare());
  const uint64_t prep_log = p->GetLogNumber();
  ASSERT_NE(0u, prep_log);
  for (int i = 0; i < 3; i++) {
    ASSERT_OK(db_->Put(WriteOptions(), "k" + std::to_string(i), "v"));
    ASSERT_OK(db_->Flush(FlushOptions()));
  }
  std::vector<std::string> children;
  auto wal_exists = [&](uint64_t n) {
    char name[32];
    snprintf(name, sizeof(name), "%06llu.log", static_cast<unsigned long long>(n));
    std::vector<std::string> files;
    EXPECT_OK(Env::Default()->GetFileSystem()->GetChildren(Path(), &files));
    return std::find(files.begin(), files.end(), name) != files.end();
  };
  EXPECT_TRUE(wal_exists(prep_log));
  // Commit applies the data to the current memtable; the prepare's WAL
  // stays until that memtable is flushed.
  ASSERT_OK(p->Commit());
  p.reset();  // a transaction never outlives its DB
  Reopen();
  EXPECT_EQ("pv", Get("pk"));
  ASSERT_OK(db_->Put(WriteOptions(), "after", "1"));
  ASSERT_OK(db_->Flush(FlushOptions()));
  ASSERT_OK(db_->Put(WriteOptions(), "after2", "1"));
  ASSERT_OK(db_->Flush(FlushOptions()));
  EXPECT_FALSE(wal_exists(prep_log));
  Reopen();
  EXPECT_EQ("pv", Get("pk"));
  std::vector<Transaction*> prepared;
  db_->GetAllPreparedTransactions(&prepared);
  EXPECT_TRUE(prepared.empty());
}

// No WAL at or above the MANIFEST's min_log_number_to_keep is deleted, even
// once nothing in memory needs it: recovery replays every WAL from there,
// and a kill in the middle of a purge that had taken a newer WAL (holding
// a commit marker) but not yet the older one (holding the prepared section)
// would bring the committed transaction back as prepared.
TEST_F(TransactionTest, WalsRecoveryReplaysStayUntilAFlushRecordsANewerOne) {
  auto held = Begin();
  ASSERT_OK(held->SetName("held"));
  ASSERT_OK(held->Put("hk", "hv"));
  ASSERT_OK(held->Prepare());
  auto done = Begin();
  ASSERT_OK(done->SetName("done"));
  ASSERT_OK(done->Put("dk", "dv"));
  ASSERT_OK(done->Prepare());
  const uint64_t prep_log = done->GetLogNumber();
  ASSERT_OK(db_->Put(WriteOptions(), "a", "1"));
  ASSERT_OK(db_->Flush(FlushOptions()));  // MANIFEST: keep from prep_log
  ASSERT_OK(done->Commit());              // its marker in a newer WAL
  ASSERT_OK(db_->Put(WriteOptions(), "b", "1"));
  ASSERT_OK(db_->Flush(FlushOptions()));  // still from prep_log: "held"
  ASSERT_OK(held->Rollback());            // nothing in memory needs them now
  auto wals = [&]() {
    std::vector<std::string> files;
    EXPECT_OK(Env::Default()->GetFileSystem()->GetChildren(Path(), &files));
    std::vector<uint64_t> r;
    for (const std::string& f : files) {
      if (f.size() > 4 && f.compare(f.size() - 4, 4, ".log") == 0) {
        r.push_back(std::stoull(f.substr(0, f.size() - 4)));
      }
    }
    std::sort(r.begin(), r.end());
    return r;
  };
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));  // a purge
  std::vector<uint64_t> left = wals();
  ASSERT_FALSE(left.empty());
  EXPECT_EQ(prep_log, left.front());
  EXPECT_GE(left.size(), 3u);  // the prepare's, the commit's, the current one
  held.reset();                // a transaction never outlives its DB
  done.reset();
  db_.reset();  // no Close: what recovery replays is what the WALs hold
  Open();
  std::vector<Transaction*> prepared;
  db_->GetAllPreparedTransactions(&prepared);
  EXPECT_TRUE(prepared.empty());
  EXPECT_EQ("dv", Get("dk"));
  EXPECT_EQ("NOT_FOUND", Get("hk"));
  // A flush records a newer min_log_number_to_keep: the old WALs go.
  ASSERT_OK(db_->Put(WriteOptions(), "c", "1"));
  ASSERT_OK(db_->Flush(FlushOptions()));
  // Flush returns once the table is installed; the flush job deletes the
  // obsolete WALs just after (seen late under TSan with a loaded machine).
  for (int i = 0; i < 1000; i++) {
    left = wals();
    ASSERT_FALSE(left.empty());
    if (left.front() > prep_log) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_GT(left.front(), prep_log);
}

TEST_F(TransactionTest, PlainDBRefusesAWalWithPreparedSections) {
  auto p = Begin();
  ASSERT_OK(p->SetName("p"));
  ASSERT_OK(p->Put("pk", "pv"));
  ASSERT_OK(p->Prepare());
  p.reset();
  db_.reset();
  std::unique_ptr<DB> plain;
  Status s = DB::Open(options_, Path(), &plain);
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
  EXPECT_NE(s.ToString().find("TransactionDB::Open"), std::string::npos) << s.ToString();
  Options o = options_;
  o.allow_2pc = true;
  ASSERT_OK(DB::Open(o, Path(), &plain));
  plain.reset();
  Open();
}

TEST_F(TransactionTest, PlainWriteOfMarkersIsRefused) {
  WriteBatch b;
  ASSERT_OK(b.Put("a", "b"));
  // A Commit marker built by hand.
  std::string rep = b.Data();
  rep.push_back(0x0B);
  rep.push_back(1);
  rep.push_back('x');
  WriteBatch marked(rep);
  Status s = db_->GetBaseDB()->Write(WriteOptions(), &marked);
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
}

TEST_F(TransactionTest, ColumnFamiliesAndMerge) {
  db_.reset();
  options_.merge_operator = MergeOperators::CreateStringAppendOperator();
  std::vector<ColumnFamilyHandle*> handles;
  {
    std::unique_ptr<DB> plain;
    ASSERT_OK(DB::Open(options_, Path(), &plain));
    ColumnFamilyHandle* h;
    ASSERT_OK(plain->CreateColumnFamily(options_, "cf1", &h));
    ASSERT_OK(plain->DestroyColumnFamilyHandle(h));
  }
  std::vector<ColumnFamilyDescriptor> fams = {{"default", options_}, {"cf1", options_}};
  ASSERT_OK(TransactionDB::Open(options_, txn_db_options_, Path(), fams, &handles, &db_));
  auto t = Begin();
  ASSERT_OK(t->SetName("cfx"));
  ASSERT_OK(t->Put(handles[1], "k", "a"));
  ASSERT_OK(t->Merge(handles[1], "k", "b"));
  std::string v;
  ASSERT_OK(t->Get(ReadOptions(), handles[1], "k", &v));
  EXPECT_EQ("a,b", v);
  ASSERT_OK(t->Prepare());
  t.reset();
  for (auto* h : handles) ASSERT_OK(db_->DestroyColumnFamilyHandle(h));
  handles.clear();
  db_.reset();
  ASSERT_OK(TransactionDB::Open(options_, txn_db_options_, Path(), fams, &handles, &db_));
  Transaction* p = db_->GetTransactionByName("cfx");
  ASSERT_NE(nullptr, p);
  ASSERT_OK(p->Commit());
  ASSERT_OK(db_->Get(ReadOptions(), handles[1], "k", &v));
  EXPECT_EQ("a,b", v);
  EXPECT_EQ("NOT_FOUND", Get("k"));
  for (auto* h : handles) ASSERT_OK(db_->DestroyColumnFamilyHandle(h));
}

// A secondary instance follows a TransactionDB primary (with allow_2pc):
// committed transactions appear after a catch-up, prepared ones do not,
// also when the commit comes in a later catch-up than the prepare.
TEST_F(TransactionTest, SecondaryFollowsTwoPhaseCommits) {
  auto p = Begin();
  ASSERT_OK(p->SetName("p"));
  ASSERT_OK(p->Put("pk", "pv"));
  ASSERT_OK(p->Prepare());
  ASSERT_OK(db_->Put(WriteOptions(), "plain", "1"));
  Options so = options_;
  so.allow_2pc = true;
  so.max_open_files = -1;
  std::unique_ptr<DB> secondary;
  ASSERT_OK(DB::OpenAsSecondary(so, Path(), dir_.path() + "/secondary", &secondary));
  std::string v;
  ASSERT_OK(secondary->Get(ReadOptions(), "plain", &v));
  EXPECT_TRUE(secondary->Get(ReadOptions(), "pk", &v).IsNotFound());
  ASSERT_OK(p->Commit());
  ASSERT_OK(secondary->TryCatchUpWithPrimary());
  ASSERT_OK(secondary->Get(ReadOptions(), "pk", &v));
  EXPECT_EQ("pv", v);
  // Without allow_2pc the secondary refuses the markers, as RocksDB's.
  so.allow_2pc = false;
  std::unique_ptr<DB> strict;
  Status s = DB::OpenAsSecondary(so, Path(), dir_.path() + "/secondary2", &strict);
  EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
}

// Ingested files carry sequence numbers the memtables never saw: a
// transaction validating against its snapshot finds the ingested write in
// the tables (Busy), not a false "no conflict" from the memtables.
TEST_F(TransactionTest, IngestedWriteConflictsWithSnapshot) {
  TransactionOptions o;
  o.set_snapshot = true;
  auto t = Begin(o);
  ASSERT_OK(db_->Put(WriteOptions(), "unrelated", "1"));
  const std::string sst = dir_.path() + "/ingest.sst";
  {
    SstFileWriter writer(options_);
    ASSERT_OK(writer.Open(sst));
    ASSERT_OK(writer.Put("ik", "iv"));
    ASSERT_OK(writer.Finish());
  }
  ASSERT_OK(db_->IngestExternalFile({sst}, IngestExternalFileOptions()));
  Status s = t->Put("ik", "mine");
  EXPECT_TRUE(s.IsBusy()) << s.ToString();
  ASSERT_OK(t->Put("unrelated2", "ok"));
  ASSERT_OK(t->Commit());
  EXPECT_EQ("iv", Get("ik"));
}

// Every MANIFEST carries min_log_number_to_keep: with a MANIFEST rolled at
// each edit, flushes after a Prepare still leave recovery starting at the
// prepared section's WAL (found by the two-phase-commit fault walk: a
// MANIFEST written afresh after a failed sync had lost it).
TEST_F(TransactionTest, NewManifestKeepsMinLogNumberToKeep) {
  db_.reset();
  options_.max_manifest_file_size = 1;  // a new MANIFEST at every edit
  Open();
  auto p = Begin();
  ASSERT_OK(p->SetName("p"));
  ASSERT_OK(p->Put("pk", "pv"));
  ASSERT_OK(p->Prepare());
  p.reset();
  for (int i = 0; i < 3; i++) {
    ASSERT_OK(db_->Put(WriteOptions(), "k" + std::to_string(i), "v"));
    ASSERT_OK(db_->Flush(FlushOptions()));
  }
  // A compaction's edit carries no min_log_number_to_keep of its own: the
  // new MANIFEST's snapshot must.
  ASSERT_OK(db_->CompactRange(CompactRangeOptions(), nullptr, nullptr));
  Reopen();
  Transaction* t = db_->GetTransactionByName("p");
  ASSERT_NE(nullptr, t);
  ASSERT_OK(t->Commit());
  EXPECT_EQ("pv", Get("pk"));
}

}  // namespace
}  // namespace strata
