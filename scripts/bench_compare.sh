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
#   MODE=default|lsm|ops|mixed  which set of workloads (lsm, ops, mixed:
#                     see below)
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
set -euo pipefail

if [ $# -ne 1 ]; then
  echo "usage: $0 BUILD_DIR" >&2
  exit 2
fi
build=$1
mode=${MODE:-default}
if [ "${LSM:-0}" = 1 ]; then mode=lsm; fi
case "$mode" in
  default | lsm | ops | mixed) ;;
  *)
    echo "bench_compare.sh: MODE must be default, lsm, ops or mixed" >&2
    exit 2
    ;;
esac
if [ "$mode" = lsm ] || [ "$mode" = ops ]; then
  rounds=${ROUNDS:-1}
  num=${NUM:-5000000}
elif [ "$mode" = mixed ]; then
  rounds=${ROUNDS:-1}
  num=${NUM:-1000000}
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
