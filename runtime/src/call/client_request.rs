//! What a tool asks of the client during a call: a message from its model (sampling),
//! an answer from its user (elicitation), or the roots it shares.
//!
//! A request is checked before it is sent: a call outside a session, a client that did
//! not declare the capability, or a protocol on which a server may not send requests
//! is a `ToolError` at once, never a wait for an answer that cannot come.

use serde_json::Value;

use crate::call::session::Session;
use crate::model::{
    ClientInfo, Elicitation, ElicitationRequest, Root, SamplingRequest, SamplingResponse,
};
use crate::outcome::error::ToolError;

/// The first protocol version on which a server may not send requests during a call
/// (it returns an input-required result instead, SEP-2322).
const NO_SERVER_REQUESTS_FROM: &str = "2026-07-28";

/// Whom a call's requests go to: the session's client.
pub(crate) struct Client<'a> {
    pub(crate) session: &'a dyn Session,
    pub(crate) info: Option<&'a ClientInfo>,
}

/// Asks the client's model for a message (`sampling/createMessage`).
pub(crate) async fn sample(
    client: Option<Client<'_>>,
    request: SamplingRequest,
) -> Result<SamplingResponse, ToolError> {
    let client = present(client, "sampling")?;
    if !client
        .info
        .is_some_and(|info| info.has_capability("sampling"))
    {
        return Err(ToolError::missing_capability(
            "sampling",
            "the client does not support sampling (it did not declare the capability `sampling`)",
        ));
    }
    allowed(&client, "sampling")?;
    check_sampling(&request)?;
    client.session.sample(request).await.map_err(ToolError::new)
}

/// Asks the client's user to fill in a form (`elicitation/create`); the answer as the
/// client sent it.
pub(crate) async fn elicit(
    client: Option<Client<'_>>,
    request: ElicitationRequest,
) -> Result<Elicitation<Value>, ToolError> {
    let client = present(client, "elicitation")?;
    let capability = client
        .info
        .and_then(|info| info.capabilities.get("elicitation"))
        .filter(|capability| !capability.is_null());
    let Some(capability) = capability else {
        return Err(ToolError::missing_capability(
            "elicitation",
            "the client does not support elicitation (it did not declare the capability \
             `elicitation`)",
        ));
    };
    // `{}` means forms (MCP 2025-06-18); later clients name the modes they support.
    if capability.get("form").is_none() && capability.get("url").is_some() {
        return Err(ToolError::new(
            "the client supports only URL-mode elicitation, not forms (its capability \
             `elicitation` has no `form`)",
        ));
    }
    allowed(&client, "elicitation")?;
    client.session.elicit(request).await.map_err(ToolError::new)
}

/// Asks the client for the roots it shares (`roots/list`).
pub(crate) async fn roots(client: Option<Client<'_>>) -> Result<Vec<Root>, ToolError> {
    let client = present(client, "listing roots")?;
    if !client.info.is_some_and(|info| info.has_capability("roots")) {
        return Err(ToolError::missing_capability(
            "roots",
            "the client shares no roots (it did not declare the capability `roots`)",
        ));
    }
    allowed(&client, "roots/list")?;
    client.session.roots().await.map_err(ToolError::new)
}

/// The session's client, if the call has one.
fn present<'a>(client: Option<Client<'a>>, what: &str) -> Result<Client<'a>, ToolError> {
    client.ok_or_else(|| {
        ToolError::new(format!(
            "{what} needs a client to ask, and this call has none: it was made through \
             `ToolServer::call`, outside a session"
        ))
    })
}

/// Whether the client's protocol lets a server send it a request during a call, or the
/// call asks it in rounds (2026-07-28) or through its task. Checked after the capability, which protocol
/// 2026-07-28 asks to be reported first.
fn allowed(client: &Client<'_>, what: &str) -> Result<(), ToolError> {
    if client.session.round().is_some() || client.session.runs_as_task() {
        return Ok(());
    }
    let version = client
        .info
        .and_then(|info| info.protocol_version.as_deref());
    if let Some(version) = version.filter(|v| *v >= NO_SERVER_REQUESTS_FROM) {
        return Err(ToolError::new(format!(
            "the client speaks protocol {version}, on which a server may not send {what} \
             requests during a call, and this request came without the input-required \
             rounds that replace them"
        )));
    }
    Ok(())
}

/// Refuses what the protocol leaves undefined, naming it.
fn check_sampling(request: &SamplingRequest) -> Result<(), ToolError> {
    if request.messages.is_empty() {
        return Err(ToolError::new(
            "a sampling request needs at least one message",
        ));
    }
    if let Some(preferences) = &request.model_preferences {
        let priorities = [
            ("cost", preferences.cost_priority),
            ("speed", preferences.speed_priority),
            ("intelligence", preferences.intelligence_priority),
        ];
        for (name, priority) in priorities {
            if let Some(priority) = priority.filter(|p| !(0.0..=1.0).contains(p)) {
                return Err(ToolError::new(format!(
                    "the {name} priority of a sampling request must be from 0 to 1, not {priority}"
                )));
            }
        }
    }
    if let Some(temperature) = request.temperature.filter(|t| !t.is_finite()) {
        return Err(ToolError::new(format!(
            "the temperature of a sampling request must be a finite number, not {temperature}"
        )));
    }
    Ok(())
}
