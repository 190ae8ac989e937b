use mcp_tool::mcp_tool;

// An unknown key is reported alone: the description next to it still counts (no
// "needs a description"), and the name next to it is still checked.
#[mcp_tool(name = "read file", description = "Reads a text file and returns its contents.", readonly)]
fn read_file(path: String) -> String {
    path
}

fn main() {}
