"""Type stubs of ptxkit's native module (re-exported by ``ptxkit``)."""

import os
from typing import Any, Dict, List, Literal, Optional, Tuple, TypedDict, Union, final, overload

__version__: str

StrPath = Union[str, "os.PathLike[str]"]

class Param(TypedDict):
    """A parameter of a function."""
    name: str
    type: str
    bytes: int
    line: int

class Global(TypedDict):
    """One name declared at module scope."""
    name: str
    space: str
    type: str
    vector: Optional[int]
    align: Optional[int]
    linkage: Optional[str]
    bytes: Optional[int]
    line: int

class Block(TypedDict):
    """A basic block of a :class:`Cfg`."""
    id: int
    label: str
    labels: List[str]
    first_line: int
    last_line: int
    instructions: int

Edge = TypedDict("Edge", {"from": int, "to": Optional[int], "kind": str})
"""An edge of a :class:`Cfg`; ``to`` is ``None`` when control leaves the function."""

class Loop(TypedDict):
    """A natural loop of a :class:`Cfg`."""
    header: int
    latches: List[int]
    own_blocks: List[int]
    size: int
    depth: int
    parent: Optional[int]

class CallEdge(TypedDict):
    """An edge of a :class:`CallGraph`."""
    caller: str
    callee: str
    kind: str
    via: Optional[str]
    calls: int
    lines: List[int]
    recursive: bool

class Registers(TypedDict):
    declared: Dict[str, int]
    declared_by_width: Dict[str, int]
    declared_units: int
    used: int
    peak_live_units: int
    peak_live_predicates: int
    peak_line: Optional[int]
    live_at_entry: int
    liveness_over_budget: bool

class Shared(TypedDict):
    static_bytes: int
    variables: List[str]
    dynamic: bool
    dynamic_variables: List[str]

class Local(TypedDict):
    frame_bytes: int
    with_callees: Optional[int]
    dynamic_stack: bool

class Const(TypedDict):
    variables: List[str]
    bytes: int
    accesses: int

class Barriers(TypedDict):
    cta_barriers: int
    ids: List[int]
    register_ids: bool
    cluster_barriers: int
    mbarrier_ops: int
    warp_syncs: int

class Resources(TypedDict):
    """What one function uses (``ptx resources --json``)."""
    name: str
    kind: str
    registers: Registers
    shared: Shared
    local: Local
    param_bytes: int
    constant: Const
    barriers: Barriers
    directives: List[str]

class Error(ValueError):
    """What ptxkit raises for input it cannot take."""

class InternalError(Error):
    """A bug in ptxkit, caught before it could end the interpreter."""

@final
class Diagnostic:
    """A problem found in the input. ``str(d)`` is the report ``ptx check``
    prints: the ``path:line:col: error: message [code]`` line, a code frame
    and notes."""
    @property
    def severity(self) -> Literal["error", "warning"]: ...
    @property
    def is_error(self) -> bool: ...
    @property
    def code(self) -> str:
        """The stable code, e.g. ``"E0201"``."""
    @property
    def message(self) -> str: ...
    @property
    def path(self) -> str: ...
    @property
    def line(self) -> int:
        """1-based line of the start."""
    @property
    def col(self) -> int:
        """1-based column (in bytes) of the start."""
    @property
    def end_line(self) -> int: ...
    @property
    def end_col(self) -> int: ...
    @property
    def notes(self) -> List[str]: ...
    @property
    def labels(self) -> List[Tuple[int, int, str]]:
        """Secondary locations: ``(line, col, message)``."""
    @property
    def snippet(self) -> str:
        """The source text the diagnostic points at."""
    def to_dict(self) -> Dict[str, Any]:
        """One entry of ``ptx check --json``."""

@final
class Operand:
    """One operand of an instruction."""
    @property
    def role(self) -> Optional[str]:
        """The catalog role (``"d"``, ``"a"``, ``"cache-policy"``…)."""
    @property
    def kind(self) -> Literal["register", "symbol", "immediate", "expression", "sink",
                              "address", "vector", "tuple", "pair", "list"]: ...
    @property
    def text(self) -> str:
        """The operand as written."""

@final
class Instruction:
    """One instruction of a function body."""
    @property
    def opcode(self) -> str:
        """The first word: ``"ld"``, ``"mma"``, ``"wgmma"``, ``"tcgen05"``."""
    @property
    def name(self) -> str:
        """The catalog form's name: ``"wgmma.mma_async"``, ``"cp.async.bulk.tensor"``."""
    @property
    def is_known(self) -> bool: ...
    @property
    def mnemonic(self) -> str:
        """Opcode and modifiers as written: ``"ld.global.nc.v4.f32"``."""
    @property
    def modifiers(self) -> List[str]: ...
    @property
    def types(self) -> List[str]:
        """The modifiers that are data types."""
    def group(self, group: str) -> Optional[str]:
        """The modifier filling the form's group ``group`` (``"type"``, ``"ss"``)."""
    @property
    def guard(self) -> Optional[str]:
        """``"@%p1"`` / ``"@!%p1"`` or ``None``."""
    @property
    def operands(self) -> List[Operand]: ...
    def operand(self, role: str) -> Optional[Operand]: ...
    @property
    def line(self) -> int: ...
    @property
    def col(self) -> int: ...
    @property
    def text(self) -> str:
        """As written, ``;`` included."""
    def format(self) -> str:
        """Printed canonically."""
    @property
    def function(self) -> str:
        """Name of the function it is in."""

