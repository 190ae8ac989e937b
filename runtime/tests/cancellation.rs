//! `notifications/cancelled` over a real session: an async tool's future is dropped at
//! its next await (its side effects stop), a sync tool that polls `is_cancelled` stops,
//! and neither call gets a reply; the session goes on.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use mcp_tool::{Context, Server, mcp_tool};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines};

static TICKS: AtomicU64 = AtomicU64::new(0);
static SPIN_STOPPED: AtomicBool = AtomicBool::new(false);
static WAITS_ENDED: AtomicU64 = AtomicU64::new(0);

/// Counts ticks every few milliseconds, forever.
#[mcp_tool]
async fn ticker() -> u64 {
    loop {
        TICKS.fetch_add(1, Ordering::SeqCst);
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

/// Spins until the call is cancelled, polling, for at most ten seconds.
#[mcp_tool]
fn spin(ctx: Context) -> String {
    let start = Instant::now();
    while !ctx.is_cancelled() && start.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(2));
    }
    SPIN_STOPPED.store(ctx.is_cancelled(), Ordering::SeqCst);
    "stopped".to_owned()
}

/// Waits for the call's cancellation, then records it.
#[mcp_tool]
async fn wait_for_cancel(ctx: Context) -> bool {
    ctx.cancelled().await;
    WAITS_ENDED.fetch_add(1, Ordering::SeqCst);
    true
}

struct RawClient {
    to_server: DuplexStream,
    from_server: Lines<BufReader<DuplexStream>>,
    /// Every message received, in order.
    received: Vec<Value>,
}

impl RawClient {
    async fn start() -> (Self, Value) {
        let (to_server, server_input) = tokio::io::duplex(1 << 16);
        let (server_output, from_server) = tokio::io::duplex(1 << 16);
        let server = Server::from_registry("cancel", "1").build().unwrap();
        tokio::spawn(server.serve_lines(server_input, server_output));
        let mut client = Self {
            to_server,
            from_server: BufReader::new(from_server).lines(),
            received: Vec::new(),
        };
        client
            .send(json!({
                "jsonrpc": "2.0", "id": 0, "method": "initialize",
                "params": {
                    "protocolVersion": "2025-11-25",
                    "capabilities": {},
                    "clientInfo": { "name": "raw", "version": "1" }
                }
            }))
            .await;
        let init = client.reply_to(0).await;
        client
            .send(json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }))
            .await;
        (client, init)
    }

    async fn send(&mut self, message: Value) {
        let line = message.to_string() + "\n";
        self.to_server.write_all(line.as_bytes()).await.unwrap();
    }

    async fn call(&mut self, id: u64, name: &str) {
        self.send(json!({
            "jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": { "name": name, "arguments": {} }
        }))
        .await;
    }

    async fn cancel(&mut self, id: u64) {
        self.send(json!({
            "jsonrpc": "2.0", "method": "notifications/cancelled",
            "params": { "requestId": id, "reason": "the user gave up" }
        }))
        .await;
    }

    /// Reads until the reply to `id`, keeping every message read.
    async fn reply_to(&mut self, id: u64) -> Value {
        loop {
            let line = tokio::time::timeout(Duration::from_secs(10), self.from_server.next_line())
                .await
                .expect("a reply within 10 s")
                .unwrap()
                .expect("the server is still there");
            let message: Value = serde_json::from_str(&line).unwrap();
            self.received.push(message.clone());
            if message["id"] == id {
                return message;
            }
        }
    }

    fn replied_to(&self, id: u64) -> bool {
        self.received.iter().any(|m| m["id"] == id)
    }
}

async fn settle() {
    tokio::time::sleep(Duration::from_millis(100)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_async_tool_stops_and_gets_no_reply() {
    let (mut client, init) = RawClient::start().await;
    assert!(
        init["result"]["capabilities"]["logging"].is_object(),
        "{init}"
    );
    client.call(1, "ticker").await;
    settle().await;
    assert!(TICKS.load(Ordering::SeqCst) > 0, "the tool never ran");
    client.cancel(1).await;
    settle().await;
    let after_cancel = TICKS.load(Ordering::SeqCst);
    settle().await;
    settle().await;
    assert_eq!(
        TICKS.load(Ordering::SeqCst),
        after_cancel,
        "the tool's future still runs after its cancellation"
    );
    // The session goes on; the cancelled call never got a reply.
    client
        .send(json!({ "jsonrpc": "2.0", "id": 2, "method": "ping" }))
        .await;
    client.reply_to(2).await;
    assert!(!client.replied_to(1), "{:?}", client.received);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sync_tool_polling_is_cancelled_stops_and_gets_no_reply() {
    let (mut client, _) = RawClient::start().await;
    client.call(1, "spin").await;
    settle().await;
    client.cancel(1).await;
    let start = Instant::now();
    while !SPIN_STOPPED.load(Ordering::SeqCst) && start.elapsed() < Duration::from_secs(5) {
        settle().await;
    }
    assert!(
        SPIN_STOPPED.load(Ordering::SeqCst),
        "the sync tool never saw its cancellation"
    );
    client
        .send(json!({ "jsonrpc": "2.0", "id": 2, "method": "ping" }))
        .await;
    client.reply_to(2).await;
    settle().await;
    client
        .send(json!({ "jsonrpc": "2.0", "id": 3, "method": "ping" }))
        .await;
    client.reply_to(3).await;
    assert!(!client.replied_to(1), "{:?}", client.received);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn context_cancelled_completes_on_cancellation() {
    let (mut client, _) = RawClient::start().await;
    client.call(1, "wait_for_cancel").await;
    client.call(2, "wait_for_cancel").await;
    settle().await;
    client.cancel(1).await;
    client
        .send(json!({ "jsonrpc": "2.0", "id": 3, "method": "ping" }))
        .await;
    client.reply_to(3).await;
    settle().await;
    assert_eq!(WAITS_ENDED.load(Ordering::SeqCst), 1, "one wait ended");
    assert!(!client.replied_to(1));
    assert!(!client.replied_to(2), "the other call is still running");
}
