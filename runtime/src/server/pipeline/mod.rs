//! The request pipeline: one `tower` stack every request and notification passes
//! before its handler, on every transport and protocol version, and its answer back.
//!
//! A request is seen here in this crate's own types ([`Request`], [`Response`]); the
//! protocol makes one from what it decoded and turns the answer back into its reply.
//! [`Server::layer`](crate::Server::layer) adds a `tower::Layer` over [`Next`], the rest of
//! the stack; [`from_fn`] makes one of an async closure; [`RateLimitLayer`],
//! [`ResponseLimitLayer`] and [`AuditLayer`] are built in, each a pair of a layer and its
//! service generic over the service it wraps, as tower's are. A server without a layer
//! skips the stack: its requests pay for none of it.

use std::any::Any;
use std::fmt;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;

use serde_json::{Map, Value};

use crate::model::{Auth, RequestId};

mod audit;
mod from_fn;
mod handling;
mod layers;
mod next;
mod rate_limit;
#[cfg(feature = "redis")]
mod redis_limits;
mod response_limit;
pub(crate) mod spans;

#[cfg(feature = "http")]
pub(crate) use audit::{Asked, Ended};
pub use audit::{Audit, AuditFuture, AuditLayer};
pub use from_fn::{FromFn, FromFnFuture, FromFnLayer, from_fn};
use handling::Handler;
pub(crate) use handling::handler;
pub(crate) use layers::Layers;
pub use next::Next;
pub use rate_limit::{RateLimit, RateLimitFuture, RateLimitKey, RateLimitLayer};
#[cfg(feature = "redis")]
pub use redis_limits::{RedisFailure, RedisLimits, RedisUrlError};
pub use response_limit::{ResponseLimit, ResponseLimitFuture, ResponseLimitLayer};

/// The error a `tower` layer may fail a request with; it is answered as a JSON-RPC error.
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// A future answering a request, as the pipeline's services return it.
pub(crate) type Answering = Pin<Box<dyn Future<Output = Response> + Send>>;

/// The transport a request came over.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Transport {
    /// One message a line over a pair of byte streams: stdio, a pipe, a socket.
    Stdio,
    /// Streamable HTTP.
    Http,
}

impl Transport {
    /// OpenTelemetry's `network.transport`: `pipe` for stdio, `tcp` for HTTP.
    pub fn network(self) -> &'static str {
        match self {
            Transport::Stdio => "pipe",
            Transport::Http => "tcp",
        }
    }
}

/// A request (or notification) on its way to its handler, as a layer sees it.
///
/// ```
/// use mcp_tool::middleware::{Next, Request, Response};
///
/// // A layer's body: who asked for what, then the handler's answer.
/// async fn log(request: Request, next: Next) -> Response {
///     let who = request.caller().map(|auth| auth.principal().to_string());
///     let what = format!("{} {}", request.method(), request.target().unwrap_or("-"));
///     let response = next.run(request).await;
///     tracing::info!(?who, %what, failed = response.is_error(), "answered");
///     response
/// }
/// # let _ = mcp_tool::middleware::from_fn(log);
/// ```
pub struct Request {
    pub(crate) method: &'static str,
    pub(crate) target: Option<String>,
    pub(crate) arguments: Option<Arc<Map<String, Value>>>,
    pub(crate) caller: Option<Arc<Auth>>,
    pub(crate) session: Option<String>,
    pub(crate) protocol_version: Option<String>,
    pub(crate) transport: Transport,
    pub(crate) meta: Map<String, Value>,
    pub(crate) id: Option<RequestId>,
    pub(crate) client_address: Option<SocketAddr>,
    /// Taken by the end of the stack; `None` once the handler was reached.
    pub(crate) handler: Option<Pin<Box<dyn Handler>>>,
}

impl Request {
    /// A request of `method` with the id `id` (a notification when `None`), over stdio,
    /// without a caller, arguments or `_meta`: to try a layer alone, in a plain
    /// `tower::ServiceBuilder`, as a test does. A request made so reaches no handler of a
    /// server; the service the layer wraps answers it.
    ///
    /// ```
    /// use mcp_tool::middleware::Request;
    /// use mcp_tool::model::RequestId;
    ///
    /// let request = Request::new("tools/call", Some(RequestId::Number(1)))
    ///     .with_target("add")
    ///     .with_arguments(serde_json::json!({"a": 1, "b": 2}).as_object().unwrap().clone())
    ///     .with_session("a-session");
    /// assert_eq!(request.target(), Some("add"));
    /// assert_eq!(request.arguments().unwrap()["b"], 2);
    /// assert!(!request.is_notification());
    /// ```
    pub fn new(method: &'static str, id: Option<RequestId>) -> Self {
        Self {
            method,
            target: None,
            arguments: None,
            caller: None,
            session: None,
            protocol_version: None,
            transport: Transport::Stdio,
            meta: Map::new(),
            id,
            client_address: None,
            handler: None,
        }
    }

