//! Rules ptxas enforces on the module as a whole: addressing mode, target
//! versus version, declarations that cannot be allocated.

use super::module_data::{data, Blame};
use super::Checker;
use crate::diag::{Code, Diagnostic};
use crate::isa::vocab::{ScalarType, StateSpace};
use crate::source::Span;
use crate::syntax::{
    AddressSize, BinOp, Expr, Function, Initializer, Item, Name, Section, SectionEntry, Target,
    UnOp, VarDecl, Version,
};

/// What a declaration declares: its state space, vector length and type,
/// and where it is.
struct DeclShape {
    space: StateSpace,
    vector: Option<u8>,
    ty: ScalarType,
    span: Span,
}

/// State spaces as a message names them: `.global or .shared`.
fn join_spaces(spaces: &[StateSpace]) -> String {
    let names: Vec<&str> = spaces.iter().map(|s| s.as_str()).collect();
    names.join(" or ")
}

/// What the header check has seen of the module so far.
#[derive(Clone, Copy, Debug, Default)]
pub struct HeaderState {
    /// A declaration (variable, function, anything but the header).
    pub declared: bool,
    /// An `.address_size`.
    pub address_size: bool,
    /// Where the first declaration is (a function: its name).
    pub declared_at: Option<crate::source::Span>,
    /// Where the first `.address_size` is.
    pub address_size_at: Option<crate::source::Span>,
}

impl HeaderState {
    /// Note a declaration at `span`.
    pub fn declare(&mut self, span: crate::source::Span) {
        if !self.declared {
            self.declared = true;
            self.declared_at = Some(span);
        }
    }
}

/// What a `.section` data value is built from.
#[derive(Default)]
struct SectionExprFeatures {
    /// `a - b` with names on both sides.
    diff: bool,
    /// A name plus or minus a constant.
    offset: bool,
    /// A negated constant.
    negative: bool,
}

impl SectionExprFeatures {
    fn scan(&mut self, e: &Expr) {
        fn has_name(e: &Expr) -> bool {
            let mut any = false;
            e.for_each_name(&mut |_, _| any = true);
            any
        }
        match e {
            Expr::Binary(b) => {
                let (l, r) = (has_name(&b.lhs), has_name(&b.rhs));
                match b.op {
                    BinOp::Sub if l && r => self.diff = true,
                    BinOp::Add | BinOp::Sub if l != r => self.offset = true,
                    _ => {}
                }
                self.scan(&b.lhs);
                self.scan(&b.rhs);
            }
            Expr::Chain(c) => {
                // Each link is `(what came before) op rhs`.
                let mut l = has_name(&c.first);
                self.scan(&c.first);
                for link in &c.links {
                    let r = has_name(&link.rhs);
                    match link.op {
                        BinOp::Sub if l && r => self.diff = true,
                        BinOp::Add | BinOp::Sub if l != r => self.offset = true,
                        _ => {}
                    }
                    self.scan(&link.rhs);
                    l |= r;
                }
            }
            Expr::Unary {
                op: UnOp::Neg,
                expr,
                ..
            } if !has_name(expr) => self.negative = true,
            Expr::Unary { expr, .. } => self.scan(expr),
            Expr::Paren(x, _) => self.scan(x),
            _ => {}
        }
    }
}

/// Where ptxas blames a function's name (a special register's, for
/// one): on the token it read after the name, which for a `.func` is past
/// its parameter lists (a first list may be the return values), and for
/// an `.entry` the `(` of its parameters, written after the name. The tree
/// keeps no span of the lists themselves: past them is the first
/// directive, the body's `{` or the `;`.
fn function_name_blame(f: &crate::syntax::Function) -> Span {
    if !f.is_kernel() || f.params.is_none() {
        if let Some(d) = f.directives.first() {
            return d.span;
        }
        if let Some(b) = &f.body {
            return Span::new(b.span.start, b.span.start.saturating_add(1));
        }
        return Span::new(f.span.end.saturating_sub(1), f.span.end);
    }
    f.name_span
}

/// Where ptxas reports whole-function problems: the closing `}` (or the
/// end of a declaration).
fn function_end(f: &crate::syntax::Function) -> crate::source::Span {
    let end = f.span.end.saturating_sub(1);
    crate::source::Span::new(end, f.span.end)
}

/// Where ptxas blames directive `i` of `f` when it has rule `blame`: the
/// value, or the token after the value list (a list that may go on needs
/// that token to end; a full one of three values does not, and is blamed
/// at its last value).
fn directive_blame(f: &Function, i: usize, blame: Blame) -> Span {
    /// Values in a full `.maxntid`/`.reqntid`/`.reqnctapercluster` list.
    const DIMENSIONS: usize = 3;
    let Some(d) = f.directives.get(i) else {
        return function_end(f);
    };
    match blame {
        Blame::Value => d.args.last().map_or(d.span, |a| a.span),
        // A list of all three dimensions ends at its last value
        // (ptxas needs no lookahead there and blames that line:
        // `.maxntid 0, 1, 1` on its own line is blamed there).
        Blame::Next if d.args.len() >= DIMENSIONS => d.args.last().map_or(d.span, |a| a.span),
        _ => match f.directives.get(i.saturating_add(1)) {
            Some(n) => Span::at(n.span.start),
            None => match &f.body {
                Some(b) => Span::new(b.span.start, b.span.start.saturating_add(1)),
                None => function_end(f),
            },
        },
    }
}

/// Bytes of kernel parameter space from PTX ISA 8.1 on (ptxas 13.5: 0x7ffc).
pub const MAX_KERNEL_PARAM_BYTES: u64 = 0x7ffc;

/// Bytes of kernel parameter space before PTX ISA 8.1 (ptxas 13.5: 0x1100
/// at `.version` 7.0 to 8.0, on every target it takes).
pub const MAX_KERNEL_PARAM_BYTES_BEFORE_8_1: u64 = 0x1100;

/// The kernel parameter space of a module of PTX ISA version `ptx` (the
/// larger limit when no `.version` was read).
pub fn max_kernel_param_bytes(ptx: Option<crate::isa::PtxVersion>) -> u64 {
    match ptx {
        Some(v) if (v.major, v.minor) < (8, 1) => MAX_KERNEL_PARAM_BYTES_BEFORE_8_1,
        _ => MAX_KERNEL_PARAM_BYTES,
    }
}

