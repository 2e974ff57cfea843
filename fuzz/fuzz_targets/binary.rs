//! Fuzz target `binary`: the CUDA binary reader (`ptxkit::binary`) never
//! panics; what it lists lies inside the input; decompression stays
//! within the sizes the headers give.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(bin) = ptxkit::binary::read(data) else {
        return;
    };
    for c in &bin.containers {
        assert!(c.offset < data.len());
    }
    for e in &bin.entries {
        assert!(e.payload.start <= e.payload.end && e.payload.end <= data.len());
        assert!(e.offset < e.payload.start);
        if let Ok(p) = ptxkit::binary::payload(data, e) {
            assert!(p.len() as u64 <= e.uncompressed_size.max(e.stored_size));
        }
        let _ = ptxkit::binary::ptx_text(data, e);
    }
});
