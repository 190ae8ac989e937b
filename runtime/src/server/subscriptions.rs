//! Subscriptions to resources: which sessions asked to hear of changes to which URI
//! (`resources/subscribe`, before protocol 2026-07-28), which `subscriptions/listen`
//! streams are open (from 2026-07-28 on, SEP-2575), and the
//! `notifications/resources/updated` they get when the server says a resource changed.

use std::collections::HashMap;
use std::sync::Mutex;

use std::sync::Arc;

use crate::server::listeners::Listener;

/// The sessions (by id) subscribed to one URI, with their clients.
type Subscribers = Vec<(u64, Arc<dyn Listener>)>;

/// The subscriptions of every session of one server.
#[derive(Debug, Default)]
pub(crate) struct Subscriptions {
    by_uri: Mutex<HashMap<String, Subscribers>>,
    /// The open `subscriptions/listen` streams, by a number of their own; each sink
    /// passes only what its stream accepted.
    streams: Mutex<Vec<(u64, Arc<dyn Listener>)>>,
}

impl Subscriptions {
    pub(crate) fn subscribe(&self, uri: String, session: u64, peer: Arc<dyn Listener>) {
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

    /// Keeps `sink` until [`close`](Self::close) is called with the number it returns.
    pub(crate) fn open(&self, sink: Arc<dyn Listener>) -> u64 {
        let mut streams = relock(&self.streams);
        let number = streams.last().map_or(0, |(n, _)| n + 1);
        streams.push((number, sink));
        number
    }

    pub(crate) fn close(&self, number: u64) {
        relock(&self.streams).retain(|(n, _)| *n != number);
    }

    /// Tells every session subscribed to `uri` that it changed; a session that has ended
    /// is forgotten. Returns how many sessions and streams were told.
    pub(crate) async fn updated(&self, uri: &str) -> usize {
        let streams: Vec<Arc<dyn Listener>> = (relock(&self.streams).iter())
            .filter(|(_, sink)| sink.watches(uri))
            .map(|(_, sink)| Arc::clone(sink))
            .collect();
        let mut told_streams = 0;
        for sink in streams {
            if sink.resource_updated(uri).await.is_ok() {
                told_streams += 1;
            }
        }
        told_streams + self.updated_sessions(uri).await
    }

    async fn updated_sessions(&self, uri: &str) -> usize {
        let peers: Subscribers = self.lock().get(uri).cloned().unwrap_or_default();
        let mut told = 0;
        for (session, peer) in peers {
            match peer.resource_updated(uri).await {
                Ok(()) => told += 1,
                Err(_) => self.unsubscribe(uri, session),
            }
        }
        told
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Subscribers>> {
        relock(&self.by_uri)
    }
}

/// A panic while holding a lock leaves the data whole: every change is one call.
fn relock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}
