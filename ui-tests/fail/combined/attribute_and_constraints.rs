use mcp_tool::mcp_tool;

// Five mistakes in one tool, all reported by one build: an unknown key, a name with a
// space, no description, an invalid pattern, and a range without bounds.
#[mcp_tool(name = "head lines", readonly)]
fn head(#[arg(pattern = "^[a-z+$")] text: String, #[arg(range())] lines: usize) -> String {
    text.lines().take(lines).collect::<Vec<_>>().join("\n")
}

fn main() {}
