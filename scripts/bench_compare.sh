#!/usr/bin/env bash
# Side-by-side db_bench (make bench-compare): the same workloads, flags and
# --seed on Strata (BUILD_DIR/db_bench), LevelDB (BUILD_DIR/db_bench_leveldb)
# and RocksDB (/usr/bin/db_bench, Debian's rocksdb-tools). For every workload
# the three engines run alternately, ROUNDS times, each run on a fresh
# temporary directory; the table shows each engine's median ops/sec.
#
# Usage: scripts/bench_compare.sh BUILD_DIR
#        MODE=lsm scripts/bench_compare.sh BUILD_DIR   (or LSM=1)
#        MODE=ops scripts/bench_compare.sh BUILD_DIR
#        MODE=mixed scripts/bench_compare.sh BUILD_DIR
# Environment:
#        MODE=tradeoff scripts/bench_compare.sh BUILD_DIR
#        MODE=scale scripts/bench_compare.sh BUILD_DIR
#   MODE=default|lsm|ops|mixed|tradeoff|scale  which set of workloads (lsm,
#                     ops, mixed, tradeoff, scale: see below)
#   COMPARISONS="a b c d"  (ops) which comparisons to run
#   ROUNDS=3          runs per engine and workload (median reported; lsm, ops: 1)
#   NUM=1000000       keys for the fill/read workloads (lsm, ops: 5000000)
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
#
# LSM mode (issue 4, "How good"): the tree under load, default RocksDB tree
# options (64 MiB memtables, L0 trigger 4, 256 MiB level 1, ...). Every run
# gets --value_size=100 --key_size=16 --compression_type=none --seed=SEED
# --cache_size=1073741824 --bloom_bits=10 (WAL on, sync off; LevelDB applies
# what it has: cache, bloom filter, no compression) plus EXTRA_FLAGS.
#   1. fillrandom --num=NUM, then waitforcompaction and stats, with
#      --statistics: ops/sec, write amplification = table bytes written by
#      flushes and compactions (Strata/LevelDB: their "Write amplification:"
#      line; RocksDB: rocksdb.flush.write.bytes + rocksdb.compact.write.bytes)
#      over NUM * (key + value) bytes, the same divisor for every engine, and
#      the process's peak RSS (/usr/bin/time -v).
#   2. on that database (--use_existing_db=1), one process each: readrandom
#      (--reads=READS), readseq, seekrandom (--reads=SEEKS), with
#      --seed=READ_SEED (default SEED+1: with the fill's seed, a readrandom
#      process would draw exactly the keys the fill wrote and find all of
#      them; another seed finds ~63% and exercises the filters). With
#      COMPACT=1 a "compact" process (CompactRange over everything) runs on
#      each database first, so every engine reads a fully compacted tree
#      (otherwise LevelDB's seek-triggered compactions during readrandom
#      leave it a different shape than Strata's and RocksDB's).
#   3. fillseq --num=NUM on a fresh database.
# Within a round each workload runs on the three engines in turn; each
# engine's database lives in its own temporary directory, removed after the
# round. Extra environment: READS (default NUM), SEEKS (default READS),
# EXTRA_FLAGS (appended to every run), LOG_DIR (keep every run's output
# there).
#
# Ops mode (issue 5: merge, MultiGet, range deletion), Strata against
# RocksDB only (LevelDB has none of the three): each comparison runs on both
# engines in turn, ROUNDS times (default 1), on fresh directories. Every run
# gets --key_size=16 --compression_type=none --seed=SEED plus EXTRA_FLAGS.
#   a. --benchmarks=mergerandom,readseq,readseq,readseq,readseq
#      --merge_operator=put --merge_keys=10000 --num=10000 (value 100 B):
#      rows for mergerandom and the last readseq.
#   b. the same with --num=MERGE_NUM (1000000) --merge_keys=MERGE_KEYS
#      (100000) --merge_operator=uint64add --value_size=8. The 8-byte value
#      makes the operands valid uint64s on both: with RocksDB's default
#      --value_size=100, RocksDB's uint64add logs and counts each 100-byte
#      operand as 0, while Strata's fails the read with Corruption.
#   c. fillrandom --num=NUM (5000000), then in a second process on that
#      database (--use_existing_db=1, --seed=READ_SEED) multireadrandom
#      --batch_size=32 --reads=READS (1000000; each key is one operation).
#   d. fillrandom --num=RT_NUM (1000000) --writes_per_range_tombstone=RT_NUM
#      --max_num_range_tombstones=1 --range_tombstone_width=RT_NUM/10: one
#      DeleteRange over 10% of the key space (from a random start, so less
#      when it starts in the last tenth) in the fill's last batch; then in a
#      second process seekrandom --seek_nexts=10 --reads=SEEKS (100000).
#
# Mixed mode (issue 14: reads that meet writes, reads of fresh data). Rounds
# default to 1 for the readwhilewriting rows, FAST_ROUNDS (3) for the rest.
#   1. fillrandom --num=RWW_NUM (5000000) --compression_type=snappy
#      --cache_size=67108864 (value 100 B, key 16 B), waitforcompaction; then
#      on that database, one process each, with --seed=READ_SEED
#      --threads=1 --reads=READS (1000000): readwhilewriting (one reader and
#      one unthrottled writer), readwhilewriting with
#      --benchmark_write_rate_limit=WRITE_RATE (2097152), readrandom. The
#      writer's writes/sec are reported beside each readwhilewriting row
#      (RocksDB: rocksdb.number.keys.written from --statistics over the
#      run's seconds), so that no engine wins by starving its writer.
#   2. db_bench defaults, one process: fillrandom,readrandom,readseq
#      --num=NUM (1000000): fresh data (a large memtable and new level-0
#      files) read right after the fill.
#   3. fillrandom --num=NUM --disable_wal=1 --write_buffer_size=2000000000
#      (memtable only; LevelDB cannot, "n/a").
#
# Trade-off mode (issue 17: where each compaction style sits between write,
# space and read amplification), Strata against RocksDB only, one round.
# The workload (issue 17 item 8): fillrandom of WRITES = 2000000 * SCALE
# random writes over KEYS = 500000 * SCALE keys (key 16 B, value 100 B,
# WAL on, --bloom_bits=10, 8 MiB * SCALE memtables and target files and a
# level base (max_bytes_for_level_base) four times that, a quarter of it for
# table 2, so the tree has the same shape at every SCALE),
# the fill ending with a flush so that no process's recovery rewrites the
# WAL unseen by the statistics. Then, one db_bench process each on the same
# database (--use_existing_db=1, --statistics), alternating Strata and
# RocksDB phase by phase: waitforcompaction; readrandom --reads=READS
# (200000 * SCALE) and seekrandom --reads=SEEKS (100000 * SCALE), both with
# --seed=READ_SEED; compact (full compaction, for the space figure).
# Figures, computed the same way from both tools' output:
#   write amp = rocksdb.flush.write.bytes + rocksdb.compact.write.bytes
#               summed over the fill, waitforcompaction, readrandom and
#               seekrandom processes, over WRITES * 116 bytes;
#   space amp = bytes of *.sst files after waitforcompaction (and the
#               reads) over bytes of *.sst files after the full compaction
#               (the live data);
#   read amp  = tables probed per Get in the readrandom process:
#               (rocksdb.bloom.filter.useful + rocksdb.bloom.filter.full.positive)
#               / rocksdb.number.keys.read (each table whose key range
#               covers the key has its filter checked once);
#   readrandom / seekrandom / fillrandom micros/op and readrandom's
#   "N of M found" (FIFO drops the oldest data).
# Table 1, CONFIGS (default "leveled leveled-dynamic universal fifo"), no
# compression: leveled (--level_compaction_dynamic_level_bytes=false, given
# explicitly: Strata's store default is true, RocksDB's false), leveled with
# dynamic levels, universal (--compaction_style=1, default universal
# options), FIFO (--compaction_style=2, at most KEYS * 232 bytes of tables,
# i.e. about twice the live data).
# Table 2, COMPRESSIONS (default "lz4 lz4-from-l2 lz4-zstd2 zstd"), leveled
# with dynamic levels (so the data sits in the last levels): lz4 everywhere;
# --min_level_to_compress=2 with lz4; --compression_per_level=
# none,none,lz4,lz4,lz4,zstd,zstd (Strata only: RocksDB 7.8.3's db_bench has
# no flag for a per-level list, so its cell says why); zstd everywhere.
# CONFIGS="" or COMPRESSIONS="" skips that table.
# A configuration whose Open fails (an option not built) is listed as
# "refused: <message>" under its table instead of ending the script.
# RocksDB's waitforcompaction can wait forever (under universal,
# compaction-pending may stay set while its picker finds nothing to do): a
# wait longer than WAIT_TIMEOUT seconds (300 * SCALE, at least 1) is stopped
# and noted under the table, and the row goes on with the tree as it is.
# Environment: SCALE (1; 0.1 runs a row in well under a minute), READS,
# SEEKS, READ_SEED (SEED+1), SEED, WAIT_TIMEOUT, EXTRA_FLAGS, LOG_DIR, OUT,
# STRATA_BENCH, ROCKSDB_BENCH.
set -euo pipefail