@final
class Function:
    """A kernel (``.entry``) or device function (``.func``)."""
    @property
    def name(self) -> str: ...
    @property
    def demangled(self) -> Optional[str]:
        """The demangled C++ name, or ``None`` for a name that is not mangled."""
    @property
    def is_kernel(self) -> bool: ...
    @property
    def kind(self) -> Literal["kernel", "function"]: ...
    @property
    def linkage(self) -> Optional[str]: ...
    @property
    def is_declaration(self) -> bool: ...
    @property
    def params(self) -> List[Param]: ...
    @property
    def returns(self) -> List[Param]: ...
    @property
    def directives(self) -> List[str]:
        """``[".maxntid 256, 1, 1"]``."""
    @property
    def instructions(self) -> List[Instruction]: ...
    @property
    def labels(self) -> List[str]: ...
    @property
    def line(self) -> int: ...
    @property
    def end_line(self) -> int: ...
    @property
    def calls(self) -> List[str]:
        """Names of the functions it calls (indirect calls resolved)."""
    def format(self, lossless: bool = False) -> str:
        """``ptx show``: canonical, or as written."""
    def info(self) -> Dict[str, Any]:
        """``ptx functions --json`` for this function."""

@final
class Cfg:
    """The control-flow graph of one function (``ptx cfg``)."""
    @property
    def function(self) -> str: ...
    @property
    def blocks(self) -> List[Block]: ...
    @property
    def edges(self) -> List[Edge]: ...
    @property
    def entry(self) -> int: ...
    @property
    def rpo(self) -> List[int]: ...
    @property
    def dominators(self) -> Dict[int, Optional[int]]:
        """Immediate dominator of every block (``None`` for the entry and unreachable blocks)."""
    def dominates(self, a: int, b: int) -> bool: ...
    @property
    def unreachable(self) -> List[int]: ...
    @property
    def loops(self) -> List[Loop]: ...
    @property
    def loop_depth(self) -> List[int]: ...
    @property
    def irreducible_edges(self) -> List[Tuple[int, int]]: ...
    @property
    def omitted_edges(self) -> int:
        """``brx.idx`` edges left out past the graph's budget (0 unless lists are shared)."""
    def is_back_edge(self, a: int, b: int) -> bool: ...
    def to_dot(self) -> str: ...
    def to_dict(self) -> Dict[str, Any]: ...
    def to_networkx(self) -> Any:
        """A ``networkx.DiGraph`` (needs networkx)."""

@final
class CallGraph:
    """The call graph of a module (``ptx callgraph``)."""
    @property
    def nodes(self) -> List[Dict[str, Any]]: ...
    @property
    def edges(self) -> List[CallEdge]: ...
    @property
    def recursive(self) -> List[str]: ...
    @property
    def unresolved(self) -> List[Tuple[str, Optional[str], int]]: ...
    def reachable(self, name: str) -> List[str]: ...
    def to_dot(self) -> str: ...
    def to_dict(self) -> Dict[str, Any]: ...
    def to_networkx(self) -> Any:
        """A ``networkx.MultiDiGraph`` keyed by function name (needs networkx)."""

@final
class Module:
    """A parsed PTX module; immutable and safe to share between threads."""
    @property
    def path(self) -> Optional[str]: ...
    @property
    def version(self) -> Optional[str]:
        """``"8.0"``."""
    @property
    def target(self) -> Optional[str]:
        """``"sm_90a"``."""
    @property
    def target_options(self) -> List[str]: ...
    @property
    def address_size(self) -> int: ...
    @property
    def functions(self) -> List[Function]: ...
    @property
    def kernels(self) -> List[Function]: ...
    def function(self, name: str) -> Function:
        """Exact name, or a part of one that matches a single function."""
    @property
    def globals(self) -> List[Global]: ...
    @property
    def diagnostics(self) -> List[Diagnostic]:
        """Syntax diagnostics found while parsing (the first 10,000)."""
    @property
    def omitted_diagnostics(self) -> int:
        """Syntax diagnostics found past the first 10,000, not kept."""
    @property
    def has_errors(self) -> bool: ...
    @property
    def source(self) -> str: ...
    def check(self, target: Optional[str] = None, syntax_only: bool = False,
              max_errors: int = 0) -> List[Diagnostic]:
        """``ptx check``: ``[]`` when ptxas would accept the module.
        ``max_errors`` > 0: only the first that many (``--max-errors``)."""
    def format(self, lossless: bool = False) -> str:
        """``ptx fmt``."""
    def to_json(self, indent: Optional[int] = None) -> str:
        """``ptx ast --json``."""
    def to_dict(self) -> Dict[str, Any]: ...
    def summary(self) -> Dict[str, Any]:
        """``ptx summary --json``."""
    def cfg(self, name: str) -> Cfg: ...
    def callgraph(self) -> CallGraph: ...
    @overload
    def resources(self, name: str) -> Resources: ...
    @overload
    def resources(self, name: None = None) -> List[Resources]: ...
    @overload
    def stats(self, by: Literal["opcode", "family", "modifier"] = "opcode",
              per_function: Literal[False] = False) -> Dict[str, int]: ...
    @overload
    def stats(self, by: Literal["opcode", "family", "modifier"] = "opcode", *,
              per_function: Literal[True]) -> Dict[str, Dict[str, int]]: ...
    def grep(self, pattern: str) -> List[Instruction]:
        """``ptx grep``: ``"atom.*.cas"``, ``"ld.global$"``."""
    def diff(self, other: "Module") -> Dict[str, Any]:
        """``ptx diff --json``."""
    def __eq__(self, other: object, /) -> bool: ...