    /// With `target`: the tool's or prompt's name, the resource's URI.
    #[must_use]
    pub fn with_target(mut self, target: impl Into<String>) -> Self {
        self.target = Some(target.into());
        self
    }

    /// With `arguments`, as a client sends a tool's or a prompt's.
    #[must_use]
    pub fn with_arguments(mut self, arguments: Map<String, Value>) -> Self {
        self.arguments = Some(Arc::new(arguments));
        self
    }

    /// In the HTTP session `session`, over HTTP.
    #[must_use]
    pub fn with_session(mut self, session: impl Into<String>) -> Self {
        self.session = Some(session.into());
        self.transport = Transport::Http;
        self
    }

    /// The JSON-RPC method: `tools/call`, `resources/read`, `notifications/initialized`…
    pub fn method(&self) -> &str {
        self.method
    }

    /// What the request is about: the tool's or the prompt's name, the resource's URI,
    /// the task's id; `None` for a method about no one item (`tools/list`).
    pub fn target(&self) -> Option<&str> {
        self.target.as_deref()
    }

    /// The arguments of a tool call or a prompt, as the client sent them.
    pub fn arguments(&self) -> Option<&Map<String, Value>> {
        self.arguments.as_deref()
    }

    /// The caller a verified access token speaks for; `None` over stdio and on a server
    /// without authorization.
    pub fn caller(&self) -> Option<&Auth> {
        self.caller.as_deref()
    }

    /// The HTTP session the request came in, where there is one.
    pub fn session(&self) -> Option<&str> {
        self.session.as_deref()
    }

    /// The protocol version the request speaks, once one was agreed or declared.
    pub fn protocol_version(&self) -> Option<&str> {
        self.protocol_version.as_deref()
    }

    /// The transport the request came over.
    pub fn transport(&self) -> Transport {
        self.transport
    }

    /// The request's `_meta` (empty when it has none): a progress token, the trace
    /// context a client propagates (`traceparent`), keys of its own.
    pub fn meta(&self) -> &Map<String, Value> {
        &self.meta
    }

    /// The JSON-RPC id; `None` for a notification, which gets no reply.
    pub fn id(&self) -> Option<&RequestId> {
        self.id.as_ref()
    }

    /// Whether this is a notification: whatever the stack answers is not sent.
    pub fn is_notification(&self) -> bool {
        self.id.is_none()
    }

    /// The address of the client's connection, over HTTP, when the server was served
    /// by [`serve_http`](crate::ToolServer::serve_http) or mounted with axum's
    /// `into_make_service_with_connect_info::<SocketAddr>`.
    pub fn client_address(&self) -> Option<SocketAddr> {
        self.client_address
    }
}

impl fmt::Debug for Request {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The arguments and `_meta` may carry secrets: only their keys are shown.
        let keys = |map: Option<&Map<String, Value>>| -> Vec<String> {
            map.map(|map| map.keys().cloned().collect())
                .unwrap_or_default()
        };
        f.debug_struct("Request")
            .field("method", &self.method)
            .field("target", &self.target)
            .field("arguments", &keys(self.arguments()))
            .field("caller", &self.caller)
            .field("session", &self.session)
            .field("protocol_version", &self.protocol_version)
            .field("transport", &self.transport)
            .field("meta", &keys(Some(&self.meta)))
            .field("id", &self.id)
            .finish_non_exhaustive()
    }
}

/// A handler's answer as the protocol made it, kept whole for the reply.
pub(crate) trait Reply: Any + Send {
    /// The result as JSON, for a layer that reads it.
    fn json(&self) -> Value;

    /// The text of a tool call's result that is a tool error (`isError`).
    fn tool_error(&self) -> Option<String> {
        None
    }

    /// The size of [`json`](Self::json) written out.
    fn json_size(&self) -> usize {
        written_size(&self.json())
    }
}

/// The size of `value` written out as JSON.
pub(crate) fn written_size(value: &impl serde::Serialize) -> usize {
    let mut counted = Counted(0);
    // Writing to a counter fails only where JSON cannot be written; none here.
    let _ = serde_json::to_writer(&mut counted, value);
    counted.0
}

/// The answer to a request on its way back through the stack: a result, a JSON-RPC
/// error, or a tool error. A layer may make one to answer instead of the handler.
///
/// ```
/// use mcp_tool::middleware::Response;
///
/// let refused = Response::error(-32000, "closed for maintenance until 10:00 UTC");
/// assert!(refused.is_error());
/// assert_eq!(refused.error_code(), Some(-32000));
///
/// let tool_error = Response::tool_error("this tool is disabled for your team");
/// assert_eq!(tool_error.error_code(), None);
/// assert_eq!(tool_error.error_message().as_deref(), Some("this tool is disabled for your team"));
/// ```
pub struct Response {
    pub(crate) body: Body,
}

