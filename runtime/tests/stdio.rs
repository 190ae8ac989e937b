//! The line transport answers what `rmcp` alone leaves unanswered: a line that is not
//! JSON, an over-long line, a reply that lost its id. The session goes on after each.
//! A call's notifications are written before its reply.

mod common;

use common::RawClient;
use mcp_tool::mcp_tool;
use serde_json::{Value, json};
use tokio::io::AsyncWriteExt;

/// Adds two integers and returns their sum.
#[mcp_tool]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

fn assert_error(reply: &Value, code: i64) {
    assert_eq!(reply["jsonrpc"], "2.0", "{reply}");
    assert_eq!(
        reply.get("id"),
        Some(&Value::Null),
        "the id must be present and null: {reply}"
    );
    assert_eq!(reply["error"]["code"], code, "{reply}");
}

#[tokio::test]
async fn a_line_that_is_not_json_gets_a_parse_error_and_the_session_goes_on() {
    let mut client = RawClient::start(common::server()).await;
    for line in [
        "this is not json",
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":NaN,"b":1}}}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"add","arguments":{"a":-Infinity}}}"#,
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/list""#,
    ] {
        client.send(line).await;
        let reply = client.receive().await;
        assert_error(&reply, -32700);
        let message = reply["error"]["message"].as_str().unwrap();
        assert!(
            message.starts_with("Parse error: the message is not valid JSON"),
            "{message}"
        );
        client.add(10).await;
    }
}

#[tokio::test]
async fn a_message_that_is_not_a_request_gets_an_error_with_a_null_id() {
    let mut client = RawClient::start(common::server()).await;
    client.send(r#"{"hello":"world"}"#).await;
    let reply = client.receive().await;
    assert_error(&reply, -32600);
    assert_eq!(
        reply["error"]["message"],
        r#"Invalid request: a message needs `"jsonrpc": "2.0"`"#
    );
    client.add(11).await;
}

#[tokio::test]
async fn a_request_with_malformed_params_is_answered_with_its_id() {
    let mut client = RawClient::start(common::server()).await;
    client
        .send(r#"{"jsonrpc":"2.0","id":9,"method":"ping","params":[1,2]}"#)
        .await;
    let reply = client.receive().await;
    assert_eq!(reply["id"], 9, "{reply}");
    assert_eq!(reply["error"]["code"], -32602, "{reply}");
    assert_eq!(
        reply["error"]["message"],
        "Invalid params: `ping` needs an object with the fields the MCP specification gives them"
    );
    client.add(12).await;
}

#[tokio::test]
async fn an_over_long_line_is_refused_and_skipped() {
    let mut client = RawClient::start(common::server()).await;
    let huge = format!(
        r#"{{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{{"name":"add","arguments":{{"a":"{}"}}}}}}"#,
        "x".repeat(17 * 1024 * 1024)
    );
    client.send(&huge).await;
    let reply = client.receive().await;
    assert_error(&reply, -32600);
    assert_eq!(
        reply["error"]["message"],
        "Invalid request: the message is longer than 4194304 bytes"
    );
    client.add(12).await;
}

#[tokio::test]
async fn blank_lines_are_ignored() {
    let mut client = RawClient::start(common::server()).await;
    client.send("").await;
    client.send("   ").await;
    client.add(13).await;
}

#[tokio::test]
async fn json_that_serde_refuses_is_answered_too() {
    let mut client = RawClient::start(common::server()).await;
    let deep = format!(
        r#"{{"jsonrpc":"2.0","id":20,"method":"tools/call","params":{{"name":"add","arguments":{{"a":{}1{}}}}}}}"#,
        "[".repeat(200),
        "]".repeat(200)
    );
    let lines: Vec<Vec<u8>> = vec![
        deep.into_bytes(),
        br#"{"jsonrpc":"2.0","id":21,"method":"tools/call","params":{"name":"add","arguments":{"a":1e400,"b":1}}}"#.to_vec(),
        br#"{"jsonrpc":"2.0","id":22,"method":"tools/call","params":{"name":"\ud800","arguments":{}}}"#.to_vec(),
        b"{\"jsonrpc\":\"2.0\",\"id\":23,\"method\":\"tools/call\",\"params\":{\"name\":\"\xff\xfe\",\"arguments\":{}}}".to_vec(),
    ];
    for line in lines {
        client.to_server.write_all(&line).await.unwrap();
        client.to_server.write_all(b"\n").await.unwrap();
        let reply = client.receive().await;
        assert_error(&reply, -32700);
        client.add(24).await;
    }
}

#[tokio::test]
async fn an_unknown_notification_gets_no_reply() {
    let mut client = RawClient::start(common::server()).await;
    client
        .send(r#"{"jsonrpc":"2.0","method":"$/lsp-style","params":{"x":1}}"#)
        .await;
    client
        .send(r#"{"jsonrpc":"2.0","method":"notifications/made-up"}"#)
        .await;
    // The next line read is the reply to this call, not to either notification.
    client.add(25).await;
}

#[tokio::test]
async fn a_line_with_a_byte_order_mark_or_a_carriage_return_is_read() {
    let mut client = RawClient::start(common::server()).await;
    let call = json!({
        "jsonrpc": "2.0", "id": 26, "method": "tools/call",
        "params": { "name": "add", "arguments": { "a": 1, "b": 1 } }
    })
    .to_string();
    client.send(&format!("\u{feff}{call}\r")).await;
    let reply = client.receive().await;
    assert_eq!(reply["id"], 26, "{reply}");
    assert_eq!(reply["result"]["structuredContent"], json!({ "result": 2 }));
}

/// Reports progress twice and logs a message holding a credential, then answers.
#[mcp_tool]
async fn reporter(ctx: mcp_tool::Context) -> String {
    ctx.progress(1, 2).await;
    ctx.info("connecting with password=hunter2").await;
    ctx.progress_with_message(2, 2, "done").await;
    "reported".into()
}

#[tokio::test]
async fn notifications_are_written_in_order_before_the_reply_as_json_rpc_lines() {
    let mut client = RawClient::start(common::server()).await;
    client
        .send(r#"{"jsonrpc":"2.0","id":"lvl","method":"logging/setLevel","params":{"level":"debug"}}"#)
        .await;
    assert_eq!(client.receive().await["id"], "lvl");
    client
        .send(
            &json!({
                "jsonrpc": "2.0", "id": 9, "method": "tools/call",
                "params": { "name": "reporter", "arguments": {}, "_meta": { "progressToken": "p-1" } }
            })
            .to_string(),
        )
        .await;
    let mut seen = Vec::new();
    for _ in 0..4 {
        seen.push(client.receive().await);
    }
    assert_eq!(
        seen[0],
        json!({ "jsonrpc": "2.0", "method": "notifications/progress",
                "params": { "progressToken": "p-1", "progress": 1.0, "total": 2.0 } })
    );
    assert_eq!(seen[1]["method"], "notifications/message", "{}", seen[1]);
    assert_eq!(seen[1]["params"]["level"], "info");
    assert_eq!(seen[1]["params"]["logger"], "reporter");
    let text = seen[1]["params"]["data"].as_str().unwrap();
    assert!(!text.contains("hunter2"), "{text}");
    assert_eq!(
        seen[2]["params"],
        json!({ "progressToken": "p-1", "progress": 2.0, "total": 2.0, "message": "done" })
    );
    assert_eq!(seen[3]["id"], 9, "the reply comes last: {seen:?}");
    assert_eq!(seen[3]["result"]["content"][0]["text"], "reported");
    client.ping().await;
}
