//! The builder's option for the request pipeline: the layers every request passes.

use tower_service::Service;

use crate::server::builder::Server;
use crate::server::pipeline::{BoxError, Inner, Request, Response};

impl Server {
    /// Adds a `tower` layer that every request and notification passes on its way to
    /// its handler, and its answer on the way back, on every transport: tower's own
    /// (`ConcurrencyLimitLayer`, `TimeoutLayer`, `RateLimitLayer`, `LoadShedLayer`), one
    /// of [`middleware`](crate::middleware)'s, a `tower::layer::layer_fn` or a
    /// [`from_fn`](crate::middleware::from_fn) closure of one's own. The first layer added
    /// is the outermost: it sees the request first and the answer last. One instance of
    /// the stack serves every request, each made ready and called in turn, so that the state
    /// a layer keeps (a rate limit's count) is shared and its service need not be `Clone`. An error a layer fails a request with is answered as a JSON-RPC
    /// error: a timeout's with -32001, a shed load's with -32000.
    ///
    /// ```standalone_crate
    /// use std::time::Duration;
    ///
    /// # /// Adds two integers.
    /// # #[mcp_tool::mcp_tool]
    /// # fn add(a: i64, b: i64) -> i64 { a + b }
    /// let server = mcp_tool::Server::from_registry("calculator", "1.0.0")
    ///     .layer(tower::limit::RateLimitLayer::new(100, Duration::from_secs(1)))
    ///     .layer(tower::timeout::TimeoutLayer::new(Duration::from_secs(30)))
    ///     .build()?;
    /// # Ok::<(), mcp_tool::ServerError>(())
    /// ```
    pub fn layer<L>(mut self, layer: L) -> Self
    where
        L: tower_layer::Layer<Inner> + Send + Sync + 'static,
        L::Service: Service<Request, Response = Response> + Send + 'static,
        <L::Service as Service<Request>>::Error: Into<BoxError>,
        <L::Service as Service<Request>>::Future: Send + 'static,
    {
        self.settings.layers.push(layer);
        self
    }
}
