#!/usr/bin/env python3
"""Coverage curves of fuzz runs.

    fuzz/curve.py [--svg DIR] [--markdown] LOG...

Each LOG is the timestamped output of `fuzz/run.sh` (every line is
`SECONDS<TAB>libFuzzer line`; run.sh appends each run of a target to its
log, so a log may hold several runs, each clock starting again at 0). The
runs of one target, in the order they ran, make one curve: a run that
starts from the corpus the last one left continues it, its clock added
after the last one's. The target's
name is the log's file name up to its first dot (`check.run1.log` and
`check.log` are both `check`).

Prints, per target, the coverage (libFuzzer's `cov:`, edges reached) at
fixed times, the total time and inputs run, and how much coverage the last
tenth of the time added (the curve keeps the best coverage reached: a run
that reloads the corpus reports less while it re-runs it). The CPU time is
the sum of the runs' `User time` lines (GNU time's `-v`), `?` when a run
has none. `--svg DIR` also draws each curve as `DIR/TARGET.svg`.
"""

import argparse
import os
import re
import sys
from collections import OrderedDict

LINE = re.compile(r"^(\d+(?:\.\d+)?)\t#(\d+)\s+(\w+)\s+cov: (\d+) ft: (\d+)")
CPU = re.compile(r"User time \(seconds\): ([\d.]+)")
MARKS_MIN = [1, 5, 10, 20, 30, 40, 50, 60, 75, 90]


def read_runs(path):
    """The runs of one log, in order: `fuzz/run.sh` appends each run to the
    target's log, and a run's clock starts again at 0. Each run is
    (points, seconds, cpu): points are (t, execs, cov, ft), the clock
    starting at libFuzzer's first line (a build before it does not count);
    cpu is None when the run has no final stats (stopped, or running)."""
    runs = []
    cur = None
    last_t = -1.0
    with open(path, errors="replace") as f:
        for line in f:
            head, _, rest = line.partition("\t")
            try:
                t = float(head)
            except ValueError:
                continue
            if cur is None or t < last_t:
                cur = {"points": [], "start": None, "end": 0.0, "cpu": None}
                runs.append(cur)
            last_t = t
            if cur["start"] is None and rest.startswith("INFO:"):
                cur["start"] = t
            t0 = cur["start"]
            if t0 is None:
                continue
            cur["end"] = max(cur["end"], t - t0)
            m = LINE.match(line)
            if m:
                _, n, _, cov, ft = m.groups()
                cur["points"].append((t - t0, int(n), int(cov), int(ft)))
                continue
            c = CPU.search(rest)
            if c:
                cur["cpu"] = float(c.group(1))
    return [(r["points"], r["end"], r["cpu"]) for r in runs if r["start"] is not None]


def curve(paths):
    """One target's points over all its runs, the clock continued."""
    out, offset, execs, cpu, best = [], 0.0, 0, 0.0, 0
    for p in paths:
        for pts, length, c in read_runs(p):
            for t, n, cov, ft in pts:
                # A run that reloads the corpus reports the coverage of
                # what it has re-run so far: the curve keeps the best.
                best = max(best, cov)
                out.append((offset + t, execs + n, best, ft))
            if pts:
                execs += pts[-1][1]
            offset += length
            # A run without final stats leaves the CPU figure unknown.
            cpu = None if cpu is None or c is None else cpu + c
    return out, offset, execs, cpu


def at(points, t):
    """Coverage reached by time t (None before the first point)."""
    best = None
    for pt in points:
        if pt[0] <= t:
            best = pt[2]
        else:
            break
    return best


def svg(target, points, total, path):
    w, h, pad = 480, 200, 40
    if not points:
        return
    cmax = max(p[2] for p in points)
    cmin = min(p[2] for p in points)
    span = max(cmax - cmin, 1)

    def xy(t, c):
        x = pad + (w - 2 * pad) * (t / max(total, 1.0))
        y = h - pad - (h - 2 * pad) * ((c - cmin) / span)
        return f"{x:.1f},{y:.1f}"

    # One point per pixel column (the last of it): a log has thousands.
    columns = {}
    for t, _, c, _ in points:
        columns[int((w - 2 * pad) * t / max(total, 1.0))] = (t, c)
    poly = " ".join(xy(t, c) for t, c in columns.values())
    poly += " " + xy(total, points[-1][2])
    minutes = total / 60
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
        f'font-family="sans-serif" font-size="11">',
        f'<rect width="{w}" height="{h}" fill="white"/>',
        f'<text x="{pad}" y="16">{target}: coverage (edges) over {minutes:.0f} min</text>',
        f'<line x1="{pad}" y1="{h - pad}" x2="{w - pad}" y2="{h - pad}" stroke="black"/>',
        f'<line x1="{pad}" y1="{pad}" x2="{pad}" y2="{h - pad}" stroke="black"/>',
        f'<text x="{pad - 4}" y="{h - pad}" text-anchor="end">{cmin}</text>',
        f'<text x="{pad - 4}" y="{pad + 4}" text-anchor="end">{cmax}</text>',
        f'<text x="{w - pad}" y="{h - pad + 14}" text-anchor="end">{minutes:.0f} min</text>',
        f'<text x="{pad}" y="{h - pad + 14}">0</text>',
        f'<polyline fill="none" stroke="#1f77b4" stroke-width="1.5" points="{poly}"/>',
        "</svg>",
    ]
    with open(path, "w") as f:
        f.write("\n".join(parts) + "\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--svg", help="directory for one SVG curve per target")
    ap.add_argument("logs", nargs="+")
    a = ap.parse_args()
    by_target = OrderedDict()
    for p in a.logs:
        by_target.setdefault(os.path.basename(p).split(".", 1)[0], []).append(p)
    header = ["target", "time", "CPU", "inputs"]
    header += [f"{m} min" for m in MARKS_MIN] + ["end", "last 10%"]
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join([" --- "] + [" ---: "] * (len(header) - 1)) + "|")
    for target, paths in by_target.items():
        points, total, execs, cpu = curve(paths)
        if not points:
            print(f"{target}: no coverage lines", file=sys.stderr)
            continue
        row = [
            f"`{target}`",
            f"{total / 60:.1f} min",
            "?" if cpu is None else f"{cpu / 60:.1f} min",
            f"{execs:,}",
        ]
        for m in MARKS_MIN:
            c = at(points, m * 60) if m * 60 <= total else None
            row.append("" if c is None else f"{c:,}")
        end = points[-1][2]
        before = at(points, total * 0.9) or points[0][2]
        row += [f"{end:,}", f"+{end - before:,}"]
        print("| " + " | ".join(row) + " |")
        if a.svg:
            os.makedirs(a.svg, exist_ok=True)
            svg(target, points, total, os.path.join(a.svg, f"{target}.svg"))


if __name__ == "__main__":
    main()
