//! A task belongs to the caller that created it: on a server with authorization, another
//! caller's `tasks/get`, `tasks/update` and `tasks/cancel` of it are answered exactly as
//! for an id the server never gave, live or expired, and the task's tool's scopes are
//! needed for every operation on it; a caller that names no one cannot create a task, and
//! a task created without authorization is never shown to a caller with a token. A client
//! acting for itself is never the user of its name, and an HTTP session belongs to its
//! caller by the same rule as a task. A `requestState` issued to one subject is refused
//! for another, as a changed one is, and the tool does not run. Over HTTP, mostly
//! stateless on protocol 2026-07-28, with tokens from a test issuer.

#![cfg(feature = "auth")]

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use mcp_tool::model::Auth;
use mcp_tool::model::Elicitation;
use mcp_tool::{Context, Server, TokenRefused, TokenVerifier, ToolError, mcp_tool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use common::authorized::{Setup, open_session, request, send_2026, setup};
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
    // The JWT verifier takes a token without `sub` for its client acting for itself, and
    // refuses one with neither; a verifier of one's own may accept a nameless caller.
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

/// A token of `subject` (none for `None`) issued to `client` (none for `None`), with the
/// scope `crawl:run`.
fn token_for(setup: &Setup, subject: Option<&str>, client: Option<&str>) -> String {
    let mut claims = issuer::claims(&setup.issuer.url(), &setup.resource, SCOPE);
    let object = claims.as_object_mut().unwrap();
    object.remove("sub");
    object.remove("client_id");
    if let Some(subject) = subject {
        object.insert("sub".into(), json!(subject));
    }
    if let Some(client) = client {
        object.insert("client_id".into(), json!(client));
    }
    issuer::sign(&claims, "a", KEY_A)
}

/// The id of the task a `crawl` that `token` calls creates.
async fn crawl_task(setup: &Setup, token: &str) -> String {
    let (status, created) = send(setup, token, "tools/call", json!({ "name": "crawl" })).await;
    assert_eq!(status, 200, "{created}");
    let id = created["result"]["taskId"].as_str();
    id.unwrap_or_else(|| panic!("a task: {created}")).to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_expired_task_answers_its_owner_that_it_expired_and_anyone_else_as_an_unknown_id() {
    let ttl = Duration::from_secs(1);
    let setup = setup(|server| server.only(["crawl"]).task_ttl(ttl)).await;
    let ada = token(&setup, Some("ada"), SCOPE);
    let bob = token(&setup, Some("bob"), SCOPE);
    let created = tokio::time::Instant::now();
    let id = crawl_task(&setup, &ada).await;
    // Past its time to live, and well within the as long again that it is told apart.
    tokio::time::sleep_until(created + ttl * 13 / 10).await;

    let unknown = "0123456789abcdef0123456789abcdef";
    for method in ["tasks/get", "tasks/cancel"] {
        let (status, theirs) = send(&setup, &bob, method, json!({ "taskId": id })).await;
        let (unknown_status, never) =
            send(&setup, &bob, method, json!({ "taskId": unknown })).await;
        assert_eq!(status, unknown_status, "{method}: {theirs} / {never}");
        // Byte for byte, once each answer's own id is blanked.
        assert_eq!(
            error_without(&id, &theirs).to_string(),
            error_without(unknown, &never).to_string(),
            "{method}"
        );
        let message = theirs["error"]["message"].as_str().unwrap_or_default();
        assert!(message.starts_with("no task `"), "{method}: {message}");
    }
    let (_, own) = send(&setup, &ada, "tasks/get", json!({ "taskId": id })).await;
    assert_eq!(own["error"]["code"], -32602, "{own}");
    let message = own["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("has expired"),
        "the owner is told: {message}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_created_without_authorization_is_never_shown_to_a_caller_with_a_token() {
    // Two replicas share one store: one without authorization, one with it.
    let store = common::table_store::TableStore::default();
    let open = Server::from_registry("open", "1")
        .only(["crawl"])
        .stateless(true)
        .task_store(store.clone())
        .build()
        .unwrap();
    let open = Running::start(open).await;
    let call = ("tools/call", json!({ "name": "crawl" }));
    let created = request(&open.url(), "2026-07-28", None, None, call, 1).await;
    let id = created.message["result"]["taskId"].as_str();
    let id = id
        .unwrap_or_else(|| panic!("a task: {}", created.message))
        .to_owned();
    let setup = setup(|server| server.only(["crawl"]).task_store(store.clone())).await;

    let ada = token(&setup, Some("ada"), SCOPE);
    let unknown = "0123456789abcdef0123456789abcdef";
    let (_, theirs) = send(&setup, &ada, "tasks/get", json!({ "taskId": id })).await;
    let (_, never) = send(&setup, &ada, "tasks/get", json!({ "taskId": unknown })).await;
    assert_eq!(error_without(&id, &theirs), error_without(unknown, &never));
    let (_, cancelled) = send(&setup, &ada, "tasks/cancel", json!({ "taskId": id })).await;
    assert_eq!(cancelled["error"]["code"], -32602, "{cancelled}");
    // The replica without authorization still serves it to whoever holds the id.
    let get = ("tasks/get", json!({ "taskId": id }));
    let got = request(&open.url(), "2026-07-28", None, None, get, 2).await;
    assert_eq!(got.message["result"]["taskId"], id, "{}", got.message);
    assert_ne!(
        got.message["result"]["status"], "cancelled",
        "{}",
        got.message
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_acting_for_itself_is_never_the_user_of_its_name() {
    let setup = setup(|server| server.only(["crawl"])).await;
    // The user `alice` through an app named `alice`, and that app acting for itself.
    let person = token_for(&setup, Some("alice"), Some("alice"));
    let machine = token_for(&setup, None, Some("alice"));
    for (owner, other) in [(&person, &machine), (&machine, &person)] {
        let id = crawl_task(&setup, owner).await;
        let (_, theirs) = send(&setup, other, "tasks/get", json!({ "taskId": id })).await;
        assert_eq!(theirs["error"]["code"], -32602, "{theirs}");
        let message = theirs["error"]["message"].as_str().unwrap_or_default();
        assert!(message.starts_with("no task `"), "{message}");
        let (_, own) = send(&setup, owner, "tasks/get", json!({ "taskId": id })).await;
        assert_eq!(own["result"]["taskId"], id, "{own}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_and_a_task_belong_to_their_caller_by_one_rule() {
    let setup = setup(|server| server.only(["crawl"]).stateless(false)).await;
    let url = setup.server.url();
    let ada = token_for(&setup, Some("ada"), Some("desktop-app"));
    let callers = [
        (
            "ada through another client",
            token_for(&setup, Some("ada"), Some("web-app")),
        ),
        (
            "the client `ada` acting for itself",
            token_for(&setup, None, Some("ada")),
        ),
    ];
    let session = open_session(&url, &ada).await;
    let call = ("tools/call", json!({ "name": "crawl" }));
    let created = request(&url, "2025-11-25", Some(&ada), Some(&session), call, 1).await;
    let id = created.message["result"]["taskId"].as_str();
    let id = id
        .unwrap_or_else(|| panic!("a task: {}", created.message))
        .to_owned();
    let get = || ("tasks/get", json!({ "taskId": id }));
    for (who, token) in &callers {
        // Ada's session is not theirs: `404`, as for a session that ended.
        let in_hers = request(&url, "2025-11-25", Some(token), Some(&session), get(), 2).await;
        assert_eq!(in_hers.status, 404, "{who}: {}", in_hers.message);
        // Nor is her task, from a session of their own.
        let theirs = open_session(&url, token).await;
        let got = request(&url, "2025-11-25", Some(token), Some(&theirs), get(), 3).await;
        assert_eq!(
            got.message["error"]["code"], -32602,
            "{who}: {}",
            got.message
        );
    }
    let got = request(&url, "2025-11-25", Some(&ada), Some(&session), get(), 4).await;
    assert_eq!(got.message["result"]["taskId"], id, "{}", got.message);
}
