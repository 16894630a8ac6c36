#!/usr/bin/env bash
# Runs every fuzz target of a build for a while over a copy of its seed
# corpus (fuzz/corpus/<target>/ plus fuzz/regressions/<target>/), so runs
# never grow the repository.
#
#   scripts/fuzz.sh <build-dir> [seconds-per-target] [target...]
#
# Prints per target the executions, exec/s and whether anything was found.
# A finding (crash, sanitizer report, leak, timeout, out-of-memory) is kept
# under <build-dir>/fuzz/findings/<target>/ and makes the script exit 1.
# Engine: libFuzzer when the build has it (<build-dir>/fuzz/engine.txt),
# else the standalone random-mutation driver (fuzz/standalone_main.cc).
# FUZZ_FLAGS adds flags for every target (e.g. FUZZ_FLAGS=-seed=1).
set -u

if [[ $# -lt 1 ]]; then
  echo "usage: $0 <build-dir> [seconds-per-target] [target...]" >&2
  exit 2
fi
BUILD=$(cd "$1" && pwd) || exit 2
SECONDS_PER=${2:-60}
shift $(( $# >= 2 ? 2 : 1 ))
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN="$BUILD/fuzz"
ENGINE=$(cat "$BIN/engine.txt" 2>/dev/null || echo libfuzzer)

if [[ $# -gt 0 ]]; then
  TARGETS=("$@")
else
  TARGETS=()
  for f in "$BIN"/*_fuzzer; do
    [[ -x "$f" ]] && TARGETS+=("$(basename "$f" _fuzzer)")
  done
fi
if [[ ${#TARGETS[@]} -eq 0 ]]; then
  echo "no fuzz targets in $BIN (build the strata_fuzzers target first)" >&2
  exit 2
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/strata-fuzz.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

echo "engine: $ENGINE, $SECONDS_PER s per target, scratch $WORK"
printf '%-14s %12s %10s  %s\n' target execs exec/s result
failed=0
summary=()
for t in "${TARGETS[@]}"; do
  exe="$BIN/${t}_fuzzer"
  if [[ ! -x "$exe" ]]; then
    echo "missing $exe" >&2
    failed=1
    continue
  fi
  corpus="$WORK/$t/corpus"
  artifacts="$BUILD/fuzz/findings/$t"
  mkdir -p "$corpus" "$artifacts"
  cp -r "$ROOT/fuzz/corpus/$t/." "$corpus/" 2>/dev/null
  extra=()
  [[ -d "$ROOT/fuzz/regressions/$t" ]] && extra+=("$ROOT/fuzz/regressions/$t")
  log="$WORK/$t.log"
  touch "$log.start"
  if [[ "$ENGINE" == libfuzzer ]]; then
    (cd "$artifacts" && "$exe" -max_total_time="$SECONDS_PER" -timeout=60 -rss_limit_mb=2560 \
       -print_final_stats=1 -artifact_prefix="$artifacts/" ${FUZZ_FLAGS:-} \
       "$corpus" "${extra[@]}") >"$log" 2>&1
    rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  else
    (cd "$artifacts" && "$exe" -max_total_time="$SECONDS_PER" ${FUZZ_FLAGS:-} \
       "$corpus" "${extra[@]}") >"$log" 2>&1
    rc=$?
    execs=$(sed -n 's/^standalone: Done \([0-9]*\) runs.*/\1/p' "$log" | tail -1)
    rate=$(sed -n 's/^standalone: Done .*(\([0-9]*\) exec\/s).*/\1/p' "$log" | tail -1)
  fi
  found=$(find "$artifacts" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'leak-*' \
            -o -name 'timeout-*' -o -name 'oom-*' -o -name 'slow-unit-*' \) -newer "$log.start" \
            2>/dev/null | head -5)
  if [[ $rc -eq 0 ]]; then
    result="nothing found"
  else
    result="FOUND (exit $rc): ${found:-see log} ; log: $artifacts/$t.log"
    cp "$log" "$artifacts/$t.log"
    failed=1
  fi
  line=$(printf '%-14s %12s %10s  %s' "$t" "${execs:-?}" "${rate:-?}" "$result")
  echo "$line"
  summary+=("$line")
  if [[ $rc -ne 0 ]]; then
    grep -m1 -E 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error|FUZZ_CHECK|db_ops_fuzzer:' "$log" | sed 's/^/    /'
  fi
done
exit $failed
