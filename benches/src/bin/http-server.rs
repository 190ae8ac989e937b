//! `add` and `summarize` served over Streamable HTTP at `/mcp` on a free loopback port,
//! in the style named by the first argument and the mode named by the second:
//!
//! - `ours`: `#[mcp_tool]` on `async fn` tools, served by `ToolServer::serve_http`, as
//!   users of mcp-tool serve HTTP (it sets `TCP_NODELAY` on every connection);
//! - `rmcp`: rmcp's macros with the router kept, behind rmcp's `StreamableHttpService`,
//!   mounted in an axum router and served by plain `axum::serve`, as rmcp's examples
//!   do: Nagle's algorithm stays on, what users of rmcp get;
//! - `rmcp-nodelay`: the same, with `TCP_NODELAY` set on each accepted connection
//!   (`ListenerExt::tap_io`), to tell how much of a difference is Nagle's alone.
//!
//! - `ours-auth` (stateless only): ours with authorization, a `JwtVerifier` of an issuer
//!   served in-process; it prints a token it accepts on the line after its endpoint.
//!
//! Modes: `stateful`, with sessions and SSE replies (rmcp's default configuration, and
//! ours' default); `stateless`, no sessions and JSON replies, set alike on both sides
//! (ours' `.stateless(true)` gives rmcp what is given to it here: sessions off, JSON
//! replies, no keep-alive events).
//!
//! Prints its endpoint, `http://ADDRESS/mcp`, on stdout once it listens, and serves
//! until its stdin closes.

use std::io::Write as _;

use anyhow::bail;
use axum::serve::ListenerExt as _;
use mcp_tool_benches::{ours, rmcp_http};
use tokio::io::AsyncReadExt as _;
use tokio::net::TcpListener;

/// The style `ours-auth`: ours, stateless, with a `JwtVerifier` of an issuer served
/// in-process; prints the endpoint, then a token the server accepts (its first request
/// fetches the issuer's keys, which are kept), and serves until stdin closes.
async fn serve_authorized(listener: TcpListener, endpoint: &str) -> anyhow::Result<()> {
    let issuer = mcp_tool_benches::issuer::serve().await;
    let verifier = mcp_tool::JwtVerifier::issuer(&issuer).audience(endpoint);
    let server = ours::builder()
        .stateless(true)
        .authorization(verifier)
        .build()?;
    let token = mcp_tool_benches::issuer::token(&issuer, endpoint);
    let mut stdout = std::io::stdout();
    writeln!(stdout, "{endpoint}\n{token}")?;
    stdout.flush()?;
    server.serve_http(listener, stdin_closed()).await?;
    Ok(())
}

/// Completes when stdin reaches its end: the load generator is done with the server.
async fn stdin_closed() {
    let mut rest = Vec::new();
    let _ = tokio::io::stdin().read_to_end(&mut rest).await;
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (style, stateless) = match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        [style @ ("ours" | "rmcp" | "rmcp-nodelay"), "stateful"] => (style.to_owned(), false),
        [style @ ("ours" | "rmcp" | "rmcp-nodelay"), "stateless"] => (style.to_owned(), true),
        ["ours-auth", "stateless"] => ("ours-auth".to_owned(), true),
        _ => bail!(
            "usage: http-server ours|rmcp|rmcp-nodelay stateful|stateless | ours-auth stateless"
        ),
    };
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let endpoint = format!("http://{}/mcp", listener.local_addr()?);
    let mut stdout = std::io::stdout();
    if style == "ours-auth" {
        return serve_authorized(listener, &endpoint).await;
    }
    writeln!(stdout, "{endpoint}")?;
    stdout.flush()?;
    match style.as_str() {
        "ours" => {
            let server = ours::http_server(stateless)?;
            server.serve_http(listener, stdin_closed()).await?;
        }
        "rmcp" => rmcp_http::serve(listener, stateless, stdin_closed()).await?,
        _ => {
            let listener = listener.tap_io(|tcp| {
                if let Err(error) = tcp.set_nodelay(true) {
                    eprintln!("http-server: TCP_NODELAY not set: {error}");
                }
            });
            rmcp_http::serve(listener, stateless, stdin_closed()).await?;
        }
    }
    Ok(())
}
