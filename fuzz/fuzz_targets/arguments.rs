//! libFuzzer's entry to the `arguments` target (arbitrary JSON arguments to a tool with
//! every kind of parameter). What it checks is in `checks/arguments.rs`, which the bounded
//! run on stable (`tests/fuzz-stable`) checks too.

#![no_main]

#[path = "../checks/arguments.rs"]
mod arguments;

libfuzzer_sys::fuzz_target!(|data: &[u8]| arguments::check(data));
