//! What one idle session holds on a Streamable HTTP server with sessions: the bytes
//! allocated (a counting global allocator) and the resident memory (`VmRSS`) that grow
//! while N sessions are opened and left open, divided by N.
//!
//! The server runs in this process, in the style named (`ours`: `ToolServer::serve_http`;
//! `rmcp`: rmcp's macros behind rmcp's `StreamableHttpService`, as `http-server` serves
//! them). Each session is an `initialize` and a `notifications/initialized`, each sent on
//! a connection of its own that closes with its response, so that nothing of the
//! client's is held when the memory is read. Ten sessions are opened first, unmeasured,
//! so that what the first ones set up once (pools, tables, the runtime's buffers) is not
//! counted as the sessions'.
//!
//! ```text
//! session-memory ours|rmcp [N (500)]
//! ```
//!
//! Prints one JSON object: the style, N, and the bytes allocated and resident per session.

use std::alloc::System;
use std::net::SocketAddr;
use std::time::Duration;

use anyhow::{Context as _, bail};
use mcp_tool_benches::{ours, rmcp_http};
use stats_alloc::{INSTRUMENTED_SYSTEM, StatsAlloc};
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::{TcpListener, TcpStream};

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// The sessions opened before the first reading.
const WARMUP: usize = 10;

/// The bytes allocated and not freed, now.
fn allocated() -> i64 {
    let stats = GLOBAL.stats();
    let grown = i64::try_from(stats.bytes_allocated).unwrap_or(i64::MAX);
    let freed = i64::try_from(stats.bytes_deallocated).unwrap_or(i64::MAX);
    grown - freed + i64::try_from(stats.bytes_reallocated).unwrap_or(0)
}

/// The process's resident memory, in bytes.
fn resident() -> anyhow::Result<i64> {
    let status = std::fs::read_to_string("/proc/self/status")?;
    let line = (status.lines())
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .context("no VmRSS in /proc/self/status")?;
    let kib: i64 = line.trim().trim_end_matches("kB").trim().parse()?;
    Ok(kib * 1024)
}

/// POSTs `body` to `/mcp` on a connection of its own: the status and the session id.
async fn post(
    address: SocketAddr,
    body: &str,
    session: Option<&str>,
) -> anyhow::Result<(u16, Option<String>)> {
    let mut stream = TcpStream::connect(address).await?;
    let session = session.map_or_else(String::new, |id| format!("Mcp-Session-Id: {id}\r\n"));
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2025-11-25\r\n\
         {session}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await?;
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await?;
    let text = String::from_utf8_lossy(&response);
    let status = (text.split(' ').nth(1))
        .and_then(|code| code.parse().ok())
        .context("no status line")?;
    let id = text.lines().find_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.eq_ignore_ascii_case("mcp-session-id")
            .then(|| value.trim().to_owned())
    });
    Ok((status, id))
}

/// Opens one session and leaves it open.
async fn open(address: SocketAddr) -> anyhow::Result<()> {
    let initialize = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"session-memory","version":"1"}}}"#;
    let (status, id) = post(address, initialize, None).await?;
    let id = id.with_context(|| format!("initialize answered {status} without a session"))?;
    let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    let (status, _) = post(address, initialized, Some(&id)).await?;
    if status != 202 {
        bail!("notifications/initialized answered {status}");
    }
    Ok(())
}

/// The allocated and the resident bytes, once the server has settled.
async fn reading() -> anyhow::Result<(i64, i64)> {
    tokio::time::sleep(Duration::from_millis(300)).await;
    Ok((allocated(), resident()?))
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (style, sessions) = match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        [style @ ("ours" | "rmcp")] => (style.to_owned(), 500),
        [style @ ("ours" | "rmcp"), n] => (style.to_owned(), n.parse::<usize>()?),
        _ => bail!("usage: session-memory ours|rmcp [N]"),
    };
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let address = listener.local_addr()?;
    let stop = std::future::pending::<()>();
    let serving = if style == "ours" {
        let server = ours::http_server(false)?;
        tokio::spawn(async move { Ok(server.serve_http(listener, stop).await?) })
    } else {
        tokio::spawn(rmcp_http::serve(listener, false, stop))
    };
    for _ in 0..WARMUP {
        open(address).await?;
    }
    let before = reading().await?;
    for _ in 0..sessions {
        open(address).await?;
    }
    let after = reading().await?;
    if serving.is_finished() {
        serving.await??;
        bail!("the server stopped");
    }
    let per_session = |before: i64, after: i64| (after - before) as f64 / sessions as f64;
    println!(
        "{}",
        serde_json::json!({
            "style": style,
            "sessions": sessions,
            "allocated_bytes_per_session": per_session(before.0, after.0),
            "resident_bytes_per_session": per_session(before.1, after.1),
        })
    );
    Ok(())
}
