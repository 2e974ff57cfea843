//! The semantic checker: what ptxas verifies after parsing, from the
//! catalog's data. Separate from the parser; it reads a parsed [`Module`].
//!
//! Passes: module rules ([`module_rules`]), symbols and calls ([`symbols`]),
//! version/target gating of instructions ([`gating`]).

mod body;
pub mod gating;
pub mod mod_rules;
pub mod module_data;
pub mod module_rules;
mod opclass;
mod operand_kinds;
mod operands;
pub mod rules;
pub mod symbols;
pub mod target;

use crate::diag::Diagnostic;
use crate::isa::PtxVersion;
use crate::syntax::{Instruction, Item, Module};
use symbols::ModuleScope;
use target::{Env, Sm};

/// Options of a check.
#[derive(Clone, Debug, Default)]
pub struct CheckOptions {
    /// Check against this target (`sm_90a`) instead of the module's `.target`.
    pub target: Option<String>,
    /// Check against this PTX version instead of the module's `.version`.
    pub version: Option<PtxVersion>,
}

pub(crate) struct Checker<'o> {
    pub(crate) env: Env,
    pub(crate) diags: Vec<Diagnostic>,
    /// `.extern` variables seen so far (for the linkage rule).
    pub(crate) externs: rustc_hash::FxHashMap<crate::syntax::Name, crate::source::Span>,
    /// Catalog requirements the module meets, by address (see `gating`).
    pub(crate) met: rustc_hash::FxHashSet<usize>,
    /// The order of the header so far (see `module_rules`).
    pub(crate) header: module_rules::HeaderState,
    /// Role types and vector sizes already worked out, by instruction
    /// shape (see `operands`).
    pub(crate) resolved: operands::Resolved,
    /// The lookup memo of the last body and its last generation, for the
    /// next body to reuse (see `body`).
    memo: Option<(body::Memo, u32)>,
    opts: &'o CheckOptions,
}

/// Check a parsed module; diagnostics in source order.
pub fn check(m: &Module, opts: &CheckOptions) -> Vec<Diagnostic> {
    let mut c = ModuleChecker::new(opts);
    for item in &m.items {
        c.item(item);
    }
    c.finish()
}

/// Parse and check `src` piece by piece ([`crate::PieceStream`]), never
/// holding more than one statement of the tree: the full check in memory
/// proportional to the module's declarations, not to its code. Syntax
/// errors first; as with [`check`] after [`crate::parse`], the semantic
/// diagnostics are reported only for a module without syntax errors.
/// Diagnostics in source order.
///
/// ```
/// let src = b".version 8.0\n.target sm_90\n.address_size 64\n\
///     .visible .entry k() {\n  call.uni f, ();\n  ret;\n}\n\
///     .func f() {\n  ret;\n}\n";
/// let diags = ptxkit::check::check_source(src, &Default::default());
/// // Like ptxas, a function must be declared before it is called.
/// assert_eq!(diags.len(), 1);
/// assert_eq!(diags[0].code, "E0601");
/// ```
pub fn check_source(src: &[u8], opts: &CheckOptions) -> Vec<Diagnostic> {
    check_source_with(src, opts, |_| {})
}

/// [`check_source`], calling `done(offset)` as it goes with the offset
/// before which the check will not read `src` again. A caller holding
/// `src` in a memory map can give those pages back, so the source is never
/// resident as a whole either (`ptx check` does).
pub fn check_source_with(
    src: &[u8],
    opts: &CheckOptions,
    mut done: impl FnMut(usize),
) -> Vec<Diagnostic> {
    let mut stream = crate::PieceStream::new(src);
    let mut checker = ModuleChecker::new(opts);
    let mut all = Vec::new();
    while let Some((piece, diags)) = stream.next() {
        // After a syntax error the semantic diagnostics are dropped anyway.
        if diags.is_empty() && all.is_empty() {
            checker.piece(&piece);
        }
        all.extend(diags);
        drop(piece);
        done(stream.consumed());
    }
    all.extend(stream.finish());
    if !all.iter().any(Diagnostic::is_error) {
        all.extend(checker.finish());
    }
    all.sort_by_key(|d| d.span.start);
    all
}

/// The checker fed one module-scope item at a time, in source order, the
/// way ptxas reads a module: a name must be declared before it is used.
/// What it keeps between items is a summary of the declarations, so a
/// caller that parses item by item ([`crate::ItemStream`]) can drop each
/// item once checked and hold one function at a time.
pub struct ModuleChecker<'o> {
    c: Checker<'o>,
    ms: ModuleScope,
    /// The function whose body is being fed piece by piece, and the state
    /// of its check.
    body: Option<(crate::syntax::Function, body::BodyWalk)>,
}

