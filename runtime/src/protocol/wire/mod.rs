//! JSON-RPC messages as bytes: each incoming message is decoded once, into `rmcp`'s
//! message type; what does not decode is answered here with the JSON-RPC error it
//! deserves, since `rmcp` would drop it without a word. Independent of framing, so
//! any transport (newline-delimited streams, HTTP bodies) decodes and encodes here.
//! The messages a session sends most are read by [`envelope`] in one pass; the others,
//! and every message it finds unusual, by `rmcp`.

mod envelope;
#[cfg(test)]
mod tests;

use rmcp::model::{
    ClientJsonRpcMessage, ClientNotification, ClientRequest, ErrorCode, ErrorData, JsonRpcMessage,
    JsonRpcVersion2_0, ProtocolVersion, RequestId, RequestMetaObject, ServerJsonRpcMessage,
};
use serde::Serialize;
use serde_json::Value;

/// What one incoming message is.
#[derive(Debug)]
pub(crate) enum Inbound {
    /// A message for `rmcp`.
    Message(Box<ClientJsonRpcMessage>),
    /// A notification this server does not know, dropped as JSON-RPC allows.
    Ignored,
    /// A message that cannot be served: the reply to send instead, encoded.
    Rejected(Vec<u8>),
}

/// UTF-8 byte order mark, which RFC 8259 allows a parser to ignore.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Decodes one message (without its framing).
pub(crate) fn decode(bytes: &[u8]) -> Inbound {
    let bytes = bytes.strip_prefix(BOM).unwrap_or(bytes);
    match envelope::read(bytes) {
        Some(message) => Inbound::Message(Box::new(message)),
        None => decode_generic(bytes),
    }
}

/// Decodes one message as a transport does: the message for `rmcp`, or `None` for one
/// refused or ignored. For the benchmarks, which time it beside `rmcp`'s decoding.
#[doc(hidden)]
pub fn decode_message(bytes: &[u8]) -> Option<Box<ClientJsonRpcMessage>> {
    match decode(bytes) {
        Inbound::Message(message) => Some(message),
        Inbound::Ignored | Inbound::Rejected(_) => None,
    }
}

/// Decodes one message through `rmcp`'s message type.
fn decode_generic(bytes: &[u8]) -> Inbound {
    let error = match serde_json::from_slice::<ClientJsonRpcMessage>(bytes) {
        Ok(message) => return checked(message),
        Err(error) => error,
    };
    if !error.is_data() {
        // Not JSON at all (also `NaN`, `1e400`, nesting past serde_json's limit, a
        // lone surrogate, invalid UTF-8): there is no id to read.
        let message = format!("Parse error: the message is not valid JSON ({error})");
        return Inbound::Rejected(error_reply(None, ErrorData::parse_error(message, None)));
    }
    // JSON, but not a message: parsed again as a plain value to find its id and method,
    // on this failure path only.
    let value: Value = serde_json::from_slice(bytes).unwrap_or(Value::Null);
    rejected(&value)
}

/// A message rmcp decoded, unless it is a known method whose `params` rmcp could not
/// read (rmcp takes it for a custom method and would answer "method not found").
fn checked(message: ClientJsonRpcMessage) -> Inbound {
    match &message {
        JsonRpcMessage::Request(request) => match &request.request {
            ClientRequest::CustomRequest(custom) if is_request_method(&custom.method) => {
                // rmcp keeps a request's `_meta` apart from its `params`.
                let meta = custom.extensions.get::<RequestMetaObject>();
                let protocol = meta.and_then(RequestMetaObject::protocol_version);
                let protocol = protocol.as_ref().map(ProtocolVersion::as_str);
                let error = custom_request_error(&custom.method, protocol);
                Inbound::Rejected(error_reply(Some(request.id.clone()), error))
            }
            _ => Inbound::Message(Box::new(message)),
        },
        JsonRpcMessage::Notification(notification) => match &notification.notification {
            ClientNotification::CustomNotification(custom)
                if is_notification_method(&custom.method) =>
            {
                // A notification gets no reply, not even an error.
                tracing::warn!(
                    method = %clip(&custom.method),
                    "dropped a notification whose params do not have the shape the MCP specification gives them"
                );
                Inbound::Ignored
            }
            _ => Inbound::Message(Box::new(message)),
        },
        _ => Inbound::Message(Box::new(message)),
    }
}

