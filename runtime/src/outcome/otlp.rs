//! OpenTelemetry, set up by itself (feature `opentelemetry`): the request spans and the
//! `mcp.server.operation.duration` histogram exported over OTLP/HTTP, beside the masked
//! log on stderr that [`logging::init`](crate::logging::init) installs.
//!
//! Everything is configured by the standard variables: `OTEL_EXPORTER_OTLP_ENDPOINT`
//! (`http://localhost:4318` unless set; `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` and
//! `OTEL_EXPORTER_OTLP_METRICS_ENDPOINT` for one signal), `OTEL_EXPORTER_OTLP_HEADERS`,
//! `OTEL_SERVICE_NAME` and `OTEL_RESOURCE_ATTRIBUTES`, `OTEL_BSP_SCHEDULE_DELAY`,
//! `OTEL_METRIC_EXPORT_INTERVAL`. Each request's span is parented on the trace context
//! the client sends in the request's `_meta` (`traceparent`, `tracestate`, `baggage`), or
//! else in the HTTP request's `traceparent` header. [`init`] returns a [`Telemetry`],
//! which flushes what is left to export when it is dropped. [`durations`] is the view of
//! the two duration histograms (unit, buckets) for a meter provider of one's own. What is
//! exported, attribute by attribute: the guide's
//! [Middleware and telemetry](crate::guide::middleware) page.
//!
//! ```standalone_crate,no_run
//! # /// Adds two integers.
//! # #[mcp_tool::mcp_tool]
//! # fn add(a: i64, b: i64) -> i64 { a + b }
//! #[tokio::main]
//! async fn main() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
//!     // Flushes what is left to export when it is dropped, as `main` returns.
//!     let _telemetry = mcp_tool::telemetry::init()?;
//!     mcp_tool::Server::from_registry("calculator", "1.0.0")
//!         .serve_stdio()
//!         .await?;
//!     Ok(())
//! }
//! ```

use std::error::Error;
use std::fmt;

use opentelemetry::propagation::TextMapCompositePropagator;
use opentelemetry::trace::TracerProvider as _;
use opentelemetry_otlp::{MetricExporter, SpanExporter};
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::metrics::{Aggregation, Instrument, SdkMeterProvider, Stream};
use opentelemetry_sdk::propagation::{BaggagePropagator, TraceContextPropagator};
use opentelemetry_sdk::trace::SdkTracerProvider;
use tracing::Level;
use tracing_subscriber::Layer as _;
use tracing_subscriber::filter::Targets;
use tracing_subscriber::layer::SubscriberExt as _;
use tracing_subscriber::util::SubscriberInitExt as _;

/// The boundaries, in seconds, of the buckets of both duration histograms, as the
/// conventions give them.
const DURATION_BUCKETS: [f64; 14] = [
    0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0,
];

/// The histogram of each message's duration.
const OPERATION_DURATION: &str = "mcp.server.operation.duration";

/// The histogram of each session's duration.
const SESSION_DURATION: &str = "mcp.server.session.duration";

/// What [`init`] set up: dropped, it exports what is left and stops the exporters.
#[must_use = "dropping it stops the export"]
pub struct Telemetry {
    spans: SdkTracerProvider,
    metrics: SdkMeterProvider,
}

impl fmt::Debug for Telemetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Telemetry").finish_non_exhaustive()
    }
}

impl Drop for Telemetry {
    fn drop(&mut self) {
        // Nothing is left to tell of a failure here but the log, which may be gone too.
        if let Err(error) = self.spans.shutdown() {
            eprintln!("the request spans could not all be exported: {error}");
        }
        if let Err(error) = self.metrics.shutdown() {
            eprintln!("the request durations could not all be exported: {error}");
        }
    }
}

/// Installs the global subscriber: the masked log on stderr, filtered by `RUST_LOG` as
/// [`logging::init`](crate::logging::init) filters it, and the request spans
/// (`mcp_tool::request`) and durations (`mcp_tool::metrics`) exported over OTLP/HTTP
/// (protobuf) where the `OTEL_*` variables say. An error when the exporters cannot be
/// built or a subscriber is already set.
pub fn init() -> Result<Telemetry, Box<dyn Error + Send + Sync>> {
    let resource = Resource::builder().build();
    let spans = SdkTracerProvider::builder()
        .with_batch_exporter(SpanExporter::builder().with_http().build()?)
        .with_resource(resource.clone())
        .build();
    let metrics = SdkMeterProvider::builder()
        .with_periodic_exporter(MetricExporter::builder().with_http().build()?)
        .with_resource(resource)
        .with_view(durations)
        .build();
    opentelemetry::global::set_text_map_propagator(TextMapCompositePropagator::new(vec![
        Box::new(TraceContextPropagator::new()),
        Box::new(BaggagePropagator::new()),
    ]));
    let log = tracing_subscriber::fmt::layer()
        .with_writer(crate::logging::masked(std::io::stderr))
        .with_ansi(false)
        .with_filter(crate::logging::env_filter());
    // What tracing-opentelemetry adds by default tells the collector of the machine the
    // server was built on (source paths) and of its threads: none of it is exported.
    let exported = tracing_opentelemetry::layer()
        .with_location(false)
        .with_threads(false)
        .with_target(false)
        .with_tracked_inactivity(false)
        .with_tracer(spans.tracer("mcp-tool"))
        .with_filter(Targets::new().with_target("mcp_tool::request", Level::INFO));
    let measured = tracing_opentelemetry::MetricsLayer::new(metrics.clone())
        .with_filter(Targets::new().with_target("mcp_tool::metrics", Level::INFO));
    tracing_subscriber::registry()
        .with(log)
        .with(exported)
        .with(measured)
        .try_init()?;
    Ok(Telemetry { spans, metrics })
}

/// The view of the two duration histograms the conventions define: unit `s`, and their
/// explicit bucket boundaries from 10 ms to 300 s. Give it to a meter provider of your
/// own with `SdkMeterProviderBuilder::with_view`; [`init`] does.
///
/// ```
/// let meters = opentelemetry_sdk::metrics::SdkMeterProvider::builder()
///     .with_view(mcp_tool::telemetry::durations)
///     .build();
/// # drop(meters);
/// ```
pub fn durations(instrument: &Instrument) -> Option<Stream> {
    if ![OPERATION_DURATION, SESSION_DURATION].contains(&instrument.name()) {
        return None;
    }
    let buckets = Aggregation::ExplicitBucketHistogram {
        boundaries: DURATION_BUCKETS.to_vec(),
        record_min_max: true,
    };
    Stream::builder()
        .with_unit("s")
        .with_aggregation(buckets)
        .build()
        .ok()
}
