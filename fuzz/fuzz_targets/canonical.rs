//! Fuzz target `canonical`: see `props::canonical` for the property it checks.
#![no_main]

#[path = "../../crates/ptxkit/tests/common/props.rs"]
mod props;

libfuzzer_sys::fuzz_target!(|data: &[u8]| props::canonical(data));
