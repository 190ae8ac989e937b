#![doc = include_str!("../../README.md")]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![cfg_attr(not(test), warn(clippy::unwrap_used))]

mod args;
mod argument_errors;
mod call;
mod constraint;
mod error;
mod failure;
mod failure_report;
mod lines;
pub mod logging;
pub mod masking;
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
pub use crate::error::{ServerError, ToolError};
pub use crate::failure::IntoFailure;
pub use crate::output::{IntoContent, ToolOutput};
pub use crate::param::ToolParam;
pub use crate::registry::{ToolEntry, registered};
pub use crate::server::Server;
pub use crate::tool_server::ToolServer;

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

    pub use crate::args::ArgReader;
    pub use crate::call::{CallInput, ToolFuture, async_reply, fail, sync_reply};
    pub use crate::failure::Failure;
    pub use crate::output::{
        ContentKind, ContentResultKind, ContentValueKind, DisplayErrorKind, ErrorResultKind,
        OutputSpec, Probe, ResultKind, StdErrorKind, StructuredKind, StructuredValueKind,
        ToolReply,
    };
    pub use crate::param::{Bound, ParamSpec, ParamType, Pattern, param_type, schema_for};
    pub use crate::registry::ToolSpec;
}
