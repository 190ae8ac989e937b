//! Under load, every request is answered exactly once: a thousand calls pipelined over
//! four sessions of one server, mixing calls that succeed, fail, panic, time out and
//! are cancelled by the client; a cancelled call gets no reply, and the server serves
//! as before afterwards. Once warm, another round leaves the server's memory where the
//! round before left it.

mod common;

use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

use common::RawClient;
use common::allocated::{COUNTING, Counting, heap_bytes, kib};

#[global_allocator]
static HEAP: &Counting = &COUNTING;
use mcp_tool::{Server, ToolError, mcp_tool};
use serde_json::{Value, json};

/// Adds two integers and returns their sum.
#[mcp_tool]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// Returns the length of its argument.
#[mcp_tool]
fn measure(ballast: String) -> usize {
    ballast.len()
}

/// Always fails, with a message for the model.
#[mcp_tool]
async fn refuse(ballast: String) -> Result<String, ToolError> {
    Err(ToolError::new(format!(
        "refused on purpose, {} bytes",
        ballast.len()
    )))
}

/// Always panics.
#[mcp_tool]
fn explode(ballast: String) -> String {
    panic!("exploded on purpose, {} bytes", ballast.len())
}

/// Sleeps far past the server's time limit.
#[mcp_tool]
async fn dawdle(ballast: String) -> String {
    tokio::time::sleep(Duration::from_secs(30)).await;
    ballast
}

/// The calls of `linger` running now: a cancelled call's future must be dropped.
static LINGERING: AtomicI64 = AtomicI64::new(0);

struct Lingering;

impl Drop for Lingering {
    fn drop(&mut self) {
        LINGERING.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Sleeps for a minute, within its own limit: only a cancellation ends it early, and
/// no reply can have been sent by the time the client cancels it.
#[mcp_tool(timeout = "2m")]
async fn linger(ballast: String) -> String {
    LINGERING.fetch_add(1, Ordering::SeqCst);
    let _running = Lingering;
    tokio::time::sleep(Duration::from_secs(60)).await;
    ballast
}

const SESSIONS: u64 = 4;
const CALLS: u64 = 250;
/// The size of every call's argument: big enough that keeping it would show (below).
const BALLAST: usize = 8 * 1024;

/// The tool a call id goes to, and its reply's one text; `None` for a call the client
/// cancels.
fn plan(id: u64) -> (&'static str, Option<&'static str>) {
    match id % 5 {
        0 => ("measure", Some("{\"result\":8192}")),
        1 => (
            "refuse",
            Some("tool `refuse` failed: refused on purpose, 8192 bytes"),
        ),
        2 => (
            "explode",
            Some("tool `explode` failed: it panicked: exploded on purpose, 8192 bytes"),
        ),
        3 => (
            "dawdle",
            Some("tool `dawdle` failed: it did not finish within 200 ms"),
        ),
        _ => ("linger", None),
    }
}

/// One session: pipelines its calls, cancels the lingering ones once all are sent,
/// and reads every reply; returns them by id, each checked to be the only one.
async fn session(server: mcp_tool::ToolServer, first: u64) -> HashMap<u64, Value> {
    let (mut client, served) = RawClient::connect(server);
    client.initialize(0).await;
    let ballast = "x".repeat(BALLAST);
    let ids = first..first + CALLS;
    for id in ids.clone() {
        let (tool, _) = plan(id);
        let call = json!({
            "jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": { "name": tool, "arguments": { "ballast": ballast } }
        });
        client.send(&call.to_string()).await;
    }
    // Each cancelled call was read before its cancellation: one stream, read in order.
    let cancelled: Vec<u64> = ids.filter(|&id| plan(id).1.is_none()).collect();
    for &id in &cancelled {
        let cancel = json!({
            "jsonrpc": "2.0", "method": "notifications/cancelled",
            "params": { "requestId": id, "reason": "the user gave up" }
        });
        client.send(&cancel.to_string()).await;
    }
    let mut replies = HashMap::new();
    for _ in 0..CALLS - cancelled.len() as u64 {
        let reply = client.receive().await;
        let id = reply["id"].as_u64().expect("a reply to a call");
        assert!(
            replies.insert(id, reply).is_none(),
            "two replies to call {id}"
        );
    }
    // Whatever came after the last expected reply would show up before these.
    client.ping().await;
    client.add(first + CALLS).await;
    // The session ends with its input; nothing of it is left running.
    drop(client);
    served.await.unwrap().unwrap();
    replies
}

/// Four sessions at once; checks every reply and returns how many were answered.
async fn round(server: &mcp_tool::ToolServer) -> u64 {
    let sessions: Vec<_> = (0..SESSIONS)
        .map(|s| tokio::spawn(session(server.clone(), s * 10_000)))
        .collect();
    let mut answered = 0;
    for (s, running) in sessions.into_iter().enumerate() {
        let replies = running.await.unwrap();
        let first = s as u64 * 10_000;
        for id in first..first + CALLS {
            let (tool, expected) = plan(id);
            let Some(expected) = expected else {
                assert!(
                    !replies.contains_key(&id),
                    "cancelled call {id} got a reply: {}",
                    replies[&id]
                );
                continue;
            };
            let reply = replies
                .get(&id)
                .unwrap_or_else(|| panic!("call {id} to {tool} got no reply"));
            assert_eq!(
                reply["result"]["content"],
                json!([{ "type": "text", "text": expected }]),
                "call {id} to {tool}: {reply}"
            );
            assert_eq!(reply["result"]["isError"], tool != "measure", "{reply}");
            answered += 1;
        }
        assert_eq!(
            replies.len() as u64,
            CALLS / 5 * 4,
            "replies of session {s}"
        );
    }
    // Every cancelled call's future is dropped, not left sleeping.
    for _ in 0..100 {
        if LINGERING.load(Ordering::SeqCst) == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(
        LINGERING.load(Ordering::SeqCst),
        0,
        "cancelled calls still running"
    );
    answered
}

/// How much the heap may grow, per call, from the end of one round to the end of the
/// next: a round sends 1,000 calls of 8 KiB arguments, and a server that kept each call's
/// arguments, or each request line, would grow by 8 KiB or more a call. Once warm, a round
/// leaves the heap where the round before left it (measured: under 1 KiB, the whole
/// round, counted by the allocator).
const PER_CALL: u64 = 128;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_thousand_mixed_calls_over_four_sessions_are_each_answered_once() {
    let server = Server::from_registry("load", "1")
        .timeout(Duration::from_millis(200))
        .build()
        .unwrap();
    // Two rounds warm up buffers, tokio's blocking threads and the tables that grow to
    // their working size.
    for _ in 0..2 {
        assert_eq!(round(&server).await, SESSIONS * CALLS / 5 * 4);
    }
    let warm = heap_bytes();
    assert_eq!(round(&server).await, SESSIONS * CALLS / 5 * 4);
    let growth = heap_bytes().saturating_sub(warm);
    let calls = SESSIONS * CALLS;
    eprintln!(
        "heap: {} KiB after two rounds, +{} KiB after a third of {calls} calls, {} bytes a \
         call (bound {PER_CALL})",
        kib(warm),
        kib(growth),
        growth / calls
    );
    assert!(
        growth < PER_CALL * calls,
        "a third round of {calls} calls grew the heap by {growth} bytes, {} a call",
        growth / calls
    );
    // The server serves a new session as before.
    let mut late = RawClient::start(server).await;
    late.add(1).await;
}
