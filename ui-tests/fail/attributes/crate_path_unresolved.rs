use mcp_tool::mcp_tool;

/// Reads a text file and returns its contents.
#[mcp_tool(crate = "framework::mcp_tool")]
fn read_file(path: String) -> String {
    path
}

fn main() {}
