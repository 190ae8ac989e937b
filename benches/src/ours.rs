//! The tools with `#[mcp_tool]`.

use mcp_tool::{Server, ServerError, ToolServer, mcp_tool};

use crate::payload::{self, Report, Summary};

/// Adds two integers and returns their sum.
#[mcp_tool]
pub fn add(
    /// The first addend.
    a: i64,
    /// The second addend.
    b: i64,
) -> i64 {
    a.wrapping_add(b)
}

/// Summarizes a report: its section count, word count, total views and busiest section.
#[mcp_tool]
pub fn summarize(
    /// The report to summarize.
    report: Report,
) -> Summary {
    payload::summarize(&report)
}

// `add` as an `async fn`, for the instruction counts of an async tool; not part of the
// listings the styles compare. Same description, so it differs from `add` only in that.
/// Adds two integers and returns their sum.
#[mcp_tool]
pub async fn add_async(
    /// The first addend.
    a: i64,
    /// The second addend.
    b: i64,
) -> i64 {
    a.wrapping_add(b)
}

// `summarize` as an `async fn`, likewise.
/// Summarizes a report: its section count, word count, total views and busiest section.
#[mcp_tool]
pub async fn summarize_async(
    /// The report to summarize.
    report: Report,
) -> Summary {
    payload::summarize(&report)
}

/// The names of the `async fn` variants of [`crate::TOOLS`], in the same order.
pub const ASYNC_TOOLS: [&str; 2] = ["add_async", "summarize_async"];

/// A server over `add` and `summarize` only, whatever else the program registers.
pub fn server() -> Result<ToolServer, ServerError> {
    server_over(&crate::TOOLS)
}

/// A server over `add_async` and `summarize_async` only.
pub fn async_server() -> Result<ToolServer, ServerError> {
    server_over(&ASYNC_TOOLS)
}

fn server_over(names: &[&str]) -> Result<ToolServer, ServerError> {
    Server::from_tools(
        "bench-ours",
        env!("CARGO_PKG_VERSION"),
        mcp_tool::registered()
            .into_iter()
            .filter(|entry| names.contains(&entry.name())),
    )
    .build()
}
