#!/usr/bin/env bash
# RocksDB's tools on the DB a killed `db_stress --use_txn` leaves, with
# prepared transactions in its WAL (docs/design/stress-transactions.md):
#   1. `ldb dump_wal` and `strata dump_wal` print the same bytes for every
#      WAL (the two-phase commit markers included), and the WALs hold
#      prepared sections; `ldb scan` and `strata scan` (both take allow_2pc
#      from the OPTIONS file) print the same committed data, on copies;
#   2. RocksDB's ldb opens the DB read-write and compacts it (its recovery
#      of our prepared sections, a flush, a new MANIFEST); then db_stress
#      --verify_only, as a TransactionDB, must still recover exactly the
#      prepared transactions its records allow, with their exact writes,
#      and after it resolved them ldb and strata scan the same again.
# Three kill rounds on the same DB. --merge_pct=0: RocksDB's ldb lacks the
# "put" merge operator db_stress uses.
#
# Usage: scripts/test-txn-interop.sh BUILD_DIR
# Exit status: 0 pass, 1 failure, 77 skipped (no /usr/bin/ldb).
set -euo pipefail
# Any command that fails unexpectedly still says where, instead of ending the
# script silently.
trap 'echo "test-txn-interop: line $LINENO: command failed (exit $?)" >&2' ERR

build=$1
ldb=${LDB:-/usr/bin/ldb}
if [ ! -x "$ldb" ]; then
  echo "test-txn-interop: $ldb not found: skipped"
  exit 77
fi
for b in db_stress strata; do
  if [ ! -x "$build/$b" ]; then
    echo "test-txn-interop: $build/$b not built" >&2
    exit 1
  fi
done
work=$(mktemp -d "${TMPDIR:-/tmp}/strata_txn_interop.XXXXXX")
trap 'rm -rf "$work"' EXIT

recovered_total=0
for round in 1 2 3; do
  destroy=0
  if [ "$round" = 1 ]; then destroy=1; fi
  "$build/db_stress" --db="$work/db" --expected_dir="$work/exp" --destroy_db_initially=$destroy \
    --duration=100 --max_key=2048 --use_txn=1 --sync=1 --txn_hold_pct=100 --txn_2pc_pct=100 \
    --threads=4 --write_buffer_size=32768 --merge_pct=0 >"$work/run.log" 2>&1 &
  pid=$!
  sleep 1.5
  kill -9 "$pid"
  wait "$pid" 2>/dev/null || true
  if grep -q "VERIFICATION FAILURE" "$work/run.log"; then
    echo "test-txn-interop: round $round: db_stress failed before the kill:"
    cat "$work/run.log"
    exit 1
  fi

  prepares=0
  for wal in "$work"/db/*.log; do
    "$ldb" dump_wal --walfile="$wal" --header --print_value >"$work/ldb_wal.txt" 2>&1
    "$build/strata" dump_wal --walfile="$wal" --header --print_value >"$work/strata_wal.txt" 2>&1
    if ! cmp -s "$work/ldb_wal.txt" "$work/strata_wal.txt"; then
      echo "test-txn-interop: round $round: dump_wal of $(basename "$wal") differs:"
      diff "$work/ldb_wal.txt" "$work/strata_wal.txt" | head -20
      exit 1
    fi
    # A WAL opened just before the kill may hold no prepared section: grep
    # then finds nothing, which is not a failure (set -e and pipefail would
    # otherwise end the script here without a word).
    n=$({ grep -o "END_PREPARE" "$work/ldb_wal.txt" || true; } | wc -l)
    prepares=$((prepares + n))
  done
  if [ "$prepares" -eq 0 ]; then
    echo "test-txn-interop: round $round: no prepared section in any WAL"
    exit 1
  fi

  same_scan() {
    rm -rf "$work/copy_ldb" "$work/copy_strata"
    cp -r "$work/db" "$work/copy_ldb"
    cp -r "$work/db" "$work/copy_strata"
    "$ldb" --db="$work/copy_ldb" scan >"$work/ldb_scan.txt" 2>&1
    "$build/strata" --db="$work/copy_strata" scan >"$work/strata_scan.txt" 2>&1
    if ! cmp -s "$work/ldb_scan.txt" "$work/strata_scan.txt"; then
      echo "test-txn-interop: round $round: scan $1 differs (ldb < > strata):"
      diff "$work/ldb_scan.txt" "$work/strata_scan.txt" | head -20
      exit 1
    fi
  }
  same_scan "with prepared transactions unresolved"
  if ! "$ldb" --db="$work/db" compact >"$work/compact.txt" 2>&1; then
    echo "test-txn-interop: round $round: ldb compact failed:"
    cat "$work/compact.txt"
    exit 1
  fi
  if ! "$build/db_stress" --db="$work/db" --expected_dir="$work/exp" --max_key=2048 --use_txn=1 \
      --verify_only=1 --merge_pct=0 >"$work/verify.txt" 2>&1; then
    echo "test-txn-interop: round $round: verification after ldb compact failed:"
    cat "$work/verify.txt"
    exit 1
  fi
  same_scan "after the verification resolved them"
  if ! line=$(grep "^db_stress: recovered" "$work/verify.txt"); then
    echo "test-txn-interop: round $round: the verification printed no recovery line:"
    cat "$work/verify.txt"
    exit 1
  fi
  n=$(echo "$line" | sed -E 's/^db_stress: recovered ([0-9]+) .*/\1/')
  recovered_total=$((recovered_total + n))
  echo "round $round: $prepares prepared sections in the WALs, dump_wal and scan identical;" \
    "after ldb compact: $line; scan identical again"
done
if [ "$recovered_total" -eq 0 ]; then
  echo "test-txn-interop: no prepared transaction was recovered in 3 rounds"
  exit 1
fi
echo "test-txn-interop: PASS ($recovered_total prepared transactions recovered after RocksDB's compaction)"
