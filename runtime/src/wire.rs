//! JSON-RPC messages as bytes: each incoming message is decoded once, into `rmcp`'s
//! message type; what does not decode is answered here with the JSON-RPC error it
//! deserves, since `rmcp` would drop it without a word. Independent of framing, so
//! any transport (newline-delimited streams, HTTP bodies) decodes and encodes here.

use rmcp::model::{
    ClientJsonRpcMessage, ErrorCode, ErrorData, JsonRpcMessage, JsonRpcVersion2_0, RequestId,
    ServerJsonRpcMessage,
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
    let error = match serde_json::from_slice::<ClientJsonRpcMessage>(bytes) {
        Ok(message) => return Inbound::Message(Box::new(message)),
        Err(error) => error,
    };
    if !error.is_data() {
        // Not JSON at all (also `NaN`, nesting past serde_json's limit, a lone
        // surrogate): there is no id to read.
        let message = format!("Parse error: the message is not valid JSON ({error})");
        return Inbound::Rejected(error_reply(None, ErrorData::parse_error(message, None)));
    }
    // JSON, but not a message: parsed again as a plain value to find its id and method,
    // on this failure path only.
    let value: Value = serde_json::from_slice(bytes).unwrap_or(Value::Null);
    let method = value.get("method").and_then(Value::as_str);
    let id = request_id(&value);
    if id.is_none() && method.is_some_and(|m| !is_known_method(m)) {
        return Inbound::Ignored;
    }
    let message = if value.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        "Invalid request: a message needs `\"jsonrpc\": \"2.0\"`".to_owned()
    } else {
        match method {
            Some(method) => format!(
                "Invalid request: the `params` of `{}` do not have the shape the MCP \
                 specification gives them",
                clip(method)
            ),
            None => "Invalid request: a message needs a `method` (a request or a \
                     notification), or an `id` with a `result` or an `error` (a response)"
                .to_owned(),
        }
    };
    Inbound::Rejected(error_reply(id, ErrorData::invalid_request(message, None)))
}

/// The reply for a message longer than a transport accepts.
pub(crate) fn too_long(limit: usize) -> Vec<u8> {
    let message = format!("Invalid request: the message is longer than {limit} bytes");
    error_reply(None, ErrorData::invalid_request(message, None))
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

/// An error reply with the given id (`null` when the request's id is unknown).
fn error_reply(id: Option<RequestId>, error: ErrorData) -> Vec<u8> {
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

/// Methods a client may send; a malformed notification of any other is dropped.
fn is_known_method(method: &str) -> bool {
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
            | "notifications/cancelled"
            | "notifications/initialized"
            | "notifications/progress"
            | "notifications/roots/list_changed"
    )
}

/// A method name as quoted in a message: short, as sent by a client.
fn clip(text: &str) -> String {
    text.chars().take(64).collect()
}
