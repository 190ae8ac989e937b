//! Stateless `tools/call` requests answered without `rmcp`'s service for one request get
//! the very responses `rmcp` gives: every request of a corpus is sent twice, once as a
//! client sends it, answered directly, and once with an `Origin` header (one the server
//! allows, which sends the request through `rmcp`), and the two responses are the same:
//! status, headers but the date, and body bytes. The log shows which path answered.

#![cfg(feature = "http")]

mod common;

use bytes::Bytes;
use common::http::Running;
use common::log::Captured;
use http_body_util::{BodyExt as _, Full};
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use mcp_tool::{Server, ToolError, mcp_tool};
use serde_json::{Value, json};

/// Adds two integers and returns their sum.
#[mcp_tool]
fn add(a: i64, b: i64) -> i64 {
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
fn explode() -> String {
    panic!("exploded with api_key=sk-live-0123456789abcdef")
}

/// Says how many words it was given, in a structured reply.
#[mcp_tool]
fn count(words: Vec<String>, #[arg(range(min = 0, max = 3))] limit: Option<u8>) -> Value {
    json!({ "words": words.len(), "limit": limit })
}

/// Gives back what it was given: structured content that need not be an object.
#[mcp_tool]
fn echo(value: Value) -> Value {
    value
}

/// Reports progress: it takes a `Context`, so is never answered directly.
#[mcp_tool]
async fn tell(ctx: mcp_tool::Context) -> String {
    ctx.progress(1, 2).await;
    "told".to_owned()
}

/// A response: its status, its headers but `date`, and its body.
type Response = (u16, Vec<(String, String)>, String);

/// Sends `body` as a client on protocol `version` does (with no `MCP-Protocol-Version`
/// header for `None`), and with an `Origin` header if `origin`.
async fn post(url: &str, body: &[u8], version: Option<&str>, origin: bool) -> Response {
    let mut request = http::Request::post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream");
    if let Some(version) = version {
        request = request.header("mcp-protocol-version", version);
    }
    if origin {
        request = request.header("origin", "http://127.0.0.1");
    }
    let client = Client::builder(TokioExecutor::new()).build_http();
    let request = request.body(Full::new(Bytes::from(body.to_vec()))).unwrap();
    let response = client.request(request).await.expect("the server answers");
    let status = response.status().as_u16();
    let headers = (response.headers().iter())
        .filter(|(name, _)| *name != "date")
        .map(|(name, value)| (name.to_string(), value.to_str().unwrap().to_owned()))
        .collect();
    let body = response.into_body().collect().await.unwrap().to_bytes();
    (status, headers, String::from_utf8_lossy(&body).into_owned())
}

fn call(id: Value, params: Value) -> String {
    json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params }).to_string()
}

/// Requests answered directly: each tool without a `Context`, with good and bad
/// arguments, an unknown tool, ids of each kind, and `_meta` without a protocol version.
fn direct_corpus() -> Vec<String> {
    let mut corpus = vec![
        call(
            json!(1),
            json!({ "name": "add", "arguments": { "a": 2, "b": 3 } }),
        ),
        call(
            json!("a-string-id"),
            json!({ "name": "add", "arguments": { "a": -7, "b": 7 } }),
        ),
        call(
            json!(0),
            json!({ "name": "add", "arguments": { "a": 9_223_372_036_854_775_807_i64, "b": 1 } }),
        ),
        call(json!(2), json!({ "name": "add", "arguments": { "a": 2 } })),
        call(
            json!(3),
            json!({ "name": "add", "arguments": { "a": "two", "b": 3.5 } }),
        ),
        call(
            json!(4),
            json!({ "name": "add", "arguments": { "a": 1, "b": 2, "c": 3 } }),
        ),
        call(json!(5), json!({ "name": "add" })),
        call(
            json!(6),
            json!({ "name": "add", "arguments": { "a": 1, "b": 2 }, "_meta": { "progressToken": 7 } }),
        ),
        call(
            json!(7),
            json!({ "name": "adx", "arguments": { "a": 1, "b": 2 } }),
        ),
        call(
            json!(8),
            json!({ "name": "leak", "arguments": { "to": "db.internal" } }),
        ),
        call(json!(9), json!({ "name": "explode", "arguments": {} })),
        call(
            json!(10),
            json!({ "name": "count", "arguments": { "words": ["a", "é", "🦀"] } }),
        ),
        call(
            json!(11),
            json!({ "name": "count", "arguments": { "words": [], "limit": 4 } }),
        ),
        call(
            json!(12),
            json!({ "name": "count", "arguments": { "words": "not a list" } }),
        ),
        call(
            json!(-13),
            json!({ "name": "count", "arguments": { "words": ["x"], "limit": 3 } }),
        ),
    ];
    for value in [
        json!([1, 2]),
        json!("text"),
        json!(null),
        json!({ "an": "object" }),
    ] {
        corpus.push(call(
            json!(15),
            json!({ "name": "echo", "arguments": { "value": value } }),
        ));
    }
    // Whitespace and key order as other clients write them.
    corpus.push(
        "{ \"params\" : {\"arguments\":{\"b\":1,\"a\":1},\"name\":\"add\"}, \"method\":\"tools/call\",\n \"id\":14, \"jsonrpc\":\"2.0\" }"
            .to_owned(),
    );
    corpus
}

