//! Checking a source's statements against the targets their guards
//! compile them for: each reading of a statement (its `#if` branches) is
//! judged against the selected targets nvcc compiles it for; a statement
//! no selected device pass compiles is not PTX and is only counted.

use std::path::PathBuf;
use std::sync::Arc;

use rustc_hash::FxHashMap;

use super::finder::{find_all, AsmStatement, Found};
use super::passes::{Mask, Passes};
use super::pp::{device, PpOptions};
use super::{judge, Checked, Verdict};
use crate::diag::Diagnostic;

/// How to check a source.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The targets to check against (empty: every known target).
    pub targets: Vec<String>,
    /// The source's path, for `#include "..."` next to it.
    pub path: Option<PathBuf>,
    /// Include directories (`-I`), searched in order for the macros of
    /// included headers.
    pub include_dirs: Vec<PathBuf>,
    /// `-D NAME=VALUE` definitions (`VALUE` may be empty).
    pub defines: Vec<(String, String)>,
    /// `-U NAME`: macros known to be undefined (a condition on them is
    /// decided rather than checked both ways).
    pub undefines: Vec<String>,
}

/// Where a statement is compiled, and why.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Guard {
    /// The conditional lines around the statement that restrict where it
    /// is compiled, outermost first (`#if __CUDA_ARCH__ >= 900`).
    pub conditions: Vec<String>,
    /// Every known target nvcc compiles it for.
    #[serde(serialize_with = "names")]
    pub compiled_for: Arc<[String]>,
    /// `compiled_for` written short (`sm_90..sm_121f`).
    pub compiled_for_text: String,
    /// The selected targets it was checked against.
    #[serde(serialize_with = "names")]
    pub checked_for: Arc<[String]>,
    /// Identifiers the conditions read that no source defines, taken as
    /// undefined (a build without `-D`).
    pub assumed_undefined: Vec<String>,
    /// Conditions that could not be decided for some target: each of
    /// their branches was checked against every such target.
    pub undecidable: Vec<String>,
}

/// A statement no selected NVPTX compile reaches.
#[derive(Clone, Debug)]
pub struct NotCompiled {
    /// The statement.
    pub statement: AsmStatement,
    /// Its guard.
    pub guard: Guard,
    /// Why: the host pass only, or none of the selected targets.
    pub reason: String,
}

/// What checking one source gives.
#[derive(Clone, Debug, Default)]
pub struct FileCheck {
    /// The statements compiled for some selected target, checked.
    pub checked: Vec<Checked>,
    /// The statements no selected device pass compiles (not PTX).
    pub not_compiled: Vec<NotCompiled>,
}

/// Find and check every `asm` statement of a C++ source, following its
/// conditional compilation and its macros (see `docs/inline-asm.md`).
pub fn check_file(src: &[u8], opts: &Options) -> FileCheck {
    let mut out = FileCheck::default();
    check_each(src, opts, &mut |step| match step {
        // Room for them all at once: a statement's result is over 600
        // bytes, and a list grown by doubling held up to twice that while
        // it moved.
        Step::Found(n) => out.checked.reserve_exact(n),
        Step::Outcome(Outcome::Checked(c)) => out.checked.push(c),
        Step::Outcome(Outcome::NotCompiled(n)) => out.not_compiled.push(n),
    });
    out
}

/// One statement's outcome, as [`check_file_each`] hands them over.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// Compiled for some selected target, and checked.
    Checked(Checked),
    /// Compiled for none of them (not PTX).
    NotCompiled(NotCompiled),
}

/// [`check_file`], handing each statement's outcome to `each` as soon as
/// it is made, in source order, rather than holding them all: a caller
/// that reports them as they come holds the statements found and one
/// result, not every result besides (`ptx check-asm`).
pub fn check_file_each(src: &[u8], opts: &Options, mut each: impl FnMut(Outcome)) {
    check_each(src, opts, &mut |step| {
        if let Step::Outcome(o) = step {
            each(o);
        }
    });
}

/// What [`check_each`] hands over: first how many statements were found,
/// then each one's outcome. (Moved once to its consumer: a box would cost
/// an allocation a statement for nothing.)
#[allow(clippy::large_enum_variant)]
enum Step {
    Found(usize),
    Outcome(Outcome),
}

/// [`check_file_each`], with the number of statements first.
fn check_each(src: &[u8], opts: &Options, each: &mut dyn FnMut(Step)) {
    if src.len() > crate::MAX_FILE_SIZE {
        return;
    }
    let sel = Selection::new(&opts.targets);
    let pp_opts = PpOptions {
        path: opts.path.clone(),
        include_dirs: opts.include_dirs.clone(),
        defines: opts.defines.clone(),
        undefines: opts.undefines.clone(),
    };
    let mut shared = Shared::default();
    let all = find_all(src, &pp_opts, Arc::clone(&sel.passes));
    each(Step::Found(all.len()));
    for f in all {
        let guard = sel.guard(&f, &mut shared);
        if let Some(reason) = sel.not_compiled(&f) {
            each(Step::Outcome(Outcome::NotCompiled(NotCompiled {
                statement: f.statement,
                guard,
                reason,
            })));
            continue;
        }
        let judged = judge_readings(&f, &guard.conditions, &sel, &mut shared);
        each(Step::Outcome(Outcome::Checked(assemble(f, guard, judged))));
    }
}

