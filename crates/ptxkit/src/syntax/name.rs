//! Names: identifiers and strings of the tree.

use serde::{Serialize, Serializer};
use ustr::Ustr;

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

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Repr {
    Inline { len: u8, bytes: [u8; INLINE] },
    Interned(Ustr),
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
            Name(Repr::Interned(Ustr::from(s)))
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
            Repr::Interned(u) => u.as_str(),
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
}
