//! Streamable HTTP: `rmcp`'s server, with what it leaves unanswered answered here.
//!
//! `rmcp`'s `StreamableHttpService` runs the sessions, the SSE streams, the stateless
//! mode and the `Host` and `Origin` checks. In front of it, this module only reads each
//! POST body (bounded by the server's message size and body timeout), and turns the
//! plain-text refusals `rmcp` sends (a body that is not JSON gets `415` and a sentence)
//! into JSON-RPC errors a client can read, decoding the body with [`wire`] on that
//! failure path only. [`direct`] answers the `tools/call` requests whose answer
//! `rmcp`'s service for one request or its session worker would not change, without
//! them; [`sessions`] bounds `rmcp`'s sessions; [`serve`] serves the endpoint on a
//! listener, bounding connections and the time their requests take.

use std::convert::Infallible;
use std::sync::Arc;
use std::task::{Context as TaskContext, Poll};
use std::time::Duration;

use bytes::Bytes;
use futures::future::BoxFuture;
use http::{Method, Request, Response, StatusCode, header};
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt as _, Full, LengthLimitError, Limited};
use rmcp::model::ClientJsonRpcMessage;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use tokio_util::task::task_tracker::TaskTrackerToken;

use crate::protocol::wire::{self, Inbound};
use crate::server::tasks::Owner;
use crate::server::tool_server::ToolServer;
use sessions::BoundedSessions;

pub(crate) use crate::protocol::peer_session::SESSION_ID_HEADER;

mod allowed;
mod call_stream;
mod card;
mod direct;
mod guard;
mod serve;
mod sessions;

/// How long a client refused a session is asked to wait before it tries again.
const RETRY_AFTER: Duration = Duration::from_secs(5);

/// The body of rmcp's responses, and of ours, inside the service.
type Boxed = BoxBody<Bytes, Infallible>;

/// The body of every response of an [`HttpService`]: a JSON document, or a stream of
/// server-sent events. It is an [`http_body::Body`] of [`Bytes`] that cannot fail, as
/// `hyper`, `axum` and the rest of the `tower` ecosystem take.
///
/// ```
/// fn served_by_hyper<B: http_body::Body<Error = std::convert::Infallible> + Send + 'static>() {}
/// served_by_hyper::<mcp_tool::HttpBody>();
/// ```
pub struct HttpBody(Boxed);

impl http_body::Body for HttpBody {
    type Data = Bytes;
    type Error = Infallible;

    #[inline]
    fn poll_frame(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut TaskContext<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Bytes>, Infallible>>> {
        std::pin::Pin::new(&mut self.0).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.0.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.0.size_hint()
    }
}

impl std::fmt::Debug for HttpBody {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpBody").finish_non_exhaustive()
    }
}

/// The MCP endpoint of a [`ToolServer`] as a `tower` service, to mount in an HTTP
/// application of one's own (`axum`, `hyper`, anything that takes a `tower` service).
/// Made by [`ToolServer::http_service`].
///
/// It serves the Streamable HTTP transport at whatever path it is mounted on: POST
/// for messages, GET for the server's stream, DELETE to end a session.
///
/// ```no_run
/// # /// Adds two integers and returns their sum.
/// # #[mcp_tool::mcp_tool]
/// # fn add(a: i64, b: i64) -> i64 { a + b }
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// let server = mcp_tool::Server::from_registry("calculator", "1.0.0").build()?;
/// let app = axum::Router::new()
///     .route("/health", axum::routing::get(|| async { "ok" }))
///     .route_service("/mcp", server.http_service());
/// let listener = tokio::net::TcpListener::bind("127.0.0.1:8000").await?;
/// axum::serve(listener, app).await?;
/// # Ok(())
/// # }
/// ```
#[derive(Clone)]
pub struct HttpService(Arc<Endpoint>);

/// What an [`HttpService`] shares between its clones: one per request is made.
struct Endpoint {
    inner: StreamableHttpService<ToolServer, BoundedSessions>,
    max_message: usize,
    max_sessions: usize,
    body_read_timeout: Duration,
    /// The POST requests being answered, which a graceful shutdown waits for.
    in_flight: TaskTracker,
    /// The token and scope checks, on a server with authorization.
    guard: Option<guard::Guard>,
    /// The sessions, each bound to the caller that opened it.
    sessions: Arc<BoundedSessions>,
    /// What answers `tools/call` requests without `rmcp`'s service.
    direct: direct::Direct,
    /// The server card, when the server serves one.
    card: Option<card::Card>,
    server: ToolServer,
}

impl std::fmt::Debug for HttpService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpService")
            .field("max_message", &self.0.max_message)
            .field("in_flight", &self.0.in_flight.len())
            .finish_non_exhaustive()
    }
}

