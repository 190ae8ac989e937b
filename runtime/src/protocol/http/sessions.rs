//! Sessions of the Streamable HTTP server, bounded: `rmcp`'s in-memory session manager,
//! which opens a session for every `initialize`, behind a count that refuses one more than
//! the server's maximum.
//!
//! A session holds its slot from the `initialize` that opened it until it ends: closed by
//! the client (`DELETE`), idle past the server's idle timeout, or at shutdown. The refusal
//! is told to the request that asked for the session, so that it can be answered
//! `503 Service Unavailable` rather than `rmcp`'s `500` for a failed session.
//!
//! The calls [`direct`](super::direct) answers in a session, without `rmcp`'s session
//! worker, are kept here too: each open session's negotiated protocol version, the calls
//! under way in it (which the client's `notifications/cancelled` ends, and the session's
//! end), and when `rmcp`'s worker was last told the session is in use, so that its idle
//! timer counts those calls as it counts the ones it serves.
//!
//! A session costs about 60 kB resident, nearly all of it `rmcp`'s (heaptrack): its worker,
//! its service loop and its peer talk over tokio channels, each of which allocates a block
//! of 32 message slots when it opens, 11 to 25 kB for `rmcp`'s message types, and touches
//! the pages it writes. Those sizes are `rmcp`'s and tokio's; here the count is bounded.

use std::cell::Cell;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bytes::Bytes;
use futures::Stream;
use futures::future::{BoxFuture, Shared};
use rmcp::model::{ClientJsonRpcMessage, RequestId, ServerJsonRpcMessage, ServerResult};
use rmcp::transport::streamable_http_server::SessionManager;
use rmcp::transport::streamable_http_server::session::ServerSseMessage;
pub(crate) use rmcp::transport::streamable_http_server::session::SessionId;
use rmcp::transport::streamable_http_server::session::local::{
    LocalSessionManager, LocalSessionManagerError,
};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio_util::sync::CancellationToken;

use crate::model::Auth;
use crate::server::pipeline::Transport;
use crate::server::pipeline::spans;
use crate::server::tasks::Owner;

tokio::task_local! {
    /// Set for the request being answered when a session it asked for was refused.
    static REFUSED: Cell<bool>;
    /// The caller of the request being answered, on a server with authorization: the
    /// owner of a session it opens.
    static CALLER: Option<Arc<Auth>>;
}

/// Runs `answer` (one request's handling) for `caller`, and says whether it asked for a
/// session beyond the maximum.
pub(crate) async fn watch_refusal<T>(
    caller: Option<Arc<Auth>>,
    answer: impl Future<Output = T>,
) -> (T, bool) {
    let watched = REFUSED.scope(Cell::new(false), async {
        let answered = answer.await;
        (answered, REFUSED.with(Cell::get))
    });
    CALLER.scope(caller, watched).await
}

