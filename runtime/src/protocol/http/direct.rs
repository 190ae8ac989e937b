//! `tools/call` requests answered here, without `rmcp`'s service for one request or its
//! session worker.
//!
//! In stateless mode `rmcp` answers a POST by decoding it into its `ClientJsonRpcMessage`,
//! checking its headers, and serving the one request on a service of its own (a one-shot
//! transport, a spawned task and the channels between them). In a session, it hands the
//! request to the session's worker, which opens a channel for the request's stream, hands
//! it on to the session's service loop, which spawns a task for it, and sends the reply
//! back the same way, cached for a client that resumes. For the request most POSTs are, a
//! `tools/call` of a tool that sends the client nothing while it runs, all of that reaches
//! the answer a direct call of the tool gives. Such a request is decoded with [`wire`],
//! run by the server's one call driver, and its reply written as `rmcp` writes it
//! (`runtime/tests/http_direct.rs` holds the two paths to the same responses): in JSON,
//! byte for byte, without sessions; in a session, in an SSE stream that begins with a
//! priming event as `rmcp`'s does, with the same headers and the same message.
//!
//! A request is answered here only when every check `rmcp` makes of it is known to pass,
//! and the answer cannot depend on what this path leaves out; anything else goes to `rmcp`
//! unchanged. So it takes:
//!
//! - with authorization, a request whose token the guard verified and whose message it
//!   decoded and checked against the token's scopes (the message it checked is the one
//!   answered, not decoded again);
//! - a `Host` that `rmcp` allows (judged as `rmcp` judges it), and no `Origin` header;
//! - one `Accept` header, a plain list naming `application/json` and `text/event-stream`,
//!   and a JSON `Content-Type`;
//! - no `MCP-Protocol-Version` header, or a known version before 2026-07-28 (from which
//!   on a request carries its lifecycle and its standard headers, which `rmcp` checks);
//! - a body that decodes as a `tools/call` request without a protocol version in its
//!   `_meta` (and begins with no byte order mark, which `rmcp` refuses), of a tool that
//!   takes no `Context` and never runs as a task, or of no tool;
//! - on a server with sessions, the id of a session whose `initialize` was answered, in
//!   which no call of the same request id is under way.
//!
//! In a session, a call answered here is one the client can cancel (its
//! `notifications/cancelled` is read here, then handed on to `rmcp` as before) and that
//! ends with its session; it keeps the session from its idle timeout as a call `rmcp`
//! serves does. Its SSE stream, and its resumption, are [`call_stream`]'s.

use std::sync::Arc;

use bytes::Bytes;
use http::request::Parts;
use http::{HeaderMap, Response, StatusCode, header};
use http_body_util::{BodyExt as _, Full};
use rmcp::model::{
    CallToolResponse, ClientJsonRpcMessage, ClientNotification, ClientRequest, JsonRpcNotification,
    JsonRpcRequest, ProtocolVersion, RequestMetaObject, ServerJsonRpcMessage,
};
use tokio_util::sync::CancellationToken;

use super::Boxed;
use super::SESSION_ID_HEADER;
use super::allowed::AllowedHosts;
use super::call_stream;
use super::sessions::{BoundedSessions, DirectCall};

use crate::model::{Auth, RequestId};
use crate::protocol::bridge;
use crate::protocol::direct_call;
use crate::protocol::direct_call::{answer, call_directly};
use crate::protocol::piped::{Origin, address_of, trace_in};
use crate::protocol::wire::{self, Inbound};
use crate::server::pipeline::Transport;
use crate::server::pipeline::spans::Trace;
use crate::server::pipeline::spans::{self, TRACE_KEYS};
use crate::server::tool_server::ToolServer;

/// The method answered here, as a request's body spells it.
const CALL: &[u8] = b"\"tools/call\"";

/// The notification read here in a session, as a body spells it.
const CANCELLED: &[u8] = b"\"notifications/cancelled\"";

