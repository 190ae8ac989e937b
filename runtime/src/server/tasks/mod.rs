//! Tasks (the tasks extension, `io.modelcontextprotocol/tasks`): calls that outlive
//! their request.
//!
//! A call of a tool that allows tasks, from a client that declares the extension, is
//! answered at once with a task id while the tool's body runs on. What the task comes
//! to (working, waiting for input, its result, its error, cancelled) is a [`Record`] in
//! a [`TaskStore`], where `tasks/get` reads it; the questions the body asks wait in its
//! [`Inbox`] until `tasks/update` answers them; `tasks/cancel` cancels the body.
//!
//! This folder keeps the records ([`Record`], public so that a user's [`TaskStore`] can
//! keep them), their stores ([`MemoryStore`], and `RedisStore` with the feature `redis`),
//! the tasks this process runs and their life in the store (`lifecycle.rs`: watched,
//! their progress and their end written); `protocol/task_methods` runs a task's call and speaks
//! the wire. A record keeps a result and the questions as the JSON the protocol wrote,
//! private to the crate: a store keeps the record whole.

mod inbox;
mod lifecycle;
mod record;
#[cfg(feature = "redis")]
mod redis;
mod store;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Map;
use tokio_util::sync::CancellationToken;

pub(crate) use inbox::Inbox;
pub(crate) use lifecycle::Ending;
pub use record::{Owner, Record, Status};
#[cfg(feature = "redis")]
pub use redis::RedisStore;
pub use store::{Lookup, MemoryStore, StoreError, StoreFuture, TaskStore};

/// `duration` in milliseconds, as a time difference.
pub(crate) fn millis(duration: Duration) -> i64 {
    i64::try_from(duration.as_millis()).unwrap_or(i64::MAX)
}

/// Milliseconds since the Unix epoch.
pub(crate) fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

/// A time as the wire writes it: ISO 8601, UTC, to the millisecond.
pub(crate) fn iso8601(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .unwrap_or_default()
        .to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

/// What a server's builder sets for tasks.
#[derive(Debug, Clone)]
pub(crate) struct TaskSettings {
    /// Whether the server serves tasks: a tool allows them, or the builder said so.
    pub(crate) enabled: bool,
    /// How long a task is kept after it is created.
    pub(crate) ttl: Duration,
    /// How many tasks may run at once.
    pub(crate) max_running: usize,
    /// How often a client is told to poll.
    pub(crate) poll_interval: Duration,
    /// How long a running task's lease lasts; it is renewed three times as often.
    pub(crate) lease: Duration,
    /// The largest result a task may keep, in bytes of JSON.
    pub(crate) max_result_bytes: usize,
    /// Where tasks are kept: in this process unless the builder gave a store.
    pub(crate) store: Option<Arc<dyn TaskStore>>,
}

impl Default for TaskSettings {
    fn default() -> Self {
        Self {
            enabled: false,
            ttl: Duration::from_secs(3600),
            max_running: 64,
            poll_interval: Duration::from_millis(500),
            lease: Duration::from_secs(15),
            max_result_bytes: 4 * 1024 * 1024,
            store: None,
        }
    }
}

/// The server's tasks: their store, and the ones this process runs.
#[derive(Debug)]
pub(crate) struct Tasks {
    pub(crate) store: Arc<dyn TaskStore>,
    pub(crate) settings: TaskSettings,
    running: Mutex<HashMap<String, Running>>,
}

/// A task this process runs: how to cancel it, and its questions.
#[derive(Debug, Clone, Default)]
pub(crate) struct Running {
    pub(crate) cancel: CancellationToken,
    pub(crate) inbox: Arc<Inbox>,
    /// Held while the task's record is read and written again, so that the last write
    /// holds the newest state.
    pub(crate) writing: Arc<tokio::sync::Mutex<()>>,
}

/// Why a task was not started.
#[derive(Debug)]
pub(crate) enum NotStarted {
    /// As many tasks run as the server allows.
    Busy(usize),
    /// The store refused the record.
    Store(StoreError),
}

impl std::fmt::Display for NotStarted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Busy(limit) => write!(
                f,
                "the server runs at most {limit} tasks at once, and {limit} are running: call \
                 again when one has ended"
            ),
            Self::Store(_) => f.write_str("the task could not be stored: try again later"),
        }
    }
}

impl Tasks {
    pub(crate) fn new(settings: TaskSettings) -> Self {
        let store = (settings.store.clone()).unwrap_or_else(|| Arc::new(MemoryStore::default()));
        Self {
            store,
            settings,
            running: Mutex::new(HashMap::new()),
        }
    }

    /// The record of the task `id`; a task whose process stopped before it ended (its
    /// lease lapsed) is failed first, saying so.
    pub(crate) async fn lookup(&self, id: &str) -> Result<Lookup, StoreError> {
        let found = self.store.get(id).await?;
        let Lookup::Found(mut record) = found else {
            return Ok(found);
        };
        // Only a shared store's tasks run in other processes, which may die; one that
        // runs here is alive, whatever its lease says.
        if self.store.shared() && record.abandoned(now_ms()) && self.running_here(id).is_none() {
            record.status = Status::Failed;
            record.input_requests = Map::new();
            record.error = Some(serde_json::json!({
                "code": crate::outcome::error::INTERNAL_ERROR,
                "message": format!(
                    "the server running the task stopped before it ended (its lease lapsed \
                     at {}): call the tool again",
                    iso8601(record.lease_until_ms)
                ),
            }));
            record.updated_ms = now_ms();
            tracing::warn!(task = id, tool = %record.tool, "task failed: its lease lapsed");
            self.store.put((*record).clone()).await?;
            // Whichever end was written first stays.
            return self.store.get(id).await;
        }
        Ok(Lookup::Found(record))
    }

    fn running(&self) -> std::sync::MutexGuard<'_, HashMap<String, Running>> {
        self.running
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Records a new task of `tool`, working, and counts it as `running` here; the
    /// record is in the store when this returns, so a `tasks/get` finds it at once.
    pub(crate) async fn start(
        &self,
        tool: &str,
        owner: Option<Owner>,
        running: &Running,
    ) -> Result<Record, NotStarted> {
        let Some(record) = Record::new(tool, owner, self.settings.ttl, self.settings.lease) else {
            return Err(NotStarted::Store(
                "the system gave no random bytes for a task id".into(),
            ));
        };
        {
            let mut all = self.running();
            if all.len() >= self.settings.max_running {
                return Err(NotStarted::Busy(self.settings.max_running));
            }
            all.insert(record.id.clone(), running.clone());
        }
        if let Err(error) = self.store.create(record.clone()).await {
            self.running().remove(&record.id);
            return Err(NotStarted::Store(error));
        }
        tracing::info!(task = %record.id, tool, "task started");
        Ok(record)
    }

    /// The task `id` ended here: it no longer counts as running.
    pub(crate) fn ended(&self, id: &str) {
        self.running().remove(id);
    }

    /// The task `id`, if this process runs it.
    pub(crate) fn running_here(&self, id: &str) -> Option<Running> {
        self.running().get(id).cloned()
    }
}
