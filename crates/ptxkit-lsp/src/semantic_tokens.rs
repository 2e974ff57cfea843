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

fn instruction_words(b: &Block, out: &mut FxHashMap<u32, u32>) {
    for s in &b.stmts {
        match s {
            Stmt::Instruction(i) => {
                out.insert(i.opcode_span.start, OPCODE);
                for m in &i.mods {
                    out.insert(m.span().start, MODIFIER);
                }
            }
            Stmt::Block(inner) => instruction_words(inner, out),
            _ => {}
        }
    }
}

/// The tokens of `doc` within `range` (all of it when `None`).
pub fn tokens(doc: &Document, range: Option<Span>) -> SemanticTokens {
    let a = &doc.analysis;
    let src = a.text.as_bytes();
    let range = range.unwrap_or(Span::new(0, src.len() as u32));
    let mut words = FxHashMap::default();
    for item in &a.module.items {
        let s = item.span();
        if s.end < range.start || s.start > range.end {
            continue;
        }
        if let Item::Function(f) = item {
            if let Some(b) = &f.body {
                instruction_words(b, &mut words);
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
    let mut emit = |span: Span, ty: u32, mods: u32| {
        // One token a line: a block comment over lines is cut at each.
        let mut start = span.start;
        while start < span.end {
            let line = doc.lines.line_of(start);
            let line_end = doc
                .lines
                .offset(&doc.text, lsp_types::Position::new(line, u32::MAX))
                .min(span.end);
            if line_end > start {
                let p = doc.lines.position(&doc.text, start);
                let e = doc.lines.position(&doc.text, line_end);
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
