//! A layer made of an async closure `(request, next) -> response`, as axum's
//! `middleware::from_fn`.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context as TaskContext, Poll};

use tower_service::Service;

use super::{BoxError, Inner, Next, Request, Response};

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

impl<F: Clone> tower_layer::Layer<Inner> for FromFnLayer<F> {
    type Service = FromFn<F>;

    fn layer(&self, inner: Inner) -> FromFn<F> {
        FromFn {
            f: self.f.clone(),
            next: Next::new(inner),
        }
    }
}

impl<F> fmt::Debug for FromFnLayer<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FromFnLayer").finish_non_exhaustive()
    }
}

/// The service [`FromFnLayer`] makes of the rest of the stack.
#[derive(Clone)]
pub struct FromFn<F> {
    f: F,
    next: Next,
}

impl<F, Fut> Service<Request> for FromFn<F>
where
    F: Fn(Request, Next) -> Fut,
    Fut: Future<Output = Response> + Send + 'static,
{
    type Response = Response;
    type Error = BoxError;
    type Future = Pin<Box<dyn Future<Output = Result<Response, BoxError>> + Send>>;

    fn poll_ready(&mut self, _: &mut TaskContext<'_>) -> Poll<Result<(), BoxError>> {
        // The rest of the stack is made ready when the closure runs it.
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request) -> Self::Future {
        let answering = (self.f)(request, self.next.clone());
        Box::pin(async move { Ok(answering.await) })
    }
}

impl<F> fmt::Debug for FromFn<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FromFn").finish_non_exhaustive()
    }
}
