//! `tools/call` requests answered without `rmcp`'s service for one request or its session
//! worker get the responses `rmcp` gives: every request of a corpus is sent twice, once
//! as a client sends it, answered directly, and once with an `Origin` header (one the
//! server allows, which sends the request through `rmcp`), and the two responses are the
//! same: stateless, status, headers but the date, and body bytes; in a session, status,
//! headers but the date and the body's length, and the messages of the SSE stream, which
//! both begin with a priming event (whose ids differ). The log shows which path
//! answered. A call answered directly in a session ends when the client cancels it or
//! the session ends, and keeps its session from the idle timeout.

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
use std::sync::Mutex;
use std::time::{Duration, Instant};

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

/// The calls of `wait` that ended before their time (their future was dropped), by the
/// time they were to wait: each test waits a time of its own.
static ENDED_EARLY: Mutex<Vec<u64>> = Mutex::new(Vec::new());

/// Whether a call of `wait` for `ms` milliseconds ended before its time.
fn ended_early(ms: u64) -> bool {
    ENDED_EARLY.lock().unwrap().contains(&ms)
}

/// Records a call of `wait` that is dropped before it finishes.
struct EndsEarly(Option<u64>);

impl Drop for EndsEarly {
    fn drop(&mut self) {
        if let Some(ms) = self.0 {
            ENDED_EARLY.lock().unwrap().push(ms);
        }
    }
}

/// Waits `ms` milliseconds, then says so; it sends nothing while it waits.
#[mcp_tool]
async fn wait(ms: u64) -> String {
    let mut ends = EndsEarly(Some(ms));
    tokio::time::sleep(Duration::from_millis(ms)).await;
    ends.0 = None;
    format!("waited {ms} ms")
}

/// A response: its status, its headers but `date`, and its body.
type Response = (u16, Vec<(String, String)>, String);

/// Sends `body` as a client on protocol `version` does (with no `MCP-Protocol-Version`
/// header for `None`), and with an `Origin` header if `origin`.
async fn post(url: &str, body: &[u8], version: Option<&str>, origin: bool) -> Response {
    post_in(url, None, body, version, origin).await
}

