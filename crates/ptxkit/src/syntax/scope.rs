//! The name resolver: which declaration a name written in PTX refers to,
//! by ptxas's rules (ptxas 13.5, probed both ways). The checker, the
//! register analyses and the language server all look names up through
//! [`Scope`], each keeping its own payload per declaration (the checker
//! a declaration summary, the analyses a register type, the language
//! server a symbol id), so they cannot disagree on what a name means.
//!
//! The rules:
//! - **Blocks.** A register or variable is known from its declaration to
//!   the end of the block that declares it, nested blocks included; an
//!   inner declaration hides an outer one of the same name. Parameters
//!   and return values form the scope around the body's block; module
//!   variables and functions the scope around every function.
//! - **Labels** are known in the whole block that defines them, before and
//!   after the definition, and in the blocks nested in it.
//! - **Register ranges.** `.reg .b32 %r<N>;` declares `%r0` … `%r{N-1}`.
//!   A name is split into its prefix and its trailing decimal digits; it is
//!   a register of the range whose name is exactly that prefix when the
//!   digits' value is below `N`. Leading zeros count (`%r01` is `%r1`), the
//!   value wraps modulo 2⁶⁴ as ptxas reads it, and a range whose own name
//!   ends in a digit (`%v2<4>`) declares nothing that can be named (ptxas:
//!   "Unknown symbol '%v20'"). `%r<0>` declares nothing.
//! - **Plain names before ranges.** A name declared as written is found
//!   first; a plain declaration that a range of the same scope covers is a
//!   duplicate (`.reg .b32 %q<3>; .reg .b32 %q01;`), and so is a range that
//!   covers a plain name already declared in its scope.
//! - **Predefined names**: the special registers of the catalog (`%tid`),
//!   `WARP_SZ` and the sink `_` ([`is_predefined`]).
//!
//! See `docs/names.md` for the probes behind each rule.

use rustc_hash::FxHashMap;

use crate::source::Span;
use crate::syntax::name_map::NameMap;
use crate::syntax::Name;

/// One scope: plain names and `%r<N>` ranges, each carrying a payload `T`
/// (what its user needs to know of the declaration).
///
/// Lookups stay cheap however many declarations a scope has: the usual
/// handful of ranges (`%p`, `%r`, `%rd`, `%f`…) is scanned, and past
/// eight ranges, or plain names when a range is declared, indexes by
/// prefix are built and kept up to date (so a function of 100,000 ranges
/// and plain registers is not quadratic; docs/limits.md).
#[derive(Clone, Debug)]
pub struct Scope<T> {
    /// Declared names other than register ranges.
    names: NameMap<T>,
    /// Register ranges, in declaration order.
    ranges: Vec<Range<T>>,
    /// Past [`SCAN`] ranges: each range's place in `ranges` by its name.
    range_at: FxHashMap<Box<[u8]>, u32>,
    /// Once a range is declared beside more than [`SCAN`] plain names: for
    /// each register prefix among the plain names (`%q` of `%q01`), the
    /// lowest index written with it and a name that has it — the plain name
    /// a new range of that prefix would cover first.
    lowest: Option<Lowest>,
}

/// By register prefix (`%q`), the lowest index among a scope's plain names
/// with that prefix and a name that has it.
type Lowest = FxHashMap<Box<[u8]>, (u64, Name)>;

/// How many ranges (and plain names, for a new range's clash) a scope
/// scans before it indexes them.
const SCAN: usize = 8;

impl<T> Default for Scope<T> {
    fn default() -> Self {
        Scope {
            names: NameMap::default(),
            ranges: Vec::new(),
            range_at: FxHashMap::default(),
            lowest: None,
        }
    }
}

/// A register range `%r<N>`: registers `%r0` to `%r{N-1}`.
#[derive(Clone, Debug)]
pub struct Range<T> {
    /// The range's name (`%r`).
    pub name: Name,
    /// The text packed into a word when it has at most eight bytes
    /// (`%r`, `%rd`, `%fd`…): matched against a register's prefix with one
    /// comparison.
    key: Option<u64>,
    /// Its length in bytes.
    len: usize,
    /// `N`.
    pub count: u64,
    /// Where the range's name is declared.
    pub span: Span,
    /// The payload of every register of the range.
    pub value: T,
}

