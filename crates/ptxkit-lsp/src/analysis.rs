//! Parsing and checking a document, again after each change.
//!
//! The whole text is parsed again (on all cores for a large module), which
//! costs a few milliseconds for megabytes. The check, which costs more,
//! is redone only where needed: an edit that stays inside one function's
//! body, between its braces, changes no declaration, so every other
//! function keeps its diagnostics (moved by the edit's length if they come
//! after it) and is fed to the checker by its header alone. Anything else
//! (a header, a declaration, a directive, an item added or removed) has
//! everything from that item on checked again.
//!
//! A document over [`LARGE_ABOVE`] bytes (or the `largeAbove` setting) is
//! not held as a tree: it is checked as `ptx check` checks a file, streamed,
//! keeping only the diagnostics the editor is sent, so the server holds its
//! text and little more whatever its size. Its other features (outline,
//! hover, navigation, formatting) answer nothing for it.

use std::cell::OnceCell;

use ptxkit::check::{CheckOptions, EndFacts, ModuleChecker};
use ptxkit::syntax::{Block, Function};
use ptxkit::{Diagnostic, Item, Module, Span};

use crate::index::Index;

/// A document's text with its tree and diagnostics.
pub struct Analysis {
    /// The text analysed.
    pub text: String,
    /// The tree.
    pub module: Module,
    /// The parser's diagnostics.
    pub syntax: Vec<Diagnostic>,
    /// The checker's diagnostics by item (aligned with `module.items`).
    /// The check runs even with syntax errors (so that an edit fixing one
    /// finds the rest checked), but its diagnostics are then not shown, as
    /// in `ptx check`.
    pub(crate) semantic: Vec<Vec<Diagnostic>>,
    /// The checker's diagnostics outside every item.
    pub(crate) loose: Vec<Diagnostic>,
    /// The diagnostics of the module's end (rules judged on the whole
    /// module: static shared memory, 32-bit addresses, call sequences,
    /// `.loc` function names…), made again by every analysis and never
    /// kept with an item, since an edit anywhere may change them.
    pub(crate) late: Vec<Diagnostic>,
    /// What each function's body leaves for the module's end (aligned
    /// with `module.items`; empty for other items): given back to the
    /// checker for a function whose body is not walked again.
    pub(crate) facts: Vec<EndFacts>,
    /// The target checked against, when not the module's own.
    target: Option<String>,
    /// How much of the check was reused.
    pub reuse: Reuse,
    index: OnceCell<Index>,
    /// The size of the text when it was too large to hold as a tree (the
    /// module is then empty and every diagnostic is in `loose`).
    large: Option<usize>,
}

/// Documents larger than this many bytes are checked streamed, without
/// holding their tree (which takes 10–25 times the text): diagnostics only.
/// VS Code does not send documents over 50 MB to a language server at all.
pub const LARGE_ABOVE: usize = 32 << 20;

/// What an analysis reused from the one before.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reuse {
    /// Functions whose diagnostics were kept.
    pub kept: usize,
    /// Functions checked again.
    pub checked: usize,
}

/// Where the old and new texts agree: a common prefix and suffix.
pub(crate) struct Change {
    pub(crate) prefix: u32,
    pub(crate) suffix: u32,
    pub(crate) old_len: u32,
    pub(crate) new_len: u32,
}

impl Change {
    pub(crate) fn new(old: &[u8], new: &[u8]) -> Change {
        let prefix = common_prefix(old, new);
        let max_suffix = old.len().min(new.len()) - prefix;
        let suffix = common_suffix(old, new, max_suffix);
        Change {
            prefix: prefix as u32,
            suffix: suffix as u32,
            old_len: old.len() as u32,
            new_len: new.len() as u32,
        }
    }

    /// The new offset of old offset `o`, if it is outside the change.
    pub(crate) fn map(&self, o: u32) -> Option<u32> {
        if o <= self.prefix {
            Some(o)
        } else if o >= self.old_len - self.suffix {
            u32::try_from(i64::from(o) + i64::from(self.new_len) - i64::from(self.old_len)).ok()
        } else {
            None
        }
    }

    pub(crate) fn map_span(&self, s: Span) -> Option<Span> {
        Some(Span::new(self.map(s.start)?, self.map(s.end)?))
    }
}

fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    const CHUNK: usize = 4096;
    let n = a.len().min(b.len());
    let mut i = 0;
    while i + CHUNK <= n && a.get(i..i + CHUNK) == b.get(i..i + CHUNK) {
        i += CHUNK;
    }
    while i < n && a.get(i) == b.get(i) {
        i += 1;
    }
    i
}

fn common_suffix(a: &[u8], b: &[u8], max: usize) -> usize {
    const CHUNK: usize = 4096;
    let (la, lb) = (a.len(), b.len());
    let mut i = 0;
    while i + CHUNK <= max && a.get(la - i - CHUNK..la - i) == b.get(lb - i - CHUNK..lb - i) {
        i += CHUNK;
    }
    while i < max && a.get(la - i - 1) == b.get(lb - i - 1) {
        i += 1;
    }
    i
}

/// A function's header with an empty body: what the checker needs to know
/// of a function whose diagnostics are kept.
pub(crate) fn header_of(f: &Function) -> Function {
    Function {
        linkage: f.linkage,
        kind: f.kind,
        rets: f.rets.clone(),
        name: f.name,
        name_span: f.name_span,
        params: f.params.clone(),
        directives: f.directives.clone(),
        body: f.body.as_ref().map(|b| Block {
            stmts: Vec::new(),
            span: Span::at(b.span.start),
        }),
        span: f.span,
    }
}

pub(crate) fn shifted(d: &Diagnostic, ch: &Change) -> Diagnostic {
    let mut d = d.clone();
    d.span = ch.map_span(d.span).unwrap_or(d.span);
    for l in &mut d.labels {
        l.span = ch.map_span(l.span).unwrap_or(l.span);
    }
    d
}

impl Analysis {
    /// Parse and check `text` against `target` (the module's `.target` when
    /// `None`), reusing what still holds of `prev`, the analysis of the
    /// text before the change.
    pub fn new(text: String, target: Option<String>, prev: Option<&Analysis>) -> Analysis {
        Analysis::with(text, target, prev, true)
    }

    /// [`Analysis::new`], parsing on one thread unless `parallel`.
    pub fn with(
        text: String,
        target: Option<String>,
        prev: Option<&Analysis>,
        parallel: bool,
    ) -> Analysis {
        Analysis::sized(text, target, prev, parallel, LARGE_ABOVE)
    }

    /// [`Analysis::with`], for a text over `large_above` bytes only the
    /// streamed check's diagnostics (see [`LARGE_ABOVE`]).
    pub fn sized(
        text: String,
        target: Option<String>,
        prev: Option<&Analysis>,
        parallel: bool,
        large_above: usize,
    ) -> Analysis {
        if text.len() > large_above {
            return Analysis::diagnostics_only(&text, target);
        }
        // Only the diagnostics the editor is sent are kept: a text with an
        // error at every token (a pasted binary) does not hold one each.
        let max = crate::diagnostics::MAX_DIAGNOSTICS;
        let parsed = if parallel {
            ptxkit::parse_parallel_bounded(text.as_bytes(), max)
        } else {
            ptxkit::parse_bounded(text.as_bytes(), max)
        };
        let mut a = Analysis {
            module: parsed.module,
            syntax: parsed.diagnostics,
            semantic: Vec::new(),
            loose: Vec::new(),
            late: Vec::new(),
            facts: Vec::new(),
            target,
            reuse: Reuse::default(),
            index: OnceCell::new(),
            large: None,
            text,
        };
        let prev = prev.filter(|p| p.target == a.target && p.large.is_none());
        a.check(prev);
        a
    }

    /// The analysis of a text the caller keeps (a document's): over
    /// `large_above` bytes its diagnostics only, without a copy of the
    /// text; else [`Analysis::new`] of a copy, reusing what holds of `prev`.
    pub fn of_text(
        text: &str,
        target: Option<String>,
        prev: Option<&Analysis>,
        large_above: usize,
    ) -> Analysis {
        if text.len() > large_above {
            return Analysis::diagnostics_only(text, target);
        }
        Analysis::new(text.to_owned(), target, prev)
    }

