//! A small C++ lexer: just enough of C++ to find `asm` statements.
//!
//! It never fails. Comments are skipped, string and character literals
//! (with the `u8`/`u`/`U`/`L` prefixes and raw strings `R"d(...)d"`) are
//! single tokens, numbers with digit separators (`1'000`) are single
//! tokens, and line continuations (a backslash before a newline) are
//! spliced away first ([`Spliced`]). Preprocessor lines are skipped,
//! except `#define` bodies, whose tokens are kept (marked
//! [`Token::in_define`]) so that `asm` statements written inside macros are
//! found too.

/// The source with its line continuations removed, and the way back to
/// the original offsets.
pub struct Spliced<'a> {
    /// The bytes the lexer reads.
    pub text: std::borrow::Cow<'a, [u8]>,
    /// For each removed continuation, the spliced offset where it was and
    /// the number of original bytes removed before that point (cumulative).
    cuts: Vec<(u32, u32)>,
}

impl<'a> Spliced<'a> {
    /// Splice `src` (C++ translation phase 2).
    pub fn new(src: &'a [u8]) -> Spliced<'a> {
        if memchr::memmem::find(src, b"\\\n").is_none()
            && memchr::memmem::find(src, b"\\\r\n").is_none()
        {
            return Spliced {
                text: std::borrow::Cow::Borrowed(src),
                cuts: Vec::new(),
            };
        }
        let mut out = Vec::with_capacity(src.len());
        let mut cuts = Vec::new();
        let mut removed = 0u32;
        let mut i = 0usize;
        while let Some(&b) = src.get(i) {
            if b == b'\\' {
                let skip = match (src.get(i.saturating_add(1)), src.get(i.saturating_add(2))) {
                    (Some(b'\n'), _) => 2,
                    (Some(b'\r'), Some(b'\n')) => 3,
                    _ => 0,
                };
                if skip > 0 {
                    removed = removed.saturating_add(skip as u32);
                    cuts.push((out.len() as u32, removed));
                    i = i.saturating_add(skip);
                    continue;
                }
            }
            out.push(b);
            i = i.saturating_add(1);
        }
        Spliced {
            text: std::borrow::Cow::Owned(out),
            cuts,
        }
    }

    /// The original offset of spliced offset `pos`.
    pub fn original(&self, pos: u32) -> u32 {
        // The last cut at or before `pos`.
        let n = self.cuts.partition_point(|&(at, _)| at <= pos);
        match n.checked_sub(1).and_then(|k| self.cuts.get(k)) {
            Some(&(_, removed)) => pos.saturating_add(removed),
            None => pos,
        }
    }
}

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An identifier or keyword.
    Ident,
    /// A string literal; `body` is the text between the quotes (for a raw
    /// string, between the parentheses).
    Str {
        /// Whether a raw string (no escapes).
        raw: bool,
        /// Start of the contents.
        body_start: u32,
        /// End of the contents.
        body_end: u32,
    },
    /// A character literal.
    Char,
    /// A number (a preprocessing number: `0x1f`, `1'000u`, `1.5e-3f`).
    Number,
    /// Any other single byte: `(`, `:`, `,`, …
    Punct(u8),
    /// A conditional-compilation line (`#if`, `#else`, `#endif`…): the
    /// token runs from the directive's name to the end of its line.
    Cond(Cond),
    /// The start of a `#define` (the word `define`); the macro's name and
    /// body follow as tokens marked [`Token::in_define`].
    Define,
    /// Any other directive (`#include`, `#undef`, `#pragma`…), from its
    /// name to the end of its line.
    Directive,
}

/// The conditional-compilation directives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cond {
    /// `#if`, `#ifdef`, `#ifndef`: a group opens.
    Open,
    /// `#elif`, `#else`, `#elifdef`, `#elifndef`: another branch.
    Branch,
    /// `#endif`.
    Close,
}

