// TransactionDBTestBase: the fixture the TransactionDB tests
// (utilities/transactions/*_test.cc) share: a scratch directory, the
// options, an open TransactionDB, and the calls every such test spells the
// same way (open, reopen, Get with a missing key read as "NOT_FOUND",
// BeginTransaction). Derived fixtures adjust options_ / txn_db_options_ in
// their constructor and call Open().
//
// Thread-safety: not thread-safe (one test thread), except Get and Begin,
// which only call the database.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "strata/utilities/transaction_db.h"
#include "test_util/testutil.h"

namespace strata {

class TransactionDBTestBase : public ::testing::Test {
 protected:
  // tag: the scratch directory's prefix; lock_timeout_ms: the lock wait of
  // transactions and of plain writes.
  TransactionDBTestBase(const std::string& tag, int64_t lock_timeout_ms) : dir_(tag) {
    options_.create_if_missing = true;
    txn_db_options_.transaction_lock_timeout = lock_timeout_ms;
    txn_db_options_.default_lock_timeout = lock_timeout_ms;
  }
  // Transactions a test keeps must be gone before this runs (a transaction
  // never outlives its DB).
  ~TransactionDBTestBase() override { db_.reset(); }

  std::string Path() const { return dir_.path() + "/db"; }
  void Open() { ASSERT_OK(TransactionDB::Open(options_, txn_db_options_, Path(), &db_)); }
  // Closes (asserting OK) and opens again.
  void Reopen() {
    ASSERT_OK(db_->Close());
    db_.reset();
    Open();
  }
  std::string Get(const std::string& k) {
    std::string v;
    Status s = db_->Get(ReadOptions(), k, &v);
    if (s.IsNotFound()) return "NOT_FOUND";
    EXPECT_OK(s);
    return v;
  }
  std::unique_ptr<Transaction> Begin(const TransactionOptions& o = TransactionOptions()) {
    return db_->BeginTransaction(WriteOptions(), o);
  }

  test::TempDir dir_;
  Options options_;
  TransactionDBOptions txn_db_options_;
  std::unique_ptr<TransactionDB> db_;
};

}  // namespace strata
