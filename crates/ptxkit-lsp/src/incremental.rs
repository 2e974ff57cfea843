//! Answering an edit inside one function body without parsing the module
//! again: the diagnostics kept by item in the current text's positions,
//! and the edited function parsed (`ptxkit::parse_range`) and checked
//! alone, after the module's declarations before it.
//!
//! The tree of the whole module is parsed again apart from this (in the
//! background, see [`crate::server`]); the requests that need it wait for
//! it. Diagnostics, the one thing an editor wants after every keystroke,
//! do not.

use ptxkit::check::{CheckOptions, ModuleChecker};
use ptxkit::{Diagnostic, Item, Piece, Span};

use crate::analysis::{header_of, shifted, Analysis, Change};

/// One top-level item: where it is now and its diagnostics.
#[derive(Clone, Debug)]
struct Slot {
    span: Span,
    body: Option<Span>,
    syntax: Vec<Diagnostic>,
    semantic: Vec<Diagnostic>,
}

/// The diagnostics of a document by item, in its current positions.
#[derive(Clone, Debug, Default)]
pub struct Layout {
    items: Vec<Slot>,
    /// Syntax diagnostics outside every item (the module's header).
    stray: Vec<Diagnostic>,
    /// Semantic diagnostics outside every item.
    loose: Vec<Diagnostic>,
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
            .chain(self.loose.iter());
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
        mc.item(item);
        let mut semantic = mc.take_diagnostics();
        semantic.sort_by_key(|d| d.span.start);
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
}
