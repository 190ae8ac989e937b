//! `Context` and `State<T>`: recognised by type (through an alias or a renamed import),
//! never in the input schema; progress with the client's token only, never backwards;
//! log messages filtered by `logging/setLevel` (or, from protocol 2026-07-28 on, by the
//! request's own level) and masked; the request's metadata.

mod common;

use std::sync::atomic::{AtomicU64, Ordering};

use mcp_tool::Context as CallContext;
use mcp_tool::model::{LogLevel, LogMessage, Notification, Progress};
use mcp_tool::testing::TestClient;
use mcp_tool::{Context, Server, State, ToolError, mcp_tool};
use serde_json::{Value, json};

type Ctx = mcp_tool::Context;

/// A counter shared by every call.
struct Visits(AtomicU64);

/// A greeting shared by every call.
struct Greeting(String);

/// Reports progress on `steps` steps, then twice a value that does not increase.
#[mcp_tool]
async fn stepper(ctx: Context, steps: u32) -> u32 {
    for step in 1..=steps {
        ctx.progress(step, steps).await;
    }
    ctx.progress(1, steps).await;
    ctx.progress_with_message(steps, steps, "done again").await;
    steps
}

/// Sends a message at every level, each with a secret or an absolute path in it.
#[mcp_tool]
async fn chatty(log: Ctx) {
    log.debug("debug: connecting with password=hunter2").await;
    log.info("info: reading /home/alice/projects/report.csv")
        .await;
    log.notice("notice: Authorization: Bearer abcdef123456")
        .await;
    log.warning("warning: C:\\Users\\alice\\secrets.txt is large")
        .await;
    log.error("error: postgres://admin:s3cret@db.internal/app failed")
        .await;
}

/// Who called, as a tool's context tells.
#[derive(serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
struct Caller {
    tool: String,
    request_id: Option<String>,
    client: Option<String>,
    meta_has_token: bool,
    echo: String,
}

/// Returns who called, from the call's context.
#[mcp_tool]
fn whoami(caller: CallContext, echo: String) -> Caller {
    Caller {
        tool: caller.tool_name().to_owned(),
        request_id: caller.request_id().map(ToString::to_string),
        client: caller.client().map(|c| c.name.clone()),
        meta_has_token: caller.meta().contains_key("progressToken"),
        echo,
    }
}

/// Counts its calls in shared state and greets with the shared greeting.
#[mcp_tool]
fn visit(
    count: State<Visits>,
    greeting: State<Greeting>,
    /// Who visits.
    name: String,
) -> Result<String, ToolError> {
    let seen = count.0.fetch_add(1, Ordering::Relaxed) + 1;
    Ok(format!("{}, {name} (visit {seen})", greeting.0))
}

fn server() -> Server {
    Server::from_registry("context", "1.0.0")
        .state(Visits(AtomicU64::new(0)))
        .state(Greeting("Hello".into()))
}

async fn client() -> TestClient {
    TestClient::connect(server().build().unwrap())
        .await
        .unwrap()
}

#[tokio::test]
async fn injected_parameters_are_not_in_the_input_schema() {
    let server = server().build().unwrap();
    let schema = |name: &str| {
        let tools = server.tools();
        let tool = tools.iter().find(|t| t.name == name).unwrap();
        Value::Object(tool.input_schema.clone())
    };
    assert_eq!(schema("chatty")["properties"], json!({}));
    assert_eq!(schema("stepper")["required"], json!(["steps"]));
    let whoami = schema("whoami");
    assert_eq!(whoami["required"], json!(["echo"]), "{whoami}");
    assert_eq!(
        whoami["properties"]
            .as_object()
            .unwrap()
            .keys()
            .collect::<Vec<_>>(),
        ["echo"]
    );
    let visit = schema("visit");
    assert_eq!(visit["required"], json!(["name"]), "{visit}");
    assert_eq!(
        visit["properties"]
            .as_object()
            .unwrap()
            .keys()
            .collect::<Vec<_>>(),
        ["name"]
    );
}

#[tokio::test]
async fn an_injected_parameters_name_sent_as_an_argument_is_unknown() {
    let client = client().await;
    let result = client
        .call("whoami", json!({ "echo": "x", "caller": 1 }))
        .await
        .unwrap();
    assert!(result.is_error);
    assert_eq!(
        result.text(),
        "invalid arguments for tool `whoami`: unknown argument `caller`"
    );
}

#[tokio::test]
async fn state_is_shared_by_every_call() {
    let client = client().await;
    let first = client
        .call("visit", json!({ "name": "Ada" }))
        .await
        .unwrap();
    let second = client
        .call("visit", json!({ "name": "Alan" }))
        .await
        .unwrap();
    let (first, second) = (first.text(), second.text());
    assert_eq!(first, "Hello, Ada (visit 1)");
    assert_eq!(second, "Hello, Alan (visit 2)");
}

#[tokio::test]
async fn progress_goes_with_the_clients_token_and_only_forward() {
    let client = client().await;
    let result = client
        .call_with_progress("stepper", json!({ "steps": 3 }), "tok-1")
        .await
        .unwrap();
    assert!(!result.is_error, "{}", result.text());
    let sent = client.take_notifications();
    let progress: Vec<(f64, Option<f64>)> = sent
        .iter()
        .map(|n| match n {
            Notification::Progress(Progress {
                token,
                progress,
                total,
                ..
            }) => {
                assert_eq!(token, "tok-1");
                (*progress, *total)
            }
            other => panic!("unexpected {other:?}"),
        })
        .collect();
    assert_eq!(
        progress,
        [(1.0, Some(3.0)), (2.0, Some(3.0)), (3.0, Some(3.0))]
    );
}

