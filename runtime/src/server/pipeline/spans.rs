//! Each request as a `tracing` span named and attributed by OpenTelemetry's semantic
//! conventions for MCP (server side), and its duration as the
//! `mcp.server.operation.duration` histogram.
//!
//! The span is `mcp.request` at `INFO` under the target `mcp_tool::request`; its
//! `otel.name` is `{mcp.method.name} {target}`, which `tracing-opentelemetry` takes for the
//! exported span's name. The duration is an event under `mcp_tool::metrics` whose
//! `histogram.`-prefixed field `tracing-opentelemetry`'s `MetricsLayer` records. With no
//! subscriber listening to either target, neither is made: a request pays a check of
//! each callsite's interest.

use std::time::Instant;

use tracing::Span;
use tracing::field::Empty;

use super::Transport;
use crate::outcome::masking::mask_credentials;

/// What the span of a request says of it besides its method, read only when a
/// subscriber listens.
pub(crate) struct Head<'a> {
    pub(crate) target: Option<&'a str>,
    pub(crate) session: Option<&'a str>,
    pub(crate) protocol_version: Option<String>,
    pub(crate) id: Option<String>,
    pub(crate) transport: Transport,
    /// The trace context the client sent: `traceparent`, `tracestate`, `baggage`.
    #[cfg_attr(not(feature = "opentelemetry"), allow(dead_code))]
    pub(crate) trace: [Option<&'a str>; 3],
}

/// How a request failed, for its span.
pub(crate) enum Failure<'a> {
    /// A JSON-RPC error.
    Error { code: i32, message: &'a str },
    /// A tool call whose result is a tool error, with its (masked) text.
    Tool(&'a str),
}

/// The span of a request, and when its timing began (when anyone listens for it).
pub(crate) struct Traced {
    pub(crate) span: Span,
    method: &'static str,
    began: Option<Instant>,
    attributes: Option<(Option<String>, Transport)>,
}

/// Whether a subscriber listens for the spans or the duration samples. Without one, a
/// single load answers: the greatest level any subscriber enables.
#[inline(always)]
pub(crate) fn listening() -> bool {
    tracing::level_enabled!(tracing::Level::INFO)
        && (tracing::span_enabled!(target: "mcp_tool::request", tracing::Level::INFO)
            || tracing::event_enabled!(target: "mcp_tool::metrics", tracing::Level::INFO))
}

/// Opens the span of a request of `method`; `head` is read only when it is recorded.
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
        error.type = Empty,
        rpc.response.status_code = Empty,
    );
    let timed = tracing::enabled!(target: "mcp_tool::metrics", tracing::Level::INFO);
    if span.is_disabled() && !timed {
        return Traced {
            span,
            method,
            began: None,
            attributes: None,
        };
    }
    let head = head();
    record_head(&span, method, &head);
    #[cfg(feature = "opentelemetry")]
    parent(&span, &head.trace);
    Traced {
        span,
        method,
        began: timed.then(Instant::now),
        attributes: timed.then(|| (head.target.map(str::to_owned), head.transport)),
    }
}

fn record_head(span: &Span, method: &'static str, head: &Head<'_>) {
    if span.is_disabled() {
        return;
    }
    match head.target {
        Some(target) => span.record("otel.name", format!("{method} {target}")),
        None => span.record("otel.name", method),
    };
    if let Some(target) = head.target {
        match method {
            "tools/call" => {
                span.record("gen_ai.tool.name", target);
                span.record("gen_ai.operation.name", "execute_tool");
            }
            "prompts/get" => {
                span.record("gen_ai.prompt.name", target);
            }
            "resources/read" | "resources/subscribe" | "resources/unsubscribe" => {
                span.record("mcp.resource.uri", target);
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
}

/// Makes the client's trace, when it sent one, the parent of the request's span.
#[cfg(feature = "opentelemetry")]
fn parent(span: &Span, trace: &[Option<&str>; 3]) {
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

    if span.is_disabled() || trace[0].is_none() {
        return;
    }
    let context = opentelemetry::global::get_text_map_propagator(|propagator| {
        propagator.extract(&Carrier(trace))
    });
    // A span no OpenTelemetry layer records has no parent to set: nothing to do.
    let _ = span.set_parent(context);
}

/// The keys of the trace context a client propagates (W3C Trace Context and Baggage), in
/// `_meta` or as HTTP headers.
pub(crate) const TRACE_KEYS: [&str; 3] = ["traceparent", "tracestate", "baggage"];

impl Traced {
    /// Whether anyone listens: what `finish` is told is worth working out.
    pub(crate) fn listened(&self) -> bool {
        !self.span.is_disabled() || self.began.is_some()
    }

    /// Closes the request's record: its failure on the span, its duration as the
    /// histogram's sample.
    pub(crate) fn finish(self, failure: Option<Failure<'_>>) {
        let error_type = match &failure {
            Some(Failure::Error { code, .. }) => Some(code.to_string()),
            Some(Failure::Tool(_)) => Some("tool_error".to_owned()),
            None => None,
        };
        if !self.span.is_disabled()
            && let Some(failure) = &failure
        {
            let span = &self.span;
            span.record("otel.status_code", "error");
            span.record("error.type", error_type.as_deref());
            match failure {
                Failure::Error { code, message } => {
                    span.record("rpc.response.status_code", code.to_string());
                    span.record("otel.status_description", &*mask_credentials(message));
                }
                Failure::Tool(text) => {
                    span.record("otel.status_description", &*mask_credentials(text));
                }
            }
        }
        if let (Some(began), Some((target, transport))) = (self.began, self.attributes) {
            let seconds = began.elapsed().as_secs_f64();
            tracing::event!(
                target: "mcp_tool::metrics",
                tracing::Level::INFO,
                histogram.mcp.server.operation.duration = seconds,
                mcp.method.name = self.method,
                gen_ai.tool.name = (self.method == "tools/call").then_some(target.as_deref()).flatten(),
                network.transport = transport.network(),
                error.type = error_type.as_deref(),
            );
        }
    }
}
