//! A fixed lookup table from short spellings to ids, for the parser's
//! hottest lookups (an instruction's opcode and each of its modifiers).
//!
//! A spelling of at most 16 bytes is looked up as one integer: its bytes
//! little-endian, zero past its end (what the parser reads with one load).
//! The table is open-addressed, built once with the catalog, at most a
//! quarter full and with a multiplier chosen for short probe runs, so a
//! lookup is a multiply, a shift and one or two compares; no hashing of
//! bytes, no growth, nothing written while parsing.

/// Spellings of at most this many bytes are in the table.
pub const WORD_MAX: usize = 16;

/// Spellings (as words) to ids.
#[derive(Debug)]
pub struct WordTable {
    /// The word in each slot; 0 for an empty slot (no spelling packs to 0).
    keys: Box<[u128]>,
    /// The id in each slot.
    ids: Box<[u16]>,
    /// Multiplier of the slot hash.
    mul: u64,
    /// Right shift that leaves the slot index.
    shift: u32,
}

/// `text` as a word: its bytes little-endian, zero past its end; `None`
/// when it is longer than [`WORD_MAX`] or empty.
pub fn pack_word(text: &[u8]) -> Option<u128> {
    if text.is_empty() || text.len() > WORD_MAX {
        return None;
    }
    Some(
        text.iter()
            .rev()
            .fold(0u128, |w, &b| (w << 8) | u128::from(b)),
    )
}

/// Multipliers tried in turn when building (odd, with well-mixed bits).
const MULTIPLIERS: [u64; 8] = [
    0x9E37_79B9_7F4A_7C15,
    0xC2B2_AE3D_27D4_EB4F,
    0x1656_67B1_9E37_79F9,
    0xD6E8_FEB8_6659_FD93,
    0xA076_1D64_78BD_642F,
    0xE703_7ED1_A0B4_28DB,
    0x8EBC_6AF0_9C88_C6E3,
    0x5899_65CC_7537_4CC3,
];

impl WordTable {
    /// A table over `entries` (spelling, id). Spellings longer than
    /// [`WORD_MAX`] are left out (look those up by text); of repeated
    /// spellings the first is kept.
    pub fn new<'a>(entries: impl IntoIterator<Item = (&'a str, u16)>) -> WordTable {
        let words: Vec<(u128, u16)> = entries
            .into_iter()
            .filter_map(|(s, id)| Some((pack_word(s.as_bytes())?, id)))
            .collect();
        // At most a quarter full.
        let bits = words
            .len()
            .saturating_mul(4)
            .max(16)
            .next_power_of_two()
            .trailing_zeros();
        let shift = 64u32.saturating_sub(bits);
        let mut best = Self::fill(&words, bits, shift, MULTIPLIERS[0]);
        for mul in MULTIPLIERS.into_iter().skip(1) {
            let next = Self::fill(&words, bits, shift, mul);
            if next.1 < best.1 {
                best = next;
            }
        }
        best.0
    }

    /// The table with multiplier `mul`, and its longest probe run.
    fn fill(words: &[(u128, u16)], bits: u32, shift: u32, mul: u64) -> (WordTable, usize) {
        let size = 1usize << bits;
        let mut t = WordTable {
            keys: vec![0; size].into_boxed_slice(),
            ids: vec![0; size].into_boxed_slice(),
            mul,
            shift,
        };
        let mask = size.wrapping_sub(1);
        let mut longest = 0;
        for &(w, id) in words {
            let mut at = t.slot(w);
            let mut run = 1usize;
            loop {
                match t.keys.get(at) {
                    Some(&k) if k == w => break,
                    Some(&0) => {
                        if let (Some(k), Some(i)) = (t.keys.get_mut(at), t.ids.get_mut(at)) {
                            *k = w;
                            *i = id;
                        }
                        break;
                    }
                    Some(_) => {
                        at = at.wrapping_add(1) & mask;
                        run = run.saturating_add(1);
                    }
                    None => break,
                }
            }
            longest = longest.max(run);
        }
        (t, longest)
    }

    /// The first slot of word `w`.
    #[inline(always)]
    fn slot(&self, w: u128) -> usize {
        let folded = (w as u64) ^ ((w >> 64) as u64).rotate_left(29);
        (folded.wrapping_mul(self.mul) >> self.shift) as usize
    }

    /// The id of word `w` (as [`pack_word`] makes it), if it is in the table.
    #[inline]
    pub fn get(&self, w: u128) -> Option<u16> {
        let mask = self.keys.len().wrapping_sub(1);
        let mut at = self.slot(w);
        // The table is at most a quarter full, so an empty slot ends
        // every run; the bound only guards against a bug.
        for _ in 0..self.keys.len() {
            let k = *self.keys.get(at)?;
            if k == 0 {
                return None;
            }
            if k == w {
                return self.ids.get(at).copied();
            }
            at = at.wrapping_add(1) & mask;
        }
        None
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn finds_every_short_spelling_and_nothing_else() {
        let names: Vec<String> = (0..2000).map(|i| format!(".m{i}")).collect();
        let t = WordTable::new(
            names
                .iter()
                .enumerate()
                .map(|(i, s)| (s.as_str(), i as u16)),
        );
        for (i, s) in names.iter().enumerate() {
            assert_eq!(
                t.get(pack_word(s.as_bytes()).unwrap()),
                Some(i as u16),
                "{s}"
            );
        }
        for s in [".m2000", ".m", "m1", ".M1", ".m1 "] {
            assert_eq!(t.get(pack_word(s.as_bytes()).unwrap()), None, "{s}");
        }
        assert_eq!(t.get(0), None);
    }

    #[test]
    fn long_and_empty_spellings_are_left_out() {
        assert_eq!(pack_word(b""), None);
        assert_eq!(pack_word(b".0123456789abcdef"), None);
        assert!(pack_word(b".0123456789abcde").is_some());
        let t = WordTable::new([(".0123456789abcdef", 1), (".a", 2), (".a", 3)]);
        assert_eq!(t.get(pack_word(b".a").unwrap()), Some(2));
    }
}
