//! The checker against ptxas on PTX from real producers: Triton, numba-cuda,
//! NVRTC, nvcc, CUTLASS/CuTe through nvcc, and LLVM's NVPTX back end, made
//! here by `producers/generate.py` and kept in `tests/data/producers` with
//! ptxas's verdict per file in its `MANIFEST.tsv` (so this test needs nothing
//! outside the repository).
//!
//! A file ptxas accepts must give no error (parse and check, as `ptx check`
//! does it); a file ptxas rejects must give at least one. Files the checker
//! still rejects wrongly are listed in [`KNOWN_FALSE_REJECTIONS`]: they are
//! skipped, and the test fails once one of them passes, so the list only
//! shrinks as the checker is fixed.

use std::path::{Path, PathBuf};

use ptxkit::check::{check_source, CheckOptions};
use ptxkit::LineIndex;

/// ptxas-accepted files on which the checker reports an error today, by
/// manifest path. Remove an entry once the checker accepts the file.
const KNOWN_FALSE_REJECTIONS: &[&str] = &[
    // Grouped by the first error the checker reports (at b71dd2a). Later errors in
    // these files also include `cvt.rn.f16x2.e4m3x2`/`e5m2x2` refusing a .b16 `a` and
    // `cvt.bf16.f16` asking for a rounding modifier (ptxas accepts both).
    // `mul.wide`/`mad.wide` (.s32/.u32/.u16): the double-width `d` (and `c`) rejected, e.g.
    // "`%rd4` is a .b64 register, which `mul.wide.s32` cannot use as `d`" (243 files)
    "cutlass/cute_sm100_gemm.sm100a.ptx",
    "cutlass/cute_sm80_gemm.sm120.ptx",
    "cutlass/cute_sm80_gemm.sm80.ptx",
    "cutlass/cute_sm80_gemm.sm89.ptx",
    "cutlass/cute_sm90_gemm.sm90a.ptx",
    "cutlass/cute_sm90_gemm_n64.sm90a.ptx",
    "cutlass/cutlass2_int8.sm86.ptx",
    "cutlass/cutlass2_simt.sm75.ptx",
    "cutlass/cutlass2_tensorop.sm75.ptx",
    "cutlass/cutlass2_tensorop.sm80.ptx",
    "llvm/calls.sm120a.ptx",
    "llvm/calls.sm75.ptx",
    "llvm/calls.sm86.ptx",
    "llvm/calls.sm90.ptx",
    "llvm/cluster.sm100a.ptx",
    "llvm/cluster.sm90.ptx",
    "llvm/cluster.sm90a.ptx",
    "llvm/reduce.sm100a.ptx",
    "llvm/reduce.sm75.ptx",
    "llvm/reduce.sm80.ptx",
    "llvm/reduce.sm90a.ptx",
    "llvm/tensor.sm100a.ptx",
    "llvm/tensor.sm80.ptx",
    "llvm/tensor.sm86.ptx",
    "llvm/tensor.sm90.ptx",
    "llvm/vecadd.sm120a.ptx",
    "llvm/vecadd.sm75.ptx",
    "llvm/vecadd.sm80.ptx",
    "llvm/vecadd.sm90.ptx",
    "numba/atomics.sm75.ptx",
    "numba/atomics.sm90.ptx",
    "numba/atomics_u64.sm80.ptx",
    "numba/block_reduce.sm120.ptx",
    "numba/block_reduce.sm75.ptx",
    "numba/block_reduce.sm80.ptx",
    "numba/clock_nanosleep.sm75.ptx",
    "numba/clock_nanosleep.sm90.ptx",
    "numba/complex_mul.sm80.ptx",
    "numba/dynamic_shared.sm100.ptx",
    "numba/dynamic_shared.sm75.ptx",
    "numba/fp16_ops.sm75.ptx",
    "numba/fp16_ops.sm80.ptx",
    "numba/fp16_ops.sm90.ptx",
    "numba/local_array.sm80.ptx",
    "numba/math_fns.sm100.ptx",
    "numba/math_fns.sm80.ptx",
    "numba/math_fns_f64.sm80.ptx",
    "numba/math_fns_fastmath.sm89.ptx",
    "numba/stencil_2d.sm80.ptx",
    "numba/vec_add.sm75.ptx",
    "numba/vec_add.sm80.ptx",
    "numba/vec_add.sm90.ptx",
    "numba/vec_add_lineinfo.sm86.ptx",
    "numba/warp_ops.sm75.ptx",
    "numba/warp_ops.sm90.ptx",
    "nvcc/async_copy.sm80.l.ptx",
    "nvcc/async_copy.sm86.ptx",
    "nvcc/async_copy.sm90a.ptx",
    "nvcc/atomics.sm100.ptx",
    "nvcc/atomics.sm86.ptx",
    "nvcc/classes.sm75.ptx",
    "nvcc/clusters.sm100f.ptx",
    "nvcc/clusters.sm90a.ptx",
    "nvcc/coop_groups.sm89.ptx",
    "nvcc/dyn_parallel.sm80.r.ptx",
    "nvcc/extern_linkage.sm75.r.ptx",
    "nvcc/fp8.sm120f.ptx",
    "nvcc/fp8.sm89.ptx",
    "nvcc/fp8.sm90.l.ptx",
    "nvcc/grid_constant.sm86.ptx",
    "nvcc/grid_constant.sm90.l.ptx",
    "nvcc/half_bf16.sm89.ptx",
    "nvcc/inline_asm.sm103a.ptx",
    "nvcc/inline_asm.sm86.ptx",
    "nvcc/math.sm100f.ptx",
    "nvcc/math.sm75.g.ptx",
    "nvcc/math.sm86.f.ptx",
    "nvcc/misc_calls.sm75.l.ptx",
    "nvcc/misc_calls.sm86.r.ptx",
    "nvcc/sm100_tcgen05.sm100f.ptx",
    "nvcc/sm100_tcgen05.sm103a.ptx",
    "nvcc/sm90_features.sm100f.ptx",
    "nvcc/sm90_features.sm103a.ptx",
    "nvcc/sm90_features.sm90a.ptx",
    "nvcc/warp_reduce.sm120.ptx",
    "nvcc/warp_reduce.sm86.ptx",
    "nvrtc/async_copy.nvrtc12.sm100a.ptx",
    "nvrtc/async_copy.nvrtc12.sm80.ptx",
    "nvrtc/async_copy.nvrtc13.sm100a.ptx",
    "nvrtc/async_copy.nvrtc13.sm120a.ptx",
    "nvrtc/async_copy.nvrtc13.sm80.ptx",
    "nvrtc/async_copy.nvrtc13.sm90.ptx",
    "nvrtc/atomics.nvrtc12.sm100a.ptx",
    "nvrtc/atomics.nvrtc12.sm80.ptx",
    "nvrtc/atomics.nvrtc13.sm100a.ptx",
    "nvrtc/atomics.nvrtc13.sm120a.ptx",
    "nvrtc/atomics.nvrtc13.sm75.ptx",
    "nvrtc/atomics.nvrtc13.sm80.ptx",
    "nvrtc/atomics.nvrtc13.sm90.ptx",
    "nvrtc/clusters.nvrtc12.sm100a.ptx",
    "nvrtc/clusters.nvrtc12.sm90a.ptx",
    "nvrtc/clusters.nvrtc13.sm100a.ptx",
    "nvrtc/clusters.nvrtc13.sm120a.ptx",
    "nvrtc/clusters.nvrtc13.sm90.ptx",
    "nvrtc/clusters.nvrtc13.sm90a.ptx",
    "nvrtc/coop_groups.nvrtc12.sm100a.ptx",
    "nvrtc/coop_groups.nvrtc12.sm80.ptx",
    "nvrtc/coop_groups.nvrtc13.sm100a.ptx",
    "nvrtc/coop_groups.nvrtc13.sm120a.ptx",
    "nvrtc/coop_groups.nvrtc13.sm75.ptx",
    "nvrtc/coop_groups.nvrtc13.sm80.ptx",
    "nvrtc/coop_groups.nvrtc13.sm90.ptx",
    "nvrtc/fp8.nvrtc12.sm100a.ptx",
    "nvrtc/fp8.nvrtc12.sm90a.ptx",
    "nvrtc/fp8.nvrtc13.sm100a.ptx",
    "nvrtc/fp8.nvrtc13.sm120a.ptx",
    "nvrtc/fp8.nvrtc13.sm90.ptx",
    "nvrtc/fp8.nvrtc13.sm90a.ptx",
    "nvrtc/grid_constant.nvrtc12.sm100a.ptx",
    "nvrtc/grid_constant.nvrtc12.sm80.ptx",
    "nvrtc/grid_constant.nvrtc13.sm100a.ptx",
    "nvrtc/grid_constant.nvrtc13.sm80.ptx",
    "nvrtc/grid_constant.nvrtc13.sm90.ptx",
    "nvrtc/half_bf16.nvrtc12.sm100a.ptx",
    "nvrtc/half_bf16.nvrtc12.sm80.ptx",
    "nvrtc/half_bf16.nvrtc13.sm100a.ptx",
    "nvrtc/half_bf16.nvrtc13.sm120a.ptx",
    "nvrtc/half_bf16.nvrtc13.sm75.ptx",
    "nvrtc/half_bf16.nvrtc13.sm80.ptx",
    "nvrtc/half_bf16.nvrtc13.sm90.ptx",
    "nvrtc/inline_asm.nvrtc12.sm100a.ptx",
    "nvrtc/inline_asm.nvrtc12.sm80.ptx",
    "nvrtc/inline_asm.nvrtc13.sm100a.ptx",
    "nvrtc/inline_asm.nvrtc13.sm120a.ptx",
    "nvrtc/inline_asm.nvrtc13.sm75.ptx",
    "nvrtc/inline_asm.nvrtc13.sm80.ptx",
    "nvrtc/inline_asm.nvrtc13.sm90.ptx",
    "nvrtc/math.nvrtc12.sm100a.ptx",
    "nvrtc/math.nvrtc12.sm80.ptx",
    "nvrtc/math.nvrtc13.sm100a.ptx",
    "nvrtc/math.nvrtc13.sm120a.ptx",
    "nvrtc/math.nvrtc13.sm75.ptx",
    "nvrtc/math.nvrtc13.sm80.ptx",
    "nvrtc/math.nvrtc13.sm90.ptx",
    "nvrtc/misc_calls.nvrtc12.sm100a.ptx",
    "nvrtc/misc_calls.nvrtc12.sm80.ptx",
    "nvrtc/misc_calls.nvrtc13.sm100a.ptx",
    "nvrtc/misc_calls.nvrtc13.sm120a.ptx",
    "nvrtc/misc_calls.nvrtc13.sm75.ptx",
    "nvrtc/misc_calls.nvrtc13.sm80.ptx",
    "nvrtc/misc_calls.nvrtc13.sm90.ptx",
    "nvrtc/sm100_tcgen05.nvrtc12.sm100a.ptx",
    "nvrtc/sm100_tcgen05.nvrtc13.sm100a.ptx",
    "nvrtc/sm90_features.nvrtc12.sm100a.ptx",
    "nvrtc/sm90_features.nvrtc12.sm90a.ptx",
    "nvrtc/sm90_features.nvrtc13.sm100a.ptx",
    "nvrtc/sm90_features.nvrtc13.sm90a.ptx",
    "nvrtc/warp_reduce.nvrtc12.sm100a.ptx",
    "nvrtc/warp_reduce.nvrtc12.sm80.ptx",
    "nvrtc/warp_reduce.nvrtc13.sm100a.ptx",
    "nvrtc/warp_reduce.nvrtc13.sm120a.ptx",
    "nvrtc/warp_reduce.nvrtc13.sm75.ptx",
    "nvrtc/warp_reduce.nvrtc13.sm80.ptx",
    "nvrtc/warp_reduce.nvrtc13.sm90.ptx",
    "nvrtc/wmma.nvrtc13.sm100a.ptx",
    "nvrtc/wmma.nvrtc13.sm120a.ptx",
    "triton/argmax_rows.sm80.ptx",
    "triton/argmax_rows.sm90.ptx",
    "triton/atomics_mix.sm100.ptx",
    "triton/atomics_mix.sm120.ptx",
    "triton/atomics_mix.sm75.ptx",
    "triton/atomics_mix.sm80.ptx",
    "triton/atomics_mix.sm90.ptx",
    "triton/attention_fwd.sm100.ptx",
    "triton/attention_fwd.sm120.ptx",
    "triton/attention_fwd.sm80.ptx",
    "triton/attention_fwd.sm90.ptx",
    "triton/cumsum.sm80.ptx",
    "triton/cumsum.sm90.ptx",
    "triton/debug_print.sm80.ptx",
    "triton/debug_print.sm90.ptx",
    "triton/dropout.sm100.ptx",
    "triton/dropout.sm80.ptx",
    "triton/fp8_convert.sm100.ptx",
    "triton/fp8_convert.sm120.ptx",
    "triton/fp8_convert.sm90.ptx",
    "triton/gather_hist.sm120.ptx",
    "triton/gather_hist.sm80.ptx",
    "triton/histogram.sm75.ptx",
    "triton/histogram.sm90.ptx",
    "triton/inline_asm.sm75.ptx",
    "triton/inline_asm.sm90.ptx",
    "triton/int_math.sm75.ptx",
    "triton/int_math.sm90.ptx",
    "triton/layernorm.sm100.ptx",
    "triton/layernorm.sm120.ptx",
    "triton/layernorm.sm75.ptx",
    "triton/layernorm.sm80.ptx",
    "triton/layernorm.sm90.ptx",
    "triton/math_ops.sm100.ptx",
    "triton/math_ops.sm75.ptx",
    "triton/math_ops.sm90.ptx",
    "triton/matmul_bf16_s4.sm100.ptx",
    "triton/matmul_bf16_s4.sm120.ptx",
    "triton/matmul_bf16_s4.sm80.ptx",
    "triton/matmul_bf16_s4.sm90.ptx",
    "triton/matmul_desc.sm100.ptx",
    "triton/matmul_desc.sm90.ptx",
    "triton/matmul_fp16.sm100.ptx",
    "triton/matmul_fp16.sm120.ptx",
    "triton/matmul_fp16.sm75.ptx",
    "triton/matmul_fp16.sm80.ptx",
    "triton/matmul_fp16.sm90.ptx",
    "triton/matmul_tf32.sm100.ptx",
    "triton/matmul_tf32.sm120.ptx",
    "triton/matmul_tf32.sm80.ptx",
    "triton/matmul_tf32.sm90.ptx",
    "triton/persistent_matmul.sm100.ptx",
    "triton/persistent_matmul.sm90.ptx",
    "triton/row_sum.sm100.ptx",
    "triton/row_sum.sm120.ptx",
    "triton/row_sum.sm75.ptx",
    "triton/row_sum.sm80.ptx",
    "triton/row_sum.sm90.ptx",
    "triton/saxpy_fp16.sm100.ptx",
    "triton/saxpy_fp16.sm120.ptx",
    "triton/saxpy_fp16.sm75.ptx",
    "triton/saxpy_fp16.sm80.ptx",
    "triton/saxpy_fp16.sm90.ptx",
    "triton/shapes.sm100.ptx",
    "triton/shapes.sm75.ptx",
    "triton/softmax.sm100.ptx",
    "triton/softmax.sm120.ptx",
    "triton/softmax.sm75.ptx",
    "triton/softmax.sm80.ptx",
    "triton/softmax.sm90.ptx",
    "triton/transpose.sm75.ptx",
    "triton/transpose.sm90.ptx",
    "triton/vadd.sm100.ptx",
    "triton/vadd.sm120.ptx",
    "triton/vadd.sm75.ptx",
    "triton/vadd.sm80.ptx",
    "triton/vadd.sm90.ptx",
    // a one-element brace list on a scalar ld/st, as Triton writes `ld.global.b8 { %rs1 }, [ %rd1 + 0 ];`:
    // "`ld.global.b8` takes a single value as `d`, not a vector" (12 files)
    "triton/dot_scaled_mx.sm100.ptx",
    "triton/dot_scaled_mx.sm120.ptx",
    "triton/dot_scaled_mx.sm90.ptx",
    "triton/inline_asm_packed.sm120.ptx",
    "triton/inline_asm_packed.sm80.ptx",
    "triton/matmul_fp8.sm100.ptx",
    "triton/matmul_fp8.sm120.ptx",
    "triton/matmul_fp8.sm90.ptx",
    "triton/matmul_int8.sm100.ptx",
    "triton/matmul_int8.sm120.ptx",
    "triton/matmul_int8.sm80.ptx",
    "triton/matmul_int8.sm90.ptx",
    // texture/surface coordinate vectors: "`%f6` is a .f32 register, which `tex.2d.v4.f32.f32`
    // cannot use as `c`" (also tld4, tex.level, suld.b/sust.b `b`) (8 files)
    "nvcc/texture.sm75.g.ptx",
    "nvcc/texture.sm86.ptx",
    "nvrtc/texture.nvrtc12.sm100a.ptx",
    "nvrtc/texture.nvrtc12.sm80.ptx",
    "nvrtc/texture.nvrtc13.sm100a.ptx",
    "nvrtc/texture.nvrtc13.sm75.ptx",
    "nvrtc/texture.nvrtc13.sm80.ptx",
    "nvrtc/texture.nvrtc13.sm90.ptx",
];

