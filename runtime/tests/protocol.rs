//! Every malformed message gets exactly one JSON-RPC error reply, with the request's
//! `id` where it can be read and `null` where it cannot, and the session goes on: each
//! case sends raw bytes, compares the exact reply, then pings. Also: a second
//! `initialize`, the message size limit, and the end of the input while calls run; and
//! the methods protocol 2026-07-28 removed.

mod common;

use std::time::Duration;

use common::RawClient;
use mcp_tool::{Server, mcp_tool};
use serde_json::{Value, json};

/// Adds two integers and returns their sum.
#[mcp_tool]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// Sleeps for the given number of milliseconds, then says so.
#[mcp_tool]
async fn nap(
    /// How long to sleep.
    millis: u64,
) -> String {
    tokio::time::sleep(Duration::from_millis(millis)).await;
    format!("slept {millis} ms")
}

fn error(id: Value, code: i64, message: &str) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } })
}

const TOOLS_CALL_PARAMS: &str = "Invalid params: `tools/call` needs `params.name`, the tool's name as a string, and optionally `params.arguments`, an object";

/// (what is sent, the exact reply)
fn cases() -> Vec<(&'static str, Value)> {
    vec![
        (
            r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#,
            error(
                Value::Null,
                -32600,
                "Invalid request: a batch (a JSON array of messages) is not part of MCP; send one message at a time",
            ),
        ),
        (
            r#"{"jsonrpc":"1.0","id":2,"method":"ping"}"#,
            error(
                json!(2),
                -32600,
                r#"Invalid request: a message needs `"jsonrpc": "2.0"`"#,
            ),
        ),
        (
            r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#,
            error(
                Value::Null,
                -32600,
                "Invalid request: `id` must be a string or an integer (not null)",
            ),
        ),
        (
            r#"{"jsonrpc":"2.0","id":true,"method":"ping"}"#,
            error(
                Value::Null,
                -32600,
                "Invalid request: `id` must be a string or an integer (not null)",
            ),
        ),
        (
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{}}"#,
            error(json!(3), -32602, TOOLS_CALL_PARAMS),
        ),
        (
            r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":7}}"#,
            error(json!(4), -32602, TOOLS_CALL_PARAMS),
        ),
        (
            r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"add","arguments":[1]}}"#,
            error(json!(5), -32602, TOOLS_CALL_PARAMS),
        ),
        (
            r#"{"jsonrpc":"2.0","id":"six","method":"tools/call","params":[1,2]}"#,
            error(json!("six"), -32602, TOOLS_CALL_PARAMS),
        ),
        (
            r#"{"jsonrpc":"2.0","id":7,"method":"initialize","params":{"protocolVersion":null,"capabilities":{},"clientInfo":{"name":"x","version":"1"}}}"#,
            error(
                json!(7),
                -32602,
                "Invalid params: `initialize` needs `params.protocolVersion` (a string), `params.capabilities` (an object) and `params.clientInfo` (with `name` and `version`)",
            ),
        ),
        (
            r#"{"jsonrpc":"2.0","id":8,"method":"resources/read","params":{"uri":1}}"#,
            error(
                json!(8),
                -32602,
                "Invalid params: `resources/read` needs `params.uri`, a string",
            ),
        ),
        (
            r#"{"jsonrpc":"2.0","id":9,"params":{}}"#,
            error(
                json!(9),
                -32600,
                "Invalid request: a message needs a `method` (a request or a notification), or an `id` with a `result` or an `error` (a response)",
            ),
        ),
    ]
}

#[tokio::test]
async fn each_malformed_message_gets_one_exact_reply_and_the_session_goes_on() {
    let mut client = RawClient::start(common::server()).await;
    for (sent, expected) in cases() {
        client.send(sent).await;
        let reply = client.receive().await;
        assert_eq!(reply, expected, "sent {sent}");
        client.ping().await;
    }
    client.add(100).await;
}

#[tokio::test]
async fn an_unknown_method_is_method_not_found_with_its_id() {
    let mut client = RawClient::start(common::server()).await;
    for sent in [
        r#"{"jsonrpc":"2.0","id":11,"method":"no/such"}"#,
        r#"{"jsonrpc":"2.0","id":11,"method":"no/such","params":[1]}"#,
    ] {
        client.send(sent).await;
        assert_eq!(
            client.receive().await,
            error(json!(11), -32601, "Method not found: `no/such`"),
            "sent {sent}"
        );
        client.ping().await;
    }
}

/// The `_meta` every request of protocol 2026-07-28 carries.
fn meta_2026() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": { "name": "raw", "version": "1" },
        "io.modelcontextprotocol/clientCapabilities": {}
    })
}

