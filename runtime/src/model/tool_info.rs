//! A tool as clients see it in `tools/list`.

use serde::Serialize;
use serde_json::{Map, Value};

/// A tool's description as the server lists it: name, title, description, schemas
/// and annotations. It serializes as the specification's `Tool` does.
///
/// ```standalone_crate
/// use mcp_tool::mcp_tool;
///
/// /// Adds two integers and returns their sum.
/// #[mcp_tool(title = "Add", read_only)]
/// fn add(a: i64, b: i64) -> i64 {
///     a + b
/// }
///
/// # fn main() -> Result<(), mcp_tool::ServerError> {
/// let server = mcp_tool::Server::from_registry("calculator", "1.0.0").build()?;
/// let add = &server.tools()[0];
/// assert_eq!(add.name, "add");
/// assert_eq!(add.title.as_deref(), Some("Add"));
/// assert_eq!(add.input_schema["required"], serde_json::json!(["a", "b"]));
/// assert_eq!(add.annotations.as_ref().and_then(|a| a.read_only), Some(true));
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ToolInfo {
    /// The name clients call it by.
    pub name: String,
    /// A title for people.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What it does, for the model.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The JSON Schema of its arguments (an object schema).
    pub input_schema: Map<String, Value>,
    /// The JSON Schema of its structured output, if it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output_schema: Option<Map<String, Value>>,
    /// Hints on how it behaves.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub annotations: Option<ToolAnnotations>,
}

/// Hints to the client on how a tool behaves. Clients must not rely on them for
/// safety: they are the server's word, not a guarantee.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct ToolAnnotations {
    /// A title for people.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The tool changes nothing in its environment (`readOnlyHint`).
    #[serde(rename = "readOnlyHint", skip_serializing_if = "Option::is_none")]
    pub read_only: Option<bool>,
    /// The tool may destroy or overwrite something, meaningful when it is not
    /// read-only (`destructiveHint`).
    #[serde(rename = "destructiveHint", skip_serializing_if = "Option::is_none")]
    pub destructive: Option<bool>,
    /// Calling it twice with the same arguments has no further effect
    /// (`idempotentHint`).
    #[serde(rename = "idempotentHint", skip_serializing_if = "Option::is_none")]
    pub idempotent: Option<bool>,
    /// The tool reaches an open world (the web, other people) rather than a closed
    /// one (`openWorldHint`).
    #[serde(rename = "openWorldHint", skip_serializing_if = "Option::is_none")]
    pub open_world: Option<bool>,
}
