#!/usr/bin/env bash
# Installs a configured build into a scratch prefix and builds the examples
# against it twice -- with pkg-config (static link, Libs.private) and with
# CMake's find_package(Strata) -- then runs them. Usage: test-install.sh BUILD_DIR
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
echo "install test: OK"
