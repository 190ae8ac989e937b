use mcp_tool::mcp_tool;

#[derive(schemars::JsonSchema)]
struct Stats {
    lines: usize,
    words: usize,
}

/// Counts the lines and the words of a text.
#[mcp_tool]
fn stats(text: String) -> Stats {
    Stats {
        lines: text.lines().count(),
        words: text.split_whitespace().count(),
    }
}

fn main() {}
