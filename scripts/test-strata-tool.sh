#!/usr/bin/env bash
# Smoke test of the strata command-line tool: a DB made by db_bench is
# verified, counted, repaired after its CURRENT and MANIFEST are removed,
# and counted again with the same result. Damage to a table is reported.
# usage: test-strata-tool.sh <build-dir>
set -euo pipefail
build=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
db=$dir/db
"$build/db_bench" --benchmarks=fillrandom --num=20000 --db="$db" --write_buffer_size=262144 \
  --compression_type=none >/dev/null 2>&1
"$build/strata" verify "$db"
before=$("$build/strata" count "$db")
echo "before repair: $before"
"$build/strata" list_column_families "$db" | grep -qx default
rm -f "$db/CURRENT" "$db"/MANIFEST-*
if "$build/strata" count "$db" 2>/dev/null; then
  echo "FAIL: a DB without CURRENT opened" >&2
  exit 1
fi
"$build/strata" repair "$db"
after=$("$build/strata" count "$db")
echo "after repair: $after"
[ "$before" = "$after" ] || { echo "FAIL: counts differ" >&2; exit 1; }
"$build/strata" verify "$db"
# Flip a byte in the middle of the largest table: verify must name it.
sst=$(ls -S "$db"/*.sst | head -1)
size=$(stat -c %s "$sst")
printf '\xff' | dd of="$sst" bs=1 seek=$((size / 3)) conv=notrunc status=none
if out=$("$build/strata" verify "$db" 2>&1); then
  echo "FAIL: verify missed a damaged table: $out" >&2
  exit 1
fi
echo "$out" | grep -q "$(basename "$sst")" || { echo "FAIL: error does not name the file: $out" >&2; exit 1; }
echo "damaged table reported: $out"
echo "PASS"
