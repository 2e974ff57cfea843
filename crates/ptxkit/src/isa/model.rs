//! The catalog's data model: opcodes, forms, modifier groups, operand templates.

use serde::Serialize;

/// A modifier spelling known to the catalog (`.u32`, `.L2::cache_hint`, `.sync`…).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct ModId(pub u16);

impl ModId {
    /// A modifier the catalog does not know (kept so the tree can still print it).
    pub const UNKNOWN: ModId = ModId(u16::MAX);
}

/// An opcode root (`ld`, `cp`, `tcgen05`…): the first word of an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct OpcodeId(pub u16);

impl OpcodeId {
    /// An opcode the catalog does not know.
    pub const UNKNOWN: OpcodeId = OpcodeId(u16::MAX);
}

/// One syntax form of an instruction (one template line of the catalog).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct FormId(pub u16);

impl FormId {
    /// No form matched (the instruction carries an error).
    pub const NONE: FormId = FormId(u16::MAX);
}

/// A modifier group (`.type`, `.ss`, `.scope`…) of one catalog section.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct GroupId(pub u16);

/// A PTX ISA version such as 7.8.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Default)]
pub struct PtxVersion {
    /// Major number.
    pub major: u8,
    /// Minor number.
    pub minor: u8,
}

impl PtxVersion {
    /// `X.Y` read as a version.
    pub fn parse(s: &str) -> Option<PtxVersion> {
        let (a, b) = s.trim().split_once('.')?;
        Some(PtxVersion {
            major: a.parse().ok()?,
            minor: b.parse().ok()?,
        })
    }
}

impl std::fmt::Display for PtxVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

/// A version/target requirement attached to a section, form or modifier.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct Requirement {
    /// Minimum PTX ISA version, when stated.
    pub ptx: Option<PtxVersion>,
    /// Target requirement as written in the catalog: `all`, `sm_80` (that or
    /// higher), `sm_90a` (arch-specific), `sm_100f` (family), or a `|` list
    /// whose items may name a version of their own, `sm_89@8.1` (that
    /// target from that version on).
    pub sm: Option<&'static str>,
    /// The upper bound (`until_ptx=`/`until_sm=`): the thing is no longer
    /// available once the module's `.version` is at least this one and its
    /// target at least [`Requirement::until_sm`] (a bound not given is
    /// always reached, but at least one is given).
    pub until_ptx: Option<PtxVersion>,
    /// The target half of the upper bound: `sm_70` (that number or higher,
    /// whatever the suffix).
    pub until_sm: Option<&'static str>,
    /// The option half of the upper bound (`until_opt=`): the bound is
    /// reached only in a module in this `.target` option (`texmode_unified`,
    /// which also holds when the module declares no option of its group).
    pub until_opt: Option<&'static str>,
    /// A `.target` option the module must be in (`texmode_independent`),
    /// as written in the catalog (`opt=`). An option that `module.ptxisa`
    /// marks as its group's default also holds when the module declares no
    /// option of that group.
    pub opt: Option<&'static str>,
}

impl Requirement {
    /// Whether nothing is required.
    pub fn is_empty(&self) -> bool {
        self.ptx.is_none() && self.sm.is_none() && !self.has_until() && self.opt.is_none()
    }

    /// Whether an upper bound is stated.
    pub fn has_until(&self) -> bool {
        self.until_ptx.is_some() || self.until_sm.is_some() || self.until_opt.is_some()
    }
}

/// A modifier slot in a form: a fixed spelling or a group of alternatives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum SlotKind {
    /// Exactly this modifier.
    Lit(ModId),
    /// Any alternative of this group.
    Group(GroupId),
}

/// One modifier position of a form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Slot {
    /// What may fill it.
    pub kind: SlotKind,
    /// Whether it may be left out (`{.sat}` in the syntax).
    pub optional: bool,
}

/// The shape an operand must have.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Shape {
    /// A register, symbol, immediate, expression or vector.
    Value,
    /// An immediate written in the template (`16` in `cp.async.cg … 16`).
    Literal(&'static str),
    /// `a|b`: a predicate pair; the second may be optional (`d{|p}`).
    Pair {
        /// Role of the second operand.
        second: &'static str,
        /// Whether the `|b` part may be left out.
        optional: bool,
        /// What the second role takes.
        second_spec: RoleId,
    },
    /// `[ … ]`: an address or a bracketed tuple of operands.
    Bracket(&'static [OperandTpl]),
    /// `{ … }`: a vector of operands written in the template.
    Vector(&'static [OperandTpl]),
    /// `( … )`: a parenthesised list (call arguments and returns).
    List,
}

/// One operand position of a form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct OperandTpl {
    /// The role as the ISA names it: `d`, `a`, `a-desc`, `cache-policy`…
    pub role: &'static str,
    /// What it must look like.
    pub shape: Shape,
    /// Whether the operand may be omitted.
    pub optional: bool,
    /// For an optional operand: present exactly when this modifier (or a
    /// member of this group) is present on the instruction.
    pub when: Option<SlotKind>,
    /// May be negated with `-`.
    pub neg: bool,
    /// May be inverted with `!`.
    pub not: bool,
    /// Operand suffix modifiers the template allows (`a{.asel}`, `[a]{.unified}`).
    pub suffixes: &'static [SlotKind],
    /// What the role takes: an index into [`Tables::roles`](super::Tables)
    /// ([`RoleId::NONE`] when the section says nothing of it).
    pub spec: RoleId,
}

/// An operand role's description ([`RoleSpec`]) in the catalog's table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct RoleId(pub u16);

impl RoleId {
    /// No description: the operand is not checked beyond its shape.
    pub const NONE: RoleId = RoleId(u16::MAX);
}

/// Which way data flows through an operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Dir {
    /// Read by the instruction.
    In,
    /// Written by the instruction.
    Out,
    /// Read and written.
    InOut,
}

