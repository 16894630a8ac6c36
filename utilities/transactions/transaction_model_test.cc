// The model tests in transactional mode.
//
//  - Transfers: N threads move random amounts between M accounts (decimal
//    balances) with GetForUpdate on both accounts, Put both, and Commit,
//    retrying on Busy / TimedOut / TryAgain and rolling back on deadlock;
//    each transfer also writes a history record. A checker thread reads
//    every account in one snapshot and asserts the sum never changes (and
//    flushes now and then, so that conflict checks reach the tables and
//    optimistic commits meet TryAgain). At the end the sum is exact, the
//    history holds exactly the committed transfers, and replaying it from
//    the opening balances gives every account's final balance. Runs for
//    TransactionDB (deadlock detection on/off, two-phase commit on/off)
//    and OptimisticTransactionDB (both validation policies), each bounded
//    in time.
//  - Random transactions against a std::map: Put / Delete / Merge /
//    GetForUpdate / save points / rollback to a save point / commit /
//    rollback, with plain DB writes in between (refused on locked keys,
//    or conflicting at commit for optimistic transactions), reads through
//    the transaction and the DB checked against the model, flushes and
//    reopens; with two-phase commit, prepared transactions are left open
//    across reopens and then committed or rolled back from
//    GetAllPreparedTransactions.
//
// Seeds come from test::RandomSeed() (STRATA_TEST_SEED replays a run).
#include <atomic>
#include <chrono>
#include <cinttypes>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "strata/merge_operator.h"
#include "strata/utilities/optimistic_transaction_db.h"
#include "strata/utilities/transaction_db.h"
#include "strata/utilities/write_batch_with_index.h"
#include "strata/write_batch.h"
#include "test_util/testutil.h"

namespace strata {
namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif
#else
constexpr bool kAddressSanitizer = false;
#endif
constexpr bool kSanitized = test::kThreadSanitizer || kAddressSanitizer;

struct Mode {
  bool optimistic = false;
  bool deadlock_detect = false;
  bool two_pc = false;
  // Transactions take a snapshot at begin (pessimistic: locked keys are
  // validated against it; optimistic: the tables may answer the check).
  bool snapshot = false;
  OccValidationPolicy policy = OccValidationPolicy::kValidateParallel;
};

std::string ModeName(const Mode& m) {
  const std::string snap = m.snapshot ? "Snapshot" : "";
  if (m.optimistic) {
    return (m.policy == OccValidationPolicy::kValidateSerial ? "OptimisticSerial"
                                                             : "OptimisticParallel") +
           snap;
  }
  return std::string("Pessimistic") + (m.deadlock_detect ? "DeadlockDetect" : "Timeouts") +
         (m.two_pc ? "TwoPC" : "") + snap;
}

// A TransactionDB or an OptimisticTransactionDB behind one interface.
class TxnDBHolder {
 public:
  TxnDBHolder(const Mode& mode, const std::string& path, Options options) : mode_(mode) {
    options.create_if_missing = true;
    options.merge_operator = MergeOperators::CreateStringAppendOperator();
    path_ = path;
    options_ = options;
  }
  ~TxnDBHolder() { Close(); }

  Status Open() {
    if (mode_.optimistic) {
      OptimisticTransactionDBOptions occ;
      occ.validate_policy = mode_.policy;
      occ.occ_lock_buckets = 16;
      std::vector<ColumnFamilyDescriptor> fams = {{kDefaultColumnFamilyName, options_}};
      std::vector<ColumnFamilyHandle*> handles;
      Status s = OptimisticTransactionDB::Open(options_, occ, path_, fams, &handles, &occ_db_);
      if (s.ok()) {
        for (auto* h : handles) s = occ_db_->DestroyColumnFamilyHandle(h);
        db_ = occ_db_.get();
      }
      return s;
    }
    TransactionDBOptions o;
    o.transaction_lock_timeout = 20;
    o.default_lock_timeout = 0;  // plain writes to locked keys fail at once
    Status s = TransactionDB::Open(options_, o, path_, &txn_db_);
    if (s.ok()) db_ = txn_db_.get();
    return s;
  }
  void Close() {
    occ_db_.reset();
    txn_db_.reset();
    db_ = nullptr;
  }
  DB* db() { return db_; }
  TransactionDB* txn_db() { return txn_db_.get(); }
  const Mode& mode() const { return mode_; }

