//! One call of a prompt's or a resource's function, on the machinery of tools: its
//! arguments read and checked, its panic caught, the server's time limit, the client's
//! cancellation. Its failure becomes the JSON-RPC error the client reads, masked.

use std::time::Duration;

use rmcp::RoleServer;
use rmcp::service::RequestContext;
use serde_json::{Map, Value};

use crate::call::{CallFuture, CallInput, Cancellable, timed};
use crate::error::{CallError, INTERNAL_ERROR, INVALID_PARAMS};
use crate::failure::Failure;
use crate::failure_report::{self, Detail, Subject};
use crate::log_filter::LogFilter;
use crate::state::StateMap;

/// What a call is made in: the session's request, the server's state and settings.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Scope<'a> {
    pub(crate) request: Option<&'a RequestContext<RoleServer>>,
    pub(crate) state: &'a StateMap,
    pub(crate) log_filter: &'a LogFilter,
    pub(crate) detail: Detail,
    pub(crate) timeout: Option<Duration>,
}

/// The JSON-RPC code of a request the client cancelled; rmcp sends no reply to it.
const CANCELLED: i32 = -32800;

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
    let mut running = std::pin::pin!(call(&input));
    let outcome = match running.as_mut().ended() {
        Some(failure) => Err(failure),
        None => {
            let running = async {
                match scope.timeout {
                    Some(limit) => timed(limit, running).await,
                    None => running.await,
                }
            };
            match scope.request {
                Some(request) => match Cancellable::new(running, &request.ct).await {
                    Some(outcome) => outcome,
                    None => {
                        tracing::info!(%subject, "the client cancelled the request; no reply is sent");
                        return Err(CallError::Protocol {
                            code: CANCELLED,
                            message: "the request was cancelled".to_owned(),
                            data: None,
                        });
                    }
                },
                None => running.await,
            }
        }
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
