//! The README's Getting started server, as it is there: one tool, `count_words`, served
//! over stdin and stdout.
//!
//! ```text
//! cargo run -p mcp-tool --example getting_started       # then speak MCP on stdin
//! npx @modelcontextprotocol/inspector target/debug/examples/getting_started
//! ```
//!
//! A test keeps this file's code the README's, line for line, and drives the built
//! example with the official Python MCP client.

use mcp_tool::{Server, ServerError, ToolError, mcp_tool};
use schemars::JsonSchema;
use serde::Serialize;

/// How many lines and words a text has.
#[derive(Serialize, JsonSchema)]
struct Counts {
    /// The number of lines.
    lines: usize,
    /// The number of words.
    words: usize,
}

/// Counts the lines and the words of a text, stopping after `max_lines` lines if given.
#[mcp_tool(read_only)]
fn count_words(
    /// The text to count.
    text: String,
    /// Stop after this many lines. Defaults to no limit.
    #[arg(range(min = 1, max = 1_000_000))]
    max_lines: Option<usize>,
) -> Result<Counts, ToolError> {
    if text.is_empty() {
        return Err(ToolError::new(
            "the text is empty: send at least one character",
        ));
    }
    let lines: Vec<&str> = text.lines().take(max_lines.unwrap_or(usize::MAX)).collect();
    let words = lines
        .iter()
        .map(|line| line.split_whitespace().count())
        .sum();
    Ok(Counts {
        lines: lines.len(),
        words,
    })
}

fn main() -> Result<(), ServerError> {
    Server::from_registry("hello-mcp", env!("CARGO_PKG_VERSION")).run_stdio()
}
