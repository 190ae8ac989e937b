//! The `masking` fuzz target on stable: the check libFuzzer runs, over its seeds and corpus,
//! then over mutations of them.

#[path = "../../../fuzz/checks/masking.rs"]
mod masking;

#[test]
fn masking() {
    mcp_tool_fuzz_stable::run("masking", masking::check);
}