impl Checker<'_> {
    /// Header directives: `.func` takes only `.noreturn`, `.abi_preserve*`
    /// and `.language`; then the values and conflicts of the kernel
    /// performance directives ([`Checker::directive_values`]).
    fn directive_rules(&mut self, f: &crate::syntax::Function) {
        for d in &f.directives {
            let name = d.name.as_str();
            let func_ok = matches!(
                name,
                ".noreturn" | ".abi_preserve" | ".abi_preserve_control" | ".language"
            );
            if !f.is_kernel() && !func_ok {
                self.emit(Diagnostic::error(
                    Code::Directive,
                    d.span,
                    format!("`{name}` applies to kernels (`.entry`), not to `.func`"),
                ));
            }
        }
        self.directive_values(f);
        self.directive_targets(f);
        if f.is_kernel()
            && f.directive(".minnctapersm").is_some()
            && f.directive(".maxntid").is_none()
            && f.directive(".reqntid").is_none()
        {
            if let Some(d) = f.directive(".minnctapersm") {
                self.emit(Diagnostic::warning(
                    Code::Directive,
                    d.span,
                    "`.minnctapersm` has no effect without `.maxntid` or `.reqntid`",
                ));
            }
        }
        if let Some(d) = f
            .directive(".maxnreg")
            .filter(|d| d.args.first().is_some_and(|a| a.value > 255))
        {
            self.emit(Diagnostic::warning(
                Code::Directive,
                d.span,
                "`.maxnreg` above 255 is ignored",
            ));
        }
    }

    /// Directives introduced late (`directive-since`: a `.version` and a
    /// target they need, blamed as their values are) and directives that need
    /// others beside them (`directive-needs`, blamed at the closing brace).
    fn directive_targets(&mut self, f: &Function) {
        let md = data();
        for (i, d) in f.directives.iter().enumerate() {
            let name = d.name.as_str();
            // Blamed where ptxas has read the whole directive: a value
            // list that may go on ends at the token after it.
            let at = match md.directive(name) {
                Some(rule) => directive_blame(f, i, rule.blame),
                None => d.span,
            };
            for (_, v, sm) in md.directive_since.iter().filter(|(n, _, _)| n == name) {
                if let Some(have) = self.env.ptx.filter(|have| have < v) {
                    self.emit(Diagnostic::error(
                        Code::Directive,
                        at,
                        format!("`{name}` requires PTX ISA .version {v} or later (the module declares {have})"),
                    ));
                }
                if let Some(have) = self.env.sm.filter(|have| have.num < *sm) {
                    self.emit(Diagnostic::error(
                        Code::Directive,
                        at,
                        format!("`{name}` requires .target sm_{sm} or higher, not {have}"),
                    ));
                }
            }
        }
        for (name, needs) in &md.directive_needs {
            if f.directive(name).is_none() {
                continue;
            }
            let missing: Vec<&str> = needs
                .iter()
                .filter(|n| f.directive(n).is_none())
                .map(String::as_str)
                .collect();
            if !missing.is_empty() {
                self.emit(
                    Diagnostic::error(
                        Code::Directive,
                        function_end(f),
                        format!(
                            "`{name}` needs `{}` in the same kernel",
                            needs.join("` and `")
                        ),
                    )
                    .with_note(format!("missing: `{}`", missing.join("`, `"))),
                );
            }
        }
    }

    /// The values of the performance directives (`module.ptxisa`): zero
    /// where a positive value is expected, directives removed from the
    /// module's version, pairs that exclude each other. ptxas blames a
    /// value list (`.reqntid 1, 0`) at the token after it, a single value
    /// at the value.
    fn directive_values(&mut self, f: &Function) {
        let md = data();
        let blame_at = |i: usize, blame: Blame| directive_blame(f, i, blame);
        // Directives whose value was accepted (a rejected one takes no part
        // in a conflict).
        let mut good: Vec<(&str, usize)> = Vec::new();
        for (i, d) in f.directives.iter().enumerate() {
            let name = d.name.as_str();
            let Some(rule) = md.directive(name) else {
                continue;
            };
            let bare = name.trim_start_matches('.');
            let mut ok = true;
            if let (Some(removed), Some(have)) = (rule.removed, self.env.ptx) {
                if have >= removed {
                    ok = false;
                    self.emit(
                        Diagnostic::error(
                            Code::DirectiveValue,
                            blame_at(i, rule.blame),
                            format!("`{name}` is not supported as of PTX ISA {removed} (the module declares {have})"),
                        )
                        .with_note("ptxas: deprecated feature"),
                    );
                }
            }
            // ptxas reads each value into 32 bits: a larger one is a
            // "Constant overflow" on its own line, then taken modulo 2³²
            // (`.maxntid 4294967296` is also a zero).
            for a in d.args.iter().filter(|a| a.value > u64::from(u32::MAX)) {
                self.emit(
                    Diagnostic::error(
                        Code::DirectiveValue,
                        a.span,
                        format!("`{name}` takes 32-bit values; this one does not fit"),
                    )
                    .with_note("ptxas: Constant overflow"),
                );
            }
            if !rule.zero_ok && d.args.iter().any(|a| a.value & u64::from(u32::MAX) == 0) {
                ok = false;
                self.emit(
                    Diagnostic::error(
                        Code::DirectiveValue,
                        blame_at(i, rule.blame),
                        format!("`{name}` expects positive non-zero values"),
                    )
                    .with_note(format!(
                        "ptxas: Positive non-zero value expected for {bare}"
                    )),
                );
            }
            if ok {
                good.push((name, i));
            }
        }
        for (a, b, how) in &md.conflicts {
            let find = |n: &str| good.iter().find(|(g, _)| *g == n).map(|(_, i)| *i);
            let (Some(ia), Some(ib)) = (find(a), find(b)) else {
                continue;
            };
            let span = match how {
                Blame::End => function_end(f),
                _ => {
                    let later = ia.max(ib);
                    let rule = f
                        .directives
                        .get(later)
                        .and_then(|d| md.directive(d.name.as_str()));
                    blame_at(later, rule.map_or(Blame::Value, |r| r.blame))
                }
            };
            let mut d = Diagnostic::error(
                Code::Directive,
                span,
                format!("`{}` has both `{a}` and `{b}`", f.name),
            );
            for (i, n) in [(ia, a), (ib, b)] {
                if let Some(x) = f.directives.get(i) {
                    d = d.with_label(x.span, format!("`{n}` is here"));
                }
            }
            self.emit(d.with_note("give one of them"));
        }
    }

    /// An `.extern` variable may be defined in the same module only with
    /// external linkage (`.visible`/`.weak`/`.common`).
    fn linkage_rules(&mut self, v: &VarDecl) {
        use crate::isa::vocab::Linkage;
        for d in &v.decls {
            match v.linkage {
                Some(Linkage::Extern) => {
                    self.externs.insert(d.name, d.name_span);
                }
                None => {
                    if let Some(first) = self.externs.get(&d.name) {
                        let diag = Diagnostic::error(Code::Linkage, d.name_span, format!("`{}` is declared `.extern` but defined here without external linkage", d.name))
                            .with_label(*first, "declared `.extern` here")
                            .with_note("define it `.visible` (or `.weak`/`.common`)");
                        self.emit(diag);
                    }
                }
                Some(_) => {}
            }
        }
    }

    /// `.address_size`: from PTX ISA 2.3; 32 is checked as 32-bit
    /// addressing and refused at the module's end
    /// ([`Checker::fatal_at_end_rules`]).
    pub(super) fn address_size_rules(&mut self, a: &AddressSize) {
        if a.bits.value == 32 && self.address32.is_none() {
            self.address32 = Some(a.span);
        }
        if let Some(v) = self.env.ptx {
            if v < (crate::isa::PtxVersion { major: 2, minor: 3 }) {
                self.emit(Diagnostic::error(Code::TargetVersion, a.span, format!("`.address_size` requires PTX ISA .version 2.3 or later (the module declares {v})")));
            }
        }
    }

    /// `.address_size 32`, refused at the module's end and only in a
    /// module without other errors, as ptxas 13.5 does ("32-Bit
    /// compilation is no longer supported", a fatal error it reaches only
    /// after the whole module is read; a duplicate declaration, say, is
    /// reported instead).
    ///
    /// A generic or `.global` address held in a 32-bit register is judged
    /// the same way: ptxas 13.5 then reads the module as 32-bit, with or
    /// without `.address_size 64` ("Program uses 32-bit address on line
    /// …", then the same fatal error). The first such use is reported,
    /// with the count of the others.
    ///
    /// Last, where neither applies, a body `.param` read before a `call`
    /// returns into it: ptxas's "Function call sequence invalid" is also
    /// a fatal error of the module's end (it loses to the 32-bit one).
    pub(super) fn fatal_at_end_rules(&mut self) {
        let narrow = self.narrow_globals.take();
        let early = self.early_param_reads.take();
        if self.module_has_errors() {
            return;
        }
        if let Some(span) = self.address32 {
            self.emit(
                Diagnostic::error(
                    Code::AddressSize,
                    span,
                    "32-bit addressing is not supported",
                )
                .with_note("ptxas 13.x compiles only `.address_size 64` modules"),
            );
        } else if let Some((d, more)) = narrow {
            self.emit(with_more(
                *d,
                more,
                "address of the module is held in a 32-bit register",
                "addresses of the module are held in 32-bit registers",
            ));
        } else if let Some((d, more)) = early {
            self.emit(with_more(
                *d,
                more,
                "`.param` is read before a call returns into it",
                "`.param` reads come before a call returns into them",
            ));
        }
    }

    /// Whether the module has an error so far, reported here or elsewhere
    /// ([`crate::check::ModuleChecker::note_errors`]): the rules ptxas
    /// judges only in a module without errors are then not judged.
    pub(super) fn module_has_errors(&self) -> bool {
        self.errors_elsewhere || self.diags.iter().any(Diagnostic::is_error)
    }

    /// Hold `d`, about a generic or `.global` address in a 32-bit
    /// register, for the module's end ([`Checker::fatal_at_end_rules`]).
    pub(super) fn narrow_global(&mut self, d: Diagnostic) {
        hold_late(&mut self.narrow_globals, d);
    }

    /// Hold `d`, about a body `.param` read before a `call` returns into
    /// it, for the module's end ([`Checker::fatal_at_end_rules`]).
    pub(super) fn early_param_read(&mut self, d: Diagnostic) {
        hold_late(&mut self.early_param_reads, d);
    }

    /// `.section` bodies: the values each data line may hold
    /// ([`Checker::section_values`]); labels, label arithmetic and negative
    /// numbers each need a `.version` (`section-feature` lines of
    /// `module.ptxisa`); ptxas blames the line that uses the feature.
    pub(super) fn section_rules(&mut self, s: &Section) {
        for (k, e) in s.entries.iter().enumerate() {
            if let SectionEntry::Data { ty, values, span } = e {
                // ptxas blames a value it cannot store on the token after
                // the line: the next entry, or the closing brace.
                let next =
                    s.entries
                        .get(k.saturating_add(1))
                        .map_or(s.span.end.saturating_sub(1), |n| match n {
                            SectionEntry::Label(_, sp)
                            | SectionEntry::Data { span: sp, .. }
                            | SectionEntry::Bytes { span: sp, .. }
                            | SectionEntry::ByteList { span: sp, .. } => sp.start,
                        });
                self.section_values(*ty, values, *span, Span::new(next, next.saturating_add(1)));
            }
        }
        let Some(have) = self.env.ptx else {
            return;
        };
        let d = data();
        let need = |feature: &str, what: &str, span: Span, diags: &mut Vec<Diagnostic>| {
            if let Some(v) = d.section_feature(feature).filter(|v| have < *v) {
                diags.push(Diagnostic::error(
                    Code::TargetVersion,
                    span,
                    format!("{what} in `.section` requires PTX ISA .version {v} or later (the module declares {have})"),
                ));
            }
        };
        for e in &s.entries {
            match e {
                SectionEntry::Label(_, sp) => {
                    need("label", "a label definition", *sp, &mut self.diags)
                }
                SectionEntry::Data { values, span, .. } => {
                    let mut f = SectionExprFeatures::default();
                    for v in values {
                        f.scan(v);
                    }
                    if f.diff {
                        need("label-diff", "a label difference", *span, &mut self.diags);
                    }
                    if f.offset {
                        need(
                            "label-offset",
                            "a label plus offset",
                            *span,
                            &mut self.diags,
                        );
                    }
                    if f.negative {
                        need("negative", "a negative number", *span, &mut self.diags);
                    }
                }
                // Plain bytes need no feature of a version.
                SectionEntry::Bytes { .. } | SectionEntry::ByteList { .. } => {}
            }
        }
    }

    /// `.version`: one ptxas knows (`module.ptxisa`).
    pub(super) fn version_rules(&mut self, v: &Version) {
        let md = data();
        // ptxas reads the number as a decimal: `8.10` is 8.1.
        let mut minor = v.minor;
        while minor >= 10 && minor.is_multiple_of(10) {
            minor /= 10;
        }
        let known = u8::try_from(v.major)
            .ok()
            .zip(u8::try_from(minor).ok())
            .is_some_and(|(major, minor)| {
                md.knows_version(crate::isa::PtxVersion { major, minor })
            });
        if !known {
            let cur = md.current().map(|c| c.to_string()).unwrap_or_default();
            self.emit(
                Diagnostic::error(
                    Code::UnknownVersion,
                    v.span,
                    format!(
                        "unsupported `.version {}.{}`; the newest is {cur}",
                        v.major, v.minor
                    ),
                )
                .with_note("ptxas 13.5 knows PTX ISA versions 1.0 to 9.5"),
            );
        }
    }

    /// The header is read: an item other than `.version`, `.target` and
    /// `.address_size` comes. ptxas 13.5 judges the architectures of
    /// `.target` against `.version` only then: a module that is a header
    /// alone (`.version 6.1`, `.target sm_90`) is taken, and so is one
    /// whose other header error (`.address_size` before PTX 2.3) is all
    /// it reports.
    pub(super) fn header_read(&mut self) {
        if !self.after_header.is_empty() {
            for d in std::mem::take(&mut self.after_header) {
                self.emit(d);
            }
        }
    }

    /// `.target`: an architecture first, every word a known target or
    /// option (`module.ptxisa`), options of one group not mixed; each
    /// architecture needs a recent enough `.version`; some options apply
    /// only to old targets.
    pub(super) fn target_rules(&mut self, t: &Target) {
        let md = data();
        let arch_like = |w: &str| w.starts_with("sm_") || w.starts_with("compute_");
        if let Some((first, span)) = t.items.first() {
            if !arch_like(first.as_str()) {
                self.emit(
                    Diagnostic::error(
                        Code::UnknownTarget,
                        *span,
                        format!("`.target` must name an architecture first, not `{first}`"),
                    )
                    .with_note("ptxas: Target architecture not defined at start of file"),
                );
                return;
            }
        }
        let mut group: Option<(&str, &str)> = None;
        for (word, span) in &t.items {
            let w = word.as_str();
            if arch_like(w) {
                match md.min_ptx_for(w) {
                    None => self.emit(Diagnostic::error(
                        Code::UnknownTarget,
                        *span,
                        format!("unsupported `.target {w}`"),
                    )),
                    Some(need) => {
                        // Reported once an item follows the header (ptxas
                        // 13.5 takes `.version 6.1` `.target sm_90` alone).
                        if let Some(have) = self.env.ptx.filter(|h| *h < need) {
                            self.after_header.push(Diagnostic::error(
                                Code::TargetVersion,
                                *span,
                                format!("`.target {w}` requires PTX ISA .version {need} or later (the module declares {have})"),
                            ));
                        }
                    }
                }
                if let Some(sm) = crate::check::target::Sm::parse(w) {
                    self.last_target = Some((sm, *span));
                }
                continue;
            }
            match md.option(w) {
                None => self.emit(Diagnostic::error(
                    Code::UnknownTarget,
                    *span,
                    format!("unsupported `.target` option `{w}`"),
                )),
                Some(Some(g)) => match group {
                    Some((og, other)) if og == g && other != w => {
                        self.emit(Diagnostic::error(
                            Code::TargetOption,
                            *span,
                            format!("`.target` option `{w}` conflicts with `{other}`"),
                        ));
                    }
                    Some(_) => {}
                    None => group = Some((g, w)),
                },
                Some(None) => {}
            }
            let below = md.options_below.iter().find(|(o, _)| o == w);
            if let (Some((_, limit)), Some(sm)) = (below, self.env.sm) {
                if sm.num >= *limit {
                    self.emit(
                        Diagnostic::error(
                            Code::TargetOption,
                            *span,
                            format!("`{w}` applies only to targets below sm_{limit}, not {sm}"),
                        )
                        .with_note("sm_13 and later have double precision"),
                    );
                }
            }
        }
    }

    /// At the module's end: the last `.target` (at module scope or in a
    /// body) names an architecture the module's first target can run.
    /// ptxas compiles for one architecture, the first `.target`'s when
    /// checked as `ptx check` does, and judges only the last `.target`
    /// against it ("SM version specified by .target is higher than default
    /// SM version assumed", "PTX with .target 'sm_90a' cannot be compiled
    /// for architecture 'sm_90'"; a higher one followed by a lower one
    /// passes). Not applied under [`super::CheckOptions::target`], which
    /// stands in for the module's targets.
    pub(super) fn last_target_rule(&mut self) {
        if self.opts.target.is_some() {
            return;
        }
        let (Some(have), Some((want, span))) = (self.env.sm, self.last_target) else {
            return;
        };
        if have.satisfies(want) {
            return;
        }
        self.emit(
            Diagnostic::error(
                Code::UnknownTarget,
                span,
                format!("the last `.target`, {want}, cannot be compiled for {have}, the module's first target"),
            )
            .with_note(format!("ptxas compiles a module for one architecture and checks the last `.target` against it: declare {want} first, or end with a `.target` that {have} runs")),
        );
    }

    /// The order of the header: `.target` and `.address_size` only before
    /// the first declaration, one `.address_size`, no `.target` after it
    /// (ptxas: a syntax error at the directive). `.version` first and
    /// `.target` present are the parser's.
    pub(super) fn header_order(&mut self, item: &Item) {
        let (what, span) = match item {
            Item::Version(_) => return,
            Item::Target(t) => (".target", t.span),
            Item::AddressSize(a) => (".address_size", a.span),
            Item::Error(_) => return,
            Item::Function(f) => {
                self.header.declare(f.name_span);
                return;
            }
            other => {
                self.header.declare(other.span());
                return;
            }
        };
        let late = self.header.declared || self.header.address_size;
        if late {
            let why = if self.header.declared {
                "after the first declaration"
            } else if what == ".target" {
                "after `.address_size`"
            } else {
                "twice"
            };
            let mut d = Diagnostic::error(
                Code::HeaderOrder,
                span,
                format!("`{what}` cannot appear {why}"),
            )
            .with_note("a module starts with `.version`, then `.target` (one or more), then at most one `.address_size`, then its declarations");
            let earlier = if self.header.declared {
                self.header
                    .declared_at
                    .map(|s| (s, "the first declaration"))
            } else {
                self.header
                    .address_size_at
                    .map(|s| (s, "the `.address_size`"))
            };
            if let Some((at, label)) = earlier {
                d = d.with_label(at, format!("{label} is here"));
            }
            self.emit(d);
        }
        if what == ".address_size" && !self.header.address_size {
            self.header.address_size = true;
            self.header.address_size_at = Some(span);
        }
    }

    /// `.align N`: a power of two, at most `align-max` (`module.ptxisa`).
    pub(super) fn align_rule(&mut self, align: Option<&crate::syntax::IntLit>) {
        let Some(a) = align else { return };
        if !a.value.is_power_of_two() || a.value > data().align_max {
            self.emit(Diagnostic::error(
                Code::Align,
                a.span,
                format!("`.align {}`: alignment must be a power of two", a.value),
            ));
        }
    }

    /// A function: `.extern` ones have no body, and a function declared
    /// `.extern` earlier is not defined here (ptxas blames the closing
    /// brace).
    pub(super) fn function_linkage(&mut self, f: &Function) {
        use crate::isa::vocab::Linkage;
        let extern_ = f.linkage == Some(Linkage::Extern);
        if f.body.is_none() {
            if extern_ {
                self.externs.insert_new(f.name, f.name_span);
            }
            return;
        }
        let earlier = self.externs.get(&f.name).copied();
        if extern_ || earlier.is_some() {
            let mut d = Diagnostic::error(
                Code::ExternDefined,
                function_end(f),
                format!("`{}` is defined here but declared `.extern`", f.name),
            )
            .with_note(
                "an `.extern` function is defined in another module; drop `.extern` (or the body)",
            );
            if let Some(first) = earlier {
                d = d.with_label(first, "declared `.extern` here");
            }
            self.emit(d);
        }
    }

    /// A declaration word at `span` that `module.ptxisa` says needs a newer
    /// `.version` or `.target` than the module's (`since`).
    pub(super) fn since_rule(&mut self, word: &str, span: Span) {
        let Some((need, sm)) = data().since(word) else {
            return;
        };
        if let Some(have) = self.env.ptx.filter(|h| *h < need) {
            self.emit(Diagnostic::error(
                Code::DeclVersion,
                span,
                format!("`{word}` requires PTX ISA .version {need} or later (the module declares {have})"),
            ));
        }
        if let (Some(have), Some(num)) = (self.env.sm, sm) {
            if have.num < num {
                self.emit(Diagnostic::error(
                    Code::DeclVersion,
                    span,
                    format!(
                        "`{word}` requires .target sm_{num} or higher (the module declares {have})"
                    ),
                ));
            }
        }
    }

    /// The `since` words of a declaration: its linkage and its type.
    fn decl_since(
        &mut self,
        linkage: Option<crate::isa::vocab::Linkage>,
        ty: ScalarType,
        span: Span,
    ) {
        if let Some(l) = linkage {
            self.since_rule(l.as_str(), span);
        }
        self.since_rule(ty.as_str(), span);
    }

    /// A module-scope variable: the declaration rules, and linkage against
    /// earlier `.extern` declarations.
    pub(super) fn global_rules(&mut self, v: &VarDecl) {
        self.decl_rules_with(v, None);
        self.linkage_rules(v);
        self.module_space_rule(v);
        self.module_var_rules(v);
    }

    /// What only a module-scope variable is checked for: its names (not a
    /// special register's) and, for a texture, sampler or surface
    /// reference, its mode and fields.
    fn module_var_rules(&mut self, v: &VarDecl) {
        for d in &v.decls {
            self.module_name_rule(d.name, d.name_span, "variable");
        }
        self.opaque_rules(v);
    }

    /// A `.target` in a function's body: checked as one at module scope,
    /// and an option of a group (the texture mode) that the module is not
    /// in is a conflict (ptxas 13.5: "Conflicting .target option").
    pub(super) fn body_target_rules(&mut self, t: &Target) {
        self.target_rules(t);
        let md = data();
        for (n, span) in &t.items {
            let grouped = matches!(md.option(n.as_str()), Some(Some(_)));
            if grouped && !md.option_holds(n.as_str(), self.env.opts) {
                self.emit(Diagnostic::error(
                    Code::UnknownTarget,
                    *span,
                    format!("`{n}` conflicts with the module's `.target`, which is not in it"),
                ));
            }
        }
    }

    /// A `.callprototype`: its directives' versions, and no directive a
    /// function with return values cannot have (`directive-no-returns`).
    pub(super) fn prototype_rules(&mut self, c: &crate::syntax::CallPrototype) {
        for d in &c.directives {
            self.since_rule(d.name.as_str(), d.span);
        }
        let returns = c.rets.as_ref().is_some_and(|r| !r.is_empty());
        if c.noreturn && returns && data().directive_no_returns.iter().any(|d| d == ".noreturn") {
            self.emit(Diagnostic::error(
                Code::Directive,
                c.span,
                format!("`{}` returns values, so it cannot be `.noreturn`", c.label),
            ));
        }
    }

    /// A module-scope variable or function named `n` (`what`): not a
    /// special register's name (`module-names-not-sregs`); blamed at
    /// `span`.
    fn module_name_rule(&mut self, n: Name, span: Span, what: &str) {
        if !data().module_names_not_sregs
            || crate::isa::catalog().special_register(n.as_str()).is_none()
        {
            return;
        }
        self.emit(
            Diagnostic::error(
                Code::Duplicate,
                span,
                format!("`{n}` is a special register: a module-scope {what} cannot take its name"),
            )
            .with_note("a function's registers, variables, labels and parameters may; names at module scope may not"),
        );
    }

    /// The state space a `.ptr` attribute names (`ptr-spaces`).
    fn ptr_space_rule(&mut self, ptr: &crate::syntax::PtrAttr) {
        let spaces = &data().ptr_spaces;
        let Some(space) = ptr
            .space
            .filter(|s| !spaces.is_empty() && !spaces.contains(s))
        else {
            return;
        };
        self.emit(Diagnostic::error(
            Code::DeclType,
            ptr.span,
            format!(
                "`.ptr` cannot point to {space}: it names {}",
                join_spaces(spaces)
            ),
        ));
    }

    /// [`Checker::global_rules`] for a declaration whose last initializer
    /// was read in parts: `long` is what its walk found.
    pub(super) fn long_global_rules(&mut self, v: &VarDecl, long: ListInParts) {
        self.decl_rules_with(v, Some(long));
        self.linkage_rules(v);
        self.module_space_rule(v);
        self.module_var_rules(v);
    }

    /// What a declared variable, register or parameter may be
    /// (`var-vectors`, `var-vector-bits`, `var-pred-space`,
    /// `var-type-never` in `module.ptxisa`): a vector of an allowed length
    /// and at most the size limit, a `.pred` only as a scalar in `.reg`, no
    /// type only instructions take. `names` are the names it declares.
    fn decl_shape_rules(&mut self, d: DeclShape, names: impl Iterator<Item = (Name, Span, bool)>) {
        let md = data();
        let ty = d.ty.as_str();
        let space = d.space.as_str();
        if let Some(n) = d.vector {
            let bits = d.ty.bits().saturating_mul(u32::from(n));
            if !md.var_vectors.contains(&n) {
                let lengths: Vec<String> =
                    md.var_vectors.iter().map(|n| format!(".v{n}")).collect();
                self.emit(
                    Diagnostic::error(
                        Code::DeclType,
                        d.span,
                        format!("a declaration cannot be a `.v{n}` vector"),
                    )
                    .with_note(format!(
                        "variables, registers and parameters are scalars or {} vectors (`.v{n}` is an instruction's vector only)",
                        lengths.join(" or ")
                    )),
                );
            } else if d.ty != ScalarType::Pred && bits > md.var_vector_bits {
                self.emit(Diagnostic::error(
                    Code::DeclType,
                    d.span,
                    format!(
                        "`.v{n} {ty}` is a vector of {bits} bits, past the {}-bit limit of a declared vector",
                        md.var_vector_bits
                    ),
                ));
            }
        }
        if md.var_type_never.contains(&d.ty) {
            self.emit(
                Diagnostic::error(
                    Code::DeclType,
                    d.span,
                    format!("`{ty}` is a type only instructions take; nothing can be declared with it"),
                )
                .with_note(format!(
                    "declare it by its size (`.b{}`) and give `{ty}` on the instructions that read it",
                    d.ty.bits()
                )),
            );
        }
        // The rules about each name: an array where none may be, a
        // predicate outside its space. Most declarations break neither,
        // and their names are not walked.
        let pred_space = md.var_pred_space.filter(|_| d.ty == ScalarType::Pred);
        if let (Some(want), Some(_)) = (pred_space, d.vector) {
            self.emit(Diagnostic::error(
                Code::DeclType,
                d.span,
                format!("a `.pred` is declared only as a scalar (in {want}), not as a vector"),
            ));
        }
        let bad_pred = pred_space.filter(|want| d.vector.is_none() && d.space != *want);
        let no_arrays = md.array_never.contains(&d.space);
        if bad_pred.is_none() && !no_arrays {
            return;
        }
        for (name, span, array) in names {
            if no_arrays && array {
                self.emit(Diagnostic::error(
                    Code::DeclType,
                    span,
                    format!("`{name}` is an array in {space}, which holds no arrays: declare it in .local (or as separate registers)"),
                ));
            }
            if let Some(want) = bad_pred {
                self.emit(
                    Diagnostic::error(
                        Code::DeclType,
                        span,
                        format!("`{name}` is a predicate in {space}: a predicate is declared only in {want}"),
                    )
                    .with_note(format!(
                        "declare it `{want} .pred`; to keep a predicate in memory, store it as an integer (`selp.u32`)"
                    )),
                );
            }
        }
    }

    /// A variable in a state space `module.ptxisa` removes from the
    /// module's `.version` on (`space-removed`: `.tex` from 1.5).
    fn space_removed_rule(&mut self, v: &VarDecl) {
        let space = v.space.as_str();
        let Some(from) = data().space_removed(v.space) else {
            return;
        };
        let Some(have) = self.env.ptx.filter(|h| *h >= from) else {
            return;
        };
        self.emit(
            Diagnostic::error(
                Code::ModuleSpace,
                v.span,
                format!("{space} variables are not supported from PTX ISA {from} on (the module declares {have})"),
            )
            .with_note("declare a `.texref` at module scope, or pass a texture object (`.u64`) as a parameter"),
        );
    }

    /// A variable of a function's body of a type or in a state space
    /// `module.ptxisa` keeps out of functions (`opaque-types`: `.texref`
    /// and the like; `function-space-never`: `.tex`).
    pub(super) fn function_space_rule(&mut self, v: &VarDecl) {
        let md = data();
        let space = v.space.as_str();
        let ty = v.ty.as_str();
        if md.opaque_types.contains(&v.ty) {
            self.emit(Diagnostic::error(
                Code::ModuleSpace,
                v.span,
                format!("{ty} variables are declared at module scope or as a kernel's parameters, not in a function's body"),
            ));
        }
        if md.function_spaces_never.contains(&v.space) {
            self.emit(Diagnostic::error(
                Code::ModuleSpace,
                v.span,
                format!("{space} variables are declared at module scope only, not in a function"),
            ));
        }
    }

    /// What `module.ptxisa` says of a function's header as a whole
    /// (`entry-param-space`, `returns-space`, `param-vector-never`,
    /// `directive-no-returns`, `ptr-kernel-only`, `linkage-space`).
    fn header_rules(&mut self, f: &Function) {
        let md = data();
        if let Some(l) = f.linkage {
            if md.linkage_spaces.iter().any(|(n, _)| n == l.as_str()) {
                self.emit(Diagnostic::error(
                    Code::DeclType,
                    f.span,
                    format!(
                        "a function cannot be `{}`; that linkage is for variables",
                        l.as_str()
                    ),
                ));
            }
        }
        let rets = f.rets.as_deref().unwrap_or_default();
        let params = f.params.as_deref().unwrap_or_default();
        // ptxas blames what follows the header for its rules as a whole:
        // the body's `{` (or the end of a prototype).
        let after_header = f
            .body
            .as_ref()
            .map_or(Span::new(f.span.end, f.span.end), |b| {
                Span::new(b.span.start, b.span.start.saturating_add(1))
            });
        let kernel = f.is_kernel();
        let several = rets.len() > 1;
        // One pass over the return values and the parameters.
        for (p, ret) in rets
            .iter()
            .map(|p| (p, true))
            .chain(params.iter().map(|p| (p, false)))
        {
            if kernel {
                if let Some(want) = md.entry_param_space.filter(|w| !ret && p.space != *w) {
                    self.emit(Diagnostic::error(
                        Code::DeclType,
                        p.span,
                        format!(
                            "kernel parameter `{}` is in {}: a kernel's parameters are {want}",
                            p.name, p.space
                        ),
                    ));
                }
            } else {
                if md.opaque_types.contains(&p.ty) {
                    self.emit(Diagnostic::error(
                        Code::DeclType,
                        p.span,
                        format!("`{}` is a {}: only a kernel's parameters may be, not those of `.func {}`", p.name, p.ty, f.name),
                    ));
                }
                if let Some(ptr) = p.ptr.as_ref().filter(|_| md.ptr_kernel_only) {
                    self.emit(Diagnostic::error(
                        Code::DeclType,
                        ptr.span,
                        format!(
                            "`.ptr` describes a kernel's parameters only, not those of `.func {}`",
                            f.name
                        ),
                    ));
                }
            }
            if let Some(want) = md.returns_space.filter(|w| ret && several && p.space != *w) {
                self.emit(Diagnostic::error(
                    Code::DeclType,
                    after_header,
                    format!("return value `{}` is in {}: a function of several return values returns each in {want}", p.name, p.space),
                ));
            }
            if p.vector.is_some() && md.param_vector_never.contains(&p.space) {
                self.emit(Diagnostic::error(
                    Code::DeclType,
                    p.span,
                    format!("`{}` is a vector in {}, which a parameter cannot be: pass an array of the element type (`.align` it as the vector)", p.name, p.space),
                ));
            }
        }
        for d in &f.directives {
            let name = d.name.as_str();
            if name == ".pragma" {
                self.pragma_rules(&d.strings, d.span, "entry");
            }
            if !rets.is_empty() && md.directive_no_returns.iter().any(|n| n == name) {
                self.emit(Diagnostic::error(
                    Code::Directive,
                    after_header,
                    format!(
                        "`{name}` does not apply to `{}`, which returns a value",
                        f.name
                    ),
                ));
            }
        }
    }

    /// The strings of a `.pragma` at `scope` (`module` or `entry`) that
    /// `module.ptxisa` does not take there (`pragma` lines): a
    /// function-scope string, or at module scope one ptxas does not know.
    pub(super) fn pragma_rules(&mut self, strings: &[Name], span: Span, scope: &str) {
        let md = data();
        for s in strings {
            let text = s.as_str().trim_matches('"');
            let word = text.split_whitespace().next().unwrap_or_default();
            match md.pragmas.iter().find(|(w, _)| w == word) {
                Some((_, scopes)) if scopes.iter().any(|s| s == scope) => {
                    // The PTX version the string needs (`since` facts).
                    self.since_rule(word, span);
                }
                Some(_) => self.emit(Diagnostic::error(
                    Code::Directive,
                    span,
                    format!("pragma \"{text}\" is taken only inside a function's body, not at {scope} scope"),
                )),
                None if scope == "module" => self.emit(
                    Diagnostic::error(
                        Code::Directive,
                        span,
                        format!("pragma \"{text}\" is not one ptxas knows, which at module scope is an error"),
                    )
                    .with_note("at module scope ptxas takes \"nounroll\" only"),
                ),
                None => {}
            }
        }
    }

    /// A variable whose linkage `module.ptxisa` ties to some state spaces
    /// (`linkage-space`: `.common` on `.global` only).
    fn variable_linkage_rule(&mut self, v: &VarDecl) {
        let Some(l) = v.linkage else { return };
        let Some((_, spaces)) = data().linkage_spaces.iter().find(|(n, _)| n == l.as_str()) else {
            return;
        };
        if !spaces.contains(&v.space) {
            self.emit(Diagnostic::error(
                Code::DeclType,
                v.span,
                format!(
                    "a `{}` variable must be in {}, not {}",
                    l.as_str(),
                    join_spaces(spaces),
                    v.space
                ),
            ));
        }
    }

    /// An `.attribute` of a variable in a state space that `module.ptxisa`
    /// does not give it (`attribute-space`: `.managed` on `.global` only).
    fn attribute_rules(&mut self, v: &VarDecl) {
        let Some(a) = &v.attribute else { return };
        let space = v.space.as_str();
        for name in &a.names {
            let Some((_, spaces)) = data()
                .attribute_spaces
                .iter()
                .find(|(n, _)| n == name.as_str())
            else {
                continue;
            };
            if !spaces.contains(&v.space) {
                self.emit(Diagnostic::error(
                    Code::DeclType,
                    a.span,
                    format!(
                        "`{name}` is an attribute of {} variables only, not of {space} ones",
                        join_spaces(spaces)
                    ),
                ));
            }
        }
    }

    /// A module-scope variable in a state space that `module.ptxisa`
    /// removes from module scope (`module-space-removed`: `.reg`, `.local`
    /// from PTX ISA 3.0): an error on each declarator, as ptxas gives.
    fn module_space_rule(&mut self, v: &VarDecl) {
        let space = v.space.as_str();
        let Some(from) = data().module_space_removed(v.space) else {
            return;
        };
        let Some(have) = self.env.ptx.filter(|h| *h >= from) else {
            return;
        };
        let always = from <= (crate::isa::PtxVersion { major: 1, minor: 0 });
        for d in &v.decls {
            let (msg, note) = if always {
                (
                    format!("`{}` is declared in {space} outside any function, which PTX does not allow", d.name),
                    format!("{space} variables belong to a function: declare it in a function's header or body"),
                )
            } else {
                (
                    format!(
                        "`{}` is declared in {space} outside any function, which PTX ISA {from} and later do not allow (the module declares {have})",
                        d.name
                    ),
                    format!(
                        "declare {space} variables inside the function that uses them; ptxas takes them at module scope only below .version {from}, and then gives up the ABI"
                    ),
                )
            };
            self.emit(Diagnostic::error(Code::ModuleSpace, d.name_span, msg).with_note(note));
        }
    }

    /// A variable declaration, in a module or a function: a complete type
    /// (unless `.extern`), an initializer only where its space allows one.
    pub(super) fn decl_rules(&mut self, v: &VarDecl) {
        self.decl_rules_with(v, None);
    }

    /// [`Checker::decl_rules`]; with `long`, the last declarator's
    /// initializer was read in parts (its `init` is `None` in `v`).
    pub(super) fn decl_rules_with(&mut self, v: &VarDecl, long: Option<ListInParts>) {
        let extern_ = v.linkage == Some(crate::isa::vocab::Linkage::Extern);
        self.decl_since(v.linkage, v.ty, v.span);
        self.align_rule(v.align.as_ref());
        let shape = DeclShape {
            space: v.space,
            vector: v.vector,
            ty: v.ty,
            span: v.span,
        };
        self.decl_shape_rules(
            shape,
            v.decls
                .iter()
                .map(|d| (d.name, d.name_span, !d.dims.is_empty())),
        );
        self.attribute_rules(v);
        self.space_removed_rule(v);
        self.variable_linkage_rule(v);
        for d in v.decls.iter().filter(|d| d.name.is_sink()) {
            self.emit(Diagnostic::error(
                Code::DeclType,
                d.name_span,
                "`_` is the sink of instructions' results; it cannot be declared",
            ));
        }
        let last = v.decls.len().saturating_sub(1);
        for (i, d) in v.decls.iter().enumerate() {
            let streamed = if i == last { long.as_ref() } else { None };
            let has_init = d.init.is_some() || streamed.is_some();
            let no_size = d.dims.first().is_some_and(Option::is_none);
            let no_init = match &streamed {
                Some(l) => l.len == 0,
                None => d.init.as_ref().is_none_or(|i| i.list_len() == Some(0)),
            };
            // A dimension of 0 makes the type incomplete too (ptxas 13.5:
            // `.global .b8 g[0];` "has incomplete type", with or without an
            // initializer); past the first, an empty or 0 dimension makes
            // an array of an incomplete type, `.extern` or not.
            let zero = |e: &Option<crate::syntax::Expr>| {
                e.as_ref()
                    .is_some_and(|e| crate::syntax::consteval::eval_int(e) == Some(0))
            };
            let zero_size = d.dims.first().is_some_and(zero);
            if zero_size && !extern_ {
                self.emit(
                    Diagnostic::error(
                        Code::Incomplete,
                        d.name_span,
                        format!("`{}` has an array type of size 0", d.name),
                    )
                    .with_note("only `.extern` variables may have an incomplete type"),
                );
            } else if d.dims.iter().skip(1).any(|x| x.is_none() || zero(x)) {
                self.emit(Diagnostic::error(
                    Code::Incomplete,
                    d.name_span,
                    format!(
                        "`{}` is an array of an incomplete type: only its first dimension may be empty",
                        d.name
                    ),
                ));
            }
            if no_size && no_init && !extern_ {
                self.emit(
                    Diagnostic::error(
                        Code::Incomplete,
                        d.name_span,
                        format!("`{}` has an unsized array type and no initializer", d.name),
                    )
                    .with_note("only `.extern` variables may have an incomplete type"),
                );
            }
            if has_init
                && matches!(
                    v.space,
                    StateSpace::Shared | StateSpace::Local | StateSpace::Reg | StateSpace::Param
                )
            {
                self.emit(Diagnostic::error(
                    Code::Initializer,
                    d.name_span,
                    format!("variables in {} cannot have an initial value", v.space),
                ));
            } else if has_init {
                if extern_ {
                    self.emit(Diagnostic::error(
                        Code::Initializer,
                        d.name_span,
                        format!(
                            "`.extern` variable `{}` cannot have an initial value",
                            d.name
                        ),
                    ));
                } else if let Some(l) = streamed {
                    if self.initializer_applies(v, l.span) {
                        if let Some(diag) = &l.first {
                            self.emit(diag.clone());
                        }
                    }
                } else if let Some(init) = &d.init {
                    self.initializer_rules(v, d, init);
                }
            }
        }
    }

    /// A function's header: directives, and a kernel's parameter space.
    pub(super) fn function_rules(&mut self, f: &Function) {
        self.directive_rules(f);
        self.function_linkage(f);
        if let Some(l) = f.linkage {
            self.since_rule(l.as_str(), f.name_span);
        }
        for d in &f.directives {
            self.since_rule(d.name.as_str(), d.span);
        }
        for p in f.rets.iter().flatten().chain(f.params()) {
            self.align_rule(p.align.as_ref());
            self.since_rule(p.ty.as_str(), p.span);
            let shape = DeclShape {
                space: p.space,
                vector: p.vector,
                ty: p.ty,
                span: p.span,
            };
            self.decl_shape_rules(
                shape,
                std::iter::once((p.name, p.name_span, !p.dims.is_empty())),
            );
            if let Some(ptr) = &p.ptr {
                self.align_rule(ptr.align.as_ref());
                self.ptr_space_rule(ptr);
            }
        }
        self.header_rules(f);
        self.module_name_rule(f.name, function_name_blame(f), "function");
        if !f.is_kernel() {
            return;
        }
        for p in f.params() {
            self.opaque_mode_rule(p.ty, p.name_span);
        }
        let mut bytes = 0u64;
        for p in f.params() {
            let align = p.align.map_or(p.ty.size_bytes().max(1), |a| a.value.max(1));
            let size = crate::analysis::summary::param_bytes(p);
            bytes = bytes
                .div_ceil(align)
                .saturating_mul(align)
                .saturating_add(size);
        }
        let max = max_kernel_param_bytes(self.env.ptx);
        if bytes > max {
            let note = if max < MAX_KERNEL_PARAM_BYTES {
                format!("PTX ISA 8.1 and later allow {MAX_KERNEL_PARAM_BYTES} bytes; or pass large data through global memory")
            } else {
                "pass large data through global memory instead".to_string()
            };
            self.emit(
                Diagnostic::error(
                    Code::ParamSpace,
                    function_end(f),
                    format!(
                        "kernel `{}` needs {bytes} bytes of parameters; the limit is {max}",
                        f.name
                    ),
                )
                .with_label(f.name_span, "parameters declared here")
                .with_note(note),
            );
        }
        for p in f.params() {
            if p.dims.first().is_some_and(Option::is_none) {
                self.emit(Diagnostic::error(
                    Code::Incomplete,
                    p.name_span,
                    format!("kernel parameter `{}` cannot be an unsized array", p.name),
                ));
            }
        }
    }
}