if [ $# -ne 1 ]; then
  echo "usage: $0 BUILD_DIR" >&2
  exit 2
fi
build=$1
mode=${MODE:-default}
if [ "${LSM:-0}" = 1 ]; then mode=lsm; fi
case "$mode" in
  default | lsm | ops | mixed | tradeoff | scale) ;;
  *)
    echo "bench_compare.sh: MODE must be default, lsm, ops, mixed, tradeoff or scale" >&2
    exit 2
    ;;
esac
if [ "$mode" = lsm ] || [ "$mode" = ops ]; then
  rounds=${ROUNDS:-1}
  num=${NUM:-5000000}
elif [ "$mode" = mixed ]; then
  rounds=${ROUNDS:-1}
  num=${NUM:-1000000}
elif [ "$mode" = scale ]; then
  rounds=1
  num=${NUM:-50000000}
else
  rounds=${ROUNDS:-3}
  num=${NUM:-1000000}
fi
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
if [ -z "$leveldb_bench" ] && [ "$mode" != tradeoff ]; then
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
  if [ "$mode" = tradeoff ] && [ "$e" = leveldb ]; then continue; fi  # not compared
  if [ ! -x "${binary[$e]}" ]; then
    echo "bench_compare.sh: ${binary[$e]} not found; $e column is n/a" >&2
    binary[$e]=""
  fi
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/strata-compare.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# ops_of LINE FILE: the ops/sec of the first report line LINE in FILE.
ops_of() {
  awk -v name="$1" '$1 == name && $2 == ":" {
    for (i = 3; i <= NF; i++) if ($i == "ops/sec") { print $(i - 1); exit }
  }' "$2"
}

# last_ops_of LINE FILE: the ops/sec of the last report line LINE in FILE.
last_ops_of() {
  awk -v name="$1" '$1 == name && $2 == ":" {
    for (i = 3; i <= NF; i++) if ($i == "ops/sec") ops = $(i - 1)
  } END { if (ops != "") print ops }' "$2"
}

# median VALUES...: the median (mean of the middle two for an even count).
median() {
  printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END {
    if (NR == 0) exit
    if (NR % 2) print v[(NR + 1) / 2]; else printf "%.0f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2
  }'
}

ratio() {
  if [ "$1" = n/a ] || [ "$2" = n/a ] || [ "$2" = 0 ]; then
    echo n/a
  else
    awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f\n", a / b }'
  fi
}

# ---------------------------------------------------------------------------
# LSM mode

# table_bytes_of ENGINE FILE: bytes the engine wrote to tables in flushes and
# compactions, as its output with --statistics reports them.
table_bytes_of() {
  if [ "$1" = rocksdb ]; then
    awk '$1 == "rocksdb.flush.write.bytes" || $1 == "rocksdb.compact.write.bytes" {
      s += $4; n++ } END { if (n == 2) printf "%.0f\n", s }' "$2"
  else
    sed -n 's/^Write amplification: .*flush+compaction bytes written: \([0-9]*\),.*/\1/p' "$2" |
      tail -n 1
  fi
}

# peak_rss_mb FILE: "Maximum resident set size" of /usr/bin/time -v, in MiB.
peak_rss_mb() {
  awk -F: '/Maximum resident set size/ { printf "%.0f\n", $2 / 1024 }' "$1"
}

# run_lsm ENGINE LABEL DIR FLAGS...: one db_bench process; its stdout is left
# in $tmp/out (and LOG_DIR), the /usr/bin/time report in $tmp/time. Returns
# the exit code.
run_lsm() {
  local e=$1 label=$2 dir=$3
  shift 3
  local rc=0
  local timer=()
  if [ -x /usr/bin/time ]; then timer=(/usr/bin/time -v -o "$tmp/time"); fi
  : >"$tmp/time"
  # shellcheck disable=SC2086  # EXTRA_FLAGS is a word list by design
  "${timer[@]}" "${binary[$e]}" --db="$dir/db" "$@" ${EXTRA_FLAGS:-} >"$tmp/out" 2>"$tmp/err" ||
    rc=$?
  if [ -n "${LOG_DIR:-}" ]; then
    mkdir -p "$LOG_DIR"
    cp "$tmp/out" "$LOG_DIR/$label.$e.out"
    tr '\r' '\n' <"$tmp/err" | grep -v '^\.\.\. finished' >"$LOG_DIR/$label.$e.err" || true
  fi
  if [ $rc -ne 0 ]; then
    echo "   $label $e: failed (exit $rc): $(tr '\r' '\n' <"$tmp/err" |
      grep -v '^\.\.\. finished' | grep -v 'Command exited' | tail -n 1)" >&2
  fi
  return $rc
}

