//! `resources/subscribe`: which sessions asked to hear of changes to which URI, and the
//! `notifications/resources/updated` they get when the server says one changed.

use std::collections::HashMap;
use std::sync::Mutex;

use rmcp::model::ResourceUpdatedNotificationParam;
use rmcp::{Peer, RoleServer};

/// The sessions (by id) subscribed to one URI, with their peers.
type Subscribers = Vec<(u64, Peer<RoleServer>)>;

/// The subscriptions of every session of one server.
#[derive(Debug, Default)]
pub(crate) struct Subscriptions {
    by_uri: Mutex<HashMap<String, Subscribers>>,
}

impl Subscriptions {
    pub(crate) fn subscribe(&self, uri: String, session: u64, peer: Peer<RoleServer>) {
        let mut by_uri = self.lock();
        let sessions = by_uri.entry(uri).or_default();
        if !sessions.iter().any(|(id, _)| *id == session) {
            sessions.push((session, peer));
        }
    }

    pub(crate) fn unsubscribe(&self, uri: &str, session: u64) {
        let mut by_uri = self.lock();
        if let Some(sessions) = by_uri.get_mut(uri) {
            sessions.retain(|(id, _)| *id != session);
            if sessions.is_empty() {
                by_uri.remove(uri);
            }
        }
    }

    /// Tells every session subscribed to `uri` that it changed; a session that has ended
    /// is forgotten. Returns how many sessions were told.
    pub(crate) async fn updated(&self, uri: &str) -> usize {
        let peers: Vec<(u64, Peer<RoleServer>)> = self.lock().get(uri).cloned().unwrap_or_default();
        let mut told = 0;
        for (session, peer) in peers {
            let param = ResourceUpdatedNotificationParam::new(uri);
            match peer.notify_resource_updated(param).await {
                Ok(()) => told += 1,
                Err(_) => self.unsubscribe(uri, session),
            }
        }
        told
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Subscribers>> {
        // A panic while holding the lock leaves the map whole: every change is one call.
        self.by_uri
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}
