// transactions: pessimistic (TransactionDB) and optimistic
// (OptimisticTransactionDB) transactions -- read-your-writes, commit,
// rollback, save points, a lock conflict and a validation conflict --
// through RocksDB's C++ interface. Built twice and compared byte for byte.
// Usage: transactions DB_DIR
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "rocksdb/utilities/optimistic_transaction_db.h"
#include "rocksdb/utilities/stackable_db.h"
#include "rocksdb/utilities/transaction.h"
#include "rocksdb/utilities/transaction_db.h"
#include "rocksdb/utilities/write_batch_with_index.h"

namespace rdb = ROCKSDB_NAMESPACE;

static void Check(const rdb::Status& s, const char* what) {
  if (!s.ok()) {
    std::printf("FAILED %s: %s\n", what, s.ToString().c_str());
    std::exit(1);
  }
}

static std::string Read(rdb::DB* db, const char* key) {
  std::string v;
  rdb::Status s = db->Get(rdb::ReadOptions(), key, &v);
  return s.ok() ? v : (s.IsNotFound() ? "<none>" : "<error>");
}

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  const std::string path = argv[1];
  rdb::Options options;
  options.create_if_missing = true;

  {
    rdb::TransactionDB* db = nullptr;
    rdb::TransactionDBOptions txn_db_options;
    Check(rdb::TransactionDB::Open(options, txn_db_options, path + "_pessimistic", &db), "open");
    Check(db->Put(rdb::WriteOptions(), "a", "1"), "put");

    rdb::Transaction* txn = db->BeginTransaction(rdb::WriteOptions());
    Check(txn->Put("a", "2"), "txn put");
    Check(txn->Put("b", "new"), "txn put");
    std::string v;
    Check(txn->Get(rdb::ReadOptions(), "a", &v), "txn get");
    std::printf("inside txn a=%s; outside a=%s b=%s\n", v.c_str(), Read(db, "a").c_str(),
                Read(db, "b").c_str());

    // Another transaction cannot write a key this one holds.
    rdb::TransactionOptions quick;
    quick.lock_timeout = 10;
    rdb::Transaction* other = db->BeginTransaction(rdb::WriteOptions(), quick);
    rdb::Status s = other->Put("a", "3");
    std::printf("conflicting put: timed_out=%d\n", s.IsTimedOut() ? 1 : 0);
    Check(other->Rollback(), "rollback other");
    delete other;

    txn->SetSavePoint();
    Check(txn->Put("c", "dropped"), "txn put");
    Check(txn->RollbackToSavePoint(), "rollback to save point");
    std::printf("puts %llu\n", static_cast<unsigned long long>(txn->GetNumPuts()));
    // The transaction's own indexed batch.
    rdb::WriteBatchWithIndex* wbwi = txn->GetWriteBatch();
    std::string from_batch;
    rdb::Status bs = wbwi->GetFromBatch(rdb::DBOptions(), "b", &from_batch);
    std::printf("txn batch: %d entries, b=%s\n", wbwi->GetWriteBatch()->Count(),
                bs.ok() ? from_batch.c_str() : bs.ToString().c_str());
    Check(txn->Commit(), "commit");
    std::printf("after commit a=%s b=%s c=%s\n", Read(db, "a").c_str(), Read(db, "b").c_str(),
                Read(db, "c").c_str());

    // Reuse the object for a transaction that is rolled back.
    txn = db->BeginTransaction(rdb::WriteOptions(), rdb::TransactionOptions(), txn);
    Check(txn->Delete("a"), "txn delete");
    rdb::Iterator* it = txn->GetIterator(rdb::ReadOptions());
    std::printf("txn view:");
    for (it->SeekToFirst(); it->Valid(); it->Next())
      std::printf(" %s", it->key().ToString().c_str());
    std::printf("\n");
    delete it;
    Check(txn->Rollback(), "rollback");
    std::printf("after rollback a=%s\n", Read(db, "a").c_str());
    delete txn;
    // A StackableDB: the DB under the transaction layer takes plain writes.
    rdb::DB* base = db->GetBaseDB();
    Check(base->Put(rdb::WriteOptions(), "under", "base"), "base put");
    std::printf("stackable %d, base is root %d, through the txn db under=%s\n",
                dynamic_cast<rdb::StackableDB*>(db) != nullptr ? 1 : 0,
                base->GetRootDB() == db->GetRootDB() ? 1 : 0, Read(db, "under").c_str());
    delete db;
  }

  // Two-phase commit: transactions prepared before a close come back on
  // reopen, listed and found by name; one is committed, one rolled back.
  {
    rdb::TransactionDB* db = nullptr;
    Check(rdb::TransactionDB::Open(options, rdb::TransactionDBOptions(), path + "_2pc", &db),
          "open 2pc");
    for (const char* name : {"xa", "xb"}) {
      rdb::Transaction* t = db->BeginTransaction(rdb::WriteOptions());
      Check(t->SetName(name), "set name");
      Check(t->Put(std::string("key_") + name, "value"), "txn put");
      Check(t->Prepare(), "prepare");
      std::printf("live %s found by name: %s\n", name,
                  db->GetTransactionByName(name) == t ? "the same object" : "another");
      delete t;  // prepared, neither committed nor rolled back
    }
    delete db;
    Check(rdb::TransactionDB::Open(options, rdb::TransactionDBOptions(), path + "_2pc", &db),
          "reopen 2pc");
    std::vector<rdb::Transaction*> prepared;
    db->GetAllPreparedTransactions(&prepared);
    std::sort(prepared.begin(), prepared.end(),
              [](rdb::Transaction* a, rdb::Transaction* b) { return a->GetName() < b->GetName(); });
    std::printf("recovered prepared:");
    for (rdb::Transaction* t : prepared) std::printf(" %s", t->GetName().c_str());
    std::printf("\nbefore commit key_xa=%s\n", Read(db, "key_xa").c_str());
    rdb::Transaction* xa = db->GetTransactionByName("xa");
    std::printf("xa by name is the listed object: %s\n",
                !prepared.empty() && xa == prepared[0] ? "yes" : "no");
    Check(xa->Commit(), "commit recovered");
    delete xa;
    rdb::Transaction* xb = db->GetTransactionByName("xb");
    Check(xb->Rollback(), "rollback recovered");  // left for the DB to delete
    std::printf("after key_xa=%s key_xb=%s\n", Read(db, "key_xa").c_str(),
                Read(db, "key_xb").c_str());
    prepared.clear();
    db->GetAllPreparedTransactions(&prepared);
    std::printf("still prepared: %zu, xa by name: %s\n", prepared.size(),
                db->GetTransactionByName("xa") == nullptr ? "none" : "found");
    delete db;
  }

  {
    rdb::OptimisticTransactionDB* db = nullptr;
    Check(rdb::OptimisticTransactionDB::Open(options, path + "_optimistic", &db), "open occ");
    Check(db->Put(rdb::WriteOptions(), "k", "v0"), "put");
    rdb::OptimisticTransactionOptions occ;
    occ.set_snapshot = true;
    rdb::Transaction* txn = db->BeginTransaction(rdb::WriteOptions(), occ);
    std::string v;
    Check(txn->GetForUpdate(rdb::ReadOptions(), "k", &v), "get for update");
    std::printf("occ read k=%s\n", v.c_str());
    Check(txn->Put("k", "from txn"), "txn put");
    Check(db->Put(rdb::WriteOptions(), "k", "from outside"), "outside put");
    rdb::Status s = txn->Commit();
    std::printf("occ commit after outside write: busy=%d\n", s.IsBusy() ? 1 : 0);
    std::printf("k=%s\n", Read(db, "k").c_str());
    txn = db->BeginTransaction(rdb::WriteOptions(), occ, txn);
    Check(txn->Put("k2", "clean"), "txn put");
    Check(txn->Commit(), "clean commit");
    std::printf("k2=%s\n", Read(db, "k2").c_str());
    delete txn;
    Check(db->GetBaseDB()->Put(rdb::WriteOptions(), "k3", "base"), "occ base put");
    std::printf("occ stackable %d, k3=%s\n", dynamic_cast<rdb::StackableDB*>(db) != nullptr ? 1 : 0,
                Read(db, "k3").c_str());
    delete db;
  }
  return 0;
}
