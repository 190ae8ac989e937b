use mcp_tool::mcp_tool;

#[derive(serde::Serialize)]
struct Stats {
    lines: usize,
}

#[derive(Debug)]
struct MyError;

impl std::fmt::Display for MyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("no stats")
    }
}

/// Counts the lines of a text.
#[mcp_tool]
fn stats(text: String) -> Result<Stats, MyError> {
    Ok(Stats {
        lines: text.lines().count(),
    })
}

fn main() {}
