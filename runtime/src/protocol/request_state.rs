//! The rounds of a call on protocol 2026-07-28 (SEP-2322), on rmcp's wire types: the
//! `requestState` sealed with rmcp's `RequestStateCodec` and opened again, the questions
//! a run asked turned into an `InputRequiredResult`, and the answers read back.
//!
//! A `requestState` is bound to what it was issued for, the method, the tool's (or
//! prompt's, or resource's) name and a digest of the arguments, and expires; one that
//! was changed, has expired or was issued for another request is refused with an error
//! that says which, before anything runs.

use std::sync::Arc;
use std::time::Duration;

use rmcp::RoleServer;
use rmcp::model::{self as sdk, InputRequests, InputRequiredResult};
use rmcp::model::{InputResponses, RequestStateCodec, RequestStateError, SealOptions};
use rmcp::service::RequestContext;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::call::rounds::{Carried, Round};
use crate::protocol::peer_session;
use crate::protocol::questions::input_request;
use crate::protocol::wire::PROTOCOL_VERSION_KEY;
use crate::server::settings::Rounds;
use crate::server::tool_server::Shared;

/// Whether the request's protocol asks the client in rounds (2026-07-28 on).
///
/// Read from the request's own `_meta`, without decoding and cloning the version: every
/// call asks this. rmcp refuses a request of the per-request lifecycle that does not
/// carry its version there, so a request without one belongs to a session that began
/// with `initialize`, where the server can send the client requests of its own.
fn in_rounds(context: &RequestContext<RoleServer>) -> bool {
    let rounds_from = sdk::ProtocolVersion::NO_INITIALIZE;
    matches!(
        context.meta.0.0.get(PROTOCOL_VERSION_KEY),
        Some(Value::String(version)) if version.as_str() >= rounds_from.as_str()
    )
}

/// What a `requestState` holds: what it was issued for, and what the round carries.
#[derive(Serialize, Deserialize)]
struct Sealed {
    /// The method and the name, `tools/call search`.
    #[serde(rename = "for")]
    subject: String,
    /// A digest of the arguments.
    arguments: String,
    /// A digest of the caller it was issued to; empty where no caller can be told.
    #[serde(default)]
    caller: String,
    #[serde(flatten)]
    carried: Carried,
}

/// The seal of `requestState`: a codec with the server's key, and the time a state
/// stays valid.
struct Seal {
    codec: RequestStateCodec,
    ttl: Duration,
}

impl Seal {
    /// The server's seal, made on first use: with its key, given or made at random for
    /// the process, which replicas do not share (the log says so once).
    fn of(shared: &Shared) -> Arc<Self> {
        shared.seal.get_or_init(|| make_seal(&shared.rounds))
    }
}

fn make_seal(rounds: &Rounds) -> Seal {
    if rounds.random {
        tracing::warn!(
            "no request-state key was set (Server::request_state_key): a random one signs \
             this process's input-required rounds, so a replica behind a load balancer \
             cannot resume a round another replica began"
        );
    }
    // `Server::build` makes a key where none was given, and a server is only built there.
    let key = (rounds.key.as_deref())
        .expect("every built server has a request-state key")
        .to_vec();
    Seal {
        codec: RequestStateCodec::new_unchecked(key),
        ttl: rounds.ttl,
    }
}

/// A request answered in rounds: its round, and what its state is bound to.
pub(crate) struct Begun {
    round: Arc<Round>,
    subject: String,
    arguments: String,
    caller: String,
}

impl Drop for Begun {
    // A question still waiting (a sync tool's, on its thread) gives up with the call.
    fn drop(&mut self) {
        self.round.end();
    }
}

/// The round of a request on protocol 2026-07-28: the client's answers, and what its
/// `requestState` carries once opened and checked; `None` on earlier protocols.
pub(crate) fn begin(
    shared: &Shared,
    context: &RequestContext<RoleServer>,
    (method, name): (&str, &str),
    arguments: &Map<String, Value>,
    state: Option<&str>,
    responses: Option<InputResponses>,
) -> Result<Option<Begun>, sdk::ErrorData> {
    if !in_rounds(context) {
        return Ok(None);
    }
    let subject = format!("{method} {name}");
    let arguments = arguments_digest(arguments);
    let caller = (peer_session::owner(context)).map_or_else(String::new, |owner| owner.to_string());
    let bound = Bound {
        subject: &subject,
        arguments: &arguments,
        caller: &caller,
    };
    let carried = match state {
        None => Carried::default(),
        Some(state) => open(shared, state, &bound)?,
    };
    let responses = responses.unwrap_or_default();
    check_responses(&responses)?;
    let answers: Map<String, Value> = responses.into_iter().collect();
    Ok(Some(Begun {
        round: Arc::new(Round::new(answers, carried)),
        subject,
        arguments,
        caller,
    }))
}

/// What a `requestState` must have been issued for to be accepted.
struct Bound<'a> {
    subject: &'a str,
    arguments: &'a str,
    caller: &'a str,
}

