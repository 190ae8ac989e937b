//! [`ResponseLimitLayer`] and its service [`ResponseLimit`]: a bound on a result's size.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context as TaskContext, Poll};

use pin_project_lite::pin_project;
use tower_service::Service;

use super::{Request, Response};

/// A bound on the size of a result: one over `max_bytes` of JSON becomes a tool error that
/// names both sizes (a JSON-RPC error for a method other than `tools/call`), never a
/// truncated reply. Its service is [`ResponseLimit`].
///
/// ```standalone_crate
/// # /// Adds two integers.
/// # #[mcp_tool::mcp_tool]
/// # fn add(a: i64, b: i64) -> i64 { a + b }
/// let server = mcp_tool::Server::from_registry("calculator", "1.0.0")
///     .layer(mcp_tool::middleware::ResponseLimitLayer::new(1 << 20))
///     .build()?;
/// # Ok::<(), mcp_tool::ServerError>(())
/// ```
#[derive(Debug, Clone, Copy)]
pub struct ResponseLimitLayer {
    max_bytes: usize,
}

impl ResponseLimitLayer {
    /// Results of at most `max_bytes` bytes of JSON.
    pub fn new(max_bytes: usize) -> Self {
        Self { max_bytes }
    }
}

impl<S> tower_layer::Layer<S> for ResponseLimitLayer {
    type Service = ResponseLimit<S>;

    fn layer(&self, inner: S) -> ResponseLimit<S> {
        ResponseLimit {
            max_bytes: self.max_bytes,
            inner,
        }
    }
}

/// The service a [`ResponseLimitLayer`] makes of the service it wraps: its answers, each
/// one over the bound replaced by a tool error.
#[derive(Debug, Clone)]
pub struct ResponseLimit<S> {
    max_bytes: usize,
    inner: S,
}

impl<S> Service<Request> for ResponseLimit<S>
where
    S: Service<Request, Response = Response>,
{
    type Response = Response;
    type Error = S::Error;
    type Future = ResponseLimitFuture<S::Future>;

    fn poll_ready(&mut self, cx: &mut TaskContext<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Self::Future {
        ResponseLimitFuture {
            future: self.inner.call(request),
            max_bytes: self.max_bytes,
        }
    }
}

pin_project! {
    /// The answer of a [`ResponseLimit`]: the wrapped service's, bounded.
    #[derive(Debug)]
    pub struct ResponseLimitFuture<F> {
        #[pin]
        future: F,
        max_bytes: usize,
    }
}

impl<F, E> Future for ResponseLimitFuture<F>
where
    F: Future<Output = Result<Response, E>>,
{
    type Output = Result<Response, E>;

    fn poll(self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<Self::Output> {
        let this = self.project();
        let response = std::task::ready!(this.future.poll(cx))?;
        let (size, max) = (response.json_size(), *this.max_bytes);
        if size <= max {
            return Poll::Ready(Ok(response));
        }
        Poll::Ready(Ok(Response::tool_error(format!(
            "The result is {size} bytes, more than this server's limit of {max} bytes: ask for less (a narrower query, fewer items, a smaller page)"
        ))))
    }
}