lsm_mode() {
  local reads=${READS:-$num}
  local seeks=${SEEKS:-$reads}
  local read_seed=${READ_SEED:-$((seed + 1))}
  local common=(--value_size=100 --key_size=16 --compression_type=none
    --cache_size=1073741824 --bloom_bits=10)
  # Room for three databases of num * 116 bytes plus WALs and compaction
  # output (about 2x).
  local need_kb=$((num * 116 * 3 * 2 / 1024))
  local avail_kb
  avail_kb=$(df -Pk "$tmp" | awk 'NR == 2 { print $4 }')
  if [ -n "$avail_kb" ] && [ "$avail_kb" -lt "$need_kb" ]; then
    echo "bench_compare.sh: $((avail_kb / 1024)) MiB free under $tmp, about" \
      "$((need_kb / 1024)) MiB needed for NUM=$num" >&2
    exit 1
  fi
  local workloads=(fillrandom readrandom readseq seekrandom fillseq)
  declare -A res=()   # "<workload> <engine>" -> ops/sec values
  declare -A wamp=()  # engine -> write amplification values
  declare -A rss=()   # engine -> peak RSS (MiB) values
  declare -A filled=()
  local r e w dir ops found bytes
  for ((r = 1; r <= rounds; r++)); do
    echo "== round $r/$rounds: fillrandom --num=$num, reads on it, fillseq" >&2
    filled=()
    for e in "${engines[@]}"; do
      [ -n "${binary[$e]}" ] || continue
      mkdir -p "$tmp/$e"
      rm -rf "${tmp:?}/$e/db"
      if run_lsm "$e" "r$r.fillrandom" "$tmp/$e" "${common[@]}" --seed="$seed" --num="$num" \
        --benchmarks=fillrandom,waitforcompaction,stats --statistics=1; then
        ops=$(ops_of fillrandom "$tmp/out")
        bytes=$(table_bytes_of "$e" "$tmp/out")
        local amp=n/a mem
        if [ -n "$bytes" ]; then
          amp=$(awk -v b="$bytes" -v n="$num" 'BEGIN { printf "%.2f\n", b / (n * 116) }')
          wamp[$e]+="$amp "
        fi
        mem=$(peak_rss_mb "$tmp/time")
        [ -n "$mem" ] && rss[$e]+="$mem "
        echo "   fillrandom $e: ${ops:-?} ops/sec, write amp $amp, peak RSS ${mem:-?} MiB" >&2
        if [ -n "$ops" ]; then
          res["fillrandom $e"]+="$ops "
          filled[$e]=1
        fi
        if [ "$e" = strata ]; then cp "$tmp/out" "$tmp/strata-fillrandom.out"; fi
      fi
    done
    if [ "${COMPACT:-0}" = 1 ]; then
      for e in "${engines[@]}"; do
        [ -n "${filled[$e]:-}" ] || continue
        if run_lsm "$e" "r$r.compact" "$tmp/$e" "${common[@]}" --seed="$seed" --num="$num" \
          --use_existing_db=1 --benchmarks=compact; then
          echo "   compact $e: $(awk '$1 == "compact" { print $7 " s" }' "$tmp/out")" >&2
        fi
      done
    fi
    for w in readrandom readseq seekrandom; do
      local extra=()
      case $w in
        readrandom) extra=(--reads="$reads") ;;
        seekrandom) extra=(--reads="$seeks") ;;
      esac
      for e in "${engines[@]}"; do
        [ -n "${filled[$e]:-}" ] || continue
        if run_lsm "$e" "r$r.$w" "$tmp/$e" "${common[@]}" --seed="$read_seed" --num="$num" \
          --use_existing_db=1 --benchmarks="$w" "${extra[@]}"; then
          ops=$(ops_of "$w" "$tmp/out")
          found=$(grep -o '([0-9]* of [0-9]* found)' "$tmp/out" | head -n 1 || true)
          echo "   $w $e: ${ops:-?} ops/sec $found" >&2
          [ -n "$ops" ] && res["$w $e"]+="$ops "
        fi
      done
    done
    for e in "${engines[@]}"; do rm -rf "${tmp:?}/$e"; done
    for e in "${engines[@]}"; do
      [ -n "${binary[$e]}" ] || continue
      mkdir -p "$tmp/$e"
      if run_lsm "$e" "r$r.fillseq" "$tmp/$e" "${common[@]}" --seed="$seed" --num="$num" \
        --benchmarks=fillseq; then
        ops=$(ops_of fillseq "$tmp/out")
        echo "   fillseq $e: ${ops:-?} ops/sec" >&2
        [ -n "$ops" ] && res["fillseq $e"]+="$ops "
      fi
      rm -rf "${tmp:?}/$e"
    done
  done

  declare -A goal=(
    [fillrandom]="1.5x / 3x" [readrandom]="1.5x / 3x" [readseq]="1.3x / 2x"
    [seekrandom]="1.3x / 2x" [fillseq]="1.5x / 3x"
  )
  local table m
  table="| workload | strata ops/s | leveldb ops/s | rocksdb ops/s | strata/leveldb | strata/rocksdb | goal (L / R) |
|---|---:|---:|---:|---:|---:|---|"
  for w in "${workloads[@]}"; do
    declare -A med=()
    for e in "${engines[@]}"; do
      # shellcheck disable=SC2086
      m=$(median ${res["$w $e"]:-})
      med[$e]=${m:-n/a}
    done
    table+="
| $w | ${med[strata]} | ${med[leveldb]} | ${med[rocksdb]} | $(ratio "${med[strata]}" "${med[leveldb]}") | $(ratio "${med[strata]}" "${med[rocksdb]}") | ${goal[$w]} |"
  done
  local table2="| fillrandom | strata | leveldb | rocksdb |
|---|---:|---:|---:|"
  local row_amp="| write amplification | " row_rss="| peak RSS (MiB) | "
  for e in "${engines[@]}"; do
    # Median write amplification (a decimal): sort numerically, take the middle.
    # shellcheck disable=SC2086
    m=$(printf '%s\n' ${wamp[$e]:-} | sort -g | awk '{ v[NR] = $1 } END {
      if (NR) print v[int((NR + 1) / 2)] }')
    row_amp+="${m:-n/a} | "
    # shellcheck disable=SC2086
    m=$(median ${rss[$e]:-})
    row_rss+="${m:-n/a} | "
  done
  table2+="
${row_amp% }
${row_rss% }"

  echo
  echo "db_bench LSM workloads, median of $rounds round(s): num=$num, reads=$reads, seeks=$seeks," \
    "seed=$seed (reads: $read_seed); key 16 B, value 100 B, no compression, WAL on, sync off," \
    "--cache_size=1073741824 --bloom_bits=10 ${EXTRA_FLAGS:-}"
  echo
  echo "$table"
  echo
  echo "Write amplification = table bytes written by flushes and compactions (after" \
    "waitforcompaction) / (num * 116 B); peak RSS of the fillrandom process."
  echo
  echo "$table2"
  if [ -f "$tmp/strata-fillrandom.out" ]; then
    echo
    echo "strata.stats after Strata's fillrandom (last round):"
    sed -n '/^\*\* Compaction Stats/,/^Stalls:/p' "$tmp/strata-fillrandom.out"
    grep '^Write amplification:' "$tmp/strata-fillrandom.out" || true
  fi
  if [ -n "$out" ]; then
    printf '%s\n\n%s\n' "$table" "$table2" >"$out"
  fi
}

