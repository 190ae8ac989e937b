//! Where tasks are kept: the [`TaskStore`] trait, and [`MemoryStore`], the store a
//! server has unless it is given another, which keeps tasks in this process.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Mutex;

use serde_json::{Map, Value};

use crate::server::tasks::{Owner, Record, now_ms};

/// What looking a task up found.
#[derive(Debug)]
#[non_exhaustive]
pub enum Lookup {
    /// The task's record.
    Found(Box<Record>),
    /// The task outlived its time to live ([`Record::expires_at`]) and was dropped; with
    /// its [`owner`](Record::owner), which the store keeps as long. A store tells an
    /// expired task apart from an unknown one for at least as long again as its time to
    /// live, so that its owner polling late is told that it came too late, not that the
    /// id is wrong; anyone else is answered as for an unknown id.
    Expired(Option<Owner>),
    /// No such task, ever (or one expired so long ago that it is forgotten).
    Unknown,
}

/// Why a store failed: any error, as a `Box` (`?` converts a database driver's error,
/// and `"text".into()` makes one of a message).
///
/// The server logs a store's error and answers the client with an error of its own that
/// names none of it ("the task could not be stored: try again later"): a connection
/// string or a query in the message never reaches a client.
pub type StoreError = Box<dyn std::error::Error + Send + Sync>;

/// What a [`TaskStore`]'s methods return: a boxed future (write the body as
/// `Box::pin(async move { ... })`), so that the server holds any store as
/// `Arc<dyn TaskStore>`.
pub type StoreFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, StoreError>> + Send + 'a>>;

/// Where a server keeps its tasks (the tasks extension): every session of the server
/// reads and writes the same store, and a [shared](Self::shared) one is read by every
/// replica of the server.
///
/// A server keeps its tasks in a [`MemoryStore`] unless
/// [`Server::task_store`](crate::Server::task_store) gives it another: a
/// `RedisStore` (feature `redis`), or a store of your own on
/// the database your replicas already share. A store keeps [`Record`]s by their
/// [`id`](Record::id) and answers that the server's questions wait on, nothing more:
/// the server makes the records, runs the tasks and decides who may read them.
///
/// What each method must do is what the server relies on:
///
/// - [`create`](Self::create) keeps a new record;
/// - [`get`](Self::get) gives it back as it was last written, until it
///   [expires](Record::expires_at), then [`Lookup::Expired`] with the record's
///   [`owner`](Record::owner) for at least as long again;
/// - [`put`](Self::put) replaces a record **unless the kept one has ended**
///   ([`Status::is_terminal`](crate::tasks::Status::is_terminal)), as one atomic step in
///   a shared store: a task's end is written once, and whichever end comes first (its
///   result, or its cancellation through another replica) stays;
/// - [`answer`](Self::answer) and [`take_answers`](Self::take_answers) pass the client's
///   answers to a task's questions to the process that runs it.
///
/// A store on a key-value database, written against this trait alone:
///
/// ```
/// use std::collections::HashMap;
/// use std::sync::Mutex;
/// use std::time::SystemTime;
///
/// use mcp_tool::tasks::{Lookup, Record, StoreFuture, TaskStore};
/// use serde_json::{Map, Value};
///
/// /// Records kept as JSON text, as a database would keep them.
/// #[derive(Debug, Default)]
/// struct TextStore {
///     records: Mutex<HashMap<String, String>>,
///     answers: Mutex<HashMap<String, Map<String, Value>>>,
/// }
///
/// impl TaskStore for TextStore {
///     fn create(&self, record: Record) -> StoreFuture<'_, ()> {
///         Box::pin(async move {
///             let text = serde_json::to_string(&record)?;
///             self.records.lock().unwrap().insert(record.id().to_owned(), text);
///             Ok(())
///         })
///     }
///
///     fn get<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Lookup> {
///         Box::pin(async move {
///             let Some(text) = self.records.lock().unwrap().get(id).cloned() else {
///                 return Ok(Lookup::Unknown);
///             };
///             let record: Record = serde_json::from_str(&text)?;
///             Ok(if record.expires_at() < SystemTime::now() {
///                 Lookup::Expired(record.owner().cloned())
///             } else {
///                 Lookup::Found(Box::new(record))
///             })
///         })
///     }
///
///     fn put(&self, record: Record) -> StoreFuture<'_, bool> {
///         Box::pin(async move {
///             let text = serde_json::to_string(&record)?;
///             let mut records = self.records.lock().unwrap();
///             let Some(kept) = records.get_mut(record.id()) else {
///                 return Ok(false);
///             };
///             if serde_json::from_str::<Record>(kept)?.status().is_terminal() {
///                 return Ok(false);
///             }
///             *kept = text;
///             Ok(true)
///         })
///     }
///
///     fn answer<'a>(&'a self, id: &'a str, answers: Map<String, Value>) -> StoreFuture<'a, ()> {
///         Box::pin(async move {
///             let mut kept = self.answers.lock().unwrap();
///             kept.entry(id.to_owned()).or_default().extend(answers);
///             Ok(())
///         })
///     }
///
///     fn take_answers<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Map<String, Value>> {
///         Box::pin(async move { Ok(self.answers.lock().unwrap().remove(id).unwrap_or_default()) })
///     }
///
///     fn shared(&self) -> bool {
///         false
///     }
/// }
///
/// let server = mcp_tool::Server::from_registry("reports", "1.0.0")
///     .serve_tasks()
///     .task_store(TextStore::default());
/// # drop(server);
/// ```
///
/// This store never forgets an expired task; a real one drops records some time after
/// they expire (Redis's key expiry, a periodic `DELETE`), as [`MemoryStore`] does.
pub trait TaskStore: Send + Sync + std::fmt::Debug + 'static {
    /// Keeps a new record.
    fn create(&self, record: Record) -> StoreFuture<'_, ()>;

    /// The record of the task `id`, [`Lookup::Expired`] past its time to live, or
    /// [`Lookup::Unknown`].
    fn get<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Lookup>;

    /// Replaces the record of a task, unless the kept one has ended (or is gone): a
    /// task's end is written once, and whichever end comes first stays. Answers whether
    /// the record was written.
    fn put(&self, record: Record) -> StoreFuture<'_, bool>;

    /// Keeps the client's answers to the task `id`'s questions (by the question's key,
    /// added to any kept before) for the process that runs it, which
    /// [takes](Self::take_answers) them.
    fn answer<'a>(&'a self, id: &'a str, answers: Map<String, Value>) -> StoreFuture<'a, ()>;

    /// The answers kept for the task `id`, removed from the store (an empty map when
    /// there are none).
    fn take_answers<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Map<String, Value>>;

    /// Whether other processes share the store. Then the process running a task looks
    /// in it for answers and a cancellation that came through another process, and a
    /// task whose process stopped (its lease lapsed) is failed when it is next read.
    fn shared(&self) -> bool;
}

