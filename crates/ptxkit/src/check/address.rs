//! What may stand inside the brackets of an address besides a register of
//! an integer or bit type (the rest is `operands::address_base`), as ptxas
//! 13.5 decides it for every instruction with an address operand (probed
//! on `ld`, `st`, `atom`, `prefetch`, `mbarrier`, `cp.async.bulk`,
//! `fabric`, `multimem` and more, in every state space):
//!
//! * a constant (`[8]`, `[8+4]`, `[-8]`) only where the address is in
//!   `.local`: a generic address or any other space refuses it;
//! * never a function or label name (`[f]`, `[$L+4]`), nor a `.b128`
//!   register, in any space;
//! * a register narrower than 32 bits (`.b16`, `.u8`) not where the role
//!   says `wide` (any space) or `wide-generic` (a generic address), the
//!   addresses ptxas moves through a 32- or 64-bit register;
//! * a special register only where the role does not say `nosreg`
//!   (`mbarrier.*`, some `fabric` barriers: "Illegal state space for
//!   address operand");
//! * a generic address (no state space written or given by its role)
//!   names only `.global`, `.shared` and `.local` variables: a `.const`
//!   or `.param` one is a state-space mismatch.
//!
//! An `addr` role that also names `imm`, `func`, `label` or `var` takes
//! that inside its brackets all the same: a constant in any space, a
//! function or a label, a variable of any space (`fence.proxy.tensormap`,
//! where ptxas refuses only a `.b128` register).

use super::body::{BodyWalk, Found};
use super::operand_kinds;
use super::symbols::Kind;
use super::Checker;
use crate::diag::{Code, Diagnostic};
use crate::isa::vocab::{ScalarType, StateSpace};
use crate::isa::{catalog, Flags, Kinds, RoleSpec, Shape, SpaceSet};
use crate::source::Span;
use crate::syntax::{Expr, Instruction, Name};

/// The role of the `ordinal`th bracketed operand of `i`'s form.
pub(super) fn address_role(i: &Instruction, ordinal: usize) -> Option<&'static RoleSpec> {
    i.form()
        .and_then(|f| {
            f.operands
                .iter()
                .filter_map(|t| match t.shape {
                    Shape::Bracket(inner) => inner.first(),
                    _ => None,
                })
                .nth(ordinal)
        })
        .and_then(|t| catalog().role(t.spec))
}

/// The state spaces the `ordinal`th address of `i` may be in: its role's
/// own (`space=`), else the state space written in its position; empty:
/// a generic address.
pub(super) fn address_spaces(i: &Instruction, role: Option<&RoleSpec>, ordinal: usize) -> SpaceSet {
    let said = role
        .and_then(|r| r.address_spaces(|g| i.group_mod(g).and_then(|m| catalog().mod_space(m.id))));
    said.unwrap_or_else(|| {
        i.mods
            .iter()
            .filter_map(|m| catalog().mod_space(m.id))
            .nth(ordinal)
            .map_or(SpaceSet::default(), |s| SpaceSet::default().with(s))
    })
}

/// Whether address role `role` also names kind `k`.
fn takes(role: Option<&RoleSpec>, k: Kinds) -> bool {
    role.is_some_and(|r| r.kinds.has(k))
}

/// Whether a generic address may name a variable of space `v`.
fn generic_holds(v: StateSpace) -> bool {
    matches!(
        v,
        StateSpace::Global | StateSpace::Shared | StateSpace::Local
    )
}