# ---------------------------------------------------------------------------
# Ops mode

ops_mode() {
  local merge_num=${MERGE_NUM:-1000000}
  local merge_keys=${MERGE_KEYS:-100000}
  local reads=${READS:-1000000}
  local rt_num=${RT_NUM:-1000000}
  local seeks=${SEEKS:-100000}
  local read_seed=${READ_SEED:-$((seed + 1))}
  local common=(--key_size=16 --compression_type=none)
  local ops_engines=(strata rocksdb)
  # Rows: label | comparison | report line | which one (first / last).
  local row_labels=("a. mergerandom (put, 10k keys)" "a. readseq (4th)"
    "b. mergerandom (uint64add, $merge_keys keys)" "b. readseq (4th)"
    "c. fillrandom ($num)" "c. multireadrandom (batch 32)"
    "d. fillrandom + 1 range tombstone ($rt_num)" "d. seekrandom (10 nexts)")
  local row_cmp=(a a b b c c d d)
  local row_line=(mergerandom readseq mergerandom readseq fillrandom multireadrandom
    fillrandom seekrandom)
  local row_pick=(first last first last first first first first)
  declare -A res=()  # "<row> <engine>" -> ops/sec values
  declare -A outs=() # "<comparison> <engine>" -> output files of its steps
  local r e c i dir ops
  for ((r = 1; r <= rounds; r++)); do
    for c in ${COMPARISONS:-a b c d}; do
      echo "== round $r/$rounds: comparison $c" >&2
      for e in "${ops_engines[@]}"; do
        [ -n "${binary[$e]}" ] || continue
        dir=$tmp/$e
        rm -rf "$dir"
        mkdir -p "$dir"
        outs["$c $e"]=""
        local ok=1
        case $c in
          a)
            run_lsm "$e" "r$r.a" "$dir" "${common[@]}" --seed="$seed" --value_size=100 \
              --benchmarks=mergerandom,readseq,readseq,readseq,readseq --merge_operator=put \
              --merge_keys=10000 --num=10000 || ok=0
            cp "$tmp/out" "$tmp/$c.$e.1"
            outs["$c $e"]="$tmp/$c.$e.1"
            ;;
          b)
            run_lsm "$e" "r$r.b" "$dir" "${common[@]}" --seed="$seed" --value_size=8 \
              --benchmarks=mergerandom,readseq,readseq,readseq,readseq \
              --merge_operator=uint64add --merge_keys="$merge_keys" --num="$merge_num" || ok=0
            cp "$tmp/out" "$tmp/$c.$e.1"
            outs["$c $e"]="$tmp/$c.$e.1"
            ;;
          c)
            run_lsm "$e" "r$r.c.fill" "$dir" "${common[@]}" --seed="$seed" --value_size=100 \
              --benchmarks=fillrandom --num="$num" || ok=0
            cp "$tmp/out" "$tmp/$c.$e.1"
            if [ $ok = 1 ]; then
              run_lsm "$e" "r$r.c.read" "$dir" "${common[@]}" --seed="$read_seed" \
                --value_size=100 --use_existing_db=1 --benchmarks=multireadrandom \
                --batch_size=32 --num="$num" --reads="$reads" || ok=0
              cp "$tmp/out" "$tmp/$c.$e.2"
            fi
            outs["$c $e"]="$tmp/$c.$e.1 $tmp/$c.$e.2"
            ;;
          d)
            run_lsm "$e" "r$r.d.fill" "$dir" "${common[@]}" --seed="$seed" --value_size=100 \
              --benchmarks=fillrandom --num="$rt_num" --writes_per_range_tombstone="$rt_num" \
              --max_num_range_tombstones=1 --range_tombstone_width=$((rt_num / 10)) || ok=0
            cp "$tmp/out" "$tmp/$c.$e.1"
            if [ $ok = 1 ]; then
              run_lsm "$e" "r$r.d.seek" "$dir" "${common[@]}" --seed="$read_seed" \
                --value_size=100 --use_existing_db=1 --benchmarks=seekrandom --seek_nexts=10 \
                --num="$rt_num" --reads="$seeks" || ok=0
              cp "$tmp/out" "$tmp/$c.$e.2"
            fi
            outs["$c $e"]="$tmp/$c.$e.1 $tmp/$c.$e.2"
            ;;
        esac
        rm -rf "$dir"
        for i in "${!row_labels[@]}"; do
          [ "${row_cmp[$i]}" = "$c" ] || continue
          local f
          ops=""
          for f in ${outs["$c $e"]}; do
            [ -f "$f" ] || continue
            if [ "${row_pick[$i]}" = last ]; then
              ops=$(last_ops_of "${row_line[$i]}" "$f")
            else
              ops=$(ops_of "${row_line[$i]}" "$f")
            fi
            [ -n "$ops" ] && break
          done
          if [ -n "$ops" ]; then
            res["$i $e"]+="$ops "
            echo "   ${row_labels[$i]} $e: $ops ops/sec" >&2
          fi
        done
        # What each engine found or did, to show both did the same work.
        for f in ${outs["$c $e"]}; do
          [ -f "$f" ] || continue
          grep -o -E '\([0-9]+ of [0-9]+ found\)|\(reads:[^)]*\)|Number of range deletions: [0-9]+' \
            "$f" | sed "s/^/   $e: /" >&2 || true
        done
      done
    done
  done

  local table m
  table="| workload | strata ops/s | rocksdb ops/s | strata/rocksdb |
|---|---:|---:|---:|"
  for i in "${!row_labels[@]}"; do
    declare -A med=()
    for e in "${ops_engines[@]}"; do
      # shellcheck disable=SC2086
      m=$(median ${res["$i $e"]:-})
      med[$e]=${m:-n/a}
    done
    table+="
| ${row_labels[$i]} | ${med[strata]} | ${med[rocksdb]} | $(ratio "${med[strata]}" "${med[rocksdb]}") |"
  done
  echo
  echo "db_bench merge / MultiGet / range-deletion workloads, median of $rounds round(s):" \
    "seed=$seed (reads: $read_seed); key 16 B, no compression, WAL on, sync off;" \
    "merge_num=$merge_num merge_keys=$merge_keys num=$num reads=$reads rt_num=$rt_num" \
    "seeks=$seeks ${EXTRA_FLAGS:-}"
  echo
  echo "$table"
  if [ -n "$out" ]; then
    printf '%s\n' "$table" >"$out"
  fi
}

# ---------------------------------------------------------------------------
# Mixed mode (issue 14): reads that meet writes, and reads of fresh data.

# writer_rate ENGINE FILE: the background writer's writes/sec in a
# readwhilewriting run. Strata's and LevelDB's db_bench print a "background
# writer:" line; RocksDB's shows the writer only in --statistics (keys
# written in this process, over the run's seconds).
writer_rate() {
  if [ "$1" = rocksdb ]; then
    awk '$1 == "rocksdb.number.keys.written" { n = $4 }
      $1 == "readwhilewriting" && $2 == ":" {
        for (i = 3; i <= NF; i++) if ($i == "seconds") s = $(i - 1) }
      END { if (n != "" && s > 0) printf "%.0f\n", n / s }' "$2"
  else
    awk '$1 == "background" && $2 == "writer:" {
      for (i = 3; i <= NF; i++) if ($i == "writes/sec,") print $(i - 1) }' "$2"
  fi
}

