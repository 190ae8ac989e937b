//! A rate limit shared through Redis (feature `redis`): a real `redis-server`, started by
//! the test on a free port of 127.0.0.1, and "replicas" that share nothing in process
//! (each its own `RateLimitLayer`) but the Redis and the prefix they are given. A caller
//! gets its limit across all of them; a Redis that stops serves or refuses, as the layer
//! says, and counts again once back.
//!
//! `scripts/setup-redis.sh` installs `redis-server` with apt-get when it is missing.
//! Without it the tests fail under CI and say why elsewhere.

mod common;

use std::convert::Infallible;
use std::io::{Read as _, Write as _};
use std::time::{Duration, Instant};

use http_body_util::BodyExt as _;
use mcp_tool::middleware::{
    RateLimitKey, RateLimitLayer, RedisFailure, RedisLimits, Request, Response,
};
use mcp_tool::model::RequestId;
use mcp_tool::{Server, mcp_tool};
use serde_json::json;
use tower::util::BoxCloneSyncService;
use tower::{ServiceBuilder, ServiceExt as _, service_fn};

use common::RawClient;
use common::http::Running;
use common::log::Captured;
use common::redis::Redis;

/// Adds two integers.
#[mcp_tool]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

type Replica = BoxCloneSyncService<Request, Response, Infallible>;

/// A replica: `layer` around a service that serves every request it is given.
fn replica(layer: RateLimitLayer) -> Replica {
    let served = service_fn(|_: Request| async { Ok(Response::tool_error("served")) });
    BoxCloneSyncService::new(ServiceBuilder::new().layer(layer).service(served))
}

/// A limit of `n` a minute for each session, counted in `redis` under `prefix`.
fn limit(redis: &Redis, prefix: &str, n: u32) -> RateLimitLayer {
    let limits = RedisLimits::new(&redis.url).unwrap().with_prefix(prefix);
    (RateLimitLayer::per_minute(n).keyed_by(RateLimitKey::Session)).shared_in(limits)
}

fn call(id: i64, session: &str) -> Request {
    Request::new("tools/call", Some(RequestId::Number(id)))
        .with_target("add")
        .with_session(session)
}

async fn ask(replica: &Replica, id: i64, session: &str) -> Response {
    replica.clone().oneshot(call(id, session)).await.unwrap()
}

/// Whether `response` is the service's, not a refusal.
fn served(response: &Response) -> bool {
    response.error_code().is_none()
}

/// The names of the keys under `prefix`, asked of Redis in its inline protocol.
fn keys(redis: &Redis, prefix: &str) -> String {
    let address = redis.url.trim_start_matches("redis://");
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    write!(stream, "KEYS {prefix}*\r\nQUIT\r\n").unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    answer
}

#[tokio::test]
async fn three_replicas_share_one_count_for_each_session() {
    let Some(redis) = Redis::start() else { return };
    const N: usize = 50;
    let replicas: Vec<Replica> = (0..3)
        .map(|_| replica(limit(&redis, "shared:", N as u32)))
        .collect();
    let mut heavy: usize = 0;
    let mut refusal = None;
    for id in 0..3 * N {
        let answer = ask(&replicas[id % 3], id as i64, "heavy-session").await;
        if served(&answer) {
            heavy += 1;
        } else {
            refusal = Some(answer);
        }
        if id % 10 == 0 {
            let light = ask(&replicas[(id + 1) % 3], id as i64, "light-session").await;
            assert!(served(&light), "another session is served: {light:?}");
        }
    }
    println!(
        "served {heavy} of {} requests of a session limited to {N}",
        3 * N
    );
    assert!(heavy.abs_diff(N) <= 1, "served {heavy}, expected {N}");

    let refusal = refusal.expect("the session was refused");
    assert_eq!(refusal.error_code(), Some(-32000));
    let message = refusal.error_message().unwrap();
    let wait = refusal.to_json()["data"]["retryAfterSeconds"]
        .as_f64()
        .unwrap();
    // One request every 1.2 s: the next is at most that far.
    assert!(wait > 0.0 && wait <= 1.2, "{wait}");
    assert_eq!(
        message,
        format!(
            "Rate limit exceeded: this server allows 50 requests a minute for each caller; \
             try again in {wait:.1} s"
        )
    );

    let kept = keys(&redis, "shared:");
    assert_eq!(
        kept.matches("shared:").count(),
        2,
        "one key a session: {kept}"
    );
    assert!(!kept.contains("session"), "a session is digested: {kept}");
}