impl HttpService {
    /// The service over `server`'s tools, whose sessions and streams end when `stop`
    /// is cancelled.
    pub(crate) fn new(server: &ToolServer, stop: CancellationToken) -> Self {
        let options = server.http_options();
        let max_message = server.limits().max_message;
        let mut config = StreamableHttpServerConfig::default()
            .with_allowed_hosts(options.allowed_hosts.iter().cloned())
            .with_legacy_session_mode(!options.stateless)
            .with_json_response(options.stateless)
            .with_cancellation_token(stop.clone())
            // Bodies are read, and bounded, here first.
            .with_max_request_body_bytes(max_message);
        config = match &options.allowed_origins {
            // rmcp checks a present `Origin` against the list, even an empty one.
            Some(origins) => config
                .with_allowed_origins(
                    origins
                        .iter()
                        .map(|origin| allowed::with_default_port(origin)),
                )
                .enforce_origin_validation(),
            None => config.disable_allowed_origins(),
        };
        if options.stateless {
            // No session to keep an SSE stream for.
            config = config.with_sse_keep_alive(None);
        }
        let guard = guard::Guard::new(server, options);
        let for_rmcp = server.clone();
        let sessions = Arc::new(BoundedSessions::new(
            options.max_sessions,
            options.session_idle_timeout,
        ));
        let in_sessions = (!options.stateless).then(|| Arc::clone(&sessions));
        let direct = direct::Direct::new(&options.allowed_hosts, stop, in_sessions);
        let inner = StreamableHttpService::new(
            move || Ok(for_rmcp.session()),
            Arc::clone(&sessions),
            config,
        );
        HttpService(Arc::new(Endpoint {
            inner,
            max_message,
            max_sessions: options.max_sessions,
            body_read_timeout: options.body_read_timeout,
            in_flight: TaskTracker::new(),
            guard,
            sessions,
            direct,
            card: card::Card::new(server),
            server: server.clone(),
        }))
    }

    /// The requests being answered, which a graceful shutdown waits for.
    pub(super) fn in_flight(&self) -> &TaskTracker {
        &self.0.in_flight
    }
}

impl Endpoint {
    async fn handle<B>(&self, request: Request<B>) -> Response<Boxed>
    where
        B: http_body::Body<Data = Bytes> + Send + 'static,
        B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
    {
        let (mut parts, body) = request.into_parts();
        let auth = match &self.guard {
            Some(guard) if guard::Guard::is_metadata(&parts) => return guard.metadata(&parts),
            Some(guard) => match Box::pin(guard.authenticate(&parts)).await {
                Ok(auth) => Some(auth),
                Err(refusal) => return refusal,
            },
            None => None,
        };
        if let Some(auth) = &auth
            && self.taken_session(&parts, auth)
        {
            return session_not_found();
        }
        if parts.method == Method::GET
            && let Some(resumed) = self.direct.resume(&parts)
        {
            return resumed;
        }
        if parts.method != Method::POST {
            give_caller(&mut parts, auth.as_ref());
            let deleted = parts.method == Method::DELETE;
            // GET and DELETE carry no body that MCP reads.
            let request = Request::from_parts(parts, Full::new(Bytes::new()));
            let mut response = Box::pin(self.inner.handle(request)).await;
            // rmcp answers a session's end with 202, which clients read as a failure
            // (the Python SDK expects 200 or 204): it ended, and nothing follows.
            if deleted && response.status() == StatusCode::ACCEPTED {
                *response.status_mut() = StatusCode::NO_CONTENT;
            }
            return response;
        }
        let answering = self.in_flight.token();
        let json_body = has_json_content(&parts.headers);
        let bytes = match self.read_body(body).await {
            Ok(bytes) => bytes,
            Err(refusal) => return refusal,
        };
        let mut checked = match (&self.guard, &auth) {
            (Some(guard), Some(auth)) => match guard.authorize(auth, &bytes, &parts) {
                Ok(guard::Checked::Message(message)) => Some(message),
                Ok(guard::Checked::Ignored) => return accepted(),
                Err(refusal) => return *refusal,
            },
            _ => None,
        };
        if self.direct.admits(&parts) {
            // Boxed, as rmcp's answer is below, to keep this future small.
            let direct = self.answer_directly(checked, auth.clone(), &bytes, &parts);
            match Box::pin(direct).await {
                Ok(response) => return answered(response, answering),
                Err(unanswered) => checked = unanswered,
            }
        }
        // rmcp reads exactly what was checked, encoded again.
        let bytes = match checked.map(|message| serde_json::to_vec(&message)) {
            Some(Ok(encoded)) => Bytes::from(encoded),
            Some(Err(error)) => return not_encoded(&error),
            None => bytes,
        };
        give_caller(&mut parts, auth.as_ref());
        let request = Request::from_parts(parts, Full::new(bytes.clone()));
        // rmcp's answer is a large future, boxed: this one, which holds it, is moved whole
        // on its way to the heap, and moving it cost more than the rest of a call.
        let answer = Box::pin(self.inner.handle(request));
        let (response, refused) = sessions::watch_refusal(auth, answer).await;
        let response = if refused {
            sessions_full(self.max_sessions)
        } else if response.status().is_client_error() {
            explained(response, json_body, &bytes).await
        } else {
            response
        };
        answered(response, answering)
    }
}

