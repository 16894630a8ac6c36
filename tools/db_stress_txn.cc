// db_stress's transaction modes (tools/db_stress_txn.h).

#include "tools/db_stress_txn.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "strata/utilities/optimistic_transaction_db.h"
#include "strata/utilities/transaction.h"
#include "strata/utilities/transaction_db.h"
#include "strata/utilities/write_batch_with_index.h"
#include "strata/write_batch.h"

namespace strata {
namespace stress {
namespace {

// The transaction DB g_db is, or null.
TransactionDB* g_txn_db = nullptr;
OptimisticTransactionDB* g_otxn_db = nullptr;

// The transaction record file (--expected_dir/TXNS, mmap'd MAP_SHARED like
// EXPECTED, so it survives SIGKILL): two slots per thread, each the name,
// writes and state of a two-phase transaction (or of a one-phase write in
// flight, kTxnOnePhase, for the all-or-nothing check). A slot's state moves
// kTxnPreparing (Prepare issued) -> kTxnPrepared (Prepare acknowledged) ->
// kTxnCommitting or kTxnRollingBack (issued) -> kTxnFree (acknowledged);
// each change is stored (and, with --sync, msync'ed) before the DB call it
// announces is issued or after the one it records returned, so after a kill
// the slots say exactly which transactions recovery may and must return.
// Slot 2t holds thread t's transaction that may stay prepared across ops
// ("held"); slot 2t+1 its other ones.
constexpr int kMaxTxnWrites = 16;
constexpr int kTxnSlots = 2 * kMaxTxnThreads;
constexpr uint64_t kTxnMagic = 0x5354524553535831ull;  // "STRESSX1"

enum TxnRecState : uint32_t {
  kTxnFree = 0,
  kTxnPreparing = 1,
  kTxnPrepared = 2,
  kTxnCommitting = 3,
  kTxnRollingBack = 4,
  // A one-phase write of several keys (a transaction's Commit without
  // Prepare, or a batch through the DB's write path) in flight: after a kill
  // all of its writes or none must show.
  kTxnOnePhase = 5,
};
const char* const kTxnStateNames[] = {"free",       "preparing",    "prepared",
                                      "committing", "rolling back", "one-phase commit"};

// One write of a transaction: op 0 Put, 1 Merge, 2 Delete, 3 SingleDelete;
// the value of a Put or Merge is Value(key, base).
enum TxnWriteOp : uint32_t { kTxnPut = 0, kTxnMerge = 1, kTxnDelete = 2, kTxnSingleDelete = 3 };
const char* const kTxnOpNames[] = {"Put", "Merge", "Delete", "SingleDelete"};
struct TxnWriteRec {
  uint64_t key;
  uint32_t base;  // kAbsent for deletes
  uint32_t op;
};

struct TxnRecord {
  std::atomic<uint32_t> state;
  uint32_t n;  // writes
  char name[56];
  TxnWriteRec w[kMaxTxnWrites];
};
static_assert(sizeof(TxnRecord) == 64 + 16 * kMaxTxnWrites, "layout");

struct TxnFileHeader {
  uint64_t magic;
  uint64_t slots;
  uint64_t pad[6];
};

TxnRecord* g_txn_slots = nullptr;
char* g_txn_map = nullptr;
size_t g_txn_map_size = 0;

void MapTxnRecords(bool reset) {
  g_txn_map_size = sizeof(TxnFileHeader) + kTxnSlots * sizeof(TxnRecord);
  bool created;
  void* p = MapFile(FLAGS.expected_dir + "/TXNS", g_txn_map_size, &created);
  g_txn_map = static_cast<char*>(p);
  auto* h = static_cast<TxnFileHeader*>(p);
  if (created || reset || h->magic != kTxnMagic || h->slots != kTxnSlots) {
    memset(p, 0, g_txn_map_size);
    h->slots = kTxnSlots;
    h->magic = kTxnMagic;
  }
  g_txn_slots = reinterpret_cast<TxnRecord*>(g_txn_map + sizeof(TxnFileHeader));
}

// Stores slot i's new state; with --sync also forces the slot to disk
// before returning (the acknowledgement that follows is then durable).
void SetTxnState(int i, TxnRecState st) {
  g_txn_slots[i].state.store(st);
  if (FLAGS.sync) {
    const long page = sysconf(_SC_PAGESIZE);
    char* a = reinterpret_cast<char*>(&g_txn_slots[i]);
    char* begin = g_txn_map + ((a - g_txn_map) / page) * page;
    char* end = a + sizeof(TxnRecord);
    if (msync(begin, static_cast<size_t>(end - begin), MS_SYNC) != 0) {
      perror("msync TXNS");
      exit(2);
    }
  }
}

std::atomic<uint64_t> g_txn_commits{0}, g_txn_2pc{0}, g_txn_rollbacks{0}, g_txn_held{0},
    g_txn_lock_failures{0}, g_txn_gave_up{0}, g_txn_occ_conflicts{0}, g_txn_occ_injected{0},
    g_txn_direct{0}, g_txn_rmw{0}, g_txn_lock_first{0}, g_txn_deadlocks{0};
uint64_t g_txn_recovered = 0, g_txn_recovered_committed = 0, g_txn_recovered_rolled_back = 0,
         g_txn_commit_in_flight_seen = 0;

bool IsLockFailure(const Status& s) { return s.IsTimedOut() || s.IsBusy() || s.IsTryAgain(); }

WriteOptions TxnWriteOptions() {
  WriteOptions wo;
  wo.sync = FLAGS.sync;
  return wo;
}

std::unique_ptr<Transaction> BeginTxn() {
  if (g_otxn_db != nullptr) return g_otxn_db->BeginTransaction(TxnWriteOptions());
  TransactionOptions to;
  to.deadlock_detect = true;
  return g_txn_db->BeginTransaction(TxnWriteOptions(), to);
}

// Where a transaction op puts its writes: a transaction, or (the DB's own
// write path, which locks the keys itself on a TransactionDB) a batch.
struct TxnSink {
  Transaction* txn = nullptr;
  WriteBatch* batch = nullptr;
  std::vector<TxnWriteRec> ws;

