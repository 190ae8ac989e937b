//! Each message a client sends as a `tracing` span named and attributed by OpenTelemetry's
//! semantic conventions for MCP (server side), its duration as the
//! `mcp.server.operation.duration` histogram, and each session's as
//! `mcp.server.session.duration`.
//!
//! The span is `mcp.request` at `INFO` under the target `mcp_tool::request`; its
//! `otel.name` is `{mcp.method.name} {target}`, which `tracing-opentelemetry` takes for the
//! exported span's name. The target is named only when it is a tool or a prompt of the
//! server: a resource's URI, a task's id and a name the server does not know are unbounded
//! sets, which the conventions keep out of span names. The durations are events under
//! `mcp_tool::metrics` whose `histogram.`-prefixed field `tracing-opentelemetry`'s
//! `MetricsLayer` records. With no subscriber listening to either target, neither is made:
//! a message pays a check of each callsite's interest.

use std::net::SocketAddr;
use std::time::Instant;

use tracing::Span;
use tracing::field::Empty;

use super::Transport;
use crate::outcome::masking::mask_failure;

/// What the span of a message says of it besides its method, read only when a
/// subscriber listens.
pub(crate) struct Head<'a> {
    pub(crate) target: Option<&'a str>,
    /// Whether `target` is a tool or prompt the server has: only then is it in the span's
    /// name and on the histogram's points.
    pub(crate) known: bool,
    pub(crate) session: Option<&'a str>,
    pub(crate) protocol_version: Option<String>,
    /// The JSON-RPC id of a request; none for a notification.
    pub(crate) id: Option<String>,
    pub(crate) transport: Transport,
    /// The HTTP version the message came over (`1.1`, `2`), on HTTP.
    pub(crate) http_version: Option<&'static str>,
    /// Where the message came from, on HTTP.
    pub(crate) client: Option<SocketAddr>,
    #[cfg_attr(not(feature = "opentelemetry"), allow(dead_code))]
    pub(crate) trace: Trace<'a>,
}

