//! `lenient` on a tool and on an argument, and `strict` keeping one exact: the schema a
//! client reads is the same as without them.

use mcp_tool::mcp_tool;

/// Adds two counts, converting one sent as a string.
#[mcp_tool(lenient)]
fn add(first: u32, #[arg(strict)] second: u32) -> u32 {
    first + second
}

/// Doubles a count, converting it when sent as a string.
#[mcp_tool]
fn double(#[arg(lenient)] count: u32) -> u32 {
    count * 2
}

fn main() {
    let server = mcp_tool::Server::from_registry("lenient", "1").build().unwrap();
    let tools = server.tools();
    let listed = tools.iter().find(|tool| tool.name == "add").unwrap();
    assert_eq!(listed.input_schema["properties"]["first"]["type"], "integer");
    assert_eq!(listed.input_schema["properties"]["second"]["type"], "integer");
    assert_eq!(add(1, 2) + double(3), 9);
}
