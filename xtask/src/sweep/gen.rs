//! Case generation from the catalog: well-typed instances of every form over
//! its modifier combinations, the same instances one version or one target
//! too low, and role-wise mutations. Nothing here reads PTX from a corpus.

use std::collections::BTreeSet;

use ptxkit::check::target::{min_ptx_for, Sm};
use ptxkit::isa::vocab::{ScalarType, StateSpace};
use ptxkit::isa::{
    catalog, fill, Arity, Catalog, Dir, Form, FormId, Kinds, ModId, OperandTpl, PtxVersion,
    Requirement, RoleId, RoleSpec, Rule, Shape, SlotKind, SpaceSet,
};

use super::{Case, Rng};

/// The targets every instance is tried on (when it meets their
/// requirements), each with the newest PTX version ptxas knows.
pub const MAIN_TARGETS: &[&str] = &["sm_75", "sm_80", "sm_90a", "sm_100a", "sm_120a"];
/// Further targets, for instances none of the main ones may use and for the
/// "one target too low" cases. All are accepted by ptxas -arch.
pub(super) const MORE_TARGETS: &[&str] = &[
    "sm_86", "sm_89", "sm_90", "sm_100", "sm_100f", "sm_103", "sm_103f", "sm_103a", "sm_107f",
    "sm_107a", "sm_110", "sm_110f", "sm_110a", "sm_120", "sm_120f", "sm_121f", "sm_121a",
];
/// The PTX ISA version cases are written at (ptxas 13.5 accepts it).
pub const NEWEST: PtxVersion = PtxVersion { major: 9, minor: 4 };
/// The newest version ptxas 13.5 knows (`.version 9.5`). An instance that
/// needs a version above [`NEWEST`] and at most this one is tried at the
/// version it needs instead of [`NEWEST`] (see [`top_version`]).
pub const LATEST: PtxVersion = PtxVersion { major: 9, minor: 5 };

/// PTX ISA versions in order (spec release history), for "one below".
const VERSIONS: &[(u8, u8)] = &[
    (1, 0),
    (1, 1),
    (1, 2),
    (1, 3),
    (1, 4),
    (1, 5),
    (2, 0),
    (2, 1),
    (2, 2),
    (2, 3),
    (3, 0),
    (3, 1),
    (3, 2),
    (4, 0),
    (4, 1),
    (4, 2),
    (4, 3),
    (5, 0),
    (6, 0),
    (6, 1),
    (6, 2),
    (6, 3),
    (6, 4),
    (6, 5),
    (7, 0),
    (7, 1),
    (7, 2),
    (7, 3),
    (7, 4),
    (7, 5),
    (7, 6),
    (7, 7),
    (7, 8),
    (8, 0),
    (8, 1),
    (8, 2),
    (8, 3),
    (8, 4),
    (8, 5),
    (8, 6),
    (8, 7),
    (8, 8),
    (9, 0),
    (9, 1),
    (9, 2),
    (9, 3),
    (9, 4),
    (9, 5),
];

fn ver(v: (u8, u8)) -> PtxVersion {
    PtxVersion {
        major: v.0,
        minor: v.1,
    }
}

/// The version before `v` in the release history.
fn version_before(v: PtxVersion) -> Option<PtxVersion> {
    let i = VERSIONS.iter().position(|&x| ver(x) == v)?;
    i.checked_sub(1)
        .and_then(|j| VERSIONS.get(j))
        .map(|&x| ver(x))
}

/// The `-arch` ptxas is run with for a case's target: the name before any
/// `.target` option; ptxas 13.5 no longer generates code for targets below
/// `sm_75` but still checks PTX written for them when compiled for `sm_75`,
/// and it compiles `sm_101*` (renamed `sm_110*` in PTX 9.0) for `sm_110*`.
pub fn arch_for(target: &str) -> String {
    let name = target.split(',').next().unwrap_or(target).trim();
    match Sm::parse(name) {
        Some(s) if s.num < 75 => "sm_75".into(),
        Some(s) if s.num == 101 => name.replacen("101", "110", 1),
        _ => name.to_string(),
    }
}

/// Parse a PTX ISA version `X.Y`.
pub fn parse_version(s: &str) -> Option<PtxVersion> {
    let (a, b) = s.trim().split_once('.')?;
    Some(PtxVersion {
        major: a.parse().ok()?,
        minor: b.parse().ok()?,
    })
}

/// The (target, version) pairs of `--targets LIST` (`sm_70,sm_70@7.8`:
/// an item's own `@X.Y`, else every version of `versions`, else
/// [`NEWEST`]). A pair whose version does not know its target is an error.
pub fn parse_pairs(targets: &str, versions: &[PtxVersion]) -> Result<Vec<Pair>, String> {
    let mut out: Vec<Pair> = Vec::new();
    for item in targets.split(',').map(str::trim).filter(|x| !x.is_empty()) {
        let (t, own) = match item.split_once('@') {
            Some((t, v)) => (
                t,
                vec![parse_version(v).ok_or_else(|| format!("bad version in `{item}`"))?],
            ),
            None if versions.is_empty() => (item, vec![NEWEST]),
            None => (item, versions.to_vec()),
        };
        let sm = Sm::parse(t).ok_or_else(|| format!("unknown target `{t}`"))?;
        for v in own {
            if min_ptx_for(sm).is_none_or(|min| v < min) {
                return Err(format!("PTX {v} does not know target {t}"));
            }
            if v > LATEST {
                return Err(format!("ptxas does not know PTX {v}"));
            }
            let p = (t.to_string(), v);
            if !out.contains(&p) {
                out.push(p);
            }
        }
    }
    if out.is_empty() {
        return Err("no target named".into());
    }
    Ok(out)
}

/// A target and the PTX version it is written at.
pub type Pair = (String, PtxVersion);

/// Number of registers declared per class in the prelude (`%r<N>`).
pub const REGS: usize = 300;

/// Register classes of the prelude: (prefix, declared type, min PTX).
pub const REG_CLASSES: &[(&str, &str)] = &[
    ("%p", ".pred"),
    ("%c", ".b8"),
    ("%h", ".b16"),
    ("%uh", ".u16"),
    ("%sh", ".s16"),
    ("%hf", ".f16"),
    ("%r", ".b32"),
    ("%u", ".u32"),
    ("%s", ".s32"),
    ("%f", ".f32"),
    ("%hh", ".f16x2"),
    ("%rd", ".b64"),
    ("%ud", ".u64"),
    ("%sd", ".s64"),
    ("%fd", ".f64"),
    ("%q", ".b128"),
];

