//! Checking a statement's fragment against targets: which accept it, and
//! what the closest one says when none does.

use std::sync::Arc;

use super::finder::{AsmStatement, Template};
use super::fragment::{self, build, Fragment, OperandKind};
use crate::check::{check, CheckOptions};
use crate::diag::{Code, Diagnostic};

/// Values tried, in order, for an `"n"` operand whose value is not visible
/// (a template parameter): the first is used unless the checker objects
/// to that very immediate (a range, a multiple of 8…).
///
/// The search is bounded: one judgement per value for all the unknown
/// operands at once (9), then, when every error still lies on them, each
/// distinct unknown operand on its own (at most 9 each), then one
/// judgement of the values chosen — at most 9 + 9 × operands + 1
/// judgements of a statement, each a parse and a check per target
/// (docs/limits.md; the unit test `guess_search_is_bounded`).
const GUESSES: [i128; 9] = [1, 0, 2, 8, 16, 32, 64, 128, 256];

/// The most unknown operands searched each on its own; later ones keep the
/// first guess. Each search judges the whole statement on every target,
/// so a statement of 400 unknown operands took 20 s; C++ compilers allow
/// 30 operands to an `asm` statement in all.
pub const MAX_SEARCHED_OPERANDS: usize = 16;

// How many fragments were judged on this thread: the guess search's bound
// is tested by counting (`tests::guess_search_is_bounded`).
#[cfg(test)]
thread_local! {
    static JUDGED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// The outcome for one statement.
#[derive(Clone, Debug)]
pub enum Verdict {
    /// Some selected target accepts it.
    Valid {
        /// The targets that accept it, in the order given (one list shared
        /// by the statements of a file that have the same).
        targets: Arc<[String]>,
    },
    /// No selected target accepts it.
    Invalid {
        /// The target whose diagnostics are reported (the one with the
        /// fewest errors, the newest on a tie); `None` when the problem
        /// is the same for every target.
        closest: Option<String>,
        /// The diagnostics, in C++ positions.
        diagnostics: Vec<Diagnostic>,
    },
    /// Not checked: the template (or a `"C"` operand) is not literal.
    Skipped {
        /// A warning saying why, in C++ positions.
        diagnostic: Diagnostic,
    },
}

impl Verdict {
    /// `valid`, `invalid` or `skipped`.
    pub fn status(&self) -> &'static str {
        match self {
            Verdict::Valid { .. } => "valid",
            Verdict::Invalid { .. } => "invalid",
            Verdict::Skipped { .. } => "skipped",
        }
    }

    /// The diagnostics to report when `selected` targets were tried: none
    /// for a valid statement, the skip warning, or the invalid
    /// statement's diagnostics each with a note naming the target they
    /// were found for (what `ptx check-asm` and Python's
    /// `AsmStatement.diagnostics` show).
    pub fn diagnostics(&self, selected: usize) -> Vec<Diagnostic> {
        match self {
            Verdict::Valid { .. } => Vec::new(),
            Verdict::Invalid {
                closest,
                diagnostics,
            } => {
                let note = match closest {
                    Some(t) if selected > 1 => format!(
                        "no selected target accepts this asm statement; shown as {t} sees it (the closest of {selected})"
                    ),
                    Some(t) => format!("checked as an asm statement for {t}"),
                    None => "in an asm statement: the same for every target".to_string(),
                };
                diagnostics
                    .iter()
                    .map(|d| d.clone().with_note(note.clone()))
                    .collect()
            }
            Verdict::Skipped { diagnostic } => vec![diagnostic.clone()],
        }
    }
}

