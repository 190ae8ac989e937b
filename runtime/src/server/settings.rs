//! What a server's builder sets, handed whole to the server it builds.

use std::time::Duration;

use crate::call::state::StateMap;
use crate::model::SchemaProfile;
use crate::outcome::failure_report::Detail;
use crate::server::pipeline::Layers;
use crate::server::tasks::TaskSettings;

/// How a built server serves its tools: what [`Server`](crate::Server)'s options set, handed to
/// [`ToolServer`](crate::ToolServer) whole.
#[derive(Debug, Default)]
pub(crate) struct Settings {
    pub(crate) detail: Detail,
    /// `lenient_arguments`: arguments sent as another JSON type are converted, for every
    /// tool that does not keep them exact.
    pub(crate) lenient: bool,
    /// The server's time limit for a call, unless a tool sets its own.
    pub(crate) timeout: Option<Duration>,
    pub(crate) max_calls: Option<usize>,
    pub(crate) limits: Limits,
    pub(crate) rounds: Rounds,
    pub(crate) tasks: TaskSettings,
    pub(crate) state: StateMap,
    /// The users' layers of the request pipeline, outermost first.
    pub(crate) layers: Layers,
    /// Where the replicas of the server share their notifications; `None` for one process.
    #[cfg(feature = "redis")]
    pub(crate) notifications: Option<crate::server::fanout::RedisNotifications>,
    /// Which schema profile each client is shown.
    pub(crate) profiles: ProfileChoice,
    #[cfg(feature = "http")]
    pub(crate) http: HttpOptions,
}

/// Which schema profile a client is shown: its own, when it is one known to need one
/// and `by_client` holds, else the server's.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ProfileChoice {
    pub(crate) server: SchemaProfile,
    pub(crate) by_client: bool,
}

impl Default for ProfileChoice {
    fn default() -> Self {
        Self {
            server: SchemaProfile::Strict,
            by_client: true,
        }
    }
}

impl ProfileChoice {
    /// The profile of the client named `client`, `None` when the name is unknown.
    pub(crate) fn for_client(self, client: Option<&str>) -> SchemaProfile {
        let known = || client.and_then(SchemaProfile::for_client);
        (self.by_client.then(known).flatten()).unwrap_or(self.server)
    }
}

/// How a server answers over HTTP: set on [`Server`](crate::Server), kept by the built
/// [`ToolServer`](crate::ToolServer).
#[cfg(feature = "http")]
#[derive(Debug, Clone)]
pub(crate) struct HttpOptions {
    /// Stateless mode: no sessions, a JSON response to each request.
    pub(crate) stateless: bool,
    /// The `Host` values accepted; empty accepts any.
    pub(crate) allowed_hosts: Vec<String>,
    /// The `Origin` values accepted when a request carries one; `None` accepts any.
    pub(crate) allowed_origins: Option<Vec<String>>,
    /// The most sessions held at once; one more `initialize` is refused.
    pub(crate) max_sessions: usize,
    /// How long a session lives without a request.
    pub(crate) session_idle_timeout: Duration,
    /// How long a connection may take to send a request's head, and may stay idle
    /// between requests.
    pub(crate) header_read_timeout: Duration,
    /// How long a request may take to send its body.
    pub(crate) body_read_timeout: Duration,
    /// The most connections served at once; more wait to be accepted.
    pub(crate) max_connections: usize,
    /// How tokens are checked; `None` serves every request.
    pub(crate) authorization: Option<crate::server::authorization::Authorization>,
    /// The server card served at `<endpoint>/server-card`; `None` serves none.
    pub(crate) card: Option<crate::server::server_card::ServerCard>,
}

/// The browser origins a server accepts unless told otherwise: pages served from the
/// loopback interface, on any port.
#[cfg(feature = "http")]
pub(crate) const LOOPBACK_ORIGINS: [&str; 6] = [
    "http://localhost:*",
    "https://localhost:*",
    "http://127.0.0.1:*",
    "https://127.0.0.1:*",
    "http://[::1]:*",
    "https://[::1]:*",
];

#[cfg(feature = "http")]
impl Default for HttpOptions {
    fn default() -> Self {
        Self {
            stateless: false,
            allowed_hosts: ["localhost", "127.0.0.1", "::1"].map(String::from).to_vec(),
            allowed_origins: Some(LOOPBACK_ORIGINS.map(String::from).to_vec()),
            max_sessions: 1_000,
            session_idle_timeout: Duration::from_secs(5 * 60),
            header_read_timeout: Duration::from_secs(10),
            body_read_timeout: Duration::from_secs(30),
            max_connections: 1_024,
            authorization: None,
            card: None,
        }
    }
}

/// How much a session accepts, and how long it waits for running calls at the end.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Limits {
    /// The longest message read, in bytes; a longer one is refused and skipped.
    pub(crate) max_message: usize,
    /// How long calls still running at the end of the input may take to finish.
    pub(crate) grace: Duration,
    /// The bytes of messages waiting to be written above which no request is read.
    pub(crate) max_queued: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_message: 4 * 1024 * 1024,
            grace: Duration::from_secs(30),
            max_queued: 1024 * 1024,
        }
    }
}

/// How the rounds of a call on protocol 2026-07-28 are carried: the key that signs the
/// `requestState` a client sends back, and how long one stays valid.
#[derive(Clone)]
pub(crate) struct Rounds {
    /// The signing key: given, or made at random when the server is built.
    pub(crate) key: Option<std::sync::Arc<[u8]>>,
    /// Whether the key was made at random for this process, which replicas do not share.
    pub(crate) random: bool,
    pub(crate) ttl: Duration,
}

impl Rounds {
    /// The shortest key accepted, in bytes.
    pub(crate) const MIN_KEY: usize = 32;

    /// Makes a random key unless one was given; a server that cannot get random bytes
    /// fails to build, rather than sign with a key anyone could work out. Also the check
    /// that task ids can be made.
    pub(crate) fn ensure_key(&mut self) -> Result<(), crate::ServerError> {
        let mut key = vec![0; Self::MIN_KEY];
        getrandom::fill(&mut key)
            .map_err(|error| crate::ServerError::NoRandomness(error.to_string()))?;
        if self.key.is_none() {
            self.key = Some(key.into());
            self.random = true;
        }
        Ok(())
    }
}

impl Default for Rounds {
    fn default() -> Self {
        Self {
            key: None,
            random: false,
            ttl: Duration::from_secs(600),
        }
    }
}

// The key never appears in a log line.
impl std::fmt::Debug for Rounds {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rounds")
            .field("key", &self.key.as_ref().map(|_| "<redacted>"))
            .field("ttl", &self.ttl)
            .finish()
    }
}