impl Dir {
    /// Whether the instruction writes the operand.
    pub fn writes(self) -> bool {
        matches!(self, Dir::Out | Dir::InOut)
    }

    /// Whether the instruction reads the operand.
    pub fn reads(self) -> bool {
        matches!(self, Dir::In | Dir::InOut)
    }
}

/// The kinds of operand a role may be, as a bit set ([`Kinds::REG`]…).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize)]
pub struct Kinds(pub u64);

impl Kinds {
    /// A register (`%r1`), of a type compatible with the role's.
    pub const REG: Kinds = Kinds(1);
    /// A constant: a literal or a constant expression.
    pub const IMM: Kinds = Kinds(1 << 1);
    /// A special register (`%tid.x`).
    pub const SREG: Kinds = Kinds(1 << 2);
    /// A variable, standing for its address (`mov.u64 %rd1, buf;`).
    pub const VAR: Kinds = Kinds(1 << 3);
    /// A label of the function.
    pub const LABEL: Kinds = Kinds(1 << 4);
    /// A function name.
    pub const FUNC: Kinds = Kinds(1 << 5);
    /// The sink `_` (the result is discarded).
    pub const SINK: Kinds = Kinds(1 << 6);
    /// A memory address: `[reg]`, `[var+off]`, `[imm]`.
    pub const ADDR: Kinds = Kinds(1 << 7);
    /// An opaque handle: a `.texref`, `.samplerref` or `.surfref` variable
    /// or a 64-bit register holding one.
    pub const HANDLE: Kinds = Kinds(1 << 8);
    /// A prototype or `.calltargets` label (indirect `call`).
    pub const PROTO: Kinds = Kinds(1 << 9);
    /// A predicate register besides registers of the role's type: for an
    /// optional operand whose forms differ only in it (`cp.async`'s
    /// `src-size` or `ignore-src`), which the parser cannot tell apart.
    pub const PRED: Kinds = Kinds(1 << 10);
    /// With `addr`: the address is 64-bit unless its state space is a
    /// 32-bit window (`.shared`, `.local`, `.const`, `.param`): a 32-bit
    /// register cannot hold a generic or `.global` address here.
    pub const ADDR64: Kinds = Kinds(1 << 11);
    /// Any floating-point constant besides what `imm` takes, its value
    /// unchecked: ptxas's leniency on some integer selectors (the
    /// block-scale byte and thread ids of `mma`).
    pub const FIMM: Kinds = Kinds(1 << 12);
    /// With `addr`: the address is in shared memory even when no state
    /// space is written, so a variable named there must be `.shared`
    /// (`mbarrier.*`).
    pub const SHARED: Kinds = Kinds(1 << 13);
    /// With `addr`: an array element `arr[i]` may stand for the bracketed
    /// address (`ld.global.u32 d, arr[1]`; ptxas takes it on `ld`, `ldu`
    /// and `st`, not on `atom`, `red`, `prefetch` or `cp.async`).
    pub const ELEM: Kinds = Kinds(1 << 14);
    /// ptxas matches the operand exactly, as it does for the table-driven
    /// matrix instructions (`wgmma`, `tcgen05`): a function name is no
    /// value, a one-element brace vector `{%r1}` does not stand for a
    /// scalar, a register fits only a type of its own kind (no `.f16x2`
    /// register as 32 integer bits, no integer register among a float
    /// vector's elements, only a `.bN` register for a `.bN` type), and a
    /// typed address is a register plus an offset, never a constant,
    /// label or function.
    pub const EXACT: Kinds = Kinds(1 << 15);
    /// A bare single-precision constant written in hex (`0f3F800000`),
    /// besides what the other kinds take: ptxas reads its 32 bits where a
    /// 32-bit register is wanted (`mma`'s sparsity metadata and block-scale
    /// data, `wgmma`'s `sp-meta`, `movmatrix`, `stmatrix`), though no other
    /// constant.
    pub const SINGLE: Kinds = Kinds(1 << 16);
    /// With `reg`: a register of the role's own kind only, without
    /// ptxas's usual leniencies: no packed (`.f16x2`) register for another
    /// type of its size, no integer register in a vector of a float type
    /// (tex's offsets `e` and gradients `dPdx`/`dPdy`).
    pub const STRICT_REG: Kinds = Kinds(1 << 17);
    /// With `addr`: a special register cannot be the address (ptxas:
    /// "Illegal state space for address operand"; `mbarrier.*` and some
    /// `fabric` barriers), as it can elsewhere (`ld [%clock64]`).
    pub const NOSREG: Kinds = Kinds(1 << 18);
    /// A read vector of constants alone is typed by its elements, as
    /// ptxas does, and must fit the role's type: integers only an
    /// integer type, `0f` constants only `.f32` or `.b32`, other floats
    /// none (`mma`'s fragments; `check/const_vectors.rs`).
    pub const TYPED_CONSTS: Kinds = Kinds(1 << 23);
    /// With `vec=list`: a vector written here has 1, 2, 4 or 8 elements
    /// (ptxas: "Illegal vector size: 3"; `mma`'s `e` and block-scale data,
    /// unlike `wgmma`'s `sp-meta`, which takes any length).
    pub const SIZED_LIST: Kinds = Kinds(1 << 24);
    /// With `addr`: a register narrower than 32 bits (`.b16`, `.u8`…)
    /// cannot be the address, in any state space: ptxas moves the address
    /// through a 32- or 64-bit register ("Arguments mismatch for
    /// instruction 'mov'"; `st.async`'s `a`, `tensormap.replace`,
    /// `fabric`'s data addresses and barriers).
    pub const WIDE_ADDR: Kinds = Kinds(1 << 25);
    /// With `addr`: as [`Kinds::WIDE_ADDR`], but only where the address
    /// is generic (no state space written or given by the role):
    /// `st.async`'s and `red.async`'s `mbar`, `cp.async.mbarrier.arrive`.
    pub const WIDE_GENERIC: Kinds = Kinds(1 << 26);
    /// A read vector whose elements are all floats (float registers,
    /// floating-point constants) is refused: ptxas types the vector by
    /// its elements and wants integers there (the tensor copies'
    /// coordinates and sizes; `check/float_vectors.rs`).
    pub const INT_VEC: Kinds = Kinds(1 << 27);
    /// A constant is read as its low 32 bits before its range or value
    /// set is checked (ptxas 13.5: barrier number 2^32 is barrier 0,
    /// `-1` is the mask 0xFFFFFFFF; `bar`'s and `barrier`'s `a`,
    /// `cp.async.bulk`'s `ignoreBytesLeft`/`Right`, `fabric`'s
    /// `imm-membermask`), where other roles refuse a constant past their
    /// range as written (`mbarrier`'s `phaseParity`, bulk sizes).
    pub const WRAP32: Kinds = Kinds(1 << 28);
    /// A register or variable plus a constant (`%r9+8`, `gbuf+8`) is
    /// refused as this value, which ptxas otherwise takes: ptxas 13.5
    /// pastes the operand into an expansion of its own that cannot parse
    /// it ("Parsing error near '+'"; `tcgen05.mma`'s `idesc`).
    pub const NO_OFFSET: Kinds = Kinds(1 << 33);
    /// A brace vector of registers is typed by its elements, as ptxas
    /// types a matrix fragment (`mma`, `wmma`): typed registers that mix
    /// a float type with another type are refused ("Vector with elements
    /// of different types"); registers all of one typed type must fit the
    /// role's type (that type, integers of another signedness for an
    /// integer type, anything for a `.bN` type), while a `.bN` register
    /// among them, or integers of both signs, leave the vector untyped;
    /// each element is then any register of the role's size
    /// (`check/exact.rs`).
    pub const TYPED_VECTOR: Kinds = Kinds(1 << 19);
    /// A `.branchtargets` label declared before the instruction
    /// (`brx.idx`'s list; ptxas refuses a plain label, a `.calltargets`
    /// one and a list declared further on).
    pub const TARGETS: Kinds = Kinds(1 << 20);
    /// With `reg` and a `.bN` type: only a register declared `.bN`, not a
    /// typed one of that size nor a variable plus a constant (`cvt.rs`'s
    /// random bits `rbits`; ptxas refuses `.u32`, `.f32` and `.f16x2`
    /// registers there).
    pub const UNTYPED_REG: Kinds = Kinds(1 << 21);
    /// In unified texturing mode, when the instruction's sampler (the
    /// middle item of `[a, b, c]`) is a handle (a 64-bit register or a
    /// reference), a lone register written here must be an untyped `.b32`
    /// one (ptxas 13.5: "Arguments mismatch"; tex's `.s32` `lod` after
    /// `.level` and lone `.1d` coordinate; `check/handles.rs`).
    pub const B32_IF_HANDLE: Kinds = Kinds(1 << 22);
    /// A lone name written for this role as an item of a bracketed tuple
    /// (not in braces): a function's name or a 32-bit register (untyped or
    /// of the role's type) passes
    /// whatever the role's vector length, and in unified texturing mode,
    /// when an operand follows the tuple, a handle (a reference or 64-bit
    /// variable, a 64-bit register) passes too: ptxas reads it as the
    /// sampler and the next operand as the coordinates (tld4's `c` and
    /// `.2d` coordinates; `check/handles.rs`).
    pub const LONE_HANDLE: Kinds = Kinds(1 << 29);
    /// A vector whose length the geometry sets (`@count`) takes any of
    /// 1, 2 or 4 elements in unified texture mode when the instruction
    /// has a sampler written (tex's offsets `e`; `check/handles.rs`).
    pub const SAMPLER_LAX: Kinds = Kinds(1 << 30);
    /// A vector whose `@count` row gives its least length: 1, 2 or 4
    /// elements from there pass (tex's offsets `e` on `.2d`: 2 or 4,
    /// "Operand vector size doesn't match geometry" for 1), and a lone
    /// value where that length is below four (`.2d`, not `.3d`).
    pub const COUNT_MIN: Kinds = Kinds(1 << 31);
    /// As `strict-reg` (no packed register for another type), but only in
    /// unified texture mode with a sampler written (tex's `lod`:
    /// `[t, %r5, {%r6, %r7}], %hh9` is refused, `[t, {%r6, %r7}], %hh9`
    /// passes; `check/handles.rs`).
    pub const SAMPLER_STRICT: Kinds = Kinds(1 << 32);

