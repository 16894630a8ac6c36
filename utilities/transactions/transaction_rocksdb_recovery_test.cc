// Prepared transactions cross between Strata and RocksDB 7.8.3 in both
// directions: RocksDB's TransactionDB recovers the prepared transactions a
// Strata TransactionDB logged (names and writes, via rocksdb_txn_recover),
// commits them, and Strata reads the result; Strata's TransactionDB
// recovers the ones RocksDB logged (rocksdb_txn_wal_gen), with their
// writes, and commits them. Both helper programs link the system
// librocksdb; the tests skip when it is absent.
#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "strata/utilities/transaction_db.h"
#include "strata/utilities/write_batch_with_index.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

// Runs cmd, returns its exit status and standard output.
int RunCommand(const std::string& cmd, std::string* out) {
  out->clear();
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return -1;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), p)) > 0) out->append(buf, n);
  const int rc = pclose(p);
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

std::vector<std::string> Lines(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty()) out.push_back(line);
  }
  return out;
}

// The writes of a prepared transaction, in rocksdb_txn_recover's words.
struct Describer : WriteBatch::Handler {
  std::string xid;
  std::map<uint32_t, std::string> names;
  std::vector<std::string> lines;
  const char* Name(uint32_t cf) { return names[cf].c_str(); }
  Status PutCF(uint32_t cf, const Slice& k, const Slice& v) override {
    lines.push_back("PREPARED " + xid + " " + Name(cf) + " PUT " + k.ToString() + " " +
                    v.ToString());
    return Status::OK();
  }
  Status DeleteCF(uint32_t cf, const Slice& k) override {
    lines.push_back("PREPARED " + xid + " " + Name(cf) + " DELETE " + k.ToString());
    return Status::OK();
  }
  Status SingleDeleteCF(uint32_t cf, const Slice& k) override {
    lines.push_back("PREPARED " + xid + " " + Name(cf) + " SINGLEDELETE " + k.ToString());
    return Status::OK();
  }
  Status MergeCF(uint32_t cf, const Slice& k, const Slice& v) override {
    lines.push_back("PREPARED " + xid + " " + Name(cf) + " MERGE " + k.ToString() + " " +
                    v.ToString());
    return Status::OK();
  }
  Status MarkBeginPrepare(bool) override { return Status::OK(); }
  Status MarkEndPrepare(const Slice&) override { return Status::OK(); }
};

class TransactionRocksDBRecoveryTest : public ::testing::Test {
 protected:
  TransactionRocksDBRecoveryTest() : dir_("txn_rocksdb_recovery") {
    options_.create_if_missing = true;
    options_.create_missing_column_families = true;
  }
  std::string Path() const { return dir_.path() + "/db"; }
  void Open() {
    std::vector<ColumnFamilyDescriptor> fams = {{kDefaultColumnFamilyName, options_},
                                                {"cf1", options_}};
    ASSERT_OK(TransactionDB::Open(options_, TransactionDBOptions(), Path(), fams, &handles_, &db_));
  }
  void Close() {
    for (auto* h : handles_) ASSERT_OK(db_->DestroyColumnFamilyHandle(h));
    handles_.clear();
    db_.reset();
  }
  ColumnFamilyHandle* Cf(const std::string& name) {
    return name == "cf1" ? handles_[1] : handles_[0];
  }
  std::string Get(const std::string& cf, const std::string& key) {
    std::string v;
    Status s = db_->Get(ReadOptions(), Cf(cf), key, &v);
    if (s.IsNotFound()) return "NOT_FOUND";
    EXPECT_OK(s);
    return v;
  }

  test::TempDir dir_;
  Options options_;
  std::vector<ColumnFamilyHandle*> handles_;
  std::unique_ptr<TransactionDB> db_;
};