/// What answers `tools/call` requests directly: the hosts allowed, as `rmcp` reads them,
/// and the sessions on a server with sessions.
#[derive(Debug, Clone)]
pub(super) struct Direct {
    /// The hosts the server serves.
    hosts: AllowedHosts,
    /// Cancelled when the server stops: a call still running then is answered as
    /// `rmcp` answers it, with `500` without sessions, and with the end of its stream in
    /// a session.
    stop: CancellationToken,
    /// The server's sessions, on a server with sessions: a call is answered in one.
    sessions: Option<Arc<BoundedSessions>>,
}

impl Direct {
    pub(super) fn new(
        allowed_hosts: &[String],
        stop: CancellationToken,
        sessions: Option<Arc<BoundedSessions>>,
    ) -> Self {
        Self {
            hosts: AllowedHosts::new(allowed_hosts),
            stop,
            sessions,
        }
    }

    /// Whether a request with these parts may be answered here, its body permitting.
    pub(super) fn admits(&self, parts: &Parts) -> bool {
        let headers = &parts.headers;
        !headers.contains_key(header::ORIGIN)
            && self.host_allowed(headers)
            && accepts_json_and_events(headers)
            && super::has_json_content(headers)
            && before_request_lifecycle(headers)
    }

    /// The response to `body`, when it is a `tools/call` answered here.
    pub(super) async fn answer(
        &self,
        server: &ToolServer,
        body: &[u8],
        parts: &Parts,
    ) -> Option<Response<Boxed>> {
        // Any other message is left to rmcp undecoded; one that spells its method with
        // escapes is too.
        let names = |method: &[u8]| body.windows(method.len()).any(|window| window == method);
        let cancels = self.sessions.is_some() && names(CANCELLED);
        if !(names(CALL) || cancels) {
            return None;
        }
        // rmcp refuses a body that begins with a byte order mark, which ours would skip.
        if body.starts_with(b"\xEF\xBB\xBF") {
            return None;
        }
        let Inbound::Message(message) = wire::decode(body) else {
            return None;
        };
        (self.answer_message(server, message, parts, None).await).ok()
    }

    /// The response to `message` (decoded, and checked against the scopes `caller`'s
    /// token grants, on a server with authorization), when it is a `tools/call` answered
    /// here; else the message, for `rmcp`.
    pub(super) async fn answer_message(
        &self,
        server: &ToolServer,
        message: Box<ClientJsonRpcMessage>,
        parts: &Parts,
        caller: Option<Arc<Auth>>,
    ) -> Result<Response<Boxed>, Box<ClientJsonRpcMessage>> {
        let (id, mut call) = match *message {
            ClientJsonRpcMessage::Request(JsonRpcRequest {
                id,
                request: ClientRequest::CallToolRequest(call),
                ..
            }) => (id, call),
            other => {
                self.read_cancellation(&other, parts);
                return Err(Box::new(other));
            }
        };
        let hand_on = |call, id| {
            let request = ClientRequest::CallToolRequest(call);
            Err(Box::new(ClientJsonRpcMessage::request(request, id)))
        };
        if !direct_call::answerable(server, &call) {
            return hand_on(call, id);
        }
        let Ok(in_session) = self.begin(parts, &id).await else {
            return hand_on(call, id);
        };
        let meta = call.extensions.remove::<RequestMetaObject>();
        tracing::trace!(
            tool = %call.params.name,
            session = in_session.is_some(),
            "a tools/call answered directly"
        );
        let meta = meta.map(|meta| meta.0.0).unwrap_or_default();
        let origin = Incoming::new(parts, &id, meta, caller, in_session.as_ref());
        let server = server.clone();
        let running = async move {
            if server.unobserved() {
                call_directly(server.clone(), call.params, origin).await
            } else {
                server
                    .piped("tools/call", call.params, origin, call_directly)
                    .await
            }
        };
        if let Some(begun) = in_session {
            return Ok(self.answer_in_session(running, id, begun).await);
        }
        let answered = tokio::select! {
            biased;
            answered = running => answered,
            () = self.stop.cancelled() => return Ok(stopped()),
        };
        Ok(json(&answer(answered, id)))
    }

