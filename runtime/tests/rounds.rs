//! Input-required rounds (protocol 2026-07-28, SEP-2322), over the line transport: a
//! tool that asks ends its call with the questions and a sealed `requestState`, runs
//! again from the start with the client's answers, carries its own state across rounds,
//! and never runs with a `requestState` that was changed, has expired or was issued for
//! another call, each refused with its own message.

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use mcp_tool::model::Elicitation;
use mcp_tool::{Context, Server, ToolError, mcp_tool};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// How many times each tool's body began.
static GREET_RUNS: AtomicUsize = AtomicUsize::new(0);
static PLAN_RUNS: AtomicUsize = AtomicUsize::new(0);
static PLANS_MADE: AtomicUsize = AtomicUsize::new(0);

#[derive(Deserialize, JsonSchema)]
struct Name {
    name: String,
}

#[derive(Deserialize, JsonSchema)]
struct Confirm {
    ok: bool,
}

/// Greets the user by name, in `language`.
#[mcp_tool]
async fn greet(ctx: Context, language: String) -> Result<String, ToolError> {
    GREET_RUNS.fetch_add(1, Ordering::SeqCst);
    match ctx.elicit::<Name>("What is your name?").await? {
        Elicitation::Accepted(Name { name }) => Ok(format!("{language}: hello, {name}!")),
        _ => Ok("no name".to_owned()),
    }
}

#[derive(Serialize, Deserialize)]
struct Plan {
    files: Vec<String>,
}

/// Plans once, then asks twice: whether to go on, and the user's name.
#[mcp_tool]
async fn plan(ctx: Context) -> Result<String, ToolError> {
    PLAN_RUNS.fetch_add(1, Ordering::SeqCst);
    let plan = match ctx.carried::<Plan>() {
        Some(plan) => plan,
        None => {
            PLANS_MADE.fetch_add(1, Ordering::SeqCst);
            let plan = Plan {
                files: vec!["a.tmp".into(), "b.tmp".into()],
            };
            ctx.carry(&plan)?;
            plan
        }
    };
    let go = ctx.elicit::<Confirm>("Delete 2 files?").await?;
    let name = ctx.elicit::<Name>("Who asks?").await?;
    let go = go.accepted().is_some_and(|c| c.ok);
    let name = name.accepted().map_or(String::new(), |n| n.name);
    Ok(format!("{name}: {} ({go})", plan.files.join(", ")))
}

const KEY: &str = "a shared key of at least 32 bytes!";

fn server(ttl: Duration) -> mcp_tool::ToolServer {
    Server::from_registry("rounds", "1")
        .only(["greet", "plan"])
        .request_state_key(KEY)
        .request_state_ttl(ttl)
        .build()
        .unwrap()
}

/// A 2026-07-28 `tools/call` with `extra` params beside the name and the arguments.
fn call(id: u64, name: &str, arguments: Value, extra: Value) -> String {
    let mut params = json!({
        "name": name,
        "arguments": arguments,
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": { "name": "rounds-test", "version": "1" },
            "io.modelcontextprotocol/clientCapabilities": { "elicitation": {} }
        }
    });
    for (key, value) in extra.as_object().unwrap() {
        params[key] = value.clone();
    }
    json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params }).to_string()
}

async fn ask(client: &mut common::RawClient, line: String) -> Value {
    client.send(&line).await;
    client.receive().await
}

fn accept(content: Value) -> Value {
    json!({ "action": "accept", "content": content })
}

