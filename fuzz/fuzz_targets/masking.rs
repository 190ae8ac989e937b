//! libFuzzer's entry to the `masking` target (the masking functions). What it checks is in
//! `checks/masking.rs`, which the bounded run on stable (`tests/fuzz-stable`) checks too.

#![no_main]

#[path = "../checks/masking.rs"]
mod masking;

libfuzzer_sys::fuzz_target!(|data: &[u8]| masking::check(data));
