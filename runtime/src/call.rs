//! One call of a tool: its input, and the future that runs the tool with its panics
//! caught and its result converted.

use std::future::Future;
use std::pin::Pin;

use futures::FutureExt as _;
use serde_json::{Map, Value};

use crate::failure::Failure;
use crate::output::ToolReply;
use crate::panics;

/// What the server hands a tool for one call.
#[doc(hidden)]
#[derive(Debug)]
pub struct CallInput {
    args: Map<String, Value>,
}

impl CallInput {
    pub(crate) fn new(args: Map<String, Value>) -> Self {
        Self { args }
    }

    /// The call's arguments, as sent.
    pub fn args(&self) -> &Map<String, Value> {
        &self.args
    }
}

/// The future of one tool call.
#[doc(hidden)]
pub type ToolFuture = Pin<Box<dyn Future<Output = Result<ToolReply, Failure>> + Send>>;

/// Runs a sync tool, catching its panic.
#[doc(hidden)]
pub fn sync_reply<R>(
    convert: fn(R) -> Result<ToolReply, Failure>,
    run: impl FnOnce() -> R,
) -> ToolFuture {
    let outcome = panics::catch(run).and_then(convert);
    Box::pin(std::future::ready(outcome))
}

/// Runs an async tool, catching its panic.
#[doc(hidden)]
pub fn async_reply<R: 'static, F>(
    convert: fn(R) -> Result<ToolReply, Failure>,
    run: F,
) -> ToolFuture
where
    F: Future<Output = R> + Send + 'static,
{
    Box::pin(panics::Guarded::new(run).map(move |outcome| outcome.and_then(convert)))
}

/// Ends a call whose arguments failed.
#[doc(hidden)]
pub fn fail(failure: Failure) -> ToolFuture {
    Box::pin(std::future::ready(Err(failure)))
}
