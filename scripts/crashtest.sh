#!/usr/bin/env bash
# Crash test (make crashtest): db_crashtest kills db_stress with SIGKILL over
# and over and verifies the DB after each kill, first with synced writes
# (half the time), then unsynced with db_stress's simulated power losses
# (the other half), each round under a drawn compaction style; with
# transactions (the default), the time is split four ways: also txn
# (TransactionDB, kills with prepared transactions in every state, the
# recovered set checked) and otxn (OptimisticTransactionDB). Prints each
# mode's totals and the overall totals.
#
# Usage: scripts/crashtest.sh BUILD_DIR SECONDS
# Environment:
#   CRASHTEST_SEED=N     driver seed (default: random, printed)
#   CRASHTEST_STYLES=... compaction styles drawn (db_crashtest --styles):
#                        auto (default: every style this build opens; the
#                        first lines name the ones it refuses), all, or a
#                        list such as level,universal,fifo,none
#   CRASHTEST_TXN=0      leave out the transaction modes (txn, otxn)
#   CRASHTEST_ARGS=...   more db_crashtest flags (e.g. --max_threads=2, or
#                        --stress_arg=--inject_bug_for_test=1 to see a
#                        failure caught)
# Exit status: 0 if no failure; otherwise 1, with the failing DB, expected
# state and logs kept under a printed directory.
set -euo pipefail

if [ $# -ne 2 ]; then
  echo "usage: $0 BUILD_DIR SECONDS" >&2
  exit 2
fi
build=$1
seconds=$2
cmake --build "$build" --target db_stress db_crashtest >/dev/null
for b in db_stress db_crashtest; do
  if [ ! -x "$build/$b" ]; then
    echo "crashtest.sh: $build/$b not found (configure with STRATA_BUILD_TOOLS=ON)" >&2
    exit 2
  fi
done
work=$(mktemp -d "${TMPDIR:-/tmp}/strata_crashtest.XXXXXX")
seed_arg=()
if [ -n "${CRASHTEST_SEED:-}" ]; then
  seed_arg=(--seed="$CRASHTEST_SEED")
fi
# shellcheck disable=SC2086
if "$build/db_crashtest" --mode=both --duration="$seconds" --dir="$work" \
    --styles="${CRASHTEST_STYLES:-auto}" --use_txn="${CRASHTEST_TXN:-1}" "${seed_arg[@]}" \
    ${CRASHTEST_ARGS:-}; then
  rm -rf "$work"
  echo "crashtest: PASS"
else
  echo "crashtest: FAIL (kept $work)"
  exit 1
fi
