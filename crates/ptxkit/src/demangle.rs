//! Readable names for the mangled C++ symbols nvcc and NVRTC give kernels
//! and device functions (`_Z10normalize3P4Vec3` is `normalize3(Vec3*)`),
//! through the `cpp_demangle` crate (Itanium C++ ABI, which CUDA follows).
//!
//! Bounded whatever the input: names longer than [`MAX_MANGLED`] bytes are
//! not demangled, the demangler's recursion is limited, a demangling
//! that would grow past [`MAX_DEMANGLED`] bytes is abandoned (substitutions
//! can make the output exponential in the input), and each thread has a
//! budget of demangling time that grows with the names it asks for (the
//! parser backtracks, so a crafted name can take exponential time below
//! the recursion limit).

use std::cell::Cell;
use std::fmt;
use std::time::{Duration, Instant};

use cpp_demangle::{DemangleOptions, DemangleWrite, ParseOptions, Symbol};

/// Longest mangled name that is demangled (the longest in the corpus of
/// CUTLASS, Kokkos and Thrust modules is about 2 KB).
pub const MAX_MANGLED: usize = 16 * 1024;

/// Longest readable name produced; a longer one is abandoned.
pub const MAX_DEMANGLED: usize = 64 * 1024;

/// How deep the demangler may recurse, parsing and printing. Its parser
/// backtracks, and the work it can do grows exponentially with this depth:
/// at 256, names of 90 bytes the fuzzer made (nested local names and
/// lambdas, `_ZZUlZUl…`) took up to a second each to be refused; at 96 a
/// 248-byte conversion operator it made later (`_Zcv…`, template arguments
/// and substitutions) took 0.3 s and 80 MB to be refused, at 72 8 µs. At
/// 72 every one of the 1,959 mangled names of the corpus demangles as it
/// did at 96 (the deepest, a 1,494-byte CUTLASS kernel, needs more than
/// 64), and the slowest of the fuzzer's 4,856 saved names takes 5 ms.
const RECURSION: u32 = 72;

/// The recursion limit for a name that holds `cv` anywhere, so may name a
/// conversion operator. Inside one, a template parameter followed by
/// template arguments (`T_I…`) is parsed twice, once to look ahead, so the
/// work doubles with each level of such nesting: `_ZN1AcvT_I` with sixteen
/// levels of `T_I` took 60 ms at 72, and each level more doubles it. At 40
/// that nesting stops at about eight levels (well under a millisecond); the
/// conversion operators of the corpus need 10.
const RECURSION_CONVERSION: u32 = 40;

/// What one thread may spend demangling, as a budget of time that each
/// name asked for adds to: [`START_CREDIT`] at first, [`CREDIT_PER_NAME`]
/// more with each name, never more than [`MAX_CREDIT`] in hand. A name
/// asked for while the budget is spent is not demangled. Real names take
/// microseconds, so this never binds on them; it bounds the total time of
/// a run (a constant plus a cost linear in the names) whatever shape of
/// name makes the demangler's backtracking slow.
const START_CREDIT: Duration = Duration::from_secs(1);
/// See [`START_CREDIT`].
const CREDIT_PER_NAME: Duration = Duration::from_millis(2);
/// See [`START_CREDIT`].
const MAX_CREDIT: Duration = Duration::from_secs(2);

thread_local! {
    /// This thread's demangling budget, in nanoseconds (spent when ≤ 0).
    static CREDIT: Cell<i64> = const { Cell::new(nanos(START_CREDIT)) };
}

const fn nanos(d: Duration) -> i64 {
    d.as_nanos() as i64
}

/// The readable form of `name` if it is a mangled C++ name (`_Z…`), else
/// `None` (plain names, malformed or over-long ones, and any name asked
/// for once this thread has spent its demangling budget on names that
/// took far longer than real ones do).
///
/// ```
/// assert_eq!(
///     ptxkit::demangle("_Z10normalize3P4Vec3").as_deref(),
///     Some("normalize3(Vec3*)")
/// );
/// assert_eq!(ptxkit::demangle("vector_add"), None);
/// ```
pub fn demangle(name: &str) -> Option<String> {
    if !name.starts_with("_Z") || name.len() > MAX_MANGLED {
        return None;
    }
    let credit = CREDIT.get().saturating_add(nanos(CREDIT_PER_NAME));
    let credit = credit.min(nanos(MAX_CREDIT));
    if credit <= 0 {
        CREDIT.set(credit);
        return None;
    }
    let start = Instant::now();
    let out = demangle_unbudgeted(name);
    let spent = i64::try_from(start.elapsed().as_nanos()).unwrap_or(i64::MAX);
    CREDIT.set(credit.saturating_sub(spent));
    out
}