    /// The names of the kinds, as the catalog spells them.
    pub const NAMES: &'static [(&'static str, Kinds)] = &[
        ("reg", Kinds::REG),
        ("imm", Kinds::IMM),
        ("sreg", Kinds::SREG),
        ("var", Kinds::VAR),
        ("label", Kinds::LABEL),
        ("func", Kinds::FUNC),
        ("sink", Kinds::SINK),
        ("addr", Kinds::ADDR),
        ("handle", Kinds::HANDLE),
        ("proto", Kinds::PROTO),
        ("pred", Kinds::PRED),
        ("addr64", Kinds::ADDR64),
        ("fimm", Kinds::FIMM),
        ("shared", Kinds::SHARED),
        ("elem", Kinds::ELEM),
        ("exact", Kinds::EXACT),
        ("single", Kinds::SINGLE),
        ("strict-reg", Kinds::STRICT_REG),
        ("nosreg", Kinds::NOSREG),
        ("typed-consts", Kinds::TYPED_CONSTS),
        ("sized-list", Kinds::SIZED_LIST),
        ("wide", Kinds::WIDE_ADDR),
        ("wide-generic", Kinds::WIDE_GENERIC),
        ("int-vec", Kinds::INT_VEC),
        ("wrap32", Kinds::WRAP32),
        ("no-offset", Kinds::NO_OFFSET),
        ("typed-vector", Kinds::TYPED_VECTOR),
        ("targets", Kinds::TARGETS),
        ("untyped-reg", Kinds::UNTYPED_REG),
        ("b32-if-handle", Kinds::B32_IF_HANDLE),
        ("lone-handle", Kinds::LONE_HANDLE),
        ("sampler-lax", Kinds::SAMPLER_LAX),
        ("count-min", Kinds::COUNT_MIN),
        ("sampler-strict", Kinds::SAMPLER_STRICT),
    ];

    /// Whether every kind of `k` is in the set.
    #[inline]
    pub fn has(self, k: Kinds) -> bool {
        self.0 & k.0 == k.0
    }

    /// The union of two sets.
    pub const fn with(self, k: Kinds) -> Kinds {
        Kinds(self.0 | k.0)
    }
}