/// What an initializer value is, for the kind check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Int,
    Float,
    /// A symbol's address (`a`, `generic(a)`, `a+4`).
    Address,
    /// Integer and floating-point values mixed (`1.0 + 1`).
    Mixed,
    /// An address in a form ptxas does not parse (`-a`, `a - 4`, `(a)`).
    BadAddress,
    /// A floating-point value where ptxas evaluates only integers (any
    /// part of `c ? a : b`, the operands of `%`, `&`, `<<`, `&&`, `~`…).
    FloatInInteger,
    /// Something else (left to other checks).
    Unknown,
}

/// The kind of `l op r` (see [`kind_of`]).
fn kind_op(op: crate::syntax::BinOp, l: Kind, r: Kind) -> Kind {
    use crate::syntax::BinOp;
    if l == Kind::BadAddress || r == Kind::BadAddress {
        return Kind::BadAddress;
    }
    let arithmetic = matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div);
    let comparison = matches!(
        op,
        BinOp::Lt | BinOp::Gt | BinOp::Le | BinOp::Ge | BinOp::Eq | BinOp::Ne
    );
    if l == Kind::Address || r == Kind::Address {
        return match (op, l, r) {
            (BinOp::Add, Kind::Address, Kind::Int) => Kind::Address,
            // `g+1.5`: an offset is an integer.
            (BinOp::Add, Kind::Address, Kind::Float | Kind::Mixed | Kind::FloatInInteger) => {
                Kind::FloatInInteger
            }
            _ => Kind::BadAddress,
        };
    }
    match (l, r) {
        (Kind::FloatInInteger, _) | (_, Kind::FloatInInteger) => Kind::FloatInInteger,
        (Kind::Mixed, _) | (_, Kind::Mixed) => Kind::Mixed,
        (Kind::Int, Kind::Float) | (Kind::Float, Kind::Int) => Kind::Mixed,
        (Kind::Int, Kind::Int) => Kind::Int,
        // Two floats: compared, an integer; added, a float; the
        // other operators take integers only.
        (Kind::Float, Kind::Float) if comparison => Kind::Int,
        (Kind::Float, Kind::Float) if arithmetic => Kind::Float,
        (Kind::Float, Kind::Float) => Kind::FloatInInteger,
        _ => Kind::Unknown,
    }
}

