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

use common::allocated::{COUNTING, Counting, heap_bytes, kib};

#[global_allocator]
static HEAP: &Counting = &COUNTING;

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

/// The most requests the client may write while none of their replies can be read. What
/// stops the server reading is its queue of replies (1 MiB, about 25 replies of 40 KiB);
/// until it fills, requests are read while their calls run, and the 4 KiB pipe and the
/// server's 8 KiB read buffer hold about 150 more of 80 bytes. How many calls run before
/// the queue fills depends on how busy the machine is (measured: 86 to 171 requests read
/// on an idle machine, up to 297 beside a parallel build), so the bound is far from both
/// that and the 1,000 a server that buffers without bound reads.
const READ_BOUND: u64 = 600;

/// How many replies' worth the heap may grow by, for each request the server read, while
/// the client does not read: a call in flight holds its reply and its encoding, under two
/// (measured: 0.7 to 1.2). Counted per request read, it holds however many were read.
const HELD_PER_REQUEST: u64 = 2;

/// How much the heap may keep once every reply has been read: buffers, not replies
/// (measured: under 64 KiB); a server that kept one reply per request keeps 32 MiB.
const KEPT_AFTER: u64 = 1024 * 1024;

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
    let before = heap_bytes();

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
    let held = heap_bytes().saturating_sub(before);
    eprintln!(
        "heap: +{} KiB while the client does not read, {stalled_at} requests read \
         ({} replies' worth, bound {HELD_PER_REQUEST} a request)",
        kib(held),
        held / REPLY as u64
    );
    assert!(
        held < HELD_PER_REQUEST * REPLY as u64 * stalled_at.max(1),
        "the server's heap grew by {held} bytes, {} replies' worth for {stalled_at} requests \
         read, while its client did not read",
        held / REPLY as u64
    );
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
    // Every reply was written and dropped: the server keeps none of them.
    drop(answered);
    let kept = heap_bytes().saturating_sub(before);
    eprintln!("heap: +{} KiB once every reply was read", kib(kept));
    assert!(
        kept < KEPT_AFTER,
        "the server keeps {kept} bytes more than before its {REQUESTS} replies were read"
    );
}
