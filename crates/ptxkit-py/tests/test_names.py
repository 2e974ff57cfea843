"""Names resolved from Python agree with the checker, the register analyses
and the language server on the same tricky module
(crates/ptxkit/tests/data/names/tricky.ptx; Rust: ptxkit tests/names.rs,
ptxkit-lsp tests/names.rs): all of them go through one resolver,
ptxkit::syntax::scope."""

import ptxkit
from conftest import DATA

TRICKY = DATA / "names" / "tricky.ptx"


def test_check_reports_the_two_undeclared_names():
    m = ptxkit.parse_file(TRICKY)
    errs = [(d.line, d.code) for d in m.check() if d.is_error]
    # `%v20` (a range whose name ends in a digit names nothing) and `%q3`
    # (past `%q<3>`), as ptxas 13.5 reports them; nothing else: `%q01`,
    # the inner block's `%q1`, labels before and after their definition,
    # `.branchtargets`, parameters and the call all resolve.
    assert errs == [(22, "E0401"), (23, "E0404")]


def test_analyses_see_the_same_registers_labels_and_calls():
    m = ptxkit.parse_file(TRICKY)
    k = m.function("k")
    # %q01 (= %q1), %q2, %rd1, %p and the inner block's %q1, as
    # `ptx resources` counts them.
    assert m.resources("k")["registers"]["used"] == 5
    assert m.resources("f")["registers"]["used"] == 1
    assert {"L", "M"} <= set(k.labels)
    assert k.calls == ["f"]
    assert k.info()["calls"][0]["callee"] == "f"
