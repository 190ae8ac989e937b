//! Notifications shared by replicas through Redis (feature `redis`): what one replica tells
//! its own clients (`notifications/tools/list_changed`, `notifications/resources/updated`)
//! it also publishes on one Redis channel, and every other replica given the same Redis
//! and prefix tells its own.
//!
//! A replica delivers its own change to its clients at once and publishes it beside; each
//! message names the replica that sent it, so the echo Redis sends back is skipped and a
//! client hears a change once. Publishing is a queue that a task of its own empties: a
//! tool call never waits on Redis, and a Redis that is down costs a warning in the log.
//! The subscriber reconnects with a growing pause (100 ms to 5 s), saying so in the log;
//! what is published while it is away is not heard again (pub/sub keeps nothing).

use std::fmt;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use futures::StreamExt as _;
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;
use tokio_util::sync::{CancellationToken, DropGuard};

use crate::call::session::Pending;
use crate::outcome::digest::{digest, hex};
use crate::server::pipeline::RedisUrlError;

/// How long a connection or a `PUBLISH` may take before it is given up.
const TIMEOUT: Duration = Duration::from_secs(1);

/// How many changes wait to be published; one more is dropped, with a warning.
const QUEUE: usize = 1024;

/// The pause before the subscriber's first attempt to reconnect, doubled after each
/// failure up to [`MOST_PAUSE`].
const FIRST_PAUSE: Duration = Duration::from_millis(100);
const MOST_PAUSE: Duration = Duration::from_secs(5);

/// How often the subscriber's connection is pinged, to find one that died silently.
const PING_EVERY: Duration = Duration::from_secs(10);

/// Notifications shared by every replica given the same Redis and prefix (feature
/// `redis`), for [`Server::share_notifications`](crate::Server::share_notifications).
///
/// `notifications/tools/list_changed` and `notifications/resources/updated` raised on
/// one replica reach the sessions and `subscriptions/listen` streams of every replica,
/// each under the rules of the replica that delivers it: a resource's update goes to
/// those that subscribed to its URI, which they could do only with its scopes. They
/// travel on the pub/sub channel `<prefix>notifications`, `mcp-tool:notifications` unless
/// [`with_prefix`](Self::with_prefix) says otherwise. Redis is connected when the server
/// is first served; a Redis that is down never holds nor fails a call: the replica still
/// tells its own clients, logs a warning, and reconnects.
///
/// ```
/// use mcp_tool::RedisNotifications;
///
/// # fn main() -> Result<(), mcp_tool::middleware::RedisUrlError> {
/// let server = mcp_tool::Server::from_registry("reports", "1.0.0").share_notifications(
///     RedisNotifications::new("redis://127.0.0.1:6379")?.with_prefix("reports:"),
/// );
/// # drop(server);
/// # Ok(())
/// # }
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "redis")))]
pub struct RedisNotifications {
    client: redis::Client,
    prefix: String,
}

impl fmt::Debug for RedisNotifications {
    // The URL may hold a password: it is never printed.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RedisNotifications")
            .field("channel", &self.channel())
            .finish_non_exhaustive()
    }
}

impl RedisNotifications {
    /// Notifications through the Redis server at `url` (`redis://host:port/db`, with
    /// `user:password@` when the server asks for them); an error, which does not repeat
    /// the URL, when `url` is not a Redis URL.
    pub fn new(url: &str) -> Result<Self, RedisUrlError> {
        let client = redis::Client::open(url).map_err(|error| RedisUrlError(error.to_string()))?;
        Ok(Self {
            client,
            prefix: "mcp-tool:".to_owned(),
        })
    }

    /// Publishes on `<prefix>notifications` instead of `mcp-tool:notifications`: servers
    /// that share a Redis but not their clients each take a prefix of their own. Redis's
    /// channels are not kept per database: the prefix alone sets servers apart.
    #[must_use]
    pub fn with_prefix(mut self, prefix: impl Into<String>) -> Self {
        self.prefix = prefix.into();
        self
    }

    fn channel(&self) -> String {
        format!("{}notifications", self.prefix)
    }
}

/// A change one replica tells the others of.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "change", rename_all = "snake_case")]
pub(crate) enum Change {
    /// The tool list changed: `notifications/tools/list_changed`.
    Tools,
    /// The resource at `uri` changed: `notifications/resources/updated`.
    Resource { uri: String },
}

/// A change as it travels on the channel, with the replica that sent it.
#[derive(Debug, Serialize, Deserialize)]
struct Message {
    replica: String,
    #[serde(flatten)]
    change: Change,
}

/// What a replica does with a change another replica published: tells its own clients.
pub(crate) type Deliver = Box<dyn Fn(Change) -> Pending<'static, ()> + Send + Sync>;

