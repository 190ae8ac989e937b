//! `tools/call` requests of a line session (stdio, a pipe, a socket) answered by the
//! line transport as it reads them, without `rmcp`'s service loop: no channel to the
//! loop, no task spawned for the request, no channel back.
//!
//! A request is answered here once the session's `initialize` negotiated a protocol
//! before 2026-07-28 and the client's `notifications/initialized` was handled, when
//! [`direct_call::answerable`] takes it (a tool that takes no `Context` and never runs as
//! a task, or no tool). Everything else goes to `rmcp` unchanged, in the order read.
//!
//! The call is polled once where it was read. A call that ends then (an `async fn` that
//! never waits, an argument error, an unknown tool) is answered at once, and the next
//! line is read after its reply is written. A call that waits (a sync tool on the
//! blocking pool, an `async fn` that awaits) runs on a task of its own, as `rmcp` would
//! run it, so that the lines after it are read and answered meanwhile; the client can
//! cancel it (its `notifications/cancelled` drops the call's future, and no reply is
//! sent, as for a call `rmcp` serves; the notification then goes on to `rmcp`).
//! `runtime/tests/stdio_direct.rs` holds both paths to the same bytes.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::task::{Context, Poll, Waker};

use rmcp::model::{
    CallToolRequest, CallToolResponse, ClientJsonRpcMessage, ClientNotification, ClientRequest,
    ErrorData, JsonRpcMessage, JsonRpcRequest, ProtocolVersion, RequestMetaObject,
    ServerJsonRpcMessage, ServerResult,
};
use serde_json::{Map, Value};
use tokio_util::sync::CancellationToken;

use crate::model::{Auth, RequestId};
use crate::protocol::bridge;
use crate::protocol::direct_call::{self, answer, call_directly};
use crate::protocol::piped::{Origin, trace_in};
use crate::protocol::wire;
use crate::server::pipeline::Transport;
use crate::server::pipeline::spans::Trace;
use crate::server::tool_server::ToolServer;

/// A call's answer, as the line that carries it.
pub(crate) type Reply = Pin<Box<dyn Future<Output = Option<Vec<u8>>> + Send>>;

/// What became of a message read.
pub(crate) enum Taken {
    /// Answered at once: the reply's line.
    Answered(Vec<u8>),
    /// Running: the request's id, and its reply's line, `None` when the client cancels
    /// it; to be awaited on a task of its own.
    Running(rmcp::model::RequestId, Reply),
    /// Not answered here: the message, for `rmcp`.
    Handed(Box<ClientJsonRpcMessage>),
}

/// The calls of one line session answered by its transport.
pub(crate) struct LineCalls {
    server: ToolServer,
    /// The protocol version the session's `initialize` negotiated.
    version: Option<ProtocolVersion>,
    /// Set once the session's `notifications/initialized` was handled: a call read
    /// after is answered after it, as when `rmcp` runs both.
    initialized: Arc<AtomicBool>,
    /// Whether calls are answered here: `initialized`, on a protocol with that
    /// handshake.
    ready: bool,
    /// The calls running on tasks of their own, by request.
    running: Arc<Mutex<HashMap<rmcp::model::RequestId, CancellationToken>>>,
    /// Cancelled when the session ends, with every call still running.
    ended: CancellationToken,
}

impl LineCalls {
    pub(crate) fn new(server: ToolServer, initialized: Arc<AtomicBool>) -> Self {
        Self {
            server,
            version: None,
            initialized,
            ready: false,
            running: Arc::default(),
            ended: CancellationToken::new(),
        }
    }

    /// Notes the protocol version of the session, as our reply to `initialize` gives it.
    pub(crate) fn sent(&mut self, message: &ServerJsonRpcMessage) {
        if let JsonRpcMessage::Response(response) = message
            && let ServerResult::InitializeResult(result) = &response.result
        {
            self.version = Some(result.protocol_version.clone());
        }
    }

