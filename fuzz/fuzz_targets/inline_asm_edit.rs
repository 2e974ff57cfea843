//! Fuzz target `inline_asm_edit`: a C++ source checked, edited, then
//! checked again by `ptxkit::inline_asm::Incremental` (what the language
//! server does after a keystroke) gives exactly what `check_source` gives
//! the edited text from scratch: the same statements, verdicts and spans,
//! though only the statements the edit changed were judged again.
#![no_main]

use ptxkit::inline_asm::{check_source, Incremental};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    // Four bytes pick the edit: where, how much is removed, and which
    // bytes of the input are inserted.
    let Some((head, src)) = data.split_first_chunk::<4>() else {
        return;
    };
    let n = src.len().max(1);
    let at = usize::from(u16::from_le_bytes([head[0], head[1]])) % n;
    let end = (at + usize::from(head[2] % 32)).min(src.len());
    let from = usize::from(head[3]) % n;
    let insert = src.get(from..(from + usize::from(head[3] % 24)).min(src.len())).unwrap_or_default();
    let mut edited = src.get(..at).unwrap_or_default().to_vec();
    edited.extend_from_slice(insert);
    edited.extend_from_slice(src.get(end..).unwrap_or_default());

    let targets = ["sm_80".to_string(), "sm_90".to_string()];
    let mut inc = Incremental::new(&targets);
    let first = inc.check(src);
    assert_eq!(format!("{first:?}"), format!("{:?}", check_source(src, &targets)));
    let again = inc.check(&edited);
    let whole = check_source(&edited, &targets);
    assert_eq!(again.len(), whole.len());
    for (a, b) in again.iter().zip(&whole) {
        assert_eq!(format!("{a:?}"), format!("{b:?}"), "an edited source checked again differs from a check from scratch");
    }
});