/// Check `stmt` against each of `targets` (`sm_90a` spellings).
pub fn judge(stmt: &AsmStatement, targets: &[String]) -> Verdict {
    if matches!(stmt.template, Template::TooLong) {
        return Verdict::Invalid {
            closest: None,
            diagnostics: vec![Diagnostic::error(
                Code::TooLong,
                stmt.keyword,
                format!(
                    "asm statement of more than {} tokens: not read to its end, not checked",
                    super::finder::MAX_STATEMENT_TOKENS
                ),
            )],
        };
    }
    if let Template::GivenUp(why) = stmt.template {
        use super::macros::{GaveUp, BUDGET_BASE, BUDGET_PER_BYTE, MAX_DEPTH, MAX_EXPANDED};
        let what = match why {
            GaveUp::Size => format!("made more than {MAX_EXPANDED} tokens"),
            GaveUp::Depth => format!("nested macros more than {MAX_DEPTH} deep"),
            GaveUp::Budget => format!(
                "passed the file's budget ({BUDGET_BASE} tokens and {BUDGET_PER_BYTE} per byte \
                 of source)"
            ),
        };
        return Verdict::Skipped {
            diagnostic: Diagnostic::warning(
                Code::ExpansionBudget,
                stmt.keyword,
                format!(
                    "a macro expansion here {what} and was given up: the asm statements it, and \
                     any later expansion given up, would make are not checked"
                ),
            ),
        };
    }
    let Template::Literal(t) = &stmt.template else {
        return Verdict::Skipped {
            diagnostic: Diagnostic::warning(
                Code::NotLiteral,
                if stmt.template_span.is_empty() {
                    stmt.keyword
                } else {
                    stmt.template_span
                },
                "asm template is not a string literal (a macro or a constexpr string?): not checked",
            ),
        };
    };
    let operands: Vec<_> = stmt.operands().collect();
    if let Some(op) = operands
        .iter()
        .find(|o| fragment::kind_of(o, &operands) == OperandKind::Text(None))
    {
        return Verdict::Skipped {
            diagnostic: Diagnostic::warning(
                Code::NotLiteral,
                op.expr_span,
                "a \"C\" operand that is not a string literal: the template is not known, not checked",
            ),
        };
    }
    // An immediate whose value is not visible: one value for all of them
    // first; when every error then lies on them, each is searched on its
    // own, the others kept (`wgmma … sp`'s selector must be 0 where its
    // scales must be 1).
    let blamed = |frag: &Fragment, v: &Outcome| {
        !frag.guessed.is_empty()
            && matches!(v, Outcome::Invalid(_, ds)
                if ds.iter().any(Diagnostic::is_error)
                    && ds.iter().filter(|d| d.is_error()).all(|d| frag.on_guess(d.span)))
    };
    let mut first: Option<(Fragment, Outcome)> = None;
    for &guess in &GUESSES {
        let frag = build(stmt, t, &|_| guess);
        let v = judge_fragment(&frag, targets);
        if !blamed(&frag, &v) {
            return finish(&frag, v);
        }
        if first.is_none() {
            first = Some((frag, v));
        }
    }
    if let Some((frag, _)) = &first {
        let mut ops: Vec<usize> = frag.guessed_ops.clone();
        ops.sort_unstable();
        ops.dedup();
        let mut chosen: Vec<(usize, i128)> = Vec::new();
        let value = |chosen: &[(usize, i128)], k: usize| {
            chosen
                .iter()
                .find(|(o, _)| *o == k)
                .map_or(GUESSES[0], |&(_, v)| v)
        };
        for &k in ops.iter().take(MAX_SEARCHED_OPERANDS) {
            for &c in &GUESSES {
                let mut trial = chosen.clone();
                trial.push((k, c));
                let frag = build(stmt, t, &|n| value(&trial, n));
                let v = judge_fragment(&frag, targets);
                let on_k = matches!(&v, Outcome::Invalid(_, ds)
                    if ds.iter().any(|d| d.is_error()
                        && frag.guessed_operand(d.span) == Some(k)));
                if !on_k {
                    chosen = trial;
                    break;
                }
            }
        }
        let frag = build(stmt, t, &|n| value(&chosen, n));
        let v = judge_fragment(&frag, targets);
        if !blamed(&frag, &v) {
            return finish(&frag, v);
        }
    }
    // No guess helps: report what the first gave.
    match first {
        Some((frag, v)) => finish(&frag, v),
        None => Verdict::Valid {
            targets: Arc::from([]),
        },
    }
}

/// Before mapping: the accepting targets, or the closest target's
/// diagnostics in module positions.
enum Outcome {
    Valid(Vec<String>),
    Invalid(Option<String>, Vec<Diagnostic>),
}