pub(crate) enum Body {
    Reply(Box<dyn Reply>),
    Error(ErrorReply),
    ToolError(String),
}

/// A JSON-RPC error as the protocol sends it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ErrorReply {
    pub(crate) code: i32,
    pub(crate) message: String,
    pub(crate) data: Option<Value>,
}

impl Response {
    /// A JSON-RPC error with `code` (-32000 to -32099 are the server's own) and `message`,
    /// which the client is sent as it is: say what happened and what to do.
    pub fn error(code: i32, message: impl Into<String>) -> Self {
        Self::from_error(ErrorReply {
            code,
            message: message.into(),
            data: None,
        })
    }

    /// A tool error: a call's result with `isError` and `message` as its text, which the
    /// model reads. Answering another method so gives a JSON-RPC error (-32603).
    pub fn tool_error(message: impl Into<String>) -> Self {
        Self {
            body: Body::ToolError(message.into()),
        }
    }

    /// With `data` on its JSON-RPC error, which a client may read (a retry delay).
    pub(crate) fn set_data(&mut self, data: Value) {
        if let Body::Error(error) = &mut self.body {
            error.data = Some(data);
        }
    }

    pub(crate) fn from_error(error: ErrorReply) -> Self {
        Self {
            body: Body::Error(error),
        }
    }

    pub(crate) fn reply(reply: impl Reply) -> Self {
        Self {
            body: Body::Reply(Box::new(reply)),
        }
    }

    /// Whether the request failed: a JSON-RPC error, or a tool call whose result is a
    /// tool error.
    pub fn is_error(&self) -> bool {
        match &self.body {
            Body::Reply(reply) => reply.tool_error().is_some(),
            Body::Error(_) | Body::ToolError(_) => true,
        }
    }

    /// The JSON-RPC error's code; `None` for a result, a tool error included.
    pub fn error_code(&self) -> Option<i32> {
        match &self.body {
            Body::Error(error) => Some(error.code),
            Body::Reply(_) | Body::ToolError(_) => None,
        }
    }

    /// The JSON-RPC error's message, or a tool error's text (as the client gets it:
    /// masked).
    pub fn error_message(&self) -> Option<String> {
        match &self.body {
            Body::Reply(reply) => reply.tool_error(),
            Body::Error(error) => Some(error.message.clone()),
            Body::ToolError(text) => Some(text.clone()),
        }
    }

    /// The result, or the error object, as JSON.
    pub fn to_json(&self) -> Value {
        match &self.body {
            Body::Reply(reply) => reply.json(),
            Body::Error(error) => {
                let mut object = Map::new();
                object.insert("code".into(), error.code.into());
                object.insert("message".into(), error.message.clone().into());
                if let Some(data) = &error.data {
                    object.insert("data".into(), data.clone());
                }
                Value::Object(object)
            }
            Body::ToolError(text) => serde_json::json!({
                "content": [{"type": "text", "text": text}],
                "isError": true,
            }),
        }
    }

    /// The size in bytes of [`to_json`](Self::to_json) written out, as it goes on the wire
    /// without the envelope.
    pub fn json_size(&self) -> usize {
        match &self.body {
            Body::Reply(reply) => reply.json_size(),
            Body::Error(_) | Body::ToolError(_) => written_size(&self.to_json()),
        }
    }

    /// A `tower` layer's error, answered as the client reads it.
    pub(crate) fn from_layer_error(error: &BoxError) -> Self {
        if error.is::<tower::timeout::error::Elapsed>() {
            return Self::error(
                -32001,
                "Request timed out: the server's time limit for a request passed",
            );
        }
        if error.is::<tower::load_shed::error::Overloaded>() {
            return Self::error(-32000, "Server busy: try again in a moment");
        }
        tracing::warn!(%error, "a layer of the pipeline failed the request");
        Self::error(
            -32603,
            format!("Internal error: the request was refused ({error})"),
        )
    }
}

impl fmt::Debug for Response {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.body {
            Body::Reply(reply) => f
                .debug_struct("Response")
                .field("tool_error", &reply.tool_error())
                .finish_non_exhaustive(),
            Body::Error(error) => f.debug_tuple("Response").field(error).finish(),
            Body::ToolError(text) => f
                .debug_struct("Response")
                .field("tool_error", text)
                .finish(),
        }
    }
}

struct Counted(usize);

impl std::io::Write for Counted {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0 += bytes.len();
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
