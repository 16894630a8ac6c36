// rocksdb_txn_wal_gen: a test helper that links the system RocksDB
// (librocksdb, 7.8.3 from Debian) and nothing of Strata. It has RocksDB
// itself write a WAL holding two-phase-commit markers, then dies without
// closing the DB, so tests can read a RocksDB-made WAL with prepared,
// committed and rolled-back transactions (the `strata dump_wal` comparison
// with RocksDB's ldb, and the recovery of prepared transactions).
//
// Usage:
//   rocksdb_txn_wal_gen --db=DIR [--open_txns=N] [--exit=crash|close]
//                       [--flush_mid_txn]
//
//   --db=DIR       a path that must not exist yet (the DB is created there).
//   --open_txns=N  how many prepared transactions are left unresolved at
//                  the end (default 1, 0 allowed).
//   --exit=crash   (default) _exit(0) with the DB open: nothing is flushed
//                  or closed, the WAL holds everything.
//   --exit=close   the open prepared transactions are released without a
//                  decision (RocksDB keeps them prepared) and the DB is
//                  closed normally (RocksDB may flush the memtables; the WAL
//                  holding the prepared sections is kept).
//   --flush_mid_txn  also: "xid_span" is prepared, both families are
//                  flushed (a new WAL starts; the old one is kept for the
//                  unresolved section), a plain Put follows, then
//                  "xid_span" commits -- its Prepare and its Commit in
//                  different WALs, the Prepare's WAL older than the
//                  families' log numbers.
//
// The DB is a pessimistic TransactionDB (WriteCommitted, the default) with
// the default column family and one more, "cf1". In order, it writes:
//   1. a plain Put through the TransactionDB (one batch, no markers);
//   2. "xid_commit":  Put, a Put in cf1 and a Delete, Prepare, Commit;
//   3. "xid_rollback": Put and a Put in cf1, Prepare, Rollback;
//   4. a transaction without a name: Put and Delete, Commit (no Prepare);
//   5. with --flush_mid_txn, "xid_span" as described there;
//   6. "xid_open<i>" for i in [0, N): a Put in each family, Prepare.
// Keys and values are printable ASCII without spaces.
//
// Standard output, one fact per line, for tests to parse:
//   KEY <cf> <key> <value>      visible after recovery (committed data)
//   ABSENT <cf> <key>           absent after recovery (deleted, rolled back,
//                               or written only by an open transaction)
//   PREPARED <xid> <cf> <key> <value>
//                               a write of the prepared transaction <xid>,
//                               which recovery must return unresolved
// <cf> is "default" or "cf1". The facts of one key are consistent: a key an
// open transaction writes is ABSENT as committed data.
//
// Exit status: 0 on success, 1 on a RocksDB error, 2 on a usage error.
// Thread-safety: a single-threaded program.

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "rocksdb/utilities/transaction.h"
#include "rocksdb/utilities/transaction_db.h"