/// The lines before the cases in every file: module-scope variables and
/// handles, a function and a kernel whose body declares registers of
/// every class, a label and a call prototype. One instruction per line
/// follows it, then [`EPILOGUE`].
pub fn prelude(target: &str, version: &str) -> String {
    let b128 = version_ge(version, (8, 3));
    // `.f16x2` registers need sm_53 and PTX 4.2 (older targets, with
    // `--targets`, get a prelude without them).
    let f16x2 = version_ge(version, (4, 2))
        && Sm::parse(target.split(',').next().unwrap_or(target).trim()).is_none_or(|s| s.num >= 53);
    let mut s = format!(
        ".version {version}\n.target {target}\n.address_size 64\n\
         .global .align 16 .b8 gbuf[4096];\n\
         .shared .align 16 .b8 sbuf[4096];\n\
         .const .align 16 .b8 cbuf[4096];\n\
         .global .texref tex0;\n\
         .global .surfref surf0;\n\
         .func sweep_f()\n{{\nret;\n}}\n\
         .visible .entry sweep_k(.param .u64 kp)\n{{\n\
         .local .align 16 .b8 lbuf[256];\n"
    );
    for (p, t) in REG_CLASSES {
        if (*t == ".b128" && !b128) || (*t == ".f16x2" && !f16x2) {
            continue;
        }
        s.push_str(&format!(".reg {t} {p}<{REGS}>;\n"));
    }
    s.push_str("sweep_proto: .callprototype ()_ ();\n$Lsw:\n");
    s
}

/// The lines after the cases.
pub const EPILOGUE: &str = "ret;\n}\n";

fn version_ge(v: &str, want: (u8, u8)) -> bool {
    let mut it = v.split('.').map(|x| x.parse::<u8>().unwrap_or(0));
    let have = (it.next().unwrap_or(0), it.next().unwrap_or(0));
    have >= want
}

/// One written modifier of an instance.
#[derive(Clone, Debug)]
struct Choice {
    id: Option<ModId>,
    text: String,
    /// The group whose slot it fills.
    group: Option<ptxkit::isa::GroupId>,
}

/// An operand as built, before printing.
#[derive(Clone, Debug)]
pub(super) enum Op {
    Text(String),
    Bracket(Vec<Op>),
    Vector(Vec<Op>),
    Pair(Box<Op>, Box<Op>),
}

impl Op {
    fn render(&self, out: &mut String) {
        match self {
            Op::Text(t) => out.push_str(t),
            Op::Bracket(v) | Op::Vector(v) => {
                out.push(if matches!(self, Op::Bracket(_)) {
                    '['
                } else {
                    '{'
                });
                for (i, o) in v.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    o.render(out);
                }
                out.push(if matches!(self, Op::Bracket(_)) {
                    ']'
                } else {
                    '}'
                });
            }
            Op::Pair(a, b) => {
                a.render(out);
                out.push('|');
                b.render(out);
            }
        }
    }

    pub(super) fn at_mut(&mut self, path: &[usize]) -> Option<&mut Op> {
        let Some((&first, rest)) = path.split_first() else {
            return Some(self);
        };
        match self {
            Op::Bracket(v) | Op::Vector(v) => v.get_mut(first)?.at_mut(rest),
            Op::Pair(a, b) => {
                if first == 0 {
                    a.at_mut(rest)
                } else {
                    b.at_mut(rest)
                }
            }
            Op::Text(_) => None,
        }
    }
}

/// A place in an instance's operands a mutation may replace.
#[derive(Clone, Debug)]
pub(super) struct Site {
    /// Operand index, then the path inside brackets/vectors/pairs.
    pub(super) path: Vec<usize>,
    pub(super) role: &'static str,
    pub(super) spec: &'static RoleSpec,
    pub(super) ty: Option<ScalarType>,
    pub(super) arity: usize,
    /// Written as a brace vector (even of one element: a fixed count or a
    /// `@count` row gives its size).
    pub(super) vector: bool,
    /// Inside `[ ]` as the address.
    pub(super) addr: bool,
    /// For an address, the state spaces it may be in (empty: generic).
    pub(super) spaces: SpaceSet,
}

/// A well-typed instance of a form.
pub(super) struct Instance {
    pub(super) form: FormId,
    mods: Vec<Choice>,
    pub(super) ops: Vec<Op>,
    pub(super) sites: Vec<Site>,
    pub(super) unspec: bool,
    /// Everything it needs: section, form and gates of its modifiers.
    pub(super) reqs: Vec<Requirement>,
}

impl Instance {
    /// The modifiers as written (`.lo`, `.u32`), in the form's order.
    pub(super) fn mod_texts(&self) -> Vec<String> {
        self.mods.iter().map(|m| m.text.to_string()).collect()
    }

    /// The instruction with `mods` written in place of its modifiers.
    pub(super) fn text_with(&self, cat: &Catalog, mods: &[String]) -> String {
        let f = cat.form(self.form).expect("form");
        let mut s = cat
            .opcode(f.opcode)
            .map(|o| o.name.to_string())
            .unwrap_or_default();
        for m in mods {
            s.push_str(m);
        }
        for (i, o) in self.ops.iter().enumerate() {
            s.push_str(if i == 0 { " " } else { ", " });
            o.render(&mut s);
        }
        s.push(';');
        s
    }

    pub(super) fn text(&self, cat: &Catalog, ops: &[Op]) -> String {
        let f = cat.form(self.form).expect("form");
        let mut s = cat
            .opcode(f.opcode)
            .map(|o| o.name.to_string())
            .unwrap_or_default();
        for m in &self.mods {
            s.push_str(&m.text);
        }
        for (i, o) in ops.iter().enumerate() {
            s.push_str(if i == 0 { " " } else { ", " });
            o.render(&mut s);
        }
        s.push(';');
        s
    }
}

/// Per-instance register numbering: each operand takes fresh registers.
struct Regs {
    next: Vec<usize>,
    /// Typed registers (`.s32` for an `.s32` role) rather than untyped ones.
    exact: bool,
}

impl Regs {
    fn take(&mut self, prefix: &str) -> String {
        let i = REG_CLASSES
            .iter()
            .position(|(p, _)| *p == prefix)
            .unwrap_or(0);
        let n = self.next.get(i).copied().unwrap_or(1);
        if let Some(x) = self.next.get_mut(i) {
            *x = (n + 1).min(REGS - 1);
        }
        format!("{prefix}{n}")
    }
}

/// The register class for a value of type `ty`.
pub(super) fn reg_class(ty: ScalarType, exact: bool) -> &'static str {
    use ScalarType::*;
    match (ty, exact) {
        (Pred, _) => "%p",
        (F16, true) => "%hf",
        (U16, true) => "%uh",
        (S16, true) => "%sh",
        (F32, true) => "%f",
        (F16x2, true) => "%hh",
        (U32, true) => "%u",
        (S32, true) => "%s",
        (F64, true) => "%fd",
        (U64, true) => "%ud",
        (S64, true) => "%sd",
        (TexRef | SamplerRef | SurfRef, _) => "%rd",
        _ => match ty.bits() {
            0..=8 => "%c",
            16 => "%h",
            32 => "%r",
            64 => "%rd",
            _ => "%q",
        },
    }
}

/// A register of another width than `ty` (half, or double for 8 bits).
fn wrong_width_class(ty: ScalarType) -> Option<&'static str> {
    Some(match ty.bits() {
        8 => "%h",
        16 => "%r",
        32 => "%h",
        64 => "%r",
        128 => "%rd",
        _ => return None,
    })
}

