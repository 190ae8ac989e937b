//! `add` and `summarize` served over stdio in the style named by the first argument:
//! `ours` (`#[mcp_tool]`), `rmcp-default` (rmcp's macros, router rebuilt per request),
//! `rmcp-stored` (rmcp's macros, router kept) or `hand` (a hand-written `ServerHandler`).
//!
//! One binary for every style, so that each run starts the same executable and the
//! benchmark builds one server instead of three.

use anyhow::bail;
use mcp_tool_benches::hand::HandServer;
use mcp_tool_benches::rmcp_macros::{RmcpDefault, RmcpStored};
use rmcp::{ServerHandler, ServiceExt};

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
        Some("rmcp-default") => serve(RmcpDefault).await?,
        Some("rmcp-stored") => serve(RmcpStored::new()).await?,
        Some("hand") => serve(HandServer::new()).await?,
        _ => bail!("usage: bench-server ours|rmcp-default|rmcp-stored|hand"),
    }
    Ok(())
}
