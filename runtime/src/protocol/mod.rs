//! The protocol seam: where bytes and `rmcp`'s types meet ours.
//!
//! **Enters:** bytes from a transport (stdio lines, Streamable HTTP), decoded once into
//! `rmcp`'s messages; requests from `rmcp`'s sessions. **Leaves:** each request handed to
//! the [`server`](crate::server) in this crate's own types, and its answer converted back
//! ([`bridge`] converts, [`handler`] is rmcp's `ServerHandler`, [`piped`] passes each
//! request through the pipeline, [`peer_session`] is how a call's `Context` reaches rmcp's
//! peer, [`mounted`] hands a mounted server's call to it, [`request_state`] and [`questions`] carry a call's rounds, [`call_reply`] turns a
//! call's outcome into rmcp's reply, [`direct_call`] answers a `tools/call` without
//! rmcp's service loop, as [`line_calls`] does over stdio, [`upstream`] serves another MCP
//! server through this one). **May import:** everything in the crate; this
//! is the one folder that speaks `rmcp` (`scripts/layout.py` checks it).

pub(crate) mod bridge;
pub(crate) mod call_reply;
pub(crate) mod direct_call;
pub(crate) mod handler;
#[cfg(feature = "http")]
pub(crate) mod http;
pub(crate) mod line_calls;
pub(crate) mod lines;
pub(crate) mod listings;
pub(crate) mod mounted;
pub(crate) mod peer_listeners;
pub(crate) mod peer_session;
pub(crate) mod piped;
pub(crate) mod questions;
pub(crate) mod request_state;
pub(crate) mod stdio;
pub(crate) mod task_methods;
#[cfg(feature = "proxy")]
pub(crate) mod upstream;
pub(crate) mod wire;
