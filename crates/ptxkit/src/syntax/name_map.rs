//! A map from names to values for tables that may hold a million names
//! (the module scope of a module of a million globals, the labels of a
//! function of a million blocks), at about the size of its entries.
//!
//! A hash map of `(Name, V)` slots keeps between an eighth and a half of
//! its slots empty, and while it grows the old table and the new one, twice
//! as large, are both alive: a 32-byte entry costs 38 to 110 bytes. Here
//! the entries sit in insertion order in chunks of 4,096 that never
//! move once full, found through a hash table of 32-bit indices (5 bytes a
//! slot): about 32 bytes an entry plus 6 to 17 for the index. A small map
//! is a single chunk that grows like a `Vec`.

use std::hash::BuildHasher;

use hashbrown::HashTable;
use rustc_hash::FxBuildHasher;

use super::Name;

/// log2 of [`CHUNK`].
const CHUNK_BITS: u32 = 12;
/// Entries a chunk holds once full.
const CHUNK: usize = 1 << CHUNK_BITS;
/// Entries the first chunk has room for from the start.
const FIRST: usize = 16;
/// The offset bits of an insertion number.
const OFFSET: u32 = (1 << CHUNK_BITS) - 1;

/// The chunk and the offset in it of insertion number `i`.
#[inline]
fn place(i: u32) -> (usize, usize) {
    ((i >> CHUNK_BITS) as usize, (i & OFFSET) as usize)
}

/// A map from [`Name`] to `V` kept in insertion order (see the module's
/// documentation).
#[derive(Clone, Debug)]
pub struct NameMap<V> {
    /// The entries, in insertion order, [`CHUNK`] a chunk (the last one
    /// may hold fewer).
    chunks: Vec<Vec<(Name, V)>>,
    /// Each entry's place (`chunk << CHUNK_BITS | offset` is its insertion
    /// number), by its name's hash.
    index: HashTable<u32>,
}

impl<V> Default for NameMap<V> {
    fn default() -> Self {
        NameMap {
            chunks: Vec::new(),
            index: HashTable::new(),
        }
    }
}

fn hash_of(n: &Name) -> u64 {
    FxBuildHasher.hash_one(n)
}

impl<V> NameMap<V> {
    /// How many names the map holds.
    pub fn len(&self) -> usize {
        self.index.len()
    }

