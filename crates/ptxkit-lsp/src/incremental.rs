//! Answering an edit inside one function body without parsing the module
//! again: the diagnostics kept by item in the current text's positions,
//! and the edited function parsed (`ptxkit::parse_range`) and checked
//! alone, after the module's declarations before it.
//!
//! The tree of the whole module is parsed again apart from this (in the
//! background, see [`crate::server`]); the requests that need it wait for
//! it. Diagnostics, the one thing an editor wants after every keystroke,
//! do not.

use ptxkit::check::{CheckOptions, EndFacts, ModuleChecker};
use ptxkit::{Diagnostic, Item, Piece, Span};

use crate::analysis::{header_of, shifted, Analysis, Change};

/// One top-level item: where it is now and its diagnostics.
#[derive(Clone, Debug)]
struct Slot {
    span: Span,
    body: Option<Span>,
    syntax: Vec<Diagnostic>,
    semantic: Vec<Diagnostic>,
    /// What its body leaves for the module's end.
    facts: EndFacts,
}

/// The diagnostics of a document by item, in its current positions.
#[derive(Clone, Debug, Default)]
pub struct Layout {
    items: Vec<Slot>,
    /// Syntax diagnostics outside every item (the module's header).
    stray: Vec<Diagnostic>,
    /// Semantic diagnostics outside every item.
    loose: Vec<Diagnostic>,
    /// The diagnostics of the module's end ([`Analysis`]'s `late`).
    late: Vec<Diagnostic>,
    /// Whether a function of the module holds shared memory (its calls
    /// then count at the module's end).
    shared_in_use: bool,
}

/// The index of the item of `spans` that holds `off`.
fn holder(starts: &[Span], off: u32) -> Option<usize> {
    let k = starts.partition_point(|s| s.start <= off).checked_sub(1)?;
    let s = starts.get(k)?;
    (off < s.end.max(s.start + 1)).then_some(k)
}

impl Layout {
    /// The layout of a whole analysis.
    pub fn of(a: &Analysis) -> Layout {
        let mut items: Vec<Slot> = a
            .module
            .items
            .iter()
            .enumerate()
            .map(|(i, it)| Slot {
                span: it.span(),
                body: match it {
                    Item::Function(f) => f.body.as_ref().map(|b| b.span),
                    _ => None,
                },
                syntax: Vec::new(),
                semantic: a.semantic.get(i).cloned().unwrap_or_default(),
                facts: a.facts.get(i).cloned().unwrap_or_default(),
            })
            .collect();
        let spans: Vec<Span> = items.iter().map(|s| s.span).collect();
        let mut stray = Vec::new();
        for d in &a.syntax {
            match holder(&spans, d.span.start).and_then(|k| items.get_mut(k)) {
                Some(slot) => slot.syntax.push(d.clone()),
                None => stray.push(d.clone()),
            }
        }
        Layout {
            items,
            stray,
            loose: a.loose.clone(),
            late: a.late.clone(),
            shared_in_use: a.facts.iter().any(EndFacts::uses_shared_memory),
        }
    }

    /// Whether the current text has a syntax error.
    pub fn has_syntax_errors(&self) -> bool {
        self.items
            .iter()
            .flat_map(|s| s.syntax.iter())
            .chain(self.stray.iter())
            .any(Diagnostic::is_error)
    }

    /// Whether the module has an error outside the module's end (what
    /// silences the rules judged there).
    fn has_errors(&self) -> bool {
        self.items
            .iter()
            .flat_map(|s| s.syntax.iter().chain(&s.semantic))
            .chain(&self.stray)
            .chain(&self.loose)
            .any(Diagnostic::is_error)
    }

    /// Every diagnostic to show, in source order: the syntax errors alone
    /// when there are any ([`crate::diagnostics::of`] then shows what
    /// `ptx check` reports instead).
    pub fn diagnostics(&self) -> Vec<&Diagnostic> {
        let syntax = self
            .items
            .iter()
            .flat_map(|s| s.syntax.iter())
            .chain(self.stray.iter());
        let errors = syntax.clone().any(Diagnostic::is_error);
        let semantic = self
            .items
            .iter()
            .flat_map(|s| s.semantic.iter())
            .chain(self.loose.iter())
            .chain(self.late.iter());
        let mut all: Vec<&Diagnostic> = syntax.chain(semantic.filter(|_| !errors)).collect();
        all.sort_by_key(|d| d.span.start);
        all
    }

