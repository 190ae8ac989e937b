use mcp_tool::mcp_tool;

/// Adds two integers.
#[mcp_tool]
const fn add(a: i64, b: i64) -> i64 {
    a + b
}

fn main() {}
