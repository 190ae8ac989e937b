//! A `tools/call` answered without `rmcp`'s service loop, over stdio ([`line_calls`]) and
//! over Streamable HTTP (`http::direct`): which requests may be ([`answerable`]), the call
//! once past the pipeline ([`call_directly`]), and its reply as `rmcp`'s handler makes it
//! for a client on a protocol before 2026-07-28 ([`answer`]).
//!
//! [`line_calls`]: crate::protocol::line_calls

use rmcp::model::{
    CallToolRequest, CallToolRequestParams, CallToolResponse, ErrorData, RequestMetaObject,
    ServerJsonRpcMessage, ServerResult,
};

use crate::protocol::bridge;
use crate::protocol::piped::Origin;
use crate::protocol::wire::PROTOCOL_VERSION_KEY;
use crate::server::tool_server::{Refusal, ToolServer};

/// Whether `call` may be answered directly: it names no protocol version of its own in
/// its `_meta` (from 2026-07-28 on, a request carries its lifecycle, which `rmcp`
/// checks), continues no round, and names a tool that takes no `Context` and never runs
/// as a task and converts none of its arguments (a conversion is reported with the
/// client's name), or no tool (answered as an unknown tool is). Anything else needs what
/// `rmcp`'s request context carries.
pub(crate) fn answerable(server: &ToolServer, call: &CallToolRequest) -> bool {
    // rmcp keeps a request's `_meta` among its extensions.
    let own_version = (call.extensions.get::<RequestMetaObject>())
        .is_some_and(|meta| meta.0.0.contains_key(PROTOCOL_VERSION_KEY));
    let params = &call.params;
    !own_version
        && params.request_state.is_none()
        && params.input_responses.is_none()
        && (server.find(&params.name))
            .is_none_or(|tool| tool.reply_only() && !tool.may_convert(server.shared.lenient))
}

/// A call answered directly, once it passed the pipeline.
pub(crate) async fn call_directly<C: Origin>(
    server: ToolServer,
    params: CallToolRequestParams,
    _origin: C,
) -> Result<CallToolResponse, ErrorData> {
    // Found again past the pipeline: a tool added since in its place runs without a
    // session, as `ToolServer::call` runs one.
    let outcome = match server.find(&params.name) {
        Some(tool) => {
            let arguments = params.arguments.unwrap_or_default();
            server.run_found(tool, arguments, None).await
        }
        None => Err(Refusal::Call(server.unknown_tool(&params.name))),
    };
    match outcome {
        Ok(answer) => Ok(bridge::call_result(answer).into()),
        Err(Refusal::Call(error)) => Err(bridge::error_data(error)),
        // A call made without a request is never cancelled, asks nothing in rounds
        // and does not run as a task: none of these reaches here, and the tool has
        // run, so the request is not handed on.
        Err(_) => Err(ErrorData::internal_error("the call was refused", None)),
    }
}

/// The message that answers the request `id` with `answered`.
pub(crate) fn answer(
    answered: Result<CallToolResponse, ErrorData>,
    id: rmcp::model::RequestId,
) -> ServerJsonRpcMessage {
    match answered {
        Ok(response) => reply(response, id),
        Err(error) => ServerJsonRpcMessage::error(error, Some(id)),
    }
}

/// The reply to a call that was answered, as `rmcp`'s handler makes it for a client on
/// a protocol before 2026-07-28: without `resultType`, and with structured content that
/// is not an object moved into the text.
fn reply(response: CallToolResponse, id: rmcp::model::RequestId) -> ServerJsonRpcMessage {
    let mut result = ServerResult::from(response);
    result.strip_result_type_for_legacy_peer();
    result.strip_non_object_output_for_legacy_peer();
    ServerJsonRpcMessage::response(result, id)
}
