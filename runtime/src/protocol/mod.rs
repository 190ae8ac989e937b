//! The protocol seam: where bytes and `rmcp`'s types meet ours.
//!
//! **Enters:** bytes from a transport (stdio lines, Streamable HTTP), decoded once into
//! `rmcp`'s messages; requests from `rmcp`'s sessions. **Leaves:** each request handed to
//! the [`server`](crate::server) in this crate's own types, and its answer converted back
//! ([`bridge`] converts, [`handler`] is rmcp's `ServerHandler`, [`session`] is how a
//! call's `Context` reaches rmcp's peer). **May import:** everything in the crate; this
//! is the one folder that speaks `rmcp` (`scripts/layout.py` checks it).

pub(crate) mod bridge;
pub(crate) mod handler;
#[cfg(feature = "http")]
pub(crate) mod http;
pub(crate) mod lines;
pub(crate) mod listeners;
pub(crate) mod listings;
pub(crate) mod piped;
pub(crate) mod rounds;
pub(crate) mod session;
pub(crate) mod stdio;
pub(crate) mod tasks;
pub(crate) mod wire;
