//! Decoding number tokens exactly.

use super::Parser;
use crate::diag::Code;
use crate::lex::Token;
use crate::syntax::{FloatForm, FloatLit, IntLit, Radix};

/// Decode an integer literal's text: value, radix, `U` suffix. `None` when
/// malformed or larger than 64 bits.
pub fn decode_int(text: &str) -> Option<(u64, Radix, bool)> {
    if let Some(value) = plain_decimal(text.as_bytes()) {
        return Some((value, Radix::Dec, false));
    }
    let (body, unsigned) = match text.strip_suffix('U') {
        Some(b) => (b, true),
        None => (text, false),
    };
    let (digits, radix, base) =
        if let Some(h) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
            (h, Radix::Hex, 16)
        } else if let Some(b) = body.strip_prefix("0b").or_else(|| body.strip_prefix("0B")) {
            (b, Radix::Bin, 2)
        } else if body.len() > 1 && body.starts_with('0') {
            (body.get(1..)?, Radix::Oct, 8)
        } else {
            (body, Radix::Dec, 10)
        };
    if digits.is_empty() {
        return None;
    }
    let value = wrapping_digits(digits, base)?;
    Some((value, radix, unsigned))
}

/// The value of `digits` in `base` as ptxas reads it (probed on 80 random
/// literals of 64 to 76 bits in decimal, hex and binary): accumulated in 64
/// bits, wrapping, and an overflow only when the value before the last
/// digit has its top bit set. So `18446744073709551616` (2^64) is read as 0
/// and accepted, while `147573952589676412928` (2^67) is "Constant
/// overflow". `None` for a digit outside the base or an overflow.
fn wrapping_digits(digits: &str, base: u32) -> Option<u64> {
    let mut value = 0u64;
    let n = digits.len();
    for (i, c) in digits.chars().enumerate() {
        let d = c.to_digit(base)?;
        value = value
            .wrapping_mul(u64::from(base))
            .wrapping_add(u64::from(d));
        if i.saturating_add(1) < n && value >> 63 == 1 {
            return None;
        }
    }
    Some(value)
}

/// The value of a plain decimal of 1 to 19 digits (below 10^19, so it
/// cannot overflow) without a leading zero; `None` for any other text.
/// One pass: each byte is checked as it is added in.
#[inline]
pub(super) fn plain_decimal(b: &[u8]) -> Option<u64> {
    let (&first, rest) = b.split_first()?;
    if b.len() > 19 || (first == b'0' && !rest.is_empty()) {
        return None;
    }
    let mut value = 0u64;
    for &c in b {
        let d = c.wrapping_sub(b'0');
        if d > 9 {
            return None;
        }
        value = value.wrapping_mul(10).wrapping_add(u64::from(d));
    }
    Some(value)
}

/// Decode a floating literal's text.
pub fn decode_float(text: &str) -> Option<(u64, FloatForm)> {
    let b = text.as_bytes();
    if b.len() > 2 && b.first() == Some(&b'0') {
        match b.get(1) {
            Some(b'f' | b'F') => {
                return u32::from_str_radix(text.get(2..)?, 16)
                    .ok()
                    .map(|v| (u64::from(v), FloatForm::HexSingle))
            }
            Some(b'd' | b'D') => {
                return u64::from_str_radix(text.get(2..)?, 16)
                    .ok()
                    .map(|v| (v, FloatForm::HexDouble))
            }
            _ => {}
        }
    }
    let v: f64 = text.parse().ok()?;
    Some((v.to_bits(), FloatForm::Decimal))
}

/// Whether a decimal literal's value is a normal `f64` (or an exact zero):
/// ptxas reports overflow to infinity and underflow to a subnormal or zero.
pub fn decimal_in_range(text: &str, bits: u64) -> bool {
    let v = f64::from_bits(bits);
    if v.is_normal() {
        return true;
    }
    let mantissa = text.split(['e', 'E']).next().unwrap_or(text);
    v == 0.0 && !mantissa.bytes().any(|b| (b'1'..=b'9').contains(&b))
}

