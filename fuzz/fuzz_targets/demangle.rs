//! Fuzz target `demangle`: `ptxkit::demangle` never panics on any name and
//! stays within its output bound.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // Mostly mangled-looking names: prefix `_Z` when the input lacks it.
    let name = if text.starts_with("_Z") {
        text.to_string()
    } else {
        format!("_Z{text}")
    };
    if let Some(d) = ptxkit::demangle(&name) {
        assert!(d.len() <= ptxkit::demangle::MAX_DEMANGLED);
        assert!(!d.is_empty());
    }
});