namespace {

[[noreturn]] void Die(const char* what, const rocksdb::Status& s) {
  std::fprintf(stderr, "rocksdb_txn_wal_gen: %s: %s\n", what, s.ToString().c_str());
  std::fflush(stdout);
  _exit(1);
}

[[noreturn]] void Usage(const char* msg) {
  std::fprintf(stderr,
               "rocksdb_txn_wal_gen: %s\n"
               "usage: rocksdb_txn_wal_gen --db=DIR [--open_txns=N] [--exit=crash|close] "
               "[--flush_mid_txn]\n",
               msg);
  std::exit(2);
}

void Check(const char* what, const rocksdb::Status& s) {
  if (!s.ok()) Die(what, s);
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir;
  int open_txns = 1;
  bool crash = true;
  bool flush_mid_txn = false;
  for (int i = 1; i < argc; ++i) {
    const char* a = argv[i];
    if (std::strncmp(a, "--db=", 5) == 0) {
      dir = a + 5;
    } else if (std::strncmp(a, "--open_txns=", 12) == 0) {
      char* end = nullptr;
      const long n = std::strtol(a + 12, &end, 10);
      if (*end != '\0' || end == a + 12 || n < 0 || n > 1000) Usage("bad --open_txns");
      open_txns = static_cast<int>(n);
    } else if (std::strcmp(a, "--exit=crash") == 0) {
      crash = true;
    } else if (std::strcmp(a, "--exit=close") == 0) {
      crash = false;
    } else if (std::strcmp(a, "--flush_mid_txn") == 0) {
      flush_mid_txn = true;
    } else {
      Usage((std::string("unknown argument ") + a).c_str());
    }
  }
  if (dir.empty()) Usage("--db is required");

  // A fresh directory is required, but error_if_exists is not used: it would
  // be persisted in the OPTIONS file, and ldb (which loads that file) would
  // then refuse to open the DB for writing.
  struct stat st;
  if (stat(dir.c_str(), &st) == 0) Usage((dir + " exists").c_str());
  rocksdb::DBOptions db_options;
  db_options.create_if_missing = true;
  db_options.create_missing_column_families = true;
  std::vector<rocksdb::ColumnFamilyDescriptor> families = {
      {rocksdb::kDefaultColumnFamilyName, rocksdb::ColumnFamilyOptions()},
      {"cf1", rocksdb::ColumnFamilyOptions()}};
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::TransactionDB* db = nullptr;
  Check("open", rocksdb::TransactionDB::Open(db_options, rocksdb::TransactionDBOptions(), dir,
                                             families, &handles, &db));
  rocksdb::ColumnFamilyHandle* def = handles[0];
  rocksdb::ColumnFamilyHandle* cf1 = handles[1];
  const rocksdb::WriteOptions wo;

  // 1. A plain Put through the TransactionDB.
  Check("plain put", db->Put(wo, "plain", "plain_value"));
  std::printf("KEY default plain plain_value\n");

  // 2. Prepared, then committed.
  {
    Check("put", db->Put(wo, "deleted_by_commit", "old"));
    rocksdb::Transaction* t = db->BeginTransaction(wo);
    Check("SetName", t->SetName("xid_commit"));
    Check("txn put", t->Put(def, "commit_key", "commit_value"));
    Check("txn put cf1", t->Put(cf1, "commit_cf1_key", "commit_cf1_value"));
    Check("txn delete", t->Delete(def, "deleted_by_commit"));
    Check("prepare", t->Prepare());
    Check("commit", t->Commit());
    delete t;
    std::printf("KEY default commit_key commit_value\n");
    std::printf("KEY cf1 commit_cf1_key commit_cf1_value\n");
    std::printf("ABSENT default deleted_by_commit\n");
  }

  // 3. Prepared, then rolled back.
  {
    rocksdb::Transaction* t = db->BeginTransaction(wo);
    Check("SetName", t->SetName("xid_rollback"));
    Check("txn put", t->Put(def, "rollback_key", "rollback_value"));
    Check("txn put cf1", t->Put(cf1, "rollback_cf1_key", "rollback_cf1_value"));
    Check("prepare", t->Prepare());
    Check("rollback", t->Rollback());
    delete t;
    std::printf("ABSENT default rollback_key\n");
    std::printf("ABSENT cf1 rollback_cf1_key\n");
  }

  // 4. Committed without Prepare (no name, no markers but the batch).
  {
    rocksdb::Transaction* t = db->BeginTransaction(wo);
    Check("txn put", t->Put(def, "direct_key", "direct_value"));
    Check("txn delete", t->Delete(def, "plain_never_written"));
    Check("commit", t->Commit());
    delete t;
    std::printf("KEY default direct_key direct_value\n");
    std::printf("ABSENT default plain_never_written\n");
  }

  // 5. A prepared section whose WAL is flushed past before its commit.
  if (flush_mid_txn) {
    rocksdb::Transaction* t = db->BeginTransaction(wo);
    Check("SetName", t->SetName("xid_span"));
    Check("txn put", t->Put(def, "span_key", "span_value"));
    Check("txn put cf1", t->Put(cf1, "span_cf1_key", "span_cf1_value"));
    Check("prepare", t->Prepare());
    Check("flush", db->Flush(rocksdb::FlushOptions(), handles));
    Check("put after flush", db->Put(wo, "after_flush", "after_flush_value"));
    Check("commit", t->Commit());
    delete t;
    std::printf("KEY default span_key span_value\n");
    std::printf("KEY cf1 span_cf1_key span_cf1_value\n");
    std::printf("KEY default after_flush after_flush_value\n");
  }

  // 6. Prepared and left unresolved.
  std::vector<rocksdb::Transaction*> open;
  for (int i = 0; i < open_txns; ++i) {
    const std::string xid = "xid_open" + std::to_string(i);
    const std::string key = "open_key" + std::to_string(i);
    const std::string value = "open_value" + std::to_string(i);
    rocksdb::Transaction* t = db->BeginTransaction(wo);
    Check("SetName", t->SetName(xid));
    Check("txn put", t->Put(def, key, value));
    Check("txn put cf1", t->Put(cf1, "cf1_" + key, "cf1_" + value));
    Check("prepare", t->Prepare());
    open.push_back(t);
    std::printf("PREPARED %s default %s %s\n", xid.c_str(), key.c_str(), value.c_str());
    std::printf("PREPARED %s cf1 cf1_%s cf1_%s\n", xid.c_str(), key.c_str(), value.c_str());
    std::printf("ABSENT default %s\n", key.c_str());
    std::printf("ABSENT cf1 cf1_%s\n", key.c_str());
  }
  std::fflush(stdout);

  if (crash) {
    // Dies as a crash would: RocksDB flushed each WAL write to the file
    // system (no manual_wal_flush), so the WAL is complete on disk.
    _exit(0);
  }
  // Releasing a prepared transaction without Commit/Rollback leaves it
  // prepared (RocksDB keeps its WAL).
  for (rocksdb::Transaction* t : open) delete t;
  for (rocksdb::ColumnFamilyHandle* h : handles)
    Check("destroy handle", db->DestroyColumnFamilyHandle(h));
  Check("close", db->Close());
  delete db;
  return 0;
}
