//! Symbols: every name an instruction uses must be declared — a register,
//! variable or parameter in an enclosing scope, a label of the function, a
//! module-scope variable or function, or a special register. Duplicate
//! declarations in one scope, branches to missing labels and calls to
//! undeclared functions are reported.

use rustc_hash::FxHashMap;

use super::Checker;
use crate::diag::Diagnostic;
use crate::isa::vocab::ScalarType;
use crate::source::Span;
use crate::syntax::{Function, Initializer, Item, Name, VarDecl};

/// Diagnostic codes of this pass.
pub mod codes {
    /// A name that is declared nowhere in scope.
    pub const UNDECLARED: &str = "E0401";
    /// A name declared twice in one scope.
    pub const DUPLICATE: &str = "E0402";
    /// A branch to a label the function does not define.
    pub const UNDEFINED_LABEL: &str = "E0403";
    /// A register beyond a `%r<N>` range.
    pub const OUT_OF_RANGE: &str = "E0404";
    /// A call to a function that is not declared.
    pub const UNDECLARED_CALLEE: &str = "E0601";
    /// A call whose argument or return count differs from the callee's.
    pub const CALL_ARITY: &str = "E0602";
    /// An indirect call (through a register) without a prototype or targets.
    pub const CALL_PROTOTYPE: &str = "E0603";
    /// A register whose declared type does not fit the instruction type.
    pub const OPERAND_TYPE: &str = "E0703";
    /// An immediate of a kind the operand's type does not take (an integer
    /// for a float, a float for an integer).
    pub const IMMEDIATE_TYPE: &str = "E0705";
    /// An operand of a kind its role does not take (a constant written
    /// to, a register where a constant is required, a label as a value).
    pub const OPERAND_KIND: &str = "E0707";
    /// A vector where a scalar goes, a scalar where a vector goes, or a
    /// vector of the wrong length.
    pub const OPERAND_SHAPE: &str = "E0708";
    /// A constant outside the range its role allows.
    pub const IMMEDIATE_VALUE: &str = "E0709";
    /// A special register that does not exist, or a component it lacks.
    pub const SPECIAL_REGISTER: &str = "E0405";
}

/// What a name denotes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// A register (or `.reg` parameter).
    Reg,
    /// A variable in memory (global, shared, local, const, param).
    Var,
    /// A label (including `.callprototype`/`.calltargets`/`.branchtargets`).
    Label,
    /// A function.
    Func,
}

#[derive(Clone, Copy, Debug)]
pub(super) struct Decl {
    pub kind: Kind,
    pub span: Span,
    /// Declared type of a register (scalar, not vector), or of a variable.
    pub ty: Option<ScalarType>,
    /// The state space of a variable.
    pub space: Option<crate::isa::vocab::StateSpace>,
}

/// One scope: plain names and `%r<N>` ranges.
#[derive(Default)]
pub(super) struct Scope {
    /// Declared names other than register ranges.
    pub(super) names: FxHashMap<Name, Decl>,
    /// Register ranges, matched by text. Not memoised: nvcc's registers are
    /// each used two or three times, so a memo mostly missed, and filling
    /// it cost more than the match (checking the corpus took 194-199 ms
    /// with a memo, 171-179 ms without).
    pub(super) ranges: Vec<Range>,
}

/// `%r<N>`: registers `%r0` to `%r{N-1}`.
pub(super) struct Range {
    pub(super) name: Name,
    /// The name's text, kept to match register names against it.
    pub(super) prefix: Box<str>,
    /// The text packed into a word when it has at most eight bytes
    /// (`%r`, `%rd`, `%fd`…): matched against a register's prefix with one
    /// comparison.
    key: Option<u64>,
    pub(super) count: u64,
    pub(super) span: Span,
    ty: Option<ScalarType>,
}

impl Scope {
    /// Enter `name`, not a register, as declared at `span`.
    fn declare(
        &mut self,
        name: Name,
        kind: Kind,
        span: Span,
        space: Option<crate::isa::vocab::StateSpace>,
    ) {
        self.names.insert(
            name,
            Decl {
                kind,
                span,
                ty: None,
                space,
            },
        );
    }

