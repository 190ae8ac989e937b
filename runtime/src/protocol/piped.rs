//! Each request rmcp hands the handler, through the request pipeline: made into the
//! pipeline's [`Request`] (only when a layer is there to read it), traced, answered, and
//! the answer turned back into rmcp's reply.

use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;

use rmcp::RoleServer;
use rmcp::model::ContentBlock;
#[allow(deprecated)] // `SetLevelRequestParams`: see the handler's `set_level`.
use rmcp::model::SetLevelRequestParams;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, CancelTaskParams,
    CompleteRequestParams, CompleteResult, CustomRequest, CustomResult, ErrorCode, ErrorData,
    GetPromptRequestParams, GetPromptResponse, GetTaskParams, GetTaskResult, ListPromptsResult,
    ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
    ReadResourceRequestParams, ReadResourceResponse, Reference, ServerResult,
    SubscribeRequestParams, UnsubscribeRequestParams, UpdateTaskParams,
};
use rmcp::service::{NotificationContext, RequestContext};
use serde_json::{Map, Value};
use tracing::Instrument as _;

use crate::model::{Auth, RequestId};
use crate::protocol::{bridge, peer_session};
use crate::server::pipeline::spans::{self, Failure, Head, TRACE_KEYS, Trace};
use crate::server::pipeline::{
    Body, ErrorReply, Reply, Request, Response, Transport, handler, written_size,
};
use crate::server::tool_server::ToolServer;

/// What the pipeline reads of a request's parameters: its target, its arguments.
pub(crate) trait Params: Send + 'static {
    fn target(&self) -> Option<&str> {
        None
    }

    /// The arguments, lent to the pipeline's request until the handler is reached.
    fn take_arguments(&mut self) -> Option<Map<String, Value>> {
        None
    }

    fn put_arguments(&mut self, _arguments: Option<Map<String, Value>>) {}
}

/// Parameters whose target is their `name`, with arguments the pipeline lends out.
macro_rules! named_with_arguments {
    ($($params:ty),* $(,)?) => {$(
        impl Params for $params {
            fn target(&self) -> Option<&str> {
                Some(&self.name)
            }

            fn take_arguments(&mut self) -> Option<Map<String, Value>> {
                self.arguments.take()
            }

            fn put_arguments(&mut self, arguments: Option<Map<String, Value>>) {
                self.arguments = arguments;
            }
        }
    )*};
}

named_with_arguments!(CallToolRequestParams, GetPromptRequestParams);

/// Parameters whose target is one field.
macro_rules! targets {
    ($($params:ty => $field:ident),* $(,)?) => {$(
        impl Params for $params {
            fn target(&self) -> Option<&str> {
                Some(&self.$field)
            }
        }
    )*};
}

targets! {
    ReadResourceRequestParams => uri,
    GetTaskParams => task_id,
    UpdateTaskParams => task_id,
    CancelTaskParams => task_id,
}

#[allow(deprecated)] // Protocols before 2026-07-28 subscribe this way.
mod subscriptions {
    use super::{Params, SubscribeRequestParams, UnsubscribeRequestParams};

    targets! {
        SubscribeRequestParams => uri,
        UnsubscribeRequestParams => uri,
    }
}

impl Params for CompleteRequestParams {
    fn target(&self) -> Option<&str> {
        match &self.r#ref {
            Reference::Prompt(prompt) => Some(&prompt.name),
            Reference::Resource(template) => Some(&template.uri),
            _ => None,
        }
    }
}

impl Params for Option<PaginatedRequestParams> {}
#[allow(deprecated)]
impl Params for SetLevelRequestParams {}
impl Params for CustomRequest {}
impl Params for () {}

/// A handler's answer, which a layer may read and replace.
pub(crate) trait Answer: Reply + Sized {
    /// The answer a layer's tool error gives: a tool call's result; for any other
    /// method, a JSON-RPC error with its text.
    fn from_tool_error(text: String) -> Result<Self, ErrorData> {
        Err(ErrorData::internal_error(text, None))
    }
}

/// Answers that are never a tool error.
macro_rules! answers {
    ($($answer:ty),* $(,)?) => {$(
        impl Reply for $answer {
            fn json(&self) -> Value {
                serde_json::to_value(ServerResult::from(self.clone())).unwrap_or(Value::Null)
            }
        }
        impl Answer for $answer {}
    )*};
}

answers! {
    ListToolsResult, GetTaskResult, CustomResult, ListPromptsResult, GetPromptResponse,
    ListResourcesResult, ListResourceTemplatesResult, ReadResourceResponse, CompleteResult,
}

impl Reply for () {
    fn json(&self) -> Value {
        Value::Object(Map::new())
    }
}

impl Answer for () {}

