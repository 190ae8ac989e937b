//! Stateless `tools/call` requests answered without `rmcp`'s service for one request get
//! the very responses `rmcp` gives: every request of a corpus is sent twice, once as a
//! client sends it, answered directly, and once with an `Origin` header (which a server
//! without allowed origins ignores, and which sends the request through `rmcp`), and
//! the two responses are the same bytes. The log shows which path answered.

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

/// Reports progress: it takes a `Context`, so is never answered directly.
#[mcp_tool]
async fn tell(ctx: mcp_tool::Context) -> String {
    ctx.progress(1, 2).await;
    "told".to_owned()
}

const HEADERS: [(&str, &str); 3] = [
    ("content-type", "application/json"),
    ("accept", "application/json, text/event-stream"),
    ("mcp-protocol-version", "2025-11-25"),
];

/// The status, the content type and the body of a response.
async fn post(url: &str, body: &str, origin: bool) -> (u16, String, String) {
    let mut request = http::Request::post(url);
    for (name, value) in HEADERS {
        request = request.header(name, value);
    }
    if origin {
        request = request.header("origin", "http://127.0.0.1");
    }
    let client = Client::builder(TokioExecutor::new()).build_http();
    let request = request
        .body(Full::new(Bytes::from(body.to_owned())))
        .unwrap();
    let response = client.request(request).await.expect("the server answers");
    let status = response.status().as_u16();
    let content_type = (response.headers().get("content-type"))
        .map(|value| value.to_str().unwrap().to_owned())
        .unwrap_or_default();
    let body = response.into_body().collect().await.unwrap().to_bytes();
    (
        status,
        content_type,
        String::from_utf8(body.to_vec()).unwrap(),
    )
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
    // Whitespace and key order as other clients write them.
    corpus.push(
        "{ \"params\" : {\"arguments\":{\"b\":1,\"a\":1},\"name\":\"add\"}, \"method\":\"tools/call\",\n \"id\":14, \"jsonrpc\":\"2.0\" }"
            .to_owned(),
    );
    corpus
}

/// Requests `rmcp` answers even without an `Origin`: a tool with a `Context`, a request
/// with its own protocol version, a method spelt with an escape, and messages that are no
/// `tools/call`.
fn rmcp_corpus() -> Vec<String> {
    vec![
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
    for (sent, body) in direct.iter().enumerate() {
        let through_rmcp = post(&url, body, true).await;
        assert_eq!(
            answered_directly(),
            sent,
            "with an Origin header, rmcp answers {body}"
        );
        let directly = post(&url, body, false).await;
        assert_eq!(answered_directly(), sent + 1, "answered directly: {body}");
        assert_eq!(directly, through_rmcp, "the same response to {body}");
        assert_eq!(directly.0, 200, "{body}: {directly:?}");
    }
    for body in rmcp_corpus() {
        let through_rmcp = post(&url, &body, true).await;
        let without_origin = post(&url, &body, false).await;
        assert_eq!(without_origin, through_rmcp, "the same response to {body}");
        assert_eq!(answered_directly(), direct.len(), "rmcp answers {body}");
    }
    // What was masked stays masked on this path too.
    let text = log.text();
    assert!(
        !text.contains("hunter2") && !text.contains("sk-live-0123456789abcdef"),
        "{text}"
    );
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
    let (status, _, reply) = post(&running.url(), &body, false).await;
    // No session: rmcp refuses it, as before.
    assert_eq!(status, 400, "{reply}");
    assert!(!log.text().contains("answered directly"), "{}", log.text());
    running.stop().await;
}
