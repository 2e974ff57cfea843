//! Finding instructions by opcode and modifiers.
//!
//! A pattern is a list of dot-separated components, e.g. `ld.global.*.v4`.
//! An instruction is read as the same kind of list: its opcode followed by
//! its modifiers in written order (`ld.global.nc.v4.f32` is `ld`, `global`,
//! `nc`, `v4`, `f32`). The pattern matches when:
//! * the components match the instruction's list from its start, in order:
//!   a word equals one element (the first word is the opcode), and a
//!   component that is exactly `*` stands for any run of zero or more
//!   elements (so `*.shared::cluster` finds any instruction with that
//!   modifier, and `atom.*.cas` any `atom` with `.cas` somewhere after it);
//! * the instruction may have more modifiers after the last component
//!   (so `wgmma` finds every `wgmma…`); end the pattern with `$` to forbid
//!   that (`bar.sync$` finds `bar.sync` but not `bar.sync.aligned`).
//!
//! Components compare exactly and case-sensitively; `::` is part of a
//! component (`shared::cluster`, `L2::cache_hint`).

use serde::Serialize;

use crate::print::instruction_text;
use crate::source::LineIndex;
use crate::syntax::{Instruction, Module};

/// A compiled pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    parts: Vec<Part>,
    anchored: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Part {
    Any,
    Word(String),
}

impl Pattern {
    /// Parse a pattern; errors name the problem.
    pub fn parse(text: &str) -> Result<Pattern, String> {
        let (body, anchored) = match text.strip_suffix('$') {
            Some(b) => (b, true),
            None => (text, false),
        };
        let body = body.strip_prefix('.').unwrap_or(body);
        if body.is_empty() {
            return Err("empty pattern".into());
        }
        let mut parts = Vec::new();
        for c in body.split('.') {
            if c.is_empty() {
                return Err(format!("empty component in `{text}`"));
            }
            if c == "*" {
                parts.push(Part::Any);
            } else if c.contains('*') {
                return Err(format!(
                    "`*` must be a whole component (in `{text}`): write `a.*.b`, not `a*`"
                ));
            } else {
                parts.push(Part::Word(c.to_string()));
            }
        }
        Ok(Pattern { parts, anchored })
    }

    /// When the pattern starts with a word that is no opcode of the
    /// catalog (so it can match nothing), why, with the closest opcode.
    pub fn unknown_opcode(&self) -> Option<String> {
        let Some(Part::Word(w)) = self.parts.first() else {
            return None;
        };
        if crate::isa::catalog().opcode_id(w).is_some() {
            return None;
        }
        Some(format!(
            "no instruction `{w}` in the catalog{}",
            crate::suggest::did_you_mean(w, crate::suggest::opcodes())
        ))
    }

    /// Whether the instruction's opcode and modifiers match.
    pub fn matches(&self, i: &Instruction) -> bool {
        let mut words: Vec<&str> = Vec::with_capacity(i.mods.len().saturating_add(1));
        words.push(i.opcode_name());
        for m in &i.mods {
            let s = m.as_str();
            words.push(s.strip_prefix('.').unwrap_or(s));
        }
        self.matches_words(&words)
    }

    /// Whether a component list matches (`["ld", "global", "v4"]`).
    pub fn matches_words(&self, words: &[&str]) -> bool {
        !words.is_empty() && glob(&self.parts, words, self.anchored)
    }
}

/// Whether `parts` match a prefix of `words` (all of them when
/// `anchored`). A pattern without `*` is compared word by word; otherwise
/// the words matched so far are tracked as a set of positions, one pass per
/// component: O(components × words). (Backtracking over every split of the
/// words among the `*`s was exponential: `*.global` repeated 18 times
/// against an instruction of 36 `.global` modifiers ran for minutes.)
fn glob(parts: &[Part], words: &[&str], anchored: bool) -> bool {
    if !parts.iter().any(|p| matches!(p, Part::Any)) {
        let same = parts.len() <= words.len()
            && parts
                .iter()
                .zip(words)
                .all(|(p, x)| matches!(p, Part::Word(w) if w == x));
        return same && (!anchored || parts.len() == words.len());
    }
    // reach[j]: the components so far match exactly `words[..j]`.
    let mut reach = vec![false; words.len().saturating_add(1)];
    if let Some(r) = reach.first_mut() {
        *r = true;
    }
    for p in parts {
        match p {
            Part::Any => {
                let mut any = false;
                for r in &mut reach {
                    any |= *r;
                    *r = any;
                }
            }
            Part::Word(w) => {
                let mut before = false;
                for (r, x) in reach
                    .iter_mut()
                    .zip(std::iter::once(None).chain(words.iter().map(Some)))
                {
                    let now = *r;
                    *r = before && x.is_some_and(|x| x == w);
                    before = now;
                }
            }
        }
        if !reach.contains(&true) {
            return false;
        }
    }
    if anchored {
        reach.last().copied().unwrap_or(false)
    } else {
        reach.contains(&true)
    }
}

