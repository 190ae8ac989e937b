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
//! byte for byte, without sessions; in a session, as the one event of an SSE stream,
//! with the same headers and the same message.
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
//! serves does. A call that finishes at once is answered with its reply as the stream's
//! one event, without an id: nothing comes before the reply that a client could resume
//! after. A call that does not gets its response head and a priming event (an id and a
//! time to wait, SEP-1699) straight away, an SSE comment every 15 seconds as `rmcp` keeps
//! a stream alive, then its reply; it runs on a task of its own, and a client whose stream
//! broke gets the reply by resuming the stream (a GET with the priming event's id as its
//! `Last-Event-ID`) within a minute of it.

use std::convert::Infallible;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context as TaskContext, Poll};
use std::time::Duration;

use bytes::Bytes;
use http::request::Parts;
use http::{HeaderMap, Response, StatusCode, header};
use http_body_util::{BodyExt as _, Full};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ClientJsonRpcMessage, ClientNotification,
    ClientRequest, JsonRpcNotification, JsonRpcRequest, ProtocolVersion, RequestMetaObject,
    ServerJsonRpcMessage, ServerResult,
};
use tokio_util::sync::CancellationToken;

use super::Boxed;
use super::SESSION_ID_HEADER;
use super::allowed::AllowedHosts;
use super::sessions::{BoundedSessions, DirectCall, Reply};
use futures::FutureExt as _;

use crate::model::{Auth, RequestId};
use crate::protocol::bridge;
use crate::protocol::piped::{Origin, address_of, trace_in};
use crate::protocol::wire::PROTOCOL_VERSION_KEY;
use crate::protocol::wire::{self, Inbound};
use crate::server::pipeline::Transport;
use crate::server::pipeline::spans::{self, TRACE_KEYS};
use crate::server::tool_server::{Refusal, ToolServer};

/// The method answered here, as a request's body spells it.
const CALL: &[u8] = b"\"tools/call\"";

/// The notification read here in a session, as a body spells it.
const CANCELLED: &[u8] = b"\"notifications/cancelled\"";

/// How long a call's SSE stream goes without an event before a comment keeps it alive:
/// `rmcp`'s interval.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// How long the reply of a call that did not finish at once is kept after it came, for a
/// client whose stream broke before it: `rmcp`'s time for a finished stream.
const KEPT_FOR: Duration = Duration::from_secs(60);

/// How long a client whose stream broke waits before it resumes it: `rmcp`'s default.
const RETRY_MS: u64 = 3000;