fn imm_for(ty: Option<ScalarType>, spec: Option<&RoleSpec>, values: Option<&[&str]>) -> String {
    if let Some(v) = values.and_then(|v| v.first()) {
        return (*v).to_string();
    }
    if let Some(s) = spec {
        if let Some((lo, hi)) = s.range {
            let m = i64::from(s.multiple.max(1));
            let mut v = lo.max(0).min(hi);
            if v == 0 && hi >= m && lo <= m {
                v = m.min(hi);
            }
            while v % m != 0 && v < hi {
                v += 1;
            }
            return v.to_string();
        }
        if s.multiple > 1 {
            return s.multiple.to_string();
        }
    }
    match ty {
        Some(ScalarType::F64) => "0d3FF0000000000000".into(),
        Some(t) if t.is_float() => "0f3F800000".into(),
        _ => "1".into(),
    }
}

/// Whether the written modifiers include one that `k` accepts.
fn has_kind(cat: &Catalog, mods: &[Choice], k: SlotKind) -> bool {
    mods.iter()
        .any(|c| c.id.is_some_and(|m| cat.slot_accepts(k, m)))
}

/// The type of role `spec` on an instance, as the checker resolves it
/// ([`fill::role_type`]).
fn resolve_type(
    cat: &Catalog,
    form: &Form,
    spec: &RoleSpec,
    mods: &[Choice],
) -> Option<ScalarType> {
    fill::role_type(cat, form, &written(mods), spec)
}

fn vec_count(spelling: &str) -> Option<usize> {
    spelling
        .strip_prefix(".v")
        .or_else(|| spelling.strip_prefix(".x"))
        .and_then(|n| n.parse().ok())
}

/// Whether the role is a brace vector on this instance: a count of one
/// from `vec=N` or a `@count` row is still written `{%r1}` (ptxas wants
/// the braces there), a scalar role never is.
fn resolve_vector(spec: &RoleSpec, mods: &[Choice], arity: usize) -> bool {
    match spec.arity {
        Arity::Scalar => false,
        Arity::Fixed(_) => true,
        Arity::Table(rows) => rows
            .iter()
            .any(|(_, ms)| ms.iter().all(|m| mods.iter().any(|c| c.id == Some(*m)))),
        _ => arity > 1,
    }
}

fn resolve_arity(cat: &Catalog, spec: &RoleSpec, mods: &[Choice]) -> usize {
    match spec.arity {
        Arity::Any | Arity::List | Arity::Scalar => 1,
        Arity::Fixed(n) => usize::from(n),
        Arity::Group(g) | Arity::GroupOrScalar(g) => mods
            .iter()
            .find_map(|c| {
                let m = c.id?;
                if cat.slot_accepts(SlotKind::Group(g), m) {
                    vec_count(cat.mod_name(m))
                } else {
                    None
                }
            })
            .unwrap_or(1),
        Arity::Table(rows) => rows
            .iter()
            .find(|(_, ms)| ms.iter().all(|m| mods.iter().any(|c| c.id == Some(*m))))
            .map(|(n, _)| usize::from(*n))
            .unwrap_or(1),
    }
}

/// The prelude's variables and the state space each lives in.
const SPACE_VARS: &[(&str, StateSpace)] = &[
    ("gbuf", StateSpace::Global),
    ("sbuf", StateSpace::Shared),
    ("cbuf", StateSpace::Const),
    ("lbuf", StateSpace::Local),
];

/// Whether an address in state space `s` may name a variable declared in
/// `v` (the `.shared` sub-spaces name `.shared` variables).
fn space_holds(s: StateSpace, v: StateSpace) -> bool {
    match s {
        StateSpace::Shared | StateSpace::SharedCta | StateSpace::SharedCluster => {
            v == StateSpace::Shared
        }
        _ => s == v,
    }
}

/// The state spaces an address of `spec` may be in on an instance with
/// modifiers `mods`, as the checker resolves them: the role's `space=`,
/// else the state space written in the address's position (`ordinal`th
/// bracket), else `.shared` for a `shared` role; empty: generic.
fn address_spaces(cat: &Catalog, spec: &RoleSpec, mods: &[Choice], ordinal: usize) -> SpaceSet {
    let said = spec.address_spaces(|g| {
        mods.iter()
            .find(|c| c.group == Some(g))
            .and_then(|c| c.id)
            .and_then(|m| cat.mod_space(m))
    });
    let s = said.unwrap_or_else(|| {
        mods.iter()
            .filter_map(|c| c.id.and_then(|m| cat.mod_space(m)))
            .nth(ordinal)
            .map_or(SpaceSet::default(), |s| SpaceSet::default().with(s))
    });
    if s.is_empty() && spec.kinds.has(Kinds::SHARED) {
        SpaceSet::default().with(StateSpace::Shared)
    } else {
        s
    }
}

/// A prelude variable an address in `spaces` may name (`None`: none
/// lives there, e.g. `.param`); for a generic address, `gbuf`.
fn var_in(spaces: SpaceSet) -> Option<&'static str> {
    if spaces.is_empty() {
        return Some("gbuf");
    }
    SPACE_VARS
        .iter()
        .find(|(_, v)| spaces.iter().any(|s| space_holds(s, *v)))
        .map(|(n, _)| *n)
}

/// A prelude variable an address in `spaces` may not name (`None` for a
/// generic address).
fn var_not_in(spaces: SpaceSet) -> Option<&'static str> {
    if spaces.is_empty() {
        return None;
    }
    SPACE_VARS
        .iter()
        .find(|(_, v)| !spaces.iter().any(|s| space_holds(s, *v)))
        .map(|(n, _)| *n)
}

/// The state space a modifier names, as the prelude variable living there.
fn space_var(spelling: &str) -> Option<&'static str> {
    Some(match spelling {
        ".global" => "gbuf",
        ".shared" | ".shared::cta" | ".shared::cluster" => "sbuf",
        ".const" => "cbuf",
        ".local" => "lbuf",
        _ => return None,
    })
}

struct Builder<'a> {
    cat: &'a Catalog,
    form: &'a Form,
    section_values: &'a [(&'static str, &'static [&'static str])],
    mods: Vec<Choice>,
    regs: Regs,
    sites: Vec<Site>,
    unspec: bool,
    /// Present/absent choice for free optional operands.
    optional_on: bool,
    /// Use a variable rather than a register in addresses.
    var_addr: bool,
    /// The variable of the instruction's state space, if it names one.
    space: Option<&'static str>,
    /// Bracketed operands built so far.
    brackets: usize,
}

