#![doc = include_str!("../../README.md")]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![cfg_attr(not(test), warn(clippy::unwrap_used))]

mod args;
mod argument_errors;
mod bridge;
mod call;
mod constraint;
mod error;
mod failure;
mod failure_report;
mod lines;
pub mod logging;
pub mod masking;
pub mod model;
mod output;
mod panics;
mod param;
mod registry;
mod schema;
mod server;
mod suggest;
pub mod testing;
mod tool_server;
mod wire;

pub use mcp_tool_macros::mcp_tool;

pub use crate::constraint::{LengthArg, PatternArg, RangeArg};
pub use crate::error::{CallError, ServerError, ToolError};
pub use crate::failure::IntoFailure;
pub use crate::output::{IntoContent, ToolOutput};
pub use crate::param::ToolParam;
pub use crate::registry::{ToolEntry, registered};
pub use crate::server::Server;
pub use crate::tool_server::ToolServer;

/// The version of `rmcp`, the MCP SDK the runtime serves with, that this crate uses:
/// an escape hatch for programs that need rmcp's own types, with the feature `rmcp`.
///
/// Nothing under this path is covered by mcp-tool's compatibility promise: a new
/// version of mcp-tool may move to a new major version of rmcp, whose types differ.
/// That is why it takes a feature to reach it (`mcp-tool = { version = "…",
/// features = ["rmcp"] }`); without the feature, no rmcp type is in reach, and a
/// program that compiles today compiles with the next rmcp too. (The re-export also
/// lengthens some of the compiler's messages: it makes `String` print as
/// `std::string::String`, one more reason to leave it off.)
///
/// A tool that must build rmcp's result itself converts it explicitly:
///
/// ```standalone_crate
/// use mcp_tool::model::ToolResult;
/// use mcp_tool::rmcp::model::{CallToolResult, ContentBlock};
///
/// /// Returns a greeting built with rmcp's types.
/// #[mcp_tool::mcp_tool]
/// fn greet() -> ToolResult {
///     CallToolResult::success(vec![ContentBlock::text("hello")]).into()
/// }
/// # fn main() {}
/// ```
#[cfg(feature = "rmcp")]
#[cfg_attr(docsrs, doc(cfg(feature = "rmcp")))]
pub use ::rmcp;

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

    pub use crate::args::ArgReader;
    pub use crate::call::{CallInput, ToolFuture, async_reply, fail, sync_reply};
    pub use crate::failure::Failure;
    pub use crate::output::{
        ContentKind, ContentResultKind, ErrorResultKind, OutputSpec, Probe, ResultKind,
        StructuredKind, ToolReply,
    };
    pub use crate::param::{Bound, ParamSpec, ParamType, Pattern, param_type, schema_for};
    pub use crate::registry::ToolSpec;
}