/// The kind of a constant expression as ptxas types it: comparisons and
/// logic give integers; arithmetic on a float gives a float.
fn kind_of(e: &Expr) -> Kind {
    use crate::syntax::UnOp;
    match e {
        Expr::Int(_) => Kind::Int,
        Expr::Float(_) => Kind::Float,
        Expr::Name(n, _) if n.is_warp_size() => Kind::Int,
        Expr::Name(..) | Expr::Generic(..) => Kind::Address,
        Expr::Paren(inner, _) => match kind_of(inner) {
            Kind::Address => Kind::BadAddress,
            k => k,
        },
        Expr::Unary { op, expr, .. } => match (op, kind_of(expr)) {
            (_, Kind::Address | Kind::BadAddress) => Kind::BadAddress,
            (UnOp::Neg | UnOp::Plus, k) => k,
            (_, Kind::Int) => Kind::Int,
            (_, Kind::Float | Kind::FloatInInteger) => Kind::FloatInInteger,
            (_, Kind::Mixed) => Kind::Mixed,
            _ => Kind::Unknown,
        },
        Expr::Binary(b) => kind_op(b.op, kind_of(&b.lhs), kind_of(&b.rhs)),
        Expr::Chain(c) => {
            let mut k = kind_of(&c.first);
            for l in &c.links {
                k = kind_op(l.op, k, kind_of(&l.rhs));
            }
            k
        }
        Expr::Cond(c) => {
            let parts = [&c.cond, &c.then, &c.otherwise].map(kind_of);
            if parts.contains(&Kind::Mixed) {
                Kind::Mixed
            } else if parts
                .iter()
                .any(|k| matches!(k, Kind::Float | Kind::FloatInInteger))
            {
                Kind::FloatInInteger
            } else if parts.iter().all(|k| *k == Kind::Int) {
                Kind::Int
            } else {
                Kind::Unknown
            }
        }
        _ => Kind::Unknown,
    }
}

