use mcp_tool::mcp_tool;

/// Deletes one file by its path.
#[mcp_tool(scopes = ["files:write", "", "files write", "say\"hi\"", "files:write"])]
fn delete(path: String) -> String {
    path
}

fn main() {}
