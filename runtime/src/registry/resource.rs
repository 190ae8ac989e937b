//! Resources registered by `#[mcp_resource]`: what the attribute knows of each, and what
//! a resource function may return.

use crate::call::future::{CallFuture, CallInput};
use crate::call::param::ParamSpec;
use crate::model::ResourceContents;
use crate::outcome::failure::{Failure, IntoFailure};
use crate::registry::completion::Completer;

/// One resource registered by `#[mcp_resource]`: a fixed URI, or a URI template whose
/// variables are the function's parameters, which
/// [`Server::from_registry`](crate::Server::from_registry) serves.
pub struct ResourceEntry {
    spec: ResourceSpec,
}

/// Where a resource is: one URI, or every URI a template matches.
#[doc(hidden)]
#[derive(Debug, Clone, Copy)]
pub enum Address {
    Uri(&'static str),
    Template(&'static str),
}

/// What the attribute knows about a resource at compile time.
#[doc(hidden)]
#[derive(Debug)]
pub struct ResourceSpec {
    pub address: Address,
    pub name: &'static str,
    pub description: &'static str,
    pub title: Option<&'static str>,
    pub mime_type: Option<&'static str>,
    pub icons: &'static [&'static str],
    /// `scopes = [...]`: what a token must grant to read it over HTTP.
    pub scopes: &'static [&'static str],
    /// `meta = "..."`: a JSON object's text, checked by the attribute.
    pub meta: Option<&'static str>,
    pub params: &'static [ParamSpec],
    pub completions: &'static [Completer],
    pub call: fn(&CallInput<'_>) -> CallFuture<ResourceReply>,
    pub file: &'static str,
    pub line: u32,
    pub module_path: &'static str,
}

impl ResourceEntry {
    #[doc(hidden)]
    pub const fn __new(spec: ResourceSpec) -> Self {
        Self { spec }
    }

    /// The resource's URI, or its URI template.
    pub fn uri(&self) -> &'static str {
        match self.spec.address {
            Address::Uri(uri) | Address::Template(uri) => uri,
        }
    }

    /// Whether [`uri`](Self::uri) is a template.
    pub fn is_template(&self) -> bool {
        matches!(self.spec.address, Address::Template(_))
    }

    /// The resource's name.
    pub fn name(&self) -> &'static str {
        self.spec.name
    }

    /// The resource's description, as clients show it.
    pub fn description(&self) -> &'static str {
        self.spec.description
    }

    /// Where the resource is defined, as `file:line`.
    pub fn location(&self) -> String {
        format!("{}:{}", self.spec.file, self.spec.line)
    }

    pub(crate) fn spec(&self) -> &ResourceSpec {
        &self.spec
    }

    /// The types of the `State<T>` parameters the resource asks for.
    pub(crate) fn states(&self) -> impl Iterator<Item = (std::any::TypeId, &'static str)> {
        crate::call::param::states(self.spec.params)
    }
}

impl std::fmt::Debug for ResourceEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ResourceEntry")
            .field("uri", &self.uri())
            .field("location", &self.location())
            .finish_non_exhaustive()
    }
}

inventory::collect!(ResourceEntry);

/// Every resource registered in this program, by URI (or template).
pub(crate) fn registered_resources() -> Vec<&'static ResourceEntry> {
    let mut entries: Vec<_> = inventory::iter::<ResourceEntry>.into_iter().collect();
    entries.sort_by(|a, b| {
        (a.uri(), a.spec.file, a.spec.line).cmp(&(b.uri(), b.spec.file, b.spec.line))
    });
    entries
}

/// What a resource function gave, before the URI it was read at and its MIME type are
/// set.
#[doc(hidden)]
#[derive(Debug)]
pub enum ResourceReply {
    Text(String),
    Bytes(Vec<u8>),
    Contents(Vec<ResourceContents>),
}

/// What a `#[mcp_resource]` function may return: text (`String`, `&'static str`),
/// bytes (`Vec<u8>`, sent base64-encoded as a blob), one or several
/// [`ResourceContents`] (each with its own URI and MIME type), or a `Result` of one of
/// them whose error is a [`ToolError`](crate::ToolError) or any other error type. Text
/// and bytes take the resource's URI as read and the attribute's `mime_type`.
///
/// ```
/// /// The server's configuration, as TOML.
/// #[mcp_tool::mcp_resource(uri = "config://app", mime_type = "application/toml")]
/// fn config() -> String {
///     "debug = false\n".to_owned()
/// }
/// # fn main() {}
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a resource's contents",
    label = "a resource returns text, bytes or contents",
    note = "return a `String` (text), a `Vec<u8>` (bytes), an `mcp_tool::model::ResourceContents`, a `Vec<ResourceContents>`, or a `Result` of one of them"
)]
pub trait IntoResource {
    #[doc(hidden)]
    fn into_resource(self) -> Result<ResourceReply, Failure>;
}

impl IntoResource for String {
    fn into_resource(self) -> Result<ResourceReply, Failure> {
        Ok(ResourceReply::Text(self))
    }
}

impl IntoResource for &'static str {
    fn into_resource(self) -> Result<ResourceReply, Failure> {
        Ok(ResourceReply::Text(self.to_owned()))
    }
}

impl IntoResource for Vec<u8> {
    fn into_resource(self) -> Result<ResourceReply, Failure> {
        Ok(ResourceReply::Bytes(self))
    }
}

impl IntoResource for ResourceContents {
    fn into_resource(self) -> Result<ResourceReply, Failure> {
        Ok(ResourceReply::Contents(vec![self]))
    }
}

impl IntoResource for Vec<ResourceContents> {
    fn into_resource(self) -> Result<ResourceReply, Failure> {
        Ok(ResourceReply::Contents(self))
    }
}

impl<T: IntoResource, E: IntoFailure> IntoResource for Result<T, E> {
    fn into_resource(self) -> Result<ResourceReply, Failure> {
        self.map_err(IntoFailure::into_failure)?.into_resource()
    }
}

/// Generated code's conversion of a resource function's result.
#[doc(hidden)]
pub fn resource_reply<R: IntoResource>(result: R) -> Result<ResourceReply, Failure> {
    result.into_resource()
}

impl ResourceReply {
    /// The contents as read at `uri`; text and bytes take `mime_type`, or a default.
    pub(crate) fn into_contents(self, uri: &str, mime_type: Option<&str>) -> Vec<ResourceContents> {
        match self {
            ResourceReply::Text(text) => vec![
                ResourceContents::text(uri, text).with_mime_type(mime_type.unwrap_or("text/plain")),
            ],
            ResourceReply::Bytes(bytes) => vec![
                ResourceContents::blob(uri, bytes)
                    .with_mime_type(mime_type.unwrap_or("application/octet-stream")),
            ],
            ResourceReply::Contents(contents) => contents,
        }
    }
}
