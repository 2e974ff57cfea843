//! Operands against the catalog's description of their roles
//! (`@operand` lines, [`RoleSpec`]): what kind each may be (register,
//! constant, special register, variable, label, sink), of which type, as a
//! scalar or a vector of how many, and in which range. Nothing here knows
//! an instruction by name: a role the catalog does not describe is checked
//! only for its shape (by the parser).

use super::body::{BodyWalk, Found};
use super::inst_ctx::{InstCtx, Names};
use super::operand_kinds::{self, Lit};
use super::symbols::{is_predefined, Decl, Kind, LabelSort, ModuleScope};
use super::Checker;
use crate::diag::{Code, Diagnostic};
use crate::isa::vocab::{ScalarType, StateSpace};
use crate::isa::{
    catalog, Arity, Kinds, OperandTpl, RoleId, RoleSpec, Shape, SpaceSet, SpecialReg, TypeRef,
};
use crate::source::Span;
use crate::syntax::{Expr, Instruction, Name, Operand};

/// The data type `spec` gives its operand on `i`: the first of its
/// alternatives that applies (`None`: untyped), as
/// [`crate::isa::fill::role_type`] decides it.
pub(crate) fn role_type(i: &Instruction, spec: &RoleSpec) -> Option<ScalarType> {
    if spec.types.is_empty() {
        return None;
    }
    if let [TypeRef::Fixed(t), ..] = spec.types {
        return Some(*t);
    }
    let form = i.form()?;
    crate::isa::fill::role_type(catalog(), form, &i.written(), spec)
}

/// How many elements `spec`'s operand has on `i`: `Some(0)` for a scalar,
/// `None` when not checked.
pub(crate) fn role_arity(i: &Instruction, spec: &RoleSpec) -> Option<usize> {
    match spec.arity {
        Arity::Any | Arity::List => None,
        Arity::Scalar => Some(0),
        Arity::Fixed(n) => Some(usize::from(n)),
        Arity::Group(g) | Arity::GroupOrScalar(g) => match i.group_mod(g) {
            Some(m) => catalog().mod_lanes(m.id).map(usize::from),
            None => Some(0),
        },
        Arity::Table(rows) => rows
            .iter()
            .find(|(_, mods)| mods.iter().all(|m| i.mods.iter().any(|x| x.id == *m)))
            .map(|(n, _)| usize::from(*n)),
    }
}

/// Whether `spec`'s type on `i` is that of a type modifier written (or
/// implied) on `i`, rather than a fixed type: the first of its types that
/// resolves is a group's.
fn typed_by_modifier(i: &Instruction, spec: &RoleSpec) -> bool {
    for t in spec.types {
        match t {
            TypeRef::Group(g) if i.group_mod(*g).is_some() => return true,
            TypeRef::Group(_) => {}
            _ => return false,
        }
    }
    false
}

/// A role's type and vector size on one instruction.
pub(crate) type RoleFacts = (RoleId, Option<ScalarType>, Option<usize>);

/// The facts of `id` among `roles`.
#[inline]
fn facts(roles: &[RoleFacts], id: RoleId) -> Option<&RoleFacts> {
    roles.iter().find(|f| f.0 == id)
}

/// Shape facts by shape key.
type ShapeMap = rustc_hash::FxHashMap<u128, std::rc::Rc<ShapeFacts>>;

/// Shapes past which the map is not extended (bounds its memory; a real
/// module uses a few hundred).
const SHAPES_MAX: usize = 1 << 14;

thread_local! {
    /// The shape map the last checker on this thread left: the facts
    /// depend on the catalog only, so a run over many small modules works
    /// each shape out once.
    static KEPT: std::cell::Cell<Option<ShapeMap>> = const { std::cell::Cell::new(None) };
}

/// Role types and vector sizes by instruction shape: the form and its
/// written modifiers decide them, and few shapes recur through a module.
pub(crate) struct Resolved {
    map: ShapeMap,
}

/// What an instruction's shape decides.
pub(crate) struct ShapeFacts {
    /// Every described role's type and vector size.
    roles: Box<[RoleFacts]>,
    /// The modifier rule the shape breaks (rule, clause), if any.
    broken: Option<(u16, u16)>,
    /// The environment in which the shape's form, section and modifiers
    /// were found available (see `gating`): then they are again.
    pub(crate) gated: std::cell::Cell<Option<super::target::Env>>,
}

impl ShapeFacts {
    /// Every described role's type and vector size.
    pub(crate) fn roles(&self) -> &[RoleFacts] {
        &self.roles
    }

    /// The modifier rule the shape breaks (rule, clause), if any.
    pub(crate) fn broken(&self) -> Option<(u16, u16)> {
        self.broken
    }
}

/// The shape of an instruction as a key: the form and up to seven
/// modifiers, 16 bits each.
fn shape_key(i: &Instruction) -> Option<u128> {
    (i.mods.len() <= 7).then(|| {
        i.mods
            .iter()
            .fold(u128::from(i.form.0), |k, m| (k << 16) | u128::from(m.id.0))
            | (i.mods.len() as u128) << 124
    })
}

impl Default for Resolved {
    /// The map the last checker on this thread left, or an empty one.
    fn default() -> Resolved {
        Resolved {
            map: KEPT
                .try_with(std::cell::Cell::take)
                .ok()
                .flatten()
                .unwrap_or_default(),
        }
    }
}

impl Drop for Resolved {
    fn drop(&mut self) {
        let map = std::mem::take(&mut self.map);
        // Fails only while the thread is being torn down.
        let _ = KEPT.try_with(|k| k.set(Some(map)));
    }
}

impl Resolved {
    /// The facts of every described role of `i`'s form.
    pub(crate) fn of(
        &mut self,
        i: &Instruction,
        form: &crate::isa::Form,
    ) -> std::rc::Rc<ShapeFacts> {
        let key = shape_key(i);
        if let Some(r) = key.and_then(|k| self.map.get(&k)) {
            return r.clone();
        }
        let mut out: Vec<RoleFacts> = Vec::new();
        let mut add = |id: RoleId| {
            if let Some(spec) = catalog().role(id) {
                if !out.iter().any(|f| f.0 == id) {
                    out.push((id, role_type(i, spec), role_arity(i, spec)));
                }
            }
        };
        fn walk(tpls: &[OperandTpl], add: &mut impl FnMut(RoleId)) {
            for t in tpls {
                add(t.spec);
                match t.shape {
                    Shape::Pair { second_spec, .. } => add(second_spec),
                    Shape::Bracket(inner) | Shape::Vector(inner) => walk(inner, add),
                    _ => {}
                }
            }
        }
        walk(form.operands, &mut add);
        let r = std::rc::Rc::new(ShapeFacts {
            roles: out.into(),
            broken: broken_in_section(i),
            gated: std::cell::Cell::new(None),
        });
        if let Some(k) = key {
            if self.map.len() < SHAPES_MAX {
                self.map.insert(k, r.clone());
            }
        }
        r
    }
}

/// The rule of `i`'s section that its modifiers break, if it has rules.
pub(crate) fn broken_in_section(i: &Instruction) -> Option<(u16, u16)> {
    catalog()
        .section_of(i.form)
        .is_some_and(|s| !s.rules.is_empty())
        .then(|| super::mod_rules::broken_rule(i))
        .flatten()
}

/// Whether an address in state space `s` may name a variable of space `v`
/// (a parameter's space is `.param::entry` for a kernel's and
/// `.param::func` for a function's; [`super::body`]). In a kernel, a
/// `.param::func` address names only `.param` variables of the body, and
/// a `.param::entry` address never does (proven against ptxas 13.5).
fn holds_variable(s: StateSpace, v: StateSpace, in_entry: bool) -> bool {
    use StateSpace::*;
    let param = matches!(v, Param | ParamEntry | ParamFunc);
    match s {
        Shared | SharedCta | SharedCluster => v == Shared,
        Param => param,
        ParamEntry => param && v != Param,
        ParamFunc => param && (v != ParamEntry || !in_entry),
        Global | Local | Const => v == s,
        Reg | Sreg | Tex => true,
    }
}

impl Checker<'_> {
    /// Variable `n` of space `v` as a value of role `spec` (alone, plus a
    /// constant, or an element of it): where the role lists state spaces
    /// (`space=`), the variable must live in one of them, as ptxas 13.5
    /// wants for `cvta`'s, `mapa`'s and `getctarank`'s source and the
    /// tensor copies' `tensorMap` ("State space mismatch").
    pub(super) fn value_space(
        &mut self,
        i: &Instruction,
        spec: &RoleSpec,
        (n, sp, f): (Name, Span, Found),
        v: StateSpace,
        w: &mut BodyWalk,
    ) {
        let Some(spaces) = spec
            .address_spaces(|g| i.group_mod(g).and_then(|m| catalog().mod_space(m.id)))
            .filter(|s| !s.is_empty())
        else {
            return;
        };
        if spaces.iter().any(|s| holds_variable(s, v, w.entry)) {
            return;
        }
        let names: Vec<&str> = spaces.iter().map(StateSpace::as_str).collect();
        let d = Diagnostic::error(
            Code::OperandKind,
            sp,
            format!(
                "`{n}` is a `{v}` variable, but `{}` takes the address of one in `{}` as `{}`",
                super::inst_name(i),
                names.join("` or `"),
                spec.role
            ),
        )
        .with_note("name a variable of that state space, or hold the address in a register");
        self.report_found(n, d, f, w);
    }
}

/// For a role that also takes a predicate register (`pred`), the form of
/// the same section with the same modifier slots whose operand at the
/// role's place is a `.pred` role: the form the parser could not tell
/// from `i`'s (`cp.async … cp-size, ignore-src` beside `… cp-size{,
/// src-size}`).
fn pred_alternative(i: &Instruction, spec: &RoleSpec) -> Option<&'static crate::isa::Form> {
    let cat = catalog();
    let form = i.form()?;
    let k = form
        .operands
        .iter()
        .position(|t| cat.role(t.spec).is_some_and(|r| std::ptr::eq(r, spec)))?;
    cat.opcode(form.opcode)?
        .forms
        .iter()
        .filter_map(|&id| cat.form(id))
        .find(|f| {
            f.section == form.section
                && f.slots == form.slots
                && f.operands.len() == form.operands.len()
                && f.operands
                    .get(k)
                    .and_then(|t| cat.role(t.spec))
                    .is_some_and(|r| {
                        !r.kinds.has(Kinds::PRED)
                            && matches!(r.types, [TypeRef::Fixed(ScalarType::Pred)])
                    })
        })
}

/// The special register `e` names, with its component, if it names one.
fn special_of(e: &Expr) -> Option<(&'static SpecialReg, Option<&str>, Span)> {
    match e {
        Expr::Name(n, sp) => {
            let s = n.as_str();
            if !s.starts_with('%') {
                return None;
            }
            catalog().special_register(s).map(|r| (r, None, *sp))
        }
        Expr::Field(fe) => match &fe.base {
            Expr::Name(n, _) if n.as_str().starts_with('%') => catalog()
                .special_register(n.as_str())
                .map(|r| (r, Some(fe.field.as_str().trim_start_matches('.')), fe.span)),
            _ => None,
        },
        _ => None,
    }
}

/// Whether `o` is the sink `_`.
fn is_sink(o: &Operand) -> bool {
    matches!(o, Operand::Expr(e) if e.is_sink())
}

/// The type of the register `e` names, if it names one.
pub(super) fn reg_type(e: &Expr, w: &BodyWalk, ms: &ModuleScope) -> Option<ScalarType> {
    let Expr::Name(n, _) = e else { return None };
    w.lookup(ms, *n).decl.and_then(Decl::register_type)
}

/// Whether a `.bN` register is among `items`, which leaves a vector
/// untyped where ptxas types it by its registers.
fn untyped_among(items: &[Operand], w: &BodyWalk, ms: &ModuleScope) -> bool {
    items
        .iter()
        .any(|it| matches!(it, Operand::Expr(e) if reg_type(e, w, ms).is_some_and(ScalarType::is_untyped)))
}

/// The type a vector element brings to the vector's typing: its
/// register's, or `.b32` for a special register whose name the function
/// or module does not declare (ptxas types `%tid.x` among the elements as
/// plain bits).
fn element_type(e: &Expr, w: &BodyWalk, ms: &ModuleScope) -> Option<ScalarType> {
    if let Some(t) = reg_type(e, w, ms) {
        return Some(t);
    }
    let base = match e {
        Expr::Field(f) => &f.base,
        e => e,
    };
    let undeclared = matches!(base, Expr::Name(n, _) if w.lookup(ms, *n).decl.is_none());
    (undeclared && special_of(e).is_some()).then_some(ScalarType::B32)
}

/// Where `e` is a constant, its kind.
fn constant(e: &Expr) -> Option<Lit> {
    operand_kinds::lit(e)
}

