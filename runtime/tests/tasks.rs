//! Tasks (the tasks extension, SEP-2663, on protocol 2026-07-28), over the line
//! transport: a call of a tool that allows tasks is answered with a task id while its
//! body runs on; `tasks/get` reads its progress, its questions, its result or its error;
//! `tasks/update` answers its questions; `tasks/cancel` cancels the body. Each error a
//! client can meet (an unknown or expired task, an update for a task that asked nothing,
//! a cancel of an ended task, a required-task tool called plainly, too many tasks) has
//! the protocol's code and a message that says what to do.

mod common;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use mcp_tool::model::{Elicitation, TaskSupport};
use mcp_tool::{Arguments, Context, RuntimeTool, Server, ToolError, mcp_tool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

use common::table_store::TableStore;
use common::tasks::{TASKS, call, meta, request, task_id, until};
use mcp_tool::tasks::MemoryStore;

/// Works for `millis`, reporting progress, then says how long it worked.
#[mcp_tool(task = "optional")]
async fn index(ctx: Context, millis: u64) -> String {
    ctx.progress_with_message(1, 2, "indexing").await;
    tokio::time::sleep(Duration::from_millis(millis)).await;
    format!("indexed in {millis} ms")
}

/// Says it ran; a task whatever the client.
#[mcp_tool(task = "required")]
fn report() -> String {
    "the report".to_owned()
}

static SAW_CANCEL: AtomicBool = AtomicBool::new(false);

/// Waits until it is cancelled, and notes that it saw the cancellation.
#[mcp_tool(task = "optional")]
async fn wait_forever(ctx: Context) -> String {
    ctx.cancelled().await;
    SAW_CANCEL.store(true, Ordering::SeqCst);
    "cancelled".to_owned()
}

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

#[derive(Deserialize, JsonSchema)]
struct Year {
    year: u32,
}

/// Asks which year within the request, then goes on as a task.
#[mcp_tool(task = "required", task_begins = "in_body")]
async fn yearly(ctx: Context) -> Result<String, ToolError> {
    let Elicitation::Accepted(Year { year }) = ctx.elicit::<Year>("Which year?").await? else {
        return Ok("no year".to_owned());
    };
    ctx.begin_task().await?;
    tokio::time::sleep(Duration::from_millis(50)).await;
    Ok(format!("the report of {year}"))
}

/// Asks, gives up waiting after a moment, and works on.
#[mcp_tool(task = "optional")]
async fn impatient(ctx: Context) -> String {
    let asked = ctx.elicit::<Confirm>("Go on?");
    let answered = tokio::time::timeout(Duration::from_millis(100), asked)
        .await
        .is_ok();
    tokio::time::sleep(Duration::from_millis(400)).await;
    format!("answered: {answered}")
}

/// Panics with a secret in its message.
#[mcp_tool(task = "optional")]
async fn crash() -> String {
    panic!("cannot connect with password=hunter2-secret")
}

/// Where the server under test keeps its tasks: every test body below runs once on each.
#[derive(Debug, Clone, Copy)]
enum Store {
    /// The server's own, in memory.
    Memory,
    /// One written against the public trait alone, as a user would (`common::table_store`).
    Table,
}

impl Store {
    fn keep(self, server: Server) -> Server {
        match self {
            Self::Memory => server.task_store(MemoryStore::default()),
            Self::Table => server.task_store(TableStore::default()),
        }
    }
}

fn server(store: Store) -> Server {
    store.keep(Server::from_registry("tasks", "1").only([
        "index",
        "report",
        "wait_forever",
        "delete",
        "crash",
        "yearly",
        "impatient",
    ]))
}

/// Runs each test body on each store, as `memory::NAME` and `table::NAME`.
macro_rules! on_each_store {
    ($($test:ident),* $(,)?) => {
        mod memory {
            $(#[tokio::test]
            async fn $test() {
                super::$test(super::Store::Memory).await
            })*
        }
        mod table {
            $(#[tokio::test]
            async fn $test() {
                super::$test(super::Store::Table).await
            })*
        }
    };
}

on_each_store!(
    a_task_answers_at_once_and_its_progress_and_result_are_read_with_tasks_get,
    without_the_extension_an_optional_tool_answers_within_its_request,
    a_required_task_tool_called_plainly_is_refused_naming_the_extension,
    an_unknown_task_id_is_invalid_params_that_say_where_ids_come_from,
    an_update_for_a_task_that_asked_nothing_says_it_is_not_waiting,
    a_question_waits_for_tasks_update_and_the_answer_completes_the_task,
    cancelling_a_task_cancels_its_body_and_a_second_cancel_acks_alike,
    a_cancel_of_a_completed_task_acks_and_the_result_stays,
    a_task_past_its_ttl_gets_an_error_that_says_it_expired,
    a_panic_fails_the_task_with_a_protocol_error_whose_message_is_masked,
    over_the_task_limit_a_call_is_refused_with_what_to_do,
    a_run_time_tool_runs_as_a_task_when_it_says_so,
    a_tool_that_begins_its_task_in_its_body_asks_in_rounds_first,
    a_result_too_large_to_keep_fails_the_task_with_both_sizes,
    a_question_the_body_stopped_waiting_for_is_withdrawn,
    a_task_still_running_at_the_end_of_its_ttl_is_cancelled,
);

async fn a_task_answers_at_once_and_its_progress_and_result_are_read_with_tasks_get(store: Store) {
    let (mut client, _session) = common::RawClient::connect(server(store).build().unwrap());
    let created = call(&mut client, 1, "index", json!({ "millis": 300 })).await;
    let result = &created["result"];
    assert_eq!(result["resultType"], "task", "{created}");
    assert_eq!(result["status"], "working", "{created}");
    assert_eq!(result["ttlMs"], 3_600_000, "{created}");
    assert_eq!(result["pollIntervalMs"], 500, "{created}");
    assert!(result.get("content").is_none(), "{created}");
    let id = task_id(&created);
    assert_eq!(id.len(), 32, "128 random bits in hex: {id}");

    let working = until(&mut client, &id, "working").await;
    tokio::time::sleep(Duration::from_millis(50)).await;
    let working = match working["result"]["statusMessage"].is_string() {
        true => working,
        false => request(&mut client, 2, "tasks/get", json!({ "taskId": id })).await,
    };
    assert_eq!(working["result"]["statusMessage"], "indexing", "{working}");

    let done = until(&mut client, &id, "completed").await;
    assert_eq!(done["result"]["status"], "completed", "{done}");
    assert_eq!(done["result"]["resultType"], "complete", "{done}");
    assert_eq!(
        done["result"]["result"]["content"][0]["text"], "indexed in 300 ms",
        "{done}"
    );
}

async fn without_the_extension_an_optional_tool_answers_within_its_request(store: Store) {
    let (mut client, _session) = common::RawClient::connect(server(store).build().unwrap());
    let line = json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": { "name": "index", "arguments": { "millis": 1 }, "_meta": meta(false) }
    });
    client.send(&line.to_string()).await;
    let reply = client.receive().await;
    assert_eq!(
        reply["result"]["content"][0]["text"], "indexed in 1 ms",
        "{reply}"
    );
    assert!(reply["result"].get("taskId").is_none(), "{reply}");
}

