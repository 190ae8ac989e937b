//! Panics inside tools: caught, kept out of the process's panic output (a payload may
//! hold a secret), and reported as a failure of the call with where it happened.

use std::any::Any;
use std::cell::{Cell, RefCell};
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::Once;
use std::task::{Context, Poll};

use crate::outcome::failure::Failure;

thread_local! {
    /// Set while this thread runs tool code.
    static IN_TOOL: Cell<bool> = const { Cell::new(false) };
    /// Where the last tool panic on this thread happened.
    static LOCATION: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Installs, once per process, a panic hook that stays silent for panics inside tools
/// (the server reports them, masked) and hands every other panic to the hook that
/// was there before.
pub(crate) fn install_hook() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if IN_TOOL.with(Cell::get) {
                let location = info.location().map(ToString::to_string);
                LOCATION.with(|slot| *slot.borrow_mut() = location);
            } else {
                previous(info);
            }
        }));
    });
}

/// Runs tool code with the flag set, catching a panic.
pub(crate) fn catch<R>(run: impl FnOnce() -> R) -> Result<R, Failure> {
    let was_in_tool = IN_TOOL.with(|flag| flag.replace(true));
    let outcome = std::panic::catch_unwind(AssertUnwindSafe(run));
    IN_TOOL.with(|flag| flag.set(was_in_tool));
    outcome.map_err(|payload| Failure::Panic {
        message: payload_text(payload.as_ref()),
        location: LOCATION.with(|slot| slot.borrow_mut().take()),
    })
}

pin_project_lite::pin_project! {
    /// An async tool's future, polled with the flag set and its panics caught, and its
    /// output converted once it is ready: one future where a combinator would nest two.
    pub(crate) struct Guarded<F: Future, T> {
        #[pin]
        future: F,
        convert: fn(F::Output) -> Result<T, Failure>,
        done: bool,
    }
}

impl<F: Future, T> Guarded<F, T> {
    pub(crate) fn new(future: F, convert: fn(F::Output) -> Result<T, Failure>) -> Self {
        Self {
            future,
            convert,
            done: false,
        }
    }
}

impl<F: Future, T> Future for Guarded<F, T> {
    type Output = Result<T, Failure>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        if *this.done {
            // A panicked future must not be polled again; report it once.
            return Poll::Pending;
        }
        let future = this.future;
        match catch(|| future.poll(cx)) {
            Ok(Poll::Pending) => Poll::Pending,
            Ok(Poll::Ready(value)) => Poll::Ready((this.convert)(value)),
            Err(failure) => {
                *this.done = true;
                Poll::Ready(Err(failure))
            }
        }
    }
}

fn payload_text(payload: &(dyn Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&'static str>() {
        (*text).to_owned()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "the tool panicked".to_owned()
    }
}
