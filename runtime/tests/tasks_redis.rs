//! Tasks shared through Redis by two replicas of a server (feature `redis`): a real
//! `redis-server`, started by the test on a free port of 127.0.0.1 and stopped after it,
//! and two servers given its URL, each over its own line transport. A task started on
//! one is polled, answered and cancelled through the other, and a replica that stops
//! mid-task (its runtime shut down, as a killed process's would be) leaves the task
//! failed once its lease lapses.
//!
//! `scripts/setup-redis.sh` installs `redis-server` with apt-get when it is missing.
//! Without it the tests fail under CI and say why elsewhere.

#![cfg(feature = "redis")]

mod common;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use mcp_tool::model::Elicitation;
use mcp_tool::tasks::RedisStore;
use mcp_tool::{Context, Server, ToolError, mcp_tool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use common::redis::Redis;
use common::tasks::{request, until};

#[derive(Deserialize, JsonSchema)]
struct Confirm {
    ok: bool,
}

/// Asks before it deletes.
#[mcp_tool(task = "optional")]
async fn delete(ctx: Context, file: String) -> Result<String, ToolError> {
    match ctx.elicit::<Confirm>(format!("Delete {file}?")).await? {
        Elicitation::Accepted(Confirm { ok: true }) => Ok(format!("deleted {file}")),
        _ => Ok(format!("kept {file}")),
    }
}

static SAW_CANCEL: AtomicBool = AtomicBool::new(false);

/// Works until it is cancelled, and notes that it saw the cancellation.
#[mcp_tool(task = "optional")]
async fn crawl(ctx: Context) -> String {
    ctx.cancelled().await;
    SAW_CANCEL.store(true, Ordering::SeqCst);
    "stopped".to_owned()
}

/// Works for `millis`.
#[mcp_tool(task = "optional")]
async fn index(millis: u64) -> String {
    tokio::time::sleep(Duration::from_millis(millis)).await;
    format!("indexed in {millis} ms")
}

fn replica(redis: &Redis) -> Server {
    Server::from_registry("replica", "1")
        .only(["delete", "crawl", "index"])
        .serve_tasks()
        .task_store(RedisStore::new(&redis.url).unwrap())
        .task_lease(Duration::from_millis(600))
        .task_poll_interval(Duration::from_millis(50))
}

async fn start(client: &mut common::RawClient, tool: &str, arguments: Value) -> String {
    let created = common::tasks::call(client, 1, tool, arguments).await;
    assert_eq!(created["result"]["resultType"], "task", "{created}");
    common::tasks::task_id(&created)
}

#[tokio::test]
async fn a_task_begun_on_one_replica_is_answered_and_read_through_the_other() {
    let Some(redis) = Redis::start() else { return };
    let (mut first, _a) = common::RawClient::connect(replica(&redis).build().unwrap());
    let (mut second, _b) = common::RawClient::connect(replica(&redis).build().unwrap());
    let id = start(&mut first, "delete", json!({ "file": "a.txt" })).await;

    let waiting = until(&mut second, &id, "input_required").await;
    let asked = &waiting["result"]["inputRequests"]["elicitation-1"]["params"]["message"];
    assert_eq!(asked, "Delete a.txt?", "{waiting}");
    let answer = json!({ "action": "accept", "content": { "ok": true } });
    let update = json!({ "taskId": id, "inputResponses": { "elicitation-1": answer } });
    let ack = request(&mut second, 2, "tasks/update", update).await;
    assert_eq!(ack["result"], json!({ "resultType": "complete" }), "{ack}");

    let done = until(&mut second, &id, "completed").await;
    assert_eq!(
        done["result"]["result"]["content"][0]["text"], "deleted a.txt",
        "{done}"
    );
    let same = request(&mut first, 3, "tasks/get", json!({ "taskId": id })).await;
    assert_eq!(same["result"]["result"], done["result"]["result"], "{same}");
}

#[tokio::test]
async fn a_task_cancelled_through_the_other_replica_stops_running() {
    let Some(redis) = Redis::start() else { return };
    SAW_CANCEL.store(false, Ordering::SeqCst);
    let (mut first, _a) = common::RawClient::connect(replica(&redis).build().unwrap());
    let (mut second, _b) = common::RawClient::connect(replica(&redis).build().unwrap());
    let id = start(&mut first, "crawl", json!({})).await;
    let ack = request(&mut second, 2, "tasks/cancel", json!({ "taskId": id })).await;
    assert_eq!(ack["result"], json!({ "resultType": "complete" }), "{ack}");
    let began = Instant::now();
    while !SAW_CANCEL.load(Ordering::SeqCst) {
        assert!(
            began.elapsed() < Duration::from_secs(5),
            "the body never saw the cancel"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let got = request(&mut first, 3, "tasks/get", json!({ "taskId": id })).await;
    assert_eq!(got["result"]["status"], "cancelled", "{got}");
}

#[test]
fn a_replica_that_stops_mid_task_leaves_it_failed_after_its_lease() {
    let Some(redis) = Redis::start() else { return };
    // The first replica runs on a runtime of its own, shut down mid-task as a killed
    // process stops: its tasks stop, and nothing renews their lease.
    let doomed = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let server = replica(&redis).build().unwrap();
    let (id, finished) = doomed.block_on(async {
        let (mut client, _session) = common::RawClient::connect(server);
        let running = start(&mut client, "index", json!({ "millis": 60_000 })).await;
        let finished = start(&mut client, "index", json!({ "millis": 1 })).await;
        until(&mut client, &finished, "completed").await;
        (running, finished)
    });
    doomed.shutdown_background();

    let survivor = tokio::runtime::Runtime::new().unwrap();
    survivor.block_on(async {
        let (mut client, _session) = common::RawClient::connect(replica(&redis).build().unwrap());
        let before = request(&mut client, 2, "tasks/get", json!({ "taskId": id })).await;
        assert_eq!(before["result"]["status"], "working", "{before}");
        tokio::time::sleep(Duration::from_millis(900)).await;
        let after = request(&mut client, 3, "tasks/get", json!({ "taskId": id })).await;
        assert_eq!(after["result"]["status"], "failed", "{after}");
        let message = after["result"]["error"]["message"].as_str().unwrap();
        assert!(
            message.starts_with("the server running the task stopped before it ended"),
            "{message}"
        );
        // The task that had ended keeps its result.
        let kept = request(&mut client, 4, "tasks/get", json!({ "taskId": finished })).await;
        assert_eq!(
            kept["result"]["result"]["content"][0]["text"], "indexed in 1 ms",
            "{kept}"
        );
    });
}

#[tokio::test]
async fn an_expired_task_is_told_apart_from_an_unknown_one_in_redis() {
    let Some(redis) = Redis::start() else { return };
    let server = replica(&redis)
        .task_ttl(Duration::from_millis(300))
        .build()
        .unwrap();
    let (mut client, _session) = common::RawClient::connect(server);
    let id = start(&mut client, "index", json!({ "millis": 1 })).await;
    until(&mut client, &id, "completed").await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let expired = request(&mut client, 2, "tasks/get", json!({ "taskId": id })).await;
    assert_eq!(expired["error"]["code"], -32602, "{expired}");
    let message = expired["error"]["message"].as_str().unwrap();
    assert!(message.contains("has expired"), "{message}");
    let unknown = request(&mut client, 3, "tasks/get", json!({ "taskId": "nope" })).await;
    assert!(
        unknown["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("no task `nope`")
    );
}

#[test]
fn a_url_that_is_not_redis_is_refused_saying_so_without_repeating_it() {
    let error = RedisStore::new("http://user:hunter2-secret@example.com").unwrap_err();
    let error = error.to_string();
    assert!(
        error.starts_with("`redis::Client` refused the URL"),
        "{error}"
    );
    assert!(!error.contains("hunter2"), "{error}");
}

/// Two subjects, each with a task, on two replicas sharing Redis over stateless HTTP
/// with authorization: through either replica, neither can read, answer or cancel the
/// other's task (each gets what an unknown id gets), and each still can its own.
#[cfg(feature = "auth")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn through_either_replica_a_subject_reaches_its_own_tasks_only() {
    use common::authorized::send_2026;
    use common::http::Running;
    use common::issuer::{self, Issuer, KEY_A};
    use mcp_tool::JwtVerifier;

    let Some(redis) = Redis::start() else { return };
    let issuer = Issuer::start(&[("a", KEY_A)]).await;
    // Both replicas serve one resource, as they would behind a load balancer.
    let resource = "http://mcp.example.com/mcp";
    let http_replica = || {
        replica(&redis)
            .stateless(true)
            .allowed_hosts(["127.0.0.1"])
            .authorization(JwtVerifier::issuer(issuer.url()).audience(resource))
            .build()
            .unwrap()
    };
    let replicas = [
        Running::start(http_replica()).await,
        Running::start(http_replica()).await,
    ];
    let token = |subject: &str| {
        let mut claims = issuer::claims(&issuer.url(), resource, "");
        claims["sub"] = json!(subject);
        issuer::sign(&claims, "a", KEY_A)
    };
    let (ada, bob) = (token("ada"), token("bob"));
    let ask = async |at: usize, token: &str, method: &str, params: Value| -> Value {
        let (status, message) = send_2026(&replicas[at].url(), token, method, params).await;
        assert_eq!(status, 200, "{method} at replica {at}: {message}");
        message
    };
    let created = ask(0, &ada, "tools/call", json!({ "name": "crawl" })).await;
    let adas = common::tasks::task_id(&created);
    let created = ask(
        1,
        &bob,
        "tools/call",
        json!({ "name": "delete", "arguments": { "file": "b.txt" } }),
    )
    .await;
    let bobs = common::tasks::task_id(&created);

    let unknown = "00000000000000000000000000000000";
    let answer = json!({ "elicitation-1": { "action": "accept", "content": { "ok": true } } });
    for at in 0..2 {
        for (token, theirs) in [(&bob, &adas), (&ada, &bobs)] {
            for (method, extra) in [
                ("tasks/get", json!({})),
                ("tasks/update", json!({ "inputResponses": answer })),
                ("tasks/cancel", json!({})),
            ] {
                let with = |id: &str| {
                    let mut params = extra.clone();
                    params["taskId"] = json!(id);
                    params
                };
                let got = ask(at, token, method, with(theirs)).await;
                let never = ask(at, token, method, with(unknown)).await;
                let strip =
                    |reply: &Value, id: &str| reply["error"].to_string().replace(id, "<id>");
                assert!(got["error"].is_object(), "{method} at {at}: {got}");
                assert_eq!(
                    strip(&got, theirs),
                    strip(&never, unknown),
                    "{method} at {at}"
                );
            }
        }
    }
    // Each still reaches its own, through either replica: Bob's waits for his answer,
    // Ada's runs on, and both end as their owners say.
    for at in 0..2 {
        let got = ask(at, &ada, "tasks/get", json!({ "taskId": adas })).await;
        assert_eq!(got["result"]["status"], "working", "{got}");
    }
    let got = ask(0, &bob, "tasks/get", json!({ "taskId": bobs })).await;
    assert_eq!(got["result"]["status"], "input_required", "{got}");
    let update = json!({ "taskId": bobs, "inputResponses": answer });
    let ack = ask(0, &bob, "tasks/update", update).await;
    assert!(ack["result"].is_object(), "{ack}");
    let cancel = ask(1, &ada, "tasks/cancel", json!({ "taskId": adas })).await;
    assert!(cancel["result"].is_object(), "{cancel}");
    let began = Instant::now();
    loop {
        let got = ask(1, &bob, "tasks/get", json!({ "taskId": bobs })).await;
        if got["result"]["status"] == "completed" {
            let text = &got["result"]["result"]["content"][0]["text"];
            assert_eq!(text, "deleted b.txt", "{got}");
            break;
        }
        assert!(
            began.elapsed() < Duration::from_secs(10),
            "Bob's task did not end: {got}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let got = ask(0, &ada, "tasks/get", json!({ "taskId": adas })).await;
    assert_eq!(got["result"]["status"], "cancelled", "{got}");
}

/// A replica without authorization and one with it share Redis: the first's tasks belong
/// to no one, and a caller with a token never reaches them through the second; an
/// expired task answers its owner that it expired and another subject as an unknown id.
#[cfg(feature = "auth")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_redis_an_unowned_task_and_another_owners_expired_task_answer_as_unknown_ids() {
    use common::authorized::send_2026;
    use common::http::Running;
    use common::issuer::{self, Issuer, KEY_A};
    use mcp_tool::JwtVerifier;

    let Some(redis) = Redis::start() else { return };
    let (mut open, _session) = common::RawClient::connect(replica(&redis).build().unwrap());
    let unowned = start(&mut open, "crawl", json!({})).await;

    let issuer = Issuer::start(&[("a", KEY_A)]).await;
    let resource = "http://mcp.example.com/mcp";
    let ttl = Duration::from_secs(1);
    let authorized = replica(&redis)
        .stateless(true)
        .task_ttl(ttl)
        .allowed_hosts(["127.0.0.1"])
        .authorization(JwtVerifier::issuer(issuer.url()).audience(resource))
        .build()
        .unwrap();
    let authorized = Running::start(authorized).await;
    let token = |subject: &str| {
        let mut claims = issuer::claims(&issuer.url(), resource, "");
        claims["sub"] = json!(subject);
        issuer::sign(&claims, "a", KEY_A)
    };
    let (ada, bob) = (token("ada"), token("bob"));
    let url = authorized.url();
    let unknown = "00000000000000000000000000000000";
    let strip = |reply: &Value, id: &str| reply["error"].to_string().replace(id, "<id>");
    let get = |id: &str| json!({ "taskId": id });

    let (_, hidden) = send_2026(&url, &ada, "tasks/get", get(&unowned)).await;
    let (_, never) = send_2026(&url, &ada, "tasks/get", get(unknown)).await;
    assert!(hidden["error"].is_object(), "{hidden}");
    assert_eq!(strip(&hidden, &unowned), strip(&never, unknown));
    let seen = request(&mut open, 2, "tasks/get", get(&unowned)).await;
    assert_eq!(seen["result"]["status"], "working", "{seen}");

    let created = Instant::now();
    let (_, task) = send_2026(&url, &ada, "tools/call", json!({ "name": "crawl" })).await;
    let adas = common::tasks::task_id(&task);
    tokio::time::sleep_until((created + ttl * 13 / 10).into()).await;
    let (_, theirs) = send_2026(&url, &bob, "tasks/get", get(&adas)).await;
    let (_, never) = send_2026(&url, &bob, "tasks/get", get(unknown)).await;
    assert!(theirs["error"].is_object(), "{theirs}");
    assert_eq!(strip(&theirs, &adas), strip(&never, unknown));
    let (_, own) = send_2026(&url, &ada, "tasks/get", get(&adas)).await;
    let message = own["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("has expired"), "{own}");
}
