#!/usr/bin/env bash
# Side-by-side db_bench (make bench-compare): the same workloads, flags and
# --seed on Strata (BUILD_DIR/db_bench), LevelDB (BUILD_DIR/db_bench_leveldb)
# and RocksDB (/usr/bin/db_bench, Debian's rocksdb-tools). For every workload
# the three engines run alternately, ROUNDS times, each run on a fresh
# temporary directory; the table shows each engine's median ops/sec.
#
# Usage: scripts/bench_compare.sh BUILD_DIR
# Environment:
#   ROUNDS=3          runs per engine and workload (median reported)
#   NUM=1000000       keys for the fill/read workloads
#   SYNC_NUM=2000     synced writes per thread for the group-commit rows
#   SEED=1            --seed for every run
#   OUT=path          also write the markdown table to this file
#   STRATA_BENCH=BUILD_DIR/db_bench, LEVELDB_BENCH=BUILD_DIR/db_bench_leveldb,
#   ROCKSDB_BENCH=/usr/bin/db_bench   the binaries compared
#
# Workloads:
#   (a) WAL on, --write_buffer_size=2000000000: fillseq, fillrandom
#   (b) memtable only (--disable_wal=1; LevelDB cannot, "n/a"): fillrandom,
#       fillseq, and readrandom after fillrandom
#   (c) group commit: fillrandom --sync=1 with --threads=1 and --threads=8
#       (--num is per thread, as in RocksDB)
set -euo pipefail

if [ $# -ne 1 ]; then
  echo "usage: $0 BUILD_DIR" >&2
  exit 2
fi
build=$1
rounds=${ROUNDS:-3}
num=${NUM:-1000000}
sync_num=${SYNC_NUM:-2000}
seed=${SEED:-1}
out=${OUT:-}
rocksdb_bench=${ROCKSDB_BENCH:-/usr/bin/db_bench}
strata_bench=${STRATA_BENCH:-}
leveldb_bench=${LEVELDB_BENCH:-}
if [ -z "$strata_bench" ]; then
  cmake --build "$build" --target db_bench >/dev/null
  strata_bench=$build/db_bench
fi
if [ -z "$leveldb_bench" ]; then
  # Built only when LevelDB is installed.
  cmake --build "$build" --target db_bench_leveldb >/dev/null 2>&1 || true
  leveldb_bench=$build/db_bench_leveldb
fi

engines=(strata leveldb rocksdb)
declare -A binary=(
  [strata]=$strata_bench
  [leveldb]=$leveldb_bench
  [rocksdb]=$rocksdb_bench
)
for e in "${engines[@]}"; do
  if [ ! -x "${binary[$e]}" ]; then
    echo "bench_compare.sh: ${binary[$e]} not found; $e column is n/a" >&2
    binary[$e]=""
  fi
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/strata-compare.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

base=(--value_size=100 --key_size=16 --compression_type=none --seed="$seed")
wal=(--write_buffer_size=2000000000)
mem=(--disable_wal=1 --write_buffer_size=2000000000)

# Workload table: label | report line to read | engines | flags.
labels=()
lines=()
skips=()
flagsets=()
add() {
  labels+=("$1")
  lines+=("$2")
  skips+=("$3")
  flagsets+=("$4")
}
add "fillseq (WAL)" fillseq "" \
  "${base[*]} ${wal[*]} --num=$num --benchmarks=fillseq"
add "fillrandom (WAL)" fillrandom "" \
  "${base[*]} ${wal[*]} --num=$num --benchmarks=fillrandom"
add "fillrandom (no WAL)" fillrandom leveldb \
  "${base[*]} ${mem[*]} --num=$num --benchmarks=fillrandom"
add "fillseq (no WAL)" fillseq leveldb \
  "${base[*]} ${mem[*]} --num=$num --benchmarks=fillseq"
add "readrandom (memtable)" readrandom leveldb \
  "${base[*]} ${mem[*]} --num=$num --benchmarks=fillrandom,readrandom"
add "fillrandom sync, 1 thread" fillrandom "" \
  "${base[*]} --sync=1 --threads=1 --num=$sync_num --benchmarks=fillrandom"
add "fillrandom sync, 8 threads" fillrandom "" \
  "${base[*]} --sync=1 --threads=8 --num=$sync_num --benchmarks=fillrandom"

# ops_of LINE FILE: the ops/sec of the first report line LINE in FILE.
ops_of() {
  awk -v name="$1" '$1 == name && $2 == ":" {
    for (i = 3; i <= NF; i++) if ($i == "ops/sec") { print $(i - 1); exit }
  }' "$2"
}

# median VALUES...: the median (mean of the middle two for an even count).
median() {
  printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END {
    if (NR == 0) exit
    if (NR % 2) print v[(NR + 1) / 2]; else printf "%.0f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2
  }'
}

declare -A results  # "<workload index> <engine>" -> space-separated ops/sec
for w in "${!labels[@]}"; do
  echo "== ${labels[$w]}: ${flagsets[$w]}" >&2
  for ((r = 1; r <= rounds; r++)); do
    for e in "${engines[@]}"; do
      [ -n "${binary[$e]}" ] || continue
      case " ${skips[$w]} " in *" $e "*) continue ;; esac
      dir=$(mktemp -d "$tmp/$e.XXXXXX")
      rc=0
      # shellcheck disable=SC2086  # flagsets are word lists by design
      "${binary[$e]}" --db="$dir/db" ${flagsets[$w]} >"$tmp/out" 2>"$tmp/err" ||
        rc=$?
      rm -rf "$dir"
      if [ $rc -ne 0 ]; then
        echo "   round $r $e: failed (exit $rc): $(tr '\r' '\n' <"$tmp/err" |
          grep -v '^\.\.\. finished' | tail -n 1)" >&2
        continue
      fi
      ops=$(ops_of "${lines[$w]}" "$tmp/out")
      if [ -z "$ops" ]; then
        echo "   round $r $e: no '${lines[$w]}' line" >&2
        continue
      fi
      echo "   round $r $e: $ops ops/sec" >&2
      results["$w $e"]+="$ops "
    done
  done
done

ratio() {
  if [ "$1" = n/a ] || [ "$2" = n/a ] || [ "$2" = 0 ]; then
    echo n/a
  else
    awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f\n", a / b }'
  fi
}

table="| workload | strata ops/s | leveldb ops/s | rocksdb ops/s | strata/leveldb | strata/rocksdb |
|---|---:|---:|---:|---:|---:|"
for w in "${!labels[@]}"; do
  declare -A med=()
  for e in "${engines[@]}"; do
    # shellcheck disable=SC2086
    m=$(median ${results["$w $e"]:-})
    med[$e]=${m:-n/a}
  done
  table+="
| ${labels[$w]} | ${med[strata]} | ${med[leveldb]} | ${med[rocksdb]} | $(ratio "${med[strata]}" "${med[leveldb]}") | $(ratio "${med[strata]}" "${med[rocksdb]}") |"
done

echo
echo "db_bench, median of $rounds rounds (num=$num, sync num=$sync_num per thread, seed=$seed; value 100 B, key 16 B, no compression)"
echo
echo "$table"
if [ -n "$out" ]; then
  printf '%s\n' "$table" >"$out"
fi