impl Builder<'_> {
    fn values_for(&self, role: &str) -> Option<&'static [&'static str]> {
        self.section_values
            .iter()
            .find(|(r, _)| *r == role)
            .map(|(_, v)| *v)
    }

    /// A fallback type for a role with no description: the first data type
    /// written on the instruction.
    fn first_type(&self) -> Option<ScalarType> {
        self.mods.iter().find_map(|c| {
            let m = c.id?;
            ScalarType::from_spelling(self.cat.mod_name(m))
        })
    }

    fn last_type(&self) -> Option<ScalarType> {
        self.mods.iter().rev().find_map(|c| {
            let m = c.id?;
            ScalarType::from_spelling(self.cat.mod_name(m))
        })
    }

    fn scalar(&mut self, spec: &RoleSpec, ty: Option<ScalarType>, role: &str) -> String {
        let k = spec.kinds;
        if k.has(Kinds::REG) {
            let t = ty.unwrap_or(ScalarType::B32);
            let exact = self.regs.exact;
            return self.regs.take(reg_class(t, exact));
        }
        if k.has(Kinds::IMM) {
            return imm_for(ty, Some(spec), self.values_for(role));
        }
        if k.has(Kinds::SREG) {
            return "%tid.x".into();
        }
        if k.has(Kinds::VAR) {
            return self.space.unwrap_or("gbuf").into();
        }
        if k.has(Kinds::ADDR) {
            return self.address(None, SpaceSet::default());
        }
        if k.has(Kinds::LABEL) || k.has(Kinds::TARGETS) {
            return "$Lsw".into();
        }
        if k.has(Kinds::FUNC) {
            return "sweep_f".into();
        }
        if k.has(Kinds::PROTO) {
            return "sweep_proto".into();
        }
        if k.has(Kinds::HANDLE) {
            return if role.contains("surf") || self.form.name.starts_with("su") {
                "surf0".into()
            } else {
                "tex0".into()
            };
        }
        if k.has(Kinds::SINK) {
            return "_".into();
        }
        let t = ty.unwrap_or(ScalarType::B32);
        self.regs.take(reg_class(t, false))
    }

    /// An address: a variable or a 64-bit register, or, when the role
    /// gives addresses a type (`@operand taddr in addr .u32`), a register
    /// of that type.
    fn address(&mut self, ty: Option<ScalarType>, spaces: SpaceSet) -> String {
        if let Some(t) = ty {
            let exact = self.regs.exact;
            return self.regs.take(reg_class(t, exact));
        }
        match var_in(spaces) {
            Some(v) if self.var_addr => v.to_string(),
            _ => self.regs.take("%rd"),
        }
    }

    /// An operand for `spec` (a vector when its arity says so).
    fn value(&mut self, tpl: &OperandTpl, spec_id: RoleId, path: Vec<usize>, addr: bool) -> Op {
        let Some(spec) = self.cat.role(spec_id) else {
            self.unspec = true;
            if addr {
                return Op::Text(self.regs.take("%rd"));
            }
            if let Some(v) = self.values_for(tpl.role) {
                return Op::Text(v.first().copied().unwrap_or("1").to_string());
            }
            let t = self.first_type().unwrap_or(ScalarType::B32);
            return Op::Text(self.regs.take(reg_class(t, false)));
        };
        // A role whose types the written modifiers do not settle (`cvt`'s
        // `a` on a form writing `.f16.f32` as literals) takes the last
        // written data type when read, the first when written: the order
        // of `cvt.dtype.atype`.
        let ty = resolve_type(self.cat, self.form, spec, &self.mods).or_else(|| {
            if spec.types.is_empty() {
                None
            } else if spec.dir == Dir::Out {
                self.first_type()
            } else {
                self.last_type()
            }
        });
        let arity = resolve_arity(self.cat, spec, &self.mods);
        let vector = resolve_vector(spec, &self.mods, arity);
        let spaces = if addr {
            address_spaces(self.cat, spec, &self.mods, self.brackets.saturating_sub(1))
        } else {
            SpaceSet::default()
        };
        self.sites.push(Site {
            path,
            role: spec.role,
            spec,
            ty,
            arity,
            vector,
            addr,
            spaces,
        });
        if addr && spec.kinds.has(Kinds::ADDR) {
            return Op::Text(self.address(ty, spaces));
        }
        if vector {
            let items = (0..arity)
                .map(|_| Op::Text(self.scalar(spec, ty, tpl.role)))
                .collect();
            return Op::Vector(items);
        }
        Op::Text(self.scalar(spec, ty, tpl.role))
    }

    fn present(&self, tpl: &OperandTpl) -> bool {
        if !tpl.optional {
            return true;
        }
        match tpl.when {
            Some(k) => has_kind(self.cat, &self.mods, k),
            None => self.optional_on,
        }
    }

    /// The written items of a bracket or vector template (optional ones
    /// only when present); `addr` when the bracket holds one address.
    fn items(&mut self, items: &[OperandTpl], index: usize, addr: bool) -> Vec<Op> {
        let mut v = Vec::new();
        for it in items {
            if it.optional && !self.present(it) {
                continue;
            }
            let p = vec![index, v.len()];
            let o = match it.shape {
                Shape::Value => self.value(it, it.spec, p, addr),
                _ => self.operand(it, index),
            };
            v.push(o);
        }
        v
    }

    fn operand(&mut self, tpl: &OperandTpl, index: usize) -> Op {
        match tpl.shape {
            Shape::Literal(s) => Op::Text(s.to_string()),
            Shape::Value => self.value(tpl, tpl.spec, vec![index], false),
            Shape::Pair {
                optional,
                second_spec,
                second,
                ..
            } => {
                let before = self.sites.len();
                let a = self.value(tpl, tpl.spec, vec![index, 0], false);
                if optional && !self.optional_on {
                    if let Some(s) = self.sites.get_mut(before) {
                        s.path.truncate(1);
                    }
                    return a;
                }
                let t2 = OperandTpl {
                    role: second,
                    ..*tpl
                };
                let b = self.value(&t2, second_spec, vec![index, 1], false);
                Op::Pair(Box::new(a), Box::new(b))
            }
            Shape::Bracket(items) => {
                self.brackets += 1;
                Op::Bracket(self.items(items, index, items.len() == 1))
            }
            // `{a}`: the braces are the one role's vector (`a` with its
            // `@count`), not a vector around it.
            Shape::Vector([only]) if matches!(only.shape, Shape::Value) && !only.optional => {
                self.value(only, only.spec, vec![index], false)
            }
            Shape::Vector(items) => Op::Vector(self.items(items, index, false)),
            Shape::List => {
                self.unspec = true;
                Op::Text("()".into())
            }
        }
    }
}

/// The alternatives of each slot of a form: `None` for an optional slot
/// left out.
fn slot_alternatives(cat: &Catalog, form: &Form) -> Vec<Vec<Option<Choice>>> {
    form.slots
        .iter()
        .map(|s| {
            let mut alts: Vec<Option<Choice>> = Vec::new();
            if s.optional {
                alts.push(None);
            }
            match s.kind {
                SlotKind::Lit(m) => alts.push(Some(Choice {
                    id: Some(m),
                    text: cat.mod_name(m).to_string(),
                    group: None,
                })),
                SlotKind::Group(gid) => {
                    if let Some(g) = cat.group(gid) {
                        for &m in g.alts {
                            alts.push(Some(Choice {
                                id: Some(m),
                                text: cat.mod_name(m).to_string(),
                                group: Some(gid),
                            }));
                        }
                        for p in g.patterns {
                            alts.push(Some(Choice {
                                id: None,
                                text: pattern_instance(p),
                                group: Some(gid),
                            }));
                        }
                    }
                }
            }
            alts
        })
        .collect()
}

