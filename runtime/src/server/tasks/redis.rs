//! Tasks kept in Redis, which every replica of a server shares: a task started on one
//! replica is read, answered and cancelled through any other.
//!
//! Each task is three keys under a prefix (`mcp-tool:task:` unless set): the record, as
//! JSON, which expires with the task's time to live; `<id>:known`, the task's owner (empty
//! for none), which outlives it as long again, so that an expired task is told apart from
//! an unknown one for its owner; and
//! `<id>:answers`, a hash of the answers a client gave through a replica that does not
//! run the task, which the running one takes. A record is replaced by a script that
//! refuses to overwrite one that has ended, so a task's end is written once, by
//! whichever replica writes it first.

use std::time::Duration;

use redis::AsyncCommands;
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use serde_json::{Map, Value};
use tokio::sync::OnceCell;

use crate::server::tasks::store::{Lookup, StoreError, StoreFuture, TaskStore};
use crate::server::tasks::{Owner, Record};

/// Replaces the record `KEYS[1]` with `ARGV[1]`, keeping its expiry, unless the record
/// is gone or has ended. Answers 1 when it wrote.
const PUT: &str = r"
local kept = redis.call('GET', KEYS[1])
if not kept then return 0 end
local ok, record = pcall(cjson.decode, kept)
if ok and (record.status == 'completed' or record.status == 'failed'
    or record.status == 'cancelled') then
  return 0
end
redis.call('SET', KEYS[1], ARGV[1], 'KEEPTTL')
return 1
";

/// How long a connection or a command may take before the store gives up.
const TIMEOUT: Duration = Duration::from_secs(3);

/// Tasks kept in Redis, shared by every replica given the same URL (feature `redis`).
///
/// A task started through one replica is polled, answered and cancelled through any
/// other, and a replica that dies mid-task leaves its tasks failed once their lease
/// lapses ([`Server::task_lease`](crate::Server::task_lease)). Each task is three keys
/// under a prefix, `mcp-tool:task:` unless [`with_prefix`](Self::with_prefix) says
/// otherwise; the record expires with the task's time to live. The store connects when
/// it is first used, and gives up on a command after 3 seconds.
///
/// ```
/// use mcp_tool::tasks::RedisStore;
///
/// # fn main() -> Result<(), mcp_tool::tasks::StoreError> {
/// let server = mcp_tool::Server::from_registry("reports", "1.0.0")
///     .task_store(RedisStore::new("redis://127.0.0.1:6379")?.with_prefix("reports:task:"));
/// # drop(server);
/// # Ok(())
/// # }
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "redis")))]
pub struct RedisStore {
    client: redis::Client,
    connection: OnceCell<ConnectionManager>,
    prefix: String,
    put: redis::Script,
}

impl std::fmt::Debug for RedisStore {
    // The URL may hold a password: it is never printed.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisStore")
            .field("prefix", &self.prefix)
            .finish_non_exhaustive()
    }
}

impl RedisStore {
    /// A store on the Redis server at `url` (`redis://host:port/db`, with
    /// `user:password@` when the server asks for them; TLS is not offered yet),
    /// connected on first use; an error, which does not repeat the URL, when `url` is not
    /// a Redis URL.
    pub fn new(url: &str) -> Result<Self, StoreError> {
        let client = redis::Client::open(url)
            .map_err(|error| format!("`redis::Client` refused the URL: {error}"))?;
        Ok(Self {
            client,
            connection: OnceCell::new(),
            prefix: "mcp-tool:task:".to_owned(),
            put: redis::Script::new(PUT),
        })
    }

    /// Keeps the tasks' keys under `prefix` instead of `mcp-tool:task:`: servers that
    /// share a Redis database but not their tasks each take a prefix of their own.
    pub fn with_prefix(mut self, prefix: impl Into<String>) -> Self {
        self.prefix = prefix.into();
        self
    }

    async fn connection(&self) -> Result<ConnectionManager, String> {
        let connection = self
            .connection
            .get_or_try_init(|| async {
                let config = ConnectionManagerConfig::new()
                    .set_connection_timeout(Some(TIMEOUT))
                    .set_response_timeout(Some(TIMEOUT))
                    .set_number_of_retries(2);
                ConnectionManager::new_with_config(self.client.clone(), config).await
            })
            .await
            .map_err(|error| format!("cannot reach Redis: {error}"))?;
        Ok(connection.clone())
    }

    fn record_key(&self, id: &str) -> String {
        format!("{}{id}", self.prefix)
    }

    fn known_key(&self, id: &str) -> String {
        format!("{}{id}:known", self.prefix)
    }

    fn answers_key(&self, id: &str) -> String {
        format!("{}{id}:answers", self.prefix)
    }