/// How the event ids of the streams of calls answered here begin, each followed by the
/// stream's number in its session (`rmcp`'s ids are two numbers and a slash).
const STREAM_ID: &str = "direct-";

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
        // rmcp keeps a request's `_meta` among its extensions.
        let own_version = (call.extensions.get::<RequestMetaObject>())
            .is_some_and(|meta| meta.0.0.contains_key(PROTOCOL_VERSION_KEY));
        if own_version || (server.find(&call.params.name)).is_some_and(|tool| !tool.reply_only()) {
            return hand_on(call, id);
        }
        let in_session = match &self.sessions {
            Some(sessions) => {
                let session = session_of(parts);
                let begun = match session {
                    Some(session) => sessions.begin_call(session, &id).await,
                    None => None,
                };
                match begun {
                    Some(begun) => Some(begun),
                    None => return hand_on(call, id),
                }
            }
            None => None,
        };
        let meta = call.extensions.remove::<RequestMetaObject>();
        tracing::trace!(
            tool = %call.params.name,
            session = in_session.is_some(),
            "a tools/call answered directly"
        );
        let protocol_version = match &in_session {
            Some(begun) => Some(begun.protocol_version.to_string()),
            None => (parts.headers.get("mcp-protocol-version"))
                .and_then(|version| version.to_str().ok().map(str::to_owned)),
        };
        let origin = Incoming {
            session: (in_session.as_ref()).map(|begun| begun.session().to_string()),
            id: bridge::request_id(&id),
            meta: meta.map(|meta| meta.0.0).unwrap_or_default(),
            protocol_version,
            client_address: address_of(parts),
            caller,
            trace_headers: match spans::listening() {
                true => TRACE_KEYS.map(|key| {
                    let value = parts.headers.get(key)?.to_str().ok()?;
                    Some(value.to_owned())
                }),
                false => [None, None, None],
            },
        };
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

    /// The SSE response to a call in a session: whole, when the call finishes at once;
    /// else its head and a priming event at once, and the reply when it comes. Such a
    /// call runs on a task of its own, and its reply is kept a while, so that a client
    /// whose stream breaks can resume it with the priming event's id (SEP-1699), as
    /// `rmcp` lets it.
    async fn answer_in_session(
        &self,
        running: impl Future<Output = Result<CallToolResponse, rmcp::model::ErrorData>> + Send + 'static,
        id: rmcp::model::RequestId,
        begun: DirectCall,
    ) -> Response<Boxed> {
        let stop = self.stop.clone();
        let (sessions, session) = (Arc::clone(begun.sessions()), Arc::clone(begun.session()));
        let event = async move {
            let answered = tokio::select! {
                biased;
                answered = running => answered,
                // The client cancelled the call, or its session or the server ended: the
                // stream ends without a reply, as the specification asks.
                () = begun.cancelled.cancelled() => return None,
                () = stop.cancelled() => return None,
            };
            drop(begun);
            Some(event(&answer(answered, id)))
        };
        let mut event: Pending = Box::pin(event);
        let at_once = std::future::poll_fn(|cx| Poll::Ready(event.as_mut().poll(cx))).await;
        let body = match at_once {
            Poll::Ready(event) => Full::new(event.unwrap_or_default()).boxed(),
            Poll::Pending => {
                let running = tokio::spawn(event);
                let reply: Reply = async move { running.await.ok().flatten() }.boxed().shared();
                let stream = sessions.keep_reply(&session, reply.clone());
                let priming = stream.map(|stream| {
                    let priming = format!("data: \nid: {STREAM_ID}{stream}\nretry: {RETRY_MS}\n\n");
                    Bytes::from(priming)
                });
                let kept = stream.map(|stream| Kept {
                    sessions,
                    session,
                    stream,
                    reply: reply.clone(),
                });
                let mut body = Stream::new(priming, reply.boxed());
                body.kept = kept;
                body.boxed()
            }
        };
        sse(body)
    }

    /// The stream of a call answered here that a client resumes: a GET in its session
    /// whose `Last-Event-ID` is the id of the stream's priming event. `None` for any other
    /// request, which `rmcp` answers.
    pub(super) fn resume(&self, parts: &Parts) -> Option<Response<Boxed>> {
        let sessions = self.sessions.as_ref()?;
        let session = session_of(parts)?;
        let last = parts.headers.get("last-event-id")?.to_str().ok()?;
        let stream = last.strip_prefix(STREAM_ID)?.parse().ok()?;
        let reply = sessions.kept_reply(session, stream)?;
        tracing::debug!(
            session,
            stream,
            "a stream of a call answered directly resumed"
        );
        Some(sse(Stream::new(None, reply.boxed()).boxed()))
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

/// The reply of a call, encoded as one SSE event, or `None` when it ended without one.
type Pending = Pin<Box<dyn Future<Output = Option<Bytes>> + Send>>;

/// An SSE response with `body`, with the headers `rmcp` gives one.
fn sse(body: Boxed) -> Response<Boxed> {
    let mut response = Response::new(body);
    let headers = response.headers_mut();
    let value = header::HeaderValue::from_static;
    headers.insert(header::CONTENT_TYPE, value("text/event-stream"));
    headers.insert(header::CACHE_CONTROL, value("no-cache"));
    headers.insert("x-accel-buffering", value("no"));
    response
}

/// A reply kept for a client that resumes its stream: forgotten once its stream sent it,
/// or [`KEPT_FOR`] after it came, when the stream broke before.
struct Kept {
    sessions: Arc<BoundedSessions>,
    session: super::sessions::SessionId,
    stream: u64,
    reply: Reply,
}

impl Kept {
    fn forget(self) {
        self.sessions.forget_reply(&self.session, self.stream);
    }

    /// Forgets the reply [`KEPT_FOR`] after it came.
    fn forget_later(self) {
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return self.forget();
        };
        runtime.spawn(async move {
            self.reply.clone().await;
            tokio::time::sleep(KEPT_FOR).await;
            self.forget();
        });
    }
}

/// The body of a call's SSE stream while it runs: its priming event, a comment every
/// [`KEEP_ALIVE`], then the reply.
struct Stream {
    /// The reply kept for a client that resumes this stream, while it is.
    kept: Option<Kept>,
    /// The priming event, until it is sent.
    priming: Option<Bytes>,
    /// Taken once it has given its event. (A `Mutex` only to be `Sync`, as bodies are:
    /// the body is polled through `&mut`, which needs no lock.)
    event: Option<Mutex<Pending>>,
    keep_alive: tokio::time::Interval,
}