/// One row of `tests/data/producers/MANIFEST.tsv`.
struct Row {
    path: String,
    producer: String,
    verdict: String,
    ptxas_error: String,
}

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/producers")
}

fn manifest() -> Vec<Row> {
    let path = data_dir().join("MANIFEST.tsv");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("empty manifest").split('\t').collect();
    assert_eq!(
        header[..6],
        [
            "path",
            "producer",
            "version",
            "target",
            "verdict",
            "ptxas_error"
        ],
        "unexpected MANIFEST.tsv header"
    );
    lines
        .filter(|l| !l.is_empty())
        .map(|line| {
            let cols: Vec<&str> = line.split('\t').collect();
            let col = |i: usize| cols.get(i).copied().unwrap_or("").to_string();
            Row {
                path: col(0),
                producer: col(1),
                verdict: col(4),
                ptxas_error: col(5),
            }
        })
        .collect()
}

/// The first error the checker reports, as `line:col: message`.
fn first_error(src: &[u8]) -> Option<String> {
    let diags = check_source(src, &CheckOptions::default());
    let d = diags.iter().find(|d| d.is_error())?;
    let lc = LineIndex::new(src).line_col(d.span.start);
    Some(format!("{}:{}: {}", lc.line, lc.col, d.message))
}

#[test]
fn checker_agrees_with_ptxas_on_producer_output() {
    let rows = manifest();
    assert!(
        rows.len() >= 150,
        "expected at least 150 producer files, the manifest lists {}",
        rows.len()
    );
    let mut failures = Vec::new();
    let (mut accepted, mut rejected, mut known) = (0usize, 0usize, 0usize);
    // Every ptxas-accepted file the checker rejects today: the list as it
    // should read now, printed with any failure.
    let mut wrongly_rejected = Vec::new();
    for row in &rows {
        let Ok(src) = std::fs::read(data_dir().join(&row.path)) else {
            failures.push(format!("{}: listed in MANIFEST.tsv but missing", row.path));
            continue;
        };
        let error = first_error(&src);
        let listed = KNOWN_FALSE_REJECTIONS.contains(&row.path.as_str());
        if row.verdict == "accept" && error.is_some() {
            wrongly_rejected.push(format!("    \"{}\",", row.path));
        }
        match (row.verdict.as_str(), error) {
            ("accept", None) if listed => failures.push(format!(
                "{}: the checker accepts it now; remove it from KNOWN_FALSE_REJECTIONS",
                row.path
            )),
            ("accept", None) => accepted += 1,
            ("accept", Some(_)) if listed => known += 1,
            ("accept", Some(e)) => failures.push(format!(
                "{}:{e}  (ptxas accepts this {} output)",
                row.path, row.producer
            )),
            ("reject", Some(_)) => rejected += 1,
            ("reject", None) => failures.push(format!(
                "{}: ptxas rejects it ({}) but the checker reports no error",
                row.path, row.ptxas_error
            )),
            (v, _) => failures.push(format!("{}: unknown verdict {v:?}", row.path)),
        }
    }
    for path in KNOWN_FALSE_REJECTIONS {
        if !rows
            .iter()
            .any(|r| r.path == *path && r.verdict == "accept")
        {
            failures.push(format!(
                "{path}: in KNOWN_FALSE_REJECTIONS but not an accepted file of the manifest"
            ));
        }
    }
    eprintln!(
        "producers: {} files; {accepted} accepted and {rejected} rejected as ptxas does; \
         {known} known false rejections skipped",
        rows.len()
    );
    assert!(
        failures.is_empty(),
        "{} disagreement(s) with ptxas:\n{}\n\nKNOWN_FALSE_REJECTIONS as it would read now ({} files):\n{}",
        failures.len(),
        failures.join("\n"),
        wrongly_rejected.len(),
        wrongly_rejected.join("\n")
    );
}
