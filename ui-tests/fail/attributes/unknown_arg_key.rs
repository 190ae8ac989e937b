use mcp_tool::mcp_tool;

/// Returns the first lines of a text.
#[mcp_tool]
fn head(text: String, #[arg(rnage(min = 1, max = 100))] lines: usize) -> String {
    text.lines().take(lines).collect::<Vec<_>>().join("\n")
}

fn main() {}