@final
class AsmStatement:
    """One ``asm(...)`` statement of a C++ source (``ptx check-asm``)."""
    @property
    def status(self) -> Literal["valid", "invalid", "skipped"]: ...
    @property
    def is_valid(self) -> bool: ...
    @property
    def targets(self) -> List[str]:
        """The targets that accept it."""
    @property
    def closest_target(self) -> Optional[str]: ...
    @property
    def diagnostics(self) -> List[Diagnostic]: ...
    @property
    def guard(self) -> Dict[str, Any]:
        """``conditions``, ``compiled_for``, ``compiled_for_text``,
        ``checked_for``, ``assumed_undefined``, ``undecidable``."""
    @property
    def expanded(self) -> List[str]:
        """The macros expanded to read it."""
    @property
    def variants(self) -> int: ...
    @property
    def notes(self) -> List[str]: ...
    @property
    def line(self) -> int: ...
    @property
    def col(self) -> int: ...
    @property
    def template(self) -> str: ...
    @property
    def source(self) -> str: ...
    @property
    def constraints(self) -> List[str]: ...
    @property
    def volatile(self) -> bool: ...

@final
class FatbinEntry:
    """One entry of a CUDA fatbin (``ptx extract``)."""
    @property
    def number(self) -> Optional[int]:
        """1-based number among the PTX entries (``entry=``)."""
    @property
    def index(self) -> int: ...
    @property
    def kind(self) -> str:
        """``"ptx"``, ``"sass"``, ``"lto-ir"``."""
    @property
    def arch(self) -> str: ...
    @property
    def ptx_version(self) -> str: ...
    @property
    def compression(self) -> Literal["none", "lz4", "zstd"]: ...
    @property
    def flags(self) -> List[str]: ...
    @property
    def options(self) -> Optional[str]: ...
    @property
    def size(self) -> int: ...
    @property
    def name(self) -> str:
        """``"app#2.sm_90"``."""
    @property
    def text(self) -> str:
        """The PTX, decompressed."""
    def parse(self) -> Module: ...
    def to_dict(self) -> Dict[str, Any]: ...

def parse(text: Union[str, bytes], path: Optional[StrPath] = None) -> Module:
    """Parse PTX text; never raises for malformed PTX (see ``Module.diagnostics``)."""
def parse_file(path: StrPath, arch: Optional[str] = None, entry: Optional[int] = None) -> Module:
    """Read and parse a PTX file, or the PTX entry of a CUDA binary."""
def explain(query: str) -> str:
    """``ptx explain``: the catalog entry of an instruction."""
def explain_dict(query: str) -> Dict[str, Any]:
    """``ptx explain --json``."""
def targets() -> List[str]:
    """Every target the catalog knows, oldest first."""
def check_asm(source: Union[str, bytes], targets: Optional[List[str]] = None,
              path: Optional[StrPath] = None,
              include_dirs: Optional[List[StrPath]] = None,
              defines: Optional[Dict[str, str]] = None) -> List[AsmStatement]:
    """``ptx check-asm`` on C++ source text."""
def check_asm_file(path: StrPath, targets: Optional[List[str]] = None,
                   include_dirs: Optional[List[StrPath]] = None,
                   defines: Optional[Dict[str, str]] = None) -> List[AsmStatement]:
    """``ptx check-asm`` on a file."""
def extract(source: Union[StrPath, bytes], arch: Optional[str] = None,
            entry: Optional[int] = None) -> List[FatbinEntry]:
    """``ptx extract``: the PTX entries of a CUDA binary."""
def fatbin_entries(source: Union[StrPath, bytes]) -> List[FatbinEntry]:
    """``ptx extract --list``: every entry of a CUDA binary."""
def resource_usage(source: Union[StrPath, bytes],
                   arch: Optional[str] = None) -> List[Dict[str, Any]]:
    """``ptx resources --json BIN``: what each kernel of each cubin uses."""
def compat(paths: List[StrPath], gpus: Optional[List[str]] = None,
           driver: Optional[str] = None) -> List[Dict[str, Any]]:
    """``ptx compat --json``: where each CUDA binary under ``paths`` runs."""
def _provoke_internal_error() -> None:
    """Make the next call into the package panic inside its boundary, which
    raises ``InternalError``: for the package's own tests, not API."""