/// The trace context a client sent: in the message's `_meta`, and in the HTTP request's
/// headers. Each is `traceparent`, `tracestate`, `baggage`.
#[derive(Clone, Copy, Default)]
pub(crate) struct Trace<'a> {
    pub(crate) meta: [Option<&'a str>; 3],
    pub(crate) headers: [Option<&'a str>; 3],
}

impl<'a> Trace<'a> {
    /// The context the span's parent is: the message's, else the transport's.
    #[cfg_attr(not(feature = "opentelemetry"), allow(dead_code))]
    fn parent(&self) -> Option<&[Option<&'a str>; 3]> {
        [&self.meta, &self.headers]
            .into_iter()
            .find(|context| context[0].is_some())
    }

    /// The transport's context, when the message had its own: the span links to it.
    #[cfg_attr(not(feature = "opentelemetry"), allow(dead_code))]
    fn link(&self) -> Option<&[Option<&'a str>; 3]> {
        (self.meta[0].is_some() && self.headers[0].is_some()).then_some(&self.headers)
    }
}

/// How a request failed, for its span.
pub(crate) enum Failure<'a> {
    /// A JSON-RPC error.
    Error { code: i32, message: &'a str },
    /// A tool call whose result is a tool error, with its (masked) text.
    Tool(&'a str),
}

/// The span of a message, and when its timing began (when anyone listens for it).
pub(crate) struct Traced {
    pub(crate) span: Span,
    began: Option<Instant>,
    /// What the histogram's point says of the message, when it is timed.
    point: Option<Box<Point>>,
}

/// The attributes of a message's point in `mcp.server.operation.duration`.
struct Point {
    method: &'static str,
    /// A known tool's or prompt's name.
    target: Option<String>,
    protocol_version: Option<String>,
    transport: Transport,
    http_version: Option<&'static str>,
}

/// Whether a subscriber listens for the spans or the duration samples. Without one, a
/// single load answers: the greatest level any subscriber enables.
#[inline(always)]
pub(crate) fn listening() -> bool {
    tracing::level_enabled!(tracing::Level::INFO)
        && (tracing::span_enabled!(target: "mcp_tool::request", tracing::Level::INFO)
            || tracing::event_enabled!(target: "mcp_tool::metrics", tracing::Level::INFO))
}

/// Opens the span of a message of `method`; `head` is read only when it is recorded.
pub(crate) fn begin<'a>(method: &'static str, head: impl FnOnce() -> Head<'a>) -> Traced {
    let span = tracing::info_span!(
        target: "mcp_tool::request",
        "mcp.request",
        otel.name = Empty,
        otel.kind = "server",
        otel.status_code = Empty,
        otel.status_description = Empty,
        mcp.method.name = method,
        gen_ai.tool.name = Empty,
        gen_ai.prompt.name = Empty,
        gen_ai.operation.name = Empty,
        mcp.resource.uri = Empty,
        mcp.session.id = Empty,
        mcp.protocol.version = Empty,
        jsonrpc.request.id = Empty,
        network.transport = Empty,
        network.protocol.name = Empty,
        network.protocol.version = Empty,
        client.address = Empty,
        client.port = Empty,
        error.type = Empty,
        rpc.response.status_code = Empty,
    );
    let timed = tracing::enabled!(target: "mcp_tool::metrics", tracing::Level::INFO);
    if span.is_disabled() && !timed {
        return Traced {
            span,
            began: None,
            point: None,
        };
    }
    let head = head();
    record_head(&span, method, &head);
    #[cfg(feature = "opentelemetry")]
    parent(&span, &head.trace);
    let point = timed.then(|| {
        Box::new(Point {
            method,
            target: (head.target.filter(|_| head.known)).map(str::to_owned),
            protocol_version: head.protocol_version,
            transport: head.transport,
            http_version: head.http_version,
        })
    });
    Traced {
        span,
        began: timed.then(Instant::now),
        point,
    }
}

fn record_head(span: &Span, method: &'static str, head: &Head<'_>) {
    if span.is_disabled() {
        return;
    }
    match head.target.filter(|_| head.known) {
        Some(target) => span.record("otel.name", format!("{method} {target}")),
        None => span.record("otel.name", method),
    };
    if let Some(target) = head.target {
        // A name the server does not know is the client's text: masked as any.
        let target = match head.known {
            true => target.into(),
            false => mask_failure(target),
        };
        match method {
            "tools/call" => {
                span.record("gen_ai.tool.name", &*target);
                span.record("gen_ai.operation.name", "execute_tool");
            }
            "prompts/get" => {
                span.record("gen_ai.prompt.name", &*target);
            }
            "resources/read" | "resources/subscribe" | "resources/unsubscribe" => {
                span.record("mcp.resource.uri", &*target);
            }
            _ => {}
        }
    }
    if let Some(session) = head.session {
        span.record("mcp.session.id", session);
    }
    if let Some(version) = &head.protocol_version {
        span.record("mcp.protocol.version", version);
    }
    if let Some(id) = &head.id {
        span.record("jsonrpc.request.id", id.as_str());
    }
    span.record("network.transport", head.transport.network());
    if let Some(version) = head.http_version {
        span.record("network.protocol.name", "http");
        span.record("network.protocol.version", version);
    }
    if let Some(client) = head.client {
        span.record("client.address", client.ip().to_string());
        span.record("client.port", i64::from(client.port()));
    }
}

/// Makes the client's trace, when it sent one, the parent of the message's span, and
/// links the transport's when the message carried its own.
#[cfg(feature = "opentelemetry")]
fn parent(span: &Span, trace: &Trace<'_>) {
    use opentelemetry::trace::TraceContextExt as _;
    use tracing_opentelemetry::OpenTelemetrySpanExt as _;

    /// The trace context's fields, as a propagator reads them.
    struct Carrier<'a>(&'a [Option<&'a str>; 3]);

    impl opentelemetry::propagation::Extractor for Carrier<'_> {
        fn get(&self, key: &str) -> Option<&str> {
            let position = TRACE_KEYS.iter().position(|known| *known == key)?;
            self.0[position]
        }

        fn keys(&self) -> Vec<&str> {
            TRACE_KEYS.to_vec()
        }
    }

    fn extract(fields: &[Option<&str>; 3]) -> opentelemetry::Context {
        opentelemetry::global::get_text_map_propagator(|propagator| {
            propagator.extract(&Carrier(fields))
        })
    }

    if span.is_disabled() {
        return;
    }
    if let Some(context) = trace.parent() {
        // A span no OpenTelemetry layer records has no parent to set: nothing to do.
        let _ = span.set_parent(extract(context));
    }
    if let Some(transport) = trace.link() {
        let linked = extract(transport).span().span_context().clone();
        if linked.is_valid() {
            span.add_link(linked);
        }
    }
}

/// The keys of the trace context a client propagates (W3C Trace Context and Baggage), in
/// `_meta` or as HTTP headers.
pub(crate) const TRACE_KEYS: [&str; 3] = ["traceparent", "tracestate", "baggage"];

impl Traced {
    /// Whether anyone listens: what `finish` is told is worth working out.
    pub(crate) fn listened(&self) -> bool {
        !self.span.is_disabled() || self.began.is_some()
    }

    /// Records the protocol version a message agreed, known once it is answered (an
    /// `initialize`).
    pub(crate) fn protocol_version(&mut self, version: String) {
        self.span.record("mcp.protocol.version", version.as_str());
        if let Some(point) = &mut self.point {
            point.protocol_version = Some(version);
        }
    }

    /// Closes the message's record: its failure on the span, its duration as the
    /// histogram's sample.
    pub(crate) fn finish(self, failure: Option<Failure<'_>>) {
        let (error_type, status_code) = match &failure {
            Some(Failure::Error { code, .. }) => {
                let code = code.to_string();
                (Some(code.clone()), Some(code))
            }
            Some(Failure::Tool(_)) => (Some("tool_error".to_owned()), None),
            None => (None, None),
        };
        if !self.span.is_disabled()
            && let Some(failure) = &failure
        {
            let span = &self.span;
            span.record("otel.status_code", "error");
            span.record("error.type", error_type.as_deref());
            span.record("rpc.response.status_code", status_code.as_deref());
            let message = match failure {
                Failure::Error { message, .. } => message,
                Failure::Tool(text) => text,
            };
            span.record("otel.status_description", &*mask_failure(message));
        }
        if let (Some(began), Some(point)) = (self.began, self.point) {
            let seconds = began.elapsed().as_secs_f64();
            let target = point.target.as_deref();
            tracing::event!(
                target: "mcp_tool::metrics",
                tracing::Level::INFO,
                histogram.mcp.server.operation.duration = seconds,
                mcp.method.name = point.method,
                gen_ai.tool.name = (point.method == "tools/call").then_some(target).flatten(),
                gen_ai.prompt.name = (point.method == "prompts/get").then_some(target).flatten(),
                gen_ai.operation.name = (point.method == "tools/call").then_some("execute_tool"),
                mcp.protocol.version = point.protocol_version.as_deref(),
                network.transport = point.transport.network(),
                network.protocol.name = point.http_version.map(|_| "http"),
                network.protocol.version = point.http_version,
                error.type = error_type.as_deref(),
                rpc.response.status_code = status_code.as_deref(),
            );
        }
    }
}

/// Records a session's duration, from its start to now, when anyone listens.
pub(crate) fn session_ended(
    began: Instant,
    transport: Transport,
    protocol_version: Option<&str>,
    error_type: Option<&str>,
) {
    tracing::event!(
        target: "mcp_tool::metrics",
        tracing::Level::INFO,
        histogram.mcp.server.session.duration = began.elapsed().as_secs_f64(),
        mcp.protocol.version = protocol_version,
        network.transport = transport.network(),
        network.protocol.name = matches!(transport, Transport::Http).then_some("http"),
        error.type = error_type,
    );
}

/// The `network.protocol.version` of an HTTP version.
#[cfg(feature = "http")]
pub(crate) fn http_version(version: http::Version) -> &'static str {
    match version {
        http::Version::HTTP_09 => "0.9",
        http::Version::HTTP_10 => "1.0",
        http::Version::HTTP_2 => "2",
        http::Version::HTTP_3 => "3",
        _ => "1.1",
    }
}
