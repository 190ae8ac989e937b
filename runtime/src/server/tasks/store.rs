//! Where tasks are kept: a [`TaskStore`], and [`MemoryStore`], the one a server has
//! unless it is given another, which keeps them in this process.

use std::collections::HashMap;
use std::sync::Mutex;

use serde_json::{Map, Value};

use crate::call::session::Pending;
use crate::server::tasks::{Record, now_ms};

/// What looking a task up found.
#[derive(Debug)]
pub(crate) enum Lookup {
    Found(Box<Record>),
    /// The task outlived its time to live and was dropped.
    Expired,
    /// No such task, ever (or one expired so long ago that it is forgotten).
    Unknown,
}

/// A store of task records, shared by every session of a server (and, for a shared
/// store, by every replica).
pub(crate) trait TaskStore: Send + Sync + std::fmt::Debug {
    /// Keeps a new record.
    fn create(&self, record: Record) -> Pending<'_, Result<(), String>>;

    /// The record of the task `id`.
    fn get<'a>(&'a self, id: &'a str) -> Pending<'a, Result<Lookup, String>>;

    /// Replaces the record of a task, unless the kept one has ended: a task's end is
    /// written once, and whichever end comes first (its result, or its cancellation)
    /// stays. Answers whether the record was written.
    fn put(&self, record: Record) -> Pending<'_, Result<bool, String>>;

    /// Keeps the client's answers to the task `id`'s questions for the process that runs
    /// it, which [takes](Self::take_answers) them.
    fn answer<'a>(
        &'a self,
        id: &'a str,
        answers: Map<String, Value>,
    ) -> Pending<'a, Result<(), String>>;

    /// The answers kept for the task `id`, removed from the store.
    fn take_answers<'a>(&'a self, id: &'a str) -> Pending<'a, Result<Map<String, Value>, String>>;

    /// Whether other processes share the store: then the process running a task looks
    /// in it for answers and a cancellation that came through another process.
    fn shared(&self) -> bool;
}

/// Tasks kept in this process: nothing to start, and nothing shared with another
/// process.
#[derive(Debug, Default)]
pub(crate) struct MemoryStore {
    records: Mutex<Records>,
}

#[derive(Debug, Default)]
struct Records {
    /// When the records were last swept, in milliseconds since the Unix epoch.
    swept: i64,
    live: HashMap<String, Record>,
    answers: HashMap<String, Map<String, Value>>,
    /// Expired tasks, by id, with when they expired: an expired task is told apart from
    /// an unknown one for as long again as its time to live.
    expired: HashMap<String, i64>,
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
                self.expired.insert(id, now.saturating_add(ttl));
            }
        }
        self.expired.retain(|_, forget_at| *forget_at > now);
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
    fn create(&self, record: Record) -> Pending<'_, Result<(), String>> {
        let mut records = self.records();
        records.sweep(now_ms());
        records.live.insert(record.id.clone(), record);
        Box::pin(std::future::ready(Ok(())))
    }

    fn get<'a>(&'a self, id: &'a str) -> Pending<'a, Result<Lookup, String>> {
        let mut records = self.records();
        records.sweep(now_ms());
        let found = match records.live.get(id) {
            Some(record) => Lookup::Found(Box::new(record.clone())),
            None if records.expired.contains_key(id) => Lookup::Expired,
            None => Lookup::Unknown,
        };
        Box::pin(std::future::ready(Ok(found)))
    }

    fn put(&self, record: Record) -> Pending<'_, Result<bool, String>> {
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

    fn answer<'a>(
        &'a self,
        id: &'a str,
        answers: Map<String, Value>,
    ) -> Pending<'a, Result<(), String>> {
        self.records()
            .answers
            .entry(id.to_owned())
            .or_default()
            .extend(answers);
        Box::pin(std::future::ready(Ok(())))
    }

    fn take_answers<'a>(&'a self, id: &'a str) -> Pending<'a, Result<Map<String, Value>, String>> {
        let taken = self.records().answers.remove(id).unwrap_or_default();
        Box::pin(std::future::ready(Ok(taken)))
    }

    fn shared(&self) -> bool {
        false
    }
}