impl Checker<'_> {
    /// An initializer against its variable's type (ptxas 13.5): no more
    /// elements than an array dimension holds, exactly a vector's length,
    /// a list exactly where an array or vector is, and values of a kind
    /// the type takes (no integer for a float, no float for an integer,
    /// an address only for the types of `init-address`). ptxas stops at
    /// the first such error: one per declarator.
    fn initializer_rules(
        &mut self,
        v: &VarDecl,
        d: &crate::syntax::Declarator,
        init: &Initializer,
    ) {
        if !self.initializer_applies(v, init.span()) {
            return;
        }
        let mut walk = super::init_walk::InitWalk::new(v, d);
        walk.tree(init);
        if let Some(diag) = walk.finish() {
            self.emit(diag);
        }
    }

    /// Whether an initializer (at `span`) is walked against `v`'s shape:
    /// not for a type that takes none (an error here). (The walk of a
    /// texture, sampler or surface initializer checks its fields only.)
    fn initializer_applies(&mut self, v: &VarDecl, span: Span) -> bool {
        let ty = v.ty.as_str();
        if data().init_none.iter().any(|t| t == ty) {
            self.emit(Diagnostic::error(
                Code::InitKind,
                span,
                format!("no initial value is allowed for a `{ty}` variable"),
            ));
            return false;
        }
        true
    }
}