/// Where a role's data type comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum TypeRef {
    /// The type modifier that fills this group of the form (`.type`).
    Group(GroupId),
    /// Twice the width of the type filling this group (`mul.wide`'s `d`).
    Double(GroupId),
    /// Half the width of the type filling this group.
    Half(GroupId),
    /// Always this type (`.b64` for a cache policy, `.pred`).
    Fixed(super::vocab::ScalarType),
}

/// How many elements a role's vector has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Arity {
    /// Not checked.
    Any,
    /// A scalar, or a brace list of any length whose elements each take
    /// the role's type (ptxas's leniency on some scalar operands).
    List,
    /// A scalar, never a vector.
    Scalar,
    /// The count the `.vN` modifier filling this group gives; a scalar
    /// when the group is not written.
    Group(GroupId),
    /// As [`Arity::Group`], but a single value is taken as well where the
    /// `.vN` modifier is written (`vec=.vec|scalar`: `st.async`'s `b`,
    /// which ptxas takes as one value or exactly N of them).
    GroupOrScalar(GroupId),
    /// Exactly this many elements.
    Fixed(u8),
    /// The first row whose modifiers are all written gives the count;
    /// unchecked when none is.
    Table(&'static [(u8, &'static [ModId])]),
}

/// What one operand role of a catalog section takes: written in the
/// catalog as `@operand ROLE DIR KINDS TYPES key=value…`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct RoleSpec {
    /// The role's name (`d`, `cache-policy`).
    pub role: &'static str,
    /// Read, written or both.
    pub dir: Dir,
    /// What it may be.
    pub kinds: Kinds,
    /// Its data type: the first of these the instruction has (a group is
    /// had when one of its modifiers is written); untyped when none is.
    pub types: &'static [TypeRef],
    /// Its vector shape.
    pub arity: Arity,
    /// A register may be wider than the type (`ld`, `st`, `cvt`).
    pub wider: bool,
    /// With `wider`, the widest register taken, in bits (`wider=16`); 0:
    /// any width.
    pub wider_max: u16,
    /// A constant must lie in this range (inclusive).
    pub range: Option<(i64, i64)>,
    /// A constant must be a multiple of this (0 or 1: any).
    pub multiple: u32,
    /// `at-most=ROLE`: a constant must not exceed the constant written
    /// for that other role of the form, when one is (`cp.async`'s
    /// `src-size` is at most its `cp-size`); `None`: no such bound.
    pub at_most: Option<&'static str>,
    /// `pred-on=`: the target numbers (inclusive ranges) on which the
    /// `pred` kind applies; empty: on every target.
    pub pred_on: &'static [(u32, u32)],
    /// `consts-on=`: the target numbers (inclusive ranges) on which a
    /// `typed-consts` role takes a vector of constants alone that fits
    /// its type; empty: on every target.
    pub consts_on: &'static [(u32, u32)],
    /// `mov-on=`: the target numbers (inclusive ranges) on which ptxas
    /// lowers the role's elements through a `mov` of its type when that
    /// type is a float: an element is then a register of that type, an
    /// untyped one of its width or a float constant (no special register,
    /// predicate, packed or integer register, integer constant); empty:
    /// on no target.
    pub mov_on: &'static [(u32, u32)],
    /// `typed-on=`: the target numbers (inclusive ranges) on which a lone
    /// untyped (`.bN`) register is refused here, since ptxas reads one as
    /// another operand there; empty: on no target.
    pub typed_on: &'static [(u32, u32)],
    /// `untyped-on=`: the target numbers (inclusive ranges) on which a
    /// lone value here must be an untyped (`.bN`) register, since ptxas
    /// moves it through an untyped store there; empty: on no target.
    pub untyped_on: &'static [(u32, u32)],
    /// `sampler-lax=min`: with `sampler-lax`, the vector takes 1, 2 or 4
    /// elements but not fewer than the geometry's length (tex.grad's
    /// `dPdy` after a sampler in unified mode: `.2d` takes 2 or 4).
    pub lax_min: bool,
    /// For an address role, the state spaces its memory may be in
    /// (`space=` on the `@operand` line); empty when the line does not
    /// say, and the address goes with the state space written in its
    /// position ([`RoleSpec::address_spaces`]).
    pub spaces: &'static [SpaceRef],
}

