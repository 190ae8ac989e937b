//! The server: what it serves, and each request answered from it.
//!
//! **Enters:** a request in this crate's types (a tool's name and arguments, a prompt,
//! a resource URI). **Leaves:** the answer, a [`ToolResult`](crate::model::ToolResult)
//! or a [`CallError`](crate::CallError). Holds the lists computed once at start-up,
//! finds the tool in its one table ([`tool_list`]), and drives the call with the one
//! driver ([`driver`]): its concurrency limit, time limit and cancellation. Sessions
//! reach it as [`Listener`](listeners::Listener)s and the call's
//! [`Request`](crate::call::session::Request), which the protocol implements.
//! **May import:** [`registry`](crate::registry), [`call`](crate::call),
//! [`outcome`](crate::outcome), [`model`](crate::model); never `rmcp`.

#[cfg(feature = "http")]
pub(crate) mod authorization;
pub(crate) mod builder;
pub(crate) mod catalog;
pub(crate) mod derived;
pub(crate) mod driver;
#[cfg(feature = "redis")]
pub(crate) mod fanout;
pub(crate) mod invoke;
pub(crate) mod listeners;
pub(crate) mod mount;
pub(crate) mod pipeline;
pub(crate) mod prompt_set;
pub(crate) mod resource_set;
pub(crate) mod scopes;
#[cfg(feature = "http")]
pub(crate) mod server_card;
pub(crate) mod settings;
pub(crate) mod subscriptions;
pub(crate) mod tasks;
pub(crate) mod tool_list;
pub(crate) mod tool_server;
pub(crate) mod tools;
