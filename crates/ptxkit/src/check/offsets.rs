//! A register or variable plus a constant (`%r1+8`, `buf+8`) written as a
//! whole operand, outside brackets, where an instruction reads a value.
//!
//! What ptxas 13.5 takes (probed both ways over the scalar, conversion,
//! compare, control and warp instructions; `tests/data/names/offsets.ptx`):
//!
//! * never where the operand is a constant only (`lop3`'s lookup table)
//!   or an operand of a SIMD video instruction (`@flags simd-video`:
//!   "Incorrect video selector"); the scalar video instructions take it
//!   only in `c`, not in the operands read through a selector (`a{.asel}`,
//!   `b{.bsel}`: a syntax error);
//! * a predicate plus a constant (`%p1+8`) only for a predicate operand
//!   (`and.pred`, `setp`'s `c`, `selp`'s selector), and only that;
//! * `reg+imm`: where the operand's type is a type written on the
//!   instruction, any register (`add.f32 %f1, %rd9+8, %f2`); where it is
//!   another (`shl.b32`'s `.u32` shift, a cache policy's `.b64`), a
//!   register that would fit there alone (`%r9+8` for `.u32`, not
//!   `%rd9+8`);
//! * `var+imm` (an address): for an integer or untyped operand of any
//!   size, never a floating-point, packed or predicate one (`add.f32 %f1,
//!   buf+8, %f2`, `min.s16x2 %r1, %r2, buf+8`);
//! * a minifloat operand (FP8, FP6, FP4 and the scale formats, list
//!   operands included: `add.rn.e4m3x4.e2m3x4`) takes `reg+imm` of a
//!   fitting register only (`cvt.rn.f16x2.e4m3x2 %r1, %rd9+8` is
//!   refused), and no function's name.
//!
//! Texture and surface instructions follow the same rule (`tex.2d … ,
//! %r9+8` as a `.s32` offset, not `%rd9+8`; tex.level's lod any register;
//! `tests/data/operands/texture/offsets.ptx`). A variable plus a constant
//! in a matrix instruction or an `exact` role (docs/catalog.md) is a
//! 32-bit value only: refused for a 64-bit descriptor, a predicate or a
//! 16-bit mask, and for a role that takes no register (wgmma's immediate
//! scales). A matrix instruction's list operands (`vec=list`: `mma`'s `e`
//! and block-scale data, `wgmma`'s `sp-meta`) follow the scalar rule
//! (`%r9+8`, not `%rd9+8`); vector operands, other list operands and
//! operands that take addresses are left to their own checks. A role's
//! type counts as the instruction's when a written modifier has that
//! type, but in texture instructions, whose fixed-type roles (the `.s32`
//! offset, the `.f32` depth value) ptxas never types by a modifier:
//! `tex.2d.v4.u32.s32 … , %rd9+8` is refused. A role of kind `no-offset`
//! takes neither (`tcgen05.mma`'s `idesc`, which ptxas pastes into an
//! expansion that cannot parse `+`).

use super::body::BodyWalk;
use super::inst_ctx::Names;
use super::operand_kinds;
use super::symbols::{compatible, Decl, Kind};
use super::{Checker, ModuleScope};
use crate::diag::{Code, Diagnostic};
use crate::isa::vocab::ScalarType;
use crate::isa::{catalog, Arity, Dir, Flags, Kinds, RoleSpec, TypeRef};
use crate::syntax::{BinOp, BinaryExpr, Expr, Instruction};