  std::unique_ptr<Transaction> Begin(std::unique_ptr<Transaction> old) {
    if (mode_.optimistic) {
      OptimisticTransactionOptions oo;
      oo.set_snapshot = mode_.snapshot;
      return occ_db_->BeginTransaction(WriteOptions(), oo, std::move(old));
    }
    TransactionOptions o;
    o.set_snapshot = mode_.snapshot;
    o.deadlock_detect = mode_.deadlock_detect;
    return txn_db_->BeginTransaction(WriteOptions(), o, std::move(old));
  }

 private:
  const Mode mode_;
  std::string path_;
  Options options_;
  std::unique_ptr<OptimisticTransactionDB> occ_db_;
  std::unique_ptr<TransactionDB> txn_db_;
  DB* db_ = nullptr;
};

// ---------------------------------------------------------------------------
// Transfers

constexpr int kAccounts = 12;
constexpr int64_t kOpening = 1000;

std::string Account(int i) {
  char buf[16];
  snprintf(buf, sizeof(buf), "acct%02d", i);
  return buf;
}

class TransferTest : public ::testing::TestWithParam<Mode> {};

TEST_P(TransferTest, SumIsInvariant) {
  const Mode mode = GetParam();
  const uint64_t seed = test::RandomSeed();
  test::TempDir dir("transaction_model_test");
  Options options;
  options.write_buffer_size = 64 << 10;  // background flushes too
  TxnDBHolder h(mode, dir.path() + "/db", options);
  ASSERT_OK(h.Open());
  DB* db = h.db();
  for (int i = 0; i < kAccounts; i++) {
    ASSERT_OK(db->Put(WriteOptions(), Account(i), std::to_string(kOpening)));
  }
  const int threads = test::kThreadSanitizer ? 2 : 4;
  const auto run_for = std::chrono::milliseconds(kSanitized ? 600 : 1000);
  const auto deadline = std::chrono::steady_clock::now() + run_for;
  std::atomic<bool> failed{false};
  std::vector<uint64_t> committed(threads, 0);
  std::atomic<uint64_t> retries{0}, deadlocks{0}, timeouts{0}, try_agains{0}, busys{0};

  auto worker = [&](int id) {
    std::mt19937_64 rng(seed + id);
    std::unique_ptr<Transaction> txn;
    uint64_t n = 0;
    while (!failed && std::chrono::steady_clock::now() < deadline) {
      const int a = static_cast<int>(rng() % kAccounts);
      int b = static_cast<int>(rng() % (kAccounts - 1));
      if (b >= a) b++;
      const int64_t amount = 1 + static_cast<int64_t>(rng() % 50);
      bool done = false;
      while (!done && !failed && std::chrono::steady_clock::now() < deadline) {
        txn = h.Begin(std::move(txn));
        std::string va, vb;
        Status s = txn->GetForUpdate(ReadOptions(), Account(a), &va);
        if (s.ok()) s = txn->GetForUpdate(ReadOptions(), Account(b), &vb);
        if (s.ok()) s = txn->Put(Account(a), std::to_string(std::stoll(va) - amount));
        if (s.ok()) s = txn->Put(Account(b), std::to_string(std::stoll(vb) + amount));
        char hist[64];
        snprintf(hist, sizeof(hist), "hist/%d/%08" PRIu64, id, n);
        char rec[64];
        snprintf(rec, sizeof(rec), "%d %d %" PRId64, a, b, amount);
        if (s.ok()) s = txn->Put(hist, rec);
        if (s.ok() && mode.two_pc) {
          s = txn->SetName("xfer-" + std::to_string(id) + "-" + std::to_string(n));
          if (s.ok()) s = txn->Prepare();
        }
        if (s.ok()) s = txn->Commit();
        if (s.ok()) {
          done = true;
          n++;
          break;
        }
        retries++;
        if (s.IsBusy() && s.subcode() == Status::kDeadlock) {
          deadlocks++;
        } else if (s.IsTimedOut()) {
          timeouts++;
        } else if (s.IsTryAgain()) {
          try_agains++;
        } else if (s.IsBusy()) {
          busys++;
        } else {
          ADD_FAILURE() << "transfer failed: " << s.ToString();
          failed = true;
        }
        // Pessimistic failures come from lock waits (before Prepare), so
        // Rollback is always allowed.
        Status r = txn->Rollback();
        if (!r.ok()) {
          ADD_FAILURE() << "rollback: " << r.ToString();
          failed = true;
        }
      }
    }
    committed[id] = n;
  };

  uint64_t checks = 0;
  auto checker = [&]() {
    while (!failed && std::chrono::steady_clock::now() < deadline) {
      const Snapshot* snap = db->GetSnapshot();
      ReadOptions ro;
      ro.snapshot = snap;
      int64_t sum = 0;
      for (int i = 0; i < kAccounts; i++) {
        std::string v;
        Status s = db->Get(ro, Account(i), &v);
        if (!s.ok()) {
          ADD_FAILURE() << "checker Get: " << s.ToString();
          failed = true;
          break;
        }
        sum += std::stoll(v);
      }
      db->ReleaseSnapshot(snap);
      if (!failed && sum != kAccounts * kOpening) {
        ADD_FAILURE() << "sum in one snapshot is " << sum << " (seed " << seed << ")";
        failed = true;
      }
      if (++checks % 50 == 0) {
        Status s = db->Flush(FlushOptions());
        if (!s.ok()) {
          ADD_FAILURE() << "flush: " << s.ToString();
          failed = true;
        }
      }
    }
  };

  std::vector<std::thread> ts;
  for (int i = 0; i < threads; i++) ts.emplace_back(worker, i);
  std::thread check(checker);
  for (auto& t : ts) t.join();
  check.join();
  ASSERT_FALSE(failed);

  // The end state: exact sum, and the history replays to the balances.
  std::vector<int64_t> replay(kAccounts, kOpening);
  uint64_t history = 0;
  std::map<int, uint64_t> per_thread;
  std::unique_ptr<Iterator> it(db->NewIterator(ReadOptions()));
  for (it->Seek("hist/"); it->Valid() && it->key().starts_with("hist/"); it->Next()) {
    int a, b;
    long long amount;
    ASSERT_EQ(3, sscanf(it->value().ToString().c_str(), "%d %d %lld", &a, &b, &amount));
    replay[a] -= amount;
    replay[b] += amount;
    history++;
    per_thread[std::stoi(it->key().ToString().substr(5))]++;
  }
  ASSERT_OK(it->status());
  it.reset();
  uint64_t total = 0;
  for (int i = 0; i < threads; i++) {
    EXPECT_EQ(committed[i], per_thread[i]) << "thread " << i;
    total += committed[i];
  }
  EXPECT_EQ(total, history);
  int64_t sum = 0;
  for (int i = 0; i < kAccounts; i++) {
    std::string v;
    ASSERT_OK(db->Get(ReadOptions(), Account(i), &v));
    EXPECT_EQ(replay[i], std::stoll(v)) << Account(i);
    sum += std::stoll(v);
  }
  EXPECT_EQ(kAccounts * kOpening, sum);
  EXPECT_GT(total, 0u);
  if (mode.two_pc) {
    std::vector<Transaction*> prepared;
    h.txn_db()->GetAllPreparedTransactions(&prepared);
    EXPECT_TRUE(prepared.empty());
  }
  printf("%s: seed %" PRIu64 ": %" PRIu64 " transfers committed, %" PRIu64
         " consistency checks; "
         "retries %" PRIu64 " (deadlocks %" PRIu64 ", timeouts %" PRIu64 ", busy %" PRIu64
         ", try-again %" PRIu64 ")\n",
         ModeName(mode).c_str(), seed, total, checks, retries.load(), deadlocks.load(),
         timeouts.load(), busys.load(), try_agains.load());
  // The balances survive a reopen.
  h.Close();
  ASSERT_OK(h.Open());
  sum = 0;
  for (int i = 0; i < kAccounts; i++) {
    std::string v;
    ASSERT_OK(h.db()->Get(ReadOptions(), Account(i), &v));
    EXPECT_EQ(replay[i], std::stoll(v)) << Account(i) << " after reopen";
    sum += std::stoll(v);
  }
  EXPECT_EQ(kAccounts * kOpening, sum);
}

std::vector<Mode> AllModes() {
  std::vector<Mode> modes;
  for (bool dd : {false, true}) {
    for (bool two_pc : {false, true}) {
      Mode m;
      m.deadlock_detect = dd;
      m.two_pc = two_pc;
      modes.push_back(m);
    }
  }
  for (auto p : {OccValidationPolicy::kValidateSerial, OccValidationPolicy::kValidateParallel}) {
    Mode m;
    m.optimistic = true;
    m.policy = p;
    modes.push_back(m);
  }
  // With snapshots: pessimistic validation fails GetForUpdate with Busy
  // when the key changed since; optimistic checks may reach the tables.
  Mode ps;
  ps.deadlock_detect = true;
  ps.snapshot = true;
  modes.push_back(ps);
  Mode os;
  os.optimistic = true;
  os.snapshot = true;
  modes.push_back(os);
  return modes;
}

INSTANTIATE_TEST_SUITE_P(Modes, TransferTest, ::testing::ValuesIn(AllModes()),
                         [](const ::testing::TestParamInfo<Mode>& info) {
                           return ModeName(info.param);
                         });

// ---------------------------------------------------------------------------
// Random transactions against a std::map

// One write of the open transaction, in order (merges apply on top of
// whatever the DB holds when read).
struct TxnOp {
  enum Kind { kPut, kDelete, kMerge } kind;
  std::string key;
  std::string value;
};

using Model = std::map<std::string, std::string>;

std::optional<std::string> Apply(std::optional<std::string> cur, const TxnOp& op) {
  switch (op.kind) {
    case TxnOp::kPut:
      return op.value;
    case TxnOp::kDelete:
      return std::nullopt;
    case TxnOp::kMerge:
      return cur.has_value() ? *cur + "," + op.value : op.value;
  }
  return cur;
}

class RandomTxnTest : public ::testing::TestWithParam<Mode> {};

TEST_P(RandomTxnTest, AgainstAMap) {
  const Mode mode = GetParam();
  const uint64_t seed = test::RandomSeed();
  std::mt19937_64 rng(seed);
  // In memory: the test reopens often, and a real disk's syncs would make
  // it slow without testing anything more.
  Env env(NewMemFileSystem(), SystemClock::Default());
  Options options;
  options.env = &env;
  options.write_buffer_size = 32 << 10;
  TxnDBHolder h(mode, "/db", options);
  ASSERT_OK(h.Open());

  Model model;  // committed state
  // The open transaction.
  std::unique_ptr<Transaction> txn;
  bool open = false;
  std::vector<TxnOp> ops;
  // Keys locked (pessimistic) or tracked (optimistic), and, per save
  // point, the ops count and the locked set when it was set.
  std::set<std::string> locked;
  std::vector<std::pair<size_t, std::set<std::string>>> save_points;
  // Optimistic: tracked keys written by a plain write since they were
  // tracked (Commit must fail), and tracked keys with a flush since they
  // were tracked (Commit may fail with TryAgain). A key tracked anew (after
  // a rollback to a save point untracked it) starts clean.
  std::set<std::string> conflicted;
  std::set<std::string> flushed;
  // Snapshot modes: keys written by plain writes since the transaction
  // began (its snapshot). Pessimistic: locking one of them (when not
  // already locked) fails with Busy; optimistic: tracking one fails Commit.
  std::set<std::string> written_since_snapshot;
  auto refused_by_snapshot = [&](const std::string& k) {
    return mode.snapshot && !mode.optimistic && locked.count(k) == 0 &&
           written_since_snapshot.count(k) > 0;
  };
  auto any_tracked = [&](const std::set<std::string>& keys) {
    for (const std::string& k : keys) {
      if (locked.count(k)) return true;
    }
    return false;
  };
  int txn_count = 0;
  // What the run exercised, for the closing line.
  int reopens = 0, recovered = 0, failed_commits = 0, blocked_writes = 0, flushes = 0;
  int snapshot_refusals = 0;
  uint64_t step = 0;
  std::string last_op;
  auto Where = [&]() {
    return ModeName(mode) + " seed " + std::to_string(seed) + " step " + std::to_string(step) +
           " (" + last_op + ")";
  };
  const int kKeys = 40;
  auto rand_key = [&]() {
    char buf[16];
    snprintf(buf, sizeof(buf), "k%02d", static_cast<int>(rng() % kKeys));
    return std::string(buf);
  };
  auto rand_value = [&]() { return "v" + std::to_string(rng() % 100000); };
  auto txn_view = [&](const std::string& k) {
    std::optional<std::string> cur;
    auto it = model.find(k);
    if (it != model.end()) cur = it->second;
    for (const TxnOp& op : ops) {
      if (op.key == k) cur = Apply(cur, op);
    }
    return cur;
  };
  auto check_db_get = [&](const std::string& k) {
    std::string v;
    Status s = h.db()->Get(ReadOptions(), k, &v);
    auto it = model.find(k);
    if (it == model.end()) {
      EXPECT_TRUE(s.IsNotFound()) << Where() << ": DB Get(" << k << ") = " << s.ToString() << " "
                                  << v;
    } else {
      ASSERT_OK_AT(s);
      EXPECT_EQ(it->second, v) << Where() << ": DB Get(" << k << ")";
    }
  };
  auto end_txn = [&]() {
    open = false;
    ops.clear();
    locked.clear();
    save_points.clear();
    conflicted.clear();
    flushed.clear();
  };
  auto track = [&](const std::string& k) {
    if (locked.insert(k).second) {
      conflicted.erase(k);
      flushed.erase(k);
    }
  };
  auto begin = [&]() {
    txn = h.Begin(std::move(txn));
    open = true;
    written_since_snapshot.clear();
    txn_count++;
    if (mode.two_pc) ASSERT_OK_AT(txn->SetName("t" + std::to_string(txn_count)));
  };
  auto apply_to_model = [&](const std::vector<TxnOp>& txn_ops) {
    for (const TxnOp& op : txn_ops) {
      auto it = model.find(op.key);
      std::optional<std::string> cur;
      if (it != model.end()) cur = it->second;
      cur = Apply(cur, op);
      if (cur.has_value()) {
        model[op.key] = *cur;
      } else {
        model.erase(op.key);
      }
    }
  };
  auto commit_to_model = [&]() { apply_to_model(ops); };
  // Two-phase commit: a transaction may stay prepared (the "pin") while
  // others run, across flushes and reopens, pinning its WAL, until it is
  // resolved at a random later step. While its object is live it holds
  // its locks; recovered at a reopen it holds none (RocksDB's rule).
  std::unique_ptr<Transaction> pin_live;
  Transaction* pin_recovered = nullptr;  // owned by the DB until deleted
  std::string pin_name;                  // empty: no pin
  std::vector<TxnOp> pin_ops;
  std::set<std::string> pin_locked;
  int pins = 0, pins_resolved = 0;
  auto has_pin = [&]() { return !pin_name.empty(); };
  auto resolve_pin = [&](bool commit) {
    Transaction* p = pin_live != nullptr ? pin_live.get() : pin_recovered;
    last_op = std::string(commit ? "commit" : "rollback") + " pinned " + pin_name;
    if (commit) {
      ASSERT_OK_AT(p->Commit());
      apply_to_model(pin_ops);
      // Written after the open transaction's snapshot.
      for (const TxnOp& op : pin_ops) written_since_snapshot.insert(op.key);
    } else {
      ASSERT_OK_AT(p->Rollback());
    }
    pin_live.reset();
    delete pin_recovered;
    pin_recovered = nullptr;
    pin_name.clear();
    pin_ops.clear();
    pin_locked.clear();
    pins_resolved++;
  };
  // Reopen; with two-phase commit, a prepared transaction may be left
  // across it and resolved from GetAllPreparedTransactions.
  auto reopen = [&](bool leave_prepared) {
    std::string name;
    if (leave_prepared) {
      ASSERT_OK_AT(txn->Prepare());
      name = txn->GetName();
      txn.reset();  // stays prepared in the WAL
    } else if (open) {
      ASSERT_OK_AT(txn->Rollback());
      end_txn();
    }
    txn.reset();
    pin_live.reset();         // stays prepared
    pin_recovered = nullptr;  // the DB deletes it at close
    pin_locked.clear();       // recovered, it holds no locks
    h.Close();
    ASSERT_OK_AT(h.Open());
    reopens++;
    if (mode.optimistic || !mode.two_pc) return;
    std::vector<Transaction*> prepared;
    h.txn_db()->GetAllPreparedTransactions(&prepared);
    std::map<std::string, Transaction*> by_name;
    for (Transaction* t : prepared) by_name[t->GetName()] = t;
    ASSERT_EQ(prepared.size(), by_name.size()) << Where();
    ASSERT_EQ((leave_prepared ? 1u : 0u) + (has_pin() ? 1u : 0u), prepared.size()) << Where();
    if (has_pin()) {
      ASSERT_EQ(1u, by_name.count(pin_name)) << Where() << ": pinned " << pin_name << " lost";
      pin_recovered = by_name[pin_name];
      EXPECT_EQ(Transaction::PREPARED, pin_recovered->GetState()) << Where();
      EXPECT_EQ(pin_ops.size(), pin_recovered->GetWriteBatch()->GetWriteBatch()->Count())
          << Where();
      for (const TxnOp& op : pin_ops) check_db_get(op.key);
    }
    if (!leave_prepared) return;
    ASSERT_EQ(1u, by_name.count(name)) << Where();
    Transaction* p = by_name[name];
    EXPECT_EQ(name, p->GetName()) << Where();
    EXPECT_EQ(Transaction::PREPARED, p->GetState()) << Where();
    // Its writes are all there (the batch also holds the Noop marker that
    // opens a two-phase-commit batch, which Count() does not include).
    EXPECT_EQ(ops.size(), p->GetWriteBatch()->GetWriteBatch()->Count()) << Where();
    // Nothing of it is visible yet.
    for (const TxnOp& op : ops) check_db_get(op.key);
    if (rng() % 2 == 0) {
      last_op = "commit recovered " + name;
      ASSERT_OK_AT(p->Commit());
      commit_to_model();
    } else {
      last_op = "rollback recovered " + name;
      ASSERT_OK_AT(p->Rollback());
    }
    delete p;
    recovered++;
    end_txn();
    prepared.clear();
    h.txn_db()->GetAllPreparedTransactions(&prepared);
    EXPECT_EQ(has_pin() ? 1u : 0u, prepared.size()) << Where();
  };

  const int steps = kSanitized ? 5000 : 20000;
  for (step = 0; step < static_cast<uint64_t>(steps) && !HasFatalFailure(); step++) {
    if (has_pin() && rng() % 80 == 0) {
      resolve_pin(/*commit=*/rng() % 2 == 0);
      continue;
    }
    const int r = static_cast<int>(rng() % 100);
    if (r < 45) {
      // A transaction operation.
      if (!open) {
        last_op = "begin";
        begin();
        continue;
      }
      const std::string k = rand_key();
      const int t = static_cast<int>(rng() % 100);
      if (t < 56 && pin_locked.count(k) > 0) {
        last_op = "locking " + k + " held by the pinned transaction";
        std::string v;
        const Status s = t < 22   ? txn->Put(k, "x")
                         : t < 32 ? txn->Delete(k)
                         : t < 44 ? txn->Merge(k, "x")
                                  : txn->GetForUpdate(ReadOptions(), k, &v);
        EXPECT_TRUE(s.IsTimedOut()) << Where() << ": " << s.ToString();
        blocked_writes++;
        continue;
      }
      if (t < 56 && refused_by_snapshot(k)) {
        last_op = "locking " + k + " written after the snapshot";
        std::string v;
        const Status s = t < 22   ? txn->Put(k, "x")
                         : t < 32 ? txn->Delete(k)
                         : t < 44 ? txn->Merge(k, "x")
                                  : txn->GetForUpdate(ReadOptions(), k, &v);
        EXPECT_TRUE(s.IsBusy()) << Where() << ": " << s.ToString();
        snapshot_refusals++;
        continue;
      }
      if (t < 22) {
        const std::string v = rand_value();
        last_op = "txn Put " + k;
        ASSERT_OK_AT(txn->Put(k, v));
        ops.push_back({TxnOp::kPut, k, v});
        track(k);
      } else if (t < 32) {
        last_op = "txn Delete " + k;
        ASSERT_OK_AT(txn->Delete(k));
        ops.push_back({TxnOp::kDelete, k, ""});
        track(k);
      } else if (t < 44) {
        const std::string v = rand_value();
        last_op = "txn Merge " + k;
        ASSERT_OK_AT(txn->Merge(k, v));
        ops.push_back({TxnOp::kMerge, k, v});
        track(k);
      } else if (t < 56) {
        last_op = "txn GetForUpdate " + k;
        std::string v;
        Status s = txn->GetForUpdate(ReadOptions(), k, &v);
        const auto want = txn_view(k);
        if (want.has_value()) {
          ASSERT_OK_AT(s);
          EXPECT_EQ(*want, v) << Where();
        } else {
          EXPECT_TRUE(s.IsNotFound()) << Where() << ": " << s.ToString();
        }
        track(k);
      } else if (t < 68) {
        last_op = "txn Get " + k;
        std::string v;
        Status s = txn->Get(ReadOptions(), k, &v);
        const auto want = txn_view(k);
        if (want.has_value()) {
          ASSERT_OK_AT(s);
          EXPECT_EQ(*want, v) << Where();
        } else {
          EXPECT_TRUE(s.IsNotFound()) << Where() << ": " << s.ToString();
        }
      } else if (t < 74) {
        last_op = "SetSavePoint";
        txn->SetSavePoint();
        save_points.emplace_back(ops.size(), locked);
      } else if (t < 80) {
        last_op = "RollbackToSavePoint";
        Status s = txn->RollbackToSavePoint();
        if (save_points.empty()) {
          EXPECT_TRUE(s.IsNotFound()) << Where() << ": " << s.ToString();
        } else {
          ASSERT_OK_AT(s);
          ops.resize(save_points.back().first);
          locked = save_points.back().second;
          save_points.pop_back();
        }
      } else if (t < 83) {
        last_op = "txn iterator";
        auto it = txn->GetIterator(ReadOptions());
        Model want = model;
        for (const TxnOp& op : ops) {
          auto cur = txn_view(op.key);
          if (cur.has_value()) {
            want[op.key] = *cur;
          } else {
            want.erase(op.key);
          }
        }
        Model got;
        for (it->SeekToFirst(); it->Valid(); it->Next())
          got[it->key().ToString()] = it->value().ToString();
        ASSERT_OK_AT(it->status());
        EXPECT_EQ(want, got) << Where();
      } else if (t < 93) {
        // Commit (two-phase: Prepare first, or leave it prepared across a
        // reopen).
        if (mode.two_pc && !has_pin() && rng() % 6 == 0) {
          last_op = "pin (stay prepared)";
          ASSERT_OK_AT(txn->Prepare());
          pin_name = txn->GetName();
          pin_ops = ops;
          pin_locked = locked;
          pin_live = std::move(txn);
          pins++;
          end_txn();
          continue;
        }
        if (mode.two_pc && rng() % 4 == 0) {
          last_op = "leave prepared across a reopen";
          reopen(/*leave_prepared=*/true);
          continue;
        }
        last_op = "commit";
        if (mode.two_pc) ASSERT_OK_AT(txn->Prepare());
        Status s = txn->Commit();
        if (mode.optimistic && mode.snapshot) {
          // The tables answer: exactly the tracked keys written since the
          // snapshot conflict.
          if (any_tracked(written_since_snapshot)) {
            EXPECT_TRUE(s.IsBusy()) << Where() << ": " << s.ToString();
          } else {
            ASSERT_OK_AT(s);
          }
        } else if (mode.optimistic && any_tracked(conflicted)) {
          EXPECT_TRUE(s.IsBusy() || s.IsTryAgain()) << Where() << ": " << s.ToString();
        } else if (mode.optimistic && any_tracked(flushed)) {
          EXPECT_TRUE(s.ok() || s.IsTryAgain()) << Where() << ": " << s.ToString();
        } else {
          ASSERT_OK_AT(s);
        }
        if (s.ok()) {
          commit_to_model();
        } else {
          failed_commits++;
          ASSERT_OK_AT(txn->Rollback());
        }
        end_txn();
      } else {
        last_op = "rollback";
        if (mode.two_pc && rng() % 2 == 0) ASSERT_OK_AT(txn->Prepare());
        ASSERT_OK_AT(txn->Rollback());
        end_txn();
      }
    } else if (r < 75) {
      // A plain write.
      const std::string k = rand_key();
      const std::string v = rand_value();
      const int t = static_cast<int>(rng() % 4);
      Status s;
      std::optional<TxnOp> op;
      if (t == 0) {
        last_op = "DB Put " + k;
        s = h.db()->Put(WriteOptions(), k, v);
        op = TxnOp{TxnOp::kPut, k, v};
      } else if (t == 1) {
        last_op = "DB Delete " + k;
        s = h.db()->Delete(WriteOptions(), k);
        op = TxnOp{TxnOp::kDelete, k, ""};
      } else if (t == 2) {
        last_op = "DB Merge " + k;
        s = h.db()->Merge(WriteOptions(), k, v);
        op = TxnOp{TxnOp::kMerge, k, v};
      } else {
        last_op = "DB Write batch " + k;
        WriteBatch b;
        const std::string k2 = rand_key();
        ASSERT_OK_AT(b.Put(k, v));
        ASSERT_OK_AT(b.Merge(k2, v));
        s = h.db()->Write(WriteOptions(), &b);
        const bool blocked = (!mode.optimistic && open && (locked.count(k) || locked.count(k2))) ||
                             pin_locked.count(k) || pin_locked.count(k2);
        if (blocked) {
          blocked_writes++;
          EXPECT_TRUE(s.IsTimedOut()) << Where() << ": " << s.ToString();
          continue;
        }
        ASSERT_OK_AT(s);
        for (const TxnOp& o : {TxnOp{TxnOp::kPut, k, v}, TxnOp{TxnOp::kMerge, k2, v}}) {
          auto cur = Apply(
              model.count(o.key) ? std::optional<std::string>(model[o.key]) : std::nullopt, o);
          if (cur.has_value()) {
            model[o.key] = *cur;
          } else {
            model.erase(o.key);
          }
          if (mode.optimistic && open && locked.count(o.key)) conflicted.insert(o.key);
          if (open) written_since_snapshot.insert(o.key);
        }
        continue;
      }
      if ((!mode.optimistic && open && locked.count(k)) || pin_locked.count(k)) {
        blocked_writes++;
        EXPECT_TRUE(s.IsTimedOut()) << Where() << ": " << s.ToString();
        continue;
      }
      ASSERT_OK_AT(s);
      auto cur = Apply(model.count(k) ? std::optional<std::string>(model[k]) : std::nullopt, *op);
      if (cur.has_value()) {
        model[k] = *cur;
      } else {
        model.erase(k);
      }
      if (mode.optimistic && open && locked.count(k)) conflicted.insert(k);
      if (open) written_since_snapshot.insert(k);
    } else if (r < 95) {
      const std::string k = rand_key();
      last_op = "DB Get " + k;
      check_db_get(k);
    } else if (r < 99) {
      last_op = "flush";
      ASSERT_OK_AT(h.db()->Flush(FlushOptions()));
      flushes++;
      if (open) flushed.insert(locked.begin(), locked.end());
    } else {
      last_op = "reopen";
      reopen(/*leave_prepared=*/false);
    }
  }
  // Final: the whole DB equals the model, before and after a reopen.
  if (has_pin()) resolve_pin(/*commit=*/false);
  if (open) {
    ASSERT_OK_AT(txn->Rollback());
    end_txn();
  }
  for (int round = 0; round < 2; round++) {
    Model got;
    std::unique_ptr<Iterator> it(h.db()->NewIterator(ReadOptions()));
    for (it->SeekToFirst(); it->Valid(); it->Next())
      got[it->key().ToString()] = it->value().ToString();
    ASSERT_OK_AT(it->status());
    EXPECT_EQ(model, got) << Where();
    it.reset();
    last_op = "final reopen";
    reopen(false);
  }
  printf("%s: seed %" PRIu64
         ": %d transactions (%d commits failed on conflicts), %d plain "
         "writes refused on locked keys, %d locks refused by the snapshot, %d flushes, %d "
         "reopens, %d prepared transactions recovered and resolved, %d pinned (%d resolved), "
         "%zu keys at the end\n",
         ModeName(mode).c_str(), seed, txn_count, failed_commits, blocked_writes, snapshot_refusals,
         flushes, reopens, recovered, pins, pins_resolved, model.size());
}

std::vector<Mode> RandomModes() {
  std::vector<Mode> modes;
  Mode m;
  modes.push_back(m);
  m.two_pc = true;
  modes.push_back(m);
  Mode o;
  o.optimistic = true;
  o.policy = OccValidationPolicy::kValidateSerial;
  modes.push_back(o);
  o.policy = OccValidationPolicy::kValidateParallel;
  modes.push_back(o);
  Mode ps;
  ps.two_pc = true;
  ps.snapshot = true;
  modes.push_back(ps);
  o.snapshot = true;
  modes.push_back(o);
  return modes;
}

INSTANTIATE_TEST_SUITE_P(Modes, RandomTxnTest, ::testing::ValuesIn(RandomModes()),
                         [](const ::testing::TestParamInfo<Mode>& info) {
                           return ModeName(info.param);
                         });

}  // namespace
}  // namespace strata
