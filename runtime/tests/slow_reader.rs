//! A client that stops reading its replies holds the server back instead of making it
//! buffer: once the replies waiting to be written pass a bound, the server stops reading
//! requests, so the client's writes stop completing and the server's memory stays
//! bounded; when the client reads again, every reply arrives, each exactly once.

mod common;

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use mcp_tool::{Server, mcp_tool};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

use common::resident_bytes;

/// The size of each reply's text.
const REPLY: usize = 32 * 1024;
/// How many requests the client tries to write without reading.
const REQUESTS: u64 = 1_000;

/// Returns its number followed by 32 KiB of text.
#[mcp_tool]
fn bulky(n: u64) -> String {
    format!("{n}:{}", "y".repeat(REPLY))
}

fn call(id: u64) -> String {
    let call = json!({
        "jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": { "name": "bulky", "arguments": { "n": id } }
    });
    call.to_string() + "\n"
}

/// The most requests the client may write while none of their replies can be read:
/// the 4 KiB pipe and the server's 8 KiB read buffer hold about 150 requests of 80
/// bytes, the queue of replies (1 MiB) about 25 replies of 40 KiB (measured: 86); a
/// server that buffers without bound reads all 1,000.
const READ_BOUND: u64 = 300;

/// How much the server may grow while its client does not read: less than the replies
/// of `READ_BOUND` requests (measured: 2.5 MiB); a server without backpressure holds all
/// 1,000 replies (measured: 39 MiB).
const MEMORY_BOUND: u64 = 12 * 1024 * 1024;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_stops_reading_holds_the_server_back_then_gets_every_reply() {
    let server = Server::from_registry("slow", "1").build().unwrap();
    // Small pipes, as a stalled stdio pipe would be (64 KiB on Linux).
    let (mut to_server, server_input) = tokio::io::duplex(4096);
    let (server_output, from_server) = tokio::io::duplex(4096);
    tokio::spawn(server.serve_lines(server_input, server_output));
    let mut from_server = BufReader::new(from_server).lines();
    let mut next = async || -> Value {
        let line = tokio::time::timeout(Duration::from_secs(10), from_server.next_line())
            .await
            .expect("a line within 10 s")
            .unwrap()
            .expect("the server is still there");
        serde_json::from_str(&line).unwrap()
    };

    let initialize = json!({
        "jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": { "name": "slow", "version": "1" }
        }
    });
    to_server
        .write_all((initialize.to_string() + "\n").as_bytes())
        .await
        .unwrap();
    assert_eq!(next().await["id"], 0);
    to_server
        .write_all(b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n")
        .await
        .unwrap();
    let before = resident_bytes();

    // The client writes all its requests and reads nothing.
    let written = Arc::new(AtomicU64::new(0));
    let writer = tokio::spawn({
        let written = Arc::clone(&written);
        async move {
            for id in 1..=REQUESTS {
                to_server.write_all(call(id).as_bytes()).await.unwrap();
                written.fetch_add(1, Ordering::SeqCst);
            }
            to_server
        }
    });
    // Its writes stop completing: nothing more is written for half a second.
    let mut stalled_at = 0;
    let mut unchanged = 0;
    while unchanged < 5 && !writer.is_finished() {
        tokio::time::sleep(Duration::from_millis(100)).await;
        let now = written.load(Ordering::SeqCst);
        unchanged = if now == stalled_at { unchanged + 1 } else { 0 };
        stalled_at = now;
    }
    match (before, resident_bytes()) {
        (Some(before), Some(held)) => {
            let growth = held.saturating_sub(before);
            eprintln!(
                "resident memory: {} KiB before, {} KiB while the client does not read \
                 (+{} KiB, bound {} KiB)",
                before / 1024,
                held / 1024,
                growth / 1024,
                MEMORY_BOUND / 1024
            );
            assert!(
                growth < MEMORY_BOUND,
                "the server grew by {growth} bytes while its client did not read"
            );
        }
        // Only a target other than Linux gets here: on Linux `resident_bytes` fails instead.
        _ => eprintln!(
            "memory check skipped: {} has no /proc/self/status to read the resident set \
             size from",
            std::env::consts::OS
        ),
    }

    assert!(
        !writer.is_finished(),
        "the server read all {REQUESTS} requests while none of their replies could be written"
    );
    eprintln!("the client's writes stopped after {stalled_at} of {REQUESTS} requests");
    assert!(
        stalled_at < READ_BOUND,
        "the server read {stalled_at} requests while none of their replies could be written"
    );
    // The client reads again: every reply arrives, once, whole.
    let mut answered = HashSet::new();
    for _ in 1..=REQUESTS {
        let reply = next().await;
        let id = reply["id"].as_u64().expect("a reply to a call");
        let text = reply["result"]["content"][0]["text"]
            .as_str()
            .unwrap_or_default();
        assert_eq!(text.len(), format!("{id}:").len() + REPLY, "reply {id}");
        assert!(text.starts_with(&format!("{id}:")), "reply {id}");
        assert!(answered.insert(id), "two replies to call {id}");
    }
    assert_eq!(answered.len() as u64, REQUESTS);
    // Nothing else was queued: the next line answers a ping sent now.
    let mut to_server = writer.await.unwrap();
    to_server
        .write_all(b"{\"jsonrpc\":\"2.0\",\"id\":\"ping\",\"method\":\"ping\"}\n")
        .await
        .unwrap();
    assert_eq!(
        next().await,
        json!({ "jsonrpc": "2.0", "id": "ping", "result": {} })
    );
}
