//! Time and load limits: a tool's own `timeout` over the server's, shorter or longer,
//! the error that names the tool and the limit it ran into, and `max_concurrent_calls`,
//! beyond which calls wait their turn.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use mcp_tool::testing::TestClient;
use mcp_tool::{Server, mcp_tool};
use serde_json::json;

/// Sleeps for two seconds, past its own limit.
#[mcp_tool(timeout = "100ms")]
async fn hasty() -> String {
    tokio::time::sleep(Duration::from_secs(2)).await;
    "woke".to_owned()
}

/// Sleeps for 300 ms, within its own limit and past the server's.
#[mcp_tool(timeout = "1m30s")]
async fn patient() -> String {
    tokio::time::sleep(Duration::from_millis(300)).await;
    "woke".to_owned()
}

/// Sleeps for 300 ms on a blocking thread, within its own limit and past the server's.
#[mcp_tool(timeout = "2s")]
fn patient_sync() -> String {
    std::thread::sleep(Duration::from_millis(300));
    "woke".to_owned()
}

/// Sleeps for 300 ms, with no limit of its own.
#[mcp_tool]
async fn plain() -> String {
    tokio::time::sleep(Duration::from_millis(300)).await;
    "woke".to_owned()
}

async fn client(timeout: Option<Duration>) -> TestClient {
    let server = Server::from_registry("limits", "1");
    let server = match timeout {
        Some(limit) => server.timeout(limit),
        None => server,
    };
    TestClient::connect(server.build().unwrap()).await.unwrap()
}

#[tokio::test(flavor = "current_thread")]
async fn a_shorter_tool_timeout_ends_the_call_before_the_servers() {
    let client = client(Some(Duration::from_secs(10))).await;
    let result = client.call("hasty", json!({})).await.unwrap();
    assert!(result.is_error, "{result:?}");
    assert_eq!(
        result.text(),
        "tool `hasty` failed: it did not finish within 100 ms"
    );
}

#[tokio::test(flavor = "current_thread")]
async fn a_tool_timeout_applies_without_a_server_timeout() {
    let client = client(None).await;
    let result = client.call("hasty", json!({})).await.unwrap();
    assert!(result.is_error, "{result:?}");
    assert_eq!(
        result.text(),
        "tool `hasty` failed: it did not finish within 100 ms"
    );
}

#[tokio::test(flavor = "current_thread")]
async fn a_longer_tool_timeout_lets_the_call_outlast_the_servers() {
    let client = client(Some(Duration::from_millis(100))).await;
    for tool in ["patient", "patient_sync"] {
        let result = client.call(tool, json!({})).await.unwrap();
        assert!(!result.is_error, "{tool}: {result:?}");
        assert_eq!(result.text(), "woke");
    }
    let result = client.call("plain", json!({})).await.unwrap();
    assert!(result.is_error, "{result:?}");
    assert_eq!(
        result.text(),
        "tool `plain` failed: it did not finish within 100 ms"
    );
}

#[tokio::test(flavor = "current_thread")]
async fn a_direct_call_keeps_the_tools_timeout() {
    let server = Server::from_registry("limits", "1")
        .timeout(Duration::from_secs(10))
        .build()
        .unwrap();
    let result = server.call("hasty", Default::default()).await.unwrap();
    assert!(result.is_error, "{result:?}");
    assert_eq!(
        result.text(),
        "tool `hasty` failed: it did not finish within 100 ms"
    );
}

/// How many calls of `crowded` run now, and the most that ever ran at once.
static RUNNING: AtomicUsize = AtomicUsize::new(0);
static MOST: AtomicUsize = AtomicUsize::new(0);
static RUNNING_SYNC: AtomicUsize = AtomicUsize::new(0);
static MOST_SYNC: AtomicUsize = AtomicUsize::new(0);

/// Records how many calls run at once, for 50 ms.
#[mcp_tool]
async fn crowded(n: u32) -> u32 {
    let now = RUNNING.fetch_add(1, Ordering::SeqCst) + 1;
    MOST.fetch_max(now, Ordering::SeqCst);
    tokio::time::sleep(Duration::from_millis(50)).await;
    RUNNING.fetch_sub(1, Ordering::SeqCst);
    n
}

/// Records how many calls run at once on blocking threads, for 50 ms.
#[mcp_tool]
fn crowded_sync(n: u32) -> u32 {
    let now = RUNNING_SYNC.fetch_add(1, Ordering::SeqCst) + 1;
    MOST_SYNC.fetch_max(now, Ordering::SeqCst);
    std::thread::sleep(Duration::from_millis(50));
    RUNNING_SYNC.fetch_sub(1, Ordering::SeqCst);
    n
}

async fn six_calls_at_once(client: &TestClient, tool: &str) -> Vec<serde_json::Value> {
    let calls = (0..6).map(|n| client.call(tool, json!({ "n": n })));
    let results = futures::future::join_all(calls).await;
    results
        .into_iter()
        .map(|result| {
            let result = result.unwrap();
            assert!(!result.is_error, "{tool}: {result:?}");
            result.structured.unwrap()["result"].clone()
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn calls_beyond_the_limit_wait_their_turn_and_all_complete() {
    let server = Server::from_registry("limits", "1")
        .max_concurrent_calls(2)
        .build()
        .unwrap();
    let client = TestClient::connect(server).await.unwrap();
    let expected: Vec<_> = (0..6).map(|n| json!(n)).collect();
    assert_eq!(six_calls_at_once(&client, "crowded").await, expected);
    assert_eq!(MOST.load(Ordering::SeqCst), 2, "async calls at once");
    assert_eq!(six_calls_at_once(&client, "crowded_sync").await, expected);
    assert_eq!(MOST_SYNC.load(Ordering::SeqCst), 2, "sync calls at once");
}

#[tokio::test(flavor = "current_thread")]
async fn a_tools_time_limit_still_applies_under_a_call_limit() {
    let server = Server::from_registry("limits", "1")
        .max_concurrent_calls(1)
        .build()
        .unwrap();
    let client = TestClient::connect(server).await.unwrap();
    let (hasty, patient) = tokio::join!(
        client.call("hasty", json!({})),
        client.call("patient", json!({}))
    );
    let (hasty, patient) = (hasty.unwrap(), patient.unwrap());
    assert!(hasty.is_error, "{hasty:?}");
    assert_eq!(
        hasty.text(),
        "tool `hasty` failed: it did not finish within 100 ms"
    );
    assert!(!patient.is_error, "{patient:?}");
    assert_eq!(patient.text(), "woke");
}
