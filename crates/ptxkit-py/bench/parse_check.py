"""Parse + check one PTX module from Python, against the same work in Rust.

Usage (from the repository root, with the package installed in an
optimised build, e.g. `pip install crates/ptxkit-py`):

    RAYON_NUM_THREADS=1 python crates/ptxkit-py/bench/parse_check.py [FILE] [--seconds S] [--rust [--xtask target/release/xtask]]

FILE defaults to the ~1 MB module of ../shared/corpus named in issue #29.
Prints the best time of `ptxkit.parse(text).check()` (the text already in
memory as a `str`, as Triton or numba hand it over), of parse alone and of
the check alone. With --rust it also runs
`cargo run --release -p xtask -- bench --no-split --no-ptxas FILE`, whose
"semantic check (streamed)" row on one core is the same parse + check in
Rust, and prints the ratio.
"""

import argparse
import os
import re
import subprocess
import sys
import time

import ptxkit

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
DEFAULT = os.path.join(
    ROOT, "..", "shared", "corpus", "jialunzhang-psu__ptx-90-parser",
    "tests__sample__matrix_free_device_matrix_vector_01.1.sm_80.ptx",
)


def best(seconds, fn):
    """Best wall time of fn() over at least `seconds` and 5 runs, and the
    mean CPU time of this thread per run (with RAYON_NUM_THREADS=1 all the
    work is on this thread; the CPU figure is the steadier one on a busy
    machine)."""
    times = []
    start = time.perf_counter()
    cpu = time.thread_time()
    while len(times) < 5 or time.perf_counter() - start < seconds:
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times), (time.thread_time() - cpu) / len(times), len(times)


def rust_seconds(path, seconds, xtask=None):
    """Seconds per parse + check in Rust (xtask bench, one core): best wall
    and CPU per run. `xtask` names an already built release binary
    (target/release/xtask) instead of `cargo run --release -p xtask`."""
    cmd = [xtask] if xtask else ["cargo", "run", "--quiet", "--release", "-p", "xtask", "--"]
    out = subprocess.run(
        cmd + ["bench", "--seconds", str(seconds), "--no-split", "--no-ptxas", path],
        cwd=ROOT, check=True, capture_output=True, text=True,
    ).stdout
    mb = os.path.getsize(path) / 1e6
    for line in out.splitlines():
        m = re.match(r"semantic check \(streamed\)\s+1\s+([\d.]+)\s+\d+\s+([\d.]+)", line)
        if m:
            return mb / float(m.group(1)), mb / float(m.group(2)), line
    raise SystemExit("no `semantic check (streamed)` row in:\n" + out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file", nargs="?", default=DEFAULT)
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--rust", action="store_true")
    ap.add_argument("--xtask", help="a built xtask binary to use for --rust")
    a = ap.parse_args()
    if not os.path.exists(a.file):
        raise SystemExit(f"{a.file}: not found (../shared/corpus is needed)")
    with open(a.file) as f:
        text = f.read()
    mb = len(text.encode()) / 1e6
    m = ptxkit.parse(text, path=a.file)
    ds = m.check()
    errors = sum(d.is_error for d in ds)
    print(f"{a.file}: {mb:.2f} MB, {sum(len(f.instructions) for f in m.functions)} instructions, "
          f"{errors} error(s); ptxkit {ptxkit.__version__}, "
          f"RAYON_NUM_THREADS={os.environ.get('RAYON_NUM_THREADS', 'unset')}")
    both, both_cpu, n = best(a.seconds, lambda: ptxkit.parse(text, path=a.file).check())
    parse, parse_cpu, _ = best(a.seconds, lambda: ptxkit.parse(text, path=a.file))
    check, check_cpu, _ = best(a.seconds, m.check)
    print(f"{'':22}{'best wall':>10}{'CPU/run':>10}")
    print(f"python parse + check: {both * 1e3:7.2f} ms {both_cpu * 1e3:7.2f} ms  "
          f"({mb / both:.1f} MB/s, {n} runs)")
    print(f"python parse:         {parse * 1e3:7.2f} ms {parse_cpu * 1e3:7.2f} ms")
    print(f"python check:         {check * 1e3:7.2f} ms {check_cpu * 1e3:7.2f} ms")
    if a.rust:
        wall, cpu, row = rust_seconds(a.file, a.seconds, a.xtask)
        print(f"rust parse + check:   {wall * 1e3:7.2f} ms {cpu * 1e3:7.2f} ms  (xtask bench row: {' '.join(row.split())})")
        print(f"python / rust:        {both / wall:7.2f}x  {both_cpu / cpu:7.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
