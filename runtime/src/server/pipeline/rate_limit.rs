//! [`RateLimitLayer`] and its service [`RateLimit`]: at most so many requests a period for
//! each caller.

use std::fmt;
use std::future::Future;
use std::num::NonZeroU32;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::task::{Context as TaskContext, Poll};
use std::time::Duration;

use governor::clock::{Clock as _, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota};
use pin_project_lite::pin_project;
use tower_service::Service;

use super::{Request, Response};

/// What a [`RateLimitLayer`] counts requests by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum RateLimitKey {
    /// The principal of the caller's verified token (its subject, or the client acting
    /// for itself, each counted apart from the other); a request without a token is
    /// counted by its session, else its client's address.
    Subject,
    /// The HTTP session; a request outside any is counted by its client's address.
    Session,
    /// The address of the client's connection.
    ClientAddress,
}

/// A rate limit for each caller: at most `n` requests a period, with bursts up to `n`,
/// counted by the caller's subject (or its session, or its address: [`RateLimitKey`]).
/// A request over the limit is answered with a JSON-RPC error (-32000) that says how long
/// to wait, also as `data.retryAfterSeconds`; notifications are never counted. Over stdio,
/// the one client is one caller. Its service is [`RateLimit`]; the count is shared by
/// every service the layer makes.
///
/// ```standalone_crate
/// use mcp_tool::middleware::{RateLimitKey, RateLimitLayer};
///
/// # /// Adds two integers.
/// # #[mcp_tool::mcp_tool]
/// # fn add(a: i64, b: i64) -> i64 { a + b }
/// let server = mcp_tool::Server::from_registry("calculator", "1.0.0")
///     .layer(RateLimitLayer::per_minute(60).keyed_by(RateLimitKey::Subject))
///     .build()?;
/// # Ok::<(), mcp_tool::ServerError>(())
/// ```
#[derive(Clone)]
pub struct RateLimitLayer {
    rule: Arc<Rule>,
    key: RateLimitKey,
}

/// What a [`RateLimitLayer`] counts with, shared by its services.
struct Rule {
    limiter: DefaultKeyedRateLimiter<String>,
    /// What the refusal says: "N requests a minute".
    said: Box<str>,
    /// Requests counted since the last sweep of callers that are back under their limit.
    counted: AtomicU32,
}

/// How many requests pass between two sweeps of the callers kept.
const SWEEP_EVERY: u32 = 4096;

impl RateLimitLayer {
    /// At most `requests` a second for each caller.
    ///
    /// # Panics
    /// When `requests` is 0, which would refuse every request.
    pub fn per_second(requests: u32) -> Self {
        Self::new(Quota::per_second(nonzero(requests)), requests, "second")
    }

    /// At most `requests` a minute for each caller.
    ///
    /// # Panics
    /// When `requests` is 0, which would refuse every request.
    pub fn per_minute(requests: u32) -> Self {
        Self::new(Quota::per_minute(nonzero(requests)), requests, "minute")
    }

    fn new(quota: Quota, requests: u32, period: &str) -> Self {
        Self {
            rule: Arc::new(Rule {
                limiter: DefaultKeyedRateLimiter::keyed(quota),
                said: format!("{requests} requests a {period}").into(),
                counted: AtomicU32::new(0),
            }),
            key: RateLimitKey::Subject,
        }
    }

    /// Counted by `key` instead of the caller's subject.
    #[must_use]
    pub fn keyed_by(mut self, key: RateLimitKey) -> Self {
        self.key = key;
        self
    }

    /// Whom `request` counts for.
    fn key_of(&self, request: &Request) -> String {
        let subject = || request.caller().map(|auth| auth.principal().to_string());
        let session = || {
            request
                .session()
                .map(|session| format!("session:{session}"))
        };
        let address = || {
            request
                .client_address()
                .map(|address| format!("ip:{}", address.ip()))
        };
        let key = match self.key {
            RateLimitKey::Subject => subject().or_else(session).or_else(address),
            RateLimitKey::Session => session().or_else(address),
            RateLimitKey::ClientAddress => address(),
        };
        key.unwrap_or_else(|| request.transport().network().to_owned())
    }