/// The first spelling a pattern matches (`.b[0-7][0-7]` → `.b00`).
fn pattern_instance(p: &str) -> String {
    let mut out = String::new();
    let mut it = p.chars();
    while let Some(c) = it.next() {
        if c == '[' {
            let lo = it.next().unwrap_or('0');
            let _ = (it.next(), it.next(), it.next());
            out.push(lo);
        } else {
            out.push(c);
        }
    }
    out
}

/// Modifier combinations of a form: all of them when few, else a sample
/// that still writes every alternative of every slot at least once.
fn combinations(alts: &[Vec<Option<Choice>>], cap: usize, rng: &mut Rng) -> Vec<Vec<usize>> {
    let total = alts
        .iter()
        .try_fold(1usize, |acc, a| acc.checked_mul(a.len().max(1)));
    if let Some(t) = total.filter(|&t| t <= cap) {
        let mut out = Vec::with_capacity(t);
        for mut i in 0..t {
            let mut c = Vec::with_capacity(alts.len());
            for a in alts {
                let n = a.len().max(1);
                c.push(i % n);
                i /= n;
            }
            out.push(c);
        }
        return out;
    }
    let widest = alts.iter().map(Vec::len).max().unwrap_or(1);
    let mut seen: BTreeSet<Vec<usize>> = BTreeSet::new();
    let mut out = Vec::new();
    // Coverage: row k writes alternative k (shifted per slot) of every slot.
    let offsets: Vec<usize> = alts.iter().map(|a| rng.below(a.len().max(1))).collect();
    for k in 0..widest {
        let c: Vec<usize> = alts
            .iter()
            .zip(&offsets)
            .map(|(a, o)| (k + o) % a.len().max(1))
            .collect();
        if seen.insert(c.clone()) {
            out.push(c);
        }
    }
    let mut guard = 0;
    while out.len() < cap.max(widest) && guard < cap * 4 {
        guard += 1;
        let c: Vec<usize> = alts.iter().map(|a| rng.below(a.len().max(1))).collect();
        if seen.insert(c.clone()) {
            out.push(c);
        }
    }
    out
}

/// The requirements an instance must meet.
fn requirements(cat: &Catalog, id: FormId, form: &Form, mods: &[Choice]) -> Vec<Requirement> {
    let mut reqs = Vec::new();
    if let Some(s) = cat.section_of(id) {
        reqs.push(s.req);
        for g in s.gates {
            if mods
                .iter()
                .any(|c| c.id.is_some_and(|m| g.mods.contains(&m)))
            {
                reqs.push(g.req);
            }
        }
    }
    reqs.push(form.req);
    reqs.retain(|r| !r.is_empty());
    reqs
}

/// Whether target `t` at the newest version meets every requirement's
/// target part.
pub(super) fn target_meets(t: &str, reqs: &[Requirement]) -> bool {
    let Some(have) = Sm::parse(t) else {
        return false;
    };
    reqs.iter().all(|r| match r.sm {
        None | Some("all") => true,
        Some(sm) => sm
            .split('|')
            .filter_map(|item| Sm::parse(item.split('@').next().unwrap_or(item)))
            .any(|want| have.satisfies(want)),
    })
}

pub(super) fn max_ptx(reqs: &[Requirement]) -> Option<PtxVersion> {
    reqs.iter().filter_map(|r| r.ptx).max()
}

/// The version an instance is tried at when no upper bound applies:
/// [`NEWEST`], or the version the instance needs when that is newer but
/// still known to ptxas (at most [`LATEST`]). Cases of other instances
/// keep [`NEWEST`], so their cached verdicts stay valid.
fn top_version(reqs: &[Requirement]) -> PtxVersion {
    max_ptx(reqs)
        .filter(|&v| v > NEWEST && v <= LATEST)
        .unwrap_or(NEWEST)
}

/// The version an instance is valid at on target `t` (which meets its
/// targets): the newest, or, where an upper bound (`until_ptx`/`until_sm`)
/// removes it on `t`, the version just below the bound, if `t` knows it
/// and it is not below the instance's own minimum. `None`: never valid on
/// `t` (a bound with no version, or no version left between the bounds).
pub(super) fn valid_version(t: &str, reqs: &[Requirement]) -> Option<PtxVersion> {
    let have = Sm::parse(t)?;
    let top = top_version(reqs);
    let mut v = top;
    for r in reqs
        .iter()
        .filter(|r| r.has_until() && in_bound_option(r, reqs))
    {
        let sm_reached = r
            .until_sm
            .and_then(Sm::parse)
            .is_none_or(|u| have.num >= u.num);
        if !sm_reached {
            continue;
        }
        let Some(u) = r.until_ptx else {
            // No version bound: never valid on `t` in the module's mode.
            return None;
        };
        if v >= u {
            v = version_before(u)?;
        }
    }
    if v != top && min_ptx_for(have).is_none_or(|min| v < min) {
        return None;
    }
    if max_ptx(reqs).is_some_and(|need| v < need) {
        return None;
    }
    Some(v)
}

fn sm_order(t: &str) -> (u32, u8) {
    let s = Sm::parse(t);
    (
        s.map(|s| s.num).unwrap_or(0),
        match s.map(|s| s.suffix) {
            Some(ptxkit::check::target::Suffix::Family) => 1,
            Some(ptxkit::check::target::Suffix::Arch) => 2,
            _ => 0,
        },
    )
}

/// Generation knobs.
pub struct GenOpts {
    pub seed: u64,
    /// Modifier combinations per form at most (coverage rows may exceed it).
    pub combos: usize,
    /// Instances per form that get role-wise mutations.
    pub mutate: usize,
    pub only: Option<String>,
    /// `--targets`: try instances on these (target, version) pairs instead
    /// of the main targets at the newest version.
    pub pairs: Option<Vec<Pair>>,
    /// `--also-targets`: after the default cases of each instance, its
    /// `valid`, `removed` and `version-low` cases on these pairs (no
    /// mutations or rule-broken cases, so the default cases stay as they
    /// are).
    pub also: Option<Vec<Pair>>,
    /// `--operands N`: instead of the cases above, the operand dimension
    /// ([`super::operands`]) of the first N instances of each form.
    pub operands: usize,
    /// `--order N`: instead of the cases above, the modifier-order
    /// dimension ([`super::order`]) of the first N instances of each form.
    pub order: usize,
}