/// A token of the spliced text.
#[derive(Clone, Copy, Debug)]
pub struct Token {
    /// What it is.
    pub kind: Kind,
    /// First byte (spliced offset).
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
    /// Whether inside a `#define` body.
    pub in_define: bool,
}

/// The tokens of a spliced C++ source, one at a time.
pub struct Lexer<'s> {
    s: &'s [u8],
    pos: usize,
    /// Only whitespace (or comments) since the last newline.
    line_start: bool,
    /// Inside a `#define` body (ends at the newline).
    in_define: bool,
    /// A conditional directive just read, returned as the next token.
    cond: Option<Token>,
}

impl<'s> Lexer<'s> {
    /// A lexer over spliced text.
    pub fn new(s: &'s [u8]) -> Lexer<'s> {
        Lexer {
            s,
            pos: 0,
            line_start: true,
            in_define: false,
            cond: None,
        }
    }

    fn at(&self, k: usize) -> u8 {
        self.s.get(self.pos.saturating_add(k)).copied().unwrap_or(0)
    }

    fn bump(&mut self, n: usize) {
        self.pos = self.pos.saturating_add(n).min(self.s.len());
    }

    /// Skip to the end of the line (not past the newline).
    fn skip_line(&mut self) {
        let rest = self.s.get(self.pos..).unwrap_or_default();
        self.bump(memchr::memchr(b'\n', rest).unwrap_or(rest.len()));
    }

    /// Skip a block comment starting at `pos` (`/*`).
    fn skip_block_comment(&mut self) {
        self.bump(2);
        let rest = self.s.get(self.pos..).unwrap_or_default();
        match memchr::memmem::find(rest, b"*/") {
            Some(k) => self.bump(k.saturating_add(2)),
            None => self.pos = self.s.len(),
        }
    }

    /// Skip whitespace and comments; handle newlines and directive starts.
    fn trivia(&mut self) {
        loop {
            match self.at(0) {
                b'\n' => {
                    self.bump(1);
                    self.line_start = true;
                    self.in_define = false;
                }
                b' ' | b'\t' | b'\r' | 0x0b | 0x0c => self.bump(1),
                b'/' if self.at(1) == b'/' => self.skip_line(),
                b'/' if self.at(1) == b'*' => self.skip_block_comment(),
                b'#' if self.line_start => {
                    self.bump(1);
                    self.directive();
                    if self.cond.is_some() {
                        return;
                    }
                }
                _ => return,
            }
            if self.pos >= self.s.len() {
                return;
            }
        }
    }

    /// After `#` at the start of a line: keep a `#define` body's tokens,
    /// skip any other directive's line.
    fn directive(&mut self) {
        while matches!(self.at(0), b' ' | b'\t') {
            self.bump(1);
        }
        let start = self.pos;
        while self.at(0).is_ascii_alphabetic() {
            self.bump(1);
        }
        let name = self.s.get(start..self.pos).unwrap_or_default();
        let kind = match name {
            b"if" | b"ifdef" | b"ifndef" => Kind::Cond(Cond::Open),
            b"elif" | b"else" | b"elifdef" | b"elifndef" => Kind::Cond(Cond::Branch),
            b"endif" => Kind::Cond(Cond::Close),
            b"define" => Kind::Define,
            _ => Kind::Directive,
        };
        self.cond = Some(Token {
            kind,
            start: start as u32,
            end: self.pos as u32,
            in_define: false,
        });
        if name == b"define" {
            self.in_define = true;
            self.line_start = false;
        } else {
            // `#include <a'b>`, `#error don't`: the rest of the line is not
            // C++ tokens; a block comment may carry it onto later lines.
            loop {
                match self.at(0) {
                    0 | b'\n' => break,
                    b'/' if self.at(1) == b'*' => self.skip_block_comment(),
                    b'/' if self.at(1) == b'/' => self.skip_line(),
                    _ => self.bump(1),
                }
                if self.pos >= self.s.len() {
                    break;
                }
            }
            if let Some(t) = &mut self.cond {
                t.end = self.pos as u32;
            }
        }
    }

    /// A quoted literal from `pos` (at the opening quote `q`) to the closing
    /// quote, or to the end of the line when unterminated.
    fn quoted(&mut self, q: u8) -> (u32, u32) {
        self.bump(1);
        let body_start = self.pos as u32;
        loop {
            match self.at(0) {
                b'\\' if self.pos.saturating_add(1) < self.s.len() && self.at(1) != b'\n' => {
                    self.bump(2)
                }
                b'\n' => return (body_start, self.pos as u32),
                c if c == q => {
                    let end = self.pos as u32;
                    self.bump(1);
                    return (body_start, end);
                }
                _ if self.pos >= self.s.len() => return (body_start, self.pos as u32),
                _ => self.bump(1),
            }
        }
    }

    /// A raw string from `pos` at `"`: `"delim( ... )delim"`. `None` (and
    /// nothing consumed) when the delimiter is malformed.
    fn raw(&mut self) -> Option<(u32, u32)> {
        let rest = self.s.get(self.pos.saturating_add(1)..)?;
        let open = rest.iter().take(17).position(|&b| b == b'(')?;
        let delim = rest.get(..open)?;
        if delim
            .iter()
            .any(|&b| matches!(b, b' ' | b')' | b'\\' | b'\t' | b'\n' | b'"'))
        {
            return None;
        }
        let body_start = self.pos.saturating_add(2).saturating_add(open);
        let mut close = Vec::with_capacity(delim.len().saturating_add(2));
        close.push(b')');
        close.extend_from_slice(delim);
        close.push(b'"');
        let body = self.s.get(body_start..)?;
        match memchr::memmem::find(body, &close) {
            Some(k) => {
                let body_end = body_start.saturating_add(k);
                self.pos = body_end.saturating_add(close.len()).min(self.s.len());
                Some((body_start as u32, body_end as u32))
            }
            None => {
                self.pos = self.s.len();
                Some((body_start as u32, self.s.len() as u32))
            }
        }
    }
}

fn ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b == b'$' || b >= 0x80
}