async fn a_required_task_tool_called_plainly_is_refused_naming_the_extension(store: Store) {
    let (mut client, _session) = common::RawClient::connect(server(store).build().unwrap());
    let line = json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": { "name": "report", "arguments": {}, "_meta": meta(false) }
    });
    client.send(&line.to_string()).await;
    let reply = client.receive().await;
    let error = &reply["error"];
    assert_eq!(error["code"], -32021, "{reply}");
    assert_eq!(
        error["message"],
        "Missing required client capability: the tool `report` runs only as a task; declare \
         the tasks extension (`io.modelcontextprotocol/tasks`) in the client's capabilities \
         and call it again"
    );
    assert_eq!(
        error["data"]["requiredCapabilities"]["extensions"][TASKS],
        json!({}),
        "{reply}"
    );
}

async fn an_unknown_task_id_is_invalid_params_that_say_where_ids_come_from(store: Store) {
    let (mut client, _session) = common::RawClient::connect(server(store).build().unwrap());
    for (id, method) in [(1, "tasks/get"), (2, "tasks/cancel")] {
        let reply = request(&mut client, id, method, json!({ "taskId": "no-such-task" })).await;
        assert_eq!(reply["error"]["code"], -32602, "{reply}");
        assert_eq!(
            reply["error"]["message"],
            "no task `no-such-task`: the id is not one this server gave (or the task ended so \
             long ago that it is forgotten); use the taskId of a tools/call's CreateTaskResult"
        );
    }
}