/// Why a session was not opened.
#[derive(Debug, thiserror::Error)]
pub(crate) enum SessionsError {
    /// The server holds its maximum of sessions.
    #[error("the server holds its maximum of {0} sessions")]
    Full(usize),
    /// `rmcp`'s manager failed.
    #[error(transparent)]
    Local(#[from] LocalSessionManagerError),
}

/// The reply of a call answered directly that did not finish at once, as its stream and a
/// client that resumes the stream wait for it: its SSE event, or `None` when the call
/// ended without one.
pub(crate) type Reply = Shared<BoxFuture<'static, Option<Bytes>>>;

/// A request-wise channel `rmcp`'s worker never opens (it numbers them from 0): closing
/// it changes nothing, and tells the worker that its session is in use.
const NO_CHANNEL: u64 = u64::MAX;

/// `rmcp`'s [`LocalSessionManager`], holding at most `max` sessions at once.
#[derive(Debug)]
pub(crate) struct BoundedSessions {
    local: LocalSessionManager,
    max: usize,
    slots: Arc<Semaphore>,
    /// How often, at most, `rmcp`'s worker is told that a session is in use by the calls
    /// answered directly: a tenth of the idle timeout, and at least once a second, so
    /// that a session ends no sooner than that much before its idle timeout.
    tell_every: Duration,
    held: Mutex<HashMap<SessionId, Held>>,
}

/// What is kept of an open session.
#[derive(Debug)]
struct Held {
    /// Its slot, given back when it closes.
    _slot: OwnedSemaphorePermit,
    /// The caller that opened it on a server with authorization, to whom it is bound as a
    /// task is.
    owner: Option<Owner>,
    /// Once its `initialize` was answered: what calls answered directly need of it.
    live: Option<Live>,
    /// When it was opened, for `mcp.server.session.duration`.
    began: Instant,
}

/// An initialized session, as the calls answered directly in it see it.
#[derive(Debug)]
struct Live {
    /// The id it is held under, which each of its calls shares.
    id: SessionId,
    protocol_version: Arc<str>,
    /// Cancelled when the session ends.
    ended: CancellationToken,
    /// The calls answered directly that are under way, by their request's id.
    calls: HashMap<RequestId, CancellationToken>,
    /// When `rmcp`'s worker was last told the session is in use.
    told: Instant,
    /// The replies of calls answered directly that did not finish at once, by the number
    /// of their stream, kept for a client that resumes it.
    replies: HashMap<u64, Reply>,
    /// The number of the next such stream.
    next_stream: u64,
}

impl BoundedSessions {
    /// At most `max` sessions, each ended after `idle` without a request.
    pub(crate) fn new(max: usize, idle: Duration) -> Self {
        let mut local = LocalSessionManager::default();
        local.session_config.keep_alive = Some(idle);
        Self {
            local,
            max,
            slots: Arc::new(Semaphore::new(max)),
            tell_every: (idle / 10).min(Duration::from_secs(1)),
            held: Mutex::new(HashMap::new()),
        }
    }

    /// The caller that opened the session `id`, when it is open and was opened by one.
    pub(crate) fn owner(&self, id: &str) -> Option<Owner> {
        self.held().get(id).and_then(|held| held.owner.clone())
    }

    /// Registers the call `request` of the session `id`, to be answered directly: `None`
    /// when the session is unknown, not yet initialized, or has a call of that id under
    /// way (`rmcp` then answers it, as it answers any request of such a session).
    pub(crate) async fn begin_call(
        self: &Arc<Self>,
        id: &str,
        request: &RequestId,
    ) -> Option<DirectCall> {
        let (call, tell) = {
            let mut held = self.held();
            let live = held.get_mut(id)?.live.as_mut()?;
            if live.calls.contains_key(request) {
                return None;
            }
            let cancelled = live.ended.child_token();
            live.calls.insert(request.clone(), cancelled.clone());
            let now = Instant::now();
            let tell = now.duration_since(live.told) >= self.tell_every;
            if tell {
                live.told = now;
            }
            let stream = live.next_stream;
            live.next_stream += 1;
            let call = DirectCall {
                stream,
                sessions: Arc::clone(self),
                session: Arc::clone(&live.id),
                request: request.clone(),
                cancelled,
                protocol_version: Arc::clone(&live.protocol_version),
            };
            (call, tell)
        };
        if tell {
            self.tell_in_use(&call.session).await;
        }
        Some(call)
    }

    /// Cancels the call `request` of the session `id`, when it is being answered
    /// directly: the client sent `notifications/cancelled` for it.
    pub(crate) fn cancel_call(&self, id: &str, request: &RequestId) {
        let mut held = self.held();
        let live = held.get_mut(id).and_then(|held| held.live.as_mut());
        if let Some(call) = live.and_then(|live| live.calls.remove(request)) {
            call.cancel();
        }
    }

    /// Keeps `reply` for a client that resumes the stream `stream` of the session `id`;
    /// `false` when the session has ended.
    pub(crate) fn keep_reply(&self, id: &str, stream: u64, reply: Reply) -> bool {
        let mut held = self.held();
        let Some(live) = held.get_mut(id).and_then(|held| held.live.as_mut()) else {
            return false;
        };
        live.replies.insert(stream, reply);
        true
    }

    /// The reply kept for the stream `stream` of the session `id`.
    pub(crate) fn kept_reply(&self, id: &str, stream: u64) -> Option<Reply> {
        let held = self.held();
        let live = held.get(id)?.live.as_ref()?;
        live.replies.get(&stream).cloned()
    }

