//! Signature help: the forms of the instruction being typed with their
//! operand roles, the role under the cursor active.

use lsp_types::{
    Documentation, MarkupContent, MarkupKind, ParameterInformation, ParameterLabel, SignatureHelp,
    SignatureInformation,
};
use ptxkit::isa::catalog;

use crate::document::Document;
use crate::forms::{fitting, operand_labels};

/// Signatures shown at most.
const MAX_SIGNATURES: usize = 16;

/// The signature help at byte offset `off` of `doc`.
pub fn help(doc: &Document, off: u32) -> Option<SignatureHelp> {
    let text = doc.text.as_str();
    let off = (off as usize).min(text.len());
    let b = text.as_bytes();
    let stmt_start = b
        .get(..off)?
        .iter()
        .rposition(|&c| matches!(c, b';' | b'{' | b'}'))
        .map_or(0, |i| i + 1);
    let stmt = text.get(stmt_start..off)?;
    let mut rest = stmt.trim_start();
    if let Some((l, r)) = rest.split_once(':') {
        if !l.contains(char::is_whitespace) && !r.starts_with(':') {
            rest = r.trim_start();
        }
    }
    if rest.starts_with('@') {
        rest = rest.split_once(char::is_whitespace)?.1.trim_start();
    }
    // The instruction word, then the operands so far.
    let (word, operands) = rest.split_once(char::is_whitespace)?;
    let mut parts = word.split('.');
    let root = parts.next()?;
    let typed: Vec<String> = parts
        .filter(|p| !p.is_empty())
        .map(|p| format!(".{p}"))
        .collect();
    let typed: Vec<&str> = typed.iter().map(String::as_str).collect();
    let op = catalog().opcode_id(root)?;
    let mut depth = 0i32;
    let mut active = 0u32;
    for c in operands.chars() {
        match c {
            '[' | '{' | '(' => depth += 1,
            ']' | '}' | ')' => depth -= 1,
            ',' if depth == 0 => active += 1,
            _ => {}
        }
    }
    // The form the parsed instruction matched goes first.
    let parsed =
        crate::locate::instruction_at(&doc.analysis.module, off as u32).and_then(|i| i.form());
    let mut forms: Vec<&'static ptxkit::isa::Form> =
        fitting(op, &typed).into_iter().map(|(f, _)| f).collect();
    if let Some(p) = parsed {
        forms.retain(|f| !std::ptr::eq(*f, p));
        forms.insert(0, p);
    }
    forms.truncate(MAX_SIGNATURES);
    if forms.is_empty() {
        return None;
    }
    let signatures = forms
        .iter()
        .map(|f| {
            let mut label = format!("{word} ");
            let mut params = Vec::new();
            for (k, role) in operand_labels(f).iter().enumerate() {
                if k > 0 {
                    label.push_str(", ");
                }
                let a = label.encode_utf16().count() as u32;
                label.push_str(role);
                let b = label.encode_utf16().count() as u32;
                params.push(ParameterInformation {
                    label: ParameterLabel::LabelOffsets([a, b]),
                    documentation: None,
                });
            }
            label.push(';');
            SignatureInformation {
                label,
                documentation: Some(Documentation::MarkupContent(MarkupContent {
                    kind: MarkupKind::Markdown,
                    value: format!("```ptx\n{}\n```", f.text),
                })),
                parameters: Some(params),
                active_parameter: None,
            }
        })
        .collect();
    Some(SignatureHelp {
        signatures,
        active_signature: Some(0),
        active_parameter: Some(active),
    })
}
