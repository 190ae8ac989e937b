//! Sync tools run off the async workers: a blocking one does not stall other calls,
//! even on a single-threaded runtime, and the server's timeout ends its call.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use mcp_tool::testing::TestClient;
use mcp_tool::{Server, mcp_tool};
use serde_json::json;

static SLEPT: AtomicBool = AtomicBool::new(false);
static SLOW_DONE: AtomicBool = AtomicBool::new(false);

/// Sleeps for two seconds, blocking its thread, then returns.
#[mcp_tool]
fn sleep_two_seconds() -> String {
    std::thread::sleep(Duration::from_secs(2));
    SLEPT.store(true, Ordering::SeqCst);
    "slept".into()
}

/// Blocks its thread for two seconds; called under a short timeout.
#[mcp_tool]
fn slow() -> String {
    std::thread::sleep(Duration::from_secs(2));
    SLOW_DONE.store(true, Ordering::SeqCst);
    "done".into()
}

/// Adds two integers and returns their sum.
#[mcp_tool]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

#[tokio::test(flavor = "current_thread")]
async fn a_blocking_sync_tool_does_not_delay_other_calls() {
    let server = Server::from_registry("sync", "1")
        .only(["sleep_two_seconds", "add"])
        .build()
        .unwrap();
    let client = std::sync::Arc::new(TestClient::connect(server).await.unwrap());
    let sleeper = {
        let client = client.clone();
        tokio::spawn(async move { client.call("sleep_two_seconds", json!({})).await })
    };
    // Let the sleeping call reach its thread first.
    tokio::time::sleep(Duration::from_millis(100)).await;
    let adds = (0..100).map(|i| {
        let client = client.clone();
        async move {
            client
                .call_as::<i64>("add", json!({ "a": i, "b": 1 }))
                .await
        }
    });
    let sums = futures::future::join_all(adds).await;
    for (i, sum) in sums.into_iter().enumerate() {
        assert_eq!(sum.unwrap(), i as i64 + 1);
    }
    assert!(
        !SLEPT.load(Ordering::SeqCst) && !sleeper.is_finished(),
        "the 100 calls waited for the sleeping tool"
    );
    let slept = sleeper.await.unwrap().unwrap();
    assert_eq!(slept.text(), "slept");
}

#[tokio::test(flavor = "current_thread")]
async fn the_timeout_ends_a_call_to_a_blocking_sync_tool() {
    let server = Server::from_registry("sync", "1")
        .only(["slow"])
        .timeout(Duration::from_millis(200))
        .build()
        .unwrap();
    let client = TestClient::connect(server).await.unwrap();
    let result = client.call("slow", json!({})).await.unwrap();
    assert!(result.is_error, "{result:?}");
    assert_eq!(
        result.text(),
        "tool `slow` failed: it did not finish within 200 ms"
    );
    assert!(
        !SLOW_DONE.load(Ordering::SeqCst),
        "the reply waited for the tool to finish"
    );
}
