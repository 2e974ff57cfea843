//! Semantic tokens: opcodes, modifiers, directives and types, registers,
//! parameters, labels, functions, special registers, numbers, strings and
//! comments, from the lexer and the tree.

use lsp_types::{
    SemanticToken, SemanticTokenModifier, SemanticTokenType, SemanticTokens, SemanticTokensLegend,
};
use ptxkit::isa::catalog;
use ptxkit::isa::vocab::ScalarType;
use ptxkit::lex::{Lexer, TokenKind};
use ptxkit::syntax::{Block, Stmt};
use ptxkit::{Item, Span};
use rustc_hash::FxHashMap;

use crate::document::Document;
use crate::index::Kind;

const OPCODE: u32 = 0;
const MODIFIER: u32 = 1;
const DIRECTIVE: u32 = 2;
const TYPE: u32 = 3;
const VARIABLE: u32 = 4;
const PARAMETER: u32 = 5;
const LABEL: u32 = 6;
const FUNCTION: u32 = 7;
const NUMBER: u32 = 8;
const STRING: u32 = 9;
const COMMENT: u32 = 10;

/// The token types and modifiers, in the order the numbers above index.
pub fn legend() -> SemanticTokensLegend {
    SemanticTokensLegend {
        token_types: vec![
            SemanticTokenType::KEYWORD,
            SemanticTokenType::MODIFIER,
            SemanticTokenType::MACRO,
            SemanticTokenType::TYPE,
            SemanticTokenType::VARIABLE,
            SemanticTokenType::PARAMETER,
            SemanticTokenType::new("label"),
            SemanticTokenType::FUNCTION,
            SemanticTokenType::NUMBER,
            SemanticTokenType::STRING,
            SemanticTokenType::COMMENT,
        ],
        token_modifiers: vec![
            SemanticTokenModifier::DECLARATION,
            SemanticTokenModifier::DEFAULT_LIBRARY,
        ],
    }
}

const DECLARATION: u32 = 1;
const DEFAULT_LIBRARY: u32 = 2;

fn instruction_words(b: &Block, range: Span, out: &mut FxHashMap<u32, u32>) {
    for s in &b.stmts {
        match s {
            Stmt::Instruction(i) if i.span.end >= range.start && i.span.start <= range.end => {
                out.insert(i.opcode_span.start, OPCODE);
                for m in &i.mods {
                    out.insert(m.span().start, MODIFIER);
                }
            }
            Stmt::Block(inner) => instruction_words(inner, range, out),
            _ => {}
        }
    }
}

/// The most text `semanticTokens/full` colours: the tokens of a larger
/// document stop at the end of the line where this many bytes are
/// reached (4 MiB: about a million tokens, 20 MB of JSON). Editors ask
/// for the visible range (`semanticTokens/range`, any size of document)
/// as they scroll.
pub const MAX_FULL_BYTES: u32 = 4 << 20;

