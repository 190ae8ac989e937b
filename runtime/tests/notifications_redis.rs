//! Notifications shared by replicas through Redis (feature `redis`): three servers in the
//! test's process, sharing nothing but a real `redis-server` started by the test on a
//! free port of 127.0.0.1 and a prefix. A tool list change and a resource's update raised
//! on one replica reach the clients of the others within a second, and the raising
//! replica's own clients once; a client that may not subscribe to a scoped resource hears
//! nothing of it. With Redis stopped, calls are served and each replica still tells its
//! own clients; once Redis is back, the replicas hear each other again.
//!
//! `scripts/setup-redis.sh` installs `redis-server` with apt-get when it is missing.
//! Without it the tests fail under CI and say why elsewhere.

mod common;

use std::io::{Read as _, Write as _};
use std::time::{Duration, Instant};

use mcp_tool::model::Notification;
use mcp_tool::testing::TestClient;
use mcp_tool::{
    Arguments, Context, RedisNotifications, RuntimeTool, Server, ToolError, ToolServer,
    mcp_resource, mcp_tool,
};
use serde_json::json;

use common::log::Captured;
use common::redis::Redis;

/// Adds two integers.
#[mcp_tool]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// A note every client may read.
#[mcp_resource(uri = "notes://shared")]
fn shared_note() -> String {
    "shared".to_owned()
}

/// A note for the holders of `notes:secret` only.
#[mcp_resource(uri = "notes://secret", scopes = ["notes:secret"])]
fn secret_note() -> String {
    "secret".to_owned()
}

const SHARED: &str = "notes://shared";
const SECRET: &str = "notes://secret";

/// A replica sharing its notifications in `redis` under `prefix`.
fn replica(redis: &Redis, prefix: &str) -> ToolServer {
    let notifications = RedisNotifications::new(&redis.url)
        .unwrap()
        .with_prefix(prefix);
    (Server::from_registry("notes", "1").share_notifications(notifications))
        .build()
        .unwrap()
}

/// A run-time tool named `name`, which returns its name.
fn runtime_tool(name: &'static str) -> RuntimeTool {
    RuntimeTool::new(name, "Returns its own name.").handler(
        move |args: Arguments, _ctx: Context| async move {
            args.finish()?;
            Ok::<_, ToolError>(name.to_owned())
        },
    )
}

/// A client of `server` subscribed to the shared note.
async fn subscriber(server: &ToolServer) -> TestClient {
    let client = TestClient::connect(server.clone()).await.unwrap();
    client.subscribe(SHARED).await.unwrap();
    client
}

/// Three replicas given `redis` and `prefix`, each listening to the others, and a client
/// of each subscribed to the shared note.
async fn three_subscribed(redis: &Redis, prefix: &str) -> ([ToolServer; 3], [TestClient; 3]) {
    let replicas = [0, 1, 2].map(|_| replica(redis, prefix));
    until_subscribed(redis, prefix, 3, Duration::from_secs(5)).await;
    let clients = [
        subscriber(&replicas[0]).await,
        subscriber(&replicas[1]).await,
        subscriber(&replicas[2]).await,
    ];
    (replicas, clients)
}

/// What Redis answers to one command, as the lines of its reply.
fn redis_command(redis: &Redis, args: &[&str]) -> Vec<String> {
    let port = redis.url.rsplit(':').next().unwrap();
    let mut stream = std::net::TcpStream::connect(format!("127.0.0.1:{port}")).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(2)))
        .unwrap();
    let mut command = format!("*{}\r\n", args.len());
    for arg in args {
        command.push_str(&format!("${}\r\n{arg}\r\n", arg.len()));
    }
    stream.write_all(command.as_bytes()).unwrap();
    let mut reply = [0_u8; 512];
    let read = stream.read(&mut reply).unwrap();
    let text = String::from_utf8_lossy(&reply[..read]);
    text.lines().map(str::to_owned).collect()
}

