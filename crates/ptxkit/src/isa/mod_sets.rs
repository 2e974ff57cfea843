//! Rows of modifier sets: one bit per modifier id for each row (an opcode,
//! a catalog section), for membership tests on every instruction without
//! hashing.

use super::model::ModId;

/// `rows` sets over the catalog's modifier ids.
#[derive(Clone, Debug, Default)]
pub struct ModSets {
    bits: Vec<u64>,
    words: usize,
}

impl ModSets {
    /// `rows` empty sets over `mods` modifier ids.
    pub fn new(rows: usize, mods: usize) -> ModSets {
        let words = mods.div_ceil(64);
        ModSets {
            bits: vec![0; words.saturating_mul(rows)],
            words,
        }
    }

    fn word(&self, row: usize, m: ModId) -> usize {
        row.saturating_mul(self.words)
            .saturating_add(usize::from(m.0) / 64)
    }

    /// Put `m` in set `row` (ignored when either is out of range).
    pub fn insert(&mut self, row: usize, m: ModId) {
        let word = self.word(row, m);
        if let Some(w) = self.bits.get_mut(word) {
            *w |= 1u64 << (m.0 % 64);
        }
    }

    /// Whether set `row` holds `m`.
    #[inline]
    pub fn contains(&self, row: usize, m: ModId) -> bool {
        self.bits
            .get(self.word(row, m))
            .is_some_and(|w| w & (1u64 << (m.0 % 64)) != 0)
    }
}
