//! The tools as a hand-written rmcp `ServerHandler`: the listing computed once from schemas
//! written as JSON text, a `match` on the tool name, serde for the arguments. The floor
//! that any framework adds to.

use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorData,
    Implementation, JsonObject, ListToolsResult, PaginatedRequestParams, ServerCapabilities,
    ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{RoleServer, ServerHandler};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use crate::descriptions;
use crate::payload::{self, AddArgs, SummarizeArgs};

/// The hand-written server.
#[derive(Debug, Clone)]
pub struct HandServer {
    tools: Arc<Vec<Tool>>,
}

impl HandServer {
    /// Computes the listing once, from schemas written by hand as JSON text: the same
    /// bytes that `#[mcp_tool]` lists for these tools (`tests/same_tools.rs` checks it).
    pub fn new() -> Self {
        let add = tool(
            "add",
            descriptions::ADD,
            include_str!("hand/add.input.json"),
        )
        .with_raw_output_schema(Arc::new(schema(include_str!("hand/add.output.json"))));
        let summarize = tool(
            "summarize",
            descriptions::SUMMARIZE,
            include_str!("hand/summarize.input.json"),
        )
        .with_raw_output_schema(Arc::new(schema(include_str!("hand/summarize.output.json"))));
        Self {
            tools: Arc::new(vec![add, summarize]),
        }
    }
}

impl Default for HandServer {
    fn default() -> Self {
        Self::new()
    }
}

/// A schema written as JSON text, parsed; an empty object if the text is not an object.
pub fn schema(text: &str) -> JsonObject {
    object(serde_json::from_str(text).unwrap_or(Value::Null))
}

/// The JSON object of a schema held as a JSON value.
pub fn object(value: Value) -> JsonObject {
    match value {
        Value::Object(object) => object,
        _ => JsonObject::new(),
    }
}

/// Decodes a call's arguments.
pub fn arguments<T: DeserializeOwned>(arguments: Option<JsonObject>) -> serde_json::Result<T> {
    serde_json::from_value(Value::Object(arguments.unwrap_or_default()))
}

/// The tool error for arguments that did not decode, as the spec asks.
pub fn rejected(tool: &str, error: &serde_json::Error) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(format!(
        "invalid arguments for tool `{tool}`: {error}"
    ))])
}

/// A tool whose input schema is written as JSON text, parsed once when the listing is built.
pub fn tool(name: &'static str, description: &'static str, schema: &str) -> Tool {
    Tool::new(name, description, self::schema(schema))
}

/// An integer argument; `None` if it is missing or not an integer.
pub fn integer(arguments: &JsonObject, name: &str) -> Option<i64> {
    arguments.get(name).and_then(Value::as_i64)
}

/// An optional string argument; `None` if it is there but not a string.
pub fn optional_string(arguments: &JsonObject, name: &str) -> Option<Option<String>> {
    match arguments.get(name) {
        None | Some(Value::Null) => Some(None),
        Some(Value::String(text)) => Some(Some(text.clone())),
        Some(_) => None,
    }
}

/// The tool error for arguments that do not fit the schema.
pub fn invalid(tool: &str) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(format!(
        "invalid arguments for tool `{tool}`"
    ))])
}

/// The reply to a call of a tool that does not exist.
pub fn unknown_tool(name: &str) -> ErrorData {
    ErrorData::invalid_params(format!("unknown tool `{name}`"), None)
}

impl ServerHandler for HandServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("bench-hand", env!("CARGO_PKG_VERSION")))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools.to_vec()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tools.iter().find(|t| t.name == name).cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let result = match request.name.as_ref() {
            "add" => match arguments::<AddArgs>(request.arguments) {
                Ok(AddArgs { a, b }) => {
                    CallToolResult::structured(json!({ "result": a.wrapping_add(b) }))
                }
                Err(error) => rejected("add", &error),
            },
            "summarize" => match arguments::<SummarizeArgs>(request.arguments) {
                Ok(SummarizeArgs { report }) => {
                    let summary = payload::summarize(&report);
                    let value = serde_json::to_value(summary)
                        .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
                    CallToolResult::structured(value)
                }
                Err(error) => rejected("summarize", &error),
            },
            other => return Err(unknown_tool(other)),
        };
        Ok(result.into())
    }
}
