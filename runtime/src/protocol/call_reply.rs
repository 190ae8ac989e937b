//! A tool call's outcome as rmcp's reply: its result, the questions of its round, or the
//! error it was refused with; the same for a call answered at once and for a task's.

use rmcp::RoleServer;
use rmcp::model::{CallToolResponse, ErrorCode, ErrorData};
use rmcp::service::RequestContext;

use crate::protocol::bridge;
use crate::protocol::request_state::Begun;
use crate::server::tool_server::{Answer, Refusal, ToolServer};

/// A call the client cancelled: its tool's future was dropped; rmcp sends no reply to a
/// cancelled request, as the specification asks, so this error goes nowhere.
#[cold]
pub(crate) fn cancelled(tool: &str, context: &RequestContext<RoleServer>) -> ErrorData {
    tracing::info!(tool, request = %context.id, "the client cancelled the call; no reply is sent");
    ErrorData::new(ErrorCode(-32800), "the request was cancelled", None)
}

/// The answer to a call of `tool` that ended with `outcome`: its result, the questions
/// of its round, or the error it was refused with.
pub(crate) fn respond(
    server: &ToolServer,
    outcome: Result<Answer, Refusal>,
    begun: Option<&Begun>,
    tool: &str,
    context: &RequestContext<RoleServer>,
) -> Result<CallToolResponse, ErrorData> {
    match outcome {
        Ok(answer) => Ok(bridge::call_result(answer).into()),
        Err(Refusal::InputRequired) => match begun {
            Some(begun) => Ok(begun.input_required(&server.shared)?.into()),
            None => Err(ErrorData::internal_error(
                "the call asked outside rounds",
                None,
            )),
        },
        Err(Refusal::Call(error)) => Err(bridge::error_data(error)),
        Err(Refusal::Cancelled) => Err(cancelled(tool, context)),
        Err(Refusal::MissingCapability(capability)) => {
            Err(bridge::missing_capability(tool, capability))
        }
        // Only a task's call is refused so.
        Err(Refusal::Crashed(message)) => Err(ErrorData::internal_error(message, None)),
    }
}