#[tokio::test]
async fn a_different_prefix_is_a_different_count() {
    let Some(redis) = Redis::start() else { return };
    let first = replica(limit(&redis, "first:", 3));
    let second = replica(limit(&redis, "second:", 3));
    for (name, replica) in [("first", &first), ("second", &second)] {
        let mut count = 0;
        for id in 0..6 {
            count += usize::from(served(&ask(replica, id, "one-session").await));
        }
        assert_eq!(count, 3, "{name}");
    }
}

/// Whether `reply`, to a call of `add` with 1 and 2, served it (3) or refused it as the
/// rate limit refuses (-32000); anything else fails the test.
fn add_served(reply: &serde_json::Value) -> bool {
    if reply["error"].is_object() {
        assert_eq!(reply["error"]["code"], -32000, "{reply}");
        return false;
    }
    assert_eq!(reply["result"]["structuredContent"]["result"], 3, "{reply}");
    true
}

/// Calls `add` over `client` and tells whether it was served.
async fn add_over(client: &mut RawClient, id: u64) -> bool {
    let message = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": "add", "arguments": {"a": 1, "b": 2}}});
    client.send(&message.to_string()).await;
    let reply = client.receive().await;
    assert_eq!(reply["id"], id, "{reply}");
    add_served(&reply)
}

#[tokio::test]
async fn two_servers_given_one_redis_share_the_count() {
    let Some(redis) = Redis::start() else { return };
    const N: u64 = 5;
    let mut clients = Vec::new();
    for _ in 0..2 {
        let limits = RedisLimits::new(&redis.url)
            .unwrap()
            .with_prefix("servers:");
        let server = Server::from_registry("replica", "1")
            .layer(RateLimitLayer::per_minute(N as u32).shared_in(limits))
            .build()
            .unwrap();
        clients.push(RawClient::start(server).await);
    }
    let mut count = 0;
    for id in 1..=3 * N {
        // Over stdio the one client is one caller: both servers count it alike.
        count += u64::from(add_over(&mut clients[(id % 2) as usize], id).await);
    }
    println!(
        "two servers served {count} of {} calls limited to {N}",
        3 * N
    );
    assert_eq!(count, N);
}

/// Calls `add` on the stateless HTTP server at `url` and tells whether it was served.
async fn add_at(url: &str, id: u64) -> bool {
    let message = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": "add", "arguments": {"a": 1, "b": 2}}});
    let response = common::http::send(http::Method::POST, url, &[], message.to_string()).await;
    let body = response.into_body().collect().await.unwrap().to_bytes();
    let text = String::from_utf8_lossy(&body);
    let data = (text.lines())
        .find_map(|line| {
            line.strip_prefix("data: ")
                .filter(|data| data.starts_with('{'))
        })
        .unwrap_or(&text);
    let reply: serde_json::Value = serde_json::from_str(data).unwrap();
    add_served(&reply)
}

#[tokio::test]
async fn two_http_servers_given_one_redis_share_the_count_of_a_client_address() {
    let Some(redis) = Redis::start() else { return };
    const N: u64 = 5;
    let mut running = Vec::new();
    for _ in 0..2 {
        let limits = RedisLimits::new(&redis.url).unwrap().with_prefix("http:");
        let limit = RateLimitLayer::per_minute(N as u32).keyed_by(RateLimitKey::ClientAddress);
        let server = Server::from_registry("replica", "1")
            .stateless(true)
            .layer(limit.shared_in(limits))
            .build()
            .unwrap();
        running.push(Running::start(server).await);
    }
    let mut count = 0;
    for id in 1..=3 * N {
        count += u64::from(add_at(&running[(id % 2) as usize].url(), id).await);
    }
    println!(
        "two HTTP servers served {count} of {} calls limited to {N}",
        3 * N
    );
    assert_eq!(count, N);
}

