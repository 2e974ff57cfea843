//! Texture, sampler and surface references as the handle operands of the
//! texture and surface instructions (catalog kind `handle`).
//!
//! A `handle` role lists, among its types, the reference types it takes
//! (`@operand a in handle,reg .u64|.texref`): its register type comes
//! first, so the references never type the role; they only say which
//! variables may stand there. ptxas 13.5 refuses the others ("Argument 1
//! of instruction 'tex': .texref or .u64 register expected"): a `.surfref`
//! or a kernel parameter as a texture, a `.texref` as a sampler or a
//! surface. A role that lists none takes any reference.

use crate::diag::{Code, Diagnostic};
use crate::isa::vocab::ScalarType;
use crate::isa::{Kinds, RoleSpec, TypeRef};
use crate::source::Span;
use crate::syntax::{Instruction, Name};

/// Whether `t` is a reference type.
fn is_ref(t: ScalarType) -> bool {
    matches!(
        t,
        ScalarType::TexRef | ScalarType::SamplerRef | ScalarType::SurfRef
    )
}

/// The reference types `spec` lists (none: any reference).
fn listed(spec: &RoleSpec) -> impl Iterator<Item = ScalarType> + '_ {
    spec.types.iter().filter_map(|t| match *t {
        TypeRef::Fixed(t) if is_ref(t) => Some(t),
        _ => None,
    })
}

/// The `.target` option under which samplers exist apart from textures
/// (module.ptxisa's `texmode` group; ISA 9.7.10.1).
const SEPARATE_SAMPLERS: &str = "texmode_independent";

/// Whether a declaration stands as a handle rather than a value: a 64-bit
/// integer register or a reference (or an old `.tex`) variable.
pub(super) fn is_handle(kind: super::symbols::Kind, ty: Option<ScalarType>) -> bool {
    match kind {
        super::symbols::Kind::Reg => ty.is_some_and(|t| t.bits() == 64 && !t.is_float()),
        super::symbols::Kind::Var => ty.is_none_or(is_ref),
        _ => false,
    }
}

/// Whether the `b32-if-handle` rule of role `spec` refuses a lone register
/// of type `reg`, given whether the instruction's sampler is a handle and
/// the module's declared options `opts`: in unified mode, after a handle
/// sampler, only an untyped `.b32` register.
pub(super) fn b32_after_handle_refuses(
    spec: &RoleSpec,
    reg: ScalarType,
    sampler_is_handle: bool,
    opts: u32,
) -> bool {
    spec.kinds.has(Kinds::B32_IF_HANDLE)
        && sampler_is_handle
        && reg != ScalarType::B32
        && !super::module_data::data().option_holds(SEPARATE_SAMPLERS, opts)
}

/// Whether the `lone-handle` rule of role `spec` takes a lone name that
/// resolves to `decl` (kind and type): a function or a 32-bit register of
/// the role's type `role_ty` or untyped always (whatever the role's vector
/// length); in unified mode (`opts`),
/// when an operand follows the tuple (`trailing`), a handle.
pub(super) fn lone_handle_takes(
    spec: &RoleSpec,
    decl: (super::symbols::Kind, Option<ScalarType>),
    role_ty: Option<ScalarType>,
    trailing: bool,
    opts: u32,
) -> bool {
    if !spec.kinds.has(Kinds::LONE_HANDLE) {
        return false;
    }
    let (kind, ty) = decl;
    let var_handle =
        kind == super::symbols::Kind::Var && ty.is_some_and(|t| is_ref(t) || t.bits() == 64);
    let value32 = kind == super::symbols::Kind::Reg
        && ty.is_some_and(|t| t.bits() == 32 && (t.is_untyped() || Some(t) == role_ty));
    kind == super::symbols::Kind::Func
        || value32
        || (trailing
            && !super::module_data::data().option_holds(SEPARATE_SAMPLERS, opts)
            && (var_handle || (kind == super::symbols::Kind::Reg && is_handle(kind, ty))))
}

/// Whether a variable of type `var_ty` may stand as the handle `spec`
/// (`None`: an old `.tex` variable, a handle of any kind) in a module
/// whose declared `.target` options are `opts`.
///
/// A sampler role (one that lists `.samplerref` alone) is held to it only
/// in independent mode: in unified mode no `.samplerref` can be declared,
/// and ptxas takes any reference there, or a 64-bit variable (not a
/// `.u32` one, nor a `.b8` array; probed with `[%rd1, v, {%f1, %f2}]` on
/// tex and tld4).
pub(super) fn fits(spec: &RoleSpec, var_ty: Option<ScalarType>, opts: u32) -> bool {
    let Some(t) = var_ty else { return true };
    let mut refs = listed(spec);
    let sampler_only = refs.next() == Some(ScalarType::SamplerRef) && refs.next().is_none();
    if sampler_only && !super::module_data::data().option_holds(SEPARATE_SAMPLERS, opts) {
        return is_ref(t) || t.bits() == 64;
    }
    is_ref(t) && (listed(spec).next().is_none() || listed(spec).any(|r| r == t))
}