/// One alternative of an address role's `space=`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum SpaceRef {
    /// The state space written in this group's slot (`space=.dst`).
    Group(GroupId),
    /// This state space (`space=.shared::cta`).
    Fixed(super::vocab::StateSpace),
    /// A generic address (`space=generic`): any variable a generic
    /// address may name.
    Generic,
}

/// A set of state spaces, as a bit set over [`StateSpace`](super::vocab::StateSpace).
/// Empty: a generic address.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct SpaceSet(pub u16);

impl SpaceSet {
    /// The set with `s` added.
    pub const fn with(self, s: super::vocab::StateSpace) -> SpaceSet {
        SpaceSet(self.0 | 1 << (s as u16))
    }

    /// Whether `s` is in the set.
    pub fn contains(self, s: super::vocab::StateSpace) -> bool {
        self.0 & (1 << (s as u16)) != 0
    }

    /// Whether the set is empty (a generic address).
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The spaces of the set, in [`StateSpace::ALL`](super::vocab::StateSpace::ALL) order.
    pub fn iter(self) -> impl Iterator<Item = super::vocab::StateSpace> {
        super::vocab::StateSpace::ALL
            .iter()
            .copied()
            .filter(move |s| self.contains(*s))
    }
}

impl RoleSpec {
    /// The state spaces an address of this role may be in, when its
    /// `@operand` line says (`space=`): the space written in the first
    /// listed group that is filled (`filled` gives the state space a
    /// group's slot holds), else every fixed space listed; an empty set
    /// is a generic address. `None` when the line does not say: the
    /// address then goes with the state space written in its position.
    pub fn address_spaces(
        &self,
        filled: impl Fn(GroupId) -> Option<super::vocab::StateSpace>,
    ) -> Option<SpaceSet> {
        if self.spaces.is_empty() {
            return None;
        }
        let mut set = SpaceSet::default();
        for s in self.spaces {
            match *s {
                SpaceRef::Group(g) => {
                    if let Some(sp) = filled(g) {
                        return Some(SpaceSet::default().with(sp));
                    }
                }
                SpaceRef::Fixed(sp) => set = set.with(sp),
                SpaceRef::Generic => {}
            }
        }
        Some(set)
    }

