use mcp_tool::mcp_tool;

/// Returns the first lines of a text.
#[mcp_tool]
fn head(
    text: String,
    #[arg(range(min = 1))]
    #[arg(range(max = 100))]
    lines: usize,
) -> String {
    text.lines().take(lines).collect::<Vec<_>>().join("\n")
}

fn main() {}
