//! One task as a store keeps it: a [`Record`], its [`Status`] and its [`Owner`].

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::server::tasks::{millis, now_ms};

/// How a task stands.
///
/// A task is [`Working`](Self::Working) until it ends; it waits as
/// [`InputRequired`](Self::InputRequired) while a question of its tool waits for the
/// client's answer; it ends [`Completed`](Self::Completed), [`Failed`](Self::Failed) or
/// [`Cancelled`](Self::Cancelled), and an ended task's record no longer changes.
///
/// ```
/// use mcp_tool::tasks::Status;
///
/// assert!(Status::Completed.is_terminal());
/// assert!(!Status::InputRequired.is_terminal());
/// assert_eq!(Status::InputRequired.as_str(), "input_required");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Status {
    /// The tool's body runs.
    Working,
    /// The tool asked the client something and waits for the answer.
    InputRequired,
    /// The tool returned; the record holds its result.
    Completed,
    /// The tool failed, or the process running it stopped; the record holds why.
    Failed,
    /// The client cancelled the task.
    Cancelled,
}

impl Status {
    /// Whether the task has ended: its record no longer changes.
    pub fn is_terminal(self) -> bool {
        matches!(self, Self::Completed | Self::Failed | Self::Cancelled)
    }

    /// The status as the protocol writes it (`"working"`, `"input_required"`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Working => "working",
            Self::InputRequired => "input_required",
            Self::Completed => "completed",
            Self::Failed => "failed",
            Self::Cancelled => "cancelled",
        }
    }
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Whom a task or an HTTP session belongs to: a digest of the caller that created it (a
/// token's principal, subject or client acting for itself, and its client) or, without
/// authorization, of the HTTP session it was created in. Only the digest is kept, so a
/// store shared by replicas holds no session id and no token.
///
/// Its [`Display`](std::fmt::Display) is the digest, 64 hexadecimal digits: a store
/// that indexes tasks by owner may use it as a key.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Owner(String);

impl Owner {
    /// The caller a verified token speaks for: its principal (a subject, or a client acting
    /// for itself, which are never one another) and the client it was issued to. `None`
    /// for a principal without a name, whose callers cannot be told apart.
    pub(crate) fn caller(auth: &crate::model::Auth) -> Option<Self> {
        let principal = auth.principal();
        if principal.name().is_empty() {
            return None;
        }
        Some(Self::digest(&[
            "caller",
            principal.kind(),
            principal.name(),
            auth.client_id().unwrap_or(""),
        ]))
    }

    /// Whether `asker` may see and act on what `owner` owns: its owner; and, for what
    /// has none, only a caller without a token, so that an authorized caller never
    /// reaches what a replica without authorization left in a shared store.
    pub(crate) fn admits(owner: Option<&Self>, asker: Option<&Self>, authorized: bool) -> bool {
        match owner {
            Some(owner) => asker == Some(owner),
            None => !authorized,
        }
    }

    /// An owner as a store wrote it ([`Display`](std::fmt::Display)).
    #[cfg(feature = "redis")]
    pub(crate) fn from_stored(digest: &str) -> Self {
        Self(digest.to_owned())
    }

    /// The HTTP session `id`.
    #[cfg(feature = "http")]
    pub(crate) fn session(id: &str) -> Self {
        Self::digest(&["session", id])
    }

    fn digest(parts: &[&str]) -> Self {
        use crate::outcome::digest::hex;
        use sha2::{Digest, Sha256};
        let mut hash = Sha256::new();
        for part in parts {
            // Each part's length first: no two lists of parts hash alike.
            hash.update((part.len() as u64).to_be_bytes());
            hash.update(part.as_bytes());
        }
        Self(hex(&hash.finalize()))
    }
}

impl std::fmt::Display for Owner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// One task, as a [`TaskStore`](crate::tasks::TaskStore) keeps it: what it runs, whom it
/// belongs to, how it stands, and, once it has ended, its result or its error.
///
/// A store reads what it needs through the methods below ([`id`](Self::id) to key it,
/// [`status`](Self::status) to refuse overwriting an ended task,
/// [`expires_at`](Self::expires_at) to drop it) and keeps the rest as it is: a record
/// is [`Serialize`] and [`Deserialize`], and its JSON (a flat object; its `status`
/// field is the [`Status`] as the protocol writes it) reads back as the record it was.
/// The server alone makes and changes records.
///
/// ```
/// use mcp_tool::tasks::Record;
///
/// fn keep(record: &Record) -> serde_json::Result<(String, String)> {
///     Ok((record.id().to_owned(), serde_json::to_string(record)?))
/// }
/// ```
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Record {
    pub(crate) id: String,
    /// The tool it runs.
    pub(crate) tool: String,
    /// Whom it belongs to; `None` for a task created where no caller can be told (stdio's
    /// one client, stateless HTTP without authorization), which any caller without a token
    /// that knows its id may reach, and no caller with one.
    #[serde(default)]
    pub(crate) owner: Option<Owner>,
    pub(crate) status: Status,
    /// The tool's last progress message.
    pub(crate) message: Option<String>,
    /// Milliseconds since the Unix epoch.
    pub(crate) created_ms: i64,
    pub(crate) updated_ms: i64,
    /// How long the task is kept after it is created.
    pub(crate) ttl_ms: u64,
    /// The questions waiting for an answer, by key, as the wire writes them.
    pub(crate) input_requests: Map<String, Value>,
    /// A completed task's result, as the wire writes it.
    pub(crate) result: Option<Value>,
    /// A failed task's error, `{code, message}`.
    pub(crate) error: Option<Value>,
    /// Until when the process running the task vouches for it (milliseconds since the
    /// Unix epoch): it renews this while the task runs, and a task whose lease lapsed
    /// before it ended is failed.
    pub(crate) lease_until_ms: i64,
}

impl Record {
    /// A new working task; `None` when no unguessable id can be made.
    pub(crate) fn new(
        tool: &str,
        owner: Option<Owner>,
        ttl: Duration,
        lease: Duration,
    ) -> Option<Self> {
        let now = now_ms();
        Some(Self {
            id: new_id()?,
            tool: tool.to_owned(),
            owner,
            status: Status::Working,
            message: None,
            created_ms: now,
            updated_ms: now,
            ttl_ms: u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX),
            input_requests: Map::new(),
            result: None,
            error: None,
            lease_until_ms: now.saturating_add(millis(lease)),
        })
    }

    /// The task's id: 32 hexadecimal digits, unguessable, unique to the task.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The name of the tool the task runs.
    pub fn tool(&self) -> &str {
        &self.tool
    }

    /// Whom the task belongs to; `None` for a task created where no caller can be told
    /// apart (stdio's one client, stateless HTTP without authorization).
    pub fn owner(&self) -> Option<&Owner> {
        self.owner.as_ref()
    }

    /// How the task stands.
    pub fn status(&self) -> Status {
        self.status
    }

    /// The last progress message of the task's tool.
    pub fn message(&self) -> Option<&str> {
        self.message.as_deref()
    }

    /// When the task was created.
    pub fn created_at(&self) -> SystemTime {
        system_time(self.created_ms)
    }

    /// When the record last changed.
    pub fn updated_at(&self) -> SystemTime {
        system_time(self.updated_ms)
    }

    /// How long the task is kept after it is created (the server's
    /// [`task_ttl`](crate::Server::task_ttl)).
    pub fn ttl(&self) -> Duration {
        Duration::from_millis(self.ttl_ms)
    }

    /// When the task expires: from then on a store answers [`Lookup::Expired`]
    /// for it, for at least as long again, and may then forget it.
    ///
    /// [`Lookup::Expired`]: crate::tasks::Lookup::Expired
    pub fn expires_at(&self) -> SystemTime {
        self.created_at()
            .checked_add(self.ttl())
            .unwrap_or_else(|| self.created_at() + Duration::from_secs(365 * 24 * 3600))
    }

    /// Whether the process running the task stopped vouching for it at `now`: the task
    /// has not ended, and its lease lapsed.
    pub(crate) fn abandoned(&self, now: i64) -> bool {
        !self.status.is_terminal() && self.lease_until_ms < now
    }

    /// Whether the task outlived its time to live at `now`.
    pub(crate) fn expired(&self, now: i64) -> bool {
        let ttl = i64::try_from(self.ttl_ms).unwrap_or(i64::MAX);
        now.saturating_sub(self.created_ms) > ttl
    }
}

/// Milliseconds since the Unix epoch as a time (the epoch itself for a time before it).
fn system_time(ms: i64) -> SystemTime {
    UNIX_EPOCH + Duration::from_millis(u64::try_from(ms).unwrap_or(0))
}

/// A task id no client can guess: 128 random bits, in hex; `None` when the system gives
/// no random bytes (an id that could be guessed is never made).
fn new_id() -> Option<String> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).ok()?;
    Some(crate::outcome::digest::hex(&bytes))
}