    /// Forgets the reply kept for the stream `stream` of the session `id`.
    pub(crate) fn forget_reply(&self, id: &str, stream: u64) {
        let mut held = self.held();
        if let Some(live) = held.get_mut(id).and_then(|held| held.live.as_mut()) {
            live.replies.remove(&stream);
        }
    }

    /// Tells `rmcp`'s worker of the session `id` that it is in use, which restarts its
    /// idle timer: an event it handles, that changes nothing.
    async fn tell_in_use(&self, id: &SessionId) {
        let handle = self.local.sessions.read().await.get(id).cloned();
        if let Some(handle) = handle {
            // A session that ended meanwhile has no timer to restart.
            let _ = handle.close_request_wise_channel(NO_CHANNEL).await;
        }
    }

    fn held(&self) -> std::sync::MutexGuard<'_, HashMap<SessionId, Held>> {
        // The map stays whole whatever a panicking holder did: each step is one call.
        self.held
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// A call being answered directly in a session; it leaves the session's calls under way
/// when dropped.
#[derive(Debug)]
pub(crate) struct DirectCall {
    sessions: Arc<BoundedSessions>,
    session: SessionId,
    request: RequestId,
    /// Cancelled when the client cancels the call, or the session ends.
    pub(crate) cancelled: CancellationToken,
    /// The protocol version the session negotiated.
    pub(crate) protocol_version: Arc<str>,
    /// The number of the call's stream in its session.
    pub(crate) stream: u64,
}

impl DirectCall {
    /// The id of the session the call came in.
    pub(crate) fn session(&self) -> &SessionId {
        &self.session
    }

    /// The sessions of the server.
    pub(crate) fn sessions(&self) -> &Arc<BoundedSessions> {
        &self.sessions
    }
}

impl Drop for DirectCall {
    fn drop(&mut self) {
        let mut held = self.sessions.held();
        let live = held
            .get_mut(&self.session)
            .and_then(|held| held.live.as_mut());
        if let Some(live) = live {
            live.calls.remove(&self.request);
        }
    }
}

impl SessionManager for BoundedSessions {
    type Error = SessionsError;
    type Transport = <LocalSessionManager as SessionManager>::Transport;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), Self::Error> {
        let Ok(slot) = Arc::clone(&self.slots).try_acquire_owned() else {
            // Outside a request's handling there is no one to tell.
            let _ = REFUSED.try_with(|refused| refused.set(true));
            return Err(SessionsError::Full(self.max));
        };
        let (id, transport) = self.local.create_session().await?;
        // Whom the session belongs to, by the rule a task's owner is.
        let owner = (CALLER.try_with(|caller| caller.as_deref().and_then(Owner::caller)))
            .ok()
            .flatten();
        let held = Held {
            _slot: slot,
            owner,
            live: None,
            began: Instant::now(),
        };
        self.held().insert(id.clone(), held);
        Ok((id, transport))
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, Self::Error> {
        let response = self.local.initialize_session(id, message).await?;
        if let ServerJsonRpcMessage::Response(answer) = &response
            && let ServerResult::InitializeResult(result) = &answer.result
            && let Some(held) = self.held().get_mut(id)
        {
            held.live = Some(Live {
                id: id.clone(),
                protocol_version: Arc::from(result.protocol_version.as_str()),
                ended: CancellationToken::new(),
                calls: HashMap::new(),
                told: Instant::now(),
                replies: HashMap::new(),
                next_stream: 0,
            });
        }
        Ok(response)
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, Self::Error> {
        Ok(self.local.has_session(id).await?)
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), Self::Error> {
        let closed = self.local.close_session(id).await;
        // Called again when the session's task ends: the slot is given back once.
        let Some(held) = self.held().remove(id) else {
            return Ok(closed?);
        };
        let version = held.live.as_ref().map(|live| live.protocol_version.clone());
        if let Some(live) = held.live {
            live.ended.cancel();
        }
        if spans::listening() {
            spans::session_ended(held.began, Transport::Http, version.as_deref(), None);
        }
        Ok(closed?)
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        Ok(self.local.create_stream(id, message).await?)
    }

    async fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<(), Self::Error> {
        Ok(self.local.accept_message(id, message).await?)
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        Ok(self.local.create_standalone_stream(id).await?)
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        Ok(self.local.resume(id, last_event_id).await?)
    }
}
