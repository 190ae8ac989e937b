//! `add` and `summarize` served over stdio in the style named by the first argument:
//!
//! - `ours-rmcp-io`: `#[mcp_tool]` on `async fn` tools, served over
//!   `rmcp::transport::stdio()` exactly as the rmcp and hand-written styles below: the
//!   same transport and the same execution model (every tool inline on the async
//!   worker), the like for like that the targets judge;
//! - `ours`: the same `async fn` tools served by `ToolServer::serve_stdio()`, the
//!   project's own stdio transport, as users of mcp-tool serve;
//! - `ours-sync`: the tools as plain `fn`, which the runtime runs on the blocking thread
//!   pool, served by `serve_stdio()`;
//! - `rmcp-default`: rmcp's macros, router rebuilt per request;
//! - `rmcp-stored`: rmcp's macros, router kept;
//! - `hand`: a hand-written `ServerHandler`;
//! - `floor`: no framework and no runtime, one loop that reads a line, decodes it with
//!   serde_json into typed structs, calls the tool, and writes and flushes the reply
//!   (`mcp_tool_benches::floor`): the floor a stdio call costs.
//!
//! One binary for every style, so that each run starts the same executable and the
//! benchmark builds one server instead of several.

use anyhow::bail;
use mcp_tool_benches::floor;
use mcp_tool_benches::hand::HandServer;
use mcp_tool_benches::ours;
use mcp_tool_benches::rmcp_macros::{RmcpDefault, RmcpStored};
use rmcp::{ServerHandler, ServiceExt};

/// Serves `server` over rmcp's stdio transport until the client leaves.
async fn serve<S: ServerHandler>(server: S) -> anyhow::Result<()> {
    server
        .serve(rmcp::transport::stdio())
        .await?
        .waiting()
        .await?;
    Ok(())
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    match std::env::args().nth(1).as_deref() {
        Some("ours-rmcp-io") => serve(ours::server()?).await?,
        Some("ours") => ours::server()?.serve_stdio().await?,
        Some("ours-sync") => ours::sync_server()?.serve_stdio().await?,
        Some("rmcp-default") => serve(RmcpDefault).await?,
        Some("rmcp-stored") => serve(RmcpStored::new()).await?,
        Some("hand") => serve(HandServer::new()).await?,
        Some("floor") => floor::serve()?,
        _ => bail!(
            "usage: bench-server ours-rmcp-io|ours|ours-sync|rmcp-default|rmcp-stored|hand|floor"
        ),
    }
    Ok(())
}