/// One replica's side of the shared notifications: the queue of its changes to publish,
/// and, once started, the tasks that publish them and hear the others'.
pub(crate) struct Fanout {
    replica: String,
    queue: mpsc::Sender<Change>,
    /// What the tasks need, until they are started on an async runtime.
    unstarted: Mutex<Option<Unstarted>>,
    /// Whether the tasks were started.
    started: AtomicBool,
    /// Whether the last change was dropped, the queue full.
    dropping: AtomicBool,
    /// Stops the subscriber when the server is dropped.
    _stop: DropGuard,
}

struct Unstarted {
    config: RedisNotifications,
    queue: mpsc::Receiver<Change>,
    stop: CancellationToken,
}

impl fmt::Debug for Fanout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Fanout")
            .field("replica", &self.replica)
            .finish_non_exhaustive()
    }
}

impl Fanout {
    /// A replica's side, under a replica id of its own, not yet started.
    pub(crate) fn new(config: RedisNotifications) -> Self {
        let mut bytes = [0_u8; 16];
        // Without the system's randomness, the address of a fresh allocation and the
        // time still tell two replicas apart.
        let replica = match getrandom::fill(&mut bytes) {
            Ok(()) => hex(&bytes),
            Err(_) => {
                let seed = format!("{:p}{:?}", &bytes, std::time::SystemTime::now());
                digest(seed.as_bytes(), 16)
            }
        };
        let (sender, receiver) = mpsc::channel(QUEUE);
        let stop = CancellationToken::new();
        Self {
            replica,
            queue: sender,
            unstarted: Mutex::new(Some(Unstarted {
                config,
                queue: receiver,
                stop: stop.clone(),
            })),
            started: AtomicBool::new(false),
            dropping: AtomicBool::new(false),
            _stop: stop.drop_guard(),
        }
    }

    /// Starts publishing and hearing the other replicas, once, when called on an async
    /// runtime; `deliver` gives what is heard to this replica's clients.
    pub(crate) fn start(&self, deliver: impl FnOnce() -> Deliver) {
        // Every session asks: once started, the answer is one load.
        if self.started.load(Ordering::Acquire) {
            return;
        }
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let mut unstarted =
            (self.unstarted.lock()).unwrap_or_else(|poisoned| poisoned.into_inner());
        let Some(Unstarted {
            config,
            queue,
            stop,
        }) = unstarted.take()
        else {
            return;
        };
        self.started.store(true, Ordering::Release);
        let channel = config.channel();
        runtime.spawn(publish(
            config.client.clone(),
            channel.clone(),
            self.replica.clone(),
            queue,
        ));
        let subscriber = Subscriber {
            client: config.client,
            channel,
            replica: self.replica.clone(),
            deliver: deliver(),
        };
        runtime.spawn(subscriber.run(stop));
    }

    /// Queues `change` for the other replicas, never waiting: a full queue drops it, and
    /// the log says so once until one is queued again.
    pub(crate) fn publish(&self, change: Change) {
        match self.queue.try_send(change) {
            Ok(()) => self.dropping.store(false, Ordering::Relaxed),
            Err(error) => {
                if !self.dropping.swap(true, Ordering::Relaxed) {
                    tracing::warn!(%error, "notifications are not shared with the other \
                         replicas while too many wait for Redis");
                }
            }
        }
    }
}

/// Publishes each change of `queue` on `channel` until the server is dropped; a failure
/// is logged once until Redis answers again.
async fn publish(
    client: redis::Client,
    channel: String,
    replica: String,
    mut queue: mpsc::Receiver<Change>,
) {
    let mut connection: Option<ConnectionManager> = None;
    let mut failing = false;
    while let Some(change) = queue.recv().await {
        let message = Message {
            replica: replica.clone(),
            change,
        };
        let Ok(payload) = serde_json::to_string(&message) else {
            continue;
        };
        // A connection that failed is made anew, and the message tried once more on it:
        // the first message after Redis is back is not lost to a stale connection.
        let sent = tokio::time::timeout(TIMEOUT, async {
            let mut outcome = Ok(0);
            for _ in 0..2 {
                outcome = publish_once(&client, &mut connection, &channel, &payload).await;
                if outcome.is_ok() {
                    break;
                }
                connection = None;
            }
            outcome
        })
        .await;
        match sent {
            Ok(Ok(_)) if failing => {
                failing = false;
                tracing::info!(%channel, "notifications reach the other replicas through Redis again");
            }
            Ok(Ok(_)) => {}
            Ok(Err(error)) if !failing => {
                failing = true;
                tracing::warn!(%channel, %error, "notifications do not reach the other replicas: \
                     Redis failed; this replica's clients are still told");
            }
            Err(_) if !failing => {
                failing = true;
                tracing::warn!(%channel, "notifications do not reach the other replicas: \
                     Redis did not answer within 1 s; this replica's clients are still told");
            }
            _ => {}
        }
    }
}

