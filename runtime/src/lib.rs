#![doc = include_str!("../../README.md")]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![cfg_attr(not(test), warn(clippy::unwrap_used))]

mod args;
mod call;
mod error;
pub mod logging;
pub mod masking;
mod panics;
mod registry;
mod report;
mod schema;
mod server;
mod stdio;
mod suggest;
pub mod testing;

pub use mcp_tool_macros::mcp_tool;

pub use crate::args::{LengthArg, PatternArg, RangeArg, ToolParam};
pub use crate::call::{IntoContent, IntoFailure, ToolOutput};
pub use crate::error::{ServerError, ToolError};
pub use crate::registry::{ToolEntry, registered};
pub use crate::server::{Server, ToolServer};

/// The MCP types tools and tests use, from `rmcp`.
pub mod model {
    pub use rmcp::model::{CallToolResult, ContentBlock, Tool, ToolAnnotations};
}

/// Keeps the tools of crates that the program otherwise never references.
///
/// The linker drops a dependency crate that nothing uses, and with it the tools it
/// registered. Name each such crate once, in the binary:
///
/// ```
/// // `tokio` stands in for a crate of tools here.
/// mcp_tool::link!(tokio);
/// # fn main() {}
/// ```
#[macro_export]
macro_rules! link {
    ($($krate:ident),+ $(,)?) => {
        $(
            #[allow(unused_imports)]
            use $krate as _;
        )+
    };
}

/// What generated code uses. Not a public API: it changes without notice.
#[doc(hidden)]
pub mod __private {
    pub use ::inventory;
    pub use ::rmcp;
    pub use ::schemars;
    pub use ::serde;
    pub use ::serde_json;

    pub use crate::args::{ArgReader, Bound, ParamSpec, ParamType, Pattern, param_type};
    pub use crate::call::{
        CallInput, ContentKind, ContentResultKind, ErrorResultKind, Failure, OutputSpec, Probe,
        ResultKind, StructuredKind, ToolFuture, ToolReply, async_reply, fail, sync_reply,
    };
    pub use crate::registry::ToolSpec;
    pub use crate::schema::schema_for;
}
