//! A client that speaks raw lines to a server over in-memory pipes, as a client on
//! stdio would, for tests of what the server answers to exactly the bytes sent.

#![allow(dead_code, unreachable_pub)]

pub mod allocated;
#[cfg(feature = "auth")]
pub mod authorized;
#[cfg(feature = "http")]
pub mod http;
#[cfg(feature = "auth")]
pub mod issuer;
pub mod log;
#[cfg(feature = "redis")]
pub mod redis;
pub mod table_store;
pub mod tasks;
#[cfg(feature = "http")]
pub mod transport;

use std::time::Duration;

use mcp_tool::{Server, ServerError, ToolServer};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines};
use tokio::task::JoinHandle;

/// A server over the test binary's registered tools.
pub fn server() -> ToolServer {
    Server::from_registry("raw", "1").build().unwrap()
}

pub struct RawClient {
    pub to_server: DuplexStream,
    from_server: Lines<BufReader<DuplexStream>>,
}

impl RawClient {
    /// Connects to `server` and completes the handshake.
    pub async fn start(server: ToolServer) -> Self {
        let (mut client, _) = Self::connect(server);
        client.initialize(0).await;
        client
    }

    /// Connects to `server` without a handshake; the handle ends with the session.
    pub fn connect(server: ToolServer) -> (Self, JoinHandle<Result<(), ServerError>>) {
        let (to_server, server_input) = tokio::io::duplex(1 << 20);
        let (server_output, from_server) = tokio::io::duplex(1 << 20);
        let session = tokio::spawn(server.serve_lines(server_input, server_output));
        let client = Self {
            to_server,
            from_server: BufReader::new(from_server).lines(),
        };
        (client, session)
    }

    /// Connects to `server` served by `rmcp`'s own service loop over its own line
    /// transport (`ToolServer` is an `rmcp::ServerHandler`), without a handshake: the
    /// path a request takes when the line transport hands it on.
    pub fn connect_through_rmcp(server: ToolServer) -> Self {
        let (to_server, server_input) = tokio::io::duplex(1 << 20);
        let (server_output, from_server) = tokio::io::duplex(1 << 20);
        tokio::spawn(async move {
            let running = rmcp::ServiceExt::serve(server, (server_input, server_output)).await;
            if let Ok(running) = running {
                let _ = running.waiting().await;
            }
        });
        Self {
            to_server,
            from_server: BufReader::new(from_server).lines(),
        }
    }

    /// Sends `initialize` with this id and `notifications/initialized`.
    pub async fn initialize(&mut self, id: u64) {
        let client = self;
        client
            .send(
                &json!({
                    "jsonrpc": "2.0", "id": id, "method": "initialize",
                    "params": {
                        "protocolVersion": "2025-11-25",
                        "capabilities": {},
                        "clientInfo": { "name": "raw", "version": "1" }
                    }
                })
                .to_string(),
            )
            .await;
        let init = client.receive().await;
        assert_eq!(init["id"], id, "{init}");
        client
            .send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
            .await;
    }

    pub async fn send(&mut self, line: &str) {
        self.to_server.write_all(line.as_bytes()).await.unwrap();
        self.to_server.write_all(b"\n").await.unwrap();
    }

    pub async fn receive(&mut self) -> Value {
        let line = self.next_line().await.expect("the server is still there");
        serde_json::from_str(&line).unwrap()
    }

    /// The next line the server writes, `None` once its output is closed.
    pub async fn next_line(&mut self) -> Option<String> {
        tokio::time::timeout(Duration::from_secs(10), self.from_server.next_line())
            .await
            .expect("a line within 10 s")
            .unwrap()
    }

    /// Closes the server's input, as a client that exits does.
    pub fn close_input(&mut self) {
        let (closed, _) = tokio::io::duplex(1);
        drop(std::mem::replace(&mut self.to_server, closed));
    }

    /// Sends a `ping` and checks its empty result: the session still serves.
    pub async fn ping(&mut self) {
        self.send(r#"{"jsonrpc":"2.0","id":"ping","method":"ping"}"#)
            .await;
        let reply = self.receive().await;
        assert_eq!(
            reply,
            json!({ "jsonrpc": "2.0", "id": "ping", "result": {} })
        );
    }

    pub async fn add(&mut self, id: u64) {
        self.send(
            &json!({
                "jsonrpc": "2.0", "id": id, "method": "tools/call",
                "params": { "name": "add", "arguments": { "a": 2, "b": 3 } }
            })
            .to_string(),
        )
        .await;
        let reply = self.receive().await;
        assert_eq!(reply["id"], id, "{reply}");
        assert_eq!(
            reply["result"]["structuredContent"],
            json!({ "result": 5 }),
            "{reply}"
        );
    }
}

/// Whether the tests run under CI (`CI` set, and not `0`, `false` or `no`), where a test
/// that cannot get what it needs fails rather than skips.
pub fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|value| !matches!(value.as_str(), "" | "0" | "false" | "no"))
}