    pub(super) fn add_range(&mut self, name: Name, count: u64, span: Span, ty: Option<ScalarType>) {
        self.ranges.push(Range {
            name,
            prefix: name.as_str().into(),
            key: word(name.as_bytes()),
            count,
            span,
            ty,
        });
    }

    pub(super) fn find(&self, n: Name) -> Option<Decl> {
        if let Some(d) = self.names.get(&n) {
            return Some(*d);
        }
        if self.ranges.is_empty() {
            return None;
        }
        // A short name: its prefix and digits straight from its bytes.
        if let Some((key, plen, idx)) = n.split_digits() {
            if let Some(k) = key {
                let r = self
                    .ranges
                    .iter()
                    .find(|r| r.key == Some(k) && r.prefix.len() == plen);
                if let Some(d) = r.and_then(|r| r.index(idx)) {
                    return Some(d);
                }
            }
            // A range whose name ends in digits (`%v2<4>` declares `%v20`…).
            let s = n.as_bytes();
            return self.ranges.iter().find_map(|r| r.covers(s));
        }
        self.find_in_ranges(n.as_bytes())
    }

    /// The range that declares register `s`, if any.
    fn find_in_ranges(&self, s: &[u8]) -> Option<Decl> {
        // Fast path: `%r17` against a range named `%r` (the digits split off).
        let digits = s.iter().rev().take_while(|b| b.is_ascii_digit()).count();
        if let Some((prefix, idx)) = s.split_at_checked(s.len().saturating_sub(digits)) {
            let key = word(prefix);
            let same = |r: &&Range| match key {
                Some(k) => r.key == Some(k) && r.prefix.len() == prefix.len(),
                None => r.prefix.as_bytes() == prefix,
            };
            if let Some(r) = self.ranges.iter().find(same) {
                if let Some(d) = r.index(idx) {
                    return Some(d);
                }
            }
        }
        // A range whose name ends in digits (`%v2<4>` declares `%v20`…).
        self.ranges.iter().find_map(|r| r.covers(s))
    }
}

impl Range {
    /// The declaration of register `s` if this range declares it: the
    /// prefix, then a canonical index below the count.
    fn covers(&self, s: &[u8]) -> Option<Decl> {
        self.index(s.strip_prefix(self.prefix.as_bytes())?)
    }

    /// The declaration of the register this range's prefix followed by
    /// `idx` names, if it declares it.
    fn index(&self, idx: &[u8]) -> Option<Decl> {
        let canonical = !idx.is_empty() && (idx == b"0" || !idx.starts_with(b"0"));
        // The index as a number; `None` if a byte is not a digit or it
        // overflows (then it is past any count).
        let value = idx.iter().try_fold(0u64, |v, &b| {
            let d = b.wrapping_sub(b'0');
            (d < 10).then_some(())?;
            v.checked_mul(10)?.checked_add(u64::from(d))
        });
        (canonical && value.is_some_and(|i| i < self.count)).then_some(Decl {
            kind: Kind::Reg,
            span: self.span,
            ty: self.ty,
            space: None,
        })
    }
}

/// Up to eight bytes as one little-endian word; `None` if longer. Not
/// [`crate::isa::pack_word`]: register prefixes are short, and its 16-byte
/// word made each register lookup cost 8% more instructions.
fn word(b: &[u8]) -> Option<u64> {
    // Byte by byte: a copy into an array calls `memcpy` for a few bytes.
    (b.len() <= 8).then(|| b.iter().rev().fold(0u64, |w, &x| (w << 8) | u64::from(x)))
}

/// Special registers (the catalog's `@sreg` entries, spec chapter 10) and
/// the predefined names `WARP_SZ` and `_`.
pub fn is_predefined(name: &str) -> bool {
    matches!(name, "WARP_SZ" | "_") || crate::isa::catalog().special_register(name).is_some()
}

