//! [`Next`]: the rest of the stack, down to the handler, as a layer wraps it and a
//! [`from_fn`](super::from_fn) closure calls it.

use std::any::Any;
use std::fmt;
use std::task::{Context as TaskContext, Poll};

use tower::ServiceExt as _;
use tower::util::BoxCloneSyncService;
use tower_service::Service;

use super::{BoxError, Request, Response};

/// The rest of the stack, down to the handler: the service a layer given to
/// [`Server::layer`](crate::Server::layer) wraps, and the handle a [`from_fn`](super::from_fn)
/// closure goes on with.
///
/// The stack is built once, on the first request, and cloned for each request as tower's
/// services are: a layer's service must be `Clone`, and state it shares between requests
/// (a count, a semaphore) lives behind an `Arc`, as in tower's `ConcurrencyLimit`. A
/// service that is not `Clone` (tower's `RateLimit`) goes behind tower's `BufferLayer`.
///
/// ```
/// use mcp_tool::middleware::{Next, Request, Response};
///
/// // A layer's body: who asked for what, then the handler's answer.
/// async fn log(request: Request, next: Next) -> Response {
///     let what = format!("{} {}", request.method(), request.target().unwrap_or("-"));
///     let response = next.run(request).await;
///     tracing::info!(%what, failed = response.is_error(), "answered");
///     response
/// }
/// # let _ = mcp_tool::middleware::from_fn(log);
/// ```
#[derive(Clone)]
pub struct Next(BoxCloneSyncService<Request, Response, BoxError>);

impl Next {
    /// `service` as the rest of the stack; a `Next` is taken as it is, not boxed again.
    pub(crate) fn new<S>(service: S) -> Self
    where
        S: Service<Request, Response = Response> + Clone + Send + Sync + 'static,
        S::Error: Into<BoxError>,
        S::Future: Send + 'static,
    {
        let mut service = Some(service);
        if let Some(next) = (&mut service as &mut dyn Any).downcast_mut::<Option<Next>>() {
            // Present: `service` was put in just above.
            return next.take().expect("the service was just put in");
        }
        let service = service.expect("the service was just put in");
        Self(BoxCloneSyncService::new(service.map_err(Into::into)))
    }

    /// Passes `request` on, and gives the answer: the handler's, or a layer's below. An
    /// error a layer fails the request with is answered as a JSON-RPC error.
    pub async fn run(self, request: Request) -> Response {
        (self.oneshot(request).await).unwrap_or_else(|error| Response::from_layer_error(&error))
    }
}

impl Service<Request> for Next {
    type Response = Response;
    type Error = BoxError;
    type Future = <BoxCloneSyncService<Request, Response, BoxError> as Service<Request>>::Future;

    fn poll_ready(&mut self, cx: &mut TaskContext<'_>) -> Poll<Result<(), BoxError>> {
        self.0.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Self::Future {
        self.0.call(request)
    }
}

impl fmt::Debug for Next {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Next").finish_non_exhaustive()
    }
}
