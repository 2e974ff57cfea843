"""parse / parse_file, and the tree: Module, Function, Instruction, Operand."""

import pytest

import ptxkit
from conftest import EXAMPLES


def test_version_is_the_crate_version():
    assert ptxkit.__version__.count(".") == 2


def test_parse_str_bytes_and_path_give_the_same_module():
    text = (EXAMPLES / "vector_add.ptx").read_text()
    a = ptxkit.parse(text)
    b = ptxkit.parse(text.encode())
    c = ptxkit.parse_file(EXAMPLES / "vector_add.ptx")
    assert a.to_json() == b.to_json() == c.to_json()
    assert a.path is None
    assert c.path.endswith("vector_add.ptx")
    assert ptxkit.parse(text, path="k.ptx").path == "k.ptx"


def test_header():
    m = ptxkit.parse_file(EXAMPLES / "vector_add.ptx")
    assert (m.version, m.target, m.address_size) == ("9.5", "sm_80", 64)
    d = ptxkit.parse_file(EXAMPLES / "vector_add.debug.ptx")
    assert d.target_options == ["sm_80", "debug"]


def test_functions_and_params():
    m = ptxkit.parse_file(EXAMPLES / "vector_add.ptx")
    assert [f.name for f in m.functions] == ["vector_add", "saxpy"]
    assert [f.name for f in m.kernels] == ["vector_add", "saxpy"]
    saxpy = m.function("saxpy")
    assert saxpy.is_kernel and saxpy.kind == "kernel" and saxpy.linkage == ".visible"
    assert saxpy.line == 67
    assert len(saxpy.instructions) == 72
    assert [(p["name"], p["type"], p["bytes"]) for p in saxpy.params] == [
        ("saxpy_param_0", ".param .f32", 4),
        ("saxpy_param_1", ".param .u64", 8),
        ("saxpy_param_2", ".param .u64", 8),
        ("saxpy_param_3", ".param .u32", 4),
    ]
    # A part of a name that matches one function picks it.
    assert m.function("sax").name == "saxpy"
    with pytest.raises(ValueError, match="no function"):
        m.function("nope")


def test_directives_and_demangled_names():
    w = ptxkit.parse_file(EXAMPLES / "wgmma_tma.ptx")
    assert w.function("hopper_gemm_f16_tile").directives == [".maxntid 256, 1, 1", ".minnctapersm 1"]
    c = ptxkit.parse_file(EXAMPLES / "calls.ptx")
    f = c.function("_Z9eval_nodePK4Nodeii")
    assert f.demangled == "eval_node(Node const*, int, int)"
    assert not f.is_kernel
    assert c.function("apply_activation").demangled is None


def test_instruction_fields():
    m = ptxkit.parse_file(EXAMPLES / "atomics.ptx")
    i = next(i for i in m.grep("atom.*.cas") if i.line == 171)
    assert i.opcode == "atom"
    assert i.modifiers == [".global", ".cas", ".b32"]
    assert i.types == [".b32"]
    assert i.mnemonic == "atom.global.cas.b32"
    assert i.function == "accumulate_stats"
    assert i.text.startswith("atom.global.cas.b32") and i.text.endswith(";")
    assert (i.line, i.col) == (171, 2)
    ops = i.operands
    assert [o.kind for o in ops] == ["register", "address", "register", "register"]
    assert [o.text for o in ops] == ["%r5", "[%rd3]", "%r22", "%r3"]
    assert ops[0].role == "d"
    assert i.operand("d").text == "%r5"


def test_guards_and_vectors():
    m = ptxkit.parse_file(EXAMPLES / "vector_add.ptx")
    guarded = [i for f in m.functions for i in f.instructions if i.guard]
    assert guarded and all(g.guard.startswith("@") for g in guarded)
    assert any(g.opcode == "bra" for g in guarded)
    w = ptxkit.parse_file(EXAMPLES / "wgmma_tma.ptx")
    mma = [i for i in w.function("hopper_gemm_f16_tile").instructions if i.opcode == "wgmma"]
    assert {i.name for i in mma} >= {"wgmma.mma_async", "wgmma.fence"}
    kinds = {o.kind for i in mma if i.name == "wgmma.mma_async" for o in i.operands}
    assert "vector" in kinds


def test_globals():
    c = ptxkit.parse_file(EXAMPLES / "calls.ptx")
    g = c.globals[0]
    assert (g["name"], g["space"], g["type"], g["bytes"], g["line"]) == (
        "g_activations", ".global", ".u64", 32, 53)


def test_malformed_input_never_raises_and_reports():
    m = ptxkit.parse(".version 8.0\n.target sm_80\n{{{{ garbage \x00 ;;;")
    assert m.has_errors
    assert m.diagnostics and m.diagnostics[0].is_error
    # Binary junk too.
    assert ptxkit.parse(bytes(range(256)) * 16).has_errors


def test_hostile_input_is_bounded():
    head = ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k() {\n"
    deep = ptxkit.parse(head + "{" * 200000)
    assert any(d.code == "E0104" for d in deep.diagnostics)  # nesting limit
    wide = ptxkit.parse(head + ".reg .b32 %r<4000000000>;\n}\n")
    assert any(d.code == "E0105" for d in wide.check())  # register range limit


def test_usage_and_io_errors_are_exceptions():
    with pytest.raises(TypeError):
        ptxkit.parse(42)
    with pytest.raises(FileNotFoundError):
        ptxkit.parse_file("/nonexistent/k.ptx")
    with pytest.raises(IsADirectoryError):
        ptxkit.parse_file(EXAMPLES)


def test_objects_are_immutable():
    m = ptxkit.parse_file(EXAMPLES / "vector_add.ptx")
    with pytest.raises(AttributeError):
        m.version = "1.0"
