use mcp_tool::mcp_tool;

/// A point.
#[mcp_tool]
struct Point {
    x: f64,
}

fn main() {}