mixed_mode() {
  local rww_num=${RWW_NUM:-5000000}
  local reads=${READS:-1000000}
  local fast_rounds=${FAST_ROUNDS:-3}
  local read_seed=${READ_SEED:-$((seed + 1))}
  local rate=${WRITE_RATE:-2097152}
  local rww=(--value_size=100 --key_size=16 --compression_type=snappy --cache_size=67108864)
  local rows=("rww" "rww2mb" "rr5m" "fresh.fillrandom" "fresh.readrandom" "fresh.readseq" "memfill")
  declare -A label=(
    [rww]="readwhilewriting, ${rww_num} keys, unthrottled writer"
    [rww2mb]="readwhilewriting, ${rww_num} keys, writer at $rate B/s"
    [rr5m]="readrandom on that database, no writer"
    [fresh.fillrandom]="fillrandom, WAL on, $num keys, defaults"
    [fresh.readrandom]="readrandom right after it, same process"
    [fresh.readseq]="readseq right after that, same process"
    [memfill]="fillrandom, memtable only, $num keys"
  )
  declare -A goal=(
    [rww]="1.5x / 2x" [rww2mb]="1.5x / 2x" [rr5m]="-" [fresh.fillrandom]="2x / -"
    [fresh.readrandom]="2x / -" [fresh.readseq]="1.5x / -" [memfill]="- / 3x"
  )
  declare -A res=()     # "<row> <engine>" -> ops/sec values
  declare -A wrate=()   # "<row> <engine>" -> writer writes/sec values
  local r e ops w
  for ((r = 1; r <= rounds; r++)); do
    echo "== round $r/$rounds: fillrandom --num=$rww_num (snappy, 64 MiB cache), then" \
      "readwhilewriting and readrandom on it" >&2
    declare -A filled=()
    for e in "${engines[@]}"; do
      [ -n "${binary[$e]}" ] || continue
      mkdir -p "$tmp/$e"
      rm -rf "${tmp:?}/$e/db"
      if run_lsm "$e" "r$r.rwwfill" "$tmp/$e" "${rww[@]}" --seed="$seed" --num="$rww_num" \
        --benchmarks=fillrandom,waitforcompaction; then
        echo "   fill $e: $(ops_of fillrandom "$tmp/out") ops/sec" >&2
        filled[$e]=1
      fi
    done
    for w in rww rww2mb rr5m; do
      local extra=(--threads=1 --reads="$reads" --statistics=1)
      case $w in
        rww) extra+=(--benchmarks=readwhilewriting) ;;
        rww2mb) extra+=(--benchmarks=readwhilewriting --benchmark_write_rate_limit="$rate") ;;
        rr5m) extra=(--threads=1 --reads="$reads" --benchmarks=readrandom) ;;
      esac
      for e in "${engines[@]}"; do
        [ -n "${filled[$e]:-}" ] || continue
        if run_lsm "$e" "r$r.$w" "$tmp/$e" "${rww[@]}" --seed="$read_seed" --num="$rww_num" \
          --use_existing_db=1 "${extra[@]}"; then
          local line=readrandom
          [ "$w" = rr5m ] || line=readwhilewriting
          ops=$(ops_of "$line" "$tmp/out")
          local wr=""
          if [ "$w" != rr5m ]; then
            wr=$(writer_rate "$e" "$tmp/out")
            [ -n "$wr" ] && wrate["$w $e"]+="$wr "
          fi
          echo "   $w $e: ${ops:-?} ops/sec${wr:+, writer $wr writes/sec}" >&2
          [ -n "$ops" ] && res["$w $e"]+="$ops "
        fi
      done
    done
    for e in "${engines[@]}"; do rm -rf "${tmp:?}/$e"; done
  done
  for ((r = 1; r <= fast_rounds; r++)); do
    echo "== fast round $r/$fast_rounds: fillrandom,readrandom,readseq --num=$num (defaults);" \
      "memtable-only fillrandom" >&2
    for e in "${engines[@]}"; do
      [ -n "${binary[$e]}" ] || continue
      mkdir -p "$tmp/$e"
      if run_lsm "$e" "f$r.fresh" "$tmp/$e" --seed="$seed" --num="$num" \
        --benchmarks=fillrandom,readrandom,readseq; then
        for w in fillrandom readrandom readseq; do
          ops=$(ops_of "$w" "$tmp/out")
          [ -n "$ops" ] && res["fresh.$w $e"]+="$ops "
        done
        echo "   fresh $e: fillrandom $(ops_of fillrandom "$tmp/out"), readrandom" \
          "$(ops_of readrandom "$tmp/out"), readseq $(ops_of readseq "$tmp/out") ops/sec" >&2
      fi
      rm -rf "${tmp:?}/$e"
      # LevelDB cannot turn its log off.
      [ "$e" = leveldb ] && continue
      mkdir -p "$tmp/$e"
      if run_lsm "$e" "f$r.memfill" "$tmp/$e" --seed="$seed" --num="$num" --disable_wal=1 \
        --write_buffer_size=2000000000 --benchmarks=fillrandom; then
        ops=$(ops_of fillrandom "$tmp/out")
        echo "   memtable-only fillrandom $e: ${ops:-?} ops/sec" >&2
        [ -n "$ops" ] && res["memfill $e"]+="$ops "
      fi
      rm -rf "${tmp:?}/$e"
    done
  done

  local table m
  table="| workload | strata ops/s | leveldb ops/s | rocksdb ops/s | strata/leveldb | strata/rocksdb | goal (L / R) | writer writes/s (S / L / R) |
|---|---:|---:|---:|---:|---:|---|---|"
  for w in "${rows[@]}"; do
    declare -A med=()
    declare -A wmed=()
    for e in "${engines[@]}"; do
      # shellcheck disable=SC2086
      m=$(median ${res["$w $e"]:-})
      med[$e]=${m:-n/a}
      # shellcheck disable=SC2086
      m=$(median ${wrate["$w $e"]:-})
      wmed[$e]=${m:--}
    done
    local wcol="-"
    case $w in rww | rww2mb) wcol="${wmed[strata]} / ${wmed[leveldb]} / ${wmed[rocksdb]}" ;; esac
    table+="
| ${label[$w]} | ${med[strata]} | ${med[leveldb]} | ${med[rocksdb]} | $(ratio "${med[strata]}" "${med[leveldb]}") | $(ratio "${med[strata]}" "${med[rocksdb]}") | ${goal[$w]} | $wcol |"
  done
  echo
  echo "db_bench mixed workloads: readwhilewriting rows median of $rounds round(s)" \
    "(--num=$rww_num --reads=$reads --threads=1: one reader plus one writer," \
    "${rww[*]}, reads with --seed=$read_seed); the 1M-key rows median of $fast_rounds" \
    "(db_bench defaults, --num=$num --seed=$seed). ${EXTRA_FLAGS:-}"
  echo
  echo "$table"
  if [ -n "$out" ]; then
    printf '%s\n' "$table" >"$out"
  fi
}