/// What the walk of an initializer read in parts found, for the rules of
/// its declaration at its end.
pub(super) struct ListInParts {
    /// The list's span.
    pub(super) span: Span,
    /// Its elements.
    pub(super) len: u64,
    /// The first error of its walk ([`super::init_walk::InitWalk::finish`]).
    pub(super) first: Option<Diagnostic>,
}

/// One value against the element type `ty`.
pub(super) fn init_value(ty: ScalarType, e: &Expr) -> Option<Diagnostic> {
    let int = ty.is_integer();
    let float = matches!(ty, ScalarType::F32 | ScalarType::F64);
    let bits = matches!(
        ty,
        ScalarType::B8 | ScalarType::B16 | ScalarType::B32 | ScalarType::B64
    );
    let md = data();
    let address_ok = md.init_address.iter().any(|t| t == ty.as_str());
    let never = md.init_never.iter().any(|t| t == ty.as_str());
    let bad = match kind_of(e) {
        _ if never => "this type takes no initial value of any kind",
        Kind::Mixed => "the constant expression mixes integer and floating-point values",
        Kind::FloatInInteger => {
            "a floating-point value where ptxas evaluates integers only \
             (an address offset, `?:`, `%`, bit and logical operators)"
        }
        Kind::BadAddress => "an address must be `name`, `generic(name)` or `name + offset`",
        Kind::Float if int => "a floating-point value for an integer type",
        Kind::Int if float => "an integer value for a floating-point type",
        Kind::Address if (int || float || bits) && !address_ok => {
            "an address for a type that cannot hold one"
        }
        _ => return None,
    };
    Some(
        Diagnostic::error(
            Code::InitKind,
            e.span(),
            format!("initial value type mismatch: {bad}"),
        )
        .with_note(format!("the variable is `{}`", ty)),
    )
}