    /// The call `id` begun in the request's session, on a server with sessions; `Err`
    /// when it is not to be answered here (no session, or not one that takes it).
    async fn begin(
        &self,
        parts: &Parts,
        id: &rmcp::model::RequestId,
    ) -> Result<Option<DirectCall>, ()> {
        let Some(sessions) = &self.sessions else {
            return Ok(None);
        };
        let session = session_of(parts).ok_or(())?;
        let begun = sessions.begin_call(session, id).await.ok_or(())?;
        Ok(Some(begun))
    }

    /// The SSE response to a call in a session; see [`call_stream`]. Not an `async fn`,
    /// for the reason [`call_stream::respond`] gives: the future returned holds the call
    /// boxed, not inline.
    fn answer_in_session<F>(
        &self,
        running: F,
        id: rmcp::model::RequestId,
        begun: DirectCall,
    ) -> impl Future<Output = Response<Boxed>> + Send + use<F>
    where
        F: Future<Output = Result<CallToolResponse, rmcp::model::ErrorData>> + Send + 'static,
    {
        let message = async move { answer(running.await, id) };
        call_stream::respond(message, begun, self.stop.clone())
    }

    /// The stream of a call answered here that a client resumes: a GET in its session
    /// whose `Last-Event-ID` is the id of the stream's priming event. `None` for any other
    /// request, which `rmcp` answers.
    pub(super) fn resume(&self, parts: &Parts) -> Option<Response<Boxed>> {
        let sessions = self.sessions.as_ref()?;
        let session = session_of(parts)?;
        let last = parts.headers.get("last-event-id")?.to_str().ok()?;
        call_stream::resume(sessions, session, last)
    }

    /// Cancels the call `message` names, when it is `notifications/cancelled` for a call
    /// being answered here in the request's session.
    fn read_cancellation(&self, message: &ClientJsonRpcMessage, parts: &Parts) {
        let (Some(sessions), Some(session)) = (&self.sessions, session_of(parts)) else {
            return;
        };
        if let ClientJsonRpcMessage::Notification(JsonRpcNotification {
            notification: ClientNotification::CancelledNotification(cancelled),
            ..
        }) = message
            && let Some(request) = &cancelled.params.request_id
        {
            sessions.cancel_call(session, request);
        }
    }

    /// `rmcp`'s check of the `Host` header, for a request it lets through: present, an
    /// authority, and among the allowed hosts (any port, for one listed without).
    fn host_allowed(&self, headers: &HeaderMap) -> bool {
        // Without a `Host`, rmcp answers: the request is handed on, not refused here.
        headers.contains_key(header::HOST) && self.hosts.admit(headers)
    }
}

/// The session a request names.
fn session_of(parts: &Parts) -> Option<&str> {
    (parts.headers.get(SESSION_ID_HEADER)).and_then(|id| id.to_str().ok())
}

/// A request answered here, as the pipeline reads it.
struct Incoming {
    /// The session it came in, on a server with sessions.
    session: Option<String>,
    caller: Option<std::sync::Arc<Auth>>,
    /// The HTTP request's trace context headers, read when a subscriber listens.
    trace_headers: [Option<String>; 3],
    id: RequestId,
    meta: serde_json::Map<String, serde_json::Value>,
    protocol_version: Option<String>,
    client_address: Option<std::net::SocketAddr>,
    http_version: http::Version,
}

