//! Names: identifiers and strings of the tree.

use std::sync::{Mutex, OnceLock};

use rustc_hash::FxHashMap;
use serde::{Serialize, Serializer};

/// Longest name stored inline.
pub(crate) const INLINE: usize = 15;

/// The last byte of an interned name (inline names keep their length there).
const INTERNED: u8 = 0xFF;

/// An identifier or string. Copying and comparing are O(1).
///
/// Sixteen bytes. Short names (up to 15 bytes: registers such as `%rd42`,
/// labels such as `$L__BB0_7`) are stored inline, zero-padded, with the
/// length in the last byte; they never touch a table. Longer ones (mangled
/// symbols) are interned in one process-wide table and stored as their
/// index there, with a marker byte (0xFF) last. A given text always gets
/// the same bytes, so equality is by value and names from different modules
/// compare correctly.
///
/// Plain bytes, not an enum: the parser makes a short name with one wide
/// store, and the copies of the tree nodes that hold it then read it back
/// without waiting on a series of narrow stores.
#[derive(Clone, Copy)]
#[repr(align(8))]
pub struct Name([u8; 16]);

impl Name {
    /// The two little-endian words of the bytes: what equality and hashing
    /// compare (names are the keys of every symbol table).
    #[inline]
    fn words(&self) -> (u64, u64) {
        let bits = self.to_bits();
        (bits as u64, (bits >> 64) as u64)
    }
}

impl Name {
    /// A slot in a direct-mapped table of `len` entries (a power of two)
    /// for this name: a cheap mix of its bytes.
    #[inline]
    pub(crate) fn memo_index(&self, len: usize) -> usize {
        let (a, b) = self.words();
        let h = (a ^ b.rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h >> 40) as usize & len.wrapping_sub(1)
    }
}

impl PartialEq for Name {
    #[inline]
    fn eq(&self, other: &Name) -> bool {
        self.words() == other.words()
    }
}

impl Eq for Name {}

impl std::hash::Hash for Name {
    #[inline]
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        let (a, b) = self.words();
        state.write_u64(a);
        state.write_u64(b);
    }
}

