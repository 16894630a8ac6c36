#!/usr/bin/env bash
# check_sources.sh <repo root>: mechanical source rules (STYLE.md, DESIGN.md
# section 2). Prints "file:line: rule" for every violation and exits 1 if
# there is any.
#
#  1. .h/.cc files are ASCII only.
#  2. Headers open with `#pragma once` and never say `using namespace`.
#  3. Our own headers are included with quotes and rooted at the repo
#     ("util/coding.h", "strata/db.h"), never with <...> or a bare name.
#  4. Public headers (include/strata/) include only "strata/..." and standard
#     headers, and carry no #if/#ifdef (a C header's __cplusplus guard aside).
#  5. Layering (DESIGN.md section 2): a folder includes only its own and
#     lower layers, with no exceptions. _test.cc files and test-only headers
#     (*_test_suite.h, *_test_util.h) are exempt (tests may use test_util/
#     and anything they test). The DAG, lower first:
#       util      util/ strata/
#       env       env/ util/ strata/
#       base      base/ util/ strata/
#       cache     cache/ util/ strata/
#       memtable  memtable/ base/ util/ strata/
#       table     table/ base/ cache/ env/ util/ strata/
#       db        db/ memtable/ table/ cache/ env/ base/ util/ strata/
#       compat    compat/ rocksdb/ strata/  (the RocksDB interface over the
#                 public API: its own headers, compat/include/rocksdb/*.h
#                 included as "rocksdb/...", and Strata's public headers)
#       utilities, tools, bench, fuzz: anything (they sit on top)
#       examples  strata/
#     A folder missing from this list is an error, so a new layer must be
#     placed in the DAG before it can hold code.
set -euo pipefail

root="${1:-.}"
cd "$root"

dirs=(include util env base memtable table cache db utilities compat tools bench fuzz test_util examples)
existing=()
for d in "${dirs[@]}"; do
  [[ -d "$d" ]] && existing+=("$d")
done
[[ ${#existing[@]} -eq 0 ]] && exit 0

mapfile -t files < <(find "${existing[@]}" -type f \( -name '*.h' -o -name '*.cc' \) | LC_ALL=C sort)
[[ ${#files[@]} -eq 0 ]] && exit 0

status=0

# Rule 1: ASCII only.
if LC_ALL=C grep -nH $'[\x80-\xff]' "${files[@]}" | sed 's/^\([^:]*:[0-9]*\):.*/\1: non-ASCII byte/'; then
  status=1
fi

# Rules 2-5.
if ! LC_ALL=C awk '
  function report(msg) { printf "%s:%d: %s\n", FILENAME, FNR, msg; bad = 1 }
  function finish_file() {
    if (cur != "" && is_header && !has_pragma) {
      printf "%s:1: header lacks #pragma once\n", cur; bad = 1
    }
  }
  function layer_allows(folder, inc) {
    if (folder == "util")     return inc ~ /^(util|strata)\//
    if (folder == "env")      return inc ~ /^(env|util|strata)\//
    if (folder == "base")     return inc ~ /^(base|util|strata)\//
    if (folder == "cache")    return inc ~ /^(cache|util|strata)\//
    if (folder == "memtable") return inc ~ /^(memtable|base|util|strata)\//
    if (folder == "table")    return inc ~ /^(table|base|cache|env|util|strata)\//
    if (folder == "db")       return inc ~ /^(db|memtable|table|cache|env|base|util|strata)\//
    if (folder == "examples") return inc ~ /^strata\//
    if (folder == "compat")   return inc ~ /^(compat|rocksdb|strata)\//
    if (folder ~ /^(utilities|tools|bench|fuzz|test_util|include)$/) return 1
    unknown_folder = 1
    return 0
  }
  # Standard C++ headers have bare names (<cstdint>, <string_view>); the C
  # headers a C API may need are listed.
  function is_standard(inc) {
    if (inc ~ /^[a-z_]+$/) return 1
    return inc ~ /^(assert|float|inttypes|limits|stdarg|stdbool|stddef|stdint|stdio|stdlib|string)\.h$/
  }
  FNR == 1 {
    finish_file()
    cur = FILENAME
    folder = FILENAME; sub(/\/.*/, "", folder)
    is_header = FILENAME ~ /\.h$/
    is_test = FILENAME ~ /(_test\.cc|_test_suite\.h|_test_util\.h)$/
    is_public = FILENAME ~ /^include\/strata\//
    has_pragma = 0
  }
  {
    line = $0
    code = line; sub(/\/\/.*/, "", code)
    if (is_header && line ~ /^[ \t]*#[ \t]*pragma[ \t]+once/) has_pragma = 1
    if (is_header && code ~ /(^|[^A-Za-z0-9_])using[ \t]+namespace[ \t]/) report("using namespace in a header")
    if (is_public && line ~ /^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else)([^A-Za-z0-9_]|$)/ && line !~ /__cplusplus/)
      report("conditional compilation in a public header")
    if (line !~ /^[ \t]*#[ \t]*include[ \t]*[<"]/) next
    inc = line
    sub(/^[ \t]*#[ \t]*include[ \t]*/, "", inc)
    quoted = substr(inc, 1, 1) == "\""
    inc = substr(inc, 2)
    sub(/[">].*$/, "", inc)
    if (!quoted) {
      if (inc ~ /^(strata|util|env|base|memtable|table|cache|db|utilities|tools|bench|fuzz|test_util)\// && folder != "examples")
        report("own header included with <>: " inc)
      else if (is_public && !is_standard(inc))
        report("public header includes a non-public header: <" inc ">")
      next
    }
    if (inc !~ /\//) { report("include not rooted at the repo: \"" inc "\""); next }
    if (is_public) {
      if (inc !~ /^strata\//) report("public header includes a non-public header: \"" inc "\"")
      next
    }
    if (!is_test && !layer_allows(folder, inc)) {
      if (unknown_folder) report("layering (DESIGN.md section 2): folder " folder "/ has no place in the layer DAG")
      else report("layering (DESIGN.md section 2): " folder "/ may not include \"" inc "\"")
      unknown_folder = 0
    }
  }
  END { finish_file(); exit bad }
' "${files[@]}"; then
  status=1
fi

exit "$status"
