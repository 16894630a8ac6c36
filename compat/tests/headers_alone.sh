#!/bin/sh
# headers_alone.sh CXX REPO: every header of compat/include/rocksdb/ compiles
# when it is the only include of a C++17 file, with -Wall -Wextra -Werror (a
# RocksDB program may include any one of them first). Prints the failures;
# exits 1 if there is one.
set -u
cxx="$1"
repo="$2"
fail=0
count=0
cd "$repo/compat/include" || exit 2
for h in $(find rocksdb -name '*.h' | sort); do
  count=$((count + 1))
  if ! printf '#include "%s"\nint main() { return 0; }\n' "$h" |
      "$cxx" -std=c++17 -fsyntax-only -Wall -Wextra -Werror -I "$repo/compat/include" \
        -I "$repo/include" -x c++ - 2>/tmp/headers_alone.$$; then
    echo "FAILED: $h"
    head -20 /tmp/headers_alone.$$
    fail=$((fail + 1))
  fi
done
rm -f /tmp/headers_alone.$$
echo "$count headers, $fail failed"
[ "$fail" -eq 0 ]
