//! Newline-delimited JSON-RPC over a pair of byte streams (stdio, a pipe, a socket),
//! as an `rmcp` [`Transport`]: each line is read once and decoded once (see [`wire`]);
//! what does not decode, and a line over the size limit, is answered here, and the
//! session goes on. At the end of the input, the calls still running are given a
//! grace period to finish, so that their replies are written. While the messages
//! waiting to be written pass a bound, no more requests are read (backpressure).

use std::collections::HashSet;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use rmcp::RoleServer;
use rmcp::model::{
    ClientJsonRpcMessage, ClientNotification, JsonRpcMessage, RequestId, ServerJsonRpcMessage,
};
use rmcp::transport::Transport;
use tokio::io::{AsyncBufReadExt as _, AsyncRead, AsyncWrite, AsyncWriteExt as _, BufReader};
use tokio::sync::{Mutex, Notify};
use tokio::time::Instant;

use crate::call::session::{Outbox, Pending};
use crate::protocol::line_calls::{LineCalls, Reply, Taken};
use crate::protocol::wire::{self, Handshake, Inbound};
use crate::server::settings::Limits;
use crate::server::tool_server::ToolServer;

/// The requests read and not answered yet.
#[derive(Debug, Default)]
struct InFlight {
    ids: std::sync::Mutex<HashSet<RequestId>>,
    answered: Notify,
}

impl InFlight {
    fn ids(&self) -> std::sync::MutexGuard<'_, HashSet<RequestId>> {
        // A panic while the lock was held cannot leave the set half-changed.
        self.ids
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Notes a request read, or a request the client cancelled (no reply will come).
    fn read(&self, message: &ClientJsonRpcMessage) {
        match message {
            JsonRpcMessage::Request(request) => {
                self.ids().insert(request.id.clone());
            }
            JsonRpcMessage::Notification(notification) => {
                if let ClientNotification::CancelledNotification(cancelled) =
                    &notification.notification
                    && let Some(id) = &cancelled.params.request_id
                {
                    self.done(id);
                }
            }
            _ => {}
        }
    }

    fn done(&self, id: &RequestId) {
        if self.ids().remove(id) {
            self.answered.notify_one();
        }
    }
}

/// The bytes of our messages not written yet. rmcp writes each reply in a task of its
/// own and reads on meanwhile: without this count a client that stops reading makes the
/// server read every request it sends and hold every reply in memory.
#[derive(Debug, Default)]
struct Queued {
    bytes: AtomicUsize,
    written: Notify,
}

impl Queued {
    /// Waits while more than `max` bytes wait to be written: the client is not reading,
    /// so its requests are left unread until it does. Cancel-safe.
    async fn wait_for_room(&self, max: usize) {
        while self.bytes.load(Ordering::SeqCst) > max {
            // `notify_one` keeps a permit: a write done before this await still wakes it.
            self.written.notified().await;
        }
    }
}

/// One message's share of [`Queued`], given back once written, failed or dropped.
struct QueuedMessage {
    queued: Arc<Queued>,
    bytes: usize,
}

impl QueuedMessage {
    fn new(queued: &Arc<Queued>, bytes: usize) -> Self {
        queued.bytes.fetch_add(bytes, Ordering::SeqCst);
        Self {
            queued: Arc::clone(queued),
            bytes,
        }
    }
}

impl Drop for QueuedMessage {
    fn drop(&mut self) {
        self.queued.bytes.fetch_sub(self.bytes, Ordering::SeqCst);
        self.queued.written.notify_one();
    }
}

type Writing = Pin<Box<dyn Future<Output = std::io::Result<()>> + Send>>;

/// A session's notifications written straight to the transport's output: the same
/// writer, lock and backpressure count as the replies, so that a notification a call
/// awaits is written before its reply.
struct LineOutbox<W> {
    output: Arc<Mutex<W>>,
    queued: Arc<Queued>,
    /// Set once the session's `notifications/initialized` was handled.
    initialized: Arc<AtomicBool>,
}

impl<W> std::fmt::Debug for LineOutbox<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LineOutbox").finish_non_exhaustive()
    }
}

