//! The MCP values a tool, a test and a server touch: content, a tool's result, a
//! tool's description, in mcp-tool's own types.
//!
//! They follow the MCP specification (2025-11-25), not any SDK: a new major version
//! of `rmcp`, the SDK the runtime serves with, changes none of them. Converting to and
//! from rmcp's types happens inside the runtime, in one place; for the rare program
//! that needs rmcp's own types, `mcp_tool::rmcp` (the feature `rmcp`) is the escape hatch.
//!
//! The types, by what they describe:
//!
//! - **What a tool returns**: [`Content`] ([`Text`], [`Media`] for an image or audio, a
//!   [`Resource`] embedded, a [`ResourceLink`]), each with [`Annotations`] for a
//!   [`Role`]; the whole [`ToolResult`] as a test reads it.
//! - **What a server lists**: [`ToolInfo`] with its [`ToolAnnotations`], [`Icon`]s and
//!   [`TaskSupport`], shown under a [`SchemaProfile`] (a name no profile has is an
//!   [`UnknownSchemaProfile`]); [`PromptInfo`] and its [`PromptArgument`]s; [`ResourceInfo`] and
//!   [`ResourceTemplateInfo`].
//! - **What a prompt or a resource answers**: [`PromptResult`] of [`PromptMessage`]s,
//!   [`ResourceContents`], and a [`Completion`] of an argument.
//! - **Who asks**: the caller's [`Auth`] and its [`Principal`], the client's [`ClientInfo`], a request's
//!   [`RequestId`], and the [`Root`]s the client shares.
//! - **What a tool asks the client**: an [`ElicitationRequest`] answered by an
//!   [`Elicitation`]; a [`SamplingRequest`] of [`SamplingMessage`]s with its
//!   [`ModelPreferences`], answered by a [`SamplingResponse`].
//! - **What a server tells the client**: a [`Notification`] ([`Progress`], a
//!   [`LogMessage`] at a [`LogLevel`]).
//!
//! A tool that returns content instead of structured output builds it from these:
//!
//! ```standalone_crate
//! use mcp_tool::mcp_tool;
//! use mcp_tool::model::{Annotations, Content, Role};
//!
//! /// Returns a one-pixel PNG with a caption for the user.
//! #[mcp_tool]
//! fn pixel() -> Vec<Content> {
//!     const PNG: &[u8] = b"\x89PNG\r\n\x1a\n";
//!     vec![
//!         Content::text("a single pixel")
//!             .with_annotations(Annotations::new().with_audience([Role::User])),
//!         Content::image(PNG, "image/png"),
//!     ]
//! }
//! # fn main() {}
//! ```

mod auth;
mod client_info;
mod content;
mod elicitation;
mod log_level;
mod notification;
mod prompt;
mod resource_info;
mod root;
mod sampling;
mod schema_profile;
mod tool_info;
mod tool_result;

pub use auth::{Auth, Principal};
pub use client_info::{ClientInfo, RequestId};
pub use content::{
    Annotations, Content, Media, Resource, ResourceContents, ResourceLink, Role, Text,
};
pub use elicitation::{Elicitation, ElicitationRequest};
pub use log_level::LogLevel;
pub use notification::{LogMessage, Notification, Progress};
pub use prompt::{PromptArgument, PromptInfo, PromptMessage, PromptResult};
pub use resource_info::{Completion, ResourceInfo, ResourceTemplateInfo};
pub use root::Root;
pub use sampling::{ModelPreferences, SamplingMessage, SamplingRequest, SamplingResponse};
pub use schema_profile::{SchemaProfile, UnknownSchemaProfile};
pub use tool_info::{Icon, TaskSupport, ToolAnnotations, ToolInfo};
pub use tool_result::ToolResult;