impl Endpoint {
    /// A POST's body, read within the server's time and size limits; else the refusal.
    async fn read_body<B>(&self, body: B) -> Result<Bytes, Response<Boxed>>
    where
        B: http_body::Body<Data = Bytes> + Send + 'static,
        B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
    {
        let reading = Limited::new(body, self.max_message).collect();
        let Ok(read) = tokio::time::timeout(self.body_read_timeout, reading).await else {
            return Err(body_too_slow(self.body_read_timeout));
        };
        match read {
            Ok(collected) => Ok(collected.to_bytes()),
            Err(error) if error.is::<LengthLimitError>() => Err(rpc_error(
                StatusCode::PAYLOAD_TOO_LARGE,
                wire::too_long(self.max_message),
            )),
            Err(error) => {
                let message = format!("Invalid request: the body could not be read ({error})");
                Err(rpc_error(
                    StatusCode::BAD_REQUEST,
                    wire::invalid_request(message),
                ))
            }
        }
    }

    /// The response of the direct path to a request: to the message the guard checked on
    /// a server with authorization, else to the body; or what `rmcp` is to read, when the
    /// direct path does not answer it.
    async fn answer_directly(
        &self,
        checked: Option<Box<ClientJsonRpcMessage>>,
        caller: Option<Arc<crate::model::Auth>>,
        bytes: &[u8],
        parts: &http::request::Parts,
    ) -> Result<Response<Boxed>, Option<Box<ClientJsonRpcMessage>>> {
        match checked {
            Some(message) => (self
                .direct
                .answer_message(&self.server, message, parts, caller)
                .await)
                .map_err(Some),
            None => (self.direct.answer(&self.server, bytes, parts).await).ok_or(None),
        }
    }
}

/// rmcp hands the request's parts to the handler, which gives a call its caller. (The
/// direct path is given its caller itself.)
fn give_caller(parts: &mut http::request::Parts, auth: Option<&Arc<crate::model::Auth>>) {
    if let Some(auth) = auth {
        parts.extensions.insert(Arc::clone(auth));
    }
}

/// The request counts as being answered until its response body is sent: for a call,
/// that is the stream that carries its notifications and its reply.
fn answered(response: Response<Boxed>, answering: TaskTrackerToken) -> Response<Boxed> {
    response.map(|body| {
        Answering {
            body,
            _answering: answering,
        }
        .boxed()
    })
}

/// A response body that holds its request's place among those in flight until it is
/// sent. Its length is the body's own, so that a JSON reply goes out with its
/// `content-length`, not chunked.
struct Answering {
    body: Boxed,
    _answering: TaskTrackerToken,
}

impl http_body::Body for Answering {
    type Data = Bytes;
    type Error = Infallible;

    #[inline]
    fn poll_frame(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut TaskContext<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Bytes>, Infallible>>> {
        std::pin::Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.body.size_hint()
    }
}

impl Endpoint {
    /// Whether the request names a session another caller opened: a token of one caller
    /// never reaches another caller's session, whose id it may have learned. Whom a
    /// session belongs to is the rule a task's owner is, [`Owner::caller`].
    fn taken_session(&self, parts: &http::request::Parts, auth: &crate::model::Auth) -> bool {
        let id = parts
            .headers
            .get(SESSION_ID_HEADER)
            .and_then(|id| id.to_str().ok());
        let owner = id.and_then(|id| self.sessions.owner(id));
        // Digested only for a request in a bound session.
        owner.is_some_and(|owner| Owner::caller(auth).as_ref() != Some(&owner))
    }
}

/// `404 Not Found` for a session that is not the caller's, as for a session that ended.
fn session_not_found() -> Response<Boxed> {
    let message = "Invalid request: no such session; send initialize to open one".to_owned();
    rpc_error(StatusCode::NOT_FOUND, wire::invalid_request(message))
}

impl<B> tower_service::Service<Request<B>> for HttpService
where
    B: http_body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    type Response = Response<HttpBody>;
    type Error = Infallible;
    type Future = BoxFuture<'static, Result<Self::Response, Infallible>>;