    /// A large text's analysis: no tree, no text (the document holds it),
    /// the first [`crate::diagnostics::MAX_DIAGNOSTICS`] of `ptx check`,
    /// streamed.
    pub fn diagnostics_only(text: &str, target: Option<String>) -> Analysis {
        let opts = CheckOptions {
            target: target.clone(),
            ..CheckOptions::default()
        };
        let max = crate::diagnostics::MAX_DIAGNOSTICS;
        let checked = ptxkit::check::check_source_bounded(text.as_bytes(), &opts, max, |_| {});
        Analysis {
            module: Module::default(),
            syntax: Vec::new(),
            semantic: Vec::new(),
            loose: checked.diagnostics,
            late: Vec::new(),
            facts: Vec::new(),
            target,
            reuse: Reuse::default(),
            index: OnceCell::new(),
            large: Some(text.len()),
            text: String::new(),
        }
    }

    /// The text's size when it was over the limit for a tree (and only its
    /// diagnostics were kept).
    pub fn large(&self) -> Option<usize> {
        self.large
    }

    fn check(&mut self, prev: Option<&Analysis>) {
        let opts = CheckOptions {
            target: self.target.clone(),
            ..CheckOptions::default()
        };
        let change = prev.map(|p| Change::new(p.text.as_bytes(), self.text.as_bytes()));
        // Each item's diagnostics are taken after it, and past the cap the
        // checker keeps only an item's first `MAX_DIAGNOSTICS` in source
        // order (an initializer of a million undeclared names makes no
        // million diagnostics): the first `MAX_DIAGNOSTICS` of the module,
        // all the editor is sent, are among them, whichever items are
        // reused after an edit.
        let max = crate::diagnostics::MAX_DIAGNOSTICS;
        let mut mc = ModuleChecker::new(&opts).with_max_errors(max);
        let mut diags = Vec::new();
        // For each item, the old item whose diagnostics it keeps.
        let mut kept: Vec<Option<usize>> = vec![None; self.module.items.len()];
        self.facts = vec![EndFacts::default(); self.module.items.len()];
        let mut dirty = prev.is_none();
        for (i, item) in self.module.items.iter().enumerate() {
            let old = match (prev, &change) {
                (Some(p), Some(ch)) if !dirty => counterpart(p, ch, item),
                _ => None,
            };
            // An unchanged function's facts for the module's end, moved
            // to where it is now.
            let old_facts = match (prev, &change, old) {
                (Some(p), Some(ch), Some((k, true))) => {
                    p.facts.get(k).and_then(|f| f.mapped(|s| ch.map_span(s)))
                }
                _ => None,
            };
            let facts = match (item, old, old_facts) {
                (Item::Function(f), Some((k, true)), Some(facts)) if f.body.is_some() => {
                    // Unchanged, after unchanged declarations: the header
                    // declares it, its facts count at the module's end,
                    // its old diagnostics stand.
                    mc.kept_function(f, &facts);
                    if let Some(slot) = kept.get_mut(i) {
                        *slot = Some(k);
                    }
                    self.reuse.kept += 1;
                    facts
                }
                (Item::Function(f), Some(_), _) if f.body.is_some() => {
                    // Only the body changed: check it again.
                    self.reuse.checked += 1;
                    mc.item_facts(item)
                }
                (_, Some((_, true)), _) => mc.item_facts(item),
                _ => {
                    dirty = true;
                    if matches!(item, Item::Function(_)) {
                        self.reuse.checked += 1;
                    }
                    mc.item_facts(item)
                }
            };
            if let Some(slot) = self.facts.get_mut(i) {
                *slot = facts;
            }
            diags.append(&mut mc.take_diagnostics());
        }
        // The limits ptxas judges only in a module without errors: any
        // syntax error, new diagnostic or reused one stands in their way
        // (a reused item's diagnostics are its own, never the module's
        // end's).
        let reused_errors = kept.iter().flatten().any(|&k| {
            prev.and_then(|p| p.semantic.get(k))
                .is_some_and(|ds| ds.iter().any(Diagnostic::is_error))
        });
        if reused_errors
            || self.syntax.iter().any(Diagnostic::is_error)
            || diags.iter().any(Diagnostic::is_error)
        {
            mc.note_errors();
        }
        mc.end();
        self.late = mc.take_diagnostics();
        self.late.sort_by_key(|d| d.span.start);
        diags.sort_by_key(|d| d.span.start);
        let starts: Vec<u32> = self.module.items.iter().map(|i| i.span().start).collect();
        self.semantic = vec![Vec::new(); self.module.items.len()];
        for d in diags {
            let k = match starts.binary_search(&d.span.start) {
                Ok(k) => Some(k),
                Err(0) => None,
                Err(k) => Some(k - 1),
            };
            let within = k.filter(|&k| {
                self.module
                    .items
                    .get(k)
                    .is_some_and(|it| d.span.start < it.span().end.max(it.span().start + 1))
            });
            match within {
                Some(k) if kept.get(k).copied().flatten().is_some() => {}
                Some(k) => {
                    if let Some(v) = self.semantic.get_mut(k) {
                        v.push(d);
                    }
                }
                None => self.loose.push(d),
            }
        }
        if let (Some(p), Some(ch)) = (prev, &change) {
            for (i, k) in kept.iter().enumerate() {
                let (Some(k), Some(v)) = (k, self.semantic.get_mut(i)) else {
                    continue;
                };
                if let Some(old) = p.semantic.get(*k) {
                    v.extend(old.iter().map(|d| shifted(d, ch)));
                }
            }
        }
    }

