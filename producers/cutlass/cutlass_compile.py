"""Compile the CUTLASS / CuTe sources in this folder to PTX with nvcc and the CUTLASS headers from the
nvidia-cutlass wheel (cutlass_library/source/include).

Usage: python cutlass_compile.py OUTDIR [NVCC]
Prints "<file>\t<producer version>\t<flags>" per file written.
"""
import concurrent.futures as cf
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from nvcc_compile import nvcc_path, version  # noqa: E402

# output stem, source, arch, extra flags
PLAN = [
    ("cutlass2_simt.sm75", "cutlass2_gemm.cu", "sm_75", []),
    ("cutlass2_tensorop.sm75", "cutlass2_gemm.cu", "sm_75", ["-DGEMM_TENSOROP_SM75"]),
    ("cutlass2_tensorop.sm80", "cutlass2_gemm.cu", "sm_80", ["-DGEMM_TENSOROP_SM80"]),
    ("cutlass2_int8.sm86", "cutlass2_gemm.cu", "sm_86", ["-DGEMM_INT8_SM80"]),
    ("cute_sm80_gemm.sm80", "cute_sm80_gemm.cu", "sm_80", []),
    ("cute_sm80_gemm.sm89", "cute_sm80_gemm.cu", "sm_89", []),
    ("cute_sm80_gemm.sm120", "cute_sm80_gemm.cu", "sm_120", []),
    ("cute_sm90_gemm.sm90a", "cute_sm90_gemm.cu", "sm_90a", []),
    ("cute_sm90_gemm_n64.sm90a", "cute_sm90_gemm.cu", "sm_90a", ["-DTILE_N=64"]),
    ("cute_sm100_gemm.sm100a", "cute_sm90_gemm.cu", "sm_100a", ["-DARCH_TAG=cutlass::arch::Sm100"]),
    # unseen-cuda: other element types, tiles, clusters and epilogues (issue #27)
    ("cutlass2_bf16.sm80", "cutlass2_more.cu", "sm_80", ["-DV_BF16"]),
    ("cutlass2_tf32.sm86", "cutlass2_more.cu", "sm_86", ["-DV_TF32"]),
    ("cutlass2_f64.sm80", "cutlass2_more.cu", "sm_80", ["-DV_F64"]),
    ("cutlass2_int4.sm80", "cutlass2_more.cu", "sm_80", ["-DV_INT4"]),
    ("cutlass2_fp8.sm89", "cutlass2_more.cu", "sm_89", ["-DV_FP8"]),
    ("cutlass2_u8.sm75", "cutlass2_more.cu", "sm_75", ["-DV_SM75_INT8"]),
    ("cute_sm90_bf16_c2.sm90a", "cute_sm90_more.cu", "sm_90a", []),
    ("cute_sm90_fp8.sm90a", "cute_sm90_more.cu", "sm_90a", ["-DEA=cutlass::float_e4m3_t", "-DEB=cutlass::float_e4m3_t",
     "-DALIGN_AB=16", "-DEC=cutlass::half_t", "-DTM=128", "-DTN=128", "-DTK=128", "-DCM=1"]),
    ("cute_sm90_tf32_coop.sm90a", "cute_sm90_more.cu", "sm_90a", ["-DEA=cutlass::tfloat32_t", "-DEB=cutlass::tfloat32_t",
     "-DALIGN_AB=4", "-DEC=float", "-DTM=128", "-DTN=64", "-DTK=32", "-DCM=2",
     "-DSCHED=cutlass::gemm::KernelTmaWarpSpecializedCooperative",
     "-DESCHED=cutlass::epilogue::TmaWarpSpecializedCooperative"]),
    ("cute_sm100_fp8_2sm.sm100a", "cute_sm90_more.cu", "sm_100a", ["-DARCH_TAG=cutlass::arch::Sm100",
     "-DEA=cutlass::float_e4m3_t", "-DEB=cutlass::float_e4m3_t", "-DALIGN_AB=16", "-DEC=cutlass::bfloat16_t", "-DTM=256",
     "-DTN=128", "-DTK=128", "-DCM=2"]),
    ("cute_sm120_fp8.sm120a", "cute_sm90_more.cu", "sm_120a", ["-DARCH_TAG=cutlass::arch::Sm120",
     "-DEA=cutlass::float_e4m3_t", "-DEB=cutlass::float_e4m3_t", "-DALIGN_AB=16", "-DEC=cutlass::half_t", "-DTM=128",
     "-DTN=128", "-DTK=128", "-DCM=1"]),
]


def cutlass_include():
    import cutlass_library
    return os.path.join(os.path.dirname(cutlass_library.__file__), "source", "include")


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    nvcc = nvcc_path()
    from importlib.metadata import version as pkg_version
    ver = f"{version(nvcc)} + cutlass {pkg_version('nvidia-cutlass')}"
    inc = cutlass_include()

    def run(item):
        stem, src, arch, extra = item
        cmd = [nvcc, "-ptx", f"-arch={arch}", "-std=c++17", "--expt-relaxed-constexpr", f"-I{inc}", *extra,
               os.path.join(HERE, src), "-o", os.path.join(out, stem + ".ptx")]
        p = subprocess.run(cmd, capture_output=True, text=True)
        return stem, " ".join([f"-arch={arch}", *extra]), p.returncode, p.stderr

    with cf.ThreadPoolExecutor(max_workers=os.cpu_count() or 4) as pool:
        for stem, flags, rc, err in pool.map(run, PLAN):
            if rc != 0:
                errs = [line for line in err.splitlines() if "error" in line][:3]
                print(f"# skip {stem}: {errs}", file=sys.stderr)
                continue
            print(f"{stem}.ptx\t{ver}\t{flags}")


if __name__ == "__main__":
    main()
