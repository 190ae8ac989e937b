//! Who is calling: the client's identity and capabilities, and a request's id.

use std::fmt;

use serde_json::Value;

/// The client a call came from, as it introduced itself.
///
/// ```standalone_crate
/// use mcp_tool::{Context, mcp_tool};
///
/// /// Returns the name of the client that calls it.
/// #[mcp_tool]
/// fn whoami(ctx: Context) -> String {
///     ctx.client().map_or_else(|| "unknown".to_owned(), |client| client.name.clone())
/// }
/// # fn main() {}
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ClientInfo {
    /// The client's name (`clientInfo.name`).
    pub name: String,
    /// The client's version (`clientInfo.version`).
    pub version: String,
    /// The client's capabilities, as it sent them (`{"sampling": {}, ...}`).
    pub capabilities: Value,
    /// The protocol version in use, when known.
    pub protocol_version: Option<String>,
}

impl ClientInfo {
    /// Whether the client declared the capability `name` (`"sampling"`, `"elicitation"`,
    /// `"roots"`, ...).
    ///
    /// ```
    /// # let client = mcp_tool::model::ClientInfo::example();
    /// let can_sample = client.has_capability("sampling");
    /// # assert!(can_sample);
    /// ```
    pub fn has_capability(&self, name: &str) -> bool {
        self.capabilities.get(name).is_some_and(|c| !c.is_null())
    }

    #[doc(hidden)]
    pub fn example() -> Self {
        Self {
            name: "example-client".to_owned(),
            version: "1.0.0".to_owned(),
            capabilities: serde_json::json!({ "sampling": {} }),
            protocol_version: None,
        }
    }
}

/// The id of a JSON-RPC request: a number or a string, as the client chose it.
///
/// ```
/// use mcp_tool::model::RequestId;
///
/// assert_eq!(RequestId::Number(7).to_string(), "7");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum RequestId {
    /// A numeric id.
    Number(i64),
    /// A string id.
    Text(String),
}

impl fmt::Display for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RequestId::Number(number) => write!(f, "{number}"),
            RequestId::Text(text) => f.write_str(text),
        }
    }
}