/// Requests `rmcp` answers even without an `Origin`: a tool with a `Context`, a request
/// with its own protocol version, a method spelt with an escape, a body that begins with
/// a byte order mark, and messages that are no `tools/call`.
fn rmcp_corpus() -> Vec<String> {
    vec![
        "\u{feff}".to_owned() + &call(json!(18), json!({ "name": "add", "arguments": { "a": 1, "b": 2 } })),
        r#"{"jsonrpc":"2.0","id":19,"method":"tools\/call","params":{"name":"add","arguments":{"a":1,"b":2}}}"#.to_owned(),
        call(json!(20), json!({ "name": "tell", "arguments": {} })),
        call(
            json!(21),
            json!({ "name": "add", "arguments": { "a": 1, "b": 2 },
                    "_meta": { "io.modelcontextprotocol/protocolVersion": "2025-11-25" } }),
        ),
        json!({ "jsonrpc": "2.0", "id": 22, "method": "tools/list" }).to_string(),
        json!({ "jsonrpc": "2.0", "id": 23, "method": "ping" }).to_string(),
        json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }).to_string(),
        "{\"jsonrpc\":\"2.0\",\"id\":24,\"method\":\"tools/call\",\"params\":{\"name\":".to_owned(),
        json!({ "jsonrpc": "2.0", "id": 25, "method": "tools/call", "params": { "arguments": {} } }).to_string(),
    ]
}

#[tokio::test]
async fn a_stateless_call_answered_directly_gets_the_response_rmcp_gives() {
    let log = Captured::default();
    let _guard = log.install("mcp_tool=trace");
    let server = Server::from_registry("http-direct", "1").stateless(true);
    let running = Running::start(server.build().unwrap()).await;
    let url = running.url();
    let answered_directly = || log.text().matches("answered directly").count();
    let direct = direct_corpus();
    let mut sent = 0;
    for version in [Some("2025-11-25"), None, Some("2024-11-05")] {
        for body in &direct {
            let through_rmcp = post(&url, body.as_bytes(), version, true).await;
            let said = format!("{body} on {version:?}");
            assert_eq!(
                answered_directly(),
                sent,
                "with an Origin, rmcp answers {said}"
            );
            let directly = post(&url, body.as_bytes(), version, false).await;
            sent += 1;
            assert_eq!(answered_directly(), sent, "answered directly: {said}");
            assert_eq!(directly, through_rmcp, "the same response to {said}");
            assert_eq!(directly.0, 200, "{said}: {directly:?}");
            // What a tool's error or panic held is masked on this path too.
            for secret in ["hunter2", "sk-live-0123456789abcdef"] {
                assert!(!directly.2.contains(secret), "{said}: {directly:?}");
            }
        }
    }
    for body in rmcp_corpus() {
        let version = Some("2025-11-25");
        let through_rmcp = post(&url, body.as_bytes(), version, true).await;
        let without_origin = post(&url, body.as_bytes(), version, false).await;
        assert_eq!(without_origin, through_rmcp, "the same response to {body}");
        assert_eq!(answered_directly(), sent, "rmcp answers {body}");
    }
    // A version with requests of their own lifecycle goes to rmcp.
    let body = call(
        json!(30),
        json!({ "name": "add", "arguments": { "a": 1, "b": 2 } }),
    );
    post(&url, body.as_bytes(), Some("2026-07-28"), false).await;
    assert_eq!(answered_directly(), sent, "rmcp answers 2026-07-28");
    running.stop().await;
}

#[tokio::test]
async fn a_server_with_sessions_answers_no_call_directly() {
    let log = Captured::default();
    let _guard = log.install("mcp_tool=trace");
    let running = Running::start(Server::from_registry("http-direct", "1").build().unwrap()).await;
    let body = call(
        json!(1),
        json!({ "name": "add", "arguments": { "a": 2, "b": 3 } }),
    );
    let (status, _, reply) = post(&running.url(), body.as_bytes(), Some("2025-11-25"), false).await;
    // No session: rmcp refuses it, as before.
    assert_eq!(status, 400, "{reply}");
    assert!(!log.text().contains("answered directly"), "{}", log.text());
    running.stop().await;
}
