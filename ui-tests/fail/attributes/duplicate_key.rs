use mcp_tool::mcp_tool;

/// Reads a text file and returns its contents.
#[mcp_tool(title = "Read a file", title = "Read file")]
fn read_file(path: String) -> String {
    path
}

fn main() {}
