// db_stress's transaction modes (--use_txn: a TransactionDB, WRITE_COMMITTED;
// --use_optimistic_txn: an OptimisticTransactionDB): write ops through
// transactions, the two-phase ones recorded in --expected_dir/TXNS, and the
// check, after every open, of the prepared transactions recovery returns.
// docs/design/stress-transactions.md; tools/db_stress.cc's opening comment.
//
// Thread-safety: TxnOp, ResolveHeld and DropHeld are called by the worker
// threads (each with its own ThreadState); the others while no worker runs.
#pragma once

#include <cstdint>
#include <mutex>

#include "strata/options.h"
#include "strata/status.h"
#include "tools/db_stress_common.h"

namespace strata {
namespace stress {

// Opens FLAGS.db as the transaction DB the flags ask for into g_db.
Status OpenTxnDB(const Options& options);

// Maps --expected_dir/TXNS (zeroed when reset or of another layout) and
// sizes the held transactions for FLAGS.threads threads.
void SetUpTxnRecords(bool reset);

// One write op of `kind` (kPut .. kBatch) on key k / the stripe, the
// stripe's mutex held by `lock` (released and retaken between retries).
// Returns false when the thread must stop.
bool TxnOp(ThreadState* ts, std::unique_lock<std::mutex>& lock, int kind, uint64_t k,
           uint64_t stripe);

// Counts down the thread's held prepared transaction and resolves it when
// its time is up. Returns false on a failure (reported).
bool TickHeld(ThreadState* ts);
// Resolves the thread's held transaction now (before a reopen or the end).
bool ResolveHeld(ThreadState* ts);
// After a failure: drops the held transaction object (it stays prepared in
// the DB, as after a crash).
void DropHeld(ThreadState* ts);

// After an open: checks the prepared transactions recovery returned against
// the records, then commits or rolls them back at random (seeded). Returns
// false on a failure (reported). Does nothing without a TransactionDB.
bool RecoverPreparedTxns(uint64_t seed);

// The "db_stress txn summary:" line.
void PrintTxnSummary();

}  // namespace stress
}  // namespace strata