/// Asks `replica` until Redis counts again: until it answers otherwise than it does
/// while Redis is away.
async fn until_counted(replica: &Replica, session: &str) {
    let began = Instant::now();
    loop {
        let answer = ask(replica, 0, session).await;
        let unavailable = answer
            .error_message()
            .is_some_and(|m| m.contains("unavailable"));
        if !unavailable {
            return;
        }
        assert!(
            began.elapsed() < Duration::from_secs(15),
            "Redis counts again"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn a_stopped_redis_serves_or_refuses_as_the_layer_says_and_counts_once_back() {
    let Some(mut redis) = Redis::start() else {
        return;
    };
    let log = Captured::default();
    let _guard = log.install("mcp_tool=warn");
    const N: usize = 3;
    let open = replica(limit(&redis, "open:", N as u32).when_redis_fails(RedisFailure::Open));
    let refuse = replica(limit(&redis, "refuse:", N as u32).when_redis_fails(RedisFailure::Refuse));
    for id in 0..N as i64 {
        assert!(served(&ask(&open, id, "before").await));
        assert!(served(&ask(&refuse, id, "before").await));
    }
    assert!(!served(&ask(&open, 9, "before").await), "over the limit");

    redis.stop();
    for id in 0..2 * N as i64 {
        let answer = ask(&open, id, "before").await;
        assert!(
            served(&answer),
            "open: served while Redis is away: {answer:?}"
        );
        let answer = ask(&refuse, id, "before").await;
        assert_eq!(answer.error_code(), Some(-32000), "{answer:?}");
        assert_eq!(
            answer.error_message().as_deref(),
            Some("rate limit unavailable, try again in a moment")
        );
        assert_eq!(answer.to_json()["data"]["retryAfterSeconds"], 1);
    }
    let logged = log.text();
    let warnings = logged.matches("the shared rate limit cannot count").count();
    assert_eq!(warnings, 2, "one warning each, not one a call: {logged}");
    assert!(logged.contains("calls are served uncounted"), "{logged}");
    assert!(logged.contains("calls are refused"), "{logged}");
    assert!(!logged.contains(&redis.url), "{logged}");

    redis.restart();
    until_counted(&refuse, "probe").await;
    // Past the second in which a failed Redis is not asked.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    for (name, replica) in [("open", &open), ("refuse", &refuse)] {
        let mut count = 0;
        for id in 0..3 * N as i64 {
            count += usize::from(served(&ask(replica, id, "after").await));
        }
        println!("{name}: served {count} of {} after the restart", 3 * N);
        assert!(count.abs_diff(N) <= 1, "{name}: served {count}");
    }
}

#[tokio::test]
async fn a_limited_call_costs_one_round_trip_to_redis() {
    let Some(redis) = Redis::start() else { return };
    const CALLS: i64 = 1000;
    let in_memory = replica(RateLimitLayer::per_second(1_000_000).keyed_by(RateLimitKey::Session));
    let shared = replica(limit(&redis, "cost:", 1_000_000));
    for (name, replica) in [("in memory", &in_memory), ("in Redis", &shared)] {
        // A first call connects.
        assert!(served(&ask(replica, 0, "warm").await));
        let began = Instant::now();
        for id in 0..CALLS {
            assert!(served(&ask(replica, id, "timed").await), "{name}");
        }
        let each = began.elapsed() / CALLS as u32;
        println!("{CALLS} limited calls counted {name}: {each:?} each");
    }
}

#[tokio::test]
async fn the_shared_count_has_the_burst_and_pace_of_the_count_in_memory() {
    let Some(redis) = Redis::start() else { return };
    let limits = RedisLimits::new(&redis.url).unwrap().with_prefix("pace:");
    let in_memory = replica(RateLimitLayer::per_second(10).keyed_by(RateLimitKey::Session));
    let shared =
        replica((RateLimitLayer::per_second(10).keyed_by(RateLimitKey::Session)).shared_in(limits));
    for (name, replica) in [("in memory", &in_memory), ("in Redis", &shared)] {
        let mut burst = 0;
        while served(&ask(replica, burst, "paced").await) {
            burst += 1;
        }
        assert_eq!(burst, 10, "{name}: a burst of 10");
        // One more every 100 ms.
        tokio::time::sleep(Duration::from_millis(110)).await;
        assert!(served(&ask(replica, 20, "paced").await), "{name}");
        let refused = ask(replica, 21, "paced").await;
        let wait = refused.to_json()["data"]["retryAfterSeconds"].as_f64();
        assert_eq!(wait, Some(0.1), "{name}: {refused:?}");
    }
}

#[test]
fn a_shared_limit_says_its_prefix_and_never_its_url() {
    let url = "redis://user:secret@127.0.0.1:6390/2";
    let layer = RateLimitLayer::per_minute(5)
        .shared_in(RedisLimits::new(url).unwrap().with_prefix("app:limit:"))
        .when_redis_fails(RedisFailure::Refuse);
    let shown = format!("{layer:?}");
    assert!(
        shown.contains("app:limit:") && shown.contains("Refuse"),
        "{shown}"
    );
    assert!(
        !shown.contains("secret") && !shown.contains("6390"),
        "{shown}"
    );
    let error = RedisLimits::new("http://user:secret@host").unwrap_err();
    assert!(!error.to_string().contains("secret"), "{error}");
}
