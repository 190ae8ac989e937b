//! Lenient arguments: a value sent as another JSON type than the schema wants is
//! converted for the tools, parameters and servers that opt in, each conversion logged
//! with the client's name and counted; every other tool keeps today's argument errors.

mod common;

use mcp_tool::testing::TestClient;
use mcp_tool::{Arguments, RuntimeTool, Server, ToolError, mcp_tool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Pair {
    a: i64,
}

/// Describes what it was given, for a client that sends numbers and objects as strings
/// (async, so that its arguments are read on the test's thread, where its log is caught).
#[mcp_tool(lenient)]
async fn describe_lenient(
    count: u32,
    flag: bool,
    pair: Pair,
    items: Vec<u8>,
    ratio: Option<f64>,
    /// Kept as sent: a string.
    label: Option<String>,
    /// Kept exact in a lenient tool.
    #[arg(strict)]
    exact: Option<u32>,
) -> String {
    format!(
        "{count} {flag} {} {items:?} {ratio:?} {label:?} {exact:?}",
        pair.a
    )
}

/// Describes what it was given, exactly as sent.
#[mcp_tool]
fn describe_strict(count: u32, flag: bool, pair: Pair, items: Vec<u8>) -> String {
    format!("{count} {flag} {} {items:?}", pair.a)
}

/// Adds two counts, the first of them lenient.
#[mcp_tool]
fn add_counts(
    #[arg(lenient)] first: u32,
    /// Exact even on a lenient server.
    #[arg(strict)]
    second: Option<u32>,
    third: Option<u32>,
) -> String {
    (first + second.unwrap_or(0) + third.unwrap_or(0)).to_string()
}

/// Repeats a word a number of times, defined at run time.
fn repeat(lenient: Option<bool>) -> RuntimeTool {
    let tool = RuntimeTool::new("repeat", "Repeats a word a number of times.")
        .input_schema(json!({
            "type": "object",
            "properties": {
                "word": { "type": "string" },
                "times": { "type": "integer" }
            },
            "required": ["word", "times"]
        }))
        .handler(|mut args: Arguments| async move {
            let word = args.required_str("word");
            let times = args.required_i64("times");
            args.finish()?;
            Ok::<_, ToolError>(word.repeat(usize::try_from(times).unwrap_or(0)))
        });
    match lenient {
        Some(lenient) => tool.lenient(lenient),
        None => tool,
    }
}

async fn served(client: &TestClient, tool: &str, args: Value) -> String {
    let result = client.call(tool, args.clone()).await.unwrap();
    assert!(!result.is_error, "{tool} {args}: {}", result.text());
    result.text()
}

async fn refused(client: &TestClient, tool: &str, args: Value) -> String {
    let result = client.call(tool, args.clone()).await.unwrap();
    assert!(
        result.is_error,
        "{tool} {args} is refused: {}",
        result.text()
    );
    result.text()
}

#[tokio::test]
async fn a_lenient_tool_converts_strings_of_numbers_booleans_and_json_and_whole_floats() {
    let client = TestClient::from_registry().await.unwrap();
    let text = served(
        &client,
        "describe_lenient",
        json!({ "count": "10", "flag": "true", "pair": "{\"a\":1}", "items": "[1,2]",
                "ratio": "0.5", "label": "10" }),
    )
    .await;
    assert_eq!(text, r#"10 true 1 [1, 2] Some(0.5) Some("10") None"#);
    let text = served(
        &client,
        "describe_lenient",
        json!({ "count": 1.0, "flag": false, "pair": { "a": "-4" }, "items": ["3"] }),
    )
    .await;
    assert_eq!(text, "1 false -4 [3] None None None");
}

#[tokio::test]
async fn a_lenient_tool_refuses_what_would_lose_or_invent_a_value() {
    let client = TestClient::from_registry().await.unwrap();
    let good = json!({ "count": 1, "flag": true, "pair": { "a": 1 }, "items": [] });
    for (name, value, expected) in [
        (
            "count",
            json!(1.5),
            "`count`: expected an integer from 0 to 4294967295",
        ),
        (
            "count",
            json!("1e400"),
            "`count`: expected an integer from 0 to 4294967295",
        ),
        (
            "count",
            json!(true),
            "`count`: expected an integer from 0 to 4294967295",
        ),
        (
            "count",
            json!("-1"),
            "`count`: expected an integer from 0 to 4294967295",
        ),
        ("flag", json!(1), "`flag`: expected `true` or `false`"),
        ("flag", json!("yes"), "`flag`: expected `true` or `false`"),
        ("items", json!("{}"), "`items`: expected an array"),
        (
            "exact",
            json!("10"),
            "`exact`: expected an integer from 0 to 4294967295",
        ),
    ] {
        let mut args = good.clone();
        args[name] = value.clone();
        let text = refused(&client, "describe_lenient", args).await;
        assert!(text.contains(expected), "{name}={value}: {text}");
    }
}

#[tokio::test]
async fn a_strict_tool_keeps_today_s_argument_errors() {
    let client = TestClient::from_registry().await.unwrap();
    let text = refused(
        &client,
        "describe_strict",
        json!({ "count": "10", "flag": "true", "pair": "{\"a\":1}", "items": "[1]" }),
    )
    .await;
    assert_eq!(
        text,
        "invalid arguments for tool `describe_strict`: `count`: expected an integer from 0 \
         to 4294967295; `flag`: expected `true` or `false`; `pair`: expected an object; `items`: \
         expected an array"
    );
    // A whole float is an integer by JSON Schema's rules, lenient or not.
    let text = served(
        &client,
        "describe_strict",
        json!({ "count": 2.0, "flag": true, "pair": { "a": 1 }, "items": [] }),
    )
    .await;
    assert_eq!(text, "2 true 1 []");
}

#[tokio::test]
async fn one_lenient_parameter_converts_alone_and_the_server_switch_spares_strict_ones() {
    let client = TestClient::from_registry().await.unwrap();
    assert_eq!(
        served(&client, "add_counts", json!({ "first": "2" })).await,
        "2"
    );
    let text = refused(&client, "add_counts", json!({ "first": "2", "third": "3" })).await;
    assert!(text.contains("`third`: expected"), "{text}");

    let server = Server::from_registry("lenient", "1.0.0")
        .lenient_arguments(true)
        .build()
        .unwrap();
    let client = TestClient::connect(server).await.unwrap();
    assert_eq!(
        served(&client, "add_counts", json!({ "first": "2", "third": "3" })).await,
        "5"
    );
    let text = refused(&client, "add_counts", json!({ "first": 2, "second": "3" })).await;
    assert!(text.contains("`second`: expected"), "{text}");
    let text = served(
        &client,
        "describe_strict",
        json!({ "count": "10", "flag": "true", "pair": "{\"a\":1}", "items": "[1]" }),
    )
    .await;
    assert_eq!(text, "10 true 1 [1]");
}

#[tokio::test]
async fn a_run_time_tool_converts_when_its_builder_or_its_server_says() {
    for (lenient, server_lenient, converts) in [
        (Some(true), false, true),
        (None, true, true),
        (None, false, false),
        (Some(false), true, false),
    ] {
        let server = Server::new("run-time", "1.0.0")
            .tool(repeat(lenient))
            .lenient_arguments(server_lenient)
            .build()
            .unwrap();
        let client = TestClient::connect(server).await.unwrap();
        let case = format!("tool {lenient:?}, server {server_lenient}");
        // What the schema accepts as sent stays as sent: the word "7" is a string.
        let result = client
            .call("repeat", json!({ "word": "7", "times": "3" }))
            .await
            .unwrap();
        if converts {
            assert!(!result.is_error, "{case}: {}", result.text());
            assert_eq!(result.text(), "777", "{case}");
        } else {
            assert!(result.is_error, "{case}");
            assert!(
                result.text().contains("`times`: expected"),
                "{case}: {}",
                result.text()
            );
        }
    }
}

#[tokio::test(flavor = "current_thread")]
async fn each_conversion_is_logged_with_the_client_s_name_and_counted() {
    let log = common::log::Captured::default();
    let writer = log.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_writer(mcp_tool::logging::masked(move || writer.clone()))
        .with_ansi(false)
        .with_env_filter(tracing_subscriber::EnvFilter::new(
            "mcp_tool::lenient=debug,mcp_tool::metrics=info",
        ))
        .finish();
    let _guard = tracing::subscriber::set_default(subscriber);
    let client = TestClient::from_registry().await.unwrap();
    served(
        &client,
        "describe_lenient",
        json!({ "count": "10", "flag": true, "pair": { "a": "7" }, "items": [],
                "label": "secret-label" }),
    )
    .await;
    served(
        &client,
        "describe_strict",
        json!({ "count": 1, "flag": true, "pair": { "a": 1 }, "items": [] }),
    )
    .await;
    let text = log.text();
    let logged: Vec<&str> = (text.lines())
        .filter(|line| line.contains("was converted"))
        .collect();
    assert_eq!(logged.len(), 2, "{text}");
    assert!(logged[0].contains("DEBUG"), "{text}");
    assert!(logged[0].contains("tool=\"describe_lenient\""), "{text}");
    assert!(logged[0].contains("argument=count "), "{text}");
    assert!(logged[1].contains("argument=pair.a "), "{text}");
    assert!(
        logged[0].contains("from=\"string\" to=\"integer\""),
        "{text}"
    );
    assert!(
        !text.contains("client=\"unknown\""),
        "the client is named: {text}"
    );
    assert!(text.contains("client="), "{text}");
    let counted: Vec<&str> = (text.lines())
        .filter(|line| line.contains("monotonic_counter.mcp_tool.argument.conversions=1"))
        .collect();
    assert_eq!(counted.len(), 2, "{text}");
    assert!(
        counted[1].contains("mcp_tool.argument.name=\"pair\""),
        "{text}"
    );
    // Neither the log nor the counter carries a value sent.
    assert!(
        !text.contains("10\"") && !text.contains("secret-label"),
        "{text}"
    );
}