/// What a new declaration collides with in its own scope.
#[derive(Clone, Copy, Debug)]
pub enum Clash<'a, T> {
    /// A plain name declared earlier (its payload).
    Name(Name, &'a T),
    /// A register range declared earlier.
    Range(&'a Range<T>),
}

impl<T: Copy> Scope<T> {
    /// The declaration `n` refers to in this scope, if any.
    #[inline]
    pub fn find(&self, n: Name) -> Option<T> {
        if let Some(d) = self.names.get(&n) {
            return Some(*d);
        }
        self.find_range(n).map(|r| r.value)
    }
}

impl<T> Scope<T> {
    /// Whether the scope declares nothing.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty() && self.ranges.is_empty()
    }

    /// The plain names declared, with their payloads.
    pub fn names(&self) -> impl Iterator<Item = (&Name, &T)> {
        self.names.iter()
    }

    /// The register ranges declared.
    pub fn ranges(&self) -> &[Range<T>] {
        &self.ranges
    }

    /// The plain declaration of `n` (ranges not consulted).
    pub fn get(&self, n: Name) -> Option<&T> {
        self.names.get(&n)
    }

    /// Declare `n` as written, unless the scope already declares it (as a
    /// name, or as a register of one of its ranges): then the declaration
    /// it clashes with, and the scope is unchanged.
    pub fn declare(&mut self, n: Name, value: T) -> Result<(), Clash<'_, T>> {
        // One hash lookup for the common case, a new name.
        let in_range = self.find_range(n).is_some();
        if !in_range && self.names.insert_new(n, value) {
            self.note_plain(n);
            return Ok(());
        }
        self.clash_of(n).map_or(Ok(()), Err)
    }

    /// Keep the index of plain registers by prefix, once there is one, up
    /// to date with the new plain name `n`.
    fn note_plain(&mut self, n: Name) {
        let Some(lowest) = &mut self.lowest else {
            return;
        };
        note_lowest(lowest, n);
    }

    /// Declare `n` as written, replacing any earlier plain declaration
    /// (for declarations whose duplicates are reported elsewhere or not
    /// at all); returns the earlier payload.
    pub fn replace(&mut self, n: Name, value: T) -> Option<T> {
        let old = self.names.insert(n, value);
        if old.is_none() {
            self.note_plain(n);
        }
        old
    }

    /// The clash of `n` with a declaration of the scope, if any.
    fn clash_of(&self, n: Name) -> Option<Clash<'_, T>> {
        match self.names.get_key_value(&n) {
            Some((k, v)) => Some(Clash::Name(*k, v)),
            None => self.find_range(n).map(Clash::Range),
        }
    }

    /// Declare the range `name<count>`, unless a range of that name is
    /// already declared in the scope: then that range, and the scope is
    /// unchanged. A plain name of the scope that the range covers is a
    /// clash too, returned after the range is declared.
    pub fn declare_range(
        &mut self,
        name: Name,
        count: u64,
        span: Span,
        value: T,
    ) -> Result<(), Clash<'_, T>> {
        let new = Range {
            name,
            key: word(name.as_bytes()),
            len: name.as_bytes().len(),
            count,
            span,
            value,
        };
        if self.range_named(name.as_bytes()).is_some() {
            return self
                .range_named(name.as_bytes())
                .map_or(Ok(()), |r| Err(Clash::Range(r)));
        }
        let covered = self.covered_first(name, count);
        let at = u32::try_from(self.ranges.len()).unwrap_or(u32::MAX);
        self.ranges.push(new);
        if self.ranges.len() > SCAN {
            if self.range_at.is_empty() {
                // Index the ranges scanned so far (the new one included).
                for (i, r) in self.ranges.iter().enumerate() {
                    let i = u32::try_from(i).unwrap_or(u32::MAX);
                    self.range_at.insert(r.name.as_bytes().into(), i);
                }
            } else {
                self.range_at.insert(name.as_bytes().into(), at);
            }
        }
        // Like ptxas, the range stands beside the name it clashes with
        // (`.reg %p1; .reg %p<3>; .reg %p001;` clashes twice).
        match covered {
            Some(n) => self.clash_of(n).map_or(Ok(()), Err),
            None => Ok(()),
        }
    }

    /// The plain name of the scope that range `new` would cover with the
    /// lowest index, if any: scanned among a few names, else looked up in
    /// the index by prefix (built on the first need).
    fn covered_first(&mut self, name: Name, count: u64) -> Option<Name> {
        let index_of = |s: &[u8]| {
            let (prefix, digits) = split_register(s)?;
            (prefix == name.as_bytes())
                .then(|| register_index(digits))
                .flatten()
                .filter(|&i| i < count)
        };
        if self.names.len() <= SCAN && self.lowest.is_none() {
            return self
                .names
                .keys()
                .filter(|n| index_of(n.as_bytes()).is_some())
                .min_by_key(|n| index_of(n.as_bytes()))
                .copied();
        }
        let names = &self.names;
        let lowest = self.lowest.get_or_insert_with(|| {
            let mut l = FxHashMap::default();
            for n in names.keys() {
                note_lowest(&mut l, *n);
            }
            l
        });
        lowest
            .get(name.as_bytes())
            .filter(|(i, _)| *i < count)
            .map(|(_, n)| *n)
    }

    /// The plain name of this scope, with its payload, that a register
    /// range `name<count>` declared in another scope would cover (the one
    /// of lowest index), if any: in a time independent of the scope's
    /// size once its index by prefix is built.
    pub fn covered_by(&mut self, name: Name, count: u64) -> Option<(Name, &T)> {
        let n = self.covered_first(name, count)?;
        self.names.get(&n).map(|v| (n, v))
    }

    /// The range named exactly `prefix`, if the scope declares one.
    fn range_named(&self, prefix: &[u8]) -> Option<&Range<T>> {
        if self.range_at.is_empty() {
            return self.ranges.iter().find(|r| r.name.as_bytes() == prefix);
        }
        let i = *self.range_at.get(prefix)?;
        self.ranges.get(usize::try_from(i).ok()?)
    }

    /// The range that declares register `n`, if any.
    #[inline]
    pub fn find_range(&self, n: Name) -> Option<&Range<T>> {
        if self.ranges.is_empty() {
            return None;
        }
        // A short name: its prefix and digits straight from its bytes.
        if self.range_at.is_empty() {
            if let Some((Some(k), plen, digits)) = n.split_digits() {
                return self
                    .ranges
                    .iter()
                    .find(|r| r.key == Some(k) && r.len == plen)
                    .filter(|r| r.covers_index(digits));
            }
        }
        let (prefix, digits) = split_register(n.as_bytes())?;
        self.range_named(prefix).filter(|r| r.covers_index(digits))
    }

    /// The range `n` would be a register of but for its index (`%r12`
    /// beside `%r<12>`), for a precise message.
    pub fn range_beyond(&self, n: Name) -> Option<&Range<T>> {
        let (prefix, _) = split_register(n.as_bytes())?;
        if self.find_range(n).is_some() {
            return None;
        }
        self.range_named(prefix)
    }
}

