use mcp_tool::mcp_tool;

#[derive(serde::Serialize)]
struct Stats {
    lines: usize,
}

/// Counts the lines of a text.
#[mcp_tool]
fn stats(text: String) -> std::result::Result<Stats, mcp_tool::ToolError> {
    Ok(Stats {
        lines: text.lines().count(),
    })
}

fn main() {}