/// Whether `spec`'s type on `i` is the instruction's: the type of a
/// modifier written on `i` (`add.f32`, `bfe.u32`), or one a written type
/// modifier gives it (`.type`, `mad.wide`'s doubled type). ptxas then
/// takes any register plus a constant, or a function's name. In a texture
/// instruction only the role's own type group counts (`tex.2d.v4.u32.s32`
/// does not type its `.s32` offset).
pub(super) fn instruction_typed(i: &Instruction, spec: &RoleSpec, t: ScalarType) -> bool {
    // `strict-values`: no operand it reads is typed by the instruction,
    // but those that say `func` (the data of `atom`, `st`): a register
    // plus a constant only of a fitting register (`nanosleep.u32`,
    // `redux.sync`'s `src` and `membermask` refuse `%rd9+8`).
    if spec.dir == Dir::In
        && !spec.kinds.has(Kinds::FUNC)
        && catalog().flags(i.form).has(Flags::STRICT_VALUES)
    {
        return false;
    }
    // A role whose type is fixed (`bfe`'s `.u32` `b` and `c`, `bfind`'s
    // `.u32` `d`) is typed by the instruction only when the form spells
    // that type itself (`lop3.b32`, `lg2.approx.f32`, `vshr`'s `.u32`), not
    // when an alternative of a group happens to be it (`bfe.u32`: ptxas
    // 13.5 refuses `%rd9+8`, an `.f16x2` register and a function's name
    // as its `b`).
    // In a texture instruction no written modifier types a fixed-type role
    // (`tld4.r.2d.v4.s32.f32`'s `.f32` depth value refuses `%rd9+8`).
    if let Some(TypeRef::Fixed(_)) = spec.types.first() {
        if catalog().flags(i.form).has(Flags::TEXTURE) {
            return false;
        }
        let slots = i.form().map_or(&[][..], |f| f.slots);
        return i.mods.iter().any(|m| {
            catalog().mod_type(m.id) == Some(t)
                && m.slot()
                    .and_then(|k| slots.get(k))
                    .is_some_and(|s| matches!(s.kind, crate::isa::SlotKind::Lit(_)))
        });
    }
    if !catalog().flags(i.form).has(Flags::TEXTURE)
        && i.mods.iter().any(|m| catalog().mod_type(m.id) == Some(t))
    {
        return true;
    }
    for r in spec.types {
        match r {
            TypeRef::Fixed(_) => return false,
            TypeRef::Group(g) | TypeRef::Double(g) | TypeRef::Half(g) => {
                if i.group_mod(*g).is_some() {
                    return true;
                }
            }
        }
    }
    false
}

