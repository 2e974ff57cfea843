//! Fuzz target `inline_asm`: finding and checking the `asm` statements of
//! arbitrary bytes read as C++ never panics, and every diagnostic's span
//! lies inside the input.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let targets = ["sm_90a".to_string(), "sm_80".to_string()];
    for c in ptxkit::inline_asm::check_source(data, &targets) {
        let ds = match &c.verdict {
            ptxkit::inline_asm::Verdict::Invalid { diagnostics, .. } => diagnostics.clone(),
            ptxkit::inline_asm::Verdict::Skipped { diagnostic } => vec![diagnostic.clone()],
            ptxkit::inline_asm::Verdict::Valid { .. } => Vec::new(),
        };
        for d in ds {
            assert!(d.span.start <= d.span.end && d.span.end as usize <= data.len());
            for l in &d.labels {
                assert!(l.span.start <= l.span.end && l.span.end as usize <= data.len());
            }
        }
    }
});
