//! The SSE stream of a call [`direct`](super::direct) answers in a session.
//!
//! Every such stream begins with a priming event, an id and a time to wait (SEP-1699),
//! for a client whose stream breaks before the reply to resume it. A call that finishes
//! at once is answered with the priming event and its reply in one write. A call that
//! does not gets its response head and the priming event straight away, an SSE comment
//! every 15 seconds as `rmcp` keeps a stream alive, then its reply; it runs on a task of
//! its own, and its reply is kept in its session until a stream has taken it, or for a
//! minute after it came to a stream that broke: a client whose stream broke gets it by
//! resuming the stream, a GET with the priming event's id as its `Last-Event-ID`.

use std::convert::Infallible;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context as TaskContext, Poll};
use std::time::Duration;

use bytes::Bytes;
use futures::FutureExt as _;
use http::{Response, header};
use http_body_util::{BodyExt as _, Full};
use rmcp::model::ServerJsonRpcMessage;
use tokio_util::sync::CancellationToken;

use super::Boxed;
use super::sessions::{BoundedSessions, DirectCall, Reply, SessionId};

/// How long a call's SSE stream goes without an event before a comment keeps it alive:
/// `rmcp`'s interval.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// How long the reply of a call that did not finish at once is kept after it came, for a
/// client whose stream broke before it: `rmcp`'s time for a finished stream.
const KEPT_FOR: Duration = Duration::from_secs(60);

/// How long a client whose stream broke waits before it resumes it: `rmcp`'s default.
const RETRY_MS: u64 = 3000;

/// How the event ids of the streams of calls answered here begin, each followed by the
/// stream's number in its session (`rmcp`'s ids are two numbers and a slash).
const STREAM_ID: &str = "direct-";

/// The reply of a call, encoded as one SSE event, or `None` when it ended without one.
type Pending = Pin<Box<dyn Future<Output = Option<Bytes>> + Send>>;

/// An SSE response with `body`, with the headers `rmcp` gives one.
fn sse(body: Boxed) -> Response<Boxed> {
    let mut response = Response::new(body);
    let headers = response.headers_mut();
    let value = header::HeaderValue::from_static;
    headers.insert(header::CONTENT_TYPE, value("text/event-stream"));
    headers.insert(header::CACHE_CONTROL, value("no-cache"));
    headers.insert("x-accel-buffering", value("no"));
    response
}

/// A reply kept for a client that resumes its stream: forgotten once its stream sent it,
/// or [`KEPT_FOR`] after it came, when the stream broke before.
struct Kept {
    sessions: Arc<BoundedSessions>,
    session: SessionId,
    stream: u64,
    reply: Reply,
}

impl Kept {
    fn forget(self) {
        self.sessions.forget_reply(&self.session, self.stream);
    }

    /// Forgets the reply [`KEPT_FOR`] after it came.
    fn forget_later(self) {
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return self.forget();
        };
        runtime.spawn(async move {
            self.reply.clone().await;
            tokio::time::sleep(KEPT_FOR).await;
            self.forget();
        });
    }
}

/// The body of a call's SSE stream while it runs: its priming event, a comment every
/// [`KEEP_ALIVE`], then the reply.
struct Stream {
    /// The reply kept for a client that resumes this stream, while it is.
    kept: Option<Kept>,
    /// The priming event, until it is sent.
    priming: Option<Bytes>,
    /// Taken once it has given its event. (A `Mutex` only to be `Sync`, as bodies are:
    /// the body is polled through `&mut`, which needs no lock.)
    event: Option<Mutex<Pending>>,
    keep_alive: tokio::time::Interval,
}

impl Stream {
    fn new(priming: Option<Bytes>, event: Pending) -> Self {
        let first = tokio::time::Instant::now() + KEEP_ALIVE;
        Self {
            kept: None,
            priming,
            event: Some(Mutex::new(event)),
            keep_alive: tokio::time::interval_at(first, KEEP_ALIVE),
        }
    }
}

impl http_body::Body for Stream {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut TaskContext<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Bytes>, Infallible>>> {
        if let Some(priming) = self.priming.take() {
            return Poll::Ready(Some(Ok(http_body::Frame::data(priming))));
        }
        let Some(event) = self.event.as_mut() else {
            return Poll::Ready(None);
        };
        let event = event
            .get_mut()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Poll::Ready(event) = event.as_mut().poll(cx) {
            self.event = None;
            // Sent: no client resumes a stream after its reply.
            if let Some(kept) = self.kept.take() {
                kept.forget();
            }
            return Poll::Ready(event.map(|event| Ok(http_body::Frame::data(event))));
        }
        match self.keep_alive.poll_tick(cx) {
            Poll::Ready(_) => Poll::Ready(Some(Ok(http_body::Frame::data(Bytes::from_static(
                b":\n\n",
            ))))),
            Poll::Pending => Poll::Pending,
        }
    }

