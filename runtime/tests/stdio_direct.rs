//! `tools/call` requests answered by the line transport as it reads them, without
//! `rmcp`'s service loop, get the bytes `rmcp` gives: every request of a corpus is sent
//! to the server over `serve_lines` and to the same server served by `rmcp`'s own loop
//! and transport, and the two replies are the same line. The log shows which calls the
//! line transport answered. A call that waits runs beside the requests read after it,
//! whether it waits on the blocking pool or in an `async fn`; the client can cancel it,
//! and the end of the input waits for it.

mod common;

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use common::RawClient;
use common::log::Captured;
use mcp_tool::{Context, ToolError, mcp_tool};
use serde_json::{Value, json};

/// Adds two integers and returns their sum.
#[mcp_tool]
async fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// Adds two integers on the blocking pool.
#[mcp_tool]
fn add_sync(a: i64, b: i64) -> i64 {
    a + b
}

/// Fails with a message that holds a secret.
#[mcp_tool]
async fn leak(to: String) -> Result<String, ToolError> {
    Err(ToolError::new(format!(
        "could not reach {to} with password=hunter2"
    )))
}

/// Panics.
#[mcp_tool]
async fn boom() -> String {
    panic!("token=sk-live-0123456789abcdef")
}

/// A list, not an object: structured content before 2026-07-28 is moved into the text.
#[mcp_tool]
async fn names() -> Vec<String> {
    vec!["a".to_owned(), "b".to_owned()]
}

/// Text, with no structured content.
#[mcp_tool]
async fn greet(name: String) -> String {
    format!("hello {name}")
}

/// Sleeps, then answers.
#[mcp_tool]
async fn slow(millis: u64) -> u64 {
    tokio::time::sleep(Duration::from_millis(millis)).await;
    millis
}

/// Blocks its thread, then answers.
#[mcp_tool]
fn block(millis: u64) -> u64 {
    std::thread::sleep(Duration::from_millis(millis));
    millis
}

static TICKS: AtomicU64 = AtomicU64::new(0);

/// Ticks until it is cancelled.
#[mcp_tool]
async fn ticker() -> u64 {
    loop {
        TICKS.fetch_add(1, Ordering::SeqCst);
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

/// Takes a `Context`: its calls go to `rmcp`.
#[mcp_tool]
async fn with_context(ctx: Context, a: i64) -> i64 {
    let _ = ctx.is_cancelled();
    a
}

/// The requests compared, each with an id of its own.
fn corpus() -> Vec<Value> {
    let call = |id: Value, params: Value| json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params});
    vec![
        call(
            json!(1),
            json!({"name": "add", "arguments": {"a": 2, "b": 3}}),
        ),
        call(
            json!("two"),
            json!({"name": "add", "arguments": {"a": -7, "b": 3}}),
        ),
        call(json!(3), json!({"name": "add", "arguments": {"a": 2}})),
        call(
            json!(4),
            json!({"name": "add", "arguments": {"a": "2", "b": 3}}),
        ),
        call(
            json!(5),
            json!({"name": "add", "arguments": {"a": 2, "b": 3, "c": 1}}),
        ),
        call(json!(6), json!({"name": "add"})),
        call(
            json!(7),
            json!({"name": "add_sync", "arguments": {"a": 40, "b": 2}}),
        ),
        call(json!(8), json!({"name": "nope", "arguments": {}})),
        call(json!(9), json!({"name": "leak", "arguments": {"to": "db"}})),
        call(json!(10), json!({"name": "boom", "arguments": {}})),
        call(json!(11), json!({"name": "names", "arguments": {}})),
        call(
            json!(12),
            json!({"name": "greet", "arguments": {"name": "ada"}}),
        ),
        call(
            json!(13),
            json!({"name": "add", "arguments": {"a": 1, "b": 1}, "_meta": {"progressToken": 7}}),
        ),
        call(
            json!(14),
            json!({"name": "slow", "arguments": {"millis": 1}}),
        ),
        call(
            json!(15),
            json!({"name": "with_context", "arguments": {"a": 9}}),
        ),
        call(
            json!(16),
            json!({"name": "add", "arguments": {"a": 9_007_199_254_740_993_i64, "b": 0}}),
        ),
    ]
}