impl Incoming {
    /// The request `id` with these `parts`, `meta` and `caller`, begun in a session or
    /// stateless.
    fn new(
        parts: &Parts,
        id: &rmcp::model::RequestId,
        meta: serde_json::Map<String, serde_json::Value>,
        caller: Option<Arc<Auth>>,
        in_session: Option<&DirectCall>,
    ) -> Self {
        let protocol_version = match in_session {
            Some(begun) => Some(begun.protocol_version.to_string()),
            None => (parts.headers.get("mcp-protocol-version"))
                .and_then(|version| version.to_str().ok().map(str::to_owned)),
        };
        Incoming {
            session: in_session.map(|begun| begun.session().to_string()),
            id: bridge::request_id(id),
            meta,
            protocol_version,
            client_address: address_of(parts),
            http_version: parts.version,
            caller,
            trace_headers: match spans::listening() {
                true => TRACE_KEYS.map(|key| {
                    let value = parts.headers.get(key)?.to_str().ok()?;
                    Some(value.to_owned())
                }),
                false => [None, None, None],
            },
        }
    }
}

impl Origin for Incoming {
    fn session(&self) -> Option<&str> {
        self.session.as_deref()
    }

    fn protocol_version(&self) -> Option<String> {
        self.protocol_version.clone()
    }

    fn id(&self) -> RequestId {
        self.id.clone()
    }

    fn transport(&self) -> Transport {
        Transport::Http
    }

    fn caller(&self) -> Option<std::sync::Arc<Auth>> {
        self.caller.clone()
    }

    fn meta(&self) -> serde_json::Map<String, serde_json::Value> {
        self.meta.clone()
    }

    fn client_address(&self) -> Option<std::net::SocketAddr> {
        self.client_address
    }

    fn http_version(&self) -> Option<&'static str> {
        Some(spans::http_version(self.http_version))
    }

    fn trace(&self) -> Trace<'_> {
        Trace {
            meta: trace_in(&self.meta),
            headers: self.trace_headers.each_ref().map(Option::as_deref),
        }
    }
}

/// One `Accept` header, a plain list (no parameters, no quotes) that names both media
/// types a Streamable HTTP client must accept: `rmcp` accepts it as it is.
fn accepts_json_and_events(headers: &HeaderMap) -> bool {
    let mut accept = headers.get_all(header::ACCEPT).iter();
    let (Some(accept), None) = (accept.next(), accept.next()) else {
        return false;
    };
    let Ok(accept) = accept.to_str() else {
        return false;
    };
    if accept.contains([';', '"']) {
        return false;
    }
    let names = |wanted: &str| {
        accept
            .split(',')
            .any(|media| media.trim().eq_ignore_ascii_case(wanted))
    };
    names("application/json") && names("text/event-stream")
}

/// No `MCP-Protocol-Version`, or a known one that begins its session with `initialize`.
fn before_request_lifecycle(headers: &HeaderMap) -> bool {
    let Some(version) = headers.get("mcp-protocol-version") else {
        return true;
    };
    let Ok(version) = version.to_str() else {
        return false;
    };
    version < ProtocolVersion::NO_INITIALIZE.as_str()
        && (ProtocolVersion::KNOWN_VERSIONS.iter()).any(|known| known.as_str() == version)
}

/// A JSON reply, `200`, as `rmcp` sends one in stateless mode.
fn json(message: &ServerJsonRpcMessage) -> Response<Boxed> {
    let body = match serde_json::to_vec(message) {
        Ok(body) => body,
        Err(error) => return internal_error("serialize json response", &error),
    };
    let mut response = Response::new(Full::new(Bytes::from(body)).boxed());
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static("application/json"),
    );
    response
}

/// What `rmcp` answers a call still running when the server stops.
fn stopped() -> Response<Boxed> {
    let error = "no response message received from handler";
    internal_error("empty response", &error)
}

