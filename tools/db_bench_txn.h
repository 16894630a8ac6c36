// db_bench_txn: the randomtransaction workload of db_bench_common.h (kept
// apart for size; included at that header's end, not to be included alone).
//
// RocksDB 7.8.3's db_bench runs randomtransaction through its test helper
// RandomTransactionInserter (test_util/transaction_test_util.cc); this is our
// rewrite of the same workload and rules over an Engine (see "Engine
// requirements" in db_bench_common.h): which draws are taken from the
// thread's generator and in what order (so the keys of later benchmarks stay
// RocksDB's), the share of Prepare, Rollback and commit-time writes, which
// failures count as aborts, and the verification by per-set sums.
// Thread-safety: a TransactionInserter belongs to one benchmark thread.
#pragma once

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "tools/db_bench_common.h"

namespace strata::bench {

// The engine's per-thread transaction, or an empty stand-in.
template <class E>
struct EngineTxn {
  struct type {};
};
template <EngineWithTransactions E>
struct EngineTxn<E> {
  using type = typename E::Txn;
};

// One randomtransaction operation, RocksDB's RandomTransactionInserter
// (test_util/transaction_test_util.cc, 7.8.3) rewritten over an Engine:
// for each of `sets` sets, in a random order, read a random key of the set
// (GetForUpdate half the time in a transaction), and write it back
// incremented by one amount drawn per operation (in a transaction: first a
// SingleDelete -- Delete in every fourth set -- then the Put). A
// pessimistic transaction then Prepares 9 times in 10 (adding a
// commit-time write of "cat" 1 time in 20 of those), and Commits 19 times
// in 20, else Rolls back. Without transactions the writes go in one batch.
// A lock timeout or conflict is an abort, counted in `failures`; anything
// else unexpected ends the run (RocksDB aborts).
template <class Engine>
class TransactionInserter {
 public:
  TransactionInserter(Engine* engine, std::mt19937_64* rand, uint64_t num_keys, uint32_t sets)
      : engine_(engine), rand_(rand), num_keys_(num_keys == 0 ? 1 : num_keys), sets_(sets) {}

  // One operation; false on an unexpected error (then LastError says it).
  bool Insert(TxnKind kind) {
    const uint64_t incr = (*rand_)() % 100 + 1;
    std::vector<uint32_t> order(sets_);
    for (uint32_t i = 0; i < sets_; ++i) order[i] = i;
    // RocksDB shuffles with a generator of its own (RandomShuffle), so the
    // thread's draws -- and the keys of later benchmarks -- stay RocksDB's.
    std::shuffle(order.begin(), order.end(), shuffle_rand_);
    const bool in_txn = kind != TxnKind::kNone;
    const bool optimistic = kind == TxnKind::kOptimistic;
    bool unexpected = false;
    TxnResult r = TxnResult::kOk;
    error_.clear();
    if (in_txn) {
      if constexpr (EngineWithTransactions<Engine>) {
        r = Begin(kind);
        if (r != TxnResult::kOk) return Unexpected("BeginTransaction/SetName: " + error_);
      }
    } else {
      engine_->BatchClear(&batch_);
    }
    for (const uint32_t set : order) {
      const std::string key = TransactionSetKey(set, (*rand_)() % num_keys_);
      const bool for_update = in_txn && (*rand_)() % 2 == 0;
      uint64_t old_value = 0;
      bool bad_value = false;
      r = Read(in_txn, key, for_update, &old_value, &bad_value);
      if (bad_value) {
        unexpected = true;
        break;
      }
      if (r != TxnResult::kOk) {
        if (optimistic || r != TxnResult::kConflict) {
          std::fprintf(stderr, "Get returned an unexpected error: %s\n", error_.c_str());
          unexpected = true;
        }
        break;
      }
      const std::string sum = std::to_string(old_value + incr);
      if (in_txn) {
        if constexpr (EngineWithTransactions<Engine>) {
          r = engine_->TxnDelete(&txn_, key, set % 4 != 0, &error_);
          if (!for_update && r == TxnResult::kConflict) break;  // not locked before
          if (r != TxnResult::kOk) {
            std::fprintf(stderr, "SingleDelete returned an unexpected error: %s\n", error_.c_str());
            unexpected = true;
          }
          r = engine_->TxnPut(&txn_, key, sum, &error_);
          if (r != TxnResult::kOk) {
            std::fprintf(stderr, "Put returned an unexpected error: %s\n", error_.c_str());
            unexpected = true;
          }
        }
      } else {
        engine_->BatchPut(&batch_, key, sum);
      }
      bytes_ += key.size() + sum.size();
    }
    if (r == TxnResult::kOk) {
      if (in_txn) {
        if constexpr (EngineWithTransactions<Engine>) {
          r = Finish(optimistic, &unexpected);
        }
      } else if (!engine_->Write(&batch_, &error_)) {
        std::fprintf(stderr, "Write returned an unexpected error: %s\n", error_.c_str());
        r = TxnResult::kError;
        unexpected = true;
      }
    } else if (in_txn) {
      if constexpr (EngineWithTransactions<Engine>) {
        std::string rollback_error;
        if (engine_->TxnRollback(&txn_, &rollback_error) != TxnResult::kOk) {
          error_ = "Rollback after an abort: " + rollback_error;
          unexpected = true;
        }
      }
    }
    if (r == TxnResult::kOk) {
      ++successes_;
    } else {
      ++failures_;
    }
    return !unexpected;
  }

