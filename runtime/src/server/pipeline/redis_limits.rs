//! [`RedisLimits`]: the counts of a [`RateLimitLayer`](super::RateLimitLayer) kept in
//! Redis, which every replica given the same Redis and prefix shares (feature `redis`).
//!
//! Each caller is one key, `<prefix><sha256 of the caller, hex>`, holding the theoretical
//! arrival time of its next request (GCRA, as governor counts in memory) in microseconds
//! of Redis's own clock; it expires once the caller is back to a full burst.

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use tokio::sync::OnceCell;

/// GCRA in one step: `KEYS[1]` the caller's key, `ARGV[1]` the interval between two
/// requests and `ARGV[2]` the burst tolerance (the interval times the burst less one), in
/// microseconds. Answers 0 when the request passes (and counts it), else the wait in
/// microseconds. The time is Redis's, so replicas' clocks are never compared; numbers are
/// written with `%.0f`, as Lua would write large ones in scientific notation.
const GCRA: &str = r"
if redis.replicate_commands then redis.replicate_commands() end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
local interval = tonumber(ARGV[1])
local tolerance = tonumber(ARGV[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or now) or now
local earliest = tat - tolerance
if now < earliest then return earliest - now end
local next = math.max(tat, now) + interval
local ttl = math.ceil((next - now) / 1000)
redis.call('SET', KEYS[1], string.format('%.0f', next), 'PX', string.format('%.0f', ttl))
return 0
";

/// How long a check may take, connecting included, unless [`RedisLimits::with_timeout`]
/// says otherwise.
const TIMEOUT: Duration = Duration::from_millis(250);

/// How long a failure of Redis keeps it unasked: calls meanwhile are not held by it.
const PAUSE: Duration = Duration::from_secs(1);

/// How long a warning of a failure keeps the next one unwritten.
const WARN_EVERY: Duration = Duration::from_secs(5);

/// What a [`RateLimitLayer`](super::RateLimitLayer) does with a request when Redis
/// cannot count it (unreachable, too slow, or failing).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(docsrs, doc(cfg(feature = "redis")))]
#[non_exhaustive]
pub enum RedisFailure {
    /// Serves it, uncounted, and logs a warning (at most one every 5 seconds): an outage
    /// of Redis is not an outage of every replica. The default, since a rate limit sheds
    /// excess load and is no authorization.
    #[default]
    Open,
    /// Refuses it with the limit's error (-32000), "rate limit unavailable, try again in a
    /// moment", and `data.retryAfterSeconds` 1: for a limit that caps a costly resource.
    Refuse,
}

/// Where a [`RateLimitLayer`](super::RateLimitLayer) keeps its counts when replicas
/// share them: one Redis server (feature `redis`), given to
/// [`RateLimitLayer::shared_in`](super::RateLimitLayer::shared_in).
///
/// Every replica given the same Redis and prefix counts each caller once: a caller
/// allowed 60 requests a minute gets 60 across all of them. A request is counted by one
/// Lua script, one round trip, whose clock is Redis's own. Callers are keys under a
/// prefix, `mcp-tool:limit:` unless [`with_prefix`](Self::with_prefix) says otherwise,
/// named by a digest of the caller (no session id or subject is written in Redis), and
/// they expire once back to a full burst. Two limits that must not share a count take
/// two prefixes. Redis is connected on first use; a check that takes over 250 ms fails,
/// and then [`RedisFailure`] decides; after a failure, Redis is not asked for a second,
/// so that a stalled Redis does not hold calls.
///
/// ```
/// use mcp_tool::middleware::{RateLimitLayer, RedisFailure, RedisLimits};
///
/// # fn main() -> Result<(), mcp_tool::middleware::RedisUrlError> {
/// let limit = RateLimitLayer::per_minute(60)
///     .shared_in(RedisLimits::new("redis://127.0.0.1:6379")?.with_prefix("app:limit:"))
///     .when_redis_fails(RedisFailure::Refuse);
/// # drop(limit);
/// # Ok(())
/// # }
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "redis")))]
pub struct RedisLimits {
    client: redis::Client,
    connection: OnceCell<ConnectionManager>,
    prefix: String,
    timeout: Duration,
    gcra: redis::Script,
    /// Since when the failures are counted: `paused_until` and `warned_at` are
    /// milliseconds after it.
    start: Instant,
    /// Until when Redis is not asked after a failure, so that calls are not held by it.
    paused_until: AtomicU64,
    /// When the last failure was logged.
    warned_at: AtomicU64,
}

