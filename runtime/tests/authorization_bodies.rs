//! Bodies that two parsers might read differently, sent with a valid token that lacks the
//! scope of the tool they try to reach: duplicate keys (`method`, `params`, `name`),
//! escaped names and methods, huge numbers, arrays, deep nesting before the name, a byte
//! order mark. The scope check reads a body as dispatch reads it (one decoder, and the
//! message passed on as it was checked), so the tool never runs: each body gets a refusal
//! or an ordinary JSON-RPC error, over stateless HTTP and in a session alike.

#![cfg(feature = "auth")]

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};

use bytes::Bytes;
use http_body_util::{BodyExt as _, Full};
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use mcp_tool::mcp_tool;
use serde_json::Value;

use common::authorized::{Setup, setup};

/// How many times `secret` ran.
static OPENED: AtomicUsize = AtomicUsize::new(0);

/// Opens the vault.
#[mcp_tool(scopes = ["vault:open"])]
fn secret() -> String {
    OPENED.fetch_add(1, Ordering::SeqCst);
    "the vault is open".to_owned()
}

/// Says hello; needs no scope.
#[mcp_tool]
fn public() -> String {
    "hello".to_owned()
}

/// The bodies, each trying to reach `secret` past a check that reads it otherwise.
fn bodies() -> Vec<(&'static str, Vec<u8>)> {
    let call = |params: &str| {
        format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{params}}}"#)
    };
    let deep = format!("{}1{}", r#"{"a":"#.repeat(100), "}".repeat(100));
    let with_bom = |body: String| {
        let mut bytes = b"\xEF\xBB\xBF".to_vec();
        bytes.extend(body.into_bytes());
        bytes
    };
    vec![
        (
            "name twice, the allowed one first",
            call(r#"{"name":"public","name":"secret","arguments":{}}"#),
        ),
        (
            "name twice, the allowed one last",
            call(r#"{"name":"secret","name":"public","arguments":{}}"#),
        ),
        (
            "params twice",
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"public"},"params":{"name":"secret"}}"#.to_owned(),
        ),
        (
            "method twice",
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","method":"tools/call","params":{"name":"secret"}}"#.to_owned(),
        ),
        (
            "method twice, the call first",
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","method":"tools/list","params":{"name":"secret"}}"#.to_owned(),
        ),
        ("an escaped name", call(r#"{"name":"s\u0065cret"}"#)),
        (
            "an escaped method",
            r#"{"jsonrpc":"2.0","id":1,"method":"tools\/c\u0061ll","params":{"name":"secret"}}"#.to_owned(),
        ),
        (
            "a huge id",
            r#"{"jsonrpc":"2.0","id":1e400,"method":"tools/call","params":{"name":"secret"}}"#.to_owned(),
        ),
        (
            "a huge argument",
            call(r#"{"name":"secret","arguments":{"n":123456789012345678901234567890e300}}"#),
        ),
        (
            "an array of calls",
            format!("[{}]", call(r#"{"name":"secret"}"#)),
        ),
        (
            "an array with an allowed call first",
            format!(
                "[{},{}]",
                call(r#"{"name":"public"}"#),
                call(r#"{"name":"secret"}"#)
            ),
        ),
        (
            "deep nesting before the name",
            call(&format!(r#"{{"_meta":{{"x":{deep}}},"arguments":{deep},"name":"secret"}}"#)),
        ),
        (
            "deeper nesting than a parser allows, before the name",
            call(&format!(
                r#"{{"arguments":{}1{},"name":"secret"}}"#,
                "[".repeat(200),
                "]".repeat(200)
            )),
        ),
        ("a byte order mark", String::new()),
        ("params as an array", call(r#"["secret"]"#)),
        ("a name that is not a string", call(r#"{"name":["secret"]}"#)),
    ]
    .into_iter()
    .map(|(what, body)| match what {
        "a byte order mark" => (what, with_bom(call(r#"{"name":"secret"}"#))),
        _ => (what, body.into_bytes()),
    })
    .collect()
}

/// POSTs `body` with `token` (and `session`); the status and the body.
async fn post(setup: &Setup, token: &str, session: Option<&str>, body: Vec<u8>) -> (u16, String) {
    let mut request = http::Request::post(setup.server.url())
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2025-11-25")
        .header("authorization", format!("Bearer {token}"));
    if let Some(session) = session {
        request = request.header("mcp-session-id", session);
    }
    let request = request.body(Full::new(Bytes::from(body))).unwrap();
    let client = Client::builder(TokioExecutor::new()).build_http();
    let response = client.request(request).await.expect("the server answers");
    let status = response.status().as_u16();
    let session = response.headers().get("mcp-session-id").cloned();
    let body = response.into_body().collect().await.unwrap().to_bytes();
    let mut body = String::from_utf8_lossy(&body).into_owned();
    if let Some(session) = session {
        body = format!("session:{}\n{body}", session.to_str().unwrap());
    }
    (status, body)
}

/// Opens a session with `token`; its id.
async fn open_session(setup: &Setup, token: &str) -> String {
    let initialize = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bodies","version":"1"}}}"#;
    let (status, body) = post(setup, token, None, initialize.as_bytes().to_vec()).await;
    assert_eq!(status, 200, "{body}");
    let session = body
        .lines()
        .next()
        .unwrap()
        .strip_prefix("session:")
        .unwrap();
    let session = session.to_owned();
    let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    let (status, body) = post(setup, token, Some(&session), initialized.into()).await;
    assert_eq!(status, 202, "{body}");
    session
}

/// Every body, on a server in `mode`: the tool never runs, and each reply is a refusal
/// (a status of 4xx) or a JSON-RPC error.
async fn never_runs(stateless: bool) {
    let setup = setup(|server| server.only(["secret", "public"]).stateless(stateless)).await;
    let token = setup.token("files:read");
    let session = match stateless {
        true => None,
        false => Some(open_session(&setup, &token).await),
    };
    let mode = if stateless {
        "stateless"
    } else {
        "in a session"
    };
    for (what, body) in bodies() {
        let before = OPENED.load(Ordering::SeqCst);
        let (status, reply) = post(&setup, &token, session.as_deref(), body).await;
        assert_eq!(
            OPENED.load(Ordering::SeqCst),
            before,
            "{mode}, {what}: the tool ran ({status}): {reply}"
        );
        assert!(
            !reply.contains("the vault is open"),
            "{mode}, {what}: {reply}"
        );
        let message = (reply.lines())
            .find_map(|line| line.strip_prefix("data: "))
            .unwrap_or(&reply);
        let refused = (400..500).contains(&status);
        let error = serde_json::from_str::<Value>(message)
            .is_ok_and(|message| message["error"]["code"].is_i64());
        assert!(
            refused || error,
            "{mode}, {what}: neither a refusal nor a JSON-RPC error ({status}): {reply}"
        );
        eprintln!("{mode}, {what}: {status}");
    }
    // The check reads what it must: the token's own call of `public` is served.
    let call = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"public"}}"#;
    let (status, reply) = post(&setup, &token, session.as_deref(), call.into()).await;
    assert_eq!(status, 200, "{reply}");
    assert!(reply.contains("hello"), "{reply}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bodies_two_parsers_might_read_apart_never_run_the_tool_stateless() {
    never_runs(true).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bodies_two_parsers_might_read_apart_never_run_the_tool_in_a_session() {
    never_runs(false).await;
}