# ---------------------------------------------------------------------------
# Trade-off mode (issue 17, item 8)

# ticker_of NAME FILE: the COUNT of statistics ticker NAME in FILE ("" if
# absent).
ticker_of() {
  awk -v name="$1" '$1 == name && $2 == "COUNT" { print $4; exit }' "$2"
}

# micros_of LINE FILE: the micros/op of the first report line LINE in FILE.
micros_of() {
  awk -v name="$1" '$1 == name && $2 == ":" && $4 == "micros/op" { print $3; exit }' "$2"
}

# sst_bytes_of DIR: the bytes of the table files (*.sst) in DIR.
sst_bytes_of() {
  find "$1" -maxdepth 1 -name '*.sst' -printf '%s\n' | awk '{ s += $1 } END { printf "%.0f\n", s }'
}

# scaled N: N * SCALE, rounded, at least 1.
scaled() {
  awk -v n="$1" -v s="$scale" 'BEGIN { v = int(n * s + 0.5); if (v < 1) v = 1; print v }'
}

# tradeoff_phase ENGINE ROW PHASE FLAGS...: runs the phase's db_bench
# process on $tmp/ENGINE/db; output in $tmp/$ENGINE.$PHASE.out (and LOG_DIR).
# Returns the process's exit code; on failure sets refused[ENGINE] to the
# last line of its stderr (for Open, "open error: <message>").
tradeoff_phase() {
  local e=$1 row=$2 phase=$3
  shift 3
  local rc=0
  local timer=()
  # RocksDB's waitforcompaction can wait forever: under universal
  # compaction rocksdb.compaction-pending can stay 1 while the picker finds
  # nothing to do ("Compaction nothing to do" in its LOG).
  # Line-buffered, so a stopped wait leaves what it printed.
  if [ "$phase" = wait ]; then timer=(timeout --signal=INT "$wait_timeout" stdbuf -oL); fi
  # shellcheck disable=SC2086  # EXTRA_FLAGS is a word list by design
  "${timer[@]}" "${binary[$e]}" --db="$tmp/$e/db" "$@" ${EXTRA_FLAGS:-} >"$tmp/$e.$phase.out" \
    2>"$tmp/$e.$phase.err" || rc=$?
  if [ "$phase" = wait ] && [ $rc -eq 124 ]; then
    echo "   $row $phase $e: waitforcompaction did not return in $wait_timeout s;" \
      "stopped, going on" >&2
    printf -- '- %s, %s: waitforcompaction did not return in %s s (%s)\n' "$row" "$e" \
      "$wait_timeout" "stopped; the figures are of the tree as it was" >>"$tmp/notes"
    rc=0
  fi
  if [ -n "${LOG_DIR:-}" ]; then
    mkdir -p "$LOG_DIR"
    cp "$tmp/$e.$phase.out" "$LOG_DIR/$row.$phase.$e.out"
    tr '\r' '\n' <"$tmp/$e.$phase.err" | grep -v '^\.\.\. finished' \
      >"$LOG_DIR/$row.$phase.$e.err" || true
  fi
  if [ $rc -ne 0 ]; then
    refused[$e]=$(tr '\r' '\n' <"$tmp/$e.$phase.err" | grep -v '^\.\.\. finished' |
      grep -v '^$' | tail -n 1)
    refused[$e]=${refused[$e]#open error: }
    echo "   $row $phase $e: refused: ${refused[$e]} (exit $rc)" >&2
  fi
  return $rc
}

# tradeoff_row ROW FLAGS...: the whole workload for one configuration on
# Strata and on RocksDB (phases alternating between them); appends the
# row's figures to $tmp/rows (one line per engine: ROW ENGINE fields...).
tradeoff_row() {
  local row=$1
  shift
  local cfg=("$@")
  local common=(--key_size=16 --value_size=100 --bloom_bits=10 --num="$keys"
    --write_buffer_size="$wbs" --target_file_size_base="$wbs"
    --max_bytes_for_level_base="$level_base" --statistics=1)
  declare -A refused=()
  local e phase
  echo "== $row: ${cfg[*]}" >&2
  for e in strata rocksdb; do
    rm -rf "${tmp:?}/$e"
    mkdir -p "$tmp/$e"
    if [ -z "${binary[$e]}" ]; then refused[$e]="no binary"; fi
    if [ "$e" = rocksdb ] && [ -n "${ROCKSDB_SKIP[$row]:-}" ]; then
      refused[$e]=${ROCKSDB_SKIP[$row]}
    fi
  done
  # Each phase its own process, alternating the engines; a refused engine
  # stops at its first failure.
  local phases=(fill wait readrandom seekrandom compact)
  for phase in "${phases[@]}"; do
    for e in strata rocksdb; do
      [ -z "${refused[$e]:-}" ] || continue
      local flags=()
      case $phase in
        fill) flags=("--benchmarks=fillrandom,flush" --writes="$writes" --seed="$seed") ;;
        wait) flags=(--benchmarks=waitforcompaction --use_existing_db=1 --seed="$seed") ;;
        readrandom) flags=(--benchmarks=readrandom --use_existing_db=1 --reads="$reads"
          --seed="$read_seed") ;;
        seekrandom) flags=(--benchmarks=seekrandom --use_existing_db=1 --reads="$seeks"
          --seed="$read_seed") ;;
        compact)
          # The space after wait, before the full compaction measures the
          # live data.
          sst_before[$e]=$(sst_bytes_of "$tmp/$e/db")
          flags=(--benchmarks=compact --use_existing_db=1 --seed="$seed")
          ;;
      esac
      tradeoff_phase "$e" "$row" "$phase" "${common[@]}" "${cfg[@]}" "${flags[@]}" || true
    done
  done
  local user=$((writes * 116))
  for e in strata rocksdb; do
    if [ -n "${refused[$e]:-}" ]; then
      printf '%s\t%s\trefused\t%s\n' "$row" "$e" "${refused[$e]}" >>"$tmp/rows"
      continue
    fi
    # Write amplification: table bytes written by flushes and compactions
    # (the rocksdb.flush.write.bytes and rocksdb.compact.write.bytes
    # tickers) summed over the fill, wait, readrandom and seekrandom
    # processes, over the user bytes writes * (16 + 100).
    local written=0 p f c
    for p in fill wait readrandom seekrandom; do
      f=$(ticker_of rocksdb.flush.write.bytes "$tmp/$e.$p.out")
      c=$(ticker_of rocksdb.compact.write.bytes "$tmp/$e.$p.out")
      written=$((written + ${f:-0} + ${c:-0}))
    done
    local wamp samp ramp rr sr fill_us found
    wamp=$(awk -v w="$written" -v u="$user" 'BEGIN { printf "%.2f", w / u }')
    # Space amplification: table bytes on disk after waitforcompaction
    # (and the reads) over the table bytes after a full compaction.
    local after
    after=$(sst_bytes_of "$tmp/$e/db")
    samp=$(awk -v b="${sst_before[$e]}" -v a="$after" 'BEGIN {
      if (a > 0) printf "%.2f", b / a; else print "n/a" }')
    # Read amplification: tables probed per Get over the readrandom
    # process, (rocksdb.bloom.filter.useful + rocksdb.bloom.filter.full.positive)
    # / rocksdb.number.keys.read.
    local out=$tmp/$e.readrandom.out
    ramp=$(awk -v u="$(ticker_of rocksdb.bloom.filter.useful "$out")" \
      -v p="$(ticker_of rocksdb.bloom.filter.full.positive "$out")" \
      -v g="$(ticker_of rocksdb.number.keys.read "$out")" 'BEGIN {
        if (g > 0) printf "%.2f", (u + p) / g; else print "n/a" }')
    rr=$(micros_of readrandom "$out")
    found=$(sed -n 's/.*(\([0-9]*\) of [0-9]* found).*/\1/p' "$out" | head -n 1)
    sr=$(micros_of seekrandom "$tmp/$e.seekrandom.out")
    fill_us=$(micros_of fillrandom "$tmp/$e.fill.out")
    echo "   $row $e: fillrandom ${fill_us:-?} us/op, write amp $wamp (table bytes $written)," \
      "space amp $samp (${sst_before[$e]} / $after), read amp $ramp, readrandom ${rr:-?} us/op" \
      "(${found:-?} of $reads found), seekrandom ${sr:-?} us/op" >&2
    printf '%s\t%s\tok\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$row" "$e" "${fill_us:-n/a}" "$wamp" \
      "$samp" "$ramp" "${rr:-n/a}" "${sr:-n/a}" "${found:-n/a}" >>"$tmp/rows"
  done
  rm -rf "${tmp:?}/strata" "${tmp:?}/rocksdb"
}

