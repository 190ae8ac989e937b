use mcp_tool::mcp_tool;

/// Returns the first lines of a text.
#[mcp_tool]
fn head(text: String, #[arg(default = 10)] lines: Option<usize>) -> String {
    text.lines()
        .take(lines.unwrap_or(10))
        .collect::<Vec<_>>()
        .join("\n")
}

fn main() {}