/// Every case, in a deterministic order.
pub fn generate(o: &GenOpts) -> Vec<Case> {
    let cat = catalog();
    let mut rng = Rng(o.seed.max(1));
    let mut cases = Vec::new();
    for (id, form) in cat.forms() {
        let root = cat.opcode(form.opcode).map(|x| x.name).unwrap_or("");
        if let Some(only) = &o.only {
            if only != root && only != form.name {
                continue;
            }
        }
        let section = cat.section_of(id);
        let values = section.map(|s| s.operand_values).unwrap_or(&[]);
        let rules = section.map(|s| s.rules).unwrap_or(&[]);
        let alts = slot_alternatives(cat, form);
        let chosen = |combo: &[usize]| -> Vec<Choice> {
            combo
                .iter()
                .zip(&alts)
                .filter_map(|(&i, a)| a.get(i).cloned().flatten())
                .collect()
        };
        // Valid instances keep inside the section's `@rule`s: the sample,
        // topped up from a larger pool when rules strike some out. Each
        // rule gets up to two instances that break it and no other.
        let mut combos = combinations(&alts, o.combos, &mut rng);
        let mut broken: Vec<(usize, Vec<usize>)> = Vec::new();
        if !rules.is_empty() {
            let pool = combinations(&alts, o.combos * 8, &mut rng);
            let mut seen: BTreeSet<Vec<usize>> = BTreeSet::new();
            let mut valid = Vec::new();
            for c in combos.into_iter().chain(pool) {
                if !seen.insert(c.clone()) {
                    continue;
                }
                let b = broken_rules(cat, form, rules, &chosen(&c));
                match b.as_slice() {
                    [] if valid.len() < o.combos => valid.push(c),
                    [r] if broken.iter().filter(|(x, _)| x == r).count() < 2 => {
                        broken.push((*r, c))
                    }
                    _ => {}
                }
            }
            combos = valid;
        }
        let build = |n: usize, combo: &[usize]| -> Instance {
            let mods = chosen(combo);
            let space = mods.iter().find_map(|c| space_var(&c.text));
            let mut b = Builder {
                cat,
                form,
                section_values: values,
                mods,
                regs: Regs {
                    next: vec![1; REG_CLASSES.len()],
                    exact: n % 2 == 1,
                },
                sites: Vec::new(),
                unspec: false,
                optional_on: n.is_multiple_of(2),
                var_addr: n % 3 == 2,
                space,
                brackets: 0,
            };
            let mut ops = Vec::new();
            for tpl in form.operands {
                if !b.present(tpl) {
                    continue;
                }
                let idx = ops.len();
                ops.push(b.operand(tpl, idx));
            }
            Instance {
                form: id,
                reqs: requirements(cat, id, form, &b.mods),
                mods: b.mods,
                ops,
                sites: b.sites,
                unspec: b.unspec,
            }
        };
        if o.operands > 0 {
            for (n, combo) in combos.iter().enumerate().take(o.operands) {
                super::operands::emit(cat, &build(n, combo), &mut rng, &mut cases);
            }
            continue;
        }
        if o.order > 0 {
            for (n, combo) in combos.iter().enumerate().take(o.order) {
                super::order::emit(cat, &build(n, combo), &mut rng, &mut cases);
            }
            continue;
        }
        for (n, combo) in combos.iter().enumerate() {
            let inst = build(n, combo);
            // Long instructions (matrix fragments of 64 and more registers)
            // are mutated on their first instance only, to keep the record
            // small.
            let long = inst.text(cat, &inst.ops).len() > 300;
            let mutate = n < o.mutate && (n == 0 || !long);
            match &o.pairs {
                Some(p) => emit_at(cat, &inst, mutate, &mut rng, &mut cases, p),
                None => emit(cat, &inst, mutate, &mut rng, &mut cases),
            }
            if let Some(p) = &o.also {
                emit_at(cat, &inst, false, &mut rng, &mut cases, p);
            }
        }
        for (n, (_, combo)) in broken.iter().enumerate() {
            let inst = build(n, combo);
            match &o.pairs {
                Some(p) => emit_broken_at(cat, &inst, &mut cases, p),
                None => emit_broken(cat, &inst, &mut cases),
            }
        }
    }
    cases
}

pub(super) fn push(
    cases: &mut Vec<Case>,
    inst: &Instance,
    target: &str,
    version: PtxVersion,
    kind: String,
    text: String,
) {
    // A form that needs a `.target` option the module would not otherwise
    // be in (`opt=texmode_independent`) is tried in a module declaring it.
    let data = ptxkit::check::module_data::data();
    let mut target = target.to_string();
    for opt in inst.reqs.iter().filter_map(|r| r.opt) {
        if !data.option_holds(opt, 0) && !target.contains(opt) {
            target = format!("{target}, {opt}");
        }
    }
    cases.push(Case {
        target,
        version: version.to_string(),
        kind,
        unspec: inst.unspec,
        form: inst.form.0,
        text,
    });
}

/// The written modifiers of an instance, for the catalog's shared
/// evaluation of rule atoms and role types (the checker's own).
fn written(mods: &[Choice]) -> fill::WrittenMods {
    mods.iter()
        .filter_map(|c| {
            c.id.map(|id| fill::Written {
                id,
                group: c.group,
                placed: true,
            })
        })
        .collect()
}

/// Which of `rules` the written modifiers `mods` of an instance of `form`
/// break (their indices), judged exactly as the checker does
/// ([`fill::atom_holds`]).
fn broken_rules(cat: &Catalog, form: &Form, rules: &[Rule], mods: &[Choice]) -> Vec<usize> {
    let w = written(mods);
    rules
        .iter()
        .enumerate()
        .filter(|(_, r)| r.broken(|a| fill::atom_holds(cat, form, &w, a)).is_some())
        .map(|(k, _)| k)
        .collect()
}

/// An instance that breaks one `@rule` of its section: tried on the first
/// target that meets it, at the newest version (its [`top_version`]).
fn emit_broken(cat: &Catalog, inst: &Instance, cases: &mut Vec<Case>) {
    if max_ptx(&inst.reqs).is_some_and(|v| v > LATEST) {
        return;
    }
    let target = MAIN_TARGETS
        .iter()
        .chain(MORE_TARGETS)
        .copied()
        .find(|t| target_meets(t, &inst.reqs));
    if let Some(t) = target {
        let Some(v) = valid_version(t, &inst.reqs) else {
            return;
        };
        let text = inst.text(cat, &inst.ops);
        push(cases, inst, t, v, "rule-broken".into(), text);
    }
}

