"""A Triton kernel compiled without a GPU (for sm_90) and its PTX checked."""

import os

import pytest

import ptxkit
from conftest import need


def test_triton_kernel_ptx_checks_clean():
    os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
    try:
        import triton
        import triton.language as tl
        from triton.backends.compiler import GPUTarget
    except ImportError as e:
        need("triton", f"cannot import it: {e}")

    @triton.jit
    def add(x, y, out, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        m = offs < n
        tl.store(out + offs, tl.load(x + offs, mask=m) + tl.load(y + offs, mask=m), mask=m)

    src = triton.compiler.ASTSource(
        fn=add, signature={"x": "*fp32", "y": "*fp32", "out": "*fp32", "n": "i32"},
        constexprs={"BLOCK": 256})
    compiled = triton.compiler.compile(src, target=GPUTarget("cuda", 90, 32))
    m = ptxkit.parse(compiled.asm["ptx"], path="add.ptx")
    assert m.check() == []
    assert m.target.startswith("sm_90")
    (k,) = m.kernels
    assert k.name == "add"
    stats = m.stats(per_function=True)["add"]
    assert stats.get("ld", 0) >= 2 and stats.get("st", 0) >= 1
    # A broken copy is rejected at the line of the damage.
    ptx = compiled.asm["ptx"]
    at = ptx.index("ld.global")
    line = ptx.count("\n", 0, at) + 1
    (d, *_) = ptxkit.parse(ptx[:at] + "ld.glob" + ptx[at + 9:]).check()
    assert d.is_error and d.line == line