/// An array dimension's length, if a constant.
pub(super) fn dim_len(e: Option<&Expr>) -> Option<u64> {
    e.and_then(crate::syntax::consteval::eval_int)
        .and_then(|n| u64::try_from(n).ok())
}

/// Keep the first of a kind of diagnostic held for the module's end, and
/// count the others.
fn hold_late(slot: &mut Option<(Box<Diagnostic>, u64)>, d: Diagnostic) {
    match slot {
        Some((_, more)) => *more = more.saturating_add(1),
        None => *slot = Some((Box::new(d), 0)),
    }
}

/// `d` with a note counting the `more` like it that were held back.
fn with_more(d: Diagnostic, more: u64, one: &str, many: &str) -> Diagnostic {
    match more {
        0 => d,
        1 => d.with_note(format!("1 more {one}")),
        n => d.with_note(format!("{n} more {many}")),
    }
}

#[cfg(test)]
mod tests {
    use crate::check::{check, CheckOptions};

    /// The lines of the errors of parse + check on a module with one
    /// `.section .debug_info` holding `lines` (the first is line 7).
    fn error_lines(version: &str, target: &str, lines: &[&str]) -> Vec<u32> {
        let src = format!(
            ".version {version}\n.target {target}\n.address_size 64\n.visible .entry k() {{ ret; }}\n\
             .section .debug_info\n{{\n{}\n}}\n",
            lines.join("\n")
        );
        let parsed = crate::parse(src.as_bytes());
        let mut d = parsed.diagnostics.clone();
        d.extend(check(&parsed.module, &CheckOptions::default()));
        let index = crate::LineIndex::new(src.as_bytes());
        d.iter()
            .filter(|d| d.is_error())
            .map(|d| index.line_col(d.span.start).line)
            .collect()
    }