  uint64_t failures() const { return failures_; }
  uint64_t bytes() const { return bytes_; }
  const std::string& LastError() const { return error_; }

 private:
  bool Unexpected(std::string what) {
    error_ = std::move(what);
    ++failures_;
    return false;
  }

  // BeginTransaction; a pessimistic one is named "txn<thread hash>-<n>" and
  // reads at a fresh snapshot unless --transaction_set_snapshot gave it one
  // (then half the time).
  TxnResult Begin(TxnKind kind) {
    if constexpr (EngineWithTransactions<Engine>) {
      std::string name;
      if (kind == TxnKind::kPessimistic) {
        name = "txn" + std::to_string(std::hash<std::thread::id>()(std::this_thread::get_id())) +
               "-" + std::to_string(txn_id_++);
      }
      const TxnResult r = engine_->TxnBegin(&txn_, name, &error_);
      if (r != TxnResult::kOk) return r;
      if (kind == TxnKind::kPessimistic &&
          (!engine_->TxnHasSnapshot(&txn_) || (*rand_)() % 2 == 0)) {
        engine_->TxnSetSnapshot(&txn_);
      }
      return r;
    } else {
      (void)kind;
      return TxnResult::kError;
    }
  }

  // Reads key as a decimal number (absent: 0). A value that is not a
  // positive number is kError with *bad_value set (RocksDB's Corruption).
  TxnResult Read(bool in_txn, const std::string& key, bool for_update, uint64_t* out,
                 bool* bad_value) {
    std::string value;
    TxnResult r;
    if (in_txn) {
      if constexpr (EngineWithTransactions<Engine>) {
        r = engine_->TxnGet(&txn_, key, for_update, &value, &error_);
      } else {
        r = TxnResult::kError;
      }
    } else {
      switch (engine_->Get(key, &value, &error_)) {
        case GetResult::kFound:
          r = TxnResult::kOk;
          break;
        case GetResult::kNotFound:
          r = TxnResult::kNotFound;
          break;
        default:
          r = TxnResult::kError;
          break;
      }
    }
    if (r == TxnResult::kNotFound) {
      *out = 0;
      return TxnResult::kOk;
    }
    if (r != TxnResult::kOk) return r;
    char* end = nullptr;
    errno = 0;
    const unsigned long long v = std::strtoull(value.c_str(), &end, 10);
    if (value.empty() || *end != '\0' || errno != 0 || v == 0) {
      std::fprintf(stderr, "Get returned unexpected value: %s\n", value.c_str());
      error_ = "Corruption: " + key + " holds " + value + ", not a positive number";
      *bad_value = true;
      return TxnResult::kError;
    }
    *out = v;
    return TxnResult::kOk;
  }

  // Prepare (pessimistic, 9 in 10), then Commit (19 in 20) or Rollback.
  TxnResult Finish(bool optimistic, bool* unexpected) {
    if constexpr (EngineWithTransactions<Engine>) {
      const bool with_prepare = !optimistic && (*rand_)() % 10 != 0;
      if (with_prepare) {
        TxnResult r = engine_->TxnPrepare(&txn_, &error_);
        if (r != TxnResult::kOk) {
          std::fprintf(stderr, "Prepare returned an unexpected error: %s\n", error_.c_str());
          *unexpected = true;
          return r;
        }
        if ((*rand_)() % 20 == 0) {
          r = engine_->TxnCommitTimePut(&txn_, "cat", "dog", &error_);
          if (r != TxnResult::kOk) {
            *unexpected = true;
            return r;
          }
        }
      }
      TxnResult r;
      if ((*rand_)() % 20 != 0) {
        r = engine_->TxnCommit(&txn_, &error_);
        if (with_prepare && r != TxnResult::kOk) *unexpected = true;
      } else {
        r = engine_->TxnRollback(&txn_, &error_);
        if (r != TxnResult::kOk) *unexpected = true;
      }
      if (r != TxnResult::kOk) {
        // Optimistic: a conflict at commit is an abort; pessimistic: only
        // an expired transaction is.
        if (optimistic ? r != TxnResult::kConflict : r != TxnResult::kExpired) {
          *unexpected = true;
        }
        if (*unexpected) {
          std::fprintf(stderr, "Commit returned an unexpected error: %s\n", error_.c_str());
        }
      }
      return r;
    } else {
      (void)optimistic;
      (void)unexpected;
      return TxnResult::kError;
    }
  }

