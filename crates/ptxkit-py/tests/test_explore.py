"""fmt, ast, summary, functions, show, cfg, callgraph, resources, stats,
grep, diff, explain: the exploring subcommands' counterparts."""

import json

import pytest

import ptxkit
from conftest import EXAMPLES


@pytest.fixture(scope="module")
def vadd():
    return ptxkit.parse_file(EXAMPLES / "vector_add.ptx")


def test_format_lossless_and_canonical(vadd):
    src = (EXAMPLES / "vector_add.ptx").read_text()
    assert vadd.format(lossless=True) == src
    canon = vadd.format()
    assert canon != src
    assert ptxkit.parse(canon) == vadd  # equal trees (positions aside)
    assert ptxkit.parse(canon) != ptxkit.parse_file(EXAMPLES / "calls.ptx")


def test_ast_json_and_dict(vadd):
    d = vadd.to_dict()
    assert d == json.loads(vadd.to_json())
    assert json.loads(vadd.to_json(indent=2)) == d
    assert "items" in d and len(d["items"]) > 3


def test_summary(vadd):
    s = vadd.summary()
    assert s["version"] == "9.5" and s["address_size"] == 64
    assert [f["name"] for f in s["functions"]] == ["vector_add", "saxpy"]
    assert s["instructions"] == 31 + 72


def test_functions_info():
    c = ptxkit.parse_file(EXAMPLES / "calls.ptx")
    info = c.function("heap_scratch").info()
    assert {x["callee"] for x in info["calls"]} == {"malloc", "vprintf", "free"}
    assert c.function("_Z9eval_nodePK4Nodeii").info()["recursive"] is True
    assert set(c.function("triangle_normals").calls) == {
        "_Z6cross34Vec3S_", "_Z4dot34Vec3S_", "_Z10normalize3P4Vec3"}


def test_show(vadd):
    f = vadd.function("vector_add")
    text = f.format(lossless=True)
    assert text.startswith(".visible .entry vector_add(") and text.endswith("}")
    assert f.format().splitlines()[0].startswith(".visible .entry vector_add")


def test_cfg(vadd):
    c = vadd.cfg("saxpy")
    assert (len(c.blocks), len(c.edges), len(c.loops)) == (8, 13, 2)
    assert c.rpo == list(range(8))
    assert c.dominators == {0: None, 1: 0, 2: 1, 3: 2, 4: 1, 5: 4, 6: 5, 7: 0}
    assert c.dominates(0, 7) and not c.dominates(3, 7)
    assert [lp["header"] for lp in c.loops] == [3, 6]
    assert c.is_back_edge(3, 3)
    assert c.irreducible_edges == []
    assert c.blocks[3]["label"] == "$L__BB1_3"
    assert {"from": 7, "to": None, "kind": "return"} in c.edges
    assert c.to_dot().startswith("digraph")
    assert c.to_dict()["function"] == "saxpy"
    with pytest.raises(ValueError):
        vadd.cfg("missing")


def test_cfg_to_networkx(vadd):
    nx = pytest.importorskip("networkx")
    g = vadd.cfg("saxpy").to_networkx()
    assert isinstance(g, nx.DiGraph)
    assert g.number_of_edges() == 13
    assert nx.immediate_dominators(g, 0)[7] == 0


def test_callgraph():
    cg = ptxkit.parse_file(EXAMPLES / "calls.ptx").callgraph()
    assert (len(cg.nodes), len(cg.edges)) == (17, 15)
    assert sum(n["kernel"] for n in cg.nodes) == 5
    assert cg.recursive == ["_Z9eval_nodePK4Nodeii"]
    ind = [e for e in cg.edges if e["caller"] == "apply_activation"]
    assert len(ind) == 4 and all(e["kind"] == "indirect" and e["via"] == "prototype_3" for e in ind)
    assert "vprintf" in cg.reachable("heap_scratch")
    assert cg.to_dot().startswith("digraph")
    nx = pytest.importorskip("networkx")
    assert cg.to_networkx().number_of_nodes() == 17