#[tokio::test]
async fn a_question_ends_the_round_and_the_answer_completes_the_next() {
    let (mut client, _session) = common::RawClient::connect(server(Duration::from_secs(60)));
    let before = GREET_RUNS.load(Ordering::SeqCst);
    let english = json!({ "language": "en" });
    let first = ask(&mut client, call(1, "greet", english.clone(), json!({}))).await;
    let result = &first["result"];
    assert_eq!(result["resultType"], "input_required", "{first}");
    let request = &result["inputRequests"]["elicitation-1"];
    assert_eq!(request["method"], "elicitation/create", "{first}");
    assert_eq!(request["params"]["message"], "What is your name?");
    let state = result["requestState"].as_str().expect("a requestState");

    let answer = json!({
        "inputResponses": { "elicitation-1": accept(json!({ "name": "Ada" })) },
        "requestState": state
    });
    let second = ask(&mut client, call(2, "greet", english, answer)).await;
    assert_eq!(
        second["result"]["content"][0]["text"], "en: hello, Ada!",
        "{second}"
    );
    assert_eq!(
        GREET_RUNS.load(Ordering::SeqCst) - before,
        2,
        "one run a round"
    );
}

#[tokio::test]
async fn the_tool_carries_its_state_and_earlier_answers_across_rounds() {
    let (mut client, _session) = common::RawClient::connect(server(Duration::from_secs(60)));
    let (runs, made) = (
        PLAN_RUNS.load(Ordering::SeqCst),
        PLANS_MADE.load(Ordering::SeqCst),
    );
    let first = ask(&mut client, call(1, "plan", json!({}), json!({}))).await;
    let state = first["result"]["requestState"].clone();
    assert!(
        first["result"]["inputRequests"]["elicitation-1"].is_object(),
        "{first}"
    );

    // Round two answers the first question only: the second is asked.
    let answer = json!({
        "inputResponses": { "elicitation-1": accept(json!({ "ok": true })) },
        "requestState": state
    });
    let second = ask(&mut client, call(2, "plan", json!({}), answer)).await;
    let result = &second["result"];
    assert_eq!(result["resultType"], "input_required", "{second}");
    assert!(
        result["inputRequests"]["elicitation-2"].is_object(),
        "{second}"
    );
    assert!(
        result["inputRequests"].get("elicitation-1").is_none(),
        "{second}"
    );
    assert_ne!(
        result["requestState"], state,
        "each round has its own state"
    );

    // Round three answers only the second: the first answer comes from the state.
    let answer = json!({
        "inputResponses": { "elicitation-2": accept(json!({ "name": "Ada" })) },
        "requestState": result["requestState"]
    });
    let third = ask(&mut client, call(3, "plan", json!({}), answer)).await;
    let text = &third["result"]["content"][0]["text"];
    assert_eq!(text, "Ada: a.tmp, b.tmp (true)", "{third}");
    assert_eq!(PLAN_RUNS.load(Ordering::SeqCst) - runs, 3);
    assert_eq!(
        PLANS_MADE.load(Ordering::SeqCst) - made,
        1,
        "planned once, carried after"
    );
}

/// The first round's `requestState` of `greet` with `arguments`.
async fn first_state(client: &mut common::RawClient, arguments: Value) -> String {
    let first = ask(client, call(1, "greet", arguments, json!({}))).await;
    first["result"]["requestState"].as_str().unwrap().to_owned()
}

/// The error of a second round of `name` with `arguments` and `state`, and how many
/// times `greet`'s body ran meanwhile.
async fn refused(
    client: &mut common::RawClient,
    name: &str,
    arguments: Value,
    state: &str,
) -> (Value, usize) {
    let before = GREET_RUNS.load(Ordering::SeqCst);
    let answer = json!({
        "inputResponses": { "elicitation-1": accept(json!({ "name": "Ada" })) },
        "requestState": state
    });
    let reply = ask(client, call(9, name, arguments, answer)).await;
    assert!(reply.get("result").is_none(), "{reply}");
    assert_eq!(reply["error"]["code"], -32602, "{reply}");
    (
        reply["error"].clone(),
        GREET_RUNS.load(Ordering::SeqCst) - before,
    )
}

#[tokio::test]
async fn a_changed_state_is_refused_and_the_tool_never_runs() {
    let (mut client, _session) = common::RawClient::connect(server(Duration::from_secs(60)));
    let state = first_state(&mut client, json!({ "language": "en" })).await;
    for changed in [
        format!("{state}x"),
        state.replacen('.', "", 1),
        "rs1.e30.e30".into(),
    ] {
        let (error, runs) =
            refused(&mut client, "greet", json!({ "language": "en" }), &changed).await;
        let message = error["message"].as_str().unwrap();
        assert!(
            message.contains("changed or was not issued by this server"),
            "{message}"
        );
        assert_eq!(runs, 0, "{message}");
    }
}