/// Enter plain name `n` into an index of the lowest register index by
/// prefix (see [`Scope::lowest`]).
fn note_lowest(lowest: &mut Lowest, n: Name) {
    let Some((prefix, digits)) = split_register(n.as_bytes()) else {
        return;
    };
    let Some(i) = register_index(digits) else {
        return;
    };
    match lowest.get_mut(prefix) {
        Some(e) if e.0 <= i => {}
        Some(e) => *e = (i, n),
        None => {
            lowest.insert(prefix.into(), (i, n));
        }
    }
}

impl<T> Range<T> {
    /// Whether this range declares the register whose trailing digits are
    /// `digits`.
    #[inline]
    fn covers_index(&self, digits: &[u8]) -> bool {
        register_index(digits).is_some_and(|i| i < self.count)
    }

    /// The name of the range's register `k`, as the range declares it
    /// (`%r7`).
    pub fn register(&self, k: u64) -> String {
        format!("{}{k}", self.name)
    }
}

/// A register name split into its prefix (without trailing digits, never
/// empty) and its trailing digits (never empty); `None` when the name does
/// not end in a digit or is only digits.
#[inline]
pub fn split_register(s: &[u8]) -> Option<(&[u8], &[u8])> {
    let digits = s.iter().rev().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 || digits == s.len() {
        return None;
    }
    s.split_at_checked(s.len().saturating_sub(digits))
}

