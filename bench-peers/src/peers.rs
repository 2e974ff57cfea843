//! The peers: each registry PTX parser behind one call, shared by the
//! timing binary and the memory binary.

use std::panic::{catch_unwind, AssertUnwindSafe};

/// The peers by name, version included, in the order they are reported.
pub const PTX_SYNTAX: &str = "ptx-syntax 0.5.0";
/// See [`PTX_SYNTAX`].
pub const SINGE_PTX: &str = "singe-ptx 0.1.0-alpha.7";

/// Run a peer's `parse` on `src` as every peer is run: the text must be
/// UTF-8 (the peers take `&str`), and a panic is caught. The tree, or why
/// there is none (an error, a panic, or text that is not UTF-8).
fn guarded<T>(src: &[u8], parse: impl FnOnce(&str) -> Option<T>) -> Result<T, &'static str> {
    let text = std::str::from_utf8(src).map_err(|_| "not UTF-8")?;
    match catch_unwind(AssertUnwindSafe(|| parse(text))) {
        Ok(Some(tree)) => Ok(tree),
        Ok(None) => Err("parse error"),
        Err(_) => Err("panic"),
    }
}

/// ptx-syntax's tree of `src`, or why there is none.
pub fn ptx_syntax(src: &[u8]) -> Result<impl Sized, &'static str> {
    guarded(src, |t| ptx_syntax::parse_ptx(t).ok())
}

/// singe-ptx's tree of `src`, or why there is none.
pub fn singe_ptx(src: &[u8]) -> Result<impl Sized, &'static str> {
    guarded(src, |t| singe_ptx::parser::parse_module(t).ok())
}
