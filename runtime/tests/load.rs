//! Under load, every request is answered exactly once: a thousand calls pipelined over
//! four sessions of one server, mixing calls that succeed, fail, panic and time out,
//! and the server serves as before afterwards.

mod common;

use std::collections::HashMap;
use std::time::Duration;

use common::RawClient;
use mcp_tool::{Server, ToolError, mcp_tool};
use serde_json::{Value, json};

/// Adds two integers and returns their sum.
#[mcp_tool]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// Always fails, with a message for the model.
#[mcp_tool]
async fn refuse() -> Result<String, ToolError> {
    Err(ToolError::new("refused on purpose"))
}

/// Always panics.
#[mcp_tool]
fn explode() -> String {
    panic!("exploded on purpose")
}

/// Sleeps far past the server's time limit.
#[mcp_tool]
async fn dawdle() -> String {
    tokio::time::sleep(Duration::from_secs(30)).await;
    "too late".to_owned()
}

const SESSIONS: u64 = 4;
const CALLS: u64 = 250;

/// The tool a call id goes to, and what its reply's first text must start with.
fn plan(id: u64) -> (&'static str, &'static str) {
    match id % 4 {
        0 => ("add", "{\"result\":"),
        1 => ("refuse", "tool `refuse` failed: refused on purpose"),
        2 => (
            "explode",
            "tool `explode` failed: it panicked: exploded on purpose",
        ),
        _ => (
            "dawdle",
            "tool `dawdle` failed: it did not finish within 200 ms",
        ),
    }
}

async fn session(server: mcp_tool::ToolServer, first: u64) -> HashMap<u64, Value> {
    let mut client = RawClient::start(server).await;
    for id in first..first + CALLS {
        let (tool, _) = plan(id);
        let arguments = if tool == "add" {
            json!({ "a": id, "b": 1 })
        } else {
            json!({})
        };
        let call = json!({
            "jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": { "name": tool, "arguments": arguments }
        });
        client.send(&call.to_string()).await;
    }
    let mut replies = HashMap::new();
    for _ in 0..CALLS {
        let reply = client.receive().await;
        let id = reply["id"].as_u64().expect("a reply to a call");
        assert!(
            replies.insert(id, reply).is_none(),
            "two replies to call {id}"
        );
    }
    client.ping().await;
    client.add(first + CALLS).await;
    replies
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_thousand_mixed_calls_over_four_sessions_are_each_answered_once() {
    let server = Server::from_registry("load", "1")
        .timeout(Duration::from_millis(200))
        .build()
        .unwrap();
    let sessions: Vec<_> = (0..SESSIONS)
        .map(|s| tokio::spawn(session(server.clone(), s * 10_000)))
        .collect();
    let mut answered = 0;
    for (s, running) in sessions.into_iter().enumerate() {
        let replies = running.await.unwrap();
        let first = s as u64 * 10_000;
        for id in first..first + CALLS {
            let reply = &replies[&id];
            let (tool, expected) = plan(id);
            let text = reply["result"]["content"][0]["text"]
                .as_str()
                .unwrap_or_default();
            assert!(text.starts_with(expected), "call {id} to {tool}: {reply}");
            assert_eq!(reply["result"]["isError"], tool != "add", "{reply}");
            answered += 1;
        }
    }
    assert_eq!(answered, SESSIONS * CALLS);
    // The server serves a new session as before.
    let mut late = RawClient::start(server).await;
    late.add(1).await;
}