/// The reply to JSON that is not a message rmcp reads.
fn rejected(value: &Value) -> Inbound {
    let method = value.get("method").and_then(Value::as_str);
    let id = request_id(value);
    let has_id = value.get("id").is_some();
    if !has_id && method.is_some_and(|m| !is_request_method(m)) {
        // A notification gets no reply, not even an error.
        return Inbound::Ignored;
    }
    let invalid = |message: String| {
        Inbound::Rejected(error_reply(
            id.clone(),
            ErrorData::invalid_request(message, None),
        ))
    };
    if value.is_array() {
        return invalid(
            "Invalid request: a batch (a JSON array of messages) is not part of MCP; \
             send one message at a time"
                .to_owned(),
        );
    }
    if value.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return invalid("Invalid request: a message needs `\"jsonrpc\": \"2.0\"`".to_owned());
    }
    if has_id && id.is_none() {
        return invalid(
            "Invalid request: `id` must be a string or an integer (not null)".to_owned(),
        );
    }
    let Some(method) = method else {
        return invalid(
            "Invalid request: a message needs a `method` (a request or a notification), or \
             an `id` with a `result` or an `error` (a response)"
                .to_owned(),
        );
    };
    if !has_id {
        return invalid(format!(
            "Invalid request: `{}` is a request and needs an `id`",
            clip(method)
        ));
    }
    let protocol = requested_protocol(value.get("params"));
    Inbound::Rejected(error_reply(id, custom_request_error(method, protocol)))
}

/// The `_meta` key of the protocol version a request names for itself (2026-07-28 on):
/// one constant for every reader of it.
pub(crate) const PROTOCOL_VERSION_KEY: &str = "io.modelcontextprotocol/protocolVersion";

/// The protocol version a request names in its own `_meta` (from 2026-07-28 on).
fn requested_protocol(params: Option<&Value>) -> Option<&str> {
    params?.get("_meta")?.get(PROTOCOL_VERSION_KEY)?.as_str()
}

/// What is wrong with the `params` of a known request.
fn invalid_params(method: &str) -> String {
    let expected = match method {
        "tools/call" => {
            "`params.name`, the tool's name as a string, and optionally `params.arguments`, \
             an object"
        }
        "initialize" => {
            "`params.protocolVersion` (a string), `params.capabilities` (an object) and \
             `params.clientInfo` (with `name` and `version`)"
        }
        "resources/read" | "resources/subscribe" | "resources/unsubscribe" => {
            "`params.uri`, a string"
        }
        "prompts/get" => "`params.name`, a string, and optionally `params.arguments`, an object",
        "logging/setLevel" => "`params.level`, one of the syslog levels (`debug` ... `emergency`)",
        _ => "an object with the fields the MCP specification gives them",
    };
    format!("Invalid params: `{}` needs {expected}", clip(method))
}

/// What one session must remember that rmcp does not check: that `initialize` came
/// once. A second one would be answered by rmcp and leave the session in a state
/// where every later request fails.
#[derive(Debug, Default)]
pub(crate) struct Handshake {
    initialized: bool,
}

impl Handshake {
    /// Lets a message through, or refuses a second `initialize` and leaves the session
    /// as it was.
    pub(crate) fn admit(&mut self, inbound: Inbound) -> Inbound {
        if let Inbound::Message(message) = &inbound
            && let JsonRpcMessage::Request(request) = &**message
            && let ClientRequest::InitializeRequest(_) = &request.request
        {
            if self.initialized {
                let error = ErrorData::invalid_request(
                    "Invalid request: this session is already initialized; a client sends \
                     `initialize` once, as its first request",
                    None,
                );
                return Inbound::Rejected(error_reply(Some(request.id.clone()), error));
            }
            self.initialized = true;
        }
        inbound
    }
}

/// The error for a request `rmcp` read as a method of its own, of `protocol` where the
/// request or its session names one: a known method whose `params` do not have their
/// shape (`invalid params`), or an unknown method, as is a method the protocol removed.
pub(crate) fn custom_request_error(method: &str, protocol: Option<&str>) -> ErrorData {
    if is_request_method(method) && !protocol.is_some_and(|p| removed_in(method, p)) {
        ErrorData::invalid_params(invalid_params(method), None)
    } else {
        ErrorData::new(
            ErrorCode::METHOD_NOT_FOUND,
            format!("Method not found: `{}`", clip(method)),
            None,
        )
    }
}

/// An `Invalid request` reply without an id, saying `message`.
pub(crate) fn invalid_request(message: String) -> Vec<u8> {
    error_reply(None, ErrorData::invalid_request(message, None))
}

/// A reply without an id for a request the server has no room for now, in JSON-RPC's
/// range of errors a server defines (`-32000`).
#[cfg(feature = "http")]
pub(crate) fn busy(message: String) -> Vec<u8> {
    error_reply(None, ErrorData::new(ErrorCode(-32000), message, None))
}

