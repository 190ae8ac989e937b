//! A call's context: progress and log messages to the client, cancellation, and who
//! asked, for a tool that takes a `Context` parameter.

use std::fmt;
use std::sync::{Arc, Mutex};

use rmcp::model::{ProgressToken, RequestMetaObject};
use rmcp::service::RequestContext;
use rmcp::{Peer, RoleServer};
use serde_json::{Map, Value};
use tokio_util::sync::CancellationToken;

use crate::bridge;
use crate::log_filter::LogFilter;
use crate::masking;
use crate::model::{ClientInfo, LogLevel, RequestId};

/// What a tool may do during a call besides returning: report progress, send log
/// messages to the client, notice that the client cancelled the call, and see who
/// called.
///
/// Ask for it with a parameter of this type, under any name (a type alias or a renamed
/// import is recognised too); it is never part of the tool's input schema, and a tool
/// takes at most one. Clones share the call's progress and cancellation.
///
/// ```standalone_crate
/// use mcp_tool::{Context, ToolError, mcp_tool};
///
/// /// Counts the lines of a text, reporting progress every thousand lines.
/// #[mcp_tool]
/// async fn count_lines(ctx: Context, text: String) -> Result<u64, ToolError> {
///     let total = text.lines().count();
///     let mut count = 0;
///     for _ in text.lines() {
///         count += 1;
///         if count % 1000 == 0 {
///             ctx.progress(count, total).await;
///         }
///         if ctx.is_cancelled() {
///             return Err(ToolError::new("cancelled"));
///         }
///     }
///     ctx.info(format!("counted {count} lines")).await;
///     Ok(count)
/// }
/// # fn main() {}
/// ```
///
/// The notification methods are async: they return once the message is written, so
/// every notification reaches the client before the call's reply. A plain `fn` tool runs
/// on a thread of the blocking pool, where
/// `tokio::runtime::Handle::current().block_on(ctx.info("..."))` sends one.
#[derive(Clone)]
pub struct Context {
    inner: Arc<Inner>,
}

struct Inner {
    tool: &'static str,
    session: Option<Session>,
    cancel: CancellationToken,
    log_filter: LogFilter,
    /// The last progress sent: progress only ever increases.
    last_progress: Mutex<Option<f64>>,
    meta: Map<String, Value>,
}

/// What a call made through a session has.
struct Session {
    peer: Peer<RoleServer>,
    id: RequestId,
    progress_token: Option<ProgressToken>,
    /// The level the request's `_meta` asks for (protocol 2026-07-28).
    request_level: Option<LogLevel>,
    /// Whether the request's protocol has no `logging/setLevel` (2026-07-28 on): then a
    /// request that asks for no level gets no log message.
    level_per_request: bool,
    client: Option<ClientInfo>,
}

impl Session {
    /// Whether the client asked for log messages of `level` in this call.
    fn wants(&self, level: LogLevel, session_filter: &LogFilter) -> bool {
        match self.request_level {
            Some(least) => level >= least,
            None if self.level_per_request => false,
            None => session_filter.level().is_none_or(|least| level >= least),
        }
    }
}

impl Context {
    /// The context of a call of `tool`, made through a session's `request` or directly.
    pub(crate) fn new(
        tool: &'static str,
        request: Option<&RequestContext<RoleServer>>,
        log_filter: &LogFilter,
    ) -> Self {
        let session = request.map(|request| Session {
            peer: request.peer.clone(),
            id: bridge::request_id(&request.id),
            progress_token: request.meta.get_progress_token(),
            request_level: request.meta.log_level().map(bridge::log_level),
            level_per_request: request
                .protocol_version()
                .is_some_and(|version| !version.has_initialize()),
            client: client_info(&request.meta, &request.peer),
        });
        let cancel = request.map_or_else(CancellationToken::new, |r| r.ct.clone());
        let meta = request.map_or_else(Map::new, |r| r.meta.0.0.clone());
        Self {
            inner: Arc::new(Inner {
                tool,
                session,
                cancel,
                log_filter: log_filter.clone(),
                last_progress: Mutex::new(None),
                meta,
            }),
        }
    }