impl<'o> ModuleChecker<'o> {
    /// A checker at the start of a module.
    pub fn new(opts: &'o CheckOptions) -> ModuleChecker<'o> {
        ModuleChecker {
            c: Checker {
                env: Env {
                    ptx: opts.version,
                    sm: opts.target.as_deref().and_then(Sm::parse),
                    opts: 0,
                },
                diags: Vec::new(),
                externs: Default::default(),
                met: Default::default(),
                resolved: Default::default(),
                memo: None,
                header: Default::default(),
                opts,
            },
            ms: ModuleScope::default(),
            body: None,
        }
    }

    /// Check the next module-scope item.
    pub fn item(&mut self, item: &Item) {
        let c = &mut self.c;
        c.header_order(item);
        match item {
            Item::Version(v) => {
                c.version_rules(v);
                if c.env.ptx.is_none() {
                    c.env.ptx = u8::try_from(v.major)
                        .ok()
                        .zip(u8::try_from(v.minor).ok())
                        .map(|(major, minor)| PtxVersion { major, minor });
                    // Requirements met under the old environment may not be.
                    c.met.clear();
                }
            }
            Item::Target(t) => {
                if c.opts.target.is_none() && c.env.sm.is_none() {
                    c.env.sm = t.arch().and_then(|a| Sm::parse(a.as_str()));
                    c.met.clear();
                }
                let data = module_data::data();
                let opts = t
                    .items
                    .iter()
                    .filter_map(|(n, _)| data.option_index(n.as_str()))
                    .filter(|&k| k < 32)
                    .fold(0u32, |acc, k| acc | 1 << k);
                if opts != c.env.opts {
                    c.env.opts = opts;
                    c.met.clear();
                }
                c.target_rules(t);
            }
            Item::AddressSize(a) => c.address_size_rules(a),
            Item::Var(v) => {
                c.declare(item, &mut self.ms);
                c.global_rules(v);
                c.check_initializers(v, &self.ms);
            }
            Item::Function(f) => {
                // Declared first: a function may call itself.
                c.declare(item, &mut self.ms);
                // Symbols, gating and rules in one walk of the body.
                c.check_function(f, &self.ms);
                c.function_rules(f);
            }
            _ => c.declare(item, &mut self.ms),
        }
    }

    /// Check the next piece of a module read by [`crate::PieceStream`]
    /// (the same diagnostics as [`ModuleChecker::item`] on whole items).
    pub fn piece(&mut self, piece: &crate::Piece) {
        use crate::Piece;
        let c = &mut self.c;
        match piece {
            Piece::Item(item) => self.item(item),
            Piece::FunctionStart(f) => {
                c.header.declared = true;
                c.declare_function(f, &mut self.ms);
                let walk = c.body_start(f);
                // The header is small: kept for the rules that need the
                // function's whole span.
                self.body = Some((crate::syntax::Function::clone(f), walk));
            }
            Piece::BlockStart(_) => {
                if let Some((_, w)) = &mut self.body {
                    c.block_start(w);
                }
            }
            Piece::Stmt(s) => {
                if let Some((_, w)) = &mut self.body {
                    c.body_stmt(s, w, &self.ms);
                }
            }
            Piece::BlockEnd(_) => {
                if let Some((_, w)) = &mut self.body {
                    c.block_end(w);
                }
            }
            Piece::FunctionEnd(span) => {
                if let Some((mut f, w)) = self.body.take() {
                    c.body_end(w);
                    f.span = *span;
                    c.function_rules(&f);
                }
            }
        }
    }

    /// The diagnostics found so far, taken out (in the order found), so a
    /// caller can tell which items they came from.
    pub fn take_diagnostics(&mut self) -> Vec<Diagnostic> {
        std::mem::take(&mut self.c.diags)
    }

    /// The diagnostics, in source order.
    pub fn finish(self) -> Vec<Diagnostic> {
        let mut diags = self.c.diags;
        diags.sort_by_key(|d| d.span.start);
        diags
    }
}

/// `ld.global.u32`: the instruction's name with its modifiers.
pub(crate) fn inst_name(i: &Instruction) -> String {
    let mut s = i.opcode_name().to_string();
    for m in &i.mods {
        s.push_str(m.as_str());
    }
    s
}
