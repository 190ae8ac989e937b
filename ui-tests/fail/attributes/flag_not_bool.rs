use mcp_tool::mcp_tool;

/// Reads a text file and returns its contents.
#[mcp_tool(read_only = "yes")]
fn read_file(path: String) -> String {
    path
}

fn main() {}
