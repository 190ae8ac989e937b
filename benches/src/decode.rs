//! Decoding one incoming message: ours (`mcp_tool`'s envelope, which reads `method` first
//! and `params` straight into their types) beside rmcp's
//! `serde_json::from_slice::<ClientJsonRpcMessage>`, for a `tools/call` with small
//! arguments (`add`) and with about 1 KiB of them (`summarize`). The benchmark `decode`
//! times them and the binary `decode-count` repeats them for callgrind.

use rmcp::model::ClientJsonRpcMessage;
use serde_json::{Map, Value, json};

use crate::payload::{add_arguments, summarize_arguments};

/// The messages decoded, by name: `small` and `large`.
pub const SIZES: [&str; 2] = ["small", "large"];

/// The decoders, by name: `ours` and `rmcp`.
pub const STYLES: [&str; 2] = ["ours", "rmcp"];

/// A `tools/call` as a client sends it, without its newline.
fn call(name: &str, arguments: Map<String, Value>) -> Vec<u8> {
    let message = json!({
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": { "name": name, "arguments": arguments },
    });
    message.to_string().into_bytes()
}

/// The message of `size` (`small`: `add`'s two integers; `large`: `summarize`'s report).
pub fn message(size: &str) -> Option<Vec<u8>> {
    match size {
        "small" => Some(call("add", add_arguments(40, 2))),
        "large" => Some(call("summarize", summarize_arguments())),
        _ => None,
    }
}

/// Decodes `bytes` in `style`: the message, when it is one.
pub fn decode(style: &str, bytes: &[u8]) -> Option<Box<ClientJsonRpcMessage>> {
    match style {
        "ours" => mcp_tool::__private::decode_message(bytes),
        _ => serde_json::from_slice(bytes).ok().map(Box::new),
    }
}
