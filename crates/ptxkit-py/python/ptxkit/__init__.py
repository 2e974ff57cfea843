"""ptxkit: read, check and explore NVIDIA PTX from Python.

PTX text (a ``str`` from Triton's ``compiled.asm["ptx"]``, numba's
``cuda.compile_ptx``, NVRTC, a file) is parsed into a typed tree::

    import ptxkit
    m = ptxkit.parse(ptx_text)
    for d in m.check():            # what ptxas would reject, with line/col
        print(d)                   # the same code frame as `ptx check`
    for f in m.kernels:
        print(f.name, f.demangled, len(f.instructions))
    print(m.stats(by="family"))    # instruction mix
    print(m.resources(m.kernels[0].name)["registers"])

Every ``ptx`` subcommand has a counterpart: ``check`` -> ``Module.check``,
``check-asm`` -> :func:`check_asm`, ``fmt`` -> ``Module.format``, ``ast``
-> ``Module.to_json``/``to_dict``, ``summary`` -> ``Module.summary``,
``functions`` -> ``Module.functions``/``Function.info``, ``show`` ->
``Function.format``, ``cfg`` -> ``Module.cfg``, ``callgraph`` ->
``Module.callgraph``, ``resources`` -> ``Module.resources``, ``stats`` ->
``Module.stats``, ``grep`` -> ``Module.grep``, ``diff`` -> ``Module.diff``,
``explain`` -> :func:`explain`, ``extract`` -> :func:`extract`,
``resources BIN`` -> :func:`resource_usage`, ``compat`` -> :func:`compat`.

All objects are immutable and safe to share between threads; parsing and
checking release the GIL. See docs/python.md in the repository.
"""

from ._ptxkit import (
    AsmStatement,
    CallGraph,
    Cfg,
    Diagnostic,
    Error,
    FatbinEntry,
    Function,
    Instruction,
    InternalError,
    Module,
    Operand,
    __version__,
    check_asm,
    check_asm_file,
    compat,
    explain,
    explain_dict,
    extract,
    fatbin_entries,
    parse,
    parse_file,
    resource_usage,
    targets,
)

__all__ = [
    "AsmStatement",
    "CallGraph",
    "Cfg",
    "Diagnostic",
    "Error",
    "FatbinEntry",
    "Function",
    "Instruction",
    "InternalError",
    "Module",
    "Operand",
    "__version__",
    "check_asm",
    "check_asm_file",
    "compat",
    "explain",
    "explain_dict",
    "extract",
    "fatbin_entries",
    "parse",
    "parse_file",
    "resource_usage",
    "targets",
]