/// The valid, too-low and mutated cases of one instance.
fn emit(cat: &Catalog, inst: &Instance, mutate: bool, rng: &mut Rng, cases: &mut Vec<Case>) {
    let text = inst.text(cat, &inst.ops);
    let need_ptx = max_ptx(&inst.reqs);
    let mut targets: Vec<&str> = MAIN_TARGETS
        .iter()
        .copied()
        .filter(|t| target_meets(t, &inst.reqs))
        .collect();
    if targets.is_empty() {
        if let Some(t) = MORE_TARGETS
            .iter()
            .copied()
            .find(|t| target_meets(t, &inst.reqs))
        {
            targets.push(t);
        }
    }
    let top = top_version(&inst.reqs);
    let newest_ok = need_ptx.is_none_or(|v| v <= LATEST);
    // Where an upper bound removes the instance at the newest version, it
    // is valid (if at all) just below the bound, and `removed` (ptxas must
    // reject it) at the newest.
    let mut valid_at: Vec<(&str, PtxVersion)> = Vec::new();
    if newest_ok {
        for t in &targets {
            let v = valid_version(t, &inst.reqs);
            if let Some(v) = v {
                push(cases, inst, t, v, "valid".into(), text.clone());
                valid_at.push((t, v));
            }
            if v != Some(top) {
                push(cases, inst, t, top, "removed".into(), text.clone());
            }
        }
    }
    // One version too low, on the lowest target that meets the instance and
    // that the lower version still knows.
    if let Some(low) = need_ptx.and_then(version_before) {
        let t = targets.iter().chain(MORE_TARGETS).copied().find(|t| {
            target_meets(t, &inst.reqs)
                && Sm::parse(t)
                    .and_then(min_ptx_for)
                    .is_some_and(|min| min <= low)
        });
        if let Some(t) = t {
            push(cases, inst, t, low, "version-low".into(), text.clone());
        }
    }
    // One target too low: the highest target below the requirement.
    let need_num = inst
        .reqs
        .iter()
        .filter_map(|r| r.sm)
        .flat_map(|s| s.split('|'))
        .filter_map(|item| Sm::parse(item.split('@').next().unwrap_or(item)))
        .map(|s| s.num)
        .max();
    if let Some(num) = need_num {
        let low = MAIN_TARGETS
            .iter()
            .chain(MORE_TARGETS)
            .copied()
            .filter(|t| Sm::parse(t).is_some_and(|s| s.num <= num) && !target_meets(t, &inst.reqs))
            .max_by_key(|t| sm_order(t));
        if let Some(t) = low {
            push(cases, inst, t, top, "target-low".into(), text.clone());
        }
    }
    if !mutate || valid_at.is_empty() || !newest_ok || inst.unspec {
        return;
    }
    let (target, version) = valid_at
        .get(rng.below(valid_at.len()))
        .copied()
        .unwrap_or(("sm_90a", top));
    emit_mutations(cat, inst, target, version, cases);
}

/// Where an instance stands on one (target, version) pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum At {
    Valid,
    /// Past an upper bound (`until_ptx`/`until_sm`).
    Removed,
    /// The target meets it, the version is below its requirement.
    VersionLow,
    /// The target does not meet it.
    Unmet,
}

fn status_at(t: &str, v: PtxVersion, reqs: &[Requirement]) -> At {
    let Some(have) = Sm::parse(t) else {
        return At::Unmet;
    };
    if !target_meets(t, reqs) {
        return At::Unmet;
    }
    if max_ptx(reqs).is_some_and(|need| need > v) {
        return At::VersionLow;
    }
    let removed = reqs
        .iter()
        .filter(|r| r.has_until() && in_bound_option(r, reqs))
        .any(|r| {
            r.until_sm
                .and_then(Sm::parse)
                .is_none_or(|u| have.num >= u.num)
                && r.until_ptx.is_none_or(|u| v >= u)
        });
    if removed {
        At::Removed
    } else {
        At::Valid
    }
}

/// Whether the module an instance is tried in (the default `.target`
/// options plus its forms' `opt=`, as [`push`] writes it) is in the option
/// of `r`'s upper bound (`until_opt`; a bound without one always is).
fn in_bound_option(r: &Requirement, reqs: &[Requirement]) -> bool {
    let Some(u) = r.until_opt else {
        return true;
    };
    let data = ptxkit::check::module_data::data();
    let opts = reqs
        .iter()
        .filter_map(|q| q.opt)
        .filter_map(|o| data.option_index(o))
        .fold(0u32, |a, k| a | 1u32.checked_shl(k as u32).unwrap_or(0));
    data.option_holds(u, opts)
}

/// `--targets`: the cases of one instance on the named pairs: `valid` on
/// every pair that meets it, `removed` where an upper bound has passed,
/// one `version-low` on the highest version below its requirement among
/// pairs whose target meets it, and mutations on one valid pair.
fn emit_at(
    cat: &Catalog,
    inst: &Instance,
    mutate: bool,
    rng: &mut Rng,
    cases: &mut Vec<Case>,
    pairs: &[Pair],
) {
    let text = inst.text(cat, &inst.ops);
    let mut valid_at: Vec<&Pair> = Vec::new();
    let mut low: Option<&Pair> = None;
    for p in pairs {
        match status_at(&p.0, p.1, &inst.reqs) {
            At::Valid => {
                push(cases, inst, &p.0, p.1, "valid".into(), text.clone());
                valid_at.push(p);
            }
            At::Removed => push(cases, inst, &p.0, p.1, "removed".into(), text.clone()),
            At::VersionLow => {
                if low.is_none_or(|l| p.1 > l.1) {
                    low = Some(p);
                }
            }
            At::Unmet => {}
        }
    }
    if let Some(p) = low {
        push(cases, inst, &p.0, p.1, "version-low".into(), text.clone());
    }
    if !mutate || valid_at.is_empty() || inst.unspec {
        return;
    }
    if let Some(p) = valid_at.get(rng.below(valid_at.len())) {
        emit_mutations(cat, inst, &p.0, p.1, cases);
    }
}

/// `--targets`: an instance that breaks one `@rule`, on the first named
/// pair where it would otherwise be valid.
fn emit_broken_at(cat: &Catalog, inst: &Instance, cases: &mut Vec<Case>, pairs: &[Pair]) {
    if let Some(p) = pairs
        .iter()
        .find(|p| status_at(&p.0, p.1, &inst.reqs) == At::Valid)
    {
        let text = inst.text(cat, &inst.ops);
        push(cases, inst, &p.0, p.1, "rule-broken".into(), text);
    }
}

/// The role-wise mutations of an instance, on one target and version.
fn emit_mutations(
    cat: &Catalog,
    inst: &Instance,
    target: &str,
    version: PtxVersion,
    cases: &mut Vec<Case>,
) {
    let text = inst.text(cat, &inst.ops);
    for (name, op) in mutations(inst) {
        let mut ops = inst.ops.clone();
        let Some((path, with)) = op else { continue };
        let Some((&first, rest)) = path.split_first() else {
            continue;
        };
        let Some(slot) = ops.get_mut(first).and_then(|o| o.at_mut(rest)) else {
            continue;
        };
        *slot = with;
        let t = inst.text(cat, &ops);
        if t != text {
            push(cases, inst, target, version, name, t);
        }
    }
}

type Mutation = (String, Option<(Vec<usize>, Op)>);