    /// `.section` features by version, each side as ptxas 13.5 judges it.
    #[test]
    fn section_features_need_their_version() {
        let labels = [
            "$La:",
            ".b8 1",
            "$Lb:",
            ".b32 $Lb-$La",
            ".b64 $La+4",
            ".b8 -1",
        ];
        assert_eq!(error_lines("6.5", "sm_75", &labels), vec![7, 9, 10, 12]);
        assert_eq!(error_lines("7.0", "sm_75", &labels), vec![10, 12]);
        assert!(error_lines("7.5", "sm_75", &labels).is_empty());
        assert_eq!(
            error_lines("3.1", "sm_30", &[".b32 .debug_info+4"]),
            vec![7]
        );
        assert!(
            error_lines("3.2", "sm_30", &[".b32 .debug_info+4", ".b32 .debug_info"]).is_empty()
        );
    }

    /// The lines of parse + check errors on a module at `.target t`,
    /// `.version v`.
    fn lines(t: &str, v: &str, body: &str) -> Vec<u32> {
        let src = format!(".version {v}\n.target {t}\n.address_size 64\n{body}");
        let parsed = crate::parse(src.as_bytes());
        let mut d = parsed.diagnostics.clone();
        d.extend(check(&parsed.module, &CheckOptions::default()));
        let index = crate::LineIndex::new(src.as_bytes());
        let mut l: Vec<u32> = d
            .iter()
            .filter(|d| d.is_error())
            .map(|d| index.line_col(d.span.start).line)
            .collect();
        l.dedup();
        l
    }

    /// `since` words (ptxas 13.5: each line refused below the version or
    /// target named in module.ptxisa, accepted from it on).
    #[test]
    fn declaration_words_need_their_version_and_target() {
        let body = ".weak .global .align 4 .b32 w;\n\
                    .common .global .align 4 .b32 c;\n\
                    .func f()\n{\nret;\n}\n\
                    .func g();\n\
                    .alias g, f;\n\
                    .func h() .noreturn\n{\ntrap;\n}\n\
                    .visible .entry k()\n{\n.reg .f16x2 x;\n.reg .f16 y;\nret;\n}\n";
        assert_eq!(lines("sm_50", "6.0", body), vec![11, 12, 18]);
        assert_eq!(lines("sm_50", "4.0", body), vec![5, 11, 12, 18]);
        assert_eq!(lines("sm_53", "3.1", body).len(), 5);
        assert!(lines("sm_53", "6.4", body).is_empty());
        assert!(lines("sm_70", "6.4", ".global .align 16 .b128 q;\n").len() == 1);
        assert!(lines("sm_70", "8.3", ".global .align 16 .b128 q;\n").is_empty());
        assert!(lines("sm_60", "8.3", ".global .align 16 .b128 q;\n").len() == 1);
        assert!(lines(
            "sm_90",
            "7.8",
            ".entry k() .reqnctapercluster 2\n{\nret;\n}\n"
        )
        .is_empty());
        // Blamed at the `{` that ends its value list, as ptxas 13.5 does
        // (line 5, not the directive's line 4).
        assert_eq!(
            lines(
                "sm_80",
                "7.8",
                ".entry k() .reqnctapercluster 2\n{\nret;\n}\n"
            ),
            vec![5]
        );
    }
}
