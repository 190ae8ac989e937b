use mcp_tool::mcp_tool;

/// Reads a text file and returns its contents.
#[mcp_tool]
fn read_file(path: &str) -> String {
    path.to_owned()
}

fn main() {}
