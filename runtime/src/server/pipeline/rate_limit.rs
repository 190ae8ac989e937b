//! [`RateLimitLayer`] and its service [`RateLimit`]: at most so many requests a period for
//! each caller.

use std::fmt;
use std::future::Future;
#[cfg(feature = "redis")]
use std::mem;
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

#[cfg(feature = "redis")]
use super::{RedisFailure, RedisLimits};
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
/// every service the layer makes, in this process's memory, or, given
/// `shared_in` a Redis (feature `redis`), by every replica given the
/// same Redis and prefix, at one round trip to Redis a request counted.
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
    /// Where the counts are kept when replicas share them; in memory when `None`.
    #[cfg(feature = "redis")]
    shared: Option<Arc<RedisLimits>>,
    #[cfg(feature = "redis")]
    failure: RedisFailure,
}

/// What a [`RateLimitLayer`] counts with, shared by its services.
struct Rule {
    limiter: DefaultKeyedRateLimiter<String>,
    /// What the refusal says: "N requests a minute".
    said: Box<str>,
    /// Requests counted since the last sweep of callers that are back under their limit.
    counted: AtomicU32,
    /// The time between two requests, and the burst's tolerance (the time of `burst - 1`
    /// requests), as governor's GCRA counts them: what a shared count is given.
    #[cfg_attr(not(feature = "redis"), allow(dead_code))]
    interval: Duration,
    #[cfg_attr(not(feature = "redis"), allow(dead_code))]
    tolerance: Duration,
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
        let interval = quota.replenish_interval();
        Self {
            rule: Arc::new(Rule {
                limiter: DefaultKeyedRateLimiter::keyed(quota),
                said: format!("{requests} requests a {period}").into(),
                counted: AtomicU32::new(0),
                interval,
                tolerance: interval * (quota.burst_size().get() - 1),
            }),
            key: RateLimitKey::Subject,
            #[cfg(feature = "redis")]
            shared: None,
            #[cfg(feature = "redis")]
            failure: RedisFailure::default(),
        }
    }

    /// Counted by `key` instead of the caller's subject.
    #[must_use]
    pub fn keyed_by(mut self, key: RateLimitKey) -> Self {
        self.key = key;
        self
    }

    /// Counted in Redis, in `limits`, instead of this process's memory (feature `redis`):
    /// every replica given the same Redis and prefix shares one count for each caller,
    /// with the same burst and pace as in memory. Each request counted costs one round
    /// trip to Redis; when Redis cannot count it, [`when_redis_fails`](Self::when_redis_fails)
    /// decides.
    #[cfg(feature = "redis")]
    #[cfg_attr(docsrs, doc(cfg(feature = "redis")))]
    #[must_use]
    pub fn shared_in(mut self, limits: RedisLimits) -> Self {
        self.shared = Some(Arc::new(limits));
        self
    }

    /// What a request gets when Redis cannot count it: served uncounted
    /// ([`RedisFailure::Open`], the default) or refused ([`RedisFailure::Refuse`]).
    #[cfg(feature = "redis")]
    #[cfg_attr(docsrs, doc(cfg(feature = "redis")))]
    #[must_use]
    pub fn when_redis_fails(mut self, failure: RedisFailure) -> Self {
        self.failure = failure;
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

    /// The refusal of a request over the limit, which may be tried again after `wait`.
    fn over_limit(&self, wait: Duration) -> Response {
        let seconds = (wait.as_secs_f64() * 10.0).ceil() / 10.0;
        let mut refusal = Response::error(
            -32000,
            format!(
                "Rate limit exceeded: this server allows {} for each caller; try again in {seconds:.1} s",
                self.rule.said
            ),
        );
        refusal.set_data(serde_json::json!({"retryAfterSeconds": seconds}));
        refusal
    }

    /// The shared count's verdict on `request`, when it is kept in Redis and `request` is
    /// not a notification: the refusal, if any, once Redis answers.
    #[cfg(feature = "redis")]
    fn shared_check(&self, request: &Request) -> Option<Check> {
        let limits = Arc::clone(self.shared.as_ref()?);
        if request.is_notification() {
            return None;
        }
        let layer = self.clone();
        let caller = self.key_of(request);
        Some(Check(Box::pin(async move {
            let rule = &layer.rule;
            match limits.check(&caller, rule.interval, rule.tolerance).await {
                Ok(None) => None,
                Ok(Some(wait)) => Some(layer.over_limit(wait)),
                Err(failure) => {
                    let refused = layer.failure == RedisFailure::Refuse;
                    limits.warn(&failure, refused);
                    refused.then(unavailable)
                }
            }
        })))
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
        Some(self.over_limit(refused.wait_time_from(DefaultClock::default().now())))
    }
}

