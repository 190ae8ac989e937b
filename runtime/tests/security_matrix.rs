//! Who may do what, cell by cell: every row of `security/matrix.tsv` (a transport, a
//! protocol version, an operation) is run for each kind of caller against a real server
//! with authorization and a real issuer (RS256 tokens, checked against the keys it
//! publishes), and each answer, put in the file's words, must be the cell's. The test
//! fails naming every cell that answered otherwise.

#![cfg(feature = "auth")]

mod common;

use std::fmt::Write as _;
use std::time::Duration;

use mcp_tool::{Context, Server, ToolError, mcp_prompt, mcp_resource, mcp_tool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use common::RawClient;
use common::authorized::{Setup, open_session, request, setup_verifying};
use common::issuer::{self, Issuer, KEY_A};

const SCOPE: &str = "vault:open";

/// Opens the vault.
#[mcp_tool(scopes = ["vault:open"])]
fn open_vault() -> String {
    "open".to_owned()
}

#[derive(Deserialize, JsonSchema)]
struct Confirm {
    ok: bool,
}

/// Asks whether to go on, then waits until it is cancelled.
#[mcp_tool(task = "required", scopes = ["vault:open"])]
async fn inventory(ctx: Context) -> Result<String, ToolError> {
    let go = ctx.elicit::<Confirm>("Count everything?").await?;
    ctx.cancelled().await;
    Ok(format!("stopped ({})", go.accepted().is_some_and(|c| c.ok)))
}

/// Asks the model to describe a room of the vault.
#[mcp_prompt(scopes = ["vault:open"])]
fn describe(
    /// The room.
    #[arg(complete = rooms)]
    room: String,
) -> String {
    format!("Describe the {room}")
}

fn rooms(typed: &str) -> Vec<String> {
    (["hall", "safe"].iter())
        .filter(|room| room.starts_with(typed))
        .map(|room| (*room).to_owned())
        .collect()
}

/// The vault's door.
#[mcp_resource(uri = "vault://door", scopes = ["vault:open"])]
fn door() -> String {
    "a heavy door".to_owned()
}

/// A room of the vault.
#[mcp_resource(template = "vault://rooms/{room}", scopes = ["vault:open"])]
fn room(
    /// The room.
    #[arg(complete = rooms)]
    room: String,
) -> String {
    format!("the {room}")
}

/// The kinds of caller, in the file's order of columns.
const CALLERS: [&str; 4] = [
    "no token",
    "without the scope",
    "another subject",
    "valid token",
];

/// One row of the file: a transport, a protocol, an operation, and what each caller gets.
struct Row {
    transport: String,
    protocol: String,
    operation: String,
    expected: Vec<String>,
}

fn rows() -> Vec<Row> {
    let text = include_str!("security/matrix.tsv");
    let mut lines = text.lines().filter(|line| !line.starts_with('#'));
    let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
    assert_eq!(header[3..], CALLERS, "the file's columns");
    lines
        .map(|line| {
            let cells: Vec<&str> = line.split('\t').collect();
            assert_eq!(cells.len(), 7, "a row of seven cells: {line:?}");
            Row {
                transport: cells[0].to_owned(),
                protocol: cells[1].to_owned(),
                operation: cells[2].to_owned(),
                expected: cells[3..].iter().map(|cell| (*cell).to_owned()).collect(),
            }
        })
        .collect()
}

/// The `_meta` of a 2026-07-28 request from a client that declares tasks and
/// elicitation.
fn meta() -> Value {
    common::tasks::meta(true)
}

/// The method an operation of the file sends: `completion/complete (prompt)` is a
/// `completion/complete`.
fn method(operation: &str) -> &str {
    operation.split(' ').next().unwrap_or(operation)
}

/// The params of `operation` (the task's id for the task operations).
fn params(operation: &str, task: &str) -> Value {
    let answer = json!({ "action": "accept", "content": { "ok": true } });
    match operation {
        "tools/call" => json!({ "name": "open_vault", "arguments": {} }),
        "tools/list" => json!({}),
        "prompts/get" => json!({ "name": "describe", "arguments": { "room": "hall" } }),
        "resources/read" => json!({ "uri": "vault://door" }),
        "completion/complete" => json!({
            "ref": { "type": "ref/resource", "uri": "vault://rooms/{room}" },
            "argument": { "name": "room", "value": "s" }
        }),
        "completion/complete (prompt)" => json!({
            "ref": { "type": "ref/prompt", "name": "describe" },
            "argument": { "name": "room", "value": "s" }
        }),
        "resources/subscribe" => json!({ "uri": "vault://door" }),
        "tasks/get" | "tasks/cancel" => json!({ "taskId": task }),
        "tasks/update" => json!({ "taskId": task, "inputResponses": { "elicitation-1": answer } }),
        "subscriptions/listen" => json!({
            "notifications": { "resourceSubscriptions": ["vault://door"] }
        }),
        other => panic!("no operation {other} in the matrix's vocabulary"),
    }
}

/// An answer in the file's words: its HTTP status (`None` over stdio) and message.
fn outcome(operation: &str, status: Option<u16>, message: &Value) -> String {
    match status {
        Some(401) => return "401".to_owned(),
        Some(403) => return "403".to_owned(),
        _ => {}
    }
    if let Some(code) = message["error"]["code"].as_i64() {
        let text = message["error"]["message"].as_str().unwrap_or_default();
        return match code {
            -32602 if text.starts_with("no task") => "unknown task".to_owned(),
            -32001 => "forbidden".to_owned(),
            _ => format!("error {code}: {text}"),
        };
    }
    let result = &message["result"];
    if operation == "tools/list" {
        let listed = (result["tools"].as_array().into_iter().flatten())
            .any(|tool| tool["name"] == "open_vault");
        return if listed { "listed" } else { "hidden" }.to_owned();
    }
    let served = match operation {
        "tools/call" => result["content"][0]["text"] == "open",
        "prompts/get" => result["messages"][0]["content"]["text"] == "Describe the hall",
        "resources/read" => result["contents"][0]["text"] == "a heavy door",
        "completion/complete" | "completion/complete (prompt)" => {
            result["completion"]["values"] == json!(["safe"])
        }
        "resources/subscribe" => result.is_object(),
        "tasks/get" => result["taskId"].is_string(),
        "tasks/update" | "tasks/cancel" => result.is_object(),
        // A stream: served once its status says so (read below).
        "subscriptions/listen" => true,
        _ => false,
    };
    if served {
        "ok".to_owned()
    } else {
        format!("unexpected: {status:?} {message}")
    }
}

/// The server every row runs against: stateless or with sessions, with authorization.
async fn http_server(issuer: Issuer, stateless: bool) -> Setup {
    setup_verifying(
        issuer,
        |server| {
            server
                .only(["open_vault", "inventory"])
                .stateless(stateless)
        },
        |verifier| verifier,
    )
    .await
}

/// A token for `subject` with `scope`, from the setup's issuer.
fn token(setup: &Setup, subject: &str, scope: &str) -> String {
    let mut claims = issuer::claims(&setup.issuer.url(), &setup.resource, scope);
    claims["sub"] = json!(subject);
    issuer::sign(&claims, "a", KEY_A)
}

/// One HTTP request; its status, message and the session it opened.
async fn post(
    url: &str,
    protocol: &str,
    token: Option<&str>,
    session: Option<&str>,
    method: &str,
    params: Value,
    id: u64,
) -> (u16, Value, Option<String>) {
    let answer = request(url, protocol, token, session, (method, params), id).await;
    (answer.status, answer.message, answer.session)
}

/// The answers of the HTTP rows of `transport` and `protocol`, caller by caller, in the
/// file's words.
async fn http_row_outcomes(
    setup: &Setup,
    rows: &[&Row],
    protocol: &str,
    sessions: bool,
) -> Vec<Vec<String>> {
    let url = setup.server.url();
    let owner = token(setup, "ada", SCOPE);
    let tokens = [
        None,
        Some(token(setup, "ada", "files:read")),
        Some(token(setup, "bob", SCOPE)),
        Some(owner.clone()),
    ];
    let mut sessions_of = Vec::new();
    for token in &tokens {
        sessions_of.push(match (sessions, token) {
            (true, Some(token)) => Some(open_session(&url, token).await),
            _ => None,
        });
    }
    // The owner's task, in the owner's session where there are sessions.
    let has_tasks = rows.iter().any(|row| row.operation.starts_with("tasks/"));
    let task = if has_tasks {
        let call = json!({ "name": "inventory", "arguments": {} });
        let session = sessions_of[3].as_deref();
        let (status, created, _) =
            post(&url, protocol, Some(&owner), session, "tools/call", call, 1).await;
        assert_eq!(status, 200, "{created}");
        created["result"]["taskId"]
            .as_str()
            .expect("a task")
            .to_owned()
    } else {
        String::new()
    };
    let mut outcomes = Vec::new();
    for (id, row) in (10..).zip(rows) {
        let mut cells = Vec::new();
        for (token, session) in tokens.iter().zip(&sessions_of) {
            // The owner's token without the scope is the owner's, session and all.
            let session = session.as_deref().or(sessions_of[3].as_deref());
            let (status, message, _) = post(
                &url,
                protocol,
                token.as_deref(),
                session.filter(|_| token.is_some()),
                method(&row.operation),
                params(&row.operation, &task),
                id,
            )
            .await;
            cells.push(outcome(&row.operation, Some(status), &message));
        }
        outcomes.push(cells);
    }
    outcomes
}

/// The answers of the stdio rows of `protocol`: the one client, in the last column.
async fn stdio_row_outcomes(rows: &[&Row], protocol: &str) -> Vec<Vec<String>> {
    let server = Server::from_registry("matrix", "1")
        .only(["open_vault", "inventory"])
        .build()
        .unwrap();
    let (mut client, _served) = RawClient::connect(server);
    let send = async |client: &mut RawClient, id: u64, method: &str, params: Value| -> Value {
        let mut params = params;
        if protocol == "2026-07-28" {
            params["_meta"] = meta();
        }
        let line = json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params });
        client.send(&line.to_string()).await;
        client.receive().await
    };
    if protocol == "2025-11-25" {
        let initialize = json!({
            "protocolVersion": "2025-11-25",
            "capabilities": { "elicitation": {}, "extensions": { common::tasks::TASKS: {} } },
            "clientInfo": { "name": "matrix", "version": "1" }
        });
        let reply = send(&mut client, 0, "initialize", initialize).await;
        assert!(reply["result"].is_object(), "{reply}");
        client
            .send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
            .await;
    }
    let call = json!({ "name": "inventory", "arguments": {} });
    let created = send(&mut client, 1, "tools/call", call).await;
    let task = created["result"]["taskId"]
        .as_str()
        .expect("a task")
        .to_owned();
    let mut outcomes = Vec::new();
    for (id, row) in (10..).zip(rows) {
        let answer = if row.operation == "subscriptions/listen" {
            // A stream: its first message is the acknowledgement, or an error.
            let mut params = params(&row.operation, &task);
            params["_meta"] = meta();
            let line =
                json!({ "jsonrpc": "2.0", "id": id, "method": row.operation, "params": params });
            client.send(&line.to_string()).await;
            let first = tokio::time::timeout(Duration::from_millis(500), client.receive()).await;
            match first {
                Ok(message) if message["error"].is_object() => {
                    outcome(&row.operation, None, &message)
                }
                _ => "ok".to_owned(),
            }
        } else {
            let message = send(
                &mut client,
                id,
                method(&row.operation),
                params(&row.operation, &task),
            )
            .await;
            outcome(&row.operation, None, &message)
        };
        outcomes.push(vec!["-".to_owned(), "-".to_owned(), "-".to_owned(), answer]);
    }
    outcomes
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_cell_of_the_security_matrix_answers_as_the_file_says() {
    let rows = rows();
    let mut groups: Vec<(String, String)> = Vec::new();
    for row in &rows {
        let key = (row.transport.clone(), row.protocol.clone());
        if !groups.contains(&key) {
            groups.push(key);
        }
    }
    let mut wrong = String::new();
    let mut cells = 0;
    for (transport, protocol) in groups {
        let group: Vec<&Row> = (rows.iter())
            .filter(|row| row.transport == transport && row.protocol == protocol)
            .collect();
        let outcomes = match transport.as_str() {
            "stdio" => stdio_row_outcomes(&group, &protocol).await,
            "HTTP with sessions" | "HTTP stateless" => {
                let issuer = Issuer::start(&[("a", KEY_A)]).await;
                let stateless = transport == "HTTP stateless";
                let setup = http_server(issuer, stateless).await;
                http_row_outcomes(&setup, &group, &protocol, !stateless).await
            }
            other => panic!("no transport {other:?} in the matrix's vocabulary"),
        };
        for (row, got) in group.iter().zip(outcomes) {
            for (caller, (expected, got)) in CALLERS.iter().zip(row.expected.iter().zip(got)) {
                cells += 1;
                if *expected != got {
                    let _ = writeln!(
                        wrong,
                        "  {transport}, {protocol}, {}, {caller}: expected {expected}, got {got}",
                        row.operation
                    );
                }
            }
        }
    }
    eprintln!("{cells} cells of the security matrix run");
    assert!(wrong.is_empty(), "cells that answered otherwise:\n{wrong}");
}
