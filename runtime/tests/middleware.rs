//! The request pipeline: users' layers (tower's own, a `layer_fn`, a `from_fn` closure)
//! and the built-in ones, on stdio, on HTTP with sessions and on stateless HTTP.

#![cfg(feature = "http")]

mod common;

use std::sync::{Arc, Mutex};
use std::task::{Context as TaskContext, Poll};
use std::time::{Duration, Instant};

use mcp_tool::middleware::{
    self, AuditLayer, BoxError, Next, RateLimitKey, RateLimitLayer, Request, Response,
    ResponseLimitLayer,
};
use mcp_tool::{Server, mcp_tool};
use serde_json::{Value, json};

use common::http::Running;
use common::transport::{Transport, post};

/// Adds two integers.
#[mcp_tool]
async fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// Sleeps for `ms` milliseconds.
#[mcp_tool]
async fn nap(ms: u64) -> String {
    tokio::time::sleep(Duration::from_millis(ms)).await;
    "rested".to_owned()
}

/// Repeats `text` `times` times.
#[mcp_tool]
async fn repeat(text: String, times: usize) -> String {
    text.repeat(times)
}

fn server() -> Server {
    Server::from_registry("middleware", "1")
}

#[tokio::test]
async fn a_from_fn_layer_that_refuses_answers_every_transport_alike() {
    let closed = || {
        server().layer(middleware::from_fn(
            |request: Request, next: Next| async move {
                match request.target() {
                    Some("nap") => Response::error(-32042, "napping is closed until 10:00 UTC"),
                    Some("repeat") => Response::tool_error("repeating is switched off today"),
                    _ => next.run(request).await,
                }
            },
        ))
    };
    let mut answers = Vec::new();
    for (name, mut transport) in Transport::all(closed).await {
        let refused = transport.call(1, "nap", json!({"ms": 1})).await;
        let tool_error = transport
            .call(2, "repeat", json!({"text": "a", "times": 2}))
            .await;
        let served = transport.call(3, "add", json!({"a": 2, "b": 3})).await;
        assert_eq!(
            served["result"]["structuredContent"]["result"], 5,
            "{name}: {served}"
        );
        answers.push((name, refused["error"].clone(), tool_error["result"].clone()));
    }
    let (_, error, tool_error) = &answers[0];
    assert_eq!(error["code"], -32042, "{error}");
    assert_eq!(error["message"], "napping is closed until 10:00 UTC");
    assert_eq!(tool_error["isError"], true, "{tool_error}");
    assert_eq!(
        tool_error["content"][0]["text"],
        "repeating is switched off today"
    );
    for (name, other_error, other_tool_error) in &answers[1..] {
        assert_eq!(other_error, error, "{name} answers as stdio does");
        assert_eq!(other_tool_error, tool_error, "{name} answers as stdio does");
    }
}

/// A layer of one's own, as `tower::layer::layer_fn` makes it: it records what it sees.
#[derive(Clone)]
struct Recorder {
    next: Next,
    seen: Arc<Mutex<Vec<String>>>,
}

impl tower::Service<Request> for Recorder {
    type Response = Response;
    type Error = BoxError;
    type Future = std::pin::Pin<Box<dyn Future<Output = Result<Response, BoxError>> + Send>>;

