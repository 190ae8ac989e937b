//! Streamable HTTP, from the bytes a client sends: calls in both modes, what a malformed
//! or oversized body, a foreign `Host` or `Origin` and a wrong media type get, masking
//! and panics, a graceful shutdown that lets a running call finish, and the statuses of
//! protocol 2026-07-28's refusals.

#![cfg(feature = "http")]

mod common;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt as _, Full};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use mcp_tool::{Arguments, RuntimeTool, Server, ToolError, mcp_tool};
use serde_json::{Value, json};

/// Adds two integers and returns their sum.
#[mcp_tool]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// Fails with a message that carries a credential and a path.
#[mcp_tool]
async fn leak() -> Result<String, ToolError> {
    Err(ToolError::new(
        "connect to postgres://admin:hunter2@db.internal/x failed; see /home/alice/.pgpass",
    ))
}

/// Panics.
#[mcp_tool]
fn explode() -> String {
    panic!("could not open /home/alice/.ssh/id_rsa with password=hunter2")
}

/// Asks the client's model for a word.
#[mcp_tool]
async fn ask(ctx: mcp_tool::Context) -> Result<String, ToolError> {
    ctx.sample("Say one word.").await
}

/// Runs a query in a region, which gateways read from the `Mcp-Param-Region` header.
#[mcp_tool]
fn in_region(
    /// Where to run.
    #[arg(header = "Region")]
    region: String,
) -> String {
    format!("ran in {region}")
}

/// Sleeps for the given number of milliseconds, then says so.
#[mcp_tool]
async fn nap(ms: u64) -> String {
    tokio::time::sleep(Duration::from_millis(ms)).await;
    format!("slept {ms} ms")
}

static CANCELLED_CALL_DROPPED: AtomicBool = AtomicBool::new(false);
static ABANDONED_CALL_DROPPED: AtomicBool = AtomicBool::new(false);