    /// Answers `message` when it is a call taken here; else hands it on, having read a
    /// cancellation of a call running here, or the client's `initialized`.
    pub(crate) fn take(&mut self, message: Box<ClientJsonRpcMessage>) -> Taken {
        if !self.ready {
            self.ready = self.initialized.load(Ordering::Acquire)
                && (self.version.as_ref()).is_some_and(ProtocolVersion::has_initialize);
            if !self.ready {
                return Taken::Handed(message);
            }
        }
        match *message {
            JsonRpcMessage::Request(JsonRpcRequest {
                id,
                request: ClientRequest::CallToolRequest(call),
                ..
            }) if direct_call::answerable(&self.server, &call) => self.run(id, call),
            other => {
                self.cancel(&other);
                Taken::Handed(Box::new(other))
            }
        }
    }

    /// Runs the call `id`: answered at once when its first poll ends it, else running.
    fn run(&mut self, id: rmcp::model::RequestId, mut call: CallToolRequest) -> Taken {
        tracing::trace!(tool = %call.params.name, "a tools/call answered by the line transport");
        let meta = (call.extensions.remove::<RequestMetaObject>())
            .map(|meta| meta.0.0)
            .unwrap_or_default();
        let origin = LineRequest {
            id: bridge::request_id(&id),
            meta,
            version: self.version.as_ref().map(|v| v.as_str().to_owned()),
        };
        let server = self.server.clone();
        let mut running: Pin<Box<dyn Future<Output = Answered> + Send>> = if server.unobserved() {
            Box::pin(call_directly(server, call.params, origin))
        } else {
            Box::pin(async move {
                (server.piped("tools/call", call.params, origin, call_directly)).await
            })
        };
        // A call that ends at its first poll registers no waker: a waker that does
        // nothing is enough, and a call that waits is polled again on its task, where
        // it registers the task's.
        if let Poll::Ready(answered) = running
            .as_mut()
            .poll(&mut Context::from_waker(Waker::noop()))
        {
            return Taken::Answered(line(answered, id));
        }
        let cancel = self.ended.child_token();
        lock(&self.running).insert(id.clone(), cancel.clone());
        let calls = Arc::clone(&self.running);
        let key = id.clone();
        let reply = async move {
            let answered = tokio::select! {
                biased;
                answered = running => Some(answered),
                () = cancel.cancelled() => None,
            };
            lock(&calls).remove(&key);
            answered.map(|answered| line(answered, key))
        };
        Taken::Running(id, Box::pin(reply))
    }

    /// Cancels the call `message` cancels, when it is running here.
    fn cancel(&self, message: &ClientJsonRpcMessage) {
        if let JsonRpcMessage::Notification(notification) = message
            && let ClientNotification::CancelledNotification(cancelled) = &notification.notification
            && let Some(id) = &cancelled.params.request_id
            && let Some(call) = lock(&self.running).remove(id)
        {
            tracing::info!(request = %id, "the client cancelled the call; no reply is sent");
            call.cancel();
        }
    }
}

impl Drop for LineCalls {
    fn drop(&mut self) {
        self.ended.cancel();
    }
}

/// How a call answered here ends.
type Answered = Result<CallToolResponse, ErrorData>;

/// The line that answers the request `id`.
fn line(answered: Answered, id: rmcp::model::RequestId) -> Vec<u8> {
    let message = answer(answered, id);
    wire::encode(&message).unwrap_or_else(|error| {
        let id = match message {
            JsonRpcMessage::Response(response) => Some(response.id),
            _ => None,
        };
        tracing::error!(%error, "a call's reply could not be encoded");
        wire::error_reply(
            id,
            ErrorData::internal_error("the reply could not be encoded", None),
        )
    })
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic while the lock was held cannot leave the map half-changed.
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A request answered here, as the pipeline reads it.
struct LineRequest {
    id: RequestId,
    meta: Map<String, Value>,
    version: Option<String>,
}

impl Origin for LineRequest {
    fn session(&self) -> Option<&str> {
        None
    }

    fn protocol_version(&self) -> Option<String> {
        self.version.clone()
    }

    fn id(&self) -> RequestId {
        self.id.clone()
    }

    fn transport(&self) -> Transport {
        Transport::Stdio
    }

    fn caller(&self) -> Option<Arc<Auth>> {
        None
    }

    fn meta(&self) -> Map<String, Value> {
        self.meta.clone()
    }

    fn client_address(&self) -> Option<std::net::SocketAddr> {
        None
    }

    fn http_version(&self) -> Option<&'static str> {
        None
    }

    fn trace(&self) -> Trace<'_> {
        Trace {
            meta: trace_in(&self.meta),
            headers: [None, None, None],
        }
    }
}
