//! One call of a tool: its input, and the future that runs the tool with its panics
//! caught and its result converted.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use serde_json::{Map, Value};
use stackfuture::StackFuture;

use crate::call::session::Request;
use crate::call::state::StateMap;
use crate::outcome::failure::Failure;
use crate::outcome::log_filter::LogFilter;
use crate::outcome::output::ToolReply;
use crate::outcome::panics;

/// What the server hands a tool for one call: its arguments, and by reference what a
/// `Context` or a `State<T>` parameter is made from, so that a tool taking neither pays
/// for neither.
#[doc(hidden)]
pub struct CallInput<'a> {
    /// `None` once a run-time tool took them: making an empty map in their place costs
    /// the seeding of its hasher.
    args: Option<Map<String, Value>>,
    pub(crate) tool: &'static str,
    /// The session's request, when the call came through one.
    pub(crate) request: Option<&'a dyn Request>,
    pub(crate) state: &'a StateMap,
    pub(crate) log_filter: &'a LogFilter,
    /// A sync tool's thread starts when the call is first polled, not at once: the call
    /// may wait its turn under the server's limit of concurrent calls first.
    pub(crate) queued: bool,
    /// Whether the server converts the arguments of every tool that does not keep them
    /// exact ([`Server::lenient_arguments`](crate::Server::lenient_arguments)).
    pub(crate) lenient: bool,
}

impl std::fmt::Debug for CallInput<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CallInput")
            .field("tool", &self.tool)
            // The names only: the values are the client's, and may be secret.
            .field(
                "arg_names",
                &self
                    .args
                    .as_ref()
                    .map(|args| args.keys().collect::<Vec<_>>()),
            )
            .field("in_session", &self.request.is_some())
            .finish_non_exhaustive()
    }
}

impl<'a> CallInput<'a> {
    pub(crate) fn new(
        tool: &'static str,
        args: Map<String, Value>,
        request: Option<&'a dyn Request>,
        state: &'a StateMap,
        log_filter: &'a LogFilter,
        queued: bool,
    ) -> Self {
        Self {
            args: Some(args),
            tool,
            request,
            state,
            log_filter,
            queued,
            lenient: false,
        }
    }

    /// The call's arguments, as sent.
    #[inline]
    pub fn args(&self) -> &Map<String, Value> {
        static TAKEN: std::sync::LazyLock<Map<String, Value>> = std::sync::LazyLock::new(Map::new);
        self.args.as_ref().unwrap_or_else(|| &TAKEN)
    }

    /// Takes the call's arguments, for a tool that owns them while it runs: from then on
    /// [`args`](Self::args) is empty.
    pub(crate) fn take_args(&mut self) -> Map<String, Value> {
        self.args.take().unwrap_or_default()
    }
}

/// What a call of a tool (`T` = [`ToolReply`]), a prompt or a resource ends with.
pub(crate) type Outcome<T = ToolReply> = Result<T, Failure>;

pin_project_lite::pin_project! {
    /// The future of one call of a tool, a prompt or a resource (`T` is what it
    /// replies): a sync function's thread, an async function's own future, or an
    /// outcome known before the function ran (its arguments failed). An async
    /// function's future is kept inline when it fits in `INLINE_FUTURE` bytes, and
    /// boxed otherwise.
    #[doc(hidden)]
    #[derive(Debug)]
    pub struct CallFuture<T> {
        #[pin]
        state: State<T>,
    }
}

/// The future of one tool call.
#[doc(hidden)]
pub type ToolFuture = CallFuture<ToolReply>;

pin_project_lite::pin_project! {
    #[project = StateProj]
    enum State<T> {
        /// Only a failure ends a call before its tool runs; kept small, as every call moves it.
        Ready { failure: Option<Failure> },
        /// A sync tool whose thread starts when the call is first polled.
        Queued { run: Option<Box<dyn FnOnce() -> Outcome<T> + Send>> },
        Blocking { thread: tokio::task::JoinHandle<Outcome<T>> },
        Async { #[pin] future: StackFuture<'static, Outcome<T>, INLINE_FUTURE> },
    }
}

/// The room in a [`CallFuture`] for an async function's future: a tool that awaits
/// little (a lookup, a sum, a decode) runs without an allocation of its own; a larger
/// future, one that holds a client or a buffer across an await, is boxed. Under
/// callgrind, `call-count ours add` takes 5,553 instructions a call inline and 5,666
/// with every future boxed; `summarize`, whose future is boxed either way, is level.
const INLINE_FUTURE: usize = 256;

impl<T> std::fmt::Debug for State<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            State::Ready { .. } => "Ready",
            State::Queued { .. } => "Queued",
            State::Blocking { .. } => "Blocking",
            State::Async { .. } => "Async",
        })
    }
}

impl<T> CallFuture<T> {
    /// The failure, if the call ended before any tool code ran (its arguments failed);
    /// otherwise `None`, and the call is to be awaited.
    pub(crate) fn ended(self: Pin<&mut Self>) -> Option<Failure> {
        match self.project().state.project() {
            StateProj::Ready { failure } => failure.take(),
            StateProj::Queued { .. } | StateProj::Blocking { .. } | StateProj::Async { .. } => None,
        }
    }
}

impl<T: Send + 'static> Future for CallFuture<T> {
    type Output = Outcome<T>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Outcome<T>> {
        let mut state = self.as_mut().project().state;
        match state.as_mut().project() {
            StateProj::Ready { failure } => Poll::Ready(Err(failure.take().unwrap_or_else(|| {
                Failure::internal("the call was polled after it ended".to_owned())
            }))),
            StateProj::Queued { run } => {
                let Some(run) = run.take() else {
                    return Poll::Ready(Err(Failure::internal(
                        "the tool's thread was started twice".to_owned(),
                    )));
                };
                let thread = tokio::task::spawn_blocking(run);
                state.set(State::Blocking { thread });
                self.poll(cx)
            }
            StateProj::Blocking { thread } => Pin::new(thread).poll(cx).map(|joined| {
                joined.unwrap_or_else(|_| {
                    Err(Failure::internal(
                        "the tool's thread was stopped before it finished".to_owned(),
                    ))
                })
            }),
            StateProj::Async { future } => future.poll(cx),
        }
    }
}

/// Runs a sync tool on the blocking thread pool, so that it cannot stall other calls
/// and a timeout can end the call; its panic is caught there. A queued call's thread
/// starts when the call is first polled, once it has its turn.
#[doc(hidden)]
pub fn sync_reply<R: 'static, T: Send + 'static, F>(
    input: &CallInput<'_>,
    convert: fn(R) -> Outcome<T>,
    run: F,
) -> CallFuture<T>
where
    F: FnOnce() -> R + Send + 'static,
{
    let run = move || panics::catch(run).and_then(convert);
    let state = if input.queued {
        State::Queued {
            run: Some(Box::new(run)),
        }
    } else {
        State::Blocking {
            thread: tokio::task::spawn_blocking(run),
        }
    };
    CallFuture { state }
}

/// Runs an async tool, catching its panic.
#[doc(hidden)]
pub fn async_reply<R: 'static, T: 'static, F>(convert: fn(R) -> Outcome<T>, run: F) -> CallFuture<T>
where
    F: Future<Output = R> + Send + 'static,
{
    CallFuture {
        state: State::Async {
            future: StackFuture::from_or_box(panics::Guarded::new(run, convert)),
        },
    }
}

/// Ends a call whose arguments failed.
#[doc(hidden)]
pub fn fail<T>(failure: Failure) -> CallFuture<T> {
    CallFuture {
        state: State::Ready {
            failure: Some(failure),
        },
    }
}
