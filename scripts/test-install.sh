#!/usr/bin/env bash
# Installs a configured build into a scratch prefix and builds the examples
# against it twice -- with pkg-config (static link, Libs.private) and with
# CMake's find_package(Strata) -- then runs them; then builds the RocksDB-
# interface programs (compat/examples) against libstrata-rocksdb from the
# prefix, statically, shared and with find_package(StrataRocksDB), and
# compares their output. Usage: test-install.sh BUILD_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
test -f "$tmp/prefix/include/strata/db.h"
test -f "$tmp/prefix/lib/libstrata.a"
ls "$tmp/prefix/lib/"libstrata.so* >/dev/null
# The tools, when the build has them (STRATA_BUILD_TOOLS).
if [ -x "$build/strata" ]; then
  for tool in strata sst_dump db_bench; do
    test -x "$tmp/prefix/bin/$tool" || { echo "install test: bin/$tool missing" >&2; exit 1; }
  done
  "$tmp/prefix/bin/strata" --version >/dev/null
fi

# 1. pkg-config, static link.
export PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig"
c++ -o "$tmp/ex_pc" "$src/examples/simple_example.cc" $(pkg-config --cflags strata) \
    "$tmp/prefix/lib/libstrata.a" $(pkg-config --libs-only-l --static strata | sed 's/-lstrata//')
"$tmp/ex_pc" "$tmp/db1" >/dev/null

# 2. CMake package.
cmake -S "$src/examples" -B "$tmp/ex_build" -G Ninja -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/ex_build" >/dev/null
"$tmp/ex_build/simple_example" "$tmp/db2" >/dev/null

# 3. libstrata-rocksdb: the RocksDB-interface programs (compat/examples),
#    built from the prefix with pkg-config -- statically (libstrata-rocksdb.a
#    + libstrata.a) and against the shared libraries -- and, where the
#    system RocksDB is installed, compared with the same program built
#    against it.
test -f "$tmp/prefix/include/strata-rocksdb/rocksdb/db.h"
test -f "$tmp/prefix/lib/libstrata-rocksdb.a"
ls "$tmp/prefix/lib/"libstrata-rocksdb.so* >/dev/null
test -f "$tmp/prefix/lib/pkgconfig/strata-rocksdb.pc"
test -f "$tmp/prefix/lib/cmake/StrataRocksDB/StrataRocksDBConfig.cmake"
inc=$(pkg-config --cflags-only-I strata-rocksdb)
case "$inc" in *strata-rocksdb*) ;; *) echo "install test: --cflags lacks the rocksdb/ dir: $inc" >&2; exit 1;; esac
static_deps=$(pkg-config --libs-only-l --static strata-rocksdb | sed 's/-lstrata-rocksdb//; s/-lstrata\b//g')
for prog in basic_crud column_families callbacks tuning pinnable_bounds utilities transactions backup listeners stacked env; do
  src_file="$src/compat/examples/$prog.cc"
  # Static: the archives named explicitly, so no shared library is picked.
  c++ -std=c++20 -o "$tmp/${prog}_static" "$src_file" $(pkg-config --cflags strata-rocksdb) \
      "$tmp/prefix/lib/libstrata-rocksdb.a" "$tmp/prefix/lib/libstrata.a" $static_deps
  "$tmp/${prog}_static" "$tmp/${prog}_db1" >"$tmp/${prog}.static.out"
done
# Shared: exactly what the pkg-config module says (two programs suffice).
for prog in basic_crud tuning; do
  c++ -std=c++20 -o "$tmp/${prog}_shared" "$src/compat/examples/$prog.cc" \
      $(pkg-config --cflags --libs strata-rocksdb) -Wl,-rpath,"$tmp/prefix/lib"
  "$tmp/${prog}_shared" "$tmp/${prog}_db2" >"$tmp/${prog}.shared.out"
  cmp "$tmp/${prog}.static.out" "$tmp/${prog}.shared.out"