#[tokio::test]
async fn an_expired_state_is_refused_and_says_so() {
    let (mut client, _session) = common::RawClient::connect(server(Duration::from_millis(50)));
    let state = first_state(&mut client, json!({ "language": "en" })).await;
    tokio::time::sleep(Duration::from_millis(120)).await;
    let (error, runs) = refused(&mut client, "greet", json!({ "language": "en" }), &state).await;
    let message = error["message"].as_str().unwrap();
    assert!(message.contains("has expired"), "{message}");
    assert_eq!(runs, 0);
}

#[tokio::test]
async fn a_state_for_another_tool_or_other_arguments_is_refused() {
    let (mut client, _session) = common::RawClient::connect(server(Duration::from_secs(60)));
    let state = first_state(&mut client, json!({ "language": "en" })).await;
    let (error, runs) = refused(&mut client, "plan", json!({}), &state).await;
    let message = error["message"].as_str().unwrap();
    assert!(
        message.contains("issued for tools/call greet, not for tools/call plan"),
        "{message}"
    );
    assert_eq!(runs, 0);
    let (error, runs) = refused(&mut client, "greet", json!({ "language": "fr" }), &state).await;
    let message = error["message"].as_str().unwrap();
    assert!(
        message.contains("other arguments of tools/call greet"),
        "{message}"
    );
    assert_eq!(runs, 0);
}

#[tokio::test]
async fn replicas_that_share_the_key_resume_each_others_rounds_and_others_refuse() {
    let (mut one, _a) = common::RawClient::connect(server(Duration::from_secs(60)));
    let (mut two, _b) = common::RawClient::connect(server(Duration::from_secs(60)));
    let other = Server::from_registry("rounds", "1")
        .only(["greet"])
        .request_state_key("another key, also 32 bytes or more")
        .build()
        .unwrap();
    let (mut three, _c) = common::RawClient::connect(other);
    let english = json!({ "language": "en" });
    let state = first_state(&mut one, english.clone()).await;
    let answer = json!({
        "inputResponses": { "elicitation-1": accept(json!({ "name": "Ada" })) },
        "requestState": state
    });
    let resumed = ask(&mut two, call(2, "greet", english.clone(), answer)).await;
    assert_eq!(
        resumed["result"]["content"][0]["text"], "en: hello, Ada!",
        "{resumed}"
    );
    let (error, runs) = refused(&mut three, "greet", english, &state).await;
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("not issued by this server")
    );
    assert_eq!(runs, 0);
}

#[tokio::test]
async fn answers_without_a_state_are_taken_by_key_and_a_wrong_key_is_asked_again() {
    let (mut client, _session) = common::RawClient::connect(server(Duration::from_secs(60)));
    let english = json!({ "language": "en" });
    let answers = json!({ "inputResponses": {
        "elicitation-1": accept(json!({ "name": "Ada" })),
        "unknown": accept(json!({ "x": 1 }))
    }});
    let reply = ask(&mut client, call(1, "greet", english.clone(), answers)).await;
    assert_eq!(
        reply["result"]["content"][0]["text"], "en: hello, Ada!",
        "{reply}"
    );
    let wrong = json!({ "inputResponses": { "wrong_key": accept(json!({ "name": "Ada" })) } });
    let reply = ask(&mut client, call(2, "greet", english.clone(), wrong)).await;
    assert_eq!(reply["result"]["resultType"], "input_required", "{reply}");
    let malformed = json!({ "inputResponses": { "elicitation-1": 12345 } });
    let reply = ask(&mut client, call(3, "greet", english, malformed)).await;
    assert_eq!(reply["error"]["code"], -32602, "{reply}");
    let message = reply["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("`elicitation-1` is not an object"),
        "{message}"
    );
}