/// The tokens of `doc` within `range`: all of it when `None`; either way
/// at most [`MAX_FULL_BYTES`] of text from the range's start (a
/// `semanticTokens/range` over a whole 24 MB document answered 75 MB of
/// JSON and peaked over 1 GB). The work is proportional to the range and
/// the items it touches.
pub fn tokens(doc: &Document, range: Option<Span>) -> SemanticTokens {
    let a = &doc.analysis;
    let src = a.text.as_bytes();
    let len = u32::try_from(src.len()).unwrap_or(u32::MAX);
    let range = range.unwrap_or(Span::new(0, len));
    let range = Span::new(
        range.start,
        range.end.min(range.start.saturating_add(MAX_FULL_BYTES)),
    );
    let mut words = FxHashMap::default();
    for item in &a.module.items {
        let s = item.span();
        if s.end < range.start || s.start > range.end {
            continue;
        }
        if let Item::Function(f) = item {
            if let Some(b) = &f.body {
                instruction_words(b, range, &mut words);
            }
        }
    }
    let ix = a.index();
    // Start at the beginning of the range's first line.
    let first_line = doc.lines.line_of(range.start);
    let from = doc
        .lines
        .offset(&doc.text, lsp_types::Position::new(first_line, 0));
    let mut lx = Lexer::at(src, from as usize);
    let mut data = Vec::new();
    let (mut prev_line, mut prev_col) = (0u32, 0u32);
    let mut cols = crate::document::Columns::default();
    let mut emit = |span: Span, ty: u32, mods: u32| {
        // One token a line: a block comment over lines is cut at each.
        let mut start = span.start;
        while start < span.end {
            let line = doc.lines.line_of(start);
            let line_end = doc.lines.line_end(&doc.text, line).min(span.end);
            if line_end > start {
                let p = doc.lines.position_after(&doc.text, &mut cols, start);
                let e = doc.lines.position_after(&doc.text, &mut cols, line_end);
                let delta_line = p.line - prev_line;
                let delta_start = if delta_line == 0 {
                    p.character - prev_col
                } else {
                    p.character
                };
                data.push(SemanticToken {
                    delta_line,
                    delta_start,
                    length: e.character - p.character,
                    token_type: ty,
                    token_modifiers_bitset: mods,
                });
                prev_line = p.line;
                prev_col = p.character;
            }
            start = line_end + 1;
        }
    };
    loop {
        let t = lx.next_token();
        if t.kind == TokenKind::Eof || t.span.start > range.end {
            break;
        }
        let (ty, mods) = match t.kind {
            TokenKind::LineComment | TokenKind::BlockComment | TokenKind::UnterminatedComment => {
                (COMMENT, 0)
            }
            TokenKind::Int | TokenKind::Float => (NUMBER, 0),
            TokenKind::Str | TokenKind::UnterminatedStr => (STRING, 0),
            TokenKind::DotWord => match words.get(&t.span.start) {
                Some(&k) => (k, 0),
                None => {
                    let w = t.span.text(src);
                    if ScalarType::from_spelling(&w).is_some() {
                        (TYPE, 0)
                    } else {
                        (DIRECTIVE, 0)
                    }
                }
            },
            TokenKind::Ident => {
                if let Some(&k) = words.get(&t.span.start) {
                    (k, 0)
                } else if let Some(o) = ix.at(t.span.start).filter(|o| o.span.start == t.span.start)
                {
                    let def = if o.def { DECLARATION } else { 0 };
                    match ix.decl(o.decl).map(|d| d.kind) {
                        Some(Kind::Register | Kind::Variable) => (VARIABLE, def),
                        Some(Kind::Param) => (PARAMETER, def),
                        Some(Kind::Label) => (LABEL, def),
                        Some(Kind::Function | Kind::Kernel) => (FUNCTION, def),
                        None => continue,
                    }
                } else if catalog().special_register(&t.span.text(src)).is_some() {
                    (VARIABLE, DEFAULT_LIBRARY)
                } else {
                    continue;
                }
            }
            _ => continue,
        };
        if t.span.end >= range.start {
            emit(t.span, ty, mods);
        }
    }
    SemanticTokens {
        result_id: None,
        data,
    }
}
/// The edit from the tokens `old` to `new` (`semanticTokens/full/delta`):
/// one replacement of what lies between their common start and their
/// common end, so an edit in one place sends only the tokens around it.
pub fn delta(old: &[SemanticToken], new: SemanticTokens) -> lsp_types::SemanticTokensDelta {
    let data = new.data;
    let prefix = old.iter().zip(&data).take_while(|(a, b)| a == b).count();
    let suffix = old
        .get(prefix..)
        .unwrap_or_default()
        .iter()
        .rev()
        .zip(data.get(prefix..).unwrap_or_default().iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let removed = old.len().saturating_sub(prefix).saturating_sub(suffix);
    let added = data
        .get(prefix..data.len().saturating_sub(suffix))
        .unwrap_or_default()
        .to_vec();
    let five = |n: usize| u32::try_from(n.saturating_mul(5)).unwrap_or(u32::MAX);
    let edits = if removed == 0 && added.is_empty() {
        Vec::new()
    } else {
        vec![lsp_types::SemanticTokensEdit {
            start: five(prefix),
            delete_count: five(removed),
            data: Some(added),
        }]
    };
    lsp_types::SemanticTokensDelta {
        result_id: new.result_id,
        edits,
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod delta_tests {
    use super::*;

    fn tok(n: u32) -> SemanticToken {
        SemanticToken {
            delta_line: n,
            delta_start: 0,
            length: 1,
            token_type: 0,
            token_modifiers_bitset: 0,
        }
    }

    /// Applying the edit to the old tokens gives the new ones.
    #[test]
    fn delta_replaces_the_middle_only() {
        let old: Vec<_> = [1, 2, 3, 4, 5].map(tok).to_vec();
        let new: Vec<_> = [1, 2, 9, 9, 4, 5].map(tok).to_vec();
        let d = delta(
            &old,
            SemanticTokens {
                result_id: Some("2".into()),
                data: new.clone(),
            },
        );
        assert_eq!(d.edits.len(), 1);
        let e = &d.edits[0];
        assert_eq!((e.start, e.delete_count), (10, 5));
        let mut applied = old.clone();
        let at = e.start as usize / 5;
        applied.splice(
            at..at + e.delete_count as usize / 5,
            e.data.clone().unwrap(),
        );
        assert_eq!(applied, new);
        let same = delta(
            &new,
            SemanticTokens {
                result_id: None,
                data: new.clone(),
            },
        );
        assert!(same.edits.is_empty());
    }
}
