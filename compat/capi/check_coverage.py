#!/usr/bin/env python3
"""check_coverage.py: checks compat/capi/coverage.txt against the C API.

coverage.txt lists every function of rocksdb/c.h, one per line:
    <function name> <area> <backed|error-stub>
where `area` names the source file (c_<area>.cc) that implements it,
`backed` means the function is carried out through the RocksDB C++
interface, and `error-stub` means Strata has no such feature: the function
reports an error through errptr, returns NULL/0, does nothing, or records a
setting that every open function refuses by name.

Checks (each failure is printed; exit status 1 if any):
  1. every function declared in --header appears in coverage.txt exactly
     once, and coverage.txt names nothing else;
  2. with --reference (RocksDB's own c.h): the same function names, and each
     declaration equal to ours once whitespace is ignored;
  3. with --library (the built C API, .a or .so): every function is defined
     there.
Then prints the counts of backed and stubbed functions, in total and per
area.
"""
import argparse
import collections
import re
import subprocess
import sys

AREAS = {"db", "batch", "batch_wi", "iter", "options", "convenience", "table",
         "callbacks", "checkpoint", "backup", "ingest", "timestamp", "txn", "misc"}
STATUSES = {"backed", "error-stub"}


def declarations(path):
    """Maps function name -> declaration text with all whitespace removed."""
    text = open(path, encoding="ascii").read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    decls = {}
    for m in re.finditer(r"extern\s+ROCKSDB_LIBRARY_API\s+(.*?);", text,
                         flags=re.S):
        decl = m.group(1)
        name = re.match(r"[^(]*?\b(\w+)\s*\(", decl)
        if name is None:
            continue
        decls[name.group(1)] = re.sub(r"\s+", "", decl)
    return decls


def defined_symbols(library):
    args = ["nm", "--defined-only", "-g"]
    if library.endswith(".so") or ".so." in library:
        args.append("-D")
    out = subprocess.run(args + [library], capture_output=True, text=True,
                         check=True).stdout
    names = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[1] in ("T", "W"):
            names.add(parts[2])
    return names


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--header", required=True)
    ap.add_argument("--coverage", required=True)
    ap.add_argument("--reference")
    ap.add_argument("--library")
    a = ap.parse_args()

    errors = []
    ours = declarations(a.header)
    if not ours:
        errors.append(f"{a.header}: no declarations found")

    cov = {}
    for n, line in enumerate(open(a.coverage, encoding="ascii"), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.split()
        if len(parts) != 3:
            errors.append(f"{a.coverage}:{n}: want 'name area status'")
            continue
        name, area, status = parts
        if name in cov:
            errors.append(f"{a.coverage}:{n}: {name} listed twice")
        if area not in AREAS:
            errors.append(f"{a.coverage}:{n}: unknown area '{area}'")
        if status not in STATUSES:
            errors.append(f"{a.coverage}:{n}: unknown status '{status}'")
        cov[name] = (area, status)

    for name in sorted(set(ours) - set(cov)):
        errors.append(f"{name}: declared in {a.header}, missing in coverage")
    for name in sorted(set(cov) - set(ours)):
        errors.append(f"{name}: in coverage, not declared in {a.header}")

    if a.reference:
        ref = declarations(a.reference)
        for name in sorted(set(ref) - set(ours)):
            errors.append(f"{name}: in {a.reference}, missing in our header")
        for name in sorted(set(ours) - set(ref)):
            errors.append(f"{name}: in our header, not in {a.reference}")
        for name in sorted(set(ours) & set(ref)):
            if ours[name] != ref[name]:
                errors.append(f"{name}: declaration differs from reference")

    if a.library:
        defined = defined_symbols(a.library)
        for name in sorted(ours):
            if name not in defined:
                errors.append(f"{name}: not defined in {a.library}")

    for e in errors:
        print("FAIL:", e)

    per_area = collections.defaultdict(collections.Counter)
    for name, (area, status) in cov.items():
        per_area[area][status] += 1
    total = collections.Counter(s for _, s in cov.values())
    print(f"c.h functions: {len(ours)}; backed {total['backed']}, "
          f"error-stub {total['error-stub']}")
    for area in sorted(per_area):
        c = per_area[area]
        print(f"  {area:12s} backed {c['backed']:4d}  error-stub "
              f"{c['error-stub']:3d}")
    if a.reference:
        print(f"reference {a.reference}: {len(declarations(a.reference))} "
              "declarations compared")
    if a.library:
        print(f"library {a.library}: all functions defined"
              if not any("not defined" in e for e in errors) else
              f"library {a.library}: functions missing")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
