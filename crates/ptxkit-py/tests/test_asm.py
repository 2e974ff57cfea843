"""check_asm (`ptx check-asm`): inline PTX in CUDA C++."""

import pytest

import ptxkit
from conftest import DATA

MIXED = DATA / "inline_asm" / "mixed.cu"


def test_mixed_file():
    sts = ptxkit.check_asm_file(MIXED, targets=["sm_80", "sm_90a"])
    assert len(sts) == 21
    by = {s: sum(x.status == s for x in sts) for s in ("valid", "invalid", "skipped")}
    assert by == {"valid": 12, "invalid": 9, "skipped": 0}
    v = next(s for s in sts if s.line == 31)
    assert v.is_valid and v.targets == ["sm_90a"]
    # The macro in its template is expanded: `mov.b32 %0, .u32;`, reported
    # on the macro's `#define` (line 5).
    ex = next(s for s in sts if s.line == 32)
    assert ex.status == "invalid" and ex.expanded == ["PTX_TYPE"]
    assert ex.diagnostics[0].line == 5


def test_diagnostics_point_into_the_literal():
    sts = ptxkit.check_asm(MIXED.read_text(), targets=["sm_80", "sm_90a"], path="mixed.cu")
    bad = next(s for s in sts if s.line == 40)
    (d,) = bad.diagnostics
    assert (d.code, d.line, d.col) == ("E0202", 40, 11)
    assert d.notes == ["in an asm statement: the same for every target"]
    assert str(d).startswith("mixed.cu:40:11: error: unknown modifier `.s23` for `add` [E0202]\n")
    assert bad.constraints == ["=r", "r", "r"]
    assert bad.template == '"add.s23 %0, %1, %2;"'


def test_every_target_by_default():
    src = 'void f(int a){ int c; asm("add.s32 %0, %1, %1;" : "=r"(c) : "r"(a)); }'
    (s,) = ptxkit.check_asm(src)
    assert s.is_valid and s.targets == ptxkit.targets()
    with pytest.raises(ValueError, match="unknown target"):
        ptxkit.check_asm(src, targets=["sm_3"])


def test_guards_expansion_and_json_agree():
    src = (
        '#define LD "ld.global"\n'
        "__device__ void f(int* p, int x) {\n"
        "#if __CUDA_ARCH__ < 900\n"
        '  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");\n'
        "#endif\n"
        "#ifndef __CUDA_ARCH__\n"
        '  asm("host only");\n'
        "#endif\n"
        '  asm volatile(LD ".b32 %0, [%1];" : "=r"(x) : "l"(p));\n'
        "}\n"
    )
    sts = ptxkit.check_asm(src, targets=["sm_80", "sm_90a"])
    # The host-only statement is not PTX: left out.
    assert [s.line for s in sts] == [4, 9]
    bad, ld = sts
    assert bad.status == "invalid"
    assert bad.guard["conditions"] == ["#if __CUDA_ARCH__ < 900"]
    assert bad.guard["checked_for"] == ["sm_80"]
    assert any("this branch is compiled for sm_80" in n for d in bad.diagnostics for n in d.notes)
    assert ld.status == "valid" and ld.expanded == ["LD"] and ld.variants == 1
