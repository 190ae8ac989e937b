//! The layers people ask for, built in: a rate limit per caller, a bound on a result's
//! size, and an audit record of each request.

use std::borrow::Cow;
use std::fmt;
use std::future::Future;
use std::num::NonZeroU32;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::task::{Context as TaskContext, Poll};
use std::time::{Duration, Instant};

use governor::clock::{Clock as _, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota};
use sha2::{Digest as _, Sha256};
use tower_service::Service;

use super::{BoxError, Inner, Request, Response};
use crate::outcome::masking::mask_credentials;

type Answer = Pin<Box<dyn Future<Output = Result<Response, BoxError>> + Send>>;

/// What a [`RateLimit`] counts requests by.
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
/// the one client is one caller.
///
/// ```standalone_crate
/// use mcp_tool::middleware::{RateLimit, RateLimitKey};
///
/// # /// Adds two integers.
/// # #[mcp_tool::mcp_tool]
/// # fn add(a: i64, b: i64) -> i64 { a + b }
/// let server = mcp_tool::Server::from_registry("calculator", "1.0.0")
///     .layer(RateLimit::per_minute(60).keyed_by(RateLimitKey::Subject))
///     .build()?;
/// # Ok::<(), mcp_tool::ServerError>(())
/// ```
#[derive(Clone)]
pub struct RateLimit {
    limiter: Arc<DefaultKeyedRateLimiter<String>>,
    key: RateLimitKey,
    /// What the refusal says: "N requests a minute".
    said: Arc<str>,
    /// Requests counted since the last sweep of callers that are back under their limit.
    counted: Arc<AtomicU32>,
}

/// How many requests pass between two sweeps of the callers kept.
const SWEEP_EVERY: u32 = 4096;

impl RateLimit {
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
            limiter: Arc::new(DefaultKeyedRateLimiter::keyed(quota)),
            key: RateLimitKey::Subject,
            said: format!("{requests} requests a {period}").into(),
            counted: Arc::new(AtomicU32::new(0)),
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

    /// `None` when `request` may go on; else how long its caller must wait.
    fn wait(&self, request: &Request) -> Option<Duration> {
        if self.counted.fetch_add(1, Ordering::Relaxed) % SWEEP_EVERY == SWEEP_EVERY - 1 {
            // Callers whose count is back to full are forgotten: memory stays bounded
            // by the callers of the last moments.
            self.limiter.retain_recent();
            self.limiter.shrink_to_fit();
        }
        let refused = self.limiter.check_key(&self.key_of(request)).err()?;
        Some(refused.wait_time_from(DefaultClock::default().now()))
    }
}

fn nonzero(requests: u32) -> NonZeroU32 {
    NonZeroU32::new(requests)
        .expect("a rate limit of 0 requests refuses every request; give at least 1")
}

impl fmt::Debug for RateLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RateLimit")
            .field("limit", &self.said)
            .field("key", &self.key)
            .finish_non_exhaustive()
    }
}

impl tower_layer::Layer<Inner> for RateLimit {
    type Service = Limited<RateLimit>;

    fn layer(&self, next: Inner) -> Self::Service {
        Limited {
            rule: self.clone(),
            next,
        }
    }
}

/// What a built-in layer does with a request and the rest of the stack.
pub trait Rule {
    fn answer(&self, request: Request, next: &mut Inner) -> Answer;
}

impl<R: Rule> Service<Request> for Limited<R> {
    type Response = Response;
    type Error = BoxError;
    type Future = Answer;

    fn poll_ready(&mut self, cx: &mut TaskContext<'_>) -> Poll<Result<(), BoxError>> {
        self.next.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Answer {
        self.rule.answer(request, &mut self.next)
    }
}

/// A built-in layer's service over the rest of the stack.
pub struct Limited<R> {
    rule: R,
    next: Inner,
}

impl<R> fmt::Debug for Limited<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Limited").finish_non_exhaustive()
    }
}

impl Rule for RateLimit {
    fn answer(&self, request: Request, next: &mut Inner) -> Answer {
        if !request.is_notification()
            && let Some(wait) = self.wait(&request)
        {
            let seconds = (wait.as_secs_f64() * 10.0).ceil() / 10.0;
            let mut refused = Response::error(
                -32000,
                format!(
                    "Rate limit exceeded: this server allows {} for each caller; try again in {seconds:.1} s",
                    self.said
                ),
            );
            refused.set_data(serde_json::json!({"retryAfterSeconds": seconds}));
            return Box::pin(async move { Ok(refused) });
        }
        Box::pin(next.call(request))
    }
}

/// A bound on the size of a result: one over `max_bytes` of JSON becomes a tool error that
/// names both sizes (a JSON-RPC error for a method other than `tools/call`), never a
/// truncated reply.
///
/// ```standalone_crate
/// # /// Adds two integers.
/// # #[mcp_tool::mcp_tool]
/// # fn add(a: i64, b: i64) -> i64 { a + b }
/// let server = mcp_tool::Server::from_registry("calculator", "1.0.0")
///     .layer(mcp_tool::middleware::ResponseLimit::new(1 << 20))
///     .build()?;
/// # Ok::<(), mcp_tool::ServerError>(())
/// ```
#[derive(Debug, Clone, Copy)]
pub struct ResponseLimit {
    max_bytes: usize,
}

impl ResponseLimit {
    /// Results of at most `max_bytes` bytes of JSON.
    pub fn new(max_bytes: usize) -> Self {
        Self { max_bytes }
    }
}

impl tower_layer::Layer<Inner> for ResponseLimit {
    type Service = Limited<ResponseLimit>;

    fn layer(&self, next: Inner) -> Self::Service {
        Limited { rule: *self, next }
    }
}

