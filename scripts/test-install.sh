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
for prog in basic_crud column_families callbacks tuning pinnable_bounds utilities transactions backup; do
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