/// What a source's statements are checked against: the compile passes
/// and the selected targets.
pub(super) struct Selection {
    /// Every pass.
    pub passes: Arc<Passes>,
    /// The selected targets, in the order given.
    pub selected: Vec<String>,
    /// Their device passes.
    pub sel_mask: Mask,
}

impl Selection {
    /// The selection of `targets` (empty: every known target).
    pub fn new(targets: &[String]) -> Selection {
        let passes = Arc::new(Passes::new());
        let selected = if targets.is_empty() {
            passes.targets.clone()
        } else {
            targets.to_vec()
        };
        let sel_mask = passes.of(&selected);
        Selection {
            passes,
            selected,
            sel_mask,
        }
    }

    /// The guard of a statement found.
    pub fn guard(&self, f: &Found, shared: &mut Shared) -> Guard {
        let dev = device(f.mask);
        let (compiled_for, compiled_for_text) = shared.of_mask(&self.passes, dev);
        let (checked_for, _) = shared.of_mask(&self.passes, dev & self.sel_mask);
        Guard {
            conditions: f.guard.conditions.clone(),
            compiled_for,
            compiled_for_text,
            checked_for,
            assumed_undefined: f.guard.assumed_undefined.clone(),
            undecidable: f.guard.undecidable.clone(),
        }
    }

    /// Whether a selected device pass compiles `f`.
    pub fn compiles(&self, f: &Found) -> bool {
        device(f.mask) & self.sel_mask != 0
    }

    /// Why no selected device pass compiles `f`; `None` when one does.
    pub fn not_compiled(&self, f: &Found) -> Option<String> {
        if self.compiles(f) {
            return None;
        }
        let dev = device(f.mask);
        Some(if f.mask & super::passes::HOST != 0 && dev == 0 {
            "compiled in the host pass only: not PTX".to_string()
        } else if dev == 0 {
            "compiled in no NVIDIA pass (another platform, or a branch its conditions rule out): not PTX".to_string()
        } else {
            format!(
                "compiled only for {}, none of the selected targets",
                self.passes.describe(dev)
            )
        })
    }
}

/// The lists of target names of a file's statements, each kept once: a
/// statement holds three lists of up to every known target (about 50), so
/// 200,000 statements held 1.5 GB of copies of the same names.
/// The lists of a mask's targets are made once each too (with the mask
/// written short), not once a statement.
#[derive(Default)]
pub(super) struct Shared {
    lists: FxHashMap<Vec<String>, Arc<[String]>>,
    masks: FxHashMap<Mask, (Arc<[String]>, String)>,
}

impl Shared {
    fn list(&mut self, names: Vec<String>) -> Arc<[String]> {
        if let Some(l) = self.lists.get(&names) {
            return Arc::clone(l);
        }
        let l: Arc<[String]> = Arc::from(names.as_slice());
        self.lists.insert(names, Arc::clone(&l));
        l
    }

    /// The targets of the device passes in `m`, and `m` written short.
    fn of_mask(&mut self, passes: &Passes, m: Mask) -> (Arc<[String]>, String) {
        if let Some((l, text)) = self.masks.get(&m) {
            return (Arc::clone(l), text.clone());
        }
        let l = self.list(passes.targets_of(m));
        let text = passes.describe(m);
        self.masks.insert(m, (Arc::clone(&l), text.clone()));
        (l, text)
    }
}

fn names<S: serde::Serializer>(l: &Arc<[String]>, s: S) -> Result<S::Ok, S::Error> {
    serde::Serialize::serialize(&**l, s)
}

/// The selected targets (in the order given) among `m`.
fn targets_in(passes: &Passes, m: Mask, selected: &[String]) -> Vec<String> {
    let names = passes.targets_of(m);
    selected
        .iter()
        .filter(|t| names.contains(t))
        .cloned()
        .collect()
}

/// What judging a statement's readings gives: the expensive part of its
/// result, a function of its readings (each statement with the passes
/// reading it so), of the conditions around it and of the selection only
/// (what [`super::incremental::Incremental`] keys its results by). Its
/// diagnostics are not yet labelled with a macro invocation.
#[derive(Clone, Debug)]
pub(super) struct Judged {
    /// The verdict over every reading.
    pub verdict: Verdict,
    /// The reading whose diagnostics are reported, when it is not the
    /// first.
    pub rejected: Option<Box<AsmStatement>>,
}

