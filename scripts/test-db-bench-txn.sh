#!/usr/bin/env bash
# Smoke test of db_bench's transaction benchmarks (tools/db_bench.cc,
# docs/design/bench-transactions.md), bounded to a few seconds:
#  1. randomtransaction on a plain DB: RocksDB's "( batches:N )" line and no
#     verification, as RocksDB's db_bench;
#  2. with --transaction_db and --optimistic_transaction_db, 1 and 2
#     threads: "( transactions:N aborts:M)" and "RandomTransactionVerify
#     Success.", then the same DB reopened (--use_existing_db) verifies
#     again after more transactions (recovery keeps the sums equal). The
#     2-thread runs use --transaction_set_snapshot: without a snapshot
#     RocksDB's workload can lose updates on an optimistic DB (a plain Get's
#     key is tracked only from its Put on; docs/design/bench-transactions.md);
#  3. a build without the transactions layer refuses both flags by name
#     (exit 1) instead -- then step 2 is reported as not built;
#  4. with the layer and RocksDB's /usr/bin/ldb: the WAL Strata's
#     TransactionDB wrote (prepare/commit/rollback markers) dumps the same
#     in `ldb dump_wal` and `strata dump_wal`, and `scan` of the directory
#     is the same in both tools.
# usage: test-db-bench-txn.sh <build-dir>
set -uo pipefail
bench=$(cd "$1" && pwd)/db_bench
strata=$(cd "$1" && pwd)/strata
ldb=${LDB:-/usr/bin/ldb}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

fail() {
  echo "FAIL: $*"
  sed -n '1,20p' "$work/out" "$work/err" | grep -v '^\(Date\|CPU\|Keys\|Values\|Entries\|RawSize\|FileSize\|Write rate\|Read rate\|Compression\|Memtablerep\|Perf Level\|Strata\)' | head -20
  failures=$((failures + 1))
}

# run ARGS...: db_bench on $work/db; stdout in $work/out, stderr in $work/err.
run() {
  "$bench" --db="$work/db" --progress_reports=false "$@" >"$work/out" 2>"$work/err"
}

# 1. Plain DB.
if run --benchmarks=fillrandom,randomtransaction --num=5000 --transaction_sets=3 &&
  grep -q '^randomtransaction : .* 5000 operations;.*( batches:5000 )$' "$work/out" &&
  ! grep -q RandomTransactionVerify "$work/out"; then
  echo "ok: randomtransaction on a plain DB"
else
  fail "randomtransaction on a plain DB"
fi

# 3. (first) Is the transactions layer built?
run --benchmarks=fillseq --num=10 --transaction_db
rc=$?
if grep -q 'transaction_db is not supported: this build of Strata has no transactions' "$work/err"; then
  if [ $rc -eq 1 ] &&
    ! run --benchmarks=fillseq --num=10 --optimistic_transaction_db &&
    grep -q 'optimistic_transaction_db is not supported' "$work/err"; then
    echo "ok: --transaction_db and --optimistic_transaction_db refused by name (not built)"
  else
    fail "the refusal of the transaction flags"
  fi
else
  # 2. Transaction DBs.
  for kind in --transaction_db --optimistic_transaction_db; do
    for threads in 1 2; do
      what="$kind --threads=$threads"
      rm -rf "$work/db"
      if run --benchmarks=fillrandom,randomtransaction --num=4000 --threads=$threads \
        --transaction_sets=4 --transaction_set_snapshot=$((threads - 1)) $kind &&
        grep -q "^randomtransaction : .* $((4000 * threads)) operations;.*( transactions:4000 aborts:[0-9]*)\$" \
          "$work/out" && grep -q '^RandomTransactionVerify Success\.$' "$work/out"; then
        echo "ok: $what"
      else
        fail "$what"
        continue
      fi
      # Reopened: what the first run committed (and recovered) still sums up.
      if [ $threads = 1 ] && [ $kind = --transaction_db ] && [ -x "$ldb" ] && [ -x "$strata" ]; then
        # 4. Strata's WAL and directory read by RocksDB's ldb.
        wal=$(ls "$work/db"/*.log | tail -1)
        same=1
        for flags in "" "--print_value" "--header --print_value"; do
          "$ldb" dump_wal --walfile="$wal" $flags >"$work/ldb.wal" 2>&1
          "$strata" dump_wal --walfile="$wal" $flags >"$work/strata.wal" 2>&1
          cmp -s "$work/ldb.wal" "$work/strata.wal" || same=0
        done
        rm -rf "$work/copy1" "$work/copy2"
        cp -a "$work/db" "$work/copy1" && cp -a "$work/db" "$work/copy2"
        "$ldb" --db="$work/copy1" scan --hex >"$work/ldb.scan" 2>&1
        "$strata" --db="$work/copy2" scan --hex >"$work/strata.scan" 2>&1
        if [ $same = 1 ] && grep -q 'END_PREPARE(0x' "$work/ldb.wal" &&
          grep -q 'COMMIT(0x' "$work/ldb.wal" && cmp -s "$work/ldb.scan" "$work/strata.scan" &&
          [ "$(wc -l <"$work/ldb.scan")" -gt 1000 ]; then
          echo "ok: ldb and strata agree on Strata's TransactionDB WAL and directory"
        else
          diff "$work/ldb.wal" "$work/strata.wal" | head -5
          fail "ldb and strata on Strata's TransactionDB WAL (same dump: $same)"
        fi
      fi
      if run --use_existing_db --benchmarks=randomtransaction --num=4000 --reads=1000 --writes=1000 \
        --transaction_sets=4 --threads=$threads --transaction_set_snapshot=$((threads - 1)) $kind &&
        grep -q '^RandomTransactionVerify Success\.$' "$work/out"; then
        echo "ok: $what, reopened"
      else
        fail "$what, reopened"
      fi
    done
  done
fi

if [ $failures -ne 0 ]; then
  echo "$failures case(s) failed" >&2
  exit 1
fi
echo PASS