    /// Whether a vector of constants alone may stand here on a target
    /// numbered `sm` (`None`: the module names none), by `consts-on=`.
    pub fn takes_consts_on(&self, sm: Option<u32>) -> bool {
        self.consts_on.is_empty()
            || sm.is_none_or(|n| self.consts_on.iter().any(|&(lo, hi)| lo <= n && n <= hi))
    }

    /// Whether ptxas lowers this role's elements through a `mov` on a
    /// target numbered `sm` (`None`: the module names none), by `mov-on=`.
    pub fn lowered_on(&self, sm: Option<u32>) -> bool {
        sm.is_some_and(|n| self.mov_on.iter().any(|&(lo, hi)| lo <= n && n <= hi))
    }

    /// Whether a lone untyped register is refused here on a target
    /// numbered `sm` (`None`: the module names none), by `typed-on=`.
    pub fn typed_on_target(&self, sm: Option<u32>) -> bool {
        sm.is_some_and(|n| self.typed_on.iter().any(|&(lo, hi)| lo <= n && n <= hi))
    }

    /// Whether a lone value here must be an untyped register on a target
    /// numbered `sm` (`None`: the module names none), by `untyped-on=`.
    pub fn untyped_on_target(&self, sm: Option<u32>) -> bool {
        sm.is_some_and(|n| self.untyped_on.iter().any(|&(lo, hi)| lo <= n && n <= hi))
    }

    /// Whether the `pred` kind lets a predicate register stand here on a
    /// target numbered `sm` (`None`: the module names none).
    pub fn takes_pred_on(&self, sm: Option<u32>) -> bool {
        self.kinds.has(Kinds::PRED)
            && (self.pred_on.is_empty()
                || sm.is_none_or(|n| self.pred_on.iter().any(|&(lo, hi)| lo <= n && n <= hi)))
    }
}

/// What a catalog section's instructions do besides computing their
/// results, as a bit set ([`Flags::BRANCH`]…): what the analyses and the
/// checker ask instead of an opcode's name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize)]
pub struct Flags(pub u32);

impl Flags {
    /// Transfers control to a label (`bra`, `brx.idx`).
    pub const BRANCH: Flags = Flags(1);
    /// Calls a function.
    pub const CALL: Flags = Flags(1 << 1);
    /// Returns from the function.
    pub const RETURN: Flags = Flags(1 << 2);
    /// Ends the thread (`exit`, `trap`).
    pub const EXIT: Flags = Flags(1 << 3);
    /// Waits for other threads (`bar`, `barrier`).
    pub const BARRIER: Flags = Flags(1 << 4);
    /// Reads memory.
    pub const LOAD: Flags = Flags(1 << 5);
    /// Writes memory.
    pub const STORE: Flags = Flags(1 << 6);
    /// An atomic read-modify-write.
    pub const ATOMIC: Flags = Flags(1 << 7);
    /// Starts work that completes later (`cp.async`, TMA, `wgmma`).
    pub const ASYNC: Flags = Flags(1 << 8);
    /// Has an effect beyond its operands (fences, `trap`, `pmevent`).
    pub const SIDE_EFFECT: Flags = Flags(1 << 9);
    /// A matrix (tensor-core) instruction.
    pub const MATRIX: Flags = Flags(1 << 10);
    /// A texture or surface access.
    pub const TEXTURE: Flags = Flags(1 << 11);
    /// Communicates within a warp (`shfl`, `vote`, `match`, `redux`).
    pub const WARP: Flags = Flags(1 << 12);
    /// A memory ordering fence.
    pub const FENCE: Flags = Flags(1 << 13);
    /// The result cannot be discarded into `_`.
    pub const NO_SINK: Flags = Flags(1 << 14);
    /// Ends the thread abnormally (`trap`), as opposed to `exit`.
    pub const ABORT: Flags = Flags(1 << 15);
    /// Allocates stack memory dynamically (`alloca`, `stacksave`).
    pub const STACK: Flags = Flags(1 << 16);
    /// A barrier among the threads of a CTA.
    pub const CTA: Flags = Flags(1 << 17);
    /// A barrier among the threads of a cluster.
    pub const CLUSTER: Flags = Flags(1 << 18);
    /// An operation on a barrier object in memory (an mbarrier).
    pub const MBARRIER: Flags = Flags(1 << 19);
    /// A SIMD video instruction (`vadd2`, `vset4`): every operand is read
    /// through a lane selector, so ptxas takes a register there and no
    /// expression (`%r1+8`, `buf+8`: "Incorrect video selector").
    pub const SIMD_VIDEO: Flags = Flags(1 << 20);
    /// A role whose kinds do not say `func` takes plain values only: no
    /// function's name and no `.f16x2` register read as 32 plain bits,
    /// which other instructions take in any scalar they read (ptxas
    /// refuses them in the memory instructions' sizes, offsets, counts and
    /// cache policies).
    pub const STRICT_VALUES: Flags = Flags(1 << 21);
    /// A one-element brace vector `{%r1}` is not a scalar (ptxas: "Vector
    /// is not expected", "Arguments mismatch"), as it is elsewhere.
    pub const STRICT_VEC: Flags = Flags(1 << 22);
    /// ptxas reads the bracketed tuple and the operands after it as one
    /// flat list: where the `]` stands does not matter (`[t, s], {x, y}`
    /// is `[t, s, {x, y}]`), so a line passes when any grouping of its
    /// operands fits a form (`tex`, `tld4`).
    pub const FLAT_TUPLE: Flags = Flags(1 << 23);
    /// The operands written `{-}a`, `{-}b`, `{-}c` are a product and an
    /// addend (`vmad`): ptxas counts the product's sign, so `-a, -b`
    /// cancel (and pass even in a form that takes no negation, `.po`), and
    /// a negated product goes with no negated addend.
    pub const NEG_PRODUCT: Flags = Flags(1 << 24);

