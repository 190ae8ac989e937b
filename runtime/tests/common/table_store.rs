//! A task store written as a user would write one, against `mcp_tool::tasks` alone: a
//! table of rows (id, the record as JSON text, when it expires) such as a SQL database
//! keeps, with the store's rules written out (an ended task is never overwritten, an
//! expired one is told apart from an unknown one, for its owner, for as long again, then
//! forgotten).
//! The tests that run the same bodies on this store and on the server's own prove that
//! the public trait is enough to write one.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use mcp_tool::tasks::{Lookup, Record, StoreFuture, TaskStore};
use serde_json::{Map, Value};

/// One row of the table.
#[derive(Debug)]
struct Row {
    json: String,
    expires_at: SystemTime,
    /// Copied out of the record, as a table keeps an indexed column.
    ended: bool,
}

#[derive(Debug, Default)]
struct Tables {
    tasks: HashMap<String, Row>,
    answers: HashMap<String, Map<String, Value>>,
}

/// The store; a clone shares the table (as two connections to one database would).
#[derive(Debug, Default, Clone)]
pub struct TableStore {
    tables: Arc<Mutex<Tables>>,
    /// How many statements ran, so that a test can tell that the server used this store.
    pub statements: Arc<std::sync::atomic::AtomicUsize>,
}

impl TableStore {
    fn tables(&self) -> std::sync::MutexGuard<'_, Tables> {
        self.statements
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.tables.lock().unwrap()
    }
}

impl TaskStore for TableStore {
    fn create(&self, record: Record) -> StoreFuture<'_, ()> {
        Box::pin(async move {
            let row = Row {
                json: serde_json::to_string(&record)?,
                expires_at: record.expires_at(),
                ended: record.status().is_terminal(),
            };
            let mut tables = self.tables();
            if tables.tasks.contains_key(record.id()) {
                return Err(format!("a task `{}` is already kept", record.id()).into());
            }
            tables.tasks.insert(record.id().to_owned(), row);
            Ok(())
        })
    }

    fn get<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Lookup> {
        Box::pin(async move {
            let now = SystemTime::now();
            let mut tables = self.tables();
            let Some(row) = tables.tasks.get(id) else {
                return Ok(Lookup::Unknown);
            };
            if row.expires_at > now {
                return Ok(Lookup::Found(Box::new(serde_json::from_str(&row.json)?)));
            }
            // Expired: told apart from unknown for as long again as the task lived.
            let record: Record = serde_json::from_str(&row.json)?;
            if record.expires_at() + record.ttl() > now {
                tables.answers.remove(id);
                return Ok(Lookup::Expired(record.owner().cloned()));
            }
            tables.tasks.remove(id);
            Ok(Lookup::Unknown)
        })
    }

    fn put(&self, record: Record) -> StoreFuture<'_, bool> {
        Box::pin(async move {
            let json = serde_json::to_string(&record)?;
            let now = SystemTime::now();
            let mut tables = self.tables();
            // UPDATE tasks SET json = ? WHERE id = ? AND NOT ended AND expires_at > now
            match tables.tasks.get_mut(record.id()) {
                Some(row) if !row.ended && row.expires_at > now => {
                    row.json = json;
                    row.ended = record.status().is_terminal();
                    Ok(true)
                }
                _ => Ok(false),
            }
        })
    }

    fn answer<'a>(&'a self, id: &'a str, answers: Map<String, Value>) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let mut tables = self.tables();
            tables
                .answers
                .entry(id.to_owned())
                .or_default()
                .extend(answers);
            Ok(())
        })
    }

    fn take_answers<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Map<String, Value>> {
        Box::pin(async move { Ok(self.tables().answers.remove(id).unwrap_or_default()) })
    }

    /// Shared, as a database is: the server then takes answers and cancellations through
    /// the store, and every method of the trait is used.
    fn shared(&self) -> bool {
        true
    }
}
