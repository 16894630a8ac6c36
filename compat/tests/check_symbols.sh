#!/usr/bin/env bash
# check_symbols.sh LIBSTRATA_A LIBSTRATA_SO LIBSTRATA_ROCKSDB_SO LIBSTRATA_ROCKSDB_A
# libstrata (static and shared) defines no symbol in namespace rocksdb, so a
# program may link it beside RocksDB; libstrata-rocksdb does define the
# RocksDB interface (rocksdb::DB::Open) and exports it from the .so.
set -euo pipefail
fail=0
for lib in "$1" "$2"; do
  n=$(nm -C --defined-only "$lib" 2>/dev/null | grep -c 'rocksdb::' || true)
  if [ "$n" != "0" ]; then
    echo "$lib defines $n rocksdb:: symbols:"
    nm -C --defined-only "$lib" | grep 'rocksdb::' | sed -n 1,5p
    fail=1
  else
    echo "$lib: no rocksdb:: symbol"
  fi
done
# (grep -c, not grep -q: an early exit would break nm's pipe under pipefail)
if [ "$(nm -C -D --defined-only "$3" | grep -c 'rocksdb::DB::Open(rocksdb::Options const&' || true)" = 0 ]; then
  echo "$3 does not export rocksdb::DB::Open"
  fail=1
fi
if [ "$(nm -C --defined-only "$4" | grep -c 'rocksdb::DB::Open(rocksdb::Options const&' || true)" = 0 ]; then
  echo "$4 does not define rocksdb::DB::Open"
  fail=1
fi
exit $fail