/// As [`post`], in the session `session` when one is given.
async fn post_in(
    url: &str,
    session: Option<&str>,
    body: &[u8],
    version: Option<&str>,
    origin: bool,
) -> Response {
    let mut request = http::Request::post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream");
    if let Some(version) = version {
        request = request.header("mcp-protocol-version", version);
    }
    if origin {
        request = request.header("origin", "http://127.0.0.1");
    }
    if let Some(session) = session {
        request = request.header("mcp-session-id", session);
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
async fn a_call_without_a_session_is_left_to_rmcp_on_a_server_with_sessions() {
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
    // Nor is a session that was never opened answered here: rmcp says it is not found.
    let url = running.url();
    let (status, _, reply) = post_in(
        &url,
        Some("no-such-session"),
        body.as_bytes(),
        Some("2025-11-25"),
        false,
    )
    .await;
    assert_eq!(status, 404, "{reply}");
    assert!(!log.text().contains("answered directly"), "{}", log.text());
    running.stop().await;
}

/// Sends a request of `method` with `body` to `url`, in `session` when one is given, as a
/// client on 2025-11-25 sends it (and `headers` besides): the response, its body unread.
async fn send(
    method: http::Method,
    url: &str,
    session: Option<&str>,
    headers: &[(&str, &str)],
    body: impl Into<Bytes>,
) -> http::Response<hyper::body::Incoming> {
    let mut all: Vec<(&str, &str)> = headers.to_vec();
    all.extend(session.map(|session| ("mcp-session-id", session)));
    common::http::send(method, url, &all, body).await
}

/// The text of a response's body, read whole.
async fn text(response: http::Response<hyper::body::Incoming>) -> String {
    let body = response.into_body().collect().await.unwrap().to_bytes();
    String::from_utf8_lossy(&body).into_owned()
}

/// Opens a session on `url` as a client on 2025-11-25 does; its id.
async fn open_session(url: &str) -> String {
    let initialize = json!({ "jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": { "name": "direct-test", "version": "1" } } });
    let response = send(http::Method::POST, url, None, &[], initialize.to_string()).await;
    assert_eq!(response.status(), 200, "{response:?}");
    let session = response.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned();
    let initialized = json!({ "jsonrpc": "2.0", "method": "notifications/initialized" });
    let sent = post_in(
        url,
        Some(&session),
        initialized.to_string().as_bytes(),
        Some("2025-11-25"),
        false,
    )
    .await;
    assert_eq!(sent.0, 202, "{sent:?}");
    session
}

/// The messages of an SSE body: each event's data, events without data skipped.
fn messages(body: &str) -> Vec<Value> {
    (body.split("\n\n"))
        .filter_map(|event| {
            let data: Vec<&str> = (event.lines())
                .filter_map(|line| line.strip_prefix("data:"))
                .map(|data| data.strip_prefix(' ').unwrap_or(data))
                .collect();
            let data = data.join("\n");
            (!data.trim().is_empty()).then(|| serde_json::from_str(&data).expect("JSON data"))
        })
        .collect()
}

/// Resumes the stream whose last event was `id` in `session`: the status and the body.
async fn resume(url: &str, session: &str, id: &str) -> (u16, String) {
    let last = [("last-event-id", id)];
    let response = send(http::Method::GET, url, Some(session), &last, Bytes::new()).await;
    (response.status().as_u16(), text(response).await)
}

/// A response as it is compared between the two paths in a session: status, headers but
/// the length of the body (rmcp streams its body, chunked), and the stream's messages.
fn in_session(response: Response) -> (u16, Vec<(String, String)>, Vec<Value>) {
    let (status, headers, body) = response;
    let headers = (headers.into_iter())
        .filter(|(name, _)| name != "content-length" && name != "transfer-encoding")
        .collect();
    (status, headers, messages(&body))
}

#[tokio::test]
async fn a_call_in_a_session_answered_directly_gets_the_message_rmcp_sends() {
    let log = Captured::default();
    let _guard = log.install("mcp_tool=trace");
    let running = Running::start(Server::from_registry("http-direct", "1").build().unwrap()).await;
    let url = running.url();
    let session = open_session(&url).await;
    let answered_directly = || log.text().matches("answered directly").count();
    let version = Some("2025-11-25");
    let mut sent = 0;
    for body in direct_corpus() {
        let body = body.as_bytes();
        let through_rmcp = post_in(&url, Some(&session), body, version, true).await;
        assert_eq!(answered_directly(), sent, "with an Origin, rmcp answers");
        assert!(
            through_rmcp.2.starts_with("data: \nid: "),
            "rmcp primes its stream: {through_rmcp:?}"
        );
        let directly = post_in(&url, Some(&session), body, version, false).await;
        sent += 1;
        let said = String::from_utf8_lossy(body);
        assert_eq!(answered_directly(), sent, "answered directly: {said}");
        // A priming event with an id to resume after and the time to wait, as rmcp's,
        // then the reply; once the stream gave it, it is not kept for a resumption.
        assert!(
            directly.2.starts_with("data: \nid: direct-"),
            "{directly:?}"
        );
        assert!(directly.2.contains("\nretry: 3000\n\n"), "{directly:?}");
        assert_eq!(directly.2.matches("\n\n").count(), 2, "{directly:?}");
        let id = directly
            .2
            .lines()
            .nth(1)
            .unwrap()
            .strip_prefix("id: ")
            .unwrap();
        // rmcp, which gets the request, answers a stream it cannot resume with an empty
        // one, so that the client does not try again.
        let (status, body) = resume(&url, &session, id).await;
        assert_eq!((status, messages(&body)), (200, vec![]), "{said}: {body}");
        let (directly, through_rmcp) = (in_session(directly), in_session(through_rmcp));
        assert_eq!(directly, through_rmcp, "the same response to {said}");
        assert_eq!(directly.0, 200, "{said}: {directly:?}");
        assert_eq!(directly.2.len(), 1, "{said}: {directly:?}");
        let reply = directly.2[0].to_string();
        for secret in ["hunter2", "sk-live-0123456789abcdef"] {
            assert!(!reply.contains(secret), "{said}: {reply}");
        }
    }
    for body in rmcp_corpus() {
        let through_rmcp = post_in(&url, Some(&session), body.as_bytes(), version, true).await;
        let without_origin = post_in(&url, Some(&session), body.as_bytes(), version, false).await;
        assert_eq!(
            in_session(without_origin),
            in_session(through_rmcp),
            "the same response to {body}"
        );
        assert_eq!(answered_directly(), sent, "rmcp answers {body}");
    }
    running.stop().await;
}

#[tokio::test]
async fn a_call_answered_directly_in_a_session_ends_when_the_client_cancels_it() {
    let log = Captured::default();
    let _guard = log.install("mcp_tool=trace");
    let running = Running::start(Server::from_registry("http-direct", "1").build().unwrap()).await;
    let url = running.url();
    let session = open_session(&url).await;
    let body = call(
        json!("slow-1"),
        json!({ "name": "wait", "arguments": { "ms": 20_001 } }),
    );
    let started = Instant::now();
    let calling = tokio::spawn({
        let (url, session) = (url.clone(), session.clone());
        async move {
            post_in(
                &url,
                Some(&session),
                body.as_bytes(),
                Some("2025-11-25"),
                false,
            )
            .await
        }
    });
    // The call is under way (answered here) before it is cancelled.
    while !log.text().contains("answered directly") {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let cancel = json!({ "jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": { "requestId": "slow-1", "reason": "the user went away" } });
    let sent = post_in(
        &url,
        Some(&session),
        cancel.to_string().as_bytes(),
        Some("2025-11-25"),
        false,
    )
    .await;
    assert_eq!(sent.0, 202, "{sent:?}");
    let (status, headers, body) = calling.await.unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "the call ended when cancelled"
    );
    assert_eq!(status, 200);
    assert!(
        headers.contains(&("content-type".to_owned(), "text/event-stream".to_owned())),
        "{headers:?}"
    );
    assert_eq!(
        messages(&body),
        Vec::<Value>::new(),
        "no reply to a cancelled call: {body}"
    );
    assert!(ended_early(20_001), "the tool's future was dropped");
    // The session goes on: a call of the same id is answered.
    let again = call(
        json!("slow-1"),
        json!({ "name": "wait", "arguments": { "ms": 1 } }),
    );
    let reply = post_in(
        &url,
        Some(&session),
        again.as_bytes(),
        Some("2025-11-25"),
        false,
    )
    .await;
    assert_eq!(
        messages(&reply.2)[0]["result"]["content"][0]["text"],
        "waited 1 ms",
        "{reply:?}"
    );
    running.stop().await;
}

#[tokio::test]
async fn a_call_answered_directly_in_a_session_ends_with_its_session() {
    let running = Running::start(Server::from_registry("http-direct", "1").build().unwrap()).await;
    let url = running.url();
    let session = open_session(&url).await;
    let body = call(
        json!(7),
        json!({ "name": "wait", "arguments": { "ms": 20_002 } }),
    );
    let started = Instant::now();
    let calling = tokio::spawn({
        let (url, session) = (url.clone(), session.clone());
        async move {
            let response = send(http::Method::POST, &url, Some(&session), &[], body).await;
            // The head comes at once, before the reply: a proxy sees a live stream.
            (started.elapsed(), text(response).await)
        }
    });
    tokio::time::sleep(Duration::from_millis(300)).await;
    let deleted = send(
        http::Method::DELETE,
        &url,
        Some(&session),
        &[],
        Bytes::new(),
    )
    .await;
    assert!(deleted.status().is_success(), "{deleted:?}");
    let (head_after, body) = calling.await.unwrap();
    assert!(
        head_after < Duration::from_millis(300),
        "the head came before the session ended: {head_after:?}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "the call ended with its session"
    );
    assert_eq!(messages(&body), Vec::<Value>::new(), "{body}");
    running.stop().await;
}

#[tokio::test]
async fn calls_answered_directly_keep_their_session_from_its_idle_timeout() {
    let idle = Duration::from_millis(600);
    let server = Server::from_registry("http-direct", "1").session_idle_timeout(idle);
    let running = Running::start(server.build().unwrap()).await;
    let url = running.url();
    let session = open_session(&url).await;
    let body = call(
        json!(1),
        json!({ "name": "add", "arguments": { "a": 2, "b": 3 } }),
    );
    let version = Some("2025-11-25");
    // Three idle timeouts of calls, each well within one.
    let until = Instant::now() + idle * 3;
    while Instant::now() < until {
        let reply = post_in(&url, Some(&session), body.as_bytes(), version, false).await;
        assert_eq!(reply.0, 200, "the session is still open: {reply:?}");
        assert_eq!(
            messages(&reply.2)[0]["result"]["structuredContent"]["result"],
            5
        );
        tokio::time::sleep(idle / 6).await;
    }
    // Then idle past its timeout: it ends, as one whose calls rmcp served.
    tokio::time::sleep(idle * 2).await;
    let reply = post_in(&url, Some(&session), body.as_bytes(), version, false).await;
    assert_eq!(reply.0, 404, "the idle session ended: {reply:?}");
    running.stop().await;
}

#[tokio::test]
async fn a_call_that_does_not_finish_at_once_is_resumed_after_its_stream_breaks() {
    let running = Running::start(Server::from_registry("http-direct", "1").build().unwrap()).await;
    let url = running.url();
    let session = open_session(&url).await;
    let body = call(
        json!("resumed-1"),
        json!({ "name": "wait", "arguments": { "ms": 400 } }),
    );
    let response = send(http::Method::POST, &url, Some(&session), &[], body).await;
    assert_eq!(response.status(), 200);
    // The stream begins with a priming event: an id to resume after, and the time to wait.
    let mut stream = response.into_body();
    let first = stream.frame().await.unwrap().unwrap().into_data().unwrap();
    let first = String::from_utf8_lossy(&first).into_owned();
    assert!(first.starts_with("data: \nid: "), "{first:?}");
    assert!(first.ends_with("\nretry: 3000\n\n"), "{first:?}");
    let id = first
        .lines()
        .nth(1)
        .unwrap()
        .strip_prefix("id: ")
        .unwrap()
        .to_owned();
    // The stream breaks before the reply; the client resumes it.
    drop(stream);
    let (status, body) = resume(&url, &session, &id).await;
    assert_eq!(status, 200, "{body}");
    let replies = messages(&body);
    assert_eq!(replies.len(), 1, "{body}");
    assert_eq!(replies[0]["id"], "resumed-1", "{body}");
    assert_eq!(
        replies[0]["result"]["content"][0]["text"], "waited 400 ms",
        "{body}"
    );
    assert!(!ended_early(400), "the call ran on when its stream broke");
    // Once a stream gave its reply, the reply is no longer kept: a stream resumed after
    // the id again is empty (rmcp's answer to a stream it cannot resume).
    let (status, body) = resume(&url, &session, &id).await;
    assert_eq!((status, messages(&body)), (200, vec![]), "{body}");
    running.stop().await;
}
