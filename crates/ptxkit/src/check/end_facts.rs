//! What one function's body leaves for the rules judged at the module's
//! end (static shared memory per kernel, a global address in a 32-bit
//! register, a body `.param` read before its call returns, `.loc`
//! function names, the last `.target`), as a value.
//!
//! A caller that does not walk an unchanged body again (the language
//! server after an edit elsewhere) keeps the value from the last check
//! and gives it back with the function's header
//! ([`crate::check::ModuleChecker::kept_function`]): the module's end is
//! then judged on the whole module's facts, as a check from scratch
//! judges it, not on the bodies that happened to be walked.

use super::shared_space::Own;
use super::target::Sm;
use super::Checker;
use crate::diag::Diagnostic;
use crate::source::Span;
use crate::syntax::Name;

/// The first diagnostic of a kind held for the module's end, and how many
/// more like it.
type Held = Option<(Box<Diagnostic>, u64)>;

/// A function body's facts for the module's end (see the module
/// documentation). Small: one record of the body's shared memory (its
/// bytes, the module variables it names, its callees), the first held
/// diagnostic of each kind with a count, and the `.loc` function names it
/// uses first.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EndFacts {
    shared: Option<Own>,
    narrow: Held,
    early: Held,
    names: Vec<(Name, Span)>,
    last_target: Option<(Sm, Span)>,
}

/// What the checker held before a function, put aside while the function
/// fills its own ([`Checker::facts_begin`]).
pub(super) struct Aside {
    funcs: usize,
    narrow: Held,
    early: Held,
    names: rustc_hash::FxHashMap<Name, Span>,
    last_target: Option<(Sm, Span)>,
}

impl EndFacts {
    /// Whether the body leaves nothing for the module's end.
    pub fn is_empty(&self) -> bool {
        *self == EndFacts::default()
    }

    /// Whether `other` holds the same facts at the same places (`==`
    /// compares no spans: a tree's equality is by content).
    pub fn same(&self, other: &EndFacts) -> bool {
        self == other && self.spans() == other.spans()
    }

    /// Whether the function holds shared memory itself (its own `.shared`
    /// variables or module ones it names). When no function of a module
    /// does, no kernel is over the limit, whatever calls what.
    pub fn uses_shared_memory(&self) -> bool {
        self.shared.as_ref().is_some_and(Own::holds_shared)
    }

    /// [`EndFacts::same`] but for the functions called: what a module
    /// where no function holds shared memory may change without changing
    /// its end.
    pub fn same_but_calls(&self, other: &EndFacts) -> bool {
        let strip = |f: &EndFacts| EndFacts {
            shared: f
                .shared
                .as_ref()
                .filter(|o| o.holds_shared())
                .map(Own::without_calls),
            ..f.clone()
        };
        strip(self).same(&strip(other))
    }

    /// Every span held, in a fixed order.
    fn spans(&self) -> Vec<(u32, u32)> {
        let mut v = Vec::new();
        let mut add = |s: Span| v.push((s.start, s.end));
        if let Some(o) = &self.shared {
            add(o.name_span());
        }
        for (d, _) in [&self.narrow, &self.early].into_iter().flatten() {
            add(d.span);
            d.labels.iter().for_each(|l| add(l.span));
        }
        self.names.iter().for_each(|&(_, s)| add(s));
        if let Some((_, s)) = self.last_target {
            add(s);
        }
        v
    }

    /// The same facts with every span moved by `map`, or `None` when a
    /// span has no image (it lay inside an edit).
    pub fn mapped(&self, map: impl Fn(Span) -> Option<Span>) -> Option<EndFacts> {
        let held = |h: &Held| -> Option<Held> {
            match h {
                None => Some(None),
                Some((d, more)) => {
                    let mut d = d.clone();
                    d.span = map(d.span)?;
                    for l in &mut d.labels {
                        l.span = map(l.span)?;
                    }
                    Some(Some((d, *more)))
                }
            }
        };
        let shared = match &self.shared {
            None => None,
            Some(o) => Some(o.mapped(&map)?),
        };
        let names = self
            .names
            .iter()
            .map(|&(n, s)| map(s).map(|s| (n, s)))
            .collect::<Option<Vec<_>>>()?;
        let last_target = match self.last_target {
            None => None,
            Some((sm, s)) => Some((sm, map(s)?)),
        };
        Some(EndFacts {
            shared,
            narrow: held(&self.narrow)?,
            early: held(&self.early)?,
            names,
            last_target,
        })
    }
}

