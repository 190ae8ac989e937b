//! HTTP sessions are bounded: beyond the server's maximum an `initialize` gets `503` with
//! `Retry-After` and opens nothing, so a client looping on `initialize` cannot grow the
//! server's memory, nor take a session from a client that holds one; an idle session ends
//! at the configured time and gives its slot back.

#![cfg(feature = "http")]

mod common;

use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt as _, Full};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use mcp_tool::{Server, mcp_tool};
use serde_json::{Value, json};

use common::allocated::{COUNTING, Counting, heap_bytes, kib};

#[global_allocator]
static HEAP: &Counting = &COUNTING;

/// Adds two integers and returns their sum.
#[mcp_tool]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

use common::http::Running;

async fn start(server: Server) -> Running {
    Running::start(server.build().expect("the server builds")).await
}

type HttpClient = Client<HttpConnector, Full<Bytes>>;

fn client() -> HttpClient {
    Client::builder(TokioExecutor::new()).build_http()
}

/// What a POST got: its status, `Retry-After`, the session it opened and its body.
struct Reply {
    status: u16,
    retry_after: Option<String>,
    session: Option<String>,
    body: String,
}

impl Reply {
    /// The JSON-RPC message of the reply, sent as JSON or as the last SSE event.
    fn message(&self) -> Value {
        let data = (self.body.lines())
            .filter_map(|line| line.strip_prefix("data: "))
            .rfind(|data| !data.trim().is_empty());
        serde_json::from_str(data.unwrap_or(&self.body))
            .unwrap_or_else(|e| panic!("{e}: {}", self.body))
    }
}

async fn post(client: &HttpClient, url: &str, body: Value, session: Option<&str>) -> Reply {
    let mut request = http::Request::post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream");
    if let Some(session) = session {
        request = request
            .header("mcp-session-id", session)
            .header("mcp-protocol-version", "2025-11-25");
    }
    let request = request
        .body(Full::new(Bytes::from(body.to_string())))
        .unwrap();
    let response = client.request(request).await.expect("the server answers");
    let header = |name| {
        (response.headers().get(name))
            .map(|value: &http::HeaderValue| value.to_str().expect("an ASCII header").to_owned())
    };
    let (retry_after, session) = (header("retry-after"), header("mcp-session-id"));
    let status = response.status().as_u16();
    let body = response.into_body().collect().await.unwrap().to_bytes();
    Reply {
        status,
        retry_after,
        session,
        body: String::from_utf8_lossy(&body).into_owned(),
    }
}

async fn initialize(client: &HttpClient, url: &str) -> Reply {
    let initialize = json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": { "name": "raw", "version": "1" }
        }
    });
    post(client, url, initialize, None).await
}

/// Opens a session, as a client does: `initialize`, then `notifications/initialized`.
async fn open(client: &HttpClient, url: &str) -> String {
    let reply = initialize(client, url).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    let session = reply.session.expect("a session id");
    let initialized = json!({ "jsonrpc": "2.0", "method": "notifications/initialized" });
    let reply = post(client, url, initialized, Some(&session)).await;
    assert_eq!(reply.status, 202, "{}", reply.body);
    session
}

/// Calls `add` in `session`; the reply.
async fn add_in(client: &HttpClient, url: &str, session: &str) -> Reply {
    let call = json!({
        "jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": { "name": "add", "arguments": { "a": 2, "b": 3 } }
    });
    post(client, url, call, Some(session)).await
}

fn assert_added(reply: &Reply) {
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(
        reply.message()["result"]["structuredContent"],
        json!({ "result": 5 }),
        "{}",
        reply.body
    );
}

