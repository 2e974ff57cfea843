//! Names: identifiers and strings of the tree.

use std::sync::{Mutex, OnceLock};

use rustc_hash::FxHashSet;
use serde::{Serialize, Serializer};

const INLINE: usize = 14;

/// An identifier or string. Copying and comparing are O(1).
///
/// Short names (up to 14 bytes: registers such as `%rd42`, labels such as
/// `$L__BB0_7`) are stored inline and never touch a table; longer ones
/// (mangled symbols) are interned in one process-wide table. A given text
/// always gets the same representation, so equality is by value and names
/// from different modules compare correctly.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Name(Repr);

#[derive(Clone, Copy)]
enum Repr {
    Inline { len: u8, bytes: [u8; INLINE] },
    Interned(Interned),
}

impl Repr {
    /// An inline name as two words (length and bytes): what equality and
    /// hashing compare, in a few instructions instead of a byte loop (names
    /// are the keys of every symbol table).
    #[inline]
    fn words(len: u8, bytes: &[u8; INLINE]) -> (u64, u64) {
        let (lo, hi) = bytes.split_at(8);
        let mut a = [0u8; 8];
        let mut b = [0u8; 8];
        a.copy_from_slice(lo);
        if let Some(dst) = b.get_mut(..hi.len()) {
            dst.copy_from_slice(hi);
        }
        b[7] = len;
        (u64::from_le_bytes(a), u64::from_le_bytes(b))
    }
}

impl PartialEq for Repr {
    #[inline]
    fn eq(&self, other: &Repr) -> bool {
        match (self, other) {
            (Repr::Inline { len: la, bytes: ba }, Repr::Inline { len: lb, bytes: bb }) => {
                Repr::words(*la, ba) == Repr::words(*lb, bb)
            }
            (Repr::Interned(a), Repr::Interned(b)) => a == b,
            _ => false,
        }
    }
}

impl Eq for Repr {}

impl std::hash::Hash for Repr {
    #[inline]
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        match self {
            Repr::Inline { len, bytes } => {
                let (a, b) = Repr::words(*len, bytes);
                state.write_u64(a);
                state.write_u64(b);
            }
            Repr::Interned(i) => i.hash(state),
        }
    }
}

/// An interned text: one leaked entry per distinct text, so the address
/// identifies the text (equality and hashing use the address).
#[derive(Clone, Copy)]
struct Interned(&'static Entry);

impl PartialEq for Interned {
    #[inline]
    fn eq(&self, other: &Interned) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}

impl Eq for Interned {}

impl std::hash::Hash for Interned {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        std::ptr::hash(self.0, state);
    }
}

/// The text of an interned name. Hashes and compares as its text, so the
/// table can be searched with a `&str`.
#[derive(PartialEq, Eq, Hash)]
struct Entry(Box<str>);

impl std::borrow::Borrow<str> for &'static Entry {
    fn borrow(&self) -> &str {
        &self.0
    }
}

/// The process-wide table of long names. It only grows: names live as long
/// as the process, like the symbols of the modules that use them. (A plain
/// set allocates nothing until used, unlike sharded interners that reserve
/// megabytes up front; the parser keeps a per-source cache in front of it.)
fn intern(s: &str) -> Interned {
    static TABLE: OnceLock<Mutex<FxHashSet<&'static Entry>>> = OnceLock::new();
    let table = TABLE.get_or_init(Default::default);
    let mut set = table.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(&e) = set.get(s) {
        return Interned(e);
    }
    let e: &'static Entry = Box::leak(Box::new(Entry(s.into())));
    set.insert(e);
    Interned(e)
}

impl Name {
    /// Make a name from text.
    #[inline]
    pub fn new(s: &str) -> Name {
        let b = s.as_bytes();
        if b.len() <= INLINE {
            let mut bytes = [0u8; INLINE];
            if let Some(dst) = bytes.get_mut(..b.len()) {
                dst.copy_from_slice(b);
            }
            Name(Repr::Inline {
                len: b.len() as u8,
                bytes,
            })
        } else {
            Name(Repr::Interned(intern(s)))
        }
    }

    /// A short name from its bytes packed little-endian into `word`: `len`
    /// (at most 14) bytes of ASCII text, the rest zero (the caller's
    /// contract). Builds the same name as [`Name::new`] without a byte-wise
    /// copy; `None` when `len` is too long for an inline name.
    #[inline]
    pub(crate) fn from_packed(word: u128, len: usize) -> Option<Name> {
        if len > INLINE {
            return None;
        }
        let all = word.to_le_bytes();
        debug_assert!(all.iter().skip(len).all(|&b| b == 0));
        debug_assert!(all.iter().take(len).all(u8::is_ascii));
        // A prefix copy (two overlapping word moves), not one move per byte.
        let bytes = *all.first_chunk::<INLINE>()?;
        Some(Name(Repr::Inline {
            len: len as u8,
            bytes,
        }))
    }

    /// The text as bytes, without the UTF-8 check [`Name::as_str`] makes:
    /// for comparisons on hot paths.
    #[inline]
    pub fn as_bytes(&self) -> &[u8] {
        match &self.0 {
            Repr::Inline { len, bytes } => bytes.get(..usize::from(*len)).unwrap_or_default(),
            Repr::Interned(Interned(e)) => e.0.as_bytes(),
        }
    }

    /// The bytes of an interned (long) name, which live as long as the
    /// process; `None` for a name stored inline.
    pub(crate) fn interned_bytes(&self) -> Option<&'static [u8]> {
        match self.0 {
            Repr::Inline { .. } => None,
            Repr::Interned(Interned(e)) => Some(e.0.as_bytes()),
        }
    }

    /// The text.
    #[inline]
    pub fn as_str(&self) -> &str {
        match &self.0 {
            Repr::Inline { len, bytes } => {
                std::str::from_utf8(bytes.get(..*len as usize).unwrap_or_default())
                    .unwrap_or_default()
            }
            Repr::Interned(Interned(e)) => &e.0,
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
