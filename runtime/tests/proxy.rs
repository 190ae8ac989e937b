//! `Proxy`: an upstream MCP server run as a child process, mounted and called through a
//! server of ours. The upstream is `upstream/fake_upstream.py`, written to misbehave on
//! demand: one connection shared by every call, progress to the caller, list changes
//! followed, a call cancelled by its client cancelled upstream, and each way an upstream
//! fails (never answering, dying mid-call, malformed JSON, a result too large, an error
//! with a secret, a request for sampling it was never allowed, a flood of notifications)
//! contained, named and masked.

#![cfg(feature = "proxy")]

use std::time::{Duration, Instant};

use mcp_tool::model::Notification;
use mcp_tool::testing::TestClient;
use mcp_tool::{Arguments, Proxy, RuntimeTool, Server, ServerError, ToolError, ToolServer};
use serde_json::json;

/// The fake upstream, as a proxy of it, with a short time limit.
fn fake() -> Proxy {
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/upstream/fake_upstream.py"
    );
    Proxy::stdio("python3", [script])
        .named("fake")
        .timeout(Duration::from_secs(2))
        .max_result_size(64 * 1024)
        .restart_backoff(Duration::from_millis(50), Duration::from_millis(200))
}

/// The fake upstream with a short time limit, for the calls it never answers.
fn impatient() -> Proxy {
    fake().timeout(Duration::from_secs(2))
}

