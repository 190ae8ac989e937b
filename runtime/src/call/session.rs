//! The session a call came through, as the call sees it: the interface the protocol
//! seam implements for its own request type, in this crate's types only.
//!
//! A call made outside any session (`ToolServer::call`) has no [`Request`]: its
//! `Context` sends nothing and asks nothing.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use serde_json::{Map, Value};
use tokio_util::sync::CancellationToken;

use crate::call::rounds::Round;
use crate::model::{
    Auth, ClientInfo, Elicitation, ElicitationRequest, LogLevel, RequestId, Root, SamplingRequest,
    SamplingResponse,
};

/// A future a [`Session`] returns: boxed, as a trait object's must be.
pub(crate) type Pending<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// The request a call came in, borrowed for the call: what the call driver needs of it,
/// and the [`Session`] a `Context` keeps.
pub(crate) trait Request: Sync + std::fmt::Debug {
    /// Fires when the client cancels the request.
    fn cancellation(&self) -> &CancellationToken;

    /// Whether the request's protocol refuses a call that needs a client capability the
    /// client did not declare, instead of answering it (2026-07-28 on).
    fn refuses_missing_capability(&self) -> bool;

    /// What a `Context` made for this call keeps of the request and its session.
    fn session(&self) -> Box<dyn Session>;

    /// The call's round, on a protocol where a call asks the client by ending with an
    /// input-required result (2026-07-28 on).
    fn round(&self) -> Option<&Round> {
        None
    }

    /// Whether the call runs as a task, where a panic fails the task (a protocol
    /// error) rather than answering a result with `isError`.
    fn runs_as_task(&self) -> bool {
        false
    }

    /// The caller, when the request came with a verified access token.
    fn auth(&self) -> Option<Arc<Auth>> {
        None
    }
}

/// Where a session's notifications go when the server writes its messages itself, as
/// the line transport does: straight to the output, in order with the replies, without
/// a hop through the session's message loop.
pub(crate) trait Outbox: Send + Sync + std::fmt::Debug {
    /// Writes `line`, one encoded message and its newline; done once it is written.
    fn send(&self, line: Vec<u8>) -> Pending<'_, Result<(), String>>;

    /// Told once the session's `notifications/initialized` was handled.
    fn initialized(&self) {}
}

/// What a call's `Context` can reach of the session it came through, for as long as it
/// lives: the request's identity and `_meta`, and the client, to notify and to ask.
pub(crate) trait Session: Send + Sync {
    /// The request's id.
    fn request_id(&self) -> RequestId;

    /// The request's `_meta`, as sent.
    fn meta(&self) -> &Map<String, Value>;

    /// Fires when the client cancels the request.
    fn cancellation(&self) -> &CancellationToken;

    /// What the request asks of the call's notifications.
    fn asked(&self) -> Asked;

    /// The client: from the request's `_meta` (2026-07-28), else from the handshake.
    fn client_info(&self) -> Option<ClientInfo>;

    /// Sends `notifications/progress` with the request's progress token.
    fn progress(
        &self,
        done: f64,
        total: Option<f64>,
        message: Option<String>,
    ) -> Pending<'_, Result<(), String>>;

    /// Sends `notifications/message` from `logger`.
    fn log(
        &self,
        level: LogLevel,
        logger: &str,
        message: String,
    ) -> Pending<'_, Result<(), String>>;

    /// Asks the client's model for a message (`sampling/createMessage`).
    fn sample(&self, request: SamplingRequest) -> Pending<'_, Result<SamplingResponse, String>>;

    /// Asks the client's user to fill in a form (`elicitation/create`).
    fn elicit(
        &self,
        request: ElicitationRequest,
    ) -> Pending<'_, Result<Elicitation<Value>, String>>;

    /// Asks the client for the roots it shares (`roots/list`).
    fn roots(&self) -> Pending<'_, Result<Vec<Root>, String>>;

    /// The call's round, as [`Request::round`].
    fn round(&self) -> Option<&Round> {
        None
    }

    /// Whether the call runs as a task, whose questions wait for `tasks/update`.
    fn runs_as_task(&self) -> bool {
        false
    }

    /// Goes on as a task from here ([`Context::begin_task`](crate::Context::begin_task));
    /// nothing for a call that is no task's.
    fn begin_task(&self) -> Pending<'_, Result<(), String>> {
        Box::pin(std::future::ready(Ok(())))
    }
}

/// What a request asks of the call's notifications.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Asked {
    /// Whether the request carries a progress token.
    pub(crate) progress: bool,
    /// The level the request's `_meta` asks for (protocol 2026-07-28).
    pub(crate) request_level: Option<LogLevel>,
    /// Whether the request's protocol has no `logging/setLevel` (2026-07-28 on): then a
    /// request that asks for no level gets no log message.
    pub(crate) level_per_request: bool,
}
