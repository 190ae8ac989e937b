//! Every supported parameter and return kind, sync and async, in one crate.

use std::collections::BTreeMap;

use mcp_tool::model::{Content, ToolResult};
use mcp_tool::{ToolError, mcp_tool};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Unit {
    Lines,
    Words,
}

#[derive(Debug, Deserialize, JsonSchema)]
struct Range {
    start: u64,
    end: Option<u64>,
}

#[derive(Debug, Deserialize, JsonSchema)]
struct Selection {
    unit: Unit,
    range: Range,
    tags: Vec<String>,
}

#[derive(Debug, Serialize, JsonSchema)]
struct Stats {
    lines: usize,
    words: usize,
}

#[derive(Debug)]
struct ParseError(String);

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot parse `{}`", self.0)
    }
}

/// Returns a greeting.
#[mcp_tool]
fn greet(name: String) -> String {
    format!("Hello, {name}!")
}

/// Does nothing, and says so with an empty result.
#[mcp_tool(idempotent)]
fn noop() {}

/// Counts the lines and the words of a text.
#[mcp_tool(read_only, title = "Text statistics", timeout = "500ms")]
fn stats(
    /// The text to measure.
    text: String,
) -> Stats {
    Stats {
        lines: text.lines().count(),
        words: text.split_whitespace().count(),
    }
}

/// Returns the first lines of a text.
#[mcp_tool(
    name = "head",
    title = "First lines",
    read_only = true,
    destructive = false,
    idempotent = true,
    open_world = false,
    timeout = "1m30s"
)]
async fn first_lines(
    /// The text to cut.
    text: String,
    /// How many lines to keep.
    #[arg(range(min = 1, max = 1_000))]
    lines: Option<usize>,
    /// Only keep lines starting with this prefix.
    #[arg(length(min = 1, max = 64), pattern = "^[a-z]+$", default = "a")]
    prefix: String,
    /// A scale factor.
    #[arg(range(min = -1.5, max = 2.5))]
    scale: f64,
    /// Skip this many lines first.
    #[arg(default = 0)]
    skip: usize,
) -> Result<Vec<String>, ToolError> {
    if scale.is_nan() {
        return Err(ToolError::new("`scale` must be a number"));
    }
    Ok(text
        .lines()
        .skip(skip)
        .filter(|line| line.starts_with(&prefix))
        .take(lines.unwrap_or(usize::MAX))
        .map(str::to_owned)
        .collect())
}

/// Counts the units in a selection of a text.
#[mcp_tool]
async fn select(
    /// What to count.
    selection: Selection,
    /// Labels for the result.
    labels: Option<BTreeMap<String, String>>,
) -> Result<u64, std::io::Error> {
    let _ = (selection.unit, selection.tags, labels);
    Ok(selection.range.end.unwrap_or(selection.range.start))
}

/// Parses a decimal number and returns it as text.
#[mcp_tool]
fn parse(text: String) -> Result<String, ParseError> {
    text.parse::<i64>()
        .map(|n| n.to_string())
        .map_err(|_| ParseError(text))
}

/// Returns a text block.
#[mcp_tool]
fn block(text: String) -> Content {
    Content::text(text)
}

/// Returns one text block per word.
#[mcp_tool]
fn blocks(text: String) -> Vec<Content> {
    text.split_whitespace().map(Content::text).collect()
}

/// Returns a whole call result.
#[mcp_tool(open_world, timeout = "2h")]
async fn result(text: String) -> ToolResult {
    ToolResult::new(vec![Content::text(text)])
}

/// Returns content, or fails with a message for the model.
#[mcp_tool]
fn maybe_block(text: String) -> Result<Content, ToolError> {
    if text.is_empty() {
        Err(ToolError::new("`text` is empty; send some text"))
    } else {
        Ok(Content::text(text))
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    assert_eq!(greet("Ada".to_owned()), "Hello, Ada!");
    noop();
    assert_eq!(stats("a b\nc".to_owned()).words, 3);
    let lines = first_lines("ab\nac\nb".to_owned(), Some(1), "a".to_owned(), 1.0, 0).await;
    assert_eq!(lines, Ok(vec!["ab".to_owned()]));
    let selection = Selection {
        unit: Unit::Words,
        range: Range {
            start: 1,
            end: None,
        },
        tags: Vec::new(),
    };
    assert_eq!(select(selection, None).await.ok(), Some(1));
    assert!(parse("x".to_owned()).is_err());
    let _ = (block("a".to_owned()), blocks("a b".to_owned()));
    let _ = result("a".to_owned()).await;
    assert!(maybe_block(String::new()).is_err());

    let names: Vec<_> = mcp_tool::registered().iter().map(|t| t.name()).collect();
    assert_eq!(
        names,
        [
            "block",
            "blocks",
            "greet",
            "head",
            "maybe_block",
            "noop",
            "parse",
            "result",
            "select",
            "stats"
        ]
    );
}
