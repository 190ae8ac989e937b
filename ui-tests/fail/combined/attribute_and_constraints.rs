use mcp_tool::mcp_tool;

// Five mistakes in one tool, all reported by one build: an unknown key, a name that is
// not snake_case, no description, an invalid pattern, and a range without bounds.
#[mcp_tool(name = "HeadLines", readonly)]
fn head(#[arg(pattern = "^[a-z+$")] text: String, #[arg(range())] lines: usize) -> String {
    text.lines().take(lines).collect::<Vec<_>>().join("\n")
}

fn main() {}
