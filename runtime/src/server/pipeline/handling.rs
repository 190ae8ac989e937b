//! [`Handling`], a [`Handler`]: how the end of the stack reaches the handler the protocol
//! put in the request, in one allocation: the handler waits in its box for its arguments,
//! and is answered there.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context as TaskContext, Poll};

use pin_project_lite::pin_project;
use serde_json::{Map, Value};

use super::Response;

/// A handler as a request carries it: started with the arguments given back (as the
/// layers left them), then polled for its answer, in place.
pub(crate) trait Handler: Future<Output = Response> + Send {
    /// Starts the handler with `arguments`; a second start does nothing.
    fn start(self: Pin<&mut Self>, arguments: Option<Map<String, Value>>);
}

/// A handler of `start`, boxed once: what [`Request`](super::Request) carries.
pub(crate) fn handler<S, F>(start: S) -> Pin<Box<dyn Handler>>
where
    S: FnOnce(Option<Map<String, Value>>) -> F + Send + 'static,
    F: Future<Output = Response> + Send + 'static,
{
    Box::pin(Handling {
        stage: Stage::Waiting { start: Some(start) },
    })
}

pin_project! {
    struct Handling<S, F> {
        #[pin]
        stage: Stage<S, F>,
    }
}

pin_project! {
    #[project = StageNow]
    enum Stage<S, F> {
        // Waiting for its arguments.
        Waiting { start: Option<S> },
        // Answering.
        Answering { #[pin] answering: F },
    }
}

impl<S, F> Handler for Handling<S, F>
where
    S: FnOnce(Option<Map<String, Value>>) -> F + Send,
    F: Future<Output = Response> + Send,
{
    fn start(self: Pin<&mut Self>, arguments: Option<Map<String, Value>>) {
        let mut stage = self.project().stage;
        if let StageNow::Waiting { start } = stage.as_mut().project()
            && let Some(start) = start.take()
        {
            stage.set(Stage::Answering {
                answering: start(arguments),
            });
        }
    }
}

impl<S, F> Future for Handling<S, F>
where
    F: Future<Output = Response>,
{
    type Output = Response;

    fn poll(self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<Response> {
        match self.project().stage.project() {
            StageNow::Answering { answering } => answering.poll(cx),
            StageNow::Waiting { .. } => Poll::Ready(Response::error(
                -32603,
                "Internal error: the request's handler was polled before it was started",
            )),
        }
    }
}
