//! A kernel's static shared memory (ptxas 13.5: "Entry function 'k' uses
//! too much shared data (0xc001 bytes, 0xc000 max)"; the limit of each
//! target is `shared-static` in `isa/module.ptxisa`). A kernel uses the `.shared` variables declared
//! in its body, whether used or not, the module-scope `.shared` variables
//! it names, and the same of every function it calls, directly or not;
//! an unsized `.extern .shared` array is dynamic shared memory and counts
//! nothing.
//!
//! The facts are gathered as the check walks the module, one function at
//! a time, and the kernels are judged at the module's end, when every
//! callee has been seen: per function its own bytes, the module variables
//! it names and the functions it calls. The walk over each kernel's calls
//! is bounded ([`WALK_BUDGET`] steps for the whole module); past it the
//! rule says nothing rather than something wrong.

use rustc_hash::{FxHashMap, FxHashSet};

use super::Checker;
use crate::diag::{Code, Diagnostic};
use crate::source::Span;
use crate::syntax::{Function, Name, VarDecl};

/// Steps of the walk over the kernels' call trees, for the whole module:
/// far above any real module (each step is one function reached from one
/// kernel), and a bound on hostile ones.
const WALK_BUDGET: usize = 1 << 22;

/// What one function with a body contributes.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Own {
    name: Name,
    name_span: Span,
    kernel: bool,
    /// Bytes of the `.shared` variables its body declares.
    bytes: u64,
    /// Module-scope `.shared` variables it names.
    globals: Vec<Name>,
    /// Functions it calls (by name; names that are not functions with a
    /// body are ignored at the end).
    callees: Vec<Name>,
}

/// The shared-memory facts of a module, gathered as it is checked.
#[derive(Default)]
pub(crate) struct SharedSpace {
    /// Module-scope `.shared` variables of known size: bytes and where
    /// each is declared (a body's own variable of the same name is
    /// another).
    globals: FxHashMap<Name, (u64, Span)>,
    /// Bit `b % 128` set for the first byte `b` of each name in `globals`: a
    /// name whose first byte's bit is clear (a register's `%`, usually)
    /// is none of them, without a lookup.
    first_bytes: u128,
    /// Functions with a body, in source order, and their index by name.
    funcs: Vec<Own>,
    index: FxHashMap<Name, usize>,
    /// The function whose body is being walked.
    current: Option<usize>,
}

/// The bit of `n`'s first byte in [`SharedSpace::first_bytes`].
#[inline]
fn first_bit(n: Name) -> u128 {
    let b = n.as_bytes().first().copied().unwrap_or(0);
    1u128 << (b & 127)
}

/// Bytes of the sized `.shared` declarators of `v` (0 for another space).
fn shared_bytes(v: &VarDecl) -> impl Iterator<Item = (Name, Span, u64)> + '_ {
    let shared = v.space.is_shared();
    v.decls.iter().filter(move |_| shared).filter_map(move |d| {
        crate::analysis::params::declarator_bytes(v, &d.dims, d.init.as_ref())
            .map(|b| (d.name, d.name_span, b))
    })
}

impl Own {
    /// Where the function's name is.
    pub(crate) fn name_span(&self) -> Span {
        self.name_span
    }

    /// Whether the function itself holds shared memory: `.shared`
    /// variables of its own, or module ones it names.
    pub(crate) fn holds_shared(&self) -> bool {
        self.bytes > 0 || !self.globals.is_empty()
    }

    /// The same record without its calls.
    pub(crate) fn without_calls(&self) -> Own {
        Own {
            callees: Vec::new(),
            ..self.clone()
        }
    }

    /// The same record with its span moved by `map` (`None` when it has
    /// no image).
    pub(crate) fn mapped(&self, map: impl Fn(Span) -> Option<Span>) -> Option<Own> {
        Some(Own {
            name_span: map(self.name_span)?,
            ..self.clone()
        })
    }
}

impl SharedSpace {
    /// How many functions' records are kept (a mark for
    /// [`SharedSpace::own_since`]).
    pub(crate) fn functions(&self) -> usize {
        self.funcs.len()
    }

    /// The record of the function checked since [`SharedSpace::functions`]
    /// said `mark`, if it kept one.
    pub(crate) fn own_since(&self, mark: usize) -> Option<Own> {
        self.funcs.get(mark).cloned()
    }

    /// The record of a function whose body is not walked again, kept from
    /// its last walk ([`SharedSpace::own_since`]).
    pub(crate) fn push_own(&mut self, own: Own) {
        let i = self.funcs.len();
        self.index.entry(own.name).or_insert(i);
        self.funcs.push(own);
    }

    /// A module-scope variable declaration.
    pub(crate) fn module_var(&mut self, v: &VarDecl) {
        for (n, span, b) in shared_bytes(v) {
            self.first_bytes |= first_bit(n);
            self.globals.entry(n).or_insert((b, span));
        }
    }