/// Judge each reading of `f` against the selected targets that read it so;
/// `conditions` are the lines of its guard (named in a note when a target
/// they exclude would accept it). Reads nothing of `f` but its readings.
pub(super) fn judge_readings(
    f: &Found,
    conditions: &[String],
    sel: &Selection,
    shared: &mut Shared,
) -> Judged {
    let passes = &*sel.passes;
    let (sel_mask, selected) = (sel.sel_mask, sel.selected.as_slice());
    let all_dev = device(passes.all());
    let mut valid: Vec<String> = Vec::new();
    let mut invalid: Option<(Option<String>, Vec<Diagnostic>)> = None;
    let mut rejected = None;
    let mut skipped = None;
    for (k, (statement, mask)) in f.readings().enumerate() {
        let targets = targets_in(passes, mask & sel_mask, selected);
        if targets.is_empty() {
            continue;
        }
        match judge(statement, &targets) {
            Verdict::Valid { targets } => {
                for t in targets.iter() {
                    if !valid.contains(t) {
                        valid.push(t.clone());
                    }
                }
            }
            Verdict::Invalid {
                closest,
                mut diagnostics,
            } => {
                // Restricted by a guard: does a target it excludes accept it?
                let outside = all_dev & !mask;
                if outside != 0 && mask != all_dev {
                    let others = passes.targets_of(outside);
                    if let Verdict::Valid { targets: ok } = judge(statement, &others) {
                        let why = if conditions.is_empty() {
                            "its `#if` branches".to_string()
                        } else {
                            conditions
                                .iter()
                                .map(|c| format!("`{c}`"))
                                .collect::<Vec<_>>()
                                .join(" and ")
                        };
                        let note = format!(
                            "valid only for {}; this branch is compiled for {} ({why})",
                            passes.describe(passes.of(&ok)),
                            passes.describe(mask & sel_mask),
                        );
                        for d in diagnostics.iter_mut().filter(|d| d.is_error()) {
                            *d = d.clone().with_note(note.clone());
                        }
                    }
                }
                match &mut invalid {
                    Some((_, ds)) => {
                        for d in diagnostics {
                            if !ds
                                .iter()
                                .any(|x| x.span == d.span && x.message == d.message)
                            {
                                ds.push(d);
                            }
                        }
                    }
                    None => {
                        invalid = Some((closest, diagnostics));
                        // The first reading is `statement` itself.
                        rejected = (k > 0).then(|| Box::new(statement.clone()));
                    }
                }
            }
            s @ Verdict::Skipped { .. } => {
                if skipped.is_none() {
                    skipped = Some(s);
                }
            }
        }
    }
    let verdict = match (invalid, skipped) {
        (Some((closest, mut diagnostics)), _) => {
            diagnostics.sort_by_key(|d| d.span.start);
            Verdict::Invalid {
                closest,
                diagnostics,
            }
        }
        (None, Some(s)) if valid.is_empty() => s,
        _ => {
            // In the order the targets were selected.
            let targets = selected
                .iter()
                .filter(|t| valid.contains(t))
                .cloned()
                .collect();
            Verdict::Valid {
                targets: shared.list(targets),
            }
        }
    };
    Judged { verdict, rejected }
}

/// A statement's result from what judging its readings gave: the
/// diagnostics labelled with the macro invocation it came from, the notes
/// on what was assumed.
pub(super) fn assemble(f: Found, guard: Guard, judged: Judged) -> Checked {
    let Judged { verdict, rejected } = judged;
    let verdict = label_invocation(verdict, &f);
    let mut notes = Vec::new();
    for op in f.statement.operands() {
        let letters = op.constraint.trim_start_matches(['=', '+', '&']);
        if letters.starts_with('n')
            && op.value.is_none()
            && super::fragment::integer(&op.expr).is_none()
        {
            notes.push(format!(
                "the value of \"n\"({}) is not known: checked with the first of 1, 0, 2, 8, 16, 32, 64, 128, 256 the statement accepts",
                op.expr
            ));
        }
    }
    for u in &guard.undecidable {
        notes.push(format!(
            "`{u}` could not be decided: its branches were checked against every target"
        ));
    }
    Checked {
        variants: f.reading_count(),
        statement: f.statement,
        verdict,
        guard,
        expanded: f.expanded,
        notes,
        rejected,
    }
}

/// A statement read from a macro's body has its spans there, which every
/// invocation of the macro shares: each of its diagnostics is labelled
/// with the invocation it came from, so that the reports of two
/// invocations are told apart (and lead to the code that invoked it).
fn label_invocation(verdict: Verdict, f: &Found) -> Verdict {
    let Some(call) = f.invoked_at else {
        return verdict;
    };
    // Written in the invocation's own arguments: already placed there.
    if call.start <= f.statement.span.start && f.statement.span.end <= call.end {
        return verdict;
    }
    let name = f
        .macro_name
        .as_deref()
        .map(String::from_utf8_lossy)
        .unwrap_or_default();
    let label = |d: Diagnostic| d.with_label(call, format!("in the expansion of `{name}` here"));
    match verdict {
        Verdict::Invalid {
            closest,
            diagnostics,
        } => Verdict::Invalid {
            closest,
            diagnostics: diagnostics.into_iter().map(label).collect(),
        },
        Verdict::Skipped { diagnostic } => Verdict::Skipped {
            diagnostic: label(diagnostic),
        },
        v @ Verdict::Valid { .. } => v,
    }
}
