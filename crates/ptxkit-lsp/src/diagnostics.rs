//! The checker's diagnostics as protocol diagnostics: code, severity,
//! the secondary labels as related locations (the earlier declaration),
//! notes appended to the message.

use lsp_types::{
    Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString,
};

use ptxkit::Severity;

use crate::cpp::Lang;
use crate::document::Document;

/// Diagnostics beyond this many are not sent (a module full of errors
/// would otherwise flood the editor).
pub const MAX_DIAGNOSTICS: usize = 1000;

/// The diagnostics of `doc`'s current text: what `ptx check` reports for
/// it. Without syntax errors these are the incremental analysis's (the
/// same as `ptx check`'s, item by item). With one, the text is checked as
/// `ptx check` checks it ([`ptxkit::check::check_source`]: the pieces that
/// parse are still checked, and errors a broken declaration would cause
/// further on are left out), so the semantic errors around a typo show
/// while it is being fixed.
pub fn of(doc: &Document) -> Vec<Diagnostic> {
    match doc.lang {
        Lang::Ptx => {}
        // The `asm` statements' diagnostics, at their C++ positions.
        Lang::Cpp => {
            return doc
                .asm
                .iter()
                .flat_map(|c| c.verdict.diagnostics(doc.asm_targets))
                .take(MAX_DIAGNOSTICS)
                .map(|d| convert(doc, &d))
                .collect()
        }
        Lang::Other => return Vec::new(),
    }
    if doc.layout.has_syntax_errors() {
        let opts = ptxkit::check::CheckOptions {
            target: doc.analysis.target().map(str::to_string),
            ..ptxkit::check::CheckOptions::default()
        };
        let all = ptxkit::check::check_source_bounded(
            doc.text.as_bytes(),
            &opts,
            MAX_DIAGNOSTICS,
            |_| {},
        );
        return all.diagnostics.iter().map(|d| convert(doc, d)).collect();
    }
    doc.layout
        .diagnostics()
        .into_iter()
        .take(MAX_DIAGNOSTICS)
        .map(|d| convert(doc, d))
        .collect()
}

/// The protocol's severity of ours. The protocol numbers its severities
/// (1 error … 4 hint) rather than naming them, so this is a `match` over
/// every [`Severity`] (a new one fails to compile here), not a lookup by
/// [`Severity::as_str`] as SARIF and GitHub do.
fn severity(s: Severity) -> DiagnosticSeverity {
    match s {
        Severity::Error => DiagnosticSeverity::ERROR,
        Severity::Warning => DiagnosticSeverity::WARNING,
    }
}

fn convert(doc: &Document, d: &ptxkit::Diagnostic) -> Diagnostic {
    let message = d.message_with_notes();
    let related: Vec<DiagnosticRelatedInformation> = d
        .labels
        .iter()
        .map(|l| DiagnosticRelatedInformation {
            location: Location::new(doc.uri.clone(), doc.range(l.span)),
            message: l.message.clone(),
        })
        .collect();
    Diagnostic {
        range: doc.range(d.span),
        severity: Some(severity(d.severity)),
        code: Some(NumberOrString::String(d.code.as_str().to_string())),
        source: Some("ptx".to_string()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        ..Diagnostic::default()
    }
}
