//! The `arguments` fuzz target on stable: the check libFuzzer runs, over its seeds and corpus,
//! then over mutations of them.

#[path = "../../../fuzz/checks/arguments.rs"]
mod arguments;

#[test]
fn arguments() {
    mcp_tool_fuzz_stable::run("arguments", arguments::check);
}
