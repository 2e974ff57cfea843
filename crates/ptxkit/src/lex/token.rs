//! Token kinds produced by the lexer.

use crate::source::Span;

/// What a token is. Trivia (whitespace, comments) are tokens too, so that the
/// lexer alone can reproduce its input; the parser skips them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum TokenKind {
    /// Spaces, tabs, line breaks.
    Whitespace,
    /// `// ...` up to the end of the line.
    LineComment,
    /// `/* ... */`.
    BlockComment,
    /// `/* ...` without its end: an error.
    UnterminatedComment,
    /// A user or predefined identifier: `foo`, `%r1`, `$L__BB0_1`, `_Z3fooi`.
    Ident,
    /// A dot word: directive (`.reg`), modifier (`.u32`, `.L2::cache_hint`,
    /// `.1d`) or vector component (`.x`).
    DotWord,
    /// An integer literal (decimal, `0x`, octal `0…`, `0b`, optional `U`).
    Int,
    /// A floating literal: decimal, `0f` + 8 hex digits, or `0d` + 16.
    Float,
    /// A malformed number such as `0x` or `12abc`.
    BadNumber,
    /// A string literal `"..."`.
    Str,
    /// A string literal without its closing quote: an error.
    UnterminatedStr,
    /// `,`
    Comma,
    /// `;`
    Semi,
    /// `:`
    Colon,
    /// `{`
    LBrace,
    /// `}`
    RBrace,
    /// `[`
    LBracket,
    /// `]`
    RBracket,
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `<`
    Lt,
    /// `>`
    Gt,
    /// `<=`
    Le,
    /// `>=`
    Ge,
    /// `==`
    EqEq,
    /// `!=`
    Ne,
    /// `<<`
    Shl,
    /// `>>`
    Shr,
    /// `+`
    Plus,
    /// `-`
    Minus,
    /// `*`
    Star,
    /// `/`
    Slash,
    /// `%` (only when not starting an identifier)
    Percent,
    /// `!`
    Bang,
    /// `~`
    Tilde,
    /// `&`
    Amp,
    /// `&&`
    AmpAmp,
    /// `|`
    Pipe,
    /// `||`
    PipePipe,
    /// `^`
    Caret,
    /// `@`
    At,
    /// `=`
    Eq,
    /// `?`
    Question,
    /// A lone `.` not starting a dot word.
    Dot,
    /// A byte that starts no token (including non-ASCII and NUL).
    Unknown,
    /// End of input.
    Eof,
}

impl TokenKind {
    /// Whether the parser skips this token.
    #[inline]
    pub fn is_trivia(self) -> bool {
        matches!(
            self,
            TokenKind::Whitespace | TokenKind::LineComment | TokenKind::BlockComment
        )
    }

    /// Whether the token is itself a lexical error.
    #[inline]
    pub fn is_error(self) -> bool {
        // One bit test (the parser asks this of every token): the kinds are
        // fewer than 64, so the shift keeps every bit.
        const ERRORS: u64 = 1 << TokenKind::UnterminatedComment as u8
            | 1 << TokenKind::BadNumber as u8
            | 1 << TokenKind::UnterminatedStr as u8
            | 1 << TokenKind::Unknown as u8;
        // `Eof` is the last kind.
        const _: () = assert!((TokenKind::Eof as u8) < 64);
        ERRORS & 1u64.wrapping_shl(u32::from(self as u8)) != 0
    }

    /// A short human description for diagnostics.
    pub fn describe(self) -> &'static str {
        use TokenKind::*;
        match self {
            Whitespace => "whitespace",
            LineComment | BlockComment => "comment",
            UnterminatedComment => "unterminated comment",
            Ident => "identifier",
            DotWord => "directive or modifier",
            Int => "integer literal",
            Float => "floating-point literal",
            BadNumber => "malformed number",
            Str => "string literal",
            UnterminatedStr => "unterminated string",
            Comma => "`,`",
            Semi => "`;`",
            Colon => "`:`",
            LBrace => "`{`",
            RBrace => "`}`",
            LBracket => "`[`",
            RBracket => "`]`",
            LParen => "`(`",
            RParen => "`)`",
            Lt => "`<`",
            Gt => "`>`",
            Le => "`<=`",
            Ge => "`>=`",
            EqEq => "`==`",
            Ne => "`!=`",
            Shl => "`<<`",
            Shr => "`>>`",
            Plus => "`+`",
            Minus => "`-`",
            Star => "`*`",
            Slash => "`/`",
            Percent => "`%`",
            Bang => "`!`",
            Tilde => "`~`",
            Amp => "`&`",
            AmpAmp => "`&&`",
            Pipe => "`|`",
            PipePipe => "`||`",
            Caret => "`^`",
            At => "`@`",
            Eq => "`=`",
            Question => "`?`",
            Dot => "`.`",
            Unknown => "unexpected character",
            Eof => "end of file",
        }
    }
}

/// One token: its kind and where it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    /// The kind.
    pub kind: TokenKind,
    /// Its bytes in the source.
    pub span: Span,
}

#[cfg(test)]
mod tests {
    use super::TokenKind::*;

    #[test]
    fn is_error_is_the_four_error_kinds() {
        let all = [
            Whitespace,
            LineComment,
            BlockComment,
            UnterminatedComment,
            Ident,
            DotWord,
            Int,
            Float,
            BadNumber,
            Str,
            UnterminatedStr,
            Comma,
            Semi,
            Colon,
            LBrace,
            RBrace,
            LBracket,
            RBracket,
            LParen,
            RParen,
            Lt,
            Gt,
            Le,
            Ge,
            EqEq,
            Ne,
            Shl,
            Shr,
            Plus,
            Minus,
            Star,
            Slash,
            Percent,
            Bang,
            Tilde,
            Amp,
            AmpAmp,
            Pipe,
            PipePipe,
            Caret,
            At,
            Eq,
            Question,
            Dot,
            Unknown,
            Eof,
        ];
        assert_eq!(all.len(), Eof as usize + 1);
        for k in all {
            let expected = matches!(
                k,
                UnterminatedComment | BadNumber | UnterminatedStr | Unknown
            );
            assert_eq!(k.is_error(), expected, "{k:?}");
        }
    }
}