    /// Bring the layout from `old` to `new` when the change between them
    /// lies inside one function's body: that function is parsed and
    /// checked again, after the declarations of `a` (the last whole
    /// analysis, whose items are these in the same order) before it.
    /// `false` when the change is anywhere else (nothing is changed then).
    pub fn edit(&mut self, a: &Analysis, old: &str, new: &str, target: Option<&str>) -> bool {
        let ch = Change::new(old.as_bytes(), new.as_bytes());
        if ch.prefix == ch.old_len && ch.old_len == ch.new_len {
            return true;
        }
        if a.module.items.len() != self.items.len() {
            return false;
        }
        let old_end = ch.old_len - ch.suffix;
        let spans: Vec<Span> = self.items.iter().map(|s| s.span).collect();
        let Some(k) = holder(&spans, ch.prefix.min(ch.old_len.saturating_sub(1))) else {
            return false;
        };
        let Some(slot) = self.items.get(k) else {
            return false;
        };
        let Some(body) = slot.body else {
            return false;
        };
        // Strictly between the braces: the `{` in the common prefix, the
        // `}` in the common suffix.
        if !(body.start < ch.prefix && old_end < body.end) {
            return false;
        }
        let delta = i64::from(ch.new_len) - i64::from(ch.old_len);
        let shift = |o: u32| u32::try_from(i64::from(o) + delta).ok();
        let (Some(new_end), Some(new_body_end)) = (shift(slot.span.end), shift(body.end)) else {
            return false;
        };
        let old_from = slot.span.start;
        let old_to = self.items.get(k + 1).map_or(u32::MAX, |n| n.span.start);
        let next = match self.items.get(k + 1) {
            Some(n) => match shift(n.span.start) {
                Some(x) => x,
                None => return false,
            },
            None => u32::MAX,
        };
        let Some(parsed) = ptxkit::parse_range(new.as_bytes(), slot.span.start, next) else {
            return false;
        };
        let [item] = parsed.module.items.as_slice() else {
            return false;
        };
        let Item::Function(f) = item else {
            return false;
        };
        if f.span.end != new_end || f.body.as_ref().map(|b| b.span.end) != Some(new_body_end) {
            return false;
        }
        // The check: the declarations before, then the function.
        let opts = CheckOptions {
            target: target.map(String::from),
            ..CheckOptions::default()
        };
        // At most an item's first `MAX_DIAGNOSTICS` are kept, as
        // `Analysis` keeps them.
        let mut mc = ModuleChecker::new(&opts).with_max_errors(crate::diagnostics::MAX_DIAGNOSTICS);
        for before in a.module.items.iter().take(k) {
            match before {
                Item::Function(g) if g.body.is_some() => {
                    mc.piece(&Piece::FunctionStart(Box::new(header_of(g))));
                    mc.piece(&Piece::FunctionEnd(g.span));
                }
                Item::Section(_) => {}
                other => mc.item(other),
            }
        }
        mc.take_diagnostics();
        let facts = mc.item_facts(item);
        let mut semantic = mc.take_diagnostics();
        semantic.sort_by_key(|d| d.span.start);
        // The module's end is not judged again here: it holds only while
        // the function leaves the same facts for it, at the same places,
        // and the module's errors (which silence its rules) stay as they
        // were. Otherwise the whole analysis answers.
        let same_facts = slot.facts.mapped(|s| ch.map_span(s)).is_some_and(|old| {
            if self.shared_in_use {
                old.same(&facts)
            } else {
                old.same_but_calls(&facts)
            }
        });
        let errors_before = self.has_errors();
        let errors_elsewhere =
            self.items.iter().enumerate().any(|(i, s)| {
                i != k && s.syntax.iter().chain(&s.semantic).any(Diagnostic::is_error)
            }) || self
                .stray
                .iter()
                .chain(&self.loose)
                .any(Diagnostic::is_error);
        let errors_after = errors_elsewhere
            || parsed.diagnostics.iter().any(Diagnostic::is_error)
            || semantic.iter().any(Diagnostic::is_error);
        if !same_facts || errors_before != errors_after {
            return false;
        }
        // Everything after the change moves by its length.
        let after = |d: &Diagnostic| shifted(d, &ch);
        // The module's header rules (`.version` first, a `.target`) are
        // not checked by a parse of one item, and a body edit does not
        // change them: keep those.
        let header = |d: &&Diagnostic| {
            d.code == ptxkit::diag::Code::MissingVersion
                || d.code == ptxkit::diag::Code::MissingTarget
        };
        for (i, s) in self.items.iter_mut().enumerate() {
            if i == k {
                let mut syntax = parsed.diagnostics.clone();
                syntax.extend(s.syntax.iter().filter(header).map(after));
                syntax.sort_by_key(|d| d.span.start);
                *s = Slot {
                    span: f.span,
                    body: f.body.as_ref().map(|b| b.span),
                    syntax,
                    semantic: std::mem::take(&mut semantic),
                    facts: facts.clone(),
                };
            } else if i > k {
                s.span = ch.map_span(s.span).unwrap_or(s.span);
                s.body = s.body.map(|b| ch.map_span(b).unwrap_or(b));
                s.syntax = s.syntax.iter().map(after).collect();
                s.semantic = s.semantic.iter().map(after).collect();
            } else {
                // Before the change, but a label may point past it.
                s.semantic = s.semantic.iter().map(after).collect();
            }
        }
        // What lay between this item and the next was parsed again with it
        // (its diagnostics are the slot's now).
        let redone =
            |d: &&Diagnostic| header(d) || !(old_from <= d.span.start && d.span.start < old_to);
        self.stray = self.stray.iter().filter(redone).map(after).collect();
        self.loose = self.loose.iter().filter(redone).map(after).collect();
        self.late = self.late.iter().map(after).collect();
        true
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    const SRC: &str = ".version 8.0\n.target sm_90\n.address_size 64\n\
        .func f(.param .b32 x) {\n  ret;\n}\n\
        .visible .entry a() {\n  .reg .b32 %r<4>;\n  mov.b32 %r1, 1;\n  ret;\n}\n\
        .visible .entry b() {\n  .reg .b32 %r<4>;\n  mov.b32 %r1, %q;\n  ret;\n}\n";

    fn shown(ds: Vec<&Diagnostic>) -> Vec<(ptxkit::diag::Code, u32, u32, Vec<u32>)> {
        ds.iter()
            .map(|d| {
                let labels = d.labels.iter().map(|l| l.span.start).collect();
                (d.code, d.span.start, d.span.end, labels)
            })
            .collect()
    }

    /// A sequence of edits in bodies gives the diagnostics of a whole
    /// analysis of each text.
    #[test]
    fn edits_in_bodies_match_whole_analyses() {
        let a = Analysis::new(SRC.to_string(), None, None);
        let mut layout = Layout::of(&a);
        let mut text = SRC.to_string();
        let edits: &[(&str, &str)] = &[
            ("mov.b32 %r1, 1;", "mov.b32 %r1, %zz;\n  frob %r1;"),
            ("  frob %r1;", "  call f, (%r1);"),
            ("call f, (%r1);", "mov.b32 %r2, %r1;\n  mov.b32 %r2, %r1;"),
            ("%q;", "%r2;"),
        ];
        for (from, to) in edits {
            let at = text.find(from).unwrap();
            let mut next = text.clone();
            next.replace_range(at..at + from.len(), to);
            assert!(layout.edit(&a, &text, &next, None), "{from} -> {to}");
            let whole = Analysis::new(next.clone(), None, None);
            assert_eq!(
                shown(layout.diagnostics()),
                shown(whole.diagnostics()),
                "{next}"
            );
            text = next;
        }
        // A header edit is not taken.
        let next = text.replace(".entry b()", ".entry bb()");
        assert!(!layout.edit(&a, &text, &next, None));
    }

    /// A body edit that changes what the module's end judges (its only
    /// error added or removed, a function's facts for it changed) is left
    /// to the whole analysis; one that does not is answered here, with
    /// the module's end's diagnostics moved.
    #[test]
    fn edits_that_change_the_module_end_go_to_the_whole_analysis() {
        let src = ".version 8.5\n.target sm_90\n.address_size 64\n\
            .visible .entry big()\n{\n\t.shared .align 4 .b8 a[60000];\n\tret;\n}\n\
            .visible .entry narrow()\n{\n\t.reg .u32 %r<3>;\n\tmov.u32 %r1, 0;\n\tld.global.u32 %r2, [%r1];\n\tret;\n}\n";
        let a = Analysis::new(src.to_string(), None, None);
        assert_eq!(a.late.len(), 1, "{:?}", a.late);
        let edit = |from: &str, to: &str| {
            let at = src.rfind(from).unwrap();
            let mut next = src.to_string();
            next.replace_range(at..at + from.len(), to);
            let mut layout = Layout::of(&a);
            let taken = layout.edit(&a, src, &next, None);
            let whole = Analysis::new(next.clone(), None, None);
            if taken {
                assert_eq!(
                    shown(layout.diagnostics()),
                    shown(whole.diagnostics()),
                    "{next}"
                );
            }
            taken
        };
        // An error in a body: the module's end says nothing any more.
        assert!(!edit("\tret;", "\tmov.u32 %r1, %r9;\n\tret;"));
        // The 32-bit address gone: the shared memory shows.
        assert!(!edit("ld.global.u32 %r2, [%r1];", "mov.u32 %r2, %r1;"));
        // More of the same: the first use and the count stay, moved.
        assert!(edit(
            "\tmov.u32 %r1, 0;",
            "\tmov.u32 %r1, 0;\n\tadd.u32 %r1, %r1, 1;"
        ));
    }
}
