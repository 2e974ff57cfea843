//! Interned names.

use serde::{Serialize, Serializer};
use ustr::Ustr;

/// An interned identifier or string: copying and comparing are O(1), and the
/// text is available without any table (`as_str`). Names are interned in one
/// process-wide table, so names from different modules compare correctly.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Name(Ustr);

impl Name {
    /// Intern `s`.
    #[inline]
    pub fn new(s: &str) -> Name {
        Name(Ustr::from(s))
    }

    /// The text.
    #[inline]
    pub fn as_str(&self) -> &'static str {
        self.0.as_str()
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