/// The value of a register's trailing digits as ptxas reads them: decimal,
/// leading zeros allowed, wrapping modulo 2⁶⁴ (`%r18446744073709551617`
/// is `%r1`). `None` when empty or not all digits.
#[inline]
pub fn register_index(digits: &[u8]) -> Option<u64> {
    if digits.is_empty() {
        return None;
    }
    digits.iter().try_fold(0u64, |v, &b| {
        let d = b.wrapping_sub(b'0');
        (d < 10).then(|| v.wrapping_mul(10).wrapping_add(u64::from(d)))
    })
}

/// Up to eight bytes as one little-endian word; `None` if longer (the key
/// [`Name::split_digits`] makes of a register's prefix).
fn word(b: &[u8]) -> Option<u64> {
    // Byte by byte: a copy into an array calls `memcpy` for a few bytes.
    (b.len() <= 8).then(|| b.iter().rev().fold(0u64, |w, &x| (w << 8) | u64::from(x)))
}

/// Special registers (the catalog's `@sreg` entries, spec chapter 10) and
/// the predefined names `WARP_SZ` and `_`.
pub fn is_predefined(name: &str) -> bool {
    matches!(name, "WARP_SZ" | "_") || crate::isa::catalog().special_register(name).is_some()
}

/// A stack of scopes, innermost last: a name is looked up from the
/// innermost scope out.
#[derive(Clone, Debug)]
pub struct Scopes<T> {
    stack: Vec<Scope<T>>,
}

impl<T> Default for Scopes<T> {
    fn default() -> Self {
        Scopes { stack: Vec::new() }
    }
}

impl<T: Copy> Scopes<T> {
    /// The declaration `n` refers to, innermost scope first.
    pub fn find(&self, n: Name) -> Option<T> {
        self.stack.iter().rev().find_map(|s| s.find(n))
    }

    /// Open a scope.
    pub fn push(&mut self) {
        self.stack.push(Scope::default());
    }

    /// Close the innermost scope, returning it.
    pub fn pop(&mut self) -> Option<Scope<T>> {
        self.stack.pop()
    }

    /// The innermost scope.
    pub fn innermost(&mut self) -> Option<&mut Scope<T>> {
        self.stack.last_mut()
    }