impl Checker<'_> {
    /// Every operand of the instruction against its role. Returns the
    /// written operands (bit `k` for the `k`th) that are vectors whose
    /// names were looked up and reported here.
    pub(super) fn operands(&mut self, cx: &InstCtx<'_>, w: &mut BodyWalk, ms: &ModuleScope) -> u32 {
        let (i, found) = (cx.i, &cx.found);
        let Some(form) = cx.form else { return 0 };
        if catalog().flags(i.form).has(crate::isa::Flags::NEG_PRODUCT) {
            self.negated_product(i, form);
        }
        let mut written = i.operands.iter().zip(found).enumerate();
        let mut handled = 0u32;
        for (k, tpl) in form.operands.iter().enumerate() {
            if k >= 32 || i.present & (1 << k) == 0 {
                continue;
            }
            let Some((at, (o, f))) = written.next() else {
                break;
            };
            // A constant the form spells out (`cp.async.cg ..., 16`).
            if let (Shape::Literal(lit), Operand::Expr(e)) = (&tpl.shape, o) {
                let want = int_literal(lit);
                let have = crate::syntax::consteval::eval_int(e);
                if let (Some(want), Some(have)) = (want, have.filter(|h| Some(*h) != want)) {
                    self.emit(Diagnostic::error(
                        Code::ImmediateValue,
                        e.span(),
                        format!(
                            "{have} cannot be written here in `{}`: it must be {want}",
                            super::inst_name(i)
                        ),
                    ));
                } else if let (Some(want), None, Some(kind)) = (want, have, constant(e)) {
                    // A floating-point constant in its place (ptxas 13.5:
                    // "Arguments mismatch" for `cp.async.cg … [a], [b],
                    // 0f3F800000`, and for `16.0`).
                    if kind != Lit::Int {
                        self.emit(Diagnostic::error(
                            Code::ImmediateValue,
                            e.span(),
                            format!(
                                "a floating-point constant cannot be written here in `{}`: it must be the integer {want}",
                                super::inst_name(i)
                            ),
                        ));
                    }
                } else if let (Some(want), None, Expr::Name(n, sp)) = (want, have, e) {
                    // Nor a register or a variable in its place (ptxas 13.5:
                    // "Arguments mismatch" for `cp.async.cg … [a], [b], %r1`;
                    // `WARP_SZ` is a constant, evaluated above).
                    if !n.is_sink() {
                        self.emit(Diagnostic::error(
                            Code::ImmediateValue,
                            *sp,
                            format!(
                                "`{n}` cannot be written here in `{}`: it must be the constant {want}",
                                super::inst_name(i)
                            ),
                        ));
                    }
                }
            }
            // A plain value (most operands) goes straight to its role; a
            // register of a known type in a plain scalar role (about half
            // of all operands) takes the short way there.
            let whole = match (&tpl.shape, o) {
                (Shape::Value, Operand::Expr(Expr::Name(n, sp)))
                    if self.plain_register(cx, tpl.spec, (*n, *sp), *f, w) =>
                {
                    false
                }
                (Shape::Value | Shape::Literal(_), Operand::Expr(_)) => {
                    self.role_operand(cx, tpl.spec, o, *f, true, Names { w, ms })
                }
                _ => self.templated(cx, tpl, o, *f, true, Names { w, ms }),
            };
            if whole && at < 32 {
                handled |= 1 << at;
            }
        }
        handled
    }

    /// The common case of [`Checker::role_operand`], checked the same way
    /// in fewer steps: register `n` declared with a type, written where a
    /// scalar role of a known type takes registers and has no
    /// target-dependent typing rule (`typed-on`, `untyped-on`) nor a
    /// handle's exceptions. `false` (nothing checked) for anything else,
    /// which takes the full path. Such an operand is only ever a matter of
    /// the register's type (`value`, then `register_type`), and it is never
    /// reported as a whole by the operand check.
    #[inline]
    fn plain_register(
        &mut self,
        cx: &InstCtx<'_>,
        id: RoleId,
        (n, span): (Name, Span),
        found: Option<Found>,
        w: &mut BodyWalk,
    ) -> bool {
        let Some(f) = found else { return false };
        let Some(reg) = f.decl.and_then(Decl::register_type) else {
            return false;
        };
        let Some(&(_, Some(ty), Some(0))) = facts(cx.roles(), id) else {
            return false;
        };
        let Some(spec) = catalog().role(id) else {
            return false;
        };
        if !spec.kinds.has(Kinds::REG)
            || spec.kinds.has(Kinds::LONE_HANDLE)
            || spec.kinds.has(Kinds::B32_IF_HANDLE)
            || !spec.typed_on.is_empty()
            || !spec.untyped_on.is_empty()
            || n.is_sink()
        {
            return false;
        }
        if reg != ty {
            self.register_type(cx.i, spec, (n, span, f), (reg, ty), w);
        }
        true
    }

    /// The guard `@p` of an instruction: a predicate register.
    pub(super) fn guard(&mut self, g: &crate::syntax::Guard, f: Found, w: &mut BodyWalk) {
        let span = Span::new(
            g.span.end.saturating_sub(g.pred.as_str().len() as u32),
            g.span.end,
        );
        // The sink and `WARP_SZ` guard nothing (ptxas 13.5: syntax
        // errors); a label defined further on neither ("Predicate
        // expression expected").
        if g.pred.is_sink() || g.pred.is_warp_size() {
            self.emit(Diagnostic::error(
                Code::OperandType,
                span,
                format!(
                    "`{}` cannot be a guard: a guard is a .pred register",
                    g.pred
                ),
            ));
            return;
        }
        if f.decl.is_none() {
            let pred = g.pred;
            Checker::report_if_label(w, pred, f, || {
                Diagnostic::error(
                    Code::OperandType,
                    span,
                    format!("the guard `{pred}` is a label; a guard must be a .pred register"),
                )
            });
        }
        let ty = match f.decl {
            Some(Decl {
                kind: Kind::Reg,
                ty: Some(ty),
                ..
            }) if ty != ScalarType::Pred => ty.to_string(),
            Some(Decl {
                kind: Kind::Var | Kind::Label(_) | Kind::Func,
                ..
            }) => "not a register".to_string(),
            None => match catalog().special_register(g.pred.as_str()) {
                Some(r) if r.ty != ScalarType::Pred => format!("a {} special register", r.ty),
                _ => return,
            },
            _ => return,
        };
        let d = Diagnostic::error(
            Code::OperandType,
            span,
            format!(
                "the guard `{}` is {}; a guard must be a .pred register",
                g.pred,
                if ty.starts_with('.') {
                    format!("a {ty} register")
                } else {
                    ty.clone()
                }
            ),
        );
        self.report_found(g.pred, d, f, w);
    }

    /// Operand `o` written for template `tpl`.
    fn templated(
        &mut self,
        cx: &InstCtx<'_>,
        tpl: &OperandTpl,
        o: &Operand,
        found: Option<Found>,
        top: bool,
        nm: Names<'_>,
    ) -> bool {
        let (i, roles) = (cx.i, cx.roles());
        let Names { w, ms } = nm;
        match (&tpl.shape, o) {
            (Shape::Pair { second_spec, .. }, Operand::Pair(p)) => {
                self.role_operand(cx, tpl.spec, &p.first, None, false, Names { w, ms });
                // ptxas 13.5 does not check that the second half of a pair
                // is a register it may write: a read-only `.pred` special
                // register passes there (`d|%is_explicit_cluster` of `tex`,
                // `setp`, `shfl`), though not as a first half nor as `mov`'s
                // destination. (`special`, below, says the same for a pair
                // reached through another reading of the operands.)
                let pred_sreg = special_of(&p.second)
                    .filter(|(r, c, _)| c.is_none() && r.ty == ScalarType::Pred)
                    .filter(|_| {
                        matches!(&p.second, Expr::Name(n, _) if w.lookup(ms, *n).decl.is_none())
                    });
                if let Some((r, _, span)) = pred_sreg {
                    self.gate_special(r, span);
                } else if let Some(spec) = catalog().role(*second_spec) {
                    let ty = facts(roles, *second_spec).map_or_else(|| role_type(i, spec), |f| f.1);
                    self.value(i, spec, ty, &p.second, None, Names { w, ms });
                }
            }
            // `p|q` whose halves are not both names stays an expression
            // (`1|%p2`): ptxas reads no such pair (a syntax error).
            (Shape::Pair { .. }, Operand::Expr(Expr::Binary(b)))
                if b.op == crate::syntax::BinOp::BitOr =>
            {
                self.emit(
                    Diagnostic::error(
                        Code::OperandShape,
                        b.span,
                        format!(
                            "`{}` takes a pair of registers as `{}`",
                            super::inst_name(i),
                            tpl.role
                        ),
                    )
                    .with_note("each half of `a|b` must be a register (or `_`), not a constant or an expression"),
                );
            }
            (Shape::Bracket(inner), Operand::Tuple { items, .. }) => {
                // `[a, {b,} c]`: an optional item tied to a modifier
                // (`{, b if .m}`) is there exactly when `.m` is written, as
                // for top-level operands; the other optional items are left
                // out, first to last, when fewer are written.
                let cat = catalog();
                let tied_out = |t: &OperandTpl| {
                    t.optional
                        && t.when
                            .is_some_and(|w| !i.mods.iter().any(|m| cat.slot_accepts(w, m.id)))
                };
                let kept = inner.iter().filter(|t| !tied_out(t)).count();
                let mut skip = kept.saturating_sub(items.len());
                let mut items = items.iter();
                for t in inner.iter() {
                    if tied_out(t) {
                        continue;
                    }
                    if t.optional && t.when.is_none() && skip > 0 {
                        skip = skip.saturating_sub(1);
                        continue;
                    }
                    let Some(item) = items.next() else { break };
                    self.templated(cx, t, item, None, false, Names { w, ms });
                }
            }
            // An address is checked with its names (`body`, then
            // `address_base`): which registers ptxas takes there beyond
            // refusing a predicate depends on the state space and the
            // address size, and is not checked, unless the role gives
            // the address a type (`@operand taddr in addr .u32`: a
            // 32-bit Tensor Memory address): then its base register must
            // be of that type.
            // `ld.global.u32 d, arr[1]`: an array element as the address.
            (Shape::Bracket([t]), Operand::Expr(e @ Expr::Index { .. })) => {
                if let Some(spec) = catalog().role(t.spec) {
                    self.array_element(i, spec, None, e, true, Names { w, ms });
                }
            }
            (Shape::Bracket(inner), Operand::Address { addr, .. }) => {
                if let [t] = &inner[..] {
                    // `[a]` of a handle role (`txq`, `suq`) is no address:
                    // a register or a reference name alone, checked as a
                    // value of the role (ptxas 13.5: "Argument 1 of
                    // instruction 'txq': .texref or .u64 register
                    // expected" for `[%rd9+8]`, `[%clock64]`; "Arguments
                    // mismatch" for `[gbuf+8]`, `[%r9]`).
                    if let Some(spec) = catalog()
                        .role(t.spec)
                        .filter(|s| s.kinds.has(Kinds::HANDLE) && !s.kinds.has(Kinds::ADDR))
                    {
                        if let Expr::Name(n, _) = addr {
                            let f = w.lookup(ms, *n);
                            let ty =
                                facts(roles, t.spec).map_or_else(|| role_type(i, spec), |f| f.1);
                            self.value(i, spec, ty, addr, Some(f), Names { w, ms });
                        } else {
                            self.diags
                                .push(super::handles::not_a_handle(i, spec, addr.span()));
                        }
                        return true;
                    }
                    self.typed_address(i, roles, t.spec, addr, w, ms);
                    // `[tex0]` of a handle role (`txq`, `suq`): a variable
                    // there must be a reference of the role's kind.
                    if let (Some(spec), Expr::Name(n, _)) = (catalog().role(t.spec), addr) {
                        let f = w.lookup(ms, *n);
                        let var = matches!(
                            f.decl,
                            Some(Decl {
                                kind: Kind::Var,
                                ..
                            })
                        );
                        if var && spec.kinds.has(Kinds::HANDLE) && !spec.kinds.has(Kinds::ADDR) {
                            self.value(i, spec, None, addr, Some(f), Names { w, ms });
                        }
                    }
                }
            }
            // `{x}` inside a texture instruction's tuple written longer
            // (`.1d`'s coordinates as `{x, y}`): ptxas takes 2 or 4
            // elements and leaves them unchecked (`{%r1, %f2}` with `.s32`
            // coordinates passes; 3 or 8: "Illegal vector size"). Not so
            // the one-element gradients of `.1d` (`{%f5, %f6}` is refused).
            (Shape::Vector([only]), Operand::Vector { items, span })
                if matches!(only.shape, Shape::Value)
                    && items.len() > 1
                    && catalog().flags(i.form).has(crate::isa::Flags::TEXTURE) =>
            {
                if top {
                    self.emit(Diagnostic::error(
                        Code::OperandShape,
                        *span,
                        format!(
                            "`{}` takes a vector of one element as `{}`, not {}",
                            super::inst_name(i),
                            only.role,
                            items.len()
                        ),
                    ));
                    return false;
                }
                if !matches!(items.len(), 2 | 4) {
                    self.emit(Diagnostic::error(
                        Code::OperandShape,
                        *span,
                        format!(
                            "`{}` takes a vector of 1, 2 or 4 elements here, not {}",
                            super::inst_name(i),
                            items.len()
                        ),
                    ));
                    return false;
                }
            }
            // `{a}` with one role: the braces are the role's own vector
            // (a register fragment), checked as a whole.
            (Shape::Vector([only]), Operand::Vector { .. })
                if matches!(only.shape, Shape::Value) =>
            {
                return self.role_operand(cx, only.spec, o, found, top, Names { w, ms });
            }
            (Shape::Vector(inner), Operand::Vector { items, span })
                if inner.len() == items.len() =>
            {
                let writes =
                    |t: &OperandTpl| catalog().role(t.spec).is_some_and(|r| r.dir.writes());
                if inner.iter().all(writes) && items.iter().all(is_sink) {
                    self.emit(Diagnostic::error(
                        Code::Sink,
                        *span,
                        format!(
                            "every element of this vector of `{}` is the sink `_`: keep at least one register",
                            super::inst_name(i)
                        ),
                    ));
                    return false;
                }
                // A spelled-out vector of `typed-vector` roles (`mma`'s
                // `{byte-id-a, thread-id-a}`) is typed by its elements as
                // a fragment is: `{1.5, %uh2}` mixes a float and an integer.
                let first = inner.first().and_then(|t| catalog().role(t.spec));
                if let Some(spec) = first.filter(|_| {
                    inner.iter().all(|t| {
                        catalog()
                            .role(t.spec)
                            .is_some_and(|r| r.kinds.has(Kinds::TYPED_VECTOR))
                    })
                }) {
                    if !self.exact_vector(i, spec, None, items, *span, Names { w, ms }) {
                        return false;
                    }
                }
                // A `.bN` register among the items leaves the vector
                // untyped, as ptxas types a vector by its elements: an
                // `.f16x2` register then passes beside it where a vector of
                // them, or one beside an `.f32`, is refused (tex.grad.cube's
                // `{%hh9, %r12, %r13, %r14}` gradient, ptxas 13.5).
                let untyped = untyped_among(items, w, ms);
                for (t, item) in inner.iter().zip(items) {
                    // Any element of a written vector may be `_`.
                    if is_sink(item) && writes(t) {
                        continue;
                    }
                    // An item of a role that takes special registers is an
                    // element of a written vector: ptxas takes one of any
                    // kind there, as in the vectors of a single role
                    // (`element`).
                    let spec = catalog().role(t.spec).filter(|s| s.kinds.has(Kinds::SREG));
                    if let (Shape::Value, Operand::Expr(e), Some(spec)) = (&t.shape, item, spec) {
                        let ty = facts(roles, t.spec).map_or_else(|| role_type(i, spec), |f| f.1);
                        // One element of a spelled-out vector is judged
                        // alone: ptxas takes an integer register among
                        // others (`{%u9, %r8, %r9, %r10}` as tex.grad.cube's
                        // gradient, operand sweep on sm_86) where it refuses
                        // a vector of them, so
                        // `strict-reg` does not apply here.
                        let mut loose = *spec;
                        loose.kinds = Kinds(spec.kinds.0 & !Kinds::STRICT_REG.0);
                        // A predicate register beside a typed register or
                        // a constant (`{%p9, %f6, %f7, %f8}`, `{%p9, %f6,
                        // %r7, %f8}`, `{%p9, 0f3F800000, …}`): ptxas
                        // refuses the mix ("Vector with elements of
                        // different types", every target); beside `.bN`
                        // registers alone it passes.
                        if spec.kinds.has(Kinds::PRED)
                            && reg_type(e, w, ms) == Some(ScalarType::Pred)
                            && items.iter().any(|it| match it {
                                Operand::Expr(x) => {
                                    constant(x).is_some()
                                        || reg_type(x, w, ms).is_some_and(|r| {
                                            r != ScalarType::Pred && !r.is_untyped()
                                        })
                                }
                                _ => false,
                            })
                        {
                            self.emit(Diagnostic::error(
                                Code::OperandType,
                                e.span(),
                                format!(
                                    "a predicate register cannot stand among the typed registers of `{}`'s vector `{}`",
                                    super::inst_name(i),
                                    spec.role
                                ),
                            ));
                            continue;
                        }
                        // In an untyped vector a packed register is taken
                        // as the elements' plain bits (constants keep the
                        // role's type).
                        let packed = reg_type(e, w, ms).is_some_and(ScalarType::is_packed);
                        // Not where ptxas lowers the role through a `mov`
                        // (`mov-on=`), which refuses the packed register.
                        let ty = match ty {
                            Some(t)
                                if untyped
                                    && packed
                                    && t.bits() == 32
                                    && !spec.lowered_on(self.env.sm.map(|s| s.num)) =>
                            {
                                Some(ScalarType::B32)
                            }
                            _ => ty,
                        };
                        self.element(i, &loose, ty, e, false, Names { w, ms });
                        continue;
                    }
                    self.templated(cx, t, item, None, false, Names { w, ms });
                }
            }
            // A spelled-out vector of three or more distinct roles
            // (`{i, x, y, z}`: an array index and coordinates) has exactly
            // that many elements (ptxas: "Operand vector size doesn't
            // match"); shorter ones (`{i, x}`) and one role repeated
            // (`{dPdx, dPdx, dPdx, dPdx}`) may take other sizes.
            (Shape::Vector(inner), Operand::Vector { items, span })
                if inner.len() != items.len() && {
                    let mut roles: Vec<&str> = inner.iter().map(|t| t.role).collect();
                    roles.sort_unstable();
                    roles.dedup();
                    roles.len() >= 3
                } =>
            {
                self.emit(Diagnostic::error(
                    Code::OperandShape,
                    *span,
                    format!(
                        "`{}` takes a vector of {} here, not {}",
                        super::inst_name(i),
                        inner.len(),
                        items.len()
                    ),
                ));
            }
            // Other lengths of a texture instruction's spelled-out vector
            // (`{x, y}` written with 3 or 8 elements) go unchecked but for
            // ptxas's sizes: 1, 2 or 4 ("Illegal vector size: 3").
            (Shape::Vector(_), Operand::Vector { items, span })
                if !matches!(items.len(), 1 | 2 | 4)
                    && catalog().flags(i.form).has(crate::isa::Flags::TEXTURE) =>
            {
                self.emit(Diagnostic::error(
                    Code::OperandShape,
                    *span,
                    format!(
                        "`{}` takes a vector of 1, 2 or 4 elements here, not {}",
                        super::inst_name(i),
                        items.len()
                    ),
                ));
            }
            // A lone value in the place of a spelled-out vector inside
            // brackets (`[t, %f1]` for `[a, {x, y}]`): ptxas takes one of
            // the type of the vector's last item (a coordinate), and nothing
            // else, so it is checked as that item.
            // A special register cannot stand there (a syntax error to
            // ptxas, `[t, %tid.x]`).
            (Shape::Vector(inner), Operand::Expr(e)) => {
                if let Some((_, _, span)) = special_of(e) {
                    // `%tid.x` inside brackets: the parser reported it (a
                    // tuple's items are names alone,
                    // `syntax/parser/grouped.rs`).
                    if !top && matches!(e, Expr::Field(_)) {
                        return false;
                    }
                    self.emit(Diagnostic::error(
                        Code::OperandShape,
                        span,
                        format!(
                            "`{}` takes a vector of {} here, not a special register",
                            super::inst_name(i),
                            inner.len()
                        ),
                    ));
                    return false;
                }
                if let Some(last) = inner.last() {
                    return self.templated(cx, last, o, found, top, Names { w, ms });
                }
            }
            (Shape::Value | Shape::Literal(_) | Shape::Pair { .. }, _) => {
                return self.role_operand(cx, tpl.spec, o, found, top, Names { w, ms });
            }
            _ => {}
        }
        false
    }

    /// `b32-if-handle`: the lone register `n` as role `spec` of `i` after
    /// a handle sampler in unified mode must be `.b32`; whether it was
    /// refused (and reported).
    fn b32_after_handle(
        &mut self,
        i: &Instruction,
        spec: &RoleSpec,
        (n, span): (Name, Span),
        found: Option<Found>,
        nm: Names<'_>,
    ) -> bool {
        let Names { w, ms } = nm;
        let f = found.unwrap_or_else(|| w.lookup(ms, n));
        let Some(reg) = f.decl.and_then(Decl::register_type) else {
            return false;
        };
        let sampler = i.operands.iter().find_map(|op| match op {
            Operand::Tuple { items, .. } if items.len() == 3 => items.get(1),
            _ => None,
        });
        let handle = match sampler {
            Some(Operand::Expr(Expr::Name(b, _))) => w
                .lookup(ms, *b)
                .decl
                .is_some_and(|d| super::handles::is_handle(d.kind, d.ty)),
            _ => false,
        };
        if !super::handles::b32_after_handle_refuses(spec, reg, handle, self.env.opts) {
            return false;
        }
        let d = Diagnostic::error(
            Code::OperandType,
            span,
            format!(
                "`{n}` is a {reg} register, which `{}` cannot use as `{}` after a sampler given as a handle",
                super::inst_name(i),
                spec.role
            ),
        )
        .with_note(
            "in unified texturing mode, after a 64-bit register or a reference as the sampler, ptxas takes only a .b32 register here",
        );
        self.report_found(n, d, f, w);
        true
    }

    /// Operand `o` of role `id`: its vector shape, then each value.
    fn role_operand(
        &mut self,
        cx: &InstCtx<'_>,
        id: RoleId,
        o: &Operand,
        found: Option<Found>,
        top: bool,
        nm: Names<'_>,
    ) -> bool {
        let (i, roles) = (cx.i, cx.roles());
        let Names { w, ms } = nm;
        let Some(spec) = catalog().role(id) else {
            return false;
        };
        let (ty, arity) = match facts(roles, id) {
            Some(f) => (f.1, f.2),
            None => (role_type(i, spec), role_arity(i, spec)),
        };
        if let (false, Operand::Expr(e @ Expr::Name(n, _))) = (spec.typed_on.is_empty(), o) {
            let f = found.unwrap_or_else(|| w.lookup(ms, *n));
            let reg = f.decl.and_then(Decl::register_type);
            if !self.typed_lone(i, spec, e, reg) {
                return false;
            }
        }
        if let (false, Operand::Expr(e)) = (spec.untyped_on.is_empty(), o) {
            let reg = match (e, found) {
                (Expr::Name(n, _), f) => f
                    .unwrap_or_else(|| w.lookup(ms, *n))
                    .decl
                    .and_then(Decl::register_type),
                _ => None,
            };
            if !self.untyped_lone(i, spec, e, reg) {
                return false;
            }
        }
        if let (true, Operand::Expr(Expr::Name(n, _))) = (spec.kinds.has(Kinds::LONE_HANDLE), o) {
            let f = found.unwrap_or_else(|| w.lookup(ms, *n));
            // Only a direct item of the bracketed tuple, not a vector's
            // element.
            let tuple = i.operands.iter().enumerate().find_map(|(k, op)| match op {
                Operand::Tuple { items, .. } => Some((k, items)),
                _ => None,
            });
            let lone = tuple.is_some_and(|(_, items)| items.iter().any(|it| std::ptr::eq(it, o)));
            let trailing = tuple.is_some_and(|(k, _)| k.saturating_add(1) < i.operands.len());
            if let (true, Some(d)) = (lone, f.decl) {
                if super::handles::lone_handle_takes(
                    spec,
                    (d.kind, d.ty),
                    ty,
                    trailing,
                    self.env.opts,
                ) {
                    return true;
                }
            }
        }
        if let (true, Operand::Expr(Expr::Name(n, sp))) = (spec.kinds.has(Kinds::B32_IF_HANDLE), o)
        {
            if self.b32_after_handle(i, spec, (*n, *sp), found, Names { w, ms }) {
                return true;
            }
        }
        match o {
            Operand::Vector { items, span } => {
                match arity {
                    // `{%r1}` stands for `%r1` where the role may be a
                    // vector (`ld`/`st` without `.vN`) and in texture
                    // instructions (`tex.1d … [t, {%r1}]`): ptxas takes
                    // it; a role that is never a vector, or is matched
                    // exactly (exact.rs), or a section flagged `strict-vec`
                    // refuses it ("Vector operand is not allowed").
                    // `vec=.vec|scalar` takes `{%r1}` for its one value
                    // even in a `strict-vec` section (`st.async.b32`).
                    Some(0)
                        if items.len() == 1
                            && !super::exact::exact(spec)
                            && (matches!(spec.arity, Arity::GroupOrScalar(_))
                                || (!catalog()
                                    .flags(i.form)
                                    .has(crate::isa::Flags::STRICT_VEC)
                                    && (spec.arity != Arity::Scalar
                                        || catalog()
                                            .flags(i.form)
                                            .has(crate::isa::Flags::TEXTURE)))) => {}
                    Some(0) => {
                        self.emit(
                            Diagnostic::error(
                                Code::OperandShape,
                                *span,
                                format!(
                                    "`{}` takes a single value as `{}`, not a vector",
                                    super::inst_name(i),
                                    spec.role
                                ),
                            )
                            .with_note("a vector operand goes with a `.v2`/`.v4` modifier, where the instruction has one"),
                        );
                        return false;
                    }
                    // Unchecked (a packing `mov`, a `vec=list` operand):
                    // ptxas still takes only vectors of 1, 2 or 4 there
                    // ("Illegal vector size: 3", "…: 8"; probed).
                    None if !matches!(items.len(), 1 | 2 | 4)
                        && !catalog().flags(i.form).has(crate::isa::Flags::MATRIX)
                        && !catalog().flags(i.form).has(crate::isa::Flags::TEXTURE) =>
                    {
                        self.emit(Diagnostic::error(
                            Code::OperandShape,
                            *span,
                            format!(
                                "`{}` takes a vector of 1, 2 or 4 as `{}`, not {}",
                                super::inst_name(i),
                                spec.role,
                                items.len()
                            ),
                        ));
                        return false;
                    }
                    // In unified texture mode a written sampler makes
                    // ptxas skip the geometry's length of some vectors
                    // (`sampler-lax`: `tex.3d … [t, s, {x, y, z, w}],
                    // {e}`; still 1, 2 or 4 elements; handles.rs).
                    Some(n)
                        if n != items.len()
                            && !(spec.kinds.has(Kinds::COUNT_MIN)
                                && n < items.len()
                                && matches!(items.len(), 2 | 4))
                            && !(matches!(items.len(), 1 | 2 | 4)
                                && spec.kinds.has(Kinds::SAMPLER_LAX)
                                && (!spec.lax_min || items.len() >= n)
                                && super::handles::unified_sampler(i, self.env.opts)) =>
                    {
                        self.emit(Diagnostic::error(
                            Code::OperandShape,
                            *span,
                            format!(
                                "`{}` takes a vector of {n} as `{}`, not {}",
                                super::inst_name(i),
                                spec.role,
                                items.len()
                            ),
                        ));
                        return false;
                    }
                    // `sized-list`: one of ptxas's vector sizes, 8 too
                    // (`mma`'s `e`: "Illegal vector size: 3", also 5, 6).
                    None if spec.kinds.has(Kinds::SIZED_LIST)
                        && !matches!(items.len(), 1 | 2 | 4 | 8) =>
                    {
                        self.emit(Diagnostic::error(
                            Code::OperandShape,
                            *span,
                            format!(
                                "`{}` takes a vector of 1, 2, 4 or 8 as `{}`, not {}",
                                super::inst_name(i),
                                spec.role,
                                items.len()
                            ),
                        ));
                        return false;
                    }
                    // A vector of unchecked length (`vec=any`, or `@count`
                    // rows none of which applies) is still one of the
                    // lengths ptxas has ("Illegal vector size: 3", also 8,
                    // on tex, tld4, sust, mov, ptxas 13.5; `vec=list`
                    // roles take any length).
                    None if matches!(spec.arity, Arity::Any | Arity::Table(_))
                        && !matches!(items.len(), 1 | 2 | 4) =>
                    {
                        self.emit(Diagnostic::error(
                            Code::OperandShape,
                            *span,
                            format!(
                                "`{}` takes a vector of 1, 2 or 4 as `{}`, not {}",
                                super::inst_name(i),
                                spec.role,
                                items.len()
                            ),
                        ));
                        return false;
                    }
                    _ => {}
                }
                // Unchecked arity with an untyped (`.bN`) type: a vector
                // packs the value (`mov.b32 %r1, {%h1, %h2}`), each
                // element an equal share of its bits.
                let ty = match (arity, ty) {
                    (None, Some(t))
                        if !items.is_empty() && t.is_untyped() && spec.arity != Arity::List =>
                    {
                        let n = u32::try_from(items.len()).unwrap_or(u32::MAX);
                        if t.bits().checked_rem(n) != Some(0) {
                            return false;
                        }
                        let share = ScalarType::B8.with_bits(t.bits().checked_div(n).unwrap_or(0));
                        // No register is narrower than 8 bits (ptxas 13.5:
                        // `mov.b16 %h1, {%h2, %h3, %h4, %h5}` is refused);
                        // with a `.v4` written (`sust….v4.b16`) the vector
                        // is of elements, not a packing.
                        let lanes = i.mods.iter().any(|m| catalog().mod_lanes(m.id).is_some());
                        if share.is_none() && !lanes {
                            self.emit(Diagnostic::error(
                                Code::OperandShape,
                                *span,
                                format!(
                                    "`{}` cannot pack {} elements into its {t} `{}`: the elements' sizes must add up to {} bits",
                                    super::inst_name(i),
                                    items.len(),
                                    spec.role,
                                    t.bits()
                                ),
                            ));
                            return false;
                        }
                        share
                    }
                    _ => ty,
                };
                // In texture instructions (`@flags texture`), `pred` lets a
                // predicate register be an element of a vector of values
                // (ptxas: `{%p1, %r2}` for tex's gradients), not the whole
                // vector; elsewhere (matrix fragments, multimem's FP8x4
                // results) ptxas takes predicates throughout.
                if spec.kinds.has(Kinds::PRED)
                    && catalog().flags(i.form).has(crate::isa::Flags::TEXTURE)
                    && ty.is_some_and(|t| t != ScalarType::Pred)
                    && items.len() > 1
                    && items.iter().all(|x| match x {
                        Operand::Expr(Expr::Name(n, _)) => matches!(
                            w.lookup(ms, *n).decl,
                            Some(Decl {
                                kind: Kind::Reg,
                                ty: Some(ScalarType::Pred),
                                ..
                            })
                        ),
                        _ => false,
                    })
                {
                    self.emit(Diagnostic::error(
                        Code::OperandType,
                        *span,
                        format!(
                            "`{}` takes values as `{}`, not a vector of predicates",
                            super::inst_name(i),
                            spec.role
                        ),
                    ));
                    return false;
                }
                // Any element of a written vector may be the sink `_`,
                // but not all of them: ptxas then cannot tell the
                // elements' type ("Unable to infer type of vector
                // elements").
                if spec.dir.writes() && !items.is_empty() && items.iter().all(is_sink) {
                    self.emit(Diagnostic::error(
                        Code::Sink,
                        *span,
                        format!(
                            "every element of `{}` of `{}` is the sink `_`: keep at least one register",
                            spec.role,
                            super::inst_name(i)
                        ),
                    ));
                    return false;
                }
                // An exactly matched vector that is read needs a register
                // among its elements when its type is a float one or its
                // constants are all integers: ptxas infers a vector's type
                // from its elements, which integer constants do not give
                // (`{0, 0}`), and a `0f` constant gives `.f32` (refused for
                // `wgmma`'s `.f16x2` `a`, taken for a `.b32` one); it takes
                // constants next to a register.
                if super::exact::exact(spec)
                    && spec.dir.reads()
                    && !items.is_empty()
                    && items
                        .iter()
                        .all(|x| matches!(x, Operand::Expr(e) if constant(e).is_some()))
                    && (ty.is_some_and(ScalarType::is_float)
                        || items.iter().all(
                            |x| matches!(x, Operand::Expr(e) if constant(e) == Some(Lit::Int)),
                        ))
                {
                    self.emit(Diagnostic::error(
                        Code::OperandKind,
                        *span,
                        format!(
                            "every element of `{}` of `{}` is a constant: keep at least one register",
                            spec.role,
                            super::inst_name(i)
                        ),
                    ));
                    return false;
                }
                if (super::exact::exact(spec) || spec.kinds.has(Kinds::TYPED_VECTOR))
                    && !self.exact_vector(i, spec, ty, items, *span, Names { w, ms })
                {
                    return false;
                }
                if !self.float_vector(i, spec, items, *span, Names { w, ms }) {
                    return false;
                }
                if !self.typed_constants(i, spec, ty, items, *span) {
                    return false;
                }
                // ptxas types a vector of integer constants alone as 64-bit
                // integers, which a `.f64` vector takes (`st.v4.f64 [a],
                // {0, 0, 0, 0}`), though not a scalar integer constant nor
                // one among registers or floats (and no destination).
                if ty == Some(ScalarType::F64)
                    && !spec.dir.writes()
                    && items.iter().all(
                        |x| matches!(x, Operand::Expr(e) if matches!(constant(e), Some(Lit::Int))),
                    )
                {
                    return false;
                }
                // At the top level, the names of the elements are reported
                // here, with the lookup made for their check.
                let all = items.iter().all(|x| matches!(x, Operand::Expr(_)));
                // In a texture instruction a `.bN` register among the
                // elements leaves the vector untyped (ptxas types it by its
                // registers): `strict-reg` then holds for none of them
                // (`tex.grad.3d`'s `{%s30, %r21, %r22, %r23}` on sm_86).
                let mut loose = *spec;
                let untyped = spec.kinds.has(Kinds::STRICT_REG)
                    && catalog().flags(i.form).has(crate::isa::Flags::TEXTURE)
                    && untyped_among(items, w, ms);
                if untyped {
                    loose.kinds = Kinds(spec.kinds.0 & !Kinds::STRICT_REG.0);
                }
                // Outside texture instructions and exactly matched roles,
                // ptxas types a vector by its elements first.
                let typed_by_elements = !catalog().flags(i.form).has(crate::isa::Flags::TEXTURE)
                    && !super::exact::exact(spec);
                if typed_by_elements
                    && arity.is_some()
                    && !self.vector_elements_agree(i, spec, items, *span, Names { w, ms })
                {
                    return false;
                }
                // There a `.bN` register or a special register among the
                // elements types the vector as plain bits: a register of
                // another type of that size is then taken (ptxas 13.5:
                // `st.global.v2.u32 [a], {%f1, %r1}`, `st.global.v2.f32
                // [a], {%r1, %h1}`, `{%tid.x, %f1}`; `{%f1, %f1}` and
                // `{%f1, %u1}` stay refused).
                let bits = typed_by_elements
                    && ty.is_some_and(|t| t.bits() >= 16)
                    && items.iter().any(|it| {
                        matches!(it, Operand::Expr(e) if element_type(e, w, ms).is_some_and(|r| {
                            r.is_untyped() && Some(r.bits()) == ty.map(ScalarType::bits)
                        }))
                    });
                // ptxas 13.5 takes a `.pred` register as an element of a
                // vector that also holds a `.b32` register, where the vector
                // is written (`ld.global.v2.u32 {%p1, %r1}`, a texture's
                // result `{%p1, %r1, %r2, %r3}`) or moved between registers
                // (`mov.b64 %rd1, {%r1, %p1}`); not beside `.u32`, `.f32` or
                // `.b16` registers, nor predicates alone. A texture's read
                // vectors refuse it (`tex.grad`'s gradients: "Arguments
                // mismatch"), and stored to memory such a vector crashes
                // ptxas's code generator (`st.global.v2.b32 [a], {%p1, %r1}`:
                // C7907), so a read vector of an instruction with an address
                // keeps the rule. (Asked only when a predicate is among the
                // elements.)
                let pred_as_b32 = |w: &BodyWalk| {
                    (spec.dir.writes()
                        || (typed_by_elements
                            && !i.operands.iter().any(|o| matches!(o, Operand::Address { .. }))))
                        && items.iter().any(|it| {
                            matches!(it, Operand::Expr(e) if reg_type(e, w, ms) == Some(ScalarType::B32))
                        })
                };
                // Worked out once a vector, at its first predicate.
                let mut pred_ok: Option<bool> = None;
                for item in items {
                    if let Operand::Expr(e) = item {
                        let reg = reg_type(e, w, ms);
                        if reg == Some(ScalarType::Pred)
                            && *pred_ok.get_or_insert_with(|| pred_as_b32(w))
                        {
                            // Checked as a predicate operand: the register fits.
                            let pred = Some(ScalarType::Pred);
                            self.element(i, &loose, pred, e, top && all, Names { w, ms });
                            continue;
                        }
                        // A packed register is then read as the elements'
                        // plain bits (`{%hh10, %r11}`).
                        let packed = untyped && reg.is_some_and(ScalarType::is_packed);
                        let same_size = bits
                            && reg.is_some_and(|r| {
                                r != ScalarType::Pred && Some(r.bits()) == ty.map(ScalarType::bits)
                            });
                        let ty = match ty {
                            Some(t) if packed && t.bits() == 32 => Some(ScalarType::B32),
                            Some(t) if same_size => {
                                Some(ScalarType::B8.with_bits(t.bits()).unwrap_or(t))
                            }
                            _ => ty,
                        };
                        self.element(i, &loose, ty, e, top && all, Names { w, ms });
                    }
                }
                return top && all;
            }
            Operand::Expr(e) => {
                // A count of one (a fixed `vec=1` or a `@count` row) is a
                // brace vector `{%r1}` too: ptxas refuses a bare register.
                // A `count-min` role below four elements takes a lone
                // value (tex's `e` on `.2d`, not on `.3d`).
                let lone_ok = |n: usize| spec.kinds.has(Kinds::COUNT_MIN) && n < 4;
                if let Some(n) = arity
                    .filter(|&n| n >= 1 && !lone_ok(n))
                    .filter(|_| !matches!(spec.arity, Arity::GroupOrScalar(_)))
                {
                    // A register declared as a vector, or a sink, may
                    // stand for the whole vector in some places; only a
                    // scalar register or constant is certainly wrong.
                    let scalar = match e {
                        Expr::Name(name, _) => {
                            matches!(
                                found
                                    .or_else(|| Some(w.lookup(ms, *name)))
                                    .and_then(|f| f.decl),
                                Some(Decl {
                                    kind: Kind::Reg,
                                    ty: Some(_),
                                    ..
                                })
                            ) || (catalog().flags(i.form).has(crate::isa::Flags::MATRIX)
                                && special_of(e).is_some())
                        }
                        // A special register (`%laneid`, `%gridid`, even
                        // `%tid`) or a component of one is one value where
                        // a matrix instruction wants a fragment, though it
                        // may stand for a vector elsewhere (ptxas takes
                        // `mov.v2.b16 {%h1, %h2}, %tid.x`).
                        // A register plus a constant is one value (`mma …
                        // %rd9+8` as a fragment: "Vector expected"), but
                        // where the role also takes a variable's address
                        // (`mov.v2.b16 {%h1, %h2}, %r1+8` passes); a
                        // variable plus one is an address, which ptxas
                        // takes for a vector (`mov.v2.b16 {%h1, %h2},
                        // buf+8`, tex's `e`), except in a matrix
                        // instruction or an `exact` role (`mma`'s,
                        // `tcgen05.st`'s fragments: "Vector expected") and
                        // a memory instruction (`strict-values`: `st.v2`,
                        // `atom`, `red`, `multimem`: "Argument vector size
                        // mismatch").
                        Expr::Binary(b) => {
                            !spec.kinds.has(Kinds::VAR)
                                && matches!(
                                    &b.lhs,
                                    Expr::Name(n, _) if match w.lookup(ms, *n).decl {
                                        Some(Decl { kind: Kind::Reg, .. }) => true,
                                        Some(Decl { kind: Kind::Var, .. }) => {
                                            super::exact::exact(spec)
                                                || catalog().flags(i.form).has(
                                                    crate::isa::Flags::MATRIX,
                                                )
                                                || catalog().flags(i.form).has(
                                                    crate::isa::Flags::STRICT_VALUES,
                                                )
                                        }
                                        _ => false,
                                    }
                                )
                        }
                        _ => {
                            constant(e).is_some()
                                || (catalog().flags(i.form).has(crate::isa::Flags::MATRIX)
                                    && special_of(e).is_some())
                        }
                    };
                    // A texture or surface instruction's coordinates (a
                    // bracketed tuple's item) may be one lone value whatever
                    // the geometry's length (ptxas 13.5: `suld.b.3d … [s,
                    // %r1]`, `tld4.r.cube … [t, %r3]`).
                    let lone_coordinate = || {
                        catalog().flags(i.form).has(crate::isa::Flags::TEXTURE)
                            && i.operands.iter().any(|op| match op {
                                Operand::Tuple { items, .. } => {
                                    items.iter().any(|it| std::ptr::eq(it, o))
                                }
                                _ => false,
                            })
                    };
                    if scalar && !lone_coordinate() {
                        self.emit(Diagnostic::error(
                            Code::OperandShape,
                            e.span(),
                            format!(
                                "`{}` takes a vector of {n} as `{}`, not a single value",
                                super::inst_name(i),
                                spec.role
                            ),
                        ));
                        return false;
                    }
                }
                self.value(i, spec, ty, e, found, Names { w, ms });
            }
            _ => {}
        }
        false
    }

    /// The base register of address `addr` of role `id` when the role
    /// gives addresses a type: a register of another type is an error
    /// (a predicate is left to `address_base`).
    fn typed_address(
        &mut self,
        i: &Instruction,
        roles: &[RoleFacts],
        id: RoleId,
        addr: &Expr,
        w: &mut BodyWalk,
        ms: &ModuleScope,
    ) {
        let Some(spec) = catalog().role(id) else {
            return;
        };
        if spec.types.is_empty() || !spec.kinds.has(Kinds::ADDR) {
            return;
        }
        let ty = match facts(roles, id) {
            Some(f) => f.1,
            None => role_type(i, spec),
        };
        let Some(ty) = ty else { return };
        let base = match addr {
            Expr::Binary(b) => &b.lhs,
            e => e,
        };
        let exact = super::exact::exact(spec);
        // An exact typed address is a register (plus an offset): ptxas
        // refuses `[8]`, `[func]`, `[label]` and a special register of
        // another size there.
        let not_register = |what: String| {
            Diagnostic::error(
                Code::OperandKind,
                base.span(),
                format!(
                    "{what} cannot be the address `{}` of `{}`",
                    spec.role,
                    super::inst_name(i)
                ),
            )
            .with_note(format!(
                "`{}` takes a {ty} register (plus an offset)",
                spec.role
            ))
        };
        if exact && constant(base).is_some() {
            return self.emit(not_register("a constant".to_string()));
        }
        let Expr::Name(n, sp) = base else { return };
        let f = w.lookup(ms, *n);
        match f.decl {
            Some(Decl {
                kind: Kind::Reg,
                ty: Some(reg),
                ..
            }) if reg != ScalarType::Pred => {
                self.register_type(i, spec, (*n, *sp, f), (reg, ty), w);
            }
            Some(Decl {
                kind: Kind::Func, ..
            }) if exact => {
                let d = not_register(format!("function `{n}`"));
                self.report_found(*n, d, f, w);
            }
            Some(Decl {
                kind: Kind::Label(_),
                ..
            }) if exact => {
                let d = not_register(format!("label `{n}`"));
                self.report_found(*n, d, f, w);
            }
            None if exact => {
                if let Some((r, _, _)) = special_of(base) {
                    if !sreg_fits(r, ty, false) {
                        self.diags
                            .push(not_register(format!("special register `{n}`")));
                    }
                } else {
                    Checker::report_if_label(w, *n, f, || not_register(format!("label `{n}`")));
                }
            }
            // A typed address is held in a register: a variable's address
            // is not one of that memory's addresses (ptxas refuses it).
            Some(Decl {
                kind: Kind::Var, ..
            }) => {
                let d = Diagnostic::error(
                    Code::OperandKind,
                    *sp,
                    format!(
                        "variable `{n}` cannot be the address `{}` of `{}`",
                        spec.role,
                        super::inst_name(i)
                    ),
                )
                .with_note(format!(
                    "`{}` takes a {ty} register (plus an offset)",
                    spec.role
                ));
                self.report_found(*n, d, f, w);
            }
            _ => {}
        }
    }

    /// The register or variable an address is based on (`[%rd1]`,
    /// `[buf+8]`), the `ordinal`th bracketed operand of `i`. Its state
    /// spaces are the ones its role names (`space=` in the catalog: fixed
    /// spaces, or the space written in a group), else the `ordinal`th state
    /// space written on the instruction (the catalog writes them in operand
    /// order: `cp.async.ca.shared.global [dst], [src]`); when there are
    /// some, a variable must live in one of them. Where
    /// the role says `addr64`, a 32-bit register cannot hold a generic or
    /// `.global` address; where it says `shared`, a generic address is in
    /// `.shared` all the same. ptxas refuses a predicate register there unless
    /// the role takes one (`fence.proxy.tensormap`).
    pub(super) fn address_base(
        &mut self,
        i: &Instruction,
        addr: &Expr,
        ordinal: usize,
        w: &mut BodyWalk,
        ms: &ModuleScope,
    ) {
        let base = match addr {
            Expr::Binary(b) => &b.lhs,
            e => e,
        };
        // The offset (or the whole of a constant address) is an integer
        // constant expression: ptxas 13.5 refuses `[%rd1+1.5]` and
        // `[buf+(0f3F800000)]` ("Integer constant expression expected").
        let offset = match addr {
            Expr::Binary(b) if matches!(b.lhs, Expr::Name(..)) => Some(&b.rhs),
            Expr::Name(..) => None,
            e => Some(e),
        };
        if offset.is_some_and(|off| self.offset_not_integer(off)) {
            return;
        }
        let role = super::address::address_role(i, ordinal);
        let spaces = || super::address::address_spaces(i, role, ordinal);
        // (`[WARP_SZ]` is a constant address.)
        let (n, sp) = match base {
            Expr::Name(n, sp) if !n.is_warp_size() => (n, sp),
            _ => return self.constant_address(i, role, addr, spaces),
        };
        let f = w.lookup(ms, *n);
        let role_has = |k: Kinds| role.is_some_and(|r| r.kinds.has(k));
        match f.decl {
            Some(Decl {
                kind: Kind::Reg,
                ty: Some(ScalarType::Pred),
                ..
            }) => {}
            Some(Decl {
                kind: Kind::Var,
                space: Some(v),
                ..
            }) => {
                // A generic address of a `shared` role is still in shared memory.
                let written = spaces();
                let s = if written.is_empty() && role_has(Kinds::SHARED) {
                    SpaceSet::default().with(StateSpace::Shared)
                } else {
                    written
                };
                if s.is_empty() {
                    return self.generic_variable(i, role, (*n, *sp, f), v, w);
                }
                if !s.is_empty() && !s.iter().any(|s| holds_variable(s, v, w.entry)) {
                    let names: Vec<&str> = s.iter().map(StateSpace::as_str).collect();
                    let d = Diagnostic::error(
                        Code::OperandKind,
                        *sp,
                        format!(
                            "`{n}` is a `{v}` variable, but this address of `{}` is in `{}`",
                            super::inst_name(i),
                            names.join("` or `")
                        ),
                    )
                    .with_note(if !written.is_empty() {
                        "an address names memory of the state space the instruction gives it; a generic address (no state space written) may name `.global`, `.shared` or `.local` variables"
                    } else {
                        "this instruction's address is in shared memory even when no state space is written"
                    });
                    self.report_found(*n, d, f, w);
                    return;
                }
                self.param_access(i, (*n, *sp), v, w);
                return;
            }
            Some(Decl {
                kind: Kind::Reg,
                ty: Some(t),
                ..
            }) => {
                // ptxas 13.5 takes a register of any integer or .b type
                // as an address, in every state space and at any size
                // ("Use integer or bit only"); never a float one.
                if t.is_float() {
                    let d = Diagnostic::error(
                        Code::OperandType,
                        *sp,
                        format!(
                            "`{n}` is a {t} register, which cannot hold an address for `{}`",
                            super::inst_name(i)
                        ),
                    )
                    .with_note(
                        "an address register has an integer or bit type (`.u64`, `.b64`, `.u32`…)",
                    );
                    self.report_found(*n, d, f, w);
                    return;
                }
                if t == ScalarType::B128 {
                    return self.wide_address(i, (*n, *sp, f), w);
                }
                if t.bits() < 32
                    && (role_has(Kinds::WIDE_ADDR)
                        || (role_has(Kinds::WIDE_GENERIC) && spaces().is_empty()))
                {
                    return self.narrow_address(i, (*n, *sp, f), t, w);
                }
                let s = spaces();
                if w.entry && s == SpaceSet::default().with(StateSpace::ParamFunc) {
                    let d = Diagnostic::error(
                        Code::OperandKind,
                        *sp,
                        format!(
                            "`{}` in a kernel addresses only `.param` variables declared in its body, not a register",
                            super::inst_name(i)
                        ),
                    )
                    .with_note("a kernel's own parameters are `.param::entry`; `.param::func` is for the parameters of calls it makes");
                    self.report_found(*n, d, f, w);
                    return;
                }
                // (A module of `.address_size 32` has 32-bit addresses.)
                if t.bits() == 32
                    && self.address32.is_none()
                    && s.iter().all(|s| s == StateSpace::Global)
                    && role_has(Kinds::ADDR64)
                {
                    let d = Diagnostic::error(
                        Code::OperandType,
                        *sp,
                        format!(
                            "`{n}` is a 32-bit register, which cannot hold a generic or `.global` address for `{}`",
                            super::inst_name(i)
                        ),
                    )
                    .with_note("global addresses are 64-bit (`.address_size 64`): use a `.u64`/`.b64` register")
                    .with_note("ptxas reads such a module as 32-bit, which it no longer compiles; it says so only when the module has no other error");
                    self.narrow_global(d);
                }
                return;
            }
            Some(Decl {
                kind: k @ (Kind::Func | Kind::Label(_)),
                ..
            }) => return self.symbol_address(i, role, (*n, *sp, f), k, w),
            None if special_of(base).is_some() => return self.special_address(i, role, *n, *sp),
            None => return self.later_label_address(i, role, (*n, *sp, f), w),
            _ => return,
        }
        let takes_pred = i.form().is_some_and(|form| {
            form.operands.iter().any(|t| match t.shape {
                Shape::Bracket(inner) => inner.iter().any(|x| {
                    catalog()
                        .role(x.spec)
                        .is_some_and(|r| r.kinds.has(Kinds::PRED))
                }),
                _ => false,
            })
        });
        if takes_pred {
            return;
        }
        let d = Diagnostic::error(
            Code::OperandType,
            *sp,
            format!(
                "`{n}` is a predicate register, which cannot hold an address for `{}`",
                super::inst_name(i)
            ),
        )
        .with_note("an address register is a 32- or 64-bit integer (`.u64`, `.b64`, `.u32`…)");
        self.report_found(*n, d, f, w);
    }

    /// One element of a vector operand: as a value, except that ptxas
    /// takes a special register of any kind there (`{%tid.x, %r1}`), and
    /// the sink `_` in a written vector.
    fn element(
        &mut self,
        i: &Instruction,
        spec: &RoleSpec,
        ty: Option<ScalarType>,
        e: &Expr,
        names: bool,
        nm: Names<'_>,
    ) {
        let Names { w, ms } = nm;
        // Any element of a written vector may be the sink (ptxas 13.5:
        // `ld`, `mov`, `ldmatrix`, `tex`, `mma`,
        // `clusterlaunchcontrol.query_cancel`), whether or not the role
        // takes `_` as a whole.
        // An exactly matched role that is also read (`wgmma`'s `d`) is a
        // source: ptxas refuses `_` in it ("not allowed as a source"); nor
        // is `_` an element of a vector of a packed type
        // (`tex.2d.v2.f16x2.f32 {_, %r1}`: "Arguments mismatch", ptxas
        // 13.5), checked as a whole value. An exactly matched role that
        // does not say `sink` takes no `_` element either (`wmma.mma`'s
        // `.tf32` `d`, which ptxas reads as a source).
        if e.is_sink()
            && spec.dir.writes()
            && !(super::exact::exact(spec) && (spec.dir.reads() || !spec.kinds.has(Kinds::SINK)))
            && !ty.is_some_and(ScalarType::is_packed)
        {
            return;
        }
        let found = match e {
            Expr::Name(n, _) => Some(w.lookup(ms, *n)),
            _ => None,
        };
        if names {
            match (e, found) {
                (Expr::Name(n, sp), Some(f)) => self.name_found(*n, *sp, f, w),
                _ => e.for_each_name(&mut |n, sp| self.name_use(n, sp, w, ms)),
            }
        }
        if !spec.mov_on.is_empty() {
            let undeclared = found.is_none_or(|f| f.decl.is_none());
            let reg = found.and_then(|f| f.decl).and_then(Decl::register_type);
            let special = undeclared && special_of(e).is_some();
            if !self.lowered_element(i, spec, ty, e, reg, special) {
                return;
            }
        }
        if found.is_none_or(|f| f.decl.is_none()) {
            if let Some((r, component, span)) = special_of(e) {
                // Of any type, but of the elements' size (ptxas 13.5:
                // "Incompatible elements of vector expression" for
                // `%gridid` among `.b32` elements, `%tid.x` among `.b64`);
                // the other widths `mov` reads apply to the vector
                // registers (`%tid.x` as 16 bits), not to `%gridid`.
                // A texture instruction's vectors have a rule of their own,
                // below.
                let texture = catalog().flags(i.form).has(crate::isa::Flags::TEXTURE);
                if let Some(t) = ty.filter(|t| t.bits() != 0 && !texture) {
                    let other_width = !r.components.is_empty() && r.listed_width(t.bits());
                    if r.ty.bits() != t.bits() && !other_width {
                        return self.emit(
                            Diagnostic::error(
                                Code::OperandType,
                                span,
                                format!(
                                    "`{}` is a {} special register, which cannot be an element of `{}`'s {t} vector `{}`",
                                    r.name,
                                    r.ty,
                                    super::inst_name(i),
                                    spec.role
                                ),
                            )
                            .with_note(format!(
                                "the elements of this vector are {} bits wide",
                                t.bits()
                            )),
                        );
                    }
                }
                if self.component(r, component, span) {
                    self.gate_special(r, span);
                }
                // A texture instruction's vector takes special registers
                // of any type but not wider than its elements (`{%clock64,
                // %r2}`: "Incompatible elements of vector expression").
                if let Some(t) = ty.filter(|t| t.bits() < r.ty.bits() && texture) {
                    self.emit(Diagnostic::error(
                        Code::OperandType,
                        span,
                        format!(
                            "`{}` is a {} special register, wider than the {t} elements of `{}` in `{}`",
                            r.name,
                            r.ty,
                            spec.role,
                            super::inst_name(i)
                        ),
                    ));
                }
                return;
            }
        }
        // A function's name is a scalar value only: never a vector's
        // element (ptxas: "Illegal expression"; `st.v2.b32 [a], {f, %r1}`,
        // `mov.b64 %rd1, {f, %r1}`).
        if let (Expr::Name(n, sp), Some(f)) = (e, found) {
            if f.decl.is_some_and(|d| d.kind == Kind::Func) {
                let d = self.not_allowed(i, spec, *sp, format!("function `{n}`"));
                return self.report_found(*n, d, f, w);
            }
        }
        // In a brace vector of a float type, ptxas also takes integer
        // registers of its size (`ld.global.v2.f32 {%s1, %s2}`, `mov.v2.f32`;
        // not as a scalar): checked as of their own type. Not for a packed
        // type (`tex.2d.v2.f16x2.f32 {%u1, %u2}`: "Arguments mismatch"),
        // unless the role is matched exactly, whose vectors exact.rs judges
        // as a whole (`wgmma`'s `.f16x2` `a` takes `{%u1, %s2, %u3, %s3}`).
        let reg = found.and_then(|f| f.decl).and_then(Decl::register_type);
        // A `typed-vector` role's vector was judged as a whole
        // (exact.rs), its constants' kinds against the other elements'
        // (`{0, %r2, %f3, %r4}` as `.f32`, `{1.5, %r2}` as `.s32` pass):
        // a constant element is then checked as one of a type of its own
        // kind and size, and a register element as one of its own type
        // (`{%r1, %f2, %r3, %r4}` as `mma`'s `.s32` `d`, below).
        let ty = match (ty, constant(e)) {
            (Some(t), Some(lit)) if spec.kinds.has(Kinds::TYPED_VECTOR) => match (lit, t.bits()) {
                (Lit::Int, n) => ScalarType::B8.with_bits(n).or(Some(t)),
                (_, 64) => Some(ScalarType::F64),
                (_, 32) => Some(ScalarType::F32),
                _ => Some(t),
            },
            _ => ty,
        };
        let ty = match (ty, reg) {
            (Some(t), Some(r))
                if r != ScalarType::Pred
                    && r.bits() == t.bits()
                    && (spec.kinds.has(Kinds::TYPED_VECTOR)
                        || (t.is_float()
                            && (!t.is_packed() || super::exact::exact(spec))
                            && !spec.kinds.has(Kinds::STRICT_REG)
                            && !r.is_float())) =>
            {
                Some(r)
            }
            _ => ty,
        };
        self.value(i, spec, ty, e, found, Names { w, ms });
    }

    /// Whether `component` is one `r` has; reports it if not.
    fn component(&mut self, r: &SpecialReg, component: Option<&str>, span: Span) -> bool {
        let Some(c) = component else { return true };
        if r.components.contains(&c) {
            return true;
        }
        let has = if r.components.is_empty() {
            "it has no components".to_string()
        } else {
            format!(
                "its components are {}",
                r.components
                    .iter()
                    .map(|c| format!("`.{c}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        self.emit(
            Diagnostic::error(
                Code::SpecialRegister,
                span,
                format!("`{}` has no component `.{c}`", r.name),
            )
            .with_note(has),
        );
        false
    }

    /// One value `e` (a whole operand or a vector element) of role `spec`
    /// and type `ty`; `found` is its lookup if already made.
    pub(super) fn value(
        &mut self,
        i: &Instruction,
        spec: &RoleSpec,
        ty: Option<ScalarType>,
        e: &Expr,
        found: Option<Found>,
        nm: Names<'_>,
    ) {
        let Names { w, ms } = nm;
        if let Expr::Index { .. } = e {
            return self.array_element(i, spec, ty, e, false, Names { w, ms });
        }
        // Only a negated name is looked at: a negative constant (`-1`, the
        // common case) skips the form's templates.
        if let Expr::Unary { op, expr, span } = e {
            if matches!(**expr, Expr::Name(..) | Expr::Field(_)) {
                // The catalog's `{-}a` (`vmad`) takes a negated register.
                // Under `neg-product` every source may be written negated;
                // which combinations stand is `negated_product`'s to say.
                let negatable = *op == crate::syntax::UnOp::Neg
                    && (i
                        .form()
                        .is_some_and(|f| f.operands.iter().any(|t| t.role == spec.role && t.neg))
                        || (spec.dir == crate::isa::Dir::In
                            && catalog().flags(i.form).has(crate::isa::Flags::NEG_PRODUCT)));
                if !negatable && self.negated_name(*op, expr, *span, w, ms) {
                    return;
                }
            }
        }
        // A selected register, negated or not (`vmad`'s `-a.b0`).
        let selected = match e {
            Expr::Unary { expr, .. } => &**expr,
            _ => e,
        };
        if let Expr::Field(fe) = selected {
            if self.register_field(i, spec, fe, w, ms) {
                return;
            }
        }
        if e.is_sink() {
            if !spec.kinds.has(Kinds::SINK) && spec.dir.writes() {
                self.emit(Diagnostic::error(
                    Code::Sink,
                    e.span(),
                    format!(
                        "`{}` cannot discard `{}` into `_`",
                        super::inst_name(i),
                        spec.role
                    ),
                ));
            }
            return;
        }
        if let Expr::Name(n, sp) = e {
            let f = found.unwrap_or_else(|| w.lookup(ms, *n));
            match f.decl {
                Some(Decl {
                    kind: Kind::Reg,
                    ty: reg,
                    ..
                }) => {
                    if !spec.kinds.has(Kinds::REG) {
                        let d = self.not_allowed(i, spec, *sp, format!("register `{n}`"));
                        return self.report_found(*n, d, f, w);
                    }
                    // A register of the operand's very type (the common
                    // case) fits without a closer look.
                    match (reg, ty) {
                        (Some(reg), Some(ty)) if reg != ty => {
                            self.register_type(i, spec, (*n, *sp, f), (reg, ty), w);
                        }
                        _ => {}
                    }
                    return;
                }
                Some(Decl {
                    kind: Kind::Var,
                    ty: var_ty,
                    space: var_space,
                    ..
                }) => {
                    // A variable stands for its address, an integer.
                    let typed_ok = ty.is_none_or(|t| !t.is_float() && t != ScalarType::Pred);
                    // A handle is a texture, sampler or surface reference:
                    // ptxas refuses a variable of another type there.
                    let handle_ok = spec.kinds.has(Kinds::HANDLE)
                        && super::handles::fits(spec, var_ty, self.env.opts);
                    let kind_ok =
                        spec.kinds.has(Kinds::VAR) || handle_ok || spec.kinds.has(Kinds::ADDR);
                    if !(kind_ok && (typed_ok || !spec.kinds.has(Kinds::VAR))) {
                        let d = if spec.kinds.has(Kinds::HANDLE) {
                            let name = super::inst_name(i);
                            super::handles::wrong_handle(&name, spec, *n, *sp, var_ty)
                        } else {
                            self.variable_operand(i, spec, *n, *sp, ty)
                        };
                        self.report_found(*n, d, f, w);
                        return;
                    }
                    if var_space == Some(StateSpace::Param) {
                        return self.param_address(i, *n, *sp);
                    }
                    if let Some(v) = var_space {
                        self.value_space(i, spec, (*n, *sp, f), v, w);
                    }
                    return;
                }
                Some(Decl {
                    kind: Kind::Label(sort),
                    ..
                }) => {
                    // Each sort of label only where the role takes it
                    // (ptxas 13.5: `bra` refuses a `.branchtargets` label,
                    // `brx.idx` a plain one, `call` a plain one).
                    let wanted = match sort {
                        LabelSort::Plain => Kinds::LABEL,
                        LabelSort::BranchTargets => Kinds::TARGETS,
                        LabelSort::CallTargets => Kinds::PROTO,
                    };
                    if !spec.kinds.has(wanted) {
                        let what = match sort {
                            LabelSort::Plain => format!("label `{n}`"),
                            LabelSort::BranchTargets => format!("`.branchtargets` label `{n}`"),
                            LabelSort::CallTargets => {
                                format!("`.calltargets`/`.callprototype` label `{n}`")
                            }
                        };
                        let d = self.not_allowed(i, spec, *sp, what);
                        self.report_found(*n, d, f, w);
                    }
                    return;
                }
                Some(Decl {
                    kind: Kind::Func, ..
                }) => {
                    // ptxas takes a function's name (its address) as a
                    // value read by most instructions, whatever their type
                    // (`add.u16 %h1, f, %h2`, `fma.rn.f16 …`; the operand
                    // sweep, 2026-11-29), as a scalar outside texture
                    // instructions.
                    // Only where the operand's type is the instruction's
                    // (`and.pred`'s sources, not `setp`'s `c`, `shl`'s
                    // `.u32` shift or a membermask), not through a SIMD
                    // video selector (offsets.rs; probed), not in the
                    // sections flagged `strict-values`. A role that is a
                    // vector only with a modifier (`atom`, `red`, `st`:
                    // `.v2`…) is a scalar without it.
                    let flags = catalog().flags(i.form);
                    let read_value = spec.dir == crate::isa::Dir::In
                        && role_arity(i, spec) == Some(0)
                        && !super::exact::exact(spec)
                        && !flags.has(crate::isa::Flags::TEXTURE)
                        && !flags.has(crate::isa::Flags::SIMD_VIDEO)
                        && !flags.has(crate::isa::Flags::STRICT_VALUES)
                        && ty.is_none_or(|t| {
                            !t.is_minifloat() && super::offsets::instruction_typed(i, spec, t)
                        })
                        && (spec.kinds.has(Kinds::REG) || spec.kinds.has(Kinds::IMM));
                    // A role that says `func` takes one where a scalar
                    // stands (not for a `.v4` vector: `st.v4.b32 [a], f`,
                    // but for `vec=.vec|scalar`: `st.async.v2.s32 [a], f`).
                    // A texture instruction's vector role takes a lone
                    // scalar in place of the vector (`tex.3d … [t, f]`),
                    // but in unified mode only the sampler itself may be
                    // one once a sampler is written (`tex.1d … [t, %r5],
                    // f` is refused; handles.rs).
                    let said = spec.kinds.has(Kinds::FUNC)
                        && (matches!(spec.arity, crate::isa::Arity::GroupOrScalar(_))
                            || !matches!(role_arity(i, spec), Some(n) if n > 0)
                            || flags.has(crate::isa::Flags::TEXTURE))
                        && (super::handles::takes_sampler(spec)
                            || !flags.has(crate::isa::Flags::TEXTURE)
                            || !super::handles::unified_sampler(i, self.env.opts));
                    if !said && !read_value {
                        let d = self.not_allowed(i, spec, *sp, format!("function `{n}`"));
                        self.report_found(*n, d, f, w);
                    }
                    return;
                }
                None => {
                    // Not known yet: a label defined further on would be
                    // one where this role takes none. A list of targets
                    // must be declared before its use (ptxas 13.5:
                    // "Arguments mismatch" for `brx.idx`, "Label expected
                    // for forward reference" for `call`).
                    if !spec.kinds.has(Kinds::LABEL) && !is_predefined(n.as_str()) {
                        Checker::report_if_label(w, *n, f, || {
                            self.not_allowed(i, spec, *sp, format!("label `{n}`"))
                        });
                    }
                }
            }
        }
        if let Expr::Binary(b) = e {
            if matches!(b.lhs, Expr::Name(..))
                && b.op == crate::syntax::BinOp::Add
                && self.offset_not_integer(&b.rhs)
            {
                return;
            }
            if self.symbol_in_arithmetic(i, b, w, ms) {
                return;
            }
            if self.offset_value(i, spec, ty, b, Names { w, ms }) {
                return;
            }
        }
        if let Some((r, component, span)) = special_of(e) {
            return self.special_register(i, spec, ty, r, component, span);
        }
        if let Some(kind) = constant(e) {
            // `fimm`: any floating-point constant, whatever the role's
            // type and range.
            if spec.kinds.has(Kinds::FIMM) && matches!(kind, Lit::Single | Lit::Double) {
                return;
            }
            // `single`: a bare `0f` constant, as 32 bits.
            if spec.kinds.has(Kinds::SINGLE) && matches!(kind, Lit::Single) {
                return;
            }
            if !spec.kinds.has(Kinds::IMM) {
                let what = if spec.dir.writes() {
                    format!(
                        "a constant cannot be `{}`, which `{}` writes",
                        spec.role,
                        super::inst_name(i)
                    )
                } else {
                    format!(
                        "`{}` takes a register as `{}`, not a constant",
                        super::inst_name(i),
                        spec.role
                    )
                };
                return self
                    .diags
                    .push(Diagnostic::error(Code::OperandKind, e.span(), what));
            }
            if let Some(ty) = ty {
                self.immediate_type(i, e, kind, ty);
            }
            self.immediate_value(i, spec, e);
        } else if spec.dir.writes()
            && matches!(
                e,
                Expr::Binary(..) | Expr::Chain(..) | Expr::Unary { .. } | Expr::Cond(..)
            )
        {
            // `1|%p2` is no pair but an expression: nothing can be
            // written to one.
            self.emit(Diagnostic::error(
                Code::OperandKind,
                e.span(),
                format!(
                    "`{}` writes `{}`, which must be a register, not an expression",
                    super::inst_name(i),
                    spec.role
                ),
            ));
        }
    }

    /// `-%r1`, `+%r1` or `!%r1` (a register, or any name): ptxas 13.5
    /// negates no operand ("Operand negation not allowed", "Illegal
    /// argument to unary minus") but a predicate with `!` ("Illegal
    /// argument to predicate negation" for another register). Reported
    /// here; `true` when it was.
    fn negated_name(
        &mut self,
        op: crate::syntax::UnOp,
        inner: &Expr,
        span: Span,
        w: &mut BodyWalk,
        ms: &ModuleScope,
    ) -> bool {
        use crate::syntax::UnOp;
        let name = match inner {
            Expr::Name(n, _) => *n,
            Expr::Field(fe) => match &fe.base {
                Expr::Name(n, _) => *n,
                _ => return false,
            },
            _ => return false,
        };
        if name.as_str() == "WARP_SZ" {
            return false;
        }
        let why = match op {
            UnOp::Not => {
                let pred = matches!(inner, Expr::Name(..))
                    && matches!(
                        w.lookup(ms, name).decl,
                        Some(Decl {
                            kind: Kind::Reg,
                            ty: Some(ScalarType::Pred) | None,
                            ..
                        })
                    );
                if pred {
                    return false;
                }
                format!("`!` negates a predicate register, and `{name}` is none")
            }
            UnOp::Neg | UnOp::Plus => {
                format!("ptxas negates no operand: write the value of `{inner}` negated into a register first", inner = name)
            }
            UnOp::BitNot => return false,
        };
        self.diags
            .push(Diagnostic::error(Code::OperandKind, span, why).with_note(
                "only a predicate may be negated in place (`!%p1`); `neg`, `not` and `sub` compute the others",
            ));
        true
    }

    /// The registers of a `.vN` vector agree with each other before the
    /// vector meets the instruction's type (ptxas 13.5, `ld`/`st`): all of
    /// one size ("Incompatible elements of vector expression"; special
    /// registers count as `.b32` ones, predicates are left alone), and
    /// those of a type (not `.bN`) all integers, all floats or all of one
    /// packed type ("Vector with elements of different types are not
    /// allowed"; `.s32` beside `.u32` passes). `false` when reported.
    fn vector_elements_agree(
        &mut self,
        i: &Instruction,
        spec: &RoleSpec,
        items: &[Operand],
        span: Span,
        nm: Names<'_>,
    ) -> bool {
        let Names { w, ms } = nm;
        #[derive(PartialEq, Clone, Copy)]
        enum Class {
            Int,
            Float,
            Packed(ScalarType),
        }
        let mut size = None;
        let mut class = None;
        let mut mixed_size = false;
        let mut mixed_class = false;
        for item in items {
            let Operand::Expr(e) = item else { continue };
            let Some(ty) = element_type(e, w, ms) else {
                continue;
            };
            if ty == ScalarType::Pred {
                continue;
            }
            match size {
                Some(b) if b != ty.bits() => mixed_size = true,
                _ => size = Some(ty.bits()),
            }
            let c = if ty.is_untyped() {
                continue;
            } else if ty.is_packed() {
                Class::Packed(ty)
            } else if ty.is_float() {
                Class::Float
            } else {
                Class::Int
            };
            match class {
                Some(k) if k != c => mixed_class = true,
                _ => class = Some(c),
            }
        }
        let why = if mixed_size {
            "registers of different sizes"
        } else if mixed_class {
            "registers of different types (integers, floats, packed values)"
        } else {
            return true;
        };
        self.emit(
            Diagnostic::error(
                Code::OperandType,
                span,
                format!(
                    "`{}` of `{}` mixes {why}",
                    spec.role,
                    super::inst_name(i)
                ),
            )
            .with_note("the elements of a vector are of one size, and of one kind where typed; a `.bN` register goes with any type of its size"),
        );
        false
    }

    /// The negations of a `neg-product` instruction (`vmad d, a, b, c`):
    /// its first two sources are a product whose sign is what counts
    /// (`-a, -b` cancel), its third an addend. ptxas 13.5 negates the
    /// product or the addend, not both ("Operand negation limited to
    /// either (source A xor source B) or source C"), and nothing in a
    /// form that takes no negation (`.po`: "Conflicting use of '.po'
    /// modifier with operand negation"). A negative constant is a value,
    /// not a negation.
    fn negated_product(&mut self, i: &Instruction, form: &crate::isa::Form) {
        let negated = |o: &Operand| match o {
            Operand::Expr(Expr::Unary { op, expr, span })
                if *op == crate::syntax::UnOp::Neg
                    && matches!(**expr, Expr::Name(..) | Expr::Field(_)) =>
            {
                Some(*span)
            }
            _ => None,
        };
        let sources: Vec<Option<Span>> = i.operands.iter().skip(1).take(3).map(negated).collect();
        let [a, b, c] = sources[..] else { return };
        let product = a.xor(b);
        let takes = form.operands.iter().any(|t| t.neg);
        let op = super::inst_name(i);
        let (span, why) = match (product, c) {
            (Some(p), Some(_)) if takes => (
                p,
                format!("`{op}` negates the product `a*b` (one of `a`, `b`) or `c`, not both"),
            ),
            (Some(s), _) | (None, Some(s)) if !takes => (
                s,
                format!("`{op}` takes no negated operand (but `-a, -b`, whose signs cancel)"),
            ),
            _ => return,
        };
        self.emit(
            Diagnostic::error(Code::OperandKind, span, why)
                .with_note("the sign of `a*b` is what counts: `-a, -b` is the product itself, and `-a, -b, -c` negates `c` alone"),
        );
    }

    /// `%r1.x` of a scalar register, reported here (`true` when it was).
    /// A register takes no component; a 32-bit one (or a predicate) is
    /// read through a video selector, `.b` or `.h` and lane digits, only
    /// where its operand of the form takes one (`a{.asel}`), from the set
    /// the catalog gives there. ptxas 13.5 (tests/data/names/video_selector_sets.ptx):
    /// "Unknown field" on 16- and 64-bit registers, "Unknown video
    /// selector" for lane digits out of range, "Video selector is not
    /// allowed" where the form takes none, "Incorrect video selector" for
    /// one outside the set. `.b01` passes wherever a register without a
    /// selector does, but for the SIMD video instructions.
    fn register_field(
        &mut self,
        i: &Instruction,
        spec: &RoleSpec,
        fe: &crate::syntax::FieldExpr,
        w: &mut BodyWalk,
        ms: &ModuleScope,
    ) -> bool {
        let Expr::Name(n, _) = &fe.base else {
            return false;
        };
        // A scalar register (a vector one has no type of its own here).
        let Some(Decl {
            kind: Kind::Reg,
            ty: Some(ty),
            ..
        }) = w.lookup(ms, *n).decl
        else {
            return false;
        };
        let field = fe.field.as_str();
        let lanes = match selector_lanes(field) {
            Some(lanes) if ty.bits() == 32 || ty == ScalarType::Pred => lanes,
            _ => {
                self.emit(
                    Diagnostic::error(
                        Code::OperandKind,
                        fe.span,
                        format!("`{n}` is a scalar register: `{field}` is no component of it"),
                    )
                    .with_note("only a 32-bit register takes a field: a video selector (`.b0`…`.b3`, `.h0`, `.h1`, the lane selectors of `vadd2`/`vadd4`…) where the instruction's operand takes one"),
                );
                return true;
            }
        };
        let op = super::inst_name(i);
        if !lanes {
            self.emit(
                Diagnostic::error(
                    Code::OperandKind,
                    fe.span,
                    format!("`{field}` is no video selector: a byte selector's lanes are 0 to 7, a half-word selector's 0 to 3"),
                ),
            );
            return true;
        }
        let cat = catalog();
        let tpl = i
            .form()
            .and_then(|f| f.operands.iter().find(|t| t.role == spec.role));
        let takes = tpl.map_or(&[][..], |t| t.suffixes);
        let taken = takes.iter().any(|k| match k {
            crate::isa::SlotKind::Group(g) => cat
                .group(*g)
                .is_some_and(|g| g.matches_spelling(field, cat)),
            crate::isa::SlotKind::Lit(m) => cat.mod_name(*m) == field,
        });
        if taken {
            return false;
        }
        if field == ".b01" && !cat.flags(i.form).has(crate::isa::Flags::SIMD_VIDEO) {
            return false;
        }
        let d = if takes.is_empty() {
            Diagnostic::error(
                Code::OperandKind,
                fe.span,
                format!("`{op}` reads `{}` through no video selector: `{field}` cannot be written here", spec.role),
            )
            .with_note("a selector picks bytes or half-words of the sources of the video instructions (`vadd`, `vset`, `vadd4`…), and of the destination of those that merge into `c` (`d.dsel` without a secondary operation)")
        } else {
            let set: Vec<&str> = takes
                .iter()
                .flat_map(|k| match k {
                    crate::isa::SlotKind::Group(g) => cat.group(*g).map_or(Vec::new(), |g| {
                        g.alts
                            .iter()
                            .map(|m| cat.mod_name(*m))
                            .chain(g.patterns.iter().copied())
                            .collect()
                    }),
                    crate::isa::SlotKind::Lit(m) => vec![cat.mod_name(*m)],
                })
                .take(16)
                .collect();
            Diagnostic::error(
                Code::OperandKind,
                fe.span,
                format!(
                    "`{field}` is not a selector `{op}` takes on `{}`",
                    spec.role
                ),
            )
            .with_note(format!("it takes {}", set.join(" ")))
        };
        self.emit(d);
        true
    }

    /// A diagnostic: `what` cannot be operand `spec` of `i`.
    fn not_allowed(
        &self,
        i: &Instruction,
        spec: &RoleSpec,
        span: Span,
        what: String,
    ) -> Diagnostic {
        let takes = describe_kinds(spec.kinds);
        Diagnostic::error(
            Code::OperandKind,
            span,
            format!(
                "{what} cannot be `{}` of `{}`",
                spec.role,
                super::inst_name(i)
            ),
        )
        .with_note(format!("`{}` takes {takes}", spec.role))
    }

    /// Whether role `spec` of `i` takes its registers without the packed
    /// leniency: `strict-reg`, or `sampler-strict` in unified mode with a
    /// sampler written.
    fn strict_reg(&self, i: &Instruction, spec: &RoleSpec) -> bool {
        spec.kinds.has(Kinds::STRICT_REG)
            || (spec.kinds.has(Kinds::SAMPLER_STRICT)
                && super::handles::unified_sampler(i, self.env.opts))
    }

    /// Register `n` of type `reg` as an operand of type `ty`.
    fn register_type(
        &mut self,
        i: &Instruction,
        spec: &RoleSpec,
        (n, span, found): (Name, Span, Found),
        (reg, ty): (ScalarType, ScalarType),
        w: &mut BodyWalk,
    ) {
        let fits = match (ty == ScalarType::Pred, reg == ScalarType::Pred) {
            (true, true) => true,
            (false, true) if spec.takes_pred_on(self.env.sm.map(|s| s.num)) => {
                // The predicate is the operand of the form that takes a
                // `.pred` role here: that form's version and target apply.
                if let Some(alt) = pred_alternative(i, spec) {
                    let what = || {
                        format!(
                            "a predicate `{n}` as `{}` of `{}`",
                            spec.role,
                            super::inst_name(i)
                        )
                    };
                    let rule = || format!("form `{}`", alt.text);
                    self.report_unmet(&alt.req, span, what, rule);
                }
                true
            }
            // An `.f16x2` register passes for an integer operand only
            // where the operand's type is the instruction's (`add.s32`,
            // `cvt.f32.u32`), not a fixed one (a membermask, `popc`'s
            // `.u32` result, `bar`'s barrier; probed).
            (false, false) if reg == ScalarType::F16x2 && !ty.is_float() && !ty.is_untyped() => {
                super::offsets::instruction_typed(i, spec, ty)
                    && super::exact::fits(spec, ty, reg)
                    && !(self.strict_reg(i, spec) && reg != ty)
                    && plain_bits_ok(i, spec)
            }
            // `strict-values`: an `.f16x2` register read as 32 plain bits
            // only by the roles that say `func` (the data of `atom`, `st`);
            // any destination takes one.
            (false, false) if reg == ScalarType::F16x2 && ty != reg => {
                super::exact::fits(spec, ty, reg)
                    && !self.strict_reg(i, spec)
                    && plain_bits_ok(i, spec)
            }
            // A `strict-reg` role takes no packed register for another
            // type of its size (tex's `e` and `fc`).
            (false, false) => {
                (super::exact::fits(spec, ty, reg)
                    && !(spec.kinds.has(Kinds::STRICT_REG) && reg.is_packed() && reg != ty))
                    || super::handles::register_fits(spec, reg)
            }
            // ptxas takes an `.f16x2` register where the operand's type is
            // the instruction's own `.pred` type modifier (`and.pred`,
            // `mov.pred`, `vote.all.pred`), though not where the operand
            // is a predicate by itself (`setp`'s destinations, a guard).
            (true, false) => reg == ScalarType::F16x2 && typed_by_modifier(i, spec),
            _ => false,
        };
        // `untyped-reg`: a `.bN` role takes only a `.bN` register.
        let fits =
            fits && !(spec.kinds.has(Kinds::UNTYPED_REG) && ty.is_untyped() && !reg.is_untyped());
        if fits {
            return;
        }
        let wider = spec.wider;
        let note = if ty == ScalarType::Pred {
            "this operand is a predicate: it takes a .pred register".to_string()
        } else if reg == ScalarType::Pred {
            format!("a {ty} operand cannot be a predicate register")
        } else if ty.is_untyped() {
            format!(
                "a {ty} operand takes a register of {} bits{}",
                ty.bits(),
                if wider { " or more" } else { "" }
            )
        } else {
            format!(
                "a {ty} operand takes a register of the same size{}: {ty} or .b{}{}",
                if wider { " or wider" } else { "" },
                ty.bits(),
                if ty.is_float() {
                    ""
                } else {
                    " (or the other signedness)"
                }
            )
        };
        let d = Diagnostic::error(
            Code::OperandType,
            span,
            format!(
                "`{n}` is a {reg} register, which `{}` cannot use as `{}`",
                super::inst_name(i),
                spec.role
            ),
        )
        .with_note(note);
        self.report_found(n, d, found, w);
    }

    /// Variable `n` (its address) where the role takes no variable.
    fn variable_operand(
        &self,
        i: &Instruction,
        spec: &RoleSpec,
        n: Name,
        span: Span,
        ty: Option<ScalarType>,
    ) -> Diagnostic {
        let name = super::inst_name(i);
        if ty.is_some_and(|t| t.is_float()) && spec.kinds.has(Kinds::VAR) {
            if let Some(t) = ty {
                return Diagnostic::error(
                    Code::OperandType,
                    span,
                    format!("`{name}` cannot take the address of variable `{n}` as a {t} value"),
                )
                .with_note(
                    "an address is an integer: move it with an integer or bit type (`mov.u64`)",
                );
            }
        }
        Diagnostic::error(
            Code::OperandType,
            span,
            format!("`{n}` is a variable, which `{name}` cannot use as `{}`", spec.role),
        )
        .with_note("load its value with `ld`, or move its address into a register first (`mov.u64 %rd1, name;`)")
    }

    /// A special register `r` (with `component`) as operand `spec`.
    fn special_register(
        &mut self,
        i: &Instruction,
        spec: &RoleSpec,
        ty: Option<ScalarType>,
        r: &'static SpecialReg,
        component: Option<&str>,
        span: Span,
    ) {
        let name = super::inst_name(i);
        if !self.component(r, component, span) {
            return;
        }
        // `%tid` without a component is all four: only a four-lane operand
        // takes it (`mov.v4.u32 {…}, %tid`); ptxas 13.5 refuses it as a
        // scalar ("Argument vector size mismatch", "Vector operand is not
        // allowed").
        let whole = component.is_none() && !r.components.is_empty();
        // Where the role's element count is not fixed (a packing `mov`),
        // the four components are elements: the type must be their size
        // (ptxas 13.5 takes `mov.b128 %q1, %tid`, refuses `mov.b32 %r1,
        // %tid` with "Arguments mismatch").
        if whole {
            let arity = role_arity(i, spec);
            if let (None, Some(t)) = (arity, ty.filter(|_| !spec.dir.writes())) {
                if Some(t.bits()) == r.ty.bits().checked_mul(4) {
                    return self.gate_special(r, span);
                }
                return self.emit(
                    Diagnostic::error(
                        Code::SpecialRegister,
                        span,
                        format!(
                            "`{}` without a component is a vector of four {}, which `{name}` cannot take as one {t}",
                            r.name, r.ty
                        ),
                    )
                    .with_note(format!("read one component: `{}.x`", r.name)),
                );
            }
            if arity.is_some_and(|n| n != 4) {
                return self.emit(
                    Diagnostic::error(
                        Code::SpecialRegister,
                        span,
                        format!(
                            "`{}` without a component is a vector of four, which `{name}` cannot take as `{}`",
                            r.name, spec.role
                        ),
                    )
                    .with_note(format!("read one component: `{}.x`", r.name)),
                );
            }
        }
        // A `.pred` special register as the second half of a destination
        // pair (`setp`'s `q`, `shfl`'s and `lop3`'s `p`): ptxas 13.5 takes
        // it there, and nowhere else a predicate is written.
        if r.ty == ScalarType::Pred && ty == Some(ScalarType::Pred) && pair_second(i, spec) {
            return self.gate_special(r, span);
        }
        if !spec.kinds.has(Kinds::SREG) || spec.dir.writes() {
            return self.emit(
                Diagnostic::error(
                    Code::OperandType,
                    span,
                    format!("`{name}` cannot read a special register as `{}`", spec.role),
                )
                .with_note("read special registers with `mov` (or `cvt` between integer types): `mov.u32 %r1, %tid.x;`, then use `%r1`"),
            );
        }
        // Special registers hold integers: no operand of the instruction
        // may be a float (`cvt.rn.f32.u32 %f1, %tid.x` is refused).
        let float = i.roles().iter().find_map(|(t, _)| {
            catalog()
                .role(t.spec)
                .and_then(|s| role_type(i, s))
                .filter(|t| t.is_float())
        });
        if let Some(f) = float {
            return self.emit(
                Diagnostic::error(
                    Code::OperandType,
                    span,
                    format!("`{name}` cannot read a special register: its {f} operand is not an integer"),
                )
                .with_note("special registers hold integers; read one with an integer `mov` or `cvt` first"),
            );
        }
        let Some(ty) = ty else {
            return self.gate_special(r, span);
        };
        if !sreg_fits(r, ty, spec.wider) {
            self.emit(
                Diagnostic::error(
                    Code::OperandType,
                    span,
                    format!(
                        "`{}` is a {} special register, which `{name}` cannot read as {ty}",
                        r.name, r.ty
                    ),
                )
                .with_note(format!(
                    "read it with an integer type of {} bits",
                    r.ty.bits()
                )),
            );
            return;
        }
        self.gate_special(r, span);
    }

    /// The version and target special register `r` needs.
    fn gate_special(&mut self, r: &'static SpecialReg, span: Span) {
        let what = || format!("special register `{}`", r.name);
        let rule = || "the register's PTX/Target ISA notes (spec chapter 10)".to_string();
        self.report_unmet(&r.req, span, what, rule);
    }

    /// The constant `e` (of kind `kind`) as an operand of type `ty`.
    fn immediate_type(&mut self, i: &Instruction, e: &Expr, kind: Lit, ty: ScalarType) {
        if operand_kinds::fits(kind, ty) != Some(false) {
            return;
        }
        let note = match kind {
            Lit::Bad => "a float may be combined only with floats, by `+ - * /` or a comparison; `?:`, `%`, bit and logical operators take integers".to_string(),
            _ if operand_kinds::takes_no_constant(ty) => {
                format!("a packed {ty} operand takes a register, not a constant")
            }
            Lit::Int if ty.is_float() => format!("write a floating-point literal for a {ty} operand (`1.0`, or `0f3F800000` for its exact bits)"),
            Lit::Single | Lit::Double if ty == ScalarType::B32 => {
                "a .b32 operand takes an integer or a single-precision `0f` literal".to_string()
            }
            Lit::Single | Lit::Double if ty == ScalarType::B64 => {
                "a .b64 operand takes an integer or a double-precision literal (`1.0`, `0d…`)"
                    .to_string()
            }
            _ => format!("a {ty} operand takes an integer constant"),
        };
        let name = super::inst_name(i);
        let message = match kind {
            Lit::Bad => format!("`{name}` cannot take this constant expression"),
            _ => format!(
                "{} cannot be a {ty} operand of `{name}`",
                operand_kinds::describe(kind)
            ),
        };
        self.diags
            .push(Diagnostic::error(Code::ImmediateType, e.span(), message).with_note(note));
    }

    /// The value of constant `e` against the role's range and multiple,
    /// and against the value set its section lists for the role
    /// (`cp-size = { 4, 8, 16 };`), when the set is all integers.
    fn immediate_value(&mut self, i: &Instruction, spec: &RoleSpec, e: &Expr) {
        let listed: Option<Vec<i64>> = catalog()
            .section_of(i.form)
            .and_then(|s| s.operand_values.iter().find(|(r, _)| *r == spec.role))
            .and_then(|(_, vs)| vs.iter().map(|v| int_literal(v)).collect());
        if spec.range.is_none() && spec.multiple <= 1 && listed.is_none() && spec.at_most.is_none()
        {
            return;
        }
        let Some(v) = crate::syntax::consteval::eval_int(e) else {
            return;
        };
        // A `wrap32` role reads a constant as its low 32 bits (ptxas 13.5:
        // barrier 2^32 is barrier 0, -1 is the mask 0xFFFFFFFF); `written`
        // is what the message shows.
        let (written, v) = if spec.kinds.has(Kinds::WRAP32) {
            (v, v & 0xFFFF_FFFF)
        } else {
            (v, v)
        };
        if let Some(set) = listed.filter(|set| !set.contains(&v)) {
            let want: Vec<String> = set.iter().map(i64::to_string).collect();
            self.emit(Diagnostic::error(
                Code::ImmediateValue,
                e.span(),
                format!(
                    "{written} cannot be `{}` of `{}`: it must be one of {}",
                    spec.role,
                    super::inst_name(i),
                    want.join(", ")
                ),
            ));
            return;
        }
        // `at-most=ROLE`: the other role's constant lowers the top of the
        // range (`cp.async … 4, 8`: "expected to be in range [0..4]").
        let bound = spec.at_most.and_then(|r| role_constant(i, r));
        let range = match (spec.range, bound) {
            (Some((lo, hi)), Some(b)) => Some((lo, hi.min(b))),
            (None, Some(b)) => Some((i64::MIN, b)),
            (range, None) => range,
        };
        let out_of_range = range.is_some_and(|(lo, hi)| v < lo || v > hi);
        let not_multiple = spec.multiple > 1 && v.rem_euclid(i64::from(spec.multiple)) != 0;
        if !(out_of_range || not_multiple) {
            return;
        }
        let mut want = Vec::new();
        match (range, spec.at_most.filter(|_| bound.is_some())) {
            (Some((i64::MIN, hi)), Some(other)) => {
                want.push(format!("at most {hi} (its `{other}`)"));
            }
            (Some((lo, hi)), Some(other)) => {
                want.push(format!("from {lo} to {hi} (its `{other}`)"));
            }
            (Some((lo, hi)), None) => want.push(format!("from {lo} to {hi}")),
            (None, _) => {}
        }
        if spec.multiple > 1 {
            want.push(format!("a multiple of {}", spec.multiple));
        }
        self.emit(Diagnostic::error(
            Code::ImmediateValue,
            e.span(),
            format!(
                "{written} is out of range for `{}` of `{}`: it must be {}",
                spec.role,
                super::inst_name(i),
                want.join(" and ")
            ),
        ));
    }
}

/// Whether `field` is written as a video selector (`.b` or `.h` and
/// digits): `Some(true)` when every digit names a lane (0–7 for bytes,
/// 0–3 for half-words), `Some(false)` when one does not (ptxas:
/// "Unknown video selector"); `None` for any other field.
fn selector_lanes(field: &str) -> Option<bool> {
    let rest = field.strip_prefix('.')?;
    let (top, digits) = match rest.as_bytes().split_first()? {
        (b'b', d) => (b'7', d),
        (b'h', d) => (b'3', d),
        _ => return None,
    };
    digits
        .iter()
        .all(u8::is_ascii_alphanumeric)
        .then(|| digits.iter().all(|d| (b'0'..=top).contains(d)))
}

/// The value of the constant `i` writes for its form's role named
/// `role`, if it writes one there (`cp.async`'s `cp-size`).
fn role_constant(i: &Instruction, role: &str) -> Option<i64> {
    let form = i.form()?;
    let mut written = i.operands.iter();
    for (k, tpl) in form.operands.iter().enumerate() {
        if k >= 32 || i.present & (1 << k) == 0 {
            continue;
        }
        let o = written.next()?;
        if catalog().role(tpl.spec).is_some_and(|s| s.role == role) {
            return match o {
                Operand::Expr(e) => crate::syntax::consteval::eval_int(e),
                _ => None,
            };
        }
    }
    None
}

/// An integer written in a catalog value set (`16`, `0xFFFFFFFF`).
fn int_literal(v: &str) -> Option<i64> {
    match v.strip_prefix("0x").or_else(|| v.strip_prefix("0X")) {
        Some(h) => i64::from_str_radix(h, 16).ok(),
        None => v.parse().ok(),
    }
}

/// Whether special register `r` can be read as type `ty`: a predicate as
/// a predicate; any other as an integer type of its own width (or one of
/// the widths the catalog lists for it), or, where the role takes a
/// narrower type than its register (`cvt`'s source), of that width or
/// less.
fn sreg_fits(r: &SpecialReg, ty: ScalarType, narrower_ok: bool) -> bool {
    match (r.ty == ScalarType::Pred, ty == ScalarType::Pred) {
        (true, true) => true,
        (false, false) if !ty.is_float() => {
            let (have, want) = (r.ty.bits(), ty.bits());
            want == have || r.listed_width(want) || (narrower_ok && want < have)
        }
        _ => false,
    }
}

/// Whether `spec` is the role of the second half of a pair (`d|p`) in
/// `i`'s form.
fn pair_second(i: &Instruction, spec: &RoleSpec) -> bool {
    i.form().is_some_and(|f| {
        f.operands.iter().any(|t| match t.shape {
            Shape::Pair { second_spec, .. } => catalog()
                .role(second_spec)
                .is_some_and(|s| std::ptr::eq(s, spec)),
            _ => false,
        })
    })
}

/// The kinds of a role, for a note.
fn describe_kinds(k: Kinds) -> String {
    let names: Vec<&str> = [
        (Kinds::REG, "a register"),
        (Kinds::IMM, "a constant"),
        (Kinds::SREG, "a special register"),
        (Kinds::VAR, "a variable"),
        (Kinds::LABEL, "a label"),
        (Kinds::FUNC, "a function"),
        (Kinds::ADDR, "an address"),
        (Kinds::HANDLE, "a texture, sampler or surface"),
        (
            Kinds::PROTO,
            "a `.calltargets` or `.callprototype` label declared before",
        ),
        (Kinds::TARGETS, "a `.branchtargets` label declared before"),
        (Kinds::SINK, "the sink `_`"),
    ]
    .iter()
    .filter(|(x, _)| k.has(*x))
    .map(|(_, n)| *n)
    .collect();
    match names.as_slice() {
        [] => "nothing".to_string(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// Whether role `spec` of `i` may read an `.f16x2` register as 32 plain
/// bits: any role outside the sections flagged `strict-values`, and there
/// the destinations and the roles that say `func` (the data of `atom`,
/// `st`).
fn plain_bits_ok(i: &Instruction, spec: &RoleSpec) -> bool {
    spec.kinds.has(Kinds::FUNC)
        || spec.dir != crate::isa::Dir::In
        || !catalog()
            .flags(i.form)
            .has(crate::isa::Flags::STRICT_VALUES)
}

#[cfg(test)]
mod tests {
    /// The error lines (1-based) the checker reports on `body`, placed in
    /// a kernel after `.shared`/`.global` variables, one instruction a line.
    fn error_lines(version: &str, target: &str, body: &[&str]) -> Vec<usize> {
        let head = format!(
            ".version {version}\n.target {target}\n.address_size 64\n\
             .global .align 16 .b8 gbuf[64];\n.shared .align 16 .b8 sbuf[64];\n\
             .visible .entry k()\n{{\n.reg .b32 %r<9>;\n.reg .b64 %rd<9>;\n.reg .pred %p<9>;\n"
        );
        let first = head.lines().count().saturating_add(1);
        let src = format!("{head}{}\nret;\n}}\n", body.join("\n"));
        let parsed = crate::parse(src.as_bytes());
        assert!(!parsed.has_errors(), "{:?}", parsed.diagnostics);
        let index = crate::LineIndex::new(src.as_bytes());
        let mut lines: Vec<usize> = super::super::check(&parsed.module, &Default::default())
            .iter()
            .filter(|d| d.is_error())
            .map(|d| (index.line_col(d.span.start).line as usize).saturating_sub(first))
            .collect();
        lines.sort_unstable();
        lines.dedup();
        lines
    }

    /// Each address goes with the space its role names (`space=`), not
    /// with the k-th written state space; ptxas 13.5's verdicts on sm_100a.
    #[test]
    fn addresses_take_their_roles_state_space() {
        let atom = "fabric.try_atom.async.shared::cta.mbarrier::complete_tx::16B.mbarrier::report::fabric.relaxed.sys.add.u32 [%r1, %rd1]";
        let lines = [
            // 0: all in shared memory: accepted.
            format!("{atom}, [sbuf], [sbuf], [sbuf];"),
            // 1-3: a .global variable for smem_dst, smem_src, mbar: refused.
            format!("{atom}, [gbuf], [%rd3], [%rd4];"),
            format!("{atom}, [%rd3], [gbuf], [%rd4];"),
            format!("{atom}, [%rd3], [%rd4], [gbuf];"),
            // 4: st.async's mbarrier is shared with .shared::cluster...
            "st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [%rd1], %r1, [gbuf];".into(),
            // 5: ...and generic without it (a .global variable is taken).
            "st.async.mbarrier::complete_tx::bytes.b32 [%rd1], %r1, [gbuf];".into(),
            // 6: the positional pairing stays for roles without space=.
            "cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [sbuf], [sbuf], 16, [sbuf];".into(),
            // 7: a bulk copy's mbarrier is in shared memory.
            "cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [sbuf], [gbuf], 16, [gbuf];".into(),
            // 8: a 32-bit register is a tensor-map address (generic).
            "prefetch.tensormap [%r1];".into(),
        ];
        let body: Vec<&str> = lines.iter().map(String::as_str).collect();
        assert_eq!(error_lines("9.4", "sm_100a", &body), vec![1, 2, 3, 4, 6, 7]);
    }

    /// A predicate where a `pred` role stands in for another form's
    /// `.pred` operand needs that form's version (ptxas 13.5: cp.async's
    /// ignore-src from PTX 7.5, src-size from 7.0).
    #[test]
    fn a_predicate_in_a_pred_role_takes_the_other_forms_version() {
        let body = [
            "cp.async.ca.shared.global [%rd1], [%rd2], 4, %r1;",
            "cp.async.ca.shared.global [%rd1], [%rd2], 4, %p1;",
            "cp.async.cg.shared.global [%rd1], [%rd2], 16, %p1;",
        ];
        assert_eq!(error_lines("7.4", "sm_80", &body), vec![1, 2]);
        assert_eq!(error_lines("7.5", "sm_80", &body), Vec::<usize>::new());
    }

    /// A constant from a section's value set (`cp-size = { 4, 8, 16 };`)
    /// or the constant a form spells out (`.cg ..., 16`): ptxas 13.5 on
    /// sm_80 refuses every other value, with or without src-size.
    #[test]
    fn constants_from_value_sets_and_spelled_literals() {
        let body = [
            "cp.async.ca.shared.global [%rd1], [%rd2], 4, %r1;",
            "cp.async.ca.shared.global [%rd1], [%rd2], 0x10;",
            "cp.async.cg.shared.global [%rd1], [%rd2], 16, %r1;",
            "cp.async.ca.shared.global [%rd1], [%rd2], 1, %r1;",
            "cp.async.ca.shared.global [%rd1], [%rd2], 12;",
            "cp.async.cg.shared.global [%rd1], [%rd2], 8;",
        ];
        assert_eq!(error_lines("8.0", "sm_80", &body), vec![3, 4, 5]);
    }

    /// The scalar video instructions read `a` and `b` through a lane
    /// selector and take no register or variable plus a constant there;
    /// `c` takes them. ptxas 13.5 on sm_90 (each refused case alone in a
    /// file: a syntax error at a line of the code it expands them to, so
    /// not a recorded probe file; the accepted ones are in
    /// tests/data/names/video_selectors.ptx).
    #[test]
    fn video_selector_operands_take_no_offset() {
        let body = [
            "vadd.u32.u32.u32 %r1, %r1+8, %r3;",
            "vadd.u32.u32.u32 %r1, %r2, gbuf+8;",
            "vabsdiff.u32.u32.u32 %r1, %rd1+8, %r3;",
            "vshr.u32.u32.u32.clamp %r1, %r2, %r3+8, %r4;",
            "vset.u32.u32.eq %r1, gbuf+8, %r3;",
            "vset.u32.u32.eq.add %r1, %r2, %rd3+8, %r4;",
            "vadd.u32.u32.u32.add %r1, %r2, %r3, %r4+8;",
            "vshr.u32.u32.u32.clamp %r1, %r2, %r3, gbuf+8;",
        ];
        assert_eq!(error_lines("8.7", "sm_90", &body), vec![0, 1, 2, 3, 4, 5]);
    }
}
