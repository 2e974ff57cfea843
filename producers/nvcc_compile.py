"""Compile producers/cuda/*.cu and producers/cuda_nvcc/*.cu to PTX with nvcc (CUDA 13.x, no GPU needed).

Usage: python nvcc_compile.py OUTDIR [NVCC]
NVCC defaults to $NVCC, else ../shared/tools/nvcc next to the repository, else `nvcc` on PATH.
Writes OUTDIR/<source>.<variant>.ptx and prints "<file>\t<producer version>\t<flags>".
"""
import concurrent.futures as cf
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# source stem -> variants; a variant is "ARCH" or "ARCH:flag,flag" where flags are G (debug), L (-lineinfo),
# R (-rdc=true), F (--use_fast_math), O0 (-Xptxas is irrelevant for -ptx; means -O0 host-side, -G implied no)
PLAN = {
    "warp_reduce": ["sm_86", "sm_120", "sm_80:G"],
    "atomics": ["sm_86", "sm_100", "sm_75:G"],
    "half_bf16": ["sm_89", "sm_90:G"],
    "inline_asm": ["sm_86", "sm_103a", "sm_80:G"],
    "texture": ["sm_86", "sm_75:G"],
    "coop_groups": ["sm_89", "sm_90:G"],
    "clusters": ["sm_90a", "sm_100f", "sm_90:G"],
    "async_copy": ["sm_86", "sm_90a", "sm_80:L"],
    "wmma": ["sm_86", "sm_89", "sm_80:G"],
    "fp8": ["sm_89", "sm_120f", "sm_90:L"],
    "misc_calls": ["sm_86:R", "sm_80:G,R", "sm_75:L"],
    "math": ["sm_86:F", "sm_100f", "sm_75:G"],
    "grid_constant": ["sm_86", "sm_90:L"],
    "sm90_features": ["sm_90a", "sm_100f", "sm_103a", "sm_90a:G"],
    "sm100_tcgen05": ["sm_100f", "sm_103a", "sm_100a:G"],
    "dyn_parallel": ["sm_80:R", "sm_90:G,R"],
    "extern_linkage": ["sm_75:R", "sm_80:G,R"],
    "classes": ["sm_75", "sm_86:G"],
    # unseen-cuda kernels (issue #27: new kernels, flags and targets)
    "atomics_all": ["sm_75", "sm_90", "sm_121a", "sm_80:L"],
    "cache_hints": ["sm_86", "sm_100a", "sm_90:F"],
    "cg_more": ["sm_86", "sm_100a", "sm_80:R"],
    "cub_blocks": ["sm_86", "sm_90:L"],
    "cuda_ptx_wrappers": ["sm_90a", "sm_100a:L"],
    "libcudacxx": ["sm_86", "sm_100a:R"],
    "lowp_convert": ["sm_86", "sm_100a", "sm_120a:L", "sm_100a:F"],
    "mma_asm": ["sm_75", "sm_90a", "sm_120a", "sm_89:G"],
    "runtime_misc": ["sm_86", "sm_120a:R", "sm_75:G,R", "sm_90:L,F"],
    "tex_surf": ["sm_86", "sm_89:L"],
    "warp_ops": ["sm_86", "sm_121a", "sm_100a:F"],
    "wmma_all": ["sm_86", "sm_120a", "sm_75:L"],
    "dyn_tail": ["sm_80:R", "sm_90:G,R", "sm_120a:L,R"],
}
FLAGS = {"G": ["-G"], "L": ["-lineinfo"], "R": ["-rdc=true"], "F": ["--use_fast_math"]}


def nvcc_path():
    if len(sys.argv) > 2:
        return sys.argv[2]
    if os.environ.get("NVCC"):
        return os.environ["NVCC"]
    shared = os.path.join(HERE, "..", "..", "shared", "tools", "nvcc")
    if os.path.exists(shared):
        return os.path.abspath(shared)
    return shutil.which("nvcc")


def version(nvcc):
    out = subprocess.run([nvcc, "--version"], capture_output=True, text=True).stdout
    m = re.search(r"release ([0-9.]+), V([0-9.]+)", out)
    return f"nvcc {m.group(2)}" if m else "nvcc ?"


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    nvcc = nvcc_path()
    ver = version(nvcc)
    jobs = []
    for sub in ("cuda", "cuda_nvcc"):
        for name in sorted(os.listdir(os.path.join(HERE, sub))):
            stem = name[:-3]
            for variant in PLAN.get(stem, []):
                arch, _, flags = variant.partition(":")
                extra = [f for fl in flags.split(",") if fl for f in FLAGS[fl]]
                suffix = arch.replace("_", "") + "".join("." + fl.lower() for fl in flags.split(",") if fl)
                fname = f"{stem}.{suffix}.ptx"
                cmd = [nvcc, "-ptx", f"-arch={arch}", "-std=c++17", "--extended-lambda", *extra,
                       os.path.join(HERE, sub, name), "-o", os.path.join(out, fname)]
                jobs.append((fname, cmd, " ".join([f"-arch={arch}", *extra])))

    def run(job):
        fname, cmd, flags = job
        p = subprocess.run(cmd, capture_output=True, text=True)
        return fname, flags, p.returncode, p.stderr

    with cf.ThreadPoolExecutor(max_workers=os.cpu_count() or 4) as pool:
        for fname, flags, rc, err in pool.map(run, jobs):
            if rc != 0:
                print(f"# skip {fname}: {err.strip().splitlines()[:3]}", file=sys.stderr)
                continue
            print(f"{fname}\t{ver}\t{flags}")


if __name__ == "__main__":
    main()