/// Role-wise mutations of an instance: each replaces one operand.
fn mutations(inst: &Instance) -> Vec<Mutation> {
    let mut out: Vec<Mutation> = Vec::new();
    let mut seen_roles: BTreeSet<(&str, bool)> = BTreeSet::new();
    for s in &inst.sites {
        // One set of mutations per role (a, b of the same description
        // would repeat each other).
        if !seen_roles.insert((s.role, s.addr)) {
            continue;
        }
        let k = s.spec.kinds;
        let mut m = |name: &str, text: String| {
            out.push((
                format!("{name}@{}", s.role),
                Some((s.path.clone(), Op::Text(text))),
            ));
        };
        if s.addr {
            if k.has(Kinds::ADDR) {
                // A variable of a state space the address may not be in.
                if let Some(other) = var_not_in(s.spaces) {
                    m("addr-space", other.to_string());
                }
                // A typed address (a 32-bit Tensor Memory address) gets a
                // 64-bit register instead.
                if s.ty.is_some_and(|t| t.bits() == 32) {
                    m("addr-64bit", "%rd9".into());
                } else {
                    m("addr-32bit", "%r9".into());
                }
                m("addr-pred", "%p9".into());
            }
            continue;
        }
        let vector = s.vector;
        let ty = s.ty;
        let reg = k.has(Kinds::REG);
        let imm = k.has(Kinds::IMM);
        if reg {
            if let Some(t) = ty.filter(|t| *t != ScalarType::Pred) {
                if let Some(c) = wrong_width_class(t) {
                    m("wrong-width", scalar_or_vec(c, s.arity, vector));
                }
                if t.bits() == 64 && !s.spec.wider {
                    m("narrow64", scalar_or_vec("%r", s.arity, vector));
                }
                m("pred-for-value", scalar_or_vec("%p", s.arity, vector));
                if !k.has(Kinds::VAR) {
                    m("var-as-value", "gbuf".into());
                }
                if !k.has(Kinds::LABEL) {
                    m("label-as-value", "$Lsw".into());
                }
                if !k.has(Kinds::SREG) && !vector {
                    m("sreg-not-allowed", "%tid.x".into());
                }
            }
            if ty == Some(ScalarType::Pred) {
                m("value-for-pred", "%r9".into());
            }
            if s.spec.dir == Dir::Out && !imm {
                m("imm-dest", "1".into());
            }
        }
        if k.has(Kinds::SREG) {
            m("sreg-unknown-component", "%tid.w".into());
            m("sreg-unknown", "%nosuchreg".into());
        }
        if imm && !reg {
            m("reg-for-imm", "%r9".into());
            if let Some((lo, hi)) = s.spec.range {
                m("imm-above-range", (hi + 1).to_string());
                m("imm-below-range", (lo - 1).to_string());
            }
            if s.spec.multiple > 1 {
                let base = s.spec.range.map(|r| r.0.max(0)).unwrap_or(0);
                m("imm-not-multiple", (base + 1).to_string());
            }
        }
        if imm {
            match ty {
                Some(t) if t.is_float() => m("imm-kind", "1".into()),
                Some(t) if t != ScalarType::Pred => m("imm-kind", "1.5".into()),
                _ => {}
            }
        }
        if vector {
            let c = ty.map(|t| reg_class(t, false)).unwrap_or("%r");
            m("vec-plus-one", vec_text(c, s.arity + 1));
            if s.arity > 1 {
                m("vec-minus-one", vec_text(c, s.arity - 1));
            }
        } else if reg && matches!(s.spec.arity, Arity::Scalar) {
            let c = ty.map(|t| reg_class(t, false)).unwrap_or("%r");
            m("vec-for-scalar", vec_text(c, 2));
        }
    }
    out
}

pub(super) fn vec_text(class: &str, n: usize) -> String {
    let items: Vec<String> = (0..n).map(|i| format!("{class}{}", 200 + i)).collect();
    format!("{{{}}}", items.join(", "))
}

fn scalar_or_vec(class: &str, n: usize, vector: bool) -> String {
    if vector {
        vec_text(class, n)
    } else {
        format!("{class}9")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(ptx: Option<(u8, u8)>, sm: Option<&'static str>) -> Requirement {
        Requirement {
            ptx: ptx.map(ver),
            sm,
            ..Requirement::default()
        }
    }

    /// An instance that needs PTX 9.5 is tried at 9.5 (valid) with 9.4 as
    /// its "one version too low"; others stay at the newest version.
    #[test]
    fn instances_needing_the_latest_version_are_tried_there() {
        let r95 = [req(Some((9, 5)), Some("sm_90"))];
        assert_eq!(top_version(&r95), LATEST);
        assert_eq!(valid_version("sm_100a", &r95), Some(LATEST));
        assert_eq!(version_before(LATEST), Some(NEWEST));
        let r86 = [req(Some((8, 6)), Some("sm_90"))];
        assert_eq!(top_version(&r86), NEWEST);
        assert_eq!(valid_version("sm_100a", &r86), Some(NEWEST));
        // A version ptxas does not know is never tried.
        let r96 = [req(Some((9, 6)), None)];
        assert_eq!(top_version(&r96), NEWEST);
        assert_eq!(valid_version("sm_100a", &r96), None);
    }

    /// `--targets`: items with their own version, the version list, the
    /// newest by default; a version that does not know its target is
    /// refused; old targets run ptxas as sm_75, sm_101* as sm_110*.
    #[test]
    fn named_targets_and_their_status() {
        let v = |a, b| ver((a, b));
        let p = parse_pairs("sm_50@6.0, sm_70", &[v(6, 4), v(7, 8)]);
        assert_eq!(
            p,
            Ok(vec![
                ("sm_50".to_string(), v(6, 0)),
                ("sm_70".to_string(), v(6, 4)),
                ("sm_70".to_string(), v(7, 8)),
            ])
        );
        assert_eq!(
            parse_pairs("sm_90a", &[]),
            Ok(vec![("sm_90a".to_string(), NEWEST)])
        );
        assert!(parse_pairs("sm_90@7.0", &[]).is_err());
        assert!(parse_pairs("sm_90@9.6", &[]).is_err());
        assert_eq!(arch_for("sm_50"), "sm_75");
        assert_eq!(arch_for("sm_75, texmode_independent"), "sm_75");
        assert_eq!(arch_for("sm_101a"), "sm_110a");
        assert_eq!(arch_for("sm_90a"), "sm_90a");
        let r = [req(Some((7, 0)), Some("sm_60"))];
        assert_eq!(status_at("sm_50", v(7, 0), &r), At::Unmet);
        assert_eq!(status_at("sm_61", v(6, 5), &r), At::VersionLow);
        assert_eq!(status_at("sm_61", v(7, 0), &r), At::Valid);
        let bounded = [Requirement {
            until_ptx: Some(v(6, 4)),
            until_sm: Some("sm_70"),
            ..Requirement::default()
        }];
        assert_eq!(status_at("sm_70", v(6, 0), &bounded), At::Valid);
        assert_eq!(status_at("sm_60", v(7, 0), &bounded), At::Valid);
        assert_eq!(status_at("sm_70", v(6, 4), &bounded), At::Removed);
        // The prelude leaves out `.f16x2` registers below sm_53.
        assert!(!prelude("sm_50", "6.0").contains(".f16x2"));
        assert!(prelude("sm_53", "4.2").contains(".f16x2"));
        assert!(prelude("T", "9.4").contains(".f16x2"));
    }
}