/// Sends each request of the corpus and reads its reply before the next.
async fn replies(client: &mut RawClient) -> Vec<String> {
    // Once the session answered a request, its `notifications/initialized` was handled:
    // the calls after it are answered by the line transport.
    client.ping().await;
    let mut replies = Vec::new();
    for request in corpus() {
        client.send(&request.to_string()).await;
        let line = client.next_line().await.expect("a reply");
        let reply: Value = serde_json::from_str(&line).unwrap();
        assert_eq!(reply["id"], request["id"], "{line}");
        replies.push(line);
    }
    replies
}

#[tokio::test(flavor = "current_thread")]
async fn calls_answered_by_the_line_transport_get_rmcps_bytes() {
    let log = Captured::default();
    let _log = log.install("mcp_tool=trace");
    let mut direct = RawClient::start(common::server()).await;
    let ours = replies(&mut direct).await;
    let answered_here = log.text().matches("answered by the line transport").count();

    let mut through_rmcp = RawClient::connect_through_rmcp(common::server());
    through_rmcp.initialize(0).await;
    let rmcps = replies(&mut through_rmcp).await;

    for ((ours, rmcps), request) in ours.iter().zip(&rmcps).zip(corpus()) {
        assert_eq!(ours, rmcps, "the replies to {request} differ");
    }
    // Every call but the one of a tool that takes a `Context` was answered directly.
    assert_eq!(answered_here, corpus().len() - 1, "{}", log.text());
    let secrets = ours
        .iter()
        .filter(|line| line.contains("hunter2") || line.contains("sk-live"));
    assert_eq!(secrets.count(), 0, "{ours:?}");
}

/// The reply to `id`, among those read, and whether it came before the reply to `other`.
async fn order_of_replies(client: &mut RawClient, first: u64, then: u64) -> Vec<u64> {
    let mut order = Vec::new();
    while order.len() < 2 {
        let reply = client.receive().await;
        let id = reply["id"].as_u64().expect("a reply to a call");
        assert!(reply["result"].is_object(), "{reply}");
        assert!(id == first || id == then, "{reply}");
        order.push(id);
    }
    order
}

#[tokio::test]
async fn a_call_that_waits_runs_beside_the_calls_read_after_it() {
    let mut client = RawClient::start(common::server()).await;
    for tool in ["slow", "block"] {
        let waits = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": tool, "arguments": {"millis": 400}}});
        client.send(&waits.to_string()).await;
        let quick = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "add", "arguments": {"a": 1, "b": 2}}});
        client.send(&quick.to_string()).await;
        assert_eq!(
            order_of_replies(&mut client, 1, 2).await,
            [2, 1],
            "the call read after `{tool}` waited for it"
        );
    }
}

#[tokio::test]
async fn a_cancelled_call_stops_and_gets_no_reply() {
    let mut client = RawClient::start(common::server()).await;
    let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "ticker", "arguments": {}}});
    client.send(&call.to_string()).await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(TICKS.load(Ordering::SeqCst) > 0, "the call never ran");
    let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": 1, "reason": "enough"}});
    client.send(&cancel.to_string()).await;
    tokio::time::sleep(Duration::from_millis(50)).await;
    let after_cancel = TICKS.load(Ordering::SeqCst);
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(
        TICKS.load(Ordering::SeqCst),
        after_cancel,
        "the tool's future still runs after its cancellation"
    );
    // The session goes on, and the next reply is the ping's: the cancelled call got none.
    client.ping().await;
    client.add(2).await;
}

#[tokio::test]
async fn the_end_of_the_input_waits_for_a_call_that_waits() {
    let mut client = RawClient::start(common::server()).await;
    let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "slow", "arguments": {"millis": 200}}});
    client.send(&call.to_string()).await;
    client.close_input();
    let reply = client.receive().await;
    assert_eq!(reply["id"], 1, "{reply}");
    assert_eq!(
        reply["result"]["structuredContent"]["result"], 200,
        "{reply}"
    );
    assert_eq!(
        client.next_line().await,
        None,
        "the session ends after the reply"
    );
}
