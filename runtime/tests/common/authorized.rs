//! A server with authorization and its issuer, for the authorization tests: a stateless
//! server on 127.0.0.1 that trusts the issuer of `issuer.rs`, raw HTTP requests to it, and
//! the log of the test's thread.

use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt as _, Full};
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use mcp_tool::{JwtVerifier, Server};
use serde_json::{Value, json};

use super::http::Running;
use super::issuer::{self, Issuer, KEY_A};

/// A server and its issuer.
pub struct Setup {
    pub issuer: Issuer,
    pub server: Running,
    pub resource: String,
}

/// An issuer publishing key `a`, and a stateless server that trusts it, whose resource
/// URL is its endpoint's.
pub async fn setup(configure: impl FnOnce(Server) -> Server) -> Setup {
    let issuer = Issuer::start(&[("a", KEY_A)]).await;
    setup_verifying(issuer, configure, |verifier| verifier).await
}

/// As `setup`, with the verifier fetching the issuer's keys at most once per `interval`.
pub async fn setup_with_interval(interval: Duration) -> Setup {
    let issuer = Issuer::start(&[("a", KEY_A)]).await;
    let verifier = |verifier: JwtVerifier| verifier.refetch_interval(interval);
    setup_verifying(issuer, |server| server, verifier).await
}

/// A stateless server that trusts `issuer` (which publishes key `a`) through what
/// `verifier` makes of a verifier for that issuer and the server's resource URL.
pub async fn setup_verifying(
    issuer: Issuer,
    configure: impl FnOnce(Server) -> Server,
    verifier: impl FnOnce(JwtVerifier) -> JwtVerifier,
) -> Setup {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    drop(listener);
    let resource = format!("http://{address}/mcp");
    let verifier = verifier(JwtVerifier::issuer(issuer.url()).audience(&resource));
    let server = configure(Server::from_registry("auth-test", "1").stateless(true))
        .authorization(verifier)
        .build()
        .unwrap();
    let server = Running::start_at(server, address).await;
    Setup {
        issuer,
        server,
        resource,
    }
}

impl Setup {
    pub fn token(&self, scope: &str) -> String {
        let claims = issuer::claims(&self.issuer.url(), &self.resource, scope);
        issuer::sign(&claims, "a", KEY_A)
    }
}

/// What a request got.
pub struct Reply {
    pub status: u16,
    pub challenge: Option<String>,
    pub body: String,
}

impl Reply {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: {}", self.body))
    }
}

