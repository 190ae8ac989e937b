//! The questions a call asks the client in rounds (protocol 2026-07-28): each one as the
//! input request it is sent as, its answer looked up in the round or the call suspended
//! until the client answers, and the answer read back in this crate's terms.

use rmcp::model::{self as sdk, InputRequest};
use serde_json::Value;

use crate::call::rounds::{Question, Round};
use crate::model::{Elicitation, Root, SamplingResponse};
use crate::protocol::bridge;

/// The answer to `question` in `round`; a question without one suspends the call.
async fn answer(round: &Round, question: Question) -> Result<Value, String> {
    let request = input_request(&question)?;
    let key = round.key(&question);
    let digest = digest(&request);
    if let Some(answer) = round.answer(&key, &digest) {
        return Ok(answer);
    }
    round.ask(key, digest, question);
    round.ended().await;
    Err("the call ended before the client answered".to_owned())
}

/// Decodes the client's `answer` to the question `what` as rmcp's `T`.
fn decode<T: serde::de::DeserializeOwned>(answer: Value, what: &str) -> Result<T, String> {
    serde_json::from_value(answer)
        .map_err(|error| format!("the client's answer is not {what} result: {error}"))
}

/// Asks the client's user, in rounds.
pub(crate) async fn elicit(
    round: &Round,
    request: crate::model::ElicitationRequest,
) -> Result<Elicitation<Value>, String> {
    elicitation_of(answer(round, Question::Elicitation(request)).await?)
}

/// The client's answer to an elicitation, in our terms.
pub(crate) fn elicitation_of(answer: Value) -> Result<Elicitation<Value>, String> {
    let result: sdk::ElicitResult = decode(answer, "an elicitation")?;
    bridge::elicitation(sdk::ClientResult::ElicitResult(result))
        .ok_or_else(|| "the client's answer is not an elicitation result".to_owned())
}

/// The client's answer to a sampling request, in our terms.
pub(crate) fn sampling_of(answer: Value) -> Result<SamplingResponse, String> {
    bridge::sampling_response(decode(answer, "a sampling")?)
}

/// The client's answer to a roots request, in our terms.
#[allow(deprecated)] // SEP-2577 deprecates roots; the input requests still carry them.
pub(crate) fn roots_answer(answer: Value) -> Result<Vec<Root>, String> {
    let result: sdk::ListRootsResult = decode(answer, "a roots")?;
    Ok(roots_of(result))
}

/// Asks the client's model, in rounds.
pub(crate) async fn sample(
    round: &Round,
    request: crate::model::SamplingRequest,
) -> Result<SamplingResponse, String> {
    sampling_of(answer(round, Question::Sampling(request)).await?)
}

/// Asks the client for its roots, in rounds.
pub(crate) async fn roots(round: &Round) -> Result<Vec<Root>, String> {
    roots_answer(answer(round, Question::Roots).await?)
}

/// rmcp's roots, in our terms.
#[allow(deprecated)] // SEP-2577, as above.
pub(crate) fn roots_of(result: sdk::ListRootsResult) -> Vec<Root> {
    let roots = result.roots.into_iter().map(|root| {
        let named = Root::new(root.uri);
        match root.name {
            Some(name) => named.with_name(name),
            None => named,
        }
    });
    roots.collect()
}

/// A question as an input request on the wire.
#[allow(deprecated)] // SEP-2577 deprecates sampling and roots; the rounds still carry them.
pub(crate) fn input_request(question: &Question) -> Result<InputRequest, String> {
    Ok(match question {
        Question::Elicitation(request) => match bridge::elicit_request(request.clone())? {
            sdk::ServerRequest::ElicitRequest(request) => InputRequest::Elicitation(request),
            _ => return Err("an elicitation request of an unknown kind".to_owned()),
        },
        Question::Sampling(request) => InputRequest::CreateMessage(sdk::CreateMessageRequest::new(
            bridge::create_message_params(request.clone())?,
        )),
        Question::Roots => InputRequest::ListRoots(sdk::ListRootsRequest::default()),
    })
}

/// A digest of an input request as it is sent: a question asked again under the same
/// key is the same question only if it is sent the same.
fn digest(request: &InputRequest) -> String {
    let bytes = serde_json::to_vec(request).unwrap_or_default();
    crate::outcome::digest::digest(&bytes, 12)
}