    /// Every diagnostic to show, in source order: the syntax errors alone
    /// when there are any, as in `ptx check`.
    pub fn diagnostics(&self) -> Vec<&Diagnostic> {
        let syntax_errors = self.syntax.iter().any(Diagnostic::is_error);
        let semantic = self
            .semantic
            .iter()
            .flatten()
            .chain(self.loose.iter())
            .chain(self.late.iter());
        let mut all: Vec<&Diagnostic> = self
            .syntax
            .iter()
            .chain(semantic.filter(|_| !syntax_errors))
            .collect();
        all.sort_by_key(|d| d.span.start);
        all
    }

    /// The symbol index of the module (built on first use).
    pub fn index(&self) -> &Index {
        self.index
            .get_or_init(|| Index::build(&self.module, self.text.as_bytes()))
    }

    /// The target the document is checked against, if configured.
    pub fn target(&self) -> Option<&str> {
        self.target.as_deref()
    }
}

/// The old item that `item` stands where, and whether it is unchanged
/// (`true`) or a function whose body alone changed (`false`).
fn counterpart(p: &Analysis, ch: &Change, item: &Item) -> Option<(usize, bool)> {
    let s = item.span();
    let new_change_end = ch.new_len - ch.suffix;
    let delta = i64::from(ch.new_len) - i64::from(ch.old_len);
    let old_start = if s.end <= ch.prefix {
        s.start
    } else if s.start >= new_change_end {
        u32::try_from(i64::from(s.start) - delta).ok()?
    } else {
        // The change is inside this item: a function whose body alone
        // changed keeps its header and everything around it.
        let Item::Function(f) = item else {
            return None;
        };
        let body = f.body.as_ref()?;
        let inside = body.span.start < ch.prefix && new_change_end < body.span.end;
        if !inside {
            return None;
        }
        let k = p
            .module
            .items
            .binary_search_by_key(&s.start, |i| i.span().start)
            .ok()?;
        let old = p.module.items.get(k)?;
        let old_end = i64::from(old.span().end) + delta;
        let same_frame = matches!(old, Item::Function(g) if g.body.as_ref().is_some_and(|b| b.span.start == body.span.start))
            && old_end == i64::from(s.end);
        return same_frame.then_some((k, false));
    };
    let k = p
        .module
        .items
        .binary_search_by_key(&old_start, |i| i.span().start)
        .ok()?;
    let old = p.module.items.get(k)?;
    (old.span().len() == s.len() && std::mem::discriminant(old) == std::mem::discriminant(item))
        .then_some((k, true))
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    const SRC: &str = ".version 8.0\n.target sm_90\n.address_size 64\n\
        .visible .entry a() {\n  .reg .b32 %r<4>;\n  mov.b32 %r1, 1;\n  ret;\n}\n\
        .visible .entry b() {\n  .reg .b32 %r<4>;\n  frob.b32 %r1, %r9;\n  ret;\n}\n\
        .visible .entry c() {\n  .reg .b32 %r<4>;\n  mov.b32 %r1, %q;\n  ret;\n}\n";

    fn codes(a: &Analysis) -> Vec<(ptxkit::diag::Code, u32)> {
        a.diagnostics()
            .iter()
            .map(|d| (d.code, d.span.start))
            .collect()
    }

    /// After an edit inside one body, the diagnostics are those of a fresh
    /// analysis, and only that function was checked again.
    #[test]
    fn body_edit_rechecks_one_function() {
        let src = SRC.replace("frob.b32 %r1, %r9;", "mov.b32 %r1, %r9;");
        let first = Analysis::new(src.clone(), None, None);
        assert_eq!(first.reuse.checked, 3);
        let at = src.find("mov.b32 %r1, 1;").unwrap() + "mov.b32 %r1, ".len();
        let mut edited = src.clone();
        edited.replace_range(at..at + 1, "%r7 + 100");
        let inc = Analysis::new(edited.clone(), None, Some(&first));
        let fresh = Analysis::new(edited, None, None);
        assert_eq!(
            inc.reuse,
            Reuse {
                kept: 2,
                checked: 1
            }
        );
        assert_eq!(codes(&inc), codes(&fresh));
        assert!(!codes(&fresh).is_empty());
    }

    /// An item with an error at every element keeps only its first
    /// `MAX_DIAGNOSTICS` (it kept all 20,000); those shown are the
    /// module's first, in order, and a later item's errors are still
    /// found.
    #[test]
    fn an_items_diagnostics_are_bounded() {
        let max = crate::diagnostics::MAX_DIAGNOSTICS;
        let names: Vec<String> = (0..20_000).map(|i| format!("q{i}")).collect();
        let src = format!(
            ".version 8.0\n.target sm_90\n.address_size 64\n\
             .global .u64 t[20000] = {{{}}};\n.global .u32 late = zz;\n",
            names.join(", ")
        );
        let a = Analysis::new(src.clone(), None, None);
        let held: usize = a.semantic.iter().map(Vec::len).sum();
        assert!(held < 2 * max + 10, "{held} diagnostics held");
        let shown = a.diagnostics();
        assert!(shown.len() > max);
        let first = src.find("q0").unwrap() as u32;
        assert_eq!(shown[0].span.start, first);
        assert!(shown.windows(2).all(|w| w[0].span.start <= w[1].span.start));
        let late = src.find("zz").unwrap() as u32;
        assert!(shown.iter().any(|d| d.span.start == late));
    }

    /// Each text of `steps` analysed after the one before (reusing it)
    /// gives the diagnostics of a fresh analysis; the reuse of each step.
    fn step_through(steps: &[String]) -> Vec<Reuse> {
        let mut prev: Option<Analysis> = None;
        let mut reuse = Vec::new();
        for text in steps {
            let inc = Analysis::new(text.clone(), None, prev.as_ref());
            let fresh = Analysis::new(text.clone(), None, None);
            assert_eq!(codes(&inc), codes(&fresh), "{text}");
            reuse.push(inc.reuse);
            prev = Some(inc);
        }
        reuse
    }

    /// The rules of the module's end (static shared memory, a global
    /// address in a 32-bit register, a `.param` read before its call,
    /// `.loc` function names) are judged on every function's facts, also
    /// those of functions not walked again: an edit elsewhere that adds
    /// or removes the module's only error, or the section that defines a
    /// name, shows them or hides them as a fresh analysis does. (The
    /// diagnostics of the module's end were kept with the unchanged
    /// function, and its facts were lost.)
    #[test]
    fn the_module_end_is_judged_on_kept_functions_too() {
        let head = ".version 8.5\n.target sm_90\n.address_size 64\n";
        let other = |body: &str| {
            format!(".visible .entry other()\n{{\n\t.reg .b32 %r<3>;\n{body}\tret;\n}}\n")
        };
        let fine = other("\tmov.b32 %r1, 1;\n");
        let broken = other("\tmov.b32 %r1, %r9;\n");
        let kernels = [
            ".visible .entry big()\n{\n\t.shared .align 4 .b8 a[60000];\n\tret;\n}\n".to_string(),
            ".visible .entry narrow()\n{\n\t.reg .u32 %r<3>;\n\tmov.u32 %r1, 0;\n\tld.global.u32 %r2, [%r1];\n\tret;\n}\n".to_string(),
            ".func (.param .b32 r) f(.param .b32 a)\n{\n\tst.param.b32 [r], 1;\n\tret;\n}\n\
             .visible .entry seq()\n{\n\t.reg .b32 %r;\n\t.param .b32 pa;\n\t.param .b32 pr;\n\tld.param.b32 %r, [pr];\n\tst.param.b32 [pa], 1;\n\tcall (pr), f, (pa);\n\tret;\n}\n".to_string(),
        ];
        for k in &kernels {
            let clean = format!("{head}{k}{fine}");
            let with_error = format!("{head}{k}{broken}");
            let end_codes = |t: &str| {
                let a = Analysis::new(t.to_string(), None, None);
                a.late.iter().filter(|d| d.is_error()).count()
            };
            assert_eq!(end_codes(&clean), 1, "{clean}");
            assert_eq!(end_codes(&with_error), 0, "{with_error}");
            let reuse = step_through(&[clean.clone(), with_error.clone(), clean.clone()]);
            // The kernels were kept, not walked again.
            assert!(
                reuse.iter().skip(1).all(|r| r.kept >= 1 && r.checked == 1),
                "{reuse:?}"
            );
        }
        // A `.loc` naming a label no section defines, then the section.
        let loc = ".file 1 \"a.cu\"\n.visible .entry k()\n{\n\t.loc 1 1 1, function_name $Lf, inlined_at 1 2 3\n\tret;\n}\n";
        let without = format!("{head}{loc}");
        let with = format!("{without}.section .debug_str {{ $Lf:\n.b8 0 }}\n");
        let reuse = step_through(&[without.clone(), with.clone(), without]);
        assert!(reuse.iter().skip(1).all(|r| r.kept == 1), "{reuse:?}");
    }

    /// A header edit checks everything from there on.
    #[test]
    fn header_edit_rechecks_the_rest() {
        let src = SRC.replace("frob.b32", "mov.b32");
        let first = Analysis::new(src.clone(), None, None);
        let edited = src.replace(".entry b()", ".entry bb()");
        let inc = Analysis::new(edited.clone(), None, Some(&first));
        assert_eq!(
            inc.reuse,
            Reuse {
                kept: 1,
                checked: 2
            }
        );
        assert_eq!(codes(&inc), codes(&Analysis::new(edited, None, None)));
    }

    /// Syntax errors hide the semantic diagnostics, as in `ptx check`.
    #[test]
    fn syntax_errors_first() {
        // `%q` is undeclared (a semantic error) and `frob` unknown (the
        // parser's): only the latter is shown.
        let a = Analysis::new(SRC.to_string(), None, None);
        let codes: Vec<ptxkit::diag::Code> = a.diagnostics().iter().map(|d| d.code).collect();
        assert_eq!(codes, ["E0201"]);
        let b = Analysis::new(SRC.replace("frob", "mov"), None, None);
        assert!(b
            .diagnostics()
            .iter()
            .any(|d| d.code > ptxkit::diag::Code::BadOperands));
    }

    /// Past the size limit: no tree, no copy of the text, and the
    /// diagnostics `ptx check` gives (here a duplicate declaration and an
    /// undeclared name, syntax errors and all).
    #[test]
    fn a_large_text_keeps_its_diagnostics_only() {
        let mut src = String::from(".version 8.0\n.target sm_90\n.address_size 64\n");
        for i in 0..1000 {
            src.push_str(&format!(".global .u32 g{i};\n"));
        }
        src.push_str(".global .u32 g7;\n.global .u64 p = q;\n");
        let full = Analysis::new(src.clone(), None, None);
        let large = Analysis::sized(src.clone(), None, None, true, 1024);
        assert_eq!(full.large(), None);
        assert_eq!(large.large(), Some(src.len()));
        assert!(large.module.items.is_empty());
        assert!(large.text.is_empty());
        assert_eq!(codes(&large), codes(&full));
        assert_eq!(codes(&large).len(), 2);
        // An analysis of a large text is not reused for the next.
        let next = Analysis::sized(src.clone(), None, Some(&large), true, usize::MAX);
        assert_eq!(codes(&next), codes(&full));
    }
}
