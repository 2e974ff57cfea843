#!/usr/bin/env python3
"""Regenerate the producer corpus: crates/ptxkit/tests/data/producers/<producer>/*.ptx and MANIFEST.tsv.

    python producers/generate.py                  # every producer that is installed, then the manifest
    python producers/generate.py --only triton    # one producer (comma-separated list allowed)
    python producers/generate.py --manifest-only  # only re-run ptxas over the committed files

Each producer runs in its own process (python of this interpreter) and prints "<file>\t<version>\t<note>"
per file written to a staging folder; files over MAX_BYTES are dropped. The manifest's verdict is
`ptxas -arch=<the file's .target> FILE -o /dev/null` (exit 0 = accept). Relocatable output (nvcc/NVRTC -rdc,
LLVM IR with external declarations) that ptxas only refuses for "Unresolved extern" in whole-program mode
is judged with `ptxas -c` instead, which the last column records.
ptxas: $PTXAS, else ../shared/tools/ptxas beside the repository, else ptxas on PATH.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
DATA = os.path.join(REPO, "crates", "ptxkit", "tests", "data", "producers")
MAX_BYTES = 300 * 1024

# producer folder -> script (relative to producers/)
PRODUCERS = {
    "triton": "triton_kernels.py",
    "triton2": "triton_kernels2.py",
    "numba": "numba_kernels.py",
    "numba2": "numba_kernels2.py",
    "nvrtc": "nvrtc_compile.py",
    "nvcc": "nvcc_compile.py",
    "cutlass": "cutlass/cutlass_compile.py",
    "llvm": "llvm_compile.py",
}
HEADER = ["path", "producer", "version", "target", "verdict", "ptxas_error", "ptxas_flags"]


def ptxas_path():
    if os.environ.get("PTXAS"):
        return os.environ["PTXAS"]
    shared = os.path.join(REPO, "..", "shared", "tools", "ptxas")
    return os.path.abspath(shared) if os.path.exists(shared) else shutil.which("ptxas")


def target_of(path):
    with open(path, errors="replace") as f:
        for line in f:
            s = line.strip()
            if s.startswith(".target"):
                return s.split()[1].rstrip(",")
    return "?"


def ptxas_verdict(ptxas, path, target):
    def run(extra):
        p = subprocess.run([ptxas, f"-arch={target}", *extra, path, "-o", os.devnull], capture_output=True, text=True)
        lines = [line.strip() for line in (p.stderr + p.stdout).splitlines() if line.strip()]
        errs = [line for line in lines if "error" in line or "fatal" in line]
        first = (errs or lines or [""])[0].replace(path, "FILE").replace("\t", " ")
        return p.returncode == 0, first

    ok, err = run([])
    if not ok and "Unresolved extern" in err:
        ok2, err2 = run(["-c"])
        return ("accept" if ok2 else "reject"), ("" if ok2 else err2), "-c"
    return ("accept" if ok else "reject"), ("" if ok else err), ""


def read_manifest():
    rows = {}
    path = os.path.join(DATA, "MANIFEST.tsv")
    if os.path.exists(path):
        with open(path) as f:
            for line in f.read().splitlines()[1:]:
                cols = line.split("\t")
                rows[cols[0]] = dict(zip(HEADER, cols))
    return rows


def generate(name, script):
    stage = tempfile.mkdtemp(prefix=f"ptx-{name}-")
    print(f"== {name}: {script}", file=sys.stderr)
    p = subprocess.run([sys.executable, os.path.join(HERE, script), stage], capture_output=True, text=True)
    for line in p.stderr.splitlines():
        if line.startswith("# "):
            print("   " + line, file=sys.stderr)
    if p.returncode != 0:
        print(f"   {name} failed (exit {p.returncode}): {p.stderr.strip().splitlines()[-1:]}", file=sys.stderr)
    made = {}
    for line in p.stdout.splitlines():
        parts = line.split("\t")
        if len(parts) >= 2 and parts[0].endswith(".ptx"):
            made[parts[0]] = parts[1]
    if not made:
        print(f"   {name}: nothing generated; keeping the committed files", file=sys.stderr)
        return {}
    dest = os.path.join(DATA, name)
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(dest)
    kept = {}
    for fname, version in sorted(made.items()):
        src = os.path.join(stage, fname)
        size = os.path.getsize(src)
        if size > MAX_BYTES:
            print(f"   drop {fname}: {size} bytes", file=sys.stderr)
            continue
        shutil.copy(src, os.path.join(dest, fname))
        kept[f"{name}/{fname}"] = version
    shutil.rmtree(stage, ignore_errors=True)
    print(f"   {name}: {len(kept)} files", file=sys.stderr)
    return kept


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default="")
    ap.add_argument("--manifest-only", action="store_true")
    args = ap.parse_args()
    old = read_manifest()
    versions = {k: v["version"] for k, v in old.items()}
    if not args.manifest_only:
        only = set(filter(None, args.only.split(",")))
        for name, script in PRODUCERS.items():
            if only and name not in only:
                continue
            kept = generate(name, script)
            if kept:
                versions = {k: v for k, v in versions.items() if not k.startswith(name + "/")}
                versions.update(kept)
    ptxas = ptxas_path()
    rows = []
    for name in PRODUCERS:
        folder = os.path.join(DATA, name)
        if not os.path.isdir(folder):
            continue
        for fname in sorted(os.listdir(folder)):
            rel = f"{name}/{fname}"
            path = os.path.join(folder, fname)
            target = target_of(path)
            verdict, err, flags = ptxas_verdict(ptxas, path, target)
            rows.append([rel, name, versions.get(rel, "?"), target, verdict, err, flags])
    with open(os.path.join(DATA, "MANIFEST.tsv"), "w") as f:
        f.write("\t".join(HEADER) + "\n")
        for r in rows:
            f.write("\t".join(r) + "\n")
    acc = sum(r[4] == "accept" for r in rows)
    print(f"manifest: {len(rows)} files, {acc} accepted, {len(rows) - acc} rejected", file=sys.stderr)


if __name__ == "__main__":
    main()