/// What a call needs to know of a function declared earlier.
#[derive(Clone, Copy, Debug)]
pub(super) struct Callee {
    pub(super) kernel: bool,
    pub(super) name_span: Span,
    pub(super) rets: usize,
    pub(super) params: usize,
}

impl Callee {
    fn of(f: &Function) -> Callee {
        Callee {
            kernel: f.is_kernel(),
            name_span: f.name_span,
            rets: f.rets.as_ref().map_or(0, Vec::len),
            params: f.params.as_ref().map_or(0, Vec::len),
        }
    }
}

/// Module scope: the variables and functions declared so far. Like ptxas,
/// the checker reads a module in order, so a name must be declared before
/// it is used; the scope holds summaries, not the items, so a module can be
/// checked one item at a time and each item dropped after.
#[derive(Default)]
pub(super) struct ModuleScope {
    scope: Scope,
    funcs: FxHashMap<Name, Callee>,
    /// Where each defined (not `.extern`, not prototype) name was defined.
    defined: FxHashMap<Name, Span>,
}

impl ModuleScope {
    /// The module-scope declaration of `n`, if any.
    pub(super) fn find(&self, n: Name) -> Option<Decl> {
        self.scope.find(n)
    }

    /// Whether `n` is a function declared so far.
    pub(super) fn is_function(&self, n: Name) -> bool {
        self.funcs.contains_key(&n)
    }

    /// What a call needs of function `n`, if it is declared.
    pub(super) fn callee(&self, n: Name) -> Option<Callee> {
        self.funcs.get(&n).copied()
    }
}

impl Checker<'_> {
    /// Enter what a module-scope item declares into `ms`.
    pub(super) fn declare(&mut self, item: &Item, ms: &mut ModuleScope) {
        let ModuleScope {
            scope,
            funcs,
            defined,
        } = ms;
        match item {
            Item::Var(v) => {
                for d in &v.decls {
                    // Old PTX declares registers at module scope too.
                    if let Some(r) = &d.range {
                        scope.add_range(d.name, r.value, d.name_span, reg_type(v));
                        continue;
                    }
                    let extern_ = v.linkage == Some(crate::isa::vocab::Linkage::Extern);
                    if !extern_ {
                        if let Some(first) = defined.insert(d.name, d.name_span) {
                            self.duplicate(d.name, d.name_span, first);
                        }
                    }
                    scope.declare(d.name, Kind::Var, d.name_span, Some(v.space));
                    // A variable's type tells a texture handle from other
                    // data; old `.tex` variables (`.tex .u32 t;`) are handles
                    // of any type, so theirs is left unknown.
                    if let Some(x) = scope.names.get_mut(&d.name) {
                        x.ty = (v.space != crate::isa::vocab::StateSpace::Tex).then_some(v.ty);
                    }
                }
            }
            Item::Function(f) => self.declare_function(f, ms),
            Item::Alias(a) => {
                scope.declare(a.alias, Kind::Func, a.span, None);
                if let Some(f) = funcs.get(&a.target).copied() {
                    funcs.insert(a.alias, f);
                }
            }
            Item::Section(s) => {
                for e in &s.entries {
                    if let crate::syntax::SectionEntry::Label(n, sp) = e {
                        scope.declare(*n, Kind::Label, *sp, None);
                    }
                }
            }
            _ => {}
        }
    }

    /// Enter a function (declared or defined) into `ms`.
    pub(super) fn declare_function(&mut self, f: &Function, ms: &mut ModuleScope) {
        let ModuleScope {
            scope,
            funcs,
            defined,
        } = ms;
        if f.body.is_some() {
            if let Some(first) = defined.insert(f.name, f.name_span) {
                self.duplicate(f.name, f.name_span, first);
            }
        }
        scope.declare(f.name, Kind::Func, f.name_span, None);
        // Prefer the definition (it has the parameter names).
        if f.body.is_some() || !funcs.contains_key(&f.name) {
            funcs.insert(f.name, Callee::of(f));
        }
    }

    pub(super) fn duplicate(&mut self, name: Name, span: Span, first: Span) {
        let d = Diagnostic::error(
            codes::DUPLICATE,
            span,
            format!("`{name}` is declared twice in the same scope"),
        )
        .with_label(first, format!("`{name}` was first declared here"));
        self.diags.push(d);
    }

    /// Resolve the names used in the initializers of a module-scope variable.
    pub(super) fn check_initializers(&mut self, v: &VarDecl, ms: &ModuleScope) {
        for d in &v.decls {
            if let Some(init) = &d.init {
                self.init_names(init, ms);
            }
        }
    }

    fn init_names(&mut self, init: &Initializer, ms: &ModuleScope) {
        match init {
            Initializer::Expr(e) => e.for_each_name(&mut |n, sp| {
                if ms.scope.find(n).is_none() && !is_predefined(n.as_str()) {
                    self.diags.push(undeclared(n, sp));
                }
            }),
            Initializer::List { items, .. } => {
                for i in items {
                    self.init_names(i, ms);
                }
            }
            // Sampler fields name enumerated values, not symbols; numbers
            // name nothing.
            Initializer::Field(_) | Initializer::Decimals(_) => {}
        }
    }
}