/// Sessions the test server holds at most.
const MAX: usize = 100;
/// `initialize` requests sent beyond the maximum.
const FLOOD: usize = 2_000;
/// How much the heap may grow, per refused `initialize`, while the flood is refused: a
/// refusal keeps nothing (measured: 0 bytes over the 2,000, counted by the allocator),
/// where a session kept per refusal would hold about 120 kB, and its id alone 50 bytes
/// and the map entry holding it.
const PER_REFUSAL: u64 = 256;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn initialize_beyond_the_maximum_gets_503_and_memory_stays_bounded() {
    let server = start(Server::from_registry("sessions", "1").max_sessions(MAX)).await;
    let (url, client) = (server.url(), client());
    let before = heap_bytes();
    let mut sessions = Vec::new();
    for _ in 0..MAX {
        sessions.push(open(&client, &url).await);
    }
    let full = heap_bytes();
    let per_session = full.saturating_sub(before) / MAX as u64;
    eprintln!(
        "{MAX} sessions: +{} KiB heap, {per_session} bytes a session",
        kib(full - before)
    );
    for _ in 0..FLOOD {
        let reply = initialize(&client, &url).await;
        assert_eq!(reply.status, 503, "{}", reply.body);
        assert_eq!(reply.retry_after.as_deref(), Some("5"), "{}", reply.body);
        assert_eq!(reply.session, None, "a refused initialize opened a session");
        let refusal = reply.message();
        assert_eq!(refusal["error"]["code"], -32000, "{refusal}");
        assert_eq!(refusal["id"], Value::Null, "{refusal}");
        let message = refusal["error"]["message"].as_str().unwrap();
        assert!(
            message.contains(&format!("maximum of {MAX} sessions")),
            "{message}"
        );
    }
    let growth = heap_bytes().saturating_sub(full);
    eprintln!(
        "{FLOOD} refused: +{} KiB heap, {} bytes a refusal (bound {PER_REFUSAL})",
        kib(growth),
        growth / FLOOD as u64
    );
    assert!(
        growth < PER_REFUSAL * FLOOD as u64,
        "{FLOOD} refused initialize requests grew the heap by {growth} bytes, {} a refusal, \
         where a session holds {per_session}",
        growth / FLOOD as u64
    );
    // The sessions open are served throughout; one that ends gives its slot back.
    for session in [&sessions[0], &sessions[MAX - 1]] {
        assert_added(&add_in(&client, &url, session).await);
    }
    let delete = http::Request::delete(&url)
        .header("mcp-session-id", sessions[0].as_str())
        .header("mcp-protocol-version", "2025-11-25")
        .body(Full::new(Bytes::new()))
        .unwrap();
    let deleted = client.request(delete).await.unwrap();
    // 204, as clients expect of a session's end: the Python SDK warns of any other.
    assert_eq!(deleted.status(), 204, "a session's end");
    let reopened = open(&client, &url).await;
    assert_added(&add_in(&client, &url, &reopened).await);
    assert_eq!(initialize(&client, &url).await.status, 503);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_session_ends_at_the_configured_time_and_frees_its_slot() {
    // Long enough that a request every quarter of it keeps the session on a loaded machine.
    const IDLE: Duration = Duration::from_millis(1500);
    let server = Server::from_registry("sessions", "1")
        .max_sessions(1)
        .session_idle_timeout(IDLE);
    let server = start(server).await;
    let (url, client) = (server.url(), client());
    let session = open(&client, &url).await;
    // Requests closer together than the timeout keep the session.
    let mut idle_since = Instant::now();
    for _ in 0..4 {
        tokio::time::sleep(IDLE / 4).await;
        idle_since = Instant::now();
        assert_added(&add_in(&client, &url, &session).await);
    }
    assert_eq!(initialize(&client, &url).await.status, 503);
    // Idle past the timeout, the session ends: its next request gets 404, and its slot
    // takes a new session.
    let ended = loop {
        tokio::time::sleep(Duration::from_millis(50)).await;
        let reply = initialize(&client, &url).await;
        if reply.status == 200 {
            break idle_since.elapsed();
        }
        assert_eq!(reply.status, 503, "{}", reply.body);
        assert!(
            idle_since.elapsed() < IDLE + Duration::from_secs(20),
            "the idle session never ended"
        );
    };
    eprintln!("the idle session ended after {ended:?} (timeout {IDLE:?})");
    assert!(
        ended >= IDLE,
        "the session ended after {ended:?}, before its timeout"
    );
    let reply = add_in(&client, &url, &session).await;
    assert_eq!(reply.status, 404, "{}", reply.body);
    server.stop().await;
}