/// A reply without an id for a request refused for its credentials (`401`, `403`), in
/// JSON-RPC's range of errors a server defines.
#[cfg(feature = "http")]
pub(crate) fn unauthorized(message: String) -> Vec<u8> {
    error_reply(None, ErrorData::new(ErrorCode(-32001), message, None))
}

/// The reply for a message longer than a transport accepts.
pub(crate) fn too_long(limit: usize) -> Vec<u8> {
    invalid_request(format!(
        "Invalid request: the message is longer than {limit} bytes"
    ))
}

/// Encodes one outgoing message, followed by a newline. An error reply without an id
/// gets `"id": null`, as JSON-RPC 2.0 requires.
pub(crate) fn encode(message: &ServerJsonRpcMessage) -> Result<Vec<u8>, serde_json::Error> {
    let mut bytes = match message {
        JsonRpcMessage::Error(error) if error.id.is_none() => {
            return Ok(error_reply(None, error.error.clone()));
        }
        other => serde_json::to_vec(other)?,
    };
    bytes.push(b'\n');
    Ok(bytes)
}

/// A notification of `method` with `params`, encoded as a line: what the line
/// transport's outbox writes.
pub(crate) fn encode_notification<P: Serialize>(
    method: &'static str,
    params: &P,
) -> Result<Vec<u8>, serde_json::Error> {
    #[derive(Serialize)]
    struct Notification<'a, P> {
        jsonrpc: JsonRpcVersion2_0,
        method: &'static str,
        params: &'a P,
    }
    let mut bytes = Vec::with_capacity(128);
    let notification = Notification {
        jsonrpc: JsonRpcVersion2_0,
        method,
        params,
    };
    serde_json::to_writer(&mut bytes, &notification)?;
    bytes.push(b'\n');
    Ok(bytes)
}

/// An error reply with the given id (`null` when the request's id is unknown).
pub(crate) fn error_reply(id: Option<RequestId>, error: ErrorData) -> Vec<u8> {
    #[derive(Serialize)]
    struct ErrorReply {
        jsonrpc: JsonRpcVersion2_0,
        id: Option<RequestId>,
        error: ErrorData,
    }
    let reply = ErrorReply {
        jsonrpc: JsonRpcVersion2_0,
        id,
        error,
    };
    let mut bytes = serde_json::to_vec(&reply).unwrap_or_else(|_| {
        // Unreachable (the reply is made of strings and numbers); still a valid reply.
        let code = ErrorCode::INTERNAL_ERROR.0;
        format!(
            r#"{{"jsonrpc":"2.0","id":null,"error":{{"code":{code},"message":"Internal error"}}}}"#
        )
        .into_bytes()
    });
    bytes.push(b'\n');
    bytes
}

/// The id of a message, when it has one of a valid type.
fn request_id(value: &Value) -> Option<RequestId> {
    match value.get("id")? {
        Value::Number(number) => number.as_i64().map(RequestId::Number),
        Value::String(text) => Some(RequestId::String(text.as_str().into())),
        _ => None,
    }
}

/// Requests a client may send.
fn is_request_method(method: &str) -> bool {
    matches!(
        method,
        "initialize"
            | "ping"
            | "server/discover"
            | "prompts/get"
            | "prompts/list"
            | "resources/list"
            | "resources/read"
            | "resources/subscribe"
            | "resources/unsubscribe"
            | "resources/templates/list"
            | "subscriptions/listen"
            | "tools/call"
            | "tools/list"
            | "completion/complete"
            | "logging/setLevel"
    )
}

/// Whether protocol `version` no longer has the request `method`: 2026-07-28 removed
/// the handshake, `ping`, `logging/setLevel` and resource subscriptions.
fn removed_in(method: &str, version: &str) -> bool {
    // Protocol versions are dates: they compare as strings.
    version >= ProtocolVersion::NO_INITIALIZE.as_str()
        && matches!(
            method,
            "initialize"
                | "ping"
                | "logging/setLevel"
                | "resources/subscribe"
                | "resources/unsubscribe"
        )
}

/// Notifications a client may send.
fn is_notification_method(method: &str) -> bool {
    matches!(
        method,
        "notifications/cancelled"
            | "notifications/initialized"
            | "notifications/progress"
            | "notifications/roots/list_changed"
    )
}

/// A method name as quoted in a message: short, as sent by a client.
fn clip(text: &str) -> String {
    text.chars().take(64).collect()
}