/// Tasks kept in this process: nothing to start, and nothing shared with another
/// process. A server's store unless [`Server::task_store`](crate::Server::task_store)
/// gives another; an expired task is told apart from an unknown one for as long again
/// as its time to live, then forgotten.
///
/// ```
/// let server = mcp_tool::Server::from_registry("reports", "1.0.0")
///     .task_store(mcp_tool::tasks::MemoryStore::default());
/// # drop(server);
/// ```
#[derive(Debug, Default)]
pub struct MemoryStore {
    records: Mutex<Records>,
}

#[derive(Debug, Default)]
struct Records {
    /// When the records were last swept, in milliseconds since the Unix epoch.
    swept: i64,
    live: HashMap<String, Record>,
    answers: HashMap<String, Map<String, Value>>,
    /// Expired tasks, by id, with when to forget them and their owner: an expired task is
    /// told apart from an unknown one, for its owner, for as long again as its time to live.
    expired: HashMap<String, (i64, Option<Owner>)>,
}

impl Records {
    /// Moves every record past its time to live to `expired`, and forgets the expired
    /// ones whose grace is over.
    fn sweep(&mut self, now: i64) {
        // At most ten times a second: a sweep looks at every record.
        if now.saturating_sub(self.swept) < 100 {
            return;
        }
        self.swept = now;
        let gone: Vec<String> = (self.live.iter())
            .filter(|(_, record)| record.expired(now))
            .map(|(id, _)| id.clone())
            .collect();
        for id in gone {
            self.answers.remove(&id);
            if let Some(record) = self.live.remove(&id) {
                let ttl = i64::try_from(record.ttl_ms).unwrap_or(i64::MAX);
                self.expired
                    .insert(id, (now.saturating_add(ttl), record.owner));
            }
        }
        self.expired.retain(|_, (forget_at, _)| *forget_at > now);
    }
}

impl MemoryStore {
    fn records(&self) -> std::sync::MutexGuard<'_, Records> {
        self.records
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl TaskStore for MemoryStore {
    fn create(&self, record: Record) -> StoreFuture<'_, ()> {
        let mut records = self.records();
        records.sweep(now_ms());
        records.live.insert(record.id.clone(), record);
        Box::pin(std::future::ready(Ok(())))
    }

    fn get<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Lookup> {
        let mut records = self.records();
        records.sweep(now_ms());
        let found = match records.live.get(id) {
            Some(record) => Lookup::Found(Box::new(record.clone())),
            None => match records.expired.get(id) {
                Some((_, owner)) => Lookup::Expired(owner.clone()),
                None => Lookup::Unknown,
            },
        };
        Box::pin(std::future::ready(Ok(found)))
    }

    fn put(&self, record: Record) -> StoreFuture<'_, bool> {
        let mut records = self.records();
        let written = match records.live.get_mut(&record.id) {
            Some(kept) if !kept.status.is_terminal() => {
                *kept = record;
                true
            }
            _ => false,
        };
        Box::pin(std::future::ready(Ok(written)))
    }

    fn answer<'a>(&'a self, id: &'a str, answers: Map<String, Value>) -> StoreFuture<'a, ()> {
        self.records()
            .answers
            .entry(id.to_owned())
            .or_default()
            .extend(answers);
        Box::pin(std::future::ready(Ok(())))
    }

    fn take_answers<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Map<String, Value>> {
        let taken = self.records().answers.remove(id).unwrap_or_default();
        Box::pin(std::future::ready(Ok(taken)))
    }

    fn shared(&self) -> bool {
        false
    }
}
