//! Requests of the tasks extension over the line transport, as a client of protocol
//! 2026-07-28 that declares the extension sends them.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::RawClient;

/// The tasks extension's id.
pub const TASKS: &str = "io.modelcontextprotocol/tasks";

/// The `_meta` of a 2026-07-28 request from a client that declares the tasks extension
/// (or not), and elicitation.
pub fn meta(tasks: bool) -> Value {
    let mut capabilities = json!({ "elicitation": {} });
    if tasks {
        capabilities["extensions"] = json!({ TASKS: {} });
    }
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": { "name": "tasks-test", "version": "1" },
        "io.modelcontextprotocol/clientCapabilities": capabilities
    })
}

/// Sends `method` with `params` (and the extension declared) and returns the reply.
pub async fn request(client: &mut RawClient, id: u64, method: &str, params: Value) -> Value {
    let mut params = params;
    params["_meta"] = meta(true);
    let line = json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params });
    client.send(&line.to_string()).await;
    let reply = client.receive().await;
    assert_eq!(reply["id"], id, "{reply}");
    reply
}

/// `tools/call` of `tool` with `arguments`.
pub async fn call(client: &mut RawClient, id: u64, tool: &str, arguments: Value) -> Value {
    let params = json!({ "name": tool, "arguments": arguments });
    request(client, id, "tools/call", params).await
}

/// `tasks/get` until the task is `status` (or has ended), within 10 s.
pub async fn until(client: &mut RawClient, task: &str, status: &str) -> Value {
    let began = Instant::now();
    for id in 1000.. {
        let got = request(client, id, "tasks/get", json!({ "taskId": task })).await;
        let now = got["result"]["status"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        if now == status || ["completed", "failed", "cancelled"].contains(&now.as_str()) {
            return got;
        }
        let waited = began.elapsed() < Duration::from_secs(10);
        assert!(waited, "the task did not become {status}: {got}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    unreachable!()
}

/// The task id of a `CreateTaskResult`.
pub fn task_id(created: &Value) -> String {
    let id = created["result"]["taskId"].as_str();
    id.unwrap_or_else(|| panic!("a task id: {created}"))
        .to_owned()
}
