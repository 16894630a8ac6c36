#!/usr/bin/env bash
# test_install.sh BUILD_DIR PYTHON3 LIBRARY: installs the "python" component
# of a configured build into a scratch prefix, puts LIBRARY there as
# lib/libstrata-rocksdb.so, and checks that PYTHON3 imports strata from the
# prefix's site folder and finds the library under the prefix -- with no
# STRATA_ROCKSDB_LIBRARY set -- and can open a database with it.
set -euo pipefail
build=$1
python3=$2
lib=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cmake --install "$build" --prefix "$tmp/prefix" --component python >/dev/null
site=$(ls -d "$tmp"/prefix/lib/python3*/*-packages)
test -f "$site/strata/__init__.py"
test -f "$site/strata/_install_config.py"
libdir=$(sed -n 's/^LIBDIR = "\(.*\)"$/\1/p' "$site/strata/_install_config.py")
mkdir -p "$libdir"
ln -s "$lib" "$libdir/libstrata-rocksdb.so"

cd "$tmp"
env -u STRATA_ROCKSDB_LIBRARY PYTHONPATH="$site" PYTHONDONTWRITEBYTECODE=1 "$python3" - "$tmp/db" "$site" "$libdir" <<'PY'
import os
import sys

import strata

db_path, site, libdir = sys.argv[1:]
assert strata.__file__ == os.path.join(site, "strata", "__init__.py"), strata.__file__
assert strata.library_path() == os.path.join(libdir, "libstrata-rocksdb.so"), strata.library_path()
with strata.DB(db_path) as db:
    db.put(b"hello", b"world")
    assert db.get(b"hello") == b"world"
print("python install test: OK (%s, library %s)" % (site, strata.library_path()))
PY
