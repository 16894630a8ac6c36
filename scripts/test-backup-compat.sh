#!/usr/bin/env bash
# Backups move between Strata and RocksDB 7.8.3 (/usr/bin/ldb): each side
# restores the other's backups, several incremental ones included, and a
# backup directory written by both in turn stays valid for both.
#  1. RocksDB DB (db_bench fillrandom + ldb puts), two `ldb backup`s with
#     writes between them; `strata restore` of each (the older one from a
#     copy without the newer meta file) scans like the DB did at that time.
#  2. Strata DB (strata batchput, compact, unflushed puts), two `strata
#     backup`s; `ldb restore` of each scans like the DB did; the second
#     backup copied only the new table files.
#  3. The Strata DB backed up by ldb into Strata's backup directory, then by
#     strata again: both restore the newest; ldb opens Strata's meta files.
#  4. A DB with two column families backed up by each, restored by the other.
# usage: test-backup-compat.sh <build-dir>; exits 77 (skipped) without ldb.
set -uo pipefail
ldb=${LDB:-/usr/bin/ldb}
db_bench=${ROCKSDB_DB_BENCH:-/usr/bin/db_bench}
if [ ! -x "$ldb" ] || [ ! -x "$db_bench" ]; then
  echo "SKIP: $ldb or $db_bench not found"
  exit 77