impl<W: AsyncWrite + Unpin + Send + 'static> Outbox for LineOutbox<W> {
    fn send(&self, line: Vec<u8>) -> Pending<'_, Result<(), String>> {
        let queued = QueuedMessage::new(&self.queued, line.len());
        Box::pin(async move {
            let _queued = queued;
            let output = Arc::clone(&self.output);
            write(output, line).await.map_err(|error| error.to_string())
        })
    }

    fn initialized(&self) {
        self.initialized.store(true, Ordering::Release);
    }
}

/// One session's transport over a reader and a writer.
pub(crate) struct LineTransport<R, W> {
    input: BufReader<R>,
    /// The line read so far; kept here because `receive` may be cancelled mid-line.
    line: Vec<u8>,
    /// Set while the rest of an over-long line is being skipped.
    skipping: bool,
    /// A reply of ours being written; kept here for the same reason.
    replying: Option<Writing>,
    output: Arc<Mutex<W>>,
    limits: Limits,
    handshake: Handshake,
    in_flight: Arc<InFlight>,
    queued: Arc<Queued>,
    /// When the input ended, the end of the grace period.
    closing: Option<Instant>,
    /// The calls answered here, without `rmcp`'s service loop.
    calls: Option<LineCalls>,
    /// Set once the session's `notifications/initialized` was handled.
    initialized: Arc<AtomicBool>,
}

impl<R, W> LineTransport<R, W>
where
    R: AsyncRead + Unpin + Send,
    W: AsyncWrite + Unpin + Send + 'static,
{
    pub(crate) fn new(input: R, output: W, limits: Limits) -> Self {
        Self {
            input: BufReader::new(input),
            line: Vec::new(),
            skipping: false,
            replying: None,
            output: Arc::new(Mutex::new(output)),
            limits,
            handshake: Handshake::default(),
            in_flight: Arc::default(),
            queued: Arc::default(),
            closing: None,
            calls: None,
            initialized: Arc::default(),
        }
    }

    /// Answers the calls [`LineCalls`] takes as they are read, with `server`.
    pub(crate) fn answering(mut self, server: ToolServer) -> Self {
        self.calls = Some(LineCalls::new(server, Arc::clone(&self.initialized)));
        self
    }

    /// Writes the reply of a call running on its own, on a task of its own, once it
    /// ends; the end of the input waits for it as for a call `rmcp` runs.
    fn reply_when_done(&self, id: RequestId, reply: Reply) {
        self.in_flight.ids().insert(id.clone());
        let output = Arc::clone(&self.output);
        let queued = Arc::clone(&self.queued);
        let in_flight = Arc::clone(&self.in_flight);
        tokio::spawn(async move {
            if let Some(line) = reply.await {
                let _queued = QueuedMessage::new(&queued, line.len());
                if let Err(error) = write(output, line).await {
                    tracing::warn!(%error, "writing a reply failed");
                }
            }
            in_flight.done(&id);
        });
    }

    /// Where the session's notifications may be written without passing rmcp's loop.
    pub(crate) fn outbox(&self) -> Arc<dyn Outbox> {
        Arc::new(LineOutbox {
            output: Arc::clone(&self.output),
            queued: Arc::clone(&self.queued),
            initialized: Arc::clone(&self.initialized),
        })
    }

    /// At the end of the input: waits until every request read has its reply, or the
    /// grace period is over. Cancel-safe: the deadline is kept on the transport.
    async fn drain(&mut self) {
        let deadline = *self
            .closing
            .get_or_insert_with(|| Instant::now() + self.limits.grace);
        loop {
            let running = self.in_flight.ids().len();
            if running == 0 {
                return;
            }
            let answered = self.in_flight.answered.notified();
            if tokio::time::timeout_at(deadline, answered).await.is_err() {
                tracing::warn!(
                    running,
                    grace = ?self.limits.grace,
                    "the client closed its input; calls still running after the grace period \
                     end without a reply"
                );
                return;
            }
        }
    }

    /// Reads up to the end of a line into `self.line`; `None` at the end of the input.
    /// A line over the size limit is dropped as it arrives, never held whole.
    async fn read_line(&mut self) -> Option<Line> {
        loop {
            let available = match self.input.fill_buf().await {
                Ok(available) => available,
                Err(error) => {
                    tracing::warn!(%error, "reading the client's messages failed");
                    return None;
                }
            };
            if available.is_empty() {
                // A last line without its newline still counts.
                return match (self.skipping, self.line.is_empty()) {
                    (true, _) => {
                        self.skipping = false;
                        Some(Line::TooLong)
                    }
                    (false, false) => Some(Line::Complete),
                    (false, true) => None,
                };
            }
            let newline = available.iter().position(|&b| b == b'\n');
            let chunk = &available[..newline.unwrap_or(available.len())];
            if !self.skipping && self.line.len() + chunk.len() > self.limits.max_message {
                self.skipping = true;
                self.line = Vec::new();
            }
            if !self.skipping {
                self.line.extend_from_slice(chunk);
            }
            // Copying and consuming happen with no await between them: cancel-safe.
            let consumed = newline.map_or(available.len(), |end| end + 1);
            self.input.consume(consumed);
            if newline.is_some() {
                let line = if self.skipping {
                    Line::TooLong
                } else {
                    Line::Complete
                };
                self.skipping = false;
                return Some(line);
            }
        }
    }
}