fn ident_continue(b: u8) -> bool {
    ident_start(b) || b.is_ascii_digit()
}

impl Iterator for Lexer<'_> {
    type Item = Token;

    fn next(&mut self) -> Option<Token> {
        self.trivia();
        if let Some(t) = self.cond.take() {
            return Some(t);
        }
        if self.pos >= self.s.len() {
            return None;
        }
        self.line_start = false;
        let in_define = self.in_define;
        let start = self.pos;
        let c = self.at(0);
        let kind = if ident_start(c) {
            while ident_continue(self.at(0)) {
                self.bump(1);
            }
            let word = self.s.get(start..self.pos).unwrap_or_default();
            let is_prefix = matches!(word, b"u8" | b"u" | b"U" | b"L");
            let is_raw_prefix = matches!(word, b"R" | b"u8R" | b"uR" | b"UR" | b"LR");
            match self.at(0) {
                b'"' if is_raw_prefix => match self.raw() {
                    Some((body_start, body_end)) => Kind::Str {
                        raw: true,
                        body_start,
                        body_end,
                    },
                    None => {
                        let (body_start, body_end) = self.quoted(b'"');
                        Kind::Str {
                            raw: false,
                            body_start,
                            body_end,
                        }
                    }
                },
                b'"' if is_prefix => {
                    let (body_start, body_end) = self.quoted(b'"');
                    Kind::Str {
                        raw: false,
                        body_start,
                        body_end,
                    }
                }
                b'\'' if is_prefix => {
                    self.quoted(b'\'');
                    Kind::Char
                }
                _ => Kind::Ident,
            }
        } else if c == b'"' {
            let (body_start, body_end) = self.quoted(b'"');
            Kind::Str {
                raw: false,
                body_start,
                body_end,
            }
        } else if c == b'\'' {
            self.quoted(b'\'');
            Kind::Char
        } else if c.is_ascii_digit() || (c == b'.' && self.at(1).is_ascii_digit()) {
            self.bump(1);
            loop {
                let b = self.at(0);
                if matches!(b, b'+' | b'-')
                    && matches!(
                        self.s.get(self.pos.wrapping_sub(1)),
                        Some(b'e' | b'E' | b'p' | b'P')
                    )
                {
                    self.bump(1);
                } else if b == b'\'' && ident_continue(self.at(1)) {
                    self.bump(2);
                } else if ident_continue(b) || b == b'.' {
                    self.bump(1);
                } else {
                    break;
                }
            }
            Kind::Number
        } else {
            self.bump(1);
            Kind::Punct(c)
        };
        Some(Token {
            kind,
            start: start as u32,
            end: self.pos as u32,
            in_define,
        })
    }
}