impl Stream {
    fn new(priming: Option<Bytes>, event: Pending) -> Self {
        let first = tokio::time::Instant::now() + KEEP_ALIVE;
        Self {
            kept: None,
            priming,
            event: Some(Mutex::new(event)),
            keep_alive: tokio::time::interval_at(first, KEEP_ALIVE),
        }
    }
}

impl http_body::Body for Stream {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut TaskContext<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Bytes>, Infallible>>> {
        if let Some(priming) = self.priming.take() {
            return Poll::Ready(Some(Ok(http_body::Frame::data(priming))));
        }
        let Some(event) = self.event.as_mut() else {
            return Poll::Ready(None);
        };
        let event = event
            .get_mut()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Poll::Ready(event) = event.as_mut().poll(cx) {
            self.event = None;
            // Sent: no client resumes a stream after its reply.
            if let Some(kept) = self.kept.take() {
                kept.forget();
            }
            return Poll::Ready(event.map(|event| Ok(http_body::Frame::data(event))));
        }
        match self.keep_alive.poll_tick(cx) {
            Poll::Ready(_) => Poll::Ready(Some(Ok(http_body::Frame::data(Bytes::from_static(
                b":\n\n",
            ))))),
            Poll::Pending => Poll::Pending,
        }
    }

    fn is_end_stream(&self) -> bool {
        self.priming.is_none() && self.event.is_none()
    }
}

impl Drop for Stream {
    fn drop(&mut self) {
        // The stream broke before its reply.
        if let Some(kept) = self.kept.take() {
            kept.forget_later();
        }
    }
}

/// The session a request names.
fn session_of(parts: &Parts) -> Option<&str> {
    (parts.headers.get(SESSION_ID_HEADER)).and_then(|id| id.to_str().ok())
}

/// The message that answers the request `id` with `answered`.
fn answer(
    answered: Result<CallToolResponse, rmcp::model::ErrorData>,
    id: rmcp::model::RequestId,
) -> ServerJsonRpcMessage {
    match answered {
        Ok(response) => reply(response, id),
        Err(error) => ServerJsonRpcMessage::error(error, Some(id)),
    }
}

/// `message` as an SSE event, as `rmcp` writes its data (without an event id).
fn event(message: &ServerJsonRpcMessage) -> Bytes {
    let mut event = b"data: ".to_vec();
    if let Err(error) = serde_json::to_writer(&mut event, message) {
        // Not reached: every message rmcp can hold encodes.
        tracing::error!(%error, "a reply could not be encoded");
        return Bytes::new();
    }
    event.extend_from_slice(b"\n\n");
    Bytes::from(event)
}

/// A call answered here, once it passed the pipeline.
async fn call_directly(
    server: ToolServer,
    params: CallToolRequestParams,
    _origin: Incoming,
) -> Result<CallToolResponse, rmcp::model::ErrorData> {
    // Found again past the pipeline: a tool added since in its place runs without a
    // session, as `ToolServer::call` runs one.
    let outcome = match server.find(&params.name) {
        Some(tool) => {
            let arguments = params.arguments.unwrap_or_default();
            server.run_found(tool, arguments, None).await
        }
        None => Err(Refusal::Call(server.unknown_tool(&params.name))),
    };
    match outcome {
        Ok(answer) => Ok(bridge::call_result(answer).into()),
        Err(Refusal::Call(error)) => Err(bridge::error_data(error)),
        // A call made without a request is never cancelled, asks nothing in rounds
        // and does not run as a task: none of these reaches here, and the tool has
        // run, so the request is not handed on.
        Err(_) => Err(rmcp::model::ErrorData::internal_error(
            "the call was refused",
            None,
        )),
    }
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

    fn trace(&self) -> [Option<&str>; 3] {
        trace_in(&self.meta, || {
            self.trace_headers.each_ref().map(Option::as_deref)
        })
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

/// The reply to a call that was answered, as `rmcp`'s handler makes it for a client on
/// a protocol before 2026-07-28: without `resultType`, and with structured content that
/// is not an object moved into the text.
fn reply(response: CallToolResponse, id: rmcp::model::RequestId) -> ServerJsonRpcMessage {
    let mut result = ServerResult::from(response);
    result.strip_result_type_for_legacy_peer();
    result.strip_non_object_output_for_legacy_peer();
    ServerJsonRpcMessage::response(result, id)
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