/// Sets its flag when dropped: the tool's future was dropped before it ended.
struct SetOnDrop(&'static AtomicBool);

impl Drop for SetOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// Waits a minute, unless the client cancels the call first.
#[mcp_tool]
async fn wait_to_be_cancelled() -> String {
    let _dropped = SetOnDrop(&CANCELLED_CALL_DROPPED);
    tokio::time::sleep(Duration::from_secs(60)).await;
    std::mem::forget(_dropped);
    "not cancelled".into()
}

/// Waits a minute, unless the client goes away first.
#[mcp_tool]
async fn wait_to_be_abandoned() -> String {
    let _dropped = SetOnDrop(&ABANDONED_CALL_DROPPED);
    tokio::time::sleep(Duration::from_secs(60)).await;
    std::mem::forget(_dropped);
    "not abandoned".into()
}

async fn eventually(flag: &AtomicBool) -> bool {
    for _ in 0..100 {
        if flag.load(Ordering::SeqCst) {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    false
}

use common::http::Running;

async fn start(server: Server) -> Running {
    Running::start(server.build().expect("the server builds")).await
}

fn stateless() -> Server {
    Server::from_registry("http-test", "1").stateless(true)
}

fn client() -> Client<HttpConnector, Full<Bytes>> {
    Client::builder(TokioExecutor::new()).build_http()
}

struct Reply {
    status: u16,
    content_type: String,
    /// The `content-length` header, when the body was not sent chunked.
    content_length: Option<usize>,
    body: String,
}

impl Reply {
    async fn read<B: http_body::Body>(response: http::Response<B>) -> Self
    where
        B::Error: std::fmt::Debug,
    {
        let status = response.status().as_u16();
        let content_type = (response.headers().get("content-type"))
            .map(|v| v.to_str().unwrap().to_owned())
            .unwrap_or_default();
        let content_length = (response.headers().get("content-length"))
            .map(|v| v.to_str().unwrap().parse().unwrap());
        let body = response.into_body().collect().await.unwrap().to_bytes();
        Reply {
            status,
            content_type,
            content_length,
            body: String::from_utf8_lossy(&body).into_owned(),
        }
    }

    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: {}", self.body))
    }

    /// The one JSON-RPC message of a reply, whether sent as JSON or as an SSE event.
    fn message(&self) -> Value {
        if self.content_type.starts_with("text/event-stream") {
            let data: Vec<&str> = (self.body.lines())
                .filter_map(|line| line.strip_prefix("data: "))
                .filter(|data| !data.trim().is_empty())
                .collect();
            let last = data
                .last()
                .unwrap_or_else(|| panic!("no event: {}", self.body));
            serde_json::from_str(last).unwrap()
        } else {
            self.json()
        }
    }
}

async fn post_with(url: &str, body: impl Into<Bytes>, headers: &[(&str, &str)]) -> Reply {
    let mut request = http::Request::post(url);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = client()
        .request(request.body(Full::new(body.into())).unwrap())
        .await
        .expect("the server answers");
    Reply::read(response).await
}

const JSON: (&str, &str) = ("content-type", "application/json");
const ACCEPT: (&str, &str) = ("accept", "application/json, text/event-stream");

async fn post(url: &str, body: impl Into<Bytes>) -> Reply {
    post_with(url, body, &[JSON, ACCEPT]).await
}

async fn call(url: &str, id: u64, tool: &str, arguments: Value) -> Value {
    let request = json!({
        "jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": { "name": tool, "arguments": arguments }
    });
    let reply = post(url, request.to_string()).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    let message = reply.message();
    assert_eq!(message["id"], id, "{message}");
    message
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stateless_call_gets_its_result_as_json() {
    let server = start(stateless()).await;
    let reply = post(
        &server.url(),
        json!({
            "jsonrpc": "2.0", "id": 7, "method": "tools/call",
            "params": { "name": "add", "arguments": { "a": 2, "b": 3 } }
        })
        .to_string(),
    )
    .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.content_type, "application/json");
    // A JSON reply is sent whole, with its length, not chunked.
    assert_eq!(reply.content_length, Some(reply.body.len()));
    let message = reply.json();
    assert_eq!(
        message["result"]["structuredContent"],
        json!({ "result": 5 })
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_is_kept_between_requests() {
    let server = start(Server::from_registry("http-test", "1")).await;
    let initialize = json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": { "name": "raw", "version": "1" }
        }
    });
    let mut request = http::Request::post(server.url())
        .header(JSON.0, JSON.1)
        .header(ACCEPT.0, ACCEPT.1)
        .body(Full::new(Bytes::from(initialize.to_string())))
        .unwrap();
    let response = client().request(request).await.unwrap();
    assert_eq!(response.status(), 200);
    let session = response.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned();
    drop(response);
    let with_session = [
        JSON,
        ACCEPT,
        ("mcp-session-id", session.as_str()),
        ("mcp-protocol-version", "2025-11-25"),
    ];
    let initialized = json!({ "jsonrpc": "2.0", "method": "notifications/initialized" });
    let reply = post_with(&server.url(), initialized.to_string(), &with_session).await;
    assert_eq!(reply.status, 202, "{}", reply.body);
    let list = json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/list" });
    let reply = post_with(&server.url(), list.to_string(), &with_session).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    let mut names: Vec<String> = (reply.message()["result"]["tools"]
        .as_array()
        .unwrap()
        .iter())
    .map(|tool| tool["name"].as_str().unwrap().to_owned())
    .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "add",
            "ask",
            "explode",
            "in_region",
            "leak",
            "nap",
            "wait_to_be_abandoned",
            "wait_to_be_cancelled"
        ]
    );
    // Without the session's id, a request is refused, in JSON-RPC.
    request = http::Request::post(server.url())
        .header(JSON.0, JSON.1)
        .header(ACCEPT.0, ACCEPT.1)
        .header("mcp-session-id", "no-such-session")
        .header("mcp-protocol-version", "2025-11-25")
        .body(Full::new(Bytes::from(list.to_string())))
        .unwrap();
    let response = client().request(request).await.unwrap();
    assert_eq!(response.status(), 404);
    let body = response.into_body().collect().await.unwrap().to_bytes();
    let refusal: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(refusal["jsonrpc"], "2.0", "{refusal}");
    assert_eq!(
        refusal["error"],
        json!({ "code": -32600, "message": "Invalid request: Not Found: Session not found" })
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_that_is_not_a_message_gets_a_json_rpc_error_and_400() {
    let server = start(stateless()).await;
    let url = server.url();
    let cases = [
        ("not json", 400, -32700, Value::Null),
        (
            r#"{"jsonrpc":"2.0","id":1e400,"method":"ping"}"#,
            400,
            -32700,
            Value::Null,
        ),
        ("[1, 2]", 400, -32600, Value::Null),
        (
            r#"{"jsonrpc":"1.0","id":3,"method":"ping"}"#,
            400,
            -32600,
            json!(3),
        ),
        (
            r#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":[1,2]}"#,
            200,
            -32602,
            json!(9),
        ),
        (
            r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":5}}"#,
            200,
            -32602,
            json!(4),
        ),
    ];
    for (body, status, code, id) in cases {
        let reply = post(&url, body).await;
        assert_eq!(reply.status, status, "{body}: {}", reply.body);
        assert_eq!(reply.content_type, "application/json", "{body}");
        let message = reply.json();
        assert_eq!(message["jsonrpc"], "2.0", "{body}");
        assert_eq!(message["error"]["code"], code, "{body}: {message}");
        assert_eq!(message["id"], id, "{body}: {message}");
    }
    // A malformed notification is dropped, as JSON-RPC allows.
    let reply = post(
        &url,
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":5}"#,
    )
    .await;
    assert_eq!(reply.status, 202, "{}", reply.body);
    // And the server still serves.
    let message = call(&url, 10, "add", json!({ "a": 1, "b": 1 })).await;
    assert_eq!(message["result"]["structuredContent"]["result"], 2);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refusals_are_json_rpc_errors_with_their_status() {
    let server = start(stateless().max_message_size(1024)).await;
    let url = server.url();
    let ping = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;

    let too_big = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"ping","params":{{"pad":"{}"}}}}"#,
        "x".repeat(4096)
    );
    let reply = post(&url, too_big).await;
    assert_eq!(reply.status, 413, "{}", reply.body);
    let message = reply.json();
    assert_eq!(message["error"]["code"], -32600);
    assert_eq!(
        message["error"]["message"],
        "Invalid request: the message is longer than 1024 bytes"
    );

    let reply = post_with(&url, ping, &[("content-type", "text/plain"), ACCEPT]).await;
    assert_eq!(reply.status, 415, "{}", reply.body);
    assert_eq!(
        reply.json()["error"],
        json!({
            "code": -32600,
            "message": "Invalid request: Unsupported Media Type: Content-Type must be application/json"
        })
    );

    let reply = post_with(&url, ping, &[JSON, ("accept", "text/html")]).await;
    assert_eq!(reply.status, 406, "{}", reply.body);
    assert_eq!(
        reply.json()["error"],
        json!({
            "code": -32600,
            "message": "Invalid request: Not Acceptable: Client must accept both application/json and text/event-stream"
        })
    );

    // DNS rebinding: a page on another name that resolves to 127.0.0.1.
    let reply = post_with(&url, ping, &[JSON, ACCEPT, ("host", "attacker.example")]).await;
    assert_eq!(reply.status, 403, "{}", reply.body);
    assert_eq!(
        reply.json()["error"],
        json!({ "code": -32600, "message": "Invalid request: Forbidden: Host header is not allowed" })
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_method_that_protocol_2026_removed_gets_404_and_method_not_found() {
    let server = start(Server::from_registry("http-test", "1")).await;
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": { "name": "raw", "version": "1" },
        "io.modelcontextprotocol/clientCapabilities": {}
    });
    for method in [
        "initialize",
        "ping",
        "logging/setLevel",
        "resources/subscribe",
        "resources/unsubscribe",
    ] {
        let request = json!({
            "jsonrpc": "2.0", "id": 5, "method": method, "params": { "_meta": meta }
        });
        let headers = [
            JSON,
            ACCEPT,
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", method),
        ];
        let reply = post_with(&server.url(), request.to_string(), &headers).await;
        assert_eq!(reply.status, 404, "{method}: {}", reply.body);
        let message = reply.message();
        assert_eq!(message["id"], 5, "{message}");
        assert_eq!(message["error"]["code"], -32601, "{message}");
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_2026_call_that_needs_an_undeclared_capability_gets_400_and_missing_capability() {
    let server = start(Server::from_registry("http-test", "1")).await;
    let request = json!({
        "jsonrpc": "2.0", "id": 6, "method": "tools/call",
        "params": {
            "name": "ask", "arguments": {},
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientInfo": { "name": "raw", "version": "1" },
                "io.modelcontextprotocol/clientCapabilities": {}
            }
        }
    });
    let headers = [
        JSON,
        ACCEPT,
        ("mcp-protocol-version", "2026-07-28"),
        ("mcp-method", "tools/call"),
        ("mcp-name", "ask"),
    ];
    let reply = post_with(&server.url(), request.to_string(), &headers).await;
    assert_eq!(reply.status, 400, "{}", reply.body);
    let message = reply.message();
    assert_eq!(message["id"], 6, "{message}");
    assert_eq!(message["error"]["code"], -32021, "{message}");
    assert_eq!(
        message["error"]["data"]["requiredCapabilities"],
        json!({ "sampling": {} })
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn allowed_hosts_can_be_named_or_lifted() {
    let ping = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    let pong = json!({ "jsonrpc": "2.0", "id": 1, "result": {} });
    let server = start(stateless().allowed_hosts(["mcp.example.com"])).await;
    let reply = post_with(
        &server.url(),
        ping,
        &[JSON, ACCEPT, ("host", "mcp.example.com")],
    )
    .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.message(), pong);
    let reply = post_with(
        &server.url(),
        ping,
        &[JSON, ACCEPT, ("host", "other.example.com")],
    )
    .await;
    assert_eq!(reply.status, 403, "{}", reply.body);
    assert_eq!(reply.json()["error"]["code"], -32600, "{}", reply.body);
    server.stop().await;

    let server = start(stateless().allow_any_host()).await;
    let reply = post_with(
        &server.url(),
        ping,
        &[JSON, ACCEPT, ("host", "other.example.com")],
    )
    .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.message(), pong);
    server.stop().await;
}