impl Parser<'_> {
    /// Turn an `Int` token into a literal, reporting overflow. Inlined for
    /// the common plain decimal, read straight from the source.
    #[inline]
    pub(crate) fn int_lit(&mut self, t: Token) -> IntLit {
        match plain_decimal(t.span.slice(self.src)) {
            Some(value) => IntLit {
                value,
                radix: Radix::Dec,
                unsigned: false,
                span: t.span,
            },
            None => self.int_lit_slow(t),
        }
    }

    /// [`Parser::int_lit`] for any other integer token.
    #[inline(never)]
    fn int_lit_slow(&mut self, t: Token) -> IntLit {
        let text = self.text(t);
        match decode_int(text) {
            Some((value, radix, unsigned)) => IntLit {
                value,
                radix,
                unsigned,
                span: t.span,
            },
            None => {
                // Malformed numbers were reported by the lexer already.
                if crate::lex::Lexer::new(text.as_bytes()).next_token().kind
                    == crate::lex::TokenKind::Int
                {
                    self.error(
                        Code::BadNumber,
                        t.span,
                        format!(
                            "integer literal `{}` does not fit in 64 bits",
                            super::truncate(text, 40)
                        ),
                    );
                }
                IntLit {
                    value: 0,
                    radix: Radix::Dec,
                    unsigned: false,
                    span: t.span,
                }
            }
        }
    }

    /// Turn a `Float` token into a literal.
    pub(crate) fn float_lit(&mut self, t: Token) -> FloatLit {
        let text = self.text(t);
        match decode_float(text) {
            Some((bits, form)) => {
                if form == FloatForm::Decimal && !decimal_in_range(text, bits) {
                    self.error(
                        Code::BadNumber,
                        t.span,
                        format!(
                            "floating-point literal `{}` is out of the range of a 64-bit float",
                            super::truncate(text, 40)
                        ),
                    );
                }
                FloatLit {
                    bits,
                    form,
                    span: t.span,
                }
            }
            None => {
                self.error(
                    Code::BadNumber,
                    t.span,
                    format!(
                        "malformed floating-point literal `{}`",
                        super::truncate(text, 40)
                    ),
                );
                FloatLit {
                    bits: 0,
                    form: FloatForm::Decimal,
                    span: t.span,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ints() {
        assert_eq!(decode_int("42"), Some((42, Radix::Dec, false)));
        assert_eq!(decode_int("0x2AU"), Some((42, Radix::Hex, true)));
        assert_eq!(decode_int("052"), Some((42, Radix::Oct, false)));
        assert_eq!(decode_int("0b101010"), Some((42, Radix::Bin, false)));
        assert_eq!(decode_int("0"), Some((0, Radix::Dec, false)));
        assert_eq!(
            decode_int("18446744073709551615"),
            Some((u64::MAX, Radix::Dec, false))
        );
        // ptxas's reading: 2^64 wraps to 0, 2^67 overflows (an earlier
        // partial value has its top bit set).
        assert_eq!(
            decode_int("18446744073709551616"),
            Some((0, Radix::Dec, false))
        );
        assert_eq!(decode_int("147573952589676412928"), None);
        assert_eq!(
            decode_int("590295810358705651712"),
            Some((0, Radix::Dec, false))
        );
        assert_eq!(
            decode_int("0x1000000000000000000"),
            Some((0, Radix::Hex, false))
        );
        assert_eq!(decode_int("99999999999999999999"), None);
    }

    #[test]
    fn floats() {
        assert_eq!(
            decode_float("0f3F800000"),
            Some((0x3F80_0000, FloatForm::HexSingle))
        );
        assert_eq!(
            decode_float("0d3FF0000000000000"),
            Some((1f64.to_bits(), FloatForm::HexDouble))
        );
        assert_eq!(
            decode_float("1.5"),
            Some((1.5f64.to_bits(), FloatForm::Decimal))
        );
        assert_eq!(
            decode_float(".5"),
            Some((0.5f64.to_bits(), FloatForm::Decimal))
        );
        assert_eq!(
            decode_float("1."),
            Some((1f64.to_bits(), FloatForm::Decimal))
        );
        assert_eq!(
            decode_float("1e400").map(|x| f64::from_bits(x.0).is_infinite()),
            Some(true)
        );
        let in_range = |t: &str| decode_float(t).is_some_and(|(b, _)| decimal_in_range(t, b));
        assert!(in_range("1.7976931348623157e308") && in_range("0e999999") && in_range("0.0"));
        assert!(!in_range("1e999999") && !in_range("1e-320") && !in_range("1.5e-999999"));
    }
}
