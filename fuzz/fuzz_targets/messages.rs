//! libFuzzer's entry to the `messages` target (raw lines into a server's stdio transport).
//! What it checks is in `checks/messages.rs`, which the bounded run on stable
//! (`tests/fuzz-stable`) checks too.

#![no_main]

#[path = "../checks/messages.rs"]
mod messages;

libfuzzer_sys::fuzz_target!(|data: &[u8]| messages::check(data));
