//! The builder's option for the request pipeline: the layers every request passes.

use tower_service::Service;

use crate::server::builder::Server;
use crate::server::pipeline::{BoxError, Next, Request, Response};

impl Server {
    /// Adds a `tower` layer that every request and notification passes on its way to
    /// its handler, and its answer on the way back, on every transport: tower's own
    /// (`ConcurrencyLimitLayer`, `TimeoutLayer`, `LoadShedLayer`), one of
    /// [`middleware`](crate::middleware)'s, a `tower::layer::layer_fn` or a
    /// [`from_fn`](crate::middleware::from_fn) closure of one's own. The first layer added
    /// is the outermost: it sees the request first and the answer last.
    ///
    /// The layer wraps [`Next`], the rest of the stack. The stack is built once, on the
    /// first request, and cloned for each request as tower's services are, with no lock
    /// between requests: a layer's service must be `Clone`, and what it counts across
    /// requests it keeps behind an `Arc`. A service that is not `Clone`, as tower's
    /// `RateLimit`, goes behind tower's `BufferLayer`, which serves it from a task of its
    /// own, each request in turn. An error a layer fails a request with is answered as a
    /// JSON-RPC error: a timeout's with -32001, a shed load's with -32000.
    ///
    /// ```standalone_crate
    /// use std::time::Duration;
    ///
    /// # /// Adds two integers.
    /// # #[mcp_tool::mcp_tool]
    /// # fn add(a: i64, b: i64) -> i64 { a + b }
    /// let server = mcp_tool::Server::from_registry("calculator", "1.0.0")
    ///     .layer(tower::timeout::TimeoutLayer::new(Duration::from_secs(30)))
    ///     // tower's `RateLimit` counts in its one instance: a buffer serves it.
    ///     .layer(
    ///         tower::ServiceBuilder::new()
    ///             .buffer(1024)
    ///             .rate_limit(100, Duration::from_secs(1)),
    ///     )
    ///     .build()?;
    /// # Ok::<(), mcp_tool::ServerError>(())
    /// ```
    pub fn layer<L>(mut self, layer: L) -> Self
    where
        L: tower_layer::Layer<Next> + Send + Sync + 'static,
        L::Service: Service<Request, Response = Response> + Clone + Send + Sync + 'static,
        <L::Service as Service<Request>>::Error: Into<BoxError>,
        <L::Service as Service<Request>>::Future: Send + 'static,
    {
        self.settings.layers.push(layer);
        self
    }
}
