"""Module.check (`ptx check`) and Diagnostic."""

import pytest

import ptxkit
from conftest import EXAMPLES

BROKEN = """.version 8.0
.target sm_80
.address_size 64

.visible .entry k()
{
\t.reg .b32 %r<3>;
\tfrobnicate.u32 %r1, %r2;
\tret;
}
"""


@pytest.mark.parametrize("name", sorted(p.name for p in EXAMPLES.glob("*.ptx")))
def test_examples_are_valid(name):
    m = ptxkit.parse_file(EXAMPLES / name)
    assert m.check() == []


def test_diagnostic_fields_and_code_frame():
    m = ptxkit.parse(BROKEN, path="broken.ptx")
    (d,) = m.check()
    assert (d.severity, d.code, d.is_error) == ("error", "E0201", True)
    assert d.message == "unknown instruction `frobnicate`"
    assert (d.line, d.col, d.end_line, d.end_col) == (8, 2, 8, 12)
    assert d.path == "broken.ptx"
    assert d.snippet == "frobnicate"
    # str() is what `ptx check` prints.
    # (A tab is shown as four spaces, as the CLI draws it.)
    assert str(d) == (
        "broken.ptx:8:2: error: unknown instruction `frobnicate` [E0201]\n"
        "  |\n"
        "8 |     frobnicate.u32 %r1, %r2;\n"
        "  |     ^^^^^^^^^^\n"
    )
    j = d.to_dict()
    assert (j["file"], j["line"], j["column"], j["code"]) == ("broken.ptx", 8, 2, "E0201")


def test_semantic_errors_and_notes():
    src = BROKEN.replace("frobnicate.u32 %r1, %r2;", "add.u32 %r1, %r2, %r9;\n\tbra NOWHERE;")
    ds = ptxkit.parse(src).check()
    assert len(ds) == 2 and all(d.is_error for d in ds)
    assert [d.line for d in ds] == [8, 9]


def test_target_gating():
    m = ptxkit.parse_file(EXAMPLES / "wgmma_tma.ptx")
    assert m.check() == []
    ds = m.check(target="sm_80")
    assert ds and any("sm_90" in d.message or d.notes for d in ds)
    with pytest.raises(ValueError, match="unknown target"):
        m.check(target="sm_1")


def test_syntax_only_skips_semantic_checks():
    src = BROKEN.replace("frobnicate.u32 %r1, %r2;", "add.u32 %r1, %r2, %r9;")
    m = ptxkit.parse(src)
    assert m.check(syntax_only=True) == []
    assert len(m.check()) == 1


def test_corpus_module_is_valid(kokkos):
    m = ptxkit.parse_file(kokkos)
    assert m.target == "sm_80"
    assert len(m.functions) > 10
    assert [d for d in m.check() if d.is_error] == []


def test_corpus_diagnostics_have_positions_and_frames(corpus):
    # 200 corpus files, accepted and rejected ones (the Rust suite compares
    # every verdict with ptxas): every diagnostic has a position inside the
    # file and renders as the CLI does, starting with `path:line:col:`.
    files = sorted(corpus.glob("*/*.ptx"))[:200]
    assert len(files) == 200
    seen = 0
    for p in files:
        m = ptxkit.parse_file(p)
        lines = m.source.count("\n") + 1
        for d in m.check():
            assert 1 <= d.line <= lines and d.col >= 1
            assert str(d).startswith(f"{p}:{d.line}:{d.col}: {d.severity}: ")
            seen += 1
    assert seen > 0


def test_max_errors_keeps_the_first_in_source_order():
    # Two errors an element: a million-element version held them all.
    items = ",".join("'a'" for _ in range(20_000))
    text = ".version 8.0\n.target sm_90\n.address_size 64\n.global .u8 s[20000] = {%s};\n" % items
    m = ptxkit.parse(text)
    first = m.check(max_errors=50)
    assert len(first) == 50
    assert [d.col for d in first] == sorted(d.col for d in first)
    everything = m.check()
    # The parse keeps the first 10,000 syntax diagnostics.
    assert (len(everything), m.omitted_diagnostics) == (10_000, 30_000)
    assert [(d.line, d.col, d.code) for d in first] == [
        (d.line, d.col, d.code) for d in everything[:50]
    ]
    # A valid module: nothing either way.
    assert ptxkit.parse_file(EXAMPLES / "calls.ptx").check(max_errors=1) == []


def test_parse_keeps_the_first_syntax_diagnostics_and_counts_the_rest():
    # Two errors an element; 2,000,000 of them were all kept (1 GB).
    items = ",".join("'a'" for _ in range(30_000))
    text = ".version 8.0\n.target sm_90\n.address_size 64\n.global .u8 s[30000] = {%s};\n" % items
    m = ptxkit.parse(text)
    ds = m.diagnostics
    assert (len(ds), m.omitted_diagnostics) == (10_000, 50_000)
    assert m.has_errors
    assert [d.col for d in ds] == sorted(d.col for d in ds)
    assert ds[0].col == text.splitlines()[3].index("'") + 1
    assert ptxkit.parse_file(EXAMPLES / "calls.ptx").omitted_diagnostics == 0
