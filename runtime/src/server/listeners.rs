//! Who the server tells of changes: each session's client, and each
//! `subscriptions/listen` stream (protocol 2026-07-28, SEP-2575). The protocol layer
//! implements [`Listener`] for its own; the server keeps them as trait objects.

use std::fmt;

use crate::call::session::Pending;

/// A client the server tells when its tools or a resource change.
pub(crate) trait Listener: Send + Sync + fmt::Debug {
    /// Whether anything can still reach it.
    fn is_open(&self) -> bool;

    /// Whether it wants `notifications/tools/list_changed`.
    fn wants_tool_changes(&self) -> bool;

    /// Whether it asked, when it opened, to hear of changes to `uri` (a stream's
    /// filter); a session subscribes to URIs one by one instead.
    fn watches(&self, uri: &str) -> bool;

    /// Sends `notifications/tools/list_changed`.
    fn tools_changed(&self) -> Pending<'_, Result<(), String>>;

    /// Sends `notifications/resources/updated` for `uri`.
    fn resource_updated(&self, uri: &str) -> Pending<'_, Result<(), String>>;
}
