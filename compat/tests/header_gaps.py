#!/usr/bin/env python3
"""header_gaps.py: what RocksDB 7.8.3's headers declare that ours do not.

For every header present both in compat/include/rocksdb/ and in RocksDB's
installed headers (default /usr/include/rocksdb/), compiles one translation
unit per side with clang's JSON AST dump and compares, per header of
RocksDB's, the public declarations of namespace rocksdb:

  - classes/structs: every public method (by name, then by signature),
    constructor signature, data member, static member, nested type and
    nested enum constant; members reached through a base class or through
    an alias to a Strata type (`using Slice = ::strata::Slice`) count;
  - free functions (by name, then signature), enums and their constants,
    typedefs/aliases, variables.

Signatures are compared after dropping namespace qualifiers and spaces, so
a reported signature gap may be a spelling difference (uint64_t vs
unsigned long, an alias): read it before fixing.

Usage: header_gaps.py [--repo DIR] [--rocksdb-include DIR] [--allow FILE]
                      [--only HEADER ...]
Prints one line per gap ("header: Class::member [kind] ..."). With --allow,
lines listed in FILE (exact text, '#' comments) are known gaps: the exit
status is 1 when a gap not in FILE appears, else 0 (the CTest mode).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

SKIP_HEADERS = {
    "c.h",  # the C API has its own check (capi/check_coverage.py)
    # RocksDB's installed copy includes options/configurable_helper.h, which
    # RocksDB does not install: it does not compile anywhere.
    "utilities/customizable_util.h",
    # Both need the Lua headers (RocksDB's as ours).
    "utilities/lua/rocks_lua_util.h",
    "utilities/lua/rocks_lua_custom_library.h",
}


def dump(include_dirs, headers, filt, std="c++17"):
    """Runs clang's JSON AST dump of a TU including `headers`; yields decls."""
    with tempfile.NamedTemporaryFile("w", suffix=".cc", delete=False) as f:
        for h in headers:
            f.write('#include "rocksdb/%s"\n' % h)
        src = f.name
    cmd = ["clang++", "-std=" + std, "-fsyntax-only", "-Wno-everything", "-Xclang",
           "-ast-dump=json", "-Xclang", "-ast-dump-filter=" + filt]
    for d in include_dirs:
        cmd += ["-I", d]
    cmd.append(src)
    try:
        out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             universal_newlines=True)
    finally:
        os.unlink(src)
    if out.returncode != 0:
        sys.stderr.write(out.stderr[:4000])
        raise SystemExit("clang failed on %s" % include_dirs)
    text = out.stdout
    dec = json.JSONDecoder()
    i = 0
    while i < len(text):
        while i < len(text) and text[i] in " \r\n\t":
            i += 1
        if i >= len(text):
            break
        if text.startswith("Dumping", i):
            i = text.index("\n", i) + 1
            continue
        obj, i = dec.raw_decode(text, i)
        annotate(obj, [None])
        yield obj


def annotate(node, cur):
    """Sets node["_file"] on every node: clang's JSON names a location's
    file only when it differs from the location printed before, so the
    file is tracked in document order (cur[0])."""
    def bare(b):
        if isinstance(b, dict) and "file" in b:
            cur[0] = b["file"]

    def loc(d):
        if not isinstance(d, dict):
            return
        if "spellingLoc" in d or "expansionLoc" in d:
            bare(d.get("spellingLoc"))
            bare(d.get("expansionLoc"))
        else:
            bare(d)

    if not isinstance(node, dict):
        return
    if "loc" in node:
        loc(node["loc"])
    node["_file"] = cur[0]
    if "range" in node:
        loc(node["range"].get("begin"))
        loc(node["range"].get("end"))
    for c in node.get("inner", []):
        annotate(c, cur)


def norm_type(t):
    t = re.sub(r"\b(ROCKSDB_NAMESPACE|rocksdb|strata|std::__cxx11|__cxx11)::", "", t)
    t = t.replace("::rocksdb::", "").replace("::strata::", "")
    t = re.sub(r"\bstruct |\bclass |\benum ", "", t)
    t = t.replace("std::", "")
    t = re.sub(r"\bnoexcept\b|\bthrow\(\)", "", t)
    t = re.sub(r"\s+", "", t)
    t = t.replace("unsignedlong", "uint64_t").replace("unsignedint", "uint32_t")
    t = re.sub(r"\bSequenceNumber\b", "u64", t)
    t = t.replace("uint64_t", "u64").replace("size_t", "u64")
    return drop_top_level_const(t)