    /// The open scopes, outermost first.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &Scope<T>> {
        self.stack.iter()
    }

    /// How many scopes are open.
    pub fn depth(&self) -> usize {
        self.stack.len()
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn range(name: &str, n: u64) -> Scope<u8> {
        let mut s = Scope::default();
        s.declare_range(Name::new(name), n, Span::new(0, 1), 7)
            .map_err(|_| ())
            .unwrap();
        s
    }

    #[test]
    fn a_range_covers_indices_below_its_count_as_ptxas_reads_them() {
        let s = range("%r", 12);
        for yes in [
            "%r0",
            "%r1",
            "%r9",
            "%r10",
            "%r11",
            "%r01",
            "%r00",
            "%r0011",
            "%r18446744073709551617",
        ] {
            assert_eq!(s.find(Name::new(yes)), Some(7), "{yes}");
        }
        for no in [
            "%r",
            "%r12",
            "%r012",
            "%r+1",
            "%r1a",
            "%rd1",
            "%r99999999999999999999999",
        ] {
            assert_eq!(s.find(Name::new(no)), None, "{no}");
        }
    }

    #[test]
    fn a_range_named_with_a_trailing_digit_declares_nothing_nameable() {
        let s = range("%v2", 4);
        for no in ["%v2", "%v20", "%v23", "%v0", "%v200"] {
            assert_eq!(s.find(Name::new(no)), None, "{no}");
        }
        assert!(range("%r", 0).find(Name::new("%r0")).is_none());
    }

    /// A scope past the scanning limits: `fillers` plain names and ranges
    /// of other prefixes, so that lookups go through the indexes.
    fn crowded(fillers: usize) -> Scope<u8> {
        let mut s = Scope::default();
        for i in 0..fillers {
            s.declare(Name::new(&format!("%w{i}")), 0)
                .map_err(|_| ())
                .unwrap();
            s.declare_range(Name::new(&format!("%x{i}_")), 3, Span::new(0, 1), 0)
                .map_err(|_| ())
                .unwrap();
        }
        s
    }

    #[test]
    fn indexed_scopes_answer_as_scanned_ones() {
        for fillers in [0, 3, 20] {
            let mut s = crowded(fillers);
            s.declare(Name::new("%q07"), 1).map_err(|_| ()).unwrap();
            s.declare(Name::new("%q3"), 2).map_err(|_| ()).unwrap();
            s.replace(Name::new("%q2"), 3);
            // `%q<3>` covers `%q2` (the lowest index), not `%q07`.
            match s.declare_range(Name::new("%q"), 3, Span::new(5, 6), 9) {
                Err(Clash::Name(n, _)) => assert_eq!(n.as_str(), "%q2", "{fillers}"),
                _ => panic!("no clash with %q2 ({fillers})"),
            }
            assert_eq!(s.find(Name::new("%q1")), Some(9), "{fillers}");
            assert_eq!(s.find(Name::new("%q3")), Some(2), "{fillers}");
            assert_eq!(s.find(Name::new("%q5")), None, "{fillers}");
            assert_eq!(
                s.range_beyond(Name::new("%q5")).map(|r| r.count),
                Some(3),
                "{fillers}"
            );
            assert!(s.range_beyond(Name::new("%q1")).is_none(), "{fillers}");
            assert!(
                s.declare_range(Name::new("%q"), 1, Span::new(0, 1), 1)
                    .is_err(),
                "{fillers}"
            );
            // A long prefix, past the packed fast path.
            let long = "%a_rather_long_prefix";
            s.declare_range(Name::new(long), 2, Span::new(0, 1), 4)
                .map_err(|_| ())
                .unwrap();
            assert_eq!(s.find(Name::new(&format!("{long}01"))), Some(4));
            assert_eq!(s.find(Name::new(&format!("{long}2"))), None);
            if fillers > 0 {
                assert_eq!(s.find(Name::new("%x0_2")), Some(0));
                assert_eq!(s.find(Name::new("%x0_3")), None);
                // A range beside the plain names `%w…` covers the lowest.
                match s.declare_range(Name::new("%w"), 2, Span::new(0, 1), 1) {
                    Err(Clash::Name(n, _)) => assert_eq!(n.as_str(), "%w0"),
                    _ => panic!("no clash with %w0 ({fillers})"),
                }
            }
            // A range whose name ends in a digit covers nothing.
            assert!(s
                .declare_range(Name::new("%v2"), 4, Span::new(0, 1), 1)
                .is_ok());
            assert_eq!(s.find(Name::new("%v20")), None);
        }
    }

    #[test]
    fn plain_names_and_ranges_clash_in_one_scope() {
        let mut s = range("%q", 3);
        assert!(s.declare(Name::new("%q01"), 1).is_err());
        assert!(s.declare(Name::new("%q1"), 1).is_err());
        assert!(s.declare(Name::new("%q3"), 1).is_ok());
        assert!(s
            .declare_range(Name::new("%q"), 2, Span::new(0, 1), 1)
            .is_err());
        let mut t: Scope<u8> = Scope::default();
        t.declare(Name::new("%q1"), 1).map_err(|_| ()).unwrap();
        assert!(matches!(
            t.declare_range(Name::new("%q"), 3, Span::new(0, 1), 1),
            Err(Clash::Name(..))
        ));
        // The range is declared anyway: `%q001` is its register 1 now.
        assert!(t.declare(Name::new("%q001"), 1).is_err());
        // `%q001` is another name than `%q1` when neither is a range's.
        let mut u: Scope<u8> = Scope::default();
        u.declare(Name::new("%q1"), 1).map_err(|_| ()).unwrap();
        assert!(u.declare(Name::new("%q001"), 1).is_ok());
    }
}