    /// The body of `f` starts.
    pub(crate) fn body_start(&mut self, f: &Function) {
        let i = self.funcs.len();
        self.funcs.push(Own {
            name: f.name,
            name_span: f.name_span,
            kernel: f.kind == crate::syntax::FuncKind::Entry,
            bytes: 0,
            globals: Vec::new(),
            callees: Vec::new(),
        });
        // A second body of the same name is an error reported elsewhere;
        // its calls count under the first.
        self.index.entry(f.name).or_insert(i);
        self.current = Some(i);
    }

    /// A declaration in the current body.
    pub(crate) fn body_var(&mut self, v: &VarDecl) {
        let Some(own) = self.current.and_then(|i| self.funcs.get_mut(i)) else {
            return;
        };
        for (_, _, b) in shared_bytes(v) {
            own.bytes = own.bytes.saturating_add(b);
        }
    }

    /// Whether any module-scope `.shared` variable is known (the only
    /// case where a body's names need looking at).
    #[inline]
    pub(crate) fn has_globals(&self) -> bool {
        !self.globals.is_empty()
    }

    /// Whether `n` names one of the module's `.shared` variables (or a
    /// body's own variable of that name).
    #[inline]
    pub(crate) fn is_global(&self, n: Name) -> bool {
        self.first_bytes & first_bit(n) != 0 && self.globals.contains_key(&n)
    }

    /// The module variable `n` (declared at `decl`), if it is one of the
    /// module's `.shared` variables, named in the current body.
    pub(crate) fn named(&mut self, n: Name, decl: Span) {
        if self.globals.get(&n).is_some_and(|&(_, at)| at == decl) {
            if let Some(own) = self.current.and_then(|i| self.funcs.get_mut(i)) {
                own.globals.push(n);
            }
        }
    }

    /// A call from the current body to `callee`.
    pub(crate) fn call(&mut self, callee: Name) {
        if let Some(own) = self.current.and_then(|i| self.funcs.get_mut(i)) {
            own.callees.push(callee);
        }
    }

    /// The body ends. A function that declares no `.shared` variable,
    /// names none and calls nothing counts for nothing and is not kept,
    /// so the facts grow with the calls and the shared variables of the
    /// module, not with its functions.
    pub(crate) fn body_end(&mut self) {
        let Some(i) = self.current.take() else { return };
        let Some(own) = self.funcs.get_mut(i) else {
            return;
        };
        if own.bytes == 0 && own.globals.is_empty() && own.callees.is_empty() {
            // The last one pushed: bodies do not nest.
            let name = own.name;
            self.funcs.truncate(i);
            if self.index.get(&name) == Some(&i) {
                self.index.remove(&name);
            }
            return;
        }
        own.globals.sort_unstable();
        own.globals.dedup();
        own.callees.sort_unstable();
        own.callees.dedup();
    }

    /// Each kernel over `max` bytes: its name's span and its bytes.
    fn over_limit(&self, max: u64) -> Vec<(Span, u64)> {
        let mut out = Vec::new();
        if self
            .funcs
            .iter()
            .all(|f| f.bytes == 0 && f.globals.is_empty())
        {
            return out;
        }
        let mut budget = WALK_BUDGET;
        let mut seen = FxHashSet::default();
        let mut names = FxHashSet::default();
        let mut stack = Vec::new();
        for (k, f) in self.funcs.iter().enumerate() {
            if !f.kernel {
                continue;
            }
            seen.clear();
            names.clear();
            stack.clear();
            stack.push(k);
            seen.insert(k);
            let mut bytes = 0u64;
            while let Some(i) = stack.pop() {
                if budget == 0 {
                    return out;
                }
                budget = budget.saturating_sub(1);
                let Some(g) = self.funcs.get(i) else { continue };
                bytes = bytes.saturating_add(g.bytes);
                for n in &g.globals {
                    if names.insert(*n) {
                        let b = self.globals.get(n).map_or(0, |&(b, _)| b);
                        bytes = bytes.saturating_add(b);
                    }
                }
                for c in &g.callees {
                    if let Some(&j) = self.index.get(c) {
                        if seen.insert(j) {
                            stack.push(j);
                        }
                    }
                }
            }
            if bytes > max {
                out.push((f.name_span, bytes));
            }
        }
        out
    }
}

impl Checker<'_> {
    /// At the module's end: every kernel within the static shared memory.
    pub(super) fn shared_space_rule(&mut self) {
        // Judged last, as ptxas does: not in a module with other errors.
        if self.module_has_errors() {
            return;
        }
        let target = self.env.sm.map(|s| s.to_string());
        let max = super::module_data::data().shared_static_max(target.as_deref());
        for (span, bytes) in self.shared.over_limit(max) {
            self.emit(
                Diagnostic::error(
                    Code::SharedSpace,
                    span,
                    format!(
                        "this kernel uses {bytes} bytes of static shared memory; the limit on {} is {max}",
                        target.as_deref().unwrap_or("this target")
                    ),
                )
                .with_note("count its `.shared` variables, the module's it names and those of the functions it calls; beyond the limit, declare an unsized `.extern .shared` array and give its size at launch (dynamic shared memory)"),
            );
        }
    }
}