def drop_top_level_const(t):
    """A by-value parameter's const is not part of a function's type:
    void(constInfoLogLevel,...) and void(InfoLogLevel,...) are one."""
    m = re.match(r"^(.*?)\((.*)\)(const)?$", t)
    if not m:
        return t
    params, depth, cur = [], 0, ""
    for ch in m.group(2):
        if ch in "<(":
            depth += 1
        elif ch in ">)":
            depth -= 1
        if ch == "," and depth == 0:
            params.append(cur)
            cur = ""
        else:
            cur += ch
    params.append(cur)
    params = [p[len("const"):] if p.startswith("const") and not re.search(r"[*&(]", p) else p
              for p in params]
    return "%s(%s)%s" % (m.group(1), ",".join(params), m.group(3) or "")


class Model:
    """Declarations by qualified name, with the file that declared them."""

    def __init__(self):
        self.records = {}  # qname -> {"members": {name: {kind, sigs}}, "bases": [...], "file"}
        self.aliases = {}  # qname -> target qname
        self.functions = {}  # qname -> {"sigs": set, "file"}
        self.enums = {}  # qname -> {"consts": set, "file"}
        self.others = {}  # qname -> (kind, file)

    def add_tree(self, node, scope, file_hint):
        loc_file = file_of(node) or file_hint
        kind = node.get("kind")
        name = node.get("name")
        if node.get("isImplicit"):
            return
        if kind == "NamespaceDecl":
            sub = scope + [name] if name else scope
            for c in node.get("inner", []):
                self.add_tree(c, sub, loc_file)
            return
        if kind == "LinkageSpecDecl":
            for c in node.get("inner", []):
                self.add_tree(c, scope, loc_file)
            return
        if not name and kind != "UsingDecl":
            return
        q = "::".join(scope + [name]) if name else None
        if kind in ("CXXRecordDecl", "ClassTemplateDecl"):
            rec_node = node
            if kind == "ClassTemplateDecl":
                rec_node = next((c for c in node.get("inner", []) if c.get("kind") == "CXXRecordDecl"), None)
                if rec_node is None:
                    return
            if not rec_node.get("completeDefinition") and q in self.records:
                return
            self.add_record(rec_node, scope + [name], loc_file)
        elif kind in ("TypeAliasDecl", "TypedefDecl"):
            target = node.get("type", {}).get("qualType", "")
            self.aliases[q] = clean_qname(target)
            self.others.setdefault(q, ("type", loc_file))
        elif kind in ("FunctionDecl", "FunctionTemplateDecl"):
            sig = node.get("type", {}).get("qualType", "")
            f = self.functions.setdefault(q, {"sigs": set(), "file": loc_file})
            f["sigs"].add(norm_type(sig))
        elif kind == "EnumDecl":
            consts = {c["name"] for c in node.get("inner", []) if c.get("kind") == "EnumConstantDecl"}
            e = self.enums.setdefault(q, {"consts": set(), "file": loc_file})
            e["consts"] |= consts
            if not node.get("scopedEnumTag"):
                # Unscoped: the constants are names of the enclosing scope too.
                for c in consts:
                    self.others.setdefault("::".join(scope + [c]), ("enum constant", loc_file))
        elif kind == "VarDecl":
            self.others.setdefault(q, ("variable", loc_file))
        elif kind == "UsingDecl":
            target = node.get("name", "")
            last = target.split("::")[-1]
            if last:
                self.others.setdefault("::".join(scope + [last]), ("using", loc_file))
                # A function or enum constant brought in by name.
                self.aliases.setdefault("::".join(scope + [last]), clean_qname(target))

    def add_record(self, node, path, file_hint):
        q = "::".join(path)
        rec = self.records.setdefault(q, {"members": {}, "bases": [], "file": file_of(node) or file_hint})
        if node.get("completeDefinition"):
            rec["file"] = file_of(node) or file_hint  # the definition's header, not a forward one
        for b in node.get("bases", []):
            if b.get("access", "public") == "public":
                rec["bases"].append(clean_qname(b.get("type", {}).get("qualType", "")))
        access = "private" if node.get("tagUsed") == "class" else "public"
        for c in node.get("inner", []):
            k = c.get("kind")
            if k == "AccessSpecDecl":
                access = c.get("access", access)
                continue
            if c.get("isImplicit") or access != "public":
                continue
            n = c.get("name")
            if k in ("CXXMethodDecl", "CXXConstructorDecl", "CXXConversionDecl", "FunctionTemplateDecl"):
                if k == "CXXConstructorDecl":
                    n = "<constructor>"
                if not n:
                    continue
                sig = c.get("type", {}).get("qualType", "")
                m = rec["members"].setdefault(n, {"kind": "method", "sigs": set()})
                if c.get("storageClass") == "static":
                    m["kind"] = "static method"
                m["sigs"].add(norm_type(sig))
            elif k == "FieldDecl" and n:
                rec["members"].setdefault(n, {"kind": "field", "sigs": set()})
            elif k == "VarDecl" and n:
                rec["members"].setdefault(n, {"kind": "static member", "sigs": set()})
            elif k in ("CXXRecordDecl", "ClassTemplateDecl") and n:
                rec["members"].setdefault(n, {"kind": "nested type", "sigs": set()})
                self.add_tree(c, path, rec["file"])
            elif k in ("TypeAliasDecl", "TypedefDecl") and n:
                rec["members"].setdefault(n, {"kind": "nested type", "sigs": set()})
                self.aliases[q + "::" + n] = clean_qname(c.get("type", {}).get("qualType", ""))
            elif k == "EnumDecl":
                consts = [e["name"] for e in c.get("inner", []) if e.get("kind") == "EnumConstantDecl"]
                if n:
                    rec["members"].setdefault(n, {"kind": "nested type", "sigs": set()})
                    self.enums.setdefault(q + "::" + n, {"consts": set(), "file": rec["file"]})["consts"] |= set(consts)
                if not c.get("scopedEnumTag"):
                    for e in consts:
                        rec["members"].setdefault(e, {"kind": "enum constant", "sigs": set()})
            elif k == "UsingDecl":
                last = (c.get("name") or "").split("::")[-1]
                if last:
                    rec["members"].setdefault(last, {"kind": "using", "sigs": set(), "using": True})

    def canon(self, q):
        """q with every alias along its path replaced by what it names
        (rocksdb::Cache::Priority -> strata::Cache::Priority)."""
        parts = q.split("::")
        cur = parts[0]
        for i, p in enumerate(parts[1:]):
            cur = cur + "::" + p
            seen = 0
            while cur not in self.records and cur in self.aliases and seen < 10:
                cur = self.aliases[cur]
                seen += 1
        return cur

    def resolve(self, q, depth=0):
        """The record a qualified name means (following aliases)."""
        q = self.canon(q)
        return q if q in self.records else None

    def members(self, q, depth=0):
        """All public members of a record, its public bases' included."""
        q = self.resolve(q)
        if q is None or depth > 10:
            return {}
        out = {}
        for b in self.records[q]["bases"]:
            for n, m in self.members(b, depth + 1).items():
                out.setdefault(n, {"kind": m["kind"], "sigs": set()})["sigs"] |= m["sigs"]
        for n, m in self.records[q]["members"].items():
            out.setdefault(n, {"kind": m["kind"], "sigs": set()})["sigs"] |= m["sigs"]
        return out

    def has_name(self, q):
        c = self.canon(q)
        return any(x in d for x in (q, c) for d in (self.records, self.functions, self.enums,
                                                     self.others, self.aliases))


