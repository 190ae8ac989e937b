use mcp_tool::mcp_tool;

/// Finds files by name.
#[mcp_tool]
fn find(#[arg(complete = names)] name: String) -> String {
    name
}

fn names(_: &str) -> Vec<String> {
    Vec::new()
}

fn main() {}