TEST_F(TransactionRocksDBRecoveryTest, RocksDBRecoversStrataPreparedTransactions) {
#ifndef STRATA_ROCKSDB_TXN_RECOVER
  GTEST_SKIP() << "built without librocksdb";
#else
  Open();
  ASSERT_OK(db_->Put(WriteOptions(), Cf("default"), "plain", "p"));
  ASSERT_OK(db_->Put(WriteOptions(), Cf("default"), "gone", "g"));
  auto committed = db_->BeginTransaction(WriteOptions());
  ASSERT_OK(committed->SetName("s_commit"));
  ASSERT_OK(committed->Put(Cf("cf1"), "c1", "cv"));
  ASSERT_OK(committed->Prepare());
  ASSERT_OK(committed->Commit());
  auto rolled = db_->BeginTransaction(WriteOptions());
  ASSERT_OK(rolled->SetName("s_rollback"));
  ASSERT_OK(rolled->Put("r1", "rv"));
  ASSERT_OK(rolled->Prepare());
  ASSERT_OK(rolled->Rollback());
  // Flushed in between: the prepared sections' WAL must be kept for RocksDB.
  auto open1 = db_->BeginTransaction(WriteOptions());
  ASSERT_OK(open1->SetName("s_open1"));
  ASSERT_OK(open1->Put("k1", "v1"));
  ASSERT_OK(open1->Delete("gone"));
  ASSERT_OK(open1->Put(Cf("cf1"), "k3", "v3"));
  ASSERT_OK(open1->Prepare());
  ASSERT_OK(db_->Flush(FlushOptions(), Cf("default")));
  ASSERT_OK(db_->Flush(FlushOptions(), Cf("cf1")));
  auto open2 = db_->BeginTransaction(WriteOptions());
  ASSERT_OK(open2->SetName("s_open2"));
  ASSERT_OK(open2->SingleDelete("plain"));
  ASSERT_OK(open2->Put("k2", "v2"));
  ASSERT_OK(open2->Prepare());
  open1.reset();  // left prepared
  open2.reset();
  committed.reset();
  rolled.reset();
  Close();

  std::string out;
  const std::string gets =
      " --get=default:k1 --get=default:k2 --get=default:gone --get=default:plain"
      " --get=cf1:k3 --get=cf1:c1 --get=default:r1";
  ASSERT_EQ(0, RunCommand(std::string(STRATA_ROCKSDB_TXN_RECOVER) + " --db=" + Path() +
                              " --resolve=commit" + gets,
                          &out))
      << out;
  const std::vector<std::string> expected = {
      "PREPARED s_open1 default PUT k1 v1",
      "PREPARED s_open1 default DELETE gone",
      "PREPARED s_open1 cf1 PUT k3 v3",
      "PREPARED s_open2 default SINGLEDELETE plain",
      "PREPARED s_open2 default PUT k2 v2",
      "GET default k1 v1",
      "GET default k2 v2",
      "GET default gone NOT_FOUND",
      "GET default plain NOT_FOUND",
      "GET cf1 k3 v3",
      "GET cf1 c1 cv",
      "GET default r1 NOT_FOUND",
  };
  EXPECT_EQ(expected, Lines(out));
  // What RocksDB committed and wrote, Strata reads; nothing is prepared.
  Open();
  std::vector<Transaction*> prepared;
  db_->GetAllPreparedTransactions(&prepared);
  EXPECT_TRUE(prepared.empty());
  EXPECT_EQ("v1", Get("default", "k1"));
  EXPECT_EQ("v2", Get("default", "k2"));
  EXPECT_EQ("NOT_FOUND", Get("default", "plain"));
  EXPECT_EQ("v3", Get("cf1", "k3"));
  Close();
#endif
}

TEST_F(TransactionRocksDBRecoveryTest, StrataRecoversRocksDBPreparedTransactions) {
#ifndef STRATA_ROCKSDB_TXN_WAL_GEN
  GTEST_SKIP() << "built without librocksdb";
#else
  for (const char* extra : {"", " --flush_mid_txn", " --exit=close"}) {
    SCOPED_TRACE(extra);
    test::TempDir dir("txn_rocksdb_gen");
    const std::string path = dir.path() + "/db";
    std::string out;
    ASSERT_EQ(0, RunCommand(std::string(STRATA_ROCKSDB_TXN_WAL_GEN) + " --db=" + path +
                                " --open_txns=3" + extra,
                            &out))
        << out;
    std::map<std::string, std::vector<std::string> > want_prepared;  // xid -> PUT lines
    std::vector<std::vector<std::string> > keys, absent;
    for (const std::string& line : Lines(out)) {
      std::istringstream in(line);
      std::string kind;
      in >> kind;
      std::vector<std::string> f;
      std::string w;
      while (in >> w) f.push_back(w);
      if (kind == "KEY") keys.push_back(f);
      if (kind == "ABSENT") absent.push_back(f);
      if (kind == "PREPARED") {
        ASSERT_EQ(4u, f.size()) << line;
        want_prepared[f[0]].push_back("PREPARED " + f[0] + " " + f[1] + " PUT " + f[2] + " " +
                                      f[3]);
      }
    }
    ASSERT_EQ(3u, want_prepared.size());
    std::vector<ColumnFamilyDescriptor> fams = {{kDefaultColumnFamilyName, options_},
                                                {"cf1", options_}};
    ASSERT_OK(TransactionDB::Open(options_, TransactionDBOptions(), path, fams, &handles_, &db_));
    for (const auto& k : keys) EXPECT_EQ(k[2], Get(k[0], k[1])) << k[1];
    for (const auto& k : absent) EXPECT_EQ("NOT_FOUND", Get(k[0], k[1])) << k[1];
    std::vector<Transaction*> prepared;
    db_->GetAllPreparedTransactions(&prepared);
    ASSERT_EQ(want_prepared.size(), prepared.size());
    for (Transaction* t : prepared) {
      Describer d;
      d.xid = t->GetName();
      d.names = {{handles_[0]->GetID(), "default"}, {handles_[1]->GetID(), "cf1"}};
      ASSERT_OK(t->GetWriteBatch()->GetWriteBatch()->Iterate(&d));
      std::vector<std::string> want = want_prepared[d.xid];
      std::sort(want.begin(), want.end());
      std::sort(d.lines.begin(), d.lines.end());
      EXPECT_EQ(want, d.lines) << d.xid;
      ASSERT_OK(t->Commit());
    }
    // Committed by Strata: visible now and after a reopen.
    for (int round = 0; round < 2; round++) {
      for (const auto& [xid, lines] : want_prepared) {
        for (const std::string& line : lines) {
          std::istringstream in(line);
          std::string p, x, cf, op, key, value;
          in >> p >> x >> cf >> op >> key >> value;
          EXPECT_EQ(value, Get(cf, key)) << line;
        }
      }
      std::vector<Transaction*> left;
      db_->GetAllPreparedTransactions(&left);
      EXPECT_TRUE(left.empty());
      Close();
      if (round == 0) {
        ASSERT_OK(
            TransactionDB::Open(options_, TransactionDBOptions(), path, fams, &handles_, &db_));
      }
    }
  }
#endif
}

}  // namespace
}  // namespace strata