    fn poll_ready(&mut self, _: &mut TaskContext<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        if let Some(card) = &self.0.card
            && card::Card::asked(request.uri())
        {
            // Public, as the SEP makes it: it names no tool, prompt or resource.
            let answer = card.answer(&request.into_parts().0);
            return Box::pin(async move { Ok(answer.map(HttpBody)) });
        }
        let endpoint = Arc::clone(&self.0);
        Box::pin(async move { Ok(endpoint.handle(request).await.map(HttpBody)) })
    }
}

/// A refusal of `rmcp`'s, as a JSON-RPC error: a body that is not a message gets the
/// error a stdio client would get for the same line, with `400`; any other refusal
/// keeps its status and says its sentence as an `Invalid request` error.
async fn explained(response: Response<Boxed>, json_body: bool, body: &Bytes) -> Response<Boxed> {
    if has_json_content(response.headers()) {
        return response;
    }
    if response.status() == StatusCode::UNSUPPORTED_MEDIA_TYPE && json_body {
        // rmcp could not read the body as a message: say why, as stdio does.
        match wire::decode(body) {
            Inbound::Rejected(reply) => {
                // A body that is no JSON-RPC request is refused (400); a request whose
                // method or params are wrong is answered like any other (200).
                let code = serde_json::from_slice::<serde_json::Value>(&reply)
                    .ok()
                    .and_then(|reply| reply["error"]["code"].as_i64());
                let status = match code {
                    Some(-32602 | -32601) => StatusCode::OK,
                    _ => StatusCode::BAD_REQUEST,
                };
                return rpc_error(status, reply);
            }
            Inbound::Ignored => return accepted(),
            Inbound::Message(_) => {}
        }
    }
    let (parts, text) = response.into_parts();
    let text = text
        .collect()
        .await
        .map(|c| c.to_bytes())
        .unwrap_or_default();
    let text = String::from_utf8_lossy(&text);
    let message = format!("Invalid request: {}", text.trim());
    rpc_error(parts.status, wire::invalid_request(message))
}

fn has_json_content(headers: &http::HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| {
            let essence = value.split(';').next().unwrap_or_default().trim();
            essence.eq_ignore_ascii_case("application/json")
        })
}

fn rpc_error(status: StatusCode, reply: Vec<u8>) -> Response<Boxed> {
    let mut response = Response::new(Full::new(Bytes::from(reply)).boxed());
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static("application/json"),
    );
    response
}

/// `503 Service Unavailable` with `Retry-After`, for an `initialize` beyond the maximum
/// of sessions: the sessions open go on undisturbed, and a slot frees when one ends.
fn sessions_full(max: usize) -> Response<Boxed> {
    let message = format!(
        "Server busy: it holds its maximum of {max} sessions; try again later or end an idle one"
    );
    let mut response = rpc_error(StatusCode::SERVICE_UNAVAILABLE, wire::busy(message));
    response.headers_mut().insert(
        header::RETRY_AFTER,
        header::HeaderValue::from(RETRY_AFTER.as_secs()),
    );
    response
}

/// `408 Request Timeout` for a body not sent within `limit`, closing the connection, whose
/// unread rest would be taken for the next request.
fn body_too_slow(limit: Duration) -> Response<Boxed> {
    let message = format!(
        "Invalid request: the body was not sent within {} seconds",
        limit.as_secs_f64()
    );
    let mut response = rpc_error(StatusCode::REQUEST_TIMEOUT, wire::invalid_request(message));
    response.headers_mut().insert(
        header::CONNECTION,
        header::HeaderValue::from_static("close"),
    );
    response
}

/// `400` for a checked message that could not be encoded again for `rmcp`.
#[cold]
fn not_encoded(error: &serde_json::Error) -> Response<Boxed> {
    tracing::error!(%error, "a checked message could not be encoded again");
    let message = "Invalid request: the message could not be read".to_owned();
    rpc_error(StatusCode::BAD_REQUEST, wire::invalid_request(message))
}

/// `202 Accepted`, what a notification gets, also one dropped as malformed.
fn accepted() -> Response<Boxed> {
    let mut response = Response::new(Full::new(Bytes::new()).boxed());
    *response.status_mut() = StatusCode::ACCEPTED;
    response
}

impl ToolServer {
    /// The server's MCP endpoint as a `tower` service, to mount at a path of one's own
    /// in an HTTP application; see [`HttpService`]. It honours the HTTP options set on
    /// the [`Server`](crate::Server) (stateless mode, allowed hosts and origins) and its
    /// message size limit. [`serve_http`](Self::serve_http) serves it at `/mcp` on its own.
    #[cfg_attr(docsrs, doc(cfg(feature = "http")))]
    pub fn http_service(&self) -> HttpService {
        HttpService::new(self, CancellationToken::new())
    }
}
