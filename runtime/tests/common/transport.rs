//! One client of each transport a test drives a server over: one stdio session, one
//! HTTP session, or stateless HTTP, each sent raw JSON-RPC and answered as JSON.

use bytes::Bytes;
use http_body_util::{BodyExt as _, Full};
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use mcp_tool::Server;
use serde_json::{Value, json};

use super::RawClient;
use super::http::Running;

/// Where a request is sent: one stdio session, one HTTP session, or stateless HTTP.
pub enum Transport {
    Stdio(RawClient),
    Session { running: Running, session: String },
    Stateless(Running),
}

impl Transport {
    pub async fn stdio(server: Server) -> Self {
        Transport::Stdio(RawClient::start(server.build().unwrap()).await)
    }

    pub async fn session(server: Server) -> Self {
        let running = Running::start(server.build().unwrap()).await;
        let initialize = json!({
            "jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {
                "protocolVersion": "2025-11-25", "capabilities": {},
                "clientInfo": {"name": "test", "version": "1"}
            }
        });
        let (status, session, _) = post(&running.url(), None, &initialize).await;
        assert_eq!(status, 200);
        let session = session.expect("a session is opened");
        let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        let (status, _, _) = post(&running.url(), Some(&session), &initialized).await;
        assert_eq!(status, 202);
        Transport::Session { running, session }
    }

    pub async fn stateless(server: Server) -> Self {
        Transport::Stateless(Running::start(server.stateless(true).build().unwrap()).await)
    }

    /// The transport named `name` (`stdio`, `HTTP session`, `stateless HTTP`), serving
    /// `server`.
    pub async fn one(name: &str, server: Server) -> Self {
        match name {
            "stdio" => Self::stdio(server).await,
            "HTTP session" => Self::session(server).await,
            _ => Self::stateless(server).await,
        }
    }

    /// Every transport, each serving what `make` builds.
    pub async fn all(make: impl Fn() -> Server) -> Vec<(&'static str, Self)> {
        vec![
            ("stdio", Self::stdio(make()).await),
            ("HTTP session", Self::session(make()).await),
            ("stateless HTTP", Self::stateless(make()).await),
        ]
    }

    /// The reply to a request of `method` with `params`.
    pub async fn request(&mut self, id: u64, method: &str, params: Value) -> Value {
        let message = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        match self {
            Transport::Stdio(client) => {
                client.send(&message.to_string()).await;
                loop {
                    let reply = client.receive().await;
                    if reply["id"] == id {
                        return reply;
                    }
                }
            }
            Transport::Session { running, session } => {
                post(&running.url(), Some(session), &message).await.2
            }
            Transport::Stateless(running) => post(&running.url(), None, &message).await.2,
        }
    }

    pub async fn call(&mut self, id: u64, tool: &str, arguments: Value) -> Value {
        let params = json!({"name": tool, "arguments": arguments});
        self.request(id, "tools/call", params).await
    }
}

/// POSTs `message`: the status, the session the reply names, and the reply (read from
/// the first event of a stream).
pub async fn post(
    url: &str,
    session: Option<&str>,
    message: &Value,
) -> (u16, Option<String>, Value) {
    let mut request = http::Request::post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2025-11-25");
    if let Some(session) = session {
        request = request.header("mcp-session-id", session);
    }
    let request = request
        .body(Full::new(Bytes::from(message.to_string())))
        .unwrap();
    let client = Client::builder(TokioExecutor::new()).build_http();
    let response = client.request(request).await.expect("the server answers");
    let status = response.status().as_u16();
    let session =
        (response.headers().get("mcp-session-id")).map(|value| value.to_str().unwrap().to_owned());
    let body = response.into_body().collect().await.unwrap().to_bytes();
    let text = String::from_utf8_lossy(&body);
    let text = (text.lines())
        .find_map(|line| {
            line.strip_prefix("data: ")
                .filter(|data| data.starts_with('{'))
        })
        .unwrap_or(&text);
    (
        status,
        session,
        serde_json::from_str(text).unwrap_or(Value::Null),
    )
}