    /// The names of the flags, as the catalog spells them.
    pub const NAMES: &'static [(&'static str, Flags)] = &[
        ("branch", Flags::BRANCH),
        ("call", Flags::CALL),
        ("return", Flags::RETURN),
        ("exit", Flags::EXIT),
        ("barrier", Flags::BARRIER),
        ("load", Flags::LOAD),
        ("store", Flags::STORE),
        ("atomic", Flags::ATOMIC),
        ("async", Flags::ASYNC),
        ("side-effect", Flags::SIDE_EFFECT),
        ("matrix", Flags::MATRIX),
        ("texture", Flags::TEXTURE),
        ("warp", Flags::WARP),
        ("fence", Flags::FENCE),
        ("no-sink", Flags::NO_SINK),
        ("abort", Flags::ABORT),
        ("stack", Flags::STACK),
        ("cta", Flags::CTA),
        ("cluster", Flags::CLUSTER),
        ("mbarrier", Flags::MBARRIER),
        ("simd-video", Flags::SIMD_VIDEO),
        ("strict-values", Flags::STRICT_VALUES),
        ("strict-vec", Flags::STRICT_VEC),
        ("flat-tuple", Flags::FLAT_TUPLE),
        ("neg-product", Flags::NEG_PRODUCT),
    ];

    /// Whether every flag of `f` is set.
    #[inline]
    pub fn has(self, f: Flags) -> bool {
        self.0 & f.0 == f.0
    }
}

/// A special register (spec chapter 10): `@sreg` in the catalog.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SpecialReg {
    /// Its name with the `%` (`%tid`, `%clock64`); for a numbered family
    /// (`%envreg<32>`), the prefix.
    pub name: &'static str,
    /// For a numbered family, how many (`%envreg0` … `%envreg31`); 0 for a
    /// single register.
    pub count: u16,
    /// The type of the register, or of each component.
    pub ty: super::vocab::ScalarType,
    /// The components it has (`.x`, `.y`, `.z`), without dots; empty for
    /// a scalar.
    pub components: &'static [&'static str],
    /// The PTX version and target it needs.
    pub req: Requirement,
    /// Widths in bits a `mov` may read it at besides its own, as a bit
    /// set ([`SpecialReg::width_bit`]): `widths=16,32` in the catalog.
    pub widths: u8,
}

impl SpecialReg {
    /// The bit of [`SpecialReg::widths`] that stands for `bits` (8, 16, 32
    /// or 64; `None` for any other width).
    pub fn width_bit(bits: u32) -> Option<u8> {
        match bits {
            8 => Some(1),
            16 => Some(2),
            32 => Some(4),
            64 => Some(8),
            _ => None,
        }
    }

    /// Whether the catalog lists `bits` among the widths a `mov` may read
    /// the register at besides its own.
    pub fn listed_width(&self, bits: u32) -> bool {
        Self::width_bit(bits).is_some_and(|b| self.widths & b != 0)
    }
}

/// One template line of the catalog.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Form {
    /// The opcode root it belongs to.
    pub opcode: OpcodeId,
    /// Index of the section (see [`Section`]) it was written in.
    pub section: u16,
    /// The instruction name this form spells, e.g. `cp.async.bulk.tensor`.
    pub name: &'static str,
    /// Modifier slots in the written order.
    pub slots: &'static [Slot],
    /// How many leading slots spell the instruction's name as ptxas reads
    /// it (`mul.lo`, `cp.async.bulk`, `barrier.cta.red`): those written
    /// come first, in slot order; the other modifiers may follow in any
    /// order (ptxas 13.5 refuses `mul.u32.lo`, takes `ld.u32.global`).
    pub head: u8,
    /// Operand templates in order.
    pub operands: &'static [OperandTpl],
    /// Requirement specific to this form.
    pub req: Requirement,
    /// The template line as written in the catalog (for `ptx explain`).
    pub text: &'static str,
}