    /// The name of the tool called.
    pub fn tool_name(&self) -> &'static str {
        self.inner.tool
    }

    /// The request's id; `None` for a call made outside a session
    /// ([`ToolServer::call`](crate::ToolServer::call)).
    pub fn request_id(&self) -> Option<&RequestId> {
        self.inner.session.as_ref().map(|s| &s.id)
    }

    /// The request's `_meta`, as the client sent it (`progressToken` included); empty
    /// when it sent none.
    pub fn meta(&self) -> &Map<String, Value> {
        &self.inner.meta
    }

    /// The client's name, version and capabilities, when it gave them.
    pub fn client(&self) -> Option<&ClientInfo> {
        self.inner.session.as_ref()?.client.as_ref()
    }

    /// Whether the client cancelled the call (or the call has ended).
    pub fn is_cancelled(&self) -> bool {
        self.inner.cancel.is_cancelled()
    }

    /// Completes when the client cancels the call (or the call ends).
    pub async fn cancelled(&self) {
        self.inner.cancel.cancelled().await;
    }

    /// Reports progress, `done` out of `total`, when the client asked for progress
    /// (sent a `progressToken`); otherwise does nothing. A value that is not above the
    /// last one sent is dropped: progress only ever increases.
    pub async fn progress(&self, done: impl ProgressAmount, total: impl ProgressAmount) {
        self.send_progress(done.as_progress(), Some(total.as_progress()), None)
            .await;
    }

    /// Reports progress as [`progress`](Self::progress) does, with a message (masked as
    /// tool errors are).
    pub fn progress_with_message(
        &self,
        done: impl ProgressAmount,
        total: impl ProgressAmount,
        message: impl fmt::Display,
    ) -> impl Future<Output = ()> + Send + '_ {
        // Formatted at once: the future holds a `String`, never the caller's message.
        let message = masking::mask_failure(&message.to_string()).into_owned();
        self.send_progress(done.as_progress(), Some(total.as_progress()), Some(message))
    }

    async fn send_progress(&self, done: f64, total: Option<f64>, message: Option<String>) {
        let Some(session) = &self.inner.session else {
            return;
        };
        let Some(token) = &session.progress_token else {
            return;
        };
        if !done.is_finite() || !self.advance(done) {
            return;
        }
        let param = bridge::progress(token.clone(), done, total, message);
        if let Err(error) = session.peer.notify_progress(param).await {
            tracing::debug!(tool = self.inner.tool, %error, "progress not sent");
        }
    }

    /// Records `done` as the last progress, unless it does not increase.
    fn advance(&self, done: f64) -> bool {
        let mut last = self
            .inner
            .last_progress
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if last.is_some_and(|last| done <= last) {
            return false;
        }
        *last = Some(done);
        true
    }

    /// Sends a log message to the client, unless it asked for more severe ones only
    /// (`logging/setLevel`, or the request's own level from protocol 2026-07-28 on, where
    /// a request that names no level gets no message). The message passes the masking
    /// tool errors pass: credentials become `***`, absolute paths their file's name.
    pub fn log(
        &self,
        level: LogLevel,
        message: impl fmt::Display,
    ) -> impl Future<Output = ()> + Send + '_ {
        // Formatted at once: the future holds a `String`, never the caller's message.
        let wanted = (self.inner.session.as_ref())
            .is_some_and(|session| session.wants(level, &self.inner.log_filter));
        let text = wanted.then(|| masking::mask_failure(&message.to_string()).into_owned());
        self.send_log(level, text)
    }

    async fn send_log(&self, level: LogLevel, masked: Option<String>) {
        let (Some(session), Some(masked)) = (&self.inner.session, masked) else {
            return;
        };
        let param = bridge::log_message(level, self.inner.tool, masked);
        #[allow(deprecated)] // SEP-2577; still what clients of earlier protocols read.
        let sent = session.peer.notify_logging_message(param).await;
        if let Err(error) = sent {
            tracing::debug!(tool = self.inner.tool, %error, "log message not sent");
        }
    }

    /// Sends a `debug` message: see [`log`](Self::log).
    pub fn debug(&self, message: impl fmt::Display) -> impl Future<Output = ()> + Send + '_ {
        self.log(LogLevel::Debug, message)
    }

    /// Sends an `info` message: see [`log`](Self::log).
    pub fn info(&self, message: impl fmt::Display) -> impl Future<Output = ()> + Send + '_ {
        self.log(LogLevel::Info, message)
    }

    /// Sends a `notice` message: see [`log`](Self::log).
    pub fn notice(&self, message: impl fmt::Display) -> impl Future<Output = ()> + Send + '_ {
        self.log(LogLevel::Notice, message)
    }

    /// Sends a `warning` message: see [`log`](Self::log).
    pub fn warning(&self, message: impl fmt::Display) -> impl Future<Output = ()> + Send + '_ {
        self.log(LogLevel::Warning, message)
    }

    /// Sends an `error` message: see [`log`](Self::log).
    pub fn error(&self, message: impl fmt::Display) -> impl Future<Output = ()> + Send + '_ {
        self.log(LogLevel::Error, message)
    }
}

fn client_info(meta: &RequestMetaObject, peer: &Peer<RoleServer>) -> Option<ClientInfo> {
    let handshake = peer.peer_info();
    bridge::client_info(meta, handshake.as_deref())
}

impl fmt::Debug for Context {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Context")
            .field("tool", &self.inner.tool)
            .field("request_id", &self.request_id())
            .field("cancelled", &self.is_cancelled())
            .finish_non_exhaustive()
    }
}

/// A number of work units for [`Context::progress`]: any primitive integer or float.
pub trait ProgressAmount: Copy {
    /// The amount as the protocol carries it.
    fn as_progress(self) -> f64;
}

macro_rules! progress_amount {
    ($($ty:ty),*) => {
        $(
            impl ProgressAmount for $ty {
                #[inline]
                fn as_progress(self) -> f64 {
                    self as f64
                }
            }
        )*
    };
}

progress_amount!(
    u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize, f32, f64
);
