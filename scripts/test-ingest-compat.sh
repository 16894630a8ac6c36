#!/usr/bin/env bash
# External-file interop between `strata` and RocksDB 7.8.3's ldb
# (/usr/bin/ldb), both directions:
#  1. a table written by `ldb write_extern_sst` ingests into a Strata DB
#     with `strata ingest_extern_sst` (over an overlapping memtable, so a
#     global sequence number is assigned and written); `strata scan` shows
#     the keys, newest value winning;
#  2. a table written by `strata write_extern_sst` ingests into a RocksDB DB
#     with `ldb ingest_extern_sst`; `ldb scan` shows every key;
#  3. the Strata DB of step 1 (its ingested file carrying a written global
#     sequence number) opens in ldb: `ldb scan` equals `strata scan`;
#  4. the RocksDB DB of step 2 (a global seqno written by RocksDB) opens in
#     strata: `strata scan` equals `ldb scan`.
# Output of both tools' success messages is compared too.
# usage: test-ingest-compat.sh <build-dir>; exits 77 (skipped) without ldb.
set -uo pipefail
ldb=${LDB:-/usr/bin/ldb}
if [ ! -x "$ldb" ]; then
  echo "SKIP: $ldb not found"
  exit 77
fi
strata=$(cd "$1" && pwd)/strata
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}
expect_same() {  # name file1 file2
  if ! cmp -s "$2" "$3"; then
    fail "$1"
    diff "$2" "$3" | head -20
  else
    echo "ok: $1"
  fi
}

# Input in dump's format; keys sorted.
for i in $(seq -w 1 300); do echo "key$i ==> fromfile$i"; done >"$work/input.txt"

# ---- 1. RocksDB's table into Strata ----
"$ldb" --db="$work/rscratch" --create_if_missing write_extern_sst "$work/rocks.sst" \
  <"$work/input.txt" 2>"$work/ldb_write.err" || fail "ldb write_extern_sst"
"$strata" --db="$work/sdb" --create_if_missing put key005 old >/dev/null || fail "strata put"
"$strata" --db="$work/sdb" put zzz last >/dev/null || fail "strata put"
"$strata" --db="$work/sdb" ingest_extern_sst "$work/rocks.sst" 2>"$work/strata_ingest.err" ||
  fail "strata ingest_extern_sst: $(cat "$work/strata_ingest.err")"
echo "external SST files ingested" >"$work/want_ingest.err"
expect_same "strata ingest_extern_sst message" "$work/want_ingest.err" "$work/strata_ingest.err"
"$strata" --db="$work/sdb" scan >"$work/strata_scan1.txt" || fail "strata scan"
{
  for i in $(seq -w 1 300); do echo "key$i : fromfile$i"; done
  echo "zzz : last"
} >"$work/want_scan1.txt"
expect_same "strata sees RocksDB's table" "$work/want_scan1.txt" "$work/strata_scan1.txt"

# ---- 3. the Strata DB in RocksDB's ldb ----
"$ldb" --db="$work/sdb" scan >"$work/ldb_scan_sdb.txt" 2>"$work/ldb_scan_sdb.err" ||
  fail "ldb scan of the Strata DB: $(cat "$work/ldb_scan_sdb.err")"
expect_same "ldb reads the Strata DB with the ingested file" "$work/want_scan1.txt" "$work/ldb_scan_sdb.txt"

# ---- 2. Strata's table into RocksDB ----
"$strata" --db="$work/sscratch" --create_if_missing write_extern_sst "$work/strata.sst" \
  <"$work/input.txt" 2>"$work/strata_write.err" || fail "strata write_extern_sst"
echo "external SST file written to $work/strata.sst" >"$work/want_write.err"
expect_same "strata write_extern_sst message" "$work/want_write.err" "$work/strata_write.err"
"$ldb" --db="$work/rdb" --create_if_missing put key100 old >/dev/null || fail "ldb put"
"$ldb" --db="$work/rdb" ingest_extern_sst "$work/strata.sst" 2>"$work/ldb_ingest.err" ||
  fail "ldb ingest_extern_sst: $(cat "$work/ldb_ingest.err")"
"$ldb" --db="$work/rdb" scan >"$work/ldb_scan2.txt" || fail "ldb scan"
for i in $(seq -w 1 300); do echo "key$i : fromfile$i"; done >"$work/want_scan2.txt"
expect_same "RocksDB sees Strata's table" "$work/want_scan2.txt" "$work/ldb_scan2.txt"

# ---- 4. the RocksDB DB (global seqno written by RocksDB) in strata ----
"$strata" --db="$work/rdb" scan >"$work/strata_scan_rdb.txt" 2>"$work/strata_scan_rdb.err" ||
  fail "strata scan of the RocksDB DB: $(cat "$work/strata_scan_rdb.err")"
expect_same "strata reads RocksDB's ingested file" "$work/want_scan2.txt" "$work/strata_scan_rdb.txt"

# ---- refusals word for word ----
"$strata" --db="$work/sdb" ingest_extern_sst 2>"$work/s.err"
s_rc=$?
"$ldb" --db="$work/rdb" ingest_extern_sst 2>"$work/r.err"
r_rc=$?
[ "$s_rc" = "$r_rc" ] || fail "exit status without a path: strata $s_rc, ldb $r_rc"
expect_same "message without a path" "$work/r.err" "$work/s.err"
"$strata" --db="$work/sdb" ingest_extern_sst "$work/rocks.sst" --allow_global_seqno=false 2>"$work/s.err"
s_rc=$?
"$ldb" --db="$work/rdb" ingest_extern_sst "$work/rocks.sst" --allow_global_seqno=false 2>"$work/r.err"
r_rc=$?
[ "$s_rc" = "$r_rc" ] || fail "exit status of --allow_global_seqno=false: strata $s_rc, ldb $r_rc"
expect_same "message of --allow_global_seqno=false" "$work/r.err" "$work/s.err"

if [ "$failures" -ne 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "all ingestion interop checks passed"