/// A named group of alternative modifiers.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Group {
    /// Its name without the dot, e.g. `type`, `level::cache_hint`.
    pub name: &'static str,
    /// The alternatives.
    pub alts: &'static [ModId],
    /// Alternatives written as patterns (`.b[0-7][0-7][0-7][0-7]`): each
    /// `[a-b]` stands for one character of that range. Used for operand
    /// selectors with thousands of spellings.
    pub patterns: &'static [&'static str],
}

impl Group {
    /// Whether `spelling` is one of the group's alternatives or matches one
    /// of its patterns.
    pub fn matches_spelling(&self, spelling: &str, cat: &super::Catalog) -> bool {
        self.alts.iter().any(|&m| cat.mod_name(m) == spelling)
            || self.patterns.iter().any(|p| pattern_matches(p, spelling))
    }
}

/// Match `s` against a pattern made of literal characters and `[a-b]` ranges.
pub fn pattern_matches(pattern: &str, s: &str) -> bool {
    let mut p = pattern.chars().peekable();
    let mut t = s.chars();
    while let Some(c) = p.next() {
        let Some(x) = t.next() else { return false };
        if c == '[' {
            let lo = p.next();
            let dash = p.next();
            let hi = p.next();
            let close = p.next();
            match (lo, dash, hi, close) {
                (Some(lo), Some('-'), Some(hi), Some(']')) if (lo..=hi).contains(&x) => {}
                _ => return false,
            }
        } else if c != x {
            return false;
        }
    }
    t.next().is_none()
}

/// A version/target gate on modifiers within one section.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Gate {
    /// The modifiers it applies to.
    pub mods: &'static [ModId],
    /// What they need.
    pub req: Requirement,
}

/// What one atom of a [`Rule`] asks of an instruction's written modifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum AtomKind {
    /// This modifier is written.
    Mod(ModId),
    /// Some alternative of this group fills it (a slot of the group, or
    /// the written type that stands for it).
    Group(GroupId),
    /// The group is filled by this alternative (`.atype=.f16`).
    GroupIs(GroupId, ModId),
}

/// One condition of a [`Rule`]: an [`AtomKind`], possibly negated (`!.m`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Atom {
    /// Whether the condition is that the atom does *not* hold.
    pub neg: bool,
    /// What is asked.
    pub kind: AtomKind,
}

/// A constraint between the modifiers of a section's instructions
/// (`@rule .relaxed => .scope`): when every atom of `when` holds, every
/// clause of `need` must have an atom that holds.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Rule {
    /// All must hold for the rule to apply.
    pub when: &'static [Atom],
    /// Each clause is a disjunction; all clauses must be met.
    pub need: &'static [&'static [Atom]],
    /// The rule as written in the catalog, for messages.
    pub text: &'static str,
    /// What breaking it means, in words (the rule's quoted text; empty
    /// when the catalog gives none and the message is built from the atoms).
    pub message: &'static str,
}

impl Rule {
    /// When every atom of `when` holds (by `holds`), the index of the first
    /// clause of `need` none of whose atoms holds.
    pub fn broken(&self, holds: impl Fn(AtomKind) -> bool) -> Option<usize> {
        let h = |a: &Atom| holds(a.kind) != a.neg;
        if !self.when.iter().all(h) {
            return None;
        }
        self.need.iter().position(|c| !c.iter().any(h))
    }
}

impl Atom {
    /// The atom as the catalog writes it (`!.const`, `.scope`, `.atype=.f16`).
    pub fn describe(&self, cat: &super::Catalog) -> String {
        let group = |g: GroupId| cat.group(g).map_or("?", |g| g.name);
        let body = match self.kind {
            AtomKind::Mod(m) => cat.mod_name(m).to_string(),
            AtomKind::Group(g) => format!(".{}", group(g)),
            AtomKind::GroupIs(g, m) => format!(".{}={}", group(g), cat.mod_name(m)),
        };
        if self.neg {
            format!("!{body}")
        } else {
            body
        }
    }
}

/// One `@opcode` block of the catalog: usually one ISA section.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Section {
    /// The instruction name this block documents (`add`, `cp.async.bulk`).
    pub name: &'static str,
    /// The ISA section number(s) it was written from.
    pub isa_sections: &'static [&'static str],
    /// What the whole section needs.
    pub req: Requirement,
    /// Gates on individual modifiers.
    pub gates: &'static [Gate],
    /// Sentences in our own words for `ptx explain`.
    pub notes: &'static [&'static str],
    /// Meaning of individual modifiers, for `ptx explain`.
    pub mod_notes: &'static [(ModId, &'static str)],
    /// Value sets for immediate operands (`cp-size = { 4, 8, 16 }`).
    pub operand_values: &'static [(&'static str, &'static [&'static str])],
    /// Which file of the catalog it came from.
    pub file: &'static str,
    /// What its instructions do besides computing results.
    pub flags: Flags,
    /// Constraints between modifiers (`@rule`).
    pub rules: &'static [Rule],
}

/// An opcode root and the forms filed under it.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Opcode {
    /// The root word: `ld`, `cp`, `mbarrier`…
    pub name: &'static str,
    /// Its forms in catalog order (match order).
    pub forms: &'static [FormId],
}