# tradeoff_table ROWS...: the markdown table of the rows (in that order)
# from $tmp/rows, Strata's and RocksDB's figures side by side.
tradeoff_table() {
  echo "| configuration | fillrandom µs/op S / R | write amp S / R | space amp S / R | read amp (tables/Get) S / R | readrandom µs/op S / R | seekrandom µs/op S / R | readrandom keys found S / R |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|"
  local row
  for row in "$@"; do
    awk -F '\t' -v row="$row" '
      $1 == row { status[$2] = $3; for (i = 4; i <= NF; i++) v[$2, i] = $i }
      END {
        line = "| " row
        for (i = 4; i <= 10; i++) {
          cell = ""
          for (k = 0; k < 2; k++) {
            e = k == 0 ? "strata" : "rocksdb"
            x = status[e] == "ok" ? v[e, i] : (i == 4 ? "refused" : "-")
            if (status[e] == "") x = "-"
            cell = cell (k ? " / " : "") x
          }
          line = line " | " cell
        }
        print line " |"
      }' "$tmp/rows"
  done
  # The refusals, with their messages, and the waits stopped.
  for row in "$@"; do
    awk -F '\t' -v row="$row" '$1 == row && $3 == "refused" {
      print "- " $1 ", " $2 ": refused: " $4 }' "$tmp/rows"
    grep -F -- "- $row, " "$tmp/notes" || true
  done
}