fn demangle_unbudgeted(name: &str) -> Option<String> {
    let depth = if name.as_bytes().windows(2).any(|w| w == b"cv") {
        RECURSION_CONVERSION
    } else {
        RECURSION
    };
    let parse = ParseOptions::default().recursion_limit(depth);
    let sym = Symbol::new_with_options(name.as_bytes(), &parse).ok()?;
    let mut out = Capped(String::new());
    let opts = DemangleOptions::default().recursion_limit(depth);
    sym.structured_demangle(&mut out, &opts).ok()?;
    (!out.0.is_empty() && out.0 != name).then_some(out.0)
}

/// A string that refuses to grow past [`MAX_DEMANGLED`].
struct Capped(String);

impl DemangleWrite for Capped {
    fn write_string(&mut self, s: &str) -> fmt::Result {
        if self.0.len().saturating_add(s.len()) > MAX_DEMANGLED {
            return Err(fmt::Error);
        }
        self.0.push_str(s);
        Ok(())
    }
}

/// `name`'s readable form when `on` and it has one, else `name` itself:
/// what tables show.
pub fn display(name: &str, on: bool) -> std::borrow::Cow<'_, str> {
    match on.then(|| demangle(name)).flatten() {
        Some(d) => std::borrow::Cow::Owned(d),
        None => std::borrow::Cow::Borrowed(name),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn demangles_names_from_nvcc() {
        assert_eq!(
            demangle("_Z13mcx_main_loopILi2EEvPjPfS1_S0_P6float4S3_S3_S1_S0_S1_S1_S1_S1_S1_PVi")
                .unwrap(),
            "void mcx_main_loop<2>(unsigned int*, float*, float*, unsigned int*, float4*, \
             float4*, float4*, float*, unsigned int*, float*, float*, float*, float*, float*, \
             int volatile*)"
        );
        assert_eq!(
            demangle("_ZN4cudf7strings3udf10udf_string6assignEPKci").unwrap(),
            "cudf::strings::udf::udf_string::assign(char const*, int)"
        );
        assert_eq!(demangle("_Z3absf").unwrap(), "abs(float)");
    }

    #[test]
    fn leaves_other_names_alone() {
        for n in [
            "vector_add",
            "",
            "_Z",
            "_Zgarbage!",
            "__cuda_sm70_shflsync_idx",
            "Z3absf",
        ] {
            assert_eq!(demangle(n), None, "{n}");
        }
        // A parameter name built from a mangled one is not itself a symbol.
        assert_eq!(demangle("_Z23euclideanDistanceApproxPfS_S_i_param_1"), None);
        assert_eq!(display("vector_add", true), "vector_add");
        assert_eq!(display("_Z3absf", false), "_Z3absf");
        assert_eq!(display("_Z3absf", true), "abs(float)");
    }

    /// Names the `demangle` fuzzer found slow (a second or more each in
    /// its build at a recursion limit of 256, or at 96 for the last one):
    /// each is refused quickly now.
    #[test]
    fn backtracking_is_bounded() {
        let slow = [
            "_ZUlernT_ZUlN5mrnKfIPPS0_IZUlernT_ZUlN5mrnKfIPPS0_IZUlZUlZZUlrrZUl1ZILrrZUlZUlZZUlrrZUl1ZILrrT_",
            "_ZZUlZUlZZUlrrZUl1ZILrrZUlZUlZZUlrrZUl1ZILrrZUlZUlZZUlrrZUl1ZILrrZUlZUlZZUlrrZUl1ZILrrT_",
            "_ZUleZUlrPZUlrZUleZUlrPZUlrPKflKflircvOOKfKPKflrlrlrllrPZUlrPKflKflircvOOKfKPKflrlrlrlaPZUlrZUleZUlrPZUlrPKflKflircvOOKfKlircvOOKfKPKflrlrlrllrPZUlrPKflKflircvOOKfKPKflrlrlrlaPZUlrZUleZUlrPZUlrPKflKflircvOOKfKPKflrlrPoUPnIIf",
            // Eighth session: 0.3 s and 80 MB at a limit of 96.
            "_ZcvdIfeS_IeIS_IeRKifeRKiS_IeRKifeRKirRKifeRKirS_eL6nTiIS_IeIS_IfeS_IeIS_IeRKifeRKirRKifeRKeS_IeIS_IeRKifeRKiS_IeRKifeRKirRKifeRKirS_eL6nTiIS_IeIS_IfeS_IeIS_IeRKifeRKirRKifeRKirS_eL3nrRKifeRKirS_eLirS_eL3nrRKifeRKirS_eL6nTiIS_IeISIeIS_IeRKifeRKLi0E",
        ];
        for name in slow {
            let t = std::time::Instant::now();
            let _ = demangle(name);
            let took = t.elapsed();
            // Well under what they took (the last, 0.2 s or more in an
            // optimised build at a limit of 96, now microseconds); generous
            // for a loaded machine.
            assert!(
                took < std::time::Duration::from_millis(100),
                "{name}: {took:?}"
            );
        }
    }

    /// A conversion operator's template parameter with template arguments
    /// is parsed twice at each level: at the general limit sixteen levels
    /// took 60 ms (and each level more doubled it); such names get the lower
    /// limit, real conversion operators still demangle.
    #[test]
    fn conversion_operators_are_bounded() {
        assert_eq!(
            demangle("_ZNK6__halfcvfEv").as_deref(),
            Some("__half::operator float() const")
        );
        assert_eq!(
            demangle("_ZN1AcvT_IiEEv").as_deref(),
            Some("A::operator int<int>()")
        );
        for k in [8, 12, 16, 20] {
            let name = format!("_ZN1AcvT_I{}i{}EEv", "T_I".repeat(k), "E".repeat(k));
            let t = std::time::Instant::now();
            let _ = demangle_unbudgeted(&name);
            let took = t.elapsed();
            assert!(took < std::time::Duration::from_millis(20), "{k}: {took:?}");
        }
    }

    /// Once a thread has spent its budget, names are left mangled, and the
    /// budget comes back as names are asked for.
    #[test]
    fn a_spent_budget_stops_demangling() {
        CREDIT.set(-nanos(CREDIT_PER_NAME) * 2);
        assert_eq!(demangle("_Z3absf"), None);
        assert_eq!(demangle("_Z3absf"), None);
        // A name that is not mangled costs nothing and adds nothing.
        assert_eq!(demangle("absf"), None);
        assert!(CREDIT.get() <= 0);
        // The third name brings the budget above zero again.
        assert_eq!(demangle("_Z3absf").as_deref(), Some("abs(float)"));
        CREDIT.set(nanos(MAX_CREDIT) - 1);
        let _ = demangle("_Z3absf");
        assert!(CREDIT.get() <= nanos(MAX_CREDIT));
        CREDIT.set(nanos(START_CREDIT));
    }

    #[test]
    fn bounded_on_hostile_names() {
        // Deep nesting: refused by the recursion limit, not a stack overflow.
        let deep = format!("_Z1f{}i{}", "PFv".repeat(5000), "E".repeat(5000));
        assert_eq!(demangle(&deep), None);
        // Too long to try.
        let long = format!("_Z{}", "a".repeat(MAX_MANGLED));
        assert_eq!(demangle(&long), None);
        // Substitutions that would blow the output up exponentially.
        let mut s = String::from("_Z1fP1A");
        for i in 0..40 {
            s.push_str(&format!(
                "PS{}_",
                if i == 0 {
                    String::new()
                } else {
                    format!("{}", i - 1)
                }
            ));
        }
        if let Some(d) = demangle(&s) {
            assert!(d.len() <= MAX_DEMANGLED);
        }
    }
}