/// `rmcp`'s `500` for an internal error, in its words.
fn internal_error(context: &str, error: &dyn std::fmt::Display) -> Response<Boxed> {
    tracing::error!("Internal server error when {context}: {error}");
    let text = format!("Encounter an error when {context}: {error}");
    let mut response = Response::new(Full::new(Bytes::from(text)).boxed());
    *response.status_mut() = StatusCode::INTERNAL_SERVER_ERROR;
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLAIN: [(&str, &str); 4] = [
        ("host", "127.0.0.1:8000"),
        ("accept", "application/json, text/event-stream"),
        ("content-type", "application/json"),
        ("mcp-protocol-version", "2025-11-25"),
    ];

    /// Whether a request with `PLAIN`'s headers, less `without` and with `with`, is
    /// admitted by a server that allows `hosts`.
    fn admits(hosts: &[&str], without: &str, with: &[(&str, &str)]) -> bool {
        let mut request = http::Request::post("/mcp");
        for (name, value) in PLAIN.iter().filter(|(name, _)| *name != without) {
            request = request.header(*name, *value);
        }
        for (name, value) in with {
            request = request.header(*name, *value);
        }
        let (parts, ()) = request.body(()).unwrap().into_parts();
        let hosts: Vec<String> = hosts.iter().map(|host| (*host).to_owned()).collect();
        Direct::new(&hosts, CancellationToken::new(), None).admits(&parts)
    }

    #[test]
    fn a_plain_request_from_an_allowed_host_is_admitted() {
        assert!(admits(&["127.0.0.1"], "", &[]));
        assert!(admits(&["127.0.0.1:8000"], "", &[]));
        assert!(admits(&["LOCALHOST", "127.0.0.1"], "", &[]));
        assert!(admits(&[], "", &[]), "no list allows every host");
        assert!(admits(&["", "127.0.0.1"], "", &[]));
        assert!(admits(&["127.0.0.1"], "mcp-protocol-version", &[]));
        let accept = [("accept", "text/event-stream,APPLICATION/JSON")];
        assert!(admits(&["127.0.0.1"], "accept", &accept));
        let charset = [("content-type", "application/json; charset=utf-8")];
        assert!(admits(&["127.0.0.1"], "content-type", &charset));
    }

    #[test]
    fn a_host_rmcp_refuses_is_left_to_it() {
        assert!(!admits(&["localhost"], "", &[]));
        assert!(
            !admits(&[""], "", &[]),
            "a list of blank entries allows no host"
        );
        assert!(!admits(&["127.0.0.1:9000"], "", &[]));
        assert!(!admits(&["127.0.0.1"], "host", &[]));
        assert!(!admits(
            &["127.0.0.1"],
            "host",
            &[("host", "127.0.0.1:8000:1")]
        ));
        assert!(admits(&["[::1]"], "host", &[("host", "[::1]:8000")]));
    }

    #[test]
    fn an_origin_or_an_unusual_accept_is_left_to_rmcp() {
        let hosts = ["127.0.0.1"];
        assert!(!admits(&hosts, "", &[("origin", "http://127.0.0.1")]));
        assert!(!admits(&hosts, "accept", &[("accept", "application/json")]));
        let weighted = [("accept", "application/json, text/event-stream;q=0")];
        assert!(!admits(&hosts, "accept", &weighted));
        let two = [
            ("accept", "application/json"),
            ("accept", "text/event-stream"),
        ];
        assert!(!admits(&hosts, "accept", &two));
        assert!(!admits(
            &hosts,
            "content-type",
            &[("content-type", "text/plain")]
        ));
        assert!(!admits(&hosts, "content-type", &[]));
    }

    #[test]
    fn a_protocol_with_requests_of_their_own_lifecycle_is_left_to_rmcp() {
        let hosts = ["127.0.0.1"];
        let version = |version| [("mcp-protocol-version", version)];
        assert!(admits(
            &hosts,
            "mcp-protocol-version",
            &version("2024-11-05")
        ));
        assert!(!admits(
            &hosts,
            "mcp-protocol-version",
            &version("2026-07-28")
        ));
        assert!(!admits(
            &hosts,
            "mcp-protocol-version",
            &version("2025-01-01")
        ));
        assert!(!admits(&hosts, "mcp-protocol-version", &version("")));
    }
}
