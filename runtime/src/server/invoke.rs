//! One call of a prompt's or a resource's function, on the machinery of tools: its
//! arguments read and checked, its panic caught, the server's time limit, the client's
//! cancellation. Its failure becomes the JSON-RPC error the client reads, masked.

use std::time::Duration;

use serde_json::{Map, Value};

use crate::call::future::{CallFuture, CallInput};
use crate::call::session::Request;
use crate::call::state::StateMap;
use crate::outcome::error::{CallError, INTERNAL_ERROR, INVALID_PARAMS};
use crate::outcome::failure::Failure;
use crate::outcome::failure_report::{self, Detail, Subject};
use crate::outcome::log_filter::LogFilter;
use crate::server::driver::{self, Limits};

/// What a call is made in: the session's request, the server's state and settings.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Scope<'a> {
    pub(crate) request: Option<&'a dyn Request>,
    pub(crate) state: &'a StateMap,
    pub(crate) log_filter: &'a LogFilter,
    pub(crate) detail: Detail,
    pub(crate) timeout: Option<Duration>,
}

/// The JSON-RPC code of a request the client cancelled; no reply is sent to it.
pub(crate) const CANCELLED: i32 = -32800;

/// Runs `call` with `arguments`: its reply, or the error the client reads. Argument
/// errors are invalid params (`-32602`); every other failure is an internal error
/// (`-32603`) whose message went through masking.
pub(crate) async fn run<T: Send + 'static>(
    subject: Subject<'_>,
    name: &'static str,
    call: fn(&CallInput<'_>) -> CallFuture<T>,
    arguments: Map<String, Value>,
    scope: Scope<'_>,
) -> Result<T, CallError> {
    let input = CallInput::new(
        name,
        arguments,
        scope.request,
        scope.state,
        scope.log_filter,
        false,
    );
    let running = std::pin::pin!(call(&input));
    let limits = Limits {
        calls: None,
        timeout: scope.timeout,
        cancel: scope.request.map(|request| request.cancellation()),
        input: scope.request.and_then(|request| request.round()),
    };
    let Some(outcome) = driver::drive(running, limits).await else {
        tracing::info!(%subject, "the client cancelled the request; no reply is sent");
        return Err(CallError::Protocol {
            code: CANCELLED,
            message: "the request was cancelled".to_owned(),
            data: None,
        });
    };
    outcome.map_err(|failure| {
        let code = match failure {
            Failure::Arguments(_) => INVALID_PARAMS,
            _ => INTERNAL_ERROR,
        };
        let message = failure_report::failure(subject, failure, input.args(), scope.detail);
        CallError::Protocol {
            code,
            message,
            data: None,
        }
    })
}