fn finish(frag: &Fragment, v: Outcome) -> Verdict {
    let problems = frag.problems.clone();
    match v {
        Outcome::Valid(targets) if problems.is_empty() => Verdict::Valid {
            targets: targets.into(),
        },
        Outcome::Valid(_) => Verdict::Invalid {
            closest: None,
            diagnostics: problems,
        },
        Outcome::Invalid(closest, ds) => {
            let mut diagnostics = problems;
            // What follows from a reference to no operand is said already.
            let own: Vec<Diagnostic> = ds
                .iter()
                .filter(|d| !frag.on_missing(d.span))
                .map(|d| frag.map(d))
                .collect();
            let closest = if own.iter().any(Diagnostic::is_error) {
                closest
            } else {
                None
            };
            diagnostics.extend(own);
            diagnostics.sort_by_key(|d| d.span.start);
            Verdict::Invalid {
                closest,
                diagnostics,
            }
        }
    }
}

fn judge_fragment(frag: &Fragment, targets: &[String]) -> Outcome {
    #[cfg(test)]
    JUDGED.with(|n| n.set(n.get().saturating_add(1)));
    let parsed = crate::parse(frag.ptx.as_bytes());
    if parsed.has_errors() {
        return Outcome::Invalid(None, parsed.diagnostics);
    }
    let mut accepted = Vec::new();
    let mut best: Option<(usize, &String, Vec<Diagnostic>)> = None;
    for t in targets {
        let ds = check(
            &parsed.module,
            &CheckOptions {
                target: Some(t.clone()),
                ..CheckOptions::default()
            },
        );
        let errors = ds.iter().filter(|d| d.is_error()).count();
        if errors == 0 {
            accepted.push(t.clone());
        } else if accepted.is_empty() && best.as_ref().is_none_or(|(n, _, _)| errors <= *n) {
            best = Some((errors, t, ds));
        }
    }
    if !accepted.is_empty() {
        return Outcome::Valid(accepted);
    }
    match best {
        Some((_, t, ds)) => Outcome::Invalid(Some(t.clone()), ds),
        None => Outcome::Invalid(None, Vec::new()),
    }
}

#[cfg(test)]
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
mod tests {
    use super::super::finder::find;
    use super::*;

    /// Judgements made for the first statement of `src` on one target.
    fn judgements(src: &str) -> (usize, &'static str) {
        let stmt = find(src.as_bytes()).remove(0);
        JUDGED.with(|n| n.set(0));
        let v = judge(&stmt, &["sm_90".to_string()]);
        (JUDGED.with(std::cell::Cell::get), v.status())
    }

    /// An `"n"` operand that no value fits (an immediate as a
    /// destination): all 9 values for every unknown operand at once, then
    /// 9 for each operand on its own, then the final judgement — and no
    /// more, however the operands are written (twice here for `%0`).
    #[test]
    fn guess_search_is_bounded() {
        for (ops, src) in [
            (1, r#"void f() { asm("mov.u32 %0, 1;" :: "n"(N)); }"#),
            (
                2,
                r#"void f() { asm("mov.u32 %0, 1; mov.u32 %1, %0;" :: "n"(N), "n"(M)); }"#,
            ),
            (
                3,
                r#"void f() { asm("mov.u32 %0, 1; mov.u32 %1, 2; mov.u32 %2, 3;" :: "n"(A), "n"(B), "n"(C)); }"#,
            ),
        ] {
            let (n, status) = judgements(src);
            assert_eq!(status, "invalid", "{src}");
            assert_eq!(n, GUESSES.len() * (1 + ops) + 1, "{ops} operands: {src}");
        }
        // Past MAX_SEARCHED_OPERANDS unknown operands, the later ones are
        // not searched: 9 + 9 * 16 + 1 judgements for 40.
        let body: String = (0..40).map(|k| format!("mov.u32 %{k}, 1; ")).collect();
        let args: Vec<String> = (0..40).map(|k| format!("\"n\"(N{k})")).collect();
        let src = format!("void f() {{ asm(\"{body}\" :: {}); }}", args.join(", "));
        let (n, status) = judgements(&src);
        assert_eq!(status, "invalid");
        assert_eq!(n, GUESSES.len() * (1 + MAX_SEARCHED_OPERANDS) + 1);
        // A value that fits is found by the first judgements.
        let (n, status) =
            judgements(r#"void f() { asm("add.u32 %0, %0, %1;" : "+r"(x) : "n"(N)); }"#);
        assert_eq!((n, status), (1, "valid"));
    }
}
