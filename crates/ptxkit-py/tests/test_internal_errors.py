"""Every entry point of the package — each module function and each method
and property of each class — turns a Rust panic into ptxkit.InternalError
(a ptxkit.Error, so ``except Exception`` and ``except ptxkit.Error`` catch
it), never pyo3's PanicException (a BaseException).

A real panic is a bug we do not know of, so the test provokes one:
``_ptxkit._provoke_internal_error()`` makes the next call panic inside its
boundary (``errors::guard`` in crates/ptxkit-py/src/errors.rs). The test
then calls every public attribute of every class, with arguments where it
needs them, and asserts that each raised InternalError."""

import inspect

import pytest

import ptxkit
from ptxkit import _ptxkit
from conftest import DATA, EXAMPLES

CALLS = EXAMPLES / "calls.ptx"
BROKEN = ".version 8.0\n.target sm_90\n.address_size 64\n" \
    ".visible .entry k() {\n .reg .b32 %r<2>;\n mov.u32 %r2, 1;\n ret;\n}\n"
ASM = 'void f(int* p) { asm("st.global.u32 [%0], 1;" :: "l"(p)); }\n'
FATBIN = DATA / "binary" / "saxpy.default.fatbin"

# Arguments for the entry points that need some (by class and name).
ARGS = {
    ("Module", "function"): lambda o: (o.functions[0].name,),
    ("Module", "cfg"): lambda o: (o.kernels[0].name,),
    ("Module", "resources"): lambda o: (o.kernels[0].name,),
    ("Module", "grep"): lambda o: ("ld",),
    ("Module", "diff"): lambda o: (o,),
    ("Module", "__eq__"): lambda o: (o,),
    ("Instruction", "group"): lambda o: ("type",),
    ("Instruction", "operand"): lambda o: ("d",),
    ("Cfg", "dominates"): lambda o: (0, 0),
    ("Cfg", "is_back_edge"): lambda o: (0, 0),
    ("CallGraph", "reachable"): lambda o: (o.nodes[0]["name"],),
}
FUNCTIONS = {
    "parse": (BROKEN,),
    "parse_file": (CALLS,),
    "explain": ("bra",),
    "explain_dict": ("bra",),
    "targets": (),
    "check_asm": (ASM,),
    "check_asm_file": (DATA / "inline_asm" / "mixed.cu",),
    "extract": (FATBIN,),
    "fatbin_entries": (FATBIN,),
    "resource_usage": (FATBIN,),
    "compat": ([FATBIN],),
}


# Plain data fields (`#[pyclass(get_all)]`): PyO3 reads them itself, no
# ptxkit code runs, so there is no boundary to cross and nothing can panic.
FIELDS = {("Operand", "role"), ("Operand", "kind"), ("Operand", "text")}


def instances():
    m = ptxkit.parse_file(CALLS)
    k = m.kernels[0]
    i = k.instructions[0]
    ops = [op for inst in k.instructions for op in inst.operands]
    return {
        "Module": m,
        "Function": k,
        "Instruction": i,
        "Operand": ops[0],
        "Diagnostic": ptxkit.parse(BROKEN).check()[0],
        "Cfg": m.cfg(k.name),
        "CallGraph": m.callgraph(),
        "AsmStatement": ptxkit.check_asm(ASM)[0],
        "FatbinEntry": ptxkit.fatbin_entries(FATBIN)[0],
    }


def provoked(call):
    """Arm the panic, make `call`, and say what it raised (None: nothing)."""
    _ptxkit._provoke_internal_error()
    try:
        call()
    except ptxkit.InternalError as e:
        assert "provoked" in str(e), e
        return "InternalError"
    except BaseException as e:  # noqa: BLE001 - PanicException is one
        return type(e).__name__
    finally:
        # A call that never reached a boundary leaves the panic armed:
        # disarm it with a call that does.
        try:
            ptxkit.targets()
        except ptxkit.InternalError:
            pass
    return None


def entry_points(cls):
    """The public methods and properties a class defines."""
    for name, attr in vars(cls).items():
        if name.startswith("_") and name not in ("__repr__", "__str__", "__eq__"):
            continue
        yield name, attr


def test_every_method_and_property_of_every_class():
    objs = instances()
    assert set(objs) == {
        n for n, c in vars(_ptxkit).items()
        if inspect.isclass(c) and not issubclass(c, BaseException)
    }, "a class without an instance in this test"
    tried, wrong = 0, []
    for cname, obj in objs.items():
        for name, attr in entry_points(type(obj)):
            args = ARGS.get((cname, name), lambda o: ())(obj)
            if inspect.isdatadescriptor(attr):
                call = lambda: getattr(obj, name)  # noqa: E731
            else:
                call = lambda: getattr(obj, name)(*args)  # noqa: E731
            got = provoked(call)
            tried += 1
            if (cname, name) in FIELDS:
                assert got is None, f"{cname}.{name}: {got}"
            elif got != "InternalError":
                wrong.append(f"{cname}.{name}: {got}")
    assert not wrong, "\n".join(wrong)
    assert tried > 100, tried


def test_every_module_function():
    names = {n for n, f in vars(_ptxkit).items()
             if callable(f) and not inspect.isclass(f) and not n.startswith("_")}
    assert names == set(FUNCTIONS), names ^ set(FUNCTIONS)
    wrong = []
    for name, args in FUNCTIONS.items():
        got = provoked(lambda: getattr(ptxkit, name)(*args))
        if got != "InternalError":
            wrong.append(f"{name}: {got}")
    assert not wrong, "\n".join(wrong)


def test_an_internal_error_is_caught_by_except_exception():
    _ptxkit._provoke_internal_error()
    with pytest.raises(Exception) as e:  # noqa: PT011
        ptxkit.parse(BROKEN)
    assert isinstance(e.value, ptxkit.Error)
    # The package works on after it.
    assert ptxkit.parse(BROKEN).check()[0].code == "E0404"