def is_copy_or_move(q, name, sig):
    """A copy/move constructor or assignment (of the class or a base)."""
    if name not in ("<constructor>", "operator="):
        return False
    m = re.match(r"^[^(]*\((.*)\)[a-z]*$", sig)
    if not m:
        return False
    params = m.group(1)
    return "," not in params and (params.endswith("&") or params.endswith("&&")) and params != ""


def clean_qname(t):
    t = re.sub(r"^(const |struct |class |enum )+", "", t.strip())
    t = t.split("<")[0].strip()
    t = t.lstrip(":")
    t = t.replace("ROCKSDB_NAMESPACE::", "rocksdb::")
    return t


def file_of(node):
    return node.get("_file")


def build(include_dirs, headers, filters):
    m = Model()
    for filt in filters:
        for obj in dump(include_dirs, headers, filt):
            m.add_tree(obj, [], None)
    return m


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--repo", default=os.path.normpath(os.path.join(here, "..", "..")))
    ap.add_argument("--rocksdb-include", default="/usr/include")
    ap.add_argument("--allow")
    ap.add_argument("--only", nargs="*")
    args = ap.parse_args()
    ours_root = os.path.join(args.repo, "compat", "include", "rocksdb")
    theirs_root = os.path.join(args.rocksdb_include, "rocksdb")
    headers = []
    for dirpath, _, files in os.walk(ours_root):
        for fn in files:
            rel = os.path.relpath(os.path.join(dirpath, fn), ours_root)
            if fn.endswith(".h") and rel not in SKIP_HEADERS and os.path.exists(os.path.join(theirs_root, rel)):
                headers.append(rel)
    headers.sort()
    if args.only:
        headers = [h for h in headers if h in args.only]
    theirs = build([args.rocksdb_include], headers, ["rocksdb"])
    ours = build([os.path.join(args.repo, "compat", "include"), os.path.join(args.repo, "include")],
                 headers, ["rocksdb", "strata"])

    gaps = []
    def header_of(f):
        if not f:
            return None
        f = os.path.normpath(f)
        if f.startswith(os.path.normpath(theirs_root) + os.sep):
            return os.path.relpath(f, theirs_root)
        return None

    for q, rec in sorted(theirs.records.items()):
        h = header_of(rec["file"])
        if h not in headers or not q.startswith("rocksdb::"):
            continue
        if not rec["members"] and not rec["bases"]:
            if not ours.has_name(q):
                gaps.append("%s: %s [type]" % (h, q))
            continue
        if ours.resolve(q) is None:
            gaps.append("%s: %s [class]" % (h, q))
            continue
        mine = ours.members(q)
        for n, m in sorted(theirs.members(q).items()):
            if n not in theirs.records[q]["members"]:
                continue  # inherited in RocksDB: reported at its own class
            if n not in mine:
                if m["kind"] == "nested type" and ours.has_name(q + "::" + n):
                    continue
                gaps.append("%s: %s::%s [%s]" % (h, q, n, m["kind"]))
            elif m["kind"] in ("method", "static method") and n != "<constructor>" or n == "<constructor>":
                for sig in sorted(m["sigs"] - mine[n]["sigs"]):
                    if is_copy_or_move(q, n, sig):
                        continue  # implicit on one side, spelled out on the other
                    gaps.append("%s: %s::%s [signature %s]" % (h, q, n, sig))
    for q, f in sorted(theirs.functions.items()):
        h = header_of(f["file"])
        if h not in headers:
            continue
        mine_sigs = set()
        for name in (q, ours.canon(q)):
            if name in ours.functions:
                mine_sigs |= ours.functions[name]["sigs"]
        if not mine_sigs:
            if q in ours.aliases or q in ours.others:
                continue
            gaps.append("%s: %s [function]" % (h, q))
            continue
        for sig in sorted(f["sigs"] - mine_sigs):
            gaps.append("%s: %s [function signature %s]" % (h, q, sig))
    for q, e in sorted(theirs.enums.items()):
        h = header_of(e["file"])
        if h not in headers:
            continue
        target = ours.canon(q)
        if target not in ours.enums:
            if not ours.has_name(q):
                gaps.append("%s: %s [enum]" % (h, q))
            continue
        for c in sorted(e["consts"] - ours.enums[target]["consts"]):
            gaps.append("%s: %s::%s [enum constant]" % (h, q, c))
    for q, (kind, f) in sorted(theirs.others.items()):
        h = header_of(f)
        if h not in headers or q in theirs.records:
            continue
        if not ours.has_name(q):
            gaps.append("%s: %s [%s]" % (h, q, kind))

    gaps = sorted(set(gaps))
    for g in gaps:
        print(g)
    if args.allow:
        allowed = set()
        with open(args.allow) as f:
            for line in f:
                line = line.strip()
                if line and not line.startswith("#"):
                    allowed.add(line)
        new = [g for g in gaps if g not in allowed]
        if new:
            print("\n%d gap(s) not in %s:" % (len(new), args.allow))
            for g in new:
                print("  " + g)
            return 1
        print("\n%d known gap(s), none new" % len(gaps))
    return 0


if __name__ == "__main__":
    sys.exit(main())