    fn poll_ready(&mut self, cx: &mut TaskContext<'_>) -> Poll<Result<(), BoxError>> {
        self.next.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Self::Future {
        let arguments = request
            .arguments()
            .map(|arguments| Value::Object(arguments.clone()));
        let what = format!(
            "{} {} {}",
            request.method(),
            request.target().unwrap_or("-"),
            arguments.unwrap_or(Value::Null)
        );
        let seen = Arc::clone(&self.seen);
        let answering = self.next.call(request);
        Box::pin(async move {
            let response = answering.await?;
            seen.lock()
                .unwrap()
                .push(format!("{what} -> error: {}", response.is_error()));
            Ok(response)
        })
    }
}

#[tokio::test]
async fn a_layer_fn_sees_every_request_and_its_answer_on_every_transport() {
    for (name, make) in [("stdio", 0), ("HTTP session", 1), ("stateless HTTP", 2)] {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let recorded = Arc::clone(&seen);
        let server = server().layer(tower::layer::layer_fn(move |next| Recorder {
            next,
            seen: Arc::clone(&recorded),
        }));
        let mut transport = match make {
            0 => Transport::stdio(server).await,
            1 => Transport::session(server).await,
            _ => Transport::stateless(server).await,
        };
        transport.request(1, "tools/list", json!({})).await;
        transport.call(2, "add", json!({"a": 1, "b": 2})).await;
        transport.call(3, "add", json!({"a": "one"})).await;
        let seen = seen.lock().unwrap().clone();
        let expected_calls = [
            r#"tools/list - null -> error: false"#,
            r#"tools/call add {"a":1,"b":2} -> error: false"#,
            r#"tools/call add {"a":"one"} -> error: true"#,
        ];
        let requests: Vec<&String> = seen
            .iter()
            .filter(|seen| !seen.starts_with("notifications/"))
            .collect();
        assert_eq!(requests, expected_calls, "{name}: {seen:?}");
        if make != 2 {
            assert!(
                seen.iter()
                    .any(|seen| seen.starts_with("notifications/initialized")),
                "{name}: the layer sees notifications too: {seen:?}"
            );
        }
    }
}

#[tokio::test]
async fn towers_rate_limit_and_timeout_work_as_they_are() {
    // tower's `RateLimit` is not `Clone`: a buffer serves its one instance. A request's
    // wait for its turn is outside the timeout, which times the handler alone.
    let limited = || {
        server()
            .layer(
                tower::ServiceBuilder::new()
                    .buffer(16)
                    .rate_limit(1, Duration::from_millis(400)),
            )
            .layer(tower::timeout::TimeoutLayer::new(Duration::from_millis(
                300,
            )))
    };
    for (name, mut transport) in Transport::all(limited).await {
        let started = Instant::now();
        for id in 1..=3 {
            let reply = transport.call(id, "add", json!({"a": id, "b": 0})).await;
            assert_eq!(
                reply["result"]["structuredContent"]["result"], id,
                "{name}: {reply}"
            );
        }
        // One request each 400 ms: the second and the third waited their turn.
        assert!(
            started.elapsed() >= Duration::from_millis(800),
            "{name}: {:?}",
            started.elapsed()
        );
        let reply = transport.call(9, "nap", json!({"ms": 5_000})).await;
        assert_eq!(reply["error"]["code"], -32001, "{name}: {reply}");
        let message = reply["error"]["message"].as_str().unwrap();
        assert!(message.contains("timed out"), "{name}: {message}");
    }
}

#[tokio::test]
async fn towers_load_shed_refuses_what_a_concurrency_limit_cannot_take() {
    let shed = || {
        server()
            .layer(tower::load_shed::LoadShedLayer::new())
            .layer(tower::limit::ConcurrencyLimitLayer::new(1))
    };
    for (name, transport) in Transport::all(shed).await {
        let transport = Arc::new(tokio::sync::Mutex::new(transport));
        // Stdio's one session answers in turn: the first call is sent, then the second.
        let mut first = transport.lock().await;
        let busy = match &mut *first {
            Transport::Stdio(client) => {
                let nap = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                    "params": {"name": "nap", "arguments": {"ms": 600}}});
                client.send(&nap.to_string()).await;
                tokio::time::sleep(Duration::from_millis(150)).await;
                let add = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                    "params": {"name": "add", "arguments": {"a": 1, "b": 1}}});
                client.send(&add.to_string()).await;
                let (mut shed, mut napped) = (Value::Null, Value::Null);
                for _ in 0..2 {
                    let reply = client.receive().await;
                    if reply["id"] == 2 {
                        shed = reply
                    } else {
                        napped = reply
                    }
                }
                assert_eq!(napped["result"]["content"][0]["text"], "rested", "{napped}");
                shed
            }
            Transport::Session { running, session } => {
                let (url, session) = (running.url(), session.clone());
                concurrently(&url, Some(session)).await
            }
            Transport::Stateless(running) => concurrently(&running.url(), None).await,
        };
        assert_eq!(busy["error"]["code"], -32000, "{name}: {busy}");
        assert!(
            busy["error"]["message"].as_str().unwrap().contains("busy"),
            "{name}: {busy}"
        );
    }
}

