//! rmcp's peers and `subscriptions/listen` streams as the [`Listener`]s the server tells
//! of changes.

use rmcp::model::{
    ResourceUpdatedNotification, ResourceUpdatedNotificationParam, ServerNotification,
    ToolListChangedNotification,
};
use rmcp::service::SubscriptionSink;
use rmcp::{Peer, RoleServer};

use crate::call::session::Pending;
use crate::server::listeners::Listener;

/// A session's client.
#[derive(Debug)]
pub(crate) struct PeerListener(pub(crate) Peer<RoleServer>);

impl Listener for PeerListener {
    fn is_open(&self) -> bool {
        !self.0.is_transport_closed()
    }

    fn wants_tool_changes(&self) -> bool {
        true
    }

    fn watches(&self, _uri: &str) -> bool {
        false
    }

    fn tools_changed(&self) -> Pending<'_, Result<(), String>> {
        Box::pin(async move {
            (self.0.notify_tool_list_changed().await).map_err(|error| error.to_string())
        })
    }

    fn resource_updated(&self, uri: &str) -> Pending<'_, Result<(), String>> {
        let param = ResourceUpdatedNotificationParam::new(uri);
        Box::pin(async move {
            (self.0.notify_resource_updated(param).await).map_err(|error| error.to_string())
        })
    }
}

/// A `subscriptions/listen` stream (protocol 2026-07-28, SEP-2575), with the filter the
/// server accepted for it.
#[derive(Debug)]
pub(crate) struct StreamListener(pub(crate) SubscriptionSink);

impl Listener for StreamListener {
    fn is_open(&self) -> bool {
        true
    }

    fn wants_tool_changes(&self) -> bool {
        self.0.accepted().tools_list_changed == Some(true)
    }

    fn watches(&self, uri: &str) -> bool {
        (self.0.accepted().resource_subscriptions.as_ref())
            .is_some_and(|uris| uris.iter().any(|u| u == uri))
    }

    fn tools_changed(&self) -> Pending<'_, Result<(), String>> {
        let changed = ToolListChangedNotification::default();
        Box::pin(async move {
            let sent = self
                .0
                .send(ServerNotification::ToolListChangedNotification(changed));
            sent.await.map_err(|error| error.to_string())
        })
    }

    fn resource_updated(&self, uri: &str) -> Pending<'_, Result<(), String>> {
        let param = ResourceUpdatedNotificationParam::new(uri);
        let notification = ResourceUpdatedNotification::new(param);
        Box::pin(async move {
            let sent = self.0.send(ServerNotification::ResourceUpdatedNotification(
                notification,
            ));
            sent.await.map_err(|error| error.to_string())
        })
    }
}