/// Waits until `n` replicas listen on the channel of `prefix`: a message published before
/// a replica subscribed is not heard, as pub/sub keeps nothing.
async fn until_subscribed(redis: &Redis, prefix: &str, n: usize, limit: Duration) {
    let channel = format!("{prefix}notifications");
    let began = Instant::now();
    loop {
        let reply = redis_command(redis, &["PUBSUB", "NUMSUB", &channel]);
        let count = reply.last().and_then(|line| line.strip_prefix(':'));
        if count == Some(&n.to_string()) {
            return;
        }
        assert!(
            began.elapsed() < limit,
            "{n} replicas did not subscribe to {channel} within {limit:?}: {reply:?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The notifications a client received, gathered as they come.
#[derive(Default)]
struct Heard(Vec<Notification>);

impl Heard {
    /// Waits, at most `limit`, for `wanted`; how long it took, `None` when it did not come.
    async fn wait(
        &mut self,
        client: &TestClient,
        wanted: &Notification,
        limit: Duration,
    ) -> Option<Duration> {
        let began = Instant::now();
        loop {
            self.0.extend(client.take_notifications());
            if self.0.contains(wanted) {
                return Some(began.elapsed());
            }
            if began.elapsed() >= limit {
                return None;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }

    /// How many times `wanted` came, after waiting `settle` for more.
    async fn count(
        &mut self,
        client: &TestClient,
        wanted: &Notification,
        settle: Duration,
    ) -> usize {
        tokio::time::sleep(settle).await;
        self.0.extend(client.take_notifications());
        self.0.iter().filter(|heard| *heard == wanted).count()
    }
}

fn updated(uri: &str) -> Notification {
    Notification::ResourceUpdated(uri.to_owned())
}

#[tokio::test]
async fn a_change_on_one_replica_reaches_every_replica_s_clients_once() {
    let Some(redis) = Redis::start() else { return };
    let prefix = "reach:";
    let ([a, b, _c], clients) = three_subscribed(&redis, prefix).await;
    // A client of B that subscribed to nothing.
    let quiet = TestClient::connect(b.clone()).await.unwrap();
    let mut heard: Vec<Heard> = (0..4).map(|_| Heard::default()).collect();

    // Each client waits what is left of one second since the change was raised.
    let second = |raised: Instant| Duration::from_secs(1).saturating_sub(raised.elapsed());
    let raised = Instant::now();
    a.add_tool(runtime_tool("fresh")).unwrap();
    for (client, heard) in clients.iter().zip(&mut heard).skip(1) {
        let came = heard.wait(client, &Notification::ToolListChanged, second(raised));
        assert!(
            came.await.is_some(),
            "list_changed heard on another replica within 1 s"
        );
        eprintln!(
            "list_changed heard on another replica {:?} after it was raised",
            raised.elapsed()
        );
    }
    // The tool is replica A's: B lists its own tools, without it.
    let listed = clients[1].list().await.unwrap();
    assert!(listed.iter().all(|tool| tool.name != "fresh"));
    assert!(clients[0].tool("fresh").await.unwrap().is_some());

    let raised = Instant::now();
    let told = a.notify_resource_updated(SHARED).await;
    assert_eq!(told, 1, "A's one subscriber");
    for (client, heard) in clients.iter().zip(&mut heard).skip(1) {
        let wanted = updated(SHARED);
        let came = heard.wait(client, &wanted, second(raised));
        assert!(
            came.await.is_some(),
            "resources/updated heard on another replica within 1 s"
        );
        eprintln!(
            "resources/updated heard on another replica {:?} after it was raised",
            raised.elapsed()
        );
    }

    // Each client heard each change once, A's own included, whose echo is skipped; the
    // client that subscribed to nothing heard the tool list change only.
    let settle = Duration::from_millis(500);
    for (client, heard) in clients.iter().zip(&mut heard) {
        assert_eq!(
            heard
                .count(client, &Notification::ToolListChanged, settle)
                .await,
            1
        );
        assert_eq!(
            heard.count(client, &updated(SHARED), Duration::ZERO).await,
            1
        );
    }
    let unsubscribed = &mut heard[3];
    let changed = unsubscribed.count(&quiet, &Notification::ToolListChanged, Duration::ZERO);
    assert_eq!(changed.await, 1);
    assert_eq!(
        unsubscribed
            .count(&quiet, &updated(SHARED), Duration::ZERO)
            .await,
        0
    );
}

#[tokio::test]
async fn replicas_of_another_prefix_hear_nothing() {
    let Some(redis) = Redis::start() else { return };
    let (a, other) = (replica(&redis, "one:"), replica(&redis, "two:"));
    until_subscribed(&redis, "one:", 1, Duration::from_secs(5)).await;
    until_subscribed(&redis, "two:", 1, Duration::from_secs(5)).await;
    let (mine, theirs) = (subscriber(&a).await, subscriber(&other).await);
    a.notify_resource_updated(SHARED).await;
    let mut heard = Heard::default();
    let came = heard
        .wait(&mine, &updated(SHARED), Duration::from_secs(1))
        .await;
    assert!(came.is_some());
    let mut heard = Heard::default();
    assert_eq!(
        heard
            .count(&theirs, &updated(SHARED), Duration::from_millis(500))
            .await,
        0
    );
}

#[tokio::test]
async fn a_replica_dropped_leaves_the_channel() {
    let Some(redis) = Redis::start() else { return };
    let a = replica(&redis, "gone:");
    until_subscribed(&redis, "gone:", 1, Duration::from_secs(5)).await;
    drop(a);
    until_subscribed(&redis, "gone:", 0, Duration::from_secs(5)).await;
}

#[test]
fn a_replica_built_outside_an_async_runtime_listens_once_served() {
    let Some(redis) = Redis::start() else { return };
    let a = replica(&redis, "later:");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        tokio::time::sleep(Duration::from_millis(200)).await;
        assert_eq!(
            redis_command(&redis, &["PUBSUB", "NUMSUB", "later:notifications"])
                .last()
                .map(String::as_str),
            Some(":0")
        );
        let client = subscriber(&a).await;
        until_subscribed(&redis, "later:", 1, Duration::from_secs(5)).await;
        client.close().await;
    });
}

#[tokio::test]
async fn with_redis_stopped_a_replica_serves_and_tells_its_own_then_hears_the_others_again() {
    let Some(mut redis) = Redis::start() else {
        return;
    };
    let log = Captured::default();
    let _guard = log.install("mcp_tool=info");
    let prefix = "outage:";
    let ([a, b, _c], clients) = three_subscribed(&redis, prefix).await;
    let mut heard: Vec<Heard> = (0..3).map(|_| Heard::default()).collect();

    redis.stop();
    let began = Instant::now();
    let sum: i64 = clients[0]
        .call_as("add", json!({ "a": 2, "b": 3 }))
        .await
        .unwrap();
    assert_eq!(sum, 5);
    a.add_tool(runtime_tool("during")).unwrap();
    assert_eq!(a.notify_resource_updated(SHARED).await, 1);
    assert!(
        began.elapsed() < Duration::from_millis(200),
        "Redis down held the replica for {:?}",
        began.elapsed()
    );
    let limit = Duration::from_secs(1);
    assert!(
        heard[0]
            .wait(&clients[0], &updated(SHARED), limit)
            .await
            .is_some()
    );
    let changed = &Notification::ToolListChanged;
    assert!(heard[0].wait(&clients[0], changed, limit).await.is_some());
    for (client, heard) in clients.iter().zip(&mut heard).skip(1) {
        assert_eq!(
            heard.count(client, &updated(SHARED), Duration::ZERO).await,
            0
        );
        assert_eq!(heard.count(client, changed, Duration::ZERO).await, 0);
    }
    // The other replicas go on serving too.
    let sum: i64 = clients[2]
        .call_as("add", json!({ "a": 1, "b": 1 }))
        .await
        .unwrap();
    assert_eq!(sum, 2);

    redis.restart();
    until_subscribed(&redis, prefix, 3, Duration::from_secs(15)).await;
    b.notify_resource_updated(SHARED).await;
    for (client, heard) in clients.iter().zip(&mut heard) {
        let wanted = &updated(SHARED);
        // A heard its own update before; this one is B's.
        let before = heard.0.iter().filter(|n| *n == wanted).count();
        let began = Instant::now();
        loop {
            heard.0.extend(client.take_notifications());
            if heard.0.iter().filter(|n| *n == wanted).count() > before {
                break;
            }
            assert!(
                began.elapsed() < limit,
                "B's update not heard after Redis came back"
            );
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }
    let text = log.text();
    assert!(
        text.contains("the subscription to Redis was lost"),
        "{text}"
    );
    assert!(text.contains("subscribed to Redis again"), "{text}");
    assert!(
        text.contains("notifications do not reach the other replicas"),
        "{text}"
    );
    assert!(
        !text.contains(&redis.url),
        "the log names no Redis URL: {text}"
    );
}

/// Replicas on Streamable HTTP with authorization, and `subscriptions/listen` streams of
/// protocol 2026-07-28 held by callers with and without the secret note's scope.
#[cfg(feature = "auth")]
mod scoped {
    use std::sync::{Arc, Mutex};
    use std::time::{Duration, Instant};

    use bytes::Bytes;
    use http_body_util::{BodyExt as _, Full};
    use hyper_util::client::legacy::Client;
    use hyper_util::rt::TokioExecutor;
    use mcp_tool::{JwtVerifier, RedisNotifications, Server, ToolServer};
    use serde_json::{Value, json};

    use super::common::http::Running;
    use super::common::issuer::{self, Issuer, KEY_A};
    use super::common::redis::Redis;
    use super::{SECRET, SHARED, runtime_tool, until_subscribed};

    /// The one resource URL of the fleet, which every replica serves behind a balancer.
    const FLEET: &str = "http://notes.example/mcp";

    /// A stateless replica trusting `issuer`, sharing its notifications in `redis`.
    async fn replica(redis: &Redis, issuer: &Issuer, prefix: &str) -> (ToolServer, Running) {
        let notifications = RedisNotifications::new(&redis.url)
            .unwrap()
            .with_prefix(prefix);
        let server = Server::from_registry("notes", "1")
            .stateless(true)
            .authorization(JwtVerifier::issuer(issuer.url()).audience(FLEET))
            .share_notifications(notifications)
            .build()
            .unwrap();
        let running = Running::start(server.clone()).await;
        (server, running)
    }

    /// An open `subscriptions/listen` stream: the messages it carried so far.
    struct Stream {
        status: u16,
        messages: Arc<Mutex<Vec<Value>>>,
        reader: tokio::task::JoinHandle<()>,
    }

    impl Drop for Stream {
        fn drop(&mut self) {
            self.reader.abort();
        }
    }

    impl Stream {
        /// Opens a stream on `url` with `token`, asking for the tool list's changes and
        /// the updates of `uris`.
        async fn open(url: &str, token: &str, uris: &[&str]) -> Self {
            let params = json!({
                "notifications": { "toolsListChanged": true, "resourceSubscriptions": uris },
                "_meta": super::common::tasks::meta(false),
            });
            let body = json!({
                "jsonrpc": "2.0", "id": 1, "method": "subscriptions/listen", "params": params
            });
            let request = http::Request::post(url)
                .header("content-type", "application/json")
                .header("accept", "application/json, text/event-stream")
                .header("mcp-protocol-version", "2026-07-28")
                .header("mcp-method", "subscriptions/listen")
                .header("authorization", format!("Bearer {token}"))
                .body(Full::new(Bytes::from(body.to_string())))
                .unwrap();
            let client = Client::builder(TokioExecutor::new()).build_http();
            let response = client.request(request).await.expect("the server answers");
            let status = response.status().as_u16();
            let messages = Arc::new(Mutex::new(Vec::new()));
            let kept = Arc::clone(&messages);
            let mut body = response.into_body();
            let reader = tokio::spawn(async move {
                let mut text = String::new();
                while let Some(Ok(frame)) = body.frame().await {
                    let Ok(data) = frame.into_data() else {
                        continue;
                    };
                    text.push_str(&String::from_utf8_lossy(&data));
                    while let Some(end) = text.find('\n') {
                        let line: String = text.drain(..=end).collect();
                        let data = line.trim_end().strip_prefix("data: ");
                        if let Some(message) = data.and_then(|d| serde_json::from_str(d).ok()) {
                            kept.lock().unwrap().push(message);
                        }
                    }
                }
            });
            Self {
                status,
                messages,
                reader,
            }
        }

        fn count(&self, method: &str, uri: Option<&str>) -> usize {
            let messages = self.messages.lock().unwrap();
            (messages.iter())
                .filter(|m| m["method"] == method)
                .filter(|m| uri.is_none_or(|uri| m["params"]["uri"] == uri))
                .count()
        }

        /// Waits, at most `limit`, until the stream carried `method` (for `uri`).
        async fn heard(&self, method: &str, uri: Option<&str>, limit: Duration) -> bool {
            let began = Instant::now();
            while began.elapsed() < limit {
                if self.count(method, uri) > 0 {
                    return true;
                }
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
            false
        }
    }

    const UPDATED: &str = "notifications/resources/updated";
    const CHANGED: &str = "notifications/tools/list_changed";

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_scoped_update_reaches_only_the_listeners_with_its_scope_on_every_replica() {
        let Some(redis) = Redis::start() else { return };
        let issuer = Issuer::start(&[("a", KEY_A)]).await;
        let token =
            |scope: &str| issuer::sign(&issuer::claims(&issuer.url(), FLEET, scope), "a", KEY_A);
        let prefix = "scoped:";
        let (a, a_http) = replica(&redis, &issuer, prefix).await;
        let (_b, b) = replica(&redis, &issuer, prefix).await;
        let (_c, c) = replica(&redis, &issuer, prefix).await;
        until_subscribed(&redis, prefix, 3, Duration::from_secs(5)).await;

        // Without the scope, a stream that asks for the secret note is refused.
        let refused = Stream::open(&b.url(), &token("other"), &[SHARED, SECRET]).await;
        assert_eq!(refused.status, 403);
        let (secret, plain) = (token("notes:secret"), token("other"));
        let holders = [
            Stream::open(&a_http.url(), &secret, &[SHARED, SECRET]).await,
            Stream::open(&b.url(), &secret, &[SHARED, SECRET]).await,
            Stream::open(&c.url(), &secret, &[SHARED, SECRET]).await,
        ];
        let others = [
            Stream::open(&b.url(), &plain, &[SHARED]).await,
            Stream::open(&c.url(), &plain, &[SHARED]).await,
        ];
        for stream in holders.iter().chain(&others) {
            assert_eq!(stream.status, 200);
        }
        // The streams are open once their replica registered them: wait for the first
        // message, which acknowledges the subscription.
        for stream in holders.iter().chain(&others) {
            let began = Instant::now();
            while stream.messages.lock().unwrap().is_empty() {
                assert!(
                    began.elapsed() < Duration::from_secs(2),
                    "no acknowledgement"
                );
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
        }

        let raised = Instant::now();
        a.notify_resource_updated(SECRET).await;
        a.notify_resource_updated(SHARED).await;
        a.add_tool(runtime_tool("fresh")).unwrap();
        // What is left of one second since the changes were raised.
        let second = || Duration::from_secs(1).saturating_sub(raised.elapsed());
        for stream in holders.iter().chain(&others) {
            assert!(stream.heard(UPDATED, Some(SHARED), second()).await);
            assert!(stream.heard(CHANGED, None, second()).await);
        }
        for stream in &holders {
            assert!(stream.heard(UPDATED, Some(SECRET), second()).await);
        }
        eprintln!(
            "every stream heard every change {:?} after the first was raised",
            raised.elapsed()
        );
        // Every notification of A's came to each stream once, A's own included, the
        // secret note's to the holders of its scope only.
        tokio::time::sleep(Duration::from_millis(300)).await;
        for stream in &holders {
            assert_eq!(stream.count(UPDATED, Some(SECRET)), 1);
        }
        for stream in holders.iter().chain(&others) {
            assert_eq!(stream.count(UPDATED, Some(SHARED)), 1);
            assert_eq!(stream.count(CHANGED, None), 1);
        }
        for stream in &others {
            assert_eq!(stream.count(UPDATED, Some(SECRET)), 0);
        }
    }
}