/// A long call, and a second one while it runs: the second's reply.
async fn concurrently(url: &str, session: Option<String>) -> Value {
    let nap = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "nap", "arguments": {"ms": 600}}});
    let long = {
        let (url, session) = (url.to_owned(), session.clone());
        tokio::spawn(async move { post(&url, session.as_deref(), &nap).await.2 })
    };
    tokio::time::sleep(Duration::from_millis(150)).await;
    let add = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "add", "arguments": {"a": 1, "b": 1}}});
    let busy = post(url, session.as_deref(), &add).await.2;
    let napped = long.await.unwrap();
    assert_eq!(napped["result"]["content"][0]["text"], "rested", "{napped}");
    busy
}

#[tokio::test]
async fn the_response_limit_turns_a_large_result_into_a_tool_error_naming_both_sizes() {
    let limited = || server().layer(ResponseLimitLayer::new(1_000));
    for (name, mut transport) in Transport::all(limited).await {
        let small = transport
            .call(1, "repeat", json!({"text": "ab", "times": 10}))
            .await;
        assert_ne!(small["result"]["isError"], true, "{name}: {small}");
        let large = transport
            .call(2, "repeat", json!({"text": "ab", "times": 2_000}))
            .await;
        let result = &large["result"];
        assert_eq!(result["isError"], true, "{name}: {large}");
        let text = result["content"][0]["text"].as_str().unwrap();
        assert!(text.contains("limit of 1000 bytes"), "{name}: {text}");
        let size: usize = text
            .split_whitespace()
            .find_map(|word| word.parse().ok())
            .expect("the result's size is named");
        assert!(
            size > 4_000,
            "{name}: the size of 4,000 characters of text: {text}"
        );
        assert!(
            !text.contains("abab"),
            "{name}: nothing of the result is sent: {text}"
        );
    }
}

#[tokio::test]
async fn the_rate_limit_refuses_the_caller_over_it_and_says_when_to_try_again() {
    let limited = || server().layer(RateLimitLayer::per_minute(2));
    for (name, mut transport) in Transport::all(limited).await {
        for id in 1..=2 {
            let reply = transport.call(id, "add", json!({"a": 1, "b": 1})).await;
            assert_eq!(
                reply["result"]["structuredContent"]["result"], 2,
                "{name}: {reply}"
            );
        }
        let refused = transport.call(3, "add", json!({"a": 1, "b": 1})).await;
        let error = &refused["error"];
        assert_eq!(error["code"], -32000, "{name}: {refused}");
        let message = error["message"].as_str().unwrap();
        assert!(message.contains("2 requests a minute"), "{name}: {message}");
        let wait = error["data"]["retryAfterSeconds"].as_f64().unwrap();
        assert!(wait > 0.0 && wait <= 30.0, "{name}: {wait}");
        assert!(
            message.contains(&format!("try again in {wait:.1} s")),
            "{name}: {message}"
        );
    }
}

#[tokio::test]
async fn the_rate_limit_keyed_by_session_serves_another_session_while_it_refuses_one() {
    let server = server()
        .layer(RateLimitLayer::per_minute(1).keyed_by(RateLimitKey::Session))
        .build()
        .unwrap();
    let running = Running::start(server).await;
    let mut sessions = Vec::new();
    for _ in 0..2 {
        let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "test", "version": "1"}}});
        let (_, session, _) = post(&running.url(), None, &initialize).await;
        sessions.push(session.unwrap());
    }
    let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "add", "arguments": {"a": 1, "b": 1}}});
    let first = post(&running.url(), Some(&sessions[0]), &call).await.2;
    assert_eq!(first["result"]["structuredContent"]["result"], 2, "{first}");
    let refused = post(&running.url(), Some(&sessions[0]), &call).await.2;
    assert_eq!(refused["error"]["code"], -32000, "{refused}");
    let other = post(&running.url(), Some(&sessions[1]), &call).await.2;
    assert_eq!(
        other["result"]["structuredContent"]["result"], 2,
        "another session: {other}"
    );
}