impl Checker<'_> {
    /// `addr`, an address of `i` not based on a name: a constant address
    /// is taken only in `.local` (`spaces`, computed on demand).
    pub(super) fn constant_address(
        &mut self,
        i: &Instruction,
        role: Option<&RoleSpec>,
        addr: &Expr,
        spaces: impl FnOnce() -> SpaceSet,
    ) {
        if operand_kinds::lit(addr).is_none() || takes(role, Kinds::IMM) {
            return;
        }
        if spaces() == SpaceSet::default().with(StateSpace::Local) {
            return;
        }
        self.emit(
            Diagnostic::error(
                Code::OperandKind,
                addr.span(),
                format!(
                    "`{}` takes a constant address only in `.local` memory",
                    super::inst_name(i)
                ),
            )
            .with_note("hold the address in a register (`[%rd1]`, `[%rd1+8]`) or name a variable (`[buf+8]`)"),
        );
    }

    /// Name `n` (a function or a label, `kind`) as the base of an address
    /// of `i`: never one.
    pub(super) fn symbol_address(
        &mut self,
        i: &Instruction,
        role: Option<&RoleSpec>,
        (n, sp, f): (Name, Span, Found),
        kind: Kind,
        w: &mut BodyWalk,
    ) {
        let taken = if kind == Kind::Func {
            Kinds::FUNC
        } else {
            Kinds::LABEL
        };
        if takes(role, taken) {
            return;
        }
        let what = if kind == Kind::Func {
            "a function"
        } else {
            "a label"
        };
        let d = not_an_address(i, n, sp, what);
        self.report_found(n, d, f, w);
    }

    /// A name not declared yet as the base of an address of `i`: an error
    /// if a label of that name is defined later in the body (ptxas 13.5:
    /// "Illegal operand type"), unless the role takes labels. Whether it
    /// is declared at all is settled with the body's other uses.
    pub(super) fn later_label_address(
        &mut self,
        i: &Instruction,
        role: Option<&RoleSpec>,
        (n, sp, f): (Name, Span, Found),
        w: &mut BodyWalk,
    ) {
        if takes(role, Kinds::LABEL) {
            return;
        }
        Self::report_if_label(w, n, f, || not_an_address(i, n, sp, "a label"));
    }

    /// Special register `n` as the base of an address of `i` whose role
    /// says `nosreg`.
    pub(super) fn special_address(
        &mut self,
        i: &Instruction,
        role: Option<&RoleSpec>,
        n: Name,
        sp: Span,
    ) {
        if !takes(role, Kinds::NOSREG) {
            return;
        }
        self.emit(
            Diagnostic::error(
                Code::OperandKind,
                sp,
                format!(
                    "special register `{n}` cannot be an address of `{}`",
                    super::inst_name(i)
                ),
            )
            .with_note("this address is in shared memory: hold it in a register (`[%rd1]`) or name a `.shared` variable"),
        );
    }

    /// A `.b128` register `n` as the base of an address of `i`.
    pub(super) fn wide_address(
        &mut self,
        i: &Instruction,
        (n, sp, f): (Name, Span, Found),
        w: &mut BodyWalk,
    ) {
        let d = Diagnostic::error(
            Code::OperandType,
            sp,
            format!(
                "`{n}` is a .b128 register, which cannot hold an address for `{}`",
                super::inst_name(i)
            ),
        )
        .with_note("an address register is a 32- or 64-bit integer (`.u64`, `.b64`, `.u32`…)");
        self.report_found(n, d, f, w);
    }

    /// A register `n` of type `t`, narrower than 32 bits, as the base of
    /// an address of `i` whose role says `wide` (or `wide-generic`, the
    /// address being generic): ptxas moves such an address through a 32-
    /// or 64-bit register and refuses the narrow one.
    pub(super) fn narrow_address(
        &mut self,
        i: &Instruction,
        (n, sp, f): (Name, Span, Found),
        t: ScalarType,
        w: &mut BodyWalk,
    ) {
        let d = Diagnostic::error(
            Code::OperandType,
            sp,
            format!(
                "`{n}` is a {t} register, too narrow to hold this address of `{}`",
                super::inst_name(i)
            ),
        )
        .with_note("this address is moved through a 32- or 64-bit register: hold it in a `.u32`/`.u64` one");
        self.report_found(n, d, f, w);
    }

    /// Variable `n` of space `v` named by a generic address of `i`.
    pub(super) fn generic_variable(
        &mut self,
        i: &Instruction,
        role: Option<&RoleSpec>,
        (n, sp, f): (Name, Span, Found),
        v: StateSpace,
        w: &mut BodyWalk,
    ) {
        if generic_holds(v) || typed(role) || takes(role, Kinds::VAR) {
            return;
        }
        let d = Diagnostic::error(
            Code::OperandKind,
            sp,
            format!(
                "`{n}` is a `{v}` variable, which a generic address of `{}` cannot name",
                super::inst_name(i)
            ),
        )
        .with_note("a generic address names `.global`, `.shared` or `.local` variables: write the state space on the instruction (`ld.const`, `ld.param`)");
        self.report_found(n, d, f, w);
    }
}