fi
strata=$(cd "$1" && pwd)/strata
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
run() { "$@" >"$work/out" 2>&1 || { fail "$* -> $(cat "$work/out")"; return 1; }; }
scan() { "$1" scan --db="$2" 2>/dev/null; }
# same_scan TOOL DB EXPECTED_FILE WHAT
same_scan() {
  scan "$1" "$2" >"$work/got"
  if ! cmp -s "$work/got" "$3"; then
    fail "$4: $(basename "$1") scan differs ($(wc -l <"$work/got") vs $(wc -l <"$3") lines)"
  elif [ ! -s "$3" ]; then
    fail "$4: expected scan is empty"
  fi
}
# restore_from TOOL BACKUP_DIR KEEP_ID DB: restores backup KEEP_ID (the
# tools restore the newest, so newer meta files are left out of a copy).
restore_from() {
  local tool=$1 dir=$2 id=$3 dst=$4
  rm -rf "$work/bcopy" "$dst" && cp -a "$dir" "$work/bcopy"
  for m in "$work/bcopy"/meta/*; do
    [ "$(basename "$m")" -gt "$id" ] && rm -f "$m"
  done
  run "$tool" restore --backup_dir="$work/bcopy" --db="$dst"
}

# ---- 1. RocksDB's backups, restored by strata ----
rdb=$work/rdb
rbk=$work/rbk
"$db_bench" --benchmarks=fillrandom --num=20000 --db="$rdb" --compression_type=none \
  >/dev/null 2>&1 || { echo "db_bench failed"; exit 1; }
run "$ldb" backup --db="$rdb" --backup_dir="$rbk"
scan "$ldb" "$rdb" >"$work/r1.scan"
for i in $(seq 1 30); do "$ldb" --db="$rdb" put "rk$i" "rv$i" >/dev/null; done
"$ldb" --db="$rdb" delete rk3 >/dev/null
run "$ldb" backup --db="$rdb" --backup_dir="$rbk"
scan "$ldb" "$rdb" >"$work/r2.scan"
[ "$(ls "$rbk/meta" | wc -l)" = 2 ] || fail "ldb made $(ls "$rbk/meta" | wc -l) backups, not 2"
run "$strata" restore --backup_dir="$rbk" --db="$work/s_r2" &&
  grep -q "restore from backup OK" "$work/out" || fail "strata restore output: $(cat "$work/out")"
same_scan "$strata" "$work/s_r2" "$work/r2.scan" "rocksdb backup 2 restored by strata"
restore_from "$strata" "$rbk" 1 "$work/s_r1"
same_scan "$strata" "$work/s_r1" "$work/r1.scan" "rocksdb backup 1 restored by strata"

# ---- 2. Strata's backups, restored by RocksDB ----
sdb=$work/sdb
sbk=$work/sbk
args=()
for i in $(seq -w 1 3000); do args+=("key$i" "value$i-$RANDOM$RANDOM$RANDOM"); done
run "$strata" --db="$sdb" --create_if_missing batchput "${args[@]}"
run "$strata" --db="$sdb" compact
run "$strata" --db="$sdb" put unflushed1 v1
run "$strata" backup --db="$sdb" --backup_dir="$sbk" &&
  [ "$(cat "$work/out")" = "$(printf 'open db OK\nopen backup engine OK\ncreate new backup OK')" ] ||
  fail "strata backup output: $(cat "$work/out")"
scan "$strata" "$sdb" >"$work/s1.scan"
shared_before=$(ls "$sbk/shared_checksum" 2>/dev/null | wc -l)
args=()
for i in $(seq -w 1 500); do args+=("new$i" "nv$i"); done
run "$strata" --db="$sdb" batchput "${args[@]}"
run "$strata" --db="$sdb" delete key0007
run "$strata" backup --db="$sdb" --backup_dir="$sbk" --num_threads=2
scan "$strata" "$sdb" >"$work/s2.scan"
shared_after=$(ls "$sbk/shared_checksum" 2>/dev/null | wc -l)
[ "$shared_before" -ge 1 ] || fail "strata backup 1 has no shared table file"
[ "$shared_after" -ge "$shared_before" ] || fail "shared files went from $shared_before to $shared_after"
# Every shared file of backup 1 is still named by backup 2 or kept for 1.
for f in $(grep -o '^shared_checksum/[^ ]*' "$sbk/meta/1"); do
  [ -f "$sbk/$f" ] || fail "backup 1's $f is gone after backup 2"
done
restore_from "$ldb" "$sbk" 2 "$work/r_s2"
same_scan "$ldb" "$work/r_s2" "$work/s2.scan" "strata backup 2 restored by ldb"
restore_from "$ldb" "$sbk" 1 "$work/r_s1"
same_scan "$ldb" "$work/r_s1" "$work/s1.scan" "strata backup 1 restored by ldb"

# ---- 3. one backup directory, both writers ----
run "$strata" --db="$sdb" put mixed1 m1
run "$ldb" backup --db="$sdb" --backup_dir="$sbk"
run "$strata" --db="$sdb" put mixed2 m2
run "$strata" backup --db="$sdb" --backup_dir="$sbk"
scan "$strata" "$sdb" >"$work/s4.scan"
[ "$(ls "$sbk/meta" | wc -l)" = 4 ] || fail "mixed backup dir has $(ls "$sbk/meta" | wc -l) backups, not 4"
rm -rf "$work/m_r" "$work/m_s"
run "$ldb" restore --backup_dir="$sbk" --db="$work/m_r"
same_scan "$ldb" "$work/m_r" "$work/s4.scan" "mixed backup 4 restored by ldb"
run "$strata" restore --backup_dir="$sbk" --db="$work/m_s"
same_scan "$strata" "$work/m_s" "$work/s4.scan" "mixed backup 4 restored by strata"

# ---- 4. two column families, each way ----
for maker in ldb strata; do
  if [ "$maker" = ldb ]; then mt=$ldb; other=$strata; else mt=$strata; other=$ldb; fi
  cdb=$work/cf_$maker
  cbk=$work/cfbk_$maker
  run "$mt" --db="$cdb" --create_if_missing put a 1
  run "$mt" --db="$cdb" create_column_family cf2
  args=()
  for i in $(seq -w 1 300); do args+=("c$i" "v$i"); done
  run "$mt" --db="$cdb" --column_family=cf2 batchput "${args[@]}"
  run "$mt" --db="$cdb" --column_family=cf2 compact
  run "$mt" --db="$cdb" --column_family=cf2 put unflushed u
  run "$mt" backup --db="$cdb" --backup_dir="$cbk"
  "$mt" --db="$cdb" --column_family=cf2 scan >"$work/cf.scan" 2>/dev/null
  rm -rf "$work/cf_r"
  run "$other" restore --backup_dir="$cbk" --db="$work/cf_r"
  "$other" --db="$work/cf_r" --column_family=cf2 scan >"$work/got" 2>/dev/null
  cmp -s "$work/got" "$work/cf.scan" && [ -s "$work/cf.scan" ] ||
    fail "cf2 of a $maker backup restored by $(basename "$other") differs"
done

# ---- refused and bad arguments ----
if "$strata" backup --db="$sdb" --backup_dir="$sbk" --backup_env_uri=x >"$work/out" 2>&1; then
  fail "--backup_env_uri accepted"
fi
if "$strata" restore --db="$work/x" >"$work/out" 2>&1 ||
  ! grep -q -- "--backup_dir: missing backup directory" "$work/out"; then
  fail "restore without --backup_dir: $(cat "$work/out")"
fi

if [ "$failures" -ne 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "backup compat: all passed"