done
# The C API from the prefix: a small C program, compiled by the C compiler
# (--cflags-only-I: strata.pc's Cflags carry -std=c++20), linked against
# the shared library and statically (then libstdc++ is named). A C program
# uses no libstrata symbol itself, so libstrata.so is found as a dependency
# of libstrata-rocksdb.so: the scratch prefix goes in an RPATH (a RUNPATH
# does not apply to dependencies).
cat >"$tmp/capi.c" <<'EOF_C'
#include <stdio.h>
#include <string.h>
#include "rocksdb/c.h"
int main(int argc, char** argv) {
  rocksdb_options_t* o = rocksdb_options_create();
  rocksdb_options_set_create_if_missing(o, 1);
  char* err = NULL;
  rocksdb_t* db = rocksdb_open(o, argv[1], &err);
  if (err != NULL) { fprintf(stderr, "open: %s\n", err); return 1; }
  rocksdb_writeoptions_t* wo = rocksdb_writeoptions_create();
  rocksdb_readoptions_t* ro = rocksdb_readoptions_create();
  rocksdb_put(db, wo, "key", 3, "value", 5, &err);
  size_t len = 0;
  char* v = rocksdb_get(db, ro, "key", 3, &len, &err);
  int ok = err == NULL && v != NULL && len == 5 && memcmp(v, "value", 5) == 0;
  rocksdb_free(v);
  printf("get(key) = %s\n", ok ? "value" : "WRONG");
  rocksdb_readoptions_destroy(ro);
  rocksdb_writeoptions_destroy(wo);
  rocksdb_close(db);
  rocksdb_options_destroy(o);
  return ok ? 0 : 1;
}
EOF_C
cc -std=c11 -o "$tmp/capi_shared" "$tmp/capi.c" $(pkg-config --cflags-only-I strata-rocksdb) \
    $(pkg-config --libs strata-rocksdb) -Wl,--disable-new-dtags,-rpath,"$tmp/prefix/lib"
"$tmp/capi_shared" "$tmp/capi_db1" | grep -qx 'get(key) = value'
cc -std=c11 -o "$tmp/capi_static" "$tmp/capi.c" $(pkg-config --cflags-only-I strata-rocksdb) \
    "$tmp/prefix/lib/libstrata-rocksdb.a" "$tmp/prefix/lib/libstrata.a" $static_deps -lstdc++ -lm
"$tmp/capi_static" "$tmp/capi_db2" | grep -qx 'get(key) = value'

# The same program against the system RocksDB, when it is installed, prints
# the same (CTest's compat_compare_* compare all five in the build tree).
if [ -f /usr/include/rocksdb/db.h ] &&
   c++ -std=c++20 -o "$tmp/basic_crud_rocksdb" "$src/compat/examples/basic_crud.cc" -lrocksdb 2>/dev/null; then
  "$tmp/basic_crud_rocksdb" "$tmp/basic_crud_db3" >"$tmp/basic_crud.rocksdb.out"
  cmp "$tmp/basic_crud.rocksdb.out" "$tmp/basic_crud.static.out" ||
    { echo "install test: basic_crud differs from its RocksDB build" >&2; exit 1; }
fi
# The CMake package of the layer.
mkdir -p "$tmp/compat_cmake"
cat >"$tmp/compat_cmake/CMakeLists.txt" <<EOF2
cmake_minimum_required(VERSION 3.22)
project(CompatFromPrefix CXX)
set(CMAKE_CXX_STANDARD 20)
find_package(StrataRocksDB REQUIRED)
add_executable(basic_crud $src/compat/examples/basic_crud.cc)
target_link_libraries(basic_crud PRIVATE StrataRocksDB::strata-rocksdb-static)
EOF2
cmake -S "$tmp/compat_cmake" -B "$tmp/compat_cmake/build" -G Ninja -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/compat_cmake/build" >/dev/null
"$tmp/compat_cmake/build/basic_crud" "$tmp/db_cmake" >"$tmp/basic_crud.cmake.out"
cmp "$tmp/basic_crud.cmake.out" "$tmp/basic_crud.static.out"
echo "install test: OK"
