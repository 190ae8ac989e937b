//! A task belongs to the caller that created it: on a server with authorization, another
//! subject's `tasks/get`, `tasks/update` and `tasks/cancel` of it are answered exactly as
//! for an id the server never gave, and the task's tool's scopes are needed for every
//! operation on it; a token without a subject cannot create a task. A `requestState`
//! issued to one subject is refused for another, as a changed one is, and the tool does
//! not run. Over stateless HTTP on protocol 2026-07-28, with tokens from a test issuer.

#![cfg(feature = "auth")]

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};

use mcp_tool::model::Auth;
use mcp_tool::model::Elicitation;
use mcp_tool::{Context, Server, TokenRefused, TokenVerifier, ToolError, mcp_tool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use common::authorized::{Setup, send_2026, setup};
use common::http::Running;
use common::issuer::{self, KEY_A};

#[derive(Deserialize, JsonSchema)]
struct Confirm {
    ok: bool,
}

/// Asks whether to go on, then works until it is cancelled.
#[mcp_tool(task = "required", scopes = ["crawl:run"])]
async fn crawl(ctx: Context) -> Result<String, ToolError> {
    let go = ctx.elicit::<Confirm>("Crawl everything?").await?;
    ctx.cancelled().await;
    Ok(format!("stopped ({})", go.accepted().is_some_and(|c| c.ok)))
}

/// How many times `greet` got its answer.
static GREETED: AtomicUsize = AtomicUsize::new(0);

#[derive(Deserialize, JsonSchema)]
struct Name {
    name: String,
}

/// Greets the user by the name it asks for.
#[mcp_tool]
async fn greet(ctx: Context) -> Result<String, ToolError> {
    match ctx.elicit::<Name>("What is your name?").await? {
        Elicitation::Accepted(Name { name }) => {
            GREETED.fetch_add(1, Ordering::SeqCst);
            Ok(format!("hello, {name}"))
        }
        _ => Ok("no name".to_owned()),
    }
}

/// A token of `subject` (none at all for `None`) with `scope`.
fn token(setup: &Setup, subject: Option<&str>, scope: &str) -> String {
    let mut claims = issuer::claims(&setup.issuer.url(), &setup.resource, scope);
    match subject {
        Some(subject) => claims["sub"] = json!(subject),
        None => {
            claims.as_object_mut().unwrap().remove("sub");
        }
    }
    issuer::sign(&claims, "a", KEY_A)
}

/// A 2026-07-28 request of `method` with `params`; its status and message.
async fn send(setup: &Setup, token: &str, method: &str, params: Value) -> (u16, Value) {
    send_2026(&setup.server.url(), token, method, params).await
}

const SCOPE: &str = "crawl:run";

/// The error of a task operation, with the task id it names replaced, so that two
/// answers about two ids compare.
fn error_without(id: &str, reply: &Value) -> Value {
    let error = reply["error"].clone();
    assert!(error.is_object(), "an error: {reply}");
    serde_json::from_str(&error.to_string().replace(id, "<id>")).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_subject_cannot_see_answer_or_cancel_a_task_and_its_owner_can() {
    let setup = setup(|server| server.only(["crawl"])).await;
    let ada = token(&setup, Some("ada"), SCOPE);
    let bob = token(&setup, Some("bob"), SCOPE);
    let (status, created) = send(&setup, &ada, "tools/call", json!({ "name": "crawl" })).await;
    assert_eq!(status, 200, "{created}");
    let id = created["result"]["taskId"]
        .as_str()
        .expect("a task")
        .to_owned();

    // Bob gets, for Ada's task, exactly what an id the server never gave gets.
    let unknown = "0123456789abcdef0123456789abcdef";
    let operations = [
        ("tasks/get", json!({})),
        (
            "tasks/update",
            json!({ "inputResponses": { "elicitation-1": { "action": "accept", "content": { "ok": true } } } }),
        ),
        ("tasks/cancel", json!({})),
    ];
    for (method, extra) in &operations {
        let params = |task: &str| {
            let mut params = extra.clone();
            params["taskId"] = json!(task);
            params
        };
        let (status, theirs) = send(&setup, &bob, method, params(&id)).await;
        let (unknown_status, never) = send(&setup, &bob, method, params(unknown)).await;
        assert_eq!(status, unknown_status, "{method}: {theirs} / {never}");
        assert_eq!(
            error_without(&id, &theirs),
            error_without(unknown, &never),
            "{method}"
        );
        assert_eq!(theirs["error"]["code"], -32602, "{theirs}");
    }

    // Ada's own token without the tool's scope is refused for her own task.
    let unscoped = token(&setup, Some("ada"), "other");
    let (_, refused) = send(&setup, &unscoped, "tasks/get", json!({ "taskId": id })).await;
    assert_eq!(refused["error"]["code"], -32001, "{refused}");
    let message = refused["error"]["message"].as_str().unwrap();
    assert!(message.contains("crawl:run"), "{message}");

    // Ada still sees it, working and untouched by Bob's cancel, then cancels it.
    let (_, got) = send(&setup, &ada, "tasks/get", json!({ "taskId": id })).await;
    assert_eq!(got["result"]["status"], "input_required", "{got}");
    let (_, cancelled) = send(&setup, &ada, "tasks/cancel", json!({ "taskId": id })).await;
    assert!(cancelled["result"].is_object(), "{cancelled}");
    let (_, got) = send(&setup, &ada, "tasks/get", json!({ "taskId": id })).await;
    assert_eq!(got["result"]["status"], "cancelled", "{got}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_subject_through_another_client_is_another_owner() {
    let setup = setup(|server| server.only(["crawl"])).await;
    let ada = token(&setup, Some("ada"), SCOPE);
    let (_, created) = send(&setup, &ada, "tools/call", json!({ "name": "crawl" })).await;
    let id = created["result"]["taskId"]
        .as_str()
        .expect("a task")
        .to_owned();
    let mut claims = issuer::claims(&setup.issuer.url(), &setup.resource, SCOPE);
    claims["sub"] = json!("ada");
    claims["client_id"] = json!("another-app");
    let other_app = issuer::sign(&claims, "a", KEY_A);
    let (_, got) = send(&setup, &other_app, "tasks/get", json!({ "taskId": id })).await;
    assert_eq!(got["error"]["code"], -32602, "{got}");
    let (_, got) = send(&setup, &ada, "tasks/get", json!({ "taskId": id })).await;
    assert_eq!(got["result"]["taskId"], id, "{got}");
}

/// Accepts any token, as a caller with no subject: a verifier of one's own may do so.
struct Nameless;

impl TokenVerifier for Nameless {
    async fn verify(&self, _token: &str) -> Result<Auth, TokenRefused> {
        Ok(Auth::new("").with_scopes([SCOPE]))
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_caller_without_a_subject_cannot_create_a_task() {
    // The JWT verifier takes a token's client for its subject where `sub` is missing,
    // and refuses one with neither; a verifier of one's own may accept a nameless caller.
    let setup = setup(|server| server.only(["crawl"])).await;
    let (status, refused) = send(
        &setup,
        &token(&setup, None, SCOPE),
        "tools/call",
        json!({ "name": "crawl" }),
    )
    .await;
    assert_eq!(
        status, 200,
        "a token of a client alone is a caller: {refused}"
    );
    let nameless = Server::from_registry("nameless", "1")
        .only(["crawl"])
        .stateless(true)
        .authorization(Nameless)
        .build()
        .unwrap();
    let running = Running::start(nameless).await;
    let setup = Setup {
        server: running,
        ..setup
    };
    let (_, refused) = send(&setup, "any", "tools/call", json!({ "name": "crawl" })).await;
    assert_eq!(refused["error"]["code"], -32600, "{refused}");
    let message = refused["error"]["message"].as_str().unwrap();
    assert!(message.contains("names no subject"), "{message}");
    assert!(refused["result"].is_null(), "{refused}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_state_replayed_by_another_subject_is_refused_and_the_tool_does_not_run() {
    let setup = setup(|server| server.only(["greet"])).await;
    let ada = token(&setup, Some("ada"), "");
    let bob = token(&setup, Some("bob"), "");
    let (_, first) = send(&setup, &ada, "tools/call", json!({ "name": "greet" })).await;
    assert_eq!(first["result"]["resultType"], "input_required", "{first}");
    let state = first["result"]["requestState"].as_str().unwrap().to_owned();
    let answer = |state: &str| {
        json!({
            "name": "greet",
            "inputResponses": {
                "elicitation-1": { "action": "accept", "content": { "name": "Mallory" } }
            },
            "requestState": state
        })
    };
    let before = GREETED.load(Ordering::SeqCst);
    let (_, replayed) = send(&setup, &bob, "tools/call", answer(&state)).await;
    // Refused as a changed state is.
    let mut changed = state.clone();
    let last = changed.pop().unwrap();
    changed.push(if last == 'A' { 'B' } else { 'A' });
    let (_, tampered) = send(&setup, &bob, "tools/call", answer(&changed)).await;
    assert_eq!(replayed["error"]["code"], -32602, "{replayed}");
    assert_eq!(
        replayed["error"], tampered["error"],
        "{replayed} / {tampered}"
    );
    assert_eq!(
        GREETED.load(Ordering::SeqCst),
        before,
        "the tool ran for bob"
    );
    // Ada's own answer completes the call.
    let (_, done) = send(&setup, &ada, "tools/call", answer(&state)).await;
    assert_eq!(
        done["result"]["content"][0]["text"], "hello, Mallory",
        "{done}"
    );
}
