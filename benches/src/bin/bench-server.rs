//! `add` and `summarize` served over stdio in the style named by the first argument:
//!
//! - `ours`: `#[mcp_tool]`, served by `ToolServer::serve_stdio()`, the project's own
//!   stdio transport, as users of mcp-tool serve;
//! - `ours-rmcp-io`: the same server over `rmcp::transport::stdio()`, exactly as the
//!   styles below, so that a comparison with them shares the transport;
//! - `rmcp-default`: rmcp's macros, router rebuilt per request;
//! - `rmcp-stored`: rmcp's macros, router kept;
//! - `hand`: a hand-written `ServerHandler`.
//!
//! One binary for every style, so that each run starts the same executable and the
//! benchmark builds one server instead of several.

use anyhow::bail;
use mcp_tool_benches::hand::HandServer;
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
        Some("ours") => mcp_tool_benches::ours::server()?.serve_stdio().await?,
        Some("ours-rmcp-io") => serve(mcp_tool_benches::ours::server()?).await?,
        Some("rmcp-default") => serve(RmcpDefault).await?,
        Some("rmcp-stored") => serve(RmcpStored::new()).await?,
        Some("hand") => serve(HandServer::new()).await?,
        _ => bail!("usage: bench-server ours|ours-rmcp-io|rmcp-default|rmcp-stored|hand"),
    }
    Ok(())
}
