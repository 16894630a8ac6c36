#!/usr/bin/env bash
# Quick db_bench suite (make bench): a few RocksDB-style workloads on a fresh
# temporary directory, printing db_bench's report lines. About a minute.
#
# Usage: scripts/bench.sh BUILD_DIR
# Environment:
#   DB_BENCH=path   the db_bench binary to run (default BUILD_DIR/db_bench);
#                   BUILD_DIR/db_bench_leveldb or /usr/bin/db_bench run the
#                   same suite on LevelDB or RocksDB.
#   NUM=200000      keys for the main suites; SYNC_NUM=2000 per sync thread.
#   SEED=1          --seed passed to every run (same keys on every engine).
set -euo pipefail

if [ $# -ne 1 ]; then
  echo "usage: $0 BUILD_DIR" >&2
  exit 2
fi
build=$1
num=${NUM:-200000}
sync_num=${SYNC_NUM:-2000}
seed=${SEED:-1}
bench=${DB_BENCH:-}
if [ -z "$bench" ]; then
  # The make targets build everything; build db_bench explicitly anyway so a
  # fresh build directory works too.
  cmake --build "$build" --target db_bench >/dev/null
  bench=$build/db_bench
fi
if [ ! -x "$bench" ]; then
  echo "bench.sh: $bench not found or not executable" >&2
  exit 1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/strata-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

common=(--value_size=100 --key_size=16 --compression_type=none --seed="$seed")

# run TITLE ARGS...: one db_bench process on a fresh database directory;
# prints its report lines (stdout lines "<name> : ..." and "(... found)").
run() {
  local title=$1
  shift
  local dir
  dir=$(mktemp -d "$tmp/db.XXXXXX")
  echo "== $title"
  local rc=0
  "$bench" --db="$dir/db" "${common[@]}" "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
  if [ $rc -eq 2 ]; then
    echo "   (not supported by this engine: $(tail -n 1 "$tmp/err"))"
  elif [ $rc -ne 0 ]; then
    tr '\r' '\n' <"$tmp/err" | grep -v '^\.\.\. finished' | tail -n 5 >&2
    echo "bench.sh: '$title' failed (exit $rc)" >&2
    exit 1
  else
    grep -E '^[a-z0-9]+ +: ' "$tmp/out" || true
  fi
  rm -rf "$dir"
}

echo "db_bench: $bench   num=$num seed=$seed"
run "WAL on: fill, overwrite, reads (--num=$num)" \
  --benchmarks=fillseq,fillrandom,overwrite,readrandom,readseq,seekrandom \
  --num="$num"
run "LSM: 4 MB memtables and files, 16 MB level base, 10-bit Bloom filters (--num=$num)" \
  --benchmarks=fillrandom,waitforcompaction,readrandom,readseq,seekrandom,compact,readrandom \
  --num="$num" --write_buffer_size=4194304 --target_file_size_base=4194304 \
  --max_bytes_for_level_base=16777216 --bloom_bits=10 --cache_size=67108864
run "memtable only: --disable_wal=1 --write_buffer_size=2000000000" \
  --benchmarks=fillrandom,readrandom --num="$num" --disable_wal=1 \
  --write_buffer_size=2000000000
run "group commit: --sync=1 --threads=8 (--num=$sync_num per thread)" \
  --benchmarks=fillrandom --num="$sync_num" --sync=1 --threads=8
