//! The one call driver: a started call of a tool, a prompt or a resource, run to its
//! outcome under the server's limit of concurrent calls, the call's time limit and the
//! client's cancellation, or, on protocol 2026-07-28, until it asks the client something
//! it has no answer to yet. Every path that runs a call, through a session or directly,
//! runs it here.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::sync::Semaphore;
use tokio_util::sync::{CancellationToken, WaitForCancellationFuture};

use crate::call::future::{CallFuture, Outcome};
use crate::call::rounds::Round;
use crate::outcome::failure::Failure;

/// What a call runs under: the server's limit of concurrent calls, the call's time
/// limit, and the cancellation of the request it came in.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Limits<'a> {
    /// A permit for each running call; `None` without a limit.
    pub(crate) calls: Option<&'a Semaphore>,
    pub(crate) timeout: Option<Duration>,
    /// Fires when the client cancels; `None` for a call made outside a session.
    pub(crate) cancel: Option<&'a CancellationToken>,
    /// The call's round, when it asks the client in rounds (2026-07-28).
    pub(crate) input: Option<&'a Round>,
}

/// Runs a started call to its outcome; `None` when the client cancelled it (its future
/// is dropped). A call that ended before its function ran (its arguments failed) waits
/// for nothing: no permit, no timer, no cancellation watch.
#[inline]
pub(crate) async fn drive<T: Send + 'static>(
    mut running: Pin<&mut CallFuture<T>>,
    limits: Limits<'_>,
) -> Option<Outcome<T>> {
    if let Some(failure) = running.as_mut().ended() {
        return Some(Err(failure));
    }
    match limits {
        // The common cases first, without the machinery they do not use.
        Limits {
            calls: None,
            timeout: None,
            cancel: Some(cancel),
            input: None,
        } => Cancellable::new(running, cancel).await,
        Limits {
            calls: None,
            timeout: None,
            cancel: None,
            input: None,
        } => Some(running.await),
        Limits {
            input: Some(round), ..
        } => {
            let asking = Asking {
                running: limited(running, limits.calls, limits.timeout),
                round,
            };
            match limits.cancel {
                None => Some(asking.await),
                Some(cancel) => Cancellable::new(asking, cancel).await,
            }
        }
        Limits { cancel: None, .. } => Some(limited(running, limits.calls, limits.timeout).await),
        Limits {
            cancel: Some(cancel),
            ..
        } => Cancellable::new(limited(running, limits.calls, limits.timeout), cancel).await,
    }
}

pin_project_lite::pin_project! {
    /// A running call that ends once it asks the client a question that has no answer
    /// yet: the call then ends with the questions asked, and runs again when the client
    /// answers.
    struct Asking<'a, F> {
        #[pin]
        running: F,
        round: &'a Round,
    }
}

impl<T, F: Future<Output = Outcome<T>>> Future for Asking<'_, F> {
    type Output = Outcome<T>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Outcome<T>> {
        let this = self.project();
        if let Poll::Ready(outcome) = this.running.poll(cx) {
            return Poll::Ready(outcome);
        }
        // Watched before it is read, so that a question asked on another thread in
        // between wakes this call.
        this.round.watch(cx.waker());
        if this.round.is_asking() {
            this.round.suspend();
            return Poll::Ready(Err(Failure::InputRequired));
        }
        Poll::Pending
    }
}

/// A running call under the server's limit of concurrent calls and its time limit.
#[inline]
async fn limited<T: Send + 'static>(
    running: Pin<&mut CallFuture<T>>,
    calls: Option<&Semaphore>,
    timeout: Option<Duration>,
) -> Outcome<T> {
    match (calls, timeout) {
        (None, Some(limit)) => timed(limit, running).await,
        (None, None) => running.await,
        (Some(calls), limit) => queued(calls, limit, running).await,
    }
}

pin_project_lite::pin_project! {
    /// A running call that ends with `None` when the client cancels it, dropping the
    /// tool's future. Cancellation is watched only once the call has had to wait, so a
    /// call that completes at once never registers with the token.
    struct Cancellable<'a, F> {
        #[pin]
        running: F,
        cancel: &'a CancellationToken,
        #[pin]
        watch: Option<WaitForCancellationFuture<'a>>,
    }
}

impl<'a, F: Future> Cancellable<'a, F> {
    fn new(running: F, cancel: &'a CancellationToken) -> Self {
        Self {
            running,
            cancel,
            watch: None,
        }
    }
}

impl<F: Future> Future for Cancellable<'_, F> {
    type Output = Option<F::Output>;

    #[inline]
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<F::Output>> {
        let mut this = self.project();
        if let Poll::Ready(outcome) = this.running.poll(cx) {
            return Poll::Ready(Some(outcome));
        }
        if this.watch.is_none() {
            this.watch.set(Some(this.cancel.cancelled()));
        }
        match this.watch.as_pin_mut().map(|watch| watch.poll(cx)) {
            Some(Poll::Ready(())) => Poll::Ready(None),
            _ => Poll::Pending,
        }
    }
}

/// A running call, ended by `limit` if it takes longer. Boxed, so that the timer's
/// state does not weigh on calls without one.
async fn timed<T: Send + 'static>(
    limit: std::time::Duration,
    running: Pin<&mut CallFuture<T>>,
) -> Outcome<T> {
    Box::pin(tokio::time::timeout(limit, running))
        .await
        .unwrap_or(Err(Failure::Timeout(limit)))
}

/// A running call that first waits for a permit among the server's concurrent calls,
/// and holds it until the call ends, fails its own time limit or is dropped. Boxed, as
/// `timed` is.
async fn queued<T: Send + 'static>(
    calls: &Semaphore,
    limit: Option<Duration>,
    running: Pin<&mut CallFuture<T>>,
) -> Outcome<T> {
    Box::pin(async move {
        let Ok(_permit) = calls.acquire().await else {
            return Err(Failure::internal(
                "the server's limit of concurrent calls was closed".to_owned(),
            ));
        };
        match limit {
            Some(limit) => timed(limit, running).await,
            None => running.await,
        }
    })
    .await
}
