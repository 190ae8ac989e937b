//! The same tools written three ways, for side-by-side benchmarks: with `#[mcp_tool]`
//! ([`ours`]), with rmcp's `#[tool_router]`/`#[tool]` macros ([`rmcp_macros`]), and as a
//! hand-written rmcp `ServerHandler` ([`hand`]), beside the floor: one loop with no
//! framework and no runtime ([`floor`]). Ours come twice: as `async fn`, run
//! inline on the async worker as rmcp's and the hand-written tools are (the style
//! `ours`, the like for like), and as plain `fn`, run on tokio's blocking thread pool by
//! design (the style `ours-sync`).
//!
//! Every style serves `add` (two integers, structured sum) and `summarize` (a nested
//! report of about 1 KiB, structured summary), with the same names, descriptions and
//! wire output. The hand-written server lists the very schemas `#[mcp_tool]` lists;
//! rmcp's macros list their own, which differ only as `tests/same_tools.rs` spells out.
//! Over Streamable HTTP, the binary `http-server` serves ours and rmcp's macros behind
//! rmcp's own `StreamableHttpService`, and `http-load` drives them as ordinary clients do.
//! `benches/compare.sh` runs every comparison and writes `RESULTS.md`. The same two tools
//! defined at run time ([`runtime`]) are set against ours in the benchmark `runtime_tools`.
//! The binary `mask-count` masks the message of [`masking`] at several sizes, for
//! instruction counts. [`decode`] sets our decoding of an incoming message beside rmcp's
//! (the benchmark `decode` and the binary `decode-count`). [`issuer`] is an OAuth issuer
//! served in-process, for the servers with authorization. [`rmcp_http`] serves rmcp's
//! macros over Streamable HTTP, and the binary `session-memory` counts what a session holds.

pub mod decode;
pub mod floor;
pub mod hand;
pub mod issuer;
pub mod masking;
pub mod ours;
pub mod payload;
pub mod rmcp_http;
pub mod rmcp_macros;
pub mod runtime;
pub mod session;

/// The names of the tools every style serves.
pub const TOOLS: [&str; 2] = ["add", "summarize"];

/// What every tool description says, so the listings match.
pub mod descriptions {
    /// The description of `add`.
    pub const ADD: &str = "Adds two integers and returns their sum.";
    /// The description of `summarize`.
    pub const SUMMARIZE: &str =
        "Summarizes a report: its section count, word count, total views and busiest section.";
}
