// Cost of the point-lock manager of TransactionDB (utilities/transactions/
// lock/point_lock_manager.h) per key, with 16 stripes (the default) and
// db_bench-like 16-byte keys drawn at random from 1M:
//   BM_LockUnlock          TryLock (exclusive, 1 s timeout) + UnLock of one
//                          random key: what a one-Put transaction pays
//   BM_LockUnlock_Shared   the same in shared mode
//   BM_Lock8UnlockBatch    8 random keys locked one by one, then released by
//                          one UnLock(vector) (each stripe taken once);
//                          one iteration is one key; timeout 0 (two
//                          threads taking 8 keys each could deadlock)
// from 1 and 2 threads (each thread its own transaction id; "conflicts"
// counts the TryLocks that failed on a key the other thread held).
// The argument is the layout: 0 one manager for all threads, 1 a private
// manager per thread (the machine's no-sharing baseline, see GetShared).
// Time per iteration is ns per lock/unlock pair (UseRealTime: the 2-thread
// figure is wall time per pair of all threads together); cpu_ns_per_pair is
// each thread's CPU time per pair. Run from a Release build:
//   build/lock_manager_bench --benchmark_min_time=1
#include <benchmark/benchmark.h>
#include <time.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "strata/env.h"
#include "strata/utilities/transaction_db.h"
#include "utilities/transactions/lock/point_lock_manager.h"

namespace strata {
namespace {

constexpr size_t kNumKeys = 1 << 20;
constexpr size_t kKeySize = 16;

class FastRandom {
 public:
  explicit FastRandom(uint64_t seed) : s_(seed | 1) {}
  uint64_t Next() {
    s_ ^= s_ >> 12;
    s_ ^= s_ << 25;
    s_ ^= s_ >> 27;
    return s_ * 0x2545F4914F6CDD1DULL;
  }

 private:
  uint64_t s_;
};

struct Shared {
  std::unique_ptr<PointLockManager> lm;
};

// db_bench's key layout: an 8-byte big-endian number, then '0' padding.
// Built in the caller's buffer (as a transaction's key sits in the
// caller's cache), not read from a big table whose misses would dominate.
class KeyGen {
 public:
  KeyGen() {
    for (size_t b = 8; b < kKeySize; ++b) buf_[b] = '0';
  }
  Slice Make(uint64_t n) {
    for (int b = 0; b < 8; ++b) buf_[b] = static_cast<char>(n >> (8 * (7 - b)));
    return Slice(buf_, kKeySize);
  }

 private:
  char buf_[kKeySize];
};

// Layouts (the benchmark's argument): 0, one manager shared by all threads
// (the real case); 1, a private manager per thread, which shares nothing:
// its 2-thread figure is what this machine gives for the same work.
std::mutex shared_mu;
std::unique_ptr<Shared> shared_managers[3];  // [0] shared, [1..2] private

Shared* GetShared(int layout, int thread_index) {
  std::lock_guard<std::mutex> lock(shared_mu);
  std::unique_ptr<Shared>* slot =
      layout == 0 ? &shared_managers[0] : &shared_managers[1 + thread_index % 2];
  if (*slot == nullptr) {
    *slot = std::make_unique<Shared>();
    TransactionDBOptions opts;
    opts.num_stripes = 16;
    (*slot)->lm = std::make_unique<PointLockManager>(opts, SystemClock::Default().get(),
                                                     [](TransactionID) { return true; });
    (*slot)->lm->AddColumnFamily(0);
  }
  return slot->get();
}

double ThreadCpuNanos() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e9 + static_cast<double>(ts.tv_nsec);
}

void Report(benchmark::State& state, double cpu_ns, uint64_t conflicts) {
  state.counters["cpu_ns_per_pair"] = benchmark::Counter(
      cpu_ns / static_cast<double>(state.iterations()), benchmark::Counter::kAvgThreads);
  state.counters["conflicts"] =
      benchmark::Counter(static_cast<double>(conflicts), benchmark::Counter::kDefaults);
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}

void RunLockUnlock(benchmark::State& state, bool exclusive) {
  Shared* sh = GetShared(static_cast<int>(state.range(0)), state.thread_index());
  PointLockManager* lm = sh->lm.get();
  KeyGen gen;
  FastRandom rnd(11 + 7919 * static_cast<uint64_t>(state.thread_index()));
  LockRequest req;
  req.txn_id = 1 + static_cast<TransactionID>(state.thread_index());
  req.cf_id = 0;
  req.exclusive = exclusive;
  // TransactionDB's default lock timeout (1 s): a conflict waits for the
  // other thread's unlock, as a transaction would.
  req.timeout_us = 1000 * 1000;
  uint64_t conflicts = 0;
  const double cpu_start = ThreadCpuNanos();
  for (auto _ : state) {
    const Slice key = gen.Make(rnd.Next() % kNumKeys);
    Status s = lm->TryLock(req, key);
    if (s.ok()) {
      lm->UnLock(req.txn_id, 0, key);
    } else {
      ++conflicts;
    }
  }
  Report(state, ThreadCpuNanos() - cpu_start, conflicts);
}

void BM_LockUnlock(benchmark::State& state) { RunLockUnlock(state, true); }
void BM_LockUnlock_Shared(benchmark::State& state) { RunLockUnlock(state, false); }

void BM_Lock8UnlockBatch(benchmark::State& state) {
  Shared* sh = GetShared(static_cast<int>(state.range(0)), state.thread_index());
  PointLockManager* lm = sh->lm.get();
  KeyGen gen;
  FastRandom rnd(13 + 7919 * static_cast<uint64_t>(state.thread_index()));
  LockRequest req;
  req.txn_id = 100 + static_cast<TransactionID>(state.thread_index());
  req.cf_id = 0;
  req.timeout_us = 0;
  std::vector<std::string> held;  // what a transaction's lock tracker keeps
  held.reserve(8);
  uint64_t conflicts = 0;
  const double cpu_start = ThreadCpuNanos();
  for (auto _ : state) {
    const Slice key = gen.Make(rnd.Next() % kNumKeys);
    Status s = lm->TryLock(req, key);
    if (s.ok()) {
      held.emplace_back(key.data(), key.size());
    } else {
      ++conflicts;
    }
    if (held.size() == 8) {
      lm->UnLock(req.txn_id, 0, held);
      held.clear();
    }
  }
  lm->UnLock(req.txn_id, 0, held);
  Report(state, ThreadCpuNanos() - cpu_start, conflicts);
}

BENCHMARK(BM_LockUnlock)->Arg(0)->Threads(1)->Threads(2)->UseRealTime();
BENCHMARK(BM_LockUnlock)->Arg(1)->Threads(2)->UseRealTime();
BENCHMARK(BM_LockUnlock_Shared)->Arg(0)->Threads(1)->Threads(2)->UseRealTime();
BENCHMARK(BM_Lock8UnlockBatch)->Arg(0)->Threads(1)->Threads(2)->UseRealTime();
BENCHMARK(BM_Lock8UnlockBatch)->Arg(1)->Threads(2)->UseRealTime();

}  // namespace
}  // namespace strata

BENCHMARK_MAIN();