impl Reply for CallToolResponse {
    fn json(&self) -> Value {
        serde_json::to_value(ServerResult::from(self.clone())).unwrap_or(Value::Null)
    }

    fn json_size(&self) -> usize {
        match self {
            // Counted as written, without a copy.
            CallToolResponse::Complete(result) => written_size(result),
            _ => written_size(&self.json()),
        }
    }

    fn tool_error(&self) -> Option<String> {
        let CallToolResponse::Complete(result) = self else {
            return None;
        };
        if result.is_error != Some(true) {
            return None;
        }
        let text = (result.content.iter()).find_map(|content| match content {
            ContentBlock::Text(text) => Some(text.text.clone()),
            _ => None,
        });
        Some(text.unwrap_or_default())
    }
}

impl Answer for CallToolResponse {
    fn from_tool_error(text: String) -> Result<Self, ErrorData> {
        Ok(CallToolResult::error(vec![ContentBlock::text(text)]).into())
    }
}

/// Where a request came from, as the pipeline and the span read it.
pub(crate) trait Origin: Send + 'static {
    fn session(&self) -> Option<&str>;
    fn protocol_version(&self) -> Option<String>;
    fn id(&self) -> RequestId;
    fn transport(&self) -> Transport;
    fn caller(&self) -> Option<Arc<Auth>>;
    fn meta(&self) -> Map<String, Value>;
    fn client_address(&self) -> Option<SocketAddr>;
    /// The HTTP version the request came over, on HTTP.
    fn http_version(&self) -> Option<&'static str>;
    /// The trace context the client sent, in `_meta` and as HTTP headers.
    fn trace(&self) -> Trace<'_>;
}

impl Origin for RequestContext<RoleServer> {
    fn session(&self) -> Option<&str> {
        http_session(&self.extensions)
    }

    fn protocol_version(&self) -> Option<String> {
        RequestContext::protocol_version(self).map(|v| v.as_str().to_owned())
    }

    fn id(&self) -> RequestId {
        bridge::request_id(&self.id)
    }

    fn transport(&self) -> Transport {
        transport(&self.extensions)
    }

    fn caller(&self) -> Option<Arc<Auth>> {
        peer_session::auth(self)
    }

    fn meta(&self) -> Map<String, Value> {
        self.meta.0.0.clone()
    }

    fn client_address(&self) -> Option<SocketAddr> {
        client_address(&self.extensions)
    }

    fn http_version(&self) -> Option<&'static str> {
        http_version(&self.extensions)
    }

    fn trace(&self) -> Trace<'_> {
        trace(&self.meta.0.0, &self.extensions)
    }
}

/// The trace context in `meta` and in the HTTP request's headers.
fn trace<'a>(meta: &'a Map<String, Value>, extensions: &'a rmcp::model::Extensions) -> Trace<'a> {
    Trace {
        meta: trace_in(meta),
        headers: {
            #[cfg(feature = "http")]
            match extensions.get::<http::request::Parts>() {
                Some(parts) => TRACE_KEYS
                    .map(|key| parts.headers.get(key).and_then(|value| value.to_str().ok())),
                None => [None; 3],
            }
            #[cfg(not(feature = "http"))]
            {
                let _ = extensions;
                [None; 3]
            }
        },
    }
}

/// The trace context in `meta`.
pub(crate) fn trace_in(meta: &Map<String, Value>) -> [Option<&str>; 3] {
    TRACE_KEYS.map(|key| meta.get(key).and_then(Value::as_str))
}

impl ToolServer {
    /// Whether no layer and no subscriber is there to see a request, or it has passed
    /// the pipeline already: it is answered at once.
    #[inline(always)]
    pub(crate) fn unobserved(&self) -> bool {
        self.piped || (self.shared.layers.is_empty() && !spans::listening())
    }

    /// This handle, marked as having passed the pipeline.
    fn passed(&self) -> ToolServer {
        ToolServer {
            piped: true,
            ..self.clone()
        }
    }

    /// Answers a request of `method` with `answer`, given a handle of the server that
    /// the pipeline marked as passed: through the layers when the server has any, in the
    /// request's span. The future is boxed, as it holds the handler that holds it.
    pub(crate) fn piped<P, C, T, F>(
        &self,
        method: &'static str,
        mut params: P,
        context: C,
        answer: impl FnOnce(ToolServer, P, C) -> F + Send + 'static,
    ) -> Pin<Box<dyn Future<Output = Result<T, ErrorData>> + Send + '_>>
    where
        P: Params,
        C: Origin,
        T: Answer,
        F: Future<Output = Result<T, ErrorData>> + Send + 'static,
    {
        let traced = spans::begin(method, || {
            let target = params.target();
            head(target, self.knows(method, target), &context)
        });
        let span = traced.span.clone();
        let server = self.passed();
        if self.shared.layers.is_empty() {
            return Box::pin(async move {
                let answered = answer(server, params, context).instrument(span).await;
                finished(traced, answered)
            });
        }
        // The request and its handler are made here, before the future: the parameters
        // and the context are moved once, into the handler, not again with the future.
        let mut request = request(method, &mut params, &context);
        request.handler = Some(handler(move |arguments| {
            params.put_arguments(arguments);
            Responding {
                answering: answer(server, params, context),
            }
        }));
        let answering = self.shared.layers.run(request);
        Box::pin(async move {
            let answered = from_response(answering.instrument(span).await);
            finished(traced, answered)
        })
    }