/// A gateway serving a local tool beside the fake upstream mounted as `fake`.
async fn gateway(proxy: Proxy) -> (ToolServer, TestClient) {
    let upstream = proxy.start().await.expect("the fake upstream starts");
    let ping = RuntimeTool::new("ping", "Answers pong.").handler(|args: Arguments| async move {
        args.finish()?;
        Ok::<_, ToolError>("pong")
    });
    let server = Server::new("gateway", "1.0.0")
        .tool(ping)
        .mount("fake", upstream)
        .build()
        .expect("the gateway builds");
    let client = TestClient::connect(server.clone()).await.expect("connects");
    (server, client)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn upstream_tools_are_listed_under_the_namespace_and_called_through_it() {
    let (_server, client) = gateway(fake()).await;
    let names: Vec<String> = (client.list().await.unwrap().into_iter())
        .map(|tool| tool.name)
        .collect();
    assert!(names.contains(&"ping".to_owned()), "{names:?}");
    assert!(names.contains(&"fake_echo".to_owned()), "{names:?}");
    // The upstream's own name is kept, hyphen included.
    assert!(names.contains(&"fake_get-pid".to_owned()), "{names:?}");
    let echoed = client
        .call("fake_echo", json!({ "text": "hi" }))
        .await
        .unwrap();
    assert!(!echoed.is_error);
    assert_eq!(echoed.text(), "hi");
    let sum = client
        .call("fake_add", json!({ "a": 2, "b": 40 }))
        .await
        .unwrap();
    assert_eq!(sum.text(), "42");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_call_shares_one_upstream_process() {
    let (_server, client) = gateway(fake()).await;
    let first = client.call("fake_get-pid", json!({})).await.unwrap().text();
    let calls = (0..20).map(|_| client.call("fake_get-pid", json!({})));
    for pid in futures::future::join_all(calls).await {
        assert_eq!(pid.unwrap().text(), first);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn upstream_progress_reaches_the_caller() {
    let (_server, client) = gateway(fake()).await;
    let done = (client.call_with_progress("fake_progress", json!({ "steps": 3 }), "mine"))
        .await
        .unwrap();
    assert_eq!(done.text(), "done");
    let progress: Vec<(serde_json::Value, f64, Option<String>)> = (client.take_notifications())
        .into_iter()
        .filter_map(|sent| match sent {
            Notification::Progress(p) => Some((p.token, p.progress, p.message)),
            _ => None,
        })
        .collect();
    assert_eq!(
        progress,
        [1.0, 2.0, 3.0].map(|step| (json!("mine"), step, Some(format!("step {step}")))),
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn progress_goes_only_to_the_caller_who_asked() {
    let (server, asker) = gateway(fake()).await;
    let other = TestClient::connect(server).await.unwrap();
    let (asked, _) = tokio::join!(
        asker.call_with_progress("fake_progress", json!({ "steps": 2 }), "asker"),
        other.call("fake_echo", json!({ "text": "quiet" })),
    );
    assert_eq!(asked.unwrap().text(), "done");
    let heard = |client: &TestClient| {
        (client.take_notifications().into_iter())
            .filter(|sent| matches!(sent, Notification::Progress(_)))
            .count()
    };
    assert_eq!(heard(&asker), 2);
    assert_eq!(heard(&other), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_upstream_that_never_answers_fails_the_call_in_time_and_is_cancelled_there() {
    let (_server, client) = gateway(impatient()).await;
    let began = Instant::now();
    let hung = client.call("fake_hang", json!({})).await.unwrap();
    assert!(hung.is_error);
    assert!(
        began.elapsed() < Duration::from_secs(5),
        "{:?}",
        began.elapsed()
    );
    assert!(
        hung.text()
            .contains("the upstream server `fake` did not answer within 2s"),
        "{}",
        hung.text()
    );
    // The rest of the server goes on, and the upstream heard the cancellation.
    assert_eq!(client.call("ping", json!({})).await.unwrap().text(), "pong");
    let cancelled = client
        .call("fake_cancelled", json!({}))
        .await
        .unwrap()
        .text();
    let cancelled: Vec<serde_json::Value> = serde_json::from_str(&cancelled).unwrap();
    assert_eq!(cancelled.len(), 1, "{cancelled:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_upstream_that_dies_mid_call_is_restarted_and_the_next_call_served() {
    let (_server, client) = gateway(fake()).await;
    let before = client.call("fake_get-pid", json!({})).await.unwrap().text();
    let died = client.call("fake_die", json!({})).await.unwrap();
    assert!(died.is_error);
    assert!(
        (died.text()).contains("the upstream server `fake` closed its connection during the call"),
        "{}",
        died.text()
    );
    assert_eq!(client.call("ping", json!({})).await.unwrap().text(), "pong");
    let after = client.call("fake_get-pid", json!({})).await.unwrap();
    assert!(!after.is_error, "{}", after.text());
    assert_ne!(after.text(), before, "a new process answers");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_upstream_that_answers_malformed_json_fails_the_call_in_time() {
    let (_server, client) = gateway(impatient()).await;
    let began = Instant::now();
    let garbled = client.call("fake_garbage", json!({})).await.unwrap();
    assert!(garbled.is_error);
    assert!(
        began.elapsed() < Duration::from_secs(5),
        "{:?}",
        began.elapsed()
    );
    assert!(
        (garbled.text()).contains("the upstream server `fake` did not answer"),
        "{}",
        garbled.text()
    );
    // The connection survives the bad line: the next call is answered by the same process.
    assert_eq!(
        client
            .call("fake_echo", json!({ "text": "ok" }))
            .await
            .unwrap()
            .text(),
        "ok"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_result_larger_than_the_limit_fails_the_call_naming_the_upstream() {
    let (_server, client) = gateway(fake()).await;
    let fits = client
        .call("fake_huge", json!({ "bytes": 1000 }))
        .await
        .unwrap();
    assert_eq!(fits.text().len(), 1000);
    let huge = client
        .call("fake_huge", json!({ "bytes": 100_000 }))
        .await
        .unwrap();
    assert!(huge.is_error);
    assert!(
        (huge.text()).contains("the upstream server `fake` answered with")
            && huge
                .text()
                .contains("more than the 65536 a result may have"),
        "{}",
        huge.text()
    );
    assert_eq!(client.call("ping", json!({})).await.unwrap().text(), "pong");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_upstream_error_passes_through_masking() {
    let (_server, client) = gateway(fake()).await;
    let failed = client.call("fake_fail", json!({})).await.unwrap();
    assert!(failed.is_error);
    let text = failed.text();
    assert!(
        text.contains("the upstream server `fake` reported"),
        "{text}"
    );
    assert!(!text.contains("hunter2"), "{text}");
    assert!(!text.contains("/home/alice"), "{text}");
    assert!(text.contains("secret.txt"), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_upstream_list_change_is_followed_and_sent_on() {
    let (_server, client) = gateway(fake()).await;
    assert!(client.tool("fake_added").await.unwrap().is_none());
    assert_eq!(
        client.call("fake_grow", json!({})).await.unwrap().text(),
        "grown"
    );
    assert!(client.tool_list_changed(Duration::from_secs(5)).await);
    // The change may be sent once per tool removed or added: wait until it is listed.
    let deadline = Instant::now() + Duration::from_secs(5);
    while client.tool("fake_added").await.unwrap().is_none() {
        assert!(Instant::now() < deadline, "the added tool is never listed");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(
        client.call("fake_added", json!({})).await.unwrap().text(),
        "here"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_command_that_does_not_start_is_a_clear_error() {
    let error = Proxy::stdio("/nonexistent/upstream-server", Vec::<String>::new())
        .named("missing")
        .start()
        .await
        .unwrap_err();
    assert!(matches!(error, ServerError::Upstream { .. }));
    let text = error.to_string();
    assert!(
        text.starts_with("the upstream server `missing` cannot be served: the command"),
        "{text}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_its_client_cancels_is_cancelled_upstream() {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

    let (server, _client) = gateway(fake()).await;
    let (mut to_server, server_input) = tokio::io::duplex(1 << 16);
    let (server_output, from_server) = tokio::io::duplex(1 << 16);
    tokio::spawn(server.serve_lines(server_input, server_output));
    let mut lines = BufReader::new(from_server).lines();
    let mut send = async |message: serde_json::Value| {
        let line = message.to_string() + "\n";
        to_server.write_all(line.as_bytes()).await.unwrap();
    };
    let call = |id: u64, name: &str| {
        json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call",
                "params": { "name": name, "arguments": {} } })
    };
    send(
        json!({ "jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": { "name": "raw", "version": "1" } } }),
    )
    .await;
    send(json!({ "jsonrpc": "2.0", "method": "notifications/initialized" })).await;
    send(call(7, "fake_hang")).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    send(
        json!({ "jsonrpc": "2.0", "method": "notifications/cancelled",
                 "params": { "requestId": 7, "reason": "the user gave up" } }),
    )
    .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    send(call(8, "fake_cancelled")).await;
    let reply = loop {
        let line = tokio::time::timeout(Duration::from_secs(10), lines.next_line())
            .await
            .expect("a reply within 10 s")
            .unwrap()
            .expect("the server is still there");
        let message: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_ne!(
            message["id"], 7,
            "a cancelled call gets no reply: {message}"
        );
        if message["id"] == 8 {
            break message;
        }
    };
    let text = reply["result"]["content"][0]["text"].as_str().unwrap();
    let cancelled: Vec<serde_json::Value> = serde_json::from_str(text).unwrap();
    assert_eq!(
        cancelled.len(),
        1,
        "the upstream heard one cancellation: {text}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_upstream_request_its_caller_never_allowed_is_refused() {
    let (_server, client) = gateway(fake()).await;
    // The upstream asks for sampling; the proxy declared no such capability.
    let answer = client.call("fake_sample", json!({})).await.unwrap();
    assert!(!answer.is_error, "{}", answer.text());
    let answer: serde_json::Value = serde_json::from_str(&answer.text()).unwrap();
    assert!(
        answer["code"].is_i64(),
        "a JSON-RPC error, not a sample: {answer}"
    );
    assert_eq!(client.call("ping", json!({})).await.unwrap().text(), "pong");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_upstream_that_floods_notifications_is_contained() {
    let (_server, client) = gateway(fake()).await;
    let began = Instant::now();
    let flooded = (client.call_with_progress("fake_flood", json!({}), "flood"))
        .await
        .unwrap();
    assert_eq!(flooded.text(), "flooded");
    assert!(
        began.elapsed() < Duration::from_secs(2),
        "{:?}",
        began.elapsed()
    );
    let heard = (client.take_notifications().into_iter())
        .filter(|sent| matches!(sent, Notification::Progress(_)))
        .count();
    // What the client could not take in time is dropped, never queued without bound.
    assert!((1..=2_000).contains(&heard), "{heard}");
    assert_eq!(client.call("ping", json!({})).await.unwrap().text(), "pong");
}
