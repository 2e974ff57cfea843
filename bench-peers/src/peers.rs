//! The peers: each registry PTX parser behind the same two calls, shared
//! by the timing binary and the memory binary.

use std::panic::{catch_unwind, AssertUnwindSafe};

/// The peers by name, version included, in the order they are reported.
pub const PTX_SYNTAX: &str = "ptx-syntax 0.5.0";
/// See [`PTX_SYNTAX`].
pub const SINGE_PTX: &str = "singe-ptx 0.1.0-alpha.7";

/// How a peer fares on one file: `None` if it parses, else why not (an
/// error, a panic, or text that is not UTF-8). `ok` runs the peer on the
/// text and says whether it gave a tree.
pub fn peer_fails(src: &[u8], ok: impl Fn(&str) -> bool) -> Option<&'static str> {
    let Ok(text) = std::str::from_utf8(src) else {
        return Some("not UTF-8");
    };
    match catch_unwind(AssertUnwindSafe(|| ok(text))) {
        Ok(true) => None,
        Ok(false) => Some("parse error"),
        Err(_) => Some("panic"),
    }
}

/// ptx-syntax's tree of `src` (`None` if it fails or panics).
pub fn ptx_syntax_parse(src: &[u8]) -> Option<impl Sized> {
    let text = std::str::from_utf8(src).ok()?;
    catch_unwind(AssertUnwindSafe(|| ptx_syntax::parse_ptx(text).ok())).ok()?
}

/// singe-ptx's tree of `src` (`None` if it fails or panics).
pub fn singe_ptx_parse(src: &[u8]) -> Option<impl Sized> {
    let text = std::str::from_utf8(src).ok()?;
    catch_unwind(AssertUnwindSafe(|| {
        singe_ptx::parser::parse_module(text).ok()
    }))
    .ok()?
}