async fn an_update_for_a_task_that_asked_nothing_says_it_is_not_waiting(store: Store) {
    let (mut client, _session) = common::RawClient::connect(server(store).build().unwrap());
    let id = task_id(&call(&mut client, 1, "index", json!({ "millis": 2000 })).await);
    let answers =
        json!({ "taskId": id, "inputResponses": { "elicitation-1": { "action": "accept" } } });
    let reply = request(&mut client, 2, "tasks/update", answers).await;
    assert_eq!(reply["error"]["code"], -32602, "{reply}");
    assert_eq!(
        reply["error"]["message"],
        format!(
            "the task `{id}` is not waiting for input: it is working; send tasks/update only \
             while tasks/get shows it input_required, with answers under the keys of its \
             inputRequests"
        )
    );
}

async fn a_question_waits_for_tasks_update_and_the_answer_completes_the_task(store: Store) {
    let (mut client, _session) = common::RawClient::connect(server(store).build().unwrap());
    let id = task_id(&call(&mut client, 1, "delete", json!({ "file": "a.txt" })).await);
    let waiting = until(&mut client, &id, "input_required").await;
    let request_sent = &waiting["result"]["inputRequests"]["elicitation-1"];
    assert_eq!(request_sent["method"], "elicitation/create", "{waiting}");
    assert_eq!(
        request_sent["params"]["message"], "Delete a.txt?",
        "{waiting}"
    );

    let answer = json!({ "action": "accept", "content": { "ok": true } });
    let update = json!({ "taskId": id, "inputResponses": { "elicitation-1": answer } });
    let ack = request(&mut client, 2, "tasks/update", update).await;
    assert_eq!(ack["result"], json!({ "resultType": "complete" }), "{ack}");
    let done = until(&mut client, &id, "completed").await;
    assert_eq!(
        done["result"]["result"]["content"][0]["text"], "deleted a.txt",
        "{done}"
    );
}

