//! Decoding C++ string literals into bytes, with the source offset each
//! byte came from.

/// Bytes decoded from one or more adjacent string literals, each with the
/// offset (in the spliced C++ text) of the character or escape sequence it
/// came from.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Decoded {
    /// The bytes.
    pub bytes: Vec<u8>,
    /// `from[i]` is where `bytes[i]` starts in the source.
    pub from: Vec<u32>,
}

impl Decoded {
    fn push(&mut self, b: u8, at: u32) {
        self.bytes.push(b);
        self.from.push(at);
    }

    /// Append the contents `body_start..body_end` of a literal of `src`
    /// (raw: verbatim; otherwise with its escapes decoded).
    pub fn append(&mut self, src: &[u8], body_start: u32, body_end: u32, raw: bool) {
        let body = src
            .get(body_start as usize..body_end as usize)
            .unwrap_or_default();
        // At most a byte for each of the body's.
        self.bytes.reserve(body.len());
        self.from.reserve(body.len());
        if raw {
            for (k, &b) in body.iter().enumerate() {
                self.push(b, body_start.saturating_add(k as u32));
            }
            return;
        }
        let mut i = 0usize;
        while let Some(&b) = body.get(i) {
            let at = body_start.saturating_add(i as u32);
            if b != b'\\' {
                self.push(b, at);
                i = i.saturating_add(1);
                continue;
            }
            let e = body.get(i.saturating_add(1)).copied().unwrap_or(b'\\');
            i = i.saturating_add(2);
            let simple = match e {
                b'n' => Some(b'\n'),
                b't' => Some(b'\t'),
                b'r' => Some(b'\r'),
                b'a' => Some(7),
                b'b' => Some(8),
                b'f' => Some(12),
                b'v' => Some(11),
                b'e' => Some(27),
                b'0'..=b'7' => {
                    // Up to three octal digits.
                    let mut v = u32::from(e.saturating_sub(b'0'));
                    for _ in 0..2 {
                        match body.get(i) {
                            Some(&d @ b'0'..=b'7') => {
                                v = v
                                    .saturating_mul(8)
                                    .saturating_add(u32::from(d.saturating_sub(b'0')));
                                i = i.saturating_add(1);
                            }
                            _ => break,
                        }
                    }
                    Some(v as u8)
                }
                b'x' => {
                    let mut v = 0u32;
                    while let Some(d) = body.get(i).and_then(|&d| (d as char).to_digit(16)) {
                        v = v.saturating_mul(16).saturating_add(d);
                        i = i.saturating_add(1);
                    }
                    Some(v as u8)
                }
                b'u' | b'U' => {
                    let n = if e == b'u' { 4 } else { 8 };
                    let mut v = 0u32;
                    for _ in 0..n {
                        match body.get(i).and_then(|&d| (d as char).to_digit(16)) {
                            Some(d) => {
                                v = v.saturating_mul(16).saturating_add(d);
                                i = i.saturating_add(1);
                            }
                            None => break,
                        }
                    }
                    let ch = char::from_u32(v).unwrap_or('\u{fffd}');
                    let mut buf = [0u8; 4];
                    for &b in ch.encode_utf8(&mut buf).as_bytes() {
                        self.push(b, at);
                    }
                    None
                }
                // `\\`, `\"`, `\'`, `\?` and unknown escapes: the character.
                other => Some(other),
            };
            if let Some(b) = simple {
                self.push(b, at);
            }
        }
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

    fn decode(body: &str, raw: bool) -> Decoded {
        let mut d = Decoded::default();
        d.append(body.as_bytes(), 0, body.len() as u32, raw);
        d
    }

    #[test]
    fn escapes_decode_and_map_to_their_backslash() {
        let d = decode(r#"a\n\t\\\"\x41\101\0b\u00e9"#, false);
        assert_eq!(d.bytes, b"a\n\t\\\"AA\0b\xc3\xa9");
        assert_eq!(d.from, [0, 1, 3, 5, 7, 9, 13, 17, 19, 20, 20]);
    }

    #[test]
    fn raw_bodies_are_verbatim() {
        let d = decode(r"a\n", true);
        assert_eq!(d.bytes, br"a\n");
        assert_eq!(d.from, [0, 1, 2]);
    }
}
