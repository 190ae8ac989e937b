//! A layer made of an async closure `(request, next) -> response`, as axum's
//! `middleware::from_fn`.

use std::convert::Infallible;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context as TaskContext, Poll};

use pin_project_lite::pin_project;
use tower_service::Service;

use super::{BoxError, Next, Request, Response};

/// A layer that runs `f` for every request: `f` gets the request and the rest of the
/// stack, and answers, by [`Next::run`] or on its own.
///
/// ```standalone_crate
/// use mcp_tool::middleware::{self, Next, Request, Response};
///
/// # /// Adds two integers.
/// # #[mcp_tool::mcp_tool]
/// # fn add(a: i64, b: i64) -> i64 { a + b }
/// let server = mcp_tool::Server::from_registry("calculator", "1.0.0")
///     .layer(middleware::from_fn(|request: Request, next: Next| async move {
///         if request.target() == Some("delete_everything") {
///             return Response::tool_error("this tool is switched off today");
///         }
///         next.run(request).await
///     }))
///     .build()?;
/// # Ok::<(), mcp_tool::ServerError>(())
/// ```
pub fn from_fn<F, Fut>(f: F) -> FromFnLayer<F>
where
    F: Fn(Request, Next) -> Fut + Clone + Send + Sync + 'static,
    Fut: Future<Output = Response> + Send + 'static,
{
    FromFnLayer { f }
}

/// The layer [`from_fn`] makes.
#[derive(Clone)]
pub struct FromFnLayer<F> {
    f: F,
}

impl<F: Clone, S> tower_layer::Layer<S> for FromFnLayer<F> {
    type Service = FromFn<F, S>;

    fn layer(&self, inner: S) -> FromFn<F, S> {
        FromFn {
            f: self.f.clone(),
            inner,
        }
    }
}

impl<F> fmt::Debug for FromFnLayer<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FromFnLayer").finish_non_exhaustive()
    }
}

/// The service [`FromFnLayer`] makes of the service it wraps, which the closure gets as
/// [`Next`].
#[derive(Clone)]
pub struct FromFn<F, S> {
    f: F,
    inner: S,
}

impl<F, Fut, S> Service<Request> for FromFn<F, S>
where
    F: Fn(Request, Next) -> Fut,
    Fut: Future<Output = Response>,
    S: Service<Request, Response = Response> + Clone + Send + Sync + 'static,
    S::Error: Into<BoxError>,
    S::Future: Send + 'static,
{
    type Response = Response;
    type Error = Infallible;
    type Future = FromFnFuture<Fut>;

    fn poll_ready(&mut self, _: &mut TaskContext<'_>) -> Poll<Result<(), Infallible>> {
        // The rest of the stack is made ready when the closure runs it.
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request) -> Self::Future {
        // The clone made ready is the one called, as tower's services ask.
        let clone = self.inner.clone();
        let inner = std::mem::replace(&mut self.inner, clone);
        FromFnFuture {
            future: (self.f)(request, Next::new(inner)),
        }
    }
}

impl<F, S> fmt::Debug for FromFn<F, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FromFn").finish_non_exhaustive()
    }
}

pin_project! {
    /// The answer of a [`FromFn`]: the closure's.
    pub struct FromFnFuture<Fut> {
        #[pin]
        future: Fut,
    }
}

impl<Fut> fmt::Debug for FromFnFuture<Fut> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FromFnFuture").finish_non_exhaustive()
    }
}

impl<Fut: Future<Output = Response>> Future for FromFnFuture<Fut> {
    type Output = Result<Response, Infallible>;

    fn poll(self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<Self::Output> {
        self.project().future.poll(cx).map(Ok)
    }
}
