#!/usr/bin/env python3
"""RSS over time of a budgeted db_bench run (issue 19, memory_budget).

Runs db_bench (fillrandom, then readrandom in the same process) with
--memory_budget, samples the process's VmRSS from /proc every --interval
seconds, and writes:
  - <out>.csv   (seconds, rss_bytes, phase)
  - <out>.svg   an RSS-over-time plot with the budget line (hand-written SVG)
and prints the peak RSS and the overhead constant (peak RSS - budget).

Usage:
  scripts/rss-over-time.py --db_bench build/db_bench --budget_mib 256 \
      --num 5000000 --out /tmp/rss [--reads 1000000] [--value_size 100]
Extra db_bench flags can follow "--".
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time


def read_rss(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


def svg_plot(samples, budget, phases, title):
    """samples: [(t, rss)], phases: [(t, name)]. Returns SVG text."""
    w, h = 900, 480
    left, right, top, bottom = 80, 30, 50, 60
    pw, ph = w - left - right, h - top - bottom
    tmax = max(t for t, _ in samples) if samples else 1.0
    tmax = max(tmax, 1.0)
    ymax = max([r for _, r in samples] + [budget]) * 1.15
    mib = 1 << 20

    def x(t):
        return left + pw * t / tmax

    def y(v):
        return top + ph * (1 - v / ymax)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{w}" height="{h}" fill="white"/>',
           f'<text x="{w / 2}" y="25" text-anchor="middle" font-size="15">{title}</text>']
    # Axes and grid.
    step = 64 * mib
    while ymax / step > 10:
        step *= 2
    v = 0
    while v <= ymax:
        out.append(f'<line x1="{left}" y1="{y(v):.1f}" x2="{left + pw}" y2="{y(v):.1f}" '
                   f'stroke="#ddd"/>')
        out.append(f'<text x="{left - 6}" y="{y(v) + 4:.1f}" text-anchor="end">'
                   f'{v // mib} MiB</text>')
        v += step
    tstep = 10
    while tmax / tstep > 12:
        tstep *= 2
    t = 0
    while t <= tmax:
        out.append(f'<line x1="{x(t):.1f}" y1="{top + ph}" x2="{x(t):.1f}" y2="{top + ph + 5}" '
                   f'stroke="black"/>')
        out.append(f'<text x="{x(t):.1f}" y="{top + ph + 18}" text-anchor="middle">{t}s</text>')
        t += tstep
    out.append(f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + ph}" stroke="black"/>')
    out.append(f'<line x1="{left}" y1="{top + ph}" x2="{left + pw}" y2="{top + ph}" '
               f'stroke="black"/>')
    out.append(f'<text x="{left + pw / 2}" y="{h - 15}" text-anchor="middle">'
               f'seconds since start</text>')
    # Phase boundaries.
    for pt, name in phases:
        out.append(f'<line x1="{x(pt):.1f}" y1="{top}" x2="{x(pt):.1f}" y2="{top + ph}" '
                   f'stroke="#888" stroke-dasharray="4,4"/>')
        out.append(f'<text x="{x(pt) + 4:.1f}" y="{top + 14}" fill="#555">{name}</text>')
    # Budget line.
    out.append(f'<line x1="{left}" y1="{y(budget):.1f}" x2="{left + pw}" y2="{y(budget):.1f}" '
               f'stroke="#c00" stroke-width="1.5" stroke-dasharray="8,4"/>')
    out.append(f'<text x="{left + pw - 4}" y="{y(budget) - 6:.1f}" text-anchor="end" '
               f'fill="#c00">memory_budget {budget // mib} MiB</text>')
    # RSS.
    pts = " ".join(f"{x(t):.1f},{y(r):.1f}" for t, r in samples)
    out.append(f'<polyline points="{pts}" fill="none" stroke="#1f5fbf" stroke-width="1.8"/>')
    if samples:
        tp, rp = max(samples, key=lambda s: s[1])
        out.append(f'<circle cx="{x(tp):.1f}" cy="{y(rp):.1f}" r="3" fill="#1f5fbf"/>')
        out.append(f'<text x="{x(tp) + 6:.1f}" y="{y(rp) - 6:.1f}" fill="#1f5fbf">'
                   f'peak {rp / mib:.0f} MiB</text>')
    out.append('</svg>')
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db_bench", default="build/db_bench")
    ap.add_argument("--budget_mib", type=int, default=256)
    ap.add_argument("--num", type=int, default=5000000)
    ap.add_argument("--reads", type=int, default=1000000)
    ap.add_argument("--value_size", type=int, default=100)
    ap.add_argument("--interval", type=float, default=0.5)
    ap.add_argument("--db", default="")
    ap.add_argument("--out", default="/tmp/rss-over-time")
    ap.add_argument("--title", default="")
    ap.add_argument("extra", nargs="*", help="more db_bench flags (after --)")
    a = ap.parse_args()
    budget = a.budget_mib << 20
    db = a.db or tempfile.mkdtemp(prefix="rss-over-time-")
    # Line-buffered stdout, so the end of fillrandom is seen when it happens.
    cmd = (["stdbuf", "-oL"] if shutil.which("stdbuf") else []) + [a.db_bench, "--benchmarks=fillrandom,readrandom", f"--num={a.num}",
           f"--reads={a.reads}", f"--value_size={a.value_size}", "--key_size=16",
           f"--memory_budget={budget}", f"--db={db}", "--compression_type=lz4",
           "--bloom_bits=10", "--histogram=0"] + a.extra
    print("running:", " ".join(cmd), flush=True)
    start = time.monotonic()
    log = open(a.out + ".log", "w")
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=log, text=True, bufsize=1)
    samples, phases = [], [(0.0, "fillrandom")]
    os.set_blocking(p.stdout.fileno(), False)
    buf = ""
    while True:
        t = time.monotonic() - start
        rss = read_rss(p.pid)
        if rss is not None:
            samples.append((t, rss))
        try:
            chunk = p.stdout.read()
        except (BlockingIOError, TypeError):
            chunk = None
        if chunk:
            log.write(chunk)
            buf += chunk
            # db_bench prints "fillrandom : ... micros/op" when a phase ends.
            if len(phases) == 1 and re.search(r"^fillrandom\s*:", buf, re.M):
                phases.append((t, "readrandom"))
        if p.poll() is not None:
            break
        time.sleep(a.interval)
    rest = p.stdout.read() or ""
    log.write(rest)
    log.close()
    if a.db == "":
        shutil.rmtree(db, ignore_errors=True)
    if p.returncode != 0:
        print(f"db_bench failed ({p.returncode}); see {a.out}.log", file=sys.stderr)
        return 1
    with open(a.out + ".csv", "w") as f:
        f.write("seconds,rss_bytes\n")
        for t, r in samples:
            f.write(f"{t:.2f},{r}\n")
    peak = max(r for _, r in samples)
    title = a.title or (f"Strata db_bench RSS, memory_budget {a.budget_mib} MiB, "
                        f"{a.num} keys fillrandom then {a.reads} readrandom")
    with open(a.out + ".svg", "w") as f:
        f.write(svg_plot(samples, budget, phases, title))
    mib = 1 << 20
    print(f"samples: {len(samples)} over {samples[-1][0]:.1f} s")
    print(f"peak RSS: {peak / mib:.1f} MiB; budget {a.budget_mib} MiB; "
          f"overhead (peak - budget): {(peak - budget) / mib:+.1f} MiB")
    print(f"wrote {a.out}.svg, {a.out}.csv, {a.out}.log")
    return 0


if __name__ == "__main__":
    sys.exit(main())