tradeoff_mode() {
  scale=${SCALE:-1}
  keys=$(scaled 500000)
  writes=$(scaled 2000000)
  reads=${READS:-$(scaled 200000)}
  seeks=${SEEKS:-$(scaled 100000)}
  read_seed=${READ_SEED:-$((seed + 1))}
  # The tree scales with the data: 8 MiB memtables and files and a 32 MiB
  # level 1 at SCALE=1 (at least 256 KiB memtables).
  wbs=$(awk -v s="$scale" 'BEGIN { v = int(8388608 * s); if (v < 262144) v = 262144; print v }')
  # FIFO keeps at most about twice the live data (keys * 116 bytes).
  local fifo_mb=$(((keys * 116 * 2 + 1048575) / 1048576))
  declare -A sst_before=()
  declare -gA ROCKSDB_SKIP=()
  : >"$tmp/rows"
  : >"$tmp/notes"
  wait_timeout=${WAIT_TIMEOUT:-$(scaled 300)}
  # An empty CONFIGS or COMPRESSIONS skips that table.
  local configs=${CONFIGS-"leveled leveled-dynamic universal fifo"}
  local compressions=${COMPRESSIONS-"lz4 lz4-from-l2 lz4-zstd2 zstd"}
  local rows1=() rows2=() c
  level_base=$((wbs * 4))
  for c in $configs; do
    case $c in
      leveled) tradeoff_row "$c" --compression_type=none --compaction_style=0 \
        --level_compaction_dynamic_level_bytes=false ;;
      leveled-dynamic) tradeoff_row "$c" --compression_type=none --compaction_style=0 \
        --level_compaction_dynamic_level_bytes=true ;;
      universal) tradeoff_row "$c" --compression_type=none --compaction_style=1 ;;
      fifo) tradeoff_row "$c" --compression_type=none --compaction_style=2 \
        --fifo_compaction_max_table_files_size_mb="$fifo_mb" ;;
      *)
        echo "bench_compare.sh: unknown configuration '$c' in CONFIGS" >&2
        exit 2
        ;;
    esac
    rows1+=("$c")
  done
  # Compressed, the data would fit one level of 4 * wbs: a level base of
  # wbs / 4 gives the dynamic tree two levels below level 0 (5 and 6), so
  # that the settings of the last two levels both matter.
  level_base=$((wbs / 4))
  for c in $compressions; do
    # Leveled with dynamic levels, so that the last two levels hold the data.
    local lv=(--compaction_style=0 --level_compaction_dynamic_level_bytes=true)
    case $c in
      lz4) tradeoff_row "$c" "${lv[@]}" --compression_type=lz4 ;;
      lz4-from-l2) tradeoff_row "$c" "${lv[@]}" --compression_type=lz4 --min_level_to_compress=2 ;;
      lz4-zstd2)
        ROCKSDB_SKIP[$c]="its db_bench has no per-level compression list (only --min_level_to_compress)"
        tradeoff_row "$c" "${lv[@]}" --compression_type=lz4 \
          --compression_per_level=none,none,lz4,lz4,lz4,zstd,zstd
        ;;
      zstd) tradeoff_row "$c" "${lv[@]}" --compression_type=zstd ;;
      *)
        echo "bench_compare.sh: unknown compression '$c' in COMPRESSIONS" >&2
        exit 2
        ;;
    esac
    rows2+=("$c")
  done

  local t1="" t2=""
  [ ${#rows1[@]} -eq 0 ] || t1=$(tradeoff_table "${rows1[@]}")
  [ ${#rows2[@]} -eq 0 ] || t2=$(tradeoff_table "${rows2[@]}")
  {
    echo
    echo "Trade-off: fillrandom of $writes random writes over $keys keys (key 16 B, value 100 B," \
      "WAL on, --bloom_bits=10, memtables and files of $wbs B, level base $((wbs * 4)) B" \
      "(compression table: $((wbs / 4)) B)," \
      "seed $seed), then one process each: flush is part of the fill; waitforcompaction;" \
      "readrandom --reads=$reads and seekrandom --reads=$seeks (seed $read_seed); compact." \
      "S = Strata, R = RocksDB 7.8.3."
    echo "Write amp = rocksdb.flush.write.bytes + rocksdb.compact.write.bytes over all processes" \
      "but compact / (writes * 116 B); space amp = *.sst bytes after waitforcompaction /" \
      "*.sst bytes after a full compaction; read amp = (rocksdb.bloom.filter.useful +" \
      "rocksdb.bloom.filter.full.positive) / rocksdb.number.keys.read over readrandom."
    if [ -n "$t1" ]; then
      echo
      echo "Compaction styles (no compression; FIFO keeps at most $fifo_mb MiB):"
      echo
      echo "$t1"
    fi
    if [ -n "$t2" ]; then
      echo
      echo "Compression, leveled with dynamic levels: lz4 everywhere; lz4 from level 2" \
        "(--min_level_to_compress=2); none,none,lz4,lz4,lz4,zstd,zstd" \
        "(--compression_per_level, Strata only); zstd everywhere:"
      echo
      echo "$t2"
    fi
  } | tee "${out:-/dev/null}"
}

if [ "$mode" = tradeoff ]; then
  tradeoff_mode
  exit 0
fi
# ---------------------------------------------------------------------------
# Scale mode (issue 19): a database of NUM (default 50M) keys, 16 B keys and
# 100 B values, lz4, WAL on, a 256 MiB block cache (about 1/12 of the data),
# 10-bit Bloom filters. Variants (VARIANTS, in this order by default):
#   strata         --cache_index_and_filter_blocks=1
#   strata-part    the same with --partition_index_and_filters=1
#   strata-budget  strata-part under --memory_budget=BUDGET (default 512 MiB;
#                  the budget's cache replaces the 256 MiB one)
#   leveldb        what LevelDB has: the cache and the filter (no lz4:
#                  snappy; index and filters live in its table cache)
#   rocksdb        --cache_index_and_filter_blocks=1
#   rocksdb-part   the same with --partition_index_and_filters=1
# Each variant: fillrandom (then waitforcompaction), and on that database,
# each in a new process, readrandom (READS, default 1M), seekrandom with
# --seek_nexts=10 (SEEKS, default 200k) and readwhilewriting (1 reader and
# its writer, READS reads). Rows: µs/op, p99 µs (--histogram), peak RSS of
# the process; the fill row also has write amplification (table bytes
# written by flushes and compactions / (NUM * 116 B)) and bytes on disk
# after the compactions settle.

# p99_of FILE: P99 of the first histogram db_bench printed.
p99_of() {
  sed -n 's/.*P99: \([0-9.]*\).*/\1/p' "$1" | head -n 1
}

# micros_op_of LINE FILE: the micros/op of report line LINE.
micros_op_of() {
  awk -v name="$1" '$1 == name && $2 == ":" { print $3; exit }' "$2"
}

scale_mode() {
  local reads=${READS:-1000000}
  local seeks=${SEEKS:-200000}
  local budget=${BUDGET:-536870912}
  local read_seed=$((seed + 1))
  local variants=(${VARIANTS:-strata strata-part strata-budget leveldb rocksdb rocksdb-part})
  local need_kb=$((num * 116 * 2 / 1024))
  local avail_kb
  avail_kb=$(df -Pk "$tmp" | awk 'NR == 2 { print $4 }')
  if [ -n "$avail_kb" ] && [ "$avail_kb" -lt "$need_kb" ]; then
    echo "bench_compare.sh: $((avail_kb / 1024)) MiB free under $tmp, about" \
      "$((need_kb / 1024)) MiB needed for NUM=$num" >&2
    exit 1
  fi
  local table="| variant | workload | µs/op | p99 µs | peak RSS MiB | write amp | bytes on disk |
|---|---|---:|---:|---:|---:|---:|"
  local v e flags w
  for v in "${variants[@]}"; do
    e=${v%%-*}
    [ -n "${binary[$e]:-}" ] || continue
    local common=(--key_size=16 --value_size=100 --cache_size=268435456 --bloom_bits=10
      --num="$num" --histogram=1)
    case $v in
      leveldb) common+=(--compression_type=snappy) ;;
      *) common+=(--compression_type=lz4 --cache_index_and_filter_blocks=1) ;;
    esac
    case $v in
      *-part) common+=(--partition_index_and_filters=1) ;;
      strata-budget) common+=(--partition_index_and_filters=1 --memory_budget="$budget") ;;
    esac
    mkdir -p "$tmp/$v"
    rm -rf "${tmp:?}/$v/db"
    echo "== $v: fillrandom --num=$num" >&2
    if ! run_lsm "$e" "scale.fillrandom" "$tmp/$v" "${common[@]}" --seed="$seed" \
      --benchmarks=fillrandom,waitforcompaction,stats --statistics=1; then
      table+="
| $v | fillrandom | failed | | | | |"
      continue
    fi
    local bytes amp disk
    bytes=$(table_bytes_of "$e" "$tmp/out")
    amp=n/a
    [ -n "$bytes" ] && amp=$(awk -v b="$bytes" -v n="$num" 'BEGIN { printf "%.2f", b / (n * 116) }')
    disk=$(du -sb "$tmp/$v/db" | awk '{ print $1 }')
    table+="
| $v | fillrandom | $(micros_op_of fillrandom "$tmp/out") | $(p99_of "$tmp/out") | $(peak_rss_mb "$tmp/time") | $amp | $disk |"
    for w in readrandom seekrandom readwhilewriting; do
      local extra=(--reads="$reads")
      [ "$w" = seekrandom ] && extra=(--reads="$seeks" --seek_nexts=10)
      [ "$w" = readwhilewriting ] && extra+=(--threads=1)
      echo "== $v: $w" >&2
      if run_lsm "$e" "scale.$w" "$tmp/$v" "${common[@]}" --seed="$read_seed" \
        --use_existing_db=1 --benchmarks="$w" "${extra[@]}"; then
        table+="
| $v | $w | $(micros_op_of "$w" "$tmp/out") | $(p99_of "$tmp/out") | $(peak_rss_mb "$tmp/time") | | |"
      else
        table+="
| $v | $w | failed | | | | |"
      fi
    done
    rm -rf "${tmp:?}/$v"
  done
  echo
  echo "db_bench scale: num=$num, reads=$reads, seeks=$seeks (10 nexts), seed=$seed" \
    "(reads: $read_seed); key 16 B, value 100 B, lz4 (LevelDB: snappy), WAL on," \
    "--cache_size=268435456 --bloom_bits=10, strata-budget: --memory_budget=$budget ${EXTRA_FLAGS:-}"
  echo
  echo "$table"
  if [ -n "$out" ]; then printf '%s\n' "$table" >"$out"; fi
}

if [ "$mode" = scale ]; then
  scale_mode
  exit 0
fi
if [ "$mode" = lsm ]; then
  lsm_mode
  exit 0
fi
if [ "$mode" = mixed ]; then
  mixed_mode
  exit 0
fi
if [ "$mode" = ops ]; then
  ops_mode
  exit 0
fi

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
