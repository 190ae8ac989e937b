//! A tool's result, for a tool that wants full control of what the client reads.

use serde_json::Value;

use super::Content;

/// The result of a tool call: content blocks, an optional structured value, and
/// whether the call failed.
///
/// Most tools never build one: returning a value, a `String` or content blocks is
/// enough. Return a `ToolResult` to send content and a structured value together, or
/// to report a failure with content of your own.
///
/// ```standalone_crate
/// use mcp_tool::mcp_tool;
/// use mcp_tool::model::{Content, ToolResult};
///
/// /// Checks a configuration file and returns every problem found in it.
/// #[mcp_tool]
/// fn check_config(
///     /// The configuration, as TOML text.
///     text: String,
/// ) -> ToolResult {
///     let problems: Vec<String> = text
///         .lines()
///         .filter(|line| line.contains("=="))
///         .map(|line| format!("`{line}`: `==` is not an assignment"))
///         .collect();
///     let summary = Content::text(format!("{} problem(s)", problems.len()));
///     ToolResult::new(vec![summary])
///         .with_structured(serde_json::json!({ "problems": problems }))
///         .with_error(!problems.is_empty())
/// }
/// # fn main() {}
/// ```
///
/// Converting from and to rmcp's `CallToolResult` (in `model` under `mcp_tool::rmcp`,
/// with the feature `rmcp`) with `From` is possible for programs that build rmcp's types
/// themselves; it is outside this crate's
/// compatibility promise, as everything under `mcp_tool::rmcp` is.
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct ToolResult {
    /// What the model reads.
    pub content: Vec<Content>,
    /// A JSON value matching the tool's output schema, if it has one.
    pub structured: Option<Value>,
    /// Whether the call failed: the model reads the content as an error it can act on.
    pub is_error: bool,
}

impl ToolResult {
    /// A successful result with these blocks.
    pub fn new(content: Vec<Content>) -> Self {
        Self {
            content,
            structured: None,
            is_error: false,
        }
    }

    /// A failed call, explained by these blocks.
    ///
    /// ```
    /// use mcp_tool::model::{Content, ToolResult};
    ///
    /// let failed = ToolResult::error(vec![Content::text("the index is still building; retry in a minute")]);
    /// assert!(failed.is_error);
    /// ```
    pub fn error(content: Vec<Content>) -> Self {
        Self {
            is_error: true,
            ..Self::new(content)
        }
    }

    /// The same result with a structured value.
    pub fn with_structured(mut self, value: Value) -> Self {
        self.structured = Some(value);
        self
    }

    /// The same result, marked failed or not.
    pub fn with_error(mut self, is_error: bool) -> Self {
        self.is_error = is_error;
        self
    }

    /// The text blocks, joined by newlines.
    ///
    /// ```
    /// use mcp_tool::model::{Content, ToolResult};
    ///
    /// let result = ToolResult::new(vec![Content::text("a"), Content::image([0], "image/png"), Content::text("b")]);
    /// assert_eq!(result.text(), "a\nb");
    /// ```
    pub fn text(&self) -> String {
        let mut texts = self.content.iter().filter_map(Content::as_text);
        let mut joined = texts.next().unwrap_or_default().to_owned();
        for text in texts {
            joined.push('\n');
            joined.push_str(text);
        }
        joined
    }
}

impl From<Vec<Content>> for ToolResult {
    fn from(content: Vec<Content>) -> Self {
        Self::new(content)
    }
}

impl From<Content> for ToolResult {
    fn from(content: Content) -> Self {
        Self::new(vec![content])
    }
}