fn nonzero(requests: u32) -> NonZeroU32 {
    NonZeroU32::new(requests)
        .expect("a rate limit of 0 requests refuses every request; give at least 1")
}

/// The refusal of a request that the shared count could not count, under
/// [`RedisFailure::Refuse`].
#[cfg(feature = "redis")]
fn unavailable() -> Response {
    let mut refusal = Response::error(-32000, "rate limit unavailable, try again in a moment");
    refusal.set_data(serde_json::json!({"retryAfterSeconds": 1}));
    refusal
}

impl fmt::Debug for RateLimitLayer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut shown = f.debug_struct("RateLimitLayer");
        shown
            .field("limit", &self.rule.said)
            .field("key", &self.key);
        #[cfg(feature = "redis")]
        shown
            .field("shared", &self.shared)
            .field("failure", &self.failure);
        shown.finish_non_exhaustive()
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
/// caller's limit is answered here; any other goes on to `S`. `S` is `Clone`, as a
/// server's stack is: while a shared count is asked, the future holds the service made
/// ready for the request, and this one goes on with a clone (tower's `AsyncFilter` does
/// the same).
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
    S: Service<Request, Response = Response> + Clone,
{
    type Response = Response;
    type Error = S::Error;
    type Future = RateLimitFuture<S::Future, S>;

    fn poll_ready(&mut self, cx: &mut TaskContext<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Self::Future {
        #[cfg(feature = "redis")]
        if let Some(check) = self.layer.shared_check(&request) {
            // The service made ready goes with the request; this one goes on with a clone.
            let clone = self.inner.clone();
            let inner = mem::replace(&mut self.inner, clone);
            let state = State::Checking {
                check,
                waiting: Some((request, inner)),
            };
            return RateLimitFuture { state };
        }
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

/// The shared count's answer on its way from Redis: the refusal, if any.
#[cfg_attr(not(feature = "redis"), allow(dead_code))]
struct Check(Pin<Box<dyn Future<Output = Option<Response>> + Send>>);

impl fmt::Debug for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Check")
    }
}

pin_project! {
    /// The answer of a [`RateLimit`]: its refusal, or the wrapped service's answer (`F`,
    /// the future of `S`), after the shared count's when the count is kept in Redis.
    #[derive(Debug)]
    pub struct RateLimitFuture<F, S> {
        #[pin]
        state: State<F, S>,
    }
}

pin_project! {
    #[project = StateAnswer]
    #[derive(Debug)]
    // Without the feature `redis`, a count is never shared: `Checking` is never made.
    #[cfg_attr(not(feature = "redis"), allow(dead_code))]
    enum State<F, S> {
        // Over the limit: answered here.
        Refused { refusal: Option<Response> },
        // Counted in Redis: the request and the service made ready for it wait.
        Checking { check: Check, waiting: Option<(Request, S)> },
        // Passed on.
        Passed { #[pin] future: F },
    }
}

impl<F, S, E> Future for RateLimitFuture<F, S>
where
    F: Future<Output = Result<Response, E>>,
    S: Service<Request, Response = Response, Error = E, Future = F>,
{
    type Output = Result<Response, E>;

    fn poll(self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<Self::Output> {
        let mut state = self.project().state;
        let passed = match state.as_mut().project() {
            StateAnswer::Refused { refusal } => {
                return Poll::Ready(Ok(refusal.take().expect("a refusal is answered once")));
            }
            StateAnswer::Passed { future } => return future.poll(cx),
            StateAnswer::Checking { check, waiting } => {
                if let Some(refusal) = std::task::ready!(check.0.as_mut().poll(cx)) {
                    return Poll::Ready(Ok(refusal));
                }
                let (request, mut inner) = waiting.take().expect("a request is passed on once");
                inner.call(request)
            }
        };
        state.set(State::Passed { future: passed });
        match state.project() {
            StateAnswer::Passed { future } => future.poll(cx),
            _ => unreachable!("the state was just set"),
        }
    }
}