    fn is_end_stream(&self) -> bool {
        self.priming.is_none() && self.event.is_none()
    }
}

impl Drop for Stream {
    fn drop(&mut self) {
        // The stream broke before its reply.
        if let Some(kept) = self.kept.take() {
            kept.forget_later();
        }
    }
}

/// `message` as an SSE event, as `rmcp` writes its data (without an event id).
fn event(message: &ServerJsonRpcMessage) -> Bytes {
    let mut event = b"data: ".to_vec();
    if let Err(error) = serde_json::to_writer(&mut event, message) {
        // Not reached: every message rmcp can hold encodes.
        tracing::error!(%error, "a reply could not be encoded");
        return Bytes::new();
    }
    event.extend_from_slice(b"\n\n");
    Bytes::from(event)
}

/// The SSE response to the call `begun`, whose reply `message` gives: whole, priming
/// event and reply, when the call finishes at once; else its head and the priming event
/// at once, and the reply when it comes. The call ends without a reply when the client
/// cancels it, or its session or the server (`stop`) ends.
///
/// Not an `async fn`: the call's future is boxed here, before the returned future is
/// first polled, so that the future a caller awaits does not hold `message` inline. An
/// `async fn` would keep it twice, as its argument and inside the event, and every future
/// that awaits this one, the stateless path's included, would grow by as much and be
/// copied whole each time it is moved.
pub(super) fn respond(
    message: impl Future<Output = ServerJsonRpcMessage> + Send + 'static,
    begun: DirectCall,
    stop: CancellationToken,
) -> impl Future<Output = Response<Boxed>> + Send {
    let (sessions, session) = (Arc::clone(begun.sessions()), Arc::clone(begun.session()));
    let stream = begun.stream;
    let mut event: Pending = Box::pin(async move {
        let message = tokio::select! {
            biased;
            message = message => message,
            // The stream ends without a reply, as the specification asks.
            () = begun.cancelled.cancelled() => return None,
            () = stop.cancelled() => return None,
        };
        drop(begun);
        Some(event(&message))
    });
    async move {
        let at_once = std::future::poll_fn(|cx| Poll::Ready(event.as_mut().poll(cx))).await;
        let body = match at_once {
            Poll::Ready(event) => {
                let mut whole = priming(stream);
                whole.extend_from_slice(&event.unwrap_or_default());
                Full::new(Bytes::from(whole)).boxed()
            }
            Poll::Pending => {
                let running = tokio::spawn(event);
                let reply: Reply = async move { running.await.ok().flatten() }.boxed().shared();
                let mut body = Stream::new(Some(priming(stream).into()), reply.clone().boxed());
                if sessions.keep_reply(&session, stream, reply.clone()) {
                    body.kept = Some(Kept {
                        sessions,
                        session,
                        stream,
                        reply,
                    });
                }
                body.boxed()
            }
        };
        sse(body)
    }
}

/// The priming event of the stream `stream`: its id, and how long a client whose stream
/// broke waits before it resumes it.
fn priming(stream: u64) -> Vec<u8> {
    format!("data: \nid: {STREAM_ID}{stream}\nretry: {RETRY_MS}\n\n").into_bytes()
}

/// The stream of a call answered directly in `session`, resumed after its event `last`;
/// `None` when `last` is no such event, or the reply is no longer kept.
pub(super) fn resume(
    sessions: &Arc<BoundedSessions>,
    session: &str,
    last: &str,
) -> Option<Response<Boxed>> {
    let stream = last.strip_prefix(STREAM_ID)?.parse().ok()?;
    let reply = sessions.kept_reply(session, stream)?;
    tracing::debug!(
        session,
        stream,
        "a stream of a call answered directly resumed"
    );
    let mut body = Stream::new(None, reply.clone().boxed());
    // Forgotten once this stream gives it, kept a while if this one breaks too.
    body.kept = Some(Kept {
        sessions: Arc::clone(sessions),
        session: Arc::from(session),
        stream,
        reply,
    });
    Some(sse(body.boxed()))
}