/// The error for the variable `n` (of type `var_ty`) where the handle role
/// `spec` of `inst` wants another kind of reference.
pub(super) fn wrong_handle(
    inst: &str,
    spec: &RoleSpec,
    n: Name,
    span: Span,
    var_ty: Option<ScalarType>,
) -> Diagnostic {
    let mut want = String::new();
    for (k, t) in listed(spec).enumerate() {
        if k > 0 {
            want.push_str(" or ");
        }
        want.push_str(t.as_str());
    }
    if want.is_empty() {
        want.push_str("texture, sampler or surface reference");
    }
    let what = match var_ty {
        Some(t) if is_ref(t) => format!("a {} variable", t.as_str()),
        _ => "a variable but not a reference".to_string(),
    };
    Diagnostic::error(
        Code::OperandType,
        span,
        format!(
            "`{n}` is {what}; `{inst}` takes a {want} or a 64-bit register as `{}`",
            spec.role
        ),
    )
}

/// Whether a register of type `reg` may stand as a handle in role `spec`
/// whatever the role's register type: any 64-bit integer or untyped one
/// (a texture, sampler or surface by address). ptxas 13.5 takes `%rd`,
/// `%ud` and `%sd` registers even where a 32-bit sampler is read as a
/// value of the coordinates' type (tex's `bu`), and no `.f64` one.
pub(super) fn register_fits(spec: &RoleSpec, reg: ScalarType) -> bool {
    spec.kinds.has(crate::isa::Kinds::HANDLE) && reg.bits() == 64 && !reg.is_float()
}

/// The error for an expression (`%rd9+8`, `gbuf+8`) written as the handle
/// `spec` of `i`, which takes a register or a reference name alone.
pub(super) fn not_a_handle(
    i: &crate::syntax::Instruction,
    spec: &RoleSpec,
    span: Span,
) -> Diagnostic {
    Diagnostic::error(
        Code::OperandType,
        span,
        format!(
            "`{}` takes a reference name or a 64-bit register as `{}`, not an expression",
            super::inst_name(i),
            spec.role
        ),
    )
    .with_note("a texture, sampler or surface handle is no address: no offset can be added")
}

/// Whether `i` is a texture instruction in unified mode (`opts` the
/// module's `.target` options) with a sampler written: a present role of
/// its bracketed tuple that takes a `.samplerref` (tex's `b`, `bu`). ptxas
/// 13.5 then skips the geometry's length of some vectors (roles of kind
/// `sampler-lax`): `tex.3d … [t, %rd2, {x, y, z, w}], {%r1}` and
/// `tex.level.cube … [t, %r5, {%f1}], %f2` pass, and are refused in
/// independent mode and without a sampler ("Operand vector size doesn't
/// match geometry"); the gradients and `tex.3d`'s coordinates keep theirs.
pub(super) fn unified_sampler(i: &Instruction, opts: u32) -> bool {
    let cat = crate::isa::catalog();
    if !cat.flags(i.form).has(crate::isa::Flags::TEXTURE)
        || super::module_data::data().option_holds(SEPARATE_SAMPLERS, opts)
    {
        return false;
    }
    let (Some(form), Some(tuple)) = (
        i.form(),
        i.operands.iter().find_map(|o| match o {
            crate::syntax::Operand::Tuple { items, .. } => Some(items.len()),
            _ => None,
        }),
    ) else {
        return false;
    };
    form.operands.iter().any(|t| match t.shape {
        crate::isa::Shape::Bracket(inner) => {
            // Fewer written items leave out the optional ones, first to
            // last (as the operand check binds them).
            let mut skip = inner.len().saturating_sub(tuple);
            inner.iter().any(|x| {
                let present = !x.optional || {
                    let out = skip > 0;
                    skip = skip.saturating_sub(1);
                    !out
                };
                present && cat.role(x.spec).is_some_and(takes_sampler)
            })
        }
        _ => false,
    })
}

/// Whether role `spec` is a sampler: it lists `.samplerref` (tex's `b`,
/// `bu`).
pub(super) fn takes_sampler(spec: &RoleSpec) -> bool {
    listed(spec).any(|t| t == ScalarType::SamplerRef)
}
