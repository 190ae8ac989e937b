use mcp_tool::mcp_tool;

/// Finds files whose name matches a pattern.
#[mcp_tool(
    tags = ["files", "", "read only", "files"],
    icons = ["icon.png", "ftp://example.com/icon.png"],
    meta = r#"{"owner": "search-team",}"#
)]
fn find(pattern: String) -> String {
    pattern
}

/// Deletes one file by its path.
#[mcp_tool(meta = r#"["a list"]"#)]
fn delete(path: String) -> String {
    path
}

/// Moves one file.
#[mcp_tool(meta = r#"{"io.modelcontextprotocol/ui": {}}"#)]
fn rename(from: String, to: String) -> String {
    from + &to
}

fn main() {}