async fn cancelling_a_task_cancels_its_body_and_a_second_cancel_acks_alike(store: Store) {
    let (mut client, _session) = common::RawClient::connect(server(store).build().unwrap());
    SAW_CANCEL.store(false, Ordering::SeqCst);
    let id = task_id(&call(&mut client, 1, "wait_forever", json!({})).await);
    let ack = request(&mut client, 2, "tasks/cancel", json!({ "taskId": id })).await;
    assert_eq!(ack["result"], json!({ "resultType": "complete" }), "{ack}");
    let got = request(&mut client, 3, "tasks/get", json!({ "taskId": id })).await;
    assert_eq!(got["result"]["status"], "cancelled", "{got}");
    for _ in 0..100 {
        if SAW_CANCEL.load(Ordering::SeqCst) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(
        SAW_CANCEL.load(Ordering::SeqCst),
        "the body saw the cancellation"
    );
    let again = request(&mut client, 4, "tasks/cancel", json!({ "taskId": id })).await;
    assert_eq!(
        again["result"],
        json!({ "resultType": "complete" }),
        "{again}"
    );
}

async fn a_cancel_of_a_completed_task_acks_and_the_result_stays(store: Store) {
    let (mut client, _session) = common::RawClient::connect(server(store).build().unwrap());
    let id = task_id(&call(&mut client, 1, "index", json!({ "millis": 1 })).await);
    until(&mut client, &id, "completed").await;
    let ack = request(&mut client, 2, "tasks/cancel", json!({ "taskId": id })).await;
    assert_eq!(ack["result"], json!({ "resultType": "complete" }), "{ack}");
    let got = request(&mut client, 3, "tasks/get", json!({ "taskId": id })).await;
    assert_eq!(got["result"]["status"], "completed", "{got}");
    assert_eq!(
        got["result"]["result"]["content"][0]["text"],
        "indexed in 1 ms"
    );
}

async fn a_task_past_its_ttl_gets_an_error_that_says_it_expired(store: Store) {
    // Expired from 1 s after it was created, and told apart from an unknown id for at
    // least as long again: looked at just after it expired, however long the call took.
    let server = server(store)
        .task_ttl(Duration::from_secs(1))
        .build()
        .unwrap();
    let (mut client, _session) = common::RawClient::connect(server);
    let created = std::time::Instant::now();
    let id = task_id(&call(&mut client, 1, "index", json!({ "millis": 1 })).await);
    until(&mut client, &id, "completed").await;
    let expired = created + Duration::from_millis(1100);
    tokio::time::sleep_until(expired.into()).await;
    let got = request(&mut client, 2, "tasks/get", json!({ "taskId": id })).await;
    assert_eq!(got["error"]["code"], -32602, "{got}");
    assert_eq!(
        got["error"]["message"],
        format!(
            "the task `{id}` has expired: a task is kept for 1 second after it is created; \
             call the tool again for a new one"
        )
    );
}

async fn a_panic_fails_the_task_with_a_protocol_error_whose_message_is_masked(store: Store) {
    let (mut client, _session) = common::RawClient::connect(server(store).build().unwrap());
    let id = task_id(&call(&mut client, 1, "crash", json!({})).await);
    let failed = until(&mut client, &id, "failed").await;
    let result = &failed["result"];
    assert_eq!(result["status"], "failed", "{failed}");
    assert_eq!(result["error"]["code"], -32603, "{failed}");
    let message = result["error"]["message"].as_str().unwrap();
    assert!(!message.contains("hunter2"), "{message}");
    assert!(
        message.contains("crash"),
        "the message names the tool: {message}"
    );
    assert!(result.get("result").is_none(), "{failed}");
}

async fn over_the_task_limit_a_call_is_refused_with_what_to_do(store: Store) {
    let server = server(store).max_tasks(1).build().unwrap();
    let (mut client, _session) = common::RawClient::connect(server);
    let first = task_id(&call(&mut client, 1, "wait_forever", json!({})).await);
    let second = call(&mut client, 2, "wait_forever", json!({})).await;
    assert_eq!(second["error"]["code"], -32603, "{second}");
    assert_eq!(
        second["error"]["message"],
        "the server runs at most 1 tasks at once, and 1 are running: call again when one has \
         ended"
    );
    request(&mut client, 3, "tasks/cancel", json!({ "taskId": first })).await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    let third = call(&mut client, 4, "index", json!({ "millis": 1 })).await;
    assert_eq!(third["result"]["resultType"], "task", "{third}");
}

async fn a_run_time_tool_runs_as_a_task_when_it_says_so(store: Store) {
    let tool = RuntimeTool::new("export", "Exports the data.")
        .task(TaskSupport::Required)
        .handler(|args: Arguments| async move {
            args.finish()?;
            Ok::<_, ToolError>("exported")
        });
    let server = store.keep(
        Server::from_registry("tasks", "1")
            .only(["index"])
            .tool(tool),
    );
    let (mut client, _session) = common::RawClient::connect(server.build().unwrap());
    let id = task_id(&call(&mut client, 1, "export", json!({})).await);
    let done = until(&mut client, &id, "completed").await;
    assert_eq!(
        done["result"]["result"]["content"][0]["text"], "exported",
        "{done}"
    );
}

async fn a_tool_that_begins_its_task_in_its_body_asks_in_rounds_first(store: Store) {
    let (mut client, _session) = common::RawClient::connect(server(store).build().unwrap());
    let first = call(&mut client, 1, "yearly", json!({})).await;
    let result = &first["result"];
    assert_eq!(result["resultType"], "input_required", "{first}");
    assert!(result.get("taskId").is_none(), "{first}");
    let asked = &result["inputRequests"]["elicitation-1"]["params"]["message"];
    assert_eq!(asked, "Which year?", "{first}");

    let answer = json!({ "action": "accept", "content": { "year": 2025 } });
    let again = json!({
        "name": "yearly",
        "arguments": {},
        "inputResponses": { "elicitation-1": answer },
        "requestState": result["requestState"]
    });
    let second = request(&mut client, 2, "tools/call", again).await;
    assert_eq!(second["result"]["resultType"], "task", "{second}");
    assert!(second["result"].get("requestState").is_none(), "{second}");
    let done = until(&mut client, &task_id(&second), "completed").await;
    assert_eq!(
        done["result"]["result"]["content"][0]["text"], "the report of 2025",
        "{done}"
    );
}

async fn a_result_too_large_to_keep_fails_the_task_with_both_sizes(store: Store) {
    let server = server(store).task_result_limit(64).build().unwrap();
    let (mut client, _session) = common::RawClient::connect(server);
    let id = task_id(&call(&mut client, 1, "index", json!({ "millis": 1 })).await);
    let failed = until(&mut client, &id, "failed").await;
    let message = failed["result"]["error"]["message"].as_str().unwrap();
    assert!(
        message.starts_with("the task's result is ") && message.contains("over the 64 bytes"),
        "{message}"
    );
    assert!(failed["result"].get("result").is_none(), "{failed}");
}

async fn a_question_the_body_stopped_waiting_for_is_withdrawn(store: Store) {
    let (mut client, _session) = common::RawClient::connect(server(store).build().unwrap());
    let id = task_id(&call(&mut client, 1, "impatient", json!({})).await);
    until(&mut client, &id, "input_required").await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    let got = request(&mut client, 2, "tasks/get", json!({ "taskId": id })).await;
    assert_eq!(got["result"]["status"], "working", "{got}");
    assert!(got["result"].get("inputRequests").is_none(), "{got}");
    let done = until(&mut client, &id, "completed").await;
    assert_eq!(
        done["result"]["result"]["content"][0]["text"],
        "answered: false"
    );
}

async fn a_task_still_running_at_the_end_of_its_ttl_is_cancelled(store: Store) {
    SAW_CANCEL.store(false, Ordering::SeqCst);
    let server = server(store)
        .task_ttl(Duration::from_millis(200))
        .build()
        .unwrap();
    let (mut client, _session) = common::RawClient::connect(server);
    task_id(&call(&mut client, 1, "wait_forever", json!({})).await);
    for _ in 0..100 {
        if SAW_CANCEL.load(Ordering::SeqCst) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("the body ran on after its task expired");
}

/// Why `server`, built with a plain tool of its own, refuses a task tool added while it
/// serves.
fn task_tool_refused(server: Server) -> String {
    let plain = RuntimeTool::new("plain", "Says hi.").handler(|args: Arguments| async move {
        args.finish()?;
        Ok::<_, ToolError>("hi")
    });
    let server = server.tool(plain).build().unwrap();
    let tool = RuntimeTool::new("export", "Exports the data.")
        .task(TaskSupport::Optional)
        .handler(|args: Arguments| async move {
            args.finish()?;
            Ok::<_, ToolError>("exported")
        });
    server.add_tool(tool).unwrap_err().to_string()
}

/// What a server built without tasks says to a task tool added while it serves.
const WITHOUT_TASKS: &str = "the task store cannot be used: the tool `export` runs as a task, \
                             and this server was built without tasks: call \
                             Server::serve_tasks() before build()";

#[test]
fn a_task_tool_added_to_a_server_without_tasks_is_refused_saying_how() {
    let refused = task_tool_refused(Server::new("tasks", "1"));
    assert_eq!(refused, WITHOUT_TASKS);
}

#[tokio::test]
async fn the_store_a_server_is_given_is_the_one_it_keeps_its_tasks_in() {
    let table = TableStore::default();
    let server = Server::from_registry("tasks", "1")
        .only(["index"])
        .task_store(table.clone());
    let (mut client, _session) = common::RawClient::connect(server.build().unwrap());
    let before = table.statements.load(Ordering::Relaxed);
    let id = task_id(&call(&mut client, 1, "index", json!({ "millis": 1 })).await);
    until(&mut client, &id, "completed").await;
    let used = table.statements.load(Ordering::Relaxed) - before;
    assert!(
        used >= 3,
        "a create, a get and a put at least went to the store: {used}"
    );
}

#[test]
fn choosing_a_store_does_not_switch_tasks_on() {
    let server = Server::new("tasks", "1").task_store(TableStore::default());
    assert_eq!(task_tool_refused(server), WITHOUT_TASKS);
}