#[tokio::test]
async fn a_method_that_protocol_2026_removed_is_method_not_found_on_a_request_of_it() {
    let (mut client, _session) = RawClient::connect(common::server());
    for (id, method) in [
        (21, "initialize"),
        (22, "logging/setLevel"),
        (23, "resources/subscribe"),
        (24, "resources/unsubscribe"),
    ] {
        let sent = json!({
            "jsonrpc": "2.0", "id": id, "method": method, "params": { "_meta": meta_2026() }
        });
        client.send(&sent.to_string()).await;
        let reply = client.receive().await;
        assert_eq!(
            reply,
            error(json!(id), -32601, &format!("Method not found: `{method}`")),
            "sent {sent}"
        );
    }
    // Sent as a request of an earlier protocol, the same shape is a request's bad params.
    client
        .send(r#"{"jsonrpc":"2.0","id":25,"method":"resources/subscribe","params":{}}"#)
        .await;
    assert_eq!(
        client.receive().await,
        error(
            json!(25),
            -32602,
            "Invalid params: `resources/subscribe` needs `params.uri`, a string"
        )
    );
}

#[tokio::test]
async fn a_malformed_notification_gets_no_reply() {
    let mut client = RawClient::start(common::server()).await;
    client
        .send(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":{}}}"#)
        .await;
    client
        .send(r#"{"jsonrpc":"2.0","method":"notifications/progress","params":7}"#)
        .await;
    // The next line is the ping's reply, not an error for either notification.
    client.ping().await;
}

#[tokio::test]
async fn a_second_initialize_is_refused_and_the_session_is_unchanged() {
    let mut client = RawClient::start(common::server()).await;
    client
        .send(r#"{"jsonrpc":"2.0","id":"tools","method":"tools/list"}"#)
        .await;
    let before = client.receive().await;
    client
        .send(
            &json!({
                "jsonrpc": "2.0", "id": 12, "method": "initialize",
                "params": {
                    "protocolVersion": "1999-01-01",
                    "capabilities": {},
                    "clientInfo": { "name": "again", "version": "2" }
                }
            })
            .to_string(),
        )
        .await;
    let reply = client.receive().await;
    assert_eq!(
        reply,
        error(
            json!(12),
            -32600,
            "Invalid request: this session is already initialized; a client sends `initialize` once, as its first request",
        )
    );
    client.ping().await;
    client
        .send(r#"{"jsonrpc":"2.0","id":"tools","method":"tools/list"}"#)
        .await;
    assert_eq!(client.receive().await, before);
    client.add(13).await;
}

#[tokio::test]
async fn a_message_over_the_size_limit_is_refused_before_it_is_held_whole() {
    let server = Server::from_registry("raw", "1")
        .max_message_size(1024)
        .build()
        .unwrap();
    let mut client = RawClient::start(server).await;
    let long = format!(
        r#"{{"jsonrpc":"2.0","id":14,"method":"tools/call","params":{{"name":"add","arguments":{{"a":1,"b":1,"pad":"{}"}}}}}}"#,
        "x".repeat(2000)
    );
    client.send(&long).await;
    assert_eq!(
        client.receive().await,
        error(
            Value::Null,
            -32600,
            "Invalid request: the message is longer than 1024 bytes"
        )
    );
    client.add(15).await;
}

#[tokio::test]
async fn the_default_size_limit_is_four_mebibytes() {
    let mut client = RawClient::start(common::server()).await;
    let pad = |bytes: usize| {
        format!(
            r#"{{"jsonrpc":"2.0","id":16,"method":"tools/call","params":{{"name":"nap","arguments":{{"millis":0,"pad":"{}"}}}}}}"#,
            "x".repeat(bytes)
        )
    };
    client.send(&pad(4 * 1024 * 1024)).await;
    assert_eq!(
        client.receive().await,
        error(
            Value::Null,
            -32600,
            "Invalid request: the message is longer than 4194304 bytes"
        )
    );
    client.send(&pad(4 * 1024 * 1024 - 200)).await;
    let served = client.receive().await;
    assert_eq!(served["id"], 16, "{served}");
    // Served, and refused by the tool for its unknown argument, whose name is quoted.
    assert_eq!(served["result"]["isError"], true, "{served}");
    assert_eq!(
        served["result"]["content"][0]["text"],
        "invalid arguments for tool `nap`: unknown argument `pad`"
    );
}

#[tokio::test]
async fn replies_to_calls_running_when_the_input_ends_are_still_written() {
    let (mut client, session) = RawClient::connect(common::server());
    client.initialize(0).await;
    // Longer than rmcp's own five-second wait for running calls at the end.
    client
        .send(r#"{"jsonrpc":"2.0","id":17,"method":"tools/call","params":{"name":"nap","arguments":{"millis":5500}}}"#)
        .await;
    client
        .send(r#"{"jsonrpc":"2.0","id":18,"method":"tools/call","params":{"name":"nap","arguments":{"millis":100}}}"#)
        .await;
    client.close_input();
    let mut replies = Vec::new();
    while let Some(line) = client.next_line().await {
        replies.push(serde_json::from_str::<Value>(&line).unwrap());
    }
    let ids: Vec<&Value> = replies.iter().map(|r| &r["id"]).collect();
    assert_eq!(ids, [&json!(18), &json!(17)], "{replies:?}");
    assert_eq!(replies[1]["result"]["content"][0]["text"], "slept 5500 ms");
    session.await.unwrap().unwrap();
}

#[tokio::test]
async fn calls_still_running_after_the_grace_period_end_without_a_reply() {
    let server = Server::from_registry("raw", "1")
        .shutdown_grace(Duration::from_millis(200))
        .build()
        .unwrap();
    let (mut client, session) = RawClient::connect(server);
    client.initialize(0).await;
    client
        .send(r#"{"jsonrpc":"2.0","id":19,"method":"tools/call","params":{"name":"nap","arguments":{"millis":60000}}}"#)
        .await;
    client.close_input();
    assert_eq!(client.next_line().await, None);
    tokio::time::timeout(Duration::from_secs(10), session)
        .await
        .expect("the session ends soon after the grace period")
        .unwrap()
        .unwrap();
}
