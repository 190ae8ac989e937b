use mcp_tool::mcp_tool;

/// Finds files whose name matches a pattern.
#[mcp_tool(tags = "files")]
fn find(pattern: String) -> String {
    pattern
}

fn main() {}
