use mcp_tool::mcp_tool;

// Mistakes in the attribute, the signature and two parameters, all reported by one build.
/// Returns the first lines of a text that start with a prefix.
#[mcp_tool(title = 5)]
unsafe fn head(
    text: &str,
    #[arg(range(min = 100, max = 1), default = "ten")] lines: usize,
    #[arg(length(min = 1), default = "a")] prefix: Option<String>,
) -> String {
    let prefix = prefix.unwrap_or_default();
    (text.lines())
        .filter(|line| line.starts_with(&prefix))
        .take(lines)
        .collect::<Vec<_>>()
        .join("\n")
}

fn main() {}