/// Publishes `payload` on `channel`, connecting first when `connection` is `None`;
/// how many replicas heard it.
async fn publish_once(
    client: &redis::Client,
    connection: &mut Option<ConnectionManager>,
    channel: &str,
    payload: &str,
) -> redis::RedisResult<i64> {
    let mut manager = match connection {
        Some(manager) => manager.clone(),
        None => {
            let config = ConnectionManagerConfig::new()
                .set_connection_timeout(Some(TIMEOUT))
                .set_response_timeout(Some(TIMEOUT))
                .set_number_of_retries(0);
            let manager = ConnectionManager::new_with_config(client.clone(), config).await?;
            *connection = Some(manager.clone());
            manager
        }
    };
    (redis::cmd("PUBLISH").arg(channel).arg(payload))
        .query_async::<i64>(&mut manager)
        .await
}

/// Hears the other replicas' changes on `channel`, and gives them to `deliver`.
struct Subscriber {
    client: redis::Client,
    channel: String,
    replica: String,
    deliver: Deliver,
}

impl Subscriber {
    /// Subscribes, hears, and subscribes again after a pause when the connection is lost,
    /// until `stop`.
    async fn run(self, stop: CancellationToken) {
        let mut pause = FIRST_PAUSE;
        let mut lost = false;
        loop {
            let subscribed = tokio::select! {
                () = stop.cancelled() => return,
                subscribed = tokio::time::timeout(TIMEOUT, self.subscribe()) => subscribed,
            };
            match subscribed {
                Ok(Ok(pubsub)) => {
                    if lost {
                        tracing::info!(channel = %self.channel, "subscribed to Redis again: \
                             the other replicas' notifications are heard");
                    } else {
                        tracing::debug!(channel = %self.channel, "subscribed to Redis");
                    }
                    pause = FIRST_PAUSE;
                    if self.hear(pubsub, &stop).await.is_none() {
                        return;
                    }
                    tracing::warn!(channel = %self.channel, "the subscription to Redis was lost: \
                         the other replicas' notifications are not heard until it is back");
                }
                Ok(Err(error)) => {
                    tracing::warn!(channel = %self.channel, %error, retry_in = ?pause,
                    "cannot subscribe to Redis: the other replicas' notifications are not heard")
                }
                Err(_) => tracing::warn!(channel = %self.channel, retry_in = ?pause,
                    "cannot subscribe to Redis within 1 s: the other replicas' notifications \
                     are not heard"),
            }
            lost = true;
            tokio::select! {
                () = stop.cancelled() => return,
                () = tokio::time::sleep(pause) => {}
            }
            pause = (pause * 2).min(MOST_PAUSE);
        }
    }

    async fn subscribe(&self) -> redis::RedisResult<redis::aio::PubSub> {
        let mut pubsub = self.client.get_async_pubsub().await?;
        pubsub.subscribe(&self.channel).await?;
        Ok(pubsub)
    }

    /// Delivers every message heard until the connection is lost (`Some`) or `stop`
    /// (`None`).
    async fn hear(&self, pubsub: redis::aio::PubSub, stop: &CancellationToken) -> Option<()> {
        let (mut sink, mut messages) = pubsub.split();
        let mut ping = tokio::time::interval(PING_EVERY);
        ping.reset();
        loop {
            tokio::select! {
                () = stop.cancelled() => return None,
                message = messages.next() => match message {
                    Some(message) => self.heard(&message).await,
                    None => return Some(()),
                },
                _ = ping.tick() => {
                    let answered = tokio::time::timeout(TIMEOUT, sink.ping::<String>()).await;
                    if !matches!(answered, Ok(Ok(_))) {
                        return Some(());
                    }
                }
            }
        }
    }

    async fn heard(&self, message: &redis::Msg) {
        let heard = (message.get_payload::<String>().ok())
            .and_then(|payload| serde_json::from_str::<Message>(&payload).ok());
        let Some(heard) = heard else {
            tracing::debug!(channel = %self.channel, "a message on the channel is not a notification: ignored");
            return;
        };
        if heard.replica != self.replica {
            (self.deliver)(heard.change).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Change, Message};

    #[test]
    fn a_message_reads_back_as_written() {
        let message = Message {
            replica: "a1".to_owned(),
            change: Change::Resource {
                uri: "notes://1".to_owned(),
            },
        };
        let text = serde_json::to_string(&message).unwrap();
        assert_eq!(
            text,
            r#"{"replica":"a1","change":"resource","uri":"notes://1"}"#
        );
        let read: Message = serde_json::from_str(&text).unwrap();
        assert_eq!(read.change, message.change);
        let tools: Message = serde_json::from_str(r#"{"replica":"b","change":"tools"}"#).unwrap();
        assert_eq!(tools.change, Change::Tools);
    }
}