/// Sends `initialize` with these extra headers; the reply and the session id it opened.
async fn initialize_with(url: &str, headers: &[(&str, &str)]) -> (Reply, Option<String>) {
    let initialize = json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": { "name": "raw", "version": "1" }
        }
    });
    let mut request = http::Request::post(url)
        .header(JSON.0, JSON.1)
        .header(ACCEPT.0, ACCEPT.1);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let request = request
        .body(Full::new(Bytes::from(initialize.to_string())))
        .unwrap();
    let response = client().request(request).await.expect("the server answers");
    let session =
        (response.headers().get("mcp-session-id")).map(|id| id.to_str().unwrap().to_owned());
    (Reply::read(response).await, session)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_foreign_origin_is_refused_and_opens_no_session() {
    let server = start(Server::from_registry("http-test", "1")).await;
    let url = server.url();
    for origin in [
        "http://evil.example.com",
        "https://localhost.evil.example.com",
        "null",
        "not an origin",
    ] {
        let (reply, session) = initialize_with(&url, &[("origin", origin)]).await;
        assert_eq!(reply.status, 403, "{origin}: {}", reply.body);
        assert_eq!(session, None, "{origin} opened a session");
        assert_eq!(reply.json()["error"]["code"], -32600, "{}", reply.body);
        let message = reply.json()["error"]["message"]
            .as_str()
            .unwrap()
            .to_owned();
        assert!(
            message.starts_with("Invalid request: Forbidden"),
            "{message}"
        );
    }
    // A page of the loopback interface, on any port and scheme, and a client that is no
    // browser (no `Origin`) are served.
    let port = server.address.port().to_string();
    let local = format!("http://localhost:{port}");
    for origin in [
        Some(local.as_str()),
        Some("http://127.0.0.1:3000"),
        Some("https://[::1]"),
        None,
    ] {
        let headers: Vec<(&str, &str)> = origin.map(|o| ("origin", o)).into_iter().collect();
        let (reply, session) = initialize_with(&url, &headers).await;
        assert_eq!(reply.status, 200, "{origin:?}: {}", reply.body);
        assert!(session.is_some(), "{origin:?} got no session");
        assert_eq!(reply.message()["id"], 1, "{}", reply.body);
        assert!(
            reply.message()["result"]["serverInfo"].is_object(),
            "{}",
            reply.body
        );
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn allowed_origins_can_be_named_or_lifted() {
    let ping = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    let pong = json!({ "jsonrpc": "2.0", "id": 1, "result": {} });
    let server = start(stateless().allowed_origins(["https://app.example.com"])).await;
    let from = |origin| [JSON, ACCEPT, ("origin", origin)];
    let reply = post_with(&server.url(), ping, &from("https://app.example.com")).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.message(), pong);
    // The list replaces the loopback default.
    let reply = post_with(&server.url(), ping, &from("http://localhost:8000")).await;
    assert_eq!(reply.status, 403, "{}", reply.body);
    let reply = post_with(&server.url(), ping, &from("https://app.example.com:8443")).await;
    assert_eq!(
        reply.status, 403,
        "another port is another origin: {}",
        reply.body
    );
    server.stop().await;

    let server = start(stateless().allowed_origins(Vec::<String>::new())).await;
    let reply = post_with(&server.url(), ping, &from("http://localhost:8000")).await;
    assert_eq!(
        reply.status, 403,
        "an empty list refuses every origin: {}",
        reply.body
    );
    let reply = post(&server.url(), ping).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    server.stop().await;

    let server = start(stateless().allow_any_origin()).await;
    let reply = post_with(&server.url(), ping, &from("http://evil.example.com")).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.message(), pong);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn errors_are_masked_and_panics_are_tool_errors_over_http() {
    let server = start(stateless()).await;
    let url = server.url();
    let failures = [
        (
            1,
            "leak",
            json!({}),
            "tool `leak` failed: connect to postgres://***@db.internal/x failed; see .pgpass",
        ),
        (
            2,
            "explode",
            json!({}),
            "tool `explode` failed: it panicked: could not open id_rsa with password=***",
        ),
        (
            3,
            "add",
            json!({ "a": "two", "b": 3, "c": 1 }),
            "invalid arguments for tool `add`: `a`: expected an integer; unknown argument `c`",
        ),
    ];
    for (id, tool, arguments, text) in failures {
        let message = call(&url, id, tool, arguments).await;
        let result = &message["result"];
        assert_eq!(result["isError"], true, "{message}");
        assert_eq!(
            result["content"],
            json!([{ "type": "text", "text": text }]),
            "{message}"
        );
    }

    let reply = post(
        &url,
        json!({ "jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": { "name": "ad" } })
            .to_string(),
    )
    .await;
    let message = reply.message();
    assert_eq!(message["id"], 4, "{message}");
    assert_eq!(
        message["error"],
        json!({
            "code": -32602,
            "message": "unknown tool `ad`; did you mean `add`?",
            "data": { "suggestions": ["add"] }
        })
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_shutdown_lets_the_running_call_finish_and_takes_no_new_one() {
    let server = start(stateless().shutdown_grace(Duration::from_secs(10))).await;
    let url = server.url();
    let running = tokio::spawn({
        let url = url.clone();
        async move { call(&url, 1, "nap", json!({ "ms": 500 })).await }
    });
    tokio::time::sleep(Duration::from_millis(150)).await;
    let address = server.address;
    let took = server.stop().await;
    let message = running.await.unwrap();
    assert_eq!(message["result"]["content"][0]["text"], "slept 500 ms");
    assert!(took < Duration::from_secs(5), "the shutdown took {took:?}");
    assert!(
        tokio::net::TcpStream::connect(address).await.is_err(),
        "no connection is taken after the shutdown"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_past_the_grace_period_does_not_hold_the_shutdown() {
    let server = start(stateless().shutdown_grace(Duration::from_millis(200))).await;
    let url = server.url();
    let running = tokio::spawn(async move {
        let request = json!({
            "jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": { "name": "nap", "arguments": { "ms": 30000 } }
        });
        post(&url, request.to_string()).await
    });
    tokio::time::sleep(Duration::from_millis(150)).await;
    let took = server.stop().await;
    assert!(took < Duration::from_secs(5), "the shutdown took {took:?}");
    running.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_call_stops_its_tool_over_http() {
    let server = start(Server::from_registry("http-test", "1")).await;
    let url = server.url();
    let initialize = json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": { "name": "raw", "version": "1" }
        }
    });
    let request = http::Request::post(&url)
        .header(JSON.0, JSON.1)
        .header(ACCEPT.0, ACCEPT.1)
        .body(Full::new(Bytes::from(initialize.to_string())))
        .unwrap();
    let response = client().request(request).await.unwrap();
    let session = response.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned();
    drop(response);
    let headers = [
        JSON,
        ACCEPT,
        ("mcp-session-id", session.as_str()),
        ("mcp-protocol-version", "2025-11-25"),
    ];
    let initialized = json!({ "jsonrpc": "2.0", "method": "notifications/initialized" });
    post_with(&url, initialized.to_string(), &headers).await;

    let running = tokio::spawn({
        let (url, session) = (url.clone(), session.clone());
        async move {
            let call = json!({
                "jsonrpc": "2.0", "id": 5, "method": "tools/call",
                "params": { "name": "wait_to_be_cancelled" }
            });
            let headers = [
                JSON,
                ACCEPT,
                ("mcp-session-id", session.as_str()),
                ("mcp-protocol-version", "2025-11-25"),
            ];
            post_with(&url, call.to_string(), &headers).await
        }
    });
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(
        !CANCELLED_CALL_DROPPED.load(Ordering::SeqCst),
        "the call runs"
    );
    let cancel = json!({
        "jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": { "requestId": 5, "reason": "the user pressed stop" }
    });
    let reply = post_with(&url, cancel.to_string(), &headers).await;
    assert_eq!(reply.status, 202, "{}", reply.body);
    assert!(
        eventually(&CANCELLED_CALL_DROPPED).await,
        "the tool's future is dropped when its call is cancelled"
    );
    let reply = tokio::time::timeout(Duration::from_secs(5), running)
        .await
        .expect("the call's stream ends")
        .unwrap();
    // The stream ends without a message: neither a result nor an error.
    let sent: Vec<&str> = (reply.body.lines())
        .filter_map(|line| line.strip_prefix("data:"))
        .filter(|data| !data.trim().is_empty())
        .collect();
    assert_eq!(sent, Vec::<&str>::new(), "{}", reply.body);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_goes_away_stops_its_call() {
    let server = start(stateless()).await;
    let url = server.url();
    let calling =
        tokio::spawn(async move { call(&url, 1, "wait_to_be_abandoned", json!({})).await });
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(
        !ABANDONED_CALL_DROPPED.load(Ordering::SeqCst),
        "the call runs"
    );
    // Dropping the client's request closes its connection.
    calling.abort();
    assert!(
        eventually(&ABANDONED_CALL_DROPPED).await,
        "the tool's future is dropped when its client goes away"
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_header_argument_is_listed_and_must_match_its_mcp_param_header() {
    header_is_listed_and_checked(stateless(), "in_region").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_time_tool_s_header_argument_is_listed_and_must_match_as_well() {
    let tool = RuntimeTool::new(
        "in_region_now",
        "Runs a query in a region, defined at run time.",
    )
    .input_schema(json!({
        "type": "object",
        "properties": { "region": { "type": "string" } },
        "required": ["region"]
    }))
    .header("region", "Region")
    .handler(|mut args: Arguments| async move {
        let region = args.required_str("region");
        args.finish()?;
        Ok::<_, ToolError>(format!("ran in {region}"))
    });
    header_is_listed_and_checked(stateless().tool(tool), "in_region_now").await;
}

/// Lists the tool `name`, whose argument `region` is mirrored in `Mcp-Param-Region`, and
/// calls it with the header matching, differing and missing.
async fn header_is_listed_and_checked(server: Server, name: &'static str) {
    let server = start(server).await;
    let list = json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/list" });
    let listed = post(&server.url(), list.to_string()).await.message();
    let tool = (listed["result"]["tools"].as_array().unwrap().iter())
        .find(|tool| tool["name"] == name)
        .expect("the tool is listed");
    let region = &tool["inputSchema"]["properties"]["region"];
    assert_eq!(region["x-mcp-header"], "Region", "{tool}");

    let request = json!({
        "jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {
            "name": name, "arguments": { "region": "eu-west" },
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientInfo": { "name": "raw", "version": "1" },
                "io.modelcontextprotocol/clientCapabilities": {}
            }
        }
    });
    let base = [
        JSON,
        ACCEPT,
        ("mcp-protocol-version", "2026-07-28"),
        ("mcp-method", "tools/call"),
        ("mcp-name", name),
    ];
    let with = |value: &'static str| {
        let mut headers = base.to_vec();
        headers.push(("mcp-param-region", value));
        headers
    };
    let reply = post_with(&server.url(), request.to_string(), &with("eu-west")).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(
        reply.message()["result"]["content"][0]["text"],
        "ran in eu-west"
    );
    for headers in [with("us-east"), base.to_vec()] {
        let reply = post_with(&server.url(), request.to_string(), &headers).await;
        assert_eq!(reply.status, 400, "{}", reply.body);
        assert_eq!(reply.message()["error"]["code"], -32020, "{}", reply.body);
    }
    server.stop().await;
}