impl Checker<'_> {
    /// `b`, read by role `spec` (type `ty`) of `i`: when it is a register
    /// or variable plus a constant, report it where ptxas refuses it and
    /// say it was handled; other expressions are left to the caller.
    /// The offset `off` of a name (`buf+off`, `[%rd1+off]`), or a constant
    /// address, when it is a constant but not an integer: reported, as
    /// ptxas 13.5 refuses `[%rd1+1.5]`, `buf+(0f3F800000)` and
    /// `[%rd1+(1<2.0)]` ("Integer constant expression expected", "Constant
    /// expression type mismatch").
    pub(super) fn offset_not_integer(&mut self, off: &Expr) -> bool {
        if !operand_kinds::lit(off).is_some_and(|k| k != operand_kinds::Lit::Int) {
            return false;
        }
        self.emit(
            crate::diag::Diagnostic::error(
                crate::diag::Code::ImmediateType,
                off.span(),
                "an offset is an integer constant expression",
            )
            .with_note("ptxas: Integer constant expression expected"),
        );
        true
    }

    /// `f+4`, `L+4` or `p+4` with `f` a function, `L` a label or `p` a
    /// `.param` of the body: ptxas 13.5 takes the first two addresses
    /// alone, never in arithmetic, and the third not at all ("Cannot take address of
    /// function 'f' in arithmetic expressions"). A label defined further on
    /// is held until the labels of its block are known.
    pub(super) fn symbol_in_arithmetic(
        &mut self,
        i: &Instruction,
        b: &BinaryExpr,
        w: &mut BodyWalk,
        ms: &ModuleScope,
    ) -> bool {
        let (BinOp::Add, Expr::Name(n, sp)) = (b.op, &b.lhs) else {
            return false;
        };
        let found = w.lookup(ms, *n);
        let (n, sp) = (*n, *sp);
        let diag = move |what: &str| {
            crate::diag::Diagnostic::error(
                crate::diag::Code::OperandKind,
                sp,
                format!("`{n}` is a {what}: its address cannot be used in arithmetic"),
            )
            .with_note(format!("write `{n}` alone"))
        };
        match found.decl {
            Some(Decl {
                kind: Kind::Func, ..
            }) => self.emit(diag("function")),
            Some(Decl {
                kind: Kind::Label(_),
                ..
            }) => self.emit(diag("label")),
            // A body `.param`'s address is taken by no instruction.
            Some(Decl {
                kind: Kind::Var,
                space: Some(crate::isa::vocab::StateSpace::Param),
                ..
            }) => self.param_address(i, n, sp),
            None => {
                Checker::report_if_label(w, n, found, || diag("label"));
                return false;
            }
            _ => return false,
        }
        true
    }

    pub(super) fn offset_value(
        &mut self,
        i: &Instruction,
        spec: &RoleSpec,
        ty: Option<ScalarType>,
        b: &BinaryExpr,
        nm: Names<'_>,
    ) -> bool {
        let Names { w, ms } = nm;
        if b.op != BinOp::Add
            || operand_kinds::lit(&b.rhs).is_none()
            || spec.dir != Dir::In
            || spec.kinds.has(Kinds::ADDR)
            || (matches!(spec.arity, Arity::List)
                && !catalog().flags(i.form).has(Flags::MATRIX)
                && !catalog().flags(i.form).has(Flags::STRICT_VALUES)
                && !ty.is_some_and(ScalarType::is_minifloat))
            || (super::operands::role_arity(i, spec).is_some_and(|n| n > 0)
                && !catalog().flags(i.form).has(Flags::TEXTURE))
        {
            return false;
        }
        let Expr::Name(n, _) = &b.lhs else {
            return false;
        };
        let found = w.lookup(ms, *n);
        let (reg, reg_ty) = match found.decl {
            Some(Decl {
                kind: Kind::Reg,
                ty,
                ..
            }) => (true, ty),
            Some(Decl {
                kind: Kind::Var,
                space,
                ..
            }) => {
                // The variable must live where the role says (`space=`).
                if let Some(v) = space {
                    self.value_space(i, spec, (*n, b.span, found), v, w);
                }
                (false, None)
            }
            _ => return false,
        };
        let kind_ok = (spec.kinds.has(Kinds::REG) && (reg || !spec.kinds.has(Kinds::UNTYPED_REG)))
            || (!reg && spec.kinds.has(Kinds::VAR));
        let pred = |t: Option<ScalarType>| t == Some(ScalarType::Pred);
        // A matrix instruction or an `exact` role takes a variable plus a
        // constant as a 32-bit value only (`wmma`'s `stride`,
        // `movmatrix`'s source), not as a 64-bit descriptor, a predicate
        // or `tcgen05.commit`'s 16-bit mask (ptxas 13.5,
        // `tests/data/operands/matrix/var_offsets.ptx`).
        // So does a memory instruction (`@flags strict-values`) in a role
        // that is not its data (no `func`): a 64-bit cache policy or
        // mbarrier state and a 16-bit mask refuse `buf+8`, 32-bit sizes
        // and counts take it (ptxas 13.5, `tests/data/memory_operands/`
        // `var_offsets.ptx`).
        let flags = catalog().flags(i.form);
        // A memory or barrier instruction's operand that is not its data
        // (`strict-values`, no `func`: sizes, counts, masks, barrier
        // numbers) is not typed by the instruction's written type:
        // `cp.reduce.async.bulk….inc.u32 … %rd9+8` and `bar.red.popc.u32 %r1,
        // %rd9+8, …` are refused, `red.add.u32 [a], %rd9+8` is taken.
        let strict_operand = flags.has(Flags::STRICT_VALUES) && !spec.kinds.has(Kinds::FUNC);
        let matrix = flags.has(Flags::MATRIX) || super::exact::exact(spec) || strict_operand;
        // An operand the form reads through a selector (`a{.asel}` of the
        // scalar video instructions) takes neither (ptxas 13.5: a syntax
        // error), though their `c` does.
        let selected = i.form().is_some_and(|f| {
            f.operands
                .iter()
                .any(|t| t.role == spec.role && !t.suffixes.is_empty())
        });
        let refused = !kind_ok
            || selected
            || flags.has(Flags::SIMD_VIDEO)
            || spec.kinds.has(Kinds::NO_OFFSET)
            || if reg {
                match (ty, reg_ty) {
                    // A predicate plus a constant for a predicate only.
                    (t, r) if pred(t) || pred(r) => t != r,
                    // A minifloat operand (`cvt.rn.f16x2.e4m3x2`'s `a`,
                    // `add.rn.e4m3x4.e2m3x4`'s) takes a fitting register
                    // only, though the instruction spells its type.
                    (Some(t), Some(r)) if t.is_minifloat() => !compatible(t, r, spec.wider),
                    (Some(t), Some(r)) => {
                        t != r
                            && (strict_operand || !instruction_typed(i, spec, t))
                            && !compatible(t, r, spec.wider)
                    }
                    _ => false,
                }
            } else {
                ty.is_some_and(|t| {
                    t.is_float()
                        || t.is_packed()
                        || t == ScalarType::Pred
                        || (matrix && t.bits() != 32)
                })
            };
        if refused {
            let what = if reg { "a register" } else { "a variable" };
            let d = Diagnostic::error(
                Code::OperandKind,
                b.span,
                format!(
                    "`{}` cannot read {what} plus a constant as `{}`",
                    super::inst_name(i),
                    spec.role
                ),
            )
            .with_note(
                "ptxas takes `reg+imm` and `var+imm` as a value only for operands typed by the instruction (`var+imm`: an integer type); inside `[...]` it is an address",
            );
            self.report_found(*n, d, found, w);
        }
        true
    }
}
