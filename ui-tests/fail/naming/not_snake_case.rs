use mcp_tool::mcp_tool;

/// Reads a text file and returns its contents.
#[mcp_tool]
#[allow(non_snake_case)]
fn ReadFile(path: String) -> String {
    path
}

fn main() {}
