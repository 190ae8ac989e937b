//! [`AuditLayer`] and its service [`Audit`]: one structured log record for each request,
//! and the record's writer, which the HTTP endpoint's refusals use too.

use std::borrow::Cow;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context as TaskContext, Poll};
use std::time::Instant;

use pin_project_lite::pin_project;
use tower_service::Service;

use super::{Request, Response};
use crate::outcome::masking::mask_credentials;

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
///     .layer(mcp_tool::middleware::AuditLayer::new())
///     .build()?;
/// # Ok::<(), mcp_tool::ServerError>(())
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct AuditLayer {
    _private: (),
}

impl AuditLayer {
    /// The audit layer.
    pub fn new() -> Self {
        Self::default()
    }
}

impl<S> tower_layer::Layer<S> for AuditLayer {
    type Service = Audit<S>;

    fn layer(&self, inner: S) -> Audit<S> {
        Audit { inner }
    }
}

/// The service an [`AuditLayer`] makes of the service it wraps: its answers, each one
/// recorded.
#[derive(Debug, Clone)]
pub struct Audit<S> {
    inner: S,
}

impl<S> Service<Request> for Audit<S>
where
    S: Service<Request, Response = Response>,
{
    type Response = Response;
    type Error = S::Error;
    type Future = AuditFuture<S::Future>;

    fn poll_ready(&mut self, cx: &mut TaskContext<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Self::Future {
        AuditFuture {
            asked: Some(Asked::of(&request)),
            began: Instant::now(),
            future: self.inner.call(request),
        }
    }
}

pin_project! {
    /// The answer of an [`Audit`]: the wrapped service's, recorded once it is there.
    pub struct AuditFuture<F> {
        #[pin]
        future: F,
        asked: Option<Asked>,
        began: Instant,
    }
}

impl<F> std::fmt::Debug for AuditFuture<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AuditFuture").finish_non_exhaustive()
    }
}

impl<F, E> Future for AuditFuture<F>
where
    F: Future<Output = Result<Response, E>>,
{
    type Output = Result<Response, E>;

    fn poll(self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<Self::Output> {
        let this = self.project();
        let answered = std::task::ready!(this.future.poll(cx));
        // A layer's error is answered as a JSON-RPC error further out: recorded as one.
        let (outcome, code) = match &answered {
            Ok(response) => match (response.error_code(), response.is_error()) {
                (Some(code), _) => ("error", Some(code)),
                (None, true) => ("tool_error", None),
                (None, false) => ("ok", None),
            },
            Err(_) => ("error", None),
        };
        if let Some(asked) = this.asked.take() {
            asked.record(&Ended {
                outcome,
                code,
                duration_ms: this.began.elapsed().as_secs_f64() * 1000.0,
            });
        }
        Poll::Ready(answered)
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

/// A target as the audit log shows it: with any credential in it masked.
fn masked(target: &str) -> String {
    mask_credentials(target).into_owned()
}

/// A session id as the audit log shows it: enough to tell sessions apart, not to join one.
fn digest(session: &str) -> String {
    crate::outcome::digest::digest(session.as_bytes(), 6)
}
