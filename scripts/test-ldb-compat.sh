#!/usr/bin/env bash
# Compares `strata` with RocksDB's own ldb (/usr/bin/ldb, RocksDB 7.8.3) on
# the same database. The database is made by ldb: two column families,
# tables from compactions and a range deletion, then unflushed WAL data
# written last (one `query` session, which ldb does not flush). Every case
# runs one command line on a fresh copy with ldb and on another fresh copy
# (at the same path) with strata and requires the same stdout and exit
# status. Nothing is normalized: both copies live at the same path, so
# paths in the output agree, and read commands see the same files.
# (stderr is not compared: Status texts differ, see docs/tools/ldb.md.)
# After every read command the copy strata read must be byte-identical
# (every file name and content) to the original. After every write command
# ldb's `scan` of both copies must agree (strata's writes read back by
# RocksDB).
# usage: test-ldb-compat.sh <build-dir>; exits 77 (skipped) without ldb.
set -uo pipefail
ldb=${LDB:-/usr/bin/ldb}
if [ ! -x "$ldb" ]; then
  echo "SKIP: $ldb not found"
  exit 77
fi
strata=$(cd "$1" && pwd)/strata
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
base=$work/base
db=$work/db
failures=0

# ---- the database, made by RocksDB ----
mk() { "$ldb" --db="$base" "$@" >/dev/null || { echo "setup failed: ldb $*" >&2; exit 1; }; }
mk --create_if_missing put a 1
mk create_column_family cf2
args=()
for i in $(seq -w 1 200); do args+=("key$i" "value$i-$RANDOM$RANDOM"); done
mk batchput "${args[@]}"
mk compact
args=()
for i in $(seq -w 1 60); do args+=("cf2key$i" "cf2value$i"); done
mk --column_family=cf2 batchput "${args[@]}"
mk --column_family=cf2 compact
mk --hex put 0x00FF01 0xABCDEF
mk deleterange key050 key060
mk --column_family=cf2 put zz last
# Written last, stays in the WAL only.
printf 'put w1 v1\nput key100 newer\ndelete key101\nput w2 v2\n' |
  "$ldb" --db="$base" query >/dev/null

fingerprint() { (cd "$1" && find . -print0 | sort -z | xargs -0 sha256sum 2>/dev/null; find . | sort); }
before=$(fingerprint "$base")

fresh() { rm -rf "$db" "$work/cp" && cp -a "$base" "$db"; }
mkdir -p "$work/cpexists"

# run_case KIND ARGS...: KIND is read or write; ARGS after the tool name.
# stdin for query/load comes from $CASE_INPUT.
run_case() {
  local kind=$1
  shift
  local line="$*"
  fresh
  "$ldb" "$@" <<<"${CASE_INPUT:-}" >"$work/ldb.out" 2>"$work/ldb.err"
  local lrc=$?
  if [ "$kind" = write ]; then "$ldb" --db="$db" scan >"$work/ldb.scan" 2>&1; fi
  fresh
  "$strata" "$@" <<<"${CASE_INPUT:-}" >"$work/strata.out" 2>"$work/strata.err"
  local src=$?
  if [ "$kind" = write ]; then
    "$ldb" --db="$db" scan >"$work/strata.scan" 2>&1
    if ! cmp -s "$work/ldb.scan" "$work/strata.scan"; then
      echo "FAIL (scan after write): $line"
      diff "$work/ldb.scan" "$work/strata.scan" | head -5
      failures=$((failures + 1))
    fi
  else
    if [ "$(fingerprint "$db")" != "$before" ]; then
      echo "FAIL (strata changed the DB): $line"
      failures=$((failures + 1))
    fi
  fi
  if [ $lrc -ne $src ] || ! cmp -s "$work/ldb.out" "$work/strata.out"; then
    echo "FAIL: $line (exit ldb $lrc, strata $src)"
    diff "$work/ldb.out" "$work/strata.out" | head -8
    head -3 "$work/strata.err"
    failures=$((failures + 1))
  else
    echo "ok: $line (exit $src)"
  fi
}
D=--db=$db

