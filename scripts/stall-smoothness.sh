#!/usr/bin/env bash
# Write-stall smoothness (issue 19, item 4): a long fillrandom past what
# compaction can absorb, on Strata, LevelDB and RocksDB in turn, with the
# same flags, and two figures per engine:
#   - p99.9 / p50 of the per-write latency (db_bench --histogram);
#   - the 1-second windows of --report_interval_seconds=1: mean ops/s, the
#     lowest window, and how many windows fell below 20% of the mean.
# The target is p99.9 <= 10 x p50 and no window below 20% of the mean.
# First, tools/cpu_gaps prints (on stderr) how often a thread loses the CPU
# for 10 µs to 1 ms on this machine, idle and beside two spinning threads:
# the floor under every engine's p99.9 (docs/design/write-throttle.md).
#
# Usage: scripts/stall-smoothness.sh BUILD_DIR
# Environment:
#   DURATION=600      seconds of fillrandom per engine
#   ENGINES="strata leveldb rocksdb"
#   DB_ROOT=/var/tmp  where each run's database lives (removed after it)
#   EXTRA_FLAGS=...   appended to every run
#   LOG_DIR=dir       keep each run's output and CSV there
#   STRATA_BENCH, LEVELDB_BENCH, ROCKSDB_BENCH   the binaries
set -euo pipefail

BUILD_DIR=${1:?usage: $0 BUILD_DIR}
DURATION=${DURATION:-600}
ENGINES=${ENGINES:-"strata leveldb rocksdb"}
DB_ROOT=${DB_ROOT:-/var/tmp}
EXTRA_FLAGS=${EXTRA_FLAGS:-}
STRATA_BENCH=${STRATA_BENCH:-$BUILD_DIR/db_bench}
LEVELDB_BENCH=${LEVELDB_BENCH:-$BUILD_DIR/db_bench_leveldb}
ROCKSDB_BENCH=${ROCKSDB_BENCH:-/usr/bin/db_bench}
LOG_DIR=${LOG_DIR:-$(mktemp -d /tmp/stall-smoothness.XXXXXX)}
mkdir -p "$LOG_DIR"

# 16-byte keys, 100-byte values, WAL on, default tree options; the key space
# is far larger than what the run writes, so every write is new data.
COMMON="--benchmarks=fillrandom --num=2000000000 --duration=$DURATION --key_size=16 \
--value_size=100 --seed=1 --histogram=1 --report_interval_seconds=1 --compression_type=lz4 \
--bloom_bits=10 --cache_size=268435456"

bench_of() {
  case $1 in
    strata) echo "$STRATA_BENCH" ;;
    leveldb) echo "$LEVELDB_BENCH" ;;
    rocksdb) echo "$ROCKSDB_BENCH" ;;
  esac
}

# The machine's floor: how often a thread loses the CPU for 10-1000 µs,
# idle and beside two spinning threads (a benchmark's background work).
if cmake --build "$BUILD_DIR" --target cpu_gaps >/dev/null 2>&1 && [ -x "$BUILD_DIR/tools/cpu_gaps" ]; then
  "$BUILD_DIR/tools/cpu_gaps" 10 0 >&2
  "$BUILD_DIR/tools/cpu_gaps" 10 2 >&2
fi

printf '| engine | ops/s | p50 µs | p99 µs | p99.9 µs | p99.9/p50 | mean 1-s window | lowest window | windows < 20%% of mean |\n'
printf '|---|---:|---:|---:|---:|---:|---:|---:|---:|\n'
for engine in $ENGINES; do
  bench=$(bench_of "$engine")
  db=$(mktemp -d "$DB_ROOT/stall-$engine.XXXXXX")
  out="$LOG_DIR/$engine.out"
  csv="$LOG_DIR/$engine.csv"
  # LevelDB has no lz4: it gets what it has (snappy off: none).
  flags="$COMMON"
  [[ $engine == leveldb ]] && flags=${flags/--compression_type=lz4/--compression_type=none}
  # shellcheck disable=SC2086
  "$bench" $flags --db="$db" --report_file="$csv" $EXTRA_FLAGS >"$out" 2>"$LOG_DIR/$engine.err" || {
    echo "$engine failed: see $LOG_DIR/$engine.err" >&2
    rm -rf "$db"
    continue
  }
  rm -rf "$db"
  python3 - "$engine" "$out" "$csv" <<'PY'
import re, sys
engine, out, csv = sys.argv[1:4]
text = open(out).read()
ops = re.search(r"^fillrandom\s*:.*?(\d+) ops/sec", text, re.M)
pct = re.search(r"P50: ([\d.]+) P75: [\d.]+ P99: ([\d.]+) P99.9: ([\d.]+)", text)
rows = [l.strip().split(",") for l in open(csv).read().splitlines()[1:] if l.strip()]
qps = [int(r[1]) for r in rows]
# The last window may be cut short by the end of the run: left out.
qps = qps[:-1] if len(qps) > 1 else qps
mean = sum(qps) / len(qps) if qps else 0
low = min(qps) if qps else 0
below = sum(1 for q in qps if q < 0.2 * mean)
p50, p99, p999 = (float(x) for x in pct.groups()) if pct else (0, 0, 0)
ratio = p999 / p50 if p50 > 0 else 0
print(f"| {engine} | {ops.group(1) if ops else '?'} | {p50:.2f} | {p99:.2f} | {p999:.2f} | "
      f"{ratio:.1f} | {mean:,.0f} | {low:,} ({low / mean:.0%}) | {below} of {len(qps)} |"
      if mean else f"| {engine} | no report |")
PY
done
echo "logs: $LOG_DIR" >&2
