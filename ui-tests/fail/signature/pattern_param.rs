use mcp_tool::mcp_tool;

/// Adds the two numbers of a pair.
#[mcp_tool]
fn add((a, b): (i32, i32)) -> i32 {
    a + b
}

fn main() {}