#[tokio::test]
async fn progress_without_a_token_sends_nothing() {
    let client = client().await;
    let steps: u32 = client
        .call_as("stepper", json!({ "steps": 4 }))
        .await
        .unwrap();
    assert_eq!(steps, 4);
    assert_eq!(client.take_notifications(), []);
}

fn log_texts(sent: &[Notification]) -> Vec<(LogLevel, String)> {
    sent.iter()
        .map(|n| match n {
            Notification::Log(LogMessage {
                level,
                logger,
                data,
                ..
            }) => {
                assert_eq!(logger.as_deref(), Some("chatty"));
                (*level, data.as_str().unwrap().to_owned())
            }
            other => panic!("unexpected {other:?}"),
        })
        .collect()
}

#[tokio::test]
async fn log_messages_are_masked_and_follow_set_level() {
    let client = client().await;
    client.call("chatty", json!({})).await.unwrap();
    let masked = [
        (LogLevel::Debug, "debug: connecting with password=***"),
        (LogLevel::Info, "info: reading report.csv"),
        (LogLevel::Notice, "notice: Authorization: Bearer ***"),
        (LogLevel::Warning, "warning: secrets.txt is large"),
        (
            LogLevel::Error,
            "error: postgres://***@db.internal/app failed",
        ),
    ]
    .map(|(level, text)| (level, text.to_owned()));
    assert_eq!(log_texts(&client.take_notifications()), masked);

    client.set_log_level(LogLevel::Warning).await.unwrap();
    client.call("chatty", json!({})).await.unwrap();
    assert_eq!(log_texts(&client.take_notifications()), masked[3..]);
}

/// What `whoami` tells of a call sent with this id and `_meta`, from a client named `raw`.
async fn whoami_over_a_session(id: Value, meta: Value) -> Caller {
    let mut client = common::RawClient::start(server().build().unwrap()).await;
    let call = json!({
        "jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": { "name": "whoami", "arguments": { "echo": "hi" }, "_meta": meta }
    });
    client.send(&call.to_string()).await;
    let reply = client.receive().await;
    assert_eq!(reply["id"], id, "{reply}");
    serde_json::from_value(reply["result"]["structuredContent"].clone())
        .unwrap_or_else(|error| panic!("{error}: {reply}"))
}

#[tokio::test]
async fn the_context_knows_the_request_and_the_client() {
    let seen = whoami_over_a_session(json!(41), json!({})).await;
    assert_eq!(seen.tool, "whoami");
    assert_eq!(seen.echo, "hi");
    assert_eq!(seen.request_id.as_deref(), Some("41"));
    assert_eq!(seen.client.as_deref(), Some("raw"));
    assert!(!seen.meta_has_token);
    let seen = whoami_over_a_session(json!("call-7"), json!({ "progressToken": "t" })).await;
    assert_eq!(seen.request_id.as_deref(), Some("call-7"));
    assert!(seen.meta_has_token);
}

#[tokio::test]
async fn a_direct_call_has_a_context_without_a_session() {
    let server = server().build().unwrap();
    let result = server
        .call(
            "whoami",
            json!({ "echo": "x" }).as_object().unwrap().clone(),
        )
        .await
        .unwrap();
    let seen: Caller = serde_json::from_value(result.structured.unwrap()).unwrap();
    assert_eq!(seen.tool, "whoami");
    assert_eq!(seen.echo, "x");
    assert_eq!(seen.request_id, None);
    assert_eq!(seen.client, None);
    assert!(!seen.meta_has_token);
    // Progress has no session to go to, and the call still ends with its result.
    let result = server
        .call(
            "stepper",
            json!({ "steps": 2 }).as_object().unwrap().clone(),
        )
        .await
        .unwrap();
    assert!(!result.is_error, "{}", result.text());
    assert_eq!(result.structured, Some(json!({ "result": 2 })));
}

/// The levels of the log messages a protocol 2026-07-28 call of `chatty` receives, sent
/// without a handshake, with `log_level` in its `_meta` if given.
async fn levels_of_a_2026_call(id: u64, log_level: Option<&str>) -> Vec<Value> {
    let server = Server::from_registry("raw", "1")
        .only(["chatty"])
        .build()
        .unwrap();
    let (mut client, _session) = common::RawClient::connect(server);
    let mut meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": { "name": "raw", "version": "1" },
    });
    if let Some(level) = log_level {
        meta["io.modelcontextprotocol/logLevel"] = level.into();
    }
    let call = json!({
        "jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": { "name": "chatty", "arguments": {}, "_meta": meta }
    });
    client.send(&call.to_string()).await;
    let mut levels = Vec::new();
    loop {
        let message = client.receive().await;
        if message["id"] == id {
            assert!(message["result"].is_object(), "{message}");
            return levels;
        }
        assert_eq!(message["method"], "notifications/message", "{message}");
        levels.push(message["params"]["level"].clone());
    }
}

#[tokio::test]
async fn from_protocol_2026_a_request_gets_log_messages_only_at_the_level_it_names() {
    assert_eq!(levels_of_a_2026_call(1, None).await, Vec::<Value>::new());
    assert_eq!(
        levels_of_a_2026_call(2, Some("warning")).await,
        [json!("warning"), json!("error")]
    );
}
