//! The handler of a tool defined at run time: the functions
//! [`RuntimeTool::handler`](crate::RuntimeTool::handler) takes, and how a call runs one.

use std::future::Future;
use std::sync::Arc;

use crate::call::arguments::Arguments;
use crate::call::context::Context;
use crate::call::future::{CallInput, Outcome, ToolFuture, async_reply};
use crate::outcome::error::ToolError;
use crate::outcome::failure::Failure;
use crate::outcome::output::IntoContent;

/// A handler as a call runs it: the user's function, its future and the conversion of
/// its reply, all in the one box a call's future takes; given what a [`Context`] is made
/// from, so that a handler that takes none pays for none.
pub(crate) type Handler = Arc<dyn Fn(Arguments, &CallInput<'_>) -> ToolFuture + Send + Sync>;

/// What [`RuntimeTool::handler`](crate::RuntimeTool::handler) takes: an async function of the call's [`Arguments`]
/// (`Fn(Arguments) -> impl Future`), or of its `Arguments` and its [`Context`]
/// (`Fn(Arguments, Context) -> impl Future`), whose future returns content or a
/// [`ToolError`]. As with `#[mcp_tool]`, a handler that takes no `Context` pays nothing
/// for one.
///
/// `T` tells the two apart (`(Arguments,)` or `(Arguments, Context)`): write the closure's
/// parameter types, `|args: Arguments| ...` or `|args: Arguments, ctx: Context| ...`.
pub trait RuntimeHandler<T>: sealed::Sealed<T> + Send + Sync + 'static {
    #[doc(hidden)]
    fn into_handler(self) -> Handler;
}

mod sealed {
    /// Only the two shapes of [`RuntimeHandler`](super::RuntimeHandler) are handlers.
    pub trait Sealed<T> {}
}

impl<F, Fut> sealed::Sealed<(Arguments,)> for F where F: Fn(Arguments) -> Fut {}

impl<F, Fut> sealed::Sealed<(Arguments, Context)> for F where F: Fn(Arguments, Context) -> Fut {}

impl<F, Fut, R> RuntimeHandler<(Arguments,)> for F
where
    F: Fn(Arguments) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<R, ToolError>> + Send + 'static,
    R: IntoContent + 'static,
{
    fn into_handler(self) -> Handler {
        Arc::new(move |args: Arguments, _: &CallInput<'_>| run(args, &self))
    }
}

impl<F, Fut, R> RuntimeHandler<(Arguments, Context)> for F
where
    F: Fn(Arguments, Context) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<R, ToolError>> + Send + 'static,
    R: IntoContent + 'static,
{
    fn into_handler(self) -> Handler {
        Arc::new(move |args: Arguments, input: &CallInput<'_>| {
            let ctx = Context::new(input.tool, input.request, input.log_filter);
            run(args, |args| self(args, ctx))
        })
    }
}

/// Starts the handler's future on `args`, its panics caught, its reply turned into the
/// call's outcome. The faults its arguments leave unreported come first: the server
/// settles them once the call ends (`Found::settle`).
fn run<Fut, R>(args: Arguments, handler: impl FnOnce(Arguments) -> Fut) -> ToolFuture
where
    Fut: Future<Output = Result<R, ToolError>> + Send + 'static,
    R: IntoContent + 'static,
{
    async_reply(outcome::<R>, handler(args))
}

/// A run-time tool's call, ended, as its handler returned.
fn outcome<R: IntoContent>(reply: Result<R, ToolError>) -> Outcome {
    match reply {
        Ok(result) => result.into_reply(),
        Err(error) => Err(match error.into_arguments() {
            Ok(errors) => Failure::Arguments(errors),
            Err(error) => Failure::Tool(error),
        }),
    }
}