  Engine* engine_;
  std::mt19937_64* rand_;
  std::minstd_rand shuffle_rand_{20261202};
  const uint64_t num_keys_;
  const uint32_t sets_;
  typename EngineTxn<Engine>::type txn_;  // unused without transactions
  typename Engine::Batch batch_;
  uint64_t txn_id_ = 0;
  uint64_t successes_ = 0;
  uint64_t failures_ = 0;
  uint64_t bytes_ = 0;
  std::string error_;
};

template <class Engine>
void Benchmark<Engine>::RandomTransaction(ThreadState* thread) {
  // --duration seconds, or max(--reads, --writes) operations (RocksDB's
  // readwrites), one set of increments each.
  Duration duration(flags_.duration, readwrites_, flags_.ops_between_duration_checks);
  const TxnKind kind = TransactionKind();
  TransactionInserter<Engine> inserter(engine_, &thread->rand, static_cast<uint64_t>(num_),
                                       static_cast<uint32_t>(flags_.transaction_sets));
  uint64_t done = 0;
  while (!duration.Done(1)) {
    if (!inserter.Insert(kind)) Fail("Unexpected error: %s", inserter.LastError().c_str());
    thread->stats.FinishedOps(1, OpType::kOthers);
    ++done;
  }
  char msg[100];
  if (kind != TxnKind::kNone) {
    std::snprintf(msg, sizeof(msg), "( transactions:%" PRIu64 " aborts:%" PRIu64 ")", done,
                  inserter.failures());
  } else {
    std::snprintf(msg, sizeof(msg), "( batches:%" PRIu64 " )", done);
  }
  thread->stats.AddMessage(msg);
  thread->stats.AddBytes(static_cast<int64_t>(inserter.bytes()));
  user_bytes_written_.fetch_add(inserter.bytes(), std::memory_order_relaxed);
}

// Every operation added the same amount to one key of each set, so with
// transactions every set's values sum to the same total (RocksDB's
// RandomTransactionInserter::Verify, by iterator). Without transactions
// there is nothing to check, as in RocksDB.
template <class Engine>
void Benchmark<Engine>::RandomTransactionVerify() {
  if (TransactionKind() == TxnKind::kNone) return;
  const uint32_t sets = static_cast<uint32_t>(flags_.transaction_sets);
  std::vector<uint32_t> order(sets);
  for (uint32_t i = 0; i < sets; ++i) order[i] = i;
  std::mt19937_64 rand(seed_base_);
  std::shuffle(order.begin(), order.end(), rand);
  bool ok = true;
  bool have_prev = false;
  uint64_t prev_total = 0;
  uint32_t prev_set = 0;
  std::unique_ptr<typename Engine::Iterator> it = engine_->NewIterator();
  for (const uint32_t set : order) {
    char prefix[16];
    std::snprintf(prefix, sizeof(prefix), "%.4u", set + 1);
    const std::string_view p(prefix, 4);
    uint64_t total = 0;
    for (Engine::Seek(it.get(), p); it->Valid(); it->Next()) {
      const std::string_view key = Engine::Key(it.get());
      if (key.substr(0, 4) != p) break;
      const std::string value(Engine::Value(it.get()));
      char* end = nullptr;
      errno = 0;
      const unsigned long long v = std::strtoull(value.c_str(), &end, 10);
      if (value.empty() || *end != '\0' || errno != 0 || v == 0) {
        std::fprintf(stderr, "Iter returned unexpected value: %s\n", value.c_str());
        ok = false;
        break;
      }
      total += v;
    }
    std::string error;
    if (!Engine::IterOk(it.get(), &error)) {
      std::fprintf(stderr, "iterator error: %s\n", error.c_str());
      ok = false;
    }
    if (!ok) break;
    if (have_prev && total != prev_total) {
      std::printf(
          "RandomTransactionVerify found inconsistent totals using pointlookup? 0 "
          "Set[%" PRIu32 "]: %" PRIu64 ", Set[%" PRIu32 "]: %" PRIu64 " at snapshot 0\n",
          prev_set, prev_total, set, total);
      ok = false;
      break;
    }
    prev_total = total;
    prev_set = set;
    have_prev = true;
  }
  std::fputs(ok ? "RandomTransactionVerify Success.\n" : "RandomTransactionVerify FAILED!!\n",
             stdout);
  std::fflush(stdout);
}

}  // namespace strata::bench