def test_resources():
    w = ptxkit.parse_file(EXAMPLES / "wgmma_tma.ptx")
    r = w.resources("hopper_gemm_f16_tile")
    assert r["shared"]["static_bytes"] == 32800
    assert r["barriers"]["mbarrier_ops"] == 14
    assert r["param_bytes"] == 276
    assert r["directives"] == [".maxntid 256, 1, 1", ".minnctapersm 1"]
    assert r["registers"]["peak_live_units"] == 45
    allr = ptxkit.parse_file(EXAMPLES / "vector_add.ptx").resources()
    assert [x["name"] for x in allr] == ["vector_add", "saxpy"]


def test_stats():
    total = {}
    for p in sorted(EXAMPLES.glob("*.ptx")):
        for k, n in ptxkit.parse_file(p).stats(by="family").items():
            total[k] = total.get(k, 0) + n
    assert sum(total.values()) == 2959
    assert (total["data"], total["wgmma"], total["tcgen05"]) == (1166, 21, 34)
    w = ptxkit.parse_file(EXAMPLES / "wgmma_tma.ptx")
    per = w.stats(per_function=True)["hopper_gemm_f16_tile"]
    assert per["wgmma.mma_async"] == 12
    assert list(w.stats())[0] == "mov"  # most frequent first
    assert w.stats(by="modifier")["wgmma.fence.sync.aligned"] == 3
    with pytest.raises(ValueError):
        w.stats(by="colour")


def test_grep():
    a = ptxkit.parse_file(EXAMPLES / "atomics.ptx")
    hits = a.grep("atom.*.cas")
    assert [(i.line, i.function) for i in hits] == [
        (171, "accumulate_stats"), (187, "accumulate_stats"),
        (487, "locked_append"), (502, "locked_append")]
    assert all(i.opcode == "atom" for i in a.grep("atom"))
    with pytest.raises(ValueError, match="whole component"):
        a.grep("atom*")


def test_diff(vadd):
    dbg = ptxkit.parse_file(EXAMPLES / "vector_add.debug.ptx")
    d = vadd.diff(dbg)
    assert d["header"] == [".target: sm_80 -> sm_80, debug"]
    assert d["added"] == ["fmaf"] and d["removed"] == []
    va = next(c for c in d["changed"] if c["name"] == "vector_add")
    assert {"what": "instructions", "a": 31, "b": 39} in va["mix"]
    assert va["hunks"]
    same = vadd.diff(ptxkit.parse_file(EXAMPLES / "vector_add.ptx"))
    assert same["changed"] == [] and same["unchanged"] == 2


def test_explain():
    text = ptxkit.explain("bra")
    assert text.startswith(
        "bra  (control; ISA “Control Flow Instructions: bra” (section 9.7.12.3); PTX ISA 1.0, any target)"
    )
    assert "    .uni" in text
    d = ptxkit.explain_dict("mma")
    assert d["instruction"] == "mma" and d["entries"]
    with pytest.raises(ValueError):
        ptxkit.explain("frobnicate")
    assert "sm_90a" in ptxkit.targets()


def test_info_and_summary_share_one_function_header():
    # One model (ptxkit::analysis::header::FunctionHeader) behind both.
    shared = ["name", "demangled", "kind", "linkage", "declaration",
              "params", "returns", "directives", "instructions"]
    m = ptxkit.parse_file(EXAMPLES / "calls.ptx")
    summary = m.summary()["functions"]
    assert len(summary) >= 5
    for s in summary:
        f = next(f for f in m.functions
                 if f.name == s["name"] and f.is_declaration == s["declaration"])
        info = f.info()
        assert {k: info[k] for k in shared} == {k: s[k] for k in shared}
        assert {"line", "calls", "unresolved_calls", "recursive"} <= info.keys()
        assert {"registers", "local_bytes", "shared_bytes"} <= s.keys()