/// Opens `state`, refusing one that was changed, has expired or was issued for another
/// request, each with its own message. One issued to another caller is refused as one
/// that was changed: whose it was is not for this caller to learn.
fn open(shared: &Shared, state: &str, bound: &Bound<'_>) -> Result<Carried, sdk::ErrorData> {
    let seal = Seal::of(shared);
    let subject = bound.subject;
    let refused = |message: String| sdk::ErrorData::invalid_params(message, None);
    let tampered = || {
        refused(format!(
            "the requestState was changed or was not issued by this server (its signature \
             does not verify); call {subject} again without requestState and inputResponses \
             to start over"
        ))
    };
    let sealed: Sealed = seal.codec.open_json(state).map_err(|error| match error {
        RequestStateError::Expired => refused(format!(
            "the requestState has expired: it is valid for {} after it is issued; call \
             {subject} again without requestState and inputResponses to start over",
            words(seal.ttl)
        )),
        _ => tampered(),
    })?;
    if sealed.caller != bound.caller {
        tracing::info!(subject, "refused a requestState issued to another caller");
        return Err(tampered());
    }
    if sealed.subject != subject {
        return Err(refused(format!(
            "the requestState was issued for {}, not for {subject}",
            sealed.subject
        )));
    }
    if sealed.arguments != bound.arguments {
        return Err(refused(format!(
            "the requestState was issued for other arguments of {subject}: send the \
             arguments of the first round with it"
        )));
    }
    Ok(sealed.carried)
}

impl Begun {
    /// The round, shared.
    pub(crate) fn round(&self) -> Arc<Round> {
        Arc::clone(&self.round)
    }

    /// Whether the call ended waiting for the client's answers.
    pub(crate) fn suspended(&self) -> bool {
        self.round.suspended()
    }

    /// The input-required result of a call that ended waiting: the questions it asked,
    /// and the sealed state of the next round.
    pub(crate) fn input_required(
        &self,
        shared: &Shared,
    ) -> Result<InputRequiredResult, sdk::ErrorData> {
        let (asking, carried) = self.round.finish();
        let mut requests = InputRequests::new();
        for asked in asking {
            let request = input_request(&asked.question)
                .map_err(|why| sdk::ErrorData::internal_error(why, None))?;
            requests.insert(asked.key, request);
        }
        let sealed = Sealed {
            subject: self.subject.clone(),
            arguments: self.arguments.clone(),
            caller: self.caller.clone(),
            carried,
        };
        let seal = Seal::of(shared);
        let options = SealOptions::new().ttl(seal.ttl);
        let state = (seal.codec.seal_json_with(&sealed, &options)).map_err(|error| {
            sdk::ErrorData::internal_error(
                format!("the requestState could not be written: {error}"),
                None,
            )
        })?;
        Ok(InputRequiredResult::new(Some(requests), Some(state)))
    }
}

/// A digest of the arguments, whatever the order of their keys.
fn arguments_digest(arguments: &Map<String, Value>) -> String {
    fn canonical(value: &Value, out: &mut Vec<u8>) {
        match value {
            Value::Object(map) => {
                let mut keys: Vec<&String> = map.keys().collect();
                keys.sort();
                out.push(b'{');
                for key in keys {
                    out.extend_from_slice(Value::from(key.as_str()).to_string().as_bytes());
                    out.push(b':');
                    canonical(&map[key], out);
                    out.push(b',');
                }
                out.push(b'}');
            }
            Value::Array(items) => {
                out.push(b'[');
                for item in items {
                    canonical(item, out);
                    out.push(b',');
                }
                out.push(b']');
            }
            other => out.extend_from_slice(other.to_string().as_bytes()),
        }
    }
    let mut bytes = Vec::new();
    canonical(&Value::Object(arguments.clone()), &mut bytes);
    crate::outcome::digest::digest(&bytes, 12)
}

/// A duration in words, for error messages: `1 hours`, `10 minutes`, `90 seconds`,
/// `200 milliseconds`.
pub(crate) fn words(duration: Duration) -> String {
    if duration.subsec_millis() != 0 {
        return format!("{} milliseconds", duration.as_millis());
    }
    let (count, unit) = match duration.as_secs() {
        s if s >= 3600 && s.is_multiple_of(3600) => (s / 3600, "hour"),
        s if s >= 60 && s.is_multiple_of(60) => (s / 60, "minute"),
        s => (s, "second"),
    };
    match count {
        1 => format!("1 {unit}"),
        _ => format!("{count} {unit}s"),
    }
}

/// Refuses input responses of which one is not an object (an elicitation, sampling or
/// roots result), naming it.
pub(crate) fn check_responses(responses: &InputResponses) -> Result<(), sdk::ErrorData> {
    match responses.iter().find(|(_, response)| !response.is_object()) {
        Some((key, _)) => Err(sdk::ErrorData::invalid_params(
            format!(
                "the input response `{key}` is not an object: each answers an input request \
                 with its result (an elicitation, sampling or roots result)"
            ),
            None,
        )),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_digest_ignores_key_order_but_not_values() {
        let a = serde_json::json!({"x": 1, "y": {"b": 2, "a": 3}});
        let b = serde_json::json!({"y": {"a": 3, "b": 2}, "x": 1});
        let c = serde_json::json!({"x": 1, "y": {"a": 3, "b": 4}});
        let digest = |v: &Value| arguments_digest(v.as_object().unwrap());
        assert_eq!(digest(&a), digest(&b));
        assert_ne!(digest(&a), digest(&c));
    }

    #[test]
    fn durations_read_as_words() {
        assert_eq!(words(Duration::from_secs(600)), "10 minutes");
        assert_eq!(words(Duration::from_secs(90)), "90 seconds");
        assert_eq!(words(Duration::from_secs(7200)), "2 hours");
        assert_eq!(words(Duration::from_millis(200)), "200 milliseconds");
    }
}
