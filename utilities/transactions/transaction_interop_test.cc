// Two-phase commit against RocksDB 7.8.3's own tools (each test skips when
// the tool is absent):
//  - RocksDB's `ldb dump_wal` prints the WAL of a TransactionDB with its
//    markers (BEGIN_PREPARE, END_PREPARE(xid), COMMIT(xid), ROLLBACK(xid),
//    and the NOOP that opens an unnamed transaction's batch), with the
//    sequence numbers RocksDB's WRITE_COMMITTED policy gives them (a
//    prepared section consumes none; its commit consumes its count);
//  - RocksDB's `ldb scan` reads exactly the committed data, with a
//    prepared section still unresolved and after it is committed;
//  - a DB written by RocksDB's db_bench through a TransactionDB
//    (randomtransaction: prepared and committed sections in its WAL) opens
//    as a Strata TransactionDB with the data `ldb scan` shows.
#include <unistd.h>

#include <algorithm>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "strata/env.h"
#include "strata/iterator.h"
#include "strata/utilities/transaction_db.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

constexpr char kLdb[] = "/usr/bin/ldb";
constexpr char kDbBench[] = "/usr/bin/db_bench";

std::vector<std::string> Wals(const std::string& dir) {
  std::vector<std::string> files, wals;
  EXPECT_OK(Env::Default()->GetFileSystem()->GetChildren(dir, &files));
  for (const std::string& f : files) {
    uint64_t n;
    if (test::ParseLogFileName(f, &n)) wals.push_back(dir + "/" + f);
  }
  std::sort(wals.begin(), wals.end());
  return wals;
}

std::string Hex(const std::string& s) {
  static const char kDigits[] = "0123456789ABCDEF";
  std::string out = "0x";
  for (unsigned char c : s) {
    out += kDigits[c >> 4];
    out += kDigits[c & 15];
  }
  return out;
}

// `ldb scan` output ("key : value" lines) as a map.
std::map<std::string, std::string> LdbScan(const std::string& path) {
  int rc = 0;
  const std::string out = test::RunCommand(std::string(kLdb) + " scan --db=" + path, &rc);
  EXPECT_EQ(0, rc) << out;
  std::map<std::string, std::string> m;
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) {
    const size_t sep = line.find(" : ");
    if (sep == std::string::npos) {
      ADD_FAILURE() << "unexpected ldb scan line: " << line;
      continue;
    }
    m[line.substr(0, sep)] = line.substr(sep + 3);
  }
  return m;
}

std::map<std::string, std::string> Scan(DB* db) {
  std::map<std::string, std::string> m;
  std::unique_ptr<Iterator> it(db->NewIterator(ReadOptions()));
  for (it->SeekToFirst(); it->Valid(); it->Next()) m[it->key().ToString()] = it->value().ToString();
  EXPECT_OK(it->status());
  return m;
}