enum Line {
    Complete,
    TooLong,
}

impl<R, W> Transport<RoleServer> for LineTransport<R, W>
where
    R: AsyncRead + Unpin + Send,
    W: AsyncWrite + Unpin + Send + 'static,
{
    type Error = std::io::Error;

    fn send(
        &mut self,
        message: ServerJsonRpcMessage,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        if let Some(calls) = &mut self.calls {
            calls.sent(&message);
        }
        let encoded = wire::encode(&message).map_err(std::io::Error::other);
        let queued = encoded
            .as_ref()
            .ok()
            .map(|bytes| QueuedMessage::new(&self.queued, bytes.len()));
        let output = Arc::clone(&self.output);
        let in_flight = Arc::clone(&self.in_flight);
        let answers = answered_id(&message);
        async move {
            let _queued = queued;
            write(output, encoded?).await?;
            if let Some(id) = answers {
                in_flight.done(&id);
            }
            Ok(())
        }
    }

    async fn receive(&mut self) -> Option<ClientJsonRpcMessage> {
        loop {
            if let Some(replying) = &mut self.replying {
                let written = replying.await;
                self.replying = None;
                if let Err(error) = written {
                    tracing::warn!(%error, "writing a reply failed");
                    return None;
                }
            }
            self.queued.wait_for_room(self.limits.max_queued).await;
            let Some(line) = self.read_line().await else {
                self.drain().await;
                return None;
            };
            let inbound = match line {
                Line::TooLong => Inbound::Rejected(wire::too_long(self.limits.max_message)),
                Line::Complete => {
                    let text = self.line.strip_suffix(b"\r").unwrap_or(&self.line);
                    let inbound = if text.trim_ascii().is_empty() {
                        Inbound::Ignored
                    } else {
                        self.handshake.admit(wire::decode(text))
                    };
                    self.line.clear();
                    inbound
                }
            };
            match inbound {
                Inbound::Message(message) => {
                    let message = match &mut self.calls {
                        Some(calls) => match calls.take(message) {
                            Taken::Handed(message) => message,
                            Taken::Answered(reply) => {
                                let output = Arc::clone(&self.output);
                                self.replying = Some(Box::pin(write(output, reply)));
                                continue;
                            }
                            Taken::Running(id, reply) => {
                                self.reply_when_done(id, reply);
                                continue;
                            }
                        },
                        None => message,
                    };
                    self.in_flight.read(&message);
                    return Some(*message);
                }
                Inbound::Ignored => {}
                Inbound::Rejected(reply) => {
                    self.replying = Some(Box::pin(write(Arc::clone(&self.output), reply)));
                }
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        let mut output = self.output.lock().await;
        output.flush().await?;
        output.shutdown().await
    }
}

/// The request a message answers, if it is a reply.
fn answered_id(message: &ServerJsonRpcMessage) -> Option<RequestId> {
    match message {
        JsonRpcMessage::Response(response) => Some(response.id.clone()),
        JsonRpcMessage::Error(error) => error.id.clone(),
        _ => None,
    }
}

/// Writes one encoded message in a single write (tokio's stdout runs each write on a
/// blocking thread), then flushes.
async fn write<W: AsyncWrite + Unpin>(
    output: Arc<Mutex<W>>,
    bytes: Vec<u8>,
) -> std::io::Result<()> {
    let mut output = output.lock().await;
    output.write_all(&bytes).await?;
    output.flush().await
}