/// A URL [`RedisLimits::new`] cannot take; it does not repeat the URL, which may hold a
/// password.
#[derive(Debug, thiserror::Error)]
#[cfg_attr(docsrs, doc(cfg(feature = "redis")))]
#[error("`redis::Client` refused the URL: {0}")]
pub struct RedisUrlError(pub(crate) String);

impl fmt::Debug for RedisLimits {
    // The URL may hold a password: it is never printed.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RedisLimits")
            .field("prefix", &self.prefix)
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

impl RedisLimits {
    /// Counts on the Redis server at `url` (`redis://host:port/db`, with
    /// `user:password@` when the server asks for them), connected on first use.
    pub fn new(url: &str) -> Result<Self, RedisUrlError> {
        let client = redis::Client::open(url).map_err(|error| RedisUrlError(error.to_string()))?;
        Ok(Self {
            client,
            connection: OnceCell::new(),
            prefix: "mcp-tool:limit:".to_owned(),
            timeout: TIMEOUT,
            gcra: redis::Script::new(GCRA),
            start: Instant::now(),
            paused_until: AtomicU64::new(0),
            warned_at: AtomicU64::new(0),
        })
    }

    /// Keeps the callers' keys under `prefix` instead of `mcp-tool:limit:`: servers that
    /// share a Redis database but not their counts each take a prefix of their own.
    #[must_use]
    pub fn with_prefix(mut self, prefix: impl Into<String>) -> Self {
        self.prefix = prefix.into();
        self
    }

    /// Gives up on a check after `timeout` (connecting included) instead of 250 ms.
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Counts a request of `caller` with `interval` between two requests and bursts of
    /// `tolerance / interval + 1`: `None` when it passes, else how long to wait. After a
    /// failure, Redis is not asked for a second: the check fails at once.
    pub(crate) async fn check(
        &self,
        caller: &str,
        interval: Duration,
        tolerance: Duration,
    ) -> Result<Option<Duration>, String> {
        if self.millis() < self.paused_until.load(Ordering::Relaxed) {
            return Err("Redis failed a moment ago".to_owned());
        }
        let counted = tokio::time::timeout(self.timeout, self.count(caller, interval, tolerance))
            .await
            .unwrap_or_else(|_| Err(format!("Redis took over {:?}", self.timeout)));
        if counted.is_err() {
            let until = self.millis() + PAUSE.as_millis() as u64;
            self.paused_until.store(until, Ordering::Relaxed);
        }
        counted
    }

    async fn count(
        &self,
        caller: &str,
        interval: Duration,
        tolerance: Duration,
    ) -> Result<Option<Duration>, String> {
        let mut connection = self.connection().await?;
        let wait: u64 = self
            .gcra
            .key(self.key(caller))
            .arg(interval.as_micros().max(1) as u64)
            .arg(tolerance.as_micros() as u64)
            .invoke_async(&mut connection)
            .await
            .map_err(|error| format!("Redis failed: {error}"))?;
        Ok((wait > 0).then(|| Duration::from_micros(wait)))
    }

    /// Logs `failure`, unless another was logged less than 5 seconds ago.
    pub(crate) fn warn(&self, failure: &str, refused: bool) {
        let now = self.millis();
        let last = self.warned_at.load(Ordering::Relaxed);
        let due = last == 0 || now >= last + WARN_EVERY.as_millis() as u64;
        if due
            && (self.warned_at)
                .compare_exchange(last, now.max(1), Ordering::Relaxed, Ordering::Relaxed)
                .is_ok()
        {
            let prefix = &self.prefix;
            if refused {
                tracing::warn!(%failure, prefix, "the shared rate limit cannot count: calls are refused");
            } else {
                tracing::warn!(%failure, prefix, "the shared rate limit cannot count: calls are served uncounted");
            }
        }
    }

    fn millis(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// The key of `caller`: a digest, so that Redis never holds a session id or subject.
    fn key(&self, caller: &str) -> String {
        let digest = crate::outcome::digest::digest(caller.as_bytes(), 32);
        format!("{}{digest}", self.prefix)
    }

    async fn connection(&self) -> Result<ConnectionManager, String> {
        let connection = self
            .connection
            .get_or_try_init(|| async {
                let config = ConnectionManagerConfig::new()
                    .set_connection_timeout(Some(self.timeout))
                    .set_response_timeout(Some(self.timeout))
                    .set_number_of_retries(1);
                ConnectionManager::new_with_config(self.client.clone(), config).await
            })
            .await
            .map_err(|error| format!("cannot reach Redis: {error}"))?;
        Ok(connection.clone())
    }
}
