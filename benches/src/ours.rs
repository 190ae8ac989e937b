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

/// A server over `add` and `summarize` only, whatever else the program registers.
pub fn server() -> Result<ToolServer, ServerError> {
    Server::from_tools(
        "bench-ours",
        env!("CARGO_PKG_VERSION"),
        mcp_tool::registered()
            .into_iter()
            .filter(|entry| crate::TOOLS.contains(&entry.name())),
    )
    .build()
}
