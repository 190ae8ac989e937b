//! The `messages` fuzz target on stable: the check libFuzzer runs, over its seeds and corpus,
//! then over mutations of them.

#[path = "../../../fuzz/checks/messages.rs"]
mod messages;

#[test]
fn messages() {
    mcp_tool_fuzz_stable::run("messages", messages::check);
}