/// `later` held after `earlier`: the first diagnostic stays, the counts
/// add (one for `later`'s first).
fn join(earlier: Held, later: Held) -> Held {
    match (earlier, later) {
        (Some((d, a)), Some((_, b))) => Some((d, a.saturating_add(b).saturating_add(1))),
        (e, l) => e.or(l),
    }
}

impl Checker<'_> {
    /// Before a function: put aside what the module's end holds so far,
    /// so that what the function adds can be told apart.
    pub(super) fn facts_begin(&mut self) -> Aside {
        Aside {
            funcs: self.shared.functions(),
            narrow: self.narrow_globals.take(),
            early: self.early_param_reads.take(),
            names: std::mem::take(&mut self.function_names),
            last_target: self.last_target.take(),
        }
    }

    /// After the function: what it added, and the module's facts made
    /// whole again.
    pub(super) fn facts_end(&mut self, aside: Aside) -> EndFacts {
        let mut names: Vec<(Name, Span)> = std::mem::replace(&mut self.function_names, aside.names)
            .into_iter()
            .collect();
        names.sort_by_key(|&(_, s)| s.start);
        let facts = EndFacts {
            shared: self.shared.own_since(aside.funcs),
            narrow: self.narrow_globals.take(),
            early: self.early_param_reads.take(),
            names,
            last_target: self.last_target.take(),
        };
        self.narrow_globals = aside.narrow;
        self.early_param_reads = aside.early;
        self.last_target = aside.last_target;
        self.replay(&facts);
        facts
    }

    /// Add a function's `facts` after what the module's end holds so far.
    fn replay(&mut self, facts: &EndFacts) {
        self.narrow_globals = join(self.narrow_globals.take(), facts.narrow.clone());
        self.early_param_reads = join(self.early_param_reads.take(), facts.early.clone());
        for &(n, s) in &facts.names {
            self.function_names.entry(n).or_insert(s);
        }
        if facts.last_target.is_some() {
            self.last_target = facts.last_target;
        }
    }

    /// A function whose body is not walked again: its facts from the last
    /// walk, after the module's so far. The shared-memory record goes in
    /// where the body's own would (the caller has just read the header).
    pub(super) fn replay_function(&mut self, facts: &EndFacts) {
        if let Some(own) = &facts.shared {
            self.shared.push_own(own.clone());
        }
        self.replay(facts);
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use crate::check::{CheckOptions, EndFacts, ModuleChecker};
    use crate::diag::Diagnostic;
    use crate::syntax::Item;

    const HEAD: &str = ".version 8.5\n.target sm_90\n.address_size 64\n";

    /// The module's end judged after walking every body, and after giving
    /// back every function's facts instead (bodies not walked): the same
    /// diagnostics.
    fn both_ways(body: &str) -> (Vec<Diagnostic>, Vec<Diagnostic>, Vec<EndFacts>) {
        let src = format!("{HEAD}{body}");
        let parsed = crate::parse(src.as_bytes());
        assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
        let opts = CheckOptions::default();
        let mut walked = ModuleChecker::new(&opts);
        let facts: Vec<EndFacts> = parsed
            .module
            .items
            .iter()
            .map(|i| walked.item_facts(i))
            .collect();
        walked.take_diagnostics();
        walked.end();
        let mut kept = ModuleChecker::new(&opts);
        for (item, f) in parsed.module.items.iter().zip(&facts) {
            match item {
                Item::Function(func) if func.body.is_some() => kept.kept_function(func, f),
                other => kept.item(other),
            }
        }
        assert!(kept.take_diagnostics().is_empty());
        kept.end();
        (walked.take_diagnostics(), kept.take_diagnostics(), facts)
    }

    fn codes(ds: &[Diagnostic]) -> Vec<(crate::diag::Code, u32, Vec<String>)> {
        ds.iter()
            .map(|d| (d.code, d.span.start, d.notes.clone()))
            .collect()
    }

    #[test]
    fn shared_memory_of_kernels_and_callees() {
        let (walked, kept, facts) = both_ways(
            ".shared .align 4 .b8 big[40000];\n\
             .func f()\n{\n\t.shared .align 4 .b8 s[10000];\n\tret;\n}\n\
             .visible .entry k()\n{\n\t.reg .b64 %rd<2>;\n\tmov.u64 %rd1, big;\n\tcall f, ();\n\tret;\n}\n\
             .visible .entry small()\n{\n\tret;\n}\n",
        );
        assert_eq!(walked.len(), 1, "{walked:?}");
        assert_eq!(walked[0].code, crate::diag::Code::SharedSpace);
        assert_eq!(codes(&walked), codes(&kept));
        // Only the functions that hold or reach shared memory leave facts.
        let held: Vec<bool> = facts.iter().map(|f| !f.is_empty()).collect();
        assert_eq!(held.iter().filter(|&&h| h).count(), 2, "{facts:?}");
    }

    #[test]
    fn held_diagnostics_keep_the_first_and_count_the_rest() {
        let (walked, kept, _) = both_ways(
            ".visible .entry a()\n{\n\t.reg .u32 %r<3>;\n\tmov.u32 %r1, 0;\n\tld.global.u32 %r2, [%r1];\n\tld.global.u32 %r2, [%r1+4];\n\tret;\n}\n\
             .visible .entry b()\n{\n\t.reg .u32 %r<3>;\n\tmov.u32 %r1, 0;\n\tld.global.u32 %r2, [%r1];\n\tret;\n}\n",
        );
        assert_eq!(walked.len(), 1, "{walked:?}");
        assert!(
            walked[0].notes.iter().any(|n| n.starts_with("2 more")),
            "{walked:?}"
        );
        assert_eq!(codes(&walked), codes(&kept));
    }

    #[test]
    fn param_read_before_its_call() {
        let (walked, kept, _) = both_ways(
            ".func (.param .b32 r) f(.param .b32 a)\n{\n\tst.param.b32 [r], 1;\n\tret;\n}\n\
             .visible .entry k()\n{\n\t.reg .b32 %r;\n\t.param .b32 pa;\n\t.param .b32 pr;\n\tld.param.b32 %r, [pr];\n\tst.param.b32 [pa], 1;\n\tcall (pr), f, (pa);\n\tret;\n}\n",
        );
        assert_eq!(walked.len(), 1, "{walked:?}");
        assert_eq!(codes(&walked), codes(&kept));
    }

    #[test]
    fn loc_function_names() {
        let (walked, kept, _) = both_ways(
            ".file 1 \"a.cu\"\n\
             .visible .entry k()\n{\n\t.loc 1 2 3, function_name nolabel, inlined_at 1 4 5\n\tret;\n}\n",
        );
        assert_eq!(walked.len(), 1, "{walked:?}");
        assert_eq!(codes(&walked), codes(&kept));
    }

    #[test]
    fn spans_are_moved_or_refused() {
        let (_, _, facts) = both_ways(
            ".visible .entry a()\n{\n\t.reg .u32 %r<3>;\n\tmov.u32 %r1, 0;\n\tld.global.u32 %r2, [%r1];\n\tret;\n}\n",
        );
        let f = facts.iter().find(|f| !f.is_empty()).unwrap();
        let moved = f
            .mapped(|s| Some(crate::Span::new(s.start + 10, s.end + 10)))
            .unwrap();
        assert!(!moved.same(f) && moved == *f && f.same(f));
        assert!(f.mapped(|_| None).is_none());
    }
}