#[tokio::test(flavor = "current_thread")]
async fn the_audit_layer_writes_one_masked_record_per_request() {
    let log = common::log::Captured::default();
    let _guard = log.install("mcp_tool::audit=info");
    let mut transport = Transport::stdio(server().layer(AuditLayer::new())).await;
    let secret = "password=hunter2";
    transport
        .call(1, "repeat", json!({"text": secret, "times": 1}))
        .await;
    transport.call(2, "add", json!({"a": "one"})).await;
    transport
        .request(
            3,
            "resources/read",
            json!({"uri": "file:///x?token=abc123"}),
        )
        .await;
    let text = log.text();
    let records: Vec<&str> = text
        .lines()
        .filter(|line| line.contains("request answered"))
        .collect();
    // `notifications/initialized`, then the three requests.
    assert_eq!(records.len(), 4, "{text}");
    assert!(
        records[1].contains("method=\"tools/call\"") && records[1].contains("target=\"repeat\""),
        "{}",
        records[1]
    );
    assert!(
        records[1].contains("outcome=\"ok\"") && records[1].contains("duration_ms="),
        "{}",
        records[1]
    );
    assert!(
        records[2].contains("outcome=\"tool_error\""),
        "{}",
        records[2]
    );
    assert!(
        records[3].contains("outcome=\"error\"") && records[3].contains("code="),
        "{}",
        records[3]
    );
    assert!(records[1].contains("transport=\"pipe\""), "{}", records[1]);
    assert!(
        !text.contains("hunter2"),
        "arguments are not recorded: {text}"
    );
    assert!(
        !text.contains("abc123"),
        "a secret in a target is masked: {text}"
    );

    // Over HTTP with authorization, a request refused before the pipeline runs is recorded
    // as well, by the same writer: `401` without a valid token, `403` without a scope.
    #[cfg(feature = "auth")]
    {
        use common::authorized::{self, request};
        use mcp_tool::{Arguments, Context, RuntimeTool};

        let vault = RuntimeTool::new("vault", "Opens the vault.")
            .scopes(["vault:open"])
            .handler(|_: Arguments, _: Context| async { Ok::<_, mcp_tool::ToolError>("open") });
        let setup = authorized::setup(|server| server.layer(AuditLayer::new()).tool(vault)).await;
        let url = setup.server.url();
        let call = |name: &str| ("tools/call", json!({ "name": name }));
        let secret_name = "vault?token=s3cr3tvalue";
        let refused = request(&url, "2026-07-28", None, None, call(secret_name), 4).await;
        assert_eq!(refused.status, 401, "{}", refused.message);
        let unscoped = setup.token("files:read");
        let refused = request(&url, "2026-07-28", Some(&unscoped), None, call("vault"), 5).await;
        assert_eq!(refused.status, 403, "{}", refused.message);
        let text = log.text();
        let record = |outcome: &str| {
            let found = text.lines().find(|line| line.contains(outcome));
            found
                .unwrap_or_else(|| panic!("no {outcome} record: {text}"))
                .to_owned()
        };
        let unauthorized = record(r#"outcome="unauthorized""#);
        for field in [
            r#"method="tools/call""#,
            r#"target="vault?token=***""#,
            r#"transport="tcp""#,
            "code=401",
        ] {
            assert!(unauthorized.contains(field), "{field} in {unauthorized}");
        }
        assert!(!unauthorized.contains("subject="), "{unauthorized}");
        let forbidden = record(r#"outcome="forbidden""#);
        for field in [
            r#"method="tools/call""#,
            r#"target="vault""#,
            r#"subject="user-42""#,
            r#"client_id="test-client""#,
            "code=403",
        ] {
            assert!(forbidden.contains(field), "{field} in {forbidden}");
        }
        assert!(
            !text.contains("s3cr3tvalue"),
            "a refused target is masked: {text}"
        );
        setup.server.stop().await;
    }
}

#[cfg(feature = "auth")]
#[tokio::test]
async fn a_rate_limited_caller_is_refused_while_another_caller_is_served() {
    use common::authorized::{self, call};
    use common::issuer::{self, KEY_A};

    let setup = authorized::setup(|server| server.layer(RateLimitLayer::per_minute(2))).await;
    let token_of = |subject: &str| {
        let mut claims = issuer::claims(&setup.issuer.url(), &setup.resource, "");
        claims["sub"] = json!(subject);
        issuer::sign(&claims, "a", KEY_A)
    };
    let (alice, bob) = (token_of("alice"), token_of("bob"));
    let url = setup.server.url();
    for _ in 0..2 {
        let reply = call(&url, Some(&alice), "add", json!({"a": 1, "b": 1}))
            .await
            .json();
        assert_eq!(reply["result"]["structuredContent"]["result"], 2, "{reply}");
    }
    let refused = call(&url, Some(&alice), "add", json!({"a": 1, "b": 1}))
        .await
        .json();
    assert_eq!(
        refused["error"]["code"], -32000,
        "alice is over her limit: {refused}"
    );
    assert!(
        refused["error"]["data"]["retryAfterSeconds"]
            .as_f64()
            .unwrap()
            > 0.0
    );
    for _ in 0..2 {
        let served = call(&url, Some(&bob), "add", json!({"a": 2, "b": 2}))
            .await
            .json();
        assert_eq!(
            served["result"]["structuredContent"]["result"], 4,
            "bob is served: {served}"
        );
    }
}

#[cfg(feature = "auth")]
#[tokio::test]
async fn a_client_acting_for_itself_has_a_budget_apart_from_the_user_of_its_name() {
    use common::authorized::{self, call};
    use common::issuer::{self, KEY_A};

    let setup = authorized::setup(|server| server.layer(RateLimitLayer::per_minute(2))).await;
    let token_of = |subject: Option<&str>| {
        let mut claims = issuer::claims(&setup.issuer.url(), &setup.resource, "");
        claims["client_id"] = json!("alice");
        match subject {
            Some(subject) => claims["sub"] = json!(subject),
            None => drop(claims.as_object_mut().unwrap().remove("sub")),
        }
        issuer::sign(&claims, "a", KEY_A)
    };
    // The user `alice` through the app `alice`, and that app acting for itself.
    let (person, machine) = (token_of(Some("alice")), token_of(None));
    let url = setup.server.url();
    let add = async |token: &str| {
        call(&url, Some(token), "add", json!({"a": 1, "b": 1}))
            .await
            .json()
    };
    for _ in 0..2 {
        let reply = add(&person).await;
        assert_eq!(reply["result"]["structuredContent"]["result"], 2, "{reply}");
    }
    let refused = add(&person).await;
    assert_eq!(
        refused["error"]["code"], -32000,
        "alice is over her limit: {refused}"
    );
    for _ in 0..2 {
        let served = add(&machine).await;
        assert_eq!(
            served["result"]["structuredContent"]["result"], 2,
            "the client `alice` has its own budget: {served}"
        );
    }
    let refused = add(&machine).await;
    assert_eq!(
        refused["error"]["code"], -32000,
        "and its own limit: {refused}"
    );
}

#[tokio::test(flavor = "current_thread")]
async fn each_request_is_a_span_with_the_mcp_attributes_and_a_tool_error_marks_it() {
    use tracing_subscriber::fmt::format::FmtSpan;

    let log = common::log::Captured::default();
    let writer = log.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_writer(mcp_tool::logging::masked(move || writer.clone()))
        .with_ansi(false)
        .with_span_events(FmtSpan::CLOSE)
        .with_env_filter(tracing_subscriber::EnvFilter::new("mcp_tool::request=info"))
        .finish();
    let _guard = tracing::subscriber::set_default(subscriber);
    let mut transport = Transport::stdio(server()).await;
    transport.call(7, "add", json!({"a": 1, "b": 2})).await;
    transport.call(8, "add", json!({"a": "token=abc123"})).await;
    let text = log.text();
    let spans: Vec<&str> = text
        .lines()
        .filter(|line| line.contains("mcp.request"))
        .collect();
    // The session's own messages have their spans too.
    for method in ["initialize", "notifications/initialized"] {
        let name = format!(r#"otel.name="{method}""#);
        assert!(spans.iter().any(|span| span.contains(&name)), "{text}");
    }
    let spans: Vec<&str> = (spans.into_iter())
        .filter(|span| span.contains(r#"mcp.method.name="tools/call""#))
        .collect();
    assert_eq!(spans.len(), 2, "{text}");
    for attribute in [
        r#"otel.name="tools/call add""#,
        r#"mcp.method.name="tools/call""#,
        r#"gen_ai.tool.name="add""#,
        r#"gen_ai.operation.name="execute_tool""#,
        r#"jsonrpc.request.id="7""#,
        r#"network.transport="pipe""#,
        r#"mcp.protocol.version="#,
    ] {
        assert!(spans[0].contains(attribute), "{attribute} in {}", spans[0]);
    }
    assert!(!spans[0].contains("error.type"), "{}", spans[0]);
    assert!(
        spans[1].contains(r#"error.type="tool_error""#),
        "{}",
        spans[1]
    );
    assert!(
        spans[1].contains(r#"otel.status_code="error""#),
        "{}",
        spans[1]
    );
    assert!(
        spans[1].contains("otel.status_description="),
        "{}",
        spans[1]
    );
    assert!(!text.contains("abc123"), "no secret in a span: {text}");
}