/// The process-wide table of long names: text to index, under a lock
/// (see [`intern`]), and index to text in buckets that are filled once and
/// then read without one (bucket `b` holds `2^(b+6)` entries, so 40 buckets
/// never run out). It only grows: names live as long as the process, like
/// the symbols of the modules that use them. (It allocates nothing until
/// used, unlike sharded interners that reserve megabytes up front; the
/// parser keeps a per-source cache in front of it.)
static TEXTS: [OnceLock<Box<[OnceLock<&'static str>]>>; BUCKETS] =
    [const { OnceLock::new() }; BUCKETS];

const BUCKETS: usize = 40;

/// How many entries bucket `b` holds.
#[inline]
fn bucket_len(b: u32) -> u64 {
    1u64.checked_shl(b.saturating_add(6)).unwrap_or(0)
}

/// The bucket and the place in it of index `i`.
#[inline]
fn slot(i: u64) -> (usize, usize) {
    let v = i.saturating_add(64);
    let b = 63u32.saturating_sub(v.leading_zeros()).saturating_sub(6);
    (b as usize, v.saturating_sub(bucket_len(b)) as usize)
}

/// The text of interned index `i`.
fn text_of(i: u64) -> &'static str {
    let (b, at) = slot(i);
    TEXTS
        .get(b)
        .and_then(OnceLock::get)
        .and_then(|bucket| bucket.get(at))
        .and_then(OnceLock::get)
        .copied()
        .unwrap_or_default()
}

/// The index of `s` in the table, adding it if new.
fn intern(s: &str) -> u64 {
    static INDEX: OnceLock<Mutex<FxHashMap<&'static str, u64>>> = OnceLock::new();
    let index = INDEX.get_or_init(Default::default);
    let mut index = index.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(&i) = index.get(s) {
        return i;
    }
    let i = index.len() as u64;
    let text: &'static str = Box::leak(s.into());
    let (b, at) = slot(i);
    if let Some(bucket) = TEXTS.get(b) {
        let bucket =
            bucket.get_or_init(|| (0..bucket_len(b as u32)).map(|_| OnceLock::new()).collect());
        if let Some(cell) = bucket.get(at) {
            let _ = cell.set(text);
        }
    }
    index.insert(text, i);
    i
}

impl Name {
    /// Make a name from text.
    #[inline]
    pub fn new(s: &str) -> Name {
        let b = s.as_bytes();
        if b.len() <= INLINE {
            let mut bytes = [0u8; 16];
            if let Some(dst) = bytes.get_mut(..b.len()) {
                dst.copy_from_slice(b);
            }
            bytes[INLINE] = b.len() as u8;
            Name(bytes)
        } else {
            let mut bytes = [0u8; 16];
            bytes[..8].copy_from_slice(&intern(s).to_le_bytes());
            bytes[INLINE] = INTERNED;
            Name(bytes)
        }
    }

    /// A short name from its bytes packed little-endian into `word`: `len`
    /// (at most 15) bytes of ASCII text, the rest zero (the caller's
    /// contract). Builds the same name as [`Name::new`] in one step; `None`
    /// when `len` is too long for an inline name.
    #[inline]
    pub(crate) fn from_packed(word: u128, len: usize) -> Option<Name> {
        if len > INLINE {
            return None;
        }
        debug_assert!(word.to_le_bytes().iter().skip(len).all(|&b| b == 0));
        debug_assert!(word.to_le_bytes().iter().take(len).all(u8::is_ascii));
        Some(Name::from_bits(word | (len as u128) << 120))
    }

    /// The sixteen bytes as one little-endian integer.
    #[inline]
    pub(crate) fn to_bits(self) -> u128 {
        u128::from_le_bytes(self.0)
    }

    /// The name whose [`Name::to_bits`] is `bits`.
    #[inline]
    pub(crate) fn from_bits(bits: u128) -> Name {
        Name(bits.to_le_bytes())
    }

    /// The index of an interned name.
    #[inline]
    fn interned(&self) -> Option<u64> {
        let (lo, hi) = self.words();
        (hi >> 56 == u64::from(INTERNED)).then_some(lo)
    }

    /// A short name split as a register of a range (`%rd17`): its
    /// non-digit prefix packed into a little-endian word (when at most
    /// eight bytes), the prefix's length, and the trailing digits. `None`
    /// for an interned (long) name. Reads the inline bytes directly: the
    /// checker splits every register name it has not seen before.
    #[inline]
    pub(crate) fn split_digits(&self) -> Option<(Option<u64>, usize, &[u8])> {
        let len = usize::from(self.0[INLINE]);
        let name = self.0.get(..len).filter(|_| len <= INLINE)?;
        let digits = name.iter().rev().take_while(|b| b.is_ascii_digit()).count();
        let p = len.saturating_sub(digits);
        let key = (p <= 8).then(|| {
            let w = u64::from_le_bytes([
                self.0[0], self.0[1], self.0[2], self.0[3], self.0[4], self.0[5], self.0[6],
                self.0[7],
            ]);
            // Keep the prefix's bytes only (`p` is at most 8 here).
            let keep = u32::try_from(p).unwrap_or(8).saturating_mul(8);
            w & u64::MAX
                .checked_shr(64u32.saturating_sub(keep))
                .unwrap_or(0)
        });
        Some((key, p, self.0.get(p..len).unwrap_or_default()))
    }

    /// Whether this is the sink `_` (without decoding the name).
    #[inline]
    pub fn is_sink(&self) -> bool {
        self.0[INLINE] == 1 && self.0[0] == b'_'
    }

    /// Whether this is `WARP_SZ`, the integer constant 32 (no declaration
    /// can take the name).
    #[inline]
    pub fn is_warp_size(&self) -> bool {
        self.0[INLINE] == 7 && self.0.get(..7) == Some(&b"WARP_SZ"[..])
    }

    /// The text as bytes, without the UTF-8 check [`Name::as_str`] makes:
    /// for comparisons on hot paths.
    #[inline]
    pub fn as_bytes(&self) -> &[u8] {
        match self.interned() {
            None => {
                let len = usize::from(self.0[INLINE]);
                self.0.get(..len).unwrap_or_default()
            }
            Some(i) => text_of(i).as_bytes(),
        }
    }

    /// The bytes of an interned (long) name, which live as long as the
    /// process; `None` for a name stored inline.
    pub(crate) fn interned_bytes(&self) -> Option<&'static [u8]> {
        self.interned().map(|i| text_of(i).as_bytes())
    }

    /// The text.
    #[inline]
    pub fn as_str(&self) -> &str {
        match self.interned() {
            None => std::str::from_utf8(self.as_bytes()).unwrap_or_default(),
            Some(i) => text_of(i),
        }
    }
}

