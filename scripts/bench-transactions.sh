#!/bin/bash
# The transactions benchmark of README.md: Strata's db_bench, RocksDB
# 7.8.3's /usr/bin/db_bench and LevelDB's db_bench_leveldb, alternating, 3
# runs each: fillrandom,randomtransaction --transaction_db (1 thread),
# fillrandom plain and through --transaction_db, then Strata alone at 2
# threads (pessimistic, and optimistic with --transaction_set_snapshot).
# Usage: scripts/bench-transactions.sh [BUILD_DIR (default build-release)] [DB_DIR]
set -u
BUILD=${1:-build-release}
S=$BUILD/db_bench
L=$BUILD/db_bench_leveldb
R=/usr/bin/db_bench
D=${2:-/dev/shm/strata-txnbench}
COMMON="--num=200000 --seed=1 --progress_reports=false"
show() { grep -E "^fillrandom|^randomtransaction|Verify"; }
for i in 1 2 3; do
  for X in S R; do
    B=${!X}; rm -rf "$D"
    echo "== $X run $i: fillrandom,randomtransaction --transaction_db"
    $B --benchmarks=fillrandom,randomtransaction --transaction_db $COMMON --db="$D" 2>&1 | show
  done
  for X in S R L; do
    B=${!X}; rm -rf "$D"
    echo "== $X run $i: fillrandom plain"
    $B --benchmarks=fillrandom $COMMON --db="$D" 2>&1 | show
    if [ $X != L ]; then
      rm -rf "$D"
      echo "== $X run $i: fillrandom --transaction_db"
      $B --benchmarks=fillrandom --transaction_db $COMMON --db="$D" 2>&1 | show
    fi
  done
done
for i in 1 2 3; do
  rm -rf "$D"
  echo "== S run $i: 2 threads fillrandom,randomtransaction --transaction_db"
  $S --benchmarks=fillrandom,randomtransaction --transaction_db $COMMON --threads=2 --db="$D" 2>&1 | show
  rm -rf "$D"
  echo "== S run $i: 2 threads optimistic"
  $S --benchmarks=fillrandom,randomtransaction --optimistic_transaction_db --transaction_set_snapshot \
    $COMMON --threads=2 --db="$D" 2>&1 | show
done
rm -rf "$D"
