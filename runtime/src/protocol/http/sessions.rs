//! Sessions of the Streamable HTTP server, bounded: `rmcp`'s in-memory session manager,
//! which opens a session for every `initialize`, behind a count that refuses one more than
//! the server's maximum.
//!
//! A session holds its slot from the `initialize` that opened it until it ends: closed by
//! the client (`DELETE`), idle past the server's idle timeout, or at shutdown. The refusal
//! is told to the request that asked for the session, so that it can be answered
//! `503 Service Unavailable` rather than `rmcp`'s `500` for a failed session.
//!
//! A session costs about 60 kB resident, nearly all of it `rmcp`'s (heaptrack): its worker,
//! its service loop and its peer talk over tokio channels, each of which allocates a block
//! of 32 message slots when it opens, 11 to 25 kB for `rmcp`'s message types, and touches
//! the pages it writes. Those sizes are `rmcp`'s and tokio's; here the count is bounded.

use std::cell::Cell;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures::Stream;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_server::SessionManager;
use rmcp::transport::streamable_http_server::session::local::{
    LocalSessionManager, LocalSessionManagerError,
};
use rmcp::transport::streamable_http_server::session::{ServerSseMessage, SessionId};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

tokio::task_local! {
    /// Set for the request being answered when a session it asked for was refused.
    static REFUSED: Cell<bool>;
    /// The caller of the request being answered, on a server with authorization: the
    /// owner of a session it opens.
    static CALLER: Option<String>;
}

/// Runs `answer` (one request's handling) for `caller`, and says whether it asked for a
/// session beyond the maximum.
pub(crate) async fn watch_refusal<T>(
    caller: Option<String>,
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

/// `rmcp`'s [`LocalSessionManager`], holding at most `max` sessions at once.
#[derive(Debug)]
pub(crate) struct BoundedSessions {
    local: LocalSessionManager,
    max: usize,
    slots: Arc<Semaphore>,
    /// Each open session's slot, given back when it closes, and the caller that opened
    /// it on a server with authorization, to whom the session is bound.
    held: Mutex<HashMap<SessionId, (OwnedSemaphorePermit, Option<String>)>>,
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
            held: Mutex::new(HashMap::new()),
        }
    }

    /// The caller that opened the session `id`, when it is open and was opened by one.
    pub(crate) fn owner(&self, id: &str) -> Option<String> {
        self.held().get(id).and_then(|(_, owner)| owner.clone())
    }

    fn held(
        &self,
    ) -> std::sync::MutexGuard<'_, HashMap<SessionId, (OwnedSemaphorePermit, Option<String>)>> {
        // The map stays whole whatever a panicking holder did: each step is one call.
        self.held
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
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
        let owner = CALLER.try_with(Clone::clone).ok().flatten();
        self.held().insert(id.clone(), (slot, owner));
        Ok((id, transport))
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, Self::Error> {
        Ok(self.local.initialize_session(id, message).await?)
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, Self::Error> {
        Ok(self.local.has_session(id).await?)
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), Self::Error> {
        let closed = self.local.close_session(id).await;
        // Called again when the session's task ends: the slot is given back once.
        self.held().remove(id);
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