  Status Add(uint64_t k, uint32_t op, uint32_t base) {
    const std::string key = Key(k);
    Status s;
    switch (op) {
      case kTxnPut:
        s = txn ? txn->Put(key, Value(k, base)) : batch->Put(key, Value(k, base));
        break;
      case kTxnMerge:
        s = txn ? txn->Merge(key, Value(k, base)) : batch->Merge(key, Value(k, base));
        break;
      case kTxnDelete:
        s = txn ? txn->Delete(key) : batch->Delete(key);
        break;
      default:
        s = txn ? txn->SingleDelete(key) : batch->SingleDelete(key);
        break;
    }
    if (s.ok()) ws.push_back({k, base, op});
    return s;
  }
};

// The keys of one write op of `kind` on the stripe at lo (k: its single
// key), distinct. A TransactionDB refuses DeleteRange (a range cannot be
// locked key by key): a range is one Delete per key, single-delete keys
// left out.
std::vector<uint64_t> ChooseTxnKeys(ThreadState* ts, int kind, uint64_t k, uint64_t lo) {
  std::vector<uint64_t> keys;
  if (kind == kDeleteRange) {
    uint64_t a = lo + ts->Uniform(kStripe);
    uint64_t b = std::min(lo + kStripe, a + 1 + ts->Uniform(6));
    for (uint64_t x = a; x < b; x++) {
      if (!IsSingleDeleteKey(x)) keys.push_back(x);
    }
  } else if (kind == kBatch) {
    int n = 2 + static_cast<int>(ts->Uniform(5));
    std::vector<bool> used(kStripe, false);
    for (int i = 0; i < n; i++) {
      uint64_t x = lo + ts->Uniform(kStripe);
      if (used[x - lo]) continue;
      used[x - lo] = true;
      keys.push_back(x);
    }
  } else {
    keys.push_back(k);
  }
  return keys;
}

// The write of an op of `kind` to key x: the op and (Put, Merge) the new
// value's base. Single-delete keys: Put when absent, SingleDelete when
// present. The caller holds the stripe (and, pessimistic, may hold x).
uint32_t ChooseTxnOp(ThreadState* ts, int kind, uint64_t x, uint32_t* base) {
  *base = kAbsent;
  if (IsSingleDeleteKey(x)) {
    if (g_expected->at(x).value.load() != kAbsent) return kTxnSingleDelete;
    *base = g_expected->NextBase(x);
    return kTxnPut;
  }
  uint32_t op;
  switch (kind) {
    case kPut:
      op = kTxnPut;
      break;
    case kMerge:
      op = kTxnMerge;
      break;
    case kDelete:
    case kSingleDelete:
    case kDeleteRange:
      op = kTxnDelete;
      break;
    default:  // kBatch
      op = ts->Uniform(3) == 0 ? kTxnPut : ts->Uniform(2) == 0 ? kTxnMerge : kTxnDelete;
      // --merge_pct=0: no merges at all (so that a tool without the "put"
      // merge operator, such as RocksDB's ldb, reads the DB).
      if (op == kTxnMerge && FLAGS.merge_pct <= 0) op = kTxnPut;
      break;
  }
  if (op != kTxnDelete) *base = g_expected->NextBase(x);
  return op;
}

// Checks a GetForUpdate result for key x against the expected value, which
// is exact: the caller holds x's stripe (and the transaction x's lock).
// Returns Aborted after reporting a failure.
Status CheckLockedRead(uint64_t x, const Status& s, const std::string& v) {
  uint32_t got;
  if (!ReadResult(x, s, v, &got, "GetForUpdate")) return Status::Aborted("reported");
  if (got != g_expected->at(x).value.load()) {
    Fail("GetForUpdate of %s: expected %s, found %s", Key(x).c_str(),
         DescribeExpected(g_expected->at(x)).c_str(), DescribeBase(got).c_str());
    return Status::Aborted("reported");
  }
  g_txn_rmw.fetch_add(1, std::memory_order_relaxed);
  return Status::OK();
}

// Fills the sink with the writes of one op of `kind` to `keys`. The caller
// holds the stripe. Unless the keys are already locked (and checked), a
// batch reads a third of its keys with GetForUpdate first; a quarter of a
// batch's writes are read back through the transaction. A lock failure of
// a write or GetForUpdate is returned as is (the caller retries); Aborted
// means a failure was reported.
Status BuildTxnWrites(ThreadState* ts, int kind, const std::vector<uint64_t>& keys, bool locked,
                      TxnSink* sink) {
  for (uint64_t x : keys) {
    Status s;
    if (!locked && kind == kBatch && sink->txn != nullptr && ts->OneIn(3)) {
      // Locks (pessimistic) or tracks (optimistic) the key.
      std::string v;
      s = sink->txn->GetForUpdate(ReadOptions(), Key(x), &v);
      if (IsLockFailure(s)) return s;
      s = CheckLockedRead(x, s, v);
      if (!s.ok()) return s;
    }
    uint32_t base;
    const uint32_t op = ChooseTxnOp(ts, kind, x, &base);
    s = sink->Add(x, op, base);
    if (!s.ok()) return s;
    if (kind == kBatch && sink->txn != nullptr && ts->OneIn(4)) {
      // A transaction reads its own writes.
      std::string v;
      s = sink->txn->Get(ReadOptions(), Key(x), &v);
      uint32_t got;
      if (!ReadResult(x, s, v, &got, "Transaction::Get")) return Status::Aborted("reported");
      if (got != base) {
        Fail("Transaction::Get of %s after its own %s: expected %s, found %s", Key(x).c_str(),
             kTxnOpNames[op], DescribeBase(base).c_str(), DescribeBase(got).c_str());
        return Status::Aborted("reported");
      }
    }
  }
  return Status::OK();
}

// Records a one-phase write of ws in thread ts's second slot (state
// kTxnOnePhase) before it is issued; EndOnePhase frees the slot after it
// returned.
int BeginOnePhase(ThreadState* ts, const std::vector<TxnWriteRec>& ws) {
  const int slot = 2 * ts->id + 1;
  TxnRecord& r = g_txn_slots[slot];
  snprintf(r.name, sizeof(r.name), "(one-phase)");
  r.n = static_cast<uint32_t>(std::min(ws.size(), static_cast<size_t>(kMaxTxnWrites)));
  std::copy(ws.begin(), ws.begin() + r.n, r.w);
  SetTxnState(slot, kTxnOnePhase);
  return slot;
}
void EndOnePhase(int slot) { SetTxnState(slot, kTxnFree); }

// Marks the writes pending (in flight) with their new bases.
void MarkPending(const std::vector<TxnWriteRec>& ws) {
  for (const TxnWriteRec& w : ws) {
    ExpectedEntry& e = g_expected->at(w.key);
    e.pending_value.store(w.base);
    e.pending.store(1);
  }
}
// Resolves pending writes: applied (the new bases) or not.
void ResolvePending(const std::vector<TxnWriteRec>& ws, bool applied) {
  for (const TxnWriteRec& w : ws) {
    ExpectedEntry& e = g_expected->at(w.key);
    if (applied) e.value.store(w.base);
    e.pending.store(0);
  }
}

// After a rollback (or a failed commit): none of the writes may show.
bool CheckNotVisible(const std::vector<TxnWriteRec>& ws, const char* what) {
  std::string v;
  for (const TxnWriteRec& w : ws) {
    Status s = g_db->Get(ReadOptions(), Key(w.key), &v);
    uint32_t got;
    if (!ReadResult(w.key, s, v, &got, what)) return false;
    if (!Accept(w.key, got)) {
      Fail("%s: %s is %s, expected %s (the transaction's %s of %s must not show)", what,
           Key(w.key).c_str(), DescribeBase(got).c_str(),
           DescribeExpected(g_expected->at(w.key)).c_str(), kTxnOpNames[w.op],
           DescribeBase(w.base).c_str());
      return false;
    }
  }
  return true;
}

// Commits or rolls back prepared transaction txn of slot i, recording each
// step. The caller holds the stripe of its keys.
bool ResolvePrepared(ThreadState* ts, Transaction* txn, int i, bool commit) {
  TxnRecord& r = g_txn_slots[i];
  std::vector<TxnWriteRec> ws(r.w, r.w + r.n);
  if (commit) {
    MarkPending(ws);
    SetTxnState(i, kTxnCommitting);
    Status s = txn->Commit();
    if (!s.ok()) {
      Fail("Commit of prepared transaction %s failed: %s", r.name, s.ToString().c_str());
      return false;
    }
    ResolvePending(ws, true);
    SetTxnState(i, kTxnFree);
    g_txn_commits.fetch_add(1, std::memory_order_relaxed);
    return true;
  }
  SetTxnState(i, kTxnRollingBack);
  Status s = txn->Rollback();
  if (!s.ok()) {
    Fail("Rollback of prepared transaction %s failed: %s", r.name, s.ToString().c_str());
    return false;
  }
  // Self-test (--inject_bug_for_test=5): the record keeps saying
  // "prepared" although the transaction is gone, which the recovery check
  // of the next run must catch.
  SetTxnState(i, FLAGS.inject_bug_for_test == 5 ? kTxnPrepared : kTxnFree);
  g_txn_rollbacks.fetch_add(1, std::memory_order_relaxed);
  (void)ts;
  return CheckNotVisible(ws, "read after Rollback of a prepared transaction");
}

// The held (prepared, left open) transaction of a thread.
struct HeldTxn {
  std::unique_ptr<Transaction> txn;
  uint64_t stripe = 0;
  int countdown = 0;
};
std::vector<HeldTxn> g_held;  // one per thread

std::atomic<uint64_t> g_txn_names{0};  // names: x<pid>-<thread>-<n>

// Collects a batch's data operations (the recovered transaction's writes).
struct BatchOps : WriteBatch::Handler {
  std::vector<std::tuple<uint32_t, std::string, std::string>> ops;  // op, key, value
  Status PutCF(uint32_t, const Slice& k, const Slice& v) override { return Add(kTxnPut, k, v); }
  Status MergeCF(uint32_t, const Slice& k, const Slice& v) override { return Add(kTxnMerge, k, v); }
  Status DeleteCF(uint32_t, const Slice& k) override { return Add(kTxnDelete, k, Slice()); }
  Status SingleDeleteCF(uint32_t, const Slice& k) override {
    return Add(kTxnSingleDelete, k, Slice());
  }
  Status DeleteRangeCF(uint32_t, const Slice&, const Slice&) override {
    return Status::Corruption("a DeleteRange in a recovered transaction");
  }
  Status MarkBeginPrepare(bool) override { return Status::OK(); }
  Status MarkEndPrepare(const Slice&) override { return Status::OK(); }
  Status MarkCommit(const Slice&) override { return Status::OK(); }
  Status MarkRollback(const Slice&) override { return Status::OK(); }
  Status MarkNoop(bool) override { return Status::OK(); }
  Status Add(uint32_t op, const Slice& k, const Slice& v) {
    ops.emplace_back(op, k.ToString(), v.ToString());
    return Status::OK();
  }
};

// Whether recovered transaction txn holds exactly the writes of record r.
// (--inject_bug_for_test=6: the comparison is made with the first recorded
// write changed, as if recovery had returned another write; it must fail.)
bool SameWrites(Transaction* txn, const TxnRecord& rec) {
  struct {
    const char* name;
    uint32_t n;
    TxnWriteRec w[kMaxTxnWrites];
  } r;
  r.name = rec.name;
  r.n = rec.n;
  std::copy(rec.w, rec.w + rec.n, r.w);
  if (FLAGS.inject_bug_for_test == 6 && r.n > 0) {
    if (r.w[0].base != kAbsent) {
      r.w[0].base ^= 1;
    } else {
      r.w[0].op = r.w[0].op == kTxnDelete ? kTxnSingleDelete : kTxnDelete;
    }
  }
  BatchOps got;
  Status s = txn->GetWriteBatch()->GetWriteBatch()->Iterate(&got);
  if (!s.ok()) {
    Fail("recovered transaction %s: its batch does not read: %s", r.name, s.ToString().c_str());
    return false;
  }
  bool same = got.ops.size() == r.n;
  for (uint32_t j = 0; same && j < r.n; j++) {
    const TxnWriteRec& w = r.w[j];
    const bool has_value = w.op == kTxnPut || w.op == kTxnMerge;
    same = std::get<0>(got.ops[j]) == w.op && std::get<1>(got.ops[j]) == Key(w.key) &&
           std::get<2>(got.ops[j]) == (has_value ? Value(w.key, w.base) : std::string());
  }
  if (!same) {
    std::string want, have;
    for (uint32_t j = 0; j < r.n; j++) {
      want += std::string(j ? ", " : "") + kTxnOpNames[r.w[j].op] + " " + Key(r.w[j].key) +
              (r.w[j].op == kTxnPut || r.w[j].op == kTxnMerge
                   ? "='" + Printable(Value(r.w[j].key, r.w[j].base)) + "'"
                   : "");
    }
    for (const auto& [op, key, value] : got.ops) {
      have += std::string(have.empty() ? "" : ", ") + (op < 4 ? kTxnOpNames[op] : "?") + " " +
              Printable(key) + (value.empty() ? "" : "='" + Printable(value) + "'");
    }
    Fail("recovered transaction %s holds [%s], recorded [%s]", r.name, have.c_str(), want.c_str());
  }
  return same;
}

}  // namespace

void SetUpTxnRecords(bool reset) {
  MapTxnRecords(reset);
  g_held.clear();
  g_held.resize(static_cast<size_t>(FLAGS.threads));
}

bool TickHeld(ThreadState* ts) {
  HeldTxn& h = g_held[static_cast<size_t>(ts->id)];
  if (!h.txn || --h.countdown > 0) return true;
  return ResolveHeld(ts);
}

void DropHeld(ThreadState* ts) { g_held[static_cast<size_t>(ts->id)].txn.reset(); }

void PrintTxnSummary() {
  printf("db_stress txn summary: %s commits=%" PRIu64 " two_phase=%" PRIu64 " rollbacks=%" PRIu64
         " held_prepared=%" PRIu64 " direct_writes=%" PRIu64 " get_for_update=%" PRIu64
         " lock_first=%" PRIu64 " lock_failures=%" PRIu64 " deadlocks=%" PRIu64 " gave_up=%" PRIu64
         " occ_conflicts=%" PRIu64 " occ_injected=%" PRIu64 " recovered_prepared=%" PRIu64
         " recovered_committed=%" PRIu64 " recovered_rolled_back=%" PRIu64
         " commits_in_flight_at_kill=%" PRIu64 "\n",
         FLAGS.use_optimistic_txn ? "optimistic" : "pessimistic", g_txn_commits.load(),
         g_txn_2pc.load(), g_txn_rollbacks.load(), g_txn_held.load(), g_txn_direct.load(),
         g_txn_rmw.load(), g_txn_lock_first.load(), g_txn_lock_failures.load(),
         g_txn_deadlocks.load(), g_txn_gave_up.load(), g_txn_occ_conflicts.load(),
         g_txn_occ_injected.load(), g_txn_recovered, g_txn_recovered_committed,
         g_txn_recovered_rolled_back, g_txn_commit_in_flight_seen);
}

// Resolves thread ts's held transaction (if any), taking its stripe.
bool ResolveHeld(ThreadState* ts) {
  HeldTxn& h = g_held[static_cast<size_t>(ts->id)];
  if (!h.txn) return true;
  std::lock_guard<std::mutex> l((*g_locks)[h.stripe]);
  bool ok = ResolvePrepared(ts, h.txn.get(), 2 * ts->id, !ts->OneIn(3));
  h.txn.reset();
  return ok;
}

// One write op of `kind` in transaction mode: through a transaction (or,
// --txn_direct_pct of the time, the DB's own locking write path), retried
// after lock timeouts or deadlocks (pessimistic) or conflicts (optimistic)
// with the stripe released in between. A pessimistic transaction
// --txn_lock_first_pct of the time first locks its keys with GetForUpdate,
// in random order and without the stripe's mutex, so that threads meet in
// the lock manager (waits, timeouts, deadlocks detected); it takes the
// stripe only then. Returns false when the thread must stop.
bool TxnOp(ThreadState* ts, std::unique_lock<std::mutex>& lock, int kind, uint64_t k,
           uint64_t stripe) {
  const uint64_t lo = stripe * kStripe;
  const bool direct = ts->Uniform(100) < static_cast<uint64_t>(std::max(FLAGS.txn_direct_pct, 0));
  const bool lock_first =
      !direct && g_txn_db != nullptr &&
      ts->Uniform(100) < static_cast<uint64_t>(std::max(FLAGS.txn_lock_first_pct, 0));
  constexpr int kAttempts = 4;
  for (int attempt = 0; attempt < kAttempts; attempt++) {
    if (attempt > 0) {
      lock.unlock();
      std::this_thread::sleep_for(std::chrono::milliseconds(1 + ts->Uniform(3 * attempt)));
      lock.lock();
    }
    TxnSink sink;
    WriteBatch batch;
    std::unique_ptr<Transaction> txn;
    if (direct) {
      sink.batch = &batch;
    } else {
      txn = BeginTxn();
      sink.txn = txn.get();
    }
    const std::vector<uint64_t> keys = ChooseTxnKeys(ts, kind, k, lo);
    Status s;
    if (lock_first) {
      // The locks first, without the stripe (whose holder may be waiting
      // for one of them); a key's value cannot change while it is locked,
      // and once the stripe is taken its expected value is exact too.
      std::vector<uint64_t> order = keys;
      std::shuffle(order.begin(), order.end(), ts->rng);
      std::vector<std::pair<Status, std::string>> reads(order.size());
      lock.unlock();
      for (size_t i = 0; i < order.size() && s.ok(); i++) {
        reads[i].first = txn->GetForUpdate(ReadOptions(), Key(order[i]), &reads[i].second);
        if (IsLockFailure(reads[i].first)) s = reads[i].first;
      }
      lock.lock();
      for (size_t i = 0; i < order.size() && s.ok(); i++) {
        s = CheckLockedRead(order[i], reads[i].first, reads[i].second);
      }
      if (s.ok()) g_txn_lock_first.fetch_add(1, std::memory_order_relaxed);
    }
    if (s.ok()) s = BuildTxnWrites(ts, kind, keys, lock_first, &sink);
    if (s.IsAborted()) return false;  // a verification failure, reported
    if (IsLockFailure(s)) {
      if (s.IsDeadlock()) g_txn_deadlocks.fetch_add(1, std::memory_order_relaxed);
      g_txn_lock_failures.fetch_add(1, std::memory_order_relaxed);
      if (txn) txn->Rollback().PermitUncheckedError();
      continue;
    }
    if (!s.ok()) {
      Fail("building a transaction's writes failed: %s", s.ToString().c_str());
      return false;
    }
    if (sink.ws.empty()) return true;
    if (direct) {
      MarkPending(sink.ws);
      const int slot = BeginOnePhase(ts, sink.ws);
      s = g_db->Write(TxnWriteOptions(), &batch);
      if (IsLockFailure(s)) {
        ResolvePending(sink.ws, false);
        EndOnePhase(slot);
        g_txn_lock_failures.fetch_add(1, std::memory_order_relaxed);
        continue;
      }
      if (!s.ok()) {
        Fail("Write through the transaction DB failed: %s", s.ToString().c_str());
        return false;
      }
      ResolvePending(sink.ws, true);
      EndOnePhase(slot);
      g_txn_direct.fetch_add(1, std::memory_order_relaxed);
      ts->counts[kind]++;
      return true;
    }
    const bool rollback =
        ts->Uniform(100) < static_cast<uint64_t>(std::max(FLAGS.txn_rollback_pct, 0));
    const bool two_phase =
        g_txn_db != nullptr &&
        ts->Uniform(100) < static_cast<uint64_t>(std::max(FLAGS.txn_2pc_pct, 0)) &&
        sink.ws.size() <= static_cast<size_t>(kMaxTxnWrites);
    if (two_phase) {
      HeldTxn& held = g_held[static_cast<size_t>(ts->id)];
      const bool may_hold = !held.txn;
      const int slot = 2 * ts->id + (may_hold ? 0 : 1);
      TxnRecord& r = g_txn_slots[slot];
      char name[56];
      snprintf(name, sizeof(name), "x%d-%d-%" PRIu64, static_cast<int>(getpid()), ts->id,
               g_txn_names.fetch_add(1));
      s = txn->SetName(name);
      if (!s.ok()) {
        Fail("SetName(%s) failed: %s", name, s.ToString().c_str());
        return false;
      }
      memcpy(r.name, name, sizeof(name));
      r.n = static_cast<uint32_t>(sink.ws.size());
      std::copy(sink.ws.begin(), sink.ws.end(), r.w);
      SetTxnState(slot, kTxnPreparing);
      s = txn->Prepare();
      if (!s.ok()) {
        Fail("Prepare of %s failed: %s", name, s.ToString().c_str());
        return false;
      }
      SetTxnState(slot, kTxnPrepared);
      g_txn_2pc.fetch_add(1, std::memory_order_relaxed);
      ts->counts[kind]++;
      if (may_hold && ts->Uniform(100) < static_cast<uint64_t>(std::max(FLAGS.txn_hold_pct, 0))) {
        // Left prepared (its keys stay locked) for a few more ops.
        held.txn = std::move(txn);
        held.stripe = stripe;
        held.countdown = 1 + static_cast<int>(ts->Uniform(20));
        g_txn_held.fetch_add(1, std::memory_order_relaxed);
        return true;
      }
      return ResolvePrepared(ts, txn.get(), slot, !rollback);
    }
    if (rollback) {
      s = txn->Rollback();
      if (!s.ok()) {
        Fail("Rollback failed: %s", s.ToString().c_str());
        return false;
      }
      g_txn_rollbacks.fetch_add(1, std::memory_order_relaxed);
      ts->counts[kind]++;
      return CheckNotVisible(sink.ws, "read after Rollback");
    }
    // Optimistic: now and then a write of one of its keys lands between
    // the transaction's writes and its commit, which must then fail.
    bool injected = false;
    if (g_otxn_db != nullptr && ts->OneIn(20)) {
      const TxnWriteRec& w = sink.ws.front();
      if (!IsSingleDeleteKey(w.key)) {
        const uint32_t b = g_expected->NextBase(w.key);
        ExpectedEntry& e = g_expected->at(w.key);
        e.pending_value.store(b);
        e.pending.store(1);
        s = g_db->Put(TxnWriteOptions(), Key(w.key), Value(w.key, b));
        if (!s.ok()) {
          Fail("conflicting Put failed: %s", s.ToString().c_str());
          return false;
        }
        e.value.store(b);
        e.pending.store(0);
        injected = true;
        g_txn_occ_injected.fetch_add(1, std::memory_order_relaxed);
      }
    }
    MarkPending(sink.ws);
    const int slot = BeginOnePhase(ts, sink.ws);
    s = txn->Commit();
    if (g_otxn_db != nullptr && (s.IsBusy() || s.IsTryAgain())) {
      ResolvePending(sink.ws, false);
      EndOnePhase(slot);
      g_txn_occ_conflicts.fetch_add(1, std::memory_order_relaxed);
      if (!injected && s.IsBusy()) {
        Fail("optimistic commit reported a conflict no other write made: %s", s.ToString().c_str());
        return false;
      }
      if (!CheckNotVisible(sink.ws, "read after a failed optimistic commit")) return false;
      continue;
    }
    if (!s.ok()) {
      Fail("Commit failed: %s", s.ToString().c_str());
      return false;
    }
    if (injected) {
      Fail("optimistic commit succeeded although %s was written after the transaction's write",
           Key(sink.ws.front().key).c_str());
      return false;
    }
    ResolvePending(sink.ws, true);
    EndOnePhase(slot);
    g_txn_commits.fetch_add(1, std::memory_order_relaxed);
    ts->counts[kind]++;
    return true;
  }
  g_txn_gave_up.fetch_add(1, std::memory_order_relaxed);
  return true;
}

// After an open (startup of a run, --verify_only, reopen): the prepared
// transactions recovery returned must be exactly the ones the records allow
// (see "Transactions" in the header comment), each with exactly its
// recorded writes; transactions whose commit was in flight must be all
// visible (committed) or, if returned as prepared, not at all. Then each
// recovered one is committed or rolled back at random. Returns false on a
// failure (reported).
bool RecoverPreparedTxns(uint64_t seed) {
  if (!FLAGS.use_txn) return true;
  std::mt19937_64 rng(seed ^ 0x7478'6e72'6563'7672ull);
  std::vector<Transaction*> prepared;
  if (g_txn_db != nullptr) g_txn_db->GetAllPreparedTransactions(&prepared);
  std::map<std::string, Transaction*> by_name;
  for (Transaction* t : prepared) by_name[t->GetName()] = t;
  std::vector<uint32_t> actual;
  if (!ReadAll(&actual)) return false;
  bool ok = true;
  uint64_t acked = 0, in_flight = 0, committed_at_kill = 0, gone = 0, one_phase = 0;
  std::vector<std::pair<int, Transaction*>> to_resolve;
  for (int i = 0; i < kTxnSlots && ok; i++) {
    TxnRecord& r = g_txn_slots[i];
    const uint32_t st = r.state.load();
    if (st == kTxnFree) continue;
    if (st == kTxnOnePhase) {
      // All of its writes show, or none.
      bool all_new = true, all_old = true;
      for (uint32_t j = 0; j < r.n; j++) {
        const TxnWriteRec& w = r.w[j];
        all_new = all_new && actual[w.key] == w.base;
        all_old = all_old && actual[w.key] == g_expected->at(w.key).value.load();
      }
      if (!all_new && !all_old) {
        std::string d;
        for (uint32_t j = 0; j < r.n; j++) {
          const TxnWriteRec& w = r.w[j];
          d += std::string(j ? ", " : "") + Key(w.key) + " " + kTxnOpNames[w.op] + " " +
               DescribeBase(w.base) + " (was " + DescribeBase(g_expected->at(w.key).value.load()) +
               ", found " + DescribeBase(actual[w.key]) + ")";
        }
        Fail("a one-phase commit in flight at the kill is partly visible: %s", d.c_str());
        ok = false;
        break;
      }
      ResolvePending(std::vector<TxnWriteRec>(r.w, r.w + r.n), all_new);
      one_phase++;
      SetTxnState(i, kTxnFree);
      continue;
    }
    auto it = by_name.find(r.name);
    const bool recovered = it != by_name.end();
    if (st == kTxnPrepared) acked++;
    if (st == kTxnPrepared && !recovered) {
      Fail(
          "transaction %s: Prepare was acknowledged (and no Commit or Rollback issued), but "
          "recovery did not return it",
          r.name);
      ok = false;
      break;
    }
    if (st == kTxnCommitting && !recovered) {
      // Committed at the kill: every write shows.
      g_txn_commit_in_flight_seen++;
      committed_at_kill++;
      for (uint32_t j = 0; j < r.n; j++) {
        const TxnWriteRec& w = r.w[j];
        if (actual[w.key] != w.base) {
          Fail(
              "transaction %s (Commit in flight at the kill, not recovered as prepared, so "
              "committed): %s is %s, its %s wrote %s",
              r.name, Key(w.key).c_str(), DescribeBase(actual[w.key]).c_str(), kTxnOpNames[w.op],
              DescribeBase(w.base).c_str());
          ok = false;
          break;
        }
      }
      if (!ok) break;
      ResolvePending(std::vector<TxnWriteRec>(r.w, r.w + r.n), true);
      SetTxnState(i, kTxnFree);
      continue;
    }
    if (!recovered) {  // preparing or rolling back: gone, nothing shows
      gone++;
      for (uint32_t j = 0; j < r.n; j++) {
        const TxnWriteRec& w = r.w[j];
        if (actual[w.key] == w.base && actual[w.key] != g_expected->at(w.key).value.load()) {
          Fail("transaction %s (%s at the kill, not recovered): %s shows its %s of %s", r.name,
               kTxnStateNames[st], Key(w.key).c_str(), kTxnOpNames[w.op],
               DescribeBase(w.base).c_str());
          ok = false;
          break;
        }
      }
      SetTxnState(i, kTxnFree);
      continue;
    }
    // Recovered as prepared: exactly its writes, none of them visible.
    if (!SameWrites(it->second, r)) {
      ok = false;
      break;
    }
    if (st == kTxnCommitting) g_txn_commit_in_flight_seen++;
    if (st != kTxnPrepared) in_flight++;
    for (uint32_t j = 0; j < r.n; j++) {
      const TxnWriteRec& w = r.w[j];
      ExpectedEntry& e = g_expected->at(w.key);
      e.pending.store(0);
      if (actual[w.key] != e.value.load()) {
        Fail(
            "transaction %s recovered as prepared (%s at the kill), but %s is %s, expected "
            "%s (its %s of %s must not show)",
            r.name, kTxnStateNames[st], Key(w.key).c_str(), DescribeBase(actual[w.key]).c_str(),
            DescribeBase(e.value.load()).c_str(), kTxnOpNames[w.op], DescribeBase(w.base).c_str());
        ok = false;
        break;
      }
    }
    if (!ok) break;
    to_resolve.emplace_back(i, it->second);
    by_name.erase(it);
  }
  if (ok && !by_name.empty()) {
    Fail(
        "recovery returned prepared transaction %s, which no record allows (committed or "
        "rolled back before the kill, or never prepared)",
        by_name.begin()->first.c_str());
    ok = false;
  }
  if (!ok) return false;
  uint64_t committed = 0;
  for (const auto& [i, txn] : to_resolve) {
    TxnRecord& r = g_txn_slots[i];
    const bool commit = rng() % 2 == 0;
    std::vector<TxnWriteRec> ws(r.w, r.w + r.n);
    Status s = commit ? txn->Commit() : txn->Rollback();
    if (!s.ok()) {
      Fail("%s of recovered transaction %s failed: %s", commit ? "Commit" : "Rollback", r.name,
           s.ToString().c_str());
      return false;
    }
    if (commit) {
      ResolvePending(ws, true);
      committed++;
    }
    SetTxnState(i, kTxnFree);
    delete txn;
  }
  g_txn_recovered += to_resolve.size();
  g_txn_recovered_committed += committed;
  g_txn_recovered_rolled_back += to_resolve.size() - committed;
  prepared.clear();
  if (g_txn_db != nullptr) g_txn_db->GetAllPreparedTransactions(&prepared);
  if (!prepared.empty()) {
    Fail("%zu prepared transaction(s) remain after resolving the recovered ones", prepared.size());
    return false;
  }
  printf("db_stress: recovered %zu prepared transaction(s) (%" PRIu64
         " acknowledged and left open, %" PRIu64
         " with Prepare, Commit or Rollback in flight; exact writes checked), then committed "
         "%" PRIu64 " and rolled back %" PRIu64 "; not recovered: %" PRIu64
         " with Commit in flight (all writes visible), %" PRIu64
         " with Prepare or Rollback in flight (none visible); one-phase commits in flight "
         "found all or nothing: %" PRIu64 "\n",
         to_resolve.size(), acked, in_flight, committed, to_resolve.size() - committed,
         committed_at_kill, gone, one_phase);
  fflush(stdout);
  return true;
}

Status OpenTxnDB(const Options& o) {
  g_txn_db = nullptr;
  g_otxn_db = nullptr;
  if (FLAGS.use_optimistic_txn) {
    std::unique_ptr<OptimisticTransactionDB> db;
    Status s = OptimisticTransactionDB::Open(o, FLAGS.db, &db);
    g_otxn_db = db.get();
    g_db = std::move(db);
    return s;
  }
  if (FLAGS.use_txn) {
    TransactionDBOptions to;
    to.write_policy = TxnDBWritePolicy::WRITE_COMMITTED;
    to.transaction_lock_timeout = FLAGS.txn_lock_timeout_ms;
    to.default_lock_timeout = FLAGS.txn_lock_timeout_ms;
    std::unique_ptr<TransactionDB> db;
    Status s = TransactionDB::Open(o, to, FLAGS.db, &db);
    g_txn_db = db.get();
    g_db = std::move(db);
    return s;
  }
  return Status::InvalidArgument("OpenTxnDB without --use_txn");
}

}  // namespace stress
}  // namespace strata