impl PartialOrd for Name {
    fn partial_cmp(&self, other: &Name) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Name {
    fn cmp(&self, other: &Name) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl std::fmt::Debug for Name {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.as_str())
    }
}

impl std::fmt::Display for Name {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Name {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::Name;

    #[test]
    fn inline_and_interned_names() {
        let short = Name::new("%rd42");
        let long = Name::new("_ZN7cutlass6KernelINS_4gemmEEEvT_");
        assert_eq!(short.as_str(), "%rd42");
        assert_eq!(long.as_str(), "_ZN7cutlass6KernelINS_4gemmEEEvT_");
        assert_eq!(Name::new("%rd42"), short);
        assert_eq!(
            Name::new(&String::from("_ZN7cutlass6KernelINS_4gemmEEEvT_")),
            long
        );
        assert_ne!(Name::new("%rd4"), short);
        assert_eq!(Name::new(""), Name::new(""));
        assert!(Name::new("a") < Name::new("b"));
        assert_eq!(std::mem::size_of::<Name>(), 16);
    }

    #[test]
    fn inline_boundary_and_many_interned() {
        let fifteen = Name::new("%abcdefghijklmn");
        let sixteen = Name::new("%abcdefghijklmno");
        assert_eq!(fifteen.as_str(), "%abcdefghijklmn");
        assert_eq!(sixteen.as_str(), "%abcdefghijklmno");
        assert!(fifteen.interned_bytes().is_none());
        assert_eq!(sixteen.interned_bytes(), Some(&b"%abcdefghijklmno"[..]));
        assert_ne!(fifteen, sixteen);
        assert_eq!(
            Name::from_packed(u128::from_le_bytes(*b"%abcdefghijklmn\0"), 15),
            Some(fifteen)
        );
        assert_eq!(Name::from_packed(0, 16), None);
        // Enough long names to fill several buckets of the table; each
        // comes back, and the same text gives the same name.
        let texts: Vec<String> = (0..1000).map(|i| format!("_Z9many_names_{i:06}")).collect();
        let names: Vec<Name> = texts.iter().map(|t| Name::new(t)).collect();
        for (t, n) in texts.iter().zip(&names) {
            assert_eq!(n.as_str(), t);
            assert_eq!(Name::new(t), *n);
        }
        let distinct: std::collections::HashSet<Name> = names.iter().copied().collect();
        assert_eq!(distinct.len(), texts.len());
    }

    #[test]
    fn interned_across_threads() {
        let text = "_Z20interned_across_threadsv";
        let names: Vec<Name> = std::thread::scope(|s| {
            let hs: Vec<_> = (0..4).map(|_| s.spawn(|| Name::new(text))).collect();
            hs.into_iter().filter_map(|h| h.join().ok()).collect()
        });
        assert_eq!(names.len(), 4);
        assert!(names
            .iter()
            .all(|n| *n == Name::new(text) && n.as_str() == text));
        let mut set = std::collections::HashSet::new();
        set.extend(names);
        assert_eq!(set.len(), 1);
        assert_ne!(Name::new(text), Name::new("_Z20interned_across_threadsw"));
    }
}