#[cfg(test)]
#[allow(
    clippy::indexing_slicing,
    clippy::panic,
    clippy::unwrap_used,
    clippy::arithmetic_side_effects
)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> Vec<(Kind, String)> {
        let sp = Spliced::new(src.as_bytes());
        Lexer::new(&sp.text)
            .map(|t| {
                (
                    t.kind,
                    String::from_utf8_lossy(&sp.text[t.start as usize..t.end as usize]).into(),
                )
            })
            .collect()
    }

    fn texts(src: &str) -> Vec<String> {
        kinds(src).into_iter().map(|(_, s)| s).collect()
    }

    #[test]
    fn comments_strings_and_numbers() {
        assert_eq!(
            texts("a /* asm( */ b // asm(\n c \"x\\\"y\" 'q' 1'000u 0x1p-3 u8\"z\""),
            [
                "a",
                "b",
                "c",
                "\"x\\\"y\"",
                "'q'",
                "1'000u",
                "0x1p-3",
                "u8\"z\""
            ]
        );
    }

    #[test]
    fn raw_strings_keep_quotes_and_backslashes() {
        let k = kinds("R\"xy(a\")\\n)xy\" b");
        assert_eq!(k.len(), 2);
        assert!(matches!(k[0].0, Kind::Str { raw: true, .. }));
        assert_eq!(k[1].1, "b");
    }

    #[test]
    fn directives_are_skipped_but_define_bodies_kept() {
        let src = "#include <don't.h>\n#if X /* two\nlines */\nint\n#define M asm(\"x\")\nz";
        let toks: Vec<Token> = Lexer::new(src.as_bytes()).collect();
        let t: Vec<&str> = toks
            .iter()
            .map(|t| &src[t.start as usize..t.end as usize])
            .collect();
        assert_eq!(
            t,
            [
                "include <don't.h>",
                "if X /* two\nlines */",
                "int",
                "define",
                "M",
                "asm",
                "(",
                "\"x\"",
                ")",
                "z"
            ]
        );
        assert_eq!(toks[0].kind, Kind::Directive);
        assert_eq!(toks[1].kind, Kind::Cond(Cond::Open));
        assert_eq!(toks[3].kind, Kind::Define);
        assert!(!toks[2].in_define && toks[4].in_define && !toks[9].in_define);
    }

    #[test]
    fn continuations_are_spliced_and_mapped_back() {
        let src = "\"ab\\\ncd\" x";
        let sp = Spliced::new(src.as_bytes());
        assert_eq!(&*sp.text, b"\"abcd\" x");
        // `c` was at offset 5 of the original.
        assert_eq!(sp.original(3), 5);
        assert_eq!(sp.original(2), 2);
        assert_eq!(sp.original(7), 9);
    }

    #[test]
    fn unterminated_literals_end_at_the_line() {
        assert_eq!(texts("'abc\nx"), ["'abc", "x"]);
        assert_eq!(texts("\"abc"), ["\"abc"]);
    }
}
