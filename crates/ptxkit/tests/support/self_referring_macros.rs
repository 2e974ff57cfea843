//! The fuzzer's C++ of self-referring macros
//! (`fuzz/regressions/inline-asm-self-referring-macros.cu`) as text,
//! repeated: the input whose macro expansions hit their bounds at every
//! use. Shared by `crates/ptxkit/tests/inline_asm.rs` (the library) and
//! `crates/ptx-cli/tests/hostile.rs` (`ptx check-asm` under limits).

/// `copies` copies of the regression input, each followed by a line
/// break, its control bytes made spaces (`ptx check-asm` refuses files
/// that are not text).
pub fn self_referring_macros(copies: usize) -> Vec<u8> {
    let raw = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../fuzz/regressions/inline-asm-self-referring-macros.cu"),
    )
    .expect("the regression input");
    let unit: Vec<u8> = raw
        .iter()
        .map(|&b| {
            if b == b'\n' || (32..127).contains(&b) {
                b
            } else {
                b' '
            }
        })
        .collect();
    let mut s = Vec::with_capacity((unit.len() + 1) * copies);
    for _ in 0..copies {
        s.extend_from_slice(&unit);
        s.push(b'\n');
    }
    s
}
