use mcp_tool::mcp_tool;

/// Reads a text file and returns its contents.
#[mcp_tool(name = read_file)]
fn read(path: String) -> String {
    path
}

fn main() {}
