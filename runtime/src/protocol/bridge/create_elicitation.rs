//! `elicitation/create` between our types and rmcp's, both ways: the server sends a
//! form and reads the outcome; the test client reads the form and answers.

use rmcp::model as sdk;
use serde_json::{Map, Value};

use crate::model::{Elicitation, ElicitationRequest};

/// An `elicitation/create` request (form mode), or why the schema cannot be sent.
pub(crate) fn elicit_request(request: ElicitationRequest) -> Result<sdk::ServerRequest, String> {
    let schema: sdk::ElicitationSchema =
        serde_json::from_value(Value::Object(request.requested_schema)).map_err(|error| {
            format!("the requested schema is not one elicitation allows: {error}")
        })?;
    let params = sdk::ElicitRequestParams::FormElicitationParams {
        meta: None,
        message: request.message,
        requested_schema: schema,
    };
    Ok(sdk::ServerRequest::ElicitRequest(sdk::ElicitRequest::new(
        params,
    )))
}

/// What the user did, with the answer as the client sent it (`null` when it sent none);
/// `None` if the client answered with another kind of result.
pub(crate) fn elicitation(result: sdk::ClientResult) -> Option<Elicitation<Value>> {
    let sdk::ClientResult::ElicitResult(result) = result else {
        return None;
    };
    Some(match result.action {
        sdk::ElicitationAction::Accept => {
            Elicitation::Accepted(result.content.unwrap_or(Value::Null))
        }
        sdk::ElicitationAction::Decline => Elicitation::Declined,
        // `cancel`, and any action a later protocol adds: the user did not answer.
        _ => Elicitation::Cancelled,
    })
}

/// A form the test client received, in our terms; `None` for a URL-mode request.
pub(crate) fn elicitation_request(params: sdk::ElicitRequestParams) -> Option<ElicitationRequest> {
    match params {
        sdk::ElicitRequestParams::FormElicitationParams {
            message,
            requested_schema,
            ..
        } => {
            let schema = match serde_json::to_value(requested_schema) {
                Ok(Value::Object(schema)) => schema,
                _ => Map::new(),
            };
            Some(ElicitationRequest::with_schema(message, schema))
        }
        _ => None,
    }
}

/// The test client's answer, as rmcp sends it.
pub(crate) fn elicit_result(answer: Elicitation<Value>) -> sdk::ElicitResult {
    match answer {
        Elicitation::Accepted(content) => {
            sdk::ElicitResult::new(sdk::ElicitationAction::Accept).with_content(content)
        }
        Elicitation::Declined => sdk::ElicitResult::new(sdk::ElicitationAction::Decline),
        Elicitation::Cancelled => sdk::ElicitResult::new(sdk::ElicitationAction::Cancel),
    }
}