TEST(TransactionInteropTest, RocksDbLdbReadsOurTwoPhaseCommitWals) {
  if (access(kLdb, X_OK) != 0) GTEST_SKIP() << "no " << kLdb;
  test::TempDir dir("transaction_interop_test");
  const std::string path = dir.path() + "/db";
  Options options;
  options.create_if_missing = true;
  std::unique_ptr<TransactionDB> db;
  ASSERT_OK(TransactionDB::Open(options, TransactionDBOptions(), path, &db));
  ASSERT_OK(db->Put(WriteOptions(), "plain", "p"));
  auto c = db->BeginTransaction(WriteOptions());
  ASSERT_OK(c->SetName("xidcommit"));
  ASSERT_OK(c->Put("ck", "cv"));
  ASSERT_OK(c->Prepare());
  ASSERT_OK(c->Commit());
  auto r = db->BeginTransaction(WriteOptions());
  ASSERT_OK(r->SetName("xidrollback"));
  ASSERT_OK(r->Put("rk", "rv"));
  ASSERT_OK(r->Prepare());
  ASSERT_OK(r->Rollback());
  auto p = db->BeginTransaction(WriteOptions());
  ASSERT_OK(p->SetName("xidprepared"));
  ASSERT_OK(p->Put("pk", "pv"));
  ASSERT_OK(p->Delete("plain"));
  ASSERT_OK(p->Prepare());
  auto u = db->BeginTransaction(WriteOptions());  // unnamed: no markers
  ASSERT_OK(u->Put("uk", "uv"));
  ASSERT_OK(u->Commit());
  const std::vector<std::string> wals = Wals(path);
  ASSERT_EQ(1u, wals.size());
  int rc = 0;
  const std::string out = test::RunCommand(
      std::string(kLdb) + " dump_wal --walfile=" + wals[0] + " --print_value", &rc);
  ASSERT_EQ(0, rc) << out;
  // sequence,count,size,offset,records -- checked from the sequence on.
  const std::vector<std::string> want = {
      "1,1,21,0,PUT(0) : 0x706C61696E : 0x70 ",
      "2,1,31,28,BEGIN_PREPARE(false) PUT(0) : 0x636B : 0x6376 END_PREPARE(" + Hex("xidcommit") +
          ") ",
      "2,0,23,66,COMMIT(" + Hex("xidcommit") + ") ",
      "3,1,33,96,BEGIN_PREPARE(false) PUT(0) : 0x726B : 0x7276 END_PREPARE(" + Hex("xidrollback") +
          ") ",
      "3,0,25,136,ROLLBACK(" + Hex("xidrollback") + ") ",
      "3,2,40,168,BEGIN_PREPARE(false) PUT(0) : 0x706B : 0x7076 DELETE(0) : 0x706C61696E "
      "END_PREPARE(" +
          Hex("xidprepared") + ") ",
      "3,1,20,215,NOOP PUT(0) : 0x756B : 0x7576 ",
  };
  std::istringstream in(out);
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty()) lines.push_back(line);
  }
  EXPECT_EQ(want, lines) << out;
  p.reset();  // stays prepared
  c.reset();
  r.reset();
  u.reset();
  ASSERT_OK(db->Close());
  db.reset();
  // RocksDB reads the committed data only.
  const std::map<std::string, std::string> before = {{"ck", "cv"}, {"plain", "p"}, {"uk", "uv"}};
  EXPECT_EQ(before, LdbScan(path));
  // The prepared section is still there for us; committed, RocksDB sees it.
  ASSERT_OK(TransactionDB::Open(options, TransactionDBOptions(), path, &db));
  Transaction* t = db->GetTransactionByName("xidprepared");
  ASSERT_NE(nullptr, t);
  ASSERT_OK(t->Commit());
  delete t;
  ASSERT_OK(db->Close());
  db.reset();
  const std::map<std::string, std::string> after = {{"ck", "cv"}, {"pk", "pv"}, {"uk", "uv"}};
  EXPECT_EQ(after, LdbScan(path));
}

TEST(TransactionInteropTest, WeOpenRocksDbTransactionDbs) {
  if (access(kLdb, X_OK) != 0 || access(kDbBench, X_OK) != 0) {
    GTEST_SKIP() << "no " << kLdb << " or " << kDbBench;
  }
  test::TempDir dir("transaction_interop_test");
  const std::string path = dir.path() + "/rocksdb";
  int rc = 0;
  // One thread: Debian's 7.8.3 db_bench asserts with more.
  const std::string out = test::RunCommand(
      std::string(kDbBench) + " --benchmarks=randomtransaction --transaction_db=1 --num=200 " +
          "--transaction_sets=3 --threads=1 --disable_auto_compactions=1 --db=" + path,
      &rc);
  ASSERT_EQ(0, rc) << out;
  ASSERT_NE(out.find("RandomTransactionVerify Success"), std::string::npos) << out;
  // Its WAL holds the prepared sections and their commits.
  const std::vector<std::string> wals = Wals(path);
  ASSERT_FALSE(wals.empty());
  const std::string dump =
      test::RunCommand(std::string(kLdb) + " dump_wal --walfile=" + wals.back(), &rc);
  ASSERT_NE(dump.find("END_PREPARE"), std::string::npos) << dump.substr(0, 2000);
  ASSERT_NE(dump.find("COMMIT"), std::string::npos) << dump.substr(0, 2000);
  const std::map<std::string, std::string> want = LdbScan(path);
  ASSERT_FALSE(want.empty());
  Options options;
  std::unique_ptr<TransactionDB> db;
  ASSERT_OK(TransactionDB::Open(options, TransactionDBOptions(), path, &db));
  std::vector<Transaction*> prepared;
  db->GetAllPreparedTransactions(&prepared);
  EXPECT_TRUE(prepared.empty());
  EXPECT_EQ(want, Scan(db.get()));
  // Our transactions on top, then RocksDB reads them back.
  auto txn = db->BeginTransaction(WriteOptions());
  ASSERT_OK(txn->SetName("strata"));
  ASSERT_OK(txn->Put("zz-strata", "1"));
  ASSERT_OK(txn->Prepare());
  ASSERT_OK(txn->Commit());
  txn.reset();  // transactions go before their DB
  ASSERT_OK(db->Close());
  db.reset();
  std::map<std::string, std::string> with_ours = want;
  with_ours["zz-strata"] = "1";
  EXPECT_EQ(with_ours, LdbScan(path));
}

}  // namespace
}  // namespace strata