/// The error for a use of `n`, which nothing declares.
pub(super) fn undeclared(n: Name, span: Span) -> Diagnostic {
    Diagnostic::error(codes::UNDECLARED, span, format!("`{n}` is not declared"))
        .with_note("a name must be declared before its first use in the module")
}

/// Whether a register of type `reg` may stand where the instruction type is `ty`.
pub(super) fn compatible(ty: ScalarType, reg: ScalarType, wider_ok: bool) -> bool {
    let untyped = |t: ScalarType| {
        matches!(
            t,
            ScalarType::B8 | ScalarType::B16 | ScalarType::B32 | ScalarType::B64 | ScalarType::B128
        )
    };
    // `ld`/`st` may use a wider register: any register for an untyped
    // type, an untyped one for any type, an integer one for integer types.
    // ptxas reads an `.f16x2` register as 32 plain bits for an integer
    // type (`add.s32 %r1, %hh1, %hh2`, `ld.u16 %hh1, [a]`; probed), though
    // not for a float one.
    let packed = reg == ScalarType::F16x2 && !ty.is_float();
    let wider = wider_ok
        && reg.bits() > ty.bits()
        && (untyped(reg) || untyped(ty) || packed || (!ty.is_float() && !reg.is_float()));
    let size_ok = reg.bits() == ty.bits() || wider;
    if !size_ok {
        return false;
    }
    // A float register fits only its own float type: ptxas refuses an
    // .f32 register for .f16x2, .bf16x2 or .tf32 and an .f16x2 one for
    // .f32 ("Arguments mismatch"); .bN registers fit any type of their size.
    untyped(ty)
        || untyped(reg)
        || packed
        || (ty.is_float() == reg.is_float() && (!ty.is_float() || ty == reg))
}

/// The scalar type of a `.reg` declaration (`None` for vectors and other spaces).
pub(super) fn reg_type(v: &crate::syntax::VarDecl) -> Option<ScalarType> {
    (v.space == crate::isa::vocab::StateSpace::Reg && v.vector.is_none()).then_some(v.ty)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_range_covers_canonical_indices_below_its_count() {
        let mut s = Scope::default();
        s.add_range(Name::new("%r"), 12, Span::new(0, 1), None);
        let covered = |s: &Scope, t: &str| s.find(Name::new(t)).is_some();
        for yes in ["%r0", "%r1", "%r9", "%r10", "%r11"] {
            assert!(covered(&s, yes), "{yes}");
        }
        for no in [
            "%r",
            "%r12",
            "%r01",
            "%r00",
            "%r+1",
            "%r1a",
            "%rd1",
            "%r99999999999999999999999",
        ] {
            assert!(!covered(&s, no), "{no}");
        }
        // A name declared after a lookup that missed it is found.
        assert!(!covered(&s, "%q"));
        s.names.insert(
            Name::new("%q"),
            Decl {
                kind: Kind::Reg,
                span: Span::new(2, 3),
                ty: None,
                space: None,
            },
        );
        assert!(covered(&s, "%q"));
    }
}
