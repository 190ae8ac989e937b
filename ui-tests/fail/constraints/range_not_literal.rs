use mcp_tool::mcp_tool;

const LIMIT: usize = 100;

/// Returns the first lines of a text.
#[mcp_tool]
fn head(text: String, #[arg(range(max = LIMIT))] lines: usize) -> String {
    text.lines().take(lines).collect::<Vec<_>>().join("\n")
}

fn main() {}