impl Rule for ResponseLimit {
    fn answer(&self, request: Request, next: &mut Inner) -> Answer {
        let max = self.max_bytes;
        let answering = next.call(request);
        Box::pin(async move {
            let response = answering.await?;
            let size = response.json_size();
            if size <= max {
                return Ok(response);
            }
            Ok(Response::tool_error(format!(
                "The result is {size} bytes, more than this server's limit of {max} bytes: ask for less (a narrower query, fewer items, a smaller page)"
            )))
        })
    }
}

/// One structured log record for each request, under the target `mcp_tool::audit` at
/// `INFO`: who (`subject`, `client_id`, `session` as a short digest), what (`method`,
/// `target`), the `outcome` (`ok`, `tool_error`, `error` with its `code`) and the
/// `duration_ms`. Arguments are not recorded; what is recorded is masked as every log
/// record is.
///
/// A request the HTTP endpoint refuses for its token before the pipeline runs is
/// recorded too, by the same writer, with the outcome `unauthorized` (`401`: no valid
/// token, so no subject; its method and target as its `Mcp-Method` and `Mcp-Name` headers
/// say, else the HTTP method, since its body is never read) or `forbidden` (`403`: a
/// token without a scope the request needs, or a `Host` or `Origin` the server does not
/// serve), with the `code` of its HTTP status. A client acting for itself is recorded
/// with its `client_id` and no `subject`.
///
/// ```standalone_crate
/// # /// Adds two integers.
/// # #[mcp_tool::mcp_tool]
/// # fn add(a: i64, b: i64) -> i64 { a + b }
/// let server = mcp_tool::Server::from_registry("calculator", "1.0.0")
///     .layer(mcp_tool::middleware::Audit::new())
///     .build()?;
/// # Ok::<(), mcp_tool::ServerError>(())
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct Audit {
    _private: (),
}

impl Audit {
    /// The audit layer.
    pub fn new() -> Self {
        Self::default()
    }
}

impl tower_layer::Layer<Inner> for Audit {
    type Service = Limited<Audit>;

    fn layer(&self, next: Inner) -> Self::Service {
        Limited { rule: *self, next }
    }
}

/// Who asked what: an audit record's fields, read (and masked) before the request goes on.
pub(crate) struct Asked {
    method: Cow<'static, str>,
    target: Option<String>,
    subject: Option<String>,
    client_id: Option<String>,
    session: Option<String>,
    transport: &'static str,
}

/// How a request audited ended.
pub(crate) struct Ended {
    pub(crate) outcome: &'static str,
    /// The JSON-RPC error's code, or a refusal's HTTP status.
    pub(crate) code: Option<i32>,
    pub(crate) duration_ms: f64,
}

/// The longest method a client's header may have recorded, in characters.
#[cfg(feature = "http")]
const LONGEST_METHOD: usize = 64;

impl Asked {
    /// Who asked what, as the pipeline's `request` says.
    fn of(request: &Request) -> Self {
        Self {
            method: Cow::Borrowed(request.method),
            target: request.target().map(masked),
            subject: (request.caller()).and_then(|auth| auth.subject().map(str::to_owned)),
            client_id: (request.caller()).and_then(|auth| auth.client_id().map(str::to_owned)),
            session: request.session().map(digest),
            transport: request.transport().network(),
        }
    }

    /// Who asked what, for a request refused before the pipeline ran: `method` and
    /// `target` as the client wrote them, masked and bounded here.
    #[cfg(feature = "http")]
    pub(crate) fn refused(
        method: &str,
        target: Option<&str>,
        caller: Option<&crate::model::Auth>,
        session: Option<&str>,
        transport: super::Transport,
    ) -> Self {
        let method: String = mask_credentials(method)
            .chars()
            .take(LONGEST_METHOD)
            .collect();
        Self {
            method: Cow::Owned(method),
            target: target.map(masked),
            subject: caller.and_then(|auth| auth.subject().map(str::to_owned)),
            client_id: caller.and_then(|auth| auth.client_id().map(str::to_owned)),
            session: session.map(digest),
            transport: transport.network(),
        }
    }

    /// Writes the audit record of the request, as it `ended`: the one place that does.
    pub(crate) fn record(&self, ended: &Ended) {
        tracing::info!(
            target: "mcp_tool::audit",
            method = &*self.method,
            target = self.target.as_deref(),
            subject = self.subject.as_deref(),
            client_id = self.client_id.as_deref(),
            session = self.session.as_deref(),
            transport = self.transport,
            outcome = ended.outcome,
            code = ended.code,
            duration_ms = ended.duration_ms,
            "request answered",
        );
    }
}

impl Rule for Audit {
    fn answer(&self, request: Request, next: &mut Inner) -> Answer {
        let asked = Asked::of(&request);
        let began = Instant::now();
        let answering = next.call(request);
        Box::pin(async move {
            let response = answering.await?;
            let outcome = match (response.error_code(), response.is_error()) {
                (Some(_), _) => "error",
                (None, true) => "tool_error",
                (None, false) => "ok",
            };
            asked.record(&Ended {
                outcome,
                code: response.error_code(),
                duration_ms: began.elapsed().as_secs_f64() * 1000.0,
            });
            Ok(response)
        })
    }
}

/// A target as the audit log shows it: with any credential in it masked.
fn masked(target: &str) -> String {
    mask_credentials(target).into_owned()
}

/// A session id as the audit log shows it: enough to tell sessions apart, not to join one.
fn digest(session: &str) -> String {
    let hash = Sha256::digest(session.as_bytes());
    hash.iter()
        .take(6)
        .map(|byte| format!("{byte:02x}"))
        .collect()
}
