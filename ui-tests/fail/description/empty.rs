use mcp_tool::mcp_tool;

#[mcp_tool(description = "  ")]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

fn main() {}