    /// Whether the map holds no name.
    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }

    /// The entry of insertion number `i`.
    #[inline]
    fn at(chunks: &[Vec<(Name, V)>], i: u32) -> Option<&(Name, V)> {
        let (c, k) = place(i);
        chunks.get(c)?.get(k)
    }

    /// The insertion number of `n`, if the map holds it.
    #[inline]
    fn find(&self, n: &Name, hash: u64) -> Option<u32> {
        let chunks = &self.chunks;
        self.index
            .find(hash, |&i| Self::at(chunks, i).is_some_and(|e| e.0 == *n))
            .copied()
    }

    /// The value of `n`.
    #[inline]
    pub fn get(&self, n: &Name) -> Option<&V> {
        if self.index.is_empty() {
            return None;
        }
        let i = self.find(n, hash_of(n))?;
        Self::at(&self.chunks, i).map(|e| &e.1)
    }

    /// The name as stored and the value of `n`.
    pub fn get_key_value(&self, n: &Name) -> Option<(&Name, &V)> {
        if self.index.is_empty() {
            return None;
        }
        let i = self.find(n, hash_of(n))?;
        Self::at(&self.chunks, i).map(|e| (&e.0, &e.1))
    }

    /// The value of `n`, to change.
    pub fn get_mut(&mut self, n: &Name) -> Option<&mut V> {
        let i = self.find(n, hash_of(n))?;
        let (c, k) = place(i);
        self.chunks.get_mut(c)?.get_mut(k).map(|e| &mut e.1)
    }

    /// Whether the map holds `n`.
    pub fn contains_key(&self, n: &Name) -> bool {
        self.get(n).is_some()
    }

    /// Give `n` the value `v`; returns the value it had.
    pub fn insert(&mut self, n: Name, v: V) -> Option<V> {
        let hash = hash_of(&n);
        if let Some(i) = self.find(&n, hash) {
            let (c, k) = place(i);
            let e = self.chunks.get_mut(c)?.get_mut(k)?;
            return Some(std::mem::replace(&mut e.1, v));
        }
        self.push(n, v, hash);
        None
    }

    /// Add `n` with value `v` unless the map holds `n` already; returns
    /// whether it was added.
    pub fn insert_new(&mut self, n: Name, v: V) -> bool {
        let hash = hash_of(&n);
        if self.find(&n, hash).is_some() {
            return false;
        }
        self.push(n, v, hash);
        true
    }

    /// The value of `n`, to change, after giving it `v` if the map did not
    /// hold it (`None` only past 2^32 names, when `n` cannot be added).
    pub fn get_or_insert(&mut self, n: Name, v: V) -> Option<&mut V> {
        let hash = hash_of(&n);
        let i = match self.find(&n, hash) {
            Some(i) => i,
            None => {
                let i = u32::try_from(self.index.len()).ok()?;
                self.push(n, v, hash);
                i
            }
        };
        let (c, k) = place(i);
        self.chunks.get_mut(c)?.get_mut(k).map(|e| &mut e.1)
    }

    /// Append the new name `n`.
    fn push(&mut self, n: Name, v: V, hash: u64) {
        // Fewer than 2^32 names: each is a byte or more of an input under
        // 4 GiB.
        let Ok(i) = u32::try_from(self.index.len()) else {
            return;
        };
        match self.chunks.last_mut() {
            Some(last) if last.len() < CHUNK => last.push((n, v)),
            _ => {
                // A full chunk is never grown: the next has room for a
                // whole chunk from the start (the first grows as a `Vec`).
                let mut c = if self.chunks.is_empty() {
                    // Room for the handful of names most scopes have (a
                    // body's parameters and labels), index included, so
                    // they are not grown one doubling at a time.
                    self.index.reserve(FIRST, |_| 0);
                    Vec::with_capacity(FIRST)
                } else {
                    Vec::with_capacity(CHUNK)
                };
                c.push((n, v));
                self.chunks.push(c);
            }
        }
        let chunks = &self.chunks;
        self.index.insert_unique(hash, i, |&i| {
            Self::at(chunks, i).map_or(0, |e| hash_of(&e.0))
        });
    }

    /// The names and values, in insertion order.
    pub fn iter(&self) -> impl Iterator<Item = (&Name, &V)> {
        self.chunks.iter().flatten().map(|(n, v)| (n, v))
    }

    /// The names and values, in insertion order, taken out.
    pub fn into_entries(self) -> impl Iterator<Item = (Name, V)> {
        self.chunks.into_iter().flatten()
    }

    /// The names, in insertion order.
    pub fn keys(&self) -> impl Iterator<Item = &Name> {
        self.iter().map(|(n, _)| n)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::arithmetic_side_effects)]
mod tests {
    use super::*;

    #[test]
    fn behaves_as_a_map_across_chunks() {
        let mut m = NameMap::default();
        let n = CHUNK * 3 + 17;
        for i in 0..n {
            assert_eq!(m.insert(Name::new(&format!("x{i}")), i), None);
        }
        assert_eq!(m.len(), n);
        for i in (0..n).step_by(97) {
            assert_eq!(m.get(&Name::new(&format!("x{i}"))), Some(&i));
        }
        assert_eq!(m.get(&Name::new("y")), None);
        assert_eq!(m.insert(Name::new("x5"), 500), Some(5));
        assert!(!m.insert_new(Name::new("x6"), 600));
        assert_eq!(m.get(&Name::new("x6")), Some(&6));
        assert!(m.insert_new(Name::new("y"), 1));
        *m.get_or_insert(Name::new("x7"), 0).unwrap() += 1;
        assert_eq!(m.get(&Name::new("x7")), Some(&8));
        *m.get_mut(&Name::new("y")).unwrap() += 1;
        assert_eq!(
            m.get_key_value(&Name::new("y")),
            Some((&Name::new("y"), &2))
        );
        assert_eq!(m.len(), n + 1);
        // Insertion order, a replaced value in its first place.
        let order: Vec<usize> = m.iter().map(|(_, v)| *v).take(7).collect();
        assert_eq!(order, [0, 1, 2, 3, 4, 500, 6]);
        assert_eq!(m.keys().last(), Some(&Name::new("y")));
        *m.get_or_insert(Name::new("z"), 40).unwrap() += 2;
        assert_eq!(m.len(), n + 2);
        let last = m.clone().into_entries().last();
        assert_eq!(last, Some((Name::new("z"), 42)));
        // Only the last chunk is not full.
        assert!(m.chunks[..m.chunks.len() - 1]
            .iter()
            .all(|c| c.len() == CHUNK));
    }
}
