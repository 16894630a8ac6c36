#!/usr/bin/env bash
# Smoke test of the strata command-line tool's own commands and repair: a DB
# made by db_bench is verified, counted, repaired after its CURRENT and
# MANIFEST are removed, and counted again with the same result. Damage to
# a table or to a WAL is reported with a non-zero exit and verify changes
# nothing in the directory. count takes --merge_operator.
# usage: test-strata-tool.sh <build-dir>
set -euo pipefail
build=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
db=$dir/db
strata=$build/strata
fingerprint() { (cd "$1" && find . -type f -print0 | sort -z | xargs -0 sha256sum); }

"$build/db_bench" --benchmarks=fillrandom --num=20000 --db="$db" --write_buffer_size=262144 \
  --compression_type=none >/dev/null 2>&1
"$strata" verify "$db"        # the old form
"$strata" verify --db="$db"   # ldb's form
before=$("$strata" count --db="$db")
echo "before repair: $before"
[ "$("$strata" count "$db")" = "$before" ] || { echo "FAIL: count DIR differs" >&2; exit 1; }
"$strata" list_column_families --db="$db" | grep -qx '{default}'
rm -f "$db/CURRENT" "$db"/MANIFEST-*
if "$strata" count --db="$db" 2>/dev/null; then
  echo "FAIL: a DB without CURRENT opened" >&2
  exit 1
fi
"$strata" --db="$db" repair
after=$("$strata" count --db="$db")
echo "after repair: $after"
[ "$before" = "$after" ] || { echo "FAIL: counts differ" >&2; exit 1; }
"$strata" verify --db="$db"

# Flip a byte in the middle of the largest table: verify must name it.
sst=$(ls -S "$db"/*.sst | head -1)
size=$(stat -c %s "$sst")
printf '\xff' | dd of="$sst" bs=1 seek=$((size / 3)) conv=notrunc status=none
if out=$("$strata" verify --db="$db" 2>&1); then
  echo "FAIL: verify missed a damaged table: $out" >&2
  exit 1
fi
echo "$out" | grep -q "$(basename "$sst")" || { echo "FAIL: error does not name the file: $out" >&2; exit 1; }
echo "damaged table reported: $out"

# Unflushed data in a WAL with a damaged record: verify fails, names the
# WAL and leaves every file as it was (it used to replay, flush and delete
# the WAL, then print OK).
wdb=$dir/waldb
"$strata" --db="$wdb" --create_if_missing put a 1 >/dev/null
"$strata" --db="$wdb" batchput b 2 c 3 d 4 >/dev/null
wal=$(ls "$wdb"/*.log | tail -1)
[ "$(stat -c %s "$wal")" -gt 20 ] || { echo "FAIL: no unflushed WAL data to damage" >&2; exit 1; }
printf 'X' | dd of="$wal" bs=1 seek=$(($(stat -c %s "$wal") - 1)) conv=notrunc status=none
fp=$(fingerprint "$wdb")
if out=$("$strata" verify --db="$wdb" 2>&1); then
  echo "FAIL: verify missed a damaged WAL: $out" >&2
  exit 1
fi
echo "$out" | grep -q "$(basename "$wal")" || { echo "FAIL: error does not name the WAL: $out" >&2; exit 1; }
[ "$(fingerprint "$wdb")" = "$fp" ] || { echo "FAIL: verify changed the DB" >&2; exit 1; }
echo "damaged WAL reported: $out"

# Merge operands: count with the DB's merge operator; an unknown name fails.
mdb=$dir/mergedb
"$build/db_bench" --benchmarks=mergerandom --num=2000 --merge_operator=uint64add --value_size=8 \
  --db="$mdb" >/dev/null 2>&1
"$strata" count --db="$mdb" --merge_operator=uint64add | grep -q '^default: [1-9][0-9]* keys$'
"$strata" verify --db="$mdb" --merge_operator=uint64add
if out=$("$strata" count --db="$mdb" --merge_operator=nosuch 2>&1); then
  echo "FAIL: an unknown merge operator was accepted" >&2
  exit 1
fi
echo "$out" | grep -q "nosuch" || { echo "FAIL: error does not name the operator: $out" >&2; exit 1; }

# --try_load_options (on by default): the OPTIONS file's merge operator is
# used; one strata lacks fails naming it unless --ignore_unknown_options.
odb=$dir/optdb
"$strata" --db="$odb" --create_if_missing put a 1 >/dev/null
opt=$(ls "$odb"/OPTIONS-* | tail -1)
sed -i 's/^\(  comparator=.*\)$/\1\n  merge_operator={id=NoSuchOperator;}/' "$opt"
grep -q NoSuchOperator "$opt"
if out=$("$strata" --db="$odb" scan 2>&1); then
  echo "FAIL: an unknown merge operator in OPTIONS was accepted: $out" >&2
  exit 1
fi
echo "$out" | grep -q NoSuchOperator || { echo "FAIL: error does not name it: $out" >&2; exit 1; }
[ "$("$strata" --db="$odb" --ignore_unknown_options scan)" = "a : 1" ]
[ "$("$strata" --db="$odb" --try_load_options=false scan)" = "a : 1" ]

# reduce_levels: a DB with files on several levels ends with all of them on
# level 1, the same keys, and a MANIFEST RocksDB's ldb reads too.
ldb_db=$dir/levels
"$build/db_bench" --benchmarks=fillrandom --num=60000 --db="$ldb_db" --write_buffer_size=65536 \
  --target_file_size_base=65536 --max_bytes_for_level_base=131072 --compression_type=none \
  >/dev/null 2>&1
keys=$("$strata" count --db="$ldb_db")
out=$("$strata" --db="$ldb_db" reduce_levels --new_levels=2 --print_old_levels)
echo "$out" | grep -q "The old number of levels in use is [3-9]" || { echo "FAIL: $out" >&2; exit 1; }
[ "$("$strata" count --db="$ldb_db")" = "$keys" ] || { echo "FAIL: reduce_levels lost keys" >&2; exit 1; }
[ "$("$strata" --db="$ldb_db" reduce_levels --new_levels=2 --print_old_levels)" = \
  "The old number of levels in use is 2" ] || { echo "FAIL: levels not reduced" >&2; exit 1; }
"$strata" verify --db="$ldb_db"
# wal_dir (issue 19): the WAL-only writes are found through --wal_dir and,
# without it, through the OPTIONS file's wal_dir (as RocksDB's ldb).
wdb=$dir/waldb
wals=$dir/wals
"$build/db_bench" --benchmarks=fillseq --num=5000 --db="$wdb" --wal_dir="$wals" \
  --write_buffer_size=67108864 --compression_type=none >/dev/null 2>&1
ls "$wals"/*.log >/dev/null
[ "$("$strata" count --db="$wdb" --wal_dir="$wals")" = "default: 5000 keys" ] ||
  { echo "FAIL: --wal_dir did not find the WAL" >&2; exit 1; }
[ "$("$strata" count --db="$wdb")" = "default: 5000 keys" ] ||
  { echo "FAIL: the OPTIONS file's wal_dir was not used" >&2; exit 1; }
live=$("$strata" dump_live_files --db="$wdb")
grep -q "^$wals/[0-9]*\.log$" <<<"$live" ||
  { echo "FAIL: dump_live_files did not list the WAL in wal_dir: ${live:0:500}" >&2; exit 1; }

echo "PASS"