/// Whether `role` gives its address a type (a register of that type, no
/// variable: checked by `operands::typed_address`).
fn typed(role: Option<&RoleSpec>) -> bool {
    role.is_some_and(|r| !r.types.is_empty() && r.kinds.has(Kinds::ADDR))
}

/// What a body `.param` is for, said with each misuse.
const PARAM_NOTE: &str = "a body `.param` carries a call's arguments and results: write the arguments before the `call`, read the results after it";

impl Checker<'_> {
    /// `n`, a `.param` variable, as the base of an address of `i`: ptxas
    /// 13.5 lets a function write none of its input parameters ("Illegal to
    /// write to function input parameter"), read none of its return
    /// parameters ("Illegal to read function return parameter"), and read
    /// a `.param` of its body only once a `call` has returned into it
    /// ("Function call sequence invalid").
    pub(super) fn param_access(
        &mut self,
        i: &Instruction,
        (n, sp): (Name, Span),
        v: StateSpace,
        w: &BodyWalk,
    ) {
        let flags = catalog().flags(i.form);
        let (load, store) = (flags.has(Flags::LOAD), flags.has(Flags::STORE));
        let why = match v {
            StateSpace::ParamEntry | StateSpace::ParamFunc => {
                let ret = w.rets.contains(&n);
                if store && !ret {
                    format!("`{n}` is an input parameter of the function, which it cannot write")
                } else if load && ret {
                    format!("`{n}` is a return parameter of the function, which it cannot read")
                } else {
                    return;
                }
            }
            StateSpace::Param if load && !store && !w.returned.contains(&n) => {
                // ptxas says so at the module's end, and only without other
                // errors (`Checker::fatal_at_end_rules`).
                let d = Diagnostic::error(
                    Code::OperandKind,
                    sp,
                    format!("`{n}` is read before any `call` returns into it (ptxas: function call sequence invalid)"),
                )
                .with_note(PARAM_NOTE);
                return self.early_param_read(d);
            }
            _ => return,
        };
        self.emit(Diagnostic::error(Code::OperandKind, sp, why).with_note(PARAM_NOTE));
    }

    /// The address of `n`, a `.param` variable of the body, taken as a
    /// value of `i` (`mov.u64 %rd1, p`): ptxas 13.5 refuses it ("Illegal to
    /// take address of parameter"), though it takes a kernel parameter's.
    pub(super) fn param_address(&mut self, i: &Instruction, n: Name, sp: Span) {
        if catalog().flags(i.form).has(Flags::CALL) {
            return;
        }
        self.emit(
            Diagnostic::error(
                Code::OperandKind,
                sp,
                format!("`{n}` is a `.param` of the body, whose address `{}` cannot take", super::inst_name(i)),
            )
            .with_note("a body `.param` is read and written only with `ld.param`/`st.param` around a `call`"),
        );
    }
}

/// The error for `n`, `what` it is (a label, a function), written at `sp`
/// as the base of an address of `i`.
fn not_an_address(i: &Instruction, n: Name, sp: Span, what: &str) -> Diagnostic {
    Diagnostic::error(
        Code::OperandKind,
        sp,
        format!(
            "`{n}` is {what}, which cannot be an address of `{}`",
            super::inst_name(i)
        ),
    )
    .with_note("an address is a register of an integer or bit type or a variable, plus an offset")
}