    async fn create_record(&self, record: Record) -> Result<(), String> {
        let json = serde_json::to_string(&record).map_err(|error| error.to_string())?;
        let ttl = record.ttl_ms.max(1);
        let mut connection = self.connection().await?;
        redis::pipe()
            .atomic()
            .cmd("SET")
            .arg(self.record_key(&record.id))
            .arg(json)
            .arg("PX")
            .arg(ttl)
            .ignore()
            .cmd("SET")
            .arg(self.known_key(&record.id))
            .arg(
                record
                    .owner
                    .as_ref()
                    .map(Owner::to_string)
                    .unwrap_or_default(),
            )
            .arg("PX")
            .arg(ttl.saturating_mul(2))
            .ignore()
            .query_async::<()>(&mut connection)
            .await
            .map_err(|error| format!("Redis refused the task: {error}"))
    }

    async fn get_record(&self, id: &str) -> Result<Lookup, String> {
        let mut connection = self.connection().await?;
        let kept: Option<String> = connection
            .get(self.record_key(id))
            .await
            .map_err(|error| format!("Redis failed: {error}"))?;
        if let Some(kept) = kept {
            let record = serde_json::from_str(&kept)
                .map_err(|error| format!("a task record does not read: {error}"))?;
            return Ok(Lookup::Found(Box::new(record)));
        }
        let known: Option<String> = connection
            .get(self.known_key(id))
            .await
            .map_err(|error| format!("Redis failed: {error}"))?;
        Ok(match known {
            Some(owner) if owner.is_empty() => Lookup::Expired(None),
            // A key written before owners were kept holds `1`, which is no one's digest.
            Some(owner) => Lookup::Expired(Some(Owner::from_stored(&owner))),
            None => Lookup::Unknown,
        })
    }

    async fn put_record(&self, record: Record) -> Result<bool, String> {
        let json = serde_json::to_string(&record).map_err(|error| error.to_string())?;
        let mut connection = self.connection().await?;
        let written: i64 = self
            .put
            .key(self.record_key(&record.id))
            .arg(json)
            .invoke_async(&mut connection)
            .await
            .map_err(|error| format!("Redis failed: {error}"))?;
        Ok(written == 1)
    }

    async fn keep_answers(&self, id: &str, answers: Map<String, Value>) -> Result<(), String> {
        if answers.is_empty() {
            return Ok(());
        }
        let key = self.answers_key(id);
        let fields: Vec<(String, String)> = (answers.into_iter())
            .map(|(field, answer)| (field, answer.to_string()))
            .collect();
        let mut connection = self.connection().await?;
        let ttl: i64 = connection
            .pttl(self.record_key(id))
            .await
            .map_err(|error| format!("Redis failed: {error}"))?;
        if ttl <= 0 {
            // The task is gone: nothing would take the answers.
            return Ok(());
        }
        let mut pipe = redis::pipe();
        pipe.atomic().hset_multiple(&key, &fields).ignore();
        pipe.pexpire(&key, ttl).ignore();
        pipe.query_async::<()>(&mut connection)
            .await
            .map_err(|error| format!("Redis failed: {error}"))
    }

    async fn take_kept_answers(&self, id: &str) -> Result<Map<String, Value>, String> {
        let key = self.answers_key(id);
        let mut connection = self.connection().await?;
        let (fields,): (Vec<(String, String)>,) = redis::pipe()
            .atomic()
            .hgetall(&key)
            .del(&key)
            .ignore()
            .query_async(&mut connection)
            .await
            .map_err(|error| format!("Redis failed: {error}"))?;
        let mut answers = Map::new();
        for (field, answer) in fields {
            match serde_json::from_str(&answer) {
                Ok(answer) => {
                    answers.insert(field, answer);
                }
                Err(error) => tracing::warn!(task = id, %error, "a kept answer does not read"),
            }
        }
        Ok(answers)
    }
}

impl TaskStore for RedisStore {
    fn create(&self, record: Record) -> StoreFuture<'_, ()> {
        Box::pin(async move { Ok(self.create_record(record).await?) })
    }

    fn get<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Lookup> {
        Box::pin(async move { Ok(self.get_record(id).await?) })
    }

    fn put(&self, record: Record) -> StoreFuture<'_, bool> {
        Box::pin(async move { Ok(self.put_record(record).await?) })
    }

    fn answer<'a>(&'a self, id: &'a str, answers: Map<String, Value>) -> StoreFuture<'a, ()> {
        Box::pin(async move { Ok(self.keep_answers(id, answers).await?) })
    }

    fn take_answers<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Map<String, Value>> {
        Box::pin(async move { Ok(self.take_kept_answers(id).await?) })
    }

    fn shared(&self) -> bool {
        true
    }
}
