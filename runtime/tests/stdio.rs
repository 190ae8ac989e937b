//! The line transport answers what `rmcp` alone leaves unanswered: a line that is not
//! JSON, an over-long line, a reply that lost its id. The session goes on after each.

use mcp_tool::{Server, mcp_tool};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines};

/// Adds two integers and returns their sum.
#[mcp_tool]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

struct RawClient {
    to_server: DuplexStream,
    from_server: Lines<BufReader<DuplexStream>>,
}

impl RawClient {
    async fn start() -> Self {
        let (to_server, server_input) = tokio::io::duplex(1 << 20);
        let (server_output, from_server) = tokio::io::duplex(1 << 20);
        let server = Server::from_registry("stdio", "1").build().unwrap();
        tokio::spawn(server.serve_lines(server_input, server_output));
        let mut client = Self {
            to_server,
            from_server: BufReader::new(from_server).lines(),
        };
        client
            .send(
                &json!({
                    "jsonrpc": "2.0", "id": 0, "method": "initialize",
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
        assert_eq!(init["id"], 0, "{init}");
        client
            .send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
            .await;
        client
    }

    async fn send(&mut self, line: &str) {
        self.to_server.write_all(line.as_bytes()).await.unwrap();
        self.to_server.write_all(b"\n").await.unwrap();
    }

    async fn receive(&mut self) -> Value {
        let line = tokio::time::timeout(
            std::time::Duration::from_secs(10),
            self.from_server.next_line(),
        )
        .await
        .expect("a reply within 10 s")
        .unwrap()
        .expect("the server is still there");
        serde_json::from_str(&line).unwrap()
    }

    async fn add(&mut self, id: u64) {
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
    let mut client = RawClient::start().await;
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
    let mut client = RawClient::start().await;
    client.send(r#"{"hello":"world"}"#).await;
    let reply = client.receive().await;
    assert_eq!(reply.get("id"), Some(&Value::Null), "{reply}");
    assert_eq!(reply["error"]["code"], -32600, "{reply}");
    let message = reply["error"]["message"].as_str().unwrap();
    assert!(message.contains(r#""jsonrpc": "2.0""#), "{message}");
    client.add(11).await;
}

#[tokio::test]
async fn a_request_with_malformed_params_is_answered_with_its_id() {
    let mut client = RawClient::start().await;
    client
        .send(r#"{"jsonrpc":"2.0","id":9,"method":"ping","params":[1,2]}"#)
        .await;
    let reply = client.receive().await;
    assert_eq!(reply["id"], 9, "{reply}");
    assert_eq!(reply["error"]["code"], -32600, "{reply}");
    let message = reply["error"]["message"].as_str().unwrap();
    assert!(message.contains("`params` of `ping`"), "{message}");
    client.add(12).await;
}

#[tokio::test]
async fn an_over_long_line_is_refused_and_skipped() {
    let mut client = RawClient::start().await;
    let huge = format!(
        r#"{{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{{"name":"add","arguments":{{"a":"{}"}}}}}}"#,
        "x".repeat(17 * 1024 * 1024)
    );
    client.send(&huge).await;
    let reply = client.receive().await;
    assert_error(&reply, -32600);
    client.add(12).await;
}

#[tokio::test]
async fn blank_lines_are_ignored() {
    let mut client = RawClient::start().await;
    client.send("").await;
    client.send("   ").await;
    client.add(13).await;
}

#[tokio::test]
async fn json_that_serde_refuses_is_answered_too() {
    let mut client = RawClient::start().await;
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
    let mut client = RawClient::start().await;
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
    let mut client = RawClient::start().await;
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