    /// Handles a notification of `method` with `handle`, in its span when a subscriber
    /// listens and through the pipeline's layers when the server has any; one a layer
    /// refuses is dropped, as notifications get no reply.
    pub(crate) async fn piped_notification<F>(
        &self,
        method: &'static str,
        context: NotificationContext<RoleServer>,
        handle: impl FnOnce(ToolServer, NotificationContext<RoleServer>) -> F + Send + 'static,
    ) where
        F: Future<Output = ()> + Send + 'static,
    {
        let traced = spans::begin(method, || notification_head(&context));
        let span = traced.span.clone();
        let server = self.passed();
        if self.shared.layers.is_empty() {
            handle(server, context).instrument(span).await;
        } else {
            let mut request = notification(method, &context);
            request.handler = Some(handler(move |_| async move {
                handle(server, context).await;
                Response::reply(())
            }));
            let _ = self.shared.layers.run(request).instrument(span).await;
        }
        traced.finish(None);
    }

    /// A notification of `method` that needs nothing of the handler, through the
    /// pipeline when anyone observes it.
    pub(crate) async fn notified(
        &self,
        method: &'static str,
        context: NotificationContext<RoleServer>,
    ) {
        if !self.unobserved() {
            (self.piped_notification(method, context, async |_, _| {})).await;
        }
    }

    /// Answers a request of `method` that no layer sees (`initialize`, `ping`) with
    /// `answer`, in its span when a subscriber listens; `version` reads the protocol
    /// version an answer agrees, for the span of an `initialize`.
    pub(crate) async fn spanned<T>(
        &self,
        method: &'static str,
        context: RequestContext<RoleServer>,
        answer: impl Future<Output = Result<T, ErrorData>>,
        version: impl FnOnce(&T) -> Option<String>,
    ) -> Result<T, ErrorData> {
        if !spans::listening() {
            return answer.await;
        }
        let mut traced = spans::begin(method, || head(None, false, &context));
        let answered = answer.instrument(traced.span.clone()).await;
        if let Ok(version) = answered.as_ref().map(version)
            && let Some(version) = version
        {
            traced.protocol_version(version);
        }
        traced.finish(failure(&answered, None));
        answered
    }

    /// Whether `target` names a tool or a prompt of the server, for a request of
    /// `method`: only such a name is low in cardinality enough for a span's name.
    fn knows(&self, method: &str, target: Option<&str>) -> bool {
        match (method, target) {
            ("tools/call", Some(name)) => self.find(name).is_some(),
            ("prompts/get", Some(name)) => self.shared.catalog.prompts.contains(name),
            _ => false,
        }
    }
}

/// What the span of a notification says of it.
fn notification_head(context: &NotificationContext<RoleServer>) -> Head<'_> {
    let extensions = &context.extensions;
    Head {
        target: None,
        known: false,
        session: http_session(extensions),
        protocol_version: (context.peer.peer_info()).map(|info| info.protocol_version.to_string()),
        id: None,
        transport: transport(extensions),
        http_version: http_version(extensions),
        client: client_address(extensions),
        trace: trace(notification_meta(context), extensions),
    }
}

/// A notification's `_meta`. rmcp's service loop moves the notification's extensions into
/// the context before it takes `_meta` out of them, so `_meta` stays in the extensions.
fn notification_meta(context: &NotificationContext<RoleServer>) -> &Map<String, Value> {
    let kept = (context.extensions).get::<rmcp::model::NotificationMetaObject>();
    match kept {
        Some(meta) if context.meta.0.0.is_empty() => &meta.0.0,
        _ => &context.meta.0.0,
    }
}

/// What the span of a request says of it.
fn head<'a>(target: Option<&'a str>, known: bool, origin: &'a impl Origin) -> Head<'a> {
    Head {
        target,
        known,
        session: origin.session(),
        protocol_version: origin.protocol_version(),
        id: Some(origin.id().to_string()),
        transport: origin.transport(),
        http_version: origin.http_version(),
        client: origin.client_address(),
        trace: origin.trace(),
    }
}