/// One match.
#[derive(Clone, Debug, Serialize)]
pub struct Hit {
    /// Source line.
    pub line: u32,
    /// The enclosing function.
    pub function: String,
    /// The function's readable C++ name when its name is mangled.
    pub function_demangled: Option<String>,
    /// The instruction, printed canonically.
    pub instruction: String,
}

/// Every instruction of `m` that matches `p`, in source order.
pub fn grep_module(m: &Module, lines: &LineIndex, p: &Pattern) -> Vec<Hit> {
    let mut out = Vec::new();
    for f in m.functions() {
        let Some(b) = &f.body else { continue };
        let mut demangled = None;
        for i in b.instructions() {
            if p.matches(i) {
                out.push(Hit {
                    line: lines.line_col(i.span.start).line,
                    function: f.name.to_string(),
                    function_demangled: demangled
                        .get_or_insert_with(|| crate::demangle(f.name.as_str()))
                        .clone(),
                    instruction: instruction_text(i),
                });
            }
        }
    }
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    fn m(p: &str, w: &str) -> bool {
        let words: Vec<&str> = w.split('.').collect();
        Pattern::parse(p).unwrap().matches_words(&words)
    }

    #[test]
    fn pattern_semantics() {
        assert!(m("ld.global.*.v4", "ld.global.nc.v4.f32"));
        assert!(m("ld.global.*.v4", "ld.global.v4.f32"));
        assert!(!m("ld.global.*.v4", "ld.shared.v4.f32"));
        assert!(!m("ld.global.*.v4", "ld.global.v2.f32"));
        assert!(m("atom.*.cas", "atom.global.cas.b32"));
        assert!(!m("atom.*.cas", "atom.global.add.u32"));
        assert!(m("wgmma.*", "wgmma.fence.sync.aligned"));
        assert!(m("wgmma", "wgmma.fence.sync.aligned"));
        assert!(!m("mma", "wgmma.mma_async"));
        assert!(m("bar.sync$", "bar.sync"));
        assert!(!m("bar.sync$", "bar.sync.aligned"));
        assert!(m("*.shared::cluster", "st.async.shared::cluster.b32"));
        assert!(!m("*.shared", "st.async.shared::cluster.b32"));
        assert!(m("*", "ret"));
        assert!(m("*.cas", "atom.global.cas.b32"));
        assert!(!m("global", "ld.global.f32"));
        assert!(Pattern::parse("ld.glo*").is_err());
        assert!(Pattern::parse("ld..x").is_err());
        assert!(Pattern::parse("").is_err());
    }

    /// The backtracking definition the matcher must agree with.
    fn reference(parts: &[Part], words: &[&str], anchored: bool) -> bool {
        match parts.split_first() {
            None => !anchored || words.is_empty(),
            Some((Part::Any, rest)) => {
                (0..=words.len()).any(|k| reference(rest, &words[k..], anchored))
            }
            Some((Part::Word(w), rest)) => match words.split_first() {
                Some((x, more)) if x == w => reference(rest, more, anchored),
                _ => false,
            },
        }
    }

    #[test]
    fn matcher_agrees_with_backtracking() {
        let alphabet = ["a", "b", "*"];
        for len in 1..=5usize {
            for code in 0..3usize.pow(len as u32) {
                let mut c = code;
                let comps: Vec<&str> = (0..len)
                    .map(|_| {
                        let x = alphabet[c % 3];
                        c /= 3;
                        x
                    })
                    .collect();
                for anchored in [false, true] {
                    let text = format!("{}{}", comps.join("."), if anchored { "$" } else { "" });
                    let p = Pattern::parse(&text).unwrap();
                    for wlen in 1..=5usize {
                        for wcode in 0..2usize.pow(wlen as u32) {
                            let words: Vec<&str> = (0..wlen)
                                .map(|i| if wcode >> i & 1 == 1 { "a" } else { "b" })
                                .collect();
                            assert_eq!(
                                p.matches_words(&words),
                                reference(&p.parts, &words, anchored),
                                "{text} against {words:?}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn many_stars_against_many_modifiers_is_quick() {
        let text = format!("{}.zz", ["*.global"; 40].join("."));
        let p = Pattern::parse(&text).unwrap();
        let words = vec!["global"; 2_000];
        let t = std::time::Instant::now();
        assert!(!p.matches_words(&words));
        assert!(t.elapsed() < std::time::Duration::from_secs(5));
    }

    #[test]
    fn grep_reports_lines_and_functions() {
        let src = ".version 8.0\n.target sm_90\n.address_size 64\n.entry k(.param .u64 p)\n{\n.reg .b64 %rd<3>;\n.reg .f32 %f<3>;\nld.param.u64 %rd1, [p];\nld.global.nc.v2.f32 {%f1, %f2}, [%rd1];\nret;\n}\n";
        let module = crate::parse(src.as_bytes()).module;
        let hits = grep_module(
            &module,
            &LineIndex::new(src.as_bytes()),
            &Pattern::parse("ld.global.*.v2").unwrap(),
        );
        assert_eq!(hits.len(), 1);
        assert_eq!(hits[0].line, 9);
        assert_eq!(hits[0].function, "k");
        assert_eq!(
            hits[0].instruction,
            "ld.global.nc.v2.f32\t{%f1, %f2}, [%rd1];"
        );
    }
}