# ---- read commands ----
run_case read $D scan
run_case read $D scan --hex
run_case read $D scan --key_hex --no_value
run_case read $D scan --value_hex --from=key010 --to=key020
run_case read $D scan --max_keys=7 --from=key1
run_case read $D scan --max_keys=abc
run_case read $D --column_family=cf2 scan
run_case read $D --column_family=nope scan
run_case read $D scan --timestamp
run_case read $D dump
run_case read $D dump --hex --from=0x6B6579313930
run_case read $D dump --max_keys=5 --to=key003
run_case read $D dump --count_only
run_case read $D dump --count_delim=0
run_case read $D --column_family=cf2 dump --count_delim
run_case read $D get a
run_case read $D get key100
run_case read $D get key101
run_case read $D get key055
run_case read $D --hex get 0x00FF01
run_case read $D --value_hex get a
run_case read $D --column_family=cf2 get zz
run_case read $D get
run_case read $D idump
run_case read $D idump --hex --max_keys=10
run_case read $D idump --from=key040 --to=key070
run_case read $D idump --count_only
run_case read $D --column_family=cf2 idump --input_key_hex --from=0x6366326B6579303130
run_case read $D list_column_families
run_case read $D manifest_dump
run_case read $D manifest_dump --hex
run_case read $D manifest_dump --verbose
run_case read $D manifest_dump --verbose --hex
run_case read $D manifest_dump --json
run_case read $D manifest_dump --path="$db/$(basename "$(ls "$base"/MANIFEST-*)")"
run_case read $D dump_live_files
run_case read $D --column_family=cf2 list_file_range_deletes
run_case read $D list_live_files_metadata
run_case read $D list_live_files_metadata --sort_by_filename
run_case read $D checkconsistency
run_case read $D get_property rocksdb.num-files-at-level0
run_case read $D --column_family=cf2 get_property rocksdb.num-files-at-level1
run_case read $D get_property rocksdb.no-such-property
run_case read $D list_file_range_deletes
run_case read $D list_file_range_deletes --max_keys=1
run_case read $D approxsize --from=a --to=zzzz
run_case read $D approxsize --from=key001
wal=$(ls "$base"/*.log | head -1)
run_case read dump_wal --walfile="$db/$(basename "$wal")"
run_case read dump_wal --walfile="$db/$(basename "$wal")" --header --print_value
run_case read dump_wal
run_case read $D scan --bogus_flag
run_case read $D scan --bogus_option=1
run_case read scan
run_case read --db="$work/missing" scan
# ---- write commands ----
run_case write $D put newkey newvalue
run_case write $D --hex put 0x0102 0x0304
run_case write $D put onlykey
run_case write $D --column_family=cf2 put cf2new v
run_case write $D batchput b1 v1 b2 v2
run_case write $D batchput b1
run_case write $D delete key001
run_case write $D singledelete key002
run_case write $D deleterange key100 key150
run_case write $D create_column_family cf3
run_case write $D drop_column_family cf2
run_case write $D drop_column_family nope
run_case write $D compact
run_case write $D compact --from=key010 --to=key020
CASE_INPUT=$'put q1 v1\nget q1\nget nope\ndelete a\nhelp\nbogus' run_case write $D query
CASE_INPUT=$'l1 ==> v1\nl2 ==> v2\nnot a pair\nKeys in range: 2' run_case write $D load
run_case write --db="$work/newdb" --create_if_missing put k v
run_case write $D repair
run_case write $D reduce_levels --new_levels=3 --print_old_levels
run_case write $D reduce_levels --new_levels=1
run_case write $D reduce_levels
# Level to universal: everything compacted into one level-0 file (the
# other pairs fail with ldb's messages, exit 1 and no output).
CCS="change_compaction_style --old_compaction_style=0 --new_compaction_style=1"
run_case write $D $CCS
run_case write $D --column_family=cf2 $CCS
run_case write $D change_compaction_style --old_compaction_style=1 --new_compaction_style=0
run_case write $D change_compaction_style --old_compaction_style=0 --new_compaction_style=0
run_case write $D change_compaction_style --old_compaction_style=2 --new_compaction_style=1
run_case write $D change_compaction_style --old_compaction_style=0 --new_compaction_style=3
run_case write $D change_compaction_style --new_compaction_style=1
run_case write $D change_compaction_style --old_compaction_style=x --new_compaction_style=1
# The DB strata changed: ldb's checkconsistency passes and its MANIFEST
# holds the default family's data in one level-0 file, as ldb's does.
files_per_level() {
  "$ldb" --db="$1" manifest_dump 2>/dev/null |
    awk '/Column family/ {cf = $4} /^--- level/ {lvl = cf "/L" $3}
         /^ *[0-9]+:[0-9]+\[/ {n[lvl]++} END {for (l in n) print l ":" n[l]}' | sort | tr '\n' ' '
}
fresh
"$ldb" --db="$db" $CCS >/dev/null 2>&1
ldb_levels=$(files_per_level "$db")
fresh
"$strata" --db="$db" $CCS >/dev/null 2>&1
strata_levels=$(files_per_level "$db")
if "$ldb" --db="$db" checkconsistency >/dev/null 2>&1 && [ "$ldb_levels" = "$strata_levels" ]; then
  echo "ok: ldb checkconsistency after strata's $CCS; files per level $strata_levels"
else
  echo "FAIL: after strata's $CCS: checkconsistency or levels differ (ldb: $ldb_levels, strata: $strata_levels)"
  failures=$((failures + 1))
fi
# External files (docs/design/ingestion.md): a table RocksDB wrote, over
# keys the WAL holds too (a flush, then a global seqno written into it).
for i in $(seq -w 095 105); do echo "key$i ==> ext$i"; done |
  "$ldb" --db="$work/extscratch" --create_if_missing write_extern_sst "$work/ext.sst" 2>/dev/null
run_case write $D ingest_extern_sst "$work/ext.sst"
run_case write $D ingest_extern_sst "$work/ext.sst" --write_global_seqno=false
run_case write $D ingest_extern_sst "$work/ext.sst" --allow_blocking_flush=false
run_case write $D ingest_extern_sst "$work/ext.sst" --allow_global_seqno=false --write_global_seqno=false
run_case write $D --column_family=cf2 ingest_extern_sst "$work/ext.sst"
run_case write $D ingest_extern_sst "$work/missing.sst"
run_case write $D ingest_extern_sst
CASE_INPUT=$'x1 ==> v1\nx2 ==> v2\nnot a pair' run_case write $D write_extern_sst "$work/out.sst"
run_case write $D write_extern_sst
run_case write $D checkpoint --checkpoint_dir="$work/cp"
run_case write $D checkpoint --checkpoint_dir="$work/cpexists"
run_case write $D checkpoint
# A checkpoint made by strata reads in ldb as the DB it was taken of.
fresh
"$strata" --db="$db" checkpoint --checkpoint_dir="$work/cp" >/dev/null 2>&1
if ! cmp -s <("$ldb" --db="$db" scan 2>&1) <("$ldb" --db="$work/cp" scan 2>&1); then
  echo "FAIL: ldb scan of strata's checkpoint differs from the DB's"
  failures=$((failures + 1))
else
  echo "ok: ldb scans strata's checkpoint"
fi

# change_compaction_style on a DB whose data is all deleted: level 0 ends
# empty, which both report as a failure after the "before" line.
empty=$work/emptydb
"$ldb" --db="$empty" --create_if_missing put a 1 >/dev/null 2>&1
"$ldb" --db="$empty" delete a >/dev/null 2>&1
"$ldb" --db="$empty" compact >/dev/null 2>&1
outs=()
for tool in "$ldb" "$strata"; do
  rm -rf "$db" && cp -a "$empty" "$db"
  out=$("$tool" --db="$db" $CCS 2>/dev/null)
  outs+=("$? $out")
done
if [ "${outs[0]}" = "${outs[1]}" ]; then
  echo "ok: $CCS on an emptied DB (exit ${outs[1]%% *})"
else
  echo "FAIL: $CCS on an emptied DB: ldb '${outs[0]}', strata '${outs[1]}'"
  failures=$((failures + 1))
fi

if [ "$(fingerprint "$base")" != "$before" ]; then
  echo "FAIL: the original changed" >&2
  failures=$((failures + 1))
fi
if [ $failures -ne 0 ]; then
  echo "$failures case(s) differ" >&2
  exit 1
fi
echo PASS