/// The pipeline's request for a request of rmcp's.
fn request<P: Params>(method: &'static str, params: &mut P, origin: &impl Origin) -> Request {
    Request {
        method,
        target: params.target().map(str::to_owned),
        arguments: params.take_arguments().map(Arc::new),
        caller: origin.caller(),
        session: origin.session().map(str::to_owned),
        protocol_version: origin.protocol_version(),
        transport: origin.transport(),
        meta: origin.meta(),
        id: Some(origin.id()),
        client_address: origin.client_address(),
        handler: None,
    }
}

fn notification(method: &'static str, context: &NotificationContext<RoleServer>) -> Request {
    Request {
        method,
        target: None,
        arguments: None,
        caller: None,
        session: http_session(&context.extensions).map(str::to_owned),
        protocol_version: None,
        transport: transport(&context.extensions),
        meta: notification_meta(context).clone(),
        id: None,
        client_address: client_address(&context.extensions),
        handler: None,
    }
}

/// A request's span ended as `answered` says, when a subscriber listens; `answered` given back.
fn finished<T: Answer>(
    traced: spans::Traced,
    answered: Result<T, ErrorData>,
) -> Result<T, ErrorData> {
    if traced.listened() {
        let tool_error = answered.as_ref().ok().and_then(Reply::tool_error);
        traced.finish(failure(&answered, tool_error.as_deref()));
    }
    answered
}

pin_project_lite::pin_project! {
    /// A handler's answer as the pipeline's [`Response`]: no future of its own around it.
    struct Responding<F> {
        #[pin]
        answering: F,
    }
}

impl<F, T> Future for Responding<F>
where
    F: Future<Output = Result<T, ErrorData>>,
    T: Answer,
{
    type Output = Response;

    fn poll(self: Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> std::task::Poll<Response> {
        self.project().answering.poll(cx).map(into_response)
    }
}

fn into_response<T: Answer>(answered: Result<T, ErrorData>) -> Response {
    match answered {
        Ok(answer) => Response::reply(answer),
        Err(error) => Response::from_error(ErrorReply {
            code: error.code.0,
            message: error.message.into_owned(),
            data: error.data,
        }),
    }
}

fn from_response<T: Answer>(response: Response) -> Result<T, ErrorData> {
    match response.body {
        Body::Reply(reply) => {
            let reply: Box<dyn std::any::Any + Send> = reply;
            reply.downcast::<T>().map(|answer| *answer).map_err(|_| {
                ErrorData::internal_error("a layer answered with another request's result", None)
            })
        }
        Body::Error(error) => Err(ErrorData::new(
            ErrorCode(error.code),
            error.message,
            error.data,
        )),
        Body::ToolError(text) => T::from_tool_error(text),
    }
}

fn failure<'a, T>(
    answered: &'a Result<T, ErrorData>,
    tool_error: Option<&'a str>,
) -> Option<Failure<'a>> {
    match answered {
        Err(error) => Some(Failure::Error {
            code: error.code.0,
            message: &error.message,
        }),
        Ok(_) => tool_error.map(Failure::Tool),
    }
}

/// The HTTP session a request came in, where there is one.
pub(crate) fn http_session(extensions: &rmcp::model::Extensions) -> Option<&str> {
    #[cfg(feature = "http")]
    {
        let parts = extensions.get::<http::request::Parts>()?;
        let session = parts.headers.get(peer_session::SESSION_ID_HEADER)?;
        session.to_str().ok()
    }
    #[cfg(not(feature = "http"))]
    {
        let _ = extensions;
        None
    }
}

pub(crate) fn transport(extensions: &rmcp::model::Extensions) -> Transport {
    #[cfg(feature = "http")]
    if extensions.get::<http::request::Parts>().is_some() {
        return Transport::Http;
    }
    let _ = extensions;
    Transport::Stdio
}

/// The HTTP version of the request a message came in, on HTTP.
fn http_version(extensions: &rmcp::model::Extensions) -> Option<&'static str> {
    #[cfg(feature = "http")]
    {
        let parts = extensions.get::<http::request::Parts>()?;
        Some(spans::http_version(parts.version))
    }
    #[cfg(not(feature = "http"))]
    {
        let _ = extensions;
        None
    }
}

fn client_address(extensions: &rmcp::model::Extensions) -> Option<SocketAddr> {
    #[cfg(feature = "http")]
    {
        address_of(extensions.get::<http::request::Parts>()?)
    }
    #[cfg(not(feature = "http"))]
    {
        let _ = extensions;
        None
    }
}

/// The client's address, where axum's `ConnectInfo` puts it in an HTTP request's parts.
#[cfg(feature = "http")]
pub(crate) fn address_of(parts: &http::request::Parts) -> Option<SocketAddr> {
    let info = parts
        .extensions
        .get::<axum::extract::ConnectInfo<SocketAddr>>()?;
    Some(info.0)
}
