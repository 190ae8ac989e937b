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
    /// Images a client may show beside it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub icons: Vec<Icon>,
    /// Its `_meta`: `meta = r#"{...}"#` from the attribute, and its tags, under the key
    /// `"mcp-tool/tags"`.
    #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
    /// The scopes an access token must grant to call it over HTTP, as
    /// `#[mcp_tool(scopes = [...])]` or [`RuntimeTool::scopes`](crate::RuntimeTool::scopes)
    /// gives them; never sent to clients, which learn them from a `403`.
    #[serde(skip)]
    pub scopes: Vec<String>,
}

/// An image for a tool, as `#[mcp_tool(icons = [...])]` gives it.
///
/// ```standalone_crate
/// /// Finds files whose name matches a pattern.
/// #[mcp_tool::mcp_tool(icons = ["https://example.com/find.svg"])]
/// fn find(pattern: String) -> Vec<String> { vec![pattern] }
///
/// # fn main() -> Result<(), mcp_tool::ServerError> {
/// let server = mcp_tool::Server::from_registry("files", "1.0.0").build()?;
/// let icon = &server.tools()[0].icons[0];
/// assert_eq!(icon.src, "https://example.com/find.svg");
/// assert_eq!(icon.mime_type.as_deref(), Some("image/svg+xml"));
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Icon {
    /// The image's URI: `https:`, `http:` or `data:`.
    pub src: String,
    /// Its media type, from a `data:` URI's header or the file's extension, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
}

impl Icon {
    /// An icon at `src`, with the media type its URI tells.
    ///
    /// ```
    /// use mcp_tool::model::Icon;
    ///
    /// assert_eq!(Icon::new("https://example.com/a.png").mime_type.as_deref(), Some("image/png"));
    /// assert_eq!(Icon::new("data:image/webp;base64,AAAA").mime_type.as_deref(), Some("image/webp"));
    /// assert_eq!(Icon::new("https://example.com/icon").mime_type, None);
    /// ```
    pub fn new(src: impl Into<String>) -> Self {
        let src = src.into();
        let mime_type = icon_type(&src).map(str::to_owned);
        Self { src, mime_type }
    }
}

/// The media type of an icon's URI, when it shows one.
fn icon_type(src: &str) -> Option<&str> {
    if let Some(data) = src.strip_prefix("data:") {
        let end = data.find([';', ','])?;
        return Some(&data[..end]).filter(|t| t.starts_with("image/"));
    }
    let path = src.split(['?', '#']).next().unwrap_or(src);
    let extension = path.rsplit_once('.')?.1.to_ascii_lowercase();
    Some(match extension.as_str() {
        "png" => "image/png",
        "svg" => "image/svg+xml",
        "jpg" | "jpeg" => "image/jpeg",
        "webp" => "image/webp",
        "gif" => "image/gif",
        "ico" => "image/x-icon",
        _ => return None,
    })
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

/// Whether a call of a tool may run as a task, with the tasks extension
/// (`io.modelcontextprotocol/tasks`): the client gets a task id at once, polls the task
/// with `tasks/get`, answers its questions with `tasks/update` and may cancel it with
/// `tasks/cancel`, while the tool's body runs on, unchanged.
///
/// Set with `#[mcp_tool(task = "optional")]` or `task = "required"`, or
/// [`RuntimeTool::task`](crate::RuntimeTool::task).
///
/// ```
/// use mcp_tool::model::TaskSupport;
///
/// assert_eq!(TaskSupport::default(), TaskSupport::Forbidden);
/// assert!(TaskSupport::Required.allows_tasks());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum TaskSupport {
    /// Every call runs within its request (the default).
    #[default]
    Forbidden,
    /// A call from a client that declares the tasks extension runs as a task; other
    /// calls run within their request.
    Optional,
    /// Every call runs as a task: a client that does not declare the tasks extension
    /// is refused with the protocol's missing-capability error (-32021).
    Required,
}

impl TaskSupport {
    /// Whether a call may run as a task.
    #[must_use]
    pub fn allows_tasks(self) -> bool {
        !matches!(self, Self::Forbidden)
    }
}