    /// The refusal of `request`, when its caller is over the limit; `None` when it may go
    /// on. Notifications are never counted.
    fn refusal(&self, request: &Request) -> Option<Response> {
        if request.is_notification() {
            return None;
        }
        let rule = &*self.rule;
        if rule.counted.fetch_add(1, Ordering::Relaxed) % SWEEP_EVERY == SWEEP_EVERY - 1 {
            // Callers whose count is back to full are forgotten: memory stays bounded
            // by the callers of the last moments.
            rule.limiter.retain_recent();
            rule.limiter.shrink_to_fit();
        }
        let refused = rule.limiter.check_key(&self.key_of(request)).err()?;
        let wait: Duration = refused.wait_time_from(DefaultClock::default().now());
        let seconds = (wait.as_secs_f64() * 10.0).ceil() / 10.0;
        let mut refusal = Response::error(
            -32000,
            format!(
                "Rate limit exceeded: this server allows {} for each caller; try again in {seconds:.1} s",
                rule.said
            ),
        );
        refusal.set_data(serde_json::json!({"retryAfterSeconds": seconds}));
        Some(refusal)
    }
}

fn nonzero(requests: u32) -> NonZeroU32 {
    NonZeroU32::new(requests)
        .expect("a rate limit of 0 requests refuses every request; give at least 1")
}

impl fmt::Debug for RateLimitLayer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RateLimitLayer")
            .field("limit", &self.rule.said)
            .field("key", &self.key)
            .finish_non_exhaustive()
    }
}

impl<S> tower_layer::Layer<S> for RateLimitLayer {
    type Service = RateLimit<S>;

    fn layer(&self, inner: S) -> RateLimit<S> {
        RateLimit {
            layer: self.clone(),
            inner,
        }
    }
}

/// The service a [`RateLimitLayer`] makes of the service it wraps: a request over its
/// caller's limit is answered here; any other goes on to `S`.
#[derive(Clone)]
pub struct RateLimit<S> {
    layer: RateLimitLayer,
    inner: S,
}

impl<S: fmt::Debug> fmt::Debug for RateLimit<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RateLimit")
            .field("layer", &self.layer)
            .field("inner", &self.inner)
            .finish()
    }
}

impl<S> Service<Request> for RateLimit<S>
where
    S: Service<Request, Response = Response>,
{
    type Response = Response;
    type Error = S::Error;
    type Future = RateLimitFuture<S::Future>;

    fn poll_ready(&mut self, cx: &mut TaskContext<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Self::Future {
        let state = match self.layer.refusal(&request) {
            Some(refusal) => State::Refused {
                refusal: Some(refusal),
            },
            None => State::Passed {
                future: self.inner.call(request),
            },
        };
        RateLimitFuture { state }
    }
}

pin_project! {
    /// The answer of a [`RateLimit`]: its refusal, or the wrapped service's answer.
    #[derive(Debug)]
    pub struct RateLimitFuture<F> {
        #[pin]
        state: State<F>,
    }
}

pin_project! {
    #[project = StateAnswer]
    #[derive(Debug)]
    enum State<F> {
        // Over the limit: answered here.
        Refused { refusal: Option<Response> },
        // Passed on.
        Passed { #[pin] future: F },
    }
}

impl<F, E> Future for RateLimitFuture<F>
where
    F: Future<Output = Result<Response, E>>,
{
    type Output = Result<Response, E>;

    fn poll(self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<Self::Output> {
        match self.project().state.project() {
            StateAnswer::Refused { refusal } => {
                Poll::Ready(Ok(refusal.take().expect("a refusal is answered once")))
            }
            StateAnswer::Passed { future } => future.poll(cx),
        }
    }
}