pub async fn send(
    method: http::Method,
    url: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> Reply {
    let bearer = token.map(|token| format!("Bearer {token}"));
    let headers: Vec<(&str, &str)> = (bearer.iter())
        .map(|bearer| ("authorization", bearer.as_str()))
        .collect();
    let body = body.map(|body| body.to_string()).unwrap_or_default();
    let response = super::http::send(method, url, &headers, body).await;
    let challenge = (response.headers().get("www-authenticate"))
        .map(|value| value.to_str().unwrap().to_owned());
    let status = response.status().as_u16();
    let body = response.into_body().collect().await.unwrap().to_bytes();
    Reply {
        status,
        challenge,
        body: String::from_utf8_lossy(&body).into_owned(),
    }
}

/// What an MCP request over HTTP got: its status, the session it opened, and its message
/// (`Null` for none).
pub struct Answer {
    pub status: u16,
    pub session: Option<String>,
    pub message: Value,
}

/// A request of `method` with `params` on `protocol` (2026-07-28's `_meta`, of a client
/// that declares the tasks extension, and its `Mcp-Method` and `Mcp-Name` headers), with
/// `token` and in `session` when given. A reply sent as an event stream is read from its
/// first `data:` line; a stream that stays open (`subscriptions/listen`) for half a
/// second only.
pub async fn request(
    url: &str,
    protocol: &str,
    token: Option<&str>,
    session: Option<&str>,
    (method, mut params): (&str, Value),
    id: u64,
) -> Answer {
    let mut request = http::Request::post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", protocol);
    if protocol == "2026-07-28" {
        params["_meta"] = super::tasks::meta(true);
        request = request.header("mcp-method", method);
        let name = (["name", "taskId", "uri"].iter())
            .find_map(|key| params.get(*key))
            .and_then(Value::as_str);
        if let Some(name) = name {
            request = request.header("mcp-name", name);
        }
    }
    if let Some(token) = token {
        request = request.header("authorization", format!("Bearer {token}"));
    }
    if let Some(session) = session {
        request = request.header("mcp-session-id", session);
    }
    let body = json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params });
    let request = request
        .body(Full::new(Bytes::from(body.to_string())))
        .unwrap();
    let client = Client::builder(TokioExecutor::new()).build_http();
    let response = client.request(request).await.expect("the server answers");
    let status = response.status().as_u16();
    let session =
        (response.headers().get("mcp-session-id")).map(|value| value.to_str().unwrap().to_owned());
    let mut body = response.into_body();
    let mut bytes = Vec::new();
    let read = tokio::time::timeout(Duration::from_millis(500), async {
        while let Some(frame) = body.frame().await {
            if let Ok(data) = frame.unwrap().into_data() {
                bytes.extend_from_slice(&data);
            }
        }
    });
    let _ = read.await;
    let text = String::from_utf8_lossy(&bytes);
    let text = (text.lines())
        .find_map(|line| {
            line.strip_prefix("data: ")
                .filter(|data| data.starts_with('{'))
        })
        .unwrap_or(&text);
    Answer {
        status,
        session,
        message: serde_json::from_str(text).unwrap_or(Value::Null),
    }
}

/// A 2026-07-28 request of `method` with `params` and `token`; its status and message.
pub async fn send_2026(url: &str, token: &str, method: &str, params: Value) -> (u16, Value) {
    let answer = request(url, "2026-07-28", Some(token), None, (method, params), 7).await;
    (answer.status, answer.message)
}

pub async fn call(url: &str, token: Option<&str>, tool: &str, arguments: Value) -> Reply {
    let body = json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": { "name": tool, "arguments": arguments }
    });
    send(http::Method::POST, url, token, Some(body)).await
}

pub async fn list_tools(url: &str, token: &str) -> Vec<String> {
    let body = json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/list" });
    let reply = send(http::Method::POST, url, Some(token), Some(body)).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    let tools = reply.json()["result"]["tools"].as_array().unwrap().clone();
    tools
        .iter()
        .map(|tool| tool["name"].as_str().unwrap().to_owned())
        .collect()
}

pub fn metadata_url(setup: &Setup) -> String {
    format!(
        "http://{}/.well-known/oauth-protected-resource/mcp",
        setup.server.address
    )
}

/// A session opened with `token` by a client that declares the tasks extension.
pub async fn open_session(url: &str, token: &str) -> String {
    let initialize = json!({
        "protocolVersion": "2025-11-25",
        "capabilities": { "elicitation": {}, "extensions": { super::tasks::TASKS: {} } },
        "clientInfo": { "name": "matrix", "version": "1" }
    });
    let answer = request(
        url,
        "2025-11-25",
        Some(token),
        None,
        ("initialize", initialize),
        0,
    )
    .await;
    assert_eq!(answer.status, 200, "{}", answer.message);
    let session = answer.session.expect("a session id");
    let client = Client::builder(TokioExecutor::new()).build_http();
    let initialized = json!({ "jsonrpc": "2.0", "method": "notifications/initialized" });
    let request = http::Request::post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2025-11-25")
        .header("authorization", format!("Bearer {token}"))
        .header("mcp-session-id", &session)
        .body(Full::new(Bytes::from(initialized.to_string())))
        .unwrap();
    assert_eq!(client.request(request).await.unwrap().status(), 202);
    session
}
